# apod scale: the values doc/plots/scaling.gp reads (gnuplot syntax)
workload = "heat"
deck = "medium"
host_cores = 16
nmax = 16
serial_seconds = 2.27834523
have_strong = 1
p_strong = 0.995653579
have_weak = 1
p_weak = 0.99908642
# the other stages (GPU): names and speedups over serial, as words
other_names = "gpu1 gpu2 gpu3 gpu4"
other_speedups = "0.944226 152.849 140.75 147.517"
