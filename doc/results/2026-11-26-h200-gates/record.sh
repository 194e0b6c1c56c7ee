#!/bin/bash
# Session 11 (H200), at the final commit, after the merged clean-up (dups7a,
# dups7b) and n-body's work count: make check; the tables of every workload
# on the medium decks, heat's small deck and n-body's large one (its serial
# and omp rows were MODEL BROKEN at 20 flops an interaction); gpu4 and gpu5
# against serial with statistics every third step; mgpu with one rank;
# bench --kernels on heat's two decks; memcheck on every GPU stage whose
# host code moved, and the three labs whose code moved.
. doc/results/prelude.sh
record check 240 make -j"$(nproc)" check
grep -E "^# (TOTAL|PASS|SKIP|FAIL|ERROR)|^(FAIL|ERROR): " "$RES/check.txt"
for t in $(grep -E "^(FAIL|ERROR): " "$RES/check.txt" | awk '{print $2}'); do tail -30 "$t.log"; done
record ceilings 60 ./apod ceilings --json="$RES/ceilings.json"
for d in medium small; do
	record table-heat-$d 100 ./apod --deck=data/$d.deck --json="$RES/table-heat-$d.json"
done
for d in medium large; do
	record table-nbody-$d 100 ./apod --workload=nbody --deck=data/nbody/$d.deck --json="$RES/table-nbody-$d.json"
done
record table-montecarlo-medium 100 ./apod --workload=montecarlo --deck=data/montecarlo/medium.deck \
	--json="$RES/table-montecarlo-medium.json"
record table-particles 100 ./apod --workload=particles --json="$RES/table-particles.json"
{
	echo "### gpu4 and gpu5 against serial with stats_every=3 (medium deck)"
	./apod run --stage=serial --deck=data/medium.deck --stats_every=3 --out=/tmp/s3 > /dev/null 2>&1
	for s in gpu4 gpu5; do
		./apod run --stage=$s --deck=data/medium.deck --stats_every=3 --out=/tmp/$s-3 > /dev/null 2>&1
		echo "$s: $(./apod verify /tmp/s3 /tmp/$s-3 2>&1 | tail -1)"
	done
	echo "### ./apod run --stage=mgpu --deck=data/small.deck (one rank), against data/ref/small"
	./apod run --stage=mgpu --deck=data/small.deck --out=/tmp/mg 2>&1 | tail -2
	./apod verify data/ref/small /tmp/mg 2>&1 | tail -1
} > "$RES/runs.txt" 2>&1
cat "$RES/runs.txt"
{
	for lab in transpose overlap l2persist; do   # the labs kit's owners and transpose's loop moved
		echo "### ./apod lab $lab --check"; timeout 60 ./apod lab $lab --check 2>&1 | tail -4
	done
} > "$RES/labs.txt" 2>&1
cat "$RES/labs.txt"
for d in large medium; do
	record kernels-heat-$d 90 ./apod bench --deck=data/$d.deck --kernels --json="$RES/kernels-heat-$d.json"
done
record sanitize 240 make check-sanitize SANITIZE_TOOLS=memcheck \
	SANITIZE_RUNS="heat:gpu1 heat:gpu2 heat:gpu3 heat:gpu4 heat:gpu5 heat:mgpu nbody:gpu1 nbody:gpu4 particles:gpu montecarlo:gpu2"
tail -3 "$RES/sanitize.txt"
record sanitize-labs 120 bash -c 'for lab in transpose overlap l2persist; do
	compute-sanitizer --tool memcheck --error-exitcode 99 ./apod lab $lab --check > /dev/null 2>&1; echo "memcheck lab $lab: rc=$?"; done'
cat "$RES/sanitize-labs.txt"
echo "elapsed $(( $(date +%s) - T0 )) s"
