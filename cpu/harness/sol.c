#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "apod/ceilings.h"
#include "bounds.h"
#include "sol.h"

/* This host's last-level cache (the ceilings' file does not keep it). */
static double host_cache_bytes(void)
{
	long b = -1;
#ifdef _SC_LEVEL3_CACHE_SIZE
	b = sysconf(_SC_LEVEL3_CACHE_SIZE);
	if (b <= 0)
		b = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
	return b > 0 ? (double)b : 0;
}

static void ceiling_from(const struct apod_ceiling *r, struct apod_sol_ceiling *c)
{
	c->bytes = fmax(r->bandwidth, r->triad);
	c->flops32 = r->fp32;
	c->flops64 = r->fp64;
	c->special = r->special;
}

void apod_sol_machine_from(const struct apod_ceilings *c, struct apod_sol_machine *m)
{
	memset(m, 0, sizeof *m);
	m->have_host = c->r[APOD_CEIL_HOST_ONE].measured && c->r[APOD_CEIL_HOST_ALL].measured;
	ceiling_from(&c->r[APOD_CEIL_HOST_ONE], &m->core);
	ceiling_from(&c->r[APOD_CEIL_HOST_ALL], &m->cores);
	m->have_device = c->r[APOD_CEIL_DEVICE].measured;
	ceiling_from(&c->r[APOD_CEIL_DEVICE], &m->device);
	if (!m->have_device)
		snprintf(m->why_no_device, sizeof m->why_no_device, "%s", c->r[APOD_CEIL_DEVICE].why);
	m->h2d = c->r[APOD_CEIL_H2D].measured ? c->r[APOD_CEIL_H2D].bandwidth : 0;
	m->cache_host = host_cache_bytes();
	m->d2h = c->r[APOD_CEIL_D2H].measured ? c->r[APOD_CEIL_D2H].bandwidth : 0;
}

static double term(double amount, double rate)
{
	return amount > 0 && rate > 0 ? amount / rate : 0;
}

double apod_sol_seconds(const struct apod_work *w, const struct apod_sol_ceiling *c, int over_bus,
                        double h2d, double d2h)
{
	double t = term(w->bytes, c->bytes);
	t = fmax(t, term(w->flops32, c->flops32));
	t = fmax(t, term(w->flops64, c->flops64));
	t = fmax(t, term(w->special, c->special));
	if (over_bus) {
		t = fmax(t, term(w->h2d_bytes, h2d));
		t = fmax(t, term(w->d2h_bytes, d2h));
	}
	return t;
}

unsigned apod_sol_runs_on(const struct apod_stage *e, int width)
{
	if (e->runs_on)
		return e->runs_on;
	if (width == 0)
		return APOD_RUNS_DEVICE;
	return width == 1 ? APOD_RUNS_HOST_CORE : APOD_RUNS_HOST_CORES;
}

double apod_sol_occurrences(const struct apod_workload *w, const void *params, long steps,
                            long snapshots, int i)
{
	int nstep = apod_step_phase_count(w), k = i - 1 - nstep;
	if (i >= 1 && i <= nstep)
		return (double)steps;
	if (k >= 0 && k < apod_probe_count(w))
		return (double)apod_probe_rows(w, k, params, steps);
	if (i == apod_phase_snapshot(w))
		return (double)snapshots;
	return 1;   /* setup, fetchResults, writeReport */
}

/* How often phase i ran in r: its calls, which its declared work (one
 * occurrence's) is counted for. */
static double occurrences(const struct apod_run *r, int i)
{
	return (double)r->calls[i];
}

/* The time of phase i that can be held against its speed of light: the
 * device's where the stage timed the phase there, the host's where the
 * stage runs on the host; else none (-1): a GPU stage's host clocks time
 * launches, and the wait lands in whichever phase synchronises. */
static double checkable(const struct apod_run *r, int i, unsigned on)
{
	if (apod_device_timed(r, i))
		return r->device[i];
	return on & APOD_RUNS_DEVICE ? -1 : r->phase[i];
}

int apod_sol_eval(const struct apod_workload *w, const void *params, const struct apod_stage *e,
                  int is_reference, const struct apod_run *serial, const struct apod_run *stage,
                  const struct apod_sol_machine *m, struct apod_sol *sol)
{
	unsigned on = is_reference ? APOD_RUNS_HOST_CORE : apod_sol_runs_on(e, stage->width);
	const struct apod_sol_ceiling *c;
	double sum_sol = 0, sum_time = 0, ported_serial = 0, ported_sol = 0;
	int declared = 0, unchecked = 0, loop_end = apod_step_phase_count(w) + apod_probe_count(w);
	unsigned long long ports = apod_stage_ports(w, e);
	const void *problem = serial ? serial->problem : stage->problem;

	memset(sol, 0, sizeof *sol);
	for (int i = 0; i < APOD_MAX_PHASES; i++)
		sol->phase[i] = -1;
	if (!w->work) {
		snprintf(sol->why, sizeof sol->why, "%s declares no work per phase", w->name);
		return 0;
	}
	if (on & APOD_RUNS_DEVICE) {
		if (!m->have_device) {
			snprintf(sol->why, sizeof sol->why, "no device ceilings: %s", m->why_no_device);
			return 0;
		}
		c = &m->device;
	} else if (!m->have_host) {
		snprintf(sol->why, sizeof sol->why, "no host ceilings");
		return 0;
	} else {
		c = on & APOD_RUNS_HOST_CORES ? &m->cores : &m->core;
	}

	sol->bound = 0;
	for (int i = 0; i < stage->nphases; i++) {
		struct apod_work wk = { 0 };
		int ported = is_reference || (ports & apod_phase_bit(w, i));
		/* The step loop: the step's phases and the probes. */
		int compute = i >= 1 && i <= loop_end;
		double t, measured, cache;
		if (!ported || !w->work(params, problem, apod_phase_name(w, i), &wk)) {
			/* Not ported: serial's time is the bound's (the stage's own
			 * where there is no serial run to hand).  Ported with no work
			 * declared: nothing is known of its least time but that it is
			 * at least 0, except for the reference, which measured it. */
			const struct apod_run *ref = serial ? serial : stage;
			t = !ported || is_reference ? ref->phase[i] : 0;
			sol->bound += t;
			sol->loop_bound += compute ? t : 0;
			continue;
		}
		declared = 1;
		/* A device stage carries setup's data over and the results back
		 * whatever it does; the steps only where it keeps the state home. */
		t = occurrences(stage, i) *
		    apod_sol_seconds(&wk, c, (on & APOD_RUNS_DEVICE) &&
		                             (!compute || (on & APOD_RUNS_OVER_BUS)),
		                     m->h2d, m->d2h);
		sol->phase[i] = t;
		sol->bound += t;
		sol->loop_bound += compute ? t : 0;
		ported_sol += t;
		ported_serial += serial ? serial->phase[i] : 0;
		measured = checkable(stage, i, on);
		cache = on & APOD_RUNS_DEVICE ? m->cache_device : m->cache_host;
		if (wk.bytes > 0 && cache > 0 && wk.bytes <= cache &&
		    t <= occurrences(stage, i) * term(wk.bytes, c->bytes) * (1 + 1e-12)) {
			/* Bound by bytes that fit in the cache: no bound to hold it to. */
			sol->resident |= 1ull << i;
		} else if (measured < 0 || compute) {
			/* The step and the probes are held to their speed of light
			 * together: a stage may do a probe's work inside the step (gpu4
			 * and gpu5 take the statistics in the sweep), which moves the
			 * time, not the work.  So are the phases whose host clocks time
			 * launches: their sum still bounds. */
			unchecked = 1;
			sum_sol += t;
			sum_time += measured < 0 ? stage->phase[i] : measured;
		} else if (measured < t * (1 - APOD_BOUND_NOISE)) {
			sol->faster |= 1ull << i;
		}
	}
	if (unchecked && sum_time < sum_sol * (1 - APOD_BOUND_NOISE))
		sol->faster |= APOD_SOL_LOOP;
	if (!declared) {
		snprintf(sol->why, sizeof sol->why, "%s declares no work in the phases %s ports",
		         w->name, e->name);
		return 0;
	}
	sol->have = 1;
	sol->n = ported_sol > 0 ? ported_serial / ported_sol : INFINITY;
	sol->speedup = !serial ? 0 : sol->bound > 0 ? serial->total / sol->bound : INFINITY;
	sol->reached = stage->total > 0 ? sol->bound / stage->total : 0;
	for (int i = 1; i <= loop_end && i < stage->nphases; i++)
		sol->loop_time += apod_attributed(stage, i);
	sol->loop_reached = sol->loop_time > 0 ? sol->loop_bound / sol->loop_time : 0;
	return 0;
}
