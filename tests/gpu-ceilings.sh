#!/bin/sh
# apod ceilings on a GPU: the device, and PCIe both ways, measured and kept
# in the cache file (the loader refuses any figure that is not positive and
# finite).  Skips without a GPU.
. "$top_srcdir/tests/lib.sh"
if ! "$APOD" stages | grep -q '^gpu2 *available'; then
	echo "SKIP: no GPU to measure"
	exit 77
fi
XDG_CACHE_HOME="$work/cache"
export XDG_CACHE_HOME
"$APOD" ceilings --json="$work/c.json" >"$work/out" 2>&1
st=$?
# A host too busy to measure: its figures shown and refused (doc/assess.md),
# nothing kept; the device's row is still checked, the cache cannot be.
busy=no
if [ "$st" = 1 ] && grep -q "contradict each other twice" "$work/out"; then
	busy=yes
	echo "note: the host was too busy to measure; the cache is not checked"
elif [ "$st" != 0 ]; then
	echo "FAIL: ceilings exited $st"; sed 's/^/  | /' "$work/out"; fails=$((fails + 1))
fi
for res in device pcie_h2d pcie_d2h; do
	if grep -Eq "^$res +not measured" "$work/out"; then
		echo "FAIL: $res not measured on a machine with a GPU"; fails=$((fails + 1))
	fi
done
grep -Eq '^device +- +[0-9.]+ +- +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+' "$work/out" ||
	{ echo "FAIL: the device row lacks a figure"; fails=$((fails + 1)); }
if [ "$busy" = yes ]; then
	[ ! -e "$work/c.json" ] && ! ls "$work"/cache/apod/ceilings-*.json >/dev/null 2>&1 ||
		{ echo "FAIL: refused figures were kept"; fails=$((fails + 1)); }
	finish
fi
set -- "$work"/cache/apod/ceilings-*.json
case $1 in
*-nogpu.json|*'*'*) echo "FAIL: the cache file is not named by the device: $1"; fails=$((fails + 1)) ;;
esac
expect 0 "pcie_d2h" "$APOD" ceilings --ceilings="$work/c.json"
finish
