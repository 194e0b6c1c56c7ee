#!/bin/sh
# `apod assess` profiles the serial stage with gprof and prints the bounds.
. "$top_srcdir/tests/lib.sh"
command -v gprof >/dev/null || { echo "SKIP: no gprof"; exit 77; }
expect 0 "Amdahl" "$APOD" assess --deck="$top_srcdir/data/heat/small.deck" --steps=60 --out="$work/prof"
for f in flat.txt callgraph.txt phases.json assess.json; do
	[ -s "$work/prof/$f" ] || { echo "FAIL: assess did not write $f"; fails=$((fails + 1)); }
done
# The small deck gives gprof a handful of samples: said, and recorded.
grep -q "assess: warning: gprof's profile holds [0-9]* samples\{0,1\} " "$work/out" \
	|| { echo "FAIL: assess on the small deck does not warn of its few samples"; fails=$((fails + 1)); }
grep -q '"profile_samples"' "$work/prof/assess.json" \
	|| { echo "FAIL: assess.json has no profile_samples"; fails=$((fails + 1)); }
grep -q genTimeStep "$work/prof/flat.txt" || { echo "FAIL: genTimeStep not in the flat profile"; cat "$work/prof/flat.txt"; fails=$((fails + 1)); }
grep -q calcStats "$work/out" || { echo "FAIL: calcStats not among the phases"; fails=$((fails + 1)); }
# Ranked by heat: each phase alone, its P never above the one before; then
# the sets together, each growing by the next of those phases.
awk '
/each phase alone:/ { alone = 1; next }
/the hottest phases together:/ { alone = 0; together = 1; next }
alone && /P=/ {
	p = $0; sub(/.*P=/, "", p); sub(/ .*/, "", p)
	if (n && p + 0 > last + 0) { print "FAIL: " $1 " (P=" p ") ranked below P=" last; bad = 1 }
	last = p; name[n++] = $1
}
# A long set is printed on a line of its own, its figures under it.
together && !/P=/ && $1 ~ /\+/ { held = $1; next }
together && /P=/ {
	set = $1 ~ /^P=/ ? held : $1
	want = name[0]; for (i = 1; i <= sets + 1; i++) want = want "+" name[i]
	if (set != want) { print "FAIL: the set " set " is not " want; bad = 1 }
	sets++
}
END {
	if (n < 3) { print "FAIL: " n " phases alone"; bad = 1 }
	if (!sets) { print "FAIL: no sets of phases together"; bad = 1 }
	exit bad
}' "$work/out" || { sed 's/^/  | /' "$work/out"; fails=$((fails + 1)); }
finish
