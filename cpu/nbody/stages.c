/*
 * stages.c: the n-body ladder, "serial" first.  A build without CUDA (or
 * the profiling build) still lists the GPU stages, with the reason they
 * cannot run.
 */
#include "apod/stock.h"
#include "nbody.h"

#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
#define GPU1 nbody_stage_gpu1   /* gpu/nbody/stage1.cu .. stage4.cu */
#define GPU2 nbody_stage_gpu2
#define GPU3 nbody_stage_gpu3
#define GPU4 nbody_stage_gpu4
#else
APOD_STAGE_UNBUILT(unbuilt1, "gpu1", NBODY_GPU1_ABOUT, NBODY_GPU1_PORTS, APOD_WHY_NO_CUDA);
APOD_STAGE_UNBUILT(unbuilt2, "gpu2", NBODY_GPU2_ABOUT, NBODY_GPU_PORTS, APOD_WHY_NO_CUDA);
APOD_STAGE_UNBUILT(unbuilt3, "gpu3", NBODY_GPU3_ABOUT, NBODY_GPU_PORTS, APOD_WHY_NO_CUDA);
APOD_STAGE_UNBUILT(unbuilt4, "gpu4", NBODY_GPU4_ABOUT, NBODY_GPU_PORTS, APOD_WHY_NO_CUDA);
#define GPU1 unbuilt1
#define GPU2 unbuilt2
#define GPU3 unbuilt3
#define GPU4 unbuilt4
#endif

const struct apod_stage *const nbody_stages[] = {
	&nbody_stage_serial,
	&nbody_stage_omp,
	&GPU1,
	&GPU2,
	&GPU3,
	&GPU4,
	NULL,
};
