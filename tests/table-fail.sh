#!/bin/sh
# The table when its serial stage fails: every row printed (the others not
# run, or not compared), the reason on stderr, the JSON written with every
# row, and a non-zero exit; never a crash.  Three ways serial fails: its
# results folder holds a file apod did not write, its results folder cannot
# be made, and its process is killed (as the out-of-memory killer would).
. "$top_srcdir/tests/lib.sh"
# The tables run heat's mpi stage.
no_mpi_leak_check
"$APOD" ceilings --json="$work/ceilings.json" >/dev/null 2>&1
c=--ceilings=$work/ceilings.json

# failed_table JSON: the table's exit status and output in $work/out are
# those of a failed serial: no crash, every stage a row, the JSON whole.
failed_table() {
	json=$1 what=$2
	if [ "$st" -ge 128 ] || [ "$st" = 0 ]; then
		echo "FAIL: $what: exit $st"; sed 's/^/  | /' "$work/out"; fails=$((fails + 1)); return
	fi
	grep -q "the serial reference failed" "$work/out" ||
		{ echo "FAIL: $what: no reason given"; sed 's/^/  | /' "$work/out"; fails=$((fails + 1)); }
	for s in serial omp; do
		grep -q "^$s " "$work/out" || { echo "FAIL: $what: no row for $s"; fails=$((fails + 1)); }
	done
	grep -q "^omp .*\(not run\|not compared\|failed\)" "$work/out" ||
		{ echo "FAIL: $what: omp's row does not say what became of it"; fails=$((fails + 1)); }
	if ! python3 - "$json" <<'EOF'
import json, sys
rows = json.load(open(sys.argv[1]))["stages"]
assert rows[0]["stage"] == "serial" and rows[0]["ran"] is False and "failed" in rows[0]["why"], rows[0]
assert all(not r["ran"] and r["why"] for r in rows), rows
EOF
	then echo "FAIL: $what: the JSON"; fails=$((fails + 1)); else echo "ok: $what (exit $st)"; fi
}

mkdir -p "$work/tbl/serial"
echo keep > "$work/tbl/serial/keep.txt"
"$APOD" --size=40x30 --steps=6 --zones=2x2 --out="$work/tbl" --json="$work/a.json" $c >"$work/out" 2>&1
st=$?
failed_table "$work/a.json" "serial's folder holds a file of the user's"
check "the user's file kept" grep -q keep "$work/tbl/serial/keep.txt"

"$APOD" --size=40x30 --steps=6 --out=/proc/self/x --json="$work/b.json" $c >"$work/out" 2>&1
st=$?
failed_table "$work/b.json" "serial's folder cannot be made"

"$APOD" --size=40x30 --steps=6 --reverse --out=/proc/self/x --json="$work/c.json" $c >"$work/out" 2>&1
st=$?
failed_table "$work/c.json" "serial last (--reverse), its folder cannot be made"

# Serial's process killed: the table's child running serial gets SIGKILL.
TMPDIR=$work
export TMPDIR
"$APOD" --size=1024x1024 --steps=400 --json="$work/d.json" $c >"$work/out" 2>&1 &
pid=$!
i=0
while ! pgrep -f "apod run .*--stage=serial .*--deck=$work/" >/dev/null && [ $i -lt 300 ]; do
	sleep 0.1; i=$((i + 1))
done
sleep 0.5
pkill -9 -f "apod run .*--stage=serial .*--deck=$work/"
wait $pid
st=$?
failed_table "$work/d.json" "serial's process killed"
grep -q "killed by signal 9" "$work/out" || { echo "FAIL: the kill not named"; fails=$((fails + 1)); }
exit $((fails > 0))
