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
# is drawn at the right edge, marked ">")  4 GFLOP/s reached  5 roof
# (0 one core, 1 all cores, 2 the device)  6 1 where the intensity is off
# the scale (no bytes declared).  Writes DIR/roofline.svg (and .png where
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
stats roof using ($6 > 0 ? NaN : $3):4 nooutput
xlo = STATS_min_x; xhi = STATS_max_x; ylo = STATS_min_y; yhi = STATS_max_y
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
xlo = xlo / 4; xhi = xhi * 4
ylo = ylo / 4; yhi = yhi * 2
edge = xhi / 1.6
roofline(x, bw, fl) = (bw > 0 && fl > 0) ? ((x * bw < fl) ? x * bw : fl) : NaN

do for [t in terms] {
	reset
	if (t eq "png") { eval "set terminal ".png_term." size 1000,680 font \",11\""; set output prefix."roofline.png" }
	if (t eq "svg") { set terminal svg size 1000,680 dynamic font ",11"; set output prefix."roofline.svg" }
	set title (heading eq "" ? "Roofline: every phase of every stage" : "Roofline: ".heading)
	set xlabel "arithmetic intensity (FP operations per byte, as declared)"
	set ylabel "GFLOP/s reached"
	set logscale xy 10
	set xrange [xlo:xhi]
	set yrange [ylo:yhi]
	set grid xtics ytics
	set key outside right top vertical box
	set samples 400
	plot roofline(x, dev_bw, dev_fl) title (dev_bw > 0 ? "roof: the device" : "") with lines linewidth 2.5 linecolor rgb "#2ca02c", \
	     roofline(x, cores_bw, cores_fl) title (cores_bw > 0 ? "roof: every host core" : "") with lines linewidth 2 linecolor rgb "#1f77b4", \
	     roofline(x, core_bw, core_fl) title (core_bw > 0 ? "roof: one host core" : "") with lines linewidth 2 dashtype 2 linecolor rgb "#7f7f7f", \
	     roof using ($6 > 0 ? edge : $3):4:($5 == 2 ? 7 : $5 == 1 ? 5 : 9):($5 == 2 ? 0x2ca02c : $5 == 1 ? 0x1f77b4 : 0x7f7f7f) notitle with points pointsize 1.3 pointtype variable linecolor rgb variable, \
	     roof using ($6 > 0 ? edge : $3):4:(sprintf("%s%s/%s", $6 > 0 ? "> " : "", strcol(1), strcol(2))) notitle with labels left offset 0.8, 0.5 font ",8" textcolor rgb "#404040", \
	     NaN title "a phase on the device" with points pointtype 7 linecolor rgb "#2ca02c", \
	     NaN title "on every host core" with points pointtype 5 linecolor rgb "#1f77b4", \
	     NaN title "on one core" with points pointtype 9 linecolor rgb "#7f7f7f"
	unset output
}
print sprintf("roofline.gp: %sroofline.{%s}", prefix, terms)
