/*
 * fresh_process.h: each stage of the table in a process of its own.
 *
 * A stage run in the table's own process inherits what the stages before
 * it left: a grown heap, glibc's raised mmap threshold, faulted-in pages.
 * A program that allocates and frees megabytes at every step pays for them
 * in serial's run, first, and not in the next stage's, which then runs the
 * same unported code faster (34-57% in such a program) and would be judged
 * against a bound it seems to break.  So the table runs each stage as
 * `run --no-snapshots` runs it, in a fresh process of this same program,
 * and reads its results directory back.
 */
#ifndef APOD_CLI_FRESH_PROCESS_H
#define APOD_CLI_FRESH_PROCESS_H

#include <limits.h>

#include "cpu/harness/run.h"
#include "scratch.h"

struct apod_fresh {
	int ok;                   /* 0: no fresh processes here; run in this one */
	char exe[PATH_MAX];       /* this program */
	struct apod_scratch scratch;   /* the deck, the children's ceilings, their results */
	char deck[PATH_MAX + 16], ceilings[PATH_MAX + 16];
	unsigned flags;           /* the command's APOD_SIM_ flags: --trace passes on */
};

/* Make the scratch folder and the deck the children read; flags are the
 * command's APOD_SIM_ flags.  Where this program cannot name itself, f->ok
 * is 0 and every stage runs here. */
void apod_fresh_begin(struct apod_fresh *f, const struct apod_workload *w, const void *params,
                      unsigned flags);
/* Stage e in a process of its own (or here, where f->ok is 0): its results
 * in out (kept) or in the scratch folder (read, then removed), loaded into
 * r with its timers.  0, or -1 with the reason (apod_fail). */
int apod_fresh_run(struct apod_fresh *f, const struct apod_workload *w,
                   const struct apod_stage *e, const void *params, const void *problem,
                   const char *out, struct apod_run *r);
struct apod_mpirun;
/* Stage e on params (a deck of their own: a grown problem, say) in a
 * process of its own, or under the launcher m at nranks ranks (each on one
 * OpenMP thread); no snapshots, its results read into r and removed.
 * Needs f->ok.  0, or -1 with the reason (apod_fail). */
int apod_fresh_run_ranks(struct apod_fresh *f, const struct apod_workload *w,
                         const struct apod_stage *e, const void *params,
                         const struct apod_mpirun *m, int nranks, struct apod_run *r);
/* Remove the scratch folder. */
void apod_fresh_end(struct apod_fresh *f);

#endif
