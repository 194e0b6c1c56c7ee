/*
 * kernels_hook.h: a workload's `kernel_rows` member (apod/workload.h) in a
 * build without its GPU stages (no CUDA, or the profiling build): a
 * failure that says what is missing (1, the reason recorded), so that
 * `bench --kernels` exits 1 with the reason and a whole `bench` notes it
 * and goes on.  Where the GPU stages are built, the member is defined by
 * the workload's gpu/NAME/bench.cu, which times the kernels, and this
 * defines nothing.
 *
 *     APOD_KERNELS_HOOK(nbody_kernels, "nbody")
 */
#ifndef APOD_KERNELS_HOOK_H
#define APOD_KERNELS_HOOK_H

#include "apod/apod.h"

#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
#define APOD_KERNELS_HOOK(fn, workload)
#else
#define APOD_KERNELS_HOOK(fn, workload)                                                 \
	int fn(const void *problem, int reps, const struct apod_bench_sink *sink)       \
	{                                                                               \
		(void)problem, (void)reps, (void)sink;                                  \
		return apod_fail(workload "'s kernels are CUDA, and "                   \
		                 "this build has none (configure found no nvcc, or "        \
		                 "--without-cuda)"), 1;                                      \
	}
#endif

#endif
