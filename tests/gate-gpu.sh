#!/bin/sh
# Every GPU stage through the same gate as serial and omp: the committed
# reference of the small deck, and a fresh serial run.  Skips (77) where no
# GPU stage can run; fails if some can and others cannot.  gpu5 is float
# only: a double build lists it as unavailable, and its part is skipped.
. "$top_srcdir/tests/lib.sh"
deck=$top_srcdir/data/heat/small.deck
avail=$("$APOD" stages | grep -c '^gpu[0-4] *available')
built=$("$APOD" stages | grep -c '^gpu[0-4]')
if [ "$avail" -eq 0 ]; then
	echo "SKIP: no GPU stage can run here:"; "$APOD" stages | grep 'why:' | head -1
	exit 77
fi
[ "$avail" -eq "$built" ] || { echo "FAIL: only $avail of $built GPU stages available"; "$APOD" stages; exit 1; }
gpu5=
if "$APOD" stages | grep -q '^gpu5 *available'; then
	gpu5=gpu5
elif "$APOD" stages | grep -A1 '^gpu5 ' | grep -q 'computes in double'; then
	echo "gpu5: skipped, this build computes in double"
else
	echo "FAIL: gpu5 cannot run where gpu1-4 can:"; "$APOD" stages | grep -A1 '^gpu5 '
	fails=$((fails + 1))
fi

expect 0 "stage serial" "$APOD" run --stage=serial --deck="$deck" --out="$work/serial"
# gpu5 on the small deck (317 columns, not a multiple of 4) runs gpu4's kernels.
for s in gpu1 gpu2 gpu3 gpu4 $gpu5; do
	expect 0 "stage $s" "$APOD" run --stage=$s --deck="$deck" --out="$work/$s"
	expect 0 "PASS" "$APOD" verify "$top_srcdir/data/heat/ref/small" "$work/$s"
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
# A width that is a multiple of 4 takes gpu4's 16-byte kernel and gpu5's
# temporally blocked one (317 does not), with calcStats every step and every
# 3rd (stats_every: gpu5 then fuses the sweep alone between them).  Zones
# every 10 and snapshots every 40 end gpu5's passes at steps 10, 20, ...
for k in 1 3; do
	ref=$work/serial320-$k
	expect 0 "stage serial" "$APOD" run --stage=serial --deck="$deck" --size=320x203 --stats_every=$k --out="$ref"
	for s in gpu4 $gpu5; do
		out=$work/$s-320-$k
		expect 0 "stage $s" "$APOD" run --stage=$s --deck="$deck" --size=320x203 --stats_every=$k --out="$out"
		expect 0 "PASS" "$APOD" verify "$ref" "$out"
		if [ "${APOD_FMAD:-yes}" = no ]; then
			expect 0 " 0 of 64960 values differ" "$APOD" verify "$ref" "$out"
			cmp -s "$ref/snap_000000040.npy" "$out/snap_000000040.npy" ||
				{ echo "FAIL: $s, stats_every $k: snapshot 40 differs from serial's"; fails=$((fails + 1)); }
		fi
		cmp -s "$out/snap_000000120.npy" "$out/field.npy" ||
			{ echo "FAIL: $s, stats_every $k: the last snapshot is not the final field"; fails=$((fails + 1)); }
		awk -F, -v k=$k 'NR > 1 && $1 != k * (NR - 1) { bad = 1 } END { exit bad || NR != 120 / k + 1 }' \
			"$out/stats.csv" ||
			{ echo "FAIL: $s, stats_every $k: stats.csv is not the rows of every ${k}th step"; fails=$((fails + 1)); }
	done
done
# gpu5's other passes: statistics every 5th step with zones every 7th (passes
# that end between statistics steps), and every 9th with no zones (the
# sweep alone 8 steps deep).
for ks in 5:7 9:0; do
	[ -n "$gpu5" ] || break
	k=${ks%:*} z=${ks#*:}
	set -- --deck="$deck" --size=320x203 --stats_every=$k --summary_every=$z
	expect 0 "stage serial" "$APOD" run --stage=serial "$@" --out="$work/serial-$k"
	expect 0 "stage gpu5" "$APOD" run --stage=gpu5 "$@" --out="$work/gpu5-$k"
	expect 0 "PASS" "$APOD" verify "$work/serial-$k" "$work/gpu5-$k"
	if [ "${APOD_FMAD:-yes}" = no ]; then
		expect 0 " 0 of 64960 values differ" "$APOD" verify "$work/serial-$k" "$work/gpu5-$k"
	fi
done
finish
