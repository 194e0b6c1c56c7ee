#!/bin/sh
# The miniweather example on a GPU machine, after `make install` of apod:
# built for this GPU (CUDA_ARCH=-arch=native) out of the install tree, its
# gate (make check: the gpu stage verified against serial), the APOD table
# of the program's default deck and of a larger one, each stage's phases
# with their calls and device time (run), and the gpu stage's results
# against serial's (how far inside each tolerance).  One batch, no input.
#
#     PKG_CONFIG_PATH=PREFIX/lib/pkgconfig PATH=PREFIX/bin:$PATH \
#       sh PREFIX/share/doc/apod/examples/miniweather/run-gpu.sh [OUTDIR]
#
# Everything it prints is also kept under OUTDIR (default ./miniweather-gpu).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "${1:-miniweather-gpu}" && cd "${1:-miniweather-gpu}" && pwd)
build=$(mktemp -d "${TMPDIR:-/tmp}/miniweather-build-XXXXXX")
trap 'rm -rf "$build"' EXIT
cp "$here"/Makefile "$here"/*.h "$here"/*.c "$here"/*.cu "$build"/
cd "$build"
command -v nvcc >/dev/null 2>&1 || { echo "run-gpu.sh: no nvcc on PATH: the gpu stage would not be built" >&2; exit 1; }

{
	echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "host: $(uname -n) ($(nproc) cores)"
	nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | sed 's/^/gpu, driver, memory: /'
	nvcc --version | tail -n 2
	echo "apod: $(pkg-config --modversion apod)"
} | tee "$out/machine.txt"

make CUDA_ARCH=-arch=native 2>&1 | tee "$out/build.txt"
./miniweather info | tee "$out/info.txt"
./miniweather stages | tee "$out/stages.txt"
grep -q '^gpu  *available ' "$out/stages.txt" || { echo "run-gpu.sh: the gpu stage cannot run here" >&2; exit 1; }
make check 2>&1 | tee "$out/check.txt"

# The program's default deck (its CMake defaults: 100 x 50, 1000 model
# seconds, the rising thermal: 1501 steps), its README's 400 x 200 for 100
# s (600 steps), and 1000 x 500 for 20 s (301 steps, half a million cells),
# where the device has work to do.
./miniweather --json="$out/table.json" | tee "$out/table.txt"
./miniweather --nx=400 --nz=200 --sim_time=100 --json="$out/table-400.json" | tee "$out/table-400.txt"
./miniweather --nx=1000 --nz=500 --sim_time=20 --json="$out/table-1000.json" | tee "$out/table-1000.txt"

# The gpu stage's phases, their calls and device time (its events), on
# the largest deck; then the gpu stage against serial, output by output,
# on the default grid for each of the program's initial states.
./miniweather run --stage=gpu --nx=1000 --nz=500 --sim_time=20 --json="$out/run-1000-gpu.json" \
	| tee "$out/run-1000-gpu.txt"
for spec in thermal collision gravity_waves density_current injection; do
	./miniweather run --stage=serial --data_spec=$spec --stats_every=100 --out="$out/serial-$spec" > /dev/null
	./miniweather run --stage=gpu --data_spec=$spec --stats_every=100 --out="$out/gpu-$spec" \
		> "$out/run-gpu-$spec.txt"
	./miniweather verify "$out/serial-$spec" "$out/gpu-$spec" | tee "$out/verify-gpu-$spec.txt"
done
# The pipes above keep every record whatever a step's verdict; the verdicts
# are gathered here.
if grep -l -w FAIL "$out"/*.txt; then
	echo "run-gpu.sh: a FAIL in the files above; the records are in $out" >&2
	exit 1
fi
echo "run-gpu.sh: done; the records are in $out"
