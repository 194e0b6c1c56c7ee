#!/bin/bash
# The whole project from the kernels branch's tarball: build, make check,
# the two bench --kernels commands, gates on the larger decks, check-sanitize
# for the changed stages.  Results into $OUT (8 files).
export PATH=/usr/local/cuda/bin:$PATH
T=$PWD/$(ls .device/kernels/apod-*.tar.gz)
cd /tmp && rm -rf apod-* && tar xzf "$T" && cd apod-* || exit 1
G=$OUT/gates.txt
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1; echo "tarball: $(basename $T)"; } > $G
./configure > /tmp/configure.txt 2>&1 || { cat /tmp/configure.txt > $OUT/check.txt; exit 1; }
make -j16 > /tmp/build.txt 2>&1 || { tail -60 /tmp/build.txt > $OUT/check.txt; exit 1; }
grep -A12 "^apod .* configured" /tmp/configure.txt > $OUT/check.txt
(time make -j16 check) >> $OUT/check.txt 2>&1
grep -E "^(PASS|FAIL|SKIP|ERROR|XFAIL)|^# " $OUT/check.txt | tail -12
for n in 131072 262144; do
  ./apod bench --workload=nbody --deck=data/nbody/large.deck --n=$n --kernels --json=$OUT/nbody-kernels-$n.json > $OUT/nbody-kernels-$n.txt 2>&1
done
./apod bench --deck=data/large.deck --kernels --json=$OUT/kernels-large.json > $OUT/kernels-large.txt 2>&1
export OMP_NUM_THREADS=16
gate() {  # gate NAME REF-ARGS -- GPU-ARGS
  echo "== $1"; shift
  ./apod run "$@" --stage=$REF --out=/tmp/g-ref > /dev/null 2>&1 || echo "reference run failed"
  ./apod run "$@" --stage=gpu4 --out=/tmp/g-gpu4 > /dev/null 2>&1 || echo "gpu4 run failed"
  ./apod verify /tmp/g-ref /tmp/g-gpu4 2>&1 | tail -12
  rm -rf /tmp/g-ref /tmp/g-gpu4
}
{
REF=serial gate "heat medium: serial against gpu4" --deck=data/medium.deck
REF=omp gate "heat large: omp (bit for bit with serial) against gpu4" --deck=data/large.deck
REF=serial gate "nbody medium: serial against gpu4" --workload=nbody --deck=data/nbody/medium.deck
REF=omp gate "nbody large: omp (bit for bit with serial) against gpu4" --workload=nbody --deck=data/nbody/large.deck
REF=serial gate "nbody small, disk model: serial against gpu4" --workload=nbody --deck=data/nbody/small.deck --model=disk
echo "== make check-sanitize SANITIZE_RUNS='heat:gpu4 nbody:gpu4'"
timeout 200 make check-sanitize SANITIZE_RUNS="heat:gpu4 nbody:gpu4" 2>&1 | tail -5
} >> $G 2>&1
cat $G
