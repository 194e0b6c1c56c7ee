# Helpers for the tests that build a user's port the way it is built outside
# the apod tree: against an install, with pkg-config alone.  Sourced after
# tests/lib.sh.  Instead of running `make install` (which would race the
# build under make -j), stage_install lays the build tree out as an install
# would: the headers of Makefile.am's pkginclude_HEADERS under
# include/apod, and an apod.pc whose libdir is the build's .libs (and whose
# makefile, the rules a port's Makefile includes, is the source tree's).

# stage_install DIR: the staged install under DIR; sets PKG_CONFIG_PATH for
# it, not LD_LIBRARY_PATH: the rpath in apod.pc's Libs must find the library,
# as it does for a user's port.  Returns 1 (with a message) if the build has
# no shared libapod to stage.
stage_install() {
	si_dir=$1
	si_build=$(cd "$(dirname "$APOD")" && pwd)
	[ -f "$si_build/.libs/libapod.so" ] || { echo "no $si_build/.libs/libapod.so (configured with --disable-shared?)"; return 1; }
	mkdir -p "$si_dir/include/apod" "$si_dir/pkgconfig"
	for h in $(sed -n 's/^pkginclude_HEADERS +\{0,1\}= //p' "$top_srcdir/Makefile.am"); do
		ln -sf "$top_srcdir/$h" "$si_dir/include/apod/"
	done
	sed -e "s|^libdir=.*|libdir=$si_build/.libs|" -e "s|^includedir=.*|includedir=$si_dir/include|" \
		-e "s|^makefile=.*|makefile=$top_srcdir/data/apod.mk|" \
		"$si_build/apod.pc" > "$si_dir/pkgconfig/apod.pc"
	# Ahead of what the environment had: apod.pc names json-c, which may be
	# found only there (a machine with it outside the system's paths).
	PKG_CONFIG_PATH=$si_dir/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
	export PKG_CONFIG_PATH
}

# skip WHY: the test ends here, SKIP (77) saying why, or FAIL where one of its
# checks failed already.
skip() {
	echo "SKIP: $1"
	[ "$fails" -eq 0 ] || finish
	exit 77
}

# install_or_skip: stage_install under $work/inst, or skip.
install_or_skip() {
	stage_install "$work/inst" || skip "cannot stage the install"
}

# port_install WHAT: install_or_skip for a test that runs a port it builds;
# in a sanitizer build it skips instead, saying WHAT was not built: that
# libapod needs the sanitizers' runtime loaded first, which a user's port
# does not do.
port_install() {
	[ "${APOD_SANITIZE:-no}" = no ] || skip "a sanitizer build's libapod needs its runtime first; $1 not built"
	install_or_skip
}

# The nvcc configure found (empty where it found none or was told
# --without-cuda: then there are no architectures, whatever CUDA_HOME the
# environment holds), and -gencode flags for the architectures apod itself
# was built for, so that a port built here runs natively on the GPU apod
# runs on.
user_nvcc=
[ -z "${APOD_CUDA_ARCHS:-}" ] || user_nvcc=${APOD_CUDA_HOME:-/usr/local/cuda}/bin/nvcc
user_gencode=
for a in ${APOD_CUDA_ARCHS:-}; do
	user_gencode="$user_gencode -gencode=arch=compute_$a,code=sm_$a"
done
