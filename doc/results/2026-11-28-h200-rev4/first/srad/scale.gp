# apod scale: the values doc/plots/scaling.gp reads (gnuplot syntax)
workload = "srad"
deck = "srad"
host_cores = 16
nmax = 16
serial_seconds = 0.483574566
have_strong = 1
p_strong = 0.959675172
have_weak = 1
p_weak = 0.957080476
# the other stages: names, speedups over serial and, for a host stage (mpi),
# its threads in all (0: a device stage, drawn as a line), as words
other_names = "gpu"
other_speedups = "108.107"
other_hosts = "0"
