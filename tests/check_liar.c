/*
 * check_liar.c: a port that lies about what it ports, and the table that
 * must catch it.
 *
 * A whole apod program with one workload, "liar": a step of two phases,
 * force and exchange, each a fixed count of dependent additions.  Its
 * stage "liar" declares that it ports force, runs force as serial does,
 * and runs exchange, which it does not declare, 33 times faster (its deck
 * key cut: 97% of that work left out).  The table must say MODEL BROKEN
 * for it, quiet or loaded (tests/busy.sh runs it under load): 33 times is
 * beyond any interval noise can make.  The
 * test asserts the verdict, not a time.  With arguments the program is
 * apod's command line: the table runs its stages, and tests/busy.sh its
 * table, through it.
 */
#include <check.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "check_run.h"
#include "cpu/cli/spread.h"

/* Additions a step's phase makes in serial: a few milliseconds. */
#define LIAR_WORK 2000000L

struct liar_params {
	char name[64];
	long steps;
	long cut;     /* percent of exchange's work the liar leaves out */
};

struct liar {
	long exchange;   /* additions its exchange makes */
	double steps;
	volatile double sink;
};

static void *liar_create(const struct apod_stage *stage, const void *problem)
{
	struct liar *s = apod_state_alloc(sizeof *s, "liar");
	long cut = *(const long *)problem;
	if (s)
		s->exchange = strcmp(stage->name, "liar") ? LIAR_WORK : LIAR_WORK / 100 * (100 - cut);
	return s;
}

static void spin(struct liar *s, long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += 1e-9 * (double)i;
	s->sink = x;
}

/* Phase 0, force: the same work in every stage.  Phase 1, exchange: the
 * liar's is cut (97% by default: 33 times less), and undeclared. */
static int liar_step(void *ctx, int phase, long step, long steps)
{
	struct liar *s = ctx;
	(void)step;
	(void)steps;
	spin(s, phase == 1 ? s->exchange : LIAR_WORK);
	if (phase == 1)
		s->steps++;
	return 0;
}

static int liar_fetch(void *ctx, int a, void *dst)
{
	(void)a;
	memcpy(dst, &((struct liar *)ctx)->steps, sizeof(double));
	return 0;
}

static const struct apod_stage_ops liar_ops = {
	.create = liar_create, .step = liar_step, .fetch = liar_fetch, .destroy = free,
};
static const struct apod_stage liar_serial = {
	APOD_STAGE_SERIAL, .about = "the reference", .ops = &liar_ops,
};
static const struct apod_stage liar_stage = {
	.name = "liar", .about = "declares force, speeds up exchange",
	.runs_on = APOD_RUNS_HOST_CORE, .ports = "force", .ops = &liar_ops,
};
/* Serial's code under another name: nothing to catch. */
static const struct apod_stage liar_honest = {
	.name = "honest", .about = "serial's code again, declaring force",
	.runs_on = APOD_RUNS_HOST_CORE, .ports = "force", .ops = &liar_ops,
};
static const struct apod_stage *const liar_stages[] = { &liar_serial, &liar_stage, &liar_honest,
	                                                NULL };

static const struct apod_param liar_keys[] = {
	APOD_KEY_NAME(struct liar_params, name, "liar"),
	APOD_KEY_STEPS(struct liar_params, steps, "8", 1000),
	{ .key = "cut", .type = APOD_PARAM_INT, .def = "97", .lo = 0, .hi = 99,
	  .offset = offsetof(struct liar_params, cut),
	  .help = "percent of exchange's work the liar leaves out" },
	{ .key = NULL },
};
APOD_PARAM_LONG(liar_steps, struct liar_params, steps)
APOD_PARAM_TEXT(liar_title, struct liar_params, name)

static int one(const void *params, size_t dims[2])
{
	(void)params;
	dims[0] = 1;
	return 1;
}
static const struct apod_phase liar_phases[] = { { "force" }, { "exchange" }, { NULL } };
static const struct apod_array liar_arrays[] = {
	{ .name = "steps", .dtype = APOD_F64, .shape = one, .compare = APOD_COMPARE_EXACT },
	{ .name = NULL },
};

/* The problem: the cut, for the stages to read. */
static void *liar_problem(const void *params)
{
	long *cut = malloc(sizeof *cut);
	if (cut)
		*cut = ((const struct liar_params *)params)->cut;
	return cut;
}

static const struct apod_workload liar = {
	.version = APOD_WORKLOAD_VERSION, .name = "liar",
	.about = "a stage that lies about what it ports (tests/check_liar.c)",
	.params = liar_keys, .params_size = sizeof(struct liar_params),
	.steps = liar_steps, .title = liar_title,
	.problem_create = liar_problem, .problem_destroy = free,
	.phases = liar_phases, .arrays = liar_arrays, .stages = liar_stages,
};
static const struct apod_workload *const liar_workloads[] = { &liar, NULL };
static const struct apod_program liar_program = {
	.name = "check_liar", .about = "a port that lies about what it ports",
	.workloads = liar_workloads,
};

static const char *verdict(json_object *stages, int i, const char *stage)
{
	json_object *row = json_object_array_get_idx(stages, i), *x;
	ck_assert(json_object_object_get_ex(row, "stage", &x));
	ck_assert_str_eq(json_object_get_string(x), stage);
	ck_assert(json_object_object_get_ex(row, "verdict", &x));
	return json_object_get_string(x);
}

/* The liar is broken, sure; the honest stage is not (nor may it be called
 * too noisy by a quiet machine: its code is serial's). */
START_TEST(the_liar_is_caught)
{
	char dir[] = "/tmp/apod-liar-XXXXXX", json[64];
	char *argv[] = { "check_liar", json, NULL };
	json_object *t, *stages, *x;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(json, sizeof json, "--json=%s/t.json", dir);
	/* The table's exit says whether every stage verified, not the model. */
	ck_assert_int_eq(apod_main(2, argv, &liar_program), 0);
	snprintf(json, sizeof json, "%s/t.json", dir);
	ck_assert_ptr_nonnull(t = json_object_from_file(json));
	ck_assert(json_object_object_get_ex(t, "stages", &stages));
	ck_assert_str_eq(verdict(stages, 1, "liar"), "broken");
	ck_assert_str_ne(verdict(stages, 2, "honest"), "broken");
	x = json_object_array_get_idx(stages, 1);
	ck_assert(json_object_object_get_ex(x, "undeclared_faster_phases", &x));
	ck_assert_int_eq(json_object_array_length(x), 1);
	ck_assert_str_eq(json_object_get_string(json_object_array_get_idx(x, 0)), "exchange");
	/* Timed more than once, each with its interval. */
	x = json_object_array_get_idx(stages, 1);
	ck_assert(json_object_object_get_ex(x, "runs", &x) && json_object_get_int(x) >= 3);
	json_object_put(t);
	unlink(json);
	rmdir(dir);
}
END_TEST

/* The interval of the median: the order statistics, as sure as they can be. */
START_TEST(the_interval_of_the_median)
{
	const double three[] = { 3, 1, 2 }, six[] = { 6, 1, 5, 2, 4, 3 };
	double many[20];
	struct apod_spread s;
	apod_spread_of(three, 1, &s);
	ck_assert(s.n == 1 && s.median == 3 && s.lo == 3 && s.hi == 3 && s.coverage == 0);
	apod_spread_of(three, 3, &s);
	ck_assert(s.median == 2 && s.lo == 1 && s.hi == 3);
	ck_assert_double_eq_tol(s.coverage, 0.75, 1e-12);
	ck_assert_double_eq_tol(apod_spread_rel(&s), 0.5, 1e-12);
	apod_spread_of(six, 6, &s);
	ck_assert(s.median == 3.5 && s.lo == 1 && s.hi == 6);
	ck_assert_double_eq_tol(s.coverage, 1 - 2.0 / 64, 1e-12);
	/* Of 20, the 6th from each end: P(B <= 5) = 0.0207, P(B <= 6) = 0.0577. */
	for (int i = 0; i < 20; i++)
		many[i] = 20 - i;
	apod_spread_of(many, 20, &s);
	ck_assert(s.lo == 6 && s.hi == 15);
	ck_assert(s.coverage >= APOD_SPREAD_SURE && s.coverage < 0.96);
	apod_spread_of(many, 0, &s);
	ck_assert_int_eq(s.n, 0);
}
END_TEST

int main(int argc, char **argv)
{
	const TTest *tests[] = { the_interval_of_the_median, the_liar_is_caught, NULL };
	if (argc > 1)   /* a stage's process, or tests/busy.sh's table */
		return apod_main(argc, argv, &liar_program);
	return check_run(check_suite("liar", "core", 120, tests), CK_NOFORK);
}
