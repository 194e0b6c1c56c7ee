#!/bin/sh
# `make installcheck`: the installed library from the outside.  The four
# examples (particles; lookup, a one-shot reduction; srad, Rodinia's SRAD
# ported, three phases a step; miniweather, miniWeather ported, its own
# step marking its phases) and fresh `apod new` skeletons are copied
# out of the install tree into a scratch directory and built there with
# pkg-config alone (no path into the source tree), then run through their
# table and their gate.  Needs PKG_CONFIG_PATH and PATH pointing at the
# install, and APOD_EXAMPLE_DIR, APOD_LOOKUP_DIR, APOD_SRAD_DIR and
# APOD_DOC_DIR, APOD_MINIWEATHER_DIR and APOD_CXX_DIR, the C++ workload's sources
# (the Makefile's installcheck-local).  Nothing else: the installed apod must
# find its own template and apod-pg, and the programs built with apod.pc's
# flags their library (its rpath), as a user's do.
set -eu
unset LD_LIBRARY_PATH APOD_TEMPLATE_DIR APOD_PG
work=$(mktemp -d "${TMPDIR:-/tmp}/apod-installcheck-XXXXXX")
trap 'rm -rf "$work"' EXIT
pkg-config --exists apod || { echo "FAIL: pkg-config finds no apod (PKG_CONFIG_PATH=${PKG_CONFIG_PATH:-})"; exit 1; }
echo "installcheck: apod $(pkg-config --modversion apod): $(pkg-config --cflags --libs apod)"
libdir=$(pkg-config --variable=libdir apod)
case " $(pkg-config --libs apod) " in
*" -rpath=$libdir "*) echo "installcheck: ok: apod.pc's Libs give the rpath $libdir" ;;
*) echo "FAIL: pkg-config --libs apod gives no rpath to $libdir"; exit 1 ;;
esac

# gate NAME DIR: DIR copied here as NAME (writable, as a user's copy is),
# built there and run through its gate.
gate() {
	cp -r "$2" "$work/$1"
	chmod -R u+w "$work/$1"
	( cd "$work/$1" && make && make check )
}
echo "installcheck: the example workload, built out of the tree"
gate particles "$APOD_EXAMPLE_DIR"
echo "installcheck: the lookup example (a one-shot reduction), built out of the tree"
gate lookup "$APOD_LOOKUP_DIR"
echo "installcheck: the srad example (Rodinia's SRAD, three phases a step), built out of the tree"
gate srad "$APOD_SRAD_DIR"
echo "installcheck: a C++ workload (revision 5, its phases marked with apod::region), -Werror"
gate cxx "$APOD_CXX_DIR"
echo "installcheck: the miniweather example (miniWeather, its own split step), built out of the tree"
gate miniweather "$APOD_MINIWEATHER_DIR"

echo "installcheck: a new skeleton, as 'apod new' writes it, from the installed template"
( cd "$work" && apod new mywork && cd mywork && make && make check )
if command -v nvcc >/dev/null 2>&1; then
	echo "installcheck: a new skeleton with a GPU stage, as 'apod new --gpu' writes it"
	( cd "$work" && apod new mygpu --gpu && cd mygpu && make && make check )
else
	echo "installcheck: no nvcc on PATH: the 'apod new --gpu' skeleton was not built"
fi
# An apod built with MPI writes the mpi stage; one without refuses --mpi.
if command -v mpirun >/dev/null 2>&1 && (cd "$work" && apod new myranks --mpi); then
	echo "installcheck: a new skeleton with an MPI stage, as 'apod new --mpi' writes it, at 1 to 3 ranks"
	( cd "$work/myranks" && make && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
		timeout 300 make check MPIRUN_FLAGS="--oversubscribe --mca btl self,vader" )
else
	echo "installcheck: no mpirun, or an apod without MPI: the 'apod new --mpi' skeleton was not built"
fi

echo "installcheck: the installed README's and docs' links to one another"
broken=$(cd "$APOD_DOC_DIR/.." && for f in README.md doc/*.md doc/labs/*.md; do
	d=$(dirname "$f")
	# Links into the records (doc/results/, profiles/) are the source tree's.
	grep -o '](\([^)#]*\)' "$f" | sed 's/^](//' | grep -v '^http\|^$\|results/\|profiles' |
		while read -r l; do [ -e "$d/$l" ] || echo "$f: $l"; done
done)
[ -z "$broken" ] || { echo "FAIL: broken links in the installed documentation:"; echo "$broken"; exit 1; }

echo "installcheck: the code examples of porting.md and extending.md, compiled out of the tree"
sh "$(dirname "$0")/doc-examples.sh" "$APOD_DOC_DIR"

echo "installcheck: the installed references, verified against a fresh run"
data=$(pkg-config --variable=pkgdatadir apod)
( cd "$work" && apod run --stage=serial --deck="$data/heat/small.deck" --out=serial \
	&& apod verify "$data/heat/ref/small" serial )
( cd "$work" && apod run --workload=nbody --stage=serial --deck="$data/nbody/small.deck" \
	--out=nbody-serial && apod verify "$data/nbody/ref/small" nbody-serial )

echo "installcheck: apod assess, with the installed apod-pg"
( cd "$work" && apod assess --deck="$data/heat/small.deck" --steps=5 --out=assess > assess.log ) \
	|| { cat "$work/assess.log"; exit 1; }
echo "installcheck: passed"
