#!/bin/sh
# A commit that recovers (doc/results-dir.md).  The
# run is killed at each point of its commit (APOD_TEST_KILL_AT): DIR then
# holds the previous or the new results, complete, and the next run into it
# removes what the killed one left beside it.  A file that appears in DIR
# during the run makes the commit refuse and is kept; a file dropped into the
# staging directory is never committed; under umask 0 the staging directory
# is 0700.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/outdir-lib.sh"
old="--stage=serial --size=40x30 --steps=20 --snapshot_every=10"
new="--stage=serial --size=40x30 --steps=30 --snapshot_every=0"

# digest DIR: each name (hidden ones too) with its sum; report.json (it
# holds timings) and the manifest (its order follows the writes) by name only.
digest() { (cd "$1" && for f in $(ls -A); do
	case $f in report.json|.apod-manifest) echo "$f" ;; *) echo "$f $(cksum < "$f")" ;; esac
	done); }

# The results of each run, made once for comparison.
"$APOD" run $old --out="$work/ref-old" >/dev/null && "$APOD" run $new --out="$work/ref-new" >/dev/null ||
	{ echo "FAIL: reference runs"; exit 1; }
digest "$work/ref-old" > "$work/old.digest"
digest "$work/ref-new" > "$work/new.digest"

n=0
for point in commit-start commit-sealed commit-aside commit-swapped commit-cleaning commit-cleaned; do
	for exchange in yes no; do
		[ $point = commit-aside ] && [ $exchange = yes ] && continue
		n=$((n + 1))
		d=$work/k$n
		mkdir "$d"
		noex=
		[ $exchange = no ] && noex=1
		# --out=res, without a slash: the staging directories are beside it in '.'.
		(cd "$d" && "$APOD" run $old --out=res >/dev/null) || { echo "FAIL: first run"; fails=$((fails + 1)); }
		(cd "$d" && APOD_TEST_NO_EXCHANGE=$noex APOD_TEST_KILL_AT=$point \
			"$APOD" run $new --out=res >/dev/null 2>&1)
		status=$?
		what="killed at $point (exchange: $exchange)"
		check "$what: exit 137" '[ $status = 137 ]'
		if [ -d "$d/res" ]; then
			digest "$d/res" > "$d.digest"
			check "$what: res holds the old or the new results, whole" \
				'whole "$d/res" && { cmp -s "$d.digest" "$work/old.digest" || cmp -s "$d.digest" "$work/new.digest"; }'
		else
			# Only between the two renames where RENAME_EXCHANGE is not used.
			check "$what: res is missing only between the two renames" '[ $point = commit-aside ]'
		fi
		# The next run repairs and clears before it writes (killed at its
		# own commit, so that its begin's work can be seen).
		(cd "$d" && APOD_TEST_KILL_AT=commit-start "$APOD" run $old --out=res >/dev/null 2>&1)
		digest "$d/res" > "$d.digest" 2>/dev/null
		check "$what: after the next run began, res is whole" \
			'whole "$d/res" && { cmp -s "$d.digest" "$work/old.digest" || cmp -s "$d.digest" "$work/new.digest"; }'
		check "$what: after the next run began, only its staging is beside res" '[ "$(leftovers "$d")" = 1 ]'
		(cd "$d" && "$APOD" run $new --out=res >/dev/null 2>&1)
		digest "$d/res" > "$d.digest" 2>/dev/null
		check "$what: a completed run leaves nothing beside res" \
			'[ "$(leftovers "$d")" = 0 ] && whole "$d/res" && cmp -s "$d.digest" "$work/new.digest"'
	done
done

# Item 2: a file written into DIR while the run goes on is kept, and the
# run refuses at its commit.  The run waits at the start of its commit
# until the test has written the file.
d=$work/late
mkdir "$d"
"$APOD" run $old --out="$d/res" >/dev/null
APOD_TEST_PAUSE_AT=commit-start APOD_TEST_PAUSE_FILE="$d/go" \
	"$APOD" run $new --out="$d/res" >"$d/log" 2>&1 &
pid=$!
i=0
while [ ! -e "$d/go.paused" ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
echo "written during the run" > "$d/res/late.txt"
touch "$d/go"
wait $pid
status=$?
check "a file written into DIR during the run: exit 2" '[ $status = 2 ]'
check "a file written into DIR during the run: named" 'grep -q "late.txt" "$d/log"'
digest "$d/res" | grep -v late.txt > "$d.digest"
check "a file written into DIR during the run: it and the old results are kept" \
	'[ -f "$d/res/late.txt" ] && cmp -s "$d.digest" "$work/old.digest"'
check "a refused commit leaves nothing beside DIR" '[ "$(ls -A "$d" | grep -c "^\.res\.apod-")" = 0 ]'

# A file dropped into the staging directory is not committed; under umask 0
# the staging directory is still 0700.
d=$work/drop
mkdir "$d"
(umask 0 && APOD_TEST_PAUSE_AT=commit-start APOD_TEST_PAUSE_FILE="$d/go" \
	exec "$APOD" run $new --out="$d/res" >"$d/log" 2>&1) &
pid=$!
i=0
while [ ! -e "$d/go.paused" ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
stage=$(ls -d "$d"/.res.apod-*)
mode=$(stat -c %a "$stage")
echo "planted" > "$stage/planted.csv"
touch "$d/go"
wait $pid
status=$?
check "under umask 0 the staging directory is 0700 (it was $mode)" '[ "$mode" = 700 ]'
check "a file dropped into staging: the commit refuses" '[ $status = 1 ] && grep -q "planted.csv" "$d/log"'
check "a file dropped into staging: nothing committed" '[ ! -e "$d/res" ]'
check "a file dropped into staging: kept, not deleted" '[ -f "$stage/planted.csv" ]'
finish
