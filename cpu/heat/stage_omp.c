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
#include "apod/stock.h"
#include "heat_stage.h"
#include "hostphases.h"
#include "rowops.h"

struct omp {
	const struct heat_problem *p;
	heat_real *cur, *next;
	int nthreads;
	struct apod_moments *thread_m;  /* one partial result per thread */
	unsigned *thread_hist;          /* nthreads x nbins */
	unsigned *hist;                 /* their sum, nbins */
};

static void omp_destroy(void *ctx)
{
	struct omp *s = ctx;
	if (!s)
		return;
	free(s->cur);
	free(s->next);
	free(s->thread_m);
	free(s->thread_hist);
	free(s->hist);
	free(s);
}

static void *omp_create(const void *problem)
{
	const struct heat_problem *p = problem;
	struct omp *s = calloc(1, sizeof *s);
	size_t bytes = p->n * sizeof(heat_real);
	if (!s)
		goto nomem;
	s->p = p;
	s->nthreads = apod_omp_width();
	s->cur = malloc(bytes);
	s->next = malloc(bytes);
	s->thread_m = calloc((size_t)s->nthreads, sizeof *s->thread_m);
	s->thread_hist = calloc((size_t)s->nthreads * (size_t)p->nbins, sizeof *s->thread_hist);
	s->hist = malloc((size_t)p->nbins * sizeof *s->hist);
	if (!s->cur || !s->next || !s->thread_m || !s->thread_hist || !s->hist)
		goto nomem;
	/* First touch by the threads that will use each row puts the pages on
	 * their own NUMA node. */
#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < p->ny; i++) {
		memcpy(s->cur + i * p->nx, p->init + i * p->nx, p->nx * sizeof(heat_real));
		memcpy(s->next + i * p->nx, p->init + i * p->nx, p->nx * sizeof(heat_real));
	}
	return s;
nomem:
	omp_destroy(s);
	apod_fail("omp: cannot allocate two %zux%zu fields (%zu bytes)", p->nx, p->ny, 2 * bytes);
	return NULL;
}

static int omp_genTimeStep(void *ctx)
{
	struct omp *s = ctx;
	const struct heat_problem *p = s->p;
	size_t nx = p->nx;
	heat_real *t, *cur = s->cur, *next = s->next;

#pragma omp parallel for schedule(static)
	for (size_t i = 1; i < p->ny - 1; i++)
		heat_sweep_row(cur + (i - 1) * nx, cur + i * nx, cur + (i + 1) * nx, next + i * nx,
		               nx, p->alpha);
	for (size_t k = 0; k < p->nsrc; k++)
		next[p->src_idx[k]] = p->src_temp[k];
	t = s->cur;
	s->cur = s->next;
	s->next = t;
	return 0;
}

static void omp_calcStats(void *ctx, struct apod_moments *m, unsigned *hist)
{
	struct omp *s = ctx;
	const struct heat_problem *p = s->p;
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
			const heat_real *row = s->cur + i * p->nx;
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
	const struct heat_problem *p = s->p;

#pragma omp parallel for collapse(2) schedule(dynamic)
	for (int zr = 0; zr < p->zones_y; zr++)
		for (int zc = 0; zc < p->zones_x; zc++)
			zone_means[zr * p->zones_x + zc] = heat_zone_mean(p, s->cur, zr, zc);
}

static int omp_probe(void *ctx, int k, double *const *rows)
{
	struct omp *s = ctx;
	heat_phases_probe(s, s->p, s->hist, k, rows, omp_calcStats, omp_calcSummaryData);
	return 0;
}

static int omp_fetch(void *ctx, int array, void *dst)
{
	struct omp *s = ctx;
	(void)array;   /* heat has one array, the field */
	memcpy(dst, s->cur, s->p->n * sizeof *s->cur);
	return 0;
}

const struct apod_stage heat_stage_omp = {
	APOD_STAGE_OMP,
	.about = "the same phases on every core with OpenMP",
	/* omp also sets up in parallel: each thread first touches its own rows. */
	.ports = APOD_PORTS_SETUP | HEAT_PORTS_COMPUTE,
	.create = omp_create, .destroy = omp_destroy,
	.step = omp_genTimeStep,
	.probe = omp_probe,
	.fetch = omp_fetch,
};
