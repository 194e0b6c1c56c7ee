#!/bin/bash
# Monte Carlo gpu3 (gpu/montecarlo/path3.cuh) beside gpu2 and the cuRAND +
# CUB yardstick, in one call on one GPU: the GPU tests it touches (gpu3's
# paths against the host's and gpu2's bits, the gate on the small deck),
# the bench twice, gpu3 against gpu2 on the medium deck through verify,
# Nsight Compute of gpu3's kernel, and three rebuilt shapes of it
# (MC_GPU3_UNROLL pairs a loop turn, MC_GPU3_PATHS paths a thread).  From
# the repository's root, with a `make dist` tarball in .device/:
#   bash .device/on-gpu bash doc/results/2026-12-07-peers/mc3.sh
# mc3/ was made when gpu3 ran one path a thread by default; with today's
# default (MC_GPU3_PATHS=2) mc3-a and mc3-b measure the two-path shape.
. doc/results/prelude.sh
T=$(date +%s)
timeout 150 make -j16 check TESTS="tests/check_mc_gpu tests/montecarlo.sh" > "$RES/check.txt" 2>&1
echo "make check (check_mc_gpu, montecarlo.sh) rc=$? in $(( $(date +%s) - T )) s"
grep -E "^(# |PASS|FAIL|SKIP|ERROR)" "$RES/check.txt" | head -12
for f in tests/check_mc_gpu.log tests/montecarlo.sh.log; do cp "$f" "$RES/" 2>/dev/null; done
grep -E "gpu3|largest" tests/check_mc_gpu.log | head -12
pack
B="./apod bench --workload=montecarlo --deck=data/montecarlo/large.deck --kernels --reps=20"
for r in a b; do
	record mc3-$r 60 $B --json="$RES/mc3-$r.json"
	grep -E "gpu[123] |curand|yardstick|European" "$RES/mc3-$r.txt"
done
# gpu3 against gpu2 on the medium deck: the gate, and the bits of the
# batch means (the same paths summed in the same order).
rm -rf /tmp/mc-gpu2 /tmp/mc-gpu3
for s in gpu2 gpu3; do
	record run-$s-medium 60 ./apod run --workload=montecarlo --stage=$s \
		--deck=data/montecarlo/medium.deck --out="/tmp/mc-$s"
done
record verify-gpu3-gpu2 30 ./apod verify /tmp/mc-gpu2 /tmp/mc-gpu3
cmp /tmp/mc-gpu2/batch_mean.npy /tmp/mc-gpu3/batch_mean.npy && echo "batch_mean.npy: gpu3 = gpu2, bit for bit"
N="ncu --set full --launch-count 1"
record ncu-mc-gpu3 150 $N --kernel-name regex:mc_gpu3_kernel -o "$RES/ncu-mc-gpu3" -f $B --reps=1
ncu --import "$RES/ncu-mc-gpu3.ncu-rep" --page details > "$RES/ncu-mc-gpu3-details.txt" 2>&1
grep -E "Duration|Compute \(SM\) Throughput|Executed Ipc A|Issue Slots Busy|No Eligible|Registers Per|Achieved Occupancy|Theoretical Occupancy|Executed Instructions  |Warp Cycles Per Issued|fused" \
	"$RES/ncu-mc-gpu3-details.txt"
rm -f "$RES/ncu-mc-gpu3.ncu-rep"
bin=$(ls .libs/apod 2>/dev/null || echo apod)
cuobjdump -sass "$bin" 2>/dev/null | awk '/Function : .*mc_gpu[23]_kernel/ { on = 1 } /Function : / && !/mc_gpu[23]_kernel/ { on = 0 } on' \
	> "$RES/sass-mc-gpu23.txt"
echo "SASS lines (gpu2, gpu3 kernels): $(wc -l < "$RES/sass-mc-gpu23.txt")"
pack
for v in "1 1" "4 1" "2 2"; do
	set -- $v
	touch gpu/montecarlo/kernels.cuh
	make -j16 apod "NVCCFLAGS=-O3 -std=c++20 \$(CUDA_GENCODE) \$(NVCC_FMAD) -Xcompiler -Wall -DMC_GPU3_UNROLL=$1 -DMC_GPU3_PATHS=$2" \
		> "$RES/build-u$1-p$2.txt" 2>&1 || { echo "build u$1 p$2 failed"; tail -5 "$RES/build-u$1-p$2.txt"; continue; }
	record mc3-u$1-p$2 60 $B --json="$RES/mc3-u$1-p$2.json"
	grep -E "gpu[23] |curand|yardstick" "$RES/mc3-u$1-p$2.txt"
	if [ "$2" != 1 ]; then   # the kernel's own loop differs: the gate again
		timeout 60 make -j16 check TESTS="tests/montecarlo.sh" > "$RES/check-u$1-p$2.txt" 2>&1
		echo "montecarlo.sh with u$1 p$2: rc=$?"
		grep -E "^(PASS|FAIL|ERROR)" "$RES/check-u$1-p$2.txt"
	fi
	pack
done
pack
