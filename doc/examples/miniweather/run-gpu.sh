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
# seconds, the rising thermal: 1501 steps), then its README's 400 x 200
# for 100 s (1201 steps) and a large grid, 2000 x 1000 for 10 s (301
# steps, 2 million cells), where the device has work to do.
./miniweather --json="$out/table.json" | tee "$out/table.txt"
./miniweather --nx=400 --nz=200 --sim_time=100 --json="$out/table-400.json" | tee "$out/table-400.txt"
./miniweather --nx=2000 --nz=1000 --sim_time=10 --json="$out/table-2000.json" | tee "$out/table-2000.txt"

# Each stage's phases, their calls and device time (the gpu's from its
# events), on the large deck; and the gpu stage against serial, output by
# output, on the default deck and on each initial state.
for s in serial omp gpu; do
	./miniweather run --stage=$s --nx=2000 --nz=1000 --sim_time=10 --json="$out/run-2000-$s.json" \
		> "$out/run-2000-$s.txt"
	cat "$out/run-2000-$s.txt"
done
for spec in thermal collision gravity_waves density_current injection; do
	./miniweather run --stage=serial --data_spec=$spec --stats_every=100 --out="$out/serial-$spec" > /dev/null
	./miniweather run --stage=gpu --data_spec=$spec --stats_every=100 --out="$out/gpu-$spec" \
		> "$out/run-gpu-$spec.txt"
	./miniweather verify "$out/serial-$spec" "$out/gpu-$spec" | tee "$out/verify-gpu-$spec.txt"
done
echo "run-gpu.sh: done; the records are in $out"
