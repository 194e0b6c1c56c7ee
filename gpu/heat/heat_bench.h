/*
 * heat_bench.h: `apod bench` for heat: the kernels of its GPU stages timed
 * on their own (gpu/heat/bench.cu).
 */
#ifndef APOD_HEAT_BENCH_H
#define APOD_HEAT_BENCH_H

#include "apod/workload.h"
#include "cpu/heat/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Kernel-level measurements on the problem's grid (CUDA events, median of
 * reps after a warm-up): copy ceilings, each stage's stencil and
 * statistics kernels as effective bandwidth, CUB's DeviceReduce beside the
 * statistics, a row each to the sink. */
int heat_gpu_bench(const struct heat_problem *p, int reps, const struct apod_bench_sink *sink);

#ifdef __cplusplus
}
#endif

#endif
