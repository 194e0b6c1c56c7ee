/*
 * cmd_bench.c: `apod bench`: measurements, not tests.
 *
 * The ladder on a deck, with snapshots written to a scratch directory so
 * that a stage that overlaps them with the steps has something to hide;
 * every such stage once more writing the same results but no snapshots,
 * for its compute-only time; then the program's kernel measurements (its
 * apod_program's kernels hook).  Everything goes to the JSON file as well as
 * the screen.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fail.h"
#include "params.h"
#include "outfile.h"
#include "results.h"

/* The headline: per stage, the compute of one step apart from setup and
 * I/O (device time where the stage timed it there), beside the whole run. */
static void headline(json_object *rows)
{
	int traced = 0;
	double base = 0;
	for (size_t i = 0; i < json_object_array_length(rows); i++) {
		json_object *x;
		traced |= json_object_object_get_ex(json_object_array_get_idx(rows, i),
		                                    "device_work_seconds_per_step", &x);
	}
	printf("\n%-7s %16s %16s %14s%s\n", "stage", "compute/step", "vs serial", "whole run (s)",
	       traced ? "      work/step" : "");
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
                   const void *problem, const char *scratch, json_object *rows, json_object *o)
{
	char dir[4200];
	struct apod_run r;
	double total = 0, bg = 0, eff;
	json_object *res;
	snprintf(dir, sizeof dir, "%s/%s-no-snapshots", scratch, e->name);
	if (apod_mkdirs(dir) ||
	    apod_simulate(w, e, params, problem, dir, APOD_SIM_NO_SNAPSHOTS | apod_run_flags(), &r))
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
	int reps, kernels_only, trace;
};

static int bench_opt(int c, const char *arg, void *ctx)
{
	struct bench_opts *o = ctx;
	char *end;
	long v;
	switch (c) {
	case OPT_JSON: o->json = arg; return 0;
	case OPT_KERNELS: o->kernels_only = 1; return 0;
	case OPT_TRACE: o->trace = 1; return 0;
	case OPT_REPS:
		v = strtol(arg, &end, 10);
		if (end == arg || *end || v < 1 || v > 10000)
			return apod_usage_fail("--reps: '%s' is not 1 to 10000", arg);
		o->reps = (int)v;
		return 0;
	}
	return apod_option_fail(c, NULL);
}

int apod_cmd_bench(int argc, char **argv)
{
	static const struct option own[] = {
		{ "json", required_argument, NULL, OPT_JSON },
		{ "reps", required_argument, NULL, OPT_REPS },
		{ "kernels", no_argument, NULL, OPT_KERNELS },
		{ "trace", no_argument, NULL, OPT_TRACE },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	struct apod_deck_opts dopt = { 0 };
	const char *json = NULL;
	char scratch[4096], cmd[4200];
	const char *tmpdir = getenv("TMPDIR");
	struct bench_opts o = { .reps = 20 };
	void *params = NULL, *problem = NULL;
	json_object *out, *rows = NULL, *ov;
	int rc, reps, failed = 0, kernels_only;
	double serial_total = 0;

	if ((rc = apod_deck_command(argc, argv, own, &dopt, bench_opt, &o)) != 0) {
		if (rc < 0)
			return apod_command_error("bench");
		printf("Usage: %s bench [--workload=NAME] [--deck=FILE] [--KEY=VALUE]... [--reps=N]\n"
		       "          [--kernels] [--json=FILE] [--trace]\n"
		       "Measure every stage (whole runs, with snapshots) and the GPU kernels;\n"
		       "--kernels measures the kernels only.  --trace adds each stage's device busy\n"
		       "time per step (CUPTI; it slows every CUDA call, so whole runs are slower).\n",
		       apod_prog->name);
		return APOD_EXIT_OK;
	}
	json = o.json;
	reps = o.reps;
	kernels_only = o.kernels_only;
	if (o.trace && apod_cli_trace_begin())
		return apod_report_failure();
	if (apod_deck_resolve(&params, &dopt))
		return apod_report_failure();
	if (!(problem = dopt.w->problem_create(params))) {
		free(params);
		return apod_report_failure();
	}
	snprintf(scratch, sizeof scratch, "%s/apod-bench-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(scratch)) {
		dopt.w->problem_destroy(problem);
		free(params);
		apod_fail("bench: cannot make a scratch directory: %s", strerror(errno));
		return apod_report_failure();
	}

	out = json_object_new_object();
	json_object_object_add(out, "workload", json_object_new_string(dopt.w->name));
	json_object_object_add(out, "params", apod_params_json(dopt.w, params));
	json_object_object_add(out, "host_cores", json_object_new_int64(sysconf(_SC_NPROCESSORS_ONLN)));
	if (!kernels_only)
		failed |= apod_ladder(dopt.w, params, problem, scratch, &rows, &serial_total) != 0;
	if (rows) {
		json_object_object_add(out, "stages", rows);
		headline(rows);
	}
	ov = json_object_new_object();
	for (int i = 0; !kernels_only && dopt.w->stages[i]; i++) {
		const struct apod_stage *e = dopt.w->stages[i];
		char why[256];
		if (!e->snapshot_begin || !e->available(why, sizeof why) || !dopt.w->snapshot_every ||
		    dopt.w->snapshot_every(params) <= 0)
			continue;
		if (overlap(dopt.w, e, params, problem, scratch, rows, ov))
			failed = 1, apod_report_failure();
	}
	json_object_object_add(out, "snapshot_overlap", ov);
	if (dopt.w->kernels || apod_prog->kernels) {
		/* The workload's own kernels (revision 3), else the program's hook. */
		int rc = dopt.w->kernels ? dopt.w->kernels(problem, reps, out)
		                         : apod_prog->kernels(dopt.w, problem, reps, out);
		/* Kernels that cannot run here (no GPU, no CUDA in the build) are a
		 * note in a whole bench, and a failure where they were asked for. */
		if (rc && (kernels_only || apod_failure_status() != APOD_EXIT_USAGE))
			failed = 1, apod_report_failure();
		else if (rc)
			printf("kernels: not timed: %s\n", apod_failure());
	} else if (kernels_only) {
		apod_usage_fail("bench --kernels: workload %s has no kernels to time", dopt.w->name);
		failed = 2, apod_report_failure();
	}
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
	if (system(cmd) != 0)
		fprintf(stderr, "%s: could not remove %s\n", apod_prog->name, scratch);
	if (json && apod_json_write(json, out))
		failed = 1, apod_report_failure();
	json_object_put(out);
	dopt.w->problem_destroy(problem);
	free(params);
	return failed == 2 ? APOD_EXIT_USAGE : failed ? APOD_EXIT_FAIL : APOD_EXIT_OK;
}
