/*
 * stage_omp.c: the same phases on every core with OpenMP.
 *
 * Rows are independent in the sweep, so the field comes out bit for bit
 * equal to the serial one.  Statistics are merged per thread and then in
 * thread order: the moments differ from serial only by the rounding of a
 * different merge order (in double), and the histogram is exact.  Zones are
 * summed whole by one thread each, in the serial order, so they match too.
 *
 * This is the honest yardstick for the GPU stages: a speedup over one core
 * says little until it is also quoted against all of them.
 */
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "heat_stage.h"
#include "hostfield.h"
#include "hostphases.h"
#include "rowops.h"

struct omp {
	struct heat_host h;             /* first, for heat_host_fetch; h.hist sums the threads' */
	int nthreads;
	struct apod_moments *thread_m;  /* one partial result per thread */
	unsigned *thread_hist;          /* nthreads x nbins */
};

static void omp_destroy(void *ctx)
{
	struct omp *s = ctx;
	if (!s)
		return;
	heat_host_free(&s->h);
	free(s->thread_m);
	free(s->thread_hist);
	free(s);
}

static void *omp_create(const struct apod_stage *stage, const void *problem)
{
	const struct heat_problem *p = problem;
	struct omp *s = calloc(1, sizeof *s);
	size_t bytes = p->n * sizeof(heat_real);
	if (!s)
		goto nomem;
	s->nthreads = apod_omp_width(stage);
	s->thread_m = calloc((size_t)s->nthreads, sizeof *s->thread_m);
	s->thread_hist = calloc((size_t)s->nthreads * (size_t)p->nbins, sizeof *s->thread_hist);
	if (heat_host_alloc(&s->h, p, p->ny) || !s->thread_m || !s->thread_hist)
		goto nomem;
	/* First touch by the threads that will use each row puts the pages on
	 * their own NUMA node. */
#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < p->ny; i++) {
		memcpy(s->h.cur + i * p->nx, p->init + i * p->nx, p->nx * sizeof(heat_real));
		memcpy(s->h.next + i * p->nx, p->init + i * p->nx, p->nx * sizeof(heat_real));
	}
	return s;
nomem:
	omp_destroy(s);
	apod_fail("omp: cannot allocate two %zux%zu fields (%zu bytes)", p->nx, p->ny, 2 * bytes);
	return NULL;
}

static int omp_genTimeStep(void *ctx, int phase, long step, long steps)
{
	struct omp *s = ctx;
	const struct heat_problem *p = s->h.p;
	size_t nx = p->nx;
	heat_real *cur = s->h.cur, *next = s->h.next;
	(void)phase, (void)step, (void)steps;

#pragma omp parallel for schedule(static)
	for (size_t i = 1; i < p->ny - 1; i++)
		heat_sweep_row(cur + (i - 1) * nx, cur + i * nx, cur + (i + 1) * nx, next + i * nx,
		               nx, p->alpha);
	heat_host_pin_swap(&s->h);
	return 0;
}

static void omp_calcStats(void *ctx, struct apod_moments *m, unsigned *hist)
{
	struct omp *s = ctx;
	const struct heat_problem *p = s->h.p;
	size_t nb = (size_t)p->nbins;

	memset(s->thread_hist, 0, (size_t)s->nthreads * nb * sizeof *s->thread_hist);
	for (int t = 0; t < s->nthreads; t++)
		apod_moments_init(&s->thread_m[t]);
#pragma omp parallel
	{
#ifdef _OPENMP
		int t = omp_get_thread_num();
#else
		int t = 0;
#endif
		struct apod_moments local;
		unsigned *h = s->thread_hist + (size_t)t * nb;
		apod_moments_init(&local);
#pragma omp for schedule(static)
		for (size_t i = 0; i < p->ny; i++) {
			const heat_real *row = s->h.cur + i * p->nx;
			struct apod_moments r;
			heat_row_moments(row, p->nx, &r);
			apod_moments_merge(&local, &r);
			heat_row_hist(row, p->nx, p->hist_lo, p->hist_inv_width, p->nbins, h);
		}
		s->thread_m[t] = local;
	}
	apod_moments_init(m);
	memset(hist, 0, nb * sizeof *hist);
	for (int t = 0; t < s->nthreads; t++) {
		apod_moments_merge(m, &s->thread_m[t]);
		for (size_t b = 0; b < nb; b++)
			hist[b] += s->thread_hist[(size_t)t * nb + b];
	}
}

static void omp_calcSummaryData(void *ctx, double *zone_means)
{
	struct omp *s = ctx;
	const struct heat_problem *p = s->h.p;

#pragma omp parallel for collapse(2) schedule(dynamic)
	for (int zr = 0; zr < p->zones_y; zr++)
		for (int zc = 0; zc < p->zones_x; zc++)
			zone_means[zr * p->zones_x + zc] = heat_zone_mean(p, s->h.cur, zr, zc);
}

static int omp_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct omp *s = ctx;
	(void)step, (void)row;
	heat_phases_probe(s, s->h.p, s->h.hist, k, rows, omp_calcStats, omp_calcSummaryData);
	return 0;
}

const struct apod_stage_ops heat_omp_ops = {
	APOD_OPS_OMP,
	.create = omp_create,
	.step = omp_genTimeStep,
	.probe = omp_probe,
	.fetch = heat_host_fetch,
	.destroy = omp_destroy,
};
