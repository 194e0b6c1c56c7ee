/*
 * scale_write.c: `apod scale --json=FILE`: the measurements as JSON and,
 * beside FILE (less a ".json"), BASE.strong.dat, BASE.weak.dat and BASE.gp,
 * what doc/plots/scaling.gp draws.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/harness/fail.h"
#include "cpu/harness/outfile.h"
#include "cpu/harness/params.h"
#include "cpu/harness/results.h"
#include "report.h"
#include "scale.h"
#include "scratch.h"

/* JSON has no NaN or infinity: null stands for either. */
static json_object *num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static void put(json_object *o, const char *key, double v)
{
	json_object_object_add(o, key, num(v));
}

/* The deck as it is: each count's point against Amdahl, and the other
 * stages run once. */
static json_object *strong_json(const struct scale *s)
{
	json_object *st = json_object_new_object(), *pts = json_object_new_array();
	json_object *oth = json_object_new_array();
	put(st, "serial_seconds", s->t1.total);
	json_object_object_add(st, "p", s->scaled ? num(s->p) : NULL);
	if (s->ranked)
		put(st, "one_rank_seconds", s->r1.total);
	for (int i = 0; i < s->nstrong; i++) {
		const struct strong_pt *q = &s->strong[i];
		json_object *x = json_object_new_object();
		json_object_object_add(x, "n", json_object_new_int(q->n));
		put(x, "seconds", q->m.total);
		put(x, "speedup", q->speedup);
		put(x, "efficiency", q->efficiency);
		put(x, "amdahl", q->amdahl);
		put(x, "serial_fraction_measured", q->serial_frac);
		if (s->ranked)
			put(x, "speedup_vs_one_rank", q->vs_one);
		json_object_array_add(pts, x);
	}
	json_object_object_add(st, "points", pts);
	for (int i = 0; i < s->nother; i++) {
		json_object *x = json_object_new_object();
		json_object_object_add(x, "stage", json_object_new_string(s->other[i].e->name));
		put(x, "seconds", s->other[i].seconds);
		put(x, "speedup", s->other[i].speedup);
		json_object_object_add(x, "on", json_object_new_string(s->other[i].host ? "host" : "device"));
		if (s->other[i].host)
			json_object_object_add(x, "threads", json_object_new_int(s->other[i].width));
		json_object_array_add(oth, x);
	}
	json_object_object_add(st, "other_stages", oth);
	return st;
}

/* The problem grown with the count: each point against Gustafson, and the
 * check that the work grew linearly. */
static json_object *weak_json(const struct scale *s)
{
	json_object *wk = json_object_new_object(), *wp = json_object_new_array();
	json_object_object_add(wk, "factor_key", json_object_new_string("grow"));
	json_object_object_add(wk, "grown_keys", json_object_new_string(s->grown_keys));
	put(wk, "p", s->p_weak);
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
		put(x, "seconds", q->m.total);
		put(x, "efficiency", q->efficiency);
		put(x, "scaled_speedup", q->scaled);
		put(x, "gustafson", q->gustafson);
		put(x, "parallel_fraction_measured", q->parallel_frac);
		json_object_array_add(wp, x);
	}
	json_object_object_add(wk, "points", wp);
	if (s->check_ran) {
		json_object *c = json_object_new_object();
		json_object_object_add(c, "n", json_object_new_int(s->check_n));
		put(c, "serial_seconds_grown", s->check_serial);
		put(c, "serial_seconds_estimated", s->check_estimate);
		put(c, "ratio", s->check_serial / s->check_estimate);
		json_object_object_add(wk, "linearity_check", c);
	}
	return wk;
}

static json_object *scale_json(const struct scale *s)
{
	json_object *o = apod_json_head(s->w, s->params), *t = json_object_new_array();
	json_object *notes = json_object_new_array();
	json_object_object_add(o, "reps", json_object_new_int(s->reps));
	for (int i = 0; i < s->nthreads; i++)
		json_object_array_add(t, json_object_new_int(s->threads[i]));
	/* The counts under their unit's name: "threads" or "ranks". */
	json_object_object_add(o, s->unit, t);
	json_object_object_add(o, "unit", json_object_new_string(s->unit));
	json_object_object_add(o, "stage", s->scaled ? json_object_new_string(s->scaled->name) : NULL);
	if (s->ranked)
		json_object_object_add(o, "launcher", json_object_new_string(s->mpirun->path));
	json_object_object_add(o, "strong", strong_json(s));
	if (s->weak_ran)
		json_object_object_add(o, "weak", weak_json(s));
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
	gp_word(title, sizeof title, s->title);
	fprintf(f, "# apod scale: strong scaling, workload %s, deck %s, %ld cores, median of %d\n",
	        s->w->name, title, sysconf(_SC_NPROCESSORS_ONLN), s->reps);
	fprintf(f, "# serial_seconds %.9g P %.9g\n", s->t1.total, s->p);
	fprintf(f, "# columns: 1 n (%s)  2 seconds  3 speedup (serial/seconds)  4 efficiency "
	        "(%s)\n#          5 amdahl (at n, for P)  6 speedup/amdahl  "
	        "7 serial_fraction_measured%s\n", s->unit,
	        s->ranked ? "speedup over 1 rank/n" : "speedup/n",
	        s->ranked ? "\n#          8 speedup_vs_one_rank" : "");
	for (int i = 0; i < s->nstrong; i++) {
		const struct strong_pt *q = &s->strong[i];
		fprintf(f, "%d %.9g %.9g %.9g %.9g %.9g %.9g", q->n, q->m.total, q->speedup,
		        q->efficiency, q->amdahl, q->speedup / q->amdahl, q->serial_frac);
		if (s->ranked)
			fprintf(f, " %.9g", q->vs_one);
		fputc('\n', f);
	}
}

static void write_weak_dat(FILE *f, const struct scale *s)
{
	fprintf(f, "# apod scale: weak scaling, workload %s: the problem grown n times (%s), n %s\n",
	        s->w->name, *s->grown_keys ? s->grown_keys : "grow", s->unit);
	fprintf(f, "# p %.9g (parallel fraction at n = 1); scaled speedup assumes the work is "
	        "linear in n\n", s->p_weak);
	fprintf(f, "# columns: 1 n (%s)  2 size_factor  3 seconds  4 efficiency (T(1)/T(n))\n"
	        "#          5 scaled_speedup (n*T(1)/T(n))  6 gustafson (at n, for p)  "
	        "7 parallel_fraction_measured\n", s->unit);
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
	gp_word(word, sizeof word, s->title);
	fprintf(f, "deck = \"%s\"\n", word);
	fprintf(f, "host_cores = %ld\n", sysconf(_SC_NPROCESSORS_ONLN));
	/* What the curves are: the stage scaled and over what. */
	gp_word(word, sizeof word, s->scaled ? s->scaled->name : "omp");
	fprintf(f, "scaled_stage = \"%s\"\n", word);
	fprintf(f, "unit = \"%s\"\n", s->unit);
	fprintf(f, "nmax = %d\n", nmax);
	fprintf(f, "serial_seconds = %.9g\n", s->t1.total);
	fprintf(f, "have_strong = %d\n", s->nstrong > 0);
	fprintf(f, "p_strong = %.9g\n", s->p);
	fprintf(f, "have_weak = %d\n", s->weak_ran && s->tw1 > 0);
	fprintf(f, "p_weak = %.9g\n", s->p_weak);
	gp_word(word, sizeof word, base);
	fprintf(f, "# the other stages: names, speedups over serial and, for a host stage (mpi),\n"
	        "# its threads in all (0: a device stage, drawn as a line), as words\n");
	fputs("other_names = \"", f);
	for (int i = 0; i < s->nother; i++) {
		gp_word(word, sizeof word, s->other[i].e->name);
		fprintf(f, "%s%s", i ? " " : "", word);
	}
	fputs("\"\nother_speedups = \"", f);
	for (int i = 0; i < s->nother; i++)
		fprintf(f, "%s%.6g", i ? " " : "", s->other[i].speedup);
	fputs("\"\nother_hosts = \"", f);
	for (int i = 0; i < s->nother; i++)
		fprintf(f, "%s%d", i ? " " : "", s->other[i].host ? s->other[i].width : 0);
	fputs("\"\n", f);
}

/* BASE.strong.{png,svg} and BASE.weak.{png,svg} where gnuplot is there,
 * with doc/plots/scaling.gp as built in; the data stay whatever happens. */
static void draw(const char *base)
{
	struct apod_scratch sc;
	char vars[8400], gnuplot[4096];
	if (apod_gnuplot_path(gnuplot, sizeof gnuplot)) {
		printf("no pictures: gnuplot not found (Debian, Ubuntu: apt-get install gnuplot-nox)\n");
		return;
	}
	if (strchr(base, '\'') || (getenv("TMPDIR") && strchr(getenv("TMPDIR"), '\'')) ||
	    apod_scratch_make(&sc, "scale")) {
		printf("no pictures: a path with a quote, or no scratch folder\n");
		return;
	}
	snprintf(vars, sizeof vars, "scale = '%s'; prefix = '%s.'; terms = 'png svg'", base, base);
	if (report_gnuplot(sc.path, "scaling", apod_gp_scaling, vars))
		printf("no pictures: %s\n", apod_failure());
	else
		printf("pictures: %s.strong.png, .svg and %s.weak.png, .svg (where measured)\n", base, base);
	apod_scratch_remove(&sc);
}

int scale_write_outputs(const struct scale *s, const char *json)
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
	if (rc == 0)
		draw(base);
	return rc;
}
