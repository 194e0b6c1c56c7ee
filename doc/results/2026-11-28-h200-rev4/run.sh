#!/bin/bash
# Interface revision 4 on the H200 (issues 31 and 32): make check (every
# GPU gate, the serial references bit for bit, mgpu at one rank, NVTX),
# make check-sanitize, the kernels against their last record
# (2026-11-26-h200-kernels: heat's fused kernel and n-body gpu4), heat's
# table on the medium deck, and the examples (lookup, and the third, real
# multi-phase example) built against the installed library.  From the
# repository's root, with a `make dist` tarball in .device/:
#   bash .device/on-gpu bash doc/results/2026-11-28-h200-rev4/run.sh
# CHECK=no, SANITIZE=no, KERNELS=no, EXAMPLES=no skip a part.
. doc/results/prelude.sh
if [ "${CHECK:-yes}" = yes ]; then
	T=$(date +%s)
	timeout 220 make -j16 check > "$RES/check.txt" 2>&1
	echo "make check rc=$? in $(( $(date +%s) - T )) s"
	grep -E "^(# |FAIL|ERROR)" "$RES/check.txt" | head -20
	for f in $(grep -lE "^(FAIL|ERROR)" tests/*.log tests/*/*.log 2>/dev/null); do
		cp "$f" "$RES/"; tail -15 "$f"
	done
	pack
fi
if [ "${KERNELS:-yes}" = yes ]; then
	record heat-kernels-large 120 ./apod bench --deck=data/large.deck --kernels --json="$RES/heat-kernels-large.json"
	record nbody-kernels-262144 120 ./apod bench --workload=nbody --deck=data/nbody/large.deck --n=262144 --kernels --json="$RES/nbody-kernels-262144.json"
	record heat-table-medium 150 ./apod table --deck=data/medium.deck --json="$RES/heat-medium.json"
	record heat-table-medium-reverse 150 ./apod table --deck=data/medium.deck --reverse --json="$RES/heat-medium-reverse.json"
fi
if [ "${SANITIZE:-yes}" = yes ]; then
	T=$(date +%s)
	timeout 200 make check-sanitize > "$RES/sanitize.txt" 2>&1
	echo "check-sanitize rc=$? in $(( $(date +%s) - T )) s"
	grep -E "ERROR SUMMARY: [1-9]|check-sanitize" "$RES/sanitize.txt" | tail -5
	pack
fi
if [ "${EXAMPLES:-yes}" = yes ]; then
	( make install && ldconfig ) > "$RES/install.txt" 2>&1 || { echo "install failed"; tail -5 "$RES/install.txt"; }
	export PKG_CONFIG_PATH=/usr/local/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
	( cd doc/examples/lookup && make CUDA_ARCH=-arch=native ) > "$RES/lookup-build.txt" 2>&1 ||
		{ echo "lookup build failed"; tail -10 "$RES/lookup-build.txt"; }
	record lookup-table 90 doc/examples/lookup/lookup --json="$RES/lookup.json"
	for ex in doc/examples/*/run-h200.sh; do
		[ -f "$ex" ] || continue
		d=$(dirname "$ex"); n=$(basename "$d")
		record "$n-h200" 300 bash "$ex" "$RES/$n"
	done
	# The third example's table with its stages run serial last: no order effect.
	( cd doc/examples/srad && make CUDA_ARCH=-arch=native ) > "$RES/srad-build.txt" 2>&1 &&
		record srad-table-reverse 120 doc/examples/srad/srad --reverse --json="$RES/srad-reverse.json"
fi
if [ "${ORDER:-no}" = yes ]; then
	# Is a stage's time the same whichever ran before it?  The third
	# example's table and heat's small deck, serial first and serial last,
	# alternately, three times each.
	( make install && ldconfig ) > "$RES/install.txt" 2>&1
	export PKG_CONFIG_PATH=/usr/local/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
	( cd doc/examples/srad && make CUDA_ARCH=-arch=native ) > "$RES/srad-build.txt" 2>&1 || echo "srad build failed"
	for i in 1 2 3; do
		record srad-order-$i-first 60 doc/examples/srad/srad --json="$RES/srad-order-$i-first.json"
		record srad-order-$i-last 60 doc/examples/srad/srad --reverse --json="$RES/srad-order-$i-last.json"
	done
	for i in 1 2; do
		record heat-order-$i-first 90 ./apod --deck=data/small.deck --json="$RES/heat-order-$i-first.json"
		record heat-order-$i-last 90 ./apod --deck=data/small.deck --reverse --json="$RES/heat-order-$i-last.json"
	done
fi
