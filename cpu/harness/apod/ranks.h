/*
 * apod/ranks.h: a stage that runs as several processes, one MPI rank each
 * (the stage's `reporter` and `agree`, apod/workload.h), and what every such
 * stage needs of MPI besides its own messages: MPI started once, this
 * rank and the number of ranks, this rank among those of its host (to give
 * each rank one of the host's GPUs), the agreement on failure that keeps
 * every rank from waiting on one that gave up, and the check that every
 * rank was given the same parameters.
 *
 * No <mpi.h> here: a workload that only describes such a stage compiles
 * without MPI.  The stage's own file, which sends and receives, includes
 * apod/ranks_mpi.h for the communicator.  Where libapod was built without
 * MPI these functions still exist: apod_ranks_start() fails with "built
 * without MPI" and the stage is listed as unavailable (APOD_OPS_RANKS).
 *
 * The ranks of one run are started by a launcher (mpirun, srun, mpiexec)
 * with the same command line; apod_main() starts MPI on every one of them
 * before it reads a stage and refuses, on every rank, a run whose ranks
 * were given different command lines.  Started without a launcher, MPI
 * starts as a single rank.
 */
#ifndef APOD_RANKS_H
#define APOD_RANKS_H

#include <stddef.h>

#include "apod.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 if this libapod was built with MPI. */
APOD_API int apod_ranks_built(void);
/* How many processes a launcher says it started with this one (its
 * environment: Open MPI's OMPI_COMM_WORLD_SIZE, PMI_SIZE of MPICH's and
 * Intel's, ...): 0 where no launcher started it, -1 where one did without
 * saying how many (PMIx alone). */
APOD_API int apod_ranks_launched(void);

/* Start MPI if it is not started (MPI_Init_thread, MPI_THREAD_FUNNELED:
 * OpenMP threads compute, the main thread alone calls MPI), finalised at
 * exit.  0, or -1 after apod_fail.  Idempotent. */
APOD_API int apod_ranks_start(void);
/* 1 once apod_ranks_start has succeeded. */
APOD_API int apod_ranks_started(void);
/* This rank and the number of ranks (0 and 1 before MPI starts). */
APOD_API int apod_ranks_rank(void);
APOD_API int apod_ranks_size(void);
/* This rank among the ranks on its host, and how many share the host: a
 * stage across GPUs drives the host's GPU local_rank, whatever numbering the
 * launcher gave the ranks across hosts (0 and 1 before MPI starts). */
APOD_API int apod_ranks_local_rank(void);
APOD_API int apod_ranks_local_size(void);

/* Collective: 0 if no rank failed; else -1 on every rank, with the lowest
 * failing rank's reason (and exit status) recorded on all of them, naming
 * that rank.  Before MPI starts: -1 if failed, else 0. */
APOD_API int apod_ranks_agree(int failed);
/* Collective, before anything whose shape the parameters decide: 0 if every
 * rank holds the same canonical deck as rank 0 (w's key table over params,
 * apod_params_deck_text); else -1 on every rank with a usage failure naming
 * the first rank that differs and its first differing key.  The command
 * lines are compared already; this catches a deck file that differs between
 * hosts. */
APOD_API int apod_ranks_same_params(const struct apod_workload *w, const void *params);
/* Collective: 0 if every rank was given the same arguments (argv[1] to
 * argv[argc - 1]; the program's path may differ); else -1 on every rank
 * with a usage failure naming the first rank that differs and its first
 * differing argument.  apod_main() calls it before choosing a stage. */
APOD_API int apod_ranks_same_args(int argc, char *const *argv);

/* A block of n items split as evenly as whole items allow
 * over `size` ranks: rank r's items are [lo, hi). */
APOD_API void apod_ranks_block(size_t n, int r, int size, size_t *lo, size_t *hi);

/* The members of a stage's operations (struct apod_stage_ops) that make it
 * a stage of ranks: available where this libapod has MPI; the reporter is
 * rank 0 (it starts MPI: -1 if MPI cannot start); agree is
 * apod_ranks_agree.  In C++ (where designated initializers need C++20) the
 * members come in their declared order: APOD_OPS_RANKS_AVAILABLE first,
 * APOD_OPS_RANKS after destroy and the optional members before reporter;
 * before C++20, assign available, reporter and agree these functions:
 *
 *     static const struct apod_stage_ops mpi_ops = {
 *         APOD_OPS_RANKS_AVAILABLE,
 *         .create = ..., .step = ..., .probe = ..., .fetch = ..., .destroy = ...,
 *         APOD_OPS_RANKS,
 *     }; */
APOD_API int apod_ranks_available(const struct apod_stage *s, char *why, size_t len);
APOD_API int apod_ranks_reporter(const struct apod_stage *s);
APOD_API int apod_ranks_stage_agree(const struct apod_stage *s, int failed);
#define APOD_OPS_RANKS_AVAILABLE .available = apod_ranks_available
#define APOD_OPS_RANKS .reporter = apod_ranks_reporter, .agree = apod_ranks_stage_agree

#ifdef __cplusplus
}
#endif

#endif
