/*
 * Verification for chaotic programs: a comparison
 * horizon from a deck key, STATS past it (a series' columns, an array's
 * elements, integers through exact sums), DRIFT from the step-0 row, and
 * the lines that say which comparison applied.
 *
 * The toy program is the logistic map x -> 4x(1 - x), chaotic with a
 * Lyapunov exponent of ln 2: two runs that start 1e-14 apart agree to
 * 1e-8 for 20 steps and are unrelated after 50, yet their values share one
 * invariant density (mean 1/2, spread 1/sqrt(8)), which is what STATS
 * holds them to.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/harness/npy.h"
#include "cpu/harness/params.h"
#include "cpu/harness/registry.h"
#include "cpu/harness/run.h"
#include "cpu/harness/verify.h"

#include "check_run.h"
#include "toy.h"

struct toy_params {
	long steps, horizon;
};

/* The problem carries the scale the STATS tolerances are designed from,
 * so that the test sees the problem reach the hook. */
struct toy_problem {
	double scale;
};

static const struct apod_param toy_keys[] = {
	{ .key = "steps", .type = APOD_PARAM_INT, .def = "2000", .lo = 1, .hi = 1e6,
	  .offset = offsetof(struct toy_params, steps), .help = "steps" },
	{ .key = "horizon", .type = APOD_PARAM_INT, .def = "0", .lo = 0, .hi = 1e6,
	  .offset = offsetof(struct toy_params, horizon), .help = "last step compared value by value" },
	{ .key = NULL },
};

static long toy_steps(const void *params)
{
	return ((const struct toy_params *)params)->steps;
}
static long toy_horizon(const void *params)
{
	return ((const struct toy_params *)params)->horizon;
}
static long every_step(const void *params)
{
	(void)params;
	return 1;
}
static int problems_made;
static void *toy_problem_create(const void *params)
{
	struct toy_problem *p = malloc(sizeof *p);
	(void)params;
	p->scale = 1;
	problems_made++;
	return p;
}
static void toy_problem_destroy(void *problem)
{
	free(problem);
}

/* Which comparisons the hook was asked for, and whether it saw a problem. */
static unsigned kinds_asked;
static int saw_no_problem;
static void toy_tol(const void *params, const void *problem, int any_float, int column,
                    enum apod_compare kind, struct apod_tol *t)
{
	const struct toy_problem *p = problem;
	(void)params;
	(void)any_float;
	(void)column;
	kinds_asked |= 1u << kind;
	saw_no_problem |= !p;
	switch (kind) {
	case APOD_COMPARE_STATS:   /* ~4 standard errors of a mean of 256 draws */
		t->atol = 0.05 * (p ? p->scale : 1);
		t->rtol = 0.05;
		break;
	case APOD_COMPARE_DRIFT:
		t->rtol = 1e-6;
		break;
	default:
		t->atol = 1e-6;
	}
}

static int shape256(const void *params, size_t dims[2])
{
	(void)params;
	dims[0] = 256;
	return 1;
}

enum { TRAJ, ENERGY, INVARIANT, HITS, NSERIES };
static const struct apod_probe toy_probes[] = {
	{ .name = "sample", .every = every_step, .at = APOD_AT_START },
	{ .name = NULL },
};
static const struct apod_series toy_series[] = {
	[TRAJ] = { .name = "traj", .probe = "sample", .column_names = "x,y",
	           .compare = APOD_COMPARE_CLOSE, .tolerance = toy_tol, .horizon = toy_horizon,
	           .beyond = APOD_COMPARE_STATS },
	/* A conserved quantity: value by value up to the horizon, then each run
	 * on its own held to its step-0 row. */
	[ENERGY] = { .name = "energy", .probe = "sample", .column_names = "total",
	             .compare = APOD_COMPARE_CLOSE, .tolerance = toy_tol, .horizon = toy_horizon,
	             .beyond = APOD_COMPARE_DRIFT },
	[INVARIANT] = { .name = "invariant", .probe = "sample", .column_names = "total",
	                .compare = APOD_COMPARE_DRIFT, .tolerance = toy_tol },
	/* Integers past the horizon: the map's value in millionths. */
	[HITS] = { .name = "hits", .probe = "sample", .column_names = "micro",
	           .dtype = APOD_I64, .compare = APOD_COMPARE_EXACT, .tolerance = toy_tol,
	           .horizon = toy_horizon, .beyond = APOD_COMPARE_STATS },
	{ .name = NULL },
};
static const struct apod_array toy_arrays[] = {
	{ .name = "state", .dtype = APOD_F64, .shape = shape256, .compare = APOD_COMPARE_CLOSE,
	  .tolerance = toy_tol, .horizon = toy_horizon, .beyond = APOD_COMPARE_STATS },
	{ .name = NULL },
};
static const struct apod_phase toy_phases[] = { { "map" }, { NULL } };

/* A serial stage that is never run: the registry wants one. */
static void *stub_create(const struct apod_stage *s, const void *problem)
{
	(void)s;
	return (void *)problem;
}
static int stub_step(void *ctx, int phase, long step, long steps)
{
	(void)ctx, (void)phase, (void)step, (void)steps;
	return 0;
}
static int stub_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	(void)ctx, (void)k, (void)step, (void)row, (void)rows;
	return 0;
}
static int stub_fetch(void *ctx, int a, void *dst)
{
	(void)ctx, (void)a, (void)dst;
	return 0;
}
static void stub_destroy(void *ctx)
{
	(void)ctx;
}
static const struct apod_stage_ops stub_ops = { .create = stub_create, .step = stub_step,
	.probe = stub_probe, .fetch = stub_fetch, .destroy = stub_destroy };
static const struct apod_stage stub_serial = { .name = "serial", .about = "never run",
	.ops = &stub_ops };
static const struct apod_stage *const toy_stages[] = { &stub_serial, NULL };

static const struct apod_workload toy = {
	.version = APOD_WORKLOAD_VERSION, .name = "toy", .params_size = sizeof(struct toy_params),
	.params = toy_keys, .steps = toy_steps, .problem_create = toy_problem_create,
	.problem_destroy = toy_problem_destroy, .phases = toy_phases, .probes = toy_probes,
	.arrays = toy_arrays, .series = toy_series, .stages = toy_stages,
};

static double logistic(double x)
{
	return 4 * x * (1 - x);
}

/* A run of `steps` steps by hand, every series with a step-0 row: the map
 * from x0 (and 256 maps from x0 + i/1000 for the array), the energy
 * constant at 1 but for `leak` a step. */
static void toy_run(struct apod_run *r, long steps, double x0, double leak)
{
	long rows = steps + 1;
	double x = x0, state[256];
	memset(r, 0, sizeof *r);
	r->w = &toy;
	r->steps = steps;
	r->nseries = NSERIES;
	r->narrays = 1;
	r->series = calloc(NSERIES, sizeof *r->series);
	r->arrays = calloc(1, sizeof *r->arrays);
	ck_assert_ptr_nonnull(r->series);
	ck_assert_ptr_nonnull(r->arrays);
	for (int i = 0; i < NSERIES; i++) {
		struct apod_series_data *d = &r->series[i];
		d->cols = i == TRAJ ? 2 : 1;
		d->rows = rows;
		d->every = 1;
		d->step = calloc((size_t)rows, sizeof *d->step);
		ck_assert_int_eq(apod_series_alloc_values(d, toy_series[i].dtype), 0);
		for (long k = 0; k < rows; k++)
			d->step[k] = k;
	}
	for (long k = 0; k < rows; k++) {
		r->series[TRAJ].v[2 * k] = x;
		r->series[TRAJ].v[2 * k + 1] = x * x;
		r->series[ENERGY].v[k] = 1 + leak * (double)k;
		r->series[INVARIANT].v[k] = 1 + leak * (double)k;
		((int64_t *)r->series[HITS].values)[k] = llround(x * 1e6);
		x = logistic(x);
	}
	for (int i = 0; i < 256; i++) {
		state[i] = x0 + i / 1000.0;
		for (long k = 0; k < steps; k++)
			state[i] = logistic(state[i]);
	}
	r->arrays[0].ndim = 1;
	r->arrays[0].dims[0] = 256;
	r->arrays[0].dims[1] = 1;
	r->arrays[0].count = 256;
	r->arrays[0].dtype = APOD_F64;
	r->arrays[0].data = malloc(sizeof state);
	memcpy(r->arrays[0].data, state, sizeof state);
}

static void toy_free(struct apod_run *r)
{
	for (int i = 0; i < r->nseries; i++) {
		free(r->series[i].step);
		free(r->series[i].v);
	}
	free(r->arrays[0].data);
	free(r->series);
	free(r->arrays);
}

/* Parameters from a deck file holding `text`. */
static struct toy_params *toy_deck(const char *text)
{
	char path[] = "/tmp/check_horizon_XXXXXX";
	int fd = mkstemp(path);
	struct toy_params *p = apod_params_new(&toy);
	ck_assert_int_ge(fd, 0);
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
	close(fd);
	ck_assert_int_eq(apod_params_load(&toy, p, path), 0);
	unlink(path);
	return p;
}

/* The verdict's part for output `name`, up to (past 0) or past (1) the horizon. */
static const struct apod_output_verdict *part_of(const struct apod_verdict *v, const char *name,
                                                 int past)
{
	for (int i = 0; i < v->n; i++)
		if (!strcmp(v->out[i].name, name) && v->out[i].past == past)
			return &v->out[i];
	ck_abort_msg("no part %s of %s", past ? "past the horizon" : "up to it", name);
	return NULL;
}

static void printed(const struct apod_verdict *v, const struct apod_run *r, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");
	ck_assert_ptr_nonnull(f);
	apod_verdict_print(f, v, r);
	ck_assert_int_eq(fclose(f), 0);
}

START_TEST(horizon_comes_from_the_deck)
{
	struct toy_params *p = toy_deck("steps = 2000\nhorizon = 20\n");
	ck_assert_int_eq(p->horizon, 20);
	ck_assert_int_eq(toy_series[TRAJ].horizon(p), 20);
	free(p);
	p = toy_deck("steps = 2000\n");
	ck_assert_int_eq(toy_series[TRAJ].horizon(p), 0);
	free(p);
}
END_TEST

/* Trajectories that part after the horizon, with the same statistics. */
START_TEST(chaotic_runs_agree_past_the_horizon)
{
	struct toy_params *p = toy_deck("steps = 2000\nhorizon = 20\n");
	struct apod_run want, got;
	struct apod_verdict v;
	const struct apod_output_verdict *o;
	double worst_past = 0;
	char line[512], out[8192];
	toy_run(&want, 2000, 0.3, 0);
	toy_run(&got, 2000, 0.3 + 1e-14, 0);
	/* The premise: value by value they are unrelated after step 60. */
	for (long k = 60; k <= 2000; k++)
		worst_past = fmax(worst_past, fabs(want.series[TRAJ].v[2 * k] - got.series[TRAJ].v[2 * k]));
	ck_assert(worst_past > 0.5);
	kinds_asked = 0;
	saw_no_problem = 0;
	problems_made = 0;
	ck_assert_int_eq(apod_verify(p, &want, &got, &v), 1);
	/* Neither run held a problem: the gate made one from the deck for the hooks. */
	ck_assert_int_eq(problems_made, 1);
	ck_assert_int_eq(saw_no_problem, 0);
	ck_assert(kinds_asked & (1u << APOD_COMPARE_CLOSE));
	ck_assert(kinds_asked & (1u << APOD_COMPARE_STATS));
	ck_assert(kinds_asked & (1u << APOD_COMPARE_DRIFT));
	/* traj: rows of steps 0..20 value by value, the 1980 after by statistics. */
	o = part_of(&v, "traj", 0);
	ck_assert_int_eq(o->compare, APOD_COMPARE_CLOSE);
	ck_assert_int_eq(o->rows, 21);
	ck_assert_int_eq(o->horizon, 20);
	ck_assert(o->ok);
	ck_assert_uint_gt(o->ndiffer, 0);
	o = part_of(&v, "traj", 1);
	ck_assert_int_eq(o->compare, APOD_COMPARE_STATS);
	ck_assert_int_eq(o->rows, 1980);
	ck_assert_int_eq(o->nstats, 4);
	ck_assert_uint_eq(o->nbad, 0);
	ck_assert(o->ok);
	ck_assert(o->of_tol > 0 && o->of_tol < 1);
	/* The integer series, the same way, through exact sums. */
	o = part_of(&v, "hits", 1);
	ck_assert_int_eq(o->compare, APOD_COMPARE_STATS);
	ck_assert(o->integer && o->ok);
	ck_assert_int_eq(part_of(&v, "hits", 0)->compare, APOD_COMPARE_EXACT);
	/* The array holds step 2000, past the horizon: its elements' statistics. */
	o = part_of(&v, "state", 1);
	ck_assert_int_eq(o->compare, APOD_COMPARE_STATS);
	ck_assert_uint_eq(o->n, 256);
	ck_assert(o->ok);
	/* energy: constant, so value by value and then its drift agree. */
	ck_assert_int_eq(part_of(&v, "energy", 1)->compare, APOD_COMPARE_DRIFT);
	ck_assert(part_of(&v, "energy", 1)->ok);
	/* The lines say which comparison applied. */
	printed(&v, &want, out, sizeof out);
	ck_assert_ptr_nonnull(strstr(out, "traj        ok    abs+rel to step 20: "));
	ck_assert_ptr_nonnull(strstr(out, "traj        ok    stats past step 20: mean and spread of "
	                                   "each column over 1980 rows: "));
	ck_assert_ptr_nonnull(strstr(out, "state       ok    stats past step 20: mean and spread of "
	                                   "256 values"));
	ck_assert_ptr_nonnull(strstr(out, "energy      ok    drift past step 20: "));
	ck_assert_ptr_nonnull(strstr(out, "invariant   ok    drift: "));
	apod_verdict_line(&v, line, sizeof line);
	ck_assert_msg(!strncmp(line, "PASS (worst: ", 13), "%s", line);
	ck_assert_msg(strstr(line, "past step 20)"), "%s", line);
	/* Without the horizon the same runs fail value by value. */
	p->horizon = 0;
	ck_assert_int_eq(apod_verify(p, &want, &got, &v), 0);
	o = part_of(&v, "traj", 0);
	ck_assert_int_eq(o->compare, APOD_COMPARE_CLOSE);
	ck_assert(!o->ok);
	ck_assert(!part_of(&v, "state", 0)->ok);
	apod_verdict_line(&v, line, sizeof line);
	/* Names alone, as before a horizon existed (the worst, hits, allowed
	 * no difference at all, so no share of a tolerance is shown). */
	ck_assert_str_eq(line, "FAIL (state traj hits)");
	/* A run that ends at the horizon compares its array value by value. */
	p->horizon = 2000;
	ck_assert_int_eq(apod_verify(p, &want, &got, &v), 0);
	o = part_of(&v, "state", 0);
	ck_assert_int_eq(o->compare, APOD_COMPARE_CLOSE);
	ck_assert(!o->ok);
	toy_free(&want);
	toy_free(&got);
	free(p);
}
END_TEST

/* Past the horizon a mean that moved fails, and so does a spread. */
START_TEST(a_moved_mean_or_spread_fails)
{
	struct toy_params *p = toy_deck("horizon = 20\n");
	struct apod_run want, got;
	struct apod_verdict v;
	const struct apod_output_verdict *o;
	char line[512], out[8192];
	toy_run(&want, 2000, 0.3, 0);
	toy_run(&got, 2000, 0.3 + 1e-14, 0);
	for (long k = 21; k <= 2000; k++)
		got.series[TRAJ].v[2 * k] += 0.1;   /* x's mean 0.6: 0.1 against 0.075 allowed */
	ck_assert_int_eq(apod_verify(p, &want, &got, &v), 0);
	ck_assert(part_of(&v, "traj", 0)->ok);   /* up to the horizon nothing moved */
	o = part_of(&v, "traj", 1);
	ck_assert(!o->ok);
	ck_assert_uint_eq(o->nbad, 1);
	ck_assert_int_eq(o->worst_col, 0);
	ck_assert_int_eq(o->worst_stat, 0);
	ck_assert_double_eq_tol(o->worst_got - o->worst_want, 0.1, 0.02);
	ck_assert(o->of_tol > 1);
	printed(&v, &want, out, sizeof out);
	ck_assert_ptr_nonnull(strstr(out, "traj        FAIL  stats past step 20: "));
	ck_assert_ptr_nonnull(strstr(out, "worst: the mean of column 0: expected "));
	apod_verdict_line(&v, line, sizeof line);
	ck_assert_msg(strstr(line, "FAIL (traj (stats past step 20); worst: traj (stats past step "
	                        "20), ") == line, "%s", line);
	toy_free(&got);
	/* The same mean, half again the spread. */
	toy_run(&got, 2000, 0.3 + 1e-14, 0);
	for (long k = 21; k <= 2000; k++) {
		double *x = &got.series[TRAJ].v[2 * k];
		*x = 0.5 + 1.5 * (*x - 0.5);
	}
	ck_assert_int_eq(apod_verify(p, &want, &got, &v), 0);
	o = part_of(&v, "traj", 1);
	ck_assert(!o->ok);
	ck_assert_int_eq(o->worst_col, 0);
	ck_assert_int_eq(o->worst_stat, 1);
	printed(&v, &want, out, sizeof out);
	ck_assert_ptr_nonnull(strstr(out, "worst: the spread of column 0: expected "));
	toy_free(&want);
	toy_free(&got);
	free(p);
}
END_TEST

/* DRIFT is measured from the first row, step 0's. */
START_TEST(drift_starts_at_step_zero)
{
	struct toy_params *p = toy_deck("horizon = 20\n");
	struct apod_run want, got;
	struct apod_verdict v;
	const struct apod_output_verdict *o;
	toy_run(&want, 200, 0.3, 0);
	toy_run(&got, 200, 0.3, 0);
	ck_assert_int_eq(apod_verify(p, &want, &got, &v), 1);
	/* Every row after step 0 one part in 1e4 above it: each row agrees
	 * with its neighbours, but all drifted from step 0. */
	for (long k = 1; k <= 200; k++) {
		got.series[INVARIANT].v[k] = 1.0001;
		got.series[ENERGY].v[k] = 1.0001;
	}
	ck_assert_int_eq(apod_verify(p, &want, &got, &v), 0);
	o = part_of(&v, "invariant", 0);
	ck_assert(!o->ok);
	ck_assert_int_eq(o->compare, APOD_COMPARE_DRIFT);
	ck_assert_int_eq(o->worst_step, 1);
	ck_assert_double_eq(o->worst_want, 1);   /* the first row's value */
	o = part_of(&v, "energy", 1);
	ck_assert(!o->ok);
	ck_assert_int_eq(o->compare, APOD_COMPARE_DRIFT);
	ck_assert_int_eq(o->worst_step, 21);   /* past the horizon, against step 0 */
	/* A slow leak within the tolerance passes; a larger one does not. */
	toy_free(&got);
	toy_run(&got, 200, 0.3, 1e-9);
	ck_assert_int_eq(apod_verify(p, &want, &got, &v), 1);
	toy_free(&got);
	toy_run(&got, 200, 0.3, 1e-7);
	ck_assert_int_eq(apod_verify(p, &want, &got, &v), 0);
	o = part_of(&v, "invariant", 0);
	ck_assert_int_eq(o->worst_step, 200);
	toy_free(&want);
	toy_free(&got);
	free(p);
}
END_TEST

/* STATS on big integers: each value's distance from the mean is exact, so
 * a spread of 58 on values near 2^60 (whose double grid is 256 apart) is
 * seen, and told from one of 87. */
static void exact_tol(const void *params, const void *problem, int any_float, int column,
                      enum apod_compare kind, struct apod_tol *t)
{
	(void)params;
	(void)problem;
	(void)any_float;
	(void)column;
	(void)kind;
	t->atol = 1;
}
static const struct apod_array big_arrays[] = {
	{ .name = "checksums", .dtype = APOD_U64, .shape = toy_shape100, .compare = APOD_COMPARE_STATS,
	  .tolerance = exact_tol },
	{ .name = NULL },
};
static const struct apod_workload big = {
	.version = APOD_WORKLOAD_VERSION, .name = "big", .steps = toy_one_step,
	.problem_create = toy_problem_create, .problem_destroy = toy_problem_destroy,
	.phases = toy_phases, .arrays = big_arrays,
};

/* 100 values about c = 2^60 + 1000, `stride` apart (even), their mean c. */
static void big_run(struct apod_run *r, uint64_t stride)
{
	uint64_t *x = malloc(100 * sizeof *x);
	memset(r, 0, sizeof *r);
	r->w = &big;
	r->steps = 1;
	r->narrays = 1;
	r->arrays = calloc(1, sizeof *r->arrays);
	for (int i = 0; i < 100; i++)
		x[i] = ((uint64_t)1 << 60) + 1000 + stride * (uint64_t)i - stride * 99 / 2;
	r->arrays[0] = (struct apod_array_data){ .ndim = 1, .dims = { 100, 1 }, .count = 100,
	                                         .dtype = APOD_U64, .data = x };
}

START_TEST(integer_stats_are_exact)
{
	struct apod_run want, got;
	struct apod_verdict v;
	double mean, sd;
	big_run(&want, 2);
	apod_int_moments(want.arrays[0].data, APOD_U64, 0, 1, 100, &mean, &sd);
	ck_assert_double_eq(mean, 0x1p60 + 1024);   /* 2^60 + 1000, rounded once to a grid of 256 */
	ck_assert_double_eq_tol(sd, 2 * sqrt((100.0 * 100 - 1) / 12), 1e-9);
	big_run(&got, 2);
	ck_assert_int_eq(apod_verify(NULL, &want, &got, &v), 1);
	ck_assert_uint_eq(v.out[0].ndiffer, 0);
	ck_assert_int_eq(v.out[0].compare, APOD_COMPARE_STATS);
	ck_assert_int_eq(v.out[0].horizon, 0);
	apod_run_free(&got);
	big_run(&got, 4);
	ck_assert_int_eq(apod_verify(NULL, &want, &got, &v), 0);
	ck_assert_uint_eq(v.out[0].nbad, 1);   /* the means are one double, the spreads not */
	ck_assert_int_eq(v.out[0].worst_stat, 1);
	ck_assert_double_eq_tol(v.out[0].worst_want, 2 * sqrt(9999 / 12.0), 1e-9);
	ck_assert_double_eq_tol(v.out[0].worst_got, 4 * sqrt(9999 / 12.0), 1e-9);
	apod_run_free(&want);
	apod_run_free(&got);
}
END_TEST

/* Revision 4 made APOD_F64 the enum's first value: files name their dtype,
 * never its number, so what was written before reads the same. */
START_TEST(dtypes_are_named_not_numbered)
{
	float f[2] = { 1.5f, -2 };
	void *back;
	enum apod_dtype t;
	int ndim;
	size_t dims[2] = { 2, 1 }, got[2];
	char path[] = "/tmp/check_horizon_npy_XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(APOD_F64, 0);
	ck_assert_str_eq(apod_dtype_descr(APOD_F64), "<f8");
	ck_assert_str_eq(apod_dtype_descr(APOD_F32), "<f4");
	ck_assert_uint_eq(apod_dtype_size(APOD_F64), 8);
	ck_assert_uint_eq(apod_dtype_size(APOD_F32), 4);
	ck_assert_int_eq(apod_npy_write(path, f, APOD_F32, 1, dims), 0);
	ck_assert_int_eq(apod_npy_read(path, &back, &t, &ndim, got), 0);
	ck_assert_int_eq(t, APOD_F32);
	ck_assert_mem_eq(back, f, sizeof f);
	free(back);
	unlink(path);
}
END_TEST

/* What the registry holds a horizon to (registry.c): something to compare
 * past it, STATS (or DRIFT for a series), and no beyond without one. */
START_TEST(the_registry_holds_horizons_to_their_rules)
{
	struct apod_workload w = toy;
	struct apod_series series[NSERIES + 1];
	struct apod_array arrays[2];
	ck_assert_msg(apod_workload_valid(&toy, NULL) == 0, "%s", apod_failure());
	memcpy(series, toy_series, sizeof series);
	memcpy(arrays, toy_arrays, sizeof arrays);
	w.series = series;
	w.arrays = arrays;
	series[TRAJ].beyond = APOD_COMPARE_EXACT;   /* a horizon, nothing past it */
	ck_assert_int_eq(apod_workload_valid(&w, NULL), -1);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "traj has a horizon"));
	series[TRAJ].beyond = APOD_COMPARE_CLOSE;   /* trajectories past it: what it is for */
	ck_assert_int_eq(apod_workload_valid(&w, NULL), -1);
	series[TRAJ].beyond = APOD_COMPARE_STATS;
	arrays[0].beyond = APOD_COMPARE_DRIFT;      /* an array holds one step: no drift */
	ck_assert_int_eq(apod_workload_valid(&w, NULL), -1);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "state has a horizon"));
	arrays[0].beyond = APOD_COMPARE_STATS;
	series[INVARIANT].beyond = APOD_COMPARE_STATS;   /* beyond, and no horizon */
	ck_assert_int_eq(apod_workload_valid(&w, NULL), -1);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "invariant says how to compare past a horizon"));
	series[INVARIANT].beyond = APOD_COMPARE_EXACT;
	ck_assert_msg(apod_workload_valid(&w, NULL) == 0, "%s", apod_failure());
}
END_TEST

int main(void)
{
	const TTest *tests[] = {
		horizon_comes_from_the_deck, chaotic_runs_agree_past_the_horizon,
		a_moved_mean_or_spread_fails, drift_starts_at_step_zero, integer_stats_are_exact,
		dtypes_are_named_not_numbered, the_registry_holds_horizons_to_their_rules, NULL,
	};
	return check_run(check_suite("horizon", "core", 0, tests), CK_FORK_GETENV);
}
