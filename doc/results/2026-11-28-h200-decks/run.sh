#!/bin/bash
# Issue 30 on the H200: the crash at 4096 histogram bins, the deck-space
# sweep of every stage (make check-gpu-decks), make check-sanitize and make
# check.  Run on the GPU machine from the repository's root, with a `make
# dist` tarball in .device/:
#   bash .device/on-gpu bash doc/results/2026-11-28-h200-decks/run.sh
# SECONDS_DECKS sets the sweep's time budget (default 300); REPRO=no skips
# the crash's reproduction, LOOKUP=yes adds the lookup example's table and
# scaling (built against the installed library) for its `apod report`.
. doc/results/prelude.sh
for s in $([ "${REPRO:-yes}" = yes ] && echo gpu4 gpu5); do
	for b in 4095 4096; do
		record "repro-$s-$b" 60 ./apod run --stage=$s --deck=data/small.deck --hist_bins=$b
		record "repro-$s-$b-320" 60 ./apod run --stage=$s --deck=data/small.deck --size=320x203 --hist_bins=$b
	done
done
T=$(date +%s)
SPACE_SECONDS=${SECONDS_DECKS:-300} SPACE_KEEP=$RES/failures timeout 420 make check-gpu-decks > "$RES/decks.txt" 2>&1
echo "check-gpu-decks rc=$? in $(( $(date +%s) - T )) s"
grep -E "^(FAIL|refused|deck space|time budget)" "$RES/decks.txt" | head -60
pack
if [ "${SANITIZE:-yes}" = yes ]; then
	T=$(date +%s)
	timeout "${SANITIZE_LIMIT:-200}" make check-sanitize > "$RES/sanitize.txt" 2>&1
	echo "check-sanitize rc=$? in $(( $(date +%s) - T )) s"
	grep -E "^compute-sanitizer|SUMMARY|clean|rror" "$RES/sanitize.txt" | grep -v "0 errors" | tail -30
	pack
fi
if [ "${CHECK:-yes}" = yes ]; then
	T=$(date +%s)
	timeout 150 make -j16 check > "$RES/check.txt" 2>&1
	echo "make check rc=$? in $(( $(date +%s) - T )) s"
	grep -E "^(# |FAIL|ERROR)" "$RES/check.txt" | head -20
	pack
fi
if [ "${LOOKUP:-no}" = yes ]; then
	( make install && ldconfig ) > "$RES/install.txt" 2>&1 || { echo "install failed"; tail -5 "$RES/install.txt"; }
	( cd doc/examples/lookup && PKG_CONFIG_PATH=/usr/local/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} \
		make CUDA_ARCH=-arch=native ) > "$RES/lookup-build.txt" 2>&1 || { echo "lookup build failed"; tail -10 "$RES/lookup-build.txt"; }
	record lookup-table 90 doc/examples/lookup/lookup --json="$RES/lookup.json"
	record lookup-scale 90 doc/examples/lookup/lookup scale --reps=1 --threads=1,4,16 --json="$RES/lookup-scale.json"
	pack
fi
