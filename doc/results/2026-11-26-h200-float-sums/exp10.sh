#!/bin/bash
# Session 10: gpu4's bins' intervals made once (and the run's interval in registers); gpu5's
# float sums flushed to shared doubles; deeper gpu5 passes with statistics.  Gates first.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
SRC=$(pwd); export XDG_CACHE_HOME=/tmp/cache
cd /tmp && rm -rf apod-0.2.0 && tar xzf "$SRC/.device/apod-0.2.0.tar.gz" && cd apod-0.2.0 || exit 1
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } > "$OUT/exp.txt"
t0=$(date +%s)
( ./configure && make -j16 ) > /tmp/build.txt 2>&1 || { tail -40 /tmp/build.txt; exit 1; }
echo "built $(( $(date +%s) - t0 )) s"
{
echo "### gates (default build): serial vs gpu4, gpu5 on data/medium.deck; gate-gpu.sh"
./apod run --stage=serial --deck=data/medium.deck --out=/tmp/m-serial > /dev/null 2>&1
for s in gpu4 gpu5; do ./apod run --stage=$s --deck=data/medium.deck --out=/tmp/m-$s > /dev/null 2>&1; echo "$s: $(./apod verify /tmp/m-serial /tmp/m-$s 2>&1 | tail -3 | tr '\n' ' ')"; done
./apod run --stage=gpu5 --deck=data/medium.deck --stats_every=3 --out=/tmp/m-gpu5e3 > /dev/null 2>&1; ./apod run --stage=serial --deck=data/medium.deck --stats_every=3 --out=/tmp/m-serial3 > /dev/null 2>&1
echo "gpu5 stats_every=3: $(./apod verify /tmp/m-serial3 /tmp/m-gpu5e3 2>&1 | tail -3 | tr '\n' ' ')"
make check TESTS="tests/gate-gpu.sh tests/gpu.sh" > /tmp/g.txt 2>&1; grep -E "^(PASS|FAIL|SKIP|ERROR)" /tmp/g.txt
} >> "$OUT/exp.txt" 2>&1
echo "gates $(( $(date +%s) - t0 )) s"
for v in "old:-DGPU4_BOUNDS_PER_BLOCK -DGPU4_RUN_LDS -DTEMPORAL_OLD_SUMS" "new:" "a:-DGPU4_RUN_LDS" "waves2:-DGPU4_RUN_LDS -DGPU4_WAVES=2 -DTEMPORAL_FLUSH_ROWS=32" "d5:-DGPU4_RUN_LDS -DTEMPORAL_DEPTH=5" "d6:-DGPU4_RUN_LDS -DTEMPORAL_DEPTH=6"; do
  name=${v%%:*}; flags=${v#*:}
  if [ "$name" != new ]; then
    touch gpu/heat/stage4.cu gpu/heat/bench.cu gpu/heat/temporal.cu
    make -j16 NVCCFLAGS="-O3 -std=c++20 \$(CUDA_GENCODE) \$(NVCC_FMAD) -Xcompiler -Wall $flags" > /tmp/b2.txt 2>&1 || { tail -20 /tmp/b2.txt; exit 1; }
  fi
  echo "### $name ($flags): ./apod bench --deck=data/large.deck --kernels" >> "$OUT/exp.txt"
  timeout 100 ./apod bench --deck=data/large.deck --kernels --json="$OUT/bench-large-$name.json" >> "$OUT/exp.txt" 2>&1
  echo "### $name ($flags): ./apod bench --deck=data/medium.deck --kernels" >> "$OUT/exp.txt"
  timeout 60 ./apod bench --deck=data/medium.deck --kernels --json="$OUT/bench-medium-$name.json" >> "$OUT/exp.txt" 2>&1
  echo "variant $name done $(( $(date +%s) - t0 )) s"
  [ $(( $(date +%s) - t0 )) -gt 480 ] && { echo "out of time"; break; }
done
grep -E "^###|^gpu|^(PASS|FAIL|SKIP)|copy kernel, 16|fused sweep|deferred|sweep only|gpu5" "$OUT/exp.txt" | head -120
