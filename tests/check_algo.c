/*
 * check_algo.c: a stage that changes the algorithm, not the hardware
 * (role APOD_ROLE_ALGORITHM), is held to Amdahl's limit
 * and its speed of light, never to Amdahl at its one thread, which would
 * call any gain at all a broken model.
 *
 * A whole apod program with one workload, "pairs": each step moves n
 * points a little (the unported phase) and counts the pairs closer than a
 * cutoff.  serial counts over all pairs; "cells" bins the points into
 * cells of the cutoff's size and looks only at neighbouring cells: the
 * same count, exactly, for less work, on the same single core.  Timing is
 * not asserted; the row's role, the bound it is held to and its gate are.
 */
#include <check.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "check_run.h"

struct pairs_params {
	char name[64];
	long steps, n;
	double cutoff;
};

struct pairs {
	const struct pairs_params *p;
	double *x, *y;
	long long found;
	int *head, *next;   /* the cells' lists (cells only) */
	int side;
};

/* The points, the same on every stage: a fixed LCG. */
struct pairs_problem {
	struct pairs_params p;
	double *x, *y;
};

static void *problem_create(const void *params)
{
	struct pairs_problem *pb = calloc(1, sizeof *pb);
	unsigned long long s = 20261128;
	if (!pb)
		return apod_fail("pairs: out of memory"), NULL;
	pb->p = *(const struct pairs_params *)params;
	pb->x = malloc((size_t)pb->p.n * sizeof *pb->x);
	pb->y = malloc((size_t)pb->p.n * sizeof *pb->y);
	if (!pb->x || !pb->y) {
		free(pb->x), free(pb->y), free(pb);
		return apod_fail("pairs: out of memory"), NULL;
	}
	for (long i = 0; i < pb->p.n; i++) {
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		pb->x[i] = (double)(s >> 11) / 9007199254740992.0;
		s = s * 6364136223846793005ull + 1442695040888963407ull;
		pb->y[i] = (double)(s >> 11) / 9007199254740992.0;
	}
	return pb;
}

static void problem_destroy(void *problem)
{
	struct pairs_problem *pb = problem;
	free(pb->x), free(pb->y), free(pb);
}

static void destroy(void *ctx)
{
	struct pairs *s = ctx;
	free(s->x), free(s->y), free(s->head), free(s->next), free(s);
}

static void *create(const struct apod_stage *e, const void *problem)
{
	const struct pairs_problem *pb = problem;
	struct pairs *s = apod_state_alloc(sizeof *s, e->name);
	size_t bytes = (size_t)pb->p.n * sizeof(double);
	if (!s)
		return NULL;
	s->p = &pb->p;
	s->side = (int)(1 / pb->p.cutoff);
	s->x = malloc(bytes), s->y = malloc(bytes);
	s->head = malloc((size_t)s->side * (size_t)s->side * sizeof *s->head);
	s->next = malloc((size_t)pb->p.n * sizeof *s->next);
	if (!s->x || !s->y || !s->head || !s->next) {
		destroy(s);
		return apod_fail("%s: out of memory", e->name), NULL;
	}
	memcpy(s->x, pb->x, bytes);
	memcpy(s->y, pb->y, bytes);
	return s;
}

/* The unported phase: every point drifts and wraps into the unit square. */
static void move(struct pairs *s, long step)
{
	for (long i = 0; i < s->p->n; i++) {
		s->x[i] = fmod(s->x[i] + 0.001 * (double)(i % 7) + 1e-4 * (double)step, 1.0);
		s->y[i] = fmod(s->y[i] + 0.0007 * (double)(i % 5), 1.0);
	}
}

static int close_enough(const struct pairs *s, long i, long j)
{
	double dx = s->x[i] - s->x[j], dy = s->y[i] - s->y[j];
	return dx * dx + dy * dy < s->p->cutoff * s->p->cutoff;
}

static int serial_step(void *ctx, int phase, long step, long steps)
{
	struct pairs *s = ctx;
	(void)steps;
	if (phase == 0) {
		move(s, step);
		return 0;
	}
	for (long i = 0; i < s->p->n; i++)
		for (long j = i + 1; j < s->p->n; j++)
			s->found += close_enough(s, i, j);
	return 0;
}

static int cell_of(const struct pairs *s, double v)
{
	int c = (int)(v * s->side);
	return c < s->side ? c : s->side - 1;
}

/* The same pairs through cells at least the cutoff wide: only the 3x3
 * around each point's cell can hold a partner (no wrap: distances are
 * plain, as serial's). */
static int cells_step(void *ctx, int phase, long step, long steps)
{
	struct pairs *s = ctx;
	(void)steps;
	if (phase == 0) {
		move(s, step);
		return 0;
	}
	for (int c = 0; c < s->side * s->side; c++)
		s->head[c] = -1;
	for (long i = 0; i < s->p->n; i++) {
		int c = cell_of(s, s->y[i]) * s->side + cell_of(s, s->x[i]);
		s->next[i] = s->head[c];
		s->head[c] = (int)i;
	}
	for (long i = 0; i < s->p->n; i++) {
		int cx = cell_of(s, s->x[i]), cy = cell_of(s, s->y[i]);
		for (int y = cy - 1; y <= cy + 1; y++)
			for (int x = cx - 1; x <= cx + 1; x++) {
				if (x < 0 || y < 0 || x >= s->side || y >= s->side)
					continue;
				for (int j = s->head[y * s->side + x]; j >= 0; j = s->next[j])
					s->found += j > i && close_enough(s, i, j);
			}
	}
	return 0;
}

static int fetch(void *ctx, int a, void *dst)
{
	(void)a;
	memcpy(dst, &((struct pairs *)ctx)->found, sizeof(long long));
	return 0;
}

static const struct apod_stage_ops serial_ops = {
	.create = create, .step = serial_step, .fetch = fetch, .destroy = destroy,
};
static const struct apod_stage_ops cells_ops = {
	.create = create, .step = cells_step, .fetch = fetch, .destroy = destroy,
};
static const struct apod_stage pairs_serial = {
	APOD_STAGE_SERIAL, .about = "the reference: every pair", .ops = &serial_ops,
};
static const struct apod_stage pairs_cells = {
	.name = "cells", .about = "a cell list: neighbouring cells only, on the same core",
	.ports = "count", .role = APOD_ROLE_ALGORITHM, .runs_on = APOD_RUNS_HOST_CORE,
	.ops = &cells_ops,
};
static const struct apod_stage *const pairs_stages[] = { &pairs_serial, &pairs_cells, NULL };

static const struct apod_param pairs_keys[] = {
	APOD_KEY_NAME(struct pairs_params, name, "pairs"),
	APOD_KEY_STEPS(struct pairs_params, steps, "4", 1000),
	{ .key = "n", .type = APOD_PARAM_INT, .def = "3000", .lo = 2, .hi = 100000,
	  .offset = offsetof(struct pairs_params, n), .help = "points" },
	{ .key = "cutoff", .type = APOD_PARAM_REAL, .def = "0.02", .lo = 0.001, .hi = 0.5,
	  .offset = offsetof(struct pairs_params, cutoff), .help = "the pairs' distance" },
	{ .key = NULL },
};
APOD_PARAM_LONG(pairs_steps, struct pairs_params, steps)
APOD_PARAM_TEXT(pairs_title, struct pairs_params, name)

static int one(const void *params, size_t dims[2])
{
	(void)params;
	dims[0] = 1;
	return 1;
}
static const struct apod_array pairs_arrays[] = {
	{ .name = "found", .dtype = APOD_I64, .shape = one, .compare = APOD_COMPARE_EXACT },
	{ .name = NULL },
};
static const struct apod_phase pairs_phases[] = { { "move" }, { "count" }, { NULL } };

static const struct apod_workload pairs = {
	.version = APOD_WORKLOAD_VERSION, .name = "pairs",
	.about = "pairs within a cutoff, all pairs or a cell list (tests/check_algo.c)",
	.params = pairs_keys, .params_size = sizeof(struct pairs_params),
	.steps = pairs_steps, .title = pairs_title,
	.problem_create = problem_create, .problem_destroy = problem_destroy,
	.phases = pairs_phases, .arrays = pairs_arrays, .stages = pairs_stages,
};
static const struct apod_workload *const pairs_workloads[] = { &pairs, NULL };
static const struct apod_program pairs_program = {
	.name = "check_algo", .about = "an algorithmic stage's row",
	.workloads = pairs_workloads,
};

static json_object *member(json_object *o, const char *key)
{
	json_object *x = NULL;
	ck_assert_msg(json_object_object_get_ex(o, key, &x), "no \"%s\" in the row", key);
	return x;
}

START_TEST(an_algorithm_is_held_to_its_limit_not_to_one_thread)
{
	char dir[] = "/tmp/apod-algo-XXXXXX", json[64];
	char *argv[] = { "check_algo", json, NULL };
	json_object *t, *stages, *row;
	const char *kind;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(json, sizeof json, "--json=%s/t.json", dir);
	ck_assert_int_eq(apod_main(2, argv, &pairs_program), 0);
	snprintf(json, sizeof json, "%s/t.json", dir);
	ck_assert_ptr_nonnull(t = json_object_from_file(json));
	ck_assert(json_object_object_get_ex(t, "stages", &stages));
	ck_assert_int_eq(json_object_array_length(stages), 2);
	row = json_object_array_get_idx(stages, 1);
	ck_assert(json_object_get_boolean(member(row, "ran")));
	ck_assert(json_object_get_boolean(member(member(row, "verify_against_serial"), "pass")));
	ck_assert_str_eq(json_object_get_string(member(row, "role")), "algorithm");
	kind = json_object_get_string(member(row, "bound_kind"));
	/* Its bound is the limit 1/(1-P) (or its speed of light, where lower),
	 * never Amdahl at N = 1, which is 1x whatever P is. */
	ck_assert_msg(!strcmp(kind, "amdahl_limit") || !strcmp(kind, "speed_of_light"),
	              "bound_kind %s", kind);
	ck_assert_double_gt(json_object_get_double(member(row, "bound")), 1);
	ck_assert_str_eq(json_object_get_string(member(json_object_array_get_idx(stages, 0), "role")),
	                 "port");
	json_object_put(t);
	unlink(json);
	rmdir(dir);
}
END_TEST

int main(int argc, char **argv)
{
	const TTest *tests[] = { an_algorithm_is_held_to_its_limit_not_to_one_thread, NULL };
	if (argc > 1)   /* a stage's process, started by the table */
		return apod_main(argc, argv, &pairs_program);
	return check_run(check_suite("algo", "core", 120, tests), CK_NOFORK);
}
