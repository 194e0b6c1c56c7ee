/*
 * kernels_hook.h: a workload's `kernel_rows` member (apod/workload.h), written
 * once for the workloads of this tree: their GPU kernels timed
 * where CUDA was built in and a GPU is there; otherwise a usage failure that
 * says which is missing (1, the reason recorded), so that `bench --kernels`
 * exits 1 with the reason and a whole `bench` notes it and goes on.
 *
 *     APOD_KERNELS_HOOK(nbody_kernels, "nbody", nbody_gpu_bench)
 *
 * with the bench function's header included where HAVE_CUDA is defined.
 */
#ifndef APOD_KERNELS_HOOK_H
#define APOD_KERNELS_HOOK_H

#include "apod/apod.h"

#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
#include "gpu/device.h"
#define APOD_KERNELS_HOOK(fn, workload, bench)                                          \
	int fn(const void *problem, int reps, const struct apod_bench_sink *sink)       \
	{                                                                               \
		char why[256];                                                          \
		if (!apod_gpu_available(why, sizeof why))                               \
			return apod_fail(workload "'s kernels need a GPU: %s", why), 1;    \
		return bench(problem, reps, sink);                                      \
	}
#else
#define APOD_KERNELS_HOOK(fn, workload, bench)                                          \
	int fn(const void *problem, int reps, const struct apod_bench_sink *sink)       \
	{                                                                               \
		(void)problem, (void)reps, (void)sink;                                  \
		return apod_fail(workload "'s kernels are CUDA, and "                   \
		                 "this build has none (configure found no nvcc, or "        \
		                 "--without-cuda)"), 1;                                      \
	}
#endif

#endif
