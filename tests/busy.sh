#!/bin/sh
# Verdicts a busy machine cannot fake.  The table of every workload (on its
# small deck) runs under a load this test makes itself, a busy loop on every
# core, and none may say MODEL BROKEN: each stage runs several times, and a
# verdict needs the whole interval of its times beyond the bound.  A port
# that does lie (tests/check_liar.c: it declares one phase and runs another
# 33 times faster) is still caught, loaded as it is quiet (the quiet table is
# check_liar's own test).  The loops are stopped however the test ends.
. "$top_srcdir/tests/lib.sh"
: "${APOD_WORKLOAD_FACTS:?run through make check}"
# heat's table runs the mpi stage.
no_mpi_leak_check
liar=$(dirname "$APOD")/tests/check_liar
[ -x "$liar" ] || { echo "no $liar: build it with make check"; exit 1; }
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
spinners=
stop_load() {
	for p in $spinners; do kill "$p" 2>/dev/null; done
	for p in $spinners; do wait "$p" 2>/dev/null; done
	spinners=
}
trap 'stop_load; rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM
start_load() {
	i=0
	while [ "$i" -lt "$cores" ]; do
		(while :; do :; done) &
		spinners="$spinners $!"
		i=$((i + 1))
	done
}
# no_broken NAME ARGS...: the table exits 0 and names no broken model.
no_broken() {
	name=$1
	shift
	"$@" --json="$work/$name.json" >"$work/$name.out" 2>&1
	st=$?
	if [ "$st" != 0 ]; then
		echo "FAIL: $name's table exited $st under load"; sed 's/^/  | /' "$work/$name.out"
		fails=$((fails + 1))
	elif grep -q "MODEL BROKEN" "$work/$name.out"; then
		echo "FAIL: $name's table under load says MODEL BROKEN"; sed 's/^/  | /' "$work/$name.out"
		fails=$((fails + 1))
	else
		echo "ok: $name's table under load: no MODEL BROKEN ($(grep -c '^too noisy' "$work/$name.out") too noisy to tell)"
	fi
}
start_load
echo "load: $cores busy loops:$spinners"
for fact in $APOD_WORKLOAD_FACTS; do
	w=${fact%%:*} rest=${fact#*:}
	deck=${rest%%:*}
	if [ "$w" = heat ]; then
		# A budget no load can exhaust: every row's runs and interval are checked below.
		no_broken "$w" "$APOD" --workload="$w" --deck="$top_srcdir/$deck" --runs=3 --budget=300
	elif [ -n "$deck" ]; then
		no_broken "$w" "$APOD" --workload="$w" --deck="$top_srcdir/$deck"
	else
		# A workload without a small deck: a small problem of its own keys.
		case $w in
		particles) no_broken "$w" "$APOD" --workload=particles --n=20000 --steps=20 ;;
		*) echo "$w: no small deck, not run here" ;;
		esac
	fi
done
# Every row timed more than once, and its interval in the JSON.
if command -v python3 >/dev/null; then
	python3 - "$work/heat.json" <<'PY' || { echo "FAIL: the intervals in heat's JSON"; fails=$((fails + 1)); }
import json, sys
for r in json.load(open(sys.argv[1]))["stages"]:
    if not r["ran"]:
        continue
    lo, hi = r["total_seconds_interval"]
    assert r["runs"] == 3, (r["stage"], r["runs"])
    assert lo <= r["total_seconds"] <= hi, r["stage"]
    assert r["verdict"] in ("holds", "too_noisy"), (r["stage"], r["verdict"])
    assert len(r["cells"]) == 13 and r["cells"][0] == r["stage"], r["cells"]
PY
fi
"$liar" --json="$work/liar.json" >"$work/liar.out" 2>&1
if grep -q "^MODEL BROKEN for liar: .*faster than serial in exchange" "$work/liar.out" &&
	! grep -q "MODEL BROKEN for honest" "$work/liar.out"; then
	echo "ok: the liar caught under load"
else
	echo "FAIL: the liar under load"; sed 's/^/  | /' "$work/liar.out"; fails=$((fails + 1))
fi
stop_load
finish
