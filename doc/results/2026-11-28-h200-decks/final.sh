#!/bin/bash
# Session 12's checks on the H200 that are not the deck sweep (run.sh):
# make check (the GPU tests, check_nvtx's NVTX ranges through CUPTI among
# them), make check-sanitize, issue 34's report data for heat's medium deck
# (tests/gpu-issue34.sh) and the lookup example's table, built against the
# installed library.  From the repository's root, with a `make dist`
# tarball in .device/:
#   bash .device/on-gpu bash doc/results/2026-11-28-h200-decks/final.sh
. doc/results/prelude.sh
T=$(date +%s)
timeout 200 make -j16 check > "$RES/check.txt" 2>&1
echo "make check rc=$? in $(( $(date +%s) - T )) s"
grep -E "^(# |FAIL|ERROR|PASS: tests/check_nvtx|PASS: tests/gate-gpu)" "$RES/check.txt" | head -20
cp tests/check_nvtx.log "$RES/" 2>/dev/null
pack
T=$(date +%s)
timeout 150 make check-sanitize > "$RES/sanitize.txt" 2>&1
echo "check-sanitize rc=$? in $(( $(date +%s) - T )) s"
tail -2 "$RES/sanitize.txt"
pack
OUT=$RES/issue34 timeout 170 sh tests/gpu-issue34.sh > "$RES/issue34.txt" 2>&1
echo "gpu-issue34 rc=$?"; tail -5 "$RES/issue34.txt"
pack
# The lookup example against the installed library (the host is root).
( make install && ldconfig ) > "$RES/install.txt" 2>&1 || { echo "install failed"; tail -5 "$RES/install.txt"; }
( cd doc/examples/lookup && PKG_CONFIG_PATH=/usr/local/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} make CUDA_ARCH=-arch=native ) > "$RES/lookup-build.txt" 2>&1 ||
	{ echo "lookup build failed"; tail -10 "$RES/lookup-build.txt"; }
record lookup-table 90 doc/examples/lookup/lookup --json="$RES/lookup.json"
record lookup-scale 90 doc/examples/lookup/lookup scale --reps=1 --threads=1,4,16 --json="$RES/lookup-scale.json"
pack
