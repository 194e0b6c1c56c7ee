#!/bin/bash
# The harness's own cost (profiles/harness_cost), gpu4 and mgpu at one rank
# on 2048^2 with the device's busy time (--trace), and Monte Carlo gpu2 as
# built (its registers let 3 blocks share an SM) and capped for 4 blocks,
# each beside the cuRAND + CUB yardstick, the capped one through the gate
# against serial and the GPU tests this change touches.  One call; the
# peers of heat and n-body are in baseline.sh's run.  From the
# repository's root, with a `make dist` tarball in .device/:
#   bash .device/on-gpu bash doc/results/2026-12-07-peers/run.sh
. doc/results/prelude.sh
record harness-cost 60 ./profiles/harness_cost --json="$RES/harness-cost.json"
cat "$RES/harness-cost.txt"
record gpu4-medium-trace 30 ./apod run --stage=gpu4 --deck=data/heat/medium.deck --trace
record mgpu1-medium-trace 30 ./apod run --stage=mgpu --deck=data/heat/medium.deck --trace
record mc-min1 60 ./apod bench --workload=montecarlo --deck=data/montecarlo/large.deck --kernels --reps=20 --json="$RES/mc-min1.json"
grep -E "gpu2|curand|yardstick" "$RES/mc-min1.txt"
touch gpu/montecarlo/kernels.cuh
make -j16 apod tests/check_mc_gpu \
	"NVCCFLAGS=-O3 -std=c++20 \$(CUDA_GENCODE) \$(NVCC_FMAD) -Xcompiler -Wall -DMC_GPU2_MIN_BLOCKS=4" \
	> "$RES/mc-build-4.txt" 2>&1 || { echo "build failed"; tail -5 "$RES/mc-build-4.txt"; }
record mc-min4 60 ./apod bench --workload=montecarlo --deck=data/montecarlo/large.deck --kernels --reps=20 --json="$RES/mc-min4.json"
grep -E "gpu2|curand|yardstick" "$RES/mc-min4.txt"
T=$(date +%s)
timeout 100 make -j16 check TESTS="tests/check_mc_gpu tests/montecarlo.sh tests/cuda-api.sh" > "$RES/check.txt" 2>&1
echo "make check (check_mc_gpu, montecarlo.sh, cuda-api.sh; gpu2 capped) rc=$? in $(( $(date +%s) - T )) s"
grep -E "^(# |PASS|FAIL|SKIP|ERROR)" "$RES/check.txt" | head -12
for f in tests/check_mc_gpu.log tests/montecarlo.sh.log; do cp "$f" "$RES/" 2>/dev/null; done
pack
