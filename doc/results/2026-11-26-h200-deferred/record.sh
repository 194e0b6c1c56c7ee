#!/bin/bash
# Session 8: gpu4's statistics merged when collected (H200): check, every heat deck's gates,
# bench --kernels, the profile of the medium run, sanitizer on gpu4.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/res
SRC=$(pwd); export XDG_CACHE_HOME=/tmp/cache
cd /tmp && rm -rf apod-0.2.0 && tar xzf "$SRC/.device/apod-0.2.0.tar.gz" && cd apod-0.2.0 || exit 1
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; } > /tmp/res/env.txt
t0=$(date +%s)
( ./configure && make -j16 ) > /tmp/build.txt 2>&1 || { tail -40 /tmp/build.txt; exit 1; }
timeout 200 make -j16 check > /tmp/res/check.txt 2>&1; echo "check rc=$?"
grep -E "^# (TOTAL|PASS|SKIP|FAIL|ERROR)|^(FAIL|ERROR):" /tmp/res/check.txt
for f in $(grep -lE "^(FAIL|ERROR)" tests/*.log 2>/dev/null); do echo "== $f"; tail -30 "$f"; cp "$f" /tmp/res/; done
./apod ceilings --json=/tmp/res/ceilings.json > /tmp/res/ceilings.txt 2>&1
{
for d in medium small large; do echo "### ./apod --deck=data/$d.deck --json=table-heat-$d.json"; timeout 150 ./apod --deck=data/$d.deck --json=/tmp/res/table-heat-$d.json 2>&1; done
echo "### ./apod run --stage=gpu4 --deck=data/medium.deck"; ./apod run --stage=gpu4 --deck=data/medium.deck 2>&1
echo "### ./apod bench --deck=data/medium.deck --kernels"; timeout 120 ./apod bench --deck=data/medium.deck --kernels --json=/tmp/res/bench-heat-medium.json 2>&1
echo "### ./apod bench --deck=data/large.deck --kernels"; timeout 120 ./apod bench --deck=data/large.deck --kernels --json=/tmp/res/bench-heat-large.json 2>&1
} > /tmp/res/tables.txt
grep -E "^###|^(serial|omp|gpu[0-9]*|mpi|mgpu) |FAIL|BROKEN|stage:|fused|deferred|waited|split  |of copy|loop" /tmp/res/tables.txt | head -90
for d in medium small large; do python3 -c "import json,sys; d=json.load(open('/tmp/res/table-heat-$d.json')); s=d.get('speed_of_light') or {}; print('$d', {k:v for k,v in (s.items() if isinstance(s,dict) else [])})" 2>&1 | cut -c1-600; done
echo "tables $(( $(date +%s) - t0 )) s"
timeout 100 ncu --cache-control none --launch-skip 300 --launch-count 8 --metrics gpu__time_duration.sum,lts__t_sector_hit_rate.pct,dram__bytes.sum ./apod run --stage=gpu4 --deck=data/medium.deck > /tmp/res/ncu-gpu4-medium.txt 2>&1; grep -E "fused|merge|zones|duration|hit_rate|dram__bytes" /tmp/res/ncu-gpu4-medium.txt | head -30
timeout 150 make check-sanitize SANITIZE_TOOLS="memcheck" SANITIZE_RUNS="heat:gpu4 heat:gpu5" > /tmp/res/sanitize.txt 2>&1; echo "memcheck rc=$?"; tail -3 /tmp/res/sanitize.txt
timeout 80 make check-sanitize SANITIZE_TOOLS="racecheck synccheck" SANITIZE_RUNS="heat:gpu4" > /tmp/res/sanitize-race.txt 2>&1; echo "race rc=$?"; tail -3 /tmp/res/sanitize-race.txt
echo "elapsed $(( $(date +%s) - t0 )) s"
cd /tmp/res && tar czf "$OUT/res.tgz" . && cp tables.txt "$OUT/"
