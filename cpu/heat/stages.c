/*
 * stages.c: heat's ladder, "serial" first, every stage described once.
 *
 * The operations live in each stage's own file (stage_*.c, gpu/heat/
 * stage*.cu); a build without CUDA, MPI or NCCL (or the profiling build)
 * leaves theirs out, and the harness lists the stage as not in this build
 * with what it requires, so `apod stages` tells a user what is missing.
 *
 * Ports: a stage whose field lives on the device (or is spread over
 * processes) changes how it is set up, every step and probe, and how every
 * snapshot and the final field come back to the host.
 */
#include <stddef.h>

#include "apod/ready_made.h"
#include "cpu/built.h"
#include "heat_stage.h"

const struct apod_stage heat_stage_serial = {
	APOD_STAGE_SERIAL,
	.about = "the reference: one thread, optimised and vectorised C",
	.ops = &heat_serial_ops,
};

const struct apod_stage heat_stage_omp = {
	APOD_STAGE_OMP,
	.about = "the same phases on every core with OpenMP",
	/* omp also sets up in parallel: each thread first touches its own rows. */
	.ports = "setup,genTimeStep,calcStats,calcSummaryData",
	.ops = &heat_omp_ops,
};

/* gpu1 sets up on the device and ports the sweep; its statistics,
 * snapshots and final field are the host's, as in serial. */
const struct apod_stage heat_stage_gpu1 = {
	.name = "gpu1",
	.about = "GPU stage 1: genTimeStep on the device, field copied every step",
	.ports = "setup,genTimeStep",
	.runs_on = APOD_RUNS_DEVICE | APOD_RUNS_OVER_BUS,
	.needs = "CUDA",
	.ops = APOD_IF_CUDA(heat_gpu1_ops),
};

const struct apod_stage heat_stage_gpu2 = {
	.name = "gpu2",
	.about = "GPU stage 2: field resident on the device, statistics reduced there",
	.ports = "setup,genTimeStep,calcStats,calcSummaryData,writeSnapshot,fetchResults",
	.runs_on = APOD_RUNS_DEVICE,
	.needs = "CUDA",
	.ops = APOD_IF_CUDA(heat_gpu2_ops),
};

const struct apod_stage heat_stage_gpu3 = {
	.name = "gpu3",
	.about = "GPU stage 3: snapshots downloaded on a copy stream, overlapping steps",
	.ports = "setup,genTimeStep,calcStats,calcSummaryData,writeSnapshot,fetchResults",
	.runs_on = APOD_RUNS_DEVICE,
	.needs = "CUDA",
	.ops = APOD_IF_CUDA(heat_gpu3_ops),
};

const struct apod_stage heat_stage_gpu4 = {
	.name = "gpu4",
	.about = "GPU stage 4: tuned kernels, statistics fused into the sweep",
	.ports = "setup,genTimeStep,calcStats,calcSummaryData,writeSnapshot,fetchResults",
	.runs_on = APOD_RUNS_DEVICE,
	.needs = "CUDA",
	.ops = APOD_IF_CUDA(heat_gpu4_ops),
};

const struct apod_stage heat_stage_gpu5 = {
	.name = "gpu5",
	.about = "GPU stage 5: temporally blocked, up to 4 steps a pass with the statistics in "
	         "the tile",
	.ports = "setup,genTimeStep,calcStats,calcSummaryData,writeSnapshot,fetchResults",
	.runs_on = APOD_RUNS_DEVICE,
	.needs = "CUDA",
	.ops = APOD_IF_CUDA(heat_gpu5_ops),
};

const struct apod_stage heat_stage_mpi = {
	.name = "mpi",
	.about = "MPI ranks x OpenMP threads, rows split, halos traded (1 rank in the table: "
	         "use mpirun)",
	.ports = "setup,genTimeStep,calcStats,calcSummaryData,writeSnapshot,fetchResults",
	.runs_on = APOD_RUNS_HOST_CORES,
	.needs = "MPI",
	.ops = APOD_IF_MPI(heat_mpi_ops),
};

const struct apod_stage heat_stage_mgpu = {
	.name = "mgpu",
	.about = "one MPI rank per GPU on gpu4's fused kernels, halos by NCCL under the interior, statistics reduced on the GPUs (use mpirun)",
	.ports = "setup,genTimeStep,calcStats,calcSummaryData,writeSnapshot,fetchResults",
	.runs_on = APOD_RUNS_DEVICE,
	.needs = "CUDA, MPI and NCCL",
	.ops = APOD_IF_NCCL(heat_mgpu_ops),
};

const struct apod_stage *const heat_stages[] = {
	&heat_stage_serial, &heat_stage_omp,  &heat_stage_gpu1, &heat_stage_gpu2, &heat_stage_gpu3,
	&heat_stage_gpu4,   &heat_stage_gpu5, &heat_stage_mpi,  &heat_stage_mgpu, NULL,
};
