/*
 * stages.c: the particles ladder, "serial" first, each stage described
 * once: its name, its line for `apod stages`, the phases it ports (by
 * name), where they run and what the build must have for it.  What each
 * stage does is its ops, in its own file (the .cu for the GPU).
 *
 * A build without CUDA (or the profiling build, APOD_NO_GPU_STAGES) has no
 * ops for the GPU stage: NULL there, and the ladder still lists the stage,
 * with what it needs, so `apod stages` tells a user what they are missing.
 * (This folder is also the porting example a user builds on its own: it
 * says so through the installed apod/built.h.)
 */
#include "apod/built.h"
#include "apod/ready_made.h"
#include "particles.h"

static const struct apod_stage serial = {
	APOD_STAGE_SERIAL,
	.about = "the reference: one thread, particles in index order",
	.ops = &particles_serial_ops,
};

static const struct apod_stage omp = {
	APOD_STAGE_OMP,
	.about = "the same loops on every core with OpenMP, energy by reduction",
	/* Its setup copies the state in on every core (first touch), so it is
	 * ported too, with the step and the probe. */
	.ports = "setup,moveParticles,calcEnergy",
	.ops = &particles_omp_ops,
};

static const struct apod_stage gpu = {
	.name = "gpu",
	.about = "state resident on the device, one thread a particle, energy reduced there",
	/* It also fetches every snapshot and the final state from the device. */
	.ports = "setup,moveParticles,calcEnergy,writeSnapshot,fetchResults",
	.runs_on = APOD_RUNS_DEVICE,
	.needs = "CUDA",
	.ops = APOD_IF_CUDA(particles_gpu_ops),
};

const struct apod_stage *const particles_stages[] = { &serial, &omp, &gpu, NULL };
