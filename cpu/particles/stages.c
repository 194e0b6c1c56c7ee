/*
 * stages.c: the particles ladder, "serial" first.
 *
 * A build without CUDA (or the profiling build, APOD_NO_GPU_STAGES) still
 * lists the GPU stage, with the reason it cannot run, so `apod stages`
 * tells a user what they are missing (APOD_STAGE_UNBUILT, apod/stock.h).
 */
#include "apod/stock.h"
#include "particles.h"

#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
#define GPU_STAGE particles_stage_gpu   /* gpu/particles/stage_gpu.cu */
#else
APOD_STAGE_UNBUILT(particles_stage_gpu_unbuilt, "gpu", PARTICLES_GPU_ABOUT, PARTICLES_GPU_PORTS,
                   APOD_WHY_NO_CUDA);
#define GPU_STAGE particles_stage_gpu_unbuilt
#endif

const struct apod_stage *const particles_stages[] = {
	&particles_stage_serial,
	&particles_stage_omp,
	&GPU_STAGE,
	NULL,
};
