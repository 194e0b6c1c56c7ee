#!/bin/sh
# apod ceilings: measured once into a cache file named by host and device,
# read back from it, shown from another machine's file; a malformed file is
# refused with exit 2.  Nothing here holds a figure to a threshold: the
# loader itself refuses a figure that is not positive and finite.
. "$top_srcdir/tests/lib.sh"
XDG_CACHE_HOME="$work/cache"
export XDG_CACHE_HOME
expect 0 "host_one_core" "$APOD" ceilings
cp "$work/out" "$work/first"
set -- "$work"/cache/apod/ceilings-*.json
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
	echo "FAIL: no single cache file under $work/cache/apod: $*"; fails=$((fails + 1))
	finish
fi
cache=$1
case $cache in
*-nogpu.json) grep -Eq '^device +not measured: .{10,}' "$work/first" ||
	{ echo "FAIL: no GPU, and the device line does not say why"; fails=$((fails + 1)); } ;;
esac
for res in host_one_core host_all_cores; do
	grep -Eq "^$res +[0-9]+ +[0-9]" "$work/first" ||
		{ echo "FAIL: $res has no figures"; fails=$((fails + 1)); }
done
# The second run reads the cache: same figures, same file, nothing measured.
cp "$cache" "$work/cache.before"
expect 0 "file: $cache" "$APOD" ceilings
cmp -s "$work/first" "$work/out" || { echo "FAIL: the cached ceilings print differently"; fails=$((fails + 1)); }
cmp -s "$cache" "$work/cache.before" || { echo "FAIL: reading the cache rewrote it"; fails=$((fails + 1)); }
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
# A damaged cache: refused with the way out, which works.
printf 'garbage' >"$cache"
expect 2 "apod ceilings --refresh" "$APOD" ceilings
expect 0 "host_one_core" "$APOD" ceilings --refresh
expect 0 "host_one_core" "$APOD" ceilings --ceilings="$cache"

# Usage errors.
expect 2 "one or the other" "$APOD" ceilings --refresh --ceilings="$cache"
expect 2 "unexpected argument 'x'" "$APOD" ceilings x
expect 2 "" "$APOD" ceilings --nope
expect 0 "Usage:" "$APOD" ceilings --help
finish
