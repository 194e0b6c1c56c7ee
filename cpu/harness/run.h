/*
 * run.h: the main loop, written once for every workload and stage.  What
 * one run produced is in rundata.h.
 */
#ifndef APOD_RUN_H
#define APOD_RUN_H

#include "rundata.h"

/* Run stage e of w on the problem.  With outdir, write snapshots and the
 * results there (the directory must exist).  On failure r holds nothing
 * to free.  A progress line goes to stderr if it is a terminal. */
#define APOD_SIM_NO_SNAPSHOTS 1u   /* write the results but take no snapshots */
#define APOD_SIM_TRACE 2u          /* trace the device's busy time per phase (trace.h) */
int apod_simulate(const struct apod_workload *w, const struct apod_stage *e, const void *params,
                  const void *problem, const char *outdir, unsigned flags, struct apod_run *r);

/* Stage e's setup (create) and fetchResults timed again, on a context of
 * its own that takes no step: samples of their run-to-run noise (bounds.h),
 * for a stage of one process that keeps no device marks.  0, or -1 with
 * the failure recorded. */
int apod_retime_setup_fetch(const struct apod_workload *w, const struct apod_stage *e,
                            const void *params, const void *problem, double *setup, double *fetch);

#endif
