/*
 * stage_serial.c: the reference.  One thread, rows in order, every result
 * the other stages are checked against.
 *
 * The phases carry the names of the guide's profiling example (genTimeStep
 * here, calcStats and calcSummaryData in hostphases.c) so that gprof's flat
 * profile reads like the guide's; they are called through the stage table
 * or from another file, which keeps them out of reach of the inliner.
 */
#include <stdlib.h>
#include <string.h>

#include "apod/apod.h"
#include "apod/stock.h"
#include "heat_stage.h"
#include "rowops.h"

struct serial {
	const struct heat_problem *p;
	heat_real *cur, *next;
	unsigned *hist;             /* calcStats's counts, p->nbins */
};

static void serial_destroy(void *ctx)
{
	struct serial *s = ctx;
	if (!s)
		return;
	free(s->cur);
	free(s->next);
	free(s->hist);
	free(s);
}

static void *serial_create(const void *problem)
{
	const struct heat_problem *p = problem;
	struct serial *s = calloc(1, sizeof *s);
	size_t bytes = p->n * sizeof(heat_real);
	if (s) {
		s->p = p;
		s->cur = malloc(bytes);
		s->next = malloc(bytes);
		s->hist = malloc((size_t)p->nbins * sizeof *s->hist);
	}
	if (!s || !s->cur || !s->next || !s->hist) {
		serial_destroy(s);
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
	heat_real *t;

	for (size_t i = 1; i + 1 < p->ny; i++)
		heat_sweep_row(s->cur + (i - 1) * nx, s->cur + i * nx, s->cur + (i + 1) * nx,
		               s->next + i * nx, nx, p->alpha);
	for (size_t k = 0; k < p->nsrc; k++)
		s->next[p->src_idx[k]] = p->src_temp[k];
	t = s->cur;
	s->cur = s->next;
	s->next = t;
	return 0;
}

static int serial_probe(void *ctx, int k, double *const *rows)
{
	struct serial *s = ctx;
	heat_host_probe(s->p, s->cur, s->hist, k, rows);
	return 0;
}

static int serial_fetch(void *ctx, int array, void *dst)
{
	struct serial *s = ctx;
	(void)array;   /* heat has one array, the field */
	memcpy(dst, s->cur, s->p->n * sizeof *s->cur);
	return 0;
}

const struct apod_stage heat_stage_serial = {
	APOD_STAGE_SERIAL,
	.about = "the reference: one thread, optimised and vectorised C",
	.create = serial_create, .destroy = serial_destroy,
	.step = genTimeStep,
	.probe = serial_probe,
	.fetch = serial_fetch,
};
