/*
 * scale_ranks.c: `apod scale --stage=NAME --ranks=LIST`: a stage of several
 * processes (MPI ranks) scaled over ranks, into the same struct scale as
 * the threads' curves, so that the same tables, JSON and plots show it.
 *
 * Every run is a process of its own (fresh_process.h): serial alone, the stage
 * under the launcher (mpirun.h) at N ranks, each rank on one thread.
 * Strong: the deck as it is, against serial (Amdahl for P, serial's
 * fraction in the stage's ports) and against the stage at 1 rank.  Weak:
 * the problem grown N times at N ranks, against Gustafson for p, the
 * 1-rank run's fraction in its ports.  Each point the median of reps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/harness/bounds.h"
#include "cpu/harness/fail.h"
#include "fresh_process.h"
#include "scale.h"

/* A run in a process of its own, for scale_median_of. */
struct there {
	struct scale *s;
	struct apod_fresh *f;
	const struct apod_stage *e;
	const void *params;
	int nranks;
};

static int run_there(void *arg, struct apod_run *r)
{
	const struct there *t = arg;
	int n = t->nranks ? t->nranks : 1;
	if (!apod_fresh_run_ranks(t->f, t->s->w, t->e, t->params, t->nranks ? t->s->mpirun : NULL, t->nranks, r))
		return 0;
	/* A refusal (more ranks than GPUs) stays the user's to mend: exit 2. */
	if (apod_failure_status() == APOD_EXIT_USAGE)
		return apod_usage_fail("%s at %d rank%s: %s", t->e->name, n, n == 1 ? "" : "s", apod_failure());
	return apod_fail("%s at %d rank%s: %s", t->e->name, n, n == 1 ? "" : "s", apod_failure());
}

/* e on params at nranks (0: serial, no launcher), reps times; the median into m. */
static int measure(struct scale *s, struct apod_fresh *f, const struct apod_stage *e,
                   const void *params, int nranks, int reps, struct meas *m)
{
	struct there t = { s, f, e, params, nranks };
	return scale_median_of(reps, run_there, &t, m);
}

static int strong(struct scale *s, struct apod_fresh *f)
{
	const struct apod_workload *w = s->w;
	unsigned long long ports = apod_stage_ports(w, s->scaled);
	if (measure(s, f, s->serial, s->params, 0, s->reps, &s->t1))
		return -1;
	printf("serial: %.4f s (median of %d, a process each)\n", s->t1.total, s->reps);
	fflush(stdout);
	s->p = scale_ported_fraction(w, &s->t1, ports);
	for (int i = 0; i < s->nthreads; i++) {
		struct strong_pt *q = &s->strong[s->nstrong];
		q->n = s->threads[i];
		if (measure(s, f, s->scaled, s->params, q->n, s->reps, &q->m))
			return -1;
		if (q->n == 1)
			s->r1 = q->m;
		q->speedup = s->t1.total / q->m.total;
		q->vs_one = s->r1.total / q->m.total;
		q->efficiency = q->vs_one / q->n;
		q->amdahl = apod_amdahl(s->p, q->n);
		q->serial_frac = 1 - scale_ported_fraction(w, &q->m, ports);
		s->nstrong++;
		printf("strong: %d rank%s: %.4f s, speedup %.2fx over serial (Amdahl %.2fx), %.2fx over "
		       "1 rank\n", q->n, q->n == 1 ? "" : "s", q->m.total, q->speedup, q->amdahl, q->vs_one);
		fflush(stdout);
	}
	return 0;
}

static int weak(struct scale *s, struct apod_fresh *f)
{
	const struct apod_workload *w = s->w;
	for (int i = 0; i < s->nthreads; i++) {
		struct weak_pt *q = &s->weak[s->nweak];
		void *g;
		int rc;
		memset(q, 0, sizeof *q);
		q->n = s->threads[i];
		s->nweak++;
		if (q->n == 1) {   /* the deck as it is at 1 rank: measured above */
			q->m = s->r1;
			s->tw1 = q->m.total;
			s->p_weak = q->parallel_frac = scale_ported_fraction(w, &q->m,
			                                                     apod_stage_ports(w, s->scaled));
			continue;
		}
		if (!(g = scale_grown_params(w, s->params, q->n)))
			return -1;
		scale_changed_keys(w, s->params, g, 0, q->grown, sizeof q->grown);
		rc = measure(s, f, s->scaled, g, q->n, s->reps, &q->m);
		if (rc == 0) {
			q->parallel_frac = scale_ported_fraction(w, &q->m, apod_stage_ports(w, s->scaled));
			printf("weak: %d ranks, problem x%d: %.4f s\n", q->n, q->n, q->m.total);
			fflush(stdout);
		}
		/* The largest point: is the work linear in the grow factor? */
		if (rc == 0 && i == s->nthreads - 1) {
			double est = q->n * s->t1.total;
			struct meas m = { 0 };
			if (est > LINEARITY_CHECK_MAX_S)
				scale_note(s, "weak: linearity check skipped: serial on the problem grown %d "
				           "times would take about %.0f s", q->n, est);
			else if ((rc = measure(s, f, s->serial, g, 0, 1, &m)) == 0) {
				s->check_ran = 1;
				s->check_n = q->n;
				s->check_serial = m.total;
				s->check_estimate = est;
			}
		}
		free(g);
		if (rc)
			return -1;
	}
	scale_weak_finish(s);
	return 0;
}

int scale_run_ranks(struct scale *s, int do_weak)
{
	struct apod_fresh f;
	int rc;
	apod_fresh_begin(&f, s->w, s->params, 0);
	if (!f.ok)
		return apod_fail("scale: no process of its own for each run (this program cannot "
		                 "name itself, or no scratch folder in TMPDIR)");
	rc = strong(s, &f);
	if (rc == 0) {
		scale_print_strong(s);
		fflush(stdout);
	}
	if (rc == 0 && do_weak) {
		printf("\n");
		if ((rc = weak(s, &f)) == 0)
			scale_print_weak(s);
	}
	apod_fresh_end(&f);
	return rc;
}
