#!/bin/sh
# plots.sh SCALE_JSON TABLE_JSON OUTDIR: the pictures behind `make plots`.
#
#   OUTDIR/strong.{png,svg}  speedup against threads, Amdahl's curve, the GPU stages
#   OUTDIR/weak.{png,svg}    scaled speedup against threads, Gustafson's line
#   OUTDIR/ladder.{png,svg}  each stage's speedup beside its Amdahl bounds
#
# SCALE_JSON is what `apod scale --json=SCALE_JSON` wrote; the files beside
# it (SCALE_JSON less ".json", then .gp, .strong.dat, .weak.dat) are what
# scaling.gp reads.  TABLE_JSON is what `apod --json=TABLE_JSON` wrote.
# Without gnuplot this says so and succeeds; a missing input is reported
# with the command that makes it, and fails.
set -u
if [ $# -ne 3 ]; then
	echo "usage: plots.sh SCALE_JSON TABLE_JSON OUTDIR" >&2
	exit 2
fi
here=$(dirname "$0")
scale=$1 table=$2 out=$3
if ! command -v gnuplot >/dev/null 2>&1; then
	echo "plots: gnuplot not found; no plots made (Debian: apt-get install gnuplot-nox)"
	exit 0
fi
case "$scale$table$out" in
*\'*) echo "plots: a path with a single quote cannot be handed to gnuplot" >&2; exit 2 ;;
esac
mkdir -p "$out" || exit 1
failed=0

base=${scale%.json}
if [ ! -f "$scale" ] || [ ! -f "$base.gp" ] || [ ! -f "$base.strong.dat" ]; then
	echo "plots: $scale (and $base.gp, $base.strong.dat beside it) missing:" >&2
	echo "plots:   run  ./apod scale --deck=data/heat/medium.deck --json=$scale  first" >&2
	failed=1
elif ! gnuplot -e "scale='$base'; outdir='$out'" "$here/scaling.gp"; then
	echo "plots: gnuplot failed on $here/scaling.gp" >&2
	failed=1
fi

if [ ! -f "$table" ]; then
	echo "plots: $table missing:" >&2
	echo "plots:   run  ./apod --deck=data/heat/medium.deck --json=$table  first" >&2
	failed=1
else
	dat=$(mktemp "${TMPDIR:-/tmp}/apod-ladder-XXXXXX") || exit 1
	if sh "$here/table2dat.sh" "$table" >"$dat"; then
		heading=$(sed -n '1s/^# //p' "$dat" | tr -d "'")
		gnuplot -e "ladder='$dat'; outdir='$out'; heading='$heading'" "$here/ladder.gp" || {
			echo "plots: gnuplot failed on $here/ladder.gp" >&2; failed=1; }
	else
		failed=1
	fi
	rm -f "$dat"
fi
exit $failed
