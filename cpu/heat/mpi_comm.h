/*
 * mpi_comm.h: what heat's multi-process stages (mpi, mgpu) share: starting
 * MPI once, the communicator they run on, checked MPI calls, and the
 * agreement on failure that keeps every rank from waiting on one that gave
 * up.  Only libheatmpi.a includes this: nothing else links MPI.
 */
#ifndef APOD_HEAT_MPI_COMM_H
#define APOD_HEAT_MPI_COMM_H

#include <stddef.h>

#include <mpi.h>

#include "shared/heat/real.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The stages' own communicator (a duplicate of MPI_COMM_WORLD, errors
 * returned rather than fatal), this rank and the number of ranks; set by
 * heat_mpi_start. */
extern MPI_Comm heat_mpi_comm;
extern int heat_mpi_rank, heat_mpi_size;
/* This rank among those on its host, and how many share the host (after
 * heat_mpi_start): a stage across GPUs drives the host's GPU local_rank. */
extern int heat_mpi_local_rank, heat_mpi_local_size;

/* Start MPI if it is not started (MPI_Init_thread, FUNNELED: OpenMP threads
 * compute, the main thread alone calls MPI), finalised at exit.  Returns 0,
 * or -1 after apod_fail.  Without mpirun MPI starts as a singleton: one rank. */
int heat_mpi_start(void);
/* Collective: 0 if no rank failed; else -1 on every rank, with the lowest
 * failing rank's reason (and exit status) recorded on all of them. */
int heat_mpi_agree(int failed);
/* The stages' reporter and agree (struct apod_stage_ops), mpi's and mgpu's
 * alike: the reporter is rank 0 (1 there, 0 on the others, -1 if MPI
 * cannot start); agree is heat_mpi_agree. */
struct apod_stage;
int heat_mpi_reporter(const struct apod_stage *s);
int heat_mpi_stage_agree(const struct apod_stage *s, int failed);
/* 1 once heat_mpi_start has succeeded. */
int heat_mpi_started(void);
/* Collective, before any call whose shape the deck decides: 0 if every rank
 * holds the same canonical deck as rank 0 (options included); else -1 on
 * every rank, with one usage failure naming the first rank that differs
 * and its first differing key.  Ranks that disagree would otherwise hang,
 * overflow a gather, or write results of no one deck. */
struct heat_deck;
int heat_mpi_same_deck(const struct heat_deck *d);
/* The same for any workload's parameters (params, with the key table
 * `table` of the workload called `workload`): n-body's mgpu uses it too. */
struct apod_param;
int heat_mpi_same_params(const char *workload, const struct apod_param *table, const void *params);

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
 * heat_mpi_size long, and the datatype of one row of nx cells. */
void heat_mpi_gather_plan(size_t nx, size_t ny, int *counts, int *displs, MPI_Datatype *row);

/* An MPI call that fails leaves the ranks in states no agreement can
 * repair (a peer may be blocked in the matching call): the failing rank
 * says which call failed and why on stderr, and MPI_Abort ends every rank
 * with a non-zero status.  This is the one place a stage prints. */
void heat_mpi_die(const char *call, int rc, const char *file, int line);
#define MPI_TRY(call)                                                    \
	do {                                                             \
		int mpi_rc_ = (call);                                    \
		if (mpi_rc_ != MPI_SUCCESS)                              \
			heat_mpi_die(#call, mpi_rc_, __FILE__, __LINE__); \
	} while (0)

/* The MPI datatype of heat_real. */
#define HEAT_MPI_REAL (sizeof(heat_real) == sizeof(double) ? MPI_DOUBLE : MPI_FLOAT)

#ifdef __cplusplus
}
#endif

#endif
