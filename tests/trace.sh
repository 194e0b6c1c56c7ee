#!/bin/sh
# --trace: the device's own time per phase (CUPTI), against the span the
# stage's own CUDA events give.  The durations of a phase's work add up to
# no more than the time from its first start to its last end (busy <=
# work), and on one stream that lies inside the phase's events (work <=
# span); tracing must not change the results; and a traced stage must show
# work in its compute phases.  Skips (77) without a GPU.
. "$top_srcdir/tests/lib.sh"
deck=$top_srcdir/data/heat/small.deck
if ! "$APOD" stages | grep -q '^gpu1 *available'; then
	echo "SKIP: no GPU stage can run here:"; "$APOD" stages | grep 'why:' | head -1
	exit 77
fi
command -v python3 >/dev/null || { echo "SKIP: python3 is needed to read the JSON"; exit 77; }

# busy <= work <= span (+2% and 20 us for the two clocks' resolutions),
# busy > 0 where the stage computes on the device, for every phase named.
check() {   # check REPORT.json PHASE...
	python3 - "$@" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
span, work = r["device_seconds"], r["device_work_seconds"]
busy = r["device_busy_seconds"]
bad = []
for ph in sys.argv[2:]:
    if not busy[ph] > 0:
        bad.append("%s: no device work traced" % ph)
    if busy[ph] > work[ph] * (1 + 1e-9):
        bad.append("%s: busy %.6f s exceeds work %.6f s" % (ph, busy[ph], work[ph]))
    if work[ph] > 1.02 * span[ph] + 20e-6:
        bad.append("%s: work %.6f s exceeds the span %.6f s" % (ph, work[ph], span[ph]))
print("%s %s: " % (r["workload"], r["stage"]) +
      ", ".join("%s busy %.6f / work %.6f / span %.6f s" % (p, busy[p], work[p], span[p])
                for p in sys.argv[2:]))
if bad:
    print("FAIL: " + "; ".join(bad)); sys.exit(1)
PY
	[ $? -eq 0 ] || fails=$((fails + 1))
}

for s in gpu1 gpu2 gpu3 gpu4; do
	expect 0 "busy s" "$APOD" run --stage=$s --deck="$deck" --out="$work/$s" --json="$work/$s.json" --trace
	expect 0 "PASS" "$APOD" verify "$top_srcdir/data/heat/ref/small" "$work/$s"
done
check "$work/gpu1.json" genTimeStep
for s in gpu2 gpu3; do check "$work/$s.json" genTimeStep calcStats calcSummaryData; done
# gpu4 computes its statistics inside the sweep: calcStats only merges.
check "$work/gpu4.json" genTimeStep calcStats
expect 0 "busy s" "$APOD" run --workload=nbody --stage=gpu4 --deck="$top_srcdir/data/nbody/small.deck" \
	--json="$work/nbody.json" --trace
check "$work/nbody.json" computeForces
expect 0 "busy s" "$APOD" run --workload=montecarlo --stage=gpu2 \
	--deck="$top_srcdir/data/montecarlo/small.deck" --json="$work/mc.json" --trace
check "$work/mc.json" simulateBatch
finish
