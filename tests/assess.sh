#!/bin/sh
# `apod assess` profiles the serial stage with gprof and prints the bounds.
. "$top_srcdir/tests/lib.sh"
command -v gprof >/dev/null || { echo "SKIP: no gprof"; exit 77; }
expect 0 "Amdahl" "$APOD" assess --deck="$top_srcdir/data/small.deck" --steps=60 --out="$work/prof"
for f in flat.txt callgraph.txt phases.json assess.json; do
	[ -s "$work/prof/$f" ] || { echo "FAIL: assess did not write $f"; fails=$((fails + 1)); }
done
grep -q genTimeStep "$work/prof/flat.txt" || { echo "FAIL: genTimeStep not in the flat profile"; cat "$work/prof/flat.txt"; fails=$((fails + 1)); }
grep -q calcStats "$work/out" || { echo "FAIL: calcStats not among the phases"; fails=$((fails + 1)); }
finish
