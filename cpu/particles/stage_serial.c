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
#include "apod/stock.h"
#include "particles.h"
#include "shared/particles/update.h"

struct serial {
	const struct particles_problem *p;
	float *state;             /* n x 4: x, y, vx, vy */
};

static void serial_destroy(void *ctx)
{
	struct serial *s = ctx;
	if (!s)
		return;
	free(s->state);
	free(s);
}

static void *serial_create(const void *problem)
{
	const struct particles_problem *p = problem;
	size_t bytes = p->n * PARTICLES_COLS * sizeof(float);
	struct serial *s = calloc(1, sizeof *s);
	if (!s || !(s->state = malloc(bytes))) {
		serial_destroy(s);
		apod_fail("serial: cannot allocate the state of %zu particles (%zu bytes)", p->n, bytes);
		return NULL;
	}
	s->p = p;
	memcpy(s->state, p->init, bytes);
	return s;
}

static int moveParticles(void *ctx)
{
	struct serial *s = ctx;
	for (size_t i = 0; i < s->p->n; i++)
		particles_kdk(s->state + i * PARTICLES_COLS, particles_spring(i), s->p->dt);
	return 0;
}

/* calcEnergy: kinetic, potential and total, summed in index order. */
static int calcEnergy(void *ctx, int k, double *const *rows)
{
	struct serial *s = ctx;
	double kinetic = 0, potential = 0;
	(void)k;   /* the workload's one probe */
	for (size_t i = 0; i < s->p->n; i++) {
		double ke, pe;
		particles_energy(s->state + i * PARTICLES_COLS, particles_spring(i), &ke, &pe);
		kinetic += ke;
		potential += pe;
	}
	if (rows[PARTICLES_SERIES_ENERGY]) {
		rows[PARTICLES_SERIES_ENERGY][0] = kinetic;
		rows[PARTICLES_SERIES_ENERGY][1] = potential;
		rows[PARTICLES_SERIES_ENERGY][2] = kinetic + potential;
	}
	if (rows[PARTICLES_SERIES_DRIFT])
		rows[PARTICLES_SERIES_DRIFT][0] = kinetic + potential;
	return 0;
}

static int serial_fetch(void *ctx, int a, void *dst)
{
	struct serial *s = ctx;
	(void)a;   /* the one array, the state */
	memcpy(dst, s->state, s->p->n * PARTICLES_COLS * sizeof(float));
	return 0;
}

const struct apod_stage particles_stage_serial = {
	.name = "serial",
	.about = "the reference: one thread, particles in index order",
	.ports = 0,
	.available = apod_available_always,
	.width = apod_width_one,
	.create = serial_create,
	.step = moveParticles,
	.probe = calcEnergy,
	.fetch = serial_fetch,
	.destroy = serial_destroy,
	.runs_on = APOD_RUNS_HOST_CORE,
};
