/*
 * stage_serial.c: the reference.  One thread, paths in index order, sums
 * in that order: the results every other stage is checked against.  The
 * serial loop a user starts from:
 *
 *     for (batch = 0; batch < batches; batch++) {
 *         for (i = 0; i < paths; i++) simulate path, add its payoffs;  simulateBatch
 *         if (batch % stats_every == 0) mean, variance, CI;            calcEstimates
 *     }
 */
#include <stdlib.h>

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "montecarlo.h"

static void *serial_create(const struct apod_stage *s, const void *problem)
{
	return mc_host_create(problem, s->name);
}

static int simulateBatch(void *ctx, int phase, long step, long steps)
{
	struct mc_host *h = ctx;
	const struct mc_problem *p = h->p;
	(void)phase, (void)step, (void)steps;   /* one phase; the batches follow h->done */
	uint64_t first = mc_host_batch_begin(h);
	double acc[MC_SUMS] = { 0 };
	for (size_t i = 0; i < p->paths; i++)
		h->hist[mc_path_add(p, first + i, acc)]++;
	mc_host_batch_end(h, acc);
	return 0;
}

/* Described in stages.c. */
const struct apod_stage_ops mc_serial_ops = {
	.create = serial_create,
	.step = simulateBatch,
	.probe = mc_host_stage_probe,
	.fetch = mc_host_stage_fetch,
	.destroy = mc_host_destroy,
};
