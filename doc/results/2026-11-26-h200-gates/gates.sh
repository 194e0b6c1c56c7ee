#!/bin/bash
# Session 11 (H200): every stage of every workload through its gate on every
# deck in data/ (the table runs each stage and verifies it against serial),
# heat's large deck first (not run since session 9), then `bench --kernels`
# on the large deck, twice, for gpu4's and gpu5's ratios to copy.
. doc/results/prelude.sh
record table-heat-large 240 ./apod --deck=data/large.deck --json="$RES/table-heat-large.json"
record kernels-heat-large-1 90 ./apod bench --deck=data/large.deck --kernels --json="$RES/kernels-heat-large-1.json"
for w in nbody montecarlo; do
	record table-$w-large 150 ./apod --workload=$w --deck=data/$w/large.deck --json="$RES/table-$w-large.json"
done
for d in small medium; do
	record table-heat-$d 100 ./apod --deck=data/$d.deck --json="$RES/table-heat-$d.json"
	for w in nbody montecarlo; do
		record table-$w-$d 100 ./apod --workload=$w --deck=data/$w/$d.deck --json="$RES/table-$w-$d.json"
	done
done
record table-particles 100 ./apod --workload=particles --json="$RES/table-particles.json"
record kernels-heat-large-2 90 ./apod bench --deck=data/large.deck --kernels --json="$RES/kernels-heat-large-2.json"
echo "elapsed $(( $(date +%s) - T0 )) s"
