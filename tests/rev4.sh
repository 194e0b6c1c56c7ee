#!/bin/sh
# Ports written for revision 4 of apod/workload.h load and run unchanged:
# the lookup example (doc/examples/lookup), declared at revision 4 in a copy
# (its .version pinned to 4, after checking that it uses no name of a later
# revision), and tests/rev4/md (three step phases and a probe), frozen as it
# was written.  Each is built against the current headers and library the
# way its users build it (pkg-config against an install, staged from this
# build tree by tests/userbuild.sh) and run through its own gate.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/userbuild.sh"
cd "$work" || exit 1
unset MAKEFLAGS MFLAGS MAKELEVEL

cp -r "$top_srcdir/doc/examples/lookup" "$top_srcdir/tests/rev4/md" "$work/"
chmod -R u+w "$work/lookup" "$work/md"
sed 's/^\([[:space:]]*\.version = \)APOD_WORKLOAD_VERSION,$/\14,/' "$work/lookup/workload.c" > "$work/pinned.c" \
	&& mv "$work/pinned.c" "$work/lookup/workload.c"
for d in lookup md; do
	[ "$(cat "$work/$d/"*.c | grep -c '\.version = 4,')" = 1 ] \
		&& echo "ok: $d declares revision 4 in so many words" \
		|| { echo "FAIL: $d does not say .version = 4 once"; fails=$((fails + 1)); }
	if grep -n 'create_timed\|advance\|apod_phase_begin\|apod_phase_end\|apod_phase_find\|horizon_of\|tolerance_at\|APOD_WORKLOAD_VERSION' \
		"$work/$d/"*.[ch] "$work/$d/"*.cu "$work/$d/Makefile" 2>/dev/null; then
		echo "FAIL: $d uses a name of a later revision"; fails=$((fails + 1))
	fi
done
port_install "the ports were"

for d in lookup md; do
	# The host stages only: a GPU build of the example is its own test.
	( cd "$work/$d" && make NVCC=nvcc-not-here && make check NVCC=nvcc-not-here ) > "$work/$d.log" 2>&1 \
		&& echo "ok: the revision-4 $d builds against the current headers and passes its gate" \
		|| { echo "FAIL: the revision-4 $d"; sed 's/^/  | /' "$work/$d.log"; fails=$((fails + 1)); }
done
# Its report.json counts the calls as a fixed step makes them: kick once a
# step, the probe at its rows (step 0 and every 3: the end is one of them).
grep -q '"kick": *12,' "$work/md/check-serial/report.json" 2>/dev/null \
	&& grep -q '"energy": *5,' "$work/md/check-serial/report.json" \
	&& echo "ok: the revision-4 md's calls: kick 12, energy 5" \
	|| { echo "FAIL: the revision-4 md's calls"; grep -A12 phase_calls "$work/md/check-serial/report.json"; fails=$((fails + 1)); }
finish
