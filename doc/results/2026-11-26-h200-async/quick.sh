#!/bin/bash
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT" /tmp/res
SRC=$(pwd); export XDG_CACHE_HOME=/tmp/cache
cd /tmp && rm -rf apod-0.2.0 && tar xzf "$SRC/.device/apod-0.2.0.tar.gz" && cd apod-0.2.0 || exit 1
( ./configure && make -j16 ) > /tmp/res/build.txt 2>&1 || { tail -40 /tmp/res/build.txt; exit 1; }
timeout 240 make -j16 check > /tmp/res/check.txt 2>&1; echo "check rc=$?"
grep -E "^# (TOTAL|PASS|SKIP|FAIL|ERROR)|^(FAIL|ERROR):" /tmp/res/check.txt
for f in $(grep -lE "^(FAIL|ERROR)" tests/*.log 2>/dev/null); do echo "== $f"; tail -40 "$f"; done
./apod ceilings > /dev/null 2>&1
timeout 120 ./apod --deck=data/medium.deck --json=/tmp/res/table-heat-medium.json > /tmp/res/table.txt 2>&1; cat /tmp/res/table.txt | sed -n 3,14p
python3 -c "
import json; t=json.load(open('/tmp/res/table-heat-medium.json'))
for r in t['stages']:
  s=r.get('speed_of_light',{})
  if r['ran']: print(r['stage'], 'total', round(r['total_seconds'],4), 'loop_reached', s.get('loop_reached'), 'loop_s', s.get('loop_seconds'), 'loop_bound', s.get('loop_bound_seconds'))"
timeout 100 make check-sanitize SANITIZE_TOOLS=memcheck SANITIZE_RUNS="heat:gpu2 heat:gpu4 heat:gpu5" > /tmp/res/sanitize.txt 2>&1; echo "sanitize rc=$?"; tail -4 /tmp/res/sanitize.txt
timeout 150 ./apod bench --deck=data/medium.deck --kernels --json=/tmp/res/bench-heat-medium.json > /tmp/res/bench-medium.txt 2>&1; grep -iE "loop|waited|deferred|gpu5|copy" /tmp/res/bench-medium.txt | head -20
cd /tmp/res && tar czf "$OUT/quick.tgz" .
