#!/bin/bash
# Session 12's last call, on the two-GPU machine where it is lent (on one
# GPU, mgpu runs at one rank only): make check (mgpu at two
# ranks among its tests), mgpu's step after the halo connection moved to
# set-up (strong and weak, beside gpu4), the lookup example's table and
# scaling for its `apod report`, and the deck sweep of every stage
# (make check-gpu-decks, 300 s, mgpu at two ranks).
#   bash .device/on-gpu bash doc/results/2026-11-28-h200x2-mgpu/final.sh
. doc/results/prelude.sh
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
T=$(date +%s)
timeout 180 make -j32 check > "$RES/check.txt" 2>&1
echo "make check rc=$? in $(( $(date +%s) - T )) s"
grep -E "^(# |FAIL|ERROR|PASS: tests/mgpu|PASS: tests/gate-gpu|PASS: tests/check_nvtx)" "$RES/check.txt" | head -20
pack
MPI="mpirun --bind-to none -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH"
SNAP=--snapshot_every=0
OFF="--stats_every=0 --summary_every=0"
record gpu4-2048 60 ./apod run --stage=gpu4 --size=2048x2048 --steps=300 $SNAP
record gpu4-8192 60 ./apod run --stage=gpu4 --size=8192x8192 --steps=200 $SNAP
record gpu4-8192-off 60 ./apod run --stage=gpu4 --size=8192x8192 --steps=200 $SNAP $OFF
NGPU=$(nvidia-smi -L | grep -c '^GPU')
for np in $(seq 1 $((NGPU < 2 ? NGPU : 2))); do
	record mgpu$np-2048 60 $MPI -np $np ./apod run --stage=mgpu --size=2048x2048 --steps=300 $SNAP
	record mgpu$np-8192 60 $MPI -np $np ./apod run --stage=mgpu --size=8192x8192 --steps=200 $SNAP
	record mgpu$np-8192-off 60 $MPI -np $np ./apod run --stage=mgpu --size=8192x8192 --steps=200 $SNAP $OFF
done
[ "$NGPU" -ge 2 ] && record mgpu2-8192x16384 90 $MPI -np 2 ./apod run --stage=mgpu --size=8192x16384 --steps=200 $SNAP
[ "$NGPU" -ge 2 ] && record mgpu2-8192x16384-off 90 $MPI -np 2 ./apod run --stage=mgpu --size=8192x16384 --steps=200 $SNAP $OFF
( make install && ldconfig ) > "$RES/install.txt" 2>&1 || { echo "install failed"; tail -5 "$RES/install.txt"; }
( cd doc/examples/lookup && PKG_CONFIG_PATH=/usr/local/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} \
	make CUDA_ARCH=-arch=native ) > "$RES/lookup-build.txt" 2>&1 || { echo "lookup build failed"; tail -10 "$RES/lookup-build.txt"; }
record lookup-table 90 doc/examples/lookup/lookup --json="$RES/lookup.json"
record lookup-scale 90 doc/examples/lookup/lookup scale --reps=1 --threads=1,4,16,32 --json="$RES/lookup-scale.json"
T=$(date +%s)
SPACE_MGPU_RANKS=$((NGPU < 2 ? 1 : 2)) SPACE_SECONDS=${SECONDS_DECKS:-300} SPACE_KEEP=$RES/failures timeout 420 make check-gpu-decks \
	> "$RES/decks.txt" 2>&1
echo "check-gpu-decks rc=$? in $(( $(date +%s) - T )) s"
grep -E "^(FAIL|deck space|time budget)" "$RES/decks.txt" | head -40
pack
