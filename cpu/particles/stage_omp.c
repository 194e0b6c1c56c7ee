/*
 * stage_omp.c: the same loops on every core with OpenMP.
 *
 * Particles are independent, so the step is one `parallel for` and the
 * state comes out bit for bit equal to serial's (the same function, the
 * same operations, no contraction on the host).  The energy sums become a
 * reduction: each thread sums its own particles and OpenMP adds the
 * partial sums, so they differ from serial's only by the rounding of that
 * different order, in double.
 *
 * This stage is the honest yardstick for the GPU: a speedup over one core
 * says little until it is also quoted against all of them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "particles.h"
#include "shared/particles/update.h"

static void *omp_create(const struct apod_stage *stage, const void *problem)
{
	const struct particles_problem *p = problem;
	struct particles_host *s = particles_host_alloc(p, stage->name);
	if (!s)
		return NULL;
	/* First touch by the threads that will move each particle puts its
	 * pages on their own NUMA node (the same static schedule as below). */
	#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < p->n; i++)
		memcpy(s->state + i * PARTICLES_COLS, p->init + i * PARTICLES_COLS,
		       PARTICLES_COLS * sizeof(float));
	return s;
}

static int omp_step(void *ctx, int phase, long step, long steps)
{
	struct particles_host *s = ctx;
	float *state = s->state;
	size_t n = s->p->n;
	float dt = s->p->dt;
	(void)phase, (void)step, (void)steps;
	#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < n; i++)
		particles_kdk(state + i * PARTICLES_COLS, particles_spring(i), dt);
	return 0;
}

static int omp_energy(void *ctx, int k, long step, long row, void *const *rows)
{
	struct particles_host *s = ctx;
	const float *state = s->state;
	size_t n = s->p->n;
	double kinetic = 0, potential = 0;
	(void)k, (void)step, (void)row;
	#pragma omp parallel for schedule(static) reduction(+ : kinetic, potential)
	for (size_t i = 0; i < n; i++)
		particles_energy_add(state, i, &kinetic, &potential);
	particles_energy_rows(kinetic, potential, rows);
	return 0;
}

/* What the omp stage does; stages.c describes it.  APOD_OPS_OMP: it runs
 * where this file was compiled with OpenMP, on its threads. */
const struct apod_stage_ops particles_omp_ops = {
	APOD_OPS_OMP,
	.create = omp_create,
	.step = omp_step,
	.probe = omp_energy,
	.fetch = particles_host_fetch,
	.destroy = particles_host_destroy,
};
