/*
 * run_sol.c: `apod run`'s speed of light: each phase with declared work
 * against its least time on the resource the stage runs on (sol.h), and
 * the whole run's share of it, on the screen and in the report.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "cpu/harness/sol.h"

/* Phase i ran faster than its speed of light: on its own, or as one of
 * the step and the probes, which are held to it together (sol.h). */
static int too_fast(const struct apod_run *r, const struct apod_sol *sol, int i)
{
	int compute = i >= 1 && i <= apod_step_phase_count(r->w) + apod_probe_count(r->w);
	return (sol->faster & (1ull << i)) || (compute && (sol->faster & APOD_SOL_LOOP) &&
	                                      sol->phase[i] >= 0 && !(sol->resident & (1ull << i)));
}

static const char *where(unsigned on)
{
	if (on & APOD_RUNS_DEVICE)
		return on & APOD_RUNS_OVER_BUS ? "the device, its data over the bus every step"
		                               : "the device";
	return on & APOD_RUNS_HOST_CORES ? "every core of the host" : "one core of the host";
}

void apod_run_sol_print(FILE *f, const struct apod_run *r, const struct apod_stage *e,
                        const struct apod_sol *sol)
{
	int nw = apod_phase_width(r->w, 16), marks = 0;
	unsigned on = e == r->w->stages[0] ? APOD_RUNS_HOST_CORE : apod_sol_runs_on(e, r->width);
	if (!sol->have) {
		fprintf(f, "speed of light: none: %s\n", sol->why);
		return;
	}
	fprintf(f, "speed of light, on %s:\n", where(on));
	fprintf(f, "  %-*s %12s %12s %8s\n", nw, "phase", "SoL s", "taken s", "% SoL");
	for (int i = 0; i < r->nphases; i++) {
		const char *mark = too_fast(r, sol, i) ? "!" : sol->resident & (1ull << i) ? "*" : "";
		if (sol->phase[i] < 0)
			continue;
		marks |= *mark;
		/* The time the speed of light holds it to: the device's where the
		 * stage timed the phase there. */
		double taken = apod_attributed(r, i);
		fprintf(f, "  %-*s %12.6g %12.6f %7.1f%%%s\n", nw, apod_phase_name(r->w, i),
		        sol->phase[i], taken, taken > 0 ? 100 * sol->phase[i] / taken : 0.0, mark);
	}
	fprintf(f, "  stage: %.1f%% of its speed of light (at least %.6g s of the %.6g s it took)\n",
	       100 * sol->reached, sol->bound, r->total);
	fprintf(f, "  SoL: the phase's declared work over this machine's measured ceilings; taken:\n"
	        "  device time where the stage timed the phase there.  The stage's whole run\n"
	        "  counts every phase, those without declared work at the time they took.  The\n"
	        "  step and the probes are held to it together: a stage that does a probe's\n"
	        "  work inside its step shows that probe above 100%%.\n");
	if (marks && sol->resident)
		fprintf(f, "  *: the phase's data fit in the last-level cache, which can beat the\n"
		        "  main-memory speed of light: it is not held to it.\n");
	if (sol->faster)
		fprintf(f, "  !: MODEL BROKEN: faster than its speed of light%s: the work %s declares,\n"
		        "  or this machine's ceilings, are wrong\n",
		        sol->faster & APOD_SOL_LOOP ? " (here, its step and probes together)" : "",
		        r->w->name);
}

json_object *apod_sol_json(const struct apod_run *r, const struct apod_sol *sol)
{
	json_object *o = json_object_new_object(), *ph, *secs, *f;
	if (!sol->have) {
		json_object_object_add(o, "why_not", json_object_new_string(sol->why));
		return o;
	}
	ph = json_object_new_object();
	secs = json_object_new_object();
	f = json_object_new_array();
	for (int i = 0; i < r->nphases; i++) {
		json_object *p;
		double taken = apod_attributed(r, i);
		if (sol->phase[i] < 0)
			continue;
		p = json_object_new_object();
		json_object_object_add(p, "sol_seconds", json_object_new_double(sol->phase[i]));
		json_object_object_add(p, "seconds", json_object_new_double(taken));
		json_object_object_add(p, "reached",
		                       json_object_new_double(taken > 0 ? sol->phase[i] / taken : 0));
		json_object_object_add(p, "cache_resident",
		                       json_object_new_boolean(!!(sol->resident & (1ull << i))));
		json_object_object_add(p, "faster_than_light",
		                       json_object_new_boolean(too_fast(r, sol, i)));
		json_object_object_add(ph, apod_phase_name(r->w, i), p);
		json_object_object_add(secs, apod_phase_name(r->w, i),
		                       json_object_new_double(sol->phase[i]));
		if (too_fast(r, sol, i))
			json_object_array_add(f, json_object_new_string(apod_phase_name(r->w, i)));
	}
	json_object_object_add(o, "bound_seconds", json_object_new_double(sol->bound));
	/* Against serial: the table's rows have one, `run` alone has none. */
	if (sol->speedup > 0)
		json_object_object_add(o, "speedup", json_object_new_double(sol->speedup));
	json_object_object_add(o, "reached", json_object_new_double(sol->reached));
	/* The step loop alone (the step and the probes): what a tuned stage's
	 * kernels and probes answer for, apart from setup and I/O. */
	json_object_object_add(o, "loop_bound_seconds", json_object_new_double(sol->loop_bound));
	json_object_object_add(o, "loop_seconds", json_object_new_double(sol->loop_time));
	json_object_object_add(o, "loop_reached", json_object_new_double(sol->loop_reached));
	json_object_object_add(o, "phases", ph);
	json_object_object_add(o, "phase_seconds", secs);
	json_object_object_add(o, "faster_than_light", f);
	return o;
}
