/*
 * stage_serial.c: the reference.  One thread, the host engine (host.c) on
 * every body at once: forces vectorised over bodies i, each body's sum over
 * j in index order; statistics and energies summed in index order.
 *
 *     a = F(x)                                        (setup)
 *     for each step:
 *         v += dt/2 a; x += dt v; a = F(x); v += dt/2 a      computeForces
 *         every K steps: kinetic, momentum, centre        calcStats
 *         every K' steps: kinetic + potential (O(N^2))    calcEnergy
 */
#include <stdlib.h>

#include "apod/apod.h"
#include "apod/stock.h"
#include "nbody.h"

struct serial {
	const struct nbody_problem *p;
	struct nbody_soa s;
};

static void serial_destroy(void *ctx)
{
	struct serial *s = ctx;
	if (!s)
		return;
	nbody_soa_free(&s->s);
	free(s);
}

static void *serial_create(const void *problem)
{
	const struct nbody_problem *p = problem;
	struct serial *s = calloc(1, sizeof *s);
	if (!s) {
		apod_fail("serial: out of memory");
		return NULL;
	}
	if (nbody_soa_alloc(&s->s, p->n, "serial")) {
		free(s);
		return NULL;
	}
	s->p = p;
	nbody_soa_load(&s->s, p, 0, p->n);
	nbody_host_forces(&s->s, p->eps2, 0, p->n);
	return s;
}

static int computeForces(void *ctx)
{
	struct serial *s = ctx;
	size_t n = s->p->n;
	nbody_host_kick(&s->s, s->p->h, 0, n);
	nbody_host_drift(&s->s, s->p->dt, 0, n);
	nbody_host_forces(&s->s, s->p->eps2, 0, n);
	nbody_host_kick(&s->s, s->p->h, 0, n);
	return 0;
}

static int serial_probe(void *ctx, int k, double *const *rows)
{
	struct serial *s = ctx;
	double sums[7], potential = 0;
	nbody_host_sums(&s->s, 0, s->p->n, sums);
	if (k == NBODY_PROBE_ENERGY)
		potential = nbody_host_potential(&s->s, s->p->eps2, 0, s->p->n);
	nbody_rows(k, sums, s->p->mass, potential, rows);
	return 0;
}

static int serial_fetch(void *ctx, int a, void *dst)
{
	struct serial *s = ctx;
	nbody_soa_fetch(&s->s, a, dst);
	return 0;
}

const struct apod_stage nbody_stage_serial = {
	.name = "serial",
	.about = "the reference: one thread, forces vectorised over bodies, sums in index order",
	.ports = 0,
	.available = apod_available_always,
	.width = apod_width_one,
	.create = serial_create,
	.step = computeForces,
	.probe = serial_probe,
	.fetch = serial_fetch,
	.destroy = serial_destroy,
	.runs_on = APOD_RUNS_HOST_CORE,
};
