/*
 * stages.c: the n-body ladder, "serial" first, each stage described once.
 * What each does is its ops, in its own file; a build without CUDA (or the
 * profiling build) has none for the GPU stages, which are still listed,
 * with what they require.
 */
#include "apod/ready_made.h"
#include "cpu/built.h"
#include "nbody.h"

/* What the resident stages change: everything but the report, the state
 * never leaving the device but for a snapshot or the end. */
#define RESIDENT_PORTS "setup,computeForces,calcStats,calcEnergy,writeSnapshot,fetchResults"

/* Their force kernels (gpu/nbody/forces.cuh), read by their create. */
static const enum nbody_variant simple = NBODY_SIMPLE, tiled = NBODY_TILED, tuned = NBODY_TUNED;

static const struct apod_stage serial = {
	APOD_STAGE_SERIAL,
	.about = "the reference: one thread, forces vectorised over bodies, sums in index order",
	.ops = &nbody_serial_ops,
};

static const struct apod_stage omp = {
	APOD_STAGE_OMP,
	.about = "the same engine on every core with OpenMP, parallel over bodies",
	/* Its setup touches the state first on every core, so it is ported too. */
	.ports = "setup,computeForces,calcStats,calcEnergy",
	.ops = &nbody_omp_ops,
};

/* The first port: only the forces on the device, the state on the host. */
static const struct apod_stage gpu1 = {
	.name = "gpu1",
	.about = "forces on the device: positions up and accelerations down every step",
	/* The setup's first forces are on the device too; the probes and the
	 * fetch are serial's, on the host's arrays. */
	.ports = "setup,computeForces",
	.runs_on = APOD_RUNS_DEVICE | APOD_RUNS_OVER_BUS,
	.needs = "CUDA",
	.ops = APOD_IF_CUDA(nbody_gpu1_ops),
};

/* One thread a body reading every body j from global memory: bit for bit
 * with serial under --disable-fmad (the same interaction, j in order). */
static const struct apod_stage gpu2 = {
	.name = "gpu2",
	.about = "all state resident, one thread a body, statistics reduced there",
	.ports = RESIDENT_PORTS,
	.runs_on = APOD_RUNS_DEVICE,
	.needs = "CUDA",
	.ops = APOD_IF_CUDA(nbody_resident_ops),
	.data = &simple,
};

/* gpu2 with each block staging a tile of bodies in shared memory.  Still j
 * in order, one accumulator: bit for bit with serial under --disable-fmad. */
static const struct apod_stage gpu3 = {
	.name = "gpu3",
	.about = "shared-memory tiles of bodies (the classic tiled all-pairs kernel)",
	.ports = RESIDENT_PORTS,
	.runs_on = APOD_RUNS_DEVICE,
	.needs = "CUDA",
	.ops = APOD_IF_CUDA(nbody_resident_ops),
	.data = &tiled,
};

/* forces_split (forces.cuh): never bit for bit (the rsqrt is 2 ulp, the sum
 * is in slices), held to the designed tolerances alone. */
static const struct apod_stage gpu4 = {
	.name = "gpu4",
	.about = "tuned: float4 tiles split over thread slices, bodies a thread, PTX rsqrt, unit "
	         "pulls x m, fused last kick",
	.ports = RESIDENT_PORTS,
	.runs_on = APOD_RUNS_DEVICE,
	.needs = "CUDA",
	.ops = APOD_IF_CUDA(nbody_resident_ops),
	.data = &tuned,
};

/* gpu4's kernel on several GPUs, one MPI rank each: every rank holds all the
 * positions and integrates its share of the bodies, the positions gathered
 * with NCCL every step, the probes' partial sums reduced with NCCL. */
static const struct apod_stage mgpu = {
	.name = "mgpu",
	.about = "gpu4's kernel across GPUs: one MPI rank a GPU, each its share of the bodies, "
	         "positions all-gathered with NCCL every step (use mpirun)",
	.ports = RESIDENT_PORTS,
	.runs_on = APOD_RUNS_DEVICE,
	.needs = "CUDA, MPI and NCCL",
	.ops = APOD_IF_NCCL(nbody_mgpu_ops),
};

const struct apod_stage *const nbody_stages[] = { &serial, &omp, &gpu1, &gpu2, &gpu3, &gpu4, &mgpu, NULL };
