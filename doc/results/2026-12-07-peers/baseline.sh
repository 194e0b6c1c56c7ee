#!/bin/bash
# The figures of the reference ports beside their peers, in one call on one
# GPU, and the Nsight Compute reports the next changes start from: heat
# gpu5's pass with statistics every step, and Monte Carlo gpu2's batch.
# From the repository's root, with a `make dist` tarball in .device/ and the
# peers' runner and sources (EBISU, cuda-samples' n-body: not part of apod,
# run-peers.sh among them) in .device/peers/:
#   bash .device/on-gpu bash doc/results/2026-12-07-peers/baseline.sh
. doc/results/prelude.sh
record heat-kernels-large 150 ./apod bench --deck=data/heat/large.deck --kernels --json="$RES/heat-kernels-large.json"
record mc-kernels-large 120 ./apod bench --workload=montecarlo --deck=data/montecarlo/large.deck --kernels --reps=10 --json="$RES/mc-kernels-large.json"
# gpu4 and mgpu at one rank on 2048^2: host time of the step against its
# device time (the run's host and device columns).
record gpu4-medium 60 ./apod run --stage=gpu4 --deck=data/heat/medium.deck
record mgpu1-medium 60 ./apod run --stage=mgpu --deck=data/heat/medium.deck
record peers 200 env OUT="$RES/peers" bash "$SRC/.device/peers/run-peers.sh"
# ncu: the first pass of gpu5 with statistics (bench's warm-up), then
# Monte Carlo gpu2's kernel; details as text, the reports beside them.
N="ncu --set full --launch-count 1"
record ncu-gpu5 200 $N --kernel-name regex:temporal_kernel -o "$RES/ncu-gpu5" -f \
	./apod bench --deck=data/heat/large.deck --kernels --reps=1
ncu --import "$RES/ncu-gpu5.ncu-rep" --page details > "$RES/ncu-gpu5-details.txt" 2>&1
record ncu-mc-gpu2 120 $N --kernel-name regex:mc_gpu2_kernel -o "$RES/ncu-mc-gpu2" -f \
	./apod bench --workload=montecarlo --deck=data/montecarlo/large.deck --kernels --reps=1
ncu --import "$RES/ncu-mc-gpu2.ncu-rep" --page details > "$RES/ncu-mc-gpu2-details.txt" 2>&1
grep -E "Duration|Compute \(SM\) Throughput|Memory Throughput|Executed Ipc A|Issue Slots Busy|No Eligible|Registers Per|Achieved Occupancy" \
	"$RES/ncu-gpu5-details.txt" "$RES/ncu-mc-gpu2-details.txt"
pack
