/*
 * stage_serial.c: the reference.  One thread, particles in index order,
 * energies summed in that order: the results every other stage is checked
 * against.  This is the shape of the serial loop a user starts from:
 *
 *     for (step = 1; step <= steps; step++) {
 *         for (i = 0; i < n; i++) move particle i;          moveParticles
 *         if (step % energy_every == 0) sum the energies;   calcEnergy
 *     }
 *
 * with the loop itself, the timers and the output files left to the harness.
 */
#include <stdlib.h>
#include <string.h>

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "particles.h"
#include "shared/particles/update.h"

struct particles_host *particles_host_alloc(const struct particles_problem *p, const char *stage)
{
	size_t bytes = p->n * PARTICLES_COLS * sizeof(float);
	struct particles_host *s = calloc(1, sizeof *s);
	if (!s || !(s->state = malloc(bytes))) {
		particles_host_destroy(s);
		apod_fail("%s: cannot allocate the state of %zu particles (%zu bytes)", stage, p->n, bytes);
		return NULL;
	}
	s->p = p;
	return s;
}

void particles_host_destroy(void *ctx)
{
	struct particles_host *s = ctx;
	if (s)
		free(s->state);
	free(s);
}

int particles_host_fetch(void *ctx, int a, void *dst)
{
	struct particles_host *s = ctx;
	(void)a;   /* the one array, the state */
	memcpy(dst, s->state, s->p->n * PARTICLES_COLS * sizeof(float));
	return 0;
}

void particles_energy_rows(double kinetic, double potential, void *const *rows)
{
	double *energy = rows[PARTICLES_SERIES_ENERGY], *drift = rows[PARTICLES_SERIES_DRIFT];
	if (energy) {
		energy[0] = kinetic;
		energy[1] = potential;
		energy[2] = kinetic + potential;
	}
	if (drift)
		drift[0] = kinetic + potential;
}

static void *serial_create(const struct apod_stage *stage, const void *problem)
{
	const struct particles_problem *p = problem;
	struct particles_host *s = particles_host_alloc(p, stage->name);
	if (s)
		memcpy(s->state, p->init, p->n * PARTICLES_COLS * sizeof(float));
	return s;
}

static int moveParticles(void *ctx, int phase, long step, long steps)
{
	struct particles_host *s = ctx;
	(void)phase, (void)step, (void)steps;   /* the workload's one phase, the same every step */
	for (size_t i = 0; i < s->p->n; i++)
		particles_kdk(s->state + i * PARTICLES_COLS, particles_spring(i), s->p->dt);
	return 0;
}

/* calcEnergy: kinetic, potential and total, summed in index order. */
static int calcEnergy(void *ctx, int k, long step, long row, void *const *rows)
{
	struct particles_host *s = ctx;
	double kinetic = 0, potential = 0;
	(void)k;   /* the workload's one probe */
	(void)step, (void)row;
	for (size_t i = 0; i < s->p->n; i++)
		particles_energy_add(s->state, i, &kinetic, &potential);
	particles_energy_rows(kinetic, potential, rows);
	return 0;
}

/* What the serial stage does; stages.c describes it. */
const struct apod_stage_ops particles_serial_ops = {
	.create = serial_create,
	.step = moveParticles,
	.probe = calcEnergy,
	.fetch = particles_host_fetch,
	.destroy = particles_host_destroy,
};
