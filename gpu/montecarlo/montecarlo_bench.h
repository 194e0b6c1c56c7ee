/*
 * montecarlo_bench.h: bench --kernels for the Monte Carlo workload.
 */
#ifndef APOD_MONTECARLO_BENCH_H
#define APOD_MONTECARLO_BENCH_H

#include <json-c/json.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Paths a second of one batch through gpu1's and gpu2's kernels and
 * through what a user would write instead (cuRAND's host API, a payoff
 * kernel, CUB's reductions and histogram), CUDA events, median of reps
 * after a warm-up.  problem: a struct mc_problem.  Prints a table and adds
 * "kernels" to out. */
int montecarlo_gpu_bench(const void *problem, int reps, json_object *out);

#ifdef __cplusplus
}
#endif

#endif
