#!/bin/sh
# `make installcheck`: the installed library from the outside.  The example
# workload and a fresh `apod new` skeleton are copied out of the install
# tree into a scratch directory and built there with pkg-config alone (no
# path into the source tree), then run through their table and their gate.
# Needs PKG_CONFIG_PATH, PATH and LD_LIBRARY_PATH pointing at the install,
# APOD_EXAMPLE_DIR and APOD_TEMPLATE_DIR (the Makefile's installcheck-local).
set -eu
work=$(mktemp -d "${TMPDIR:-/tmp}/apod-installcheck-XXXXXX")
trap 'rm -rf "$work"' EXIT
pkg-config --exists apod || { echo "FAIL: pkg-config finds no apod (PKG_CONFIG_PATH=${PKG_CONFIG_PATH:-})"; exit 1; }
echo "installcheck: apod $(pkg-config --modversion apod): $(pkg-config --cflags --libs apod)"

echo "installcheck: the example workload, built out of the tree"
cp -r "$APOD_EXAMPLE_DIR" "$work/particles"
chmod -R u+w "$work/particles"
( cd "$work/particles" && make && make check )

echo "installcheck: a new skeleton, as 'apod new' writes it"
( cd "$work" && apod new mywork && cd mywork && make && make check )
if command -v nvcc >/dev/null 2>&1; then
	echo "installcheck: a new skeleton with a GPU stage, as 'apod new --gpu' writes it"
	( cd "$work" && apod new mygpu --gpu && cd mygpu && make && make check )
else
	echo "installcheck: no nvcc on PATH: the 'apod new --gpu' skeleton was not built"
fi
echo "installcheck: passed"
