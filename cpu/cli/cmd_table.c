/*
 * cmd_table.c: `apod` with no command.  The deck through every stage that
 * can run here, each verified against serial, each speedup set beside the
 * bound Amdahl's law puts on it: the whole APOD cycle on one screen.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/harness/bounds.h"
#include "commands.h"
#include "cpu/harness/fail.h"
#include "cpu/harness/params.h"
#include "cpu/harness/results.h"
#include "cpu/harness/sol.h"
#include "cpu/harness/verify.h"
#include "fresh.h"
#include "report.h"
#include "table_ranks.h"

#define MAX_ROWS 32

struct row {
	const struct apod_stage *e;
	unsigned long long ports;  /* the phases it names in its ports, as bits */
	int ran;
	int available;            /* it could run here: its why says what became of it */
	char why[256];
	double total;
	struct apod_bound b;
	int has_width;            /* the stage runs on threads (Amdahl's N is its width) */
	int width;
	struct apod_verdict v;
	int nphases;
	double phase[APOD_MAX_PHASES];
	long calls[APOD_MAX_PHASES];  /* occurrences of each phase */
	int has_device;
	double device[APOD_MAX_PHASES];
	double unattributed;      /* the host launching and waiting (with device times) */
	double compute_per_step;  /* the step and the probes, per step (device time where timed) */
	int has_busy;             /* --trace: the device's busy time per phase */
	double busy[APOD_MAX_PHASES], work[APOD_MAX_PHASES], busy_unattributed;
	double busy_per_step, work_per_step;
	double background;
	long snapshots;
	struct apod_sol sol;
	double bound;             /* the one bound printed: Amdahl at N, SoL, or their lower */
	int bound_kind;           /* BOUND_* */
	int above_bound;
	int has_weak;             /* --ranks: a stage that runs across ranks */
	struct apod_table_weak weak;
};

enum { BOUND_NONE, BOUND_AMDAHL, BOUND_SOL, BOUND_LIMIT };

/* A stage that changes the algorithm on the same hardware (its role): no
 * count of workers makes its gain, so Amdahl at N does not apply; what
 * bounds it is Amdahl's limit (its phases taking no time at all) and its
 * speed of light. */
static int is_algorithm(const struct row *w)
{
	return w->e->role == APOD_ROLE_ALGORITHM;
}

/* The bound that predicts (doc/assess.md): a stage on threads is held to
 * Amdahl's law at its thread count and to the speed of light of the
 * host's cores, whichever is lower; a device stage to its speed of light
 * alone, Amdahl's law with N the ceiling ratio of what it ports.  Without
 * a speed of light a device stage has no bound: N would be its own
 * measured speedup, which bounds nothing. */
static void choose_bound(struct row *w)
{
	w->bound_kind = BOUND_NONE;
	if (is_algorithm(w) && w->ports && isfinite(w->b.limit)) {
		w->bound = w->b.limit;
		w->bound_kind = BOUND_LIMIT;
	} else if (w->b.n > 0 && w->ports && w->has_width) {
		w->bound = w->b.amdahl_n;
		w->bound_kind = BOUND_AMDAHL;
	}
	if (w->sol.have && w->sol.speedup > 0 && w->ports &&
	    (w->bound_kind == BOUND_NONE || w->sol.speedup < w->bound)) {
		w->bound = w->sol.speedup;
		w->bound_kind = BOUND_SOL;
	}
	w->above_bound = w->bound_kind != BOUND_NONE && w->b.speedup > w->bound * (1 + APOD_BOUND_NOISE);
}

static void fill_sol(struct row *w, const void *params, const struct apod_run *serial,
                     const struct apod_run *r, const struct apod_sol_machine *m, int reference)
{
	w->width = r->width;
	w->has_width = r->width > 0;
	if (m)
		apod_sol_eval(r->w, params, w->e, reference, serial, r, m, &w->sol);
	else
		snprintf(w->sol.why, sizeof w->sol.why, "no ceilings for this machine");
}

/* Whether two rows ran the step's phases and the probes as often. */
static int same_calls(const struct apod_workload *wl, const struct row *a, const struct row *b)
{
	for (int k = 1; k <= apod_step_phase_count(wl) + apod_probe_count(wl); k++)
		if (a->calls[k] != b->calls[k])
			return 0;
	return 1;
}

/* How often the step's phases and the probes ran: the reference's, and a
 * stage's own where they differ from it (a stage that runs the program's
 * step its own way). */
static void print_calls(const struct apod_workload *wl, const struct row *w, int reference,
                        long steps)
{
	int col;
	col = printf("%s %s's calls in %ld steps:", reference ? "phases," : "   ", w->e->name, steps);
	for (int k = 1; k <= apod_step_phase_count(wl) + apod_probe_count(wl); k++) {
		char item[160];
		int n = snprintf(item, sizeof item, " %s %ld%s", apod_phase_name(wl, k), w->calls[k],
		                 k < apod_step_phase_count(wl) + apod_probe_count(wl) ? "," : "");
		if (col + n > 88)
			col = printf("\n   ") - 1;
		col += printf("%s", item);
	}
	putchar('\n');
}

/* After every stage ran: the noise (bounds.h) is known by then. */
static void fill_bounds(struct row *w, const struct apod_workload *wl, const double *serial,
                        const struct apod_noise *noise)
{
	unsigned long long bits[APOD_MAX_PHASES];
	for (int i = 0; i < w->nphases; i++)
		bits[i] = apod_phase_bit(wl, i);
	/* An algorithm's N is its measured gain on the phases it changes (width
	 * 0, as a device's), not the threads it runs on. */
	apod_bound_eval(w->nphases, serial, w->phase, bits, w->ports, is_algorithm(w) ? 0 : w->width,
	                noise, &w->b);
	choose_bound(w);
}

/* How many more timings of the reference's setup and fetchResults the
 * table takes, and what share of the reference's run they may cost at
 * most: on a large deck they are a few percent of it. */
#define NOISE_RETIMES 2
#define NOISE_BUDGET 0.25

/* The noise of each phase (bounds.h): the reference's run, its setup and
 * fetchResults timed again where that is cheap, and writeReport as every
 * stage that leaves it to the harness ran it (the same code, whatever the
 * stage). */
static void sample_noise(const struct apod_workload *wl, const void *params, const void *problem,
                         const struct row *rows, int nrows, struct apod_noise *noise)
{
	int fetch = apod_phase_fetch(wl), report = apod_phase_report(wl);
	const struct row *ref = &rows[0];
	double cost = ref->phase[0] + ref->phase[fetch];
	apod_noise_init(noise, ref->nphases, ref->phase);
	/* A reference of several processes would have to agree on the count. */
	for (int k = 1; k <= NOISE_RETIMES && !ref->e->ops->reporter &&
	                k * cost <= NOISE_BUDGET * ref->total; k++) {
		double setup, fetched;
		if (apod_retime_setup_fetch(wl, ref->e, params, problem, &setup, &fetched))
			break;   /* it ran once: the noise is that run's */
		apod_noise_add(noise, 0, setup);
		apod_noise_add(noise, fetch, fetched);
	}
	for (int i = 1; i < nrows; i++)
		if (rows[i].ran && !(rows[i].ports & apod_phase_bit(wl, report)) &&
		    rows[i].phase[report] > 0)
			apod_noise_add(noise, report, rows[i].phase[report]);
}

static json_object *noise_json(const struct apod_workload *wl, const struct apod_noise *n,
                               int nphases)
{
	json_object *o = json_object_new_object(), *t = json_object_new_object(),
	            *l = json_object_new_object(), *a = json_object_new_object();
	for (int i = 0; i < nphases; i++) {
		json_object_object_add(t, apod_phase_name(wl, i), json_object_new_int(n->samples[i]));
		json_object_object_add(l, apod_phase_name(wl, i), json_object_new_double(n->least[i]));
		json_object_object_add(a, apod_phase_name(wl, i),
		                       json_object_new_double(apod_noise_allowance(n, i)));
	}
	json_object_object_add(o, "timings", t);
	json_object_object_add(o, "least_seconds", l);
	json_object_object_add(o, "allowance_seconds", a);
	return o;
}

/* The phases of a bit mask, "setup+writeSnapshot". */
static void phase_list(const struct apod_workload *wl, unsigned long long mask, int nphases, char *buf,
                       size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < nphases && used < len; i++)
		if (mask & (1ull << i))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "+" : "",
			                         apod_phase_name(wl, i));
}

static json_object *ports_json(const struct apod_workload *wl, unsigned long long ports, int nphases)
{
	json_object *a = json_object_new_array();
	for (int i = 0; i < nphases; i++)
		if (ports & apod_phase_bit(wl, i))
			json_object_array_add(a, json_object_new_string(apod_phase_name(wl, i)));
	return a;
}

/* The speed of light of a row, as `run` reports it (apod_sol_json), from
 * the phases the row kept of its run. */
static json_object *sol_json(const struct apod_workload *wl, const struct row *w)
{
	struct apod_run view = { .w = wl, .nphases = w->nphases, .has_device = w->has_device };
	memcpy(view.phase, w->phase, sizeof view.phase);
	memcpy(view.device, w->device, sizeof view.device);
	return apod_sol_json(&view, &w->sol);
}

/* The roofline of a row (apod report): every phase it ports with declared
 * work, its work per occurrence, how often it ran, the time it took (the
 * device's where the stage timed it there) and whose ceilings are its roof. */
static json_object *roofline_json(const struct apod_workload *wl, const void *params,
                                  const void *problem, const struct row *w, int reference)
{
	json_object *a = json_object_new_array();
	struct apod_run view = { .w = wl, .nphases = w->nphases, .has_device = w->has_device };
	unsigned on = reference ? APOD_RUNS_HOST_CORE : apod_sol_runs_on(w->e, w->width);
	memcpy(view.phase, w->phase, sizeof view.phase);
	memcpy(view.device, w->device, sizeof view.device);
	for (int i = 0; i < w->nphases && wl->work; i++) {
		struct apod_work wk = { 0 };
		json_object *p;
		int dev = apod_device_timed(&view, i);
		if ((!reference && !(w->ports & apod_phase_bit(wl, i))) ||
		    !wl->work(params, problem, apod_phase_name(wl, i), &wk))
			continue;
		p = json_object_new_object();
		json_object_object_add(p, "phase", json_object_new_string(apod_phase_name(wl, i)));
		json_object_object_add(p, "occurrences", json_object_new_double((double)w->calls[i]));
		json_object_object_add(p, "bytes", json_object_new_double(wk.bytes));
		json_object_object_add(p, "flops", json_object_new_double(wk.flops32 + wk.flops64));
		json_object_object_add(p, "seconds", json_object_new_double(dev ? w->device[i] : w->phase[i]));
		json_object_object_add(p, "timed_on", json_object_new_string(dev ? "device" : "host"));
		json_object_object_add(p, "roof", json_object_new_string(
			on & APOD_RUNS_DEVICE ? "device" : on & APOD_RUNS_HOST_CORES ? "host_cores" : "host_core"));
		json_object_array_add(a, p);
	}
	return a;
}

/* JSON has no infinity: null stands for a difference its tolerance did not
 * allow at all. */
static json_object *of_tol_json(double r)
{
	return isfinite(r) ? json_object_new_double(r) : NULL;
}

/* The output that came closest to its tolerance; null where all are bitwise. */
static json_object *worst_json(const struct apod_verdict *v)
{
	int k = apod_verdict_worst(v);
	const struct apod_output_verdict *o;
	json_object *x;
	if (k < 0)
		return NULL;
	o = &v->out[k];
	x = json_object_new_object();
	json_object_object_add(x, "output", json_object_new_string(o->name));
	{
		char kind[128];
		apod_verdict_kind(o, kind, sizeof kind);
		json_object_object_add(x, "comparison", json_object_new_string(kind));
	}
	json_object_object_add(x, "pass", json_object_new_boolean(o->ok));
	json_object_object_add(x, "values_differing", json_object_new_int64((int64_t)o->ndiffer));
	if (o->compare == APOD_COMPARE_COUNTS)
		json_object_object_add(x, "max_moved_fraction", json_object_new_double(o->max_frac));
	else
		json_object_object_add(x, "max_abs", json_object_new_double(o->max_abs));
	if (!o->integer && o->compare != APOD_COMPARE_COUNTS) {
		json_object_object_add(x, "max_ulp", json_object_new_int64(o->max_ulp));
		/* Near zero, where atol decides, a count of ulps is no alarm. */
		json_object_object_add(x, "ulp_where_absolute_term_decides",
		                       json_object_new_boolean(o->ulp_absolute));
	}
	json_object_object_add(x, "of_tolerance", of_tol_json(o->of_tol));
	return x;
}

static json_object *row_json(const struct apod_workload *wl, const void *params,
                             const void *problem, const struct row *w, double serial_total, double omp_total,
                             const struct row *first)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "stage", json_object_new_string(w->e->name));
	json_object_object_add(o, "ran", json_object_new_boolean(w->ran));
	if (!w->ran) {
		json_object_object_add(o, "why", json_object_new_string(w->why));
		return o;
	}
	{
		json_object *v = json_object_new_object();
		json_object_object_add(o, "phase_seconds", apod_phases_json(wl, w->phase, w->nphases));
		json_object_object_add(o, "phase_calls", apod_calls_json(wl, w->calls, w->nphases));
		if (w->has_device) {
			json_object_object_add(o, "device_seconds",
			                       apod_phases_json(wl, w->device, w->nphases));
			json_object_object_add(o, "host_launch_and_wait_seconds",
			                       json_object_new_double(w->unattributed));
		}
		/* The compute per step, apart from setup and I/O: device time where
		 * the stage timed it there, host time otherwise. */
		json_object_object_add(o, "compute_seconds_per_step",
		                       json_object_new_double(w->compute_per_step));
		if (w->has_busy) {
			json_object_object_add(o, "device_busy_seconds",
			                       apod_phases_json(wl, w->busy, w->nphases));
			json_object_object_add(o, "device_work_seconds",
			                       apod_phases_json(wl, w->work, w->nphases));
			json_object_object_add(o, "device_busy_unattributed_seconds",
			                       json_object_new_double(w->busy_unattributed));
			/* The same compute phases as compute_seconds_per_step. */
			json_object_object_add(o, "device_busy_seconds_per_step",
			                       json_object_new_double(w->busy_per_step));
			json_object_object_add(o, "device_work_seconds_per_step",
			                       json_object_new_double(w->work_per_step));
		}
		json_object_object_add(o, "total_seconds", json_object_new_double(w->total));
		json_object_object_add(o, "snapshots", json_object_new_int64(w->snapshots));
		json_object_object_add(o, "snapshot_background_seconds", json_object_new_double(w->background));
		json_object_object_add(o, "speedup_vs_serial", json_object_new_double(serial_total / w->total));
		if (omp_total > 0)
			json_object_object_add(o, "speedup_vs_omp", json_object_new_double(omp_total / w->total));
		json_object_object_add(o, "ports", ports_json(wl, w->ports, w->nphases));
		json_object_object_add(o, "ported_fraction", json_object_new_double(w->b.p));
		/* A device stage's N is its ceiling ratio (its speed of light), not
		 * the speedup it measured; -1 where there is none. */
		json_object_object_add(o, "n", json_object_new_double(
			w->has_width ? w->b.n : w->sol.have && isfinite(w->sol.n) ? w->sol.n : -1));
		json_object_object_add(o, "amdahl_at_n", json_object_new_double(
			w->has_width ? w->b.amdahl_n : w->sol.have ? w->sol.speedup : -1));
		json_object_object_add(o, "bound", json_object_new_double(
			w->bound_kind == BOUND_NONE ? -1 : w->bound));
		json_object_object_add(o, "bound_kind", json_object_new_string(
			w->bound_kind == BOUND_SOL ? "speed_of_light" :
			w->bound_kind == BOUND_AMDAHL ? "amdahl" :
			w->bound_kind == BOUND_LIMIT ? "amdahl_limit" : "none"));
		json_object_object_add(o, "role", json_object_new_string(
			w->e->role == APOD_ROLE_ALGORITHM ? "algorithm" :
			w->e->role == APOD_ROLE_HOST_BASELINE ? "host_baseline" : "port"));
		json_object_object_add(o, "speed_of_light", sol_json(wl, w));
		json_object_object_add(o, "roofline", roofline_json(wl, params, problem, w, w == first));
		/* JSON has no infinity: -1 stands for an unbounded limit. */
		json_object_object_add(o, "amdahl_limit", json_object_new_double(isinf(w->b.limit) ? -1 : w->b.limit));
		json_object_object_add(o, "bound_holds", json_object_new_boolean(w->b.holds));
		{
			json_object *f = json_object_new_array();
			for (int i = 0; i < w->nphases; i++)
				if (w->b.undeclared_faster & (1ull << i))
					json_object_array_add(f, json_object_new_string(apod_phase_name(wl, i)));
			json_object_object_add(o, "undeclared_faster_phases", f);
		}
		json_object_object_add(v, "pass", json_object_new_boolean(w->v.ok));
		json_object_object_add(v, "worst", worst_json(&w->v));
		/* The first output's figures (as before the worst was named), then
		 * every output's verdict. */
		json_object_object_add(v, "cells_differing", json_object_new_int64((int64_t)w->v.out[0].ndiffer));
		json_object_object_add(v, "max_abs", json_object_new_double(w->v.out[0].max_abs));
		json_object_object_add(v, "max_ulp", json_object_new_int64(w->v.out[0].max_ulp));
		json_object_object_add(v, "rel_l2", json_object_new_double(w->v.out[0].rel_l2));
		{
			json_object *outs = json_object_new_object(), *tols = json_object_new_object();
			/* Keyed by the label: an output a horizon splits has a part
			 * each side of it, and a failure before must not be hidden by
			 * the part after. */
			for (int i = 0; i < w->v.n; i++) {
				char label[160];
				apod_verdict_label(&w->v.out[i], label, sizeof label);
				json_object_object_add(outs, label, json_object_new_boolean(w->v.out[i].ok));
				json_object_object_add(tols, label, of_tol_json(w->v.out[i].of_tol));
			}
			json_object_object_add(v, "outputs", outs);
			json_object_object_add(v, "of_tolerance", tols);
		}
		json_object_object_add(o, "verify_against_serial", v);
		if (w->has_weak)
			apod_table_weak_json(o, &w->weak);
	}
	return o;
}

/* Run every available stage, verify each against serial, print the table;
 * the rows go to *json_rows (an array) if json_rows is not NULL.  Returns as
 * cli.h says. */
int apod_ladder(const struct apod_workload *wl, const void *params, const void *problem,
                const char *out, json_object **json_rows, double *serial_total)
{
	struct apod_run serial = { 0 };
	static struct row rows[MAX_ROWS];
	static struct apod_run runs[MAX_ROWS];
	const struct apod_stage *baseline = apod_stage_baseline(wl);
	struct apod_sol_machine machine;
	const struct apod_sol_machine *m = NULL;
	struct apod_noise noise = { { 0 }, { 0 }, { 0 } };
	struct apod_fresh fresh;
	char no_machine[512] = "";
	double omp_total = 0;
	int nrows = 0, failed = 0;

	switch (apod_cli_machine(&machine, no_machine, sizeof no_machine)) {
	case 0:
		m = &machine;
		break;
	case -2:
		return -2;   /* the user's ceilings file: their mistake, said by the caller */
	}

	printf("workload %s, deck %s: %ld steps; %ld cores on this host\n", wl->name,
	       apod_deck_title(wl, params), wl->steps(params), sysconf(_SC_NPROCESSORS_ONLN));
	fflush(stdout);
	/* Every stage runs first, in a process of its own, in the ladder's order
	 * or (--reverse) serial last, so that a reader can check that no
	 * stage's time depends on which ran before it; then each is verified
	 * and bounded against serial. */
	while (wl->stages[nrows] && nrows < MAX_ROWS)
		nrows++;
	memset(rows, 0, sizeof rows);
	memset(runs, 0, sizeof runs);
	/* Every row names its stage, whether or not it runs: a row the loop
	 * below never reaches (after the reference failed) is still printed. */
	for (int i = 0; i < nrows; i++) {
		rows[i].e = wl->stages[i];
		rows[i].ports = apod_stage_ports(wl, rows[i].e);
	}
	apod_fresh_begin(&fresh, wl, params);
	for (int n = 0; n < nrows; n++) {
		int i = apod_cli_table_reverse ? nrows - 1 - n : n;
		struct row *w = &rows[i];
		char dir[4096], *outdir = NULL;
		if (!apod_stage_available(w->e, w->why, sizeof w->why))
			continue;
		w->available = 1;
		if (i != 0 && !rows[0].ran && !apod_cli_table_reverse) {
			/* Nothing could be held to a reference that failed. */
			snprintf(w->why, sizeof w->why, "not run: the serial reference failed");
			continue;
		}
		if (out) {
			snprintf(dir, sizeof dir, "%s/%s", out, w->e->name);
			outdir = dir;
		}
		if (apod_fresh_run(&fresh, wl, w->e, params, problem, outdir, &runs[i])) {
			snprintf(w->why, sizeof w->why, "failed: %s", apod_failure());
			failed = 1;
			continue;
		}
		w->ran = 1;
	}
	apod_fresh_end(&fresh);
	for (int i = 1; i < nrows && !rows[0].ran; i++)
		if (rows[i].ran) {   /* nothing to hold it to */
			rows[i].ran = 0;
			apod_run_free(&runs[i]);
			snprintf(rows[i].why, sizeof rows[i].why, "not compared: the reference failed");
		}
	for (int i = 0; i < nrows && rows[0].ran; i++) {
		struct row *w = &rows[i];
		struct apod_run *r = &runs[i];
		if (!w->ran)
			continue;
		w->total = r->total;
		w->background = r->background;
		w->snapshots = r->snapshots;
		w->nphases = r->nphases;
		memcpy(w->phase, r->phase, sizeof w->phase);
		memcpy(w->calls, r->calls, sizeof w->calls);
		w->has_device = r->has_device;
		memcpy(w->device, r->device, sizeof w->device);
		w->unattributed = apod_unattributed(r);
		w->compute_per_step = 0;
		for (int k = 1; k <= apod_step_phase_count(wl) + apod_probe_count(wl); k++)
			w->compute_per_step += apod_attributed(r, k);
		w->compute_per_step /= (double)r->steps;
		w->has_busy = r->has_busy;
		memcpy(w->busy, r->busy, sizeof w->busy);
		memcpy(w->work, r->work, sizeof w->work);
		w->busy_unattributed = r->busy_unattributed;
		w->busy_per_step = w->work_per_step = 0;
		for (int k = 1; k <= apod_step_phase_count(wl) + apod_probe_count(wl); k++) {
			w->busy_per_step += r->busy[k];
			w->work_per_step += r->work[k];
		}
		w->busy_per_step /= (double)r->steps;
		w->work_per_step /= (double)r->steps;
		if (i == 0) {
			w->v.ok = 1;
		} else {
			apod_verify(params, &runs[0], r, &w->v);
			failed |= !w->v.ok;
		}
		fill_sol(w, params, &runs[0], r, m, i == 0);
		if (w->e == baseline)
			omp_total = r->total;
	}
	for (int i = 1; i < nrows; i++)
		if (rows[i].ran)
			apod_run_free(&runs[i]);
	serial = runs[0];
	/* --ranks: weak scaling, once every row's own run is done. */
	for (int i = 1; i < nrows && apod_cli_table_ranks > 0 && apod_cli_table_mpirun; i++)
		if (rows[i].ran && apod_stage_runs_ranks(rows[i].e)) {
			rows[i].has_weak = 1;
			failed |= apod_table_weak(wl, params, rows[i].e, apod_cli_table_ranks,
			                          apod_cli_table_mpirun, &rows[i].weak) != 0;
		}
	/* The bounds, against the noise measured now that every stage ran. */
	if (rows[0].ran)
		sample_noise(wl, params, problem, rows, nrows, &noise);
	for (int i = 0; i < nrows; i++)
		if (rows[i].ran)
			fill_bounds(&rows[i], wl, rows[0].phase, &noise);

	printf("\n%-7s %10s %9s %8s %7s %15s %11s %7s %8s  %s\n", "stage", "time (s)", "vs serial",
	       "vs omp", "P", "Amdahl at N", "SoL bound", "% SoL", "limit", "verification");
	for (int i = 0; i < nrows; i++) {
		struct row *w = &rows[i];
		char vs_omp[16] = "-", at_n[32] = "-", sol[32] = "-", lim[16] = "-", pct[16] = "-";
		char ver[160], p[16];
		int digits = 3;
		if (!w->ran) {
			/* Six GPU stages without a driver give one reason: said once. */
			int same = -1;
			for (int k = 0; k < i && same < 0 && !w->available; k++)
				if (!rows[k].ran && !rows[k].available && !strcmp(rows[k].why, w->why))
					same = k;
			if (same >= 0)
				printf("%-7s not available: as %s\n", w->e->name, rows[same].e->name);
			else
				printf("%-7s %s\n", w->e->name, w->why);
			continue;
		}
		/* P to as many places as it takes not to read 1 where the limit
		 * below is finite ('-' there: P within 1e-5 of 1). */
		while (digits < 5 && w->b.p < 1 && 1 - w->b.p >= 1e-5 &&
		       floor(w->b.p * pow(10, digits) + 0.5) >= pow(10, digits))
			digits++;
		snprintf(p, sizeof p, "%.*f", digits, w->b.p);
		if (omp_total > 0)
			snprintf(vs_omp, sizeof vs_omp, "%.2fx", omp_total / w->total);
		/* Both bounds; the one that binds (the lower, for threads) is the
		 * one the row is checked against, marked '<'. */
		if (is_algorithm(w) && w->ports)
			snprintf(at_n, sizeof at_n, "algo %.3gx", w->b.n);
		else if (w->has_width && w->ports)
			snprintf(at_n, sizeof at_n, "%s%.4gx (N=%.3g)",
			         w->bound_kind == BOUND_AMDAHL && w->sol.have ? "<" : "", w->b.amdahl_n,
			         w->b.n);
		if (w->sol.have && w->ports)
			snprintf(sol, sizeof sol, "%s%.4gx",
			         w->bound_kind == BOUND_SOL && w->has_width ? "<" : "", w->sol.speedup);
		/* 1/(1-P) where P rounds to 1 says nothing a reader can use. */
		if (w->ports && isfinite(w->b.limit) && w->b.limit <= 1e5)
			snprintf(lim, sizeof lim, "%s%.1fx", w->bound_kind == BOUND_LIMIT ? "<" : "",
			         w->b.limit);
		if (w->sol.have)
			snprintf(pct, sizeof pct, "%.1f%%%s", 100 * w->sol.reached,
			         w->sol.resident ? "*" : "");
		if (w == &rows[0])
			snprintf(ver, sizeof ver, "reference");
		else
			apod_verdict_line(&w->v, ver, sizeof ver);
		printf("%-7s %10.4f %8.2fx %8s %7s %15s %11s %7s %8s  %s\n", w->e->name, w->total,
		       rows[0].total / w->total, vs_omp, p, at_n, sol, pct, lim, ver);
		if (w->has_weak)
			apod_table_weak_print(w->e, &w->weak);
	}
	for (int i = 0; i < nrows; i++)
		if (rows[i].ran && (i == 0 || !same_calls(wl, &rows[0], &rows[i])))
			print_calls(wl, &rows[i], i == 0, wl->steps(params));
	printf("\nP: the fraction of the serial run in the phases a stage declares it changes.\n"
	       "Amdahl at N: the most a stage on N threads could gain over serial.  SoL bound:\n"
	       "the speed of light, every phase it ports at the work the workload declares over\n"
	       "this machine's measured ceilings, the rest at serial's time (for a GPU stage,\n"
	       "Amdahl's law with N the ceiling ratio).  '<': the lower, which binds.  %% SoL:\n"
	       "that least time over the time taken.  limit: Amdahl's bound as N grows without\n"
	       "end, 1/(1-P) ('-': P within 1e-5 of 1, so no limit worth printing; P is given\n"
	       "to as many places as it takes to tell it from 1 where a limit is printed).\n"
	       "verification: the gate's verdict and the output that came closest to its\n"
	       "tolerance (`apod verify` shows every output).  The ceilings are measured once\n"
	       "and cached: `%s ceilings` shows them, `%s ceilings --refresh` measures them\n"
	       "again (on an idle machine), --ceilings=FILE takes another's.\n",
	       apod_prog->name, apod_prog->name);
	if (apod_cli_table_ranks > 0)
		printf("weak (--ranks=N): the problem grown N times (the workload's grow hook) at N\n"
		       "ranks against the deck at 1 rank, both under the launcher, one thread a rank.\n"
		       "efficiency: T(1) / T(N); scaled speedup: N T(1) / T(N) (assumes the work\n"
		       "linear in N); Gustafson: N + (1 - p)(1 - N), p the 1-rank run's fraction in\n"
		       "the phases the stage ports.  '<': the bound the scaled speedup is held to.\n");
	for (int i = 0; i < nrows; i++)
		if (rows[i].ran && is_algorithm(&rows[i])) {
			printf("algo: a stage that changes the algorithm, not the hardware (its role): its\n"
			       "gain on the phases it changes, measured.  No count of workers makes it, so\n"
			       "it is held to the limit ('<') and its speed of light, not to Amdahl at N.\n");
			break;
		}
	for (int i = 0; i < nrows; i++)
		if (rows[i].ran && rows[i].sol.resident) {
			printf("*: some phase's data fit in the last-level cache, which can beat the main-\n"
			       "memory speed of light: that phase is not held to it.\n");
			break;
		}
	if (!m)
		printf("No speed of light: %s\n", no_machine);
	for (int i = 0; i < nrows; i++)
		if (rows[i].ran && !rows[i].sol.have && m) {
			printf("No speed of light for %s: %s\n", rows[i].e->name, rows[i].sol.why);
			break;
		}
	for (int i = 0; i < nrows; i++)
		if (rows[i].has_weak)
			apod_table_weak_broken(rows[i].e, &rows[i].weak);
	for (int i = 0; i < nrows; i++) {
		struct row *w = &rows[i];
		char list[256];
		if (!w->ran || (w->b.holds && !w->above_bound && !w->sol.faster))
			continue;
		if (w->sol.faster) {
			phase_list(wl, w->sol.faster & ~APOD_SOL_LOOP, w->nphases, list, sizeof list);
			printf("MODEL BROKEN for %s: faster than its speed of light in %s%s: the work "
			       "%s declares there, or this machine's ceilings, are wrong\n", w->e->name,
			       list, w->sol.faster & APOD_SOL_LOOP ? (*list ? " and in its step and "
			       "probes together" : "its step and probes together") : "", wl->name);
			for (int k = 0; k < w->nphases; k++)
				if (w->sol.faster & (1ull << k))
					printf("  %s's %s took %.4g s; its speed of light is %.4g s\n",
					       w->e->name, apod_phase_name(wl, k), w->phase[k],
					       w->sol.phase[k]);
		}
		if (i == 0 || (w->b.holds && !w->above_bound))
			continue;
		phase_list(wl, w->b.undeclared_faster, w->nphases, list, sizeof list);
		printf("MODEL BROKEN for %s: %s%s%s%s\n", w->e->name,
		       w->b.above_limit ? "its speedup exceeds its Amdahl limit; " :
		       w->above_bound ? "its speedup exceeds its bound; " :
		       w->b.above_n ? "its speedup exceeds Amdahl's law at its N; " : "",
		       *list ? "faster than serial in " : "", list,
		       *list ? ", which it does not declare (its ports)" : "");
		/* Where the time came from: every phase it did not declare and ran
		 * faster, beyond the noise or not. */
		for (int k = 0; k < w->nphases; k++)
			if (!(w->ports & apod_phase_bit(wl, k)) &&
			    w->phase[k] < noise.least[k] - fmax(0.02 * noise.least[k], 1e-3))
				printf("  %s's %s took %.4f s against serial's %.4f s (%.1f%% less; "
				       "the noise allowed %.4f s, from %d timing%s)\n", w->e->name,
				       apod_phase_name(wl, k), w->phase[k], noise.least[k],
				       100 * (1 - w->phase[k] / noise.least[k]),
				       apod_noise_allowance(&noise, k), noise.samples[k],
				       noise.samples[k] == 1 ? "" : "s");
	}
	if (!rows[0].ran)
		fprintf(stderr, "%s: the serial reference %s%s\n", apod_prog->name,
		        strncmp(rows[0].why, "failed: ", 8) ? "failed: " : "", rows[0].why);
	/* The JSON holds every row, also where the reference failed: a script
	 * reads why from the rows rather than finding no file. */
	if (json_rows) {
		*json_rows = json_object_new_array();
		for (int i = 0; i < nrows; i++)
			json_object_array_add(*json_rows, row_json(wl, params, problem, &rows[i], rows[0].total,
			                                           omp_total, &rows[0]));
		/* What the reference's row was held to: its phases' noise. */
		if (rows[0].ran)
			json_object_object_add(json_object_array_get_idx(*json_rows, 0), "phase_noise",
			                       noise_json(wl, &noise, rows[0].nphases));
	}
	if (serial_total)
		*serial_total = rows[0].total;
	apod_run_free(&serial);
	return failed || !rows[0].ran ? -1 : 0;
}

/* Of this command alone: above cli.h's codes, below OPT_PARAM. */
enum { OPT_TABLE_RANKS = 1910 };

static int table_opt(int c, const char *arg, void *ctx)
{
	const char **o = ctx;   /* out, json */
	if (c == OPT_TABLE_RANKS)
		return apod_opt_count("ranks", arg, 1, 1024, &apod_cli_table_ranks);
	if (c == OPT_OUT)
		o[0] = arg;
	else if (c == OPT_JSON)
		o[1] = arg;
	else if (c == OPT_CEILINGS)
		apod_cli_ceilings_file = arg;
	else if (c == OPT_REVERSE)
		apod_cli_table_reverse = 1;
	else
		return apod_option_fail(c, NULL);
	return 0;
}

int apod_cli_table_reverse;
int apod_cli_table_ranks;
const struct apod_mpirun *apod_cli_table_mpirun;

const struct option apod_table_options[] = {
	APOD_OPT_OUT, APOD_OPT_JSON, APOD_OPT_CEILINGS, APOD_OPT_TRACE,
	{ "reverse", no_argument, NULL, OPT_REVERSE },
	{ "ranks", required_argument, NULL, OPT_TABLE_RANKS }, APOD_OPT_HELP, APOD_OPT_END,
};

int apod_table_main(int argc, char **argv)
{
	struct apod_open o;
	const char *out_json[2] = { NULL, NULL };
	json_object *rows = NULL;
	static struct apod_mpirun mpirun;
	int failed;

	if (apod_cmd_open(&o, &apod_cmd_table_entry, argc, argv, table_opt, out_json,
	                  APOD_OPEN_PROBLEM))
		return o.status;
	if (apod_cli_table_ranks > 0) {
		if (apod_table_ranks_check(o.w, o.params, apod_cli_table_ranks, &mpirun)) {
			apod_cmd_close(&o);
			return apod_report_failure();
		}
		apod_cli_table_mpirun = &mpirun;
	}
	failed = apod_ladder(o.w, o.params, o.problem, out_json[0], out_json[1] ? &rows : NULL,
	                     NULL);
	if (failed == -2) {
		apod_cmd_close(&o);
		return apod_report_failure();
	}
	if (out_json[1] && rows) {
		json_object *j = apod_json_head(o.w, o.params);
		/* What apod report --from shows of where the table was made. */
		apod_report_context(j, argc - 1, argv + 1);
		json_object_object_add(j, "stages", rows);
		if (apod_json_write(out_json[1], j))
			failed = 1, apod_report_failure();
		json_object_put(j);
	}
	apod_cmd_close(&o);
	return failed ? APOD_EXIT_FAIL : APOD_EXIT_OK;
}

/* apod with no command (or `apod table`). */
