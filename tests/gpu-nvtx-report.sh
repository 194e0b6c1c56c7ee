#!/bin/sh
# tests/gpu-nvtx-report.sh (make check-gpu-report): on the GPU machine,
# from the built tree (a CUDA build): the NVTX ranges seen through CUPTI, and
# `apod report` of heat's medium deck, saved into $OUT (the HTML, and a
# Chromium screenshot where Chromium is; the GPU hosts have none).  Under
# 3 minutes on an H200.
set -u
: "${OUT:?give the folder for the results in OUT}"
# The built tree (top_builddir, as make check-gpu-report gives it; else the
# source tree, built in place) and the sources, for the deck.
src=$(cd "$(dirname "$0")/.." && pwd)
cd "${top_builddir:-$src}" || exit 1
mkdir -p "$OUT"
status=0
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/gpu.txt" 2>&1
date -u >>"$OUT/gpu.txt"

# Every phase of gpu4 as an NVTX range, by name, through CUPTI.
make -s tests/check_nvtx >"$OUT/check_nvtx.build.log" 2>&1
if [ -x tests/check_nvtx ]; then
	CK_FORK=no timeout 120 tests/check_nvtx >"$OUT/check_nvtx.log" 2>&1
	echo "check_nvtx: exit $?" | tee -a "$OUT/check_nvtx.log"
	grep -q "100%" "$OUT/check_nvtx.log" || status=1
else
	echo "check_nvtx: not built (no CUPTI in this build?)" | tee "$OUT/check_nvtx.log"
	status=1
fi

# The report of heat's medium deck, with scaling.  gnuplot may be
# missing there: the table's JSON is kept, so the page can be made here
# with  apod report --from=OUT/medium.json --scaling=OUT/scale.json.
./apod ceilings >"$OUT/ceilings.txt" 2>&1
timeout 60 ./apod scale --deck="$src/data/heat/medium.deck" --reps=1 --threads=1,4,16 --json="$OUT/scale.json" \
	>"$OUT/scale.txt" 2>&1 || echo "scale: failed, see scale.txt"
if command -v gnuplot >/dev/null 2>&1; then
	timeout 90 ./apod report --deck="$src/data/heat/medium.deck" --scaling="$OUT/scale.json" \
		--json="$OUT/medium.json" --out="$OUT/report-medium.html" >"$OUT/report.txt" 2>&1 ||
		{ echo "report: failed, see report.txt"; status=1; }
else
	echo "no gnuplot here: the table's JSON only (make the page elsewhere with --from)"
	timeout 90 ./apod --deck="$src/data/heat/medium.deck" --json="$OUT/medium.json" >"$OUT/report.txt" 2>&1 ||
		{ echo "table: failed, see report.txt"; status=1; }
fi
for b in chromium chromium-browser; do
	if [ -f "$OUT/report-medium.html" ] && command -v "$b" >/dev/null 2>&1; then
		HOME=$OUT timeout 60 "$b" --headless --no-sandbox --disable-gpu --hide-scrollbars \
			--window-size=1200,4000 --screenshot="$OUT/report-medium.png" \
			"file://$OUT/report-medium.html" >/dev/null 2>&1
		break
	fi
done
ls -l "$OUT"
exit $status
