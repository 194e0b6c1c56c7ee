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
#include <string.h>

#include "apod/apod.h"
#include "apod/stock.h"
#include "montecarlo.h"

static void *serial_create(const void *problem)
{
	return mc_host_create(problem, "serial");
}

static int simulateBatch(void *ctx)
{
	struct mc_host *h = ctx;
	const struct mc_problem *p = h->p;
	const struct mc_model *m = &p->model;
	double *sums = h->sums + h->done * MC_SUMS;
	uint64_t first = (uint64_t)h->done * p->paths;
	double s1[MC_NEST] = { 0 }, s2[MC_NEST] = { 0 };
	memset(h->hist, 0, (size_t)p->bins * sizeof *h->hist);
	for (size_t i = 0; i < p->paths; i++) {
		struct mc_outcome o = mc_path(m, first + i);
		double v[MC_NEST];
		mc_payoffs(m, &o, v);
		for (int e = 0; e < MC_NEST; e++) {
			double d = v[e] - p->shift[e];
			s1[e] += d;
			s2[e] += d * d;
		}
		h->hist[mc_bin(o.st, p->hist_lo, p->hist_inv_width, p->bins)]++;
	}
	for (int e = 0; e < MC_NEST; e++) {
		sums[2 * e] = s1[e];
		sums[2 * e + 1] = s2[e];
	}
	h->done++;
	return 0;
}

const struct apod_stage mc_stage_serial = {
	APOD_STAGE_SERIAL,
	.about = "the reference: one thread, paths in index order",
	.create = serial_create, .destroy = mc_host_destroy,
	.step = simulateBatch,
	.probe = mc_host_stage_probe,
	.fetch = mc_host_stage_fetch,
};
