#!/bin/sh
# Every workload's host stages over its deck space: decks drawn by
# tests/deckspace/gen.awk over every key's documented range (edges, odd
# sizes, one row or column, one step, extreme values, every choice), each
# run through serial, omp and (with MPI) mpi at 2 ranks and held to serial
# by the gate, with a fixed seed; then the regression decks of
# tests/deckspace/regress/.  The GPU stages' sweep is `make check-gpu-decks`
# (tests/gpu-deck-space.sh), with a larger budget.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/deckspace/lib.sh"
# ASan's and LeakSanitizer's view of Open MPI: see tests/mpi.sh.
if [ "${APOD_SANITIZE:-no}" = yes ]; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	export ASAN_OPTIONS
fi
SPACE_KEEP=${SPACE_KEEP:-$work/keep}
space_sweep host "${SPACE_SEED:-20261128}" "${SPACE_DECKS:-16}" "${SPACE_BUDGET:-300000}" \
	"${SPACE_CELLS:-100000}" "${SPACE_SECONDS:-300}"
[ "$space_decks" -gt 0 ] || { echo "FAIL: no deck ran"; fails=$((fails + 1)); }
finish
