/*
 * stage_mpi.c: the mpi stage of @NAME@, its operations (described in
 * workload.c).  Its processes, one MPI rank each, are started by a launcher
 * with the same command line:
 *
 *     mpirun -np 3 ./@NAME@ run --stage=mpi --out=mpi3
 *
 * Every rank builds the problem, keeps a block of the n values
 * (apod_ranks_block) and steps only that block; the probe's partial sums
 * and maxima meet on every rank (MPI_Allreduce), and fetch gathers the
 * blocks onto rank 0, the reporter, which alone prints and writes the
 * results.  Without mpirun it runs as one rank.
 *
 * The harness calls every operation on every rank in the same order; an
 * operation that can fail on one rank alone (create, here: its memory)
 * agrees on it (apod_ranks_agree) before it returns, so that no rank waits
 * in a collective for one that gave up.  An MPI call that fails ends every
 * rank (APOD_MPI_TRY).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <apod/apod.h>
#include <apod/ranks_mpi.h>

#include "@NAME@.h"

struct mpi_ctx {
	const struct @NAME@_problem *pb;
	size_t lo, hi;          /* this rank's block of the values, [lo, hi) */
	double *x;              /* its hi - lo values */
	int *counts, *displs;   /* rank 0: every rank's block, for the gather */
};

static void mpi_destroy(void *ctx)
{
	struct mpi_ctx *c = ctx;
	if (c) {
		free(c->x);
		free(c->counts);
		free(c->displs);
	}
	free(c);
}

static void *mpi_create(const struct apod_stage *s, const void *problem)
{
	const struct @NAME@_problem *pb = problem;
	struct mpi_ctx *c = calloc(1, sizeof *c);
	int rank = apod_ranks_rank(), size = apod_ranks_size(), failed = !c;
	(void)s;
	if (c) {
		c->pb = pb;
		apod_ranks_block(pb->n, rank, size, &c->lo, &c->hi);
		/* +1: a rank may hold no values (more ranks than values). */
		c->x = malloc((c->hi - c->lo + 1) * sizeof *c->x);
		if (rank == 0) {
			c->counts = malloc((size_t)size * sizeof *c->counts);
			c->displs = malloc((size_t)size * sizeof *c->displs);
		}
		failed = !c->x || (rank == 0 && (!c->counts || !c->displs));
	}
	if (failed)
		apod_fail("mpi: rank %d: cannot allocate its block of the values", rank);
	else if (pb->n > INT_MAX)   /* MPI counts are int; every rank finds this alike */
		failed = apod_usage_fail("mpi: %zu values: the gather counts them with int (at most %d)",
		                         pb->n, INT_MAX) != 0;
	if (apod_ranks_agree(failed)) {
		mpi_destroy(c);
		return NULL;
	}
	memcpy(c->x, pb->init + c->lo, (c->hi - c->lo) * sizeof *c->x);
	for (int r = 0; rank == 0 && r < size; r++) {
		size_t lo, hi;
		apod_ranks_block(pb->n, r, size, &lo, &hi);
		c->counts[r] = (int)(hi - lo);
		c->displs[r] = (int)lo;
	}
	return c;
}

/* serial's step on this rank's block: the same step_one on the same values,
 * so the same bits.  It cannot fail on one rank alone: nothing to agree. */
static int mpi_step(void *ctx, int phase, long step, long steps)
{
	struct mpi_ctx *c = ctx;
	(void)phase;
	(void)step;
	(void)steps;
	for (size_t i = c->lo; i < c->hi; i++)
		c->x[i - c->lo] = step_one(c->x[i - c->lo], target(i), c->pb->rate);
	return 0;
}

/* The block's sum and maximum, then every rank's combined: the sum in
 * another order than serial's, within sum_tol (workload.c). */
static int mpi_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct mpi_ctx *c = ctx;
	double sum = 0, max = -INFINITY, *out = rows[0];
	(void)k;
	(void)step;
	(void)row;
	for (size_t i = 0; i < c->hi - c->lo; i++) {
		sum += c->x[i];
		max = fmax(max, c->x[i]);
	}
	APOD_MPI_TRY(MPI_Allreduce(&sum, &out[0], 1, MPI_DOUBLE, MPI_SUM, apod_ranks_comm()));
	APOD_MPI_TRY(MPI_Allreduce(&max, &out[1], 1, MPI_DOUBLE, MPI_MAX, apod_ranks_comm()));
	return 0;
}

/* The blocks gathered onto rank 0: the harness reads dst there alone. */
static int mpi_fetch(void *ctx, int a, void *dst)
{
	struct mpi_ctx *c = ctx;
	(void)a;
	APOD_MPI_TRY(MPI_Gatherv(c->x, (int)(c->hi - c->lo), MPI_DOUBLE, dst, c->counts, c->displs,
	                         MPI_DOUBLE, 0, apod_ranks_comm()));
	return 0;
}

/* Amdahl's N: one core a rank. */
static int mpi_width(const struct apod_stage *s)
{
	(void)s;
	return apod_ranks_size();
}

/* APOD_OPS_RANKS_AVAILABLE: listed as unavailable where apod's library has
 * no MPI; APOD_OPS_RANKS: rank 0 reports, and failures are agreed on. */
const struct apod_stage_ops @NAME@_stage_mpi = {
	APOD_OPS_RANKS_AVAILABLE,
	.width = mpi_width,
	.create = mpi_create,
	.step = mpi_step,
	.probe = mpi_probe,
	.fetch = mpi_fetch,
	.destroy = mpi_destroy,
	APOD_OPS_RANKS,
};
