#!/bin/bash
# After the tall grids' fix: the regression decks through every stage (the
# sweep with no time for drawn decks), then the GPU gate and mgpu's tests.
#   bash .device/on-gpu bash doc/results/2026-11-28-h200-decks/regress.sh
. doc/results/prelude.sh
T=$(date +%s)
SPACE_SECONDS=0 SPACE_KEEP=$RES/failures timeout 200 make check-gpu-decks > "$RES/regress.txt" 2>&1
echo "regression decks rc=$? in $(( $(date +%s) - T )) s"
grep -E "^(FAIL|deck space|==)" "$RES/regress.txt" | head -20
pack
T=$(date +%s)
timeout 150 make -j16 check TESTS="tests/gate-gpu.sh tests/mgpu.sh tests/check_gpu" > "$RES/gate.txt" 2>&1
echo "gate rc=$? in $(( $(date +%s) - T )) s"
grep -E "^(# |FAIL|PASS)" "$RES/gate.txt" | head
pack
