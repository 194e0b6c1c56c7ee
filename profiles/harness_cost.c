/*
 * harness_cost: what the harness itself costs a run, so that a stage's
 * figures can be read net of it.
 *
 * On the host: one clock read, a step of a stage that does nothing (the
 * loop's own work), and one more phase occurrence of a step (its two
 * clock reads, its two marks with their NVTX ranges, the mark callback
 * where the stage has one), each timed through apod_simulate itself, not
 * a copy of its loop.  Built with CUDA, the device side too (gpu/
 * harness_cost.cu): what an empty kernel's step costs the host and the
 * device with no timing, with phase events at every mark, with events at
 * phase edges only, and captured as a CUDA graph.
 *
 *     profiles/harness_cost [--steps=N] [--reps=N] [--json=FILE]
 *
 * A benchmark, not a test: it prints figures and asserts nothing about
 * them (doc/optimize.md, "The harness's own cost", reads them).
 */
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "cpu/harness/outfile.h"
#include "cpu/harness/params.h"
#include "cpu/harness/run.h"
#include "cpu/harness/timer.h"
#ifdef APOD_HARNESS_COST_GPU
#include "gpu/harness_cost.h"
#endif

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of t[0 .. n-1] (reordered): one run the scheduler interrupted
 * moves it less than it moves a mean. */
static double median(double *t, int n)
{
	qsort(t, (size_t)n, sizeof *t, cmp_double);
	return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* ---- a workload that does nothing: its steps are the loop's own cost ---- */
struct none_params {
	long steps;
};

static long none_steps(const void *p)
{
	return ((const struct none_params *)p)->steps;
}

static void *none_problem(const void *params)
{
	struct none_params *copy = malloc(sizeof *copy);
	if (copy)
		*copy = *(const struct none_params *)params;
	return copy;
}

/* The context must not be NULL (NULL means create failed): any address. */
static char none_ctx;

static void *none_create(const struct apod_stage *s, const void *problem)
{
	(void)s, (void)problem;
	return &none_ctx;
}

static int none_step(void *ctx, int phase, long step, long steps)
{
	(void)ctx, (void)phase, (void)step, (void)steps;
	return 0;
}

static int none_fetch(void *ctx, int a, void *dst)
{
	(void)ctx, (void)a;
	*(double *)dst = 0;
	return 0;
}

static void none_destroy(void *ctx)
{
	(void)ctx;
}

/* A mark callback that does nothing: the price of the call itself. */
static int none_mark(void *ctx, int phase, int end)
{
	(void)ctx, (void)phase, (void)end;
	return 0;
}

static int none_device(void *ctx, double *seconds, int nphases)
{
	(void)ctx, (void)seconds, (void)nphases;
	return 0;
}

static int none_shape(const void *p, size_t dims[2])
{
	(void)p;
	dims[0] = 1;
	return 1;
}

static const struct apod_param none_keys[] = {
	{ .key = "steps", .type = APOD_PARAM_INT, .def = "1000", .lo = 1, .hi = 1e9,
	  .offset = offsetof(struct none_params, steps) },
	{ .key = NULL },
};
static const struct apod_phase one_phase[] = { { "a" }, { NULL } };
static const struct apod_phase four_phases[] = { { "a" }, { "b" }, { "c" }, { "d" }, { NULL } };
static const struct apod_array none_arrays[] = {
	{ .name = "x", .shape = none_shape, .compare = APOD_COMPARE_EXACT },
	{ .name = NULL },
};

/* Seconds a step of `nphases` step phases, marked or not: the median of
 * reps runs of `steps` steps. */
static int loop_cost(int nphases, int marked, long steps, int reps, double *per_step)
{
	struct apod_stage_ops ops = {
		.create = none_create, .step = none_step, .fetch = none_fetch, .destroy = none_destroy,
	};
	struct apod_stage stage = { APOD_STAGE_SERIAL, .about = "nothing", .ops = &ops };
	const struct apod_stage *stages[] = { &stage, NULL };
	struct apod_workload w = {
		.version = APOD_WORKLOAD_VERSION, .name = "none", .about = "the harness alone",
		.params_size = sizeof(struct none_params), .params = none_keys, .steps = none_steps,
		.problem_create = none_problem, .problem_destroy = free,
		.phases = nphases == 1 ? one_phase : four_phases, .arrays = none_arrays,
		.stages = stages,
	};
	struct none_params *p;
	void *problem;
	double t[64];
	int rc = -1;
	if (marked) {
		ops.mark = none_mark;
		ops.device_seconds = none_device;
	}
	if (reps > 64)
		reps = 64;
	if (apod_workload_check(&w) || !(p = apod_params_new(&w)))
		return -1;
	p->steps = steps;
	if (!(problem = w.problem_create(p))) {
		free(p);
		return apod_fail("out of memory");
	}
	/* Run -1 warms the caches and the branch predictors, and is not kept. */
	for (int i = -1; i < reps; i++) {
		struct apod_run r;
		if (apod_simulate(&w, &stage, p, problem, NULL, 0, &r))
			goto out;
		/* The step loop alone: the whole run less setup and fetch. */
		if (i >= 0)
			t[i] = (r.total - r.phase[0] - r.phase[apod_phase_fetch(&w)]) / (double)steps;
		apod_run_free(&r);
	}
	*per_step = median(t, reps);
	rc = 0;
out:
	w.problem_destroy(problem);
	free(p);
	return rc;
}

static double clock_cost(long n, int reps)
{
	double t[64], sink = 0;
	if (reps > 64)
		reps = 64;
	for (int i = 0; i < reps; i++) {
		double t0 = apod_now();
		for (long k = 0; k < n; k++)
			sink += apod_now();
		t[i] = (apod_now() - t0) / (double)n;
	}
	/* Keep the loop: its result is used. */
	if (sink < 0)
		fprintf(stderr, "%g\n", sink);
	return median(t, reps);
}

static void put(json_object *o, const char *key, double v)
{
	json_object_object_add(o, key, json_object_new_double(v));
}

static int write_json(const char *path, json_object *o)
{
	struct apod_outfile f;
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY);
	if (apod_outfile_open(&f, path))
		return -1;
	if (fputs(text, f.f) == EOF || fputc('\n', f.f) == EOF) {
		apod_outfile_abort(&f);
		return apod_fail("%s: write failed", path);
	}
	return apod_outfile_commit(&f);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: harness_cost [--steps=N] [--reps=N] [--json=FILE]\n"
	           "  --steps=N   steps of the empty stage a run (default 1000000)\n"
	           "  --reps=N    runs of each kind, the median kept (1 to 64, default 9)\n"
	           "  --json=FILE write the figures there too\n");
}

static int whole(const char *opt, const char *s, long lo, long hi, long *v)
{
	char *end;
	long x = strtol(s, &end, 10);
	if (!*s || *end || x < lo || x > hi) {
		fprintf(stderr, "harness_cost: %s=%s: want a whole number from %ld to %ld\n", opt, s,
		        lo, hi);
		return -1;
	}
	*v = x;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "steps", required_argument, NULL, 's' }, { "reps", required_argument, NULL, 'r' },
		{ "json", required_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	long steps = 1000000, reps = 9;
	const char *json = NULL;
	double clk, one, one_m, four, four_m;
	json_object *o;
	int c;
	while ((c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		if (c == 's' && whole("--steps", optarg, 1, 100000000, &steps))
			return 2;
		if (c == 'r' && whole("--reps", optarg, 1, 64, &reps))
			return 2;
		if (c == 'j')
			json = optarg;
		if (c == 'h')
			return usage(stdout), 0;
		if (c == '?')
			return usage(stderr), 2;
	}
	if (optind < argc) {
		fprintf(stderr, "harness_cost: unexpected argument '%s'\n", argv[optind]);
		return usage(stderr), 2;
	}
	clk = clock_cost(steps, (int)reps);
	if (loop_cost(1, 0, steps, (int)reps, &one) || loop_cost(1, 1, steps, (int)reps, &one_m) ||
	    loop_cost(4, 0, steps, (int)reps, &four) || loop_cost(4, 1, steps, (int)reps, &four_m)) {
		fprintf(stderr, "harness_cost: %s\n", apod_failure());
		return 1;
	}
	printf("the harness's host cost, median of %ld runs of %ld steps (ns)\n", reps, steps);
	printf("  %-52s %8.1f\n", "a clock read (apod_now)", clk * 1e9);
	printf("  %-52s %8.1f\n", "a step of an empty stage, one phase, no marks", one * 1e9);
	printf("  %-52s %8.1f\n", "  the same with a mark callback", one_m * 1e9);
	printf("  %-52s %8.1f\n", "a phase occurrence more (4 phases against 1)", (four - one) / 3 * 1e9);
	printf("  %-52s %8.1f\n", "  the same with a mark callback", (four_m - one_m) / 3 * 1e9);
	o = json_object_new_object();
	put(o, "steps", (double)steps);
	put(o, "reps", (double)reps);
	put(o, "clock_read_s", clk);
	put(o, "empty_step_s", one);
	put(o, "empty_step_marked_s", one_m);
	put(o, "phase_occurrence_s", (four - one) / 3);
	put(o, "phase_occurrence_marked_s", (four_m - one_m) / 3);
#ifdef APOD_HARNESS_COST_GPU
	if (harness_cost_gpu(o)) {
		fprintf(stderr, "harness_cost: %s\n", apod_failure());
		json_object_put(o);
		return 1;
	}
#endif
	if (json && write_json(json, o)) {
		fprintf(stderr, "harness_cost: %s\n", apod_failure());
		json_object_put(o);
		return 1;
	}
	json_object_put(o);
	return 0;
}
