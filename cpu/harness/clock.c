/*
 * clock.c: the phases' timers (clock.h), and the regions a stage marks
 * inside its own step (apod/workload.h, revision 5).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "apod/apod.h"
#include "clock.h"
#include "fail.h"
#include "nvtx.h"
#include "timer.h"
#include "trace.h"

void apod_clock_init(struct apod_clock *c, const struct apod_workload *w,
                     const struct apod_stage *e, struct apod_run *r, int trace)
{
	memset(c, 0, sizeof *c);
	c->w = w;
	c->e = e;
	c->r = r;
	c->trace = trace;
	c->open = -1;
}

/* The NVTX range outermost, so that a timeline shows the stage's device
 * marks inside it, and the trace's tag outside the marks, so that the
 * marks' own events are counted in.  The range is popped whatever
 * happens, so the ranges stay paired on failure. */
int apod_clock_enter(struct apod_clock *c, int phase)
{
	const struct apod_stage_ops *o = c->e->ops;
	c->opened = apod_now();
	apod_nvtx_push(phase);
	if (c->trace && apod_trace_enter(phase))
		return apod_nvtx_pop(), -1;
	if (o->mark && o->mark(c->ctx, phase, 0))
		return apod_nvtx_pop(), -1;
	return 0;
}

int apod_clock_leave(struct apod_clock *c, int phase, long calls)
{
	const struct apod_stage_ops *o = c->e->ops;
	double t;
	int rc = 0;
	if (o->mark && o->mark(c->ctx, phase, 1))
		rc = -1;
	else if (c->trace && apod_trace_leave())
		rc = -1;
	apod_nvtx_pop();
	t = apod_now() - c->opened;
	c->r->phase[phase] += t;
	c->r->calls[phase] += calls;
	c->marked += t;
	return rc;
}

/* The stage's first misuse, kept: the run fails with it when advance
 * returns, whatever the stage did with the -1. */
static int misuse(struct apod_clock *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int misuse(struct apod_clock *c, const char *fmt, ...)
{
	if (!c->failed) {
		char what[400];
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(what, sizeof what, fmt, ap);
		va_end(ap);
		snprintf(c->why, sizeof c->why, "stage %s: %s", c->e->name, what);
		c->failed = 1;
	}
	return apod_fail("%s", c->why);
}

/* A failure inside a region's edges (the stage's own mark), kept like a
 * misuse: a stage that does not look at the -1 (a C++ region's
 * destructor) still fails its run. */
static int keep(struct apod_clock *c)
{
	if (!c->failed) {
		snprintf(c->why, sizeof c->why, "%s", apod_failure());
		c->failed = 1;
	}
	return -1;
}

static int is_step_phase(const struct apod_clock *c, int phase)
{
	return phase >= apod_phase_of_step(c->w, 0) &&
	       phase < apod_phase_of_step(c->w, apod_step_phase_count(c->w));
}

int apod_phase_find(const struct apod_clock *c, const char *name)
{
	int n;
	if (!c)
		return apod_fail("apod_phase_find: no clock (it is create_timed's)");
	n = apod_step_phase_count(c->w);
	for (int j = 0; name && j < n; j++)
		if (!strcmp(c->w->phases[j].name, name))
			return apod_phase_of_step(c->w, j);
	return apod_fail("stage %s: workload %s declares no step phase called '%s'",
	                 c->e->name, c->w->name, name ? name : "(null)");
}

int apod_phase_begin(struct apod_clock *c, int phase)
{
	if (!c)
		return apod_fail("apod_phase_begin: no clock (it is create_timed's)");
	if (!is_step_phase(c, phase))
		return misuse(c, "apod_phase_begin(%d): no step phase has that handle "
		              "(apod_phase_find gives them)", phase);
	if (!c->in_step)
		return misuse(c, "phase %s begun outside advance: a region is marked inside "
		              "the stage's step", apod_phase_name(c->w, phase));
	if (c->open >= 0)
		return misuse(c, "phase %s begun while phase %s is open: regions do not nest "
		              "or overlap", apod_phase_name(c->w, phase),
		              apod_phase_name(c->w, c->open));
	c->open = phase;
	if (apod_clock_enter(c, phase)) {
		c->open = -1;
		return keep(c);
	}
	return 0;
}

int apod_phase_end(struct apod_clock *c, int phase)
{
	if (!c)
		return apod_fail("apod_phase_end: no clock (it is create_timed's)");
	if (!is_step_phase(c, phase))
		return misuse(c, "apod_phase_end(%d): no step phase has that handle "
		              "(apod_phase_find gives them)", phase);
	if (c->open != phase)
		return misuse(c, "phase %s ended, but %s%s%s", apod_phase_name(c->w, phase),
		              c->open < 0 ? "no phase is open" : "phase ",
		              c->open < 0 ? "" : apod_phase_name(c->w, c->open),
		              c->open < 0 ? "" : " is open");
	c->open = -1;
	return apod_clock_leave(c, phase, 1) ? keep(c) : 0;
}

int apod_clock_advance(struct apod_clock *c, long step, long steps)
{
	double t0 = apod_now(), t;
	int rc;
	c->marked = 0;
	c->in_step = 1;
	rc = c->e->ops->advance(c->ctx, step, steps);
	c->in_step = 0;
	t = apod_now() - t0;
	if (c->open >= 0) {
		/* Close what the stage left open, so the ranges and the trace's
		 * tag stay paired.  A stage that failed inside a region keeps its
		 * own reason; one that returned 0 with a region open misused it. */
		int open = c->open, usage = apod_failure_status() == APOD_EXIT_USAGE;
		char why[1024];
		snprintf(why, sizeof why, "%s", apod_failure());
		c->open = -1;
		apod_clock_leave(c, open, 0);
		if (rc && !c->failed)
			return usage ? apod_usage_fail("%s", why) : apod_fail("%s", why);
		misuse(c, "advance returned from step %ld with phase %s still open (every "
		       "apod_phase_begin needs its apod_phase_end)", step, apod_phase_name(c->w, open));
	}
	if (c->failed)
		return apod_fail("%s", c->why);
	if (rc)
		return -1;
	c->r->unmarked += t - c->marked > 0 ? t - c->marked : 0;
	return 0;
}
