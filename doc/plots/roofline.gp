# roofline.gp: a roofline of every phase of every stage (apod report): each
# phase's arithmetic intensity (the FP operations over the bytes the
# workload declares for it) against the throughput it reached (those
# operations over the time it took: the device's where the stage timed it
# there), under the roofs of the measured ceilings (`apod ceilings`): one
# core of the host, all its cores, the device.
#
#   gnuplot -e "roof='roofline.dat'; outdir='DIR'; core_bw=..; core_fl=..; \
#               cores_bw=..; cores_fl=..; dev_bw=..; dev_fl=.." roofline.gp
#
# Ceilings in GB/s and GFLOP/s, 0 where not measured.  Columns of the data:
# 1 stage  2 phase  3 intensity (flop/byte; a phase that declares no bytes
# is drawn at the right edge, marked ">" in the key)  4 GFLOP/s reached  5 roof
# (0 one core, 1 all cores, 2 the device)  6 1 where the intensity is off
# the scale (no bytes declared)  7 8 (optional) the offset of the point's
# number, in characters.  Writes DIR/roofline.svg (and .png where
# terms says so).

if (!exists("roof")) { print "roofline.gp: give the data: gnuplot -e \"roof='roofline.dat'\" roofline.gp"; exit }
if (!exists("outdir")) { outdir = "." }
if (!exists("prefix")) { prefix = outdir."/" }
if (!exists("terms")) { terms = "svg" }
if (!exists("heading")) { heading = "" }
do for [v in "core_bw core_fl cores_bw cores_fl dev_bw dev_fl"] { if (!exists(v)) { eval v." = 0" } }
png_term = (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) ? "pngcairo" : "png"

# The axes fitted to the points and to the roofs' corners (the ridge: peak
# over bandwidth), so that every point and every ridge is in view.
# Where every phase declares no bytes (Monte Carlo's) no point has an
# intensity: stats finds none and defines nothing, and the decades below
# are then the default's.
xlo = NaN; xhi = NaN
stats roof using ($6 > 0 ? NaN : $3):4 nooutput
if (exists("STATS_min_x")) { xlo = STATS_min_x; xhi = STATS_max_x }
stats roof using 4 nooutput
ylo = STATS_min; yhi = STATS_max
if (xlo != xlo || xlo <= 0) { xlo = 0.1; xhi = 10 }
do for [k = 1:3] {
	bw = (k == 1) ? core_bw : (k == 2) ? cores_bw : dev_bw
	fl = (k == 1) ? core_fl : (k == 2) ? cores_fl : dev_fl
	if (bw > 0 && fl > 0) {
		r = fl / bw
		xlo = (r < xlo) ? r : xlo; xhi = (r > xhi) ? r : xhi
		yhi = (fl > yhi) ? fl : yhi
	}
}
# Whole decades, at least two on each axis, so that every decade's tick is
# labelled (a range inside one decade would label one tick or none).
decade_lo(v) = 10 ** floor(log10(v) + 1e-9)
decade_hi(v) = 10 ** ceil(log10(v) - 1e-9)
xlo = decade_lo(xlo / 2); xhi = decade_hi(xhi * 2)
ylo = decade_lo(ylo / 2); yhi = decade_hi(yhi * 1.5)
if (xhi / xlo < 99) { xhi = xlo * 100 }
if (yhi / ylo < 99) { ylo = yhi / 100 }
edge = xhi / 1.6
roofline(x, bw, fl) = (bw > 0 && fl > 0) ? ((x * bw < fl) ? x * bw : fl) : NaN

# Each point is numbered and named in the key ("3 omp/step", a stage and a phase): names
# written beside the points overlap wherever two phases reach the same
# place.  The names and roofs of the rows, as words, in the data's order.
names = ""; roofs = ""; oxs = ""; oys = ""
stats roof using (names = names." ".($6 > 0 ? ">" : "").strcol(1)."/".strcol(2), \
                  roofs = roofs." ".sprintf("%d", $5), \
                  oxs = oxs." ".sprintf("%g", valid(7) ? $7 : 1.3), \
                  oys = oys." ".sprintf("%g", valid(8) ? $8 : 0), $4) nooutput
npoints = STATS_records
roof_of(i) = int(word(roofs, i))
point_type(i) = roof_of(i) == 2 ? 7 : roof_of(i) == 1 ? 5 : 9
point_colour(i) = roof_of(i) == 2 ? 0x2ca02c : roof_of(i) == 1 ? 0x1f77b4 : 0x7f7f7f
# A number's place beside its point, in characters: columns 7 and 8, where
# `apod report` chose one clear of the other points and numbers
# (report_labels.c), else to the right.
ox(i) = real(word(oxs, i))
oy(i) = real(word(oys, i))

do for [t in terms] {
	reset
	if (t eq "png") { eval "set terminal ".png_term." size 1000,680 font \",11\""; set output prefix."roofline.png" }
	if (t eq "svg") { set terminal svg size 1000,680 dynamic font ",11"; set output prefix."roofline.svg" }
	set title (heading eq "" ? "Roofline: every phase of every stage" : "Roofline: ".heading)
	set xlabel "arithmetic intensity (FP operations per byte, as declared; log)"
	set ylabel "GFLOP/s reached (log)"
	set logscale xy 10
	set xrange [xlo:xhi]
	set yrange [ylo:yhi]
	set format x "%g"
	set format y "%g"
	set mxtics 10
	set mytics 10
	set grid xtics ytics
	set key outside right top vertical box font ",9" spacing 1.1
	set samples 400
	plot roofline(x, dev_bw, dev_fl) title (dev_bw > 0 ? "roof: the device" : "") with lines linewidth 2.5 linecolor rgb "#2ca02c", \
	     roofline(x, cores_bw, cores_fl) title (cores_bw > 0 ? "roof: every host core" : "") with lines linewidth 2 linecolor rgb "#1f77b4", \
	     roofline(x, core_bw, core_fl) title (core_bw > 0 ? "roof: one host core" : "") with lines linewidth 2 dashtype 2 linecolor rgb "#7f7f7f", \
	     for [i = 1:npoints] roof every ::(i - 1)::(i - 1) using ($6 > 0 ? edge : $3):4 \
	         title sprintf("%d  %s", i, word(names, i)) with points pointsize 1.3 \
	         pointtype point_type(i) linecolor rgb sprintf("#%06x", point_colour(i)), \
	     for [i = 1:npoints] roof every ::(i - 1)::(i - 1) using ($6 > 0 ? edge : $3):4:(sprintf("%d", i)) \
	         notitle with labels offset ox(i), oy(i) font ",9" textcolor rgb "#202020"
	unset output
}
print sprintf("roofline.gp: %sroofline.{%s}", prefix, terms)
