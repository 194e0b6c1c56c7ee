# ladder.gp: the APOD ladder in one picture: each stage's measured speedup
# over serial (a bar, its time under its name) beside the bounds Amdahl's
# law puts on it (at its N, and as N grows without end) and its speed of
# light (doc/assess.md: the declared work over the measured ceilings), on
# a log scale.
#
# The data come from the table's JSON through doc/plots/table2dat.sh:
#   sh doc/plots/table2dat.sh TABLE.json > ladder.dat
#   gnuplot -e "ladder='ladder.dat'; outdir='DIR'; heading='...'" doc/plots/ladder.gp
# writes DIR/ladder.png and DIR/ladder.svg.  `make plots` runs both
# (doc/plots/plots.sh).  Columns: 1 index  2 stage  3 total_seconds
# 4 speedup_vs_serial  5 amdahl_at_n  6 amdahl_limit (NaN: unbounded)
# 7 the speed-of-light speedup (NaN: none).  A GPU stage's Amdahl at N is its
# speed of light (N: the ceiling ratio of what it ports): the marks coincide.
# Row 1 is serial, the reference: its bar only, no bound.

if (!exists("ladder")) { print "ladder.gp: give the data: gnuplot -e \"ladder='ladder.dat'\" ladder.gp"; exit }
if (!exists("outdir")) { outdir = "." }
if (!exists("heading")) { heading = "" }
if (!exists("prefix")) { prefix = outdir."/" }
if (!exists("terms")) { terms = "png svg" }
png_term = (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) ? "pngcairo" : "png"

stats ladder using 1 nooutput
nstages = STATS_max
stats ladder using 4 nooutput
ylo = STATS_min; yhi = STATS_max
stats ladder using 5 nooutput
ylo = (STATS_min < ylo) ? STATS_min : ylo; yhi = (STATS_max > yhi) ? STATS_max : yhi
# The Amdahl limit does not stretch the axis (a limit of 7745x over
# speedups of 11 squashed every bar): a limit above the top is drawn at
# the top with its value written beside it.
# The speed of light may be NaN in every row (tables older than it): then no stats.
nsol = 0
stats ladder using 7 nooutput
nsol = STATS_records
if (nsol > 0) { yhi = (STATS_max > yhi) ? STATS_max : yhi }
ylo = (ylo > 1) ? 1 : ylo
# Whole decades, at least two, so that the log axis labels each decade.
ylo = 10 ** floor(log10(ylo / 2) + 1e-9)
ytop = 10 ** ceil(log10(yhi * 4) - 1e-9)
if (ytop / ylo < 99) { ylo = ytop / 100 }
clip(v) = (v > ytop) ? ytop : v

do for [t in terms] {
	reset
	if (t eq "png") { eval "set terminal ".png_term." size 1000,640 font \",11\""; set output prefix."ladder.png" }
	if (t eq "svg") { set terminal svg size 1000,640 dynamic font ",11"; set output prefix."ladder.svg" }
	set title (heading eq "" ? "The APOD ladder: each stage against its bound" : "The APOD ladder: ".heading)
	set ylabel "speedup over serial (log)"
	set logscale y
	set yrange [ylo:ytop]
	set format y "%gx"
	set mytics 10
	set xrange [0.4:nstages + 0.6]
	set xtics scale 0
	set bmargin 4
	set grid ytics
	# Right of the plot: inside, the key covered the first stages' bars.
	set key outside right top vertical box
	set style fill solid 0.6 border -1
	set boxwidth 0.6
	plot ladder using 1:4:xtic(sprintf("%s\n%.3g s", strcol(2), $3)) title "measured speedup" with boxes linecolor rgb "#d62728", \
	     ladder using 1:($1 == 1 ? NaN : $5) title "Amdahl at N" with points pointtype 9 pointsize 2 linecolor rgb "#1f77b4", \
	     ladder using 1:($1 == 1 ? NaN : clip($6)):($1 - 0.35):($1 + 0.35) title "Amdahl limit (N without end)" with xerrorbars pointtype 0 linewidth 3 linecolor rgb "#000000", \
	     ladder using 1:($1 == 1 ? NaN : clip($6)):($1 > 1 && $6 > ytop ? sprintf("limit %.4gx", $6) : "") notitle with labels offset 0, -0.8 font ",9", \
	     ladder using 1:($1 == 1 ? NaN : $7) title (nsol > 0 ? "speed of light" : "") with points pointtype 7 pointsize 1.2 linecolor rgb "#2ca02c"
	unset output
}
print sprintf("ladder.gp: %sladder.{%s}", prefix, terms)
