# scaling.gp: the pictures of `apod scale`, drawn from the files it writes
# beside its JSON (--json=BASE.json):
#
#   BASE.gp          the values: p_strong, p_weak, have_strong, have_weak, nmax,
#                    scaled_stage and unit (omp and threads, or a stage over ranks),
#                    workload, deck, host_cores, other_names, other_speedups
#   BASE.strong.dat  n, seconds, speedup, efficiency, amdahl, speedup/amdahl,
#                    serial_fraction_measured                  (one row a thread count)
#   BASE.weak.dat    n, size_factor, seconds, efficiency, scaled_speedup, gustafson,
#                    parallel_fraction_measured
#
# Usage:  gnuplot -e "scale='BASE'; outdir='DIR'" doc/plots/scaling.gp
# writes DIR/strong.png and DIR/strong.svg (speedup against threads, measured,
# with Amdahl's curve for the measured P, the ideal S = N, every device stage
# as a dashed line across, and every other host stage, mpi's ranks x
# threads, as a point at its thread count), and DIR/weak.png and DIR/weak.svg
# (scaled speedup against threads, with Gustafson's line and the ideal).
# `make plots` runs it (doc/plots/plots.sh); `apod scale --json` and
# `apod report` run the copy built into apod.  Optional: prefix (the files'
# names start with it in place of DIR/), terms ("png svg", or "svg").

if (!exists("scale")) { print "scaling.gp: give the files' base: gnuplot -e \"scale='BASE'\" scaling.gp"; exit }
if (!exists("outdir")) { outdir = "." }
if (!exists("prefix")) { prefix = outdir."/" }
if (!exists("terms")) { terms = "png svg" }
load scale.".gp"
# A .gp of an apod before the host stages were told apart: every other stage a device's.
if (!exists("other_hosts")) { other_hosts = "" }
# A .gp of an apod before a stage could be scaled over ranks: omp over threads.
if (!exists("scaled_stage")) { scaled_stage = "omp" }
if (!exists("unit")) { unit = "threads" }

# pngcairo draws smoother lines and text; plain png (libgd) where it is missing.
png_term = (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) ? "pngcairo" : "png"

amdahl(n) = 1 / ((1 - p_strong) + p_strong / n)
gustafson(n) = n + (1 - p_weak) * (1 - n)
xmax = (nmax < 2 ? 2 : nmax) * 1.25
nother = words(other_names)

# ---- strong scaling ---------------------------------------------------------
# other stage i: a host stage at N threads where word i of other_hosts is N > 0.
host_n(i) = (words(other_hosts) >= i) ? int(word(other_hosts, i)) : 0
if (have_strong || nother > 0) {
	ymin = 1; ymax = (nmax < 2 ? 2 : nmax)
	xhi = (nmax < 2 ? 2 : nmax)
	if (have_strong) {
		stats scale.".strong.dat" using 3 nooutput
		ymin = (STATS_min < ymin) ? STATS_min : ymin
		ymax = (STATS_max > ymax) ? STATS_max : ymax
	}
	do for [i = 1:nother] {
		s = real(word(other_speedups, i))
		ymin = (s < ymin) ? s : ymin
		ymax = (s > ymax) ? s : ymax
		xhi = (host_n(i) > xhi) ? host_n(i) : xhi
	}
	ndevice = 0; nhost = 0
	do for [i = 1:nother] { if (host_n(i) > 0) { nhost = nhost + 1 } else { ndevice = ndevice + 1 } }
	do for [t in terms] {
		reset
		if (t eq "png") { eval "set terminal ".png_term." size 960,640 font \",11\""; set output prefix."strong.png" }
		if (t eq "svg") { set terminal svg size 960,640 dynamic font ",11"; set output prefix."strong.svg" }
		set title sprintf("Strong scaling: %s, deck %s, on %d cores (the problem fixed)", workload, deck, host_cores)
		set xlabel (unit eq "ranks" ? "N: MPI ranks (one thread each)" : "N: threads on the host")
		set ylabel "speedup over serial"
		set logscale xy 2
		set xrange [0.8:xhi * 1.25]
		set yrange [ymin / 1.5:ymax * 1.5]
		set grid xtics ytics
		# The key right of the plot, where no point or line can be.
		set key outside right top vertical box
		set style textbox opaque noborder
		set samples 200
		# A device stage's label sits right-aligned above its line; labels
		# whose lines lie closer than a label's height (gpu2, gpu3, gpu4:
		# 156x, 162x, 175x) go into columns further left, each in the first
		# column free of every nearby label already placed.
		near = 0.05 * log((ymax * 1.5) / (ymin / 1.5))
		array column[nother > 0 ? nother : 1]
		do for [i = 1:nother] {
			s = real(word(other_speedups, i))
			c = 0
			do for [pass = 1:nother] {
				do for [j = 1:i - 1] {
					if (host_n(j) == 0 && column[j] == c && abs(log(s) - log(real(word(other_speedups, j)))) < near) { c = c + 1 }
				}
			}
			column[i] = c
			if (host_n(i) > 0) {
				set object i circle at first host_n(i), first s size screen 0.008 fillcolor rgb "#9467bd" fillstyle solid front
				set label i sprintf("%s: %.2fx at N = %d", word(other_names, i), s, host_n(i)) at first host_n(i), first s offset 1, -1 left boxed front textcolor rgb "#9467bd"
			} else {
				set arrow i from graph 0, first s to graph 1, first s nohead back dashtype 2 linewidth 1.5 linecolor rgb "#2ca02c"
				set label i sprintf("%s: %.1fx", word(other_names, i), s) at graph 0.98 - 0.16 * c, first s offset 0, 0.7 right boxed front textcolor rgb "#2ca02c"
			}
		}
		if (have_strong) {
			plot x title "ideal: S = N" with lines dashtype 3 linewidth 1.5 linecolor rgb "#404040", \
			     amdahl(x) title sprintf("Amdahl, P = %.3f", p_strong) with lines linewidth 2 linecolor rgb "#1f77b4", \
			     scale.".strong.dat" using 1:3 title scaled_stage.", measured" with linespoints pointtype 7 pointsize 1.3 linewidth 2 linecolor rgb "#d62728", \
			     NaN title (ndevice ? "a device stage (a line)" : "") with lines dashtype 2 linewidth 1.5 linecolor rgb "#2ca02c", \
			     NaN title (nhost ? "another host stage (a point)" : "") with points pointtype 7 linecolor rgb "#9467bd"
		} else {
			plot x title "ideal: S = N" with lines dashtype 3 linewidth 1.5 linecolor rgb "#404040"
		}
		unset output
	}
	print sprintf("scaling.gp: %sstrong.{%s}", prefix, terms)
} else {
	print "scaling.gp: no strong-scaling points and no other stage: no strong plot"
}

# ---- weak scaling -----------------------------------------------------------
if (have_weak) {
	stats scale.".weak.dat" using 5 nooutput
	wmax = (STATS_max > nmax) ? STATS_max : nmax
	do for [t in terms] {
		reset
		if (t eq "png") { eval "set terminal ".png_term." size 960,640 font \",11\""; set output prefix."weak.png" }
		if (t eq "svg") { set terminal svg size 960,640 dynamic font ",11"; set output prefix."weak.svg" }
		set title sprintf("Weak scaling: %s, the problem grown N times with N %s", workload, unit)
		set xlabel (unit eq "ranks" ? "N: MPI ranks = the problem's size factor" : "N: OpenMP threads = the problem's size factor")
		set ylabel "scaled speedup: N T(1) / T(N)"
		set y2label "efficiency: T(1) / T(N)"
		set xrange [0:xmax]
		set yrange [0:wmax * 1.15]
		set y2range [0:1.15]
		set ytics nomirror
		set y2tics 0.2
		set grid xtics ytics
		# Right of the plot: inside, it covered the two-thread point.
		set key outside right top vertical box
		plot x title "ideal: S = N" with lines dashtype 3 linewidth 1.5 linecolor rgb "#404040", \
		     gustafson(x) title sprintf("Gustafson, p = %.3f", p_weak) with lines linewidth 2 linecolor rgb "#1f77b4", \
		     scale.".weak.dat" using 1:5 title scaled_stage.", measured (estimate: work linear in N)" with linespoints pointtype 7 pointsize 1.3 linewidth 2 linecolor rgb "#d62728", \
		     scale.".weak.dat" using 1:4 axes x1y2 title "efficiency (right)" with linespoints pointtype 6 dashtype 2 linecolor rgb "#ff7f0e"
		unset output
	}
	print sprintf("scaling.gp: %sweak.{%s}", prefix, terms)
} else {
	print "scaling.gp: no weak-scaling points (apod scale ran with --no-weak, or could not grow the problem): no weak plot"
}
