/*
 * nbody_bench.h: bench --kernels for the n-body workload.
 */
#ifndef APOD_GPU_NBODY_BENCH_H
#define APOD_GPU_NBODY_BENCH_H

#include "apod/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each GPU force kernel (gpu1-2's simple, gpu3's tiled, gpu4's tuned) on
 * the problem's bodies, CUDA events, median of reps after a warm-up:
 * interactions/s, GFLOP/s at 20 flops an interaction, and the fraction of
 * the FP32 FMA peak measured in the same run, a row each to the sink
 * (with "fma_peak_gflops" among its figures). */
int nbody_gpu_bench(const void *problem, int reps, const struct apod_bench_sink *sink);

#ifdef __cplusplus
}
#endif

#endif
