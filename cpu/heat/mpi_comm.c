/*
 * mpi_comm.c: heat's rows over the ranks (mpi_comm.h); the ranks
 * themselves are the library's (apod/ranks.h).
 */
#include <stdio.h>

#include "apod/apod.h"
#include "heat.h"
#include "mpi_comm.h"
#include "problem.h"

int heat_mpi_same_deck(const struct heat_deck *d)
{
	/* The canonical deck is made from the key table alone. */
	const struct apod_workload keys = { .name = "heat", .params = heat_params };
	return apod_ranks_same_params(&keys, d);
}

void heat_mpi_split(size_t ny, int r, int nranks, size_t *lo, size_t *hi)
{
	size_t interior = ny - 2;
	*lo = 1 + (size_t)r * interior / (size_t)nranks;
	*hi = 1 + (size_t)(r + 1) * interior / (size_t)nranks;
}

void heat_mpi_held(size_t ny, int r, int nranks, size_t *own0, size_t *own1)
{
	size_t lo, hi;
	heat_mpi_split(ny, r, nranks, &lo, &hi);
	*own0 = r == 0 ? 0 : lo;
	*own1 = r == nranks - 1 ? ny : hi;
}

int heat_mpi_open(const struct heat_problem *p, const char *stage)
{
	int size;
	if (apod_ranks_start() || heat_mpi_same_deck(p->deck))
		return -1;
	size = apod_ranks_size();
	/* Every rank finds this alike; agreeing still gives one message. */
	if ((size_t)size > p->ny - 2) {
		apod_usage_fail("%s: %d ranks but the %zux%zu grid has %zu interior rows: at most "
		                "one rank per interior row", stage, size, p->nx, p->ny, p->ny - 2);
		apod_ranks_agree(1);
		return -1;
	}
	return apod_ranks_agree(0);
}

void heat_mpi_gather_plan(size_t nx, size_t ny, int *counts, int *displs, MPI_Datatype *row)
{
	int size = apod_ranks_size();
	for (int r = 0; r < size; r++) {
		size_t a, b;
		heat_mpi_held(ny, r, size, &a, &b);
		/* Row counts: ny <= HEAT_MAX_DIM, far below INT_MAX. */
		counts[r] = (int)(b - a);
		displs[r] = (int)a;
	}
	APOD_MPI_TRY(MPI_Type_contiguous((int)nx, HEAT_MPI_REAL, row));
	APOD_MPI_TRY(MPI_Type_commit(row));
}
