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
#include "apod/ready_made.h"
#include "nbody.h"

static void *serial_create(const struct apod_stage *stage, const void *problem)
{
	const struct nbody_problem *p = problem;
	struct nbody_host *s = nbody_host_create(p, stage->name);
	if (s) {
		nbody_soa_load(&s->s, p, 0, p->n);
		nbody_host_forces(&s->s, p->eps2, 0, p->n);
	}
	return s;
}

static int computeForces(void *ctx, int phase, long step, long steps)
{
	struct nbody_host *s = ctx;
	size_t n = s->p->n;
	(void)phase, (void)step, (void)steps;   /* one phase a step, the same every step */
	nbody_host_kick(&s->s, s->p->h, 0, n);
	nbody_host_drift(&s->s, s->p->dt, 0, n);
	nbody_host_forces(&s->s, s->p->eps2, 0, n);
	nbody_host_kick(&s->s, s->p->h, 0, n);
	return 0;
}

/* Described in stages.c. */
const struct apod_stage_ops nbody_serial_ops = {
	.create = serial_create,
	.step = computeForces,
	.probe = nbody_host_probe,
	.fetch = nbody_host_fetch,
	.destroy = nbody_host_destroy,
};
