/*
 * Phases as regions a stage marks inside its own step (revision 5): a
 * directionally split step, as a real program runs it.  Each step sweeps
 * one direction then the other (the next step the other way round), each
 * direction three Runge-Kutta sub-steps of a boundary fill, a tendency and
 * an update; a "flip" phase runs before the sweeps on odd steps and after
 * them on even ones.  The order of the phases changes from step to step
 * and three of them run six times a step.
 *
 * The harness must count every occurrence (calls), time every region (each
 * phase's host time at least what the stage measured inside its own
 * regions), call the stage's device marks around each, count `steps` as
 * the program's steps, hold the speed of light to the work of one
 * occurrence times the calls, keep the calls in report.json and read them
 * back, and refuse a stage that nests, leaves open or closes a region it
 * did not open, naming the phase.
 */
#include <check.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "cpu/harness/params.h"
#include "cpu/harness/results.h"
#include "cpu/harness/run.h"
#include "cpu/harness/sol.h"
#include "cpu/harness/timer.h"
#include "cpu/harness/verify.h"
#include "check_run.h"

struct rk_params {
	long n, steps;
	int misuse;                 /* RK_* below: how the stage misuses its regions */
};

enum { RK_FINE, RK_NEST, RK_UNOPENED, RK_LEFT_OPEN, RK_IN_CREATE, RK_NO_SUCH_PHASE, RK_BAD_HANDLE,
       RK_FAILS_INSIDE };
static const char *const rk_misuses[] = {
	"fine", "nest", "unopened", "left_open", "in_create", "no_such_phase", "bad_handle",
	"fails_inside", NULL,
};

static const struct apod_phase rk_phases[] = {
	{ "fill" }, { "tendency" }, { "update" }, { "flip" }, { NULL },
};
enum { FILL, TENDENCY, UPDATE, FLIP, NPH };

struct rk_ctx {
	const struct rk_params *p;
	struct apod_clock *clock;
	int h[NPH];                 /* the phases' handles, found at create */
	double *u, *k, *ghost;
	double own[NPH];            /* seconds the stage measured inside its regions */
	long opened[NPH];           /* regions the stage opened, per phase */
	long marks[APOD_MAX_PHASES][2];   /* the harness's mark() calls: begin, end */
	int order_first_flip[2];    /* steps seen with the flip first, and last */
};

/* What the last destroyed stage saw, for the test to read. */
static struct rk_ctx last;

static void *rk_problem(const void *params)
{
	struct rk_params *copy = malloc(sizeof *copy);
	if (copy)
		*copy = *(const struct rk_params *)params;
	return copy;
}

static void rk_destroy(void *ctx)
{
	struct rk_ctx *c = ctx;
	last = *c;
	free(c->u);
	free(c->k);
	free(c->ghost);
	free(c);
}

static void *rk_create(const struct apod_stage *s, const void *problem, struct apod_clock *clock)
{
	const struct rk_params *p = problem;
	struct rk_ctx *c = apod_state_alloc(sizeof *c, s->name);
	if (!c)
		return NULL;
	c->p = p;
	c->clock = clock;
	for (int j = 0; j < NPH; j++)
		if ((c->h[j] = apod_phase_find(clock, rk_phases[j].name)) < 0)
			goto fail;
	if (p->misuse == RK_NO_SUCH_PHASE && apod_phase_find(clock, "tendencies") < 0)
		goto fail;
	if (p->misuse == RK_IN_CREATE && apod_phase_begin(clock, c->h[FILL]) < 0)
		goto fail;
	c->u = calloc((size_t)p->n, sizeof *c->u);
	c->k = calloc((size_t)p->n, sizeof *c->k);
	c->ghost = calloc(2, sizeof *c->ghost);
	if (!c->u || !c->k || !c->ghost) {
		apod_fail("%s: out of memory", s->name);
		goto fail;
	}
	for (long i = 0; i < p->n; i++)
		c->u[i] = (double)(i % 5) - 2;
	return c;
fail:
	rk_destroy(c);
	return NULL;
}

/* A region, timed by the stage itself too, so that the test can hold the
 * harness's figure to it. */
static double opened_at;
static int region_begin(struct rk_ctx *c, int j)
{
	if (apod_phase_begin(c->clock, c->h[j]))
		return -1;
	c->opened[j]++;
	opened_at = apod_now();
	return 0;
}

static int region_end(struct rk_ctx *c, int j)
{
	c->own[j] += apod_now() - opened_at;
	return apod_phase_end(c->clock, c->h[j]);
}

static int substep(struct rk_ctx *c, int dir, int stage)
{
	long n = c->p->n;
	const double a[3] = { 1.0, 0.25, 2.0 / 3.0 };
	if (region_begin(c, FILL))
		return -1;
	c->ghost[0] = c->u[dir ? n - 1 : 0];
	c->ghost[1] = c->u[dir ? 0 : n - 1];
	if (region_end(c, FILL) || region_begin(c, TENDENCY))
		return -1;
	for (long i = 0; i < n; i++) {
		double left = i ? c->u[i - 1] : c->ghost[0], right = i < n - 1 ? c->u[i + 1] : c->ghost[1];
		c->k[i] = 0.1 * (dir ? right - c->u[i] : left - c->u[i]);
	}
	if (region_end(c, TENDENCY) || region_begin(c, UPDATE))
		return -1;
	for (long i = 0; i < n; i++)
		c->u[i] += a[stage] * c->k[i];
	return region_end(c, UPDATE);
}

static int flip(struct rk_ctx *c)
{
	if (region_begin(c, FLIP))
		return -1;
	for (long i = 0; i < c->p->n; i++)
		c->u[i] = -c->u[i];
	return region_end(c, FLIP);
}

static int rk_advance(void *ctx, long step, long steps)
{
	struct rk_ctx *c = ctx;
	int first = (int)(step % 2), misuse = c->p->misuse;
	volatile double own = 0;
	(void)steps;
	/* The step's own work, outside every region: it counts as unmarked. */
	for (long i = 0; i < 1000; i++)
		own += (double)i;
	if (misuse == RK_UNOPENED && step == 2)
		return apod_phase_end(c->clock, c->h[UPDATE]);
	if (misuse == RK_FAILS_INSIDE && step == 2) {
		/* The stage's own failure inside a region it then leaves open:
		 * the run fails with the stage's reason, not a misuse. */
		if (region_begin(c, UPDATE))
			return -1;
		return apod_fail("rk: the update diverged at step %ld", step);
	}
	if (misuse == RK_BAD_HANDLE && step == 2)
		return apod_phase_begin(c->clock, 0);   /* setup: not a step phase */
	if (misuse == RK_NEST && step == 3) {
		if (region_begin(c, TENDENCY))
			return -1;
		/* The stage ignores the failure: the run must fail all the same. */
		(void)region_begin(c, FILL);
		return region_end(c, TENDENCY);
	}
	if (first && flip(c))
		return -1;
	c->order_first_flip[!first]++;
	for (int d = 0; d < 2; d++) {
		int dir = (int)((step + d) % 2);
		for (int s = 0; s < 3; s++)
			if (substep(c, dir, s))
				return -1;
	}
	if (!first && flip(c))
		return -1;
	if (misuse == RK_LEFT_OPEN && step == 2)
		return region_begin(c, UPDATE);
	return 0;
}

static int rk_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct rk_ctx *c = ctx;
	double sum = 0;
	(void)k;
	(void)step;
	(void)row;
	for (long i = 0; i < c->p->n; i++)
		sum += c->u[i];
	((double *)rows[0])[0] = sum;
	return 0;
}

static int rk_fetch(void *ctx, int a, void *dst)
{
	struct rk_ctx *c = ctx;
	(void)a;
	memcpy(dst, c->u, (size_t)c->p->n * sizeof *c->u);
	return 0;
}

static int rk_mark(void *ctx, int phase, int end)
{
	struct rk_ctx *c = ctx;
	if (phase >= 0 && phase < APOD_MAX_PHASES)
		c->marks[phase][end]++;
	return 0;
}

/* A millisecond of "device time" an occurrence, so the figure is known. */
static int rk_device_seconds(void *ctx, double *seconds, int nphases)
{
	struct rk_ctx *c = ctx;
	for (int i = 0; i < nphases; i++)
		seconds[i] = 1e-3 * (double)c->marks[i][1];
	return 0;
}

static const struct apod_stage_ops rk_ops = {
	.probe = rk_probe, .fetch = rk_fetch, .destroy = rk_destroy,
	.mark = rk_mark, .device_seconds = rk_device_seconds,
	.create_timed = rk_create, .advance = rk_advance,
};
static const struct apod_stage rk_serial = {
	APOD_STAGE_SERIAL, .about = "a directionally split RK3 step", .ops = &rk_ops,
};
static const struct apod_stage rk_port = {
	.name = "port", .about = "the same, as a port", .ports = "tendency,update",
	.runs_on = APOD_RUNS_HOST_CORE, .ops = &rk_ops,
};
static const struct apod_stage *const rk_stages[] = { &rk_serial, &rk_port, NULL };

APOD_PARAM_LONG(rk_steps, struct rk_params, steps)

static int rk_shape(const void *params, size_t dims[2])
{
	dims[0] = (size_t)((const struct rk_params *)params)->n;
	return 1;
}

/* One occurrence's work, per phase: distinct, so a figure built from the
 * wrong phase or the wrong count shows. */
static int rk_work(const void *params, const void *problem, const char *phase, struct apod_work *w)
{
	double n = (double)((const struct rk_params *)params)->n;
	(void)problem;
	if (!strcmp(phase, "fill"))
		w->bytes = 32;
	else if (!strcmp(phase, "tendency"))
		w->bytes = 16 * n, w->flops64 = 3 * n;
	else if (!strcmp(phase, "update"))
		w->bytes = 24 * n, w->flops64 = 2 * n;
	else if (!strcmp(phase, "flip"))
		w->bytes = 16 * n;
	else
		return 0;
	return 1;
}

static const struct apod_param rk_keys[] = {
	{ .key = "n", .type = APOD_PARAM_INT, .def = "500", .lo = 2, .hi = 100000,
	  .offset = offsetof(struct rk_params, n) },
	{ .key = "steps", .type = APOD_PARAM_INT, .def = "5", .lo = 1, .hi = 1000,
	  .offset = offsetof(struct rk_params, steps) },
	{ .key = "misuse", .type = APOD_PARAM_CHOICE, .def = "fine",
	  .offset = offsetof(struct rk_params, misuse), .choices = rk_misuses },
	{ .key = NULL },
};
static const struct apod_probe rk_probes[] = {
	{ .name = "total", .at = APOD_AT_START | APOD_AT_END },
	{ .name = NULL },
};
static const struct apod_array rk_arrays[] = {
	{ .name = "u", .shape = rk_shape, .compare = APOD_COMPARE_EXACT },
	{ .name = NULL },
};
static const struct apod_series rk_series[] = {
	{ .name = "total", .probe = "total", .column_names = "sum", .compare = APOD_COMPARE_EXACT },
	{ .name = NULL },
};

static struct apod_workload rk_workload(void)
{
	struct apod_workload w = {
		.version = APOD_WORKLOAD_VERSION, .name = "rk", .about = "a split RK3 step",
		.params_size = sizeof(struct rk_params), .params = rk_keys, .steps = rk_steps,
		.problem_create = rk_problem, .problem_destroy = free, .phases = rk_phases,
		.probes = rk_probes, .arrays = rk_arrays, .series = rk_series, .stages = rk_stages,
		.work = rk_work,
	};
	return w;
}

static int phase_of(const struct apod_workload *w, const char *name)
{
	int i = apod_phase_number(w, name);
	ck_assert_msg(i >= 0, "no phase '%s'", name);
	return i;
}

static struct rk_params *params_with(const struct apod_workload *w, const char *key,
                                     const char *value)
{
	struct rk_params *p = apod_params_new(w);
	ck_assert_ptr_nonnull(p);
	if (key)
		ck_assert_int_eq(apod_params_set(w, p, key, value, "test"), 0);
	return p;
}

START_TEST(every_occurrence_is_counted_and_timed)
{
	struct apod_workload w = rk_workload();
	struct rk_params *p;
	void *problem;
	struct apod_run r;
	int fill, tend, upd, flp, total;
	double marked = 0;
	ck_assert_msg(apod_workload_check(&w) == 0, "%s", apod_failure());
	p = params_with(&w, "steps", "7");
	ck_assert_ptr_nonnull(problem = w.problem_create(p));
	ck_assert_msg(apod_simulate(&w, &rk_serial, p, problem, NULL, 0, &r) == 0, "%s",
	              apod_failure());
	fill = phase_of(&w, "fill");
	tend = phase_of(&w, "tendency");
	upd = phase_of(&w, "update");
	flp = phase_of(&w, "flip");
	total = phase_of(&w, "total");

	/* The program's steps, not its sub-steps. */
	ck_assert_int_eq(r.steps, 7);
	ck_assert_int_eq(r.series[0].rows, 2);
	ck_assert_int_eq(r.series[0].step[1], 7);
	/* Both orders ran: the flip first on odd steps, last on even ones. */
	ck_assert_int_eq(last.order_first_flip[0], 4);
	ck_assert_int_eq(last.order_first_flip[1], 3);
	/* Calls: two directions of three sub-steps a step, the flip once. */
	ck_assert_int_eq(r.calls[fill], 6 * 7);
	ck_assert_int_eq(r.calls[tend], 6 * 7);
	ck_assert_int_eq(r.calls[upd], 6 * 7);
	ck_assert_int_eq(r.calls[flp], 7);
	ck_assert_int_eq(r.calls[total], 2);
	ck_assert_int_eq(r.calls[0], 1);
	ck_assert_int_eq(r.calls[apod_phase_fetch(&w)], 1);
	ck_assert_int_eq(r.calls[apod_phase_snapshot(&w)], 0);
	/* The handles are the table's: setup 0, then the step phases. */
	ck_assert_int_eq(last.h[FILL], fill);
	ck_assert_int_eq(last.h[FLIP], flp);
	for (int j = 0; j < NPH; j++) {
		int i = last.h[j];
		ck_assert_int_eq(last.opened[j], r.calls[i]);
		/* Every region's time is counted: at least what the stage saw
		 * between its begin returning and its end being called. */
		ck_assert_msg(r.phase[i] >= last.own[j], "%s: %g s counted, %g s inside",
		              rk_phases[j].name, r.phase[i], last.own[j]);
		ck_assert(r.phase[i] > 0);
		marked += r.phase[i];
		/* The device marks: a begin and an end for every occurrence, and
		 * the stage's device time per phase read back into the run. */
		ck_assert_int_eq(last.marks[i][0], r.calls[i]);
		ck_assert_int_eq(last.marks[i][1], r.calls[i]);
		ck_assert(r.has_device);
		ck_assert_double_eq_tol(r.device[i], 1e-3 * (double)r.calls[i], 1e-12);
	}
	/* The step's own work outside the regions is counted apart, and the
	 * regions and it fit inside the run. */
	ck_assert(r.unmarked > 0);
	ck_assert(marked + r.unmarked <= r.total);
	apod_run_free(&r);
	w.problem_destroy(problem);
	free(p);
}
END_TEST

/* Declared work is one occurrence's: the speed of light counts it once a
 * call, with made-up ceilings so the figures are exact. */
START_TEST(work_is_per_occurrence_times_calls)
{
	struct apod_workload w = rk_workload();
	struct apod_sol_machine m = { .have_host = 1,
	                              .core = { .bytes = 1e9, .flops64 = 1e9 },
	                              .cores = { .bytes = 4e9, .flops64 = 8e9 } };
	struct rk_params *p = params_with(&w, "steps", "4");
	void *problem = w.problem_create(p);
	struct apod_run a, b;
	struct apod_sol sol;
	double n = (double)p->n;
	int tend, upd, fill, flp;
	ck_assert_int_eq(apod_simulate(&w, &rk_serial, p, problem, NULL, 0, &a), 0);
	ck_assert_int_eq(apod_simulate(&w, &rk_port, p, problem, NULL, 0, &b), 0);
	tend = phase_of(&w, "tendency");
	upd = phase_of(&w, "update");
	fill = phase_of(&w, "fill");
	flp = phase_of(&w, "flip");
	ck_assert_int_eq(apod_sol_eval(&w, p, &rk_serial, 1, &a, &a, &m, &sol), 0);
	ck_assert_msg(sol.have, "%s", sol.why);
	ck_assert_double_eq_tol(sol.phase[fill], 24 * 32 / 1e9, 1e-18);
	ck_assert_double_eq_tol(sol.phase[tend], 24 * 16 * n / 1e9, 1e-15);
	ck_assert_double_eq_tol(sol.phase[upd], 24 * 24 * n / 1e9, 1e-15);
	ck_assert_double_eq_tol(sol.phase[flp], 4 * 16 * n / 1e9, 1e-15);
	ck_assert_int_eq(apod_sol_eval(&w, p, &rk_port, 0, &a, &b, &m, &sol), 0);
	ck_assert_msg(sol.have, "%s", sol.why);
	ck_assert_double_eq_tol(sol.phase[tend], 24 * 16 * n / 1e9, 1e-15);
	ck_assert_double_eq(sol.phase[fill], -1);
	apod_run_free(&a);
	apod_run_free(&b);
	w.problem_destroy(problem);
	free(p);
}
END_TEST

/* report.json keeps each phase's calls and gives them back; one written
 * without them (an older apod's) gets the counts of a fixed step. */
START_TEST(calls_survive_report_json)
{
	struct apod_workload w = rk_workload();
	const struct apod_workload *ws[] = { &w, NULL };
	struct rk_params *p = params_with(&w, "steps", "3");
	void *problem = w.problem_create(p), *loaded = NULL;
	struct apod_run r, back;
	char dir[] = "/tmp/check_regions.XXXXXX", path[4096];
	json_object *rep;
	int fill = phase_of(&w, "fill"), flp = phase_of(&w, "flip");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_eq(apod_simulate(&w, &rk_serial, p, problem, dir, 0, &r), 0);
	ck_assert_int_eq(r.calls[apod_phase_report(&w)], 1);
	ck_assert_int_eq(apod_results_load(dir, ws, &loaded, &back), 0);
	ck_assert_int_eq(apod_results_load_timers(dir, &back), 0);
	for (int i = 0; i < r.nphases; i++)
		ck_assert_int_eq(back.calls[i], r.calls[i]);
	ck_assert_int_eq(back.calls[fill], 18);
	ck_assert_double_eq_tol(back.unmarked, r.unmarked, 1e-9);
	apod_run_free(&back);
	free(loaded);

	snprintf(path, sizeof path, "%s/report.json", dir);
	ck_assert_ptr_nonnull(rep = json_object_from_file(path));
	json_object_object_del(rep, "phase_calls");
	ck_assert_int_eq(json_object_to_file(path, rep), 0);
	json_object_put(rep);
	ck_assert_int_eq(apod_results_load(dir, ws, &loaded, &back), 0);
	ck_assert_int_eq(apod_results_load_timers(dir, &back), 0);
	ck_assert_int_eq(back.calls[fill], 3);
	ck_assert_int_eq(back.calls[flp], 3);
	ck_assert_int_eq(back.calls[phase_of(&w, "total")], 2);
	apod_run_free(&back);
	free(loaded);

	/* What the run wrote, and only that. */
	snprintf(path, sizeof path, "%s/report.json", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/u.npy", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/total.csv", dir);
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0);
	apod_run_free(&r);
	w.problem_destroy(problem);
	free(p);
}
END_TEST

/* A stage that misuses its regions fails the run with a message naming
 * the phase, whatever it did with the -1. */
static void fails_with(const char *misuse, const char *want1, const char *want2)
{
	struct apod_workload w = rk_workload();
	struct rk_params *p = params_with(&w, "misuse", misuse);
	void *problem = w.problem_create(p);
	struct apod_run r;
	ck_assert_int_eq(apod_simulate(&w, &rk_serial, p, problem, NULL, 0, &r), -1);
	ck_assert_msg(strstr(apod_failure(), want1) && strstr(apod_failure(), want2),
	              "%s: '%s' lacks '%s' or '%s'", misuse, apod_failure(), want1, want2);
	w.problem_destroy(problem);
	free(p);
}

START_TEST(misused_regions_fail_naming_the_phase)
{
	fails_with("nest", "phase fill begun while phase tendency is open", "do not nest");
	fails_with("unopened", "phase update ended, but no phase is open", "stage serial");
	fails_with("left_open", "step 2 with phase update still open", "apod_phase_end");
	fails_with("in_create", "phase fill begun outside advance", "stage serial");
	fails_with("no_such_phase", "no step phase called 'tendencies'", "rk");
	fails_with("bad_handle", "apod_phase_begin(0): no step phase has that handle",
	           "apod_phase_find");
	fails_with("fails_inside", "rk: the update diverged at step 2", "rk:");
}
END_TEST

static int rk_step_unused(void *ctx, int phase, long step, long steps)
{
	(void)ctx, (void)phase, (void)step, (void)steps;
	return apod_fail("never called");
}

/* A stage runs its step one way: both members of revision 5's pair, and
 * not beside create and step. */
START_TEST(a_stage_with_advance_is_checked)
{
	struct apod_workload w = rk_workload();
	struct apod_stage_ops ops = rk_ops;
	struct apod_stage bad = rk_port;
	char newer[160];
	const struct apod_stage *stages[] = { &rk_serial, &bad, NULL };
	bad.ops = &ops;
	w.stages = stages;
	ck_assert_int_eq(apod_workload_check(&w), 0);
	ops.advance = NULL;
	ck_assert_int_eq(apod_workload_check(&w), -1);
	ck_assert_msg(strstr(apod_failure(), "create_timed and advance"), "%s", apod_failure());
	ops = rk_ops;
	ops.step = rk_step_unused;
	ck_assert_int_eq(apod_workload_check(&w), -1);
	ck_assert_msg(strstr(apod_failure(), "leaves create and step NULL"), "%s", apod_failure());
	/* A workload from a newer apod is refused with what this one reads. */
	w = rk_workload();
	w.version = APOD_WORKLOAD_VERSION + 1;
	ck_assert_int_eq(apod_workload_check(&w), -1);
	snprintf(newer, sizeof newer, "built against a newer apod (revision %d); this library "
	         "reads revisions 4 to %d", APOD_WORKLOAD_VERSION + 1, APOD_WORKLOAD_VERSION);
	ck_assert_msg(strstr(apod_failure(), newer), "%s", apod_failure());
	w.version = 3;
	ck_assert_int_eq(apod_workload_check(&w), -1);
	ck_assert_msg(strstr(apod_failure(), "revision 3"), "%s", apod_failure());
}
END_TEST


/* ---- hooks that see what they judge ---------------------------------- */

/* What the hooks were asked, for the test to read. */
static struct {
	const void *problem;
	int horizon_calls;
	long total_rows[16], total_steps[16];
	int total_asked;
	long u_step, u_row;
	int past_kind;
} seen;

static long rk_every_step(const void *params)
{
	(void)params;
	return 1;
}

static long rk_horizon_of(const void *params, const void *problem, const char *output)
{
	(void)params;
	seen.problem = problem;
	seen.horizon_calls++;
	return strcmp(output, "total") ? 0 : 3;
}

/* Each row of "total" allowed 1e-3 per row number: row 2 takes 1.5e-3,
 * row 1 does not.  Past the horizon, its statistics within 10. */
static void rk_tolerance_at(const void *params, const void *problem, const char *output,
                            long step, long row, int any_float, int column,
                            enum apod_compare kind, struct apod_tol *t)
{
	(void)params;
	(void)any_float;
	(void)column;
	seen.problem = problem;
	if (!strcmp(output, "u")) {
		seen.u_step = step;
		seen.u_row = row;
		return;
	}
	if (kind == APOD_COMPARE_STATS) {
		seen.past_kind = 1;
		t->atol = 10;
		return;
	}
	if (seen.total_asked < 16) {
		seen.total_rows[seen.total_asked] = row;
		seen.total_steps[seen.total_asked] = step;
	}
	seen.total_asked++;
	t->atol = 1e-3 * (double)row;
}

static const struct apod_probe rk_probes_every[] = {
	{ .name = "total", .every = rk_every_step, .at = APOD_AT_START },
	{ .name = NULL },
};
static const struct apod_series rk_series_close[] = {
	{ .name = "total", .probe = "total", .column_names = "sum", .compare = APOD_COMPARE_CLOSE },
	{ .name = NULL },
};

START_TEST(hooks_see_the_problem_and_the_row)
{
	struct apod_workload w = rk_workload();
	struct rk_params *p;
	void *problem;
	struct apod_run a, b;
	struct apod_verdict v;
	w.probes = rk_probes_every;
	w.series = rk_series_close;
	/* A CLOSE series with no tolerance of its own: tolerance_at answers. */
	ck_assert_int_eq(apod_workload_check(&w), -1);
	w.tolerance_at = rk_tolerance_at;
	w.horizon_of = rk_horizon_of;
	ck_assert_msg(apod_workload_check(&w) == 0, "%s", apod_failure());
	p = params_with(&w, "steps", "6");
	problem = w.problem_create(p);
	ck_assert_int_eq(apod_simulate(&w, &rk_serial, p, problem, NULL, 0, &a), 0);
	ck_assert_int_eq(apod_simulate(&w, &rk_serial, p, problem, NULL, 0, &b), 0);
	ck_assert_int_eq(a.series[0].rows, 7);

	/* Row 2 (step 2) off by 1.5e-3: within its own tolerance, 2e-3. */
	memset(&seen, 0, sizeof seen);
	b.series[0].v[2] += 1.5e-3;
	ck_assert_int_eq(apod_verify(p, &a, &b, &v), 1);
	ck_assert_ptr_eq(seen.problem, problem);
	ck_assert_int_ge(seen.horizon_calls, 2);
	/* To the horizon (step 3) value by value, each row asked with its
	 * row and step; past it by the statistics. */
	ck_assert_int_eq(seen.total_asked, 4);
	for (int r = 0; r < 4; r++) {
		ck_assert_int_eq(seen.total_rows[r], r);
		ck_assert_int_eq(seen.total_steps[r], r);
	}
	ck_assert(seen.past_kind);
	/* The final array: the last step, row 0. */
	ck_assert_int_eq(seen.u_step, 6);
	ck_assert_int_eq(seen.u_row, 0);
	ck_assert_int_eq(v.n, 3);   /* u, total to step 3, total past it */
	ck_assert_int_eq(v.out[1].horizon, 3);
	ck_assert_int_eq(v.out[2].compare, APOD_COMPARE_STATS);

	/* Row 1 off as much: its tolerance is 1e-3, so it fails. */
	b.series[0].v[2] -= 1.5e-3;
	b.series[0].v[1] += 1.5e-3;
	ck_assert_int_eq(apod_verify(p, &a, &b, &v), 0);
	ck_assert_int_eq(v.out[1].ok, 0);
	ck_assert_int_eq(v.out[1].worst_step, 1);

	/* Runs read back from their files hold no problem: verify makes one
	 * from the deck, and the hooks see it. */
	a.problem = b.problem = NULL;
	seen.problem = NULL;
	apod_verify(p, &a, &b, &v);
	ck_assert_ptr_nonnull(seen.problem);
	ck_assert_ptr_ne(seen.problem, problem);

	apod_run_free(&a);
	apod_run_free(&b);
	w.problem_destroy(problem);
	free(p);
}
END_TEST

int main(void)
{
	const TTest *tests[] = {
		every_occurrence_is_counted_and_timed, work_is_per_occurrence_times_calls,
		calls_survive_report_json, misused_regions_fail_naming_the_phase,
		a_stage_with_advance_is_checked, hooks_see_the_problem_and_the_row, NULL,
	};
	return check_run(check_suite("regions", "core", 60, tests), CK_FORK_GETENV);
}
