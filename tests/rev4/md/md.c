/*
 * md: a workload written against revision 4 of apod/workload.h and kept
 * as it was (tests/rev4/README.md): three step phases (kick, drift,
 * force), a probe at step 0, every K steps and at the end, an array and a
 * series, declared work per phase, and two stages: the serial reference,
 * whose force sums every prefix again, and "prefix", which keeps a running
 * sum in the same order (the same bits, far less work).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <apod/apod.h>
#include <apod/stock.h>

struct md_params {
	long n, steps, every;
};

struct md_ctx {
	const struct md_params *p;
	int running_sum;
	double *x, *v, *f;
};

static const struct apod_phase md_phases[] = { { "kick" }, { "drift" }, { "force" }, { NULL } };

static void *md_problem(const void *params)
{
	struct md_params *copy = malloc(sizeof *copy);
	if (!copy)
		apod_fail("md: out of memory");
	else
		*copy = *(const struct md_params *)params;
	return copy;
}

static void md_destroy(void *ctx)
{
	struct md_ctx *c = ctx;
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
	c->running_sum = s->data != NULL;
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

/* f[i] = -(x[0] + ... + x[i]) / n, added in that order by both stages. */
static void force(struct md_ctx *c)
{
	long n = c->p->n;
	double s = 0;
	for (long i = 0; i < n; i++) {
		if (c->running_sum) {
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
	(void)step;
	(void)steps;
	switch (phase) {
	case 0:
		for (long i = 0; i < c->p->n; i++)
			c->v[i] += 1e-2 * c->f[i];
		return 0;
	case 1:
		for (long i = 0; i < c->p->n; i++)
			c->x[i] += 1e-2 * c->v[i];
		return 0;
	case 2:
		force(c);
		return 0;
	}
	return apod_fail("md: step phase %d is not one of mine", phase);
}

static int md_probe(void *ctx, int k, long step, long row, void *const *rows)
{
	struct md_ctx *c = ctx;
	double sx = 0, sv = 0;
	(void)k;
	(void)step;
	(void)row;
	for (long i = 0; i < c->p->n; i++) {
		sx += c->x[i];
		sv += c->v[i];
	}
	((double *)rows[0])[0] = sx;
	((double *)rows[0])[1] = sv;
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
static const int running = 1;
static const struct apod_stage md_serial = {
	APOD_STAGE_SERIAL, .about = "the reference: every prefix summed again", .ops = &md_ops,
};
static const struct apod_stage md_prefix = {
	.name = "prefix", .about = "the force as a running sum", .ports = "force",
	.role = APOD_ROLE_ALGORITHM, .runs_on = APOD_RUNS_HOST_CORE, .ops = &md_ops,
	.data = &running,
};
static const struct apod_stage *const md_stages[] = { &md_serial, &md_prefix, NULL };

APOD_PARAM_LONG(md_steps, struct md_params, steps)
APOD_PARAM_LONG(md_every, struct md_params, every)

static int md_shape(const void *params, size_t dims[2])
{
	dims[0] = (size_t)((const struct md_params *)params)->n;
	return 1;
}

static int md_work(const void *params, const void *problem, const char *phase, struct apod_work *w)
{
	double n = (double)((const struct md_params *)params)->n;
	(void)problem;
	if (!strcmp(phase, "kick"))
		w->bytes = 24 * n, w->flops64 = 2 * n;
	else if (!strcmp(phase, "drift"))
		w->bytes = 48 * n, w->flops64 = 2 * n;
	else if (!strcmp(phase, "force"))
		w->bytes = 16 * n, w->flops64 = n;
	else if (!strcmp(phase, "energy"))
		w->bytes = 16 * n;
	else
		return 0;
	return 1;
}

static const struct apod_param md_keys[] = {
	{ .key = "n", .type = APOD_PARAM_INT, .def = "600", .lo = 1, .hi = 100000,
	  .offset = offsetof(struct md_params, n), .help = "particles" },
	APOD_KEY_STEPS(struct md_params, steps, "10", 1000),
	APOD_KEY_EVERY(struct md_params, every, "3", 1000, "energy"),
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

static const struct apod_workload md_workload = {
	.version = 4, .name = "md", .about = "three step phases and a probe (revision 4)",
	.params_size = sizeof(struct md_params), .params = md_keys, .steps = md_steps,
	.problem_create = md_problem, .problem_destroy = free, .phases = md_phases,
	.probes = md_probes, .arrays = md_arrays, .series = md_series, .stages = md_stages,
	.work = md_work,
};

static const struct apod_workload *const workloads[] = { &md_workload, NULL };
static const struct apod_program program = {
	.name = "md", .about = "A revision-4 workload, kept as it was written.",
	.workloads = workloads,
};

int main(int argc, char **argv)
{
	return apod_main(argc, argv, &program);
}
