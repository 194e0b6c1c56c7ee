/*
 * verify.c: compare two runs output by output, under the tolerances the
 * workload designs (a workload's own documentation explains its factors).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shared/compare.h"
#include "fail.h"
#include "npy.h"
#include "results.h"
#include "typed.h"
#include "verify.h"

static double value(const void *data, enum apod_dtype t, size_t i)
{
	return t == APOD_F64 ? ((const double *)data)[i] : (double)((const float *)data)[i];
}

static int bad(enum apod_compare c, double w, double g, const struct apod_tol *t)
{
	switch (c) {
	case APOD_COMPARE_EXACT:
		return !(w == g || (isnan(w) && isnan(g)));
	case APOD_COMPARE_ULP:
		return isnan(w) != isnan(g) || apod_ulp_distance(w, g) > t->ulps;
	default:
		return !apod_within(w, g, t->atol, t->rtol);
	}
}

/* How much of its tolerance a difference used: above 1 exactly where bad()
 * says so. */
static double of_tolerance(enum apod_compare c, double w, double g, const struct apod_tol *t)
{
	double d = fabs(g - w), allowed;
	if (w == g || (isnan(w) && isnan(g) && c != APOD_COMPARE_CLOSE && c != APOD_COMPARE_DRIFT))
		return 0;
	switch (c) {
	case APOD_COMPARE_EXACT:
		return INFINITY;
	case APOD_COMPARE_ULP:
		if (isnan(w) != isnan(g))
			return INFINITY;
		d = (double)apod_ulp_distance(w, g);
		allowed = (double)t->ulps;
		break;
	default:
		allowed = t->atol + t->rtol * fabs(w);
	}
	if (isnan(d))
		return INFINITY;
	return allowed > 0 ? d / allowed : d > 0 ? INFINITY : 0;
}

/* One difference into the verdict: counts, and the worst so far. */
static void note(struct apod_output_verdict *o, enum apod_compare c, double w, double g,
                 const struct apod_tol *t)
{
	double d = fabs(g - w), r = of_tolerance(c, w, g, t);
	long long ulp = o->ulp_double ? apod_ulp_distance_double(w, g) : apod_ulp_distance(w, g);
	o->n++;
	if (w != g || isnan(w) != isnan(g))
		o->ndiffer++;
	if (bad(c, w, g, t))
		o->nbad++;
	if (r > o->of_tol)
		o->of_tol = r;
	if (ulp > o->max_ulp) {
		o->max_ulp = ulp;
		/* Near zero a tiny absolute difference spans millions of ulps;
		 * where atol decides, that count says nothing about precision. */
		o->ulp_absolute = (c == APOD_COMPARE_CLOSE || c == APOD_COMPARE_DRIFT) &&
		                  t->atol >= t->rtol * fabs(w);
	}
	if (d > o->max_abs || (isnan(d) && !isnan(o->max_abs)) || o->n == 1) {
		o->max_abs = d;
		o->worst_want = w;
		o->worst_got = g;
		o->tol = *t;
	}
}

/* What a tolerance hook says: the one that sees the problem where there is one. */
static void array_tol(const struct apod_array *decl, const void *params, const void *problem,
                      int any_float, struct apod_tol *t)
{
	if (decl->tolerance)
		decl->tolerance(params, problem, any_float, 0, decl->compare, t);
}

static void series_tol(const struct apod_series *decl, const void *params, const void *problem,
                       int any_float, int column, struct apod_tol *t)
{
	if (decl->tolerance)
		decl->tolerance(params, problem, any_float, column, decl->compare, t);
}

static void compare_array(const struct apod_array *decl, const void *params, const void *problem,
                          int any_float, const struct apod_array_data *want,
                          const struct apod_array_data *got, struct apod_output_verdict *o)
{
	struct apod_tol t = { 0 };
	double num = 0, den = 0;
	o->ulp_double = want->dtype == APOD_F64 && got->dtype == APOD_F64;
	o->digits = want->dtype == APOD_F64 || got->dtype == APOD_F64 ? 17 : 9;
	array_tol(decl, params, problem, any_float, &t);
	if (apod_dtype_integer(want->dtype) || apod_dtype_integer(got->dtype)) {
		if (want->dtype != got->dtype)
			o->n = o->nbad = o->ndiffer = want->count;
		else
			apod_verify_ints(o, decl->compare, want->dtype, want->data, got->data,
			                 want->count, &t, 1, &o->worst);
		o->ok = o->nbad == 0;
		return;
	}
	for (size_t i = 0; i < want->count; i++) {
		double w = value(want->data, want->dtype, i), g = value(got->data, got->dtype, i);
		double before = o->max_abs;
		note(o, decl->compare, w, g, &t);
		if (o->max_abs != before || i == 0)
			o->worst = i;
		num += (g - w) * (g - w);
		den += w * w;
	}
	o->tol = t;
	o->rel_l2 = den > 0 ? sqrt(num / den) : sqrt(num);
	o->ok = o->nbad == 0;
}

static void compare_counts(const struct apod_series *decl, const void *params,
                           const void *problem, int any_float, const struct apod_series_data *want,
                           const struct apod_series_data *got, struct apod_output_verdict *o)
{
	struct apod_tol t = { 0 };
	series_tol(decl, params, problem, any_float, 0, &t);
	if (want->iv) {
		long row = 0;
		apod_verify_int_counts(o, want->dtype, want->iv, got->iv, want->rows, want->cols, &t,
		                       &row);
		o->worst_step = want->rows ? want->step[row] : 0;
		return;
	}
	o->tol = t;
	o->ok = 1;
	for (long k = 0; k < want->rows; k++) {
		const double *a = want->v + (size_t)k * (size_t)want->cols;
		const double *b = got->v + (size_t)k * (size_t)got->cols;
		double l1 = 0, ca = 0, cb = 0, frac;
		for (int c = 0; c < want->cols; c++) {
			if (a[c] != b[c])
				o->ndiffer++;
			l1 += fabs(a[c] - b[c]);
			ca += a[c];
			cb += b[c];
			o->n++;
		}
		/* Every item lands in exactly one bin: a lost or doubled count is a
		 * bug whatever the tolerance. */
		if (ca != cb || (t.total > 0 && ca != t.total))
			l1 = INFINITY;
		frac = l1 / (t.total > 0 ? t.total : (ca > 0 ? ca : 1));
		if (frac > o->max_frac || isnan(frac) || k == 0) {
			o->max_frac = frac;
			o->worst_step = want->step[k];
		}
	}
	o->ok = o->max_frac <= t.frac;
	o->of_tol = apod_counts_of_tol(o->max_frac, t.frac);
}

/* An invariant: each run on its own stays near its first row. */
static void check_drift(const struct apod_series *decl, const void *params, const void *problem,
                        int any_float, const struct apod_series_data *d,
                        struct apod_output_verdict *o)
{
	for (int c = 0; c < d->cols; c++) {
		struct apod_tol t = { 0 };
		series_tol(decl, params, problem, any_float, c, &t);
		for (long k = 1; k < d->rows; k++) {
			double x0 = d->v[c], x = d->v[(size_t)k * (size_t)d->cols + (size_t)c];
			double before = o->max_abs;
			note(o, APOD_COMPARE_CLOSE, x0, x, &t);
			if (o->max_abs != before) {
				o->worst_step = d->step[k];
				o->worst_col = c;
			}
		}
	}
}

static void compare_series(const struct apod_series *decl, const void *params,
                           const void *problem, int any_float, const struct apod_series_data *want,
                           const struct apod_series_data *got, struct apod_output_verdict *o)
{
	struct apod_tol *tol;
	int steps_ok = 1;
	o->digits = 17;   /* a series is written as doubles, whatever the build */
	/* Rows are compared by position: a row of another step is a failure
	 * whatever its values, and the report says which row. */
	o->step_row = -1;
	for (long k = 0; steps_ok && k < want->rows; k++)
		if (want->step[k] != got->step[k]) {
			steps_ok = 0;
			o->step_row = k;
			o->step_want = want->step[k];
			o->step_got = got->step[k];
		}
	if (decl->compare == APOD_COMPARE_COUNTS) {
		compare_counts(decl, params, problem, any_float, want, got, o);
		o->ok &= steps_ok;
		return;
	}
	if (decl->compare == APOD_COMPARE_DRIFT) {
		size_t nvalues = (size_t)want->rows * (size_t)want->cols;
		check_drift(decl, params, problem, any_float, want, o);
		check_drift(decl, params, problem, any_float, got, o);
		/* What differs between the two runs, apart from each one's drift. */
		o->n = nvalues;
		o->ndiffer = 0;
		for (size_t i = 0; i < nvalues; i++)
			o->ndiffer += want->v[i] != got->v[i];
		o->ok = o->nbad == 0 && steps_ok;
		return;
	}
	tol = calloc((size_t)want->cols + 1, sizeof *tol);
	for (int c = 0; tol && c < want->cols; c++)
		series_tol(decl, params, problem, any_float, c, &tol[c]);
	if (tol && want->iv) {
		size_t worst = 0;
		apod_verify_ints(o, decl->compare, want->dtype, want->iv, got->iv,
		                 (size_t)want->rows * (size_t)want->cols, tol,
		                 want->cols > 0 ? (size_t)want->cols : 1, &worst);
		if (want->cols > 0 && want->rows > 0) {
			o->worst_step = want->step[worst / (size_t)want->cols];
			o->worst_col = (int)(worst % (size_t)want->cols);
		}
		o->ok = o->nbad == 0 && steps_ok;
		free(tol);
		return;
	}
	for (long k = 0; tol && k < want->rows; k++)
		for (int c = 0; c < want->cols; c++) {
			size_t i = (size_t)k * (size_t)want->cols + (size_t)c;
			double before = o->max_abs;
			note(o, decl->compare, want->v[i], got->v[i], &tol[c]);
			if (o->max_abs != before || o->n == 1) {
				o->worst_step = want->step[k];
				o->worst_col = c;
			}
		}
	o->ok = tol && o->nbad == 0 && steps_ok;
	free(tol);
}

/* 1 if a tolerance of w's outputs is designed from the problem. */
static int needs_problem(const struct apod_workload *w)
{
	for (int a = 0; a < apod_array_count(w); a++)
		if (w->arrays[a].tolerance)
			return 1;
	for (int i = 0; i < apod_series_count(w); i++)
		if (w->series[i].tolerance)
			return 1;
	return 0;
}

int apod_verify(const void *params, const struct apod_run *want, const struct apod_run *got,
                struct apod_verdict *v)
{
	const struct apod_workload *w = want->w;
	int any_float = !strcmp(apod_run_precision(want), "float") ||
	                !strcmp(apod_run_precision(got), "float");
	const void *problem = got->problem ? got->problem : want->problem;
	void *made = NULL;
	memset(v, 0, sizeof *v);
	v->shape_ok = want->w == got->w && want->steps == got->steps &&
	              want->narrays == got->narrays && want->nseries == got->nseries &&
	              want->narrays + want->nseries <= APOD_MAX_OUTPUTS;
	for (int a = 0; v->shape_ok && a < want->narrays; a++)
		v->shape_ok = want->arrays[a].count == got->arrays[a].count;
	for (int i = 0; v->shape_ok && i < want->nseries; i++)
		v->shape_ok = want->series[i].rows == got->series[i].rows &&
		              want->series[i].cols == got->series[i].cols &&
		              want->series[i].dtype == got->series[i].dtype;
	if (!v->shape_ok)
		return v->ok = 0;
	/* A run read back from its files holds no problem: make one from the
	 * deck, as the stages started from. */
	if (!problem && needs_problem(w)) {
		if (!(problem = made = w->problem_create(params))) {
			snprintf(v->problem_failed, sizeof v->problem_failed, "%s", apod_failure());
			return v->ok = 0;
		}
	}
	v->ok = 1;
	for (int a = 0; a < want->narrays; a++) {
		struct apod_output_verdict *o = &v->out[v->n++];
		o->name = w->arrays[a].name;
		o->is_array = 1;
		o->compare = w->arrays[a].compare;
		compare_array(&w->arrays[a], params, problem, any_float, &want->arrays[a],
		              &got->arrays[a], o);
		v->ok &= o->ok;
	}
	for (int i = 0; i < want->nseries; i++) {
		struct apod_output_verdict *o = &v->out[v->n++];
		o->name = w->series[i].name;
		o->compare = w->series[i].compare;
		compare_series(&w->series[i], params, problem, any_float, &want->series[i],
		               &got->series[i], o);
		v->ok &= o->ok;
	}
	if (made)
		w->problem_destroy(made);
	return v->ok;
}

int apod_verdict_worst(const struct apod_verdict *v)
{
	int worst = -1;
	for (int i = 0; i < v->n; i++) {
		double r = isnan(v->out[i].of_tol) ? INFINITY : v->out[i].of_tol;
		if (v->out[i].ndiffer &&
		    (worst < 0 || r > (isnan(v->out[worst].of_tol) ? INFINITY : v->out[worst].of_tol)))
			worst = i;
	}
	return worst;
}

/* The worst difference of o, as the table's column shows it: ulps only
 * where they are what the tolerance counts or the relative term decides. */
static void worst_figure(const struct apod_output_verdict *o, char *buf, size_t len)
{
	if (o->compare == APOD_COMPARE_COUNTS)
		snprintf(buf, len, "moved %.2g", o->max_frac);
	else if (o->integer)
		snprintf(buf, len, "max %llu", o->max_iabs);
	else if (o->compare == APOD_COMPARE_DRIFT)
		snprintf(buf, len, "drift %.2g", o->max_abs);
	else if (o->compare == APOD_COMPARE_ULP || (o->max_ulp > 0 && !o->ulp_absolute))
		snprintf(buf, len, "max %.2g, %lld ulp", o->max_abs, o->max_ulp);
	else
		snprintf(buf, len, "max %.2g", o->max_abs);
}

void apod_verdict_line(const struct apod_verdict *v, char *buf, size_t len)
{
	size_t used;
	int worst = apod_verdict_worst(v);
	char fig[64];
	if (!v->shape_ok) {
		snprintf(buf, len, "FAIL (different shapes)");
		return;
	}
	if (v->problem_failed[0]) {
		snprintf(buf, len, "FAIL (no problem for the tolerances)");
		return;
	}
	if (v->ok) {
		if (worst < 0) {
			snprintf(buf, len, "PASS (bitwise)");
			return;
		}
		worst_figure(&v->out[worst], fig, sizeof fig);
		snprintf(buf, len, "PASS (worst: %s, %s, %.2g of tol)", v->out[worst].name, fig,
		         v->out[worst].of_tol);
		return;
	}
	used = (size_t)snprintf(buf, len, "FAIL (");
	for (int i = 0; i < v->n && used < len; i++)
		if (!v->out[i].ok)
			used += (size_t)snprintf(buf + used, len - used, "%s ", v->out[i].name);
	if (used < len && used > 0 && buf[used - 1] == ' ')
		used--;
	/* How far out the worst went, where its tolerance allowed anything. */
	if (used < len && worst >= 0 && isfinite(v->out[worst].of_tol))
		used += (size_t)snprintf(buf + used, len - used, "; worst: %s, %.2gx tol",
		                         v->out[worst].name, v->out[worst].of_tol);
	if (used < len)
		snprintf(buf + used, len - used, ")");
}

static const char *compare_name(enum apod_compare c)
{
	static const char *const names[] = { "exact", "abs+rel", "ulp", "counts", "drift" };
	return (unsigned)c < sizeof names / sizeof names[0] ? names[c] : "?";
}

/* How close the worst value came to its tolerance, for verify's line. */
static void of_tol_note(const struct apod_output_verdict *o, char *buf, size_t len)
{
	buf[0] = '\0';
	if (o->ndiffer && isfinite(o->of_tol))
		snprintf(buf, len, "; the worst used %.2g of its tolerance", o->of_tol);
}

void apod_verdict_print(FILE *f, const struct apod_verdict *v, const struct apod_run *r)
{
	int nw = 11;   /* the name column: the longest output name, at least 11 */
	if (!v->shape_ok) {
		fprintf(f, "FAIL: the two runs differ in the shape of their outputs\n");
		return;
	}
	if (v->problem_failed[0]) {
		fprintf(f, "FAIL: the tolerances are designed from the problem, which could not be "
		        "made: %s\n", v->problem_failed);
		return;
	}
	for (int i = 0; i < v->n; i++)
		if ((int)strlen(v->out[i].name) > nw)
			nw = (int)strlen(v->out[i].name);
	for (int i = 0; i < v->n; i++) {
		const struct apod_output_verdict *o = &v->out[i];
		const struct apod_tol *t = &o->tol;
		int dg = o->digits;
		char used[64];
		fprintf(f, "%-*s %s  %s: ", nw, o->name, o->ok ? "ok  " : "FAIL", compare_name(o->compare));
		if (!o->is_array && o->step_row >= 0)
			fprintf(f, "row %ld (line %ld of %s.csv): step %ld here, %ld in the reference; ",
			        o->step_row + 1, o->step_row + 2, o->name, o->step_got, o->step_want);
		of_tol_note(o, used, sizeof used);
		if (o->compare == APOD_COMPARE_COUNTS) {
			fprintf(f, "%zu of %zu counts differ; max moved fraction %.3g (step %ld, tol %.3g)%s\n",
			        o->ndiffer, o->n, o->max_frac, o->worst_step, t->frac, used);
			continue;
		}
		if (o->integer) {
			apod_verdict_print_ints(f, o, nw, o->is_array ? &r->arrays[i] : NULL, used);
			continue;
		}
		if (o->compare == APOD_COMPARE_DRIFT) {
			fprintf(f, "max drift %.3g (step %ld, column %d, tol %.3g + %.3g*|first|)%s\n",
			        o->max_abs, o->worst_step, o->worst_col, t->atol, t->rtol, used);
			continue;
		}
		fprintf(f, "%zu of %zu values differ, %zu outside the tolerance", o->ndiffer, o->n, o->nbad);
		if (o->compare == APOD_COMPARE_ULP)
			fprintf(f, " (%lld ulp)%s\n", t->ulps, used);
		else if (o->compare == APOD_COMPARE_CLOSE)
			fprintf(f, " (|d| <= %.3g + %.3g*|ref|)%s\n", t->atol, t->rtol, used);
		else
			fprintf(f, "%s\n", used);
		if (o->is_array) {
			const struct apod_array_data *a = &r->arrays[i];
			fprintf(f, "%*s max |d| %.6g, relative L2 %.3g, max %lld ulp (%s grid)%s\n", nw, "",
			        o->max_abs, o->rel_l2, o->max_ulp, o->ulp_double ? "double" : "float",
			        o->max_ulp > 0 && o->ulp_absolute ? ", where the absolute term of the "
			        "tolerance decides: no loss of precision in itself" : "");
			if (o->ndiffer && a->ndim == 2)
				fprintf(f, "%*s worst (row %zu, col %zu): expected %.*g, got %.*g\n", nw, "",
				        o->worst / a->dims[1], o->worst % a->dims[1], dg, o->worst_want, dg,
				        o->worst_got);
			else if (o->ndiffer)
				fprintf(f, "%*s worst (index %zu): expected %.*g, got %.*g\n", nw, "", o->worst,
				        dg, o->worst_want, dg, o->worst_got);
		} else if (o->ndiffer)
			fprintf(f, "%*s max |d| %.3g at step %ld, column %d: expected %.*g, got %.*g "
			        "(tol %.3g + %.3g*|ref|)\n", nw, "", o->max_abs, o->worst_step, o->worst_col,
			        dg, o->worst_want, dg, o->worst_got, t->atol, t->rtol);
	}
	fprintf(f, "%s\n", v->ok ? "PASS" : "FAIL");
}
