/*
 * stage_serial.c: the reference.  One thread, rows in order, every result
 * the other stages are checked against.
 *
 * The phases carry the names of the guide's profiling example (genTimeStep
 * here, calcStats and calcSummaryData in hostphases.c) so that gprof's flat
 * profile reads like the guide's; they are called through the stage's
 * operations or from another file, which keeps them out of reach of the
 * inliner.  The stage's description is in stages.c.
 */
#include <stdlib.h>
#include <string.h>

#include "apod/apod.h"
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

static void *serial_create(const struct apod_stage *stage, const void *problem)
{
	const struct heat_problem *p = problem;
	struct heat_host *s = calloc(1, sizeof *s);
	size_t bytes = p->n * sizeof(heat_real);
	(void)stage;
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

/* Heat's one step phase (phase 0). */
static int genTimeStep(void *ctx, int phase, long step, long steps)
{
	struct heat_host *s = ctx;
	const struct heat_problem *p = s->p;
	size_t nx = p->nx;
	heat_real *cur = s->cur, *next = s->next;
	(void)phase, (void)step, (void)steps;

	for (size_t i = 1; i + 1 < p->ny; i++)
		heat_sweep_row(cur + (i - 1) * nx, cur + i * nx, cur + (i + 1) * nx, next + i * nx, nx,
		               p->alpha);
	heat_host_pin_swap(s);
	return 0;
}

static int serial_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct heat_host *s = ctx;
	(void)step, (void)row;
	heat_host_probe(s->p, s->cur, s->hist, k, rows);
	return 0;
}

const struct apod_stage_ops heat_serial_ops = {
	.create = serial_create,
	.step = genTimeStep,
	.probe = serial_probe,
	.fetch = heat_host_fetch,
	.destroy = serial_destroy,
};
