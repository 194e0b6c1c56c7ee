#!/bin/sh
# The layers stay apart: no file of the harness (cpu/harness/) or of its
# command line (cpu/cli/) names a workload, its phases or its headers, so
# that a user's workload plugs in exactly as heat does.
. "$top_srcdir/tests/lib.sh"
expect 0 "heat" "$APOD" workloads
names=$(awk '/^[a-z0-9_]+ / && !/^ / {print $1}' "$work/out")
[ -n "$names" ] || { echo "FAIL: 'apod workloads' listed nothing"; exit 1; }
for name in $names; do
	# Each workload's own words: its name, its step and probe phases.
	words="$name"
	case $name in
	heat) words="$words genTimeStep calcStats calcSummaryData heat_ deck\.h problem\.h" ;;
	esac
	for w in $words; do
		hits=$(grep -lw -- "$w" "$top_srcdir"/cpu/harness/*.[ch] "$top_srcdir"/cpu/harness/apod/*.h \
			"$top_srcdir"/cpu/cli/*.[ch] 2>/dev/null)
		if [ -n "$hits" ]; then
			echo "FAIL: the harness names workload $name ('$w') in:"; echo "$hits" | sed 's/^/  /'
			fails=$((fails + 1))
		else
			echo "ok: no harness file names '$w'"
		fi
	done
done
# Includes name their folder from the root, so a harness file reaches only
# what lies below it: its own folders, the public headers and shared/'s own.
hits=$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$top_srcdir"/cpu/harness/*.[ch] \
	"$top_srcdir"/cpu/harness/apod/*.h "$top_srcdir"/cpu/cli/*.[ch] 2>/dev/null |
	grep -v '"\(apod/\|cpu/harness/\|cpu/cli/\|shared/[a-z0-9_]*\.h"\|[a-z0-9_]*\.h"\)')
if [ -n "$hits" ]; then
	echo "FAIL: the harness includes a header of a layer above it:"; echo "$hits" | sed 's/^/  /'
	fails=$((fails + 1))
else
	echo "ok: the harness includes only its own headers, apod/ and shared/"
fi
finish
