#!/bin/sh
# Heat's mgpu stage (one MPI rank per GPU, halos by NCCL) where a GPU is:
# at 1 rank and at 2, on 2 GPUs or, where one is visible, both ranks on it
# (APOD_MGPU_SHARE_GPU=1: NCCL's sockets between them, so the transfers
# and reductions across ranks are tested on a one-GPU host too).  Held to
# the gate against serial and the committed reference, and at 3 and 4
# ranks sharing the GPUs (ranks between two others); ranks given
# different decks, a rank count that does not match the GPUs (unshared), and
# more ranks than rows, are usage errors on every rank.  Skips elsewhere.
. "$top_srcdir/tests/lib.sh"
deck=$top_srcdir/data/heat/small.deck
ref=$top_srcdir/data/heat/ref/small

stages=$("$APOD" stages)
if ! echo "$stages" | grep -q '^mgpu *available'; then
	echo "SKIP: mgpu stage not run: $(echo "$stages" | grep -A1 '^mgpu' | sed -n 's/.*why: //p')"
	exit 77
fi
mgpu_hosts

expect 0 "stage serial" "$APOD" run --stage=serial --deck="$deck" --out="$work/serial"
for np in 1 2; do
	expect 0 "stage mgpu" run_on $np "$APOD" run --stage=mgpu --deck="$deck" --out="$work/mgpu$np"
	n=$(grep -c "^workload heat, stage mgpu" "$work/out")
	[ "$n" = 1 ] || { echo "FAIL: $np ranks printed $n tables, not 1"; fails=$((fails + 1)); }
	expect 0 "PASS" "$APOD" verify "$work/serial" "$work/mgpu$np"
	expect 0 "PASS" "$APOD" verify "$ref" "$work/mgpu$np"
done
# versus TAG NPS OPTIONS...: serial on the deck with OPTIONS, then mgpu at
# each of NPS ranks (sharing the GPUs where they outnumber them), each run
# verified against serial.
versus() {
	vs_tag=$1 vs_nps=$2
	shift 2
	expect 0 "stage serial" "$APOD" run --stage=serial --deck="$deck" "$@" --out="$work/s-$vs_tag"
	for vs_np in $vs_nps; do
		expect 0 "stage mgpu" run_on "$vs_np" "$APOD" run --stage=mgpu --deck="$deck" "$@" \
			--out="$work/m$vs_np-$vs_tag"
		expect 0 "PASS" "$APOD" verify "$work/s-$vs_tag" "$work/m$vs_np-$vs_tag"
	done
}
# 3 and 4 ranks, sharing the GPUs: ranks with a neighbour above and below
# (both halos exchanged, no grid edge held).
for np in 3 4; do
	expect 0 "stage mgpu" run_on $np "$APOD" run --stage=mgpu --deck="$deck" --out="$work/mgpu$np"
	expect 0 "PASS" "$APOD" verify "$ref" "$work/mgpu$np"
done
# A grid whose rows do not split evenly, no heaters, snapshots gathered.
versus odd "2 3" --size=301x97 --steps=30 --snapshot_every=10
# The small deck is 317 wide: the one-column kernel.  A width of 4k takes
# the 16-byte one; 5 rows high, 2 ranks hold 2 and 1 interior rows (a
# block whose bands are its only rows), 6 high 2 and 2; 3 and 4 ranks, 1
# and 2 interior rows between two others.
versus 1024x515 "1 2 3" --size=1024x515 --steps=25 --zones=1x1
versus 64x5 "1 2 3" --size=64x5 --steps=25 --zones=1x1
versus 64x6 "1 2" --size=64x6 --steps=25 --zones=1x1
versus 64x8 3 --size=64x8 --steps=25 --zones=1x1
versus 64x9 4 --size=64x9 --steps=25 --zones=1x1
# Statistics from more steps than a probe holds on the devices (128 rows):
# collected when the ring is full, and at the end.
versus long "2 3" --size=64x40 --steps=300 --snapshot_every=0

# Ranks given different command lines stop together, each saying why
# (compared before the stage is chosen, so 2 ranks run this on one GPU too).
refused "rank 1's argument 4 is '--steps=5', rank 0 has no argument 4" \
	timeout 300 "$mpirun" --oversubscribe --mca btl self,vader \
	-np 1 "$APOD" run --stage=mgpu --deck="$deck" : -np 1 "$APOD" run --stage=mgpu --deck="$deck" --steps=5
n=$(grep -c "different command lines" "$work/out")
[ "$n" = 2 ] || { echo "FAIL: the different-command-lines message came $n times, not once a rank"; fails=$((fails + 1)); }
# One rank more than the visible GPUs, unshared: refused on every rank,
# said once.
more=$((gpus + 1))
expect 2 "$more ranks but $gpus visible GPU" run_np $more "$APOD" run --stage=mgpu --deck="$deck"
n=$(grep -c "visible GPU" "$work/out")
[ "$n" = 1 ] || { echo "FAIL: the rank-count message came $n times, not once"; fails=$((fails + 1)); }
# APOD_MGPU_SHARE_GPU takes 0 or 1.
APOD_MGPU_SHARE_GPU=yes expect 2 "APOD_MGPU_SHARE_GPU is 'yes': set it to 1" \
	"$APOD" run --stage=mgpu --deck="$deck" --steps=2
# More ranks than interior rows (2 ranks, 1 interior row).
expect 2 "interior rows" run_on 2 "$APOD" run --stage=mgpu --deck="$top_srcdir/tests/decks/tiny.deck" \
	--size=9x3 --zones=1x1
finish
