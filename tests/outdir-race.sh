#!/bin/sh
# Runs that meet in one parent (doc/results-dir.md):
# concurrent runs into one --out all finish and leave nothing beside it; a
# user's directories with names like apod's are not touched; and a symbolic
# link put where apod would delete never leads a delete elsewhere.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/outdir-lib.sh"
tiny="--stage=serial --size=40x30 --steps=20 --snapshot_every=10"


# Item 4: three runs at once into one --out=res (no slash), 30 times.
d=$work/c
mkdir "$d"
# A user's directories whose names look like apod's, beside the target.
mkdir "$d/res.apod-999999.new keep" "$d/.res.apod-Ab12Cd"
echo "mine" > "$d/res.apod-999999.new keep/notes.txt"
echo "mine" > "$d/.res.apod-Ab12Cd/notes.txt"
bad=0
round=0
while [ $round -lt 30 ]; do
	round=$((round + 1))
	(cd "$d" && "$APOD" run $tiny --out=res >"$work/o1" 2>&1) & p1=$!
	(cd "$d" && "$APOD" run $tiny --out=./res >"$work/o2" 2>&1) & p2=$!
	(cd "$d" && "$APOD" run $tiny --snapshot_every=0 --out=res/ >"$work/o3" 2>&1) & p3=$!
	s1=0 s2=0 s3=0
	wait $p1 || s1=$?
	wait $p2 || s2=$?
	wait $p3 || s3=$?
	if [ $s1$s2$s3 != 000 ] || [ "$(leftovers "$d")" != 1 ] || ! whole "$d/res"; then
		echo "FAIL: round $round: exits $s1 $s2 $s3, $(leftovers "$d") leftover(s)"
		cat "$work/o1" "$work/o2" "$work/o3"; ls -A "$d" "$d/res"
		bad=$((bad + 1))
		[ $bad -ge 3 ] && break
	fi
done
fails=$((fails + bad))
check "30 rounds of three concurrent runs" '[ $bad = 0 ]'
check "a user's 'res.apod-999999.new keep' is untouched" '[ -f "$d/res.apod-999999.new keep/notes.txt" ]'
check "a user's '.res.apod-Ab12Cd' (no record of apod's) is untouched" '[ -f "$d/.res.apod-Ab12Cd/notes.txt" ]'

# Item 5: leftovers of a killed run, tampered with, and links where apod deletes.
d=$work/s
mkdir "$d" "$d/victim"
echo "precious" > "$d/victim/field.npy"
echo "precious" > "$d/victim/precious.txt"
printf 'apod-manifest 1\nprecious.txt\nfield.npy\nend\n' > "$d/victim/.apod-manifest"
victim() { (cd "$d/victim" && cat field.npy precious.txt .apod-manifest | cksum); }
before=$(victim)
# A killed run's staging directory whose field.npy became a link out.
(cd "$d" && "$APOD" run $tiny --out=res >/dev/null)
(cd "$d" && APOD_TEST_KILL_AT=commit-sealed "$APOD" run $tiny --out=res >/dev/null 2>&1)
stage=$(ls -d "$d"/.res.apod-*)
rm "$stage/field.npy" && ln -s "$d/victim/field.npy" "$stage/field.npy"
# Another killed run's staging directory, replaced by a link to a directory
# whose record names its files.
(cd "$d" && APOD_TEST_KILL_AT=commit-start "$APOD" run $tiny --out=res >/dev/null 2>&1)
stage2=$(ls -d "$d"/.res.apod-* | grep -vxF "$stage")
mv "$stage2" "$d/moved" && ln -s "$d/victim" "$stage2"
(cd "$d" && "$APOD" run $tiny --out=res >"$work/o1" 2>&1)
status=$?
check "a run beside tampered leftovers succeeds" '[ $status = 0 ] && whole "$d/res"'
check "a link in a leftover does not lead the delete" '[ "$(victim)" = "$before" ] && [ -L "$stage/field.npy" ]'
check "a leftover replaced by a link is not followed" '[ -L "$stage2" ] && [ "$(victim)" = "$before" ]'
check "the tampered leftover is kept, and said so" '[ -d "$stage" ] && grep -q "kept" "$work/o1"'
# The results directory itself: a name in its record that is now a link.
rm "$d/res/field.npy" && ln -s "$d/victim/field.npy" "$d/res/field.npy"
(cd "$d" && "$APOD" run $tiny --out=res >"$work/o1" 2>&1)
status=$?
check "a link in the results directory: refused with exit 2" '[ $status = 2 ] && grep -q "field.npy" "$work/o1"'
check "a link in the results directory: its target untouched" '[ "$(victim)" = "$before" ] && [ -L "$d/res/field.npy" ]'
finish
