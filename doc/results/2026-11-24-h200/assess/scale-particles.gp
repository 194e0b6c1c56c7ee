# apod scale: the values doc/plots/scaling.gp reads (gnuplot syntax)
workload = "particles"
deck = "particles"
host_cores = 16
nmax = 16
serial_seconds = 0.410529226
have_strong = 1
p_strong = 0.960413413
have_weak = 1
p_weak = 0.964298242
# the other stages (GPU): names and speedups over serial, as words
other_names = "gpu"
other_speedups = "62.2323"
