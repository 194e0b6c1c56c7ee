#!/bin/sh
# Ports written for revision 4 of apod/workload.h load and run unchanged:
# the frozen copies under tests/rev4/ (the lookup example and md, three
# step phases and a probe), each with .version = 4, built against the
# current headers and library the way their users build them (pkg-config
# against an install, staged from this build tree by tests/userbuild.sh)
# and run through their own gate.  The copies are never edited.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/userbuild.sh"
cd "$work" || exit 1
unset MAKEFLAGS MFLAGS MAKELEVEL

for d in lookup md; do
	grep -q '\.version = 4,' "$top_srcdir/tests/rev4/$d/"*.c \
		&& echo "ok: $d declares revision 4 in so many words" \
		|| { echo "FAIL: tests/rev4/$d no longer says .version = 4"; fails=$((fails + 1)); }
	if grep -n 'create_timed\|advance\|apod_phase_begin\|apod_phase_end\|apod_phase_find\|horizon_of\|tolerance_at\|APOD_WORKLOAD_VERSION' \
		"$top_srcdir/tests/rev4/$d/"*; then
		echo "FAIL: tests/rev4/$d uses a name of a later revision"; fails=$((fails + 1))
	fi
done
if [ "${APOD_SANITIZE:-no}" != no ]; then
	echo "SKIP: a sanitizer build's libapod needs its runtime first; the copies were not built"
	[ "$fails" -eq 0 ] || finish
	exit 77
fi
stage_install "$work/inst" || { echo "SKIP: cannot stage the install"; [ "$fails" -eq 0 ] || finish; exit 77; }

for d in lookup md; do
	cp -r "$top_srcdir/tests/rev4/$d" "$work/$d"
	chmod -R u+w "$work/$d"
	# The host stages only: a GPU build of the copy is the example's own test.
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
