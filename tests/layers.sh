#!/bin/sh
# The layers stay apart: no file of the harness (cpu/harness/) or of its
# command line (cpu/cli/) names a workload, its phases or its headers, so
# that a user's workload plugs in exactly as heat does.
. "$top_srcdir/tests/lib.sh"
harness="$top_srcdir/cpu/harness/*.[ch] $top_srcdir/cpu/harness/apod/*.h $top_srcdir/cpu/harness/apod/*.cuh
	$top_srcdir/cpu/cli/*.[ch]"

# none_of HITS WHAT OK: a failure listing HITS where there are any, else ok.
none_of() {
	if [ -n "$1" ]; then
		echo "FAIL: $2:"; echo "$1" | sed 's/^/  /'
		fails=$((fails + 1))
	else
		echo "ok: $3"
	fi
}

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
		none_of "$(grep -lw -- "$w" $harness 2>/dev/null)" \
			"the harness names workload $name ('$w') in" "no harness file names '$w'"
	done
done
# Includes name their folder from the root, so a harness file reaches only
# what lies below it: its own folders, the public headers and shared/'s own.
none_of "$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' $harness 2>/dev/null |
	grep -v '"\(apod/\|cpu/harness/\|cpu/cli/\|shared/[a-z0-9_]*\.h"\|[a-z0-9_]*\.h"\)')" \
	"the harness includes a header of a layer above it" \
	"the harness includes only its own headers, apod/ and shared/"
# The tree's own plug-ins (workloads, labs, GPU code, the program) reach the
# harness as a user's port does: through the installed headers (apod/*.h).
plugins=$(ls "$top_srcdir"/cpu/*.c "$top_srcdir"/cpu/*.h 2>/dev/null; for d in "$top_srcdir"/cpu/*/ "$top_srcdir"/gpu; do
	case $d in */harness/|*/cli/) continue ;; esac
	find "$d" -name '*.[ch]' -o -name '*.cu' -o -name '*.cuh' -o -name '*.def'
done)
none_of "$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"cpu/\(harness\|cli\)/' $plugins 2>/dev/null)" \
	"a plug-in includes an internal header of the harness (publish what it needs in apod/)" \
	"the plug-ins include only the installed headers of the harness"

# Ranks are the library's (apod/ranks.h): no file outside heat's own folders
# includes a heat header to get them, and heat's own code has no ranks of
# its own (its mpi_comm.h keeps only how heat's rows are spread over them).
others=$(find "$top_srcdir/cpu" "$top_srcdir/gpu" "$top_srcdir/data/template" "$top_srcdir/doc/examples" \
	\( -name '*.[ch]' -o -name '*.cu' -o -name '*.cuh' \) 2>/dev/null | grep -v "^$top_srcdir/cpu/heat/\|^$top_srcdir/gpu/heat/")
none_of "$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"\(cpu/heat/\)\{0,1\}mpi_comm\.h"' $others 2>/dev/null)" \
	"a file outside heat includes heat's mpi_comm.h (the ranks are apod/ranks.h's)" \
	"no file outside heat includes heat's mpi_comm.h"
none_of "$(grep -n '\bheat_mpi_\(start\|started\|rank\|size\|local_rank\|local_size\|agree\|stage_agree\|reporter\|comm\|same_params\|die\)\b' \
	$others "$top_srcdir"/cpu/heat/*.[ch] "$top_srcdir"/gpu/heat/*.cu* 2>/dev/null)" \
	"the ranks are still named heat_mpi_* (use apod/ranks.h)" \
	"no file names a rank function of heat's: every stage of ranks uses apod/ranks.h"
none_of "$(grep -ln 'MPI_Comm_rank\|MPI_Comm_size\|MPI_Init' $others "$top_srcdir"/cpu/heat/*.[ch] \
	"$top_srcdir"/gpu/heat/*.cu* 2>/dev/null | grep -v '/cpu/harness/')" \
	"a stage starts MPI or asks its rank of MPI itself (apod_ranks_start, apod_ranks_rank)" \
	"only the library starts MPI and numbers the ranks"

# The labs are a room of their own (cpu/labs/, gpu/labs/, shared/labs/):
# only the program, which registers `apod lab`, includes a lab header, and a
# lab reaches nothing of a workload's, only its own room, the installed
# headers (apod/) and the common layers every GPU stage stands on (gpu/ and
# shared/ at their top level).
labs=$(find "$top_srcdir/cpu/labs" "$top_srcdir/gpu/labs" "$top_srcdir/shared/labs" \
	\( -name '*.[ch]' -o -name '*.cu' -o -name '*.cuh' -o -name '*.def' \) 2>/dev/null)
nonlabs=$(find "$top_srcdir/cpu" "$top_srcdir/gpu" "$top_srcdir/shared" "$top_srcdir/data/template" \
	\( -name '*.[ch]' -o -name '*.cu' -o -name '*.cuh' -o -name '*.def' \) 2>/dev/null |
	grep -v "/labs/\|^$top_srcdir/cpu/program\.c$")
none_of "$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"\(cpu\|gpu\|shared\)/labs/' $nonlabs 2>/dev/null)" \
	"a file outside the labs (and the program) includes a lab header" \
	"only the program includes the labs' headers"
none_of "$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' $labs 2>/dev/null |
	grep -v '"\(apod/\|\(cpu\|gpu\|shared\)/labs/\|gpu/[a-z0-9_]*\.\(h\|cuh\)"\|shared/[a-z0-9_]*\.h"\|[a-z0-9_]*\.\(h\|cuh\|def\)"\)')" \
	"a lab includes a header of a workload or another room" \
	"the labs include only their own headers, apod/ and the common gpu/ and shared/ ones"

# libapod exports exactly what the installed headers declare with APOD_API
# (it is built with hidden visibility): nm's list against the headers'.
lib=$(dirname "$APOD")/.libs/libapod.so
if [ -f "$lib" ] && command -v nm >/dev/null; then
	nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBR]$/ {print $3}' | sort -u > "$work/exported"
	# ranks_mpi.h's functions take MPI's types: only in a build with MPI.
	headers=$(ls "$top_srcdir"/cpu/harness/apod/*.h | { [ "${APOD_HAVE_MPI:-no}" = yes ] && cat || grep -v '/ranks_mpi\.h$'; })
	sed -n 's/^APOD_API [^(]*[ *]\([a-z_][a-z0-9_]*\)(.*/\1/p' $headers | sort -u > "$work/declared"
	none_of "$(comm -23 "$work/exported" "$work/declared")" \
		"libapod.so exports names no installed header declares with APOD_API" \
		"libapod.so exports only the installed headers' APOD_API functions"
	none_of "$(comm -13 "$work/exported" "$work/declared")" \
		"installed headers declare APOD_API functions libapod.so does not export" \
		"every APOD_API function is exported ($(wc -l < "$work/declared") of them)"
else
	echo "libapod.so not built here (a static build): its exports not checked"
fi
finish
