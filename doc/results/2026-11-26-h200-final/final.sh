#!/bin/bash
# The closing record on the GPU machine: build, make check, ceilings, every workload's medium
# table, run's speed of light per phase, the kernels, the peers side by side, a user's --gpu
# skeleton and the lookup example against an install, compute-sanitizer on the changed stages.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/res
SRC=$(pwd); export XDG_CACHE_HOME=/tmp/cache
cd /tmp && rm -rf apod-0.2.0 && tar xzf "$SRC/.device/apod-0.2.0.tar.gz" && cd apod-0.2.0 || exit 1
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; } > /tmp/res/env.txt
t0=$(date +%s)
( ./configure --prefix=/tmp/inst && make -j16 && make install ) > /tmp/res/build.txt 2>&1 || { tail -40 /tmp/res/build.txt; exit 1; }
timeout 240 make -j16 check > /tmp/res/check.txt 2>&1; echo "check rc=$?"
grep -E "^# (TOTAL|PASS|SKIP|FAIL|ERROR)|^(FAIL|ERROR):" /tmp/res/check.txt
for f in $(grep -lE "^(FAIL|ERROR)" tests/*.log 2>/dev/null); do echo "== $f"; tail -30 "$f"; done
./apod ceilings --json=/tmp/res/ceilings.json > /tmp/res/ceilings.txt 2>&1
{
for w in heat nbody montecarlo particles; do
  case $w in heat) d=--deck=data/medium.deck;; nbody) d=--deck=data/nbody/medium.deck;;
    montecarlo) d=--deck=data/montecarlo/medium.deck;; particles) d="--n=10000000 --steps=50";; esac
  echo "### ./apod --workload=$w $d --json=table-$w-medium.json"
  timeout 150 ./apod --workload=$w $d --json=/tmp/res/table-$w-medium.json 2>&1
done
echo "### ./apod run --stage=gpu4 --deck=data/medium.deck"; timeout 60 ./apod run --stage=gpu4 --deck=data/medium.deck 2>&1
echo "### ./apod run --stage=gpu5 --deck=data/large.deck"; timeout 60 ./apod run --stage=gpu5 --deck=data/large.deck 2>&1
echo "### ./apod bench --deck=data/large.deck --kernels"; timeout 120 ./apod bench --deck=data/large.deck --kernels --json=/tmp/res/bench-heat-large.json 2>&1
echo "### ./apod bench --workload=nbody --deck=data/nbody/large.deck --kernels"; timeout 120 ./apod bench --workload=nbody --deck=data/nbody/large.deck --kernels --json=/tmp/res/bench-nbody-large.json 2>&1
} > /tmp/res/tables.txt
echo "tables done $(( $(date +%s) - t0 )) s"
export PATH=/tmp/inst/bin:$PATH PKG_CONFIG_PATH=/tmp/inst/lib/pkgconfig:${PKG_CONFIG_PATH:-}
{ cd /tmp && rm -rf mygpu && apod new mygpu --gpu && cd mygpu && make && ./mygpu info && ./mygpu --n=4000000 --steps=50
  cd /tmp && rm -rf lk && cp -r /tmp/apod-0.2.0/doc/examples/lookup lk && cd lk && make && ./lookup && make check; } > /tmp/res/user.txt 2>&1; echo "user rc=$?"
grep -E "^stage|^serial|^omp|^gpu|PASS|FAIL|device|GPU" /tmp/res/user.txt | head -30
cd /tmp/apod-0.2.0
timeout 100 bash "$SRC/.device/peers/run-peers.sh" > /tmp/res/peers.txt 2>&1; echo "peers rc=$?"
timeout 150 make check-sanitize SANITIZE_TOOLS=memcheck SANITIZE_RUNS="heat:gpu2 heat:gpu3 heat:gpu4 heat:gpu5 nbody:gpu4 particles:gpu" > /tmp/res/sanitize.txt 2>&1; echo "sanitize rc=$?"; tail -3 /tmp/res/sanitize.txt
echo "elapsed $(( $(date +%s) - t0 )) s"
cd /tmp/res && rm -f build.txt && tar czf "$OUT/final.tgz" . && cp tables.txt "$OUT/"
