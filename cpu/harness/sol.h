/*
 * sol.h: the speed of light.  How fast could each phase of a stage run on
 * this machine?  The workload declares the work of one occurrence of a
 * phase (apod/workload.h, struct apod_work); `apod ceilings` measures what
 * the host and the device can do; the ratio of the two, taken at the
 * tightest resource, is the phase's least possible time (a roofline).
 *
 * For a stage: every phase it ports at its speed of light on the resource
 * it runs on, every other phase at serial's measured time.  That total is
 * the stage's bound, the speedup it gives is Amdahl's law with N = the
 * ceiling ratio of the ported phases, and the stage's measured time over
 * it is how much of the speed of light it reached.
 */
#ifndef APOD_SOL_H
#define APOD_SOL_H

#include "rundata.h"

/* The bit of struct apod_sol's faster for the step loop as a whole (no
 * phase is numbered that high: APOD_MAX_PHASES < 63). */
#define APOD_SOL_LOOP (1ull << 63)

/* What one resource can do, measured: bytes a second through main
 * memory, FP32 and FP64 operations a second (an FMA two), special
 * functions a second.  A zero is "not measured": that term is left out. */
struct apod_sol_ceiling {
	double bytes, flops32, flops64, special;
};

struct apod_sol_machine {
	int have_host, have_device;
	struct apod_sol_ceiling core;      /* one core of the host */
	struct apod_sol_ceiling cores;     /* every core of the host */
	struct apod_sol_ceiling device;
	double h2d, d2h;                   /* bytes a second across the bus, pinned */
	/* The last-level cache in front of each memory (bytes; 0: unknown).
	 * A phase whose declared bytes fit there may be served from it across
	 * occurrences, faster than main memory allows: its speed of light
	 * (main memory's) is then no bound, and is not held against it. */
	double cache_host, cache_device;
	char why_no_device[256];
};

/* The ceilings `apod ceilings` measured (apod/ceilings.h), as the bound
 * reads them: a resource's bandwidth is the better of STREAM's copy and
 * triad, since a ceiling is the most that was reached. */
struct apod_ceilings;
void apod_sol_machine_from(const struct apod_ceilings *c, struct apod_sol_machine *m);

/* Least seconds for one occurrence of w at ceiling c; with the bus (h2d and
 * d2h bytes/s, both > 0) where over_bus.  The terms can overlap, so it is
 * the largest of them, never their sum.  0 where w declares nothing c
 * measures. */
double apod_sol_seconds(const struct apod_work *w, const struct apod_sol_ceiling *c, int over_bus,
                        double h2d, double d2h);

/* How often phase i runs in a run of `steps` steps that wrote `snapshots`
 * snapshots where the harness runs the step (a stage without advance):
 * each step, each probe's every K steps, once for the rest.  A run's own
 * count is its calls (struct apod_run), which the speed of light uses. */
double apod_sol_occurrences(const struct apod_workload *w, const void *params, long steps,
                            long snapshots, int i);

/* Where a stage's ported phases run (APOD_RUNS_*), from its declaration or,
 * where it has none, from its width (0 threads: a device). */
unsigned apod_sol_runs_on(const struct apod_stage *e, int width);

struct apod_sol {
	int have;                          /* 0: why says why there is no speed of light */
	char why[320];
	/* Per phase, over the run (occurrences counted): its speed of light, or
	 * -1 where it has none (no declared work, or not ported). */
	double phase[APOD_MAX_PHASES];
	double bound;                      /* seconds: the stage's least total */
	/* Amdahl's N that gives the same bound: serial's time in the ported
	 * phases over their speed of light (0 without a serial run). */
	double n;
	double speedup;                    /* serial's total / bound */
	double reached;                    /* bound / the stage's measured total (1 = 100%) */
	/* Phases measured faster than their speed of light beyond the noise
	 * allowance: the declared work, or the ceilings, are wrong.  Bit i:
	 * phase i (setup, writeSnapshot, fetchResults); APOD_SOL_LOOP: the
	 * step's phases and the probes together (a stage may do a probe's work
	 * inside the step), with any phase a device stage's host clocks time
	 * only as launches. */
	unsigned long long faster;
	unsigned long long resident;       /* phases whose bytes fit in the last-level cache */
	/* The step loop alone (the step and the probes, without setup, I/O and
	 * the results): what a stage that ports the loop is held to.
	 * loop_bound is the bound's share in those phases; loop_time the
	 * stage's time there, device time where it timed them on the device
	 * (apod_attributed), host time otherwise; loop_reached their ratio
	 * (0 where the loop took no measured time). */
	double loop_bound, loop_time, loop_reached;
};

/* The speed of light of `stage`, a run of stage e, against `serial`, the
 * reference's run, on machine m.  The reference itself is held to one core
 * in every phase with declared work.  Without serial (`apod run`: one stage
 * alone), a phase the stage does not port counts at its own time.  Returns
 * 0 (with sol->have 0 and a reason where there is none to give). */
int apod_sol_eval(const struct apod_workload *w, const void *params, const struct apod_stage *e,
                  int is_reference, const struct apod_run *serial, const struct apod_run *stage,
                  const struct apod_sol_machine *m, struct apod_sol *sol);

#endif
