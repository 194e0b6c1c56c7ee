#!/bin/bash
# Issue 33, item 1, second call: where rank 0's host thread is during mgpu's
# steps at two ranks (the probe's same calls take 25 us a step; mgpu's 720):
# its stack sampled with gdb (or cuda-gdb) while a long run goes, and the
# run's variants without heaters and with eager module loading.
#   bash .device/on-gpu bash doc/results/2026-11-28-h200x2-mgpu/stacks.sh
. doc/results/prelude.sh
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
MPI="mpirun -np 2 --bind-to none -x NCCL_NVLS_ENABLE -x LD_LIBRARY_PATH"
OFF="--stats_every=0 --summary_every=0 --snapshot_every=0"
GDB=$(command -v gdb || command -v cuda-gdb || echo /usr/local/cuda/bin/cuda-gdb)
{ echo "gdb: $GDB"; command -v perf strace ltrace; } > "$RES/tools.txt" 2>&1
$MPI ./apod run --stage=mgpu --size=2048x2048 --steps=12000 $OFF > "$RES/long.txt" 2>&1 &
sleep 4
pids=$(pgrep -f 'apod run --stage=mgpu' | head -2)
echo "pids: $pids" >> "$RES/tools.txt"
for pid in $pids; do
	grep -E "ctxt_switches|Threads" /proc/$pid/status > "$RES/status-$pid-a.txt" 2>&1
	for i in 1 2 3 4 5 6; do
		timeout 20 "$GDB" -p "$pid" -batch -ex "thread apply all bt 12" > "$RES/stack-$pid-$i.txt" 2>&1
		sleep 0.3
	done
	grep -E "ctxt_switches|Threads" /proc/$pid/status > "$RES/status-$pid-b.txt" 2>&1
	command -v strace >/dev/null && timeout 3 strace -c -f -p "$pid" > "$RES/strace-$pid.txt" 2>&1
done
wait
record nosrc 60 $MPI ./apod run --stage=mgpu --size=2048x2048 --steps=300 $OFF --sources=none
record eager 60 $MPI -x CUDA_MODULE_LOADING=EAGER ./apod run --stage=mgpu --size=2048x2048 --steps=300 $OFF
record blocking 60 $MPI -x NCCL_LAUNCH_MODE=GROUP ./apod run --stage=mgpu --size=2048x2048 --steps=300 $OFF
pack
