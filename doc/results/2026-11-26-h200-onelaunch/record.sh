#!/bin/bash
# Session 7: the record on the H200 (check, gates on every deck, sanitizer, tables, bench, n-body 2^18, profile).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/res
SRC=$(pwd); export XDG_CACHE_HOME=/tmp/cache
cd /tmp && rm -rf apod-0.2.0 && tar xzf "$SRC/.device/apod-0.2.0.tar.gz" && cd apod-0.2.0 || exit 1
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; } > /tmp/res/env.txt
t0=$(date +%s)
( ./configure && make -j16 ) > /tmp/build.txt 2>&1 || { tail -40 /tmp/build.txt; exit 1; }
timeout 200 make -j16 check > /tmp/res/check.txt 2>&1; echo "check rc=$?"
grep -E "^# (TOTAL|PASS|SKIP|FAIL|ERROR)|^(FAIL|ERROR):" /tmp/res/check.txt
for f in $(grep -lE "^(FAIL|ERROR)" tests/*.log 2>/dev/null); do echo "== $f"; tail -30 "$f"; done
./apod ceilings --json=/tmp/res/ceilings.json > /tmp/res/ceilings.txt 2>&1
{
for d in medium small large; do echo "### ./apod --deck=data/$d.deck --json=table-heat-$d.json"; timeout 150 ./apod --deck=data/$d.deck --json=/tmp/res/table-heat-$d.json 2>&1; done
for w in nbody montecarlo; do echo "### ./apod --workload=$w --deck=data/$w/medium.deck --json=table-$w-medium.json"; timeout 100 ./apod --workload=$w --deck=data/$w/medium.deck --json=/tmp/res/table-$w-medium.json 2>&1; done
echo "### ./apod --workload=particles --n=10000000 --steps=50"; timeout 100 ./apod --workload=particles --n=10000000 --steps=50 --json=/tmp/res/table-particles.json 2>&1
echo "### ./apod run --stage=gpu4 --deck=data/medium.deck"; ./apod run --stage=gpu4 --deck=data/medium.deck 2>&1
echo "### ./apod bench --deck=data/medium.deck --kernels"; timeout 120 ./apod bench --deck=data/medium.deck --kernels --json=/tmp/res/bench-heat-medium.json 2>&1
echo "### ./apod bench --deck=data/large.deck --kernels"; timeout 120 ./apod bench --deck=data/large.deck --kernels --json=/tmp/res/bench-heat-large.json 2>&1
echo "### ./apod bench --workload=nbody --deck=data/nbody/large.deck --kernels"; timeout 120 ./apod bench --workload=nbody --deck=data/nbody/large.deck --kernels --json=/tmp/res/bench-nbody-2e17.json 2>&1
echo "### ./apod bench --workload=nbody --deck=data/nbody/large.deck --n=262144 --kernels"; timeout 150 ./apod bench --workload=nbody --deck=data/nbody/large.deck --n=262144 --kernels --json=/tmp/res/bench-nbody-2e18.json 2>&1
} > /tmp/res/tables.txt
grep -E "^###|^(serial|omp|gpu[0-9]*|mpi|mgpu) |FAIL|BROKEN|stage:|fused|deferred|waited|split  |of peak" /tmp/res/tables.txt | head -90
echo "tables $(( $(date +%s) - t0 )) s"
timeout 100 ncu --launch-skip 300 --launch-count 6 --metrics gpu__time_duration.sum,lts__t_sector_hit_rate.pct,dram__bytes.sum ./apod run --stage=gpu4 --deck=data/medium.deck > /tmp/res/ncu-gpu4-medium.txt 2>&1; grep -E "fused|zones|merge|duration|hit_rate|dram__bytes" /tmp/res/ncu-gpu4-medium.txt | head -24
timeout 200 make check-sanitize SANITIZE_TOOLS="memcheck" SANITIZE_RUNS="heat:gpu4 heat:gpu5 heat:gpu2 nbody:gpu4 nbody:gpu1 montecarlo:gpu1 montecarlo:gpu2 particles:gpu" > /tmp/res/sanitize.txt 2>&1; echo "memcheck rc=$?"; tail -3 /tmp/res/sanitize.txt
timeout 80 make check-sanitize SANITIZE_TOOLS="racecheck synccheck" SANITIZE_RUNS="heat:gpu4" > /tmp/res/sanitize-race.txt 2>&1; echo "race rc=$?"; tail -3 /tmp/res/sanitize-race.txt
echo "elapsed $(( $(date +%s) - t0 )) s"
cd /tmp/res && tar czf "$OUT/p4.tgz" . && cp tables.txt "$OUT/"
