/*
 * A step of several named phases, each timed on its own: the loop of a
 * molecular-dynamics code (kick, drift, force) as the harness runs it.  The
 * stages record every call the harness makes, so that the order of the
 * loop (apod/workload.h) is checked call by call: each phase of the step in
 * order, every step; a probe at step 0 and at the end beside its every K
 * steps; and the speed of light of each phase from that phase's own
 * declared work, asked for by name with the problem at hand.
 *
 * The serial reference computes its forces (a running sum) the slow way,
 * every prefix summed again, O(n^2); the "prefix" stage ports only the
 * force and keeps the sum as it goes, O(n), adding in the same order: the
 * same bits, far less time.  The timing assertions compare phases that
 * differ by a factor of hundreds, never against a threshold in seconds.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "cpu/harness/params.h"
#include "cpu/harness/run.h"
#include "cpu/harness/sol.h"
#include "cpu/harness/verify.h"
#include "check_run.h"

struct md_params {
	long n, steps, every;
};

/* What a stage's create reads from its description (the stage's data). */
struct md_kind {
	int running_sum;   /* the port's force: O(n), not O(n^2) */
};

#define MD_MAX_STEPS 64
#define MD_MAX_CALLS (4 * MD_MAX_STEPS + 4)

/* One call the harness made: a step phase, or a probe's row. */
struct md_call {
	char what;        /* 's': step phase, 'p': probe */
	int index;        /* the phase (into md_phases) or the probe */
	long step, row, steps;
};

struct md_ctx {
	const struct md_params *p;
	const struct md_kind *kind;
	double *x, *v, *f;
	int ncalls;
	struct md_call calls[MD_MAX_CALLS];
};

static const struct apod_phase md_phases[] = { { "kick" }, { "drift" }, { "force" }, { NULL } };

/* The calls of the last stage destroyed, kept for the test to read. */
static struct md_call last_calls[MD_MAX_CALLS];
static int last_ncalls = -1;

static void *md_problem(const void *params)
{
	struct md_params *copy = malloc(sizeof *copy);
	if (copy)
		*copy = *(const struct md_params *)params;
	return copy;
}

static void md_destroy(void *ctx)
{
	struct md_ctx *c = ctx;
	if (!c)
		return;
	memcpy(last_calls, c->calls, sizeof last_calls);
	last_ncalls = c->ncalls;
	free(c->x);
	free(c->v);
	free(c->f);
	free(c);
}

static void *md_create(const struct apod_stage *s, const void *problem)
{
	const struct md_params *p = problem;
	struct md_ctx *c = apod_state_alloc(sizeof *c, s->name);
	if (!c)
		return NULL;
	c->p = p;
	c->kind = s->data;
	c->x = calloc((size_t)p->n, sizeof *c->x);
	c->v = calloc((size_t)p->n, sizeof *c->v);
	c->f = calloc((size_t)p->n, sizeof *c->f);
	if (!c->x || !c->v || !c->f) {
		md_destroy(c);
		apod_fail("%s: out of memory", s->name);
		return NULL;
	}
	for (long i = 0; i < p->n; i++)
		c->x[i] = 0.1 * (double)(i % 7) - 0.3;
	return c;
}

static void record(struct md_ctx *c, char what, int index, long step, long row, long steps)
{
	if (c->ncalls < MD_MAX_CALLS)
		c->calls[c->ncalls] = (struct md_call){ what, index, step, row, steps };
	c->ncalls++;
}

/* f[i] = -(x[0] + ... + x[i]) / n, added in that order by both stages. */
static void force(struct md_ctx *c)
{
	long n = c->p->n;
	double s = 0;
	for (long i = 0; i < n; i++) {
		if (c->kind && c->kind->running_sum) {
			s += c->x[i];
		} else {
			s = 0;
			for (long j = 0; j <= i; j++)
				s += c->x[j];
		}
		c->f[i] = -s / (double)n;
	}
}

static int md_step(void *ctx, int phase, long step, long steps)
{
	struct md_ctx *c = ctx;
	const char *name = phase >= 0 && phase < 3 ? md_phases[phase].name : "?";
	record(c, 's', phase, step, -1, steps);
	if (!strcmp(name, "kick")) {
		for (long i = 0; i < c->p->n; i++)
			c->v[i] += 1e-2 * c->f[i];
	} else if (!strcmp(name, "drift")) {
		for (long i = 0; i < c->p->n; i++)
			c->x[i] += 1e-2 * c->v[i];
	} else if (!strcmp(name, "force")) {
		force(c);
	} else {
		return apod_fail("md: step phase %d is not one of mine", phase);
	}
	return 0;
}

static int md_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct md_ctx *c = ctx;
	double sx = 0, sv = 0;
	record(c, 'p', k, step, row, 0);
	for (long i = 0; i < c->p->n; i++) {
		sx += c->x[i];
		sv += c->v[i];
	}
	if (rows[0]) {
		((double *)rows[0])[0] = sx;
		((double *)rows[0])[1] = sv;
	}
	return 0;
}

static int md_fetch(void *ctx, int a, void *dst)
{
	struct md_ctx *c = ctx;
	(void)a;
	memcpy(dst, c->x, (size_t)c->p->n * sizeof *c->x);
	return 0;
}

static const struct apod_stage_ops md_ops = {
	.create = md_create, .step = md_step, .probe = md_probe, .fetch = md_fetch,
	.destroy = md_destroy,
};
static const struct md_kind slow_force = { 0 }, running_force = { 1 };
static const struct apod_stage md_serial = {
	APOD_STAGE_SERIAL, .about = "the reference: every prefix summed again", .ops = &md_ops,
	.data = &slow_force,
};
static const struct apod_stage md_prefix = {
	.name = "prefix", .about = "the force as a running sum", .ports = "force",
	.role = APOD_ROLE_ALGORITHM, .runs_on = APOD_RUNS_HOST_CORE, .ops = &md_ops,
	.data = &running_force,
};
static const struct apod_stage *const md_stages[] = { &md_serial, &md_prefix, NULL };

APOD_PARAM_LONG(md_steps, struct md_params, steps)
APOD_PARAM_LONG(md_every, struct md_params, every)

static int md_shape(const void *params, size_t dims[2])
{
	dims[0] = (size_t)((const struct md_params *)params)->n;
	return 1;
}

/* Each phase's work, distinct so that a speed of light built from another
 * phase's would show: the force needs the problem (as work that depends on
 * the data would), so that the harness is seen to pass it. */
static const void *work_problem_seen;
static unsigned work_names_seen;   /* bit j: md_phases[j]; bit 3: the probe */

static int md_work(const void *params, const void *problem, const char *phase, struct apod_work *w)
{
	double n = (double)((const struct md_params *)params)->n;
	for (int j = 0; md_phases[j].name; j++)
		if (!strcmp(phase, md_phases[j].name))
			work_names_seen |= 1u << j;
	if (!strcmp(phase, "kick")) {
		w->bytes = 24 * n;
		w->flops64 = 2 * n;
	} else if (!strcmp(phase, "drift")) {
		w->bytes = 48 * n;
		w->flops64 = 2 * n;
	} else if (!strcmp(phase, "force")) {
		if (!problem)
			return 0;
		work_problem_seen = problem;
		w->bytes = 16 * n;
		w->flops64 = 1000 * n;
	} else if (!strcmp(phase, "energy")) {
		work_names_seen |= 1u << 3;
		w->bytes = 16 * n;
	} else {
		return 0;
	}
	return 1;
}

static const struct apod_param md_keys[] = {
	{ .key = "n", .type = APOD_PARAM_INT, .def = "600", .lo = 1, .hi = 100000,
	  .offset = offsetof(struct md_params, n) },
	{ .key = "steps", .type = APOD_PARAM_INT, .def = "10", .lo = 1, .hi = MD_MAX_STEPS,
	  .offset = offsetof(struct md_params, steps) },
	{ .key = "every", .type = APOD_PARAM_INT, .def = "3", .lo = 0, .hi = MD_MAX_STEPS,
	  .offset = offsetof(struct md_params, every) },
	{ .key = NULL },
};
static const struct apod_probe md_probes[] = {
	{ .name = "energy", .every = md_every, .at = APOD_AT_START | APOD_AT_END },
	{ .name = NULL },
};
static const struct apod_array md_arrays[] = {
	{ .name = "x", .shape = md_shape, .compare = APOD_COMPARE_EXACT },
	{ .name = NULL },
};
static const struct apod_series md_series[] = {
	{ .name = "energy", .probe = "energy", .column_names = "x,v", .compare = APOD_COMPARE_EXACT },
	{ .name = NULL },
};

static struct apod_workload md_workload(void)
{
	struct apod_workload w = {
		.version = APOD_WORKLOAD_VERSION, .name = "md", .about = "three step phases",
		.params_size = sizeof(struct md_params), .params = md_keys, .steps = md_steps,
		.problem_create = md_problem, .problem_destroy = free, .phases = md_phases,
		.probes = md_probes, .arrays = md_arrays, .series = md_series, .stages = md_stages,
		.work = md_work,
	};
	return w;
}

static int phase_of(const struct apod_workload *w, const char *name)
{
	int i = apod_phase_number(w, name);
	ck_assert_msg(i >= 0, "no phase '%s'", name);
	return i;
}

/* The stage's calls, one run of `steps` steps with the probe every
 * `every`: the start row, then each step's three phases in order and the
 * probe where due, then the end row where every() did not fall on the
 * last step. */
static void calls_follow_the_loop(long steps, long every)
{
	int i = 0;
	long row = 0;
	ck_assert_int_le(last_ncalls, MD_MAX_CALLS);
	ck_assert_int_gt(last_ncalls, 0);
	ck_assert_msg(last_calls[0].what == 'p' && last_calls[0].step == 0 && last_calls[0].row == 0,
	              "the first call is not the probe at step 0, row 0");
	i = 1;
	row = 1;
	for (long s = 1; s <= steps; s++) {
		for (int j = 0; j < 3; j++, i++) {
			ck_assert_int_lt(i, last_ncalls);
			ck_assert_msg(last_calls[i].what == 's' && last_calls[i].index == j &&
			              last_calls[i].step == s && last_calls[i].steps == steps,
			              "call %d: %c %d at step %ld, want phase %d (%s) of step %ld", i,
			              last_calls[i].what, last_calls[i].index, last_calls[i].step, j,
			              md_phases[j].name, s);
		}
		if (every > 0 && s % every == 0) {
			ck_assert_msg(last_calls[i].what == 'p' && last_calls[i].index == 0 &&
			              last_calls[i].step == s && last_calls[i].row == row,
			              "call %d: want the probe's row %ld at step %ld", i, row, s);
			i++;
			row++;
		}
	}
	if (every <= 0 || steps % every) {
		ck_assert_msg(i < last_ncalls && last_calls[i].what == 'p' && last_calls[i].step == steps &&
		              last_calls[i].row == row, "no end row after step %ld", steps);
		i++;
	}
	ck_assert_int_eq(i, last_ncalls);
}

START_TEST(each_phase_runs_in_order_and_is_timed_on_its_own)
{
	struct apod_workload w = md_workload();
	struct md_params *p;
	void *problem;
	struct apod_run a, b;
	struct apod_verdict v;
	int kick, drift, frc, energy;
	ck_assert_int_eq(apod_workload_check(&w), 0);
	kick = phase_of(&w, "kick");
	drift = phase_of(&w, "drift");
	frc = phase_of(&w, "force");
	energy = phase_of(&w, "energy");
	/* setup, kick, drift, force, energy, writeSnapshot, fetchResults, writeReport */
	ck_assert_int_eq(apod_phase_total(&w), 8);
	ck_assert(kick != drift && drift != frc && kick != frc);
	ck_assert_ptr_nonnull(p = apod_params_new(&w));
	ck_assert_ptr_nonnull(problem = w.problem_create(p));

	ck_assert_int_eq(apod_simulate(&w, &md_serial, p, problem, NULL, 0, &a), 0);
	calls_follow_the_loop(10, 3);
	ck_assert_int_eq(a.nphases, 8);
	ck_assert_ptr_eq(a.problem, problem);
	/* Every phase timed on its own.  Which is the longest is not asserted:
	 * make check holds no timing thresholds (under make -j16 on the H200
	 * the port's O(n) force once took longer than serial's O(n^2)). */
	ck_assert(a.phase[kick] > 0 && a.phase[drift] > 0 && a.phase[frc] > 0);
	ck_assert(a.phase[energy] > 0);

	/* The probe: steps/every + 2 rows, step 0 first and the last step last. */
	ck_assert_int_eq(a.series[0].rows, 10 / 3 + 2);
	ck_assert_int_eq(a.series[0].cols, 2);
	{
		static const long want[] = { 0, 3, 6, 9, 10 };
		for (int r = 0; r < 5; r++)
			ck_assert_int_eq(a.series[0].step[r], want[r]);
	}
	/* Step 0's row is the state create made: nothing has moved yet. */
	{
		double sx = 0;
		for (long i = 0; i < p->n; i++)
			sx += 0.1 * (double)(i % 7) - 0.3;
		ck_assert_double_eq(a.series[0].v[0], sx);
		ck_assert_double_eq(a.series[0].v[1], 0);
		ck_assert(a.series[0].v[2 * 4 + 1] != 0);
	}

	/* The port: only the force, the same bits, its own timers. */
	ck_assert_int_eq(apod_simulate(&w, &md_prefix, p, problem, NULL, 0, &b), 0);
	calls_follow_the_loop(10, 3);
	ck_assert_int_eq(apod_verify(p, &a, &b, &v), 1);
	ck_assert_mem_eq(a.arrays[0].data, b.arrays[0].data, (size_t)p->n * sizeof(double));
	ck_assert(b.phase[kick] > 0 && b.phase[drift] > 0 && b.phase[frc] > 0);

	apod_run_free(&a);
	apod_run_free(&b);
	w.problem_destroy(problem);
	free(p);
}
END_TEST

/* Where every() falls on the last step, the end row is that step's row,
 * not a second one; with no every at all, only the start and the end. */
START_TEST(the_end_row_is_not_taken_twice)
{
	struct apod_workload w = md_workload();
	struct md_params *p;
	void *problem;
	struct apod_run r;
	ck_assert_ptr_nonnull(p = apod_params_new(&w));
	ck_assert_int_eq(apod_params_set(&w, p, "steps", "9", "t"), 0);
	ck_assert_int_eq(apod_run_alloc(&r, &w, p), 0);
	ck_assert_int_eq(r.series[0].rows, 9 / 3 + 1);
	apod_run_free(&r);
	ck_assert_int_eq(apod_params_set(&w, p, "every", "0", "t"), 0);
	ck_assert_int_eq(apod_run_alloc(&r, &w, p), 0);
	ck_assert_int_eq(r.series[0].rows, 2);
	apod_run_free(&r);

	ck_assert_ptr_nonnull(problem = w.problem_create(p));
	ck_assert_int_eq(apod_simulate(&w, &md_serial, p, problem, NULL, 0, &r), 0);
	calls_follow_the_loop(9, 0);
	ck_assert_int_eq(r.series[0].step[0], 0);
	ck_assert_int_eq(r.series[0].step[1], 9);
	apod_run_free(&r);
	w.problem_destroy(problem);
	free(p);
}
END_TEST

/* The speed of light of each phase is its own declared work at the
 * ceiling, times how often it ran: made-up ceilings, so exact figures. */
START_TEST(each_phase_has_its_own_speed_of_light)
{
	struct apod_workload w = md_workload();
	struct apod_sol_machine m = { .have_host = 1,
	                              .core = { .bytes = 1e9, .flops64 = 1e9 },
	                              .cores = { .bytes = 4e9, .flops64 = 8e9 } };
	struct md_params *p;
	void *problem;
	struct apod_run a, b;
	struct apod_sol sol;
	struct apod_work k = { 0 };
	double n, kick_s, drift_s, force_s, energy_s;
	int kick, drift, frc, energy, setup;
	ck_assert_ptr_nonnull(p = apod_params_new(&w));
	n = (double)p->n;
	ck_assert_ptr_nonnull(problem = w.problem_create(p));
	ck_assert_int_eq(apod_simulate(&w, &md_serial, p, problem, NULL, 0, &a), 0);
	ck_assert_int_eq(apod_simulate(&w, &md_prefix, p, problem, NULL, 0, &b), 0);
	kick = phase_of(&w, "kick");
	drift = phase_of(&w, "drift");
	frc = phase_of(&w, "force");
	energy = phase_of(&w, "energy");
	setup = phase_of(&w, APOD_PHASE_SETUP_NAME);

	/* One occurrence of each, at one core: the larger of bytes and flops. */
	ck_assert_int_eq(md_work(p, problem, "kick", &k), 1);
	ck_assert_double_eq_tol(apod_sol_seconds(&k, &m.core, 0, 0, 0), 24 * n / 1e9, 1e-18);
	kick_s = 24 * n / 1e9;
	drift_s = 48 * n / 1e9;
	force_s = 1000 * n / 1e9;
	energy_s = 16 * n / 1e9;
	/* How often each ran: every step, and the probe at its five rows. */
	ck_assert_double_eq(apod_sol_occurrences(&w, p, 10, 0, kick), 10);
	ck_assert_double_eq(apod_sol_occurrences(&w, p, 10, 0, frc), 10);
	ck_assert_double_eq(apod_sol_occurrences(&w, p, 10, 0, energy), 10 / 3 + 2);

	/* The reference: held to one core in every phase with declared work,
	 * each from its own work(), asked for by name with the run's problem. */
	work_problem_seen = NULL;
	work_names_seen = 0;
	ck_assert_int_eq(apod_sol_eval(&w, p, &md_serial, 1, &a, &a, &m, &sol), 0);
	ck_assert_msg(sol.have, "%s", sol.why);
	ck_assert_uint_eq(work_names_seen & 7u, 7u);
	ck_assert_ptr_eq(work_problem_seen, problem);
	ck_assert_double_eq_tol(sol.phase[kick], 10 * kick_s, 1e-15);
	ck_assert_double_eq_tol(sol.phase[drift], 10 * drift_s, 1e-15);
	ck_assert_double_eq_tol(sol.phase[frc], 10 * force_s, 1e-15);
	ck_assert_double_eq_tol(sol.phase[energy], (10 / 3 + 2) * energy_s, 1e-15);
	ck_assert_double_eq(sol.phase[setup], -1);

	/* The port: its one ported phase at the light, the rest at serial's. */
	ck_assert_int_eq(apod_sol_eval(&w, p, &md_prefix, 0, &a, &b, &m, &sol), 0);
	ck_assert_msg(sol.have, "%s", sol.why);
	ck_assert_double_eq_tol(sol.phase[frc], 10 * force_s, 1e-15);
	ck_assert_double_eq(sol.phase[kick], -1);
	ck_assert_double_eq(sol.phase[drift], -1);
	{
		/* The bound: serial's time in every phase it does not port. */
		double rest = 0;
		for (int i = 0; i < a.nphases; i++)
			rest += i == frc ? 0 : a.phase[i];
		ck_assert_double_eq_tol(sol.bound, rest + 10 * force_s, 1e-12);
	}

	apod_run_free(&a);
	apod_run_free(&b);
	w.problem_destroy(problem);
	free(p);
}
END_TEST

/* Named phases are checked by name when the workload is registered. */
START_TEST(phases_named_wrongly_are_refused)
{
	struct apod_workload w = md_workload();
	struct apod_stage bad = md_prefix;
	const struct apod_stage *stages[] = { &md_serial, &bad, NULL };
	static const struct apod_phase none[] = { { NULL } };
	static const struct apod_series no_probe[] = {
		{ .name = "energy", .probe = "enrgy", .column_names = "x,v", .compare = APOD_COMPARE_EXACT },
		{ .name = NULL },
	};
	ck_assert_int_eq(apod_workload_check(&w), 0);
	/* A stage that ports a phase the workload does not have. */
	w.stages = stages;
	bad.ports = "force,forces";
	ck_assert_int_eq(apod_workload_check(&w), -1);
	ck_assert_msg(strstr(apod_failure(), "forces") != NULL, "%s", apod_failure());
	/* The harness's own phases and the probes are phases too. */
	bad.ports = "setup, force, energy, fetchResults, writeSnapshot";
	ck_assert_int_eq(apod_workload_check(&w), 0);
	/* A series filled by a probe that is not there. */
	w = md_workload();
	w.series = no_probe;
	ck_assert_int_eq(apod_workload_check(&w), -1);
	ck_assert_msg(strstr(apod_failure(), "enrgy") != NULL, "%s", apod_failure());
	/* A step of no phases: nothing would ever run. */
	w = md_workload();
	w.phases = NULL;
	ck_assert_int_eq(apod_workload_check(&w), -1);
	w.phases = none;
	ck_assert_int_eq(apod_workload_check(&w), -1);
}
END_TEST

int main(void)
{
	const TTest *tests[] = {
		each_phase_runs_in_order_and_is_timed_on_its_own, the_end_row_is_not_taken_twice,
		each_phase_has_its_own_speed_of_light, phases_named_wrongly_are_refused,
		NULL,
	};
	return check_run(check_suite("phases", "core", 60, tests), CK_FORK_GETENV);
}
