#!/bin/sh
# Scratch folders (doc/apod.1, FILES): the table, report, bench and assess
# leave none behind when interrupted (SIGINT, SIGTERM, SIGHUP), the child
# they wait for goes with them, and a folder left by a kill -9 is removed by
# the next command that makes one, while another user's folder of the same
# form, a folder without apod's record and a link are left alone.
. "$top_srcdir/tests/lib.sh"
# The tables run heat's mpi stage.
no_mpi_leak_check
tmp=$work/tmp
mkdir "$tmp"
TMPDIR=$tmp
export TMPDIR
# Long enough that the signal lands while a stage runs.
big="--size=1024x1024 --steps=400"
# Ceilings measured once, outside the interrupted runs, so none of them is
# spent measuring.
"$APOD" ceilings --json="$work/ceilings.json" >/dev/null 2>&1

# folders KIND: the scratch folders of that kind now in $tmp.
folders() { ls -A "$tmp" | grep -c "^apod-$1-" ; }
# wait_for KIND: until one exists (30 s at most); 0 if it came.
wait_for() {
	i=0
	while [ "$(folders "$1")" = 0 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	[ "$(folders "$1")" != 0 ]
}

# A command started with & by a shell without job control ignores SIGINT;
# a user's Ctrl-C reaches a command that does not, so the tests start it so.
dfl() { exec python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$@"; }

# interrupt SIGNAL KIND CMD...: start CMD, signal it once its scratch folder
# exists, and check that it died of the signal and left no folder and no child.
interrupt() {
	sig=$1 kind=$2
	shift 2
	dfl "$@" >/dev/null 2>&1 &
	pid=$!
	if ! wait_for "$kind"; then
		echo "FAIL: $* made no apod-$kind folder"; fails=$((fails + 1)); kill -9 $pid; wait $pid
		return
	fi
	sleep 1
	kill -"$sig" $pid
	wait $pid
	st=$?
	left=$(ls -A "$tmp" | grep '^apod-' | tr '\n' ' ')
	if [ $st -lt 128 ]; then
		echo "FAIL: $* went on after SIG$sig (exit $st)"; fails=$((fails + 1))
	elif [ -n "$left" ]; then
		echo "FAIL: $* left $left after SIG$sig"; fails=$((fails + 1))
	elif pgrep -f "apod run .*--deck=$tmp/" >/dev/null 2>&1; then
		echo "FAIL: $*'s child outlived it after SIG$sig"; fails=$((fails + 1))
		pkill -9 -f "apod run .*--deck=$tmp/"
	else
		echo "ok: $* after SIG$sig: no scratch left (exit $st)"
	fi
}

interrupt TERM table "$APOD" $big --ceilings="$work/ceilings.json"
interrupt INT table "$APOD" $big --ceilings="$work/ceilings.json"
interrupt HUP table "$APOD" $big --ceilings="$work/ceilings.json"
interrupt TERM bench "$APOD" bench $big --ceilings="$work/ceilings.json"
if command -v gnuplot >/dev/null 2>&1; then
	interrupt INT table "$APOD" report $big --ceilings="$work/ceilings.json" --out="$work/r.html"
else
	echo "skipped: report (no gnuplot: it refuses before it makes a table)"
fi
if [ -x "$APOD_PG" ] && command -v gprof >/dev/null; then
	interrupt TERM assess "$APOD" assess $big --out="$work/prof"
else
	echo "skipped: assess (no apod-pg or gprof)"
fi

# A kill -9 leaves the folder; the next command removes it.
"$APOD" $big --ceilings="$work/ceilings.json" >/dev/null 2>&1 &
pid=$!
wait_for table || { echo "FAIL: no table folder"; fails=$((fails + 1)); }
sleep 1
kill -9 $pid
wait $pid
pkill -9 -f "apod run .*--deck=$tmp/"
sleep 0.2
killed=$(ls -A "$tmp" | grep '^apod-table-')
[ -n "$killed" ] || { echo "FAIL: a kill -9 left no folder to test with"; fails=$((fails + 1)); }

# Folders the next command must leave alone: no record; a link; a record of
# a process that still runs (this shell); where this runs as root, another
# user's folder with a record of a process that is gone.
mkdir "$tmp/apod-table-norec1"
ln -s "$work" "$tmp/apod-table-link12"
mkdir "$tmp/apod-table-alive1"
echo "apod-scratch $(hostname) $$ $(awk '{ print $22 }' /proc/$$/stat)" > "$tmp/apod-table-alive1/.apod-scratch"
other=
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	other=$tmp/apod-table-other1
	mkdir "$other"
	echo "apod-scratch $(hostname) 999999 5" > "$other/.apod-scratch"
	chown -R nobody "$other"
fi
expect 0 "serial" "$APOD" --size=40x30 --steps=4 --ceilings="$work/ceilings.json"
for f in $killed; do
	check "the killed table's $f removed by the next table" test ! -e "$tmp/$f"
done
check "a folder without apod's record kept" test -d "$tmp/apod-table-norec1"
check "a link kept" test -L "$tmp/apod-table-link12"
check "$work kept (the link's target)" test -d "$work"
check "a folder whose maker still runs kept" test -f "$tmp/apod-table-alive1/.apod-scratch"
[ -z "$other" ] || check "another user's folder kept" test -f "$other/.apod-scratch"
# The normal end leaves nothing of its own.
left=$(ls -A "$tmp" | grep '^apod-' | grep -v 'norec1\|link12\|alive1\|other1' | tr '\n' ' ')
check "a finished table leaves no scratch ($left)" test -z "$left"
exit $((fails > 0))
