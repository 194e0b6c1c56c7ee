#!/bin/bash
# The whole test suite on the GPU machine (every GPU stage through the
# harness's clock, mgpu on libapod's ranks at one rank, bench's kernel rows
# printed and written by the harness), the GPU decks, each workload's
# `bench --kernels`, then apod installed and the miniweather example's gpu
# stage run from the install as a user would (its gate, its tables, each
# output against serial's).  One call.  From the repository's root, with a
# `make dist` tarball in .device/:
#   APOD_CONFIGURE=--with-cuda-arch=90 bash .device/on-gpu bash doc/results/2026-12-07-gpu-check/run.sh
. doc/results/prelude.sh
make_check 300
T=$(date +%s)
timeout 120 make -j16 check-gpu-decks > "$RES/gpu-decks.txt" 2>&1
echo "check-gpu-decks rc=$? in $(( $(date +%s) - T )) s"; tail -3 "$RES/gpu-decks.txt"
deck=$(ls data/heat/medium.deck data/medium.deck 2>/dev/null | head -1)
record bench-heat 60 ./apod bench --kernels --deck="$deck" --json="$RES/bench-heat.json"
record bench-nbody 60 ./apod bench --kernels --workload=nbody --json="$RES/bench-nbody.json"
record bench-montecarlo 60 ./apod bench --kernels --workload=montecarlo --json="$RES/bench-montecarlo.json"
make install > "$RES/install.txt" 2>&1 || { echo "make install failed"; tail -5 "$RES/install.txt"; }
T=$(date +%s)
PKG_CONFIG_PATH=/usr/local/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH} \
	LD_LIBRARY_PATH=/usr/local/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
	timeout 200 sh /usr/local/share/doc/apod/examples/miniweather/run-gpu.sh "$RES/miniweather" > "$RES/miniweather.txt" 2>&1
echo "miniweather run-gpu.sh rc=$? in $(( $(date +%s) - T )) s"
grep -E "^(serial|omp|gpu) |FAIL|fail|error" "$RES/miniweather.txt" | head -30
tail -4 "$RES/miniweather.txt"
pack
