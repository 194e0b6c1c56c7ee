#!/bin/bash
# Session 11 (H200): does gpu5 with statistics every step gain from more warps
# at a shallower depth?  Each variant is the same tarball rebuilt with
# -DTEMPORAL_DEPTH=T -DTEMPORAL_MINB=B (blocks an SM the registers are capped
# for; ptxas here: T=4,B=4 122 registers; T=3,B=4 121; T=3,B=5 96; T=2,B=6
# 80; none spills), the default build first.  Each: gpu5 through its gate on
# the medium deck against serial, with statistics every step and every third,
# then bench --kernels on the large and medium decks.
. doc/results/prelude.sh
./apod run --stage=serial --deck=data/medium.deck --out=/tmp/s1 > /dev/null 2>&1
./apod run --stage=serial --deck=data/medium.deck --stats_every=3 --out=/tmp/s3 > /dev/null 2>&1
for v in "4 4" "3 5" "3 4" "2 6"; do
	set -- $v
	tag=T$1-B$2
	if [ "$v" != "4 4" ]; then
		touch gpu/heat/temporal.cu
		make -j"$(nproc)" NVCCFLAGS="-O3 -std=c++20 \$(CUDA_GENCODE) \$(NVCC_FMAD) -Xcompiler -Wall -DTEMPORAL_DEPTH=$1 -DTEMPORAL_MINB=$2" \
			> "$RES/build-$tag.txt" 2>&1 || { tail -20 "$RES/build-$tag.txt"; continue; }
	fi
	{
		echo "### $tag"
		rm -rf /tmp/g1 /tmp/g3
		./apod run --stage=gpu5 --deck=data/medium.deck --out=/tmp/g1 > /dev/null 2>&1
		./apod run --stage=gpu5 --deck=data/medium.deck --stats_every=3 --out=/tmp/g3 > /dev/null 2>&1
		echo "gate, every step: $(./apod verify /tmp/s1 /tmp/g1 2>&1 | tail -1)"
		echo "gate, every third: $(./apod verify /tmp/s3 /tmp/g3 2>&1 | tail -1)"
		for d in large medium; do
			./apod bench --deck=data/$d.deck --kernels --json="$RES/kernels-$d-$tag.json" 2>&1 | grep -E "gpu5|copy kernel, 16"
		done
	} > "$RES/exp13-$tag.txt" 2>&1
	cat "$RES/exp13-$tag.txt"
	pack
done
echo "elapsed $(( $(date +%s) - T0 )) s"
