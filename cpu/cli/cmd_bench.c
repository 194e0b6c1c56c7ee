/*
 * cmd_bench.c: `apod bench`: measurements, not tests.
 *
 * The ladder on a deck, with snapshots written to a scratch directory so
 * that a stage that overlaps them with the steps has something to hide;
 * every such stage once more writing the same results but no snapshots,
 * for its compute-only time; then the workload's kernel measurements
 * (bench_rows.c).  Everything goes to the JSON file as well as the screen.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_rows.h"
#include "commands.h"
#include "cpu/harness/fail.h"
#include "cpu/harness/outdir.h"
#include "cpu/harness/params.h"
#include "cpu/harness/outfile.h"
#include "cpu/harness/results.h"
#include "scratch.h"

/* How much of the speed of light the step loop (the step and the probes)
 * reached in a stage's row, or -1 where it has none. */
static double loop_reached(json_object *row)
{
	json_object *sol, *x;
	if (!json_object_object_get_ex(row, "speed_of_light", &sol) ||
	    !json_object_object_get_ex(sol, "loop_reached", &x))
		return -1;
	return json_object_get_double(x);
}

/* The headline: per stage, the compute of one step apart from setup and
 * I/O (device time where the stage timed it there), beside the whole run,
 * and the step loop's share of its speed of light. */
static void headline(json_object *rows)
{
	int traced = 0;
	double base = 0;
	for (size_t i = 0; i < json_object_array_length(rows); i++) {
		json_object *x;
		traced |= json_object_object_get_ex(json_object_array_get_idx(rows, i),
		                                    "device_work_seconds_per_step", &x);
	}
	printf("\n%-7s %16s %16s %14s %9s%s\n", "stage", "compute/step", "vs serial", "whole run (s)",
	       "loop SoL", traced ? "      work/step" : "");
	for (size_t i = 0; i < json_object_array_length(rows); i++) {
		json_object *row = json_object_array_get_idx(rows, i), *x, *t, *d, *b;
		double c;
		if (!json_object_object_get_ex(row, "compute_seconds_per_step", &x) ||
		    !json_object_object_get_ex(row, "total_seconds", &t))
			continue;
		c = json_object_get_double(x);
		if (base == 0)
			base = c;
		json_object_object_get_ex(row, "stage", &x);
		printf("%-7s %13.3f ms %15.1fx %14.4f", json_object_get_string(x), 1e3 * c,
		       c > 0 ? base / c : 0.0, json_object_get_double(t));
		if (loop_reached(row) > 0)
			printf(" %8.1f%%", 100 * loop_reached(row));
		else
			printf(" %9s", "-");
		if (traced && json_object_object_get_ex(row, "device_work_seconds_per_step", &b))
			printf(" %11.3f ms", 1e3 * json_object_get_double(b));
		else if (traced)
			printf(" %14s", "-");
		printf("%s\n", json_object_object_get_ex(row, "device_seconds", &d) ? "  (device time)" : "");
	}
}

/* A stage that streams snapshots: the same run without them is its compute
 * time, and the overlap is how much of the streaming that hid. */
static int overlap(const struct apod_workload *w, const struct apod_stage *e, const void *params,
                   const void *problem, const char *scratch, unsigned flags, json_object *rows,
                   json_object *o)
{
	char dir[4200];
	struct apod_run r;
	double total = 0, bg = 0, eff;
	json_object *res;
	snprintf(dir, sizeof dir, "%s/%s-no-snapshots", scratch, e->name);
	if (apod_mkdirs(dir) ||
	    apod_simulate(w, e, params, problem, dir, APOD_SIM_NO_SNAPSHOTS | flags, &r))
		return -1;
	for (size_t i = 0; rows && i < json_object_array_length(rows); i++) {
		json_object *row = json_object_array_get_idx(rows, i), *x;
		if (json_object_object_get_ex(row, "stage", &x) && !strcmp(json_object_get_string(x), e->name)) {
			if (json_object_object_get_ex(row, "total_seconds", &x))
				total = json_object_get_double(x);
			if (json_object_object_get_ex(row, "snapshot_background_seconds", &x))
				bg = json_object_get_double(x);
		}
	}
	/* Perfect overlap: the run takes as long as the longer of its compute
	 * (the run without snapshots) and its snapshot streaming. */
	eff = total > 0 ? fmax(r.total, bg) / total : 0;
	printf("\n%s overlap: %.4f s with snapshots; %.4f s compute only; %.4f s streaming "
	       "snapshots in the background; efficiency %.1f%%\n", e->name, total, r.total, bg, 100 * eff);
	res = json_object_new_object();
	json_object_object_add(res, "overlap_efficiency", json_object_new_double(eff));
	json_object_object_add(res, "snapshot_streaming_seconds", json_object_new_double(bg));
	json_object_object_add(res, "compute_only_seconds", json_object_new_double(r.total));
	json_object_object_add(res, "with_snapshots_seconds", json_object_new_double(total));
	json_object_object_add(o, e->name, res);
	apod_run_free(&r);
	return 0;
}

struct bench_opts {
	const char *json;
	int reps, kernels_only;
};

static int bench_opt(int c, const char *arg, void *ctx)
{
	struct bench_opts *o = ctx;
	switch (c) {
	case OPT_JSON: o->json = arg; return 0;
	case OPT_KERNELS: o->kernels_only = 1; return 0;
	case OPT_REPS: return apod_opt_count("reps", arg, 1, 10000, &o->reps);
	}
	return apod_option_fail(c, NULL);
}

const struct option apod_bench_options[] = {
	APOD_OPT_JSON, APOD_OPT_REPS, APOD_OPT_KERNELS, APOD_OPT_CEILINGS, APOD_OPT_TRACE,
	APOD_OPT_LADDER, APOD_OPT_HELP, APOD_OPT_END,
};

int apod_bench_main(int argc, char **argv)
{
	struct apod_open b;
	struct apod_scratch sc;
	const char *scratch = sc.path;
	struct bench_opts o = { .reps = 20 };
	json_object *out, *rows = NULL, *ov;
	int failed = 0, k, status = APOD_EXIT_FAIL;
	double serial_total = 0;

	if (apod_cmd_open(&b, &apod_cmd_bench_entry, argc, argv, bench_opt, &o,
	                  APOD_OPEN_PROBLEM))
		return b.status;
	if (apod_scratch_make(&sc, "bench")) {
		apod_cmd_close(&b);
		return apod_report_failure();
	}

	out = apod_json_head(b.w, b.params);
	if (!o.kernels_only)
		switch (apod_ladder(b.w, b.params, b.problem, scratch, &b.ladder, &rows, &serial_total)) {
		case 0:
			break;
		case -2:   /* the user's ceilings file: nothing ran; a usage error */
			status = apod_report_failure();
			apod_scratch_remove(&sc);
			json_object_put(out);
			apod_cmd_close(&b);
			return status;
		default:
			failed = 1;
		}
	if (rows) {
		json_object_object_add(out, "stages", rows);
		headline(rows);
	}
	ov = json_object_new_object();
	for (int i = 0; !o.kernels_only && b.w->stages[i]; i++) {
		const struct apod_stage *e = b.w->stages[i];
		char why[256];
		if (!e->ops || !e->ops->snapshot_begin || !apod_stage_available(e, why, sizeof why) ||
		    !b.w->snapshot_every ||
		    b.w->snapshot_every(b.params) <= 0)
			continue;
		if (overlap(b.w, e, b.params, b.problem, scratch, b.flags, rows, ov))
			failed = 1, apod_report_failure();
	}
	json_object_object_add(out, "snapshot_overlap", ov);
	/* Asked for the kernels alone, having none to measure is a failure;
	 * beside the stages, a note. */
	if ((k = apod_bench_kernels(b.w, b.problem, o.reps, out)) < 0 || (k > 0 && o.kernels_only))
		failed = 1, status = apod_report_failure();
	else if (k > 0)
		printf("\nkernels: not measured: %s\n", apod_failure());
	apod_scratch_remove(&sc);
	if (o.json && apod_json_write(o.json, out))
		failed = 1, apod_report_failure();
	json_object_put(out);
	apod_cmd_close(&b);
	/* --kernels for a workload with none is a usage error. */
	return failed && k > 0 && o.kernels_only ? status : failed ? APOD_EXIT_FAIL : APOD_EXIT_OK;
}
