/*
 * stage_omp.c: the same engine on every core with OpenMP, parallel over
 * bodies i.  Each body's forces are the same operations in the same order
 * as serial's, whichever thread computes them, so the state is bit for bit
 * serial's.  The sums of the probes are per thread, then added in thread
 * order: they differ from serial's by the rounding of that order, in double.
 */
#include <stdio.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "nbody.h"

/* This thread's share [*i0, *i1) of n bodies: a static, contiguous split
 * (every body costs the same, n interactions). */
static void share(size_t n, size_t *i0, size_t *i1)
{
#ifdef _OPENMP
	size_t t = (size_t)omp_get_thread_num(), nt = (size_t)omp_get_num_threads();
#else
	size_t t = 0, nt = 1;
#endif
	*i0 = n * t / nt;
	*i1 = n * (t + 1) / nt;
}

static void *omp_create(const struct apod_stage *stage, const void *problem)
{
	const struct nbody_problem *p = problem;
	struct nbody_host *s = nbody_host_create(p, stage->name);
	if (!s)
		return NULL;
	/* First touch by the thread that owns each body. */
	#pragma omp parallel
	{
		size_t i0, i1;
		share(p->n, &i0, &i1);
		nbody_soa_load(&s->s, p, i0, i1);
		#pragma omp barrier
		nbody_host_forces(&s->s, p->eps2, i0, i1);
	}
	return s;
}

static int omp_step(void *ctx, int phase, long step, long steps)
{
	struct nbody_host *s = ctx;
	const struct nbody_problem *p = s->p;
	(void)phase, (void)step, (void)steps;
	#pragma omp parallel
	{
		size_t i0, i1;
		share(p->n, &i0, &i1);
		nbody_host_kick(&s->s, p->h, i0, i1);
		nbody_host_drift(&s->s, p->dt, i0, i1);
		#pragma omp barrier
		nbody_host_forces(&s->s, p->eps2, i0, i1);
		nbody_host_kick(&s->s, p->h, i0, i1);
	}
	return 0;
}

static int omp_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct nbody_host *s = ctx;
	const struct nbody_problem *p = s->p;
	double sums[7] = { 0 }, potential = 0;
	int used = 1, width = 1;
#ifdef _OPENMP
	width = omp_get_max_threads();   /* at most the threads of the region below */
#endif
	double (*part)[7] = calloc((size_t)width, sizeof *part);
	(void)step, (void)row;
	if (!part)
		return apod_fail("omp: out of memory");
	/* Each thread sums its own bodies; the partial sums are then added in
	 * thread order, so a run is reproducible for a given thread count. */
	#pragma omp parallel
	{
		size_t i0, i1;
		int t = 0;
#ifdef _OPENMP
		t = omp_get_thread_num();
		#pragma omp single
		used = omp_get_num_threads();
#endif
		share(p->n, &i0, &i1);
		nbody_host_sums(&s->s, i0, i1, part[t]);
	}
	for (int t = 0; t < used; t++)
		for (int c = 0; c < 7; c++)
			sums[c] += part[t][c];
	free(part);
	if (k == NBODY_PROBE_ENERGY) {
		/* Rows of the triangle are unequal: interleaved chunks balance them. */
		#pragma omp parallel for schedule(static, 16) reduction(+ : potential)
		for (size_t i = 0; i < p->n; i++)
			potential += nbody_host_potential(&s->s, p->eps2, i, i + 1);
	}
	nbody_rows(k, sums, p->mass, potential, rows);
	return 0;
}

/* Described in stages.c. */
const struct apod_stage_ops nbody_omp_ops = {
	APOD_OPS_OMP,
	.create = omp_create,
	.step = omp_step,
	.probe = omp_probe,
	.fetch = nbody_host_fetch,
	.destroy = nbody_host_destroy,
};
