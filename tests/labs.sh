#!/bin/sh
# Every lab's correctness check on a small size: each kernel version is
# compared with its CPU reference (nothing is timed).  Skips without a GPU.
. "$top_srcdir/tests/lib.sh"
expect 0 "devices" "$APOD" lab
expect 2 "unknown lab 'nope'" "$APOD" lab nope
if ! "$APOD" stages | grep -q '^gpu2 *available'; then
	expect 1 "" "$APOD" lab reduction --check
	echo "SKIP: no GPU for the labs' kernels"
	[ "$fails" -eq 0 ] && exit 77
	finish
fi
for lab in devices transfers reduction matmul; do
	expect 0 "lab $lab (check only" "$APOD" lab $lab --check --json="$work/$lab.json"
	if grep -q FAILED "$work/out"; then echo "FAIL: $lab reported a failed version"; fails=$((fails + 1)); fi
	grep -q '"verified":true' "$work/$lab.json" || grep -q '"verified": true' "$work/$lab.json" ||
		{ echo "FAIL: $lab.json has no verified version"; fails=$((fails + 1)); }
done
finish
