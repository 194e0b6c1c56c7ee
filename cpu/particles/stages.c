/*
 * stages.c: the particles ladder, "serial" first.
 *
 * A build without CUDA (or the profiling build, APOD_NO_GPU_STAGES) still
 * lists the GPU stage, with the reason it cannot run, so `apod stages`
 * tells a user what they are missing.  A stage that is never available
 * needs only its name, its line, its ports and available().
 */
#include <stdio.h>

#include "particles.h"

#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
#define GPU_STAGE particles_stage_gpu   /* gpu/particles/stage_gpu.cu */
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

static const struct apod_stage particles_stage_gpu_unbuilt = {
	.name = "gpu",
	.about = PARTICLES_GPU_ABOUT,
	.ports = PARTICLES_GPU_PORTS,
	.available = no_cuda,
};
#define GPU_STAGE particles_stage_gpu_unbuilt
#endif

const struct apod_stage *const particles_stages[] = {
	&particles_stage_serial,
	&particles_stage_omp,
	&GPU_STAGE,
	NULL,
};
