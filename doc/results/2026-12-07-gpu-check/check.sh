#!/bin/bash
# The suite again on the GPU machine after heat's decks, reference and
# profiles moved into folders of their own and the table's tests learned
# that the GPU machine has no gnuplot; then the GPU stages' create and
# destroy under compute-sanitizer (check-sanitize) as far as its time goes.
#   APOD_CONFIGURE=--with-cuda-arch=90 bash .device/on-gpu bash doc/results/2026-12-07-gpu-check/check.sh
. doc/results/prelude.sh
make_check 250
T=$(date +%s)
timeout 60 make check-sanitize > "$RES/sanitize.txt" 2>&1
echo "check-sanitize rc=$? in $(( $(date +%s) - T )) s"; tail -4 "$RES/sanitize.txt"
pack
