#!/bin/sh
# apod ceilings: measured once into a cache file named by host and device,
# read back from it, shown from another machine's file; a malformed file is
# refused with exit 2, and so is one whose figures contradict each other.
# Nothing here holds a figure to a threshold: the loader itself refuses a
# figure that is not positive and finite.
. "$top_srcdir/tests/lib.sh"
XDG_CACHE_HOME="$work/cache"
export XDG_CACHE_HOME
# A consistent machine in apod's own format, for when this one is too busy
# to measure (make check runs tests side by side).
quiet=$top_srcdir/tests/data/ceilings-quiet.json
# measure [--refresh]: measure this machine.  It says on stderr that it is
# measuring, where the figures go and about how long it takes.  Figures that
# contradict each other are measured again and then refused; those of a host
# busier than its cores serve that run alone; either way the cache is left as
# it was, and the quiet machine then stands in, so the rest can run.
measure() {
	rm -rf "$work/cache.before"
	mkdir -p "$work/cache"
	cp -R "$work/cache" "$work/cache.before"
	"$APOD" ceilings "$@" >"$work/out" 2>"$work/err"
	st=$?
	cat "$work/err" >>"$work/out"
	grep -q "measuring this machine's ceilings for the speed of light" "$work/err" &&
		grep -Eq "(about [0-9]+ s|5 to 30 s)" "$work/err" ||
		{ echo "FAIL: measuring did not say so, or for how long"; cat "$work/err"; fails=$((fails + 1)); }
	cache=$(sed -n 's/.*They are kept in //p' "$work/err")
	# Contradicting figures are refused (exit 1); a busy host's serve the
	# run alone (exit 0, a warning): neither is cached.
	if { [ "$st" = 1 ] && grep -q "contradict each other twice" "$work/err"; } ||
	   { [ "$st" = 0 ] && grep -q "this host was busy" "$work/err"; }; then
		echo "note: this machine was too busy to measure: $(cat "$work/err")"
		diff -r "$work/cache.before" "$work/cache" ||
			{ echo "FAIL: contradicting figures were cached"; fails=$((fails + 1)); }
		mkdir -p "${cache%/*}"
		"$APOD" ceilings --ceilings="$quiet" --json="$cache" >/dev/null ||
			{ echo "FAIL: cannot stand the quiet machine in"; fails=$((fails + 1)); }
		"$APOD" ceilings >"$work/out" 2>&1
	elif [ "$st" != 0 ]; then
		echo "FAIL: 'apod ceilings $*' exited $st"; sed 's/^/  | /' "$work/out"; fails=$((fails + 1))
	else
		grep -q "ceilings measured in" "$work/err" ||
			{ echo "FAIL: measuring did not say how long it took"; fails=$((fails + 1)); }
	fi
	grep -q "^host_one_core" "$work/out" || { echo "FAIL: no figures"; cat "$work/out"; fails=$((fails + 1)); }
}
measure
cp "$work/out" "$work/first"
sed -i '/^apod: /d' "$work/first"
set -- "$work"/cache/apod/ceilings-*.json
if [ $# -ne 1 ] || [ ! -f "$1" ] || [ "$1" != "$cache" ]; then
	echo "FAIL: no single cache file under $work/cache/apod: $*"; fails=$((fails + 1))
	finish
fi
case $cache in
*-nogpu.json) grep -Eq '^device +not measured: .{10,}' "$work/first" ||
	{ echo "FAIL: no GPU, and the device line does not say why"; fails=$((fails + 1)); } ;;
esac
for res in host_one_core host_all_cores; do
	grep -Eq "^$res +[0-9]+ +[0-9]" "$work/first" ||
		{ echo "FAIL: $res has no figures"; fails=$((fails + 1)); }
done
# The second run reads the cache: same figures, same file, nothing measured.
cp "$cache" "$work/cache.read"
expect 0 "file: $cache" "$APOD" ceilings
cmp -s "$work/first" "$work/out" || { echo "FAIL: the cached ceilings print differently"; fails=$((fails + 1)); }
cmp -s "$cache" "$work/cache.read" || { echo "FAIL: reading the cache rewrote it"; fails=$((fails + 1)); }
# Round trip: the file as --ceilings=FILE, written out again with --json: the same bytes.
expect 0 "host_all_cores" "$APOD" ceilings --ceilings="$cache" --json="$work/again.json"
cmp -s "$cache" "$work/again.json" || { echo "FAIL: --json did not write back the file it read"; fails=$((fails + 1)); }
expect 0 "file: $work/again.json" "$APOD" ceilings --ceilings="$work/again.json"

# Malformed files: exit 2, the file and the fault named.
printf '{"apod_ceilings": 1, "host": ' >"$work/cut.json"
expect 2 "cut.json: not a ceilings file: not JSON" "$APOD" ceilings --ceilings="$work/cut.json"
sed 's/"triad_bytes_per_s":[0-9.e+]*/"triad_bytes_per_s":-1/' "$cache" >"$work/neg.json"
expect 2 "triad_bytes_per_s" "$APOD" ceilings --ceilings="$work/neg.json"
sed 's/"host_all_cores"/"host_every_core"/' "$cache" >"$work/nores.json"
expect 2 "resource \"host_all_cores\" is missing" "$APOD" ceilings --ceilings="$work/nores.json"
sed 's/"apod_ceilings":1/"apod_ceilings":99/' "$cache" >"$work/format.json"
expect 2 "format 99" "$APOD" ceilings --ceilings="$work/format.json"
echo '[]' >"$work/array.json"
expect 2 "not a JSON object" "$APOD" ceilings --ceilings="$work/array.json"
expect 2 "cannot open" "$APOD" ceilings --ceilings="$work/none.json"
expect 2 "not a regular file" "$APOD" ceilings --ceilings="$work"
# Every core slower than one (measured on a loaded machine): refused by name.
sed 's/"fp32_flop_per_s": 6e10/"fp32_flop_per_s": 2e10/' "$quiet" >"$work/busy.json"
expect 2 "contradict each other (FP32 on 2 threads 20.0 GFLOP/s, below one core's 30.0)" \
	"$APOD" ceilings --ceilings="$work/busy.json"
APOD_CEILINGS=$work/busy.json expect 2 "contradict each other" "$APOD" --workload=particles --n=1000 --steps=2
# A damaged cache: refused with the way out, which works.
printf 'garbage' >"$cache"
expect 2 "apod ceilings --refresh" "$APOD" ceilings
measure --refresh
expect 0 "host_one_core" "$APOD" ceilings --ceilings="$cache"

# Usage errors.
expect 2 "one or the other" "$APOD" ceilings --refresh --ceilings="$cache"
expect 2 "unexpected argument 'x'" "$APOD" ceilings x
expect 2 "" "$APOD" ceilings --nope
expect 0 "Usage:" "$APOD" ceilings --help
finish
