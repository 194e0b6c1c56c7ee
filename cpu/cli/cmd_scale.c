/*
 * cmd_scale.c: `apod scale`: scaling, measured.  This file reads the
 * options and runs the parts (scale.h) in turn.
 *
 * Strong scaling: the deck as it is, the "omp" stage at 1, 2, 4, ... threads
 * (omp_set_num_threads before each run; the stage reads
 * omp_get_max_threads()), each time against serial, beside Amdahl's curve
 * for P, the serial run's fraction in the phases the omp stage ports (the P
 * of the table).  Every other stage that can run here (the GPU stages) is
 * measured once, as a reference line.
 *
 * Weak scaling: the problem grown N times with the workload's grow hook,
 * the omp stage at N threads, beside Gustafson's line.
 *
 * Every point is the median of --reps runs (the lower middle one for an
 * even count), with no results or snapshots written: compute and probes
 * only.  Benchmarks, not tests: nothing is verified here (the table does
 * that).  With --json=FILE, beside FILE (less a ".json"): BASE.strong.dat,
 * BASE.weak.dat and BASE.gp, what doc/plots/scaling.gp draws.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "commands.h"
#include "cpu/harness/fail.h"
#include "scale.h"

/* Option codes of this command alone: above cli.h's, below OPT_PARAM. */
enum { OPT_SCALE_THREADS = 1900, OPT_SCALE_NO_WEAK, OPT_SCALE_RANKS };

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* --threads=LIST or --ranks=LIST (unit "thread" or "rank"): whole
 * numbers from 1 to MAX_THREADS, comma-separated; sorted, each once, 1
 * added. */
static int parse_counts(const char *unit, const char *arg, int *t, int *n)
{
	const char *s = arg;
	*n = 0;
	if (!*arg)
		return apod_usage_fail("--%ss: an empty list (give %s counts like 1,2,4)", unit, unit);
	for (;;) {
		char *end;
		long v;
		errno = 0;
		v = strtol(s, &end, 10);
		if (*s == ',' || !*s)
			return apod_usage_fail("--%ss: an empty count in '%s'", unit, arg);
		if (end == s || (*end && *end != ',') || errno || v < 1 || v > MAX_THREADS) {
			int len = (int)strcspn(s, ",");
			return apod_usage_fail("--%ss: '%.*s' is not a %s count from 1 to %d", unit, len, s,
			                       unit, MAX_THREADS);
		}
		if (*n == MAX_POINTS - 1)
			return apod_usage_fail("--%ss: more than %d counts", unit, MAX_POINTS - 1);
		t[(*n)++] = (int)v;
		if (!*end)
			break;
		s = end + 1;
	}
	t[(*n)++] = 1;   /* the reference: the problem as it is, one thread or rank */
	qsort(t, (size_t)*n, sizeof *t, cmp_int);
	{
		int k = 0;
		for (int i = 0; i < *n; i++)
			if (k == 0 || t[i] != t[k - 1])
				t[k++] = t[i];
		*n = k;
	}
	return 0;
}

/* 1, 2, 4, ... below max, then max. */
static void default_threads(int max, int *t, int *n)
{
	*n = 0;
	for (int v = 1; v < max && *n < MAX_POINTS - 1; v *= 2)
		t[(*n)++] = v;
	t[(*n)++] = max;
}

struct scale_opts {
	struct scale *s;
	const char *json, *stage;
	int no_weak, have_threads, have_ranks;
};

static int scale_opt(int c, const char *arg, void *ctx)
{
	struct scale_opts *o = ctx;
	switch (c) {
	case OPT_JSON: o->json = arg; return 0;
	case OPT_SCALE_NO_WEAK: o->no_weak = 1; return 0;
	case OPT_STAGE: o->stage = arg; return 0;
	case OPT_SCALE_THREADS:
	case OPT_SCALE_RANKS:
		if (parse_counts(c == OPT_SCALE_RANKS ? "rank" : "thread", arg, o->s->threads,
		                 &o->s->nthreads))
			return -1;
		if (c == OPT_SCALE_RANKS)
			o->have_ranks = 1;
		else
			o->have_threads = 1;
		return 0;
	case OPT_REPS: return apod_opt_count("reps", arg, 1, 1000, &o->s->reps);
	}
	return apod_option_fail(c, NULL);
}

const struct option apod_scale_options[] = {
	{ "threads", required_argument, NULL, OPT_SCALE_THREADS },
	{ "no-weak", no_argument, NULL, OPT_SCALE_NO_WEAK },
	{ "ranks", required_argument, NULL, OPT_SCALE_RANKS },
	APOD_OPT_STAGE, APOD_OPT_REPS, APOD_OPT_JSON, APOD_OPT_HELP, APOD_OPT_END,
};

/* Every grow of weak scaling (to each count of s->threads, of `unit`:
 * threads or ranks, the option that lists them) refused up front, before
 * anything runs, and the keys the largest one changes noted; 0, or the
 * usage error's status. */
static int check_grows(struct scale *s, const char *unit)
{
	for (int i = 0; i < s->nthreads; i++) {
		void *g = scale_grown_params(s->w, s->params, s->threads[i]);
		int n = s->threads[i];
		if (!g)
			return apod_usage_error("scale", "weak scaling to %d %s: the problem cannot "
			                        "grow %d times: %s (use --no-weak, or fewer --%s)",
			                        n, unit, n, apod_failure(), unit);
		if (i == s->nthreads - 1 && n > 1)
			scale_changed_keys(s->w, s->params, g, 1, s->grown_keys, sizeof s->grown_keys);
		free(g);
	}
	return 0;
}

/* The baseline and whether weak scaling can run, with the notes that say
 * why not; 0, or the usage error's status where a grow is refused. */
static int plan(struct scale *s, int no_weak, int *do_weak)
{
	char why[256] = "";
	int rc;
	const struct apod_stage *base = apod_stage_baseline(s->w);
	s->scaled = base && apod_stage_available(base, why, sizeof why) ? base : NULL;
#ifndef _OPENMP
	s->nthreads = 1;
	s->threads[0] = 1;
#endif
	/* Weak scaling: every grow refused up front, before anything runs. */
	*do_weak = !no_weak && s->scaled && s->w->grow;
#ifndef _OPENMP
	*do_weak = 0;
#endif
	if (*do_weak && (rc = check_grows(s, "threads")))
		return rc;
	printf("workload %s, deck %s: %ld steps; %ld cores on this host; %d OpenMP threads at most\n",
	       s->w->name, s->title, s->w->steps(s->params),
	       sysconf(_SC_NPROCESSORS_ONLN), s->max_threads);
#ifndef _OPENMP
	scale_note(s, "this %s was built without OpenMP: the thread count cannot be set; the omp "
	           "stage is measured once, on the threads it takes", apod_prog->name);
#endif
	if (!base)
		scale_note(s, "workload %s declares no host baseline stage (role APOD_ROLE_HOST_BASELINE): no thread scaling, only the other "
		           "stages", s->w->name);
	else if (!s->scaled)
		scale_note(s, "the %s stage cannot run here (%s): no thread scaling", base->name, why);
	if (!no_weak && s->scaled && !s->w->grow)
		scale_note(s, "workload %s cannot grow its problem (no grow hook): no weak scaling",
		           s->w->name);
	return 0;
}

/* The ranked plan: the stage, the launcher and every grow checked before
 * anything runs; 0, or the usage error's status. */
static int plan_ranks(struct scale *s, int no_weak, int *do_weak)
{
	int rc;
	*do_weak = !no_weak && s->w->grow;
	if (*do_weak && (rc = check_grows(s, "ranks")))
		return rc;
	printf("workload %s, deck %s: %ld steps; %ld cores on this host; stage %s over ranks "
	       "(%s -np N, one OpenMP thread a rank)\n", s->w->name, s->title,
	       s->w->steps(s->params), sysconf(_SC_NPROCESSORS_ONLN), s->scaled->name,
	       s->mpirun->path);
	if (!no_weak && !s->w->grow)
		scale_note(s, "workload %s cannot grow its problem (no grow hook): no weak scaling",
		           s->w->name);
	return 0;
}

/* --stage and --ranks: which stage is scaled over what; 0, or the usage
 * error's status (nothing has run). */
static int choose_stage(struct scale *s, const struct scale_opts *o, struct apod_mpirun *m)
{
	const struct apod_stage *e;
	const struct apod_stage *base = apod_stage_baseline(s->w);
	char why[256];
	if (!o->stage) {
		if (o->have_ranks)
			return apod_usage_error("scale", "--ranks: name the stage that runs across ranks "
			                        "with --stage=NAME (see '%s stages')", apod_prog->name);
		return 0;
	}
	if (!(e = apod_stage_find(s->w, o->stage)))
		return apod_usage_error("scale", "unknown stage '%s' of workload %s (see '%s stages')",
		                        o->stage, s->w->name, apod_prog->name);
	if (e == base && !o->have_ranks)
		return 0;   /* the threads' curves, as without --stage */
	if (!apod_stage_available(e, why, sizeof why)) {
		apod_fail("stage %s cannot run here: %s", e->name, why);
		return apod_report_failure();
	}
	if (!apod_stage_runs_ranks(e))
		return apod_usage_error("scale", "stage %s does not run across ranks: --ranks scales a "
		                        "stage of MPI ranks (run under mpirun)%s%s", e->name,
		                        base ? "; --threads scales " : "", base ? base->name : "");
	if (o->have_threads)
		return apod_usage_error("scale", "--threads with --stage=%s: it scales over ranks "
		                        "(--ranks=LIST)", e->name);
	if (!o->have_ranks)
		return apod_usage_error("scale", "--stage=%s runs across ranks: give the rank counts, "
		                        "--ranks=LIST (1,2,4, say)", e->name);
	if (apod_mpirun_find(m))
		return apod_report_failure();
	s->scaled = e;
	s->ranked = 1;
	s->unit = "ranks";
	s->mpirun = m;
	return 0;
}

/* Strong scaling and the other stages on the deck as it is, then weak
 * scaling; each table printed once its measurements are in. */
static int measure_and_print(struct scale *s, int do_weak)
{
	long long rss0 = scale_rss_kib(), footprint = 0, peak;
	void *problem = s->w->problem_create(s->params);
	int failed = 0;
	if (!problem)
		return -1;
	if (scale_run_strong(s, problem))
		failed = 1;
	else {
		peak = scale_peak_rss_kib();
		if (rss0 >= 0 && peak > rss0)
			footprint = peak - rss0;
		failed = scale_run_others(s, problem) != 0;
	}
	s->w->problem_destroy(problem);
	scale_set_threads(s->max_threads);
	if (failed)
		return -1;
	if (s->nstrong)
		scale_print_strong(s);
	else
		printf("\nstrong scaling: serial %.4f s; no omp stage to scale\n", s->t1.total);
	fflush(stdout);
	if (!do_weak)
		return 0;
	printf("\n");
	failed = scale_run_weak(s, footprint) != 0;
	scale_set_threads(s->max_threads);
	if (failed)
		return -1;
	scale_print_weak(s);
	return 0;
}

int apod_scale_main(int argc, char **argv)
{
	struct apod_open a;
	struct scale_opts o = { 0 };
	struct scale *s;
	struct apod_mpirun m;
	int rc, do_weak;
	char why[256];

	if (!(s = calloc(1, sizeof *s))) {
		apod_fail("scale: out of memory");
		return apod_report_failure();
	}
	s->reps = 3;
	s->max_threads = 1;
#ifdef _OPENMP
	s->max_threads = omp_get_max_threads();
#endif
	o.s = s;
	if (apod_cmd_open(&a, &apod_cmd_scale_entry, argc, argv, scale_opt, &o,
	                  APOD_OPEN_PARAMS))
		return free(s), a.status;
	s->w = a.w;
	s->params = a.params;
	s->title = a.title;
	s->unit = "threads";
	if ((rc = choose_stage(s, &o, &m)) != 0) {
		apod_cmd_close(&a);
		free(s);
		return rc;
	}
	if (!o.have_threads && !o.have_ranks)
		default_threads(s->max_threads, s->threads, &s->nthreads);
	s->serial = s->w->stages[0];
	if (!apod_stage_available(s->serial, why, sizeof why)) {
		apod_fail("stage %s cannot run here: %s", s->serial->name, why);
		rc = apod_report_failure();
	} else if (s->ranked) {
		if ((rc = plan_ranks(s, o.no_weak, &do_weak)) == 0 &&
		    (scale_run_ranks(s, do_weak) || (o.json && scale_write_outputs(s, o.json))))
			rc = apod_report_failure();
	} else if ((rc = plan(s, o.no_weak, &do_weak)) == 0 &&
	         (measure_and_print(s, do_weak) || (o.json && scale_write_outputs(s, o.json))))
		rc = apod_report_failure();
	apod_cmd_close(&a);
	free(s);
	return rc;
}
