/*
 * engine_serial.c: the reference.  One thread, rows in order, every result
 * the other stages are checked against.
 *
 * The functions carry the names of the guide's profiling example
 * (genTimeStep, calcStats, calcSummaryData) so that gprof's flat profile
 * reads like the guide's, and they are called through the engine table,
 * which keeps the compiler from inlining them out of the profile.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "fail.h"
#include "rowops.h"

struct serial {
	const struct apod_problem *p;
	apod_real *cur, *next;
};

static int serial_available(char *why, size_t len)
{
	(void)why;
	(void)len;
	return 1;
}

static int serial_width(void)
{
	return 1;
}

static void *serial_create(const struct apod_problem *p)
{
	struct serial *s = calloc(1, sizeof *s);
	size_t bytes = p->n * sizeof(apod_real);
	if (s) {
		s->p = p;
		s->cur = malloc(bytes);
		s->next = malloc(bytes);
	}
	if (!s || !s->cur || !s->next) {
		if (s) {
			free(s->cur);
			free(s->next);
		}
		free(s);
		apod_fail("serial: cannot allocate two %zux%zu fields (%zu bytes)", p->nx, p->ny,
		          2 * bytes);
		return NULL;
	}
	/* Both buffers start whole: the sweep never writes the fixed edges. */
	memcpy(s->cur, p->init, bytes);
	memcpy(s->next, p->init, bytes);
	return s;
}

static int genTimeStep(void *ctx)
{
	struct serial *s = ctx;
	const struct apod_problem *p = s->p;
	size_t nx = p->nx;
	apod_real *t;

	for (size_t i = 1; i + 1 < p->ny; i++)
		apod_sweep_row(s->cur + (i - 1) * nx, s->cur + i * nx, s->cur + (i + 1) * nx,
		               s->next + i * nx, nx, p->alpha);
	for (size_t k = 0; k < p->nsrc; k++)
		s->next[p->src_idx[k]] = p->src_temp[k];
	t = s->cur;
	s->cur = s->next;
	s->next = t;
	return 0;
}

static int calcStats(void *ctx, struct apod_moments *m, unsigned *hist)
{
	struct serial *s = ctx;
	const struct apod_problem *p = s->p;

	apod_moments_init(m);
	memset(hist, 0, (size_t)p->nbins * sizeof *hist);
	for (size_t i = 0; i < p->ny; i++) {
		const apod_real *row = s->cur + i * p->nx;
		struct apod_moments r;
		apod_row_moments(row, p->nx, &r);
		apod_moments_merge(m, &r);
		apod_row_hist(row, p->nx, p->hist_lo, p->hist_inv_width, p->nbins, hist);
	}
	return 0;
}

static int calcSummaryData(void *ctx, double *zone_means)
{
	struct serial *s = ctx;
	const struct apod_problem *p = s->p;

	for (int zr = 0; zr < p->zones_y; zr++)
		for (int zc = 0; zc < p->zones_x; zc++) {
			size_t r0 = apod_zone_row0(p, zr), r1 = apod_zone_row0(p, zr + 1);
			size_t c0 = apod_zone_col0(p, zc), c1 = apod_zone_col0(p, zc + 1);
			double sum = 0.0;
			for (size_t i = r0; i < r1; i++)
				sum += apod_row_sum(s->cur + i * p->nx + c0, c1 - c0);
			zone_means[zr * p->zones_x + zc] = sum / (double)((r1 - r0) * (c1 - c0));
		}
	return 0;
}

static int serial_fetch(void *ctx, apod_real *dst)
{
	struct serial *s = ctx;
	memcpy(dst, s->cur, s->p->n * sizeof *dst);
	return 0;
}

static void serial_destroy(void *ctx)
{
	struct serial *s = ctx;
	if (!s)
		return;
	free(s->cur);
	free(s->next);
	free(s);
}

const struct apod_engine apod_engine_serial = {
	.name = "serial",
	.about = "the reference: one thread, optimised and vectorised C",
	.ports = 0,
	.available = serial_available,
	.width = serial_width,
	.create = serial_create,
	.step = genTimeStep,
	.stats = calcStats,
	.summary = calcSummaryData,
	.fetch = serial_fetch,
	.destroy = serial_destroy,
};
