#!/bin/sh
# A results directory holds one run (doc/results-dir.md).  A run writes
# beside the target and swaps in only when it succeeded: a killed run leaves
# the previous results intact, a rerun without snapshots leaves none of the
# old ones behind, and a directory holding anything that no run of apod
# recorded is refused and left as it was.
. "$top_srcdir/tests/lib.sh"
deck=$top_srcdir/data/heat/small.deck
tiny="--stage=serial --size=40x30 --steps=20 --snapshot_every=10"

# listing DIR: every name in it, hidden ones too, one per line.
listing() { (cd "$1" && ls -A); }
# tree DIR: every path under DIR with its kind and contents' sum.
tree() { (cd "$1" && find . -exec sh -c 'for f; do
	if [ -L "$f" ]; then echo "$f -> $(readlink "$f")"
	elif [ -f "$f" ]; then echo "$f $(cksum < "$f")"; else echo "$f/"; fi; done' sh {} + | sort); }

expect 0 "stage serial" "$APOD" run --stage=serial --deck="$deck" --out="$work/r"
listing "$work/r" > "$work/first"
sum1=$(cksum < "$work/r/field.npy")
grep -qx "end" "$work/r/.apod-manifest" || { echo "FAIL: no sealed .apod-manifest"; fails=$((fails + 1)); }
# A long run into the same directory, killed in the middle.
"$APOD" run --stage=serial --size=1500x1500 --steps=100000 --snapshot_every=5 --out="$work/r" \
	>/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ] && ! ls -d "$work"/.r.apod-*/snap_* >/dev/null 2>&1; do sleep 0.1; i=$((i + 1)); done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
listing "$work/r" > "$work/after"
if ! cmp -s "$work/first" "$work/after" || [ "$(cksum < "$work/r/field.npy")" != "$sum1" ]; then
	echo "FAIL: the killed run changed the previous results"; diff "$work/first" "$work/after"
	fails=$((fails + 1))
fi
expect 0 "PASS" "$APOD" verify "$top_srcdir/data/heat/ref/small" "$work/r"
# A completed rerun without snapshots leaves no old snapshot beside its field;
# the killed run's staging directory is cleared by it.
expect 0 "0 snapshots" "$APOD" run --stage=serial --deck="$deck" --snapshot_every=0 --out="$work/r"
if ls "$work/r"/snap_* >/dev/null 2>&1; then
	echo "FAIL: old snapshots survived a rerun"; ls "$work/r"; fails=$((fails + 1))
fi
if ls -d "$work"/.r.apod-* "$work"/r.apod-* >/dev/null 2>&1; then
	echo "FAIL: staging directories left behind"; ls -d "$work"/.r.apod-*; fails=$((fails + 1))
fi

# Item 1: names that look like results do not make a directory apod's.
mkdir -p "$work/mydata/2024.csv/private"
echo "rent,100" > "$work/mydata/budget.csv"
echo "my thesis" > "$work/mydata/2024.csv/private/thesis.txt"
tree "$work/mydata" > "$work/mydata.before"
expect 2 "which apod did not write" "$APOD" run $tiny --out="$work/mydata"
tree "$work/mydata" > "$work/mydata.after"
cmp -s "$work/mydata.before" "$work/mydata.after" ||
	{ echo "FAIL: a user's directory was changed"; diff "$work/mydata.before" "$work/mydata.after"; fails=$((fails + 1)); }
# Nor does a forged record: a manifest naming a file makes it replaceable
# only where it is a plain file; a directory of that name is refused.
mkdir -p "$work/forged/field.npy/keep" && echo "keep" > "$work/forged/field.npy/keep/x"
printf 'apod-manifest 1\nfield.npy\nend\n' > "$work/forged/.apod-manifest"
expect 2 "holds 'field.npy', which apod did not write" "$APOD" run $tiny --out="$work/forged"
[ -f "$work/forged/field.npy/keep/x" ] || { echo "FAIL: a forged manifest steered a delete"; fails=$((fails + 1)); }
# Something that is not apod's is never replaced, even beside apod's files.
expect 0 "results in" "$APOD" run $tiny --out="$work/mine"
echo "my notes" > "$work/mine/notes.txt"
expect 2 "holds 'notes.txt', which apod did not write" "$APOD" run $tiny --out="$work/mine"
[ -f "$work/mine/notes.txt" ] && [ -f "$work/mine/field.npy" ] ||
	{ echo "FAIL: a user's file or the results were removed"; fails=$((fails + 1)); }
# A directory of an older apod (no record) is refused with what to do.
mkdir "$work/old" && echo "{}" > "$work/old/report.json"
expect 2 "remove it yourself or choose another --out" "$APOD" run $tiny --out="$work/old"
[ -f "$work/old/report.json" ] || { echo "FAIL: an old results directory was removed"; fails=$((fails + 1)); }
# An empty directory is fine; '.' and '/' are not names of a directory.
mkdir "$work/empty"
expect 0 "results in" "$APOD" run $tiny --out="$work/empty/"
expect 2 "name the directory itself" "$APOD" run $tiny --out=.
expect 2 "name the directory itself" "$APOD" run $tiny --out=/

# Item 6: --out=LINK to a directory writes through it and keeps the link.
mkdir "$work/real"
ln -s real "$work/link"
expect 0 "results in" "$APOD" run $tiny --out="$work/link"
expect 0 "results in" "$APOD" run $tiny --snapshot_every=0 --out="$work/link"
if [ ! -L "$work/link" ] || [ ! -f "$work/real/field.npy" ] || [ -f "$work/real/snap_000000010.npy" ]; then
	echo "FAIL: --out=LINK did not write through the link"; ls -la "$work" "$work/real"; fails=$((fails + 1))
fi
ln -s nowhere "$work/dangling"
expect 2 "leads nowhere" "$APOD" run $tiny --out="$work/dangling"
[ -L "$work/dangling" ] || { echo "FAIL: a dangling link was replaced"; fails=$((fails + 1)); }

# Under umask 0 nothing apod makes is writable by every user.
(umask 0 && "$APOD" run $tiny --out="$work/shared" >/dev/null 2>&1) ||
	{ echo "FAIL: a run under umask 0"; fails=$((fails + 1)); }
if [ -n "$(find "$work/shared" -perm -o+w)" ]; then
	echo "FAIL: world-writable results under umask 0"; ls -la "$work/shared"; fails=$((fails + 1))
fi
finish
