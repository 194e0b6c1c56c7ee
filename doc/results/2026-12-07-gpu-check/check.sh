#!/bin/bash
# The GPU tests again after heat's decks, reference and profiles moved into
# folders of their own (data/heat/, profiles/heat/) and the table's tests
# learned that the GPU machine has no gnuplot: every test that runs a GPU
# stage or names a moved path, within the device time left.
#   APOD_CONFIGURE=--with-cuda-arch=90 bash .device/on-gpu bash doc/results/2026-12-07-gpu-check/check.sh
. doc/results/prelude.sh
T=$(date +%s)
timeout 150 make -j16 check TESTS="tests/check_gpu tests/check_mc_gpu tests/gate-gpu.sh tests/trace.sh \
	tests/mgpu.sh tests/nbody-mgpu.sh tests/montecarlo.sh tests/cuda-api.sh tests/cli-errors.sh \
	tests/table.sh tests/scratch.sh tests/gate.sh tests/nbody.sh tests/check_bench_rows" > "$RES/check.txt" 2>&1
echo "make check (the GPU tests) rc=$? in $(( $(date +%s) - T )) s"
grep -E "^(# |PASS|FAIL|SKIP|ERROR)" "$RES/check.txt" | head -24
for f in $(grep -lE "^(FAIL|ERROR)" tests/*.log 2>/dev/null); do cp "$f" "$RES/"; tail -12 "$f"; done
pack
