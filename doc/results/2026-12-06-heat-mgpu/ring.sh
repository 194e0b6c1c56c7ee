#!/bin/bash
# Session 15: tests/mgpu.sh's new run past the probes' 128-row ring failed
# at 2 ranks (both on one GPU, APOD_MGPU_SHARE_GPU=1): calcStats's row at
# step 129 had the wrong count of cells.  Which runs show it: 1 rank or 2,
# the 16-byte kernel (64 wide) or the one-column one (63), gpu4 beside.
#   bash .device/on-gpu bash doc/results/2026-12-06-heat-mgpu/ring.sh
# CHECK=yes adds make check.
. doc/results/prelude.sh
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI="mpirun --bind-to none -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH -x APOD_MGPU_SHARE_GPU"
export APOD_MGPU_SHARE_GPU=1
D=$RES/runs
O="--deck=data/small.deck --snapshot_every=0"
for w in 64 63; do
	record serial-$w 60 ./apod run --stage=serial $O --size=${w}x40 --steps=300 --out=$D/serial-$w
	record gpu4-$w 60 ./apod run --stage=gpu4 $O --size=${w}x40 --steps=300 --out=$D/gpu4-$w
	for np in 1 2; do
		record mgpu$np-$w 60 $MPI -np $np ./apod run --stage=mgpu $O --size=${w}x40 --steps=300 --out=$D/mgpu$np-$w
	done
	for s in gpu4-$w mgpu1-$w mgpu2-$w; do
		./apod verify $D/serial-$w $D/$s > $RES/verify-$s.txt 2>&1
		echo "verify $s: rc=$? $(grep -E '^(stats|hist) ' $RES/verify-$s.txt | tr -s ' ' | cut -c1-150 | tr '\n' '|')"
	done
done
[ "${CHECK:-no}" = yes ] && make_check 240 tests/mgpu.sh.log tests/nbody-mgpu.sh.log
pack
