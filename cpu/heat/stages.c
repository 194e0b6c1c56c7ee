/*
 * stages.c: heat's ladder, "serial" first.
 *
 * A build without CUDA, MPI or NCCL (or the profiling build) still lists
 * the stages it leaves out, with the reason they cannot run, so `apod
 * stages` tells a user what they are missing.
 */
#include <stdio.h>

#include "apod/stock.h"
#include "heat_stage.h"

#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
#define GPU1 heat_stage_gpu1   /* gpu/heat/stage1.cu .. stage5.cu */
#define GPU2 heat_stage_gpu2
#define GPU3 heat_stage_gpu3
#define GPU4 heat_stage_gpu4
#define GPU5 heat_stage_gpu5
#else
APOD_STAGE_UNBUILT(unbuilt1, "gpu1", HEAT_GPU1_ABOUT, HEAT_GPU1_PORTS, APOD_WHY_NO_CUDA);
APOD_STAGE_UNBUILT(unbuilt2, "gpu2", HEAT_GPU2_ABOUT, HEAT_PORTS_DEVICE, APOD_WHY_NO_CUDA);
APOD_STAGE_UNBUILT(unbuilt3, "gpu3", HEAT_GPU3_ABOUT, HEAT_PORTS_DEVICE, APOD_WHY_NO_CUDA);
APOD_STAGE_UNBUILT(unbuilt4, "gpu4", HEAT_GPU4_ABOUT, HEAT_PORTS_DEVICE, APOD_WHY_NO_CUDA);
APOD_STAGE_UNBUILT(unbuilt5, "gpu5", HEAT_GPU5_ABOUT, HEAT_PORTS_DEVICE, APOD_WHY_NO_CUDA);
#define GPU1 unbuilt1
#define GPU2 unbuilt2
#define GPU3 unbuilt3
#define GPU4 unbuilt4
#define GPU5 unbuilt5
#endif

#define WHY_NO_MPI "built without MPI (configure found no mpicc, or --without-mpi)"
#if defined(HAVE_MPI) && !defined(APOD_NO_MPI_STAGES)
#define MPI_STAGE heat_stage_mpi     /* stage_mpi.c */
#else
APOD_STAGE_UNBUILT(unbuilt_mpi, "mpi", HEAT_MPI_ABOUT, HEAT_PORTS_DEVICE, WHY_NO_MPI);
#define MPI_STAGE unbuilt_mpi
#endif

#if !defined(HAVE_CUDA) || defined(APOD_NO_GPU_STAGES)
#define WHY_NO_MGPU APOD_WHY_NO_CUDA
#elif !defined(HAVE_MPI) || defined(APOD_NO_MPI_STAGES)
#define WHY_NO_MGPU WHY_NO_MPI
#elif !defined(HAVE_NCCL)
#define WHY_NO_MGPU \
	"built without NCCL (configure found no nccl.h and libnccl, or --without-nccl)"
#endif
#ifndef WHY_NO_MGPU
#define MGPU_STAGE heat_stage_mgpu   /* gpu/heat/stage_mgpu.cu */
#else
APOD_STAGE_UNBUILT(unbuilt_mgpu, "mgpu", HEAT_MGPU_ABOUT, HEAT_PORTS_DEVICE, WHY_NO_MGPU);
#define MGPU_STAGE unbuilt_mgpu
#endif

const struct apod_stage *const heat_stages[] = {
	&heat_stage_serial,
	&heat_stage_omp,
	&GPU1,
	&GPU2,
	&GPU3,
	&GPU4,
	&GPU5,
	&MPI_STAGE,
	&MGPU_STAGE,
	NULL,
};
