/*
 * check_fresh.c: the table runs each stage in a process of its own
 * (cpu/cli/fresh_process.c), so no stage inherits what another left behind.
 *
 * This is a whole apod program with one workload, "churn", whose step
 * allocates, touches and frees 32 MB, as a molecular-dynamics proxy does at
 * every exchange: run first in a process, serial would pay the heap's
 * growth and page faults that a later stage in the same process would
 * not.  Timing is not asserted (make check holds no timing thresholds);
 * what is, is the cause: each stage's array records how many stages this
 * process had created before it.  In one process the second stage records
 * 2 against serial's 1 and fails the gate; each in its own, both record 1.
 * With arguments the program is apod's command line: the table runs its
 * stages through it.
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

#define CHURN_BYTES (32u << 20)

struct churn_params {
	char name[64];
	long steps;
};

static int created;   /* stages this process has created */

struct churn {
	double created;
	volatile char sink;
};

static void *churn_create(const struct apod_stage *stage, const void *problem)
{
	struct churn *s = apod_state_alloc(sizeof *s, "churn");
	(void)stage;
	(void)problem;
	if (s)
		s->created = ++created;
	return s;
}

/* The unported phase: a large buffer allocated, touched and freed. */
static int churn_step(void *ctx, int phase, long step, long steps)
{
	struct churn *s = ctx;
	char *b = malloc(CHURN_BYTES);
	(void)phase;
	(void)step;
	(void)steps;
	if (!b)
		return apod_fail("churn: out of memory");
	memset(b, 1, CHURN_BYTES);
	/* Seen from outside: gcc would drop an allocation nothing reads. */
	__asm__ volatile("" : : "r"(b) : "memory");
	s->sink = b[CHURN_BYTES - 1];
	free(b);
	return 0;
}

static int churn_fetch(void *ctx, int a, void *dst)
{
	(void)a;
	memcpy(dst, &((struct churn *)ctx)->created, sizeof(double));
	return 0;
}

static const struct apod_stage_ops churn_ops = {
	.create = churn_create, .step = churn_step, .fetch = churn_fetch, .destroy = free,
};
static const struct apod_stage churn_serial = {
	APOD_STAGE_SERIAL, .about = "the reference", .ops = &churn_ops,
};
/* The same code, second: it ports nothing, so serial's time binds it. */
static const struct apod_stage churn_again = {
	.name = "again", .about = "serial's code again, run second",
	.runs_on = APOD_RUNS_HOST_CORE, .ops = &churn_ops,
};
static const struct apod_stage *const churn_stages[] = { &churn_serial, &churn_again, NULL };

static const struct apod_param churn_keys[] = {
	APOD_KEY_NAME(struct churn_params, name, "churn"),
	APOD_KEY_STEPS(struct churn_params, steps, "8", 1000),
	{ .key = NULL },
};
APOD_PARAM_LONG(churn_steps, struct churn_params, steps)
APOD_PARAM_TEXT(churn_title, struct churn_params, name)

static int one(const void *params, size_t dims[2])
{
	(void)params;
	dims[0] = 1;
	return 1;
}
static const struct apod_phase churn_phases[] = { { "churnStep" }, { NULL } };
static const struct apod_array churn_arrays[] = {
	{ .name = "created", .dtype = APOD_F64, .shape = one, .compare = APOD_COMPARE_EXACT },
	{ .name = NULL },
};

static void *churn_problem(const void *params)
{
	return calloc(1, sizeof(params));
}

static const struct apod_workload churn = {
	.version = APOD_WORKLOAD_VERSION, .name = "churn",
	.about = "a step that allocates and frees 32 MB (tests/check_fresh.c)",
	.params = churn_keys, .params_size = sizeof(struct churn_params),
	.steps = churn_steps, .title = churn_title,
	.problem_create = churn_problem, .problem_destroy = free,
	.phases = churn_phases, .arrays = churn_arrays, .stages = churn_stages,
};
static const struct apod_workload *const churn_workloads[] = { &churn, NULL };
static const struct apod_program churn_program = {
	.name = "check_fresh", .about = "the table's stages, each in a fresh process",
	.workloads = churn_workloads,
};

/* The table of churn, serial first or (reverse) last: either way each
 * stage is the first of its process, so both pass bit for bit. */
static void table_in_order(int reverse)
{
	char dir[] = "/tmp/apod-fresh-XXXXXX", json[64];
	char *argv[] = { "check_fresh", json, "--reverse", NULL };
	json_object *t, *stages, *row, *v, *x;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(json, sizeof json, "--json=%s/t.json", dir);
	/* The gate fails (exit 1) where the second stage shares serial's process. */
	ck_assert_int_eq(apod_main(reverse ? 3 : 2, argv, &churn_program), 0);
	snprintf(json, sizeof json, "%s/t.json", dir);
	ck_assert_ptr_nonnull(t = json_object_from_file(json));
	ck_assert(json_object_object_get_ex(t, "stages", &stages));
	ck_assert_int_eq(json_object_array_length(stages), 2);
	row = json_object_array_get_idx(stages, 1);
	ck_assert(json_object_object_get_ex(row, "ran", &x) && json_object_get_boolean(x));
	ck_assert(json_object_object_get_ex(row, "verify_against_serial", &v));
	ck_assert(json_object_object_get_ex(v, "pass", &x) && json_object_get_boolean(x));
	/* Bit for bit: both made the first stage of their process. */
	ck_assert(json_object_object_get_ex(v, "worst", &x) && x == NULL);
	/* Serial's own time is read back from its process, not lost. */
	row = json_object_array_get_idx(stages, 0);
	ck_assert(json_object_object_get_ex(row, "total_seconds", &x) && json_object_get_double(x) > 0);
	json_object_put(t);
	unlink(json);
	rmdir(dir);
}

START_TEST(each_stage_runs_in_a_process_of_its_own)
{
	table_in_order(0);
}
END_TEST

/* table --reverse: serial last, the row still the reference's. */
START_TEST(the_order_of_the_stages_changes_nothing)
{
	table_in_order(1);
}
END_TEST

int main(int argc, char **argv)
{
	/* The reverse order last: --reverse stays set in this process. */
	const TTest *tests[] = { each_stage_runs_in_a_process_of_its_own,
	                         the_order_of_the_stages_changes_nothing, NULL };
	if (argc > 1)   /* a stage's process, started by the table */
		return apod_main(argc, argv, &churn_program);
	return check_run(check_suite("fresh", "core", 120, tests), CK_NOFORK);
}
