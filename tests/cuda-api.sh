#!/bin/sh
# <apod/cuda.h> from a user's side: a tiny GPU stage of its own
# (tests/cuda_user_stage.cu), compiled by nvcc against the installed headers
# and linked with libapod through pkg-config.  Without a GPU its `available`
# must say why and the GPU part is skipped (the test passes on the checks
# that ran; without nvcc it skips whole); with one, the stage runs and the gate
# compares it with serial, bit for bit (the workload is exact).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/userbuild.sh"
install_or_skip

# apod's flags must not put its own cuda.h where <cuda.h> is looked for: a
# user's #include <cuda.h> (the driver API) reaches the toolkit's.  Here a
# stand-in toolkit folder, searched after apod's flags, as nvcc's would be.
mkdir -p "$work/toolkit"
printf '#define TOOLKIT_CUDA_H 1\n' > "$work/toolkit/cuda.h"
printf '#include <cuda.h>\n#ifndef TOOLKIT_CUDA_H\n#error "<cuda.h> was not the toolkit one"\n#endif\nint driver_side;\n' > "$work/driver.c"
# shellcheck disable=SC2046
if cc $(pkg-config --cflags apod) -I"$work/toolkit" -c -o "$work/driver.o" "$work/driver.c" > "$work/out" 2>&1; then
	echo "ok: #include <cuda.h> with apod's flags reaches the toolkit's, not apod's"
else
	echo "FAIL: with apod's flags, #include <cuda.h> did not reach the toolkit's"; sed 's/^/  | /' "$work/out"
	fails=$((fails + 1))
fi

[ "$fails" -eq 0 ] || finish
[ "${APOD_SANITIZE:-no}" = no ] || { echo "SKIP: a sanitizer build's libapod needs its runtime first"; exit 77; }
[ -n "$user_nvcc" ] || { echo "SKIP: built without CUDA (configure found no nvcc)"; exit 77; }

prog=$work/user_stage
# -Werror: the header must compile cleanly in a user's file (C++20 designated
# initializers leave members out, which -Wextra would flag).
# shellcheck disable=SC2046,SC2086
"$user_nvcc" -std=c++20 $user_gencode -Xcompiler -Wall,-Wextra,-Wno-missing-field-initializers,-Werror \
	$(pkg-config --cflags apod) -o "$prog" "$top_srcdir/tests/cuda_user_stage.cu" \
	$(pkg-config --libs apod) > "$work/build" 2>&1 \
	|| { echo "FAIL: nvcc could not build the user's stage"; cat "$work/build"; exit 1; }
echo "ok: a user's stage compiled with nvcc against <apod/cuda.h>, linked through pkg-config"

# The toolkit's driver API and apod's header in one file: <cuda.h> is CUDA's.
cat > "$work/both.cu" <<'EOF'
#include <cuda.h>
#include <apod/cuda.h>

CUresult user_driver_call(CUdevice *dev)
{
	return cuDeviceGet(dev, 0);
}

int user_runtime_check(void)
{
	APOD_CUDA_TRY(cudaDeviceSynchronize());
	return 0;
}
EOF
# shellcheck disable=SC2046,SC2086
if "$user_nvcc" -std=c++20 $user_gencode -Xcompiler -Wall,-Wextra,-Werror \
	$(pkg-config --cflags apod) -c -o "$work/both.o" "$work/both.cu" > "$work/out" 2>&1; then
	echo "ok: one .cu file includes the toolkit's <cuda.h> and <apod/cuda.h>"
else
	echo "FAIL: nvcc could not compile <cuda.h> beside <apod/cuda.h>"; sed 's/^/  | /' "$work/out"
	fails=$((fails + 1))
fi

# The header is for nvcc only: a C compiler gets a clear error, not CUDA's.
printf '#include <apod/cuda.h>\n' > "$work/plain.c"
# shellcheck disable=SC2046
expect 1 "apod/cuda.h is for .cu files compiled by nvcc" \
	cc $(pkg-config --cflags apod) -c -o "$work/plain.o" "$work/plain.c"

"$prog" cudacheck > "$work/check" 2>&1 || { echo "FAIL: cudacheck"; cat "$work/check"; exit 1; }
sed 's/^/  | /' "$work/check"
# Each failure names the call, where it was made and CUDA's error.
grep -q "^try: -1: cudaSetDevice(-1) failed at .*cuda_user_stage.cu:[0-9]*: cudaError[A-Za-z]*: ." "$work/check" \
	&& echo "ok: APOD_CUDA_TRY names the call, its file and line, and CUDA's error" \
	|| { echo "FAIL: APOD_CUDA_TRY's message"; fails=$((fails + 1)); }
grep -q "^launch: -1: .*empty_kernel.* failed at .*cuda_user_stage.cu:[0-9]*: cudaError[A-Za-z]*: ." "$work/check" \
	&& echo "ok: APOD_LAUNCH_TRY names the launch, its file and line, and CUDA's error" \
	|| { echo "FAIL: APOD_LAUNCH_TRY's message"; fails=$((fails + 1)); }

# The program's GPU hooks, from <apod/cuda_ceilings.cuh>: `info` describes
# CUDA and the devices (not "none in this build"), and `ceilings` names the
# device and measures it, or says why it cannot.  The cache file goes to
# the test's own folder.
XDG_CACHE_HOME=$work/cache
export XDG_CACHE_HOME
expect 0 "CUDA: runtime" "$prog" info
grep -q "devices: none in this build" "$work/out" \
	&& { echo "FAIL: info says there are no devices in this build"; fails=$((fails + 1)); }
# A machine too busy to measure its host gets its figures shown and refused
# (exit 1, doc/assess.md): the device's row is still there to check.
"$prog" ceilings > "$work/ceilings" 2>&1 ||
	{ [ $? = 1 ] && grep -q "contradict each other twice" "$work/ceilings"; } ||
	{ echo "FAIL: ceilings exited non-zero"; cat "$work/ceilings"; exit 1; }
grep -q "built without GPU support" "$work/ceilings" \
	&& { echo "FAIL: ceilings says the program has no GPU support"; fails=$((fails + 1)); }

if grep -q "^available: 0: " "$work/check"; then
	# Without a GPU the hooks say why, in the ceilings' device row too.
	grep -Eq "^device +not measured: .*(driver|device)" "$work/ceilings" \
		&& echo "ok: ceilings says why the device was not measured" \
		|| { echo "FAIL: ceilings gave no reason for the device"; sed 's/^/  | /' "$work/ceilings"; fails=$((fails + 1)); }
	# No GPU: the reason must name what is missing, and the stage is not run.
	grep -Eq "^available: 0: .*(driver|device)" "$work/check" \
		&& echo "ok: available says why there is no GPU" \
		|| { echo "FAIL: available gave no reason naming the driver or the device"; fails=$((fails + 1)); }
	# The table shows the stage with that reason instead of running it.
	why=$(sed -n 's/^available: 0: //p' "$work/check" | cut -c1-40)
	expect 0 "$why" "$prog" --n=1000 --steps=3
	expect 0 "serial" "$prog" run --stage=serial --n=1000 --steps=3 --out="$work/serial"
	echo "skipped: no usable GPU here, so the user's stage was not run (the checks above passed)"
	finish
fi

echo "a GPU is here: running the user's stage"
grep -q "^available: 1$" "$work/check" || { echo "FAIL: available printed neither 0 nor 1"; exit 1; }
# The hooks on a GPU: info names it, ceilings measured it and PCIe both ways.
expect 0 "device 0: " "$prog" info
grep -q "this binary: runs here as sm_" "$work/out" \
	&& echo "ok: info says the user's file carries code for the device" \
	|| { echo "FAIL: info does not say the user's file runs on the device"; fails=$((fails + 1)); }
for r in device pcie_h2d pcie_d2h; do
	grep -Eq "^$r +- +[0-9]" "$work/ceilings" \
		&& echo "ok: ceilings measured $r" \
		|| { echo "FAIL: ceilings did not measure $r"; sed 's/^/  | /' "$work/ceilings"; fails=$((fails + 1)); }
done
expect 0 "" "$prog" run --stage=serial --n=100000 --steps=10 --out="$work/serial"
expect 0 "" "$prog" run --stage=gpu --n=100000 --steps=10 --out="$work/gpu"
expect 0 "" "$prog" verify "$work/serial" "$work/gpu"
# The step captured once as a CUDA graph and replayed (apod_cuda_graph_run):
# bit for bit serial's, and its fetch fails unless the capture ran once.
expect 0 "" "$prog" run --stage=graph --n=100000 --steps=10 --out="$work/graph"
expect 0 "" "$prog" verify "$work/serial" "$work/graph"
expect 0 "gpu" "$prog" --n=100000 --steps=10
# Too big for any device: a usage error naming the stage and both sizes.
expect 2 "mystage: the problem needs 1152921504606846976 bytes of device memory, but only" \
	"$prog" require 1152921504606846976
expect 0 "require: 1024 bytes fit" "$prog" require 1024
finish
