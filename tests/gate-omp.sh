#!/bin/sh
# OpenMP against serial: the same per-cell arithmetic in the same order, so
# the field must match bit for bit; the moments may differ only by the
# rounding of a different merge order, within the designed tolerance.
. "$top_srcdir/tests/lib.sh"
deck=$top_srcdir/data/heat/small.deck
"$APOD" stages | grep -q '^omp *available' || { echo "SKIP: omp not built"; exit 77; }
expect 0 "stage serial" "$APOD" run --stage=serial --deck="$deck" --out="$work/serial"
OMP_NUM_THREADS=3 expect 0 "stage omp" "$APOD" run --stage=omp --deck="$deck" --out="$work/omp"
expect 0 "0 of 64351 values differ" "$APOD" verify "$work/serial" "$work/omp"
expect 0 "PASS" "$APOD" verify "$top_srcdir/data/heat/ref/small" "$work/omp"
# calcStats every 3rd step (stats_every): 40 rows, at steps 3, 6, ..., 120,
# and the same gate.
expect 0 "stage serial" "$APOD" run --stage=serial --deck="$deck" --stats_every=3 --out="$work/serial3"
OMP_NUM_THREADS=3 expect 0 "stage omp" "$APOD" run --stage=omp --deck="$deck" --stats_every=3 --out="$work/omp3"
expect 0 "0 of 64351 values differ" "$APOD" verify "$work/serial3" "$work/omp3"
for f in stats hist; do
	awk -F, 'NR > 1 && $1 != 3 * (NR - 1) { bad = 1 } END { exit bad || NR != 41 }' "$work/omp3/$f.csv" ||
		{ echo "FAIL: omp3/$f.csv is not the rows of steps 3, 6, ..., 120"; fails=$((fails + 1)); }
done
# Statistics every 3rd step against every step: the same rows where both have one.
awk -F, 'NR == FNR { row[$1] = $0; next } FNR > 1 && row[$1] != $0 { bad = 1 } END { exit bad }' \
	"$work/serial/stats.csv" "$work/serial3/stats.csv" ||
	{ echo "FAIL: serial's statistics every 3rd step differ from those every step"; fails=$((fails + 1)); }
finish
