#!/bin/bash
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"; SRC=$(pwd); export XDG_CACHE_HOME=/tmp/cache
cd /tmp && rm -rf apod-0.2.0 && tar xzf "$SRC/.device/apod-0.2.0.tar.gz" && cd apod-0.2.0 || exit 1
( ./configure --prefix=/tmp/inst && make -j16 && make install ) > /tmp/build.txt 2>&1 || { tail -30 /tmp/build.txt; exit 1; }
{
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 make -j16 check TESTS="tests/check_gpu tests/gate-gpu.sh tests/table.sh tests/cuda-api.sh tests/new.sh tests/trace.sh" 2>&1 | grep -E "^(PASS|FAIL|SKIP|ERROR)"
./apod ceilings > /dev/null
echo "### ./apod run --stage=gpu5 --deck=data/large.deck"; ./apod run --stage=gpu5 --deck=data/large.deck
echo "### ./apod --deck=data/large.deck"; timeout 150 ./apod --deck=data/large.deck --json=$OUT/table-heat-large.json
export PATH=/tmp/inst/bin:$PATH PKG_CONFIG_PATH=/tmp/inst/lib/pkgconfig:${PKG_CONFIG_PATH:-}
cd /tmp && rm -rf lk && cp -r /tmp/apod-0.2.0/doc/examples/lookup lk && cd lk && make >/dev/null && echo "### lookup info" && ./lookup info | head -12 && echo "### lookup table" && ./lookup
} > "$OUT/confirm.txt" 2>&1
grep -vE "^  " "$OUT/confirm.txt" | head -80
