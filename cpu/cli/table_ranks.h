/*
 * table_ranks.h: `apod table --ranks=N`: under the row of a stage that runs
 * across ranks, its weak scaling at N ranks (the problem grown N times by
 * the workload's grow hook, against the deck at 1 rank, both under the
 * launcher, one thread a rank) beside Gustafson's bound for p, the 1-rank
 * run's fraction in the phases it ports.
 */
#ifndef APOD_CLI_TABLE_RANKS_H
#define APOD_CLI_TABLE_RANKS_H

#include "cli.h"
#include "mpirun.h"

struct apod_table_weak {
	int ran;
	int refused;                 /* the stage refused N ranks here (exit 2): not a failure */
	char why[256];               /* where it did not run */
	int ranks;                   /* N */
	double p;                    /* the 1-rank run's fraction in its ports */
	double seconds1, seconds;    /* the deck at 1 rank; grown N times at N ranks */
	double efficiency;           /* seconds1 / seconds */
	double scaled;               /* N * seconds1 / seconds: assumes work linear in N */
	double gustafson;            /* N + (1 - p)(1 - N) */
	int above;                   /* scaled beyond Gustafson by more than the noise */
	char grown[256];             /* "size = 448x287" */
};

/* Before anything runs: the launcher found and the grow to n allowed,
 * where some stage of w runs across ranks here; 0, or -1 after
 * apod_usage_fail. */
int apod_table_ranks_check(const struct apod_workload *w, const void *params, int n,
                           struct apod_mpirun *m);
/* Stage e's weak point at n ranks into out, its runs given the APOD_SIM_
 * flags; 0, or -1 with out->why. */
int apod_table_weak(const struct apod_workload *w, const void *params,
                    const struct apod_stage *e, int n, const struct apod_mpirun *m,
                    unsigned flags, struct apod_table_weak *out);

/* The line under the row; the MODEL BROKEN line where the bound did not
 * bound (nothing where it held); the row's JSON keys. */
void apod_table_weak_print(const struct apod_stage *e, const struct apod_table_weak *k);
void apod_table_weak_broken(const struct apod_stage *e, const struct apod_table_weak *k);
void apod_table_weak_json(json_object *row, const struct apod_table_weak *k);

#endif
