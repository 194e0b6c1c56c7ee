# apod scale: the values doc/plots/scaling.gp reads (gnuplot syntax)
workload = "lookup"
deck = "lookup"
host_cores = 16
nmax = 32
serial_seconds = 0.338343998
have_strong = 1
p_strong = 0.999956896
have_weak = 0
p_weak = 0
# the other stages: names, speedups over serial and, for a host stage (mpi),
# its threads in all (0: a device stage, drawn as a line), as words
other_names = "gpu"
other_speedups = "224.604"
other_hosts = "0"
