#!/bin/sh
# embed.sh DIR: the gnuplot scripts of DIR (ladder.gp, scaling.gp,
# roofline.gp) as C strings, on stdout, so that `apod report` and
# `apod scale` draw with the very scripts `make plots` runs, wherever apod
# is installed.
set -eu
dir=$1
echo "/* Made by doc/plots/embed.sh from the .gp files of doc/plots: do not edit. */"
for name in ladder scaling roofline; do
	echo "const char apod_gp_$name[] ="
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/\t"/' -e 's/$/\\n"/' "$dir/$name.gp"
	echo ";"
done
