#!/bin/sh
# `apod scale`: strong and weak scaling, their JSON and the data files the
# plots are drawn from.  Benchmarks are not tests: only the structure is
# checked here, never a time or a speedup.
. "$top_srcdir/tests/lib.sh"
deck=$top_srcdir/data/heat/small.deck
# Open MPI does not free everything it allocates by MPI_Finalize (its
# components are unloaded first, so LeakSanitizer cannot even name them):
# in the sanitizers' build, scale (which runs the mpi stage once, at one
# rank) is not checked for leaks; addresses and undefined behaviour still are.
if [ "${APOD_SANITIZE:-no}" = yes ]; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	export ASAN_OPTIONS
fi


expect 0 "strong scaling" "$APOD" scale --deck="$deck" --steps=20 --threads=1,2 --reps=1 --json="$work/s.json"
grep -q "weak scaling" "$work/out" || { echo "FAIL: no weak scaling table"; fails=$((fails + 1)); }
for f in s.json s.strong.dat s.weak.dat s.gp; do
	check "scale wrote $f" test -s "$work/$f"
done
check "s.strong.dat: 2 rows" [ "$(rows "$work/s.strong.dat")" = 2 ]
check "s.strong.dat: 7 columns" [ "$(cols "$work/s.strong.dat")" = "7 " ]
check "s.strong.dat: n = 1, 2" [ "$(grep -v '^#' "$work/s.strong.dat" | awk '{printf "%s ", $1}')" = "1 2 " ]
check "s.weak.dat: 2 rows" [ "$(rows "$work/s.weak.dat")" = 2 ]
check "s.weak.dat: 7 columns" [ "$(cols "$work/s.weak.dat")" = "7 " ]
check "s.gp: p_strong, p_weak" grep -q '^p_weak = ' "$work/s.gp"
no_tmp=$(find "$work" -name '*.tmp*' | wc -l)
check "no temporary files left" [ "$no_tmp" -eq 0 ]
if command -v python3 >/dev/null; then
	check "s.json: the keys and points" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
for k in ("workload", "params", "host_cores", "threads", "strong", "weak"):
    assert k in s, k
assert s["workload"] == "heat" and s["threads"] == [1, 2], s["threads"]
st = s["strong"]
assert set(st) >= {"serial_seconds", "p", "points", "other_stages"}, st.keys()
assert [p["n"] for p in st["points"]] == [1, 2]
for p in st["points"]:
    assert set(p) >= {"n", "seconds", "speedup", "efficiency", "amdahl", "serial_fraction_measured"}, p
assert all(set(o) >= {"stage", "seconds", "speedup"} for o in st["other_stages"])
assert all(o["stage"] not in ("serial", "omp") for o in st["other_stages"])
wk = s["weak"]
assert wk["factor_key"] == "grow" and "p" in wk
assert [p["n"] for p in wk["points"]] == [1, 2]
for p in wk["points"]:
    assert set(p) >= {"n", "seconds", "efficiency", "scaled_speedup", "gustafson"}, p
' "$work/s.json"
fi

# --no-weak: strong scaling alone, no weak file.
expect 0 "strong scaling" "$APOD" scale --deck="$deck" --steps=10 --threads=2 --reps=1 --no-weak --json="$work/n.json"
check "--no-weak: no weak table" sh -c "! grep -q 'weak scaling' '$work/out'"
check "--no-weak: no n.weak.dat" test ! -e "$work/n.weak.dat"
check "--no-weak: 1 is measured too" [ "$(rows "$work/n.strong.dat")" = 2 ]
check "--no-weak: no weak in the JSON" sh -c "! grep -q '\"weak\"' '$work/n.json'"

# Bad thread lists and repetitions are usage errors, named.
expect 2 "--threads: '0' is not a thread count" "$APOD" scale --deck="$deck" --threads=0
expect 2 "--threads: 'x' is not a thread count" "$APOD" scale --deck="$deck" --threads=x
expect 2 "--threads: an empty list" "$APOD" scale --deck="$deck" --threads=
expect 2 "--threads: an empty count" "$APOD" scale --deck="$deck" --threads=1,,2
expect 2 "--threads: '2x' is not a thread count" "$APOD" scale --deck="$deck" --threads=1,2x
expect 2 "needs a value" "$APOD" scale --deck="$deck" --threads
expect 2 "--reps: '0' is not 1 to 1000" "$APOD" scale --deck="$deck" --reps=0
expect 2 "unexpected argument 'extra'" "$APOD" scale --deck="$deck" extra
# A grow the workload refuses is refused before anything runs.
expect 2 "cannot grow 1024 times" "$APOD" scale --deck="$deck" --size=317x5000 --threads=1,1024
check "a refused grow ran nothing" sh -c "! grep -q '^serial:' '$work/out'"

# The second workload: its own grow (the particle count).
expect 0 "weak scaling" "$APOD" scale --workload=particles --n=2000 --steps=10 --threads=1,2 --reps=1 \
	--json="$work/p.json"
check "p.strong.dat: 2 rows" [ "$(rows "$work/p.strong.dat")" = 2 ]
check "p.weak.dat: 2 rows" [ "$(rows "$work/p.weak.dat")" = 2 ]
check "p.json names the workload" grep -q '"workload":"particles"' "$work/p.json"

# The plots, where gnuplot is: each file made and not empty.
if command -v gnuplot >/dev/null; then
	expect 0 "reference" "$APOD" --deck="$deck" --steps=10 --json="$work/t.json"
	expect 0 "ladder.gp" sh "$top_srcdir/doc/plots/plots.sh" "$work/s.json" "$work/t.json" "$work/plots"
	for f in strong.png strong.svg weak.png weak.svg ladder.png ladder.svg; do
		check "plots made $f" test -s "$work/plots/$f"
	done
	expect 1 "run  ./apod scale" sh "$top_srcdir/doc/plots/plots.sh" "$work/none.json" "$work/t.json" "$work/plots"
else
	echo "skip: gnuplot not found, the plots are not checked"
fi
finish
