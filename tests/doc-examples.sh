#!/bin/sh
# The code examples of doc/porting.md and doc/extending.md, each compiled on
# its own out of the tree, against the installed headers (pkg-config's
# flags alone) with tests/doc-examples/prelude.h for the port's own names:
# a fenced ```c block by cc, ```cpp by c++, ```cuda by nvcc (where there is
# one).  A block of statements is compiled as a function's body, a block
# that starts with a key's `{ .key` as an entry of a key table.  Needs
# pkg-config to find apod.  Run two ways:
#   sh doc-examples.sh DOCS   tests/installcheck.sh: the installed docs in
#                             DOCS, pkg-config pointed at the install;
#   make check                the tree's docs, against the build staged as
#                             an install (tests/userbuild.sh).
set -u
if [ $# -ge 1 ]; then
	docs=$1
	prelude=$(cd "$(dirname "$0")" && pwd)/doc-examples/prelude.h
	nvcc=${NVCC:-nvcc}
	work=$(mktemp -d "${TMPDIR:-/tmp}/apod-docex-XXXXXX")
	trap 'rm -rf "$work"' EXIT
else
	. "$top_srcdir/tests/lib.sh"
	. "$top_srcdir/tests/userbuild.sh"
	docs=$top_srcdir/doc
	prelude=$top_srcdir/tests/doc-examples/prelude.h
	nvcc=$user_nvcc   # configure's, empty in a build without CUDA
	install_or_skip
fi
cflags=$(pkg-config --cflags apod) || { echo "FAIL: pkg-config finds no apod"; exit 1; }
[ -n "$nvcc" ] && command -v "$nvcc" >/dev/null 2>&1 || nvcc=
fails=0 built=0 skipped=0

for doc in porting.md extending.md; do
	[ -f "$docs/$doc" ] || { echo "FAIL: no $docs/$doc"; fails=$((fails + 1)); continue; }
	# Each block to its own file, named by its doc, line and language.
	awk -v out="$work/" -v doc="${doc%.md}" '
		/^```(c|cpp|cuda)[ \t]*$/ && !inb { inb = 1; lang = substr($0, 4); sub(/[ \t]+$/, "", lang)
			f = out doc "-" FNR "." lang; next }
		/^```/ && inb { inb = 0; close(f); next }
		inb { print > f }' "$docs/$doc"
done
for f in "$work"/*.c "$work"/*.cpp "$work"/*.cuda; do
	[ -f "$f" ] || continue
	name=$(basename "$f")
	lang=${name##*.}
	src=$work/${name%.*}-tu
	first=$(grep -v '^[[:space:]]*$' "$f" | head -n1)
	{
		echo "#include \"$prelude\""
		case $first in
		"{ ."*) echo "static const struct apod_param doc_params[] = {"; cat "$f"; echo "{ .key = NULL } };" ;;
		for*|if*|while*|"#pragma"*|"w->"*)
			echo "int doc_example(DOC_EXAMPLE_LOCALS);"
			echo "int doc_example(DOC_EXAMPLE_LOCALS) {"
			echo "long step; size_t i; double kinetic = 0, potential = 0;"
			echo "(void)steps, (void)energy_every, (void)n, (void)state, (void)dt, (void)phase, (void)w, (void)state_bytes;"
			echo "(void)step, (void)i, (void)kinetic, (void)potential;"
			cat "$f"; echo "return 0; }" ;;
		*) cat "$f" ;;
		esac
	} > "$src"
	case $lang in
	c) cc -std=gnu11 -fopenmp -x c $cflags -c -o "$work/o" "$src" > "$work/log" 2>&1 ;;
	cpp) c++ -std=c++17 -x c++ $cflags -c -o "$work/o" "$src" > "$work/log" 2>&1 ;;
	cuda)
		if [ -z "$nvcc" ]; then
			echo "skipped: $name (CUDA: no nvcc for this build)"; skipped=$((skipped + 1)); continue
		fi
		"$nvcc" -std=c++20 -x cu -Xcompiler -fopenmp $cflags -c -o "$work/o" "$src" > "$work/log" 2>&1 ;;
	esac
	if [ $? -eq 0 ]; then
		echo "ok: $name"; built=$((built + 1))
	else
		echo "FAIL: $name does not compile out of the tree:"; sed 's/^/  | /' "$work/log" | head -20
		fails=$((fails + 1))
	fi
done
echo "doc examples: $built compiled, $skipped skipped, $fails failed"
[ "$built" -gt 0 ] || { echo "FAIL: no example found"; exit 1; }
[ "$fails" -eq 0 ] || exit 1
[ "$skipped" -eq 0 ] || echo "(a CUDA example is compiled only where there is nvcc: the C ones passed)"
