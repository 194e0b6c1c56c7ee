#!/bin/sh
# Ports written for earlier revisions of apod/workload.h load and run
# unchanged: at revision 4, the lookup example (doc/examples/lookup) in a
# copy with its .version pinned to 4 and tests/rev4/md (three step phases
# and a probe), frozen as it was written; at revision 5, the miniweather
# example (its own step, regions marked any number of times) pinned to 5.
# A pinned copy is first checked to use no name of a later revision.  Each
# is built against the current headers and library the way its users build
# it (pkg-config against an install, staged from this build tree by
# tests/userbuild.sh) and run through its own gate.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/userbuild.sh"
cd "$work" || exit 1
unset MAKEFLAGS MFLAGS MAKELEVEL

cp -r "$top_srcdir/doc/examples/lookup" "$top_srcdir/doc/examples/miniweather" \
	"$top_srcdir/tests/rev4/md" "$work/"
chmod -R u+w "$work/lookup" "$work/miniweather" "$work/md"
pin() {   # pin DIR REVISION
	sed "s/^\([[:space:]]*\.version = \)APOD_WORKLOAD_VERSION,\$/\1$2,/" "$work/$1/workload.c" > "$work/pinned.c" \
		&& mv "$work/pinned.c" "$work/$1/workload.c"
}
pin lookup 4
pin miniweather 5
# The names each revision after the port's added.
later5='kernel_rows\|apod_bench_row\|apod_bench_sink\|APOD_WORKLOAD_VERSION'
later4="create_timed\\|advance\\|apod_phase_begin\\|apod_phase_end\\|apod_phase_find\\|horizon_of\\|tolerance_at\\|$later5"
for d in lookup:4 md:4 miniweather:5; do
	rev=${d#*:} d=${d%:*}
	[ "$(cat "$work/$d/"*.c | grep -c "\.version = $rev,")" = 1 ] \
		&& echo "ok: $d declares revision $rev in so many words" \
		|| { echo "FAIL: $d does not say .version = $rev once"; fails=$((fails + 1)); }
	[ "$rev" = 4 ] && later=$later4 || later=$later5
	if grep -n "$later" "$work/$d/"*.[ch] "$work/$d/"*.cu "$work/$d/Makefile" 2>/dev/null; then
		echo "FAIL: $d uses a name of a revision after $rev"; fails=$((fails + 1))
	fi
done
port_install "the ports were"

for d in lookup md miniweather; do
	# The host stages only: a GPU build of the example is its own test.
	( cd "$work/$d" && make NVCC=nvcc-not-here && make check NVCC=nvcc-not-here ) > "$work/$d.log" 2>&1 \
		&& echo "ok: the $d of an earlier revision builds against the current headers and passes its gate" \
		|| { echo "FAIL: the earlier revision's $d"; sed 's/^/  | /' "$work/$d.log"; fails=$((fails + 1)); }
done
# Its report.json counts the calls as a fixed step makes them: kick once a
# step, the probe at its rows (step 0 and every 3: the end is one of them).
grep -q '"kick": *12,' "$work/md/check-serial/report.json" 2>/dev/null \
	&& grep -q '"energy": *5,' "$work/md/check-serial/report.json" \
	&& echo "ok: the revision-4 md's calls: kick 12, energy 5" \
	|| { echo "FAIL: the revision-4 md's calls"; grep -A12 phase_calls "$work/md/check-serial/report.json"; fails=$((fails + 1)); }
finish
