#!/bin/bash
# Issue 33, item 4: n-body across GPUs (the nbody workload's mgpu stage).
# On the two-GPU machine (nvidia-h200-x2), from the repository's root with a
# `make dist` tarball of this tree in .device/:
#   bash .device/on-gpu bash doc/results/2026-11-28-h200x2-nbody/run.sh
# 1. The gate: serial, gpu4, mgpu at 1 rank and at 2 ranks on the small deck
#    (1500 bodies, 40 steps, energy and snapshots) and on the medium deck at
#    n = 16385 (the remainder on the last rank), each `apod verify`d
#    against serial; tests/nbody-mgpu.sh and heat's tests/mgpu.sh (the MPI
#    helpers they share changed); memcheck of mgpu at 1 rank.
# 2. Timing: large.deck at n = 262144 (and 524288), gpu4 on one GPU, mgpu at
#    1 and 2 ranks, with the seconds a step of computeForces.
# Meant to take under 6 minutes after the build.
. doc/results/prelude.sh
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=--workload=nbody
D=data/nbody
NGPU=$(nvidia-smi -L | grep -c '^GPU')
MPI="mpirun --bind-to none -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH"
./apod stages $W > "$RES/stages.txt" 2>&1
grep -A1 '^mgpu' "$RES/stages.txt"

# step NAME STEPS: the seconds a step of computeForces in NAME's output.
step() {
	awk -v s="$2" -v n="$1" '$1 == "computeForces" && !done { printf "  %s: computeForces %s s, %.6f s a step\n", n, $2, $2 / s; done = 1 }' \
		"$RES/$1.txt"
}
# gate NAME DIR REF: apod verify REF DIR, into NAME.txt, its verdict printed.
gate() {
	timeout 60 ./apod verify "$3" "$2" > "$RES/$1.txt" 2>&1
	echo "  verify $1: rc=$? $(grep -E -m1 'PASS|FAIL|BROKEN' "$RES/$1.txt")"
}

# ---- 1. the gate ----------------------------------------------------------
G=/tmp/gate
rm -rf "$G"
SMALL="--deck=$D/small.deck"
MED="--deck=$D/medium.deck --n=16385"
record serial-small 60 ./apod run $W --stage=serial $SMALL --out=$G/serial-small
record serial-med 90 ./apod run $W --stage=serial $MED --out=$G/serial-med
for d in small med; do
	[ $d = small ] && deck=$SMALL || deck=$MED
	record gpu4-$d 60 ./apod run $W --stage=gpu4 $deck --out=$G/gpu4-$d
	gate gate-gpu4-$d $G/gpu4-$d $G/serial-$d
	for np in $(seq 1 $((NGPU < 2 ? NGPU : 2))); do
		record mgpu$np-$d 90 $MPI -np $np ./apod run $W --stage=mgpu $deck --out=$G/mgpu$np-$d
		gate gate-mgpu$np-$d $G/mgpu$np-$d $G/serial-$d
	done
done
T=$(date +%s)
APOD=$PWD/apod top_srcdir=$PWD APOD_MPIRUN=mpirun timeout 150 sh tests/nbody-mgpu.sh > "$RES/test-nbody-mgpu.txt" 2>&1
echo "tests/nbody-mgpu.sh rc=$? in $(( $(date +%s) - T )) s"; grep -E "^(FAIL|SKIP)|check\(s\) failed" "$RES/test-nbody-mgpu.txt" | head -20
T=$(date +%s)
APOD=$PWD/apod top_srcdir=$PWD APOD_MPIRUN=mpirun timeout 120 sh tests/mgpu.sh > "$RES/test-heat-mgpu.txt" 2>&1
echo "tests/mgpu.sh rc=$? in $(( $(date +%s) - T )) s"; grep -E "^(FAIL|SKIP)|check\(s\) failed" "$RES/test-heat-mgpu.txt" | head -20
T=$(date +%s)
timeout 120 compute-sanitizer --tool memcheck --leak-check full --report-api-errors no --error-exitcode 99 \
	--print-limit 20 ./apod run $W --stage=mgpu --deck=$D/small.deck --n=1000 --steps=4 --energy_every=2 \
	--snapshot_every=2 --out=/tmp/san > "$RES/memcheck-mgpu1.txt" 2>&1
echo "memcheck nbody mgpu 1 rank rc=$? in $(( $(date +%s) - T )) s"
grep -E "ERROR SUMMARY|LEAK SUMMARY" "$RES/memcheck-mgpu1.txt"
pack

# ---- 2. timing --------------------------------------------------------------
S=20
for n in 262144 524288; do
	L="--deck=$D/large.deck --n=$n --steps=$S --snapshot_every=0"
	record gpu4-$n 60 ./apod run $W --stage=gpu4 $L
	step gpu4-$n $S
	for np in $(seq 1 $((NGPU < 2 ? NGPU : 2))); do
		[ $n = 524288 ] && [ $np = 1 ] && continue
		record mgpu$np-$n 60 $MPI -np $np ./apod run $W --stage=mgpu $L
		step mgpu$np-$n $S
	done
done
pack
