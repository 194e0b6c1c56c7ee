#!/bin/bash
# Session 10, second experiment: gpu5's chunk (rows a warp walks) chosen for whole waves.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/res
SRC=$(pwd); export XDG_CACHE_HOME=/tmp/cache
cd /tmp && rm -rf apod-0.2.0 && tar xzf "$SRC/.device/apod-0.2.0.tar.gz" && cd apod-0.2.0 || exit 1
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } > /tmp/res/exp.txt
t0=$(date +%s)
( ./configure && make -j16 ) > /tmp/build.txt 2>&1 || { tail -40 /tmp/build.txt; exit 1; }
echo "built $(( $(date +%s) - t0 )) s"
for v in "base:" "fit:-DTEMPORAL_CHUNK_FIT" "c24:-DTEMPORAL_CHUNK=24" "c72:-DTEMPORAL_CHUNK=72"; do
  name=${v%%:*}; flags=${v#*:}
  if [ "$name" != base ]; then
    touch gpu/heat/temporal.cu gpu/heat/bench.cu
    make -j16 NVCCFLAGS="-O3 -std=c++20 \$(CUDA_GENCODE) \$(NVCC_FMAD) -Xcompiler -Wall $flags" > /tmp/b2.txt 2>&1 || { tail -20 /tmp/b2.txt; exit 1; }
  fi
  if [ "$name" = fit ]; then
    { echo "### fit: gates on data/medium.deck"; ./apod run --stage=serial --deck=data/medium.deck --out=/tmp/m-serial > /dev/null 2>&1
      ./apod run --stage=gpu5 --deck=data/medium.deck --out=/tmp/m-gpu5 > /dev/null 2>&1; ./apod verify /tmp/m-serial /tmp/m-gpu5 2>&1 | tail -1; } >> /tmp/res/exp.txt
  fi
  for d in large medium; do
    echo "### $name ($flags): ./apod bench --deck=data/$d.deck --kernels" >> /tmp/res/exp.txt
    timeout 100 ./apod bench --deck=data/$d.deck --kernels --json=/tmp/res/bench-$d-$name.json >> /tmp/res/exp.txt 2>&1
  done
  echo "variant $name done $(( $(date +%s) - t0 )) s"
done
cd /tmp/res && tar czf "$OUT/res.tgz" . 
grep -E "^###|PASS|FAIL|copy kernel, 16|gpu5" /tmp/res/exp.txt
