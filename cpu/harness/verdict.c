/*
 * verdict.c: a verdict (verify.h) in words: the comparison each output
 * was held to, the one-line summary the table shows, and the full report
 * `apod verify` prints.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "verify.h"

static const char *compare_name(enum apod_compare c)
{
	static const char *const names[] = {
		[APOD_COMPARE_EXACT] = "exact", [APOD_COMPARE_CLOSE] = "abs+rel",
		[APOD_COMPARE_ULP] = "ulp", [APOD_COMPARE_COUNTS] = "counts",
		[APOD_COMPARE_DRIFT] = "drift", [APOD_COMPARE_STATS] = "stats",
	};
	return (unsigned)c < sizeof names / sizeof names[0] && names[c] ? names[c] : "?";
}

void apod_verdict_kind(const struct apod_output_verdict *o, char *buf, size_t len)
{
	if (!o->horizon)
		snprintf(buf, len, "%s", compare_name(o->compare));
	else
		snprintf(buf, len, "%s %s step %ld", compare_name(o->compare), o->past ? "past" : "to",
		         o->horizon);
}

void apod_verdict_label(const struct apod_output_verdict *o, char *buf, size_t len)
{
	char kind[64];
	if (!o->horizon) {
		snprintf(buf, len, "%s", o->name);
		return;
	}
	apod_verdict_kind(o, kind, sizeof kind);
	snprintf(buf, len, "%s (%s)", o->name, kind);
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
	else if (o->compare == APOD_COMPARE_STATS)
		snprintf(buf, len, "%s %.2g", o->worst_stat ? "spread" : "mean", o->max_abs);
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
	char fig[64], name[160];
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
		apod_verdict_label(&v->out[worst], name, sizeof name);
		snprintf(buf, len, "PASS (worst: %s, %s, at %.2gx its tolerance)", name, fig,
		         v->out[worst].of_tol);
		return;
	}
	used = (size_t)snprintf(buf, len, "FAIL (");
	for (int i = 0; i < v->n && used < len; i++)
		if (!v->out[i].ok) {
			apod_verdict_label(&v->out[i], name, sizeof name);
			used += (size_t)snprintf(buf + used, len - used, "%s ", name);
		}
	if (used < len && used > 0 && buf[used - 1] == ' ')
		used--;
	/* How far out the worst went, where its tolerance allowed anything. */
	if (used < len && worst >= 0 && isfinite(v->out[worst].of_tol)) {
		apod_verdict_label(&v->out[worst], name, sizeof name);
		used += (size_t)snprintf(buf + used, len - used, "; worst: %s, %.2gx its tolerance", name,
		                         v->out[worst].of_tol);
	}
	if (used < len)
		snprintf(buf + used, len - used, ")");
}

/* How close the worst value came to its tolerance, for verify's line. */
static void of_tol_note(const struct apod_output_verdict *o, char *buf, size_t len)
{
	buf[0] = '\0';
	if (o->ndiffer && isfinite(o->of_tol))
		snprintf(buf, len, "; the worst used %.2g of its tolerance", o->of_tol);
}

/* STATS: what was summarised, and the statistic that came closest to its
 * tolerance. */
static void print_stats(FILE *f, const struct apod_output_verdict *o, int nw, const char *used)
{
	const struct apod_tol *t = &o->tol;
	const char *stat = o->worst_stat ? "spread" : "mean";
	if (o->is_array)
		fprintf(f, "mean and spread of %zu values: ", o->n);
	else
		fprintf(f, "mean and spread of each column over %ld rows: ", o->rows);
	fprintf(f, "%zu of %zu values differ, %zu of %d statistics outside the tolerance%s\n",
	        o->ndiffer, o->n, o->nbad, o->nstats, used);
	if (!o->nstats || (!o->ndiffer && o->max_abs == 0))
		return;
	if (o->is_array)
		fprintf(f, "%*s worst: the %s", nw, "", stat);
	else
		fprintf(f, "%*s worst: the %s of column %d", nw, "", stat, o->worst_col);
	fprintf(f, ": expected %.*g, got %.*g (|d| %.3g, tol %.3g + %.3g*|ref|)\n", o->digits,
	        o->worst_want, o->digits, o->worst_got, o->max_abs, t->atol, t->rtol);
}

/* An integer output's lines (all but COUNTS and STATS), after its name; a
 * is the array's shape, NULL for a series; note ends the first line. */
static void print_ints(FILE *f, const struct apod_output_verdict *o, int nw,
                       const struct apod_array_data *a, const char *note)
{
	fprintf(f, "%zu of %zu values differ, %zu outside the tolerance", o->ndiffer, o->n, o->nbad);
	if (o->compare == APOD_COMPARE_CLOSE)
		fprintf(f, " (|d| <= %.0f, in integers)%s\n", floor(fmax(o->tol.atol, 0)), note);
	else
		fprintf(f, "%s\n", note);
	if (!o->ndiffer)
		return;
	fprintf(f, "%*s max |d| %llu", nw, "", o->max_iabs);
	if (a && a->ndim == 2)
		fprintf(f, " at (row %zu, col %zu)", o->worst / a->dims[1], o->worst % a->dims[1]);
	else if (a)
		fprintf(f, " at index %zu", o->worst);
	else
		fprintf(f, " at step %ld, column %d", o->worst_step, o->worst_col);
	fprintf(f, ": expected %s, got %s\n", o->iwant, o->igot);
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
		char used[64], kind[64];
		apod_verdict_kind(o, kind, sizeof kind);
		fprintf(f, "%-*s %s  %s: ", nw, o->name, o->ok ? "ok  " : "FAIL", kind);
		if (!o->is_array && o->step_row >= 0)
			fprintf(f, "row %ld (line %ld of %s.csv): step %ld here, %ld in the reference; ",
			        o->step_row + 1, o->step_row + 2, o->name, o->step_got, o->step_want);
		of_tol_note(o, used, sizeof used);
		if (o->compare == APOD_COMPARE_COUNTS) {
			fprintf(f, "%zu of %zu counts differ; max moved fraction %.3g (step %ld, tol %.3g)%s\n",
			        o->ndiffer, o->n, o->max_frac, o->worst_step, t->frac, used);
			continue;
		}
		if (o->compare == APOD_COMPARE_STATS) {
			print_stats(f, o, nw, used);
			continue;
		}
		if (o->integer) {
			print_ints(f, o, nw, o->is_array ? &r->arrays[o->index] : NULL, used);
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
			const struct apod_array_data *a = &r->arrays[o->index];
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
