/*
 * mpirun.h: the launcher that starts a stage's ranks (scale --ranks, table
 * --ranks): APOD_MPIRUN (default mpirun), found before anything runs, and
 * APOD_MPIRUN_ARGS, its own options (--oversubscribe, -x VAR, a hostfile),
 * split at blanks; no quoting, as the shell tests pass them.
 */
#ifndef APOD_CLI_MPIRUN_H
#define APOD_CLI_MPIRUN_H

#include <limits.h>

#define APOD_MPIRUN_MAX_ARGS 32

struct apod_mpirun {
	char path[PATH_MAX];
	int nargs;
	char *args[APOD_MPIRUN_MAX_ARGS];
	char buf[4096];             /* what args point into */
};

/* 0, or -1 after apod_usage_fail: no such launcher, or its options too
 * many or too long. */
int apod_mpirun_find(struct apod_mpirun *m);

/* argv[0..] = launcher, -np N, its options; the count written (at most
 * APOD_MPIRUN_MAX_ARGS + 3).  The strings live in m and np (>= 16 bytes). */
int apod_mpirun_argv(const struct apod_mpirun *m, int nranks, char *np, char **argv);

struct apod_stage;
/* A stage that runs as several processes, one a rank (its ops declare a
 * reporter: apod/workload.h); 0 for one not in this build. */
int apod_stage_runs_ranks(const struct apod_stage *e);

#endif
