/*
 * clock.h: the one way a phase is timed.  Every occurrence of every phase,
 * whether the harness runs it (a revision-4 stage's fixed list of step
 * phases, the probes, the snapshots, the fetch) or the stage marks it
 * inside its own step (apod_phase_begin and apod_phase_end, revision 5),
 * goes through apod_clock_enter and apod_clock_leave: host seconds, the
 * stage's device marks, the trace's tag, the NVTX range and the calls.
 */
#ifndef APOD_CLOCK_H
#define APOD_CLOCK_H

#include "apod/workload.h"
#include "rundata.h"

struct apod_clock {
	const struct apod_workload *w;
	const struct apod_stage *e;
	struct apod_run *r;
	void *ctx;                /* the stage's, for its mark(); NULL before create returns */
	int trace;                /* tag the CUDA calls of each phase (trace.h) */
	int in_step;              /* inside advance: the stage may mark regions */
	int open;                 /* the phase of the region the stage has open; -1: none */
	double opened;            /* when the open phase was entered */
	double marked;            /* seconds inside the stage's regions, since reset */
	int failed;               /* the stage misused its regions: why says how */
	char why[512];
};

void apod_clock_init(struct apod_clock *c, const struct apod_workload *w,
                     const struct apod_stage *e, struct apod_run *r, int trace);
/* Open phase `phase` (the table's index), and close it counting `calls`
 * occurrences (0 where the time belongs to occurrences already counted: a
 * deferred probe's rows collected, a snapshot's last write joined).  0, or
 * -1 after apod_fail(). */
int apod_clock_enter(struct apod_clock *c, int phase);
int apod_clock_leave(struct apod_clock *c, int phase, long calls);

/* One step of a stage with advance: the stage's own step, its regions
 * checked.  Time inside advance outside every region is added to the
 * run's unmarked seconds.  0, or -1 after apod_fail() naming the misuse. */
int apod_clock_advance(struct apod_clock *c, long step, long steps);

#endif
