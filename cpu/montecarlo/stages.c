/*
 * stages.c: the Monte Carlo ladder, "serial" first.  A build without CUDA
 * still lists the GPU stages, with the reason they cannot run.
 */
#include <stdio.h>

#include "montecarlo.h"

#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
#define GPU1 mc_stage_gpu1   /* gpu/montecarlo/stage_gpu.cu */
#define GPU2 mc_stage_gpu2
#else
static int no_cuda(char *why, size_t len)
{
#ifdef APOD_NO_GPU_STAGES
	snprintf(why, len, "not in this build (the profiling build has no GPU stages)");
#else
	snprintf(why, len, "built without CUDA (HAVE_CUDA unset: configure found no nvcc, or "
	                   "--without-cuda)");
#endif
	return 0;
}

static const struct apod_stage gpu1_unbuilt = {
	.name = "gpu1", .about = MC_GPU1_ABOUT, .ports = MC_GPU_PORTS, .available = no_cuda,
};
static const struct apod_stage gpu2_unbuilt = {
	.name = "gpu2", .about = MC_GPU2_ABOUT, .ports = MC_GPU_PORTS, .available = no_cuda,
};
#define GPU1 gpu1_unbuilt
#define GPU2 gpu2_unbuilt
#endif

const struct apod_stage *const mc_stages[] = {
	&mc_stage_serial,
	&mc_stage_omp,
	&GPU1,
	&GPU2,
	NULL,
};
