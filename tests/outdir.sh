#!/bin/sh
# A results directory holds one run.  A run writes beside the target and
# swaps in only when it succeeded: a killed run leaves the previous results
# intact, a rerun without snapshots leaves none of the old ones behind, and
# a directory holding something else is refused.
. "$top_srcdir/tests/lib.sh"
deck=$top_srcdir/data/small.deck
expect 0 "stage serial" "$APOD" run --stage=serial --deck="$deck" --out="$work/r"
ls "$work/r" > "$work/first"
sum1=$(cat "$work/r/field.npy" | cksum)
# A long run into the same directory, killed in the middle.
"$APOD" run --stage=serial --size=1500x1500 --steps=100000 --snapshot_every=5 --out="$work/r" \
	>/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ] && ! ls -d "$work"/r.apod-*.new/snap_* >/dev/null 2>&1; do sleep 0.1; i=$((i + 1)); done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
ls "$work/r" > "$work/after"
if ! cmp -s "$work/first" "$work/after" || [ "$(cat "$work/r/field.npy" | cksum)" != "$sum1" ]; then
	echo "FAIL: the killed run changed the previous results"; diff "$work/first" "$work/after"
	fails=$((fails + 1))
fi
expect 0 "PASS" "$APOD" verify "$top_srcdir/data/ref/small" "$work/r"
# A completed rerun without snapshots leaves no old snapshot beside its field;
# the killed run's staging directory is cleared by it.
expect 0 "0 snapshots" "$APOD" run --stage=serial --deck="$deck" --snapshot_every=0 --out="$work/r"
if ls "$work/r"/snap_* >/dev/null 2>&1; then
	echo "FAIL: old snapshots survived a rerun"; ls "$work/r"; fails=$((fails + 1))
fi
if ls -d "$work"/r.apod-* >/dev/null 2>&1; then
	echo "FAIL: staging directories left behind"; ls -d "$work"/r.apod-*; fails=$((fails + 1))
fi
# Something that is not apod's is never replaced.
mkdir "$work/mine" && echo "my notes" > "$work/mine/notes.txt"
expect 2 "holds 'notes.txt', which apod did not write" "$APOD" run --stage=serial --deck="$deck" --out="$work/mine"
[ -f "$work/mine/notes.txt" ] || { echo "FAIL: a user's file was removed"; fails=$((fails + 1)); }
finish
