#!/bin/bash
# Session 9: phase events at the edges of the work (check, heat tables, runs, bench).
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/res
SRC=$(pwd); export XDG_CACHE_HOME=/tmp/cache
cd /tmp && rm -rf apod-0.2.0 && tar xzf "$SRC/.device/apod-0.2.0.tar.gz" && cd apod-0.2.0 || exit 1
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; } > /tmp/res/env.txt
t0=$(date +%s)
( ./configure && make -j16 ) > /tmp/build.txt 2>&1 || { tail -40 /tmp/build.txt; exit 1; }
echo "built $(( $(date +%s) - t0 )) s"
timeout 200 make -j16 check > /tmp/res/check.txt 2>&1; echo "check rc=$?"
grep -E "^# (TOTAL|PASS|SKIP|FAIL|ERROR)|^(FAIL|ERROR):" /tmp/res/check.txt
for f in $(grep -lE "^(FAIL|ERROR)" tests/*.log 2>/dev/null); do echo "== $f"; tail -30 "$f"; cp "$f" /tmp/res/; done
cp tests/check_gpu.log /tmp/res/ 2>/dev/null
{
for d in medium small; do echo "### ./apod --deck=data/$d.deck --json=table-heat-$d.json"; timeout 100 ./apod --deck=data/$d.deck --json=/tmp/res/table-heat-$d.json 2>&1; done
for s in gpu2 gpu4 gpu5; do echo "### ./apod run --stage=$s --deck=data/medium.deck"; ./apod run --stage=$s --deck=data/medium.deck 2>&1; done
echo "### ./apod run --stage=gpu4 --deck=data/medium.deck --trace"; ./apod run --stage=gpu4 --deck=data/medium.deck --trace 2>&1
echo "### ./apod bench --deck=data/medium.deck --kernels"; timeout 100 ./apod bench --deck=data/medium.deck --kernels --json=/tmp/res/bench-heat-medium.json 2>&1
} > /tmp/res/tables.txt
grep -E "^###|^(serial|omp|gpu[0-9]*|mpi|mgpu) |FAIL|BROKEN|fused|deferred|of copy|loop" /tmp/res/tables.txt | head -60
for d in medium small; do python3 -c "import json; d=json.load(open('/tmp/res/table-heat-$d.json')); print('$d', [(s['stage'], round(100*s['speed_of_light']['loop_reached'],1)) for s in d['stages'] if s.get('speed_of_light')])" 2>&1 | cut -c1-400; done
echo "tables $(( $(date +%s) - t0 )) s"
timeout 100 make check-sanitize SANITIZE_TOOLS="memcheck" SANITIZE_RUNS="heat:gpu4 heat:gpu5" > /tmp/res/sanitize.txt 2>&1; echo "memcheck rc=$?"; tail -2 /tmp/res/sanitize.txt
echo "elapsed $(( $(date +%s) - t0 )) s"
cd /tmp/res && tar czf "$OUT/res.tgz" . && cp tables.txt "$OUT/"
