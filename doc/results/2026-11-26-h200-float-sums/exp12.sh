#!/bin/bash
# Session 10, third experiment: gpu4's block start (the first rows' loads before the barrier)
# and the heater mask word fetched a row ahead.
set -u
OUT=${OUT:-/tmp/out}; rm -rf /tmp/res; mkdir -p "$OUT" /tmp/res
SRC=$(pwd); export XDG_CACHE_HOME=/tmp/cache
cd /tmp && rm -rf apod-0.2.0 && tar xzf "$SRC/.device/apod-0.2.0.tar.gz" && cd apod-0.2.0 || exit 1
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } > /tmp/res/exp.txt
t0=$(date +%s)
( ./configure && make -j16 ) > /tmp/build.txt 2>&1 || { tail -40 /tmp/build.txt; exit 1; }
echo "built $(( $(date +%s) - t0 )) s"
for v in "loads:" "syncfirst:-DGPU4_SYNC_FIRST" "mask:-DGPU4_MASK_AHEAD" "loads2:"; do
  name=${v%%:*}; flags=${v#*:}
  if [ "$name" != loads ]; then
    touch gpu/heat/stage4.cu gpu/heat/bench.cu
    make -j16 NVCCFLAGS="-O3 -std=c++20 \$(CUDA_GENCODE) \$(NVCC_FMAD) -Xcompiler -Wall $flags" > /tmp/b2.txt 2>&1 || { tail -20 /tmp/b2.txt; exit 1; }
  fi
  if [ "$name" != syncfirst ] && [ "$name" != loads2 ]; then
    { echo "### $name: gates"; make check TESTS="tests/gate-gpu.sh" > /tmp/g.txt 2>&1; grep -E "^(PASS|FAIL|ERROR)" /tmp/g.txt
      ./apod run --stage=serial --deck=data/medium.deck --out=/tmp/m-serial > /dev/null 2>&1; rm -rf /tmp/m-gpu4
      ./apod run --stage=gpu4 --deck=data/medium.deck --out=/tmp/m-gpu4 > /dev/null 2>&1; echo "gpu4 medium: $(./apod verify /tmp/m-serial /tmp/m-gpu4 2>&1 | tail -1)"; } >> /tmp/res/exp.txt
  fi
  for d in large medium; do
    echo "### $name ($flags): ./apod bench --deck=data/$d.deck --kernels" >> /tmp/res/exp.txt
    timeout 100 ./apod bench --deck=data/$d.deck --kernels --json=/tmp/res/bench-$d-$name.json >> /tmp/res/exp.txt 2>&1
  done
  echo "variant $name done $(( $(date +%s) - t0 )) s"
done
cd /tmp/res && tar czf "$OUT/res.tgz" .
grep -E "^###|PASS|FAIL|copy kernel, 16|gpu4 fused|deferred|sweep only" /tmp/res/exp.txt | grep -v gpu5
