#!/bin/bash
# On the GPU machine: build the tarball, make check, the ceilings, the table of every
# workload's medium deck, the kernels, installcheck, compute-sanitizer on the tuned stages.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/res
SRC=$(pwd)
export XDG_CACHE_HOME=/tmp/cache
cd /tmp && rm -rf apod-0.2.0 && tar xzf "$SRC/.device/apod-0.2.0.tar.gz" && cd apod-0.2.0 || exit 1
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; nproc; } > /tmp/res/env.txt
t0=$(date +%s)
( ./configure --prefix=/tmp/inst && make -j16 ) > /tmp/res/build.txt 2>&1 || { tail -40 /tmp/res/build.txt; exit 1; }
echo "build $(( $(date +%s) - t0 )) s"
timeout 240 make -j16 check > /tmp/res/check.txt 2>&1; echo "check rc=$?"
grep -E "^# (TOTAL|PASS|SKIP|FAIL|ERROR)|^(FAIL|ERROR):" /tmp/res/check.txt
for f in $(grep -lE "^(FAIL|ERROR)" tests/*.log 2>/dev/null); do echo "== $f"; tail -30 "$f"; done > /tmp/res/failed-logs.txt
./apod ceilings --json=/tmp/res/ceilings.json > /tmp/res/ceilings.txt 2>&1; cat /tmp/res/ceilings.txt
{
for w in heat nbody montecarlo particles; do
  case $w in heat) d=--deck=data/medium.deck;; nbody) d=--deck=data/nbody/medium.deck;;
    montecarlo) d=--deck=data/montecarlo/medium.deck;; particles) d="--n=10000000 --steps=50";; esac
  echo "### ./apod --workload=$w $d --json=table-$w-medium.json"
  timeout 150 ./apod --workload=$w $d --json=/tmp/res/table-$w-medium.json 2>&1
done
echo "### ./apod bench --deck=data/large.deck --kernels --json=bench-heat-large.json"
timeout 120 ./apod bench --deck=data/large.deck --kernels --json=/tmp/res/bench-heat-large.json 2>&1
echo "### ./apod bench --workload=nbody --deck=data/nbody/large.deck --kernels --json=bench-nbody-large.json"
timeout 120 ./apod bench --workload=nbody --deck=data/nbody/large.deck --kernels --json=/tmp/res/bench-nbody-large.json 2>&1
} > /tmp/res/tables.txt
grep -A14 "^stage " /tmp/res/tables.txt | head -80
echo "elapsed $(( $(date +%s) - t0 )) s"
( make install && timeout 150 make installcheck ) > /tmp/res/installcheck.txt 2>&1; echo "installcheck rc=$?"; tail -5 /tmp/res/installcheck.txt
timeout 150 make check-sanitize SANITIZE_TOOLS=memcheck SANITIZE_RUNS="heat:gpu2 heat:gpu4 nbody:gpu4 montecarlo:gpu2" > /tmp/res/sanitize.txt 2>&1; echo "sanitize rc=$?"; tail -6 /tmp/res/sanitize.txt
echo "elapsed $(( $(date +%s) - t0 )) s"
cd /tmp/res && tar czf "$OUT/results.tgz" . && cp check.txt tables.txt "$OUT/"
