/*
 * ceilings.cu: what the device can do, measured for `apod ceilings`: the
 * measurements a user's GPU port gets from the installed
 * <apod/cuda_ceilings.cuh> (the copy kernel, the FP32 and FP64 FMA chains,
 * rsqrt on the special-function unit, an empty kernel's launch, a pinned
 * buffer both ways), written once there; apod's advice for a binary without
 * code for the GPU names its configure option.
 */
#include "apod/cuda_ceilings.cuh"
#include "device.h"
#include "gpu_ceilings.h"

extern "C" int apod_gpu_ceilings(struct apod_ceilings *c, int measure)
{
	return apod_cuda_ceilings_advised(c, measure, APOD_GPU_REBUILD);
}
