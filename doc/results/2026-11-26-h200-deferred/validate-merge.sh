#!/bin/bash
# The merged tree on the H200: check, gates, the lab the helper changed, memcheck.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
SRC=$(pwd); export XDG_CACHE_HOME=/tmp/cache
cd /tmp && rm -rf apod-0.2.0 && tar xzf "$SRC/.device/apod-0.2.0.tar.gz" && cd apod-0.2.0 || exit 1
( ./configure && make -j16 ) > /tmp/build.txt 2>&1 || { tail -40 /tmp/build.txt; exit 1; }
timeout 220 make -j16 check > "$OUT/check.txt" 2>&1; echo "check rc=$?"
grep -E "^# (TOTAL|PASS|SKIP|FAIL|ERROR)|^(FAIL|ERROR): " "$OUT/check.txt"
for t in $(grep -E "^(FAIL|ERROR): " "$OUT/check.txt" | awk '{print $2}'); do tail -40 "$t.log"; done
{
for d in medium small; do echo "### heat $d"; timeout 100 ./apod --deck=data/$d.deck 2>&1; done
for w in nbody montecarlo; do echo "### $w medium"; timeout 100 ./apod --workload=$w --deck=data/$w/medium.deck 2>&1; done
echo "### particles"; timeout 100 ./apod --workload=particles --n=1000000 --steps=20 2>&1
echo "### lab coalescing --check"; timeout 60 ./apod lab coalescing --check 2>&1
} > "$OUT/tables.txt"
grep -E "^###|^(serial|omp|gpu[0-9]*|mpi|mgpu|gpu) |FAIL|BROKEN|PASS|rror" "$OUT/tables.txt" | head -80
timeout 150 make check-sanitize SANITIZE_TOOLS="memcheck" SANITIZE_RUNS="heat:gpu1 heat:gpu4 nbody:gpu1" > "$OUT/sanitize.txt" 2>&1; echo "memcheck rc=$?"; tail -2 "$OUT/sanitize.txt"
