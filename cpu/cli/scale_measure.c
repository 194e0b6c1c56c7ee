/*
 * scale_measure.c: the measurements of `apod scale`.
 *
 * Strong scaling: the deck as it is, the host baseline stage (omp) at 1, 2,
 * 4, ... threads (omp_set_num_threads before each run; the stage reads
 * omp_get_max_threads()), each time against serial, beside Amdahl's curve
 * for P, the serial run's fraction in the phases the baseline ports.  Every
 * other stage that can run here (the GPU stages) is measured once, as a
 * reference line.  Weak scaling: the problem grown N times with the
 * workload's grow hook, the baseline at N threads, beside Gustafson's line.
 *
 * Every point is the median of reps runs (the lower middle one for an even
 * count), with no results or snapshots written: compute and probes only.
 * Nothing is verified here (the table does that).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cpu/harness/bounds.h"
#include "cpu/harness/fail.h"
#include "cpu/harness/params.h"
#include "cpu/harness/sol.h"
#include "scale.h"

void scale_note(struct scale *s, const char *fmt, ...)
{
	char buf[320];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	printf("note: %s\n", buf);
	fflush(stdout);
	if (s->nnotes < MAX_NOTES)
		snprintf(s->notes[s->nnotes++], sizeof s->notes[0], "%s", buf);
}

void scale_set_threads(int n)
{
#ifdef _OPENMP
	omp_set_num_threads(n);
#else
	(void)n;
#endif
}

static int cmp_meas(const void *a, const void *b)
{
	double x = ((const struct meas *)a)->total, y = ((const struct meas *)b)->total;
	return (x > y) - (x < y);
}

int scale_median_of(int reps, int (*run)(void *arg, struct apod_run *r), void *arg, struct meas *m)
{
	struct meas *all = calloc((size_t)reps, sizeof *all);
	if (!all)
		return apod_fail("scale: out of memory");
	for (int i = 0; i < reps; i++) {
		struct apod_run r;
		if (run(arg, &r)) {
			free(all);
			return -1;
		}
		scale_meas_of(&r, &all[i]);
		apod_run_free(&r);
	}
	qsort(all, (size_t)reps, sizeof *all, cmp_meas);
	*m = all[(reps - 1) / 2];
	free(all);
	return 0;
}

/* A run in this process, for scale_median_of. */
struct here {
	const struct apod_workload *w;
	const struct apod_stage *e;
	const void *params, *problem;
};

static int run_here(void *arg, struct apod_run *r)
{
	const struct here *h = arg;
	return apod_simulate(h->w, h->e, h->params, h->problem, NULL, 0, r);
}

/* Run stage e reps times; the median run (by total time) into m. */
static int measure(const struct apod_workload *w, const struct apod_stage *e, const void *params,
                   const void *problem, int reps, struct meas *m)
{
	struct here h = { w, e, params, problem };
	return scale_median_of(reps, run_here, &h, m);
}

void scale_meas_of(const struct apod_run *r, struct meas *m)
{
	m->total = r->total;
	m->nphases = r->nphases;
	m->width = r->width;
	memcpy(m->phase, r->phase, sizeof m->phase);
}


double scale_ported_fraction(const struct apod_workload *w, const struct meas *m,
                             unsigned long long ports)
{
	double in = 0, all = 0;
	for (int i = 0; i < m->nphases; i++) {
		all += m->phase[i];
		if (ports & apod_phase_bit(w, i))
			in += m->phase[i];
	}
	return all > 0 ? in / all : 0;
}

/* A copy of params grown factor times, checked; NULL after a failure. */
void *scale_grown_params(const struct apod_workload *w, const void *params, int factor)
{
	void *g = malloc(w->params_size);
	if (!g) {
		apod_fail("scale: out of memory");
		return NULL;
	}
	memcpy(g, params, w->params_size);
	if (w->grow(g, factor) || apod_params_check(w, g)) {
		free(g);
		return NULL;
	}
	return g;
}

/* The keys whose values differ between a and b, as "key = value" of b
 * ("key" alone with names_only), joined by ", ". */
void scale_changed_keys(const struct apod_workload *w, const void *a, const void *b, int names_only,
                         char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int k = 0; w->params[k].key && used < len; k++) {
		const struct apod_param *p = &w->params[k];
		char x[256], y[256];
		int differ = 0, i;
		for (i = 0; !differ; i++) {
			int hx = apod_param_text(p, a, i, x, sizeof x), hy = apod_param_text(p, b, i, y, sizeof y);
			if (hx != hy || (hx && strcmp(x, y)))
				differ = 1;
			if (!hx || !hy)
				break;
		}
		if (!differ)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", p->key);
		if (!names_only && used < len) {
			for (i = 0; used < len && apod_param_text(p, b, i, y, sizeof y); i++)
				used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "; " : " = ", y);
		}
	}
}

/* ---- the measurements ------------------------------------------------- */

int scale_run_strong(struct scale *s, const void *problem)
{
	const struct apod_workload *w = s->w;
	if (measure(w, s->serial, s->params, problem, s->reps, &s->t1))
		return -1;
	printf("serial: %.4f s (median of %d)\n", s->t1.total, s->reps);
	fflush(stdout);
	if (!s->scaled)
		return 0;
	s->p = scale_ported_fraction(w, &s->t1, apod_stage_ports(w, s->scaled));
	for (int i = 0; i < s->nthreads; i++) {
		struct strong_pt *q = &s->strong[s->nstrong];
		q->n = s->threads[i];
		scale_set_threads(q->n);
		if (measure(w, s->scaled, s->params, problem, s->reps, &q->m))
			return -1;
#ifndef _OPENMP
		q->n = s->threads[0] = q->m.width > 0 ? q->m.width : 1;
#endif
		if (q->m.width > 0 && q->m.width != q->n)
			scale_note(s, "omp asked for %d threads ran on %d", q->n, q->m.width);
		q->speedup = s->t1.total / q->m.total;
		q->efficiency = q->speedup / q->n;
		q->amdahl = apod_amdahl(s->p, q->n);
		q->serial_frac = 1 - scale_ported_fraction(w, &q->m, apod_stage_ports(w, s->scaled));
		s->nstrong++;
		printf("strong: %d thread%s: %.4f s, speedup %.2fx (Amdahl %.2fx)\n", q->n,
		       q->n == 1 ? "" : "s", q->m.total, q->speedup, q->amdahl);
		fflush(stdout);
#ifndef _OPENMP
		break;
#endif
	}
	scale_set_threads(s->max_threads);   /* the other stages run as they would anywhere */
	return 0;
}

int scale_run_others(struct scale *s, const void *problem)
{
	char last_why[256] = "", first[64] = "";
	for (int i = 1; s->w->stages[i]; i++) {
		const struct apod_stage *e = s->w->stages[i];
		struct other_pt *o = &s->other[s->nother];
		struct meas m;
		char why[256] = "";
		if (e == s->scaled || s->nother == MAX_OTHER)
			continue;
		if (!apod_stage_available(e, why, sizeof why)) {
			/* Six GPU stages without a driver give one reason: said once. */
			if (strcmp(why, last_why)) {
				printf("%s: not measured: %s\n", e->name, why);
				snprintf(last_why, sizeof last_why, "%s", why);
				snprintf(first, sizeof first, "%s", e->name);
			} else {
				printf("%s: not measured: as %s\n", e->name, first);
			}
			continue;
		}
		if (measure(s->w, e, s->params, problem, s->reps, &m))
			return -1;
		o->e = e;
		o->width = apod_stage_width(e);
		o->host = !(apod_sol_runs_on(e, o->width) & APOD_RUNS_DEVICE);
		o->seconds = m.total;
		o->speedup = s->t1.total / m.total;
		s->nother++;
		printf("%s: %.4f s, speedup %.2fx\n", e->name, o->seconds, o->speedup);
		fflush(stdout);
	}
	return 0;
}

/* footprint_kib: what the problem as it is took (0: unknown). */
int scale_run_weak(struct scale *s, long long footprint_kib)
{
	const struct apod_workload *w = s->w;
	for (int i = 0; i < s->nthreads; i++) {
		struct weak_pt *q = &s->weak[s->nweak];
		void *g, *problem;
		long long avail = scale_available_kib();
		double need = (double)footprint_kib * s->threads[i];
		memset(q, 0, sizeof *q);
		q->n = s->threads[i];
		s->nweak++;
		/* n = 1 is the deck as it is, which already ran. */
		if (q->n > 1 && footprint_kib > 0 && avail > 0 && need > MEMORY_SHARE * (double)avail) {
			q->skipped = 1;
			scale_note(s, "weak: %d threads skipped: the problem grown %d times needs about %.2f GiB, "
			     "%.2f GiB available", q->n, q->n, need / 1048576, (double)avail / 1048576);
			continue;
		}
		if (!(g = scale_grown_params(w, s->params, q->n)))
			return -1;
		scale_changed_keys(w, s->params, g, 0, q->grown, sizeof q->grown);
		if (!(problem = w->problem_create(g))) {
			q->skipped = 1;
			scale_note(s, "weak: %d threads skipped: the problem grown %d times: %s", q->n, q->n,
			     apod_failure());
			free(g);
			continue;
		}
		scale_set_threads(q->n);
		if (measure(w, s->scaled, g, problem, s->reps, &q->m)) {
			w->problem_destroy(problem);
			free(g);
			return -1;
		}
		q->parallel_frac = scale_ported_fraction(w, &q->m, apod_stage_ports(w, s->scaled));
		if (q->n == 1) {
			s->tw1 = q->m.total;
			s->p_weak = q->parallel_frac;
		}
		printf("weak: %d thread%s, problem x%d: %.4f s\n", q->n, q->n == 1 ? "" : "s", q->n,
		       q->m.total);
		fflush(stdout);
		/* The largest point: is the work linear in the grow factor? */
		if (i == s->nthreads - 1 && q->n > 1) {
			double est = q->n * s->t1.total;
			if (est > LINEARITY_CHECK_MAX_S) {
				scale_note(s, "weak: linearity check skipped: serial on the problem grown %d times "
				     "would take about %.0f s", q->n, est);
			} else {
				struct meas m = { 0 };
				if (measure(w, s->serial, g, problem, 1, &m)) {
					w->problem_destroy(problem);
					free(g);
					return -1;
				}
				s->check_ran = 1;
				s->check_n = q->n;
				s->check_serial = m.total;
				s->check_estimate = est;
			}
		}
		w->problem_destroy(problem);
		free(g);
	}
	scale_weak_finish(s);
	return 0;
}

void scale_weak_finish(struct scale *s)
{
	for (int i = 0; i < s->nweak; i++) {
		struct weak_pt *q = &s->weak[i];
		if (q->skipped || !(s->tw1 > 0))
			continue;
		q->efficiency = s->tw1 / q->m.total;
		/* Assumed: the work per step is linear in the grow factor, so
		 * the grown problem at one thread would take n * T_w(1); an
		 * estimate, checked once where that is cheap. */
		q->scaled = q->n * s->tw1 / q->m.total;
		q->gustafson = apod_gustafson(s->p_weak, q->n);
	}
	s->weak_ran = 1;
}
