#!/bin/sh
# Another local user cannot make apod delete what is not apod's (doc/
# results-dir.md).  Run as root, with setpriv to act as
# nobody in a world-writable parent; skipped (77) elsewhere.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/outdir-lib.sh"
tiny="--stage=serial --size=40x30 --steps=20 --snapshot_every=10"
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null 2>&1; then
	echo "skip: needs root and setpriv to act as a second user"; exit 77
fi
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
chmod 711 "$work"
mkdir "$work/pub" "$work/precious"
chmod 1777 "$work/pub"
as_nobody true 2>/dev/null || { echo "skip: setpriv cannot switch user here"; exit 77; }
echo "root's" > "$work/precious/f1"
echo "root's" > "$work/precious/field.npy"
printf 'apod-manifest 1\nf1\nfield.npy\nend\n' > "$work/precious/.apod-manifest"
precious() { (cd "$work/precious" && cat f1 field.npy .apod-manifest | cksum); }
before=$(precious)
# nobody plants a sealed leftover whose record names a link into root's
# directory and nobody's own file, and a leftover that is a link to it.
as_nobody sh -c '
	p=$1/pub
	mkdir "$p/.res.apod-AAAAAA" && cd "$p/.res.apod-AAAAAA" &&
	printf "apod-manifest 1\nf1\nfield.npy\nend\n" > .apod-manifest &&
	ln -s "$1/precious/f1" f1 && echo "nobody" > field.npy &&
	ln -s "$1/precious" "$p/.res.apod-BBBBBB" &&
	mkdir "$p/res2" && echo "nobody" > "$p/res2/field.npy" &&
	printf "apod-manifest 1\nfield.npy\nend\n" > "$p/res2/.apod-manifest"' sh "$work" ||
	{ echo "FAIL: could not plant as nobody"; exit 1; }
"$APOD" run $tiny --out="$work/pub/res" >"$work/o1" 2>&1
status=$?
check "root's run beside nobody's planted leftovers succeeds" '[ $status = 0 ]'
check "root's files are untouched" '[ "$(precious)" = "$before" ]'
check "nobody's leftovers are not apod's to remove" \
	'[ -f "$work/pub/.res.apod-AAAAAA/field.npy" ] && [ -L "$work/pub/.res.apod-AAAAAA/f1" ] && [ -L "$work/pub/.res.apod-BBBBBB" ]'
# nobody's directory with a record naming nobody's file: root does not replace it.
"$APOD" run $tiny --out="$work/pub/res2" >"$work/o1" 2>&1
status=$?
check "another user's results directory is refused" '[ $status = 2 ] && grep -q "belongs to another user" "$work/o1"'
check "another user's file is kept" '[ "$(cat "$work/pub/res2/field.npy")" = nobody ]'
# nobody's link in the shared parent does not send root's results over
# root's own results elsewhere (a link is written through only if ours).
"$APOD" run $tiny --out="$work/rootres" >/dev/null 2>&1
as_nobody ln -s "$work/rootres" "$work/pub/res4"
"$APOD" run $tiny --snapshot_every=0 --out="$work/pub/res4" >"$work/o1" 2>&1
status=$?
check "another user's link as --out is refused" '[ $status = 2 ] && grep -q "of another user" "$work/o1"'
check "the directory it points to is untouched" '[ -f "$work/rootres/snap_000000010.npy" ]'
# nobody cannot write into root's staging directory, whatever the umask.
(umask 0 && APOD_TEST_PAUSE_AT=commit-start APOD_TEST_PAUSE_FILE="$work/go" \
	exec "$APOD" run $tiny --out="$work/pub/res3" >"$work/o2" 2>&1) &
pid=$!
i=0
while [ ! -e "$work/go.paused" ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
stage=$(ls -d "$work"/pub/.res3.apod-*)
as_nobody sh -c 'echo planted > "$1/planted.csv"' sh "$stage" 2>/dev/null
planted=$?
touch "$work/go"
wait $pid
status=$?
check "nobody cannot write into root's staging directory" '[ $planted != 0 ] && [ ! -e "$stage/planted.csv" ]'
check "root's run into a world-writable parent under umask 0 commits" '[ $status = 0 ] && [ ! -e "$work/pub/res3/planted.csv" ]'
finish
