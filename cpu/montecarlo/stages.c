/*
 * stages.c: the Monte Carlo ladder, "serial" first, each stage described
 * once.  What each does is its ops, in its own file; a build without CUDA
 * has none for the GPU stages, which are still listed, with what they
 * require.
 */
#include "apod/ready_made.h"
#include "cpu/built.h"
#include "montecarlo.h"

/* What the GPU stages change: the setup and the batches on the device, and
 * the batch sums copied back in the probe and the fetch. */
#define GPU_PORTS "setup,simulateBatch,calcEstimates,fetchResults"

/* Their kernels (gpu/montecarlo/kernels.cuh), read by their create: 1 for
 * the tuned one, 2 for its branch-free path. */
static const int first_port = 0, tuned = 1, branch_free = 2;

static const struct apod_stage serial = {
	APOD_STAGE_SERIAL,
	.about = "the reference: one thread, paths in index order",
	.ops = &mc_serial_ops,
};

/* The probe is the host merge every stage shares: only the step changes. */
static const struct apod_stage omp = {
	APOD_STAGE_OMP,
	.about = "the paths on every core with OpenMP, sums by reduction",
	.ports = "simulateBatch",
	.ops = &mc_omp_ops,
};

static const struct apod_stage gpu1 = {
	.name = "gpu1",
	.about = "a path a thread, batch sums and histogram reduced on the device",
	.ports = GPU_PORTS,
	.runs_on = APOD_RUNS_DEVICE,
	.needs = "CUDA",
	.ops = APOD_IF_CUDA(mc_gpu_ops),
	.data = &first_port,
};

static const struct apod_stage gpu2 = {
	.name = "gpu2",
	.about = "several paths a thread, warp-shuffle reductions, sincospi",
	.ports = GPU_PORTS,
	.runs_on = APOD_RUNS_DEVICE,
	.needs = "CUDA",
	.ops = APOD_IF_CUDA(mc_gpu_ops),
	.data = &tuned,
};

static const struct apod_stage gpu3 = {
	.name = "gpu3",
	.about = "gpu2's numbers from branch-free log, exp and sincospi, host-made Philox keys",
	.ports = GPU_PORTS,
	.runs_on = APOD_RUNS_DEVICE,
	.needs = "CUDA",
	.ops = APOD_IF_CUDA(mc_gpu_ops),
	.data = &branch_free,
};

const struct apod_stage *const mc_stages[] = { &serial, &omp, &gpu1, &gpu2, &gpu3, NULL };
