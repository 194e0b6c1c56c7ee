/*
 * mpi_comm.h: what heat's multi-process stages (mpi, mgpu) share beyond the
 * library's ranks (apod/ranks.h): how the field's rows are spread over the
 * ranks, the checks their create begins with, and the plan of the gather
 * onto rank 0.  Only heat's stages of ranks include this.
 */
#ifndef APOD_HEAT_MPI_COMM_H
#define APOD_HEAT_MPI_COMM_H

#include <stddef.h>

#include "apod/ranks_mpi.h"
#include "shared/heat/real.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Collective, before any call whose shape the deck decides: 0 if every rank
 * holds the same canonical deck as rank 0 (options included); else -1 on
 * every rank, with one usage failure naming the first rank that differs
 * and its first differing key (apod_ranks_same_params). */
struct heat_deck;
int heat_mpi_same_deck(const struct heat_deck *d);

/* How the field's rows are spread over nranks ranks (the mpi and mgpu
 * stages split them the same way).  heat_mpi_split: rank r's interior rows
 * [lo, hi) of the ny - 2, as even a split as whole rows allow.
 * heat_mpi_held: the rows [own0, own1) rank r holds: its interior rows,
 * with the top edge on the first rank and the bottom edge on the last. */
void heat_mpi_split(size_t ny, int r, int nranks, size_t *lo, size_t *hi);
void heat_mpi_held(size_t ny, int r, int nranks, size_t *own0, size_t *own1);

/* Collective, the checks a multi-process stage's create begins with, in
 * this order: MPI started, the same deck on every rank (first: every check
 * after it may differ between ranks given different ones), at most one
 * rank per interior row.  0 if the stage may go on; else -1 on every rank
 * with the failure recorded.  stage names the stage in the message. */
struct heat_problem;
int heat_mpi_open(const struct heat_problem *p, const char *stage);
/* For the MPI_Gatherv of the held rows onto rank 0: every rank's held rows
 * of a grid ny rows high (counts) and where they start (displs), both
 * apod_ranks_size() long, and the datatype of one row of nx cells. */
void heat_mpi_gather_plan(size_t nx, size_t ny, int *counts, int *displs, MPI_Datatype *row);

/* The MPI datatype of heat_real. */
#define HEAT_MPI_REAL (sizeof(heat_real) == sizeof(double) ? MPI_DOUBLE : MPI_FLOAT)

#ifdef __cplusplus
}
#endif

#endif
