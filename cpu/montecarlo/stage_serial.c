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

struct serial {
	struct mc_host h;
};

static void serial_destroy(void *ctx)
{
	struct serial *s = ctx;
	if (!s)
		return;
	mc_host_free(&s->h);
	free(s);
}

static void *serial_create(const void *problem)
{
	struct serial *s = calloc(1, sizeof *s);
	if (!s) {
		apod_fail("serial: out of memory");
		return NULL;
	}
	if (mc_host_init(&s->h, problem, "serial")) {
		free(s);
		return NULL;
	}
	return s;
}

static int simulateBatch(void *ctx)
{
	struct serial *s = ctx;
	const struct mc_problem *p = s->h.p;
	const struct mc_model *m = &p->model;
	double *sums = s->h.sums + s->h.done * MC_SUMS;
	uint64_t first = (uint64_t)s->h.done * p->paths;
	double s1[MC_NEST] = { 0 }, s2[MC_NEST] = { 0 };
	memset(s->h.hist, 0, (size_t)p->bins * sizeof *s->h.hist);
	for (size_t i = 0; i < p->paths; i++) {
		struct mc_outcome o = mc_path(m, first + i);
		double v[MC_NEST];
		mc_payoffs(m, &o, v);
		for (int e = 0; e < MC_NEST; e++) {
			double d = v[e] - p->shift[e];
			s1[e] += d;
			s2[e] += d * d;
		}
		s->h.hist[mc_bin(o.st, p->hist_lo, p->hist_inv_width, p->bins)]++;
	}
	for (int e = 0; e < MC_NEST; e++) {
		sums[2 * e] = s1[e];
		sums[2 * e + 1] = s2[e];
	}
	s->h.done++;
	return 0;
}

static int calcEstimates(void *ctx, int k, double *const *rows)
{
	struct serial *s = ctx;
	(void)k;
	mc_host_probe(&s->h, rows);
	return 0;
}

static int serial_fetch(void *ctx, int a, void *dst)
{
	struct serial *s = ctx;
	(void)a;
	mc_host_batch_means(&s->h, dst);
	return 0;
}

const struct apod_stage mc_stage_serial = {
	.name = "serial",
	.about = "the reference: one thread, paths in index order",
	.ports = 0,
	.available = apod_available_always,
	.width = apod_width_one,
	.create = serial_create,
	.step = simulateBatch,
	.probe = calcEstimates,
	.fetch = serial_fetch,
	.destroy = serial_destroy,
	.runs_on = APOD_RUNS_HOST_CORE,
};
