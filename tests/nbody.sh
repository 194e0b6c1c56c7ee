#!/bin/sh
# The n-body workload through the gate: serial against its committed
# reference (bit for bit), omp against serial (bit for bit: the same
# arithmetic per body), a damaged result caught, bad input refused by name,
# and the GPU stages held to the gate wherever they can run (bit for bit
# where doc/verification.md, section "n-body", claims it).
. "$top_srcdir/tests/lib.sh"
deck=$top_srcdir/data/nbody/small.deck
ref=$top_srcdir/data/nbody/ref/small
W=--workload=nbody
stages=$("$APOD" stages $W)

for s in serial omp gpu1 gpu2 gpu3 gpu4; do
	echo "$stages" | grep -q "^$s " || { echo "FAIL: stage $s is not listed"; echo "$stages"; fails=$((fails + 1)); }
done

# same_state RUN_A RUN_B: the positions and velocities are the same bits
# (the series are sums in double, and omp and the GPU sum in another order).
same_state() {
	"$APOD" verify "$1" "$2" >"$work/v" 2>&1
	if [ "$(grep -Ec '^(pos|vel) .* 0 of [0-9]+ values differ' "$work/v")" -ne 2 ]; then
		echo "FAIL: the state of $2 is not bit for bit $1's"; sed 's/^/  | /' "$work/v"; fails=$((fails + 1))
	else
		echo "ok: the state of $2 is bit for bit $1's"
	fi
}

# The committed reference is what was committed, and serial reproduces it
# byte for byte (the initial conditions use only IEEE operations).
( cd "$ref" && sha256sum --quiet -c SHA256SUMS ) || { echo "FAIL: $ref does not match its SHA256SUMS"; exit 1; }
expect 0 "stage serial" "$APOD" run $W --deck="$deck" --stage=serial --out="$work/serial"
( cd "$work/serial" && sha256sum --quiet -c "$ref/SHA256SUMS" ) ||
	{ echo "FAIL: serial no longer reproduces $ref"; fails=$((fails + 1)); }
expect 0 "PASS" "$APOD" verify "$ref" "$work/serial"
for f in pos_000000020.npy vel_000000020.npy pos_000000040.npy vel_000000040.npy; do
	[ -s "$work/serial/$f" ] || { echo "FAIL: serial did not write $f"; fails=$((fails + 1)); }
done
cmp -s "$work/serial/pos_000000040.npy" "$work/serial/pos.npy" ||
	{ echo "FAIL: the last snapshot is not the final positions"; fails=$((fails + 1)); }
# 40 rows of statistics and 4 of energy, each with a header.
[ "$(wc -l <"$work/serial/stats.csv")" -eq 41 ] || { echo "FAIL: stats.csv is not 41 lines"; fails=$((fails + 1)); }
[ "$(wc -l <"$work/serial/energy.csv")" -eq 5 ] || { echo "FAIL: energy.csv is not 5 lines"; fails=$((fails + 1)); }

# omp: the same operations per body in the same order, whichever thread.
OMP_NUM_THREADS=3 expect 0 "stage omp" "$APOD" run $W --deck="$deck" --stage=omp --out="$work/omp"
expect 0 "PASS" "$APOD" verify "$work/serial" "$work/omp"
same_state "$work/serial" "$work/omp"
# A count that is no multiple of the threads, the vector width or a block.
expect 0 "stage serial" "$APOD" run $W --deck="$deck" --n=37 --steps=5 --stage=serial --out="$work/s37"
OMP_NUM_THREADS=2 expect 0 "stage omp" "$APOD" run $W --deck="$deck" --n=37 --steps=5 --stage=omp --out="$work/o37"
same_state "$work/s37" "$work/o37"
# The disk model runs and conserves what it must.
expect 0 "PASS" sh -c "'$APOD' run $W --deck='$deck' --model=disk --steps=10 --stage=serial --out='$work/disk' >/dev/null &&
	OMP_NUM_THREADS=2 '$APOD' run $W --deck='$deck' --model=disk --steps=10 --stage=omp --out='$work/disk-omp' >/dev/null &&
	'$APOD' verify '$work/disk' '$work/disk-omp'"

# A damaged result: one velocity overwritten with 0x40404040 (3.0039...),
# far beyond the designed tolerance; and a momentum row that jumps.
cp -r "$work/omp" "$work/bad"
printf '\100\100\100\100' | dd of="$work/bad/vel.npy" bs=1 seek=4000 conv=notrunc 2>/dev/null
expect 1 "FAIL" "$APOD" verify "$work/serial" "$work/bad"
cp -r "$work/omp" "$work/bad2"
sed -i '30s/^\([0-9]*\),[^,]*,/\1,0.01,/' "$work/bad2/momentum.csv"
expect 1 "FAIL" "$APOD" verify "$work/serial" "$work/bad2"
# Two different decks are not compared at all.
expect 0 "stage serial" "$APOD" run $W --deck="$deck" --stage=serial --seed=2 --out="$work/seed2"
expect 2 "'seed'" "$APOD" verify "$work/serial" "$work/seed2"

# Bad input: a usage error (2) that names the key.
expect 2 "n: 0 is out of range" "$APOD" run $W --stage=serial --n=0
expect 2 "n: a run of 8000000000 bodies for 20 steps needs" "$APOD" run $W --stage=serial --n=8000000000
expect 2 "dt: 0 is outside" "$APOD" run $W --stage=serial --dt=0
expect 2 "dt: -0.1 is outside" "$APOD" run $W --stage=serial --dt=-0.1
expect 2 "eps: -1 is outside" "$APOD" run $W --stage=serial --eps=-1
expect 2 "eps: 0 is outside" "$APOD" run $W --stage=serial --eps=0
expect 2 "eps" "$APOD" run $W --stage=serial --eps=nan
expect 2 "dt" "$APOD" run $W --stage=serial --dt=inf
expect 2 "model" "$APOD" run $W --stage=serial --model=cube
expect 2 "steps" "$APOD" run $W --stage=serial --steps=0

# The GPU stages, where they can run (the rest of this test runs regardless).
for s in gpu1 gpu2 gpu3 gpu4; do
	if ! echo "$stages" | grep -q "^$s *available"; then
		echo "note: $s not run: $(echo "$stages" | grep -A1 "^$s " | sed -n 's/.*why: //p')"
		continue
	fi
	expect 0 "stage $s" "$APOD" run $W --deck="$deck" --stage=$s --out="$work/$s"
	expect 0 "PASS" "$APOD" verify "$work/serial" "$work/$s"
	cmp -s "$work/$s/pos_000000040.npy" "$work/$s/pos.npy" ||
		{ echo "FAIL: $s: the last snapshot is not the final positions"; fails=$((fails + 1)); }
	# The last, partial block and tile: 37 bodies.
	expect 0 "stage $s" "$APOD" run $W --deck="$deck" --n=37 --steps=5 --stage=$s --out="$work/${s}37"
	expect 0 "PASS" "$APOD" verify "$work/s37" "$work/${s}37"
	# With --disable-fmad the device rounds as the host does: gpu1-3 make the
	# same operations in the same order as serial, so the state is serial's
	# bit for bit (their statistics are reduced in another order: gpu2 and
	# gpu3's series are compared with the tolerance).  gpu4 uses rsqrtf.
	if [ "${APOD_FMAD:-yes}" = no ] && [ "$s" != gpu4 ]; then
		for a in pos vel; do
			cmp -s "$work/serial/$a.npy" "$work/$s/$a.npy" ||
				{ echo "FAIL: $s: $a.npy is not serial's bit for bit under --disable-fmad"; fails=$((fails + 1)); }
		done
		# gpu1's probes are serial's own code on the host: its series too.
		if [ "$s" = gpu1 ]; then
			for f in stats.csv momentum.csv energy.csv drift.csv; do
				cmp -s "$work/serial/$f" "$work/$s/$f" ||
					{ echo "FAIL: gpu1: $f is not serial's under --disable-fmad"; fails=$((fails + 1)); }
			done
		fi
	fi
done
finish
