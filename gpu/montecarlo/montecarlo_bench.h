/*
 * montecarlo_bench.h: bench --kernels for the Monte Carlo workload.
 */
#ifndef APOD_MONTECARLO_BENCH_H
#define APOD_MONTECARLO_BENCH_H

#include "apod/workload.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Paths a second of one batch through gpu1's and gpu2's kernels and
 * through what a user would write instead (cuRAND's host API, a payoff
 * kernel, CUB's reductions and histogram), CUDA events, median of reps
 * after a warm-up.  problem: a struct mc_problem.  A row each to the
 * sink, and the yardstick's estimate beside the closed form. */
int montecarlo_gpu_bench(const void *problem, int reps, const struct apod_bench_sink *sink);

#ifdef __cplusplus
}
#endif

#endif
