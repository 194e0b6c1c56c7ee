#!/bin/bash
# The large deck's table (gates and speed of light), apart: it takes longer than record.sh allowed it.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
SRC=$(pwd); export XDG_CACHE_HOME=/tmp/cache
cd /tmp && rm -rf apod-0.2.0 && tar xzf "$SRC/.device/apod-0.2.0.tar.gz" && cd apod-0.2.0 || exit 1
( ./configure && make -j16 ) > /tmp/build.txt 2>&1 || { tail -40 /tmp/build.txt; exit 1; }
timeout 300 ./apod --deck=data/large.deck --json="$OUT/table-heat-large.json" > "$OUT/table-heat-large.txt" 2>&1; echo "rc=$?"
head -14 "$OUT/table-heat-large.txt"
