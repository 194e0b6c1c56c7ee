/*
 * cmd_scale.c: `apod scale`: scaling, measured.
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
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "bounds.h"
#include "cli.h"
#include "fail.h"
#include "outfile.h"
#include "params.h"
#include "results.h"

/* Option codes of this command alone: above cli.h's, below OPT_PARAM. */
enum { OPT_SCALE_THREADS = 1900, OPT_SCALE_NO_WEAK };

#define MAX_POINTS 64
#define MAX_THREADS 1024
#define MAX_OTHER 32
#define MAX_NOTES 16
/* The serial run on the largest grown problem checks that the work is
 * linear in the grow factor; it is skipped when it would take longer. */
#define LINEARITY_CHECK_MAX_S 30.0
/* Of the memory available, what a grown point may be estimated to use. */
#define MEMORY_SHARE 0.9

/* One measured point: the median run of reps. */
struct meas {
	double total;
	int nphases, width;
	double phase[APOD_MAX_PHASES];
};

struct strong_pt {
	int n;
	struct meas m;
	double speedup, efficiency, amdahl, serial_frac;
};

struct weak_pt {
	int n, skipped;
	struct meas m;
	double efficiency, scaled, gustafson, parallel_frac;
	char grown[256];              /* the keys the grow hook changed, "size = 317x406" */
};

struct other_pt {
	const struct apod_stage *e;
	double seconds, speedup;
};

struct scale {
	const struct apod_workload *w;
	const void *params;
	int reps, nthreads, threads[MAX_POINTS];
	int max_threads;              /* omp_get_max_threads() before anything was set */
	const struct apod_stage *serial, *omp;
	struct meas t1;               /* serial on the deck */
	double p;                     /* the serial run's fraction in omp's ports */
	int nstrong, nother, nweak, weak_ran;
	struct strong_pt strong[MAX_POINTS];
	struct other_pt other[MAX_OTHER];
	struct weak_pt weak[MAX_POINTS];
	double p_weak, tw1;
	char grown_keys[256];
	int check_ran;                /* the linearity check */
	int check_n;
	double check_serial, check_estimate;
	int nnotes;
	char notes[MAX_NOTES][320];
};

static void note(struct scale *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct scale *s, const char *fmt, ...)
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

static void set_threads(int n)
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

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* Run stage e reps times; the median run (by total time) into m. */
static int measure(const struct apod_workload *w, const struct apod_stage *e, const void *params,
                   const void *problem, int reps, struct meas *m)
{
	struct meas *all = calloc((size_t)reps, sizeof *all);
	if (!all)
		return apod_fail("scale: out of memory");
	for (int i = 0; i < reps; i++) {
		struct apod_run r;
		if (apod_simulate(w, e, params, problem, NULL, 0, &r)) {
			free(all);
			return -1;
		}
		all[i].total = r.total;
		all[i].nphases = r.nphases;
		all[i].width = r.width;
		memcpy(all[i].phase, r.phase, sizeof all[i].phase);
		apod_run_free(&r);
	}
	qsort(all, (size_t)reps, sizeof *all, cmp_meas);
	*m = all[(reps - 1) / 2];
	free(all);
	return 0;
}

/* The fraction of m's time in the phases of ports (apod_bound_eval's p). */
static double ported_fraction(const struct apod_workload *w, const struct meas *m, unsigned ports)
{
	double in = 0, all = 0;
	for (int i = 0; i < m->nphases; i++) {
		all += m->phase[i];
		if (ports & apod_phase_bit(w, i))
			in += m->phase[i];
	}
	return all > 0 ? in / all : 0;
}

/* --threads=LIST: whole numbers from 1 to MAX_THREADS, comma-separated;
 * sorted, each once, 1 added. */
static int parse_threads(const char *arg, int *t, int *n)
{
	const char *s = arg;
	*n = 0;
	if (!*arg)
		return apod_usage_fail("--threads: an empty list (give thread counts like 1,2,4)");
	for (;;) {
		char *end;
		long v;
		errno = 0;
		v = strtol(s, &end, 10);
		if (*s == ',' || !*s)
			return apod_usage_fail("--threads: an empty count in '%s'", arg);
		if (end == s || (*end && *end != ',') || errno || v < 1 || v > MAX_THREADS) {
			int len = (int)strcspn(s, ",");
			return apod_usage_fail("--threads: '%.*s' is not a thread count from 1 to %d", len, s,
			                       MAX_THREADS);
		}
		if (*n == MAX_POINTS - 1)
			return apod_usage_fail("--threads: more than %d counts", MAX_POINTS - 1);
		t[(*n)++] = (int)v;
		if (!*end)
			break;
		s = end + 1;
	}
	t[(*n)++] = 1;   /* weak scaling's reference: the problem as it is, one thread */
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

/* ---- memory ----------------------------------------------------------- */

/* KiB resident now (/proc/self/statm), the peak so far, and available. */
static long long rss_kib(void)
{
	long long size, res;
	FILE *f = fopen("/proc/self/statm", "r");
	int ok;
	if (!f)
		return -1;
	ok = fscanf(f, "%lld %lld", &size, &res) == 2;
	fclose(f);
	return ok ? res * (sysconf(_SC_PAGESIZE) / 1024) : -1;
}

static long long peak_rss_kib(void)
{
	struct rusage u;
	return getrusage(RUSAGE_SELF, &u) == 0 ? (long long)u.ru_maxrss : -1;
}

static long long available_kib(void)
{
	char line[256];
	long long kib = -1;
	FILE *f = fopen("/proc/meminfo", "r");
	if (f) {
		while (fgets(line, sizeof line, f))
			if (sscanf(line, "MemAvailable: %lld kB", &kib) == 1)
				break;
		fclose(f);
	}
	if (kib < 0) {
		long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
		if (pages > 0 && size > 0)
			kib = (long long)pages * (size / 1024);
	}
	return kib;
}

/* ---- the grown problem ------------------------------------------------ */

/* A copy of params grown factor times, checked; NULL after a failure. */
static void *grown_params(const struct apod_workload *w, const void *params, int factor)
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
static void changed_keys(const struct apod_workload *w, const void *a, const void *b, int names_only,
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

static int run_strong(struct scale *s, const void *problem)
{
	const struct apod_workload *w = s->w;
	if (measure(w, s->serial, s->params, problem, s->reps, &s->t1))
		return -1;
	printf("serial: %.4f s (median of %d)\n", s->t1.total, s->reps);
	fflush(stdout);
	if (!s->omp)
		return 0;
	s->p = ported_fraction(w, &s->t1, s->omp->ports);
	for (int i = 0; i < s->nthreads; i++) {
		struct strong_pt *q = &s->strong[s->nstrong];
		q->n = s->threads[i];
		set_threads(q->n);
		if (measure(w, s->omp, s->params, problem, s->reps, &q->m))
			return -1;
#ifndef _OPENMP
		q->n = s->threads[0] = q->m.width > 0 ? q->m.width : 1;
#endif
		if (q->m.width > 0 && q->m.width != q->n)
			note(s, "omp asked for %d threads ran on %d", q->n, q->m.width);
		q->speedup = s->t1.total / q->m.total;
		q->efficiency = q->speedup / q->n;
		q->amdahl = apod_amdahl(s->p, q->n);
		q->serial_frac = 1 - ported_fraction(w, &q->m, s->omp->ports);
		s->nstrong++;
		printf("strong: %d thread%s: %.4f s, speedup %.2fx (Amdahl %.2fx)\n", q->n,
		       q->n == 1 ? "" : "s", q->m.total, q->speedup, q->amdahl);
		fflush(stdout);
#ifndef _OPENMP
		break;
#endif
	}
	set_threads(s->max_threads);   /* the other stages run as they would anywhere */
	return 0;
}

static int run_others(struct scale *s, const void *problem)
{
	for (int i = 1; s->w->stages[i]; i++) {
		const struct apod_stage *e = s->w->stages[i];
		struct other_pt *o = &s->other[s->nother];
		struct meas m;
		char why[256] = "";
		if (e == s->omp || s->nother == MAX_OTHER)
			continue;
		if (!e->available(why, sizeof why)) {
			printf("%s: not measured: %s\n", e->name, why);
			continue;
		}
		if (measure(s->w, e, s->params, problem, s->reps, &m))
			return -1;
		o->e = e;
		o->seconds = m.total;
		o->speedup = s->t1.total / m.total;
		s->nother++;
		printf("%s: %.4f s, speedup %.2fx\n", e->name, o->seconds, o->speedup);
		fflush(stdout);
	}
	return 0;
}

/* footprint_kib: what the problem as it is took (0: unknown). */
static int run_weak(struct scale *s, long long footprint_kib)
{
	const struct apod_workload *w = s->w;
	for (int i = 0; i < s->nthreads; i++) {
		struct weak_pt *q = &s->weak[s->nweak];
		void *g, *problem;
		long long avail = available_kib();
		double need = (double)footprint_kib * s->threads[i];
		memset(q, 0, sizeof *q);
		q->n = s->threads[i];
		s->nweak++;
		/* n = 1 is the deck as it is, which already ran. */
		if (q->n > 1 && footprint_kib > 0 && avail > 0 && need > MEMORY_SHARE * (double)avail) {
			q->skipped = 1;
			note(s, "weak: %d threads skipped: the problem grown %d times needs about %.2f GiB, "
			     "%.2f GiB available", q->n, q->n, need / 1048576, (double)avail / 1048576);
			continue;
		}
		if (!(g = grown_params(w, s->params, q->n)))
			return -1;
		changed_keys(w, s->params, g, 0, q->grown, sizeof q->grown);
		if (!(problem = w->problem_create(g))) {
			q->skipped = 1;
			note(s, "weak: %d threads skipped: the problem grown %d times: %s", q->n, q->n,
			     apod_failure());
			free(g);
			continue;
		}
		set_threads(q->n);
		if (measure(w, s->omp, g, problem, s->reps, &q->m)) {
			w->problem_destroy(problem);
			free(g);
			return -1;
		}
		q->parallel_frac = ported_fraction(w, &q->m, s->omp->ports);
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
				note(s, "weak: linearity check skipped: serial on the problem grown %d times "
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
	for (int i = 0; i < s->nweak; i++) {
		struct weak_pt *q = &s->weak[i];
		if (q->skipped || !(s->tw1 > 0))
			continue;
		q->efficiency = s->tw1 / q->m.total;
		/* Assumed: the work per step is linear in the grow factor, so
		 * the grown problem at one thread would take n * T_w(1); an
		 * estimate, checked once above where that is cheap. */
		q->scaled = q->n * s->tw1 / q->m.total;
		q->gustafson = apod_gustafson(s->p_weak, q->n);
	}
	s->weak_ran = 1;
	return 0;
}

/* ---- output ----------------------------------------------------------- */

static void print_strong(const struct scale *s)
{
	printf("\nstrong scaling: the deck as it is; serial %.4f s; P = %.4f (the serial run's "
	       "fraction in the phases omp ports)\n", s->t1.total, s->p);
	printf("%7s %10s %9s %10s %12s %10s %10s\n", "threads", "time (s)", "speedup", "efficiency",
	       "Amdahl at N", "meas/Amdahl", "serial frac");
	for (int i = 0; i < s->nstrong; i++) {
		const struct strong_pt *q = &s->strong[i];
		double ratio = q->speedup / q->amdahl;
		printf("%7d %10.4f %8.2fx %9.1f%% %11.2fx %10.3f %10.3f%s\n", q->n, q->m.total, q->speedup,
		       100 * q->efficiency, q->amdahl, ratio, q->serial_frac,
		       ratio > 1 + APOD_BOUND_NOISE ? "  above Amdahl" : "");
	}
	for (int i = 0; i < s->nother; i++)
		printf("%7s %10.4f %8.2fx   (plotted as a line: N = GPU)\n", s->other[i].e->name,
		       s->other[i].seconds, s->other[i].speedup);
	printf("speedup: serial time / time; efficiency: speedup / threads; serial frac: the omp "
	       "run's own\nfraction outside the phases it ports.  Above Amdahl: the model is broken "
	       "(see the table).\n");
}

static void print_weak(const struct scale *s)
{
	printf("\nweak scaling: the problem grown N times (%s), N threads; p = %.4f (the omp run's "
	       "fraction in\nthe phases it ports, at 1 thread)\n", *s->grown_keys ? s->grown_keys : "grow",
	       s->p_weak);
	printf("%7s %6s %10s %10s %14s %10s\n", "threads", "size", "time (s)", "efficiency",
	       "scaled speedup", "Gustafson");
	for (int i = 0; i < s->nweak; i++) {
		const struct weak_pt *q = &s->weak[i];
		if (q->skipped) {
			printf("%7d %5dx  skipped (see the note above)\n", q->n, q->n);
			continue;
		}
		printf("%7d %5dx %10.4f %9.1f%% %13.2fx %9.2fx\n", q->n, q->n, q->m.total,
		       100 * q->efficiency, q->scaled, q->gustafson);
	}
	printf("efficiency: T(1) / T(N); scaled speedup: N * T(1) / T(N), an estimate that assumes "
	       "the work per\nstep is linear in the grow factor (the grown problem at one thread "
	       "taking N * T(1)).\n");
	if (s->check_ran)
		printf("linearity check: serial on the problem grown %d times took %.4f s; %d x serial "
		       "on the deck = %.4f s; ratio %.3f\n", s->check_n, s->check_serial, s->check_n,
		       s->check_estimate, s->check_serial / s->check_estimate);
}

/* JSON has no NaN or infinity: null stands for either. */
static json_object *num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static json_object *scale_json(const struct scale *s)
{
	json_object *o = json_object_new_object(), *t = json_object_new_array();
	json_object *st = json_object_new_object(), *pts = json_object_new_array();
	json_object *oth = json_object_new_array(), *notes = json_object_new_array();
	json_object_object_add(o, "workload", json_object_new_string(s->w->name));
	json_object_object_add(o, "params", apod_params_json(s->w, s->params));
	json_object_object_add(o, "host_cores", json_object_new_int64(sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_object_add(o, "reps", json_object_new_int(s->reps));
	for (int i = 0; i < s->nthreads; i++)
		json_object_array_add(t, json_object_new_int(s->threads[i]));
	json_object_object_add(o, "threads", t);

	json_object_object_add(st, "serial_seconds", num(s->t1.total));
	json_object_object_add(st, "p", s->omp ? num(s->p) : NULL);
	for (int i = 0; i < s->nstrong; i++) {
		const struct strong_pt *q = &s->strong[i];
		json_object *x = json_object_new_object();
		json_object_object_add(x, "n", json_object_new_int(q->n));
		json_object_object_add(x, "seconds", num(q->m.total));
		json_object_object_add(x, "speedup", num(q->speedup));
		json_object_object_add(x, "efficiency", num(q->efficiency));
		json_object_object_add(x, "amdahl", num(q->amdahl));
		json_object_object_add(x, "serial_fraction_measured", num(q->serial_frac));
		json_object_array_add(pts, x);
	}
	json_object_object_add(st, "points", pts);
	for (int i = 0; i < s->nother; i++) {
		json_object *x = json_object_new_object();
		json_object_object_add(x, "stage", json_object_new_string(s->other[i].e->name));
		json_object_object_add(x, "seconds", num(s->other[i].seconds));
		json_object_object_add(x, "speedup", num(s->other[i].speedup));
		json_object_array_add(oth, x);
	}
	json_object_object_add(st, "other_stages", oth);
	json_object_object_add(o, "strong", st);

	if (s->weak_ran) {
		json_object *wk = json_object_new_object(), *wp = json_object_new_array();
		json_object_object_add(wk, "factor_key", json_object_new_string("grow"));
		json_object_object_add(wk, "grown_keys", json_object_new_string(s->grown_keys));
		json_object_object_add(wk, "p", num(s->p_weak));
		json_object_object_add(wk, "assumption", json_object_new_string(
			"scaled_speedup = n * T(1) / T(n): the work per step is linear in the grow factor"));
		for (int i = 0; i < s->nweak; i++) {
			const struct weak_pt *q = &s->weak[i];
			json_object *x = json_object_new_object();
			json_object_object_add(x, "n", json_object_new_int(q->n));
			if (q->skipped) {
				json_object_object_add(x, "skipped", json_object_new_boolean(1));
				json_object_array_add(wp, x);
				continue;
			}
			json_object_object_add(x, "grown", json_object_new_string(q->grown));
			json_object_object_add(x, "seconds", num(q->m.total));
			json_object_object_add(x, "efficiency", num(q->efficiency));
			json_object_object_add(x, "scaled_speedup", num(q->scaled));
			json_object_object_add(x, "gustafson", num(q->gustafson));
			json_object_object_add(x, "parallel_fraction_measured", num(q->parallel_frac));
			json_object_array_add(wp, x);
		}
		json_object_object_add(wk, "points", wp);
		if (s->check_ran) {
			json_object *c = json_object_new_object();
			json_object_object_add(c, "n", json_object_new_int(s->check_n));
			json_object_object_add(c, "serial_seconds_grown", num(s->check_serial));
			json_object_object_add(c, "serial_seconds_estimated", num(s->check_estimate));
			json_object_object_add(c, "ratio", num(s->check_serial / s->check_estimate));
			json_object_object_add(wk, "linearity_check", c);
		}
		json_object_object_add(o, "weak", wk);
	}
	for (int i = 0; i < s->nnotes; i++)
		json_object_array_add(notes, json_object_new_string(s->notes[i]));
	json_object_object_add(o, "notes", notes);
	return o;
}

/* A word gnuplot can hold in a string: no quotes, backslashes or spaces. */
static void gp_word(char *dst, size_t len, const char *src)
{
	size_t i = 0;
	for (; src && *src && i + 1 < len; src++)
		dst[i++] = (*src == '"' || *src == '\\' || *src == ' ' || (unsigned char)*src < 32) ? '_' : *src;
	dst[i] = '\0';
}

static void write_strong_dat(FILE *f, const struct scale *s)
{
	char title[128];
	gp_word(title, sizeof title, apod_deck_title(s->w, s->params));
	fprintf(f, "# apod scale: strong scaling, workload %s, deck %s, %ld cores, median of %d\n",
	        s->w->name, title, sysconf(_SC_NPROCESSORS_ONLN), s->reps);
	fprintf(f, "# serial_seconds %.9g P %.9g\n", s->t1.total, s->p);
	fprintf(f, "# columns: 1 n (threads)  2 seconds  3 speedup (serial/seconds)  4 efficiency "
	        "(speedup/n)\n#          5 amdahl (at n, for P)  6 speedup/amdahl  "
	        "7 serial_fraction_measured\n");
	for (int i = 0; i < s->nstrong; i++) {
		const struct strong_pt *q = &s->strong[i];
		fprintf(f, "%d %.9g %.9g %.9g %.9g %.9g %.9g\n", q->n, q->m.total, q->speedup,
		        q->efficiency, q->amdahl, q->speedup / q->amdahl, q->serial_frac);
	}
}

static void write_weak_dat(FILE *f, const struct scale *s)
{
	fprintf(f, "# apod scale: weak scaling, workload %s: the problem grown n times (%s), n threads\n",
	        s->w->name, *s->grown_keys ? s->grown_keys : "grow");
	fprintf(f, "# p %.9g (parallel fraction at n = 1); scaled speedup assumes the work is "
	        "linear in n\n", s->p_weak);
	fprintf(f, "# columns: 1 n (threads)  2 size_factor  3 seconds  4 efficiency (T(1)/T(n))\n"
	        "#          5 scaled_speedup (n*T(1)/T(n))  6 gustafson (at n, for p)  "
	        "7 parallel_fraction_measured\n");
	for (int i = 0; i < s->nweak; i++) {
		const struct weak_pt *q = &s->weak[i];
		if (!q->skipped)
			fprintf(f, "%d %d %.9g %.9g %.9g %.9g %.9g\n", q->n, q->n, q->m.total, q->efficiency,
			        q->scaled, q->gustafson, q->parallel_frac);
	}
}

static void write_gp(FILE *f, const struct scale *s, const char *base)
{
	char word[128];
	int nmax = 1;
	for (int i = 0; i < s->nthreads; i++)
		nmax = s->threads[i] > nmax ? s->threads[i] : nmax;
	fprintf(f, "# apod scale: the values doc/plots/scaling.gp reads (gnuplot syntax)\n");
	gp_word(word, sizeof word, s->w->name);
	fprintf(f, "workload = \"%s\"\n", word);
	gp_word(word, sizeof word, apod_deck_title(s->w, s->params));
	fprintf(f, "deck = \"%s\"\n", word);
	fprintf(f, "host_cores = %ld\n", sysconf(_SC_NPROCESSORS_ONLN));
	fprintf(f, "nmax = %d\n", nmax);
	fprintf(f, "serial_seconds = %.9g\n", s->t1.total);
	fprintf(f, "have_strong = %d\n", s->nstrong > 0);
	fprintf(f, "p_strong = %.9g\n", s->p);
	fprintf(f, "have_weak = %d\n", s->weak_ran && s->tw1 > 0);
	fprintf(f, "p_weak = %.9g\n", s->p_weak);
	gp_word(word, sizeof word, base);
	fprintf(f, "# the other stages (GPU): names and speedups over serial, as words\n");
	fputs("other_names = \"", f);
	for (int i = 0; i < s->nother; i++) {
		gp_word(word, sizeof word, s->other[i].e->name);
		fprintf(f, "%s%s", i ? " " : "", word);
	}
	fputs("\"\nother_speedups = \"", f);
	for (int i = 0; i < s->nother; i++)
		fprintf(f, "%s%.6g", i ? " " : "", s->other[i].speedup);
	fputs("\"\n", f);
}

/* FILE, then BASE.strong.dat, BASE.weak.dat and BASE.gp (BASE: FILE less a
 * ".json"), each atomically; all written before any is swapped in. */
static int write_outputs(const struct scale *s, const char *json)
{
	static const char *const ext[] = { ".strong.dat", ".weak.dat", ".gp" };
	struct apod_outfile of[3];
	char base[4000], path[4096];
	size_t len = strlen(json);
	json_object *o;
	int rc = 0, opened = 0;

	if (len >= sizeof base)
		return apod_usage_fail("%s: path too long", json);
	memcpy(base, json, len + 1);
	if (len > 5 && !strcmp(base + len - 5, ".json"))
		base[len - 5] = '\0';
	for (int i = 0; i < 3; i++) {
		if (i == 1 && !s->weak_ran)
			continue;
		snprintf(path, sizeof path, "%s%s", base, ext[i]);
		if (apod_outfile_open(&of[i], path)) {
			rc = -1;
			break;
		}
		opened |= 1 << i;
		if (i == 0)
			write_strong_dat(of[i].f, s);
		else if (i == 1)
			write_weak_dat(of[i].f, s);
		else
			write_gp(of[i].f, s, base);
	}
	if (rc == 0 && (o = scale_json(s)) != NULL) {
		rc = apod_json_write(json, o);
		json_object_put(o);
	}
	for (int i = 0; i < 3; i++) {
		if (!(opened & (1 << i)))
			continue;
		if (rc)
			apod_outfile_abort(&of[i]);
		else if (apod_outfile_commit(&of[i]))
			rc = -1;
	}
	return rc;
}

static void usage(void)
{
	printf("Usage: %s scale [--workload=NAME] [--deck=FILE] [--KEY=VALUE]... [--threads=LIST]\n"
	       "          [--reps=N] [--no-weak] [--json=FILE]\n"
	       "Measure strong scaling (the deck as it is: the omp stage at each thread count,\n"
	       "against serial and Amdahl's curve; every other stage that can run here once) and\n"
	       "weak scaling (the problem grown N times with N threads, against Gustafson's line).\n"
	       "  --threads=LIST  thread counts, e.g. 1,2,4,8 (default: 1, 2, 4, ... and every core;\n"
	       "                  1 is always measured)\n"
	       "  --reps=N        runs per point; the median counts (default 3)\n"
	       "  --no-weak       strong scaling only\n"
	       "  --json=FILE     the measurements as JSON; beside it (FILE less a .json)\n"
	       "                  BASE.strong.dat, BASE.weak.dat and BASE.gp for doc/plots/scaling.gp\n",
	       apod_prog->name);
}

struct scale_opts {
	struct scale *s;
	const char *json;
	int no_weak, have_threads;
};

static int scale_opt(int c, const char *arg, void *ctx)
{
	struct scale_opts *o = ctx;
	char *end;
	long v;
	switch (c) {
	case OPT_JSON: o->json = arg; return 0;
	case OPT_SCALE_NO_WEAK: o->no_weak = 1; return 0;
	case OPT_SCALE_THREADS:
		if (parse_threads(arg, o->s->threads, &o->s->nthreads))
			return -1;
		o->have_threads = 1;
		return 0;
	case OPT_REPS:
		errno = 0;
		v = strtol(arg, &end, 10);
		if (end == arg || *end || errno || v < 1 || v > 1000)
			return apod_usage_fail("--reps: '%s' is not 1 to 1000", arg);
		o->s->reps = (int)v;
		return 0;
	}
	return apod_option_fail(c, NULL);
}

int apod_cmd_scale(int argc, char **argv)
{
	static const struct option own[] = {
		{ "threads", required_argument, NULL, OPT_SCALE_THREADS },
		{ "reps", required_argument, NULL, OPT_REPS },
		{ "no-weak", no_argument, NULL, OPT_SCALE_NO_WEAK },
		{ "json", required_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	struct apod_deck_opts dopt = { 0 };
	const char *json = NULL;
	struct scale_opts o = { 0 };
	void *params = NULL, *problem = NULL;
	struct scale *s;
	int c, no_weak = 0, have_threads = 0, failed = 0, max_threads = 1, do_weak, omp_missing = 0;
	long long rss0, footprint = 0;
	char why[256], omp_why[256];

	if (!(s = calloc(1, sizeof *s))) {
		apod_fail("scale: out of memory");
		return apod_report_failure();
	}
	s->reps = 3;
#ifdef _OPENMP
	max_threads = omp_get_max_threads();
#endif
	o.s = s;
	if ((c = apod_deck_command(argc, argv, own, &dopt, scale_opt, &o)) != 0) {
		free(s);
		if (c < 0)
			return apod_command_error("scale");
		usage();
		return APOD_EXIT_OK;
	}
	json = o.json;
	no_weak = o.no_weak;
	have_threads = o.have_threads;
	if (apod_deck_resolve(&params, &dopt))
		return free(s), apod_report_failure();
	s->w = dopt.w;
	s->params = params;
	s->max_threads = max_threads;
	if (!have_threads)
		default_threads(max_threads, s->threads, &s->nthreads);

	s->serial = s->w->stages[0];
	if (!s->serial->available(why, sizeof why)) {
		apod_fail("stage %s cannot run here: %s", s->serial->name, why);
		free(params);
		free(s);
		return apod_report_failure();
	}
	s->omp = apod_stage_baseline(s->w);
	omp_why[0] = '\0';
	if (s->omp && !s->omp->available(omp_why, sizeof omp_why))
		s->omp = NULL, omp_missing = 2;
	else if (!s->omp)
		omp_missing = 1;
#ifndef _OPENMP
	s->nthreads = 1;
	s->threads[0] = 1;
#endif

	/* Weak scaling: every grow refused up front, before anything runs. */
	do_weak = !no_weak && s->omp && s->w->grow;
#ifndef _OPENMP
	do_weak = 0;
#endif
	for (int i = 0; do_weak && i < s->nthreads; i++) {
		void *g = grown_params(s->w, params, s->threads[i]);
		if (!g) {
			int n = s->threads[i];
			free(params);
			free(s);
			return apod_usage_error("scale", "weak scaling to %d threads: the problem cannot "
			                        "grow %d times: %s (use --no-weak, or fewer --threads)",
			                        n, n, apod_failure());
		}
		if (i == s->nthreads - 1 && s->threads[i] > 1)
			changed_keys(s->w, params, g, 1, s->grown_keys, sizeof s->grown_keys);
		free(g);
	}

	printf("workload %s, deck %s: %ld steps; %ld cores on this host; %d OpenMP threads at most\n",
	       s->w->name, apod_deck_title(s->w, params), s->w->steps(params),
	       sysconf(_SC_NPROCESSORS_ONLN), max_threads);
#ifndef _OPENMP
	note(s, "this %s was built without OpenMP: the thread count cannot be set; the omp stage "
	     "is measured once, on the threads it takes", apod_prog->name);
#endif
	if (omp_missing == 1)
		note(s, "workload %s has no stage called omp: no thread scaling, only the other stages",
		     s->w->name);
	else if (omp_missing == 2)
		note(s, "the omp stage cannot run here (%s): no thread scaling", omp_why);
	if (!no_weak && s->omp && !s->w->grow)
		note(s, "workload %s cannot grow its problem (no grow hook): no weak scaling", s->w->name);

	rss0 = rss_kib();
	if (!(problem = s->w->problem_create(params))) {
		free(params);
		free(s);
		return apod_report_failure();
	}
	if (run_strong(s, problem)) {
		failed = 1;
		apod_report_failure();
	} else {
		long long peak = peak_rss_kib();
		if (rss0 >= 0 && peak > rss0)
			footprint = peak - rss0;
		if (run_others(s, problem))
			failed = 1, apod_report_failure();
	}
	s->w->problem_destroy(problem);
	set_threads(max_threads);
	if (!failed && s->nstrong)
		print_strong(s);
	else if (!failed)
		printf("\nstrong scaling: serial %.4f s; no omp stage to scale\n", s->t1.total);
	fflush(stdout);

	if (!failed && do_weak) {
		printf("\n");
		if (run_weak(s, footprint))
			failed = 1, apod_report_failure();
		else
			print_weak(s);
		set_threads(max_threads);
	}
	if (!failed && json && write_outputs(s, json))
		failed = 1, apod_report_failure();
	free(params);
	free(s);
	return failed ? APOD_EXIT_FAIL : APOD_EXIT_OK;
}
