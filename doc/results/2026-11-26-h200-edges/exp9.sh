#!/bin/bash
# Session 9: gpu4's fused kernel with rows loaded further ahead (bench --kernels, large deck), and the trace's clipping.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
SRC=$(pwd); export XDG_CACHE_HOME=/tmp/cache
cd /tmp && rm -rf apod-0.2.0 && tar xzf "$SRC/.device/apod-0.2.0.tar.gz" && cd apod-0.2.0 || exit 1
t0=$(date +%s)
( ./configure && make -j16 ) > /tmp/build.txt 2>&1 || { tail -40 /tmp/build.txt; exit 1; }
echo "built $(( $(date +%s) - t0 )) s"
echo "### ./apod run --stage=gpu4 --deck=data/medium.deck --trace" > "$OUT/exp.txt"
./apod run --stage=gpu4 --deck=data/medium.deck --trace 2>&1 | head -12 >> "$OUT/exp.txt"
for v in "1 3" "2 3" "2 2" "1 2"; do
  set -- $v
  if [ "$1 $2" != "1 3" ]; then
    touch gpu/heat/stage4.cu gpu/heat/bench.cu
    make -j16 NVCCFLAGS="-O3 -std=c++20 \$(CUDA_GENCODE) \$(NVCC_FMAD) -Xcompiler -Wall -DGPU4_AHEAD=$1 -DTUNED_MIN_BLOCKS=$2" > /tmp/b2.txt 2>&1 || { tail -20 /tmp/b2.txt; exit 1; }
  fi
  echo "### AHEAD=$1 MIN_BLOCKS=$2: ./apod bench --deck=data/large.deck --kernels" >> "$OUT/exp.txt"
  timeout 120 ./apod bench --deck=data/large.deck --kernels --json="$OUT/bench-large-a$1-b$2.json" >> "$OUT/exp.txt" 2>&1
  echo "### AHEAD=$1 MIN_BLOCKS=$2: ./apod bench --deck=data/medium.deck --kernels" >> "$OUT/exp.txt"
  timeout 60 ./apod bench --deck=data/medium.deck --kernels >> "$OUT/exp.txt" 2>&1
  echo "variant $v done $(( $(date +%s) - t0 )) s"
done
grep -E "^###|copy   |fused|deferred|sweep" "$OUT/exp.txt" | head -80
