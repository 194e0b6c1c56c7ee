#!/bin/sh
# Every lab's correctness check on a small size: each kernel version is
# compared with its CPU reference (nothing is timed).  Skips without a GPU.
. "$top_srcdir/tests/lib.sh"
expect 0 "devices" "$APOD" lab
# Every lab the list names is checked, so a lab added to the list is tested.
labs=$(awk '/^  [a-z0-9]+ /{print $1}' "$work/out")
count=$(echo $labs | wc -w)
[ "$count" -eq 14 ] || { echo "FAIL: 'apod lab' lists $count labs, not 14: $labs"; fails=$((fails + 1)); }
expect 2 "unknown lab 'nope'" "$APOD" lab nope
if ! "$APOD" stages | grep -q '^gpu2 *available'; then
	expect 1 "" "$APOD" lab reduction --check
	echo "SKIP: no GPU for the labs' kernels"
	[ "$fails" -eq 0 ] && exit 77
	finish
fi
for lab in $labs; do
	expect 0 "lab $lab (check only" "$APOD" lab $lab --check --json="$work/$lab.json"
	if grep -q FAILED "$work/out"; then echo "FAIL: $lab reported a failed version"; fails=$((fails + 1)); fi
	# A lab whose feature this device lacks says so ("supported": false) and verifies nothing.
	grep -Eq '"supported": ?false' "$work/$lab.json" && { echo "note: $lab: not supported on this device"; continue; }
	grep -Eq '"verified": ?true' "$work/$lab.json" ||
		{ echo "FAIL: $lab.json has no verified version"; fails=$((fails + 1)); }
done
finish
