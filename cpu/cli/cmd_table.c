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

#include "bounds.h"
#include "commands.h"
#include "fail.h"
#include "params.h"
#include "results.h"
#include "verify.h"

#define MAX_ROWS 32

struct row {
	const struct apod_stage *e;
	int ran;
	char why[256];
	double total;
	struct apod_bound b;
	struct apod_verdict v;
	int nphases;
	double phase[APOD_MAX_PHASES];
	int has_device;
	double device[APOD_MAX_PHASES];
	double unattributed;      /* the host launching and waiting (with device times) */
	double compute_per_step;  /* the step and the probes, per step (device time where timed) */
	int has_busy;             /* --trace: the device's busy time per phase */
	double busy[APOD_MAX_PHASES], work[APOD_MAX_PHASES], busy_unattributed;
	double busy_per_step, work_per_step;
	double background;
	long snapshots;
};

static void fill_bounds(struct row *w, const struct apod_run *serial, const struct apod_run *r)
{
	unsigned bits[APOD_MAX_PHASES];
	for (int i = 0; i < r->nphases; i++)
		bits[i] = apod_phase_bit(r->w, i);
	apod_bound_eval(r->nphases, serial->phase, r->phase, bits, w->e->ports, r->width, &w->b);
}

/* The phases of a bit mask, "setup+writeSnapshot". */
static void phase_list(const struct apod_workload *wl, unsigned mask, int nphases, char *buf,
                       size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < nphases && used < len; i++)
		if (mask & (1u << i))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? "+" : "",
			                         apod_phase_name(wl, i));
}

static json_object *ports_json(const struct apod_workload *wl, unsigned ports, int nphases)
{
	json_object *a = json_object_new_array();
	for (int i = 0; i < nphases; i++)
		if (ports & apod_phase_bit(wl, i))
			json_object_array_add(a, json_object_new_string(apod_phase_name(wl, i)));
	return a;
}

static json_object *row_json(const struct apod_workload *wl, const struct row *w,
                             double serial_total, double omp_total)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "stage", json_object_new_string(w->e->name));
	json_object_object_add(o, "ran", json_object_new_boolean(w->ran));
	if (!w->ran) {
		json_object_object_add(o, "why", json_object_new_string(w->why));
		return o;
	}
	{
		json_object *ph = json_object_new_object(), *v = json_object_new_object();
		for (int i = 0; i < w->nphases; i++)
			json_object_object_add(ph, apod_phase_name(wl, i), json_object_new_double(w->phase[i]));
		json_object_object_add(o, "phase_seconds", ph);
		if (w->has_device) {
			json_object *dev = json_object_new_object();
			for (int i = 0; i < w->nphases; i++)
				json_object_object_add(dev, apod_phase_name(wl, i),
				                       json_object_new_double(w->device[i]));
			json_object_object_add(o, "device_seconds", dev);
			json_object_object_add(o, "host_launch_and_wait_seconds",
			                       json_object_new_double(w->unattributed));
		}
		/* The compute per step, apart from setup and I/O: device time where
		 * the stage timed it there, host time otherwise. */
		json_object_object_add(o, "compute_seconds_per_step",
		                       json_object_new_double(w->compute_per_step));
		if (w->has_busy) {
			json_object *busy = json_object_new_object(), *work = json_object_new_object();
			for (int i = 0; i < w->nphases; i++) {
				json_object_object_add(busy, apod_phase_name(wl, i),
				                       json_object_new_double(w->busy[i]));
				json_object_object_add(work, apod_phase_name(wl, i),
				                       json_object_new_double(w->work[i]));
			}
			json_object_object_add(o, "device_busy_seconds", busy);
			json_object_object_add(o, "device_work_seconds", work);
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
		json_object_object_add(o, "ports", ports_json(wl, w->e->ports, w->nphases));
		json_object_object_add(o, "ported_fraction", json_object_new_double(w->b.p));
		json_object_object_add(o, "n", json_object_new_double(isinf(w->b.n) ? -1 : w->b.n));
		json_object_object_add(o, "amdahl_at_n", json_object_new_double(w->b.amdahl_n));
		/* JSON has no infinity: -1 stands for an unbounded limit. */
		json_object_object_add(o, "amdahl_limit", json_object_new_double(isinf(w->b.limit) ? -1 : w->b.limit));
		json_object_object_add(o, "bound_holds", json_object_new_boolean(w->b.holds));
		{
			json_object *f = json_object_new_array();
			for (int i = 0; i < w->nphases; i++)
				if (w->b.undeclared_faster & (1u << i))
					json_object_array_add(f, json_object_new_string(apod_phase_name(wl, i)));
			json_object_object_add(o, "undeclared_faster_phases", f);
		}
		json_object_object_add(v, "pass", json_object_new_boolean(w->v.ok));
		/* The first array's figures, then every output's verdict. */
		json_object_object_add(v, "cells_differing", json_object_new_int64((int64_t)w->v.out[0].ndiffer));
		json_object_object_add(v, "max_abs", json_object_new_double(w->v.out[0].max_abs));
		json_object_object_add(v, "max_ulp", json_object_new_int64(w->v.out[0].max_ulp));
		json_object_object_add(v, "rel_l2", json_object_new_double(w->v.out[0].rel_l2));
		{
			json_object *outs = json_object_new_object();
			for (int i = 0; i < w->v.n; i++)
				json_object_object_add(outs, w->v.out[i].name,
				                       json_object_new_boolean(w->v.out[i].ok));
			json_object_object_add(v, "outputs", outs);
		}
		json_object_object_add(o, "verify_against_serial", v);
	}
	return o;
}

/* Run every available stage, verify each against serial, print the table;
 * the rows go to *json_rows (an array) if json_rows is not NULL.  Returns 0
 * if every stage that ran passed. */
int apod_ladder(const struct apod_workload *wl, const void *params, const void *problem,
                const char *out, json_object **json_rows, double *serial_total)
{
	struct apod_run serial = { 0 };
	struct row rows[MAX_ROWS];
	const struct apod_stage *baseline = apod_stage_baseline(wl);
	double omp_total = 0;
	int nrows = 0, failed = 0;

	printf("workload %s, deck %s: %ld steps; %ld cores on this host\n", wl->name,
	       apod_deck_title(wl, params), wl->steps(params), sysconf(_SC_NPROCESSORS_ONLN));
	fflush(stdout);
	for (int i = 0; wl->stages[i] && nrows < MAX_ROWS; i++) {
		struct row *w = &rows[nrows++];
		struct apod_run r;
		char dir[4096], *outdir = NULL;
		memset(w, 0, sizeof *w);
		w->e = wl->stages[i];
		if (!w->e->available(w->why, sizeof w->why))
			continue;
		if (out) {
			snprintf(dir, sizeof dir, "%s/%s", out, w->e->name);
			outdir = dir;
		}
		if (apod_run_stage(wl, w->e, params, problem, outdir, &r)) {
			snprintf(w->why, sizeof w->why, "failed: %s", apod_failure());
			failed = 1;
			if (i == 0)
				break;
			continue;
		}
		w->ran = 1;
		w->total = r.total;
		w->background = r.background;
		w->snapshots = r.snapshots;
		w->nphases = r.nphases;
		memcpy(w->phase, r.phase, sizeof w->phase);
		w->has_device = r.has_device;
		memcpy(w->device, r.device, sizeof w->device);
		w->unattributed = apod_unattributed(&r);
		w->compute_per_step = 0;
		for (int k = 1; k < 2 + apod_probe_count(wl); k++)
			w->compute_per_step += apod_attributed(&r, k);
		w->compute_per_step /= (double)r.steps;
		w->has_busy = r.has_busy;
		memcpy(w->busy, r.busy, sizeof w->busy);
		memcpy(w->work, r.work, sizeof w->work);
		w->busy_unattributed = r.busy_unattributed;
		w->busy_per_step = w->work_per_step = 0;
		for (int k = 1; k < 2 + apod_probe_count(wl); k++) {
			w->busy_per_step += r.busy[k];
			w->work_per_step += r.work[k];
		}
		w->busy_per_step /= (double)r.steps;
		w->work_per_step /= (double)r.steps;
		if (i == 0) {
			serial = r;
			w->v.ok = 1;
		} else {
			apod_verify(params, &serial, &r, &w->v);
			failed |= !w->v.ok;
		}
		fill_bounds(w, &serial, &r);
		if (w->e == baseline)
			omp_total = r.total;
		if (i != 0)
			apod_run_free(&r);
	}

	printf("\n%-7s %10s %9s %8s %6s %16s %9s  %s\n", "stage", "time (s)", "vs serial",
	       "vs omp", "P", "Amdahl at N", "limit", "verification");
	for (int i = 0; i < nrows; i++) {
		struct row *w = &rows[i];
		char vs_omp[16] = "-", at_n[32] = "-", lim[16] = "-", ver[160];
		if (!w->ran) {
			printf("%-7s %s\n", w->e->name, w->why);
			continue;
		}
		if (omp_total > 0)
			snprintf(vs_omp, sizeof vs_omp, "%.2fx", omp_total / w->total);
		if (w->e->ports) {
			snprintf(at_n, sizeof at_n, "%.2fx (N=%.3g)", w->b.amdahl_n, w->b.n);
			snprintf(lim, sizeof lim, isinf(w->b.limit) ? "inf" : "%.1fx", w->b.limit);
		}
		if (w == &rows[0])
			snprintf(ver, sizeof ver, "reference");
		else
			apod_verdict_line(&w->v, ver, sizeof ver);
		printf("%-7s %10.4f %8.2fx %8s %6.3f %16s %9s  %s\n", w->e->name, w->total,
		       rows[0].total / w->total, vs_omp, w->b.p, at_n, lim, ver);
	}
	printf("\nP: fraction of the serial run in the phases the stage declares it changes. Amdahl at\n"
	       "N: the bound with N threads, or for a GPU stage with N = the speedup it measured on\n"
	       "those phases; limit: the bound as N grows without end.  Both assume the phases a\n"
	       "stage does not declare take it at least as long as serial; each row is checked.\n");
	for (int i = 1; i < nrows; i++) {
		struct row *w = &rows[i];
		char list[256];
		if (!w->ran || w->b.holds)
			continue;
		phase_list(wl, w->b.undeclared_faster, w->nphases, list, sizeof list);
		printf("MODEL BROKEN for %s: %s%s%s%s\n", w->e->name,
		       w->b.above_limit ? "its speedup exceeds its Amdahl limit; " :
		       w->b.above_n ? "its speedup exceeds its Amdahl bound at N; " : "",
		       *list ? "faster than serial in " : "", list,
		       *list ? ", which it does not declare (its ports)" : "");
		/* Where the time came from: every phase it did not declare and ran faster. */
		for (int k = 0; k < w->nphases; k++)
			if (!(w->e->ports & apod_phase_bit(wl, k)) &&
			    w->phase[k] < rows[0].phase[k] - fmax(0.02 * rows[0].phase[k], 1e-3))
				printf("  %s's %s took %.4f s against serial's %.4f s (%.1f%% less)\n",
				       w->e->name, apod_phase_name(wl, k), w->phase[k], rows[0].phase[k],
				       100 * (1 - w->phase[k] / rows[0].phase[k]));
	}
	if (!rows[0].ran)
		fprintf(stderr, "%s: the serial reference failed: %s\n", apod_prog->name, rows[0].why);
	if (json_rows && rows[0].ran) {
		*json_rows = json_object_new_array();
		for (int i = 0; i < nrows; i++)
			json_object_array_add(*json_rows, row_json(wl, &rows[i], rows[0].total, omp_total));
	}
	if (serial_total)
		*serial_total = rows[0].total;
	apod_run_free(&serial);
	return failed || !rows[0].ran ? -1 : 0;
}

static int table_opt(int c, const char *arg, void *ctx)
{
	const char **o = ctx;   /* out, json */
	if (c == OPT_OUT)
		o[0] = arg;
	else if (c == OPT_JSON)
		o[1] = arg;
	else
		return apod_option_fail(c, NULL);
	return 0;
}

static const struct option table_options[] = {
	{ "out", required_argument, NULL, OPT_OUT },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "trace", no_argument, NULL, OPT_TRACE },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static int table_main(int argc, char **argv)
{
	struct apod_open o;
	const char *out_json[2] = { NULL, NULL };
	json_object *rows = NULL;
	int failed;

	if (apod_cmd_open(&o, &apod_cmd_table_entry, argc, argv, table_opt, out_json,
	                  APOD_OPEN_PROBLEM))
		return o.status;
	failed = apod_ladder(o.w, o.params, o.problem, out_json[0], out_json[1] ? &rows : NULL,
	                     NULL) != 0;
	if (out_json[1] && rows) {
		json_object *j = apod_json_head(o.w, o.params);
		json_object_object_add(j, "stages", rows);
		if (apod_json_write(out_json[1], j))
			failed = 1, apod_report_failure();
		json_object_put(j);
	}
	apod_cmd_close(&o);
	return failed ? APOD_EXIT_FAIL : APOD_EXIT_OK;
}

/* apod with no command (or `apod table`). */
const struct apod_cmd apod_cmd_table_entry = {
	.name = NULL,
	.help = "run the deck through every available stage and print the APOD table (time, "
	        "speedups, Amdahl bound, verification against serial); also 'table'",
	.synopsis = "[deck options] [--out=DIR] [--json=FILE] [--trace]",
	.about = "Run every available stage and print the APOD table.  --out=DIR: the results\n"
	         "of each stage in DIR/STAGE; --json=FILE: the table's rows.  --trace adds each\n"
	         "stage's device busy time per phase to the JSON (CUPTI; it slows CUDA calls).\n",
	.options = table_options,
	.deck = 1,
	.main = table_main,
};
