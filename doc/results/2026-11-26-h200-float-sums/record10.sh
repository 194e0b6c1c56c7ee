#!/bin/bash
# Session 10 (H200): gpu4 bins once a run, gpu5 float sums and chunks for whole waves, the merged clean-up (dups5, dups6):
# check, every workload's medium table, heat's small table,
# runs of heat's resident stages, bench --kernels on the medium and large decks, memcheck.
# Run as `bash .device/on-gpu bash .device/record.sh` with the `make dist` tarball in .device/.
set -u
OUT=${OUT:-/tmp/out}; rm -rf /tmp/res; mkdir -p "$OUT" /tmp/res
SRC=$(pwd); export XDG_CACHE_HOME=/tmp/cache
cd /tmp && rm -rf apod-0.2.0 && tar xzf "$SRC/.device/apod-0.2.0.tar.gz" && cd apod-0.2.0 || exit 1
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u; } > /tmp/res/env.txt
t0=$(date +%s)
( ./configure && make -j16 ) > /tmp/build.txt 2>&1 || { tail -40 /tmp/build.txt; exit 1; }
timeout 200 make -j16 check > /tmp/res/check.txt 2>&1; echo "check rc=$?"
grep -E "^# (TOTAL|PASS|SKIP|FAIL|ERROR)|^(FAIL|ERROR): " /tmp/res/check.txt
for t in $(grep -E "^(FAIL|ERROR): " /tmp/res/check.txt | awk '{print $2}'); do tail -40 "$t.log"; done
./apod ceilings --json=/tmp/res/ceilings.json > /tmp/res/ceilings.txt 2>&1
{
for d in medium small; do echo "### ./apod --deck=data/$d.deck --json=table-heat-$d.json"; timeout 100 ./apod --deck=data/$d.deck --json=/tmp/res/table-heat-$d.json 2>&1; done
for w in nbody montecarlo; do echo "### ./apod --workload=$w --deck=data/$w/medium.deck --json=table-$w-medium.json"; timeout 100 ./apod --workload=$w --deck=data/$w/medium.deck --json=/tmp/res/table-$w-medium.json 2>&1; done
echo "### ./apod --workload=particles --n=1000000 --steps=20"; timeout 100 ./apod --workload=particles --n=1000000 --steps=20 2>&1
for s in gpu2 gpu4 gpu5; do echo "### ./apod run --stage=$s --deck=data/medium.deck"; ./apod run --stage=$s --deck=data/medium.deck 2>&1; done
echo "### ./apod run --stage=gpu4 --deck=data/medium.deck --trace"; ./apod run --stage=gpu4 --deck=data/medium.deck --trace 2>&1
echo "### gpu5 and gpu4 against serial with stats_every=3 (medium deck)"; ./apod run --stage=serial --deck=data/medium.deck --stats_every=3 --out=/tmp/s3 > /dev/null 2>&1
for s in gpu4 gpu5; do ./apod run --stage=$s --deck=data/medium.deck --stats_every=3 --out=/tmp/$s-3 > /dev/null 2>&1; echo "$s: $(./apod verify /tmp/s3 /tmp/$s-3 2>&1 | tail -1)"; done
echo "### ./apod stages"; ./apod stages 2>&1 | grep -A1 "^mgpu\|^mpi"
echo "### ./apod run --stage=mgpu --deck=data/small.deck"; ./apod run --stage=mgpu --deck=data/small.deck --out=/tmp/mg 2>&1 | tail -3; ./apod verify data/ref/small /tmp/mg 2>&1 | tail -1
echo "### ./apod lab instructions (the helper's macros)"; timeout 60 ./apod lab instructions --check 2>&1 | tail -15
echo "### ./apod bench --deck=data/medium.deck --kernels --json=bench-heat-medium.json"; timeout 100 ./apod bench --deck=data/medium.deck --kernels --json=/tmp/res/bench-heat-medium.json 2>&1
echo "### ./apod bench --deck=data/large.deck --kernels --json=bench-heat-large.json"; timeout 120 ./apod bench --deck=data/large.deck --kernels --json=/tmp/res/bench-heat-large.json 2>&1
} > /tmp/res/tables.txt
grep -E "^###|^(serial|omp|gpu[0-9]*|mpi|mgpu) |FAIL|BROKEN|fused|deferred|launch, wait" /tmp/res/tables.txt | head -90
for f in /tmp/res/table-*.json; do python3 -c "import json; d=json.load(open('$f')); print('$f'.split('/')[-1], [(s['stage'], round(100*s['speed_of_light']['loop_reached'],1)) for s in d['stages'] if s.get('speed_of_light')])" 2>&1 | cut -c1-400; done
echo "tables $(( $(date +%s) - t0 )) s"
timeout 150 make check-sanitize SANITIZE_TOOLS="memcheck" SANITIZE_RUNS="heat:gpu1 heat:gpu4 heat:gpu5 nbody:gpu4 montecarlo:gpu2" > /tmp/res/sanitize.txt 2>&1; echo "memcheck rc=$?"; tail -2 /tmp/res/sanitize.txt
echo "elapsed $(( $(date +%s) - t0 )) s"
cd /tmp/res && tar czf "$OUT/res.tgz" . && cp tables.txt "$OUT/"
