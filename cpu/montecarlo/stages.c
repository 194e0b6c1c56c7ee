/*
 * stages.c: the Monte Carlo ladder, "serial" first.  A build without CUDA
 * still lists the GPU stages, with the reason they cannot run.
 */
#include "apod/stock.h"
#include "montecarlo.h"

#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
#define GPU1 mc_stage_gpu1   /* gpu/montecarlo/stage_gpu.cu */
#define GPU2 mc_stage_gpu2
#else
APOD_STAGE_UNBUILT(gpu1_unbuilt, "gpu1", MC_GPU1_ABOUT, MC_GPU_PORTS, APOD_WHY_NO_CUDA);
APOD_STAGE_UNBUILT(gpu2_unbuilt, "gpu2", MC_GPU2_ABOUT, MC_GPU_PORTS, APOD_WHY_NO_CUDA);
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
