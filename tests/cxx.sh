#!/bin/sh
# C++ is a first-class caller: every installed header that is not for
# nvcc alone compiles as C++17 with -Wall -Wextra -Werror -pedantic, and
# tests/cxx/splitcxx.cpp (a revision-5 workload whose step marks its
# phases with apod::region) builds warning-free against the headers and
# library, as a user's port does (pkg-config against an install staged from
# this build tree by tests/userbuild.sh), and passes its gate.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/userbuild.sh"
cd "$work" || exit 1
unset MAKEFLAGS MFLAGS MAKELEVEL
CXX=${CXX_FOR_TESTS:-g++}
command -v "$CXX" >/dev/null 2>&1 || { echo "SKIP: no C++ compiler ($CXX)"; exit 77; }
cxxflags="-std=c++17 -Wall -Wextra -Werror -pedantic"

headers=$(sed -n 's/^pkginclude_HEADERS +\{0,1\}= //p' "$top_srcdir/Makefile.am")
mkdir -p inc/apod
for h in $headers; do ln -sf "$top_srcdir/$h" inc/apod/; done
for h in $headers; do
	case $h in *.cuh|*/cuda.h) continue ;; esac
	extra=
	# ranks_mpi.h includes <mpi.h>: MPI's own flags, where there is an MPI.
	case $h in */ranks_mpi.h)
		if ! extra=$(mpicc --showme:compile 2>/dev/null); then
			echo "skipped: <apod/ranks_mpi.h> (no mpicc to say where mpi.h is)"; continue
		fi ;;
	esac
	printf '#include <apod/%s>\nint main() { return 0; }\n' "$(basename "$h")" > header.cpp
	# shellcheck disable=SC2086
	if $CXX $cxxflags $extra -Iinc -c header.cpp -o header.o > header.log 2>&1; then
		echo "ok: <apod/$(basename "$h")> compiles as C++17 with -Werror -pedantic"
	else
		echo "FAIL: <apod/$(basename "$h")> in C++"; sed 's/^/  | /' header.log; fails=$((fails + 1))
	fi
done

port_install "splitcxx was"
cp -r "$top_srcdir/tests/cxx" "$work/cxx"
chmod -R u+w "$work/cxx"
( cd cxx && make CXX="$CXX" && make check CXX="$CXX" ) > cxx.log 2>&1 \
	&& echo "ok: the C++ workload builds with -Werror against the headers and passes its gate" \
	|| { echo "FAIL: the C++ workload"; sed 's/^/  | /' cxx.log; fails=$((fails + 1)); }
if grep -i "warning" cxx.log; then echo "FAIL: the C++ workload builds with warnings"; fails=$((fails + 1)); fi
# The program's own steps, and every phase with its calls: boundary and
# diffuse twice a step, react once.
grep -q "deck splitcxx (changed: steps=20): 20 steps" cxx.log \
	&& echo "ok: the table counts the program's 20 steps" \
	|| { echo "FAIL: the table's step count"; grep "steps" cxx.log; fails=$((fails + 1)); }
r=cxx/check-blocked/report.json
grep -q '"diffuse": *40,' "$r" 2>/dev/null && grep -q '"boundary": *40,' "$r" && grep -q '"react": *20,' "$r" \
	&& echo "ok: report.json: boundary 40, diffuse 40, react 20 calls" \
	|| { echo "FAIL: report.json's calls"; grep -A9 phase_calls "$r"; fails=$((fails + 1)); }
finish
