/*
 * device.cu: is there a GPU, can this binary run on it, and is it big enough?
 */
#include <stdio.h>

#include "apod/cuda_ceilings.cuh"
#include "device.h"
#include "gpu_info.h"

/* The checks a user's own stage gets from the installed <apod/cuda.h>,
 * written once there; apod's advice for a binary without code for the GPU
 * names its configure option. */
extern "C" int apod_gpu_available(char *why, size_t len)
{
	return apod_cuda_usable(why, len, APOD_GPU_REBUILD);
}

extern "C" int apod_gpu_stage_available(const struct apod_stage *s, char *why, size_t len)
{
	(void)s;
	return apod_gpu_available(why, len);
}

extern "C" int apod_gpu_kernels_ready(const char *workload)
{
	char why[1024];   /* room for the device's name and CUDA's message whole */
	if (apod_gpu_available(why, sizeof why))
		return 0;
	apod_fail("%s's kernels need a GPU: %s", workload, why);
	return 1;
}

extern "C" int apod_gpu_require(const char *stage, size_t bytes)
{
	return apod_cuda_require(stage, bytes);
}

/* The printer a user's own program gets from <apod/cuda_ceilings.cuh>;
 * apod links the runtime statically (configure's default). */
extern "C" int apod_gpu_print_info(FILE *f)
{
	return apod_cuda_device_info_noted(f, " (linked statically)");
}
