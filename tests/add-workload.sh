#!/bin/sh
# Adding a workload is its folder plus one line: a copy
# of this source tree gets a new workload, cpu/NAME/, made from the template
# (`apod new`: its workload.c and NAME.h, with a one-line build fragment,
# cpu/NAME/local.mk), and one APOD_WORKLOAD(NAME) line in
# cpu/workloads.def; nothing else is edited.  The copy is then bootstrapped
# (cpu/workloads.sh and autoreconf, as ./bootstrap does, without its package
# installs), configured without CUDA and MPI, and its apod built; that apod
# must list the new workload, run its table, omp PASS against serial, and
# its deck-space sweep (tests/deckspace/lib.sh), decks drawn from its key
# table, green.
# Skips (77) where autoreconf or automake is missing.  About 2 minutes on
# two cores and a minute more for the sweep: CFLAGS=-O0, and only the apod
# program is built.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/deckspace/lib.sh"
for t in autoreconf automake aclocal libtoolize; do
	command -v $t >/dev/null 2>&1 || { echo "SKIP: no $t here (autotools are needed to bootstrap the copy)"; exit 77; }
done
if [ "${APOD_SANITIZE:-no}" != no ]; then
	echo "SKIP: a sanitizer build; the copy is built without sanitizers, by the plain build's test"
	exit 77
fi
# The make of the copy is its own, not part of this one's jobserver.
unset MAKEFLAGS MFLAGS MAKELEVEL
name=zzadded
src=$work/src
mkdir "$src" || exit 1
# The tree: git's files where this is a checkout, else the whole source folder
# (a distribution's, unconfigured where it is built in a folder of its own).
if git -C "$top_srcdir" rev-parse --git-dir >/dev/null 2>&1; then
	( cd "$top_srcdir" && git ls-files -z --cached --others --exclude-standard |
		tar --null -T - --ignore-failed-read -cf - 2>/dev/null ) | tar -C "$src" -xf - ||
		{ echo "FAIL: cannot copy the tree's files"; exit 1; }
elif [ ! -f "$top_srcdir/config.status" ]; then
	cp -R "$top_srcdir/." "$src/" || { echo "FAIL: cannot copy the tree"; exit 1; }
	rm -f "$src/cpu/workloads.mk"
else
	echo "SKIP: the sources are configured in place and not a git checkout: no clean copy to make"
	exit 77
fi
grep -q "^APOD_WORKLOAD($name)" "$src/cpu/workloads.def" && { echo "FAIL: $name is already listed"; exit 1; }

# Its folder: from the template, as `apod new` writes it.
( cd "$work" && "$APOD" new $name ) > "$work/new.log" 2>&1 ||
	{ echo "FAIL: apod new $name"; cat "$work/new.log"; exit 1; }
mkdir "$src/cpu/$name" && mv "$work/$name/workload.c" "$work/$name/$name.h" "$src/cpu/$name/" || exit 1
echo "program_sources += cpu/$name/workload.c cpu/$name/$name.h" > "$src/cpu/$name/local.mk"
# Its one line.
echo "APOD_WORKLOAD($name)" >> "$src/cpu/workloads.def"

start=$(date +%s)
cd "$src" || exit 1
{ sh cpu/workloads.sh . && autoreconf -i; } > "$work/bootstrap.log" 2>&1 ||
	{ echo "FAIL: bootstrap of the copy"; tail -30 "$work/bootstrap.log"; exit 1; }
grep -q "cpu/$name/local.mk" cpu/workloads.mk || { echo "FAIL: workloads.mk does not include $name's fragment"; exit 1; }
./configure -q --without-cuda --without-mpi CFLAGS=-O0 > "$work/configure.log" 2>&1 ||
	{ echo "FAIL: configure of the copy"; tail -30 "$work/configure.log"; exit 1; }
make -j2 apod > "$work/make.log" 2>&1 || { echo "FAIL: make of the copy"; grep -iE -B2 -A4 "error|undefined" "$work/make.log" | head -60; exit 1; }
echo "ok: a copy with $name bootstrapped, configured and built in $(( $(date +%s) - start )) s"

expect 0 "$name" ./apod workloads
expect 0 "omp " ./apod stages --workload=$name
OMP_NUM_THREADS=2 expect 0 "PASS" ./apod --workload=$name --n=20000 --steps=30
grep -E '^omp +[0-9.]+ .*PASS' "$work/out" >/dev/null ||
	{ echo "FAIL: the omp row of $name's table is not PASS"; sed 's/^/  | /' "$work/out"; fails=$((fails + 1)); }
# Its deck space, drawn from its key table alone (no rule of the test names
# it): serial and omp held to each other by the gate.
APOD=$src/apod SPACE_WORKLOADS=$name SPACE_KEEP=$work/keep
space_sweep host "${SPACE_SEED:-20261128}" "${SPACE_DECKS:-8}" "${SPACE_BUDGET:-300000}" \
	"${SPACE_CELLS:-100000}" "${SPACE_SECONDS:-120}"
[ "$space_decks" -gt 0 ] || { echo "FAIL: no deck of $name ran"; fails=$((fails + 1)); }
# The workloads that were there are there still, in the list's order, the new one last.
./apod workloads | awk '/^[a-z]/ {print $1}' > "$work/listed"
sed -n 's/^APOD_WORKLOAD(\([a-z0-9_]*\)).*/\1/p' cpu/workloads.def | cmp -s - "$work/listed" ||
	{ echo "FAIL: apod workloads is not the list's order"; cat "$work/listed"; fails=$((fails + 1)); }
finish
