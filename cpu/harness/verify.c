/*
 * verify.c: compare two runs output by output, under the tolerances the
 * workload designs (a workload's own documentation explains its factors).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shared/compare.h"
#include "dtype.h"
#include "fail.h"
#include "verify.h"

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

/* The tolerance of an output for the comparison `kind` (its compare, or
 * its beyond past the horizon); zero where it has no hook (EXACT). */
/* What an output is judged with: the workload's hooks, the deck and the
 * problem, and which output it is. */
struct judge {
	const struct apod_workload *w;
	const void *params, *problem;
	const char *output;
	apod_tolerance_fn tolerance;     /* the output's own */
	int any_float;
};

/* The workload's tolerance_at (revision 5), which sees the row it judges,
 * where it has one; else the output's own tolerance. */
static int per_row(const struct judge *j)
{
	return j->w->version >= 5 && j->w->tolerance_at;
}

static void tol_at(const struct judge *j, long step, long row, int column, enum apod_compare kind,
                   struct apod_tol *t)
{
	memset(t, 0, sizeof *t);
	if (per_row(j))
		j->w->tolerance_at(j->params, j->problem, j->output, step, row, j->any_float, column,
		                   kind, t);
	else if (j->tolerance)
		j->tolerance(j->params, j->problem, j->any_float, column, kind, t);
}

/* The largest whole difference an absolute tolerance allows. */
static apod_wide allowed(double atol)
{
	if (!(atol >= 0))
		return 0;
	if (atol >= 18446744073709551616.0)   /* 2^64: more than any two values differ by */
		return (apod_wide)1 << 64;
	return (apod_wide)(unsigned long long)atol;
}

/* The worst integer values so far, as text: exact where a double is not. */
static void worst_value(struct apod_output_verdict *o, enum apod_dtype t, const void *want,
                        const void *got, size_t i, const struct apod_tol *tol)
{
	apod_int_format(o->iwant, sizeof o->iwant, want, t, i);
	apod_int_format(o->igot, sizeof o->igot, got, t, i);
	o->tol = *tol;
}

/* The gate on integers: n values of want and got compared under c, the
 * value at flat index i held to tols[i % ntols]; o's counts and worst value
 * are updated, and *worst is the index of the largest difference. */
static void verify_ints(struct apod_output_verdict *o, enum apod_compare c, enum apod_dtype t,
                        const void *want, const void *got, size_t n, const struct apod_tol *tols,
                        size_t ntols, size_t *worst)
{
	o->integer = 1;
	for (size_t i = 0; i < n; i++) {
		const struct apod_tol *tol = &tols[i % ntols];
		apod_wide d = apod_int_at(got, t, i) - apod_int_at(want, t, i);
		unsigned long long ad = (unsigned long long)(d < 0 ? -d : d);
		o->n++;
		o->ndiffer += d != 0;
		if (d != 0 && (c != APOD_COMPARE_CLOSE || (apod_wide)ad > allowed(tol->atol)))
			o->nbad++;
		if (d != 0) {
			double most = c == APOD_COMPARE_CLOSE ? (double)allowed(tol->atol) : 0;
			double r = most > 0 ? (double)ad / most : INFINITY;
			if (r > o->of_tol)
				o->of_tol = r;
		}
		if (ad > o->max_iabs || o->n == 1) {
			o->max_iabs = ad;
			*worst = i;
			worst_value(o, t, want, got, i, tol);
		}
	}
	o->max_abs = (double)o->max_iabs;
}

/* COUNTS on integer rows: each row's totals equal on both sides (and equal
 * tol->total where it is set), and the moved fraction within tol->frac.
 * *worst_row is the row of the largest moved fraction. */
static void verify_int_counts(struct apod_output_verdict *o, enum apod_dtype t, const void *want,
                              const void *got, long rows, int cols, const struct apod_tol *tol,
                              long *worst_row)
{
	o->integer = 1;
	o->tol = *tol;
	for (long k = 0; k < rows; k++) {
		apod_wide l1 = 0, ca = 0, cb = 0;
		double frac;
		for (int c = 0; c < cols; c++) {
			size_t i = (size_t)k * (size_t)cols + (size_t)c;
			apod_wide a = apod_int_at(want, t, i), b = apod_int_at(got, t, i);
			o->ndiffer += a != b;
			l1 += a > b ? a - b : b - a;
			ca += a;
			cb += b;
			o->n++;
		}
		/* Every item lands in exactly one bin: a lost or doubled count is a
		 * bug whatever the tolerance. */
		if (ca != cb || (tol->total > 0 && (double)ca != tol->total))
			frac = INFINITY;
		else
			frac = (double)l1 / (tol->total > 0 ? tol->total : (ca > 0 ? (double)ca : 1));
		if (frac > o->max_frac || k == 0) {
			o->max_frac = frac;
			*worst_row = k;
		}
	}
	o->ok = o->max_frac <= tol->frac;
	o->of_tol = apod_counts_of_tol(o->max_frac, tol->frac);
}

void apod_int_moments(const void *data, enum apod_dtype t, size_t first, size_t stride, size_t n,
                      double *mean, double *sd)
{
	apod_wide sum = 0, wn = (apod_wide)n;
	double m2 = 0;
	*mean = *sd = 0;
	if (!n)
		return;
	for (size_t k = 0; k < n; k++)
		sum += apod_int_at(data, t, first + k * stride);
	/* x - sum/n = (n x - sum) / n: the numerator is exact (|n x| < 2^126). */
	for (size_t k = 0; k < n; k++) {
		double d = (double)(wn * apod_int_at(data, t, first + k * stride) - sum) / (double)n;
		m2 += d * d;
	}
	/* The whole part and the remainder apart: one rounding, not two. */
	*mean = (double)(sum / wn) + (double)(sum % wn) / (double)n;
	*sd = sqrt(m2 / (double)n);
}

/* The mean and the spread (standard deviation over n) of the n values of
 * data at first, first + stride, ...: two passes in double, the same code
 * for both runs, so that only the values can tell them apart. */
static void moments(const void *data, enum apod_dtype t, size_t first, size_t stride, size_t n,
                    double *mean, double *sd)
{
	double sum = 0, m2 = 0;
	if (apod_dtype_integer(t)) {
		apod_int_moments(data, t, first, stride, n, mean, sd);
		return;
	}
	for (size_t k = 0; k < n; k++)
		sum += apod_value_at(data, t, first + k * stride);
	*mean = n ? sum / (double)n : 0;
	for (size_t k = 0; k < n; k++) {
		double d = apod_value_at(data, t, first + k * stride) - *mean;
		m2 += d * d;
	}
	*sd = n ? sqrt(m2 / (double)n) : 0;
}

/* STATS on n values of want and got (at first, first + stride, ...), held
 * to t: the mean and the spread each within atol + rtol*|want's|.  The
 * worst statistic is the one that used the most of its tolerance. */
static void compare_stats(struct apod_output_verdict *o, int column, const void *want,
                          enum apod_dtype tw, const void *got, enum apod_dtype tg, size_t first,
                          size_t stride, size_t n, const struct apod_tol *t)
{
	double w[2], g[2];
	moments(want, tw, first, stride, n, &w[0], &w[1]);
	moments(got, tg, first, stride, n, &g[0], &g[1]);
	for (int s = 0; s < 2; s++) {
		double r = of_tolerance(APOD_COMPARE_CLOSE, w[s], g[s], t);
		o->nbad += bad(APOD_COMPARE_CLOSE, w[s], g[s], t);
		if (o->nstats++ == 0 || r > o->of_tol) {
			o->of_tol = r;
			o->worst_col = column;
			o->worst_stat = s;
			o->worst_want = w[s];
			o->worst_got = g[s];
			o->max_abs = fabs(g[s] - w[s]);
			o->tol = *t;
		}
	}
	/* What differs value by value, which the statistics may forgive. */
	for (size_t k = 0; k < n; k++) {
		size_t i = first + k * stride;
		if (apod_dtype_integer(tw))
			o->ndiffer += apod_int_at(want, tw, i) != apod_int_at(got, tg, i);
		else {
			double a = apod_value_at(want, tw, i), b = apod_value_at(got, tg, i);
			o->ndiffer += a != b && !(isnan(a) && isnan(b));
		}
		o->n++;
	}
}

/* An array: the values at the end of the run, its last step (row 0). */
static void compare_array(const struct judge *j, long step, enum apod_compare kind,
                          const struct apod_array_data *want, const struct apod_array_data *got,
                          struct apod_output_verdict *o)
{
	struct apod_tol t;
	double num = 0, den = 0;
	o->ulp_double = want->dtype == APOD_F64 && got->dtype == APOD_F64;
	o->digits = want->dtype == APOD_F64 || got->dtype == APOD_F64 ? 17 : 9;
	tol_at(j, step, 0, 0, kind, &t);
	if ((apod_dtype_integer(want->dtype) || apod_dtype_integer(got->dtype)) &&
	    want->dtype != got->dtype) {
		o->n = o->nbad = o->ndiffer = want->count;
		o->of_tol = INFINITY;
		o->ok = 0;
		return;
	}
	if (kind == APOD_COMPARE_STATS) {
		o->integer = apod_dtype_integer(want->dtype);
		o->digits = o->integer ? 17 : o->digits;
		compare_stats(o, 0, want->data, want->dtype, got->data, got->dtype, 0, 1, want->count,
		              &t);
		o->ok = o->nbad == 0;
		return;
	}
	if (apod_dtype_integer(want->dtype)) {
		verify_ints(o, kind, want->dtype, want->data, got->data, want->count, &t, 1, &o->worst);
		o->ok = o->nbad == 0;
		return;
	}
	for (size_t i = 0; i < want->count; i++) {
		double w = apod_value_at(want->data, want->dtype, i);
		double g = apod_value_at(got->data, got->dtype, i);
		double before = o->max_abs;
		note(o, kind, w, g, &t);
		if (o->max_abs != before || i == 0)
			o->worst = i;
		num += (g - w) * (g - w);
		den += w * w;
	}
	o->tol = t;
	o->rel_l2 = den > 0 ? sqrt(num / den) : sqrt(num);
	o->ok = o->nbad == 0;
}

/* COUNTS on rows r0 .. r1-1. */
static void compare_counts(const struct apod_tol *t, const struct apod_series_data *want,
                           const struct apod_series_data *got, long r0, long r1,
                           struct apod_output_verdict *o)
{
	if (apod_dtype_integer(want->dtype)) {
		long row = 0;
		verify_int_counts(o, want->dtype, apod_series_row(want, r0), apod_series_row(got, r0),
		                  r1 - r0, want->cols, t, &row);
		o->worst_step = r1 > r0 ? want->step[r0 + row] : 0;
		return;
	}
	o->tol = *t;
	o->ok = 1;
	for (long k = r0; k < r1; k++) {
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
		if (ca != cb || (t->total > 0 && ca != t->total))
			l1 = INFINITY;
		frac = l1 / (t->total > 0 ? t->total : (ca > 0 ? ca : 1));
		if (frac > o->max_frac || isnan(frac) || k == r0) {
			o->max_frac = frac;
			o->worst_step = want->step[k];
		}
	}
	o->ok = o->max_frac <= t->frac;
	o->of_tol = apod_counts_of_tol(o->max_frac, t->frac);
}

/* An invariant: each run on its own keeps rows r0 .. r1-1 near its first
 * row (the step-0 row where the probe runs APOD_AT_START), whatever part
 * of the series is being compared. */
static void check_drift(const struct apod_tol *t, const struct apod_series_data *d, long r0,
                        long r1, struct apod_output_verdict *o)
{
	for (int c = 0; c < d->cols; c++)
		for (long k = r0 > 0 ? r0 : 1; k < r1; k++) {
			double x0 = apod_series_value(d, (size_t)c);
			double x = apod_series_value(d, (size_t)k * (size_t)d->cols + (size_t)c);
			double before = o->max_abs;
			note(o, APOD_COMPARE_CLOSE, x0, x, t);
			if (o->max_abs != before) {
				o->worst_step = d->step[k];
				o->worst_col = c;
			}
		}
}

/* Rows r0 .. r1-1 of a series, under the comparison `kind`.  A comparison
 * of whole rows or of statistics over the rows (counts, drift, stats) asks
 * for one tolerance, at the last row it covers; a comparison value by value
 * asks for each row's (with tolerance_at) or each column's. */
static void compare_series(const struct judge *j, enum apod_compare kind,
                           const struct apod_series_data *want,
                           const struct apod_series_data *got, long r0, long r1,
                           struct apod_output_verdict *o)
{
	struct apod_tol *tol, t;
	size_t first = (size_t)r0 * (size_t)want->cols, nvalues = (size_t)(r1 - r0) * (size_t)want->cols;
	size_t ntol = per_row(j) ? (nvalues ? nvalues : 1) : (size_t)want->cols;
	long last = r1 > r0 ? r1 - 1 : r0, last_step = r1 > r0 ? want->step[r1 - 1] : 0;
	int steps_ok = 1;
	o->digits = 17;   /* a series is written as doubles, whatever the build */
	o->rows = r1 - r0;
	/* Rows are compared by position: a row of another step is a failure
	 * whatever its values, and the report says which row. */
	o->step_row = -1;
	for (long k = r0; steps_ok && k < r1; k++)
		if (want->step[k] != got->step[k]) {
			steps_ok = 0;
			o->step_row = k;
			o->step_want = want->step[k];
			o->step_got = got->step[k];
		}
	if (kind == APOD_COMPARE_COUNTS || kind == APOD_COMPARE_DRIFT) {
		/* Whole rows: one tolerance, asked for column 0. */
		tol_at(j, last_step, last, 0, kind, &t);
		if (kind == APOD_COMPARE_COUNTS) {
			compare_counts(&t, want, got, r0, r1, o);
			o->ok &= steps_ok;
			return;
		}
		check_drift(&t, want, r0, r1, o);
		check_drift(&t, got, r0, r1, o);
		/* What differs between the two runs, apart from each one's drift. */
		o->n = nvalues;
		o->ndiffer = 0;
		for (size_t i = first; i < first + nvalues; i++)
			o->ndiffer += apod_series_value(want, i) != apod_series_value(got, i);
		o->ok = o->nbad == 0 && steps_ok;
		return;
	}
	if (kind == APOD_COMPARE_STATS) {
		o->integer = apod_dtype_integer(want->dtype);
		for (int c = 0; c < want->cols; c++) {
			tol_at(j, last_step, last, c, kind, &t);
			compare_stats(o, c, want->values, want->dtype, got->values, got->dtype,
			              first + (size_t)c, (size_t)want->cols, (size_t)(r1 - r0), &t);
		}
		o->ok = o->nbad == 0 && steps_ok;
		return;
	}
	/* Value i of the rows compared is held to tol[i % ntol]. */
	tol = calloc(ntol + 1, sizeof *tol);
	for (size_t i = 0; tol && i < ntol && want->cols > 0; i++) {
		long k = r0 + (long)(i / (size_t)want->cols);
		tol_at(j, k < r1 ? want->step[k] : 0, k, (int)(i % (size_t)want->cols), kind, &tol[i]);
	}
	if (tol && apod_dtype_integer(want->dtype)) {
		size_t worst = 0;
		verify_ints(o, kind, want->dtype, apod_series_row(want, r0), apod_series_row(got, r0),
		            nvalues, tol, ntol > 0 ? ntol : 1, &worst);
		if (want->cols > 0 && r1 > r0) {
			o->worst_step = want->step[r0 + (long)(worst / (size_t)want->cols)];
			o->worst_col = (int)(worst % (size_t)want->cols);
		}
		o->ok = o->nbad == 0 && steps_ok;
		free(tol);
		return;
	}
	for (long k = r0; tol && k < r1; k++)
		for (int c = 0; c < want->cols; c++) {
			size_t i = (size_t)k * (size_t)want->cols + (size_t)c;
			double before = o->max_abs;
			note(o, kind, want->v[i], got->v[i], &tol[(i - first) % ntol]);
			if (o->max_abs != before || o->n == 1) {
				o->worst_step = want->step[k];
				o->worst_col = c;
			}
		}
	o->ok = tol && o->nbad == 0 && steps_ok;
	free(tol);
}

/* An output's horizon, or 0 for none: the workload's horizon_of
 * (revision 5), which sees the problem, where it has one; else the
 * output's own horizon under params. */
static long horizon_of(const struct judge *j, apod_horizon_fn fn)
{
	long h;
	if (j->w->version >= 5 && j->w->horizon_of)
		h = j->w->horizon_of(j->params, j->problem, j->output);
	else
		h = fn ? fn(j->params) : 0;
	return h > 0 ? h : 0;
}

/* How an output is compared past its horizon: its beyond, or its
 * statistics where horizon_of gave a horizon to an output that says
 * nothing of what comes past it. */
static enum apod_compare beyond(enum apod_compare b)
{
	return b == APOD_COMPARE_EXACT ? APOD_COMPARE_STATS : b;
}

static struct apod_output_verdict *part(struct apod_verdict *v, const char *name, int is_array,
                                        int index, enum apod_compare kind, long horizon, int past)
{
	struct apod_output_verdict *o = &v->out[v->n++];
	o->name = name;
	o->is_array = is_array;
	o->index = index;
	o->compare = kind;
	o->horizon = horizon;
	o->past = past;
	return o;
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
	 * deck, as the stages started from, since any tolerance may read it. */
	if (!problem && w->problem_create) {
		if (!(problem = made = w->problem_create(params))) {
			snprintf(v->problem_failed, sizeof v->problem_failed, "%s", apod_failure());
			return v->ok = 0;
		}
	}
	v->ok = 1;
	for (int a = 0; a < want->narrays; a++) {
		const struct apod_array *d = &w->arrays[a];
		struct judge j = { w, params, problem, d->name, d->tolerance, any_float };
		long h = horizon_of(&j, d->horizon);
		/* An array holds the last step's values: past the horizon, or not. */
		int past = h > 0 && want->steps > h;
		struct apod_output_verdict *o = part(v, d->name, 1, a, past ? beyond(d->beyond) : d->compare,
		                                     h, past);
		compare_array(&j, want->steps, o->compare, &want->arrays[a], &got->arrays[a], o);
		v->ok &= o->ok;
	}
	for (int i = 0; i < want->nseries; i++) {
		const struct apod_series *d = &w->series[i];
		const struct apod_series_data *sw = &want->series[i];
		struct judge j = { w, params, problem, d->name, d->tolerance, any_float };
		long h = horizon_of(&j, d->horizon), split = sw->rows;
		if (h > 0)
			for (split = 0; split < sw->rows && sw->step[split] <= h; split++)
				;
		/* Rows up to the horizon by compare, the rest by beyond; a part
		 * with no rows is left out, unless the series has none at all. */
		if (split > 0 || sw->rows == 0) {
			struct apod_output_verdict *o = part(v, d->name, 0, i, d->compare, h, 0);
			compare_series(&j, o->compare, sw, &got->series[i], 0, split, o);
			v->ok &= o->ok;
		}
		if (split < sw->rows) {
			struct apod_output_verdict *o = part(v, d->name, 0, i, beyond(d->beyond), h, 1);
			compare_series(&j, o->compare, sw, &got->series[i], split, sw->rows, o);
			v->ok &= o->ok;
		}
	}
	if (made)
		w->problem_destroy(made);
	return v->ok;
}
