# Sourced by the results folders' scripts (2026-11-26-h200-gates and later) as the first
# thing they do on the GPU machine, from the repository's root:
#   bash .device/on-gpu bash doc/results/FOLDER/SCRIPT.sh
# It unpacks the `make dist` tarball carried in .device/, builds it, notes
# the device and the date in $RES/env.txt, and leaves the shell in the
# build tree.  Result files go to $RES; `pack` puts them in $OUT/res.tgz
# (a tarball, because the device tool returns only so many files).
# APOD_CONFIGURE: more arguments for configure (--with-cuda-arch=90
# builds for the machine's chip alone, in half the time).
set -u
OUT=${OUT:-/tmp/out}
RES=/tmp/res
rm -rf "$RES"                 # a warm machine keeps /tmp between calls
mkdir -p "$OUT" "$RES"
SRC=$(pwd)
export XDG_CACHE_HOME=/tmp/cache
tarball=$(ls "$SRC"/.device/apod-*.tar.gz | head -1)
cd /tmp && rm -rf apod-build && mkdir apod-build && tar xzf "$tarball" -C apod-build --strip-components=1 &&
	cd apod-build || exit 1
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; date -u;
  nvcc --version | tail -2; basename "$tarball"; } > "$RES/env.txt"
T0=$(date +%s)
( ./configure ${APOD_CONFIGURE:-} && make -j"$(nproc)" ) > "$RES/build.txt" 2>&1 || { tail -40 "$RES/build.txt"; exit 1; }
echo "built in $(( $(date +%s) - T0 )) s"

pack() { (cd "$RES" && tar czf "$OUT/res.tgz" .); }

# record NAME SECONDS COMMAND...: run COMMAND under a time limit with its
# output in $RES/NAME.txt, print the command, its status and the table's
# rows, and pack what there is so far (a later timeout loses nothing).
record() {
	local name=$1 limit=$2
	shift 2
	echo "### $* > $name.txt"
	local t=$(date +%s)
	timeout "$limit" "$@" > "$RES/$name.txt" 2>&1
	echo "rc=$? in $(( $(date +%s) - t )) s"
	grep -E "^(serial|omp|gpu[0-9]*|mpi|mgpu) |FAIL|BROKEN|of copy|GCells" "$RES/$name.txt" | head -40
	pack
}

# make_check LIMIT [LOG...]: make check within LIMIT seconds into
# $RES/check.txt, its counts and the logs of what failed (to $RES, their
# tails printed), and the named logs kept too.
make_check() {
	local limit=$1 t=$(date +%s) f
	shift
	timeout "$limit" make -j16 check > "$RES/check.txt" 2>&1
	echo "make check rc=$? in $(( $(date +%s) - t )) s"
	grep -E "^(# |FAIL|ERROR)" "$RES/check.txt" | head -20
	for f in $(grep -lE "^(FAIL|ERROR)" tests/*.log tests/*/*.log 2>/dev/null); do
		cp "$f" "$RES/"; tail -15 "$f"
	done
	for f in "$@"; do cp "$f" "$RES/" 2>/dev/null; done
	pack
}
