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

if (!exists("ladder")) { print "ladder.gp: give the data: gnuplot -e \"ladder='ladder.dat'\" ladder.gp"; exit }
if (!exists("outdir")) { outdir = "." }
if (!exists("heading")) { heading = "" }
png_term = (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) ? "pngcairo" : "png"

stats ladder using 1 nooutput
nstages = STATS_max
stats ladder using 4 nooutput
ylo = STATS_min; yhi = STATS_max
stats ladder using 5 nooutput
ylo = (STATS_min < ylo) ? STATS_min : ylo; yhi = (STATS_max > yhi) ? STATS_max : yhi
# amdahl_limit may be NaN in every row (every stage unbounded): then no stats.
nlimits = 0
stats ladder using 6 nooutput
nlimits = STATS_records
if (nlimits > 0) { yhi = (STATS_max > yhi) ? STATS_max : yhi }
# Likewise the speed of light (absent from tables older than it).
nsol = 0
stats ladder using 7 nooutput
nsol = STATS_records
if (nsol > 0) { yhi = (STATS_max > yhi) ? STATS_max : yhi }
ylo = (ylo > 1) ? 1 : ylo

do for [t in "png svg"] {
	reset
	if (t eq "png") { eval "set terminal ".png_term." size 960,640 font \",11\""; set output outdir."/ladder.png" }
	if (t eq "svg") { set terminal svg size 960,640 dynamic font ",11"; set output outdir."/ladder.svg" }
	set title (heading eq "" ? "The APOD ladder: each stage against its bound" : "The APOD ladder: ".heading)
	set ylabel "speedup over serial (log)"
	set logscale y
	set yrange [ylo / 2:yhi * 4]
	set xrange [0.4:nstages + 0.6]
	set xtics scale 0
	set bmargin 4
	set grid ytics
	set key top left box opaque
	set style fill solid 0.6 border -1
	set boxwidth 0.6
	plot ladder using 1:4:xtic(sprintf("%s\n%.3g s", strcol(2), $3)) title "measured speedup (the stage's time below its name)" with boxes linecolor rgb "#d62728", \
	     ladder using 1:5 title "Amdahl at N" with points pointtype 9 pointsize 2 linecolor rgb "#1f77b4", \
	     ladder using 1:6:($1 - 0.35):($1 + 0.35) title "Amdahl limit (N without end)" with xerrorbars pointtype 0 linewidth 3 linecolor rgb "#000000", \
	     ladder using 1:7 title "speed of light (declared work over measured ceilings)" with points pointtype 7 pointsize 1.2 linecolor rgb "#2ca02c"
	unset output
}
print sprintf("ladder.gp: %s/ladder.png, %s/ladder.svg", outdir, outdir)
