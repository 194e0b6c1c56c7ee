/*
 * Outputs that are not doubles: integer arrays and series kept, written,
 * read back and gated as integers (a uint64 above 2^53, where a double can
 * no longer tell n from n + 1); tolerances designed from the problem, given
 * it by the gate and by `verify` on two directories; and `verify
 * --any-deck`.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "cpu/harness/npy.h"
#include "cpu/harness/params.h"
#include "cpu/harness/registry.h"
#include "cpu/harness/results.h"
#include "cpu/harness/run.h"
#include "cpu/harness/verify.h"
#include "check_run.h"
#include "constant_readers.h"

/* ---- "tally": integer outputs of every kind, told the step they are at -- */

struct tally_params {
	long n, steps, label;
};

struct tally_problem {
	long n;
	double atol;   /* what the "near" series may be off by: a property of the data */
};

struct tally_ctx {
	const struct tally_problem *p;
	long step;
};

static int problems_made, problems_freed;
static const void *problem_seen;
static int kind_seen = -1;   /* the comparison near_tol was asked for */

static void *tally_problem_create(const void *params)
{
	const struct tally_params *q = params;
	struct tally_problem *p = malloc(sizeof *p);
	if (!p)
		return NULL;
	p->n = q->n;
	p->atol = 2;
	problems_made++;
	return p;
}

static void tally_problem_destroy(void *problem)
{
	problems_freed++;
	free(problem);
}

static void *tally_create(const struct apod_stage *s, const void *problem)
{
	struct tally_ctx *c = calloc(1, sizeof *c);
	(void)s;
	if (c)
		c->p = problem;
	return c;
}

static int tally_step(void *ctx, int phase, long step, long steps)
{
	struct tally_ctx *c = ctx;
	(void)phase;
	(void)steps;
	c->step = step;
	return 0;
}

/* Above 2^53: (double)big(i) == (double)(big(i) + 1). */
static uint64_t big(long i)
{
	return UINT64_MAX - 1000 + (uint64_t)i;
}

static int tally_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct tally_ctx *c = ctx;
	(void)k;
	if (step != c->step || row != step - 1)
		return -1;
	if (rows[0]) {
		uint64_t *r = rows[0];
		r[0] = big(step);
		r[1] = UINT64_MAX - 8 + (uint64_t)step;   /* the last row's is 2^64 - 1 */
	}
	if (rows[1])
		((int64_t *)rows[1])[0] = INT64_MIN + 7 * step;
	if (rows[2]) {
		int32_t *h = rows[2];
		h[0] = (int32_t)step;
		h[1] = (int32_t)(c->p->n - step);
		h[2] = 0;
	}
	return 0;
}

static int tally_fetch(void *ctx, int a, void *dst)
{
	struct tally_ctx *c = ctx;
	for (long i = 0; i < c->p->n; i++) {
		if (a == 0)
			((int32_t *)dst)[i] = (int32_t)(-i * c->step);
		else if (a == 1)
			((uint64_t *)dst)[i] = big(i);
		else {
			((int64_t *)dst)[i] = -(int64_t)i;
			((int64_t *)dst)[c->p->n + i] = INT64_MAX - i;
		}
	}
	return 0;
}

APOD_PARAM_LONG(tally_steps, struct tally_params, steps)

static int shape_n(const void *p, size_t dims[2])
{
	dims[0] = (size_t)((const struct tally_params *)p)->n;
	return 1;
}

static int shape_2n(const void *p, size_t dims[2])
{
	dims[0] = 2;
	dims[1] = (size_t)((const struct tally_params *)p)->n;
	return 2;
}

static void near_tol(const void *params, const void *problem, int any_float, int column,
                     enum apod_compare kind, struct apod_tol *t)
{
	(void)params;
	(void)any_float;
	(void)column;
	problem_seen = problem;
	kind_seen = (int)kind;
	t->atol = problem ? ((const struct tally_problem *)problem)->atol : 0;
	t->rtol = 1e300;   /* integers: the relative part does not apply */
}

static void hist_tol(const void *params, const void *problem, int any_float, int column,
                     enum apod_compare kind, struct apod_tol *t)
{
	(void)problem;
	(void)any_float;
	(void)column;
	(void)kind;
	t->total = (double)((const struct tally_params *)params)->n;
	t->frac = 0;
}

static int three_bins(const void *params)
{
	(void)params;
	return 3;
}

static const struct apod_stage_ops tally_ops = {
	.create = tally_create, .step = tally_step, .probe = tally_probe, .fetch = tally_fetch,
	.destroy = free,
};
static const struct apod_stage tally_serial = {
	APOD_STAGE_SERIAL, .about = "the reference", .ops = &tally_ops,
};
static const struct apod_stage *const tally_stages[] = { &tally_serial, NULL };
static const struct apod_param tally_keys[] = {
	{ .key = "n", .type = APOD_PARAM_INT, .def = "10", .lo = 1, .hi = 1000,
	  .offset = offsetof(struct tally_params, n) },
	{ .key = "steps", .type = APOD_PARAM_INT, .def = "8", .lo = 1, .hi = 100,
	  .offset = offsetof(struct tally_params, steps) },
	/* Changes no result, but is not marked neutral: runs that differ in it
	 * are different decks to verify, and the same to --any-deck. */
	{ .key = "label", .type = APOD_PARAM_INT, .def = "1", .lo = 1, .hi = 100,
	  .offset = offsetof(struct tally_params, label) },
	{ .key = NULL },
};
static const struct apod_phase tally_phases[] = { { "count" }, { NULL } };
static const struct apod_probe tally_probes[] = { { .name = "tally", .every = every_step }, { NULL } };
static const struct apod_array tally_arrays[] = {
	{ .name = "ids", .dtype = APOD_I32, .shape = shape_n, .compare = APOD_COMPARE_EXACT },
	{ .name = "hashes", .dtype = APOD_U64, .shape = shape_n, .compare = APOD_COMPARE_EXACT },
	{ .name = "offsets", .dtype = APOD_I64, .shape = shape_2n, .compare = APOD_COMPARE_EXACT },
	{ .name = NULL },
};
static const struct apod_series tally_series[] = {
	{ .name = "sums", .probe = "tally", .column_names = "checksum,top",
	  .dtype = APOD_U64, .compare = APOD_COMPARE_EXACT },
	{ .name = "near", .probe = "tally", .column_names = "low",
	  .dtype = APOD_I64, .compare = APOD_COMPARE_CLOSE, .tolerance = near_tol },
	{ .name = "hist", .probe = "tally", .columns = three_bins, .column_prefix = "bin",
	  .dtype = APOD_I32, .compare = APOD_COMPARE_COUNTS, .tolerance = hist_tol },
	{ .name = NULL },
};

static struct apod_workload tally_workload(void)
{
	struct apod_workload w = {
		.version = APOD_WORKLOAD_VERSION, .name = "tally", .about = "integer outputs",
		.params_size = sizeof(struct tally_params), .params = tally_keys,
		.steps = tally_steps, .problem_create = tally_problem_create,
		.problem_destroy = tally_problem_destroy, .phases = tally_phases,
		.probes = tally_probes, .arrays = tally_arrays, .series = tally_series,
		.stages = tally_stages,
	};
	return w;
}

static char *slurp(const char *dir, const char *name)
{
	char path[256];
	FILE *f;
	char *text = calloc(1, 65536);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	ck_assert_ptr_nonnull(f = fopen(path, "rb"));
	ck_assert_uint_gt(fread(text, 1, 65535, f), 0);
	fclose(f);
	return text;
}

static void remove_dir(const char *dir)
{
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* One run in memory (a) and the same read back from its files (b). */
struct pair {
	struct apod_workload w;
	const struct apod_workload *ws[2];
	void *params, *problem, *back;
	struct apod_run a, b;
	char dir[32];
};

static void run_and_load(struct pair *x)
{
	x->w = tally_workload();
	x->ws[0] = &x->w;
	x->ws[1] = NULL;
	snprintf(x->dir, sizeof x->dir, "/tmp/apod-typed-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(x->dir));
	ck_assert_int_eq(apod_workload_check(&x->w), 0);
	ck_assert_ptr_nonnull(x->params = apod_params_new(&x->w));
	ck_assert_ptr_nonnull(x->problem = x->w.problem_create(x->params));
	ck_assert_int_eq(apod_simulate(&x->w, &tally_serial, x->params, x->problem, x->dir, 0, &x->a), 0);
	ck_assert_int_eq(apod_results_load(x->dir, x->ws, &x->back, &x->b), 0);
}

static void pair_free(struct pair *x)
{
	apod_run_free(&x->a);
	apod_run_free(&x->b);
	free(x->back);
	x->w.problem_destroy(x->problem);
	free(x->params);
	remove_dir(x->dir);
}

START_TEST(integer_outputs_round_trip_exactly)
{
	struct pair x;
	struct apod_verdict v;
	char *text;
	uint64_t *hashes, *sums;
	run_and_load(&x);

	/* On disk: the .npy descr of each dtype, and the integers in full. */
	text = slurp(x.dir, "hashes.npy");
	ck_assert_ptr_nonnull(strstr(text + 10, "'descr': '<u8'"));
	free(text);
	text = slurp(x.dir, "ids.npy");
	ck_assert_ptr_nonnull(strstr(text + 10, "'descr': '<i4'"));
	free(text);
	text = slurp(x.dir, "offsets.npy");
	ck_assert_ptr_nonnull(strstr(text + 10, "'descr': '<i8'"));
	free(text);
	text = slurp(x.dir, "sums.csv");
	ck_assert_ptr_nonnull(strstr(text, "step,checksum,top\n1,18446744073709550616,18446744073709551608\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n8,18446744073709550623,18446744073709551615\n"));
	free(text);
	text = slurp(x.dir, "near.csv");
	ck_assert_ptr_nonnull(strstr(text, "\n1,-9223372036854775801\n"));
	free(text);
	text = slurp(x.dir, "report.json");
	ck_assert_ptr_nonnull(strstr(text, "18446744073709551615"));
	free(text);

	/* Read back as they were written, bit for bit. */
	for (int a = 0; a < 3; a++) {
		ck_assert_int_eq(x.b.arrays[a].dtype, x.a.arrays[a].dtype);
		ck_assert_mem_eq(x.b.arrays[a].data, x.a.arrays[a].data,
		                 x.a.arrays[a].count * (a == 0 ? 4 : 8));
	}
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(x.b.series[i].dtype, x.a.series[i].dtype);
		ck_assert_mem_eq(x.b.series[i].values, x.a.series[i].values,
		                 (size_t)x.a.series[i].rows * (size_t)x.a.series[i].cols * (i == 2 ? 4 : 8));
		ck_assert_mem_eq(x.b.series[i].step, x.a.series[i].step,
		                 (size_t)x.a.series[i].rows * sizeof(long));
	}
	ck_assert_int_eq(apod_verify(x.back, &x.a, &x.b, &v), 1);
	ck_assert_int_eq(v.out[1].ndiffer, 0);

	/* One more than a value a double cannot tell from it: caught. */
	hashes = x.b.arrays[1].data;
	ck_assert((double)hashes[3] == (double)(hashes[3] + 1));
	hashes[3]++;
	ck_assert_int_eq(apod_verify(x.back, &x.a, &x.b, &v), 0);
	ck_assert_int_eq(v.out[1].ok, 0);
	ck_assert_uint_eq(v.out[1].nbad, 1);
	ck_assert_uint_eq(v.out[1].max_iabs, 1);
	ck_assert_str_eq(v.out[1].iwant, "18446744073709550618");
	ck_assert_str_eq(v.out[1].igot, "18446744073709550619");
	ck_assert_uint_eq(v.out[1].worst, 3);
	hashes[3]--;

	/* The same in a series, and one at the top of uint64's range. */
	sums = x.b.series[0].values;
	sums[7 * 2 + 1] = 0;   /* was 2^64 - 1: the difference does not wrap */
	ck_assert_int_eq(apod_verify(x.back, &x.a, &x.b, &v), 0);
	ck_assert_int_eq(v.out[3].ok, 0);
	ck_assert_uint_eq(v.out[3].max_iabs, UINT64_MAX);
	ck_assert_int_eq(v.out[3].worst_step, 8);
	ck_assert_int_eq(v.out[3].worst_col, 1);
	sums[7 * 2 + 1] = UINT64_MAX;

	/* CLOSE on integers: |got - want| <= atol (2, from the problem), in integers. */
	((int64_t *)x.b.series[1].values)[4] += 2;
	ck_assert_int_eq(apod_verify(x.back, &x.a, &x.b, &v), 1);
	ck_assert_uint_eq(v.out[4].ndiffer, 1);
	((int64_t *)x.b.series[1].values)[4] += 1;
	ck_assert_int_eq(apod_verify(x.back, &x.a, &x.b, &v), 0);
	ck_assert_int_eq(v.out[4].ok, 0);
	ck_assert_uint_eq(v.out[4].max_iabs, 3);
	((int64_t *)x.b.series[1].values)[4] -= 3;

	/* COUNTS on integers: a count moved between bins, then a count lost. */
	((int32_t *)x.b.series[2].values)[3 * 3]++;
	((int32_t *)x.b.series[2].values)[3 * 3 + 1]--;
	ck_assert_int_eq(apod_verify(x.back, &x.a, &x.b, &v), 0);
	ck_assert_int_eq(v.out[5].ok, 0);
	ck_assert_int_eq(v.out[5].worst_step, 4);
	((int32_t *)x.b.series[2].values)[3 * 3 + 1]++;
	ck_assert_int_eq(apod_verify(x.back, &x.a, &x.b, &v), 0);
	ck_assert(v.out[5].max_frac > 1e300);
	((int32_t *)x.b.series[2].values)[3 * 3]--;
	ck_assert_int_eq(apod_verify(x.back, &x.a, &x.b, &v), 1);
	pair_free(&x);
}
END_TEST

/* A file whose integers cannot be the declared dtype's is refused, not
 * read as something else. */
START_TEST(integer_files_are_read_strictly)
{
	struct pair x;
	struct apod_run c;
	void *back2;
	char path[300];
	FILE *f;
	run_and_load(&x);
	snprintf(path, sizeof path, "%s/sums.csv", x.dir);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs("step,checksum,top\n1,18446744073709551616,1\n", f);   /* 2^64 */
	fclose(f);
	ck_assert_int_eq(apod_results_load(x.dir, x.ws, &back2, &c), -1);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "whole numbers ('<u8')"));
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs("step,checksum,top\n1,-1,1\n", f);
	fclose(f);
	ck_assert_int_eq(apod_results_load(x.dir, x.ws, &back2, &c), -1);
	ck_assert_int_eq(apod_results_write(x.dir, x.params, &x.a), 0);
	/* An array of doubles where the workload declares uint64. */
	snprintf(path, sizeof path, "%s/hashes.npy", x.dir);
	ck_assert_int_eq(apod_npy_write(path, x.a.arrays[1].data, APOD_F64, 1, x.a.arrays[1].dims), 0);
	ck_assert_int_eq(apod_results_load(x.dir, x.ws, &back2, &c), -1);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "holds '<f8' values; the workload declares '<u8'"));
	pair_free(&x);
}
END_TEST

START_TEST(a_tolerance_is_given_the_problem)
{
	struct pair x;
	struct apod_verdict v;
	int made, freed;
	run_and_load(&x);
	/* The table's gate: the problem the stages ran on. */
	problem_seen = NULL;
	made = problems_made;
	ck_assert_int_eq(apod_verify(x.params, &x.a, &x.a, &v), 1);
	ck_assert_ptr_eq(problem_seen, x.problem);
	ck_assert_int_eq(kind_seen, APOD_COMPARE_CLOSE);
	ck_assert_int_eq(problems_made, made);
	/* Two runs read back from files hold none: the gate builds one from the
	 * deck for the call, and frees it. */
	problem_seen = NULL;
	freed = problems_freed;
	ck_assert_int_eq(apod_verify(x.back, &x.b, &x.b, &v), 1);
	ck_assert_ptr_nonnull(problem_seen);
	ck_assert_int_eq(problems_made, made + 1);
	ck_assert_int_eq(problems_freed, freed + 1);
	ck_assert_double_eq(v.out[4].tol.atol, 2);
	pair_free(&x);
}
END_TEST

static int run_cli(const struct apod_workload *const *ws, const char *a1, const char *a2,
                   const char *a3, const char *a4, const char *a5)
{
	struct apod_program prog = { .name = "tally", .workloads = ws };
	char *argv[] = { "tally", (char *)a1, (char *)a2, (char *)a3, (char *)a4, (char *)a5, NULL };
	int argc = 1;
	while (argv[argc])
		argc++;
	fflush(stdout);
	return apod_main(argc, argv, &prog);
}

START_TEST(verify_any_deck_compares_different_decks)
{
	struct apod_workload w = tally_workload();
	const struct apod_workload *ws[] = { &w, NULL };
	char dir[] = "/tmp/apod-anydeck-XXXXXX", a[64], b[64], c[64], oa[80], ob[80], oc[80];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(a, sizeof a, "%s/a", dir);
	snprintf(b, sizeof b, "%s/b", dir);
	snprintf(c, sizeof c, "%s/c", dir);
	snprintf(oa, sizeof oa, "--out=%s", a);
	snprintf(ob, sizeof ob, "--out=%s", b);
	snprintf(oc, sizeof oc, "--out=%s", c);
	ck_assert_int_eq(run_cli(ws, "run", "--stage=serial", "--label=1", oa, NULL), APOD_EXIT_OK);
	ck_assert_int_eq(run_cli(ws, "run", "--stage=serial", "--label=2", ob, NULL), APOD_EXIT_OK);
	ck_assert_int_eq(run_cli(ws, "run", "--stage=serial", "--label=3", "--steps=9", oc), APOD_EXIT_OK);
	/* Different decks: refused, naming every key that differs... */
	ck_assert_int_eq(run_cli(ws, "verify", a, b, NULL, NULL), APOD_EXIT_USAGE);
	ck_assert_int_eq(run_cli(ws, "verify", a, c, NULL, NULL), APOD_EXIT_USAGE);
	/* ...unless asked: the same outputs pass, and outputs of another shape fail. */
	ck_assert_int_eq(run_cli(ws, "verify", "--any-deck", a, b, NULL), APOD_EXIT_OK);
	ck_assert_int_eq(run_cli(ws, "verify", "--any-deck", a, c, NULL), APOD_EXIT_FAIL);
	ck_assert_int_eq(run_cli(ws, "verify", a, a, NULL, NULL), APOD_EXIT_OK);
	remove_dir(dir);
	{
		/* The keys named: every one that differs, in the table's order. */
		struct tally_params *p = apod_params_new(&w), *q = apod_params_new(&w);
		char keys[64];
		ck_assert_int_eq(apod_params_differing(&w, p, q, keys, sizeof keys), 0);
		ck_assert_str_eq(keys, "");
		q->steps = 9;
		q->label = 3;
		ck_assert_int_eq(apod_params_differing(&w, p, q, keys, sizeof keys), 2);
		ck_assert_str_eq(keys, "'steps', 'label'");
		free(p);
		free(q);
	}
}
END_TEST

int main(void)
{
	const TTest *tests[] = {
		integer_outputs_round_trip_exactly, integer_files_are_read_strictly,
		a_tolerance_is_given_the_problem, verify_any_deck_compares_different_decks,
		NULL,
	};
	return check_run(check_suite("typed", "core", 0, tests), CK_FORK_GETENV);
}
