#!/bin/sh
# `apod new`: the skeleton it writes, with and without --gpu, built the way
# a user builds it (pkg-config against an install, staged from this build
# tree by tests/userbuild.sh) and run through its own `make check`.  The
# --gpu skeleton is built with nvcc where configure found one; its GPU
# stage runs only where a GPU is (its `make check` says so otherwise).
# Without nvcc or a GPU it passes on its CPU checks and says what it skipped.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/userbuild.sh"
cd "$work" || exit 1
# The skeletons' makes are the user's own, not part of this one's jobserver.
unset MAKEFLAGS MFLAGS MAKELEVEL

# Bad requests: a usage error, exit 2, and nothing written.
expect 2 "unknown option '--gpus' (the options are --gpu and --mpi)" "$APOD" new --gpus cpuonly
expect 2 "unknown option '-g'" "$APOD" new cpuonly -g
expect 2 "expected a NAME" "$APOD" new --gpu
expect 2 "expected one NAME, got 'a' and 'b'" "$APOD" new a b
expect 2 "must start with a letter" "$APOD" new --gpu 9lives
[ ! -e cpuonly ] && [ ! -e a ] || { echo "FAIL: a refused request wrote files"; fails=$((fails + 1)); }

expect 0 "wrote 5 files into cpuonly/" "$APOD" new cpuonly
expect 0 "wrote 6 files into withgpu/" "$APOD" new withgpu --gpu
expect 0 "wrote 6 files into gpufirst/" "$APOD" new --gpu gpufirst
expect 2 "'withgpu' already exists" "$APOD" new withgpu --gpu
for f in Makefile README.md main.c workload.c withgpu.h stage_gpu.cu; do
	[ -f "withgpu/$f" ] || { echo "FAIL: --gpu wrote no $f"; fails=$((fails + 1)); }
done
[ ! -e cpuonly/stage_gpu.cu ] || { echo "FAIL: without --gpu, stage_gpu.cu was written"; fails=$((fails + 1)); }
[ ! -e cpuonly/stage_mpi.c ] && [ ! -e withgpu/stage_mpi.c ] \
	|| { echo "FAIL: without --mpi, stage_mpi.c was written"; fails=$((fails + 1)); }
if grep -qi "mpirun\|stage_mpi\|ranks" cpuonly/Makefile || grep -q "mpi_stage\\|stage_mpi\\|MPI" cpuonly/workload.c withgpu/workload.c; then
	echo "FAIL: a skeleton without --mpi mentions the mpi stage"; fails=$((fails + 1)); fi
# Every mark is filled in or dropped; the GPU lines only with --gpu.
if [ "${APOD_HAVE_MPI:-no}" = yes ]; then
	expect 0 "wrote 6 files into withmpi/ (with an MPI stage" "$APOD" new withmpi --mpi
	expect 0 "wrote 7 files into both/" "$APOD" new --mpi both --gpu
	grep -q "&withmpi_stage_mpi" withmpi/workload.c && grep -q "^SOURCES += stage_mpi.c" withmpi/Makefile \
		&& grep -q "withmpi_stage_mpi = {" withmpi/stage_mpi.c && [ -f both/stage_mpi.c ] && [ -f both/stage_gpu.cu ] \
		&& echo "ok: --mpi put the stage in the ladder and its source in the Makefile" \
		|| { echo "FAIL: the --mpi skeleton lacks its stage or its source"; fails=$((fails + 1)); }
else
	expect 2 "--mpi: this apod was built without MPI" "$APOD" new withmpi --mpi
	[ ! -e withmpi ] || { echo "FAIL: a refused --mpi wrote files"; fails=$((fails + 1)); }
fi
if grep -rn "@NAME@\|^@GPU@\|^@MPI@" cpuonly withgpu $(ls -d withmpi both 2>/dev/null); then echo "FAIL: a template mark was left"; fails=$((fails + 1)); fi
if grep -qi "nvcc\|cuda\|stage_gpu" cpuonly/Makefile cpuonly/workload.c; then
	echo "FAIL: the CPU-only skeleton mentions the GPU stage"; fails=$((fails + 1)); fi
grep -q "&withgpu_stage_gpu" withgpu/workload.c && grep -q "^CUDA_SOURCES = stage_gpu.cu" withgpu/Makefile \
	&& grep -q "withgpu_stage_gpu = {" withgpu/stage_gpu.cu && grep -q "apod_cuda_available" withgpu/stage_gpu.cu \
	&& echo "ok: --gpu put the stage in the ladder and its source in the Makefile" \
	|| { echo "FAIL: the --gpu skeleton lacks its stage or its source"; fails=$((fails + 1)); }
cmp -s withgpu/stage_gpu.cu "$top_srcdir/data/template/gpu/stage_gpu.cu" \
	&& { echo "FAIL: stage_gpu.cu was not filled in"; fails=$((fails + 1)); }

port_install "the skeletons were"

# The CPU-only skeleton: pkg-config alone, no toolkit (PATH without nvcc).
( cd cpuonly && PATH=/usr/bin:/bin make && PATH=/usr/bin:/bin make check ) > "$work/cpu.log" 2>&1 \
	&& echo "ok: the CPU-only skeleton builds with pkg-config alone and passes its gate" \
	|| { echo "FAIL: the CPU-only skeleton"; sed 's/^/  | /' "$work/cpu.log"; fails=$((fails + 1)); }
# report.json names the user's program, not apod.
grep -Eq '"program": *"cpuonly"' cpuonly/check-serial/report.json \
	&& echo "ok: report.json names the program, cpuonly" \
	|| { echo "FAIL: report.json does not name cpuonly"; grep -o '"program"[^,]*' cpuonly/check-serial/report.json; fails=$((fails + 1)); }
# Built by hand with the README's line: it links and runs as it is; without
# -fopenmp the omp stage says how to build it, not that the compiler lacks it.
# shellcheck disable=SC2046
( cd cpuonly && cc -o byhand main.c workload.c $(pkg-config --cflags --libs apod) ) > "$work/byhand.log" 2>&1 \
	|| { echo "FAIL: the README's hand-built line"; sed 's/^/  | /' "$work/byhand.log"; fails=$((fails + 1)); }
expect 0 "built without OpenMP flags: compile and link with -fopenmp" ./cpuonly/byhand stages

# Its report page (where gnuplot is): no device box for a program with no
# GPU hooks, and its command names the program.
if command -v gnuplot >/dev/null 2>&1; then
	expect 0 "report: " ./cpuonly/cpuonly report --n=1000 --steps=3 --out="$work/sk.html"
	grep -q "<dt>device</dt>" "$work/sk.html" && { echo "FAIL: a CPU-only skeleton's page has a device box"; fails=$((fails + 1)); }
	grep -q "<dt>this page</dt><dd><code>cpuonly report " "$work/sk.html" \
		|| { echo "FAIL: the skeleton's page does not show its command"; fails=$((fails + 1)); }
fi
# Its assess before its profiling build: what to build, not apod's own
# profiling build's "unknown workload".
expect 1 "make cpuonly-pg" env -u APOD_PG ./cpuonly/cpuonly assess --n=1000 --steps=3 --out="$work/assess"
grep -q "unknown workload" "$work/out" && { echo "FAIL: assess ran apod's profiling build"; fails=$((fails + 1)); }

# The --mpi skeleton: its make check runs the mpi stage at 1, 2 and 3 ranks
# and verifies each against serial (a timeout: a hang fails, not waits).
if [ "${APOD_HAVE_MPI:-no}" = yes ] && command -v "${APOD_MPIRUN:-mpirun}" >/dev/null 2>&1; then
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
	( cd withmpi && PATH=/usr/bin:/bin make && PATH=/usr/bin:/bin timeout 300 make check \
		MPIRUN="${APOD_MPIRUN:-mpirun}" MPIRUN_FLAGS="--oversubscribe --mca btl self,vader" ) \
		> "$work/mpi.log" 2>&1 \
		&& echo "ok: the --mpi skeleton builds with pkg-config alone and passes its gate" \
		|| { echo "FAIL: the --mpi skeleton"; sed 's/^/  | /' "$work/mpi.log"; fails=$((fails + 1)); }
	for np in 1 2 3; do
		grep -q -- "-np $np .* run --stage=mpi" "$work/mpi.log" && [ -f "withmpi/check-mpi$np/report.json" ] \
			&& echo "ok: the --mpi skeleton's gate ran the mpi stage at $np ranks" \
			|| { echo "FAIL: the --mpi skeleton's gate did not run $np ranks"; fails=$((fails + 1)); }
		expect 0 "PASS" ./withmpi/withmpi verify withmpi/check-serial "withmpi/check-mpi$np"
	done
	# A user's program, too, refuses ranks given different command lines.
	refused "rank 1's argument 2 is '--stage=serial', rank 0's is '--stage=mpi'" \
		timeout 120 "${APOD_MPIRUN:-mpirun}" --oversubscribe --mca btl self,vader \
		-np 1 ./withmpi/withmpi run --stage=mpi --n=100 : -np 1 ./withmpi/withmpi run --stage=serial --n=100
else
	echo "no MPI or no mpirun here: the --mpi skeleton was not built"
fi

# The CPU checks above are this test's pass; the GPU part is said skipped.
if [ -z "$user_nvcc" ]; then
	echo "skipped: built without CUDA (configure found no nvcc): the --gpu skeleton was not built"
	finish
fi
# Without nvcc, the --gpu skeleton says what to do.
expect 2 "no nvcc 'nvcc-missing'" make -C withgpu NVCC=nvcc-missing
# shellcheck disable=SC2086
( cd withgpu && make NVCC="$user_nvcc" CUDA_ARCH="$user_gencode" && make check ) > "$work/gpu.log" 2>&1 \
	&& echo "ok: the --gpu skeleton builds with nvcc and pkg-config and passes its gate" \
	|| { echo "FAIL: the --gpu skeleton"; sed 's/^/  | /' "$work/gpu.log"; fails=$((fails + 1)); }
grep -i "warning" "$work/gpu.log" | grep -v "^make" && { echo "FAIL: the --gpu skeleton builds with warnings"; fails=$((fails + 1)); }
# The program's GPU hooks (main.c, from stage_gpu.cu): info describes CUDA
# and the devices, with a GPU or without, not "none in this build".  The
# ceilings' cache file goes to the test's own folder.
XDG_CACHE_HOME=$work/cache
export XDG_CACHE_HOME
expect 0 "CUDA: runtime" ./withgpu/withgpu info
grep -q "devices: none in this build" "$work/out" \
	&& { echo "FAIL: the --gpu skeleton's info says there are no devices in this build"; fails=$((fails + 1)); }
if grep -q "the gpu stage was not run" "$work/gpu.log"; then
	./withgpu/withgpu stages | sed 's/^/  | /'
	echo "skipped: no usable GPU here: the skeleton's gpu stage was not run"
	finish
fi
# A GPU: the skeleton's make check ran the stage to disk (its recipe echoes
# the run, not the verify that follows it silently) and verified it against
# serial; verify it here too, so that the pass is this test's own.
if grep -q "run --stage=gpu" "$work/gpu.log" && [ -f withgpu/check-gpu/report.json ]; then
	expect 0 "PASS" ./withgpu/withgpu verify withgpu/check-serial withgpu/check-gpu
else
	echo "FAIL: the gpu stage was neither run nor skipped"; sed 's/^/  | /' "$work/gpu.log"
	fails=$((fails + 1))
fi
# Its hooks on a GPU: info names the device, ceilings measures it, and the
# table then holds the gpu row against the device's speed of light.
expect 0 "device 0: " ./withgpu/withgpu info
expect 0 "ceilings of" ./withgpu/withgpu ceilings
grep -Eq "^device +- +[0-9]" "$work/out" \
	&& echo "ok: the skeleton's ceilings measured the device" \
	|| { echo "FAIL: the skeleton's ceilings did not measure the device"; fails=$((fails + 1)); }
expect 0 "SoL bound" ./withgpu/withgpu --n=20000 --steps=30
grep -Eq "^gpu .*[0-9.]+x +[0-9.]+%" "$work/out" \
	&& echo "ok: the skeleton's gpu row has a speed of light and the share of it reached" \
	|| { echo "FAIL: the skeleton's gpu row has no speed of light"; fails=$((fails + 1)); }
finish
