#!/bin/sh
# Hostile inputs, each of which gets a
# clear message and the right exit status, never a hang or a crash.
. "$top_srcdir/tests/lib.sh"
d=$top_srcdir/tests/decks

# ---- verify reads only regular files, and parses what it reads ------------
expect 0 "stage serial" "$APOD" run --stage=serial --deck="$d/tiny.deck" --out="$work/ref"
copy() { rm -rf "$work/$1" && cp -R "$work/ref" "$work/$1"; }
# A FIFO named field.npy or report.json blocked verify for ever (timeout:
# a hang fails the check rather than the whole suite).
copy fifo && rm "$work/fifo/field.npy" && mkfifo "$work/fifo/field.npy"
expect 2 "field.npy: is a FIFO, not a regular file" timeout 60 "$APOD" verify "$work/ref" "$work/fifo"
copy fifo && rm "$work/fifo/report.json" && mkfifo "$work/fifo/report.json"
expect 2 "report.json: is a FIFO, not a regular file" timeout 60 "$APOD" verify "$work/ref" "$work/fifo"
# A step column of nan, inf or 1e300 was a float-to-integer overflow.
for step in nan inf 1e300 -1 99999999999999999999; do
	copy steps
	awk -F, -v s="$step" 'NR == 3 { $1 = s } { print }' OFS=, "$work/ref/stats.csv" >"$work/steps/stats.csv"
	expect 2 "stats.csv: line 3: the step '$step' is not a whole number" "$APOD" verify "$work/ref" "$work/steps"
done
# A workload name with a byte that does not show is quoted escaped.
mkdir "$work/bel" && printf '{"workload": "he\\u0007at", "params": {}}\n' >"$work/bel/report.json"
expect 2 "workload 'he\x07at' is not built into this program" "$APOD" verify "$work/bel" "$work/bel"
# Rows of other steps fail, and the report says where and why.
copy shifted
awk -F, 'NR == 3 { $1 = 7 } { print }' OFS=, "$work/ref/stats.csv" >"$work/shifted/stats.csv"
expect 1 "row 2 (line 3 of stats.csv): step 7 here, 2 in the reference" "$APOD" verify "$work/ref" "$work/shifted"

# ---- messages --------------------------------------------------------------
# A 100 KB path: the message keeps its reason, the middle of the path elided.
long=$(awk 'BEGIN { while (n++ < 100000) printf "a" }')
for opt in --out --json; do
	"$APOD" run --stage=serial --deck="$d/tiny.deck" $opt="$work/$long" >"$work/out" 2>&1
	rc=$?
	line=$(grep "bytes \.\.\.\]" "$work/out")
	if [ "$rc" = 0 ] || [ -z "$line" ] || [ "${#line}" -gt 1100 ] || [ "${line%aaaaa}" != "$line" ]; then
		echo "FAIL: $opt=<100 KB path> exited $rc without its reason:"; cut -c1-200 "$work/out"
		fails=$((fails + 1))
	else
		echo "ok: $opt=<100 KB path> -> $rc (...${line##*aaaa})"
	fi
done
# A deck that starts with a UTF-8 byte order mark is read; a key with a
# byte that does not show is quoted with it escaped.
printf '\357\273\277size = 9x9\nsteps = 3\n' >"$work/bom.deck"
expect 0 "deck medium: 3 steps" "$APOD" run --stage=serial --deck="$work/bom.deck"
printf 'si\177ze = 9x9\n' >"$work/del.deck"
expect 2 "unknown key 'si\\x7fze'" "$APOD" run --stage=serial --deck="$work/del.deck"
printf '\357\273\277\357\273\277size = 9x9\n' >"$work/bom2.deck"
expect 2 "unknown key '\\xef\\xbb\\xbfsize'" "$APOD" run --stage=serial --deck="$work/bom2.deck"

# ---- OpenMP: a thread count the machine cannot run is capped, said once ------
many="OMP_NUM_THREADS=100000"
expect 0 "OpenMP threads asked for (OMP_NUM_THREADS); using" \
	env $many "$APOD" run --stage=omp --deck="$d/tiny.deck"
expect 0 "OpenMP threads asked for (OMP_NUM_THREADS); using" \
	env $many "$APOD" run --workload=particles --n=1001 --steps=5 --stage=omp
expect 0 "OpenMP threads asked for (OMP_NUM_THREADS); using" \
	env $many "$APOD" run --workload=nbody --deck="$top_srcdir/data/nbody/small.deck" --n=37 --steps=2 --stage=omp
expect 0 "OpenMP threads asked for (OMP_NUM_THREADS); using" \
	env $many "$APOD" run --workload=montecarlo --deck="$top_srcdir/data/montecarlo/small.deck" \
	--paths_per_batch=3000 --batches=2 --stage=omp
OMP_NUM_THREADS=2 "$APOD" run --stage=omp --deck="$d/tiny.deck" >"$work/out" 2>&1
if grep -q "OpenMP threads asked for" "$work/out"; then
	echo "FAIL: 2 threads were capped"; fails=$((fails + 1))
else
	echo "ok: 2 threads are not capped"
fi

# ---- apod new and apod lab -------------------------------------------------
cd "$work" || exit 1
for name in check clean all install distclean main; do
	expect 2 "NAME '$name' is a target or a file of the skeleton's Makefile" "$APOD" new "$name"
	[ ! -e "$name" ] || { echo "FAIL: apod new $name wrote $name"; fails=$((fails + 1)); }
done
# A template file that cannot be read: nothing is left behind, no empty NAME/.
if [ -n "${APOD_TEMPLATE_DIR:-}" ] && [ -d "$APOD_TEMPLATE_DIR" ]; then
	cp -R "$APOD_TEMPLATE_DIR" "$work/tpl" && ln -s no-such-file "$work/tpl/zz_broken.c"
	APOD_TEMPLATE_DIR="$work/tpl" expect 1 "zz_broken.c" "$APOD" new broken
	left=$(ls -A "$work" | grep -c broken)
	[ "$left" = 0 ] || { echo "FAIL: a failed apod new left:"; ls -A "$work"; fails=$((fails + 1)); }
fi
expect 2 "--size: '99999999999999999999999' is too large" "$APOD" lab matmul --size=99999999999999999999999
expect 2 "--reps: '99999999999999999999999' is not 1 to 10000" "$APOD" lab matmul --reps=99999999999999999999999
finish
