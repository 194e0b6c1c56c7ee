/*
 * splitcxx: a revision-5 workload in C++, built with g++ -std=c++17 -Wall
 * -Wextra -Werror -pedantic against the installed headers.
 *
 * A ring of cells under diffusion and logistic growth, split by operator:
 * each step runs its own loop, two diffusion sub-steps (each a boundary
 * fill, then the stencil) and one reaction, the reaction first on odd
 * steps and last on even ones (alternating the order keeps the splitting
 * symmetric over two steps).  The stage marks each phase where it runs
 * with apod::region; boundary and diffuse run twice a step.
 *
 * Stages: serial, and "blocked", whose stencil walks the ring in blocks of
 * 64 cells (the same arithmetic for each cell: the same bits).
 *
 * C++17 has no designated initializers: every description is
 * value-initialised ({}) and filled by assignment.
 */
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#include <apod/apod.h>
#include <apod/region.hpp>
#include <apod/ready_made.h>

namespace {

struct params {
	long n, steps, every;
};

enum { BOUNDARY, DIFFUSE, REACT, NPH };
const char *const phase_names[NPH] = { "boundary", "diffuse", "react" };

struct state {
	const params *p = nullptr;
	apod_clock *clock = nullptr;
	int h[NPH] = { -1, -1, -1 };
	long block = 0;               // 0: the whole ring at once
	std::vector<double> u, next;
	double left = 0, right = 0;   // the ring's ghost cells
};

void destroy(void *ctx)
{
	delete static_cast<state *>(ctx);
}

void *create(const apod_stage *s, const void *problem, apod_clock *clock)
{
	const params *p = static_cast<const params *>(problem);
	state *st = new (std::nothrow) state();
	if (!st) {
		apod_fail("%s: out of memory", s->name);
		return nullptr;
	}
	st->p = p;
	st->clock = clock;
	st->block = s->data ? *static_cast<const long *>(s->data) : 0;
	for (int j = 0; j < NPH; j++)
		if ((st->h[j] = apod_phase_find(clock, phase_names[j])) < 0) {
			delete st;
			return nullptr;
		}
	try {
		st->u.assign(static_cast<std::size_t>(p->n), 0.0);
		st->next.assign(static_cast<std::size_t>(p->n), 0.0);
	} catch (const std::bad_alloc &) {
		delete st;
		apod_fail("%s: out of memory for %ld cells", s->name, p->n);
		return nullptr;
	}
	for (long i = 0; i < p->n; i++)
		st->u[static_cast<std::size_t>(i)] = i > p->n / 4 && i < p->n / 2 ? 0.9 : 0.05;
	return st;
}

void fill(state *st)
{
	st->left = st->u.back();
	st->right = st->u.front();
}

void stencil(state *st, std::size_t from, std::size_t to)
{
	const std::vector<double> &u = st->u;
	std::size_t n = u.size();
	for (std::size_t i = from; i < to; i++) {
		double l = i ? u[i - 1] : st->left, r = i + 1 < n ? u[i + 1] : st->right;
		st->next[i] = u[i] + 0.2 * (l - 2 * u[i] + r);
	}
}

void diffuse(state *st)
{
	std::size_t n = st->u.size(), b = st->block > 0 ? static_cast<std::size_t>(st->block) : n;
	for (std::size_t from = 0; from < n; from += b)
		stencil(st, from, from + b < n ? from + b : n);
	st->u.swap(st->next);
}

void react(state *st)
{
	for (double &x : st->u)
		x += 0.05 * x * (1 - x);
}

int advance(void *ctx, long step, long)
{
	state *st = static_cast<state *>(ctx);
	bool react_first = step % 2 == 1;
	if (react_first) {
		apod::region r(st->clock, st->h[REACT]);
		react(st);
	}
	for (int k = 0; k < 2; k++) {
		{
			apod::region r(st->clock, st->h[BOUNDARY]);
			fill(st);
		}
		apod::region r(st->clock, st->h[DIFFUSE]);
		diffuse(st);
	}
	if (!react_first) {
		apod::region r(st->clock, st->h[REACT]);
		react(st);
	}
	return 0;
}

int probe(void *ctx, int, long, long, void *const *rows)
{
	const state *st = static_cast<const state *>(ctx);
	double mass = 0;
	for (double x : st->u)
		mass += x;
	static_cast<double *>(rows[0])[0] = mass;
	return 0;
}

int fetch(void *ctx, int, void *dst)
{
	const state *st = static_cast<const state *>(ctx);
	std::memcpy(dst, st->u.data(), st->u.size() * sizeof(double));
	return 0;
}

apod_stage_ops make_ops()
{
	apod_stage_ops o{};
	o.create_timed = create;
	o.advance = advance;
	o.probe = probe;
	o.fetch = fetch;
	o.destroy = destroy;
	return o;
}
const apod_stage_ops ops = make_ops();

apod_stage make_serial()
{
	apod_stage s{};
	apod_stage_serial_init(&s);
	s.about = "the reference: the stencil over the whole ring";
	s.ops = &ops;
	return s;
}
const long block_cells = 64;
apod_stage make_blocked()
{
	apod_stage s{};
	s.name = "blocked";
	s.about = "the stencil in blocks of 64 cells";
	s.ports = "diffuse";
	s.runs_on = APOD_RUNS_HOST_CORE;
	s.ops = &ops;
	s.data = &block_cells;
	return s;
}
const apod_stage serial_stage = make_serial();
const apod_stage blocked_stage = make_blocked();
const apod_stage *const stages[] = { &serial_stage, &blocked_stage, nullptr };

long steps(const void *p)
{
	return static_cast<const params *>(p)->steps;
}

long every(const void *p)
{
	return static_cast<const params *>(p)->every;
}

void *problem_create(const void *p)
{
	params *copy = static_cast<params *>(std::malloc(sizeof(params)));
	if (!copy)
		apod_fail("splitcxx: out of memory");
	else
		*copy = *static_cast<const params *>(p);
	return copy;
}

void problem_destroy(void *problem)
{
	std::free(problem);
}

int shape(const void *p, std::size_t dims[2])
{
	dims[0] = static_cast<std::size_t>(static_cast<const params *>(p)->n);
	return 1;
}

// One occurrence's work; the harness counts it once a call.
int work(const void *p, const void *, const char *phase, apod_work *w)
{
	double n = static_cast<double>(static_cast<const params *>(p)->n);
	if (!std::strcmp(phase, "boundary"))
		w->bytes = 32;
	else if (!std::strcmp(phase, "diffuse"))
		w->bytes = 16 * n, w->flops64 = 5 * n;
	else if (!std::strcmp(phase, "react"))
		w->bytes = 16 * n, w->flops64 = 4 * n;
	else
		return 0;
	return 1;
}

// The mass is summed in one order by every stage; a row's tolerance grows
// with the step it was taken at, for a stage that would sum otherwise.
void tolerance_at(const void *p, const void *, const char *, long step, long, int, int,
                  apod_compare, apod_tol *t)
{
	t->atol = 1e-13 * static_cast<double>(static_cast<const params *>(p)->n) *
	          static_cast<double>(step + 1);
	t->rtol = 1e-14;
}

const apod_param keys[] = {
	apod_key_int("n", offsetof(params, n), "1000", 2, 1e7, "cells in the ring"),
	apod_key_int("steps", offsetof(params, steps), "50", 1, 1e6, "time steps"),
	apod_key_int("every", offsetof(params, every), "10", 0, 1e6, "mass every K steps (0: never)"),
	apod_param{},
};

apod_phase make_phase(const char *name)
{
	apod_phase ph{};
	ph.name = name;
	return ph;
}
const apod_phase phases[] = { make_phase("boundary"), make_phase("diffuse"), make_phase("react"),
	                      apod_phase{} };

apod_probe make_probe()
{
	apod_probe pr{};
	pr.name = "mass";
	pr.every = every;
	pr.at = APOD_AT_START | APOD_AT_END;
	return pr;
}
const apod_probe probes[] = { make_probe(), apod_probe{} };

apod_array make_array()
{
	apod_array a{};
	a.name = "u";
	a.shape = shape;
	a.compare = APOD_COMPARE_EXACT;
	return a;
}
const apod_array arrays[] = { make_array(), apod_array{} };

apod_series make_series()
{
	apod_series s{};
	s.name = "mass";
	s.probe = "mass";
	s.column_names = "mass";
	s.compare = APOD_COMPARE_CLOSE;
	return s;
}
const apod_series series[] = { make_series(), apod_series{} };

apod_workload make_workload()
{
	apod_workload w{};
	w.version = APOD_WORKLOAD_VERSION;
	w.name = "splitcxx";
	w.about = "diffusion and growth on a ring, split by operator (C++)";
	w.params_size = sizeof(params);
	w.params = keys;
	w.steps = steps;
	w.problem_create = problem_create;
	w.problem_destroy = problem_destroy;
	w.phases = phases;
	w.probes = probes;
	w.arrays = arrays;
	w.series = series;
	w.stages = stages;
	w.work = work;
	w.tolerance_at = tolerance_at;
	return w;
}
const apod_workload workload = make_workload();
const apod_workload *const workloads[] = { &workload, nullptr };

}  // namespace

int main(int argc, char **argv)
{
	apod_program prog{};
	prog.name = "splitcxx";
	prog.about = "A revision-5 workload in C++: a step split by operator, its phases marked.";
	prog.workloads = workloads;
	return apod_main(argc, argv, &prog);
}
