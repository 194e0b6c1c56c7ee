/*
 * stages.c: the host's stages, serial (the reference) and omp (every core:
 * the host baseline), and what every stage shares: the running totals a
 * batch adds to, handed to the harness by the one probe, after the last
 * batch.
 */
#include <stdio.h>
#include <stdlib.h>

#include <apod/apod.h>
#include <apod/stock.h>

#include "lookup.h"

void *lookup_ctx_create(const void *problem)
{
	struct lookup_ctx *c = apod_state_alloc(sizeof *c, "lookup");
	if (c)
		c->pb = problem;   /* the problem outlives the stage: no copy needed */
	return c;
}

/* rows[0]: the checksum series (uint64, typed as the series declares it);
 * rows[1]: the sums (doubles). */
int lookup_ctx_probe(void *ctx, int k, long step, void *const *rows)
{
	struct lookup_ctx *c = ctx;
	(void)k;
	(void)step;
	((uint64_t *)rows[0])[0] = c->total.hash;
	((double *)rows[1])[0] = c->total.value;
	((double *)rows[1])[1] = c->total.slope;
	return 0;
}

/* Batch `step`, one lookup after another. */
static int serial_batch(void *ctx, long step, long steps)
{
	struct lookup_ctx *c = ctx;
	long first, last;
	(void)steps;
	lookup_batch_range(c->pb, step, &first, &last);
	for (long q = first; q < last; q++)
		lookup_one(LOOKUP_ARGS(c->pb), q, &c->total);
	return 0;
}

/* Batch `step` over every core: each thread sums its share, then the
 * shares are added (the checksum's bits whatever the order; the sums'
 * within the tolerance workload.c designs). */
static int omp_batch(void *ctx, long step, long steps)
{
	struct lookup_ctx *c = ctx;
	const struct lookup_problem *pb = c->pb;
	unsigned long long hash = 0;
	double value = 0, slope = 0;
	long first, last;
	(void)steps;
	lookup_batch_range(pb, step, &first, &last);
#pragma omp parallel for schedule(static) reduction(+ : hash, value, slope)
	for (long q = first; q < last; q++) {
		struct lookup_sum s = { 0, 0, 0 };
		lookup_one(LOOKUP_ARGS(pb), q, &s);
		hash += s.hash;
		value += s.value;
		slope += s.slope;
	}
	c->total.hash += hash;
	c->total.value += value;
	c->total.slope += slope;
	return 0;
}

const struct apod_stage lookup_stage_serial = {
	APOD_STAGE_SERIAL,
	.about = "the reference: one lookup after another",
	.create = lookup_ctx_create, .destroy = free,
	.step_at = serial_batch,
	.probe_at = lookup_ctx_probe,
};

const struct apod_stage lookup_stage_omp = {
	APOD_STAGE_OMP,
	.about = "the lookups of a batch shared among the host's cores",
	.ports = APOD_PORTS_STEP,
	.create = lookup_ctx_create, .destroy = free,
	.step_at = omp_batch,
	.probe_at = lookup_ctx_probe,
};

#ifndef LOOKUP_GPU
/* Built without nvcc (the Makefile found none): the ladder still lists
 * the stage, and says why it cannot run. */
static int no_nvcc(char *why, size_t len)
{
	snprintf(why, len, "built without nvcc (the Makefile found none on the PATH)");
	return 0;
}

const struct apod_stage lookup_stage_gpu = {
	.name = "gpu",
	.about = LOOKUP_GPU_ABOUT,
	.ports = APOD_PORTS_SETUP | APOD_PORTS_STEP | APOD_PORTS_PROBE(0),
	.available = no_nvcc,
	.runs_on = APOD_RUNS_DEVICE,
};
#endif
