#!/bin/bash
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
SRC=$(pwd); export XDG_CACHE_HOME=/tmp/cache
cd /tmp && rm -rf apod-0.2.0 && tar xzf "$SRC/.device/apod-0.2.0.tar.gz" && cd apod-0.2.0 || exit 1
( ./configure && make -j16 ) > /tmp/build.txt 2>&1 || { tail -40 /tmp/build.txt; exit 1; }
timeout 200 make -j16 check > "$OUT/check.txt" 2>&1; echo "check rc=$?"; grep -E "^# (TOTAL|PASS|SKIP|FAIL|ERROR)|^(FAIL|ERROR): " "$OUT/check.txt"
timeout 100 ./apod --deck=data/medium.deck --json="$OUT/table-heat-medium.json" > "$OUT/table-heat-medium.txt" 2>&1; grep -E "^(gpu4|gpu5|serial) " "$OUT/table-heat-medium.txt"
python3 -c "import json; d=json.load(open('$OUT/table-heat-medium.json')); print([(s['stage'], round(100*s['speed_of_light']['loop_reached'],1)) for s in d['stages']])"
timeout 100 make check-sanitize SANITIZE_TOOLS="memcheck" SANITIZE_RUNS="heat:gpu4" > "$OUT/sanitize.txt" 2>&1; echo "memcheck rc=$?"; tail -1 "$OUT/sanitize.txt"
