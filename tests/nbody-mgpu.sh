#!/bin/sh
# n-body's mgpu stage (one MPI rank per GPU, each integrating its share of
# the bodies with gpu4's kernel, positions all-gathered by NCCL) where it can
# run: at 1 rank, and at 2 ranks on 2 GPUs or both on one (APOD_MGPU_SHARE_GPU=1,
# NCCL's sockets between them, where one GPU is visible).  Held to the gate against
# serial, with a body count that does not split evenly over the ranks;
# fewer bodies than ranks, ranks given different decks and a rank count that
# does not match the GPUs (unshared) are usage errors on every rank, said once.  Skips
# elsewhere.
. "$top_srcdir/tests/lib.sh"
W=--workload=nbody
deck=$top_srcdir/data/nbody/small.deck

stages=$("$APOD" stages $W)
if ! echo "$stages" | grep -q '^mgpu *available'; then
	echo "SKIP: nbody mgpu stage not run: $(echo "$stages" | grep -A1 '^mgpu' | sed -n 's/.*why: //p')"
	exit 77
fi
mgpu_hosts

expect 0 "stage serial" "$APOD" run $W --stage=serial --deck="$deck" --out="$work/serial"
# 37 bodies: a partial block and tile, and 18 + 19 at 2 ranks (the remainder).
expect 0 "stage serial" "$APOD" run $W --stage=serial --deck="$deck" --n=37 --steps=5 --out="$work/s37"
expect 0 "stage gpu4" "$APOD" run $W --stage=gpu4 --deck="$deck" --out="$work/gpu4"
expect 0 "PASS" "$APOD" verify "$work/serial" "$work/gpu4"
for np in 1 2; do
	# The small deck: 1500 bodies, statistics every step, the energy every
	# 10th, snapshots every 20th (gathered through fetch).
	expect 0 "stage mgpu" run_on $np "$APOD" run $W --stage=mgpu --deck="$deck" --out="$work/mgpu$np"
	n=$(grep -c "^workload nbody, stage mgpu" "$work/out")
	[ "$n" = 1 ] || { echo "FAIL: $np ranks printed $n tables, not 1"; fails=$((fails + 1)); }
	expect 0 "PASS" "$APOD" verify "$work/serial" "$work/mgpu$np"
	cmp -s "$work/mgpu$np/pos_000000040.npy" "$work/mgpu$np/pos.npy" ||
		{ echo "FAIL: mgpu at $np ranks: the last snapshot is not the final positions"; fails=$((fails + 1)); }
	cmp -s "$work/mgpu$np/vel_000000040.npy" "$work/mgpu$np/vel.npy" ||
		{ echo "FAIL: mgpu at $np ranks: the last snapshot is not the final velocities"; fails=$((fails + 1)); }
	expect 0 "stage mgpu" run_on $np "$APOD" run $W --stage=mgpu --deck="$deck" --n=37 --steps=5 \
		--out="$work/m37-$np"
	expect 0 "PASS" "$APOD" verify "$work/s37" "$work/m37-$np"
done
# 3 ranks sharing the GPUs: 12, 12 and 13 of the 37 bodies, and the small deck.
expect 0 "stage mgpu" run_on 3 "$APOD" run $W --stage=mgpu --deck="$deck" --n=37 --steps=5 --out="$work/m37-3"
expect 0 "PASS" "$APOD" verify "$work/s37" "$work/m37-3"
expect 0 "stage mgpu" run_on 3 "$APOD" run $W --stage=mgpu --deck="$deck" --out="$work/mgpu3"
expect 0 "PASS" "$APOD" verify "$work/serial" "$work/mgpu3"
# 1 rank is gpu4 on one GPU: within gpu4's tolerances of gpu4 itself.
expect 0 "PASS" "$APOD" verify "$work/gpu4" "$work/mgpu1"

# Fewer bodies than ranks: refused on every rank before any GPU is touched
# (so 2 ranks run this on one GPU too), said once.
expect 2 "mgpu: 2 ranks but n = 1 bodies" run_np 2 "$APOD" run $W --stage=mgpu --deck="$deck" --n=1
n=$(grep -c "ranks but n = " "$work/out")
[ "$n" = 1 ] || { echo "FAIL: the n < ranks message came $n times, not once"; fails=$((fails + 1)); }
# Ranks given different command lines stop together, each saying why.
refused "rank 1's argument 5 is '--steps=5', rank 0 has no argument 5" \
	timeout 300 "$mpirun" --oversubscribe --mca btl self,vader \
	-np 1 "$APOD" run $W --stage=mgpu --deck="$deck" : -np 1 "$APOD" run $W --stage=mgpu --deck="$deck" --steps=5
n=$(grep -c "different command lines" "$work/out")
[ "$n" = 2 ] || { echo "FAIL: the different-command-lines message came $n times, not once a rank"; fails=$((fails + 1)); }
# One rank more than the visible GPUs, unshared: refused on every rank, said once.
more=$((gpus + 1))
expect 2 "$more ranks but $gpus visible GPU" run_np $more "$APOD" run $W --stage=mgpu --deck="$deck"
n=$(grep -c "visible GPU" "$work/out")
[ "$n" = 1 ] || { echo "FAIL: the rank-count message came $n times, not once"; fails=$((fails + 1)); }
finish
