/*
 * verify.c: compare two runs under designed tolerances.
 *
 * The reasoning behind each number is in doc/verification.md; in short:
 * with alpha <= 1/4 every update is a convex combination, so the difference
 * between two implementations cannot grow from step to step except by what
 * each step's own rounding adds, at most about 10 units of roundoff of the
 * largest temperature.  After T steps cells may differ by 10*T*u*scale.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "verify.h"

/* Roundings one cell update can contribute, in units of u*scale, for two
 * implementations together (5 each; see doc/verification.md). */
#define UPDATE_ROUNDING 10.0

void apod_tolerance_design(struct apod_tolerance *t, const struct apod_deck *d, int any_float)
{
	double u = any_float ? FLT_EPSILON / 2 : DBL_EPSILON / 2;
	double scale = apod_deck_scale(d);
	double range = apod_deck_tmax(d) - apod_deck_tmin(d);
	double lo = d->hist_range_set ? d->hist_lo : apod_deck_tmin(d);
	double hi = d->hist_range_set ? d->hist_hi : apod_deck_tmax(d);
	double width = (hi - lo) / d->hist_bins;

	if (scale == 0)
		scale = 1;
	t->unit = u;
	t->atol = UPDATE_ROUNDING * (double)d->steps * u * scale;
	/* The last rounding of a value that is otherwise right. */
	t->rtol = 2 * u;
	/* A mean, minimum or maximum of values each within atol is within atol;
	 * the double sums add a relative 1e-12 at most at these sizes. */
	t->moment_atol = t->atol + 1e-12 * scale;
	/* var = mean((x - mean)^2): moving each x, and so the mean, by at most
	 * atol moves each deviation by at most 2*atol and its square by at most
	 * 4*range*atol + 4*atol^2.  The tight bound is smaller (the mean's move
	 * cancels to first order); 4*range*atol dominates the atol^2 terms. */
	t->var_atol = 4 * range * t->atol + 2 * t->atol * t->atol + 1e-12 * scale * scale;
	/* A cell changes bin only if it lies within atol of an edge.  With a
	 * density up to 4 times uniform near edges that is at most 4*2*atol/width
	 * of the cells, each moving one count out of a bin and into another. */
	t->hist_l1_frac = fmin(1.0, 2 * 4 * 2 * t->atol / width);
	t->zone_atol = t->moment_atol;
}

void apod_compare_field(const apod_real *want, const apod_real *got, size_t n,
                        const struct apod_tolerance *t, struct apod_field_diff *out)
{
	double num = 0, den = 0;
	memset(out, 0, sizeof *out);
	out->n = n;
	for (size_t i = 0; i < n; i++) {
		double w = (double)want[i], g = (double)got[i], d = fabs(g - w);
		long long ulp;
		if (w != g || isnan(w) != isnan(g))
			out->ndiffer++;
		if (!apod_within(w, g, t->atol, t->rtol))
			out->nbad++;
		if (d > out->max_abs || (isnan(d) && !isnan(out->max_abs))) {
			out->max_abs = d;
			out->worst = i;
			out->worst_want = w;
			out->worst_got = g;
		}
		ulp = apod_ulp_distance(w, g);
		if (ulp > out->max_ulp)
			out->max_ulp = ulp;
		num += (g - w) * (g - w);
		den += w * w;
	}
	out->rel_l2 = den > 0 ? sqrt(num / den) : sqrt(num);
}

static void track(double d, long step, double *max, long *at)
{
	if (d > *max || (isnan(d) && !isnan(*max))) {
		*max = d;
		*at = step;
	}
}

int apod_verify(const struct apod_run *want, const struct apod_run *got,
                const struct apod_tolerance *t, struct apod_verdict *v)
{
	memset(v, 0, sizeof *v);
	v->shape_ok = want->nx == got->nx && want->ny == got->ny && want->steps == got->steps &&
	              want->nbins == got->nbins && want->nzones == got->nzones &&
	              want->nsummaries == got->nsummaries;
	if (!v->shape_ok)
		return v->ok = 0;

	apod_compare_field(want->field, got->field, want->nx * want->ny, t, &v->field);
	v->field_ok = v->field.nbad == 0;

	for (long s = 0; s < want->steps; s++) {
		const struct apod_moments *a = &want->moments[s], *b = &got->moments[s];
		const unsigned *ha = want->hist + (size_t)s * (size_t)want->nbins;
		const unsigned *hb = got->hist + (size_t)s * (size_t)got->nbins;
		double l1 = 0;
		long long ca = 0, cb = 0;
		track(fabs(a->mean - b->mean), s + 1, &v->max_dmoment, &v->max_dmoment_step);
		track(fabs(a->min - b->min), s + 1, &v->max_dmoment, &v->max_dmoment_step);
		track(fabs(a->max - b->max), s + 1, &v->max_dmoment, &v->max_dmoment_step);
		track(fabs(apod_moments_variance(a) - apod_moments_variance(b)), s + 1, &v->max_dvar,
		      &v->max_dvar_step);
		for (int k = 0; k < want->nbins; k++) {
			l1 += fabs((double)ha[k] - (double)hb[k]);
			ca += ha[k];
			cb += hb[k];
		}
		/* Every cell lands in exactly one bin: a lost or doubled count is a bug
		 * whatever the tolerance. */
		if (ca != cb || ca != (long long)(want->nx * want->ny))
			l1 = INFINITY;
		track(l1 / (double)(want->nx * want->ny), s + 1, &v->max_hist_l1, &v->max_hist_step);
	}
	v->stats_ok = v->max_dmoment <= t->moment_atol && v->max_dvar <= t->var_atol;
	v->hist_ok = v->max_hist_l1 <= t->hist_l1_frac;

	v->zones_ok = 1;
	for (long k = 0; k < want->nsummaries; k++) {
		if (want->summary_step[k] != got->summary_step[k])
			v->zones_ok = 0;
		for (int z = 0; z < want->nzones; z++) {
			size_t i = (size_t)k * (size_t)want->nzones + (size_t)z;
			double d = fabs(want->zones[i] - got->zones[i]);
			if (d > v->max_dzone || isnan(d))
				v->max_dzone = d;
		}
	}
	if (!(v->max_dzone <= t->zone_atol))
		v->zones_ok = 0;
	v->ok = v->field_ok && v->stats_ok && v->hist_ok && v->zones_ok;
	return v->ok;
}

void apod_verdict_line(const struct apod_verdict *v, char *buf, size_t len)
{
	if (!v->shape_ok) {
		snprintf(buf, len, "FAIL (different shapes)");
		return;
	}
	if (v->ok) {
		if (v->field.ndiffer == 0)
			snprintf(buf, len, "PASS (bitwise)");
		else
			snprintf(buf, len, "PASS (max %.2g, %lld ulp)", v->field.max_abs, v->field.max_ulp);
		return;
	}
	snprintf(buf, len, "FAIL (%s%s%s%s)", v->field_ok ? "" : "field ",
	         v->stats_ok ? "" : "stats ", v->hist_ok ? "" : "histogram ",
	         v->zones_ok ? "" : "zones");
}

void apod_verdict_print(FILE *f, const struct apod_verdict *v, const struct apod_tolerance *t,
                        size_t nx)
{
	const struct apod_field_diff *d = &v->field;
	if (!v->shape_ok) {
		fprintf(f, "FAIL: the two runs differ in grid, steps, bins or zones\n");
		return;
	}
	fprintf(f, "field       %s  %zu of %zu cells differ, %zu outside |d| <= %.3g + %.3g*|ref|\n",
	        v->field_ok ? "ok  " : "FAIL", d->ndiffer, d->n, d->nbad, t->atol, t->rtol);
	fprintf(f, "            max |d| %.6g, relative L2 %.3g, max %lld ulp (float grid)\n",
	        d->max_abs, d->rel_l2, d->max_ulp);
	if (d->ndiffer)
		fprintf(f, "            worst cell (row %zu, col %zu): expected %.9g, got %.9g\n",
		        d->worst / nx, d->worst % nx, d->worst_want, d->worst_got);
	fprintf(f, "statistics  %s  max |d| mean/min/max %.3g (step %ld, tol %.3g), "
	        "variance %.3g (step %ld, tol %.3g)\n", v->stats_ok ? "ok  " : "FAIL",
	        v->max_dmoment, v->max_dmoment_step, t->moment_atol, v->max_dvar, v->max_dvar_step,
	        t->var_atol);
	fprintf(f, "histogram   %s  max moved fraction %.3g (step %ld, tol %.3g)\n",
	        v->hist_ok ? "ok  " : "FAIL", v->max_hist_l1, v->max_hist_step, t->hist_l1_frac);
	fprintf(f, "zones       %s  max |d| %.3g (tol %.3g)\n", v->zones_ok ? "ok  " : "FAIL",
	        v->max_dzone, t->zone_atol);
	fprintf(f, "%s\n", v->ok ? "PASS" : "FAIL");
}
