/*
 * kernels.c: `apod bench --kernels` for nbody (struct apod_workload's
 * kernels): its GPU kernels timed one by one, where CUDA was built in and
 * a GPU is there; otherwise a failure that says which is missing.
 */
#include "apod/apod.h"
#include "nbody.h"

#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
#include "device.h"
#include "nbody_bench.h"

int nbody_kernels(const void *problem, int reps, void *json)
{
	char why[256];
	if (!apod_gpu_available(why, sizeof why))
		return apod_usage_fail("bench --kernels: nbody's kernels need a GPU: %s", why);
	return nbody_gpu_bench(problem, reps, json);
}
#else
int nbody_kernels(const void *problem, int reps, void *json)
{
	(void)problem, (void)reps, (void)json;
	return apod_usage_fail("bench --kernels: nbody's kernels are CUDA, and this build has none "
	                 "(configure found no nvcc, or --without-cuda)");
}
#endif
