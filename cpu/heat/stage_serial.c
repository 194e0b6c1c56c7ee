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
#include "hostfield.h"
#include "rowops.h"

/* The serial stage's state is the host field alone (hostfield.h). */

static void serial_destroy(void *ctx)
{
	struct heat_host *s = ctx;
	if (!s)
		return;
	heat_host_free(s);
	free(s);
}

static void *serial_create(const void *problem)
{
	const struct heat_problem *p = problem;
	struct heat_host *s = calloc(1, sizeof *s);
	size_t bytes = p->n * sizeof(heat_real);
	if (!s || heat_host_alloc(s, p, p->ny)) {
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
	struct heat_host *s = ctx;
	const struct heat_problem *p = s->p;
	size_t nx = p->nx;
	heat_real *cur = s->cur, *next = s->next;

	for (size_t i = 1; i + 1 < p->ny; i++)
		heat_sweep_row(cur + (i - 1) * nx, cur + i * nx, cur + (i + 1) * nx, next + i * nx, nx,
		               p->alpha);
	heat_host_pin_swap(s);
	return 0;
}

static int serial_probe(void *ctx, int k, double *const *rows)
{
	struct heat_host *s = ctx;
	heat_host_probe(s->p, s->cur, s->hist, k, rows);
	return 0;
}

const struct apod_stage heat_stage_serial = {
	APOD_STAGE_SERIAL,
	.about = "the reference: one thread, optimised and vectorised C",
	.create = serial_create, .destroy = serial_destroy,
	.step = genTimeStep,
	.probe = serial_probe,
	.fetch = heat_host_fetch,
};
