#!/bin/bash
# Session 11 (H200), at the final commit: heat's large deck through every
# stage's gate again (the clean-up moved host code of every GPU stage), and
# Nsight Compute on gpu4's fused kernel beside the sweep alone and the sweep
# with moments, for what keeps the fused kernel under 85% of copy.
. doc/results/prelude.sh
record table-heat-large 240 ./apod --deck=data/large.deck --json="$RES/table-heat-large.json"
# The fused kernel (moments and histogram), the sweep with moments, the
# sweep alone: MOMENTS and HIST are its first two template arguments.
# (cu++filt spells a bool `true`; some versions `(bool)1`: either matches.)
T='(true|\(bool\)1)' F='(false|\(bool\)0)'
for v in tt tf ff; do
	a=$([ "${v:0:1}" = t ] && echo "$T" || echo "$F"); b=$([ "${v:1:1}" = t ] && echo "$T" || echo "$F")
	name=ncu-gpu4-large-$v
	record "$name" 150 ncu --kernel-name-base demangled --kernel-name "regex:fused_bal_kernel<$a, $b" \
		--launch-skip 2 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
		--section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats \
		./apod bench --kernels --deck=data/large.deck
	grep -E "fused_bal_kernel|DRAM Throughput|Registers Per|Achieved Occupancy|Issued Warp|No Eligible|Warp Cycles Per Issued|Duration" \
		"$RES/$name.txt" | head -12
done
# The memcheck runs that record.sh did not reach: heat:mgpu stopped it with
# four API errors inside NCCL's own start-up (cudaFuncGetAttributes on
# NCCL kernels built for no sm_90 image, under ncclCommInitRank; NCCL
# takes them in its stride), so mgpu runs with API errors unreported:
# memcheck still checks every access of every kernel.
record sanitize-rest 240 make check-sanitize SANITIZE_TOOLS=memcheck \
	SANITIZE_RUNS="nbody:gpu1 nbody:gpu4 particles:gpu montecarlo:gpu2"
tail -2 "$RES/sanitize-rest.txt"
record sanitize-mgpu 120 compute-sanitizer --tool memcheck --leak-check full --report-api-errors no \
	--error-exitcode 99 ./apod run --stage=mgpu --deck=data/small.deck --steps=40 --out=/tmp/mg-san
tail -3 "$RES/sanitize-mgpu.txt"
echo "elapsed $(( $(date +%s) - T0 )) s"
