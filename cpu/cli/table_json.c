/*
 * table_json.c: the APOD table's rows as JSON (apod --json, apod report):
 * each row's median times with their intervals, its bounds, its verdicts
 * and its cells as the terminal printed them.
 */
#include <math.h>
#include <string.h>

#include "cpu/harness/results.h"
#include "table_print.h"
#include "table_rows.h"

static json_object *interval_json(const struct apod_spread *s)
{
	json_object *a = json_object_new_array();
	json_object_array_add(a, json_object_new_double(s->lo));
	json_object_array_add(a, json_object_new_double(s->hi));
	return a;
}

/* The runs behind a row's medians: how many, the interval of each time and
 * how sure it is. */
static void spread_json(json_object *o, const struct apod_workload *wl, const struct row *w)
{
	json_object *p = json_object_new_object();
	json_object_object_add(o, "runs", json_object_new_int(w->total_s.n));
	json_object_object_add(o, "total_seconds_interval", interval_json(&w->total_s));
	json_object_object_add(o, "interval_coverage", json_object_new_double(w->total_s.coverage));
	json_object_object_add(o, "spread", json_object_new_double(apod_spread_rel(&w->total_s)));
	for (int i = 0; i < w->nphases; i++)
		json_object_object_add(p, apod_phase_name(wl, i), interval_json(&w->phase_s[i]));
	json_object_object_add(o, "phase_seconds_interval", p);
}

/* The row's verdict: "holds", "broken" (the whole interval beyond a
 * bound) or "too_noisy" (the median beyond it, the interval not). */
static const char *verdict_of(const struct row *w, int reference)
{
	if (!apod_table_suspect(w, reference))
		return "holds";
	if (!apod_table_sure(w, reference))
		return "too_noisy";
	/* Sure of one thing, and perhaps not of another: broken is what counts. */
	return "broken";
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

static void put_num(json_object *o, const char *key, double x)
{
	json_object_object_add(o, key, json_object_new_double(x));
}

static void put_phases(json_object *o, const char *key, const struct apod_workload *wl,
                       const double *t, int nphases)
{
	json_object_object_add(o, key, apod_phases_json(wl, t, nphases));
}

/* The row's medians: each phase's, the device's where it timed them, the
 * whole run's with the spread of its runs, and the speedups. */
static void times_json(json_object *o, const struct apod_workload *wl, const struct row *w,
                       double serial_total, double omp_total)
{
	put_phases(o, "phase_seconds", wl, w->phase, w->nphases);
	json_object_object_add(o, "phase_calls", apod_calls_json(wl, w->calls, w->nphases));
	if (w->has_device) {
		put_phases(o, "device_seconds", wl, w->device, w->nphases);
		put_num(o, "host_launch_and_wait_seconds", w->unattributed);
	}
	/* The compute per step, apart from setup and I/O: device time where
	 * the stage timed it there, host time otherwise. */
	put_num(o, "compute_seconds_per_step", w->compute_per_step);
	if (w->has_busy) {
		put_phases(o, "device_busy_seconds", wl, w->busy, w->nphases);
		put_phases(o, "device_work_seconds", wl, w->work, w->nphases);
		put_num(o, "device_busy_unattributed_seconds", w->busy_unattributed);
		/* The same compute phases as compute_seconds_per_step. */
		put_num(o, "device_busy_seconds_per_step", w->busy_per_step);
		put_num(o, "device_work_seconds_per_step", w->work_per_step);
	}
	put_num(o, "total_seconds", w->total);
	spread_json(o, wl, w);
	json_object_object_add(o, "snapshots", json_object_new_int64(w->snapshots));
	put_num(o, "snapshot_background_seconds", w->background);
	put_num(o, "speedup_vs_serial", serial_total / w->total);
	if (omp_total > 0)
		put_num(o, "speedup_vs_omp", omp_total / w->total);
}

/* What bounds the row: the phases it ports, Amdahl's and the speed of
 * light, the roofline, and whether the bound held. */
static void bounds_json(json_object *o, const struct apod_workload *wl, const void *params,
                        const void *problem, const struct row *w, const struct row *first)
{
	json_object *f = json_object_new_array();
	json_object_object_add(o, "ports", ports_json(wl, w->ports, w->nphases));
	put_num(o, "ported_fraction", w->b.p);
	/* A device stage's N is its ceiling ratio (its speed of light), not
	 * the speedup it measured; -1 where there is none. */
	put_num(o, "n", w->has_width ? w->b.n : w->sol.have && isfinite(w->sol.n) ? w->sol.n : -1);
	put_num(o, "amdahl_at_n", w->has_width ? w->b.amdahl_n : w->sol.have ? w->sol.speedup : -1);
	put_num(o, "bound", w->bound_kind == BOUND_NONE ? -1 : w->bound);
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
	put_num(o, "amdahl_limit", isinf(w->b.limit) ? -1 : w->b.limit);
	json_object_object_add(o, "bound_holds", json_object_new_boolean(
		!(w->beyond_sure || w->undeclared_sure)));
	for (int i = 0; i < w->nphases; i++)
		if (w->undeclared_sure & (1ull << i))
			json_object_array_add(f, json_object_new_string(apod_phase_name(wl, i)));
	json_object_object_add(o, "undeclared_faster_phases", f);
}

/* The row against serial: its verdict, the worst output, each output's. */
static json_object *verify_json(const struct row *w)
{
	json_object *v = json_object_new_object();
	json_object *outs = json_object_new_object(), *tols = json_object_new_object();
	json_object_object_add(v, "pass", json_object_new_boolean(w->v.ok));
	json_object_object_add(v, "worst", worst_json(&w->v));
	/* The first output's figures, what a reader of a one-output workload
	 * looks for, then every output's verdict. */
	json_object_object_add(v, "cells_differing", json_object_new_int64((int64_t)w->v.out[0].ndiffer));
	put_num(v, "max_abs", w->v.out[0].max_abs);
	json_object_object_add(v, "max_ulp", json_object_new_int64(w->v.out[0].max_ulp));
	put_num(v, "rel_l2", w->v.out[0].rel_l2);
	/* Keyed by the label: an output a horizon splits has a part each side
	 * of it, and a failure before must not be hidden by the part after. */
	for (int i = 0; i < w->v.n; i++) {
		char label[160];
		apod_verdict_label(&w->v.out[i], label, sizeof label);
		json_object_object_add(outs, label, json_object_new_boolean(w->v.out[i].ok));
		json_object_object_add(tols, label, of_tol_json(w->v.out[i].of_tol));
	}
	json_object_object_add(v, "outputs", outs);
	json_object_object_add(v, "of_tolerance", tols);
	return v;
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
	times_json(o, wl, w, serial_total, omp_total);
	bounds_json(o, wl, params, problem, w, first);
	json_object_object_add(o, "verify_against_serial", verify_json(w));
	if (w->has_weak)
		apod_table_weak_json(o, &w->weak);
	return o;
}

json_object *apod_table_rows_json(const struct ladder *l, const char *notes)
{
	json_object *a = json_object_new_array(), *ref;
	for (int i = 0; i < l->nrows; i++) {
		json_object *o = row_json(l->wl, l->params, l->problem, &l->rows[i], l->rows[0].total,
		                          l->omp_total, &l->rows[0]);
		if (l->rows[i].ran) {
			struct apod_table_cells c;
			json_object *cells = json_object_new_array();
			apod_table_row_cells(l, i, &c);
			for (int k = 0; k < APOD_TABLE_NCOLS; k++)
				json_object_array_add(cells, json_object_new_string(c.c[k]));
			json_object_object_add(o, "cells", cells);
			json_object_object_add(o, "verdict",
			                       json_object_new_string(verdict_of(&l->rows[i], i == 0)));
		}
		json_object_array_add(a, o);
	}
	/* What the reference's row was held to: its phases' noise. */
	ref = json_object_array_get_idx(a, 0);
	if (l->rows[0].ran)
		json_object_object_add(ref, "phase_noise",
		                       noise_json(l->wl, &l->noise, l->rows[0].nphases));
	json_object_object_add(ref, "busy_host", json_object_new_boolean(apod_table_busy(l)));
	json_object_object_add(ref, "load_average", json_object_new_double(fmax(l->load_start,
	                                                                         l->load_end)));
	json_object_object_add(ref, "cores", json_object_new_int64(l->cores));
	if (notes)
		json_object_object_add(ref, "notes", json_object_new_string(notes));
	return a;
}
