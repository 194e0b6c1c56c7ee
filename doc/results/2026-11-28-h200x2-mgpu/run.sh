#!/bin/bash
# Issue 33, item 1: where mgpu's step goes at two ranks.  On the two-GPU
# machine (nvidia-h200-x2), from the repository's root with a `make dist`
# tarball in .device/:
#   bash .device/on-gpu bash doc/results/2026-11-28-h200x2-mgpu/run.sh
# probe.cu replays mgpu's step (the same calls, a plain stencil kernel)
# with host clocks around each call; the apod runs give the stage's own
# phase timers under the same conditions.
. doc/results/prelude.sh
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
HERE=$SRC/doc/results/2026-11-28-h200x2-mgpu
nvidia-smi topo -m > "$RES/topo.txt" 2>&1
nvcc -O3 -arch=native -o /tmp/probe "$HERE/probe.cu" $(mpicc --showme:compile) $(mpicc --showme:link) -lnccl \
	> "$RES/probe-build.txt" 2>&1 || { cat "$RES/probe-build.txt"; }
MPI="mpirun -np 2 --bind-to none -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH"
for m in split one nonccl sync; do
	record "probe-2-$m" 60 $MPI /tmp/probe 2048 1024 300 $m
done
record probe-1-split 60 mpirun -np 1 --bind-to none /tmp/probe 2048 2048 300 split
record probe-2-split-8192 60 $MPI /tmp/probe 8192 4096 200 split
record probe-2-split-core 60 mpirun -np 2 --bind-to core -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH /tmp/probe 2048 1024 300 split
NCCL_DEBUG=INFO record probe-2-split-info 60 $MPI -x NCCL_DEBUG /tmp/probe 2048 1024 50 split
OFF="--stats_every=0 --summary_every=0 --snapshot_every=0"
record mgpu-1 60 mpirun -np 1 --bind-to none ./apod run --stage=mgpu --size=2048x2048 --steps=300 $OFF
record mgpu-2 60 $MPI ./apod run --stage=mgpu --size=2048x2048 --steps=300 $OFF
record mgpu-2-stats 60 $MPI ./apod run --stage=mgpu --size=2048x2048 --steps=300
record mgpu-2-omp1 60 mpirun -np 2 --bind-to none -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH -x OMP_NUM_THREADS=1 ./apod run --stage=mgpu --size=2048x2048 --steps=300 $OFF
record mgpu-2-trace 90 $MPI ./apod run --stage=mgpu --size=2048x2048 --steps=300 $OFF --trace
record gpu4 60 ./apod run --stage=gpu4 --size=2048x2048 --steps=300 $OFF
pack
