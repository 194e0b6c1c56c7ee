#!/bin/sh
# The srad example on a GPU machine, after `make install` of apod: built
# for this GPU (CUDA_ARCH=-arch=native) out of the install tree, its gate
# (make check, the gpu stage verified against serial), the APOD table of
# Rodinia's deck and of a larger one (--json), the gpu stage's results
# compared with serial's (how far inside the tolerance), and its scaling.
#
#     PKG_CONFIG_PATH=PREFIX/lib/pkgconfig PATH=PREFIX/bin:$PATH \
#       sh PREFIX/share/doc/apod/examples/srad/run-h200.sh [OUTDIR]
#
# Everything it prints is also kept under OUTDIR (default ./srad-h200).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "${1:-srad-h200}" && cd "${1:-srad-h200}" && pwd)
build=$(mktemp -d "${TMPDIR:-/tmp}/srad-build-XXXXXX")
trap 'rm -rf "$build"' EXIT
cp "$here"/Makefile "$here"/*.h "$here"/*.c "$here"/*.cu "$build"/
cd "$build"
command -v nvcc >/dev/null 2>&1 || { echo "run-h200.sh: no nvcc on PATH: the gpu stage would not be built" >&2; exit 1; }

make CUDA_ARCH=-arch=native 2>&1 | tee "$out/build.txt"
./srad info | tee "$out/info.txt"
./srad stages | tee "$out/stages.txt"
grep -q '^gpu  *available ' "$out/stages.txt" || { echo "run-h200.sh: the gpu stage cannot run here" >&2; exit 1; }
make check 2>&1 | tee "$out/check.txt"

# The example's deck (Rodinia's 2048 x 2048, ROI 0..127 x 0..127, lambda
# 0.5, its program's default of 10 iterations), then the deck of Rodinia's
# run script (openmp/srad/srad_v2/run: ./srad 20480 20480 0 127 0 127 1 0.5
# 2): 400 M pixels, 10 GB on the device, 13 GB on the host.
./srad --json="$out/table.json" | tee "$out/table.txt"
./srad --rows=20480 --cols=20480 --steps=2 --json="$out/table-20480.json" | tee "$out/table-20480.txt"

# How close the gpu stage comes to serial, output by output.
./srad run --stage=serial --out="$out/serial" > "$out/run-serial.txt"
./srad run --stage=gpu --out="$out/gpu" --json="$out/run-gpu.json" > "$out/run-gpu.txt"
./srad verify "$out/serial" "$out/gpu" | tee "$out/verify-gpu.txt"
rm -f "$out/serial/image.npy" "$out/gpu/image.npy"   # 16 MB each: the verdict is kept

./srad scale --json="$out/scale.json" | tee "$out/scale.txt"
echo "run-h200.sh: done; the records are in $out"
