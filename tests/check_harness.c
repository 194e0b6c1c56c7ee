/*
 * The harness on its own: a workload that declares nonsense is refused at
 * registration with a message naming it; a tiny workload written here (not
 * heat) runs through the loop, writes and reads its results, and is held
 * to each comparison the interface offers.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "cpu/cli/commands.h"
#include "cpu/harness/params.h"
#include "cpu/harness/registry.h"
#include "cpu/harness/results.h"
#include "cpu/harness/run.h"
#include "cpu/harness/sol.h"
#include "cpu/harness/trace_book.h"
#include "cpu/harness/verify.h"
#include "check_run.h"
#include "constant_readers.h"

/* ---- "count": x[i] += i every step; a series of its sum and a drift ---- */
struct count_params {
	long n, steps;
	double scale;
};

struct count_ctx {
	const struct count_params *p;
	double *x;
};

static void *count_problem(const void *params)
{
	struct count_params *copy = malloc(sizeof *copy);
	if (copy)
		*copy = *(const struct count_params *)params;
	return copy;
}

static void *count_create(const struct apod_stage *s, const void *problem)
{
	const struct count_params *p = problem;
	struct count_ctx *c = calloc(1, sizeof *c);
	(void)s;
	if (!c || !(c->x = calloc((size_t)p->n, sizeof *c->x))) {
		free(c);
		return NULL;
	}
	c->p = p;
	return c;
}

static int count_add(struct count_ctx *c)
{
	for (long i = 0; i < c->p->n; i++)
		c->x[i] += (double)i * c->p->scale;
	return 0;
}

static int count_step(void *ctx, int phase, long step, long steps)
{
	(void)phase;
	(void)step;
	(void)steps;
	return count_add(ctx);
}

static void count_rows(struct count_ctx *c, double *sum, double *items)
{
	double s = 0;
	for (long i = 0; i < c->p->n; i++)
		s += c->x[i];
	*sum = s;
	*items = (double)c->p->n;   /* an invariant: never changes */
}

static int count_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	double sum, items;
	(void)k;
	(void)step;
	(void)row;
	count_rows(ctx, &sum, &items);
	if (rows[0])
		((double *)rows[0])[0] = sum;
	if (rows[1])
		((double *)rows[1])[0] = items;
	return 0;
}

static int count_fetch(void *ctx, int a, void *dst)
{
	struct count_ctx *c = ctx;
	(void)a;
	memcpy(dst, c->x, (size_t)c->p->n * sizeof *c->x);
	return 0;
}

static void count_destroy(void *ctx)
{
	struct count_ctx *c = ctx;
	if (c)
		free(c->x);
	free(c);
}

/* A stage that "times on the device": it counts the marks it gets and
 * reports one millisecond a mark pair. */
static int marks_open[APOD_MAX_PHASES], marks_done[APOD_MAX_PHASES], marks_bad;

static int count_mark(void *ctx, int phase, int end)
{
	(void)ctx;
	if (phase < 0 || phase >= APOD_MAX_PHASES || marks_open[phase] != end)
		marks_bad++;
	else if ((marks_open[phase] = !end) == 0)
		marks_done[phase]++;
	return 0;
}

static int count_device(void *ctx, double *seconds, int nphases)
{
	(void)ctx;
	for (int i = 0; i < nphases; i++)
		seconds[i] += 1e-3 * marks_done[i];
	return 0;
}

APOD_PARAM_LONG(count_steps, struct count_params, steps)

static int count_shape(const void *p, size_t dims[2])
{
	dims[0] = (size_t)((const struct count_params *)p)->n;
	return 1;
}

static void tight(const void *p, const void *problem, int any_float, int column,
                  enum apod_compare kind, struct apod_tol *t)
{
	(void)p;
	(void)problem;
	(void)any_float;
	(void)column;
	(void)kind;
	t->atol = 1e-9;
	t->rtol = 1e-12;
}

static const struct apod_stage_ops count_ops = {
	.create = count_create, .step = count_step, .probe = count_probe, .fetch = count_fetch,
	.destroy = count_destroy,
};
static const struct apod_stage count_serial = {
	APOD_STAGE_SERIAL, .about = "the reference", .ops = &count_ops,
};
static const struct apod_stage *const count_stages[] = { &count_serial, NULL };
static const struct apod_param count_keys[] = {
	{ .key = "n", .type = APOD_PARAM_INT, .def = "10", .lo = 1, .hi = 1000,
	  .offset = offsetof(struct count_params, n) },
	{ .key = "steps", .type = APOD_PARAM_INT, .def = "4", .lo = 1, .hi = 100,
	  .offset = offsetof(struct count_params, steps) },
	{ .key = "scale", .type = APOD_PARAM_REAL, .def = "1", .lo = 0, .lo_open = 1, .hi = 10,
	  .offset = offsetof(struct count_params, scale) },
	{ .key = NULL },
};
static const struct apod_phase count_phases[] = { { "add" }, { NULL } };
static const struct apod_probe count_probes[] = { { .name = "sum", .every = every_step }, { NULL } };
static const struct apod_array count_arrays[] = {
	{ .name = "x", .shape = count_shape, .compare = APOD_COMPARE_EXACT },
	{ .name = NULL },
};
static const struct apod_series count_series[] = {
	{ .name = "sum", .probe = "sum", .column_names = "sum",
	  .compare = APOD_COMPARE_CLOSE, .tolerance = tight },
	{ .name = "items", .probe = "sum", .column_names = "n",
	  .compare = APOD_COMPARE_DRIFT, .tolerance = tight },
	{ .name = NULL },
};

static struct apod_workload count_workload(void)
{
	struct apod_workload w = {
		.version = APOD_WORKLOAD_VERSION, .name = "count", .about = "a test",
		.params_size = sizeof(struct count_params), .params = count_keys,
		.steps = count_steps, .problem_create = count_problem, .problem_destroy = free,
		.phases = count_phases, .probes = count_probes, .arrays = count_arrays,
		.series = count_series, .stages = count_stages,
	};
	return w;
}

/* Phase `name`'s number in w, which must have it. */
static int phase_of(const struct apod_workload *w, const char *name)
{
	int i = apod_phase_number(w, name);
	ck_assert_msg(i >= 0, "workload %s has no phase '%s'", w->name, name);
	return i;
}

static void refused(const struct apod_workload *w, const char *fragment)
{
	ck_assert_int_eq(apod_workload_check(w), -1);
	ck_assert_msg(strstr(apod_failure(), fragment) != NULL, "message '%s' lacks '%s'",
	              apod_failure(), fragment);
}

START_TEST(nonsense_is_refused_at_registration)
{
	struct apod_workload w = count_workload();
	const struct apod_stage *none[] = { NULL };
	const struct apod_stage *no_serial[] = { &count_serial, NULL };
	const struct apod_stage *twice[] = { &count_serial, &count_serial, NULL };
	struct apod_stage omp_first = count_serial;
	static const struct apod_array no_arrays[] = { { .name = NULL } };
	static const struct apod_param dup[] = {
		{ .key = "n", .type = APOD_PARAM_INT, .def = "1", .lo = 1, .hi = 2 },
		{ .key = "n", .type = APOD_PARAM_INT, .def = "1", .lo = 1, .hi = 2 },
		{ .key = NULL },
	};
	static const struct apod_param clash[] = {
		{ .key = "out", .type = APOD_PARAM_INT, .def = "1", .lo = 1, .hi = 2 },
		{ .key = NULL },
	};
	static const struct apod_series same_name[] = {
		{ .name = "x", .probe = "sum", .columns = one_column, .compare = APOD_COMPARE_EXACT },
		{ .name = NULL },
	};
	static const struct apod_series empty_name[] = {
		{ .name = "s", .probe = "sum", .column_names = "a,,c", .compare = APOD_COMPARE_EXACT },
		{ .name = NULL },
	};
	static const struct apod_series bad_probe[] = {
		{ .name = "s", .probe = "nosuchprobe", .columns = one_column, .compare = APOD_COMPARE_EXACT },
		{ .name = NULL },
	};
	ck_assert_int_eq(apod_workload_check(&w), 0);

	w.stages = none;
	refused(&w, "declares no stages");
	omp_first.name = "omp";
	no_serial[0] = &omp_first;
	w.stages = no_serial;
	refused(&w, "must be the serial reference");
	w.stages = twice;
	refused(&w, "two stages are called 'serial'");
	w = count_workload();
	w.arrays = no_arrays;
	/* Series alone are outputs enough; nothing at all is not. */
	ck_assert_int_eq(apod_workload_check(&w), 0);
	w.series = NULL;
	refused(&w, "declares no outputs");
	w = count_workload();
	w.params = dup;
	refused(&w, "'n' is declared twice");
	w.params = clash;
	refused(&w, "clash with the option --out");
	w = count_workload();
	w.series = same_name;
	refused(&w, "two outputs are called 'x'");
	/* A series is filled by a probe named in the probes' table. */
	w.series = bad_probe;
	refused(&w, "nosuchprobe");
	/* The header of NAME.csv names every value of a row, or apod verify
	 * would refuse the file the run wrote. */
	w.series = empty_name;
	refused(&w, "has an empty name");
	w = count_workload();
	w.version = APOD_WORKLOAD_VERSION + 1;
	refused(&w, "built against a newer apod");
	w = count_workload();
	w.name = "Bad Name";
	refused(&w, "a name must be");
	w = count_workload();
	w.steps = NULL;
	refused(&w, "are required");
	/* A step of no phases at all. */
	w = count_workload();
	w.phases = NULL;
	ck_assert_int_eq(apod_workload_check(&w), -1);
}
END_TEST

/* Revisions 1 to 3 are not read: a workload compiled against one of them
 * is refused at registration, with the revision it must be ported to, and
 * apod_main refuses the program before it parses an option. */
START_TEST(an_older_revision_is_refused_by_name)
{
	struct apod_workload w = count_workload();
	const struct apod_workload *ws[] = { &w, NULL };
	struct apod_program prog = { .name = "test", .workloads = ws };
	char *argv[] = { "test", "workloads", NULL };
	for (int version = 1; version <= 3; version++) {
		w.version = version;
		refused(&w, "revision 4");
		ck_assert_int_eq(apod_main(2, argv, &prog), APOD_EXIT_FAIL);
		ck_assert_msg(strstr(apod_failure(), "revision 4") != NULL, "version %d: %s", version,
		              apod_failure());
	}
	w.version = 0;
	refused(&w, "revisions 4 to");
	w.version = APOD_WORKLOAD_VERSION;
	ck_assert_int_eq(apod_workload_check(&w), 0);
	ck_assert_int_eq(apod_main(2, argv, &prog), APOD_EXIT_OK);
}
END_TEST

/* apod_main refuses a program whose workload declares nonsense: exit 1,
 * before it parses a single option. */
START_TEST(apod_main_refuses_a_bad_program)
{
	struct apod_workload w = count_workload();
	const struct apod_stage *none[] = { NULL };
	const struct apod_workload *ws[] = { &w, NULL };
	struct apod_program prog = { .name = "test", .workloads = ws };
	char *argv[] = { "test", "workloads", NULL };
	ck_assert_int_eq(apod_main(2, argv, &prog), APOD_EXIT_OK);
	w.stages = none;
	ck_assert_int_eq(apod_main(2, argv, &prog), APOD_EXIT_FAIL);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "workload count declares no stages"));
	ws[0] = NULL;
	ck_assert_int_eq(apod_main(2, argv, &prog), APOD_EXIT_FAIL);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "declares no workloads"));
}
END_TEST

/* A key named after an option of a command that takes deck keys could never
 * be set from the command line (getopt_long gives the option): refused,
 * for every such option the command table holds, --trace among them. */
START_TEST(a_key_named_after_an_option_is_refused)
{
	struct apod_workload w = count_workload();
	struct apod_param keys[2] = { { .type = APOD_PARAM_INT, .def = "1", .lo = 1, .hi = 2 },
	                              { .key = NULL } };
	int tried = 0, trace = 0;
	w.params = keys;
	w.params_size = sizeof(long);
	for (int i = 0; apod_commands[i]; i++) {
		const struct apod_cmd *c = apod_commands[i];
		for (const struct option *o = c->options; c->deck && o && o->name; o++) {
			keys[0].key = o->name;
			ck_assert_msg(apod_workload_check(&w) == -1, "a key named '%s' (an option of %s) "
			              "passed", o->name, c->name ? c->name : "the table");
			/* "no-weak" is no key name at all; the others are refused as a clash. */
			if (!strchr(o->name, '-'))
				ck_assert_msg(strstr(apod_failure(), "clash with the option") != NULL,
				              "key '%s': %s", o->name, apod_failure());
			trace |= !strcmp(o->name, "trace");
			tried++;
		}
	}
	ck_assert_int_gt(tried, 10);
	ck_assert_msg(trace, "no command that takes deck keys has --trace");
	keys[0].key = "workload";
	refused(&w, "clash with the option --workload");
	keys[0].key = "version";
	refused(&w, "clash with the option --version");
	/* A key no command takes as an option is fine. */
	keys[0].key = "gpu";
	ck_assert_int_eq(apod_workload_check(&w), 0);
}
END_TEST

/* The limit on keys is one constant, and the deck's and the command line's
 * tables hold that many. */
START_TEST(more_keys_than_the_limit_are_refused)
{
	static struct apod_param many[APOD_MAX_PARAMS + 2];
	static char names[APOD_MAX_PARAMS + 1][8];
	struct apod_workload w = count_workload();
	w.params_size = sizeof(long);
	for (int i = 0; i <= APOD_MAX_PARAMS; i++) {
		snprintf(names[i], sizeof names[i], "k%d", i);
		many[i] = (struct apod_param){ .key = names[i], .type = APOD_PARAM_INT, .def = "1",
		                               .lo = 1, .hi = 2 };
	}
	w.params = many;
	refused(&w, "at most 64");
	many[APOD_MAX_PARAMS].key = NULL;
	ck_assert_int_eq(apod_workload_check(&w), 0);
}
END_TEST

/* A stage of several processes.  Stand-ins for the link between them:
 * this process is not the reporter, and agreeing is just passing its own
 * verdict on (no other process to hear from). */
static int not_reporter(const struct apod_stage *s)
{
	(void)s;
	return 0;
}
static int agree_alone(const struct apod_stage *s, int failed)
{
	(void)s;
	return failed ? -1 : 0;
}
static int no_snapshot_begin(void *ctx, int a)
{
	(void)ctx;
	(void)a;
	return 0;
}
static int no_snapshot_stream(void *ctx, int (*sink)(const void *, size_t, void *), void *arg)
{
	(void)ctx;
	(void)sink;
	(void)arg;
	return 0;
}

START_TEST(a_process_that_does_not_report_writes_nothing)
{
	struct apod_workload w = count_workload();
	struct apod_stage_ops ranks_ops = count_ops;
	struct apod_stage ranks = { .name = "ranks", .about = "x", .needs = "MPI", .ops = &ranks_ops };
	const struct apod_stage *ladder[] = { &count_serial, &ranks, NULL };
	struct count_params *p = apod_params_new(&w);
	char dir[] = "/tmp/apod-harness-XXXXXX", cmd[96];
	struct apod_run r;
	void *problem;

	ranks_ops.reporter = not_reporter;
	ranks_ops.agree = agree_alone;
	w.stages = ladder;
	ck_assert_int_eq(apod_workload_check(&w), 0);
	ranks_ops.agree = NULL;
	refused(&w, "one of reporter and agree");
	ranks_ops.agree = agree_alone;
	ranks_ops.snapshot_begin = no_snapshot_begin;
	ranks_ops.snapshot_stream = no_snapshot_stream;
	refused(&w, "cannot stream snapshots");
	ranks_ops.snapshot_begin = NULL;
	ranks_ops.snapshot_stream = NULL;

	/* It runs the whole loop, fetch included, and writes no file. */
	ck_assert_ptr_nonnull(p);
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_ptr_nonnull(problem = w.problem_create(p));
	ck_assert_int_eq(apod_stage_reporter(&w, &ranks), 0);
	ck_assert_int_eq(apod_simulate(&w, &ranks, p, problem, dir, 0, &r), 0);
	ck_assert_double_eq(r.series[0].v[3], 4 * (0 + 1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9));
	apod_run_free(&r);
	snprintf(cmd, sizeof cmd, "test -z \"$(ls -A %s)\"", dir);
	ck_assert_msg(system(cmd) == 0, "a process that does not report wrote into %s", dir);
	/* A stage of one process reports. */
	ck_assert_int_eq(apod_stage_reporter(&w, &count_serial), 1);
	/* A stage this build left out (no ops) is described all the same. */
	ranks.ops = NULL;
	ck_assert_int_eq(apod_workload_check(&w), 0);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	w.problem_destroy(problem);
	free(p);
}
END_TEST

START_TEST(a_workload_runs_writes_reads_and_verifies)
{
	struct apod_workload w = count_workload();
	const struct apod_workload *const ws[] = { &w, NULL };
	struct count_params *p = apod_params_new(&w);
	void *problem, *back;
	struct apod_run a, b;
	struct apod_verdict v;
	char dir[] = "/tmp/apod-harness-XXXXXX", cmd[64];
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(p->n, 10);
	ck_assert_int_eq(apod_params_set(&w, p, "n", "5", "t"), 0);
	ck_assert_int_eq(apod_params_set(&w, p, "n", "0", "--n"), -1);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "--n: n: 0 is out of range [1, 1000] (workload count)"));
	/* Named once, by the path the failure took. */
	ck_assert_ptr_null(strstr(strstr(apod_failure(), "(workload ") + 1, "(workload "));
	ck_assert_int_eq(apod_params_set(&w, p, "scale", "0", "t"), -1);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "outside (0, 10]"));
	ck_assert_int_eq(apod_params_set(&w, p, "colour", "red", "t"), -1);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "unknown key 'colour' (workload count)"));

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_ptr_nonnull(problem = w.problem_create(p));
	ck_assert_int_eq(apod_simulate(&w, &count_serial, p, problem, dir, 0, &a), 0);
	/* setup, add, sum, writeSnapshot, fetchResults, writeReport: each once. */
	ck_assert_int_eq(a.nphases, 6);
	ck_assert_int_eq(apod_phase_total(&w), 6);
	{
		static const char *const names[] = { "setup", "add", "sum", "writeSnapshot",
		                                     "fetchResults", "writeReport" };
		unsigned seen = 0;
		for (int i = 0; i < 6; i++)
			seen |= 1u << phase_of(&w, names[i]);
		ck_assert_uint_eq(seen, 0x3fu);
		ck_assert_int_eq(apod_phase_number(&w, "nosuchphase"), -1);
	}
	ck_assert_double_eq(a.series[0].v[3], 4 * (0 + 1 + 2 + 3 + 4));
	ck_assert_int_eq(apod_results_load(dir, ws, &back, &b), 0);
	ck_assert_int_eq(((struct count_params *)back)->n, 5);
	ck_assert_int_eq(apod_verify(back, &a, &b, &v), 1);
	/* Exact means exact. */
	((double *)b.arrays[0].data)[2] = nextafter(((double *)b.arrays[0].data)[2], 1e9);
	ck_assert_int_eq(apod_verify(back, &a, &b, &v), 0);
	ck_assert_int_eq(v.out[0].ok, 0);
	((double *)b.arrays[0].data)[2] = ((double *)a.arrays[0].data)[2];
	/* An invariant that drifts in one run fails, whatever the other run does. */
	b.series[1].v[2] += 1;
	ck_assert_int_eq(apod_verify(back, &a, &b, &v), 0);
	ck_assert_int_eq(v.out[2].ok, 0);
	ck_assert_int_eq(v.out[2].worst_step, 3);

	apod_run_free(&a);
	apod_run_free(&b);
	free(back);
	w.problem_destroy(problem);
	free(p);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* A series is as wide as its column names, or where it has none, as
 * columns() says for the deck (headers numbered after column_prefix). */
static int n_columns(const void *params)
{
	return (int)((const struct count_params *)params)->n;
}

START_TEST(a_series_is_as_wide_as_its_names_or_the_deck_says)
{
	struct apod_workload w = count_workload();
	static const struct apod_series widths[] = {
		{ .name = "two", .probe = "sum", .column_names = "sum,extra", .compare = APOD_COMPARE_EXACT },
		{ .name = "bins", .probe = "sum", .columns = n_columns, .column_prefix = "bin",
		  .compare = APOD_COMPARE_EXACT },
		{ .name = NULL },
	};
	struct count_params *p = apod_params_new(&w);
	struct apod_run r;
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(apod_run_alloc(&r, &w, p), 0);
	ck_assert_int_eq(r.series[0].cols, 1);
	ck_assert_int_eq(r.series[0].rows, 4);
	apod_run_free(&r);
	w.series = widths;
	ck_assert_int_eq(apod_workload_check(&w), 0);
	ck_assert_int_eq(apod_params_set(&w, p, "n", "7", "t"), 0);
	ck_assert_int_eq(apod_run_alloc(&r, &w, p), 0);
	ck_assert_int_eq(r.series[0].cols, 2);
	ck_assert_int_eq(r.series[1].cols, 7);
	apod_run_free(&r);
	free(p);
}
END_TEST

/* The harness marks every phase a stage's calls belong to, in pairs, and
 * asks for the device's seconds once; setup and writeReport are the host's. */
START_TEST(device_marks_come_in_pairs)
{
	struct apod_workload w = count_workload();
	struct apod_stage_ops timed_ops = count_ops;
	struct apod_stage timed = { APOD_STAGE_SERIAL, .about = "x", .ops = &timed_ops };
	const struct apod_stage *stages[] = { &timed, NULL };
	struct count_params *p = apod_params_new(&w);
	void *problem;
	struct apod_run r;
	int setup, add, sum, fetch, report;
	timed_ops.mark = count_mark;
	timed_ops.device_seconds = count_device;
	w.stages = stages;
	ck_assert_int_eq(apod_workload_check(&w), 0);
	setup = phase_of(&w, APOD_PHASE_SETUP_NAME);
	add = phase_of(&w, "add");
	sum = phase_of(&w, "sum");
	fetch = phase_of(&w, APOD_PHASE_FETCH_NAME);
	report = phase_of(&w, APOD_PHASE_REPORT_NAME);
	ck_assert_ptr_nonnull(problem = w.problem_create(p));
	ck_assert_int_eq(apod_simulate(&w, &timed, p, problem, NULL, 0, &r), 0);
	ck_assert_int_eq(marks_bad, 0);
	ck_assert_int_eq(marks_done[setup], 0);          /* setup: no context yet */
	ck_assert_int_eq(marks_done[add], 4);            /* the step, every step */
	ck_assert_int_eq(marks_done[sum], 4);            /* the probe, every step */
	ck_assert_int_eq(marks_done[fetch], 1);          /* fetchResults */
	ck_assert_int_eq(marks_done[report], 0);         /* writeReport: the harness's */
	ck_assert(r.has_device);
	ck_assert_double_eq_tol(r.device[add], 4e-3, 1e-12);
	ck_assert(apod_device_timed(&r, add) && !apod_device_timed(&r, setup) &&
	          !apod_device_timed(&r, report));
	ck_assert_double_eq_tol(apod_attributed(&r, add), 4e-3, 1e-12);
	/* Half a workload's stage declares device timing: refused. */
	timed_ops.device_seconds = NULL;
	ck_assert_int_eq(apod_workload_check(&w), -1);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "mark and device_seconds"));
	apod_run_free(&r);
	w.problem_destroy(problem);
	free(p);
}
END_TEST

/* --trace's accounting: work is filed under the phase occurrence its call
 * was made in, whichever of the two records comes first; busy adds the
 * durations, work spans each occurrence from its first start to its last
 * end; a kernel that starts before the one ahead of it in its stream ends
 * (programmatic dependent launch) counts from that end, while work in
 * another stream overlaps for real; work of an untagged call (the
 * snapshot writer's thread) is unattributed; a sum empties the book. */
START_TEST(trace_book_sums_work_by_phase)
{
	struct apod_trace_book b;
	double busy[4] = { 0 }, work[4] = { 0 }, other = 0;
	apod_trace_book_init(&b);
	/* Phase 1, first occurrence: two kernels with a 500 ns gap between. */
	apod_trace_book_call(&b, 7, APOD_TRACE_TAG(1, 1));
	apod_trace_book_work(&b, 7, 1, 10000, 11500);       /* after its call's record */
	apod_trace_book_work(&b, 9000, 1, 12000, 12250);    /* before it: an id past the table */
	apod_trace_book_call(&b, 9000, APOD_TRACE_TAG(1, 1));
	/* Phase 1 again, later: its own occurrence, so the idle time between
	 * the two is nobody's. */
	apod_trace_book_call(&b, 10, APOD_TRACE_TAG(2, 1));
	apod_trace_book_work(&b, 10, 1, 50000, 50500);
	/* Phase 2: a copy that overlaps nothing. */
	apod_trace_book_call(&b, 11, APOD_TRACE_TAG(3, 2));
	apod_trace_book_work(&b, 11, 1, 60000, 61000);
	apod_trace_book_work(&b, 8, 2, 20000, 21000);       /* a call made outside every phase */
	/* Phase 3 twice in stream 1, the second launched early: 200 ns of it
	 * were the wait for the first.  Phase 2's copy in stream 2 meanwhile. */
	apod_trace_book_call(&b, 12, APOD_TRACE_TAG(4, 3));
	apod_trace_book_work(&b, 12, 1, 70000, 71000);
	apod_trace_book_call(&b, 13, APOD_TRACE_TAG(5, 3));
	apod_trace_book_work(&b, 13, 1, 70800, 72000);
	apod_trace_book_call(&b, 14, APOD_TRACE_TAG(4, 2));
	apod_trace_book_work(&b, 14, 2, 70500, 70900);
	ck_assert_int_eq(apod_trace_book_sum(&b, busy, work, 4, &other), 0);
	ck_assert_double_eq_tol(busy[0], 0, 1e-15);
	ck_assert_double_eq_tol(busy[1], 2250e-9, 1e-15);
	ck_assert_double_eq_tol(work[1], 2750e-9, 1e-15);
	ck_assert_double_eq_tol(busy[2], 1400e-9, 1e-15);
	ck_assert_double_eq_tol(work[2], 1400e-9, 1e-15);
	ck_assert_double_eq_tol(busy[3], 2000e-9, 1e-15);
	ck_assert_double_eq_tol(work[3], 2000e-9, 1e-15);
	ck_assert_double_eq_tol(other, 1000e-9, 1e-15);
	/* Emptied: a second sum adds nothing, and the ids are forgotten. */
	apod_trace_book_work(&b, 7, 1, 0, 100);
	ck_assert_int_eq(apod_trace_book_sum(&b, busy, work, 4, &other), 0);
	ck_assert_double_eq_tol(busy[1], 2250e-9, 1e-15);
	ck_assert_double_eq_tol(other, 1100e-9, 1e-15);
	apod_trace_book_free(&b);
}
END_TEST

/* ---- a device stage's plumbing ------------------------------------------ */

/* A stage that is told its step and keeps its probe's rows until they are
 * collected, as a device stage would: the same results as count_serial. */
struct deferred_ctx {
	struct count_ctx c;
	long last_step, steps_seen;
	double kept[3][2];       /* defer_rows rows of the two series */
	long bad;
};

static void *deferred_create(const struct apod_stage *s, const void *problem)
{
	struct deferred_ctx *d = calloc(1, sizeof *d);
	struct count_ctx *c = count_create(s, problem);
	if (!d || !c) {
		free(d);
		count_destroy(c);
		return NULL;
	}
	d->c = *c;
	free(c);
	return d;
}

static int deferred_step(void *ctx, int phase, long step, long steps)
{
	struct deferred_ctx *d = ctx;
	d->bad += phase != 0 || step != d->last_step + 1;
	d->last_step = step;
	d->steps_seen = steps;
	return count_add(&d->c);
}

/* rows is NULL for a stage with collect: the row stays here. */
static int deferred_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct deferred_ctx *d = ctx;
	double *kept = d->kept[row % 3];
	d->bad += k != 0 || rows != NULL || step != d->last_step || row != step - 1;
	count_rows(&d->c, &kept[0], &kept[1]);
	return 0;
}

static int deferred_collect(void *ctx, int k, long first, long count, void *const *rows)
{
	struct deferred_ctx *d = ctx;
	(void)k;
	d->bad += count < 1 || count > 3;
	for (long i = 0; i < count; i++) {
		if (rows[0])
			((double *)rows[0])[i] = d->kept[(first + i) % 3][0];
		if (rows[1])
			((double *)rows[1])[i] = d->kept[(first + i) % 3][1];
	}
	return 0;
}

static int deferred_fetch(void *ctx, int a, void *dst)
{
	return count_fetch(&((struct deferred_ctx *)ctx)->c, a, dst);
}

static struct deferred_ctx *deferred_last;
static void deferred_destroy(void *ctx)
{
	struct deferred_ctx *d = ctx;
	if (!d)
		return;
	deferred_last = malloc(sizeof *d);
	if (deferred_last)
		*deferred_last = *d;
	free(d->c.x);
	free(d);
}

START_TEST(steps_told_their_index_and_probes_deferred)
{
	struct apod_workload w = count_workload();
	struct apod_stage_ops deferred_ops = {
		.create = deferred_create, .step = deferred_step, .probe = deferred_probe,
		.fetch = deferred_fetch, .destroy = deferred_destroy,
		.defer_rows = 3, .collect = deferred_collect,
	};
	struct apod_stage deferred = {
		.name = "deferred", .about = "x", .ports = "add,sum", .runs_on = APOD_RUNS_DEVICE,
		.ops = &deferred_ops,
	};
	const struct apod_stage *stages[] = { &count_serial, &deferred, NULL };
	struct count_params *p;
	void *problem;
	struct apod_run a, b;
	struct apod_verdict v;
	w.stages = stages;
	ck_assert_int_eq(apod_workload_check(&w), 0);
	ck_assert_ptr_nonnull(p = apod_params_new(&w));
	ck_assert_int_eq(apod_params_set(&w, p, "steps", "10", "t"), 0);
	ck_assert_ptr_nonnull(problem = w.problem_create(p));
	ck_assert_int_eq(apod_simulate(&w, &count_serial, p, problem, NULL, 0, &a), 0);
	ck_assert_int_eq(apod_simulate(&w, &deferred, p, problem, NULL, 0, &b), 0);
	ck_assert_ptr_nonnull(deferred_last);
	ck_assert_int_eq(deferred_last->bad, 0);
	ck_assert_int_eq(deferred_last->last_step, 10);
	ck_assert_int_eq(deferred_last->steps_seen, 10);
	free(deferred_last);
	deferred_last = NULL;
	/* Every row came home, in order, with its step. */
	for (long r = 0; r < 10; r++) {
		ck_assert_double_eq(b.series[0].v[r], a.series[0].v[r]);
		ck_assert_int_eq(b.series[0].step[r], r + 1);
	}
	ck_assert_int_eq(apod_verify(p, &a, &b, &v), 1);
	/* defer_rows and collect go together. */
	deferred_ops.collect = NULL;
	ck_assert_int_eq(apod_workload_check(&w), -1);
	deferred_ops.collect = deferred_collect;
	deferred_ops.defer_rows = 0;
	ck_assert_int_eq(apod_workload_check(&w), -1);
	apod_run_free(&a);
	apod_run_free(&b);
	w.problem_destroy(problem);
	free(p);
}
END_TEST

/* Keys with a list of choices: stored as the index, refused with the list. */
struct choice_params {
	long n, steps;
	double scale;
	int grid;
};
static const char *const grids[] = { "unionized", "nuclide", "hash", NULL };

START_TEST(a_choice_key_takes_only_its_choices)
{
	struct apod_workload w = count_workload();
	struct apod_param keys[5];
	struct choice_params *p;
	char text[64];
	memcpy(keys, count_keys, 3 * sizeof keys[0]);
	keys[3] = (struct apod_param){ .key = "grid", .type = APOD_PARAM_CHOICE, .def = "nuclide",
	                               .offset = offsetof(struct choice_params, grid),
	                               .choices = grids };
	keys[4] = (struct apod_param){ .key = NULL };
	w.params = keys;
	w.params_size = sizeof *p;
	ck_assert_int_eq(apod_workload_check(&w), 0);
	ck_assert_ptr_nonnull(p = apod_params_new(&w));
	ck_assert_int_eq(p->grid, 1);
	ck_assert_int_eq(apod_params_set(&w, p, "grid", "hash", "t"), 0);
	ck_assert_int_eq(p->grid, 2);
	ck_assert_int_eq(apod_param_text(&keys[3], p, 0, text, sizeof text), 1);
	ck_assert_str_eq(text, "hash");
	ck_assert_int_eq(apod_params_set(&w, p, "grid", "tree", "t"), -1);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "'tree' is not one of unionized, nuclide, hash"));
	free(p);
	keys[3].choices = NULL;
	refused(&w, "lists no choices");
}
END_TEST

/* The speed of light: the tightest resource's term, and a stage held to it. */
static int count_work(const void *params, const void *problem, const char *phase,
                      struct apod_work *wk)
{
	double n = (double)((const struct count_params *)params)->n;
	(void)problem;
	if (strcmp(phase, "add"))
		return 0;
	wk->bytes = 16 * n;          /* x read and written */
	wk->flops64 = n;
	return 1;
}

START_TEST(the_speed_of_light_bounds_and_checks_itself)
{
	struct apod_work wk = { .bytes = 1e9, .flops32 = 4e9, .special = 1e8,
	                        .h2d_bytes = 2e9, .d2h_bytes = 1e9 };
	struct apod_sol_ceiling c = { .bytes = 1e12, .flops32 = 1e12, .flops64 = 0, .special = 1e9 };
	struct apod_workload w = count_workload();
	struct apod_stage gpu = { .name = "gpu", .about = "x", .ports = "add", .runs_on = APOD_RUNS_DEVICE,
	                          .ops = &count_ops };
	struct apod_sol_machine m = { .have_host = 1, .have_device = 1,
	                              .core = { .bytes = 1e10, .flops64 = 1e10 },
	                              .cores = { .bytes = 4e10, .flops64 = 8e10 },
	                              .device = { .bytes = 1e12, .flops64 = 1e13 },
	                              .h2d = 5e10, .d2h = 5e10 };
	struct apod_run serial = { 0 }, run = { 0 };
	struct apod_sol sol;
	struct count_params prm = { .n = 1000000, .steps = 10, .scale = 1 };
	int add, sum, setup;

	/* The largest term, never the sum: 0.1 s of special functions. */
	ck_assert_double_eq_tol(apod_sol_seconds(&wk, &c, 0, 1e10, 1e10), 0.1, 1e-12);
	/* Over the bus 2e9 bytes at 1e10 B/s take longer: 0.2 s. */
	ck_assert_double_eq_tol(apod_sol_seconds(&wk, &c, 1, 1e10, 1e10), 0.2, 1e-12);

	w.work = count_work;
	add = phase_of(&w, "add");
	sum = phase_of(&w, "sum");
	setup = phase_of(&w, APOD_PHASE_SETUP_NAME);
	serial.w = run.w = &w;
	serial.nphases = run.nphases = apod_phase_count(&w);
	serial.steps = run.steps = 10;
	/* Each phase's calls, as a run of a fixed step makes them. */
	apod_run_default_calls(&serial, &prm);
	apod_run_default_calls(&run, &prm);
	run.width = 0;
	/* serial: 1.0 s stepping, 0.5 s elsewhere; the step's light on one core
	 * is 10 x 16e6 B / 1e10 B/s = 16 ms. */
	serial.phase[add] = 1.0;
	serial.phase[sum] = 0.5;
	serial.total = 1.5;
	ck_assert_int_eq(apod_sol_eval(&w, &prm, &count_serial, 1, &serial, &serial, &m, &sol), 0);
	ck_assert_int_eq(sol.have, 1);
	ck_assert_double_eq_tol(sol.phase[add], 0.016, 1e-12);
	ck_assert_double_eq_tol(sol.bound, 0.516, 1e-12);
	ck_assert_double_eq_tol(sol.reached, 0.516 / 1.5, 1e-12);
	ck_assert_uint_eq(sol.faster, 0);
	/* The loop is the step and the probe: the step's light and the probe's
	 * measured time (no work declared), against 1.5 s measured. */
	ck_assert_double_eq_tol(sol.loop_bound, 0.516, 1e-12);
	ck_assert_double_eq_tol(sol.loop_time, 1.5, 1e-12);
	ck_assert_double_eq_tol(sol.loop_reached, 0.516 / 1.5, 1e-12);
	/* A device stage: 16e7 B at 1e12 B/s is 160 us; the probe stays at
	 * serial's 0.5 s, so no speedup beyond 1.5 / 0.50016. */
	run.phase[add] = 0.001;
	run.phase[sum] = 0.5;
	run.total = 0.501;
	ck_assert_int_eq(apod_sol_eval(&w, &prm, &gpu, 0, &serial, &run, &m, &sol), 0);
	ck_assert_double_eq_tol(sol.phase[add], 1.6e-4, 1e-15);
	ck_assert_double_eq_tol(sol.speedup, 1.5 / 0.50016, 1e-9);
	ck_assert_double_eq_tol(sol.n, 1.0 / 1.6e-4, 1e-6);
	/* The loop without setup and I/O: setup's 2 s count in the total and
	 * its reach, not in the loop's (the probe is not ported: serial's). */
	run.phase[setup] = 2.0;
	run.total = 2.501;
	ck_assert_int_eq(apod_sol_eval(&w, &prm, &gpu, 0, &serial, &run, &m, &sol), 0);
	ck_assert_double_eq_tol(sol.loop_bound, 0.50016, 1e-12);
	ck_assert_double_eq_tol(sol.loop_time, 0.501, 1e-12);
	ck_assert_double_eq_tol(sol.loop_reached, 0.50016 / 0.501, 1e-12);
	ck_assert_double_eq_tol(sol.reached, sol.bound / 2.501, 1e-12);
	run.phase[setup] = 0;
	run.total = 0.501;
	/* Host clocks that time launches cannot be held to it phase by phase;
	 * their sum still is: 10 us of steps is faster than light. */
	ck_assert_uint_eq(sol.faster, 0);
	run.phase[add] = 1e-5;
	ck_assert_int_eq(apod_sol_eval(&w, &prm, &gpu, 0, &serial, &run, &m, &sol), 0);
	ck_assert_uint_eq(sol.faster, APOD_SOL_LOOP);
	/* Timed on the device, the step is too: held with the probes, since a
	 * stage may do a probe's work inside its step. */
	run.has_device = 1;
	run.device[add] = 1e-5;
	run.device[sum] = 0.25;
	ck_assert_int_eq(apod_sol_eval(&w, &prm, &gpu, 0, &serial, &run, &m, &sol), 0);
	ck_assert_uint_eq(sol.faster, APOD_SOL_LOOP);
	/* The loop's time is then the device's: 10 us stepping, 0.25 s probing
	 * (the host's 0.5 s held the wait for the device). */
	ck_assert_double_eq_tol(sol.loop_time, 1e-5 + 0.25, 1e-15);
	ck_assert_double_eq_tol(sol.loop_reached, 0.50016 / (1e-5 + 0.25), 1e-9);
	/* No device measured: no speed of light, and why. */
	m.have_device = 0;
	snprintf(m.why_no_device, sizeof m.why_no_device, "no GPU here");
	ck_assert_int_eq(apod_sol_eval(&w, &prm, &gpu, 0, &serial, &run, &m, &sol), 0);
	ck_assert_int_eq(sol.have, 0);
	ck_assert_ptr_nonnull(strstr(sol.why, "no GPU here"));
	/* No work declared: none either. */
	w.work = NULL;
	ck_assert_int_eq(apod_sol_eval(&w, &prm, &count_serial, 1, &serial, &serial, &m, &sol), 0);
	ck_assert_int_eq(sol.have, 0);
}
END_TEST


int main(void)
{
	const TTest *tests[] = {
		nonsense_is_refused_at_registration, an_older_revision_is_refused_by_name,
		a_series_is_as_wide_as_its_names_or_the_deck_says,
		a_workload_runs_writes_reads_and_verifies,
		a_process_that_does_not_report_writes_nothing, apod_main_refuses_a_bad_program,
		a_key_named_after_an_option_is_refused, more_keys_than_the_limit_are_refused,
		device_marks_come_in_pairs, trace_book_sums_work_by_phase,
		steps_told_their_index_and_probes_deferred,
		a_choice_key_takes_only_its_choices,
		the_speed_of_light_bounds_and_checks_itself,
		NULL,
	};
	return check_run(check_suite("harness", "core", 0, tests), CK_FORK_GETENV);
}
