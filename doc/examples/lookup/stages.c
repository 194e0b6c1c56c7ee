/*
 * stages.c: the ladder's descriptions, and the host's stages, serial (the
 * reference) and omp (every core: the host baseline), with what they
 * share: the running totals a batch adds to, handed to the harness by the
 * one probe, after the last batch.  The gpu stage's operations are in
 * stage_gpu.cu.
 */
#include <stdlib.h>

#include <apod/apod.h>
#include <apod/ready_made.h>

#include "lookup.h"

void *lookup_ctx_create(const struct apod_stage *s, const void *problem)
{
	struct lookup_ctx *c = apod_state_alloc(sizeof *c, "lookup");
	(void)s;   /* serial and omp alike */
	if (c)
		c->pb = problem;   /* the problem outlives the stage: no copy needed */
	return c;
}

/* rows[0]: the checksum series (uint64, typed as the series declares it);
 * rows[1]: the sums (doubles). */
int lookup_ctx_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct lookup_ctx *c = ctx;
	(void)k;
	(void)step;
	(void)row;
	((uint64_t *)rows[0])[0] = c->total.hash;
	((double *)rows[1])[0] = c->total.value;
	((double *)rows[1])[1] = c->total.slope;
	return 0;
}

/* Batch `step`, one lookup after another (the step's one phase, lookups). */
static int serial_batch(void *ctx, int phase, long step, long steps)
{
	struct lookup_ctx *c = ctx;
	long first, last;
	(void)phase;
	(void)steps;
	lookup_batch_range(c->pb, step, &first, &last);
	for (long q = first; q < last; q++)
		lookup_one(LOOKUP_ARGS(c->pb), q, &c->total);
	return 0;
}

/* Batch `step` over every core: each thread sums its share, then the
 * shares are added (the checksum's bits whatever the order; the sums'
 * within the tolerance workload.c designs). */
static int omp_batch(void *ctx, int phase, long step, long steps)
{
	struct lookup_ctx *c = ctx;
	const struct lookup_problem *pb = c->pb;
	unsigned long long hash = 0;
	double value = 0, slope = 0;
	long first, last;
	(void)phase;
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

static const struct apod_stage_ops serial_ops = {
	.create = lookup_ctx_create,
	.step = serial_batch,
	.probe = lookup_ctx_probe,
	.destroy = free,
};

const struct apod_stage lookup_stage_serial = {
	APOD_STAGE_SERIAL,
	.about = "the reference: one lookup after another",
	.ops = &serial_ops,
};

static const struct apod_stage_ops omp_ops = {
	APOD_OPS_OMP,
	.create = lookup_ctx_create,
	.step = omp_batch,
	.probe = lookup_ctx_probe,
	.destroy = free,
};

const struct apod_stage lookup_stage_omp = {
	APOD_STAGE_OMP,
	.about = "the lookups of a batch shared among the host's cores",
	.ports = "lookups",
	.ops = &omp_ops,
};

/* Built without nvcc (the Makefile found none), the gpu stage has no
 * operations: the ladder still lists it, as not in this build, with what
 * it requires. */
const struct apod_stage lookup_stage_gpu = {
	.name = "gpu",
	.about = "one thread a lookup on the device, the table resident there",
	/* The upload of the table, the batches, and the probe that brings the
	 * totals home. */
	.ports = "setup,lookups,final",
	.runs_on = APOD_RUNS_DEVICE,
	.needs = "CUDA",
#ifdef LOOKUP_GPU
	.ops = &lookup_gpu_ops,
#endif
};
