#!/bin/sh
# Every GPU stage through the same gate as serial and omp: the committed
# reference of the small deck, and a fresh serial run.  Skips (77) where no
# GPU stage can run; fails if some can and others cannot.
. "$top_srcdir/tests/lib.sh"
deck=$top_srcdir/data/small.deck
avail=$("$APOD" stages | grep -c '^gpu[0-9] *available')
built=$("$APOD" stages | grep -c '^gpu[0-9]')
if [ "$avail" -eq 0 ]; then
	echo "SKIP: no GPU stage can run here:"; "$APOD" stages | grep 'why:' | head -1
	exit 77
fi
[ "$avail" -eq "$built" ] || { echo "FAIL: only $avail of $built GPU stages available"; "$APOD" stages; exit 1; }

expect 0 "stage serial" "$APOD" run --stage=serial --deck="$deck" --out="$work/serial"
for s in gpu1 gpu2 gpu3 gpu4; do
	expect 0 "stage $s" "$APOD" run --stage=$s --deck="$deck" --out="$work/$s"
	expect 0 "PASS" "$APOD" verify "$top_srcdir/data/ref/small" "$work/$s"
	expect 0 "PASS" "$APOD" verify "$work/serial" "$work/$s"
	# With --disable-fmad the device rounds as the host does: bit for bit.
	if [ "${APOD_FMAD:-yes}" = no ]; then
		expect 0 " 0 of 64351 values differ" "$APOD" verify "$work/serial" "$work/$s"
	fi
	# The snapshots (every 40 of 120 steps) are the field at those steps.
	for step in 40 80 120; do
		f=$(printf 'snap_%09d.npy' "$step")
		[ -s "$work/$s/$f" ] || { echo "FAIL: $s did not write $f"; fails=$((fails + 1)); }
	done
	cmp -s "$work/$s/snap_000000120.npy" "$work/$s/field.npy" ||
		{ echo "FAIL: $s: the last snapshot is not the final field"; fails=$((fails + 1)); }
	if [ "${APOD_FMAD:-yes}" = no ]; then
		cmp -s "$work/serial/snap_000000040.npy" "$work/$s/snap_000000040.npy" ||
			{ echo "FAIL: $s: snapshot 40 differs from serial's"; fails=$((fails + 1)); }
	fi
done
# A width that is a multiple of 4 takes gpu4's 16-byte kernel (317 does not).
expect 0 "stage serial" "$APOD" run --stage=serial --deck="$deck" --size=320x203 --out="$work/serial320"
expect 0 "stage gpu4" "$APOD" run --stage=gpu4 --deck="$deck" --size=320x203 --out="$work/gpu4-320"
expect 0 "PASS" "$APOD" verify "$work/serial320" "$work/gpu4-320"
if [ "${APOD_FMAD:-yes}" = no ]; then
	expect 0 " 0 of 64960 values differ" "$APOD" verify "$work/serial320" "$work/gpu4-320"
fi
finish
