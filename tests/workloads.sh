#!/bin/sh
# Choosing a workload, its parameters as --KEY=VALUE, and the messages a
# wrong choice gets.
. "$top_srcdir/tests/lib.sh"
expect 0 "heat" "$APOD" workloads
expect 0 "particles" "$APOD" workloads
expect 0 "hist_bins" "$APOD" workloads --workload=heat
expect 2 "unknown workload 'nope'" "$APOD" --workload=nope
expect 2 "unknown workload 'nope'" "$APOD" run --workload=nope --stage=serial
expect 2 "unknown workload 'nope'" "$APOD" stages --workload=nope
# A key of one workload is not an option of another.
expect 2 "unknown option '--hist_bins=4'" "$APOD" run --workload=particles --stage=serial --hist_bins=4
# Every key of the deck is an option, checked as a deck line is.
expect 2 "--hist_bins: hist_bins: 0 is out of range" "$APOD" run --stage=serial --hist_bins=0
expect 2 "--alpha: alpha: 0.3 is outside (0, 0.25], where the explicit scheme is stable" \
	"$APOD" run --stage=serial --alpha=0.3
expect 0 "stage serial" "$APOD" run --stage=serial --deck="$top_srcdir/data/heat/small.deck" \
	--steps=5 --zones=2x2 --source="0.5 0.5 0.1 50" --out="$work/r"
grep -Eq '"steps": ?5' "$work/r/report.json" || { echo "FAIL: --steps did not reach the run"; fails=$((fails + 1)); }
grep -q '"0.5 0.5 0.1 50"' "$work/r/report.json" ||
	{ echo "FAIL: --source did not replace the deck's heaters"; cat "$work/r/report.json"; fails=$((fails + 1)); }
# Progress goes to stderr only when asked for (it is off when stderr is not a terminal).
# A run draws nothing in its first second, so this one lasts several (3000
# steps took 1.04 s on the development host, and sometimes under 1 s).
APOD_PROGRESS=1 "$APOD" run --stage=serial --size=400x400 --steps=12000 --snapshot_every=0 >/dev/null 2>"$work/progress"
grep -q "step .* of 12000" "$work/progress" || { echo "FAIL: no progress line when forced"; fails=$((fails + 1)); }
"$APOD" run --stage=serial --deck="$top_srcdir/data/heat/small.deck" >/dev/null 2>"$work/quiet"
[ ! -s "$work/quiet" ] || { echo "FAIL: output on stderr when it is not a terminal"; cat "$work/quiet"; fails=$((fails + 1)); }
expect 0 "apod harness" "$APOD" --version
finish
