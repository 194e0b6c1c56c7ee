# apod scale: the values doc/plots/scaling.gp reads (gnuplot syntax)
workload = "heat"
deck = "medium"
host_cores = 16
nmax = 16
serial_seconds = 5.57140024
have_strong = 1
p_strong = 0.999655073
have_weak = 1
p_weak = 0.999673619
# the other stages: names, speedups over serial and, for a host stage (mpi),
# its threads in all (0: a device stage, drawn as a line), as words
other_names = "gpu1 gpu2 gpu3 gpu4 gpu5 mpi mgpu"
other_speedups = "0.947195 218.558 222.905 459.077 356.962 10.4569 13.1046"
other_hosts = "0 0 0 0 0 16 0"
