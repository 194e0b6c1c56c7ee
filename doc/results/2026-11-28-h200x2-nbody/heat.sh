#!/bin/bash
# heat's mgpu on two H200s after connect_halos (session 12's fix of the
# 700 us a step, never run at two ranks until now): gpu4 on one GPU, mgpu at
# 1 and 2 ranks on 2048^2 and 8192^2 (strong), and 8192x16384 at 2 ranks
# (weak: 8192 rows a GPU).  From the repository's root:
#   bash .device/on-gpu bash doc/results/2026-11-28-h200x2-nbody/heat.sh
. doc/results/prelude.sh
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
M="mpirun --bind-to none -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH"
for g in 2048x2048:300 8192x8192:200; do
	s=${g%%:*}; n=${g##*:}
	record heat-gpu4-$s 60 ./apod run --stage=gpu4 --deck=data/medium.deck --size=$s --steps=$n --snapshot_every=0
	record heat-mgpu1-$s 90 $M -np 1 ./apod run --stage=mgpu --deck=data/medium.deck --size=$s --steps=$n --snapshot_every=0
	record heat-mgpu2-$s 90 $M -np 2 ./apod run --stage=mgpu --deck=data/medium.deck --size=$s --steps=$n --snapshot_every=0
done
record heat-mgpu2-weak 90 $M -np 2 ./apod run --stage=mgpu --deck=data/medium.deck --size=8192x16384 --steps=200 --snapshot_every=0
for f in "$RES"/heat-*.txt; do
	echo "== $(basename "$f")"
	grep -E "^ *(genTimeStep|calcStats|calcSummaryData|total)" "$f" | head -5
done
pack
