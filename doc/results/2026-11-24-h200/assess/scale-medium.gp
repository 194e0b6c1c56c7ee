# apod scale: the values doc/plots/scaling.gp reads (gnuplot syntax)
workload = "heat"
deck = "medium"
host_cores = 16
nmax = 16
serial_seconds = 2.12887871
have_strong = 1
p_strong = 0.999050192
have_weak = 1
p_weak = 0.999018023
# the other stages (GPU): names and speedups over serial, as words
other_names = "gpu1 gpu2 gpu3 gpu4"
other_speedups = "1.14507 156.463 161.7 175.247"
