#!/bin/bash
# The harness's own cost (profiles/harness_cost), the GPU tests this change
# touches, gpu4 and mgpu at one rank on 2048^2 with the device's busy time
# (--trace), Monte Carlo gpu2 with its registers capped for 3, 4 and 5
# blocks an SM (each through the gate against serial), heat gpu5's
# figures, and the peers, in one call.  From the repository's root, with a
# `make dist` tarball and the peers (../shared/peers) copied into .device/:
#   bash .device/on-gpu bash doc/results/2026-12-07-peers/run.sh
. doc/results/prelude.sh
record harness-cost 120 ./profiles/harness_cost --json="$RES/harness-cost.json"
cat "$RES/harness-cost.txt"
T=$(date +%s)
timeout 240 make -j16 check TESTS="tests/check_mc_gpu tests/check_gpu tests/montecarlo.sh tests/gate-gpu.sh tests/cuda-api.sh" > "$RES/check.txt" 2>&1
echo "make check (GPU tests touched) rc=$? in $(( $(date +%s) - T )) s"
grep -E "^(# |PASS|FAIL|SKIP|ERROR)" "$RES/check.txt" | head -20
pack
record gpu4-medium-trace 60 ./apod run --stage=gpu4 --deck=data/medium.deck --trace
record mgpu1-medium-trace 60 ./apod run --stage=mgpu --deck=data/medium.deck --trace
record heat-kernels-large 150 ./apod bench --deck=data/large.deck --kernels --json="$RES/heat-kernels-large.json"
# Monte Carlo gpu2: the stage as built (3 blocks an SM), then capped.
for b in 1 4 5 1; do
	if [ "$b" != 1 ] || [ -e "$RES/mc-min1.txt" ]; then
		touch gpu/montecarlo/kernels.cuh
		make -j16 apod tests/check_mc_gpu \
			"NVCCFLAGS=-O3 -std=c++20 \$(CUDA_GENCODE) \$(NVCC_FMAD) -Xcompiler -Wall -DMC_GPU2_MIN_BLOCKS=$b" \
			> "$RES/mc-build-$b.txt" 2>&1 || { echo "build $b failed"; tail -5 "$RES/mc-build-$b.txt"; continue; }
	fi
	n=mc-min$b; [ -e "$RES/$n.txt" ] && n=$n-again
	record $n 120 ./apod bench --workload=montecarlo --deck=data/montecarlo/large.deck --kernels --reps=20 --json="$RES/$n.json"
	grep -E "gpu2|curand|yardstick" "$RES/$n.txt"
	timeout 120 make -j16 check TESTS="tests/check_mc_gpu tests/montecarlo.sh" > "$RES/$n-check.txt" 2>&1
	echo "  gate (check_mc_gpu, montecarlo.sh) rc=$?"; grep -E "^(PASS|FAIL|ERROR)" "$RES/$n-check.txt"
done
record peers 200 env OUT="$RES/peers" bash "$SRC/.device/peers/run-peers.sh"
pack
