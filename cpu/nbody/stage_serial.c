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

static void *serial_create(const void *problem)
{
	const struct nbody_problem *p = problem;
	struct nbody_host *s = nbody_host_create(p, "serial");
	if (s) {
		nbody_soa_load(&s->s, p, 0, p->n);
		nbody_host_forces(&s->s, p->eps2, 0, p->n);
	}
	return s;
}

static int computeForces(void *ctx)
{
	struct nbody_host *s = ctx;
	size_t n = s->p->n;
	nbody_host_kick(&s->s, s->p->h, 0, n);
	nbody_host_drift(&s->s, s->p->dt, 0, n);
	nbody_host_forces(&s->s, s->p->eps2, 0, n);
	nbody_host_kick(&s->s, s->p->h, 0, n);
	return 0;
}

const struct apod_stage nbody_stage_serial = {
	APOD_STAGE_SERIAL,
	.about = "the reference: one thread, forces vectorised over bodies, sums in index order",
	.create = serial_create, .destroy = nbody_host_destroy,
	.step = computeForces,
	.probe = nbody_host_probe,
	.fetch = nbody_host_fetch,
};
