#!/bin/sh
# OpenMP against serial: the same per-cell arithmetic in the same order, so
# the field must match bit for bit; the moments may differ only by the
# rounding of a different merge order, within the designed tolerance.
. "$top_srcdir/tests/lib.sh"
deck=$top_srcdir/data/small.deck
"$APOD" stages | grep -q '^omp *available' || { echo "SKIP: omp not built"; exit 77; }
expect 0 "stage serial" "$APOD" run --stage=serial --deck="$deck" --out="$work/serial"
OMP_NUM_THREADS=3 expect 0 "stage omp" "$APOD" run --stage=omp --deck="$deck" --out="$work/omp"
expect 0 "0 of 64351 values differ" "$APOD" verify "$work/serial" "$work/omp"
expect 0 "PASS" "$APOD" verify "$top_srcdir/data/ref/small" "$work/omp"
finish
