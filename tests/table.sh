#!/bin/sh
# `apod` with no command: every stage in the table, serial as the reference,
# omp verified, the GPU and MPI stages run (mpi and mgpu at one rank) or listed with the
# reason they cannot.
. "$top_srcdir/tests/lib.sh"
deck=$top_srcdir/data/small.deck
# Open MPI does not free everything it allocates by MPI_Finalize (its
# components are unloaded first, so LeakSanitizer cannot even name them):
# in the sanitizers' build, the table (which runs the mpi stage, at one rank) is not checked for leaks;
# addresses and undefined behaviour still are.
if [ "${APOD_SANITIZE:-no}" = yes ]; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	export ASAN_OPTIONS
fi
expect 0 "reference" "$APOD" --deck="$deck" --json="$work/table.json"
grep -E '^omp .*PASS' "$work/out" >/dev/null || { echo "FAIL: omp row not verified"; cat "$work/out"; fails=$((fails + 1)); }
for s in gpu1 gpu2 gpu3 gpu4 mpi mgpu; do
	grep -q "^$s " "$work/out" || { echo "FAIL: $s missing from the table"; fails=$((fails + 1)); }
done
# The JSON is valid and holds a row per stage.
if command -v python3 >/dev/null; then
	python3 -c 'import json,sys; t=json.load(open(sys.argv[1])); assert len(t["stages"]) == 8, t; assert t["stages"][1]["verify_against_serial"]["pass"]' "$work/table.json" ||
		{ echo "FAIL: table.json"; fails=$((fails + 1)); }
fi
finish
