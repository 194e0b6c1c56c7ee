/*
 * typed.c: integer outputs, kept, written, read back and compared as
 * integers (typed.h).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fail.h"
#include "infile.h"
#include "npy.h"
#include "typed.h"

apod_wide apod_int_at(const void *data, enum apod_dtype t, size_t i)
{
	switch (t) {
	case APOD_I32: return ((const int32_t *)data)[i];
	case APOD_I64: return ((const int64_t *)data)[i];
	case APOD_U64: return ((const uint64_t *)data)[i];
	default: return 0;
	}
}

void apod_int_format(char *buf, size_t len, const void *data, enum apod_dtype t, size_t i)
{
	if (t == APOD_U64)
		snprintf(buf, len, "%" PRIu64, ((const uint64_t *)data)[i]);
	else
		snprintf(buf, len, "%" PRId64, (int64_t)apod_int_at(data, t, i));
}

int apod_int_parse(const char *s, char **end, enum apod_dtype t, void *data, size_t i)
{
	/* Digits only, with a sign for the signed types: strtoull would take
	 * "-1" as 2^64-1, and both would skip spaces. */
	if (!isdigit((unsigned char)s[0]) && !(t != APOD_U64 && s[0] == '-'))
		return -1;
	errno = 0;
	if (t == APOD_U64) {
		unsigned long long u = strtoull(s, end, 10);
		if (errno == ERANGE || u > UINT64_MAX)
			return -1;
		((uint64_t *)data)[i] = (uint64_t)u;
		return 0;
	}
	long long v = strtoll(s, end, 10);
	if (errno == ERANGE || *end == s)
		return -1;
	if (t == APOD_I32) {
		if (v < INT32_MIN || v > INT32_MAX)
			return -1;
		((int32_t *)data)[i] = (int32_t)v;
	} else
		((int64_t *)data)[i] = (int64_t)v;
	return 0;
}

void *apod_series_row(const struct apod_series_data *d, long row)
{
	size_t at = (size_t)row * (size_t)d->cols;
	if (d->iv)
		return (char *)d->iv + at * apod_dtype_size(d->dtype);
	return d->v + at;
}

int apod_series_read_ints(const char *path, struct apod_series_data *d)
{
	/* A regular file only: a FIFO would block (infile.h). */
	FILE *f = apod_infile_fopen(path);
	char *line = NULL, *p, *end;
	size_t cap = 0;
	long row = 0;
	if (!f)
		return -1;
	if (getline(&line, &cap, f) < 0)
		goto malformed;
	while (getline(&line, &cap, f) > 0) {
		long step;
		if (row == d->rows || !isdigit((unsigned char)line[0]))
			goto malformed;
		errno = 0;
		step = strtol(line, &end, 10);
		/* Step 0: a probe's row before the first step (APOD_AT_START). */
		if (errno == ERANGE || step < 0)
			goto malformed;
		d->step[row] = step;
		p = end;
		for (int c = 0; c < d->cols; c++) {
			if (*p++ != ',' ||
			    apod_int_parse(p, &end, d->dtype, d->iv, (size_t)row * (size_t)d->cols + (size_t)c))
				goto malformed;
			p = end;
		}
		if (*p != '\n' && *p != '\0')
			goto malformed;
		row++;
	}
	if (row != d->rows)
		goto malformed;
	free(line);
	fclose(f);
	return 0;
malformed:
	free(line);
	fclose(f);
	return apod_usage_fail("%s: malformed: expected %ld rows of a step and %d whole numbers "
	                       "('%s') after a header", path, d->rows, d->cols,
	                       apod_dtype_descr(d->dtype));
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

static void worst_value(struct apod_output_verdict *o, enum apod_dtype t, const void *want,
                        const void *got, size_t i, const struct apod_tol *tol)
{
	apod_int_format(o->iwant, sizeof o->iwant, want, t, i);
	apod_int_format(o->igot, sizeof o->igot, got, t, i);
	o->tol = *tol;
}

void apod_verify_ints(struct apod_output_verdict *o, enum apod_compare c, enum apod_dtype t,
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

void apod_verify_int_counts(struct apod_output_verdict *o, enum apod_dtype t, const void *want,
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

int apod_series_alloc_values(struct apod_series_data *d, enum apod_dtype t)
{
	size_t n = d->rows ? (size_t)d->rows * (size_t)d->cols : 1;
	d->dtype = apod_dtype_integer(t) ? t : APOD_F64;
	if (apod_dtype_integer(t))
		d->iv = calloc(n, apod_dtype_size(t));
	else
		d->v = calloc(n, sizeof *d->v);
	return d->v || d->iv ? 0 : -1;
}

void apod_series_format(char *buf, size_t len, const struct apod_series_data *d, int whole,
                        size_t i)
{
	if (d->iv)
		apod_int_format(buf, len, d->iv, d->dtype, i);
	else
		snprintf(buf, len, whole ? "%.0f" : "%.17g", d->v[i]);
}

json_object *apod_series_json(const struct apod_series_data *d, size_t i)
{
	if (!d->iv)
		return json_object_new_double(d->v[i]);
	if (d->dtype == APOD_U64)
		return json_object_new_uint64(((const uint64_t *)d->iv)[i]);
	return json_object_new_int64((int64_t)apod_int_at(d->iv, d->dtype, i));
}

void apod_verdict_print_ints(FILE *f, const struct apod_output_verdict *o, int nw,
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
