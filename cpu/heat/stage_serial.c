/*
 * stage_serial.c: the reference.  One thread, rows in order, every result
 * the other stages are checked against.
 *
 * The phases carry the names of the guide's profiling example (genTimeStep
 * here, calcStats and calcSummaryData in hostphases.c) so that gprof's flat
 * profile reads like the guide's; they are called through the engine table
 * or from another file, which keeps them out of reach of the inliner.
 */
#include <stdlib.h>
#include <string.h>

#include "apod/stock.h"
#include "engine.h"
#include "fail.h"
#include "hostphases.h"
#include "rowops.h"

struct serial {
	const struct heat_problem *p;
	apod_real *cur, *next;
};

static void *serial_create(const struct heat_problem *p)
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
	const struct heat_problem *p = s->p;
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

static int serial_stats(void *ctx, struct apod_moments *m, unsigned *hist)
{
	struct serial *s = ctx;
	calcStats(s->p, s->cur, m, hist);
	return 0;
}

static int serial_summary(void *ctx, double *zone_means)
{
	struct serial *s = ctx;
	calcSummaryData(s->p, s->cur, zone_means);
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

/* Named and placed in the ladder in stages.c. */
const struct heat_engine heat_engine_serial = {
	.available = apod_available_always,
	.width = apod_width_one,
	.create = serial_create,
	.step = genTimeStep,
	.stats = serial_stats,
	.summary = serial_summary,
	.fetch = serial_fetch,
	.destroy = serial_destroy,
};
