/*
 * series_csv.c: a series' CSV file, written and read back in the series'
 * own dtype (series_csv.h).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "fail.h"
#include "infile.h"
#include "outfile.h"
#include "series_csv.h"

void apod_series_format(char *buf, size_t len, const struct apod_series_data *d, int digits,
                        size_t i)
{
	if (apod_dtype_integer(d->dtype))
		apod_int_format(buf, len, d->values, d->dtype, i);
	else if (digits > 0)
		snprintf(buf, len, "%.*g", digits, d->v[i]);
	else
		snprintf(buf, len, "%.0f", d->v[i]);
}

int apod_series_csv_write(const char *path, const struct apod_series *s,
                          const struct apod_series_data *d)
{
	struct apod_outfile o;
	/* Counts are whole numbers, written as such. */
	int digits = s->compare == APOD_COMPARE_COUNTS ? 0 : 17;
	if (apod_outfile_open(&o, path))
		return -1;
	fprintf(o.f, "step");
	if (s->column_names)
		fprintf(o.f, ",%s", s->column_names);
	else
		for (int c = 0; c < d->cols; c++)
			fprintf(o.f, ",%s%d", s->column_prefix ? s->column_prefix : "v", c);
	fputc('\n', o.f);
	for (long k = 0; k < d->rows; k++) {
		fprintf(o.f, "%ld", d->step[k]);
		for (int c = 0; c < d->cols; c++) {
			char text[320];   /* %.0f of the largest double: 309 digits */
			apod_series_format(text, sizeof text, d, digits,
			                   (size_t)k * (size_t)d->cols + (size_t)c);
			fprintf(o.f, ",%s", text);
		}
		fputc('\n', o.f);
	}
	return apod_outfile_commit(&o);
}

/* A step number as apod_series_csv_write writes it: decimal digits, then
 * the comma or the line's end.  (Read as a double and cast, nan, inf or
 * 1e300 were undefined behaviour.) */
static int parse_step(const char *p, char **end, long *step)
{
	long long v;
	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	v = strtoll(p, end, 10);
	if (errno == ERANGE || v > LONG_MAX || (**end != ',' && **end != '\n' && **end != '\0'))
		return -1;
	*step = (long)v;
	return 0;
}

/* One integer of dtype t at s into data[i], exactly and in range; *end
 * after it.  0, or -1 where s holds no such value. */
static int parse_int(const char *s, char **end, enum apod_dtype t, void *data, size_t i)
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

/* Value i of d's dtype at p; *end after it. */
static int parse_value(const char *p, char **end, struct apod_series_data *d, size_t i)
{
	if (apod_dtype_integer(d->dtype))
		return parse_int(p, end, d->dtype, d->values, i);
	errno = 0;
	d->v[i] = strtod(p, end);
	return *end == p || errno == ERANGE ? -1 : 0;
}

int apod_series_csv_read(const char *path, struct apod_series_data *d)
{
	FILE *f = apod_infile_fopen(path);   /* a regular file only: a FIFO would block */
	char *line = NULL;
	size_t cap = 0, cols = (size_t)d->cols;
	long row = 0;
	ssize_t len;
	if (!f)
		return -1;
	if (getline(&line, &cap, f) < 0)
		goto malformed;
	while ((len = getline(&line, &cap, f)) > 0) {
		char *p = line, *end;
		if (row == d->rows)
			goto malformed;
		if ((size_t)len != strlen(line))
			goto malformed;   /* a NUL byte inside the line */
		/* Step 0: a probe's row before the first step (APOD_AT_START). */
		if (parse_step(p, &end, &d->step[row])) {
			char shown[4 * 40 + 1];
			size_t n = strcspn(p, ",\n");
			apod_escape(shown, sizeof shown, p, n < 40 ? n : 40);
			apod_usage_fail("%s: line %ld: the step '%s%s' is not a whole number from 0 to %ld",
			                path, row + 2, shown, n > 40 ? "..." : "", LONG_MAX);
			goto fail;
		}
		p = end;
		for (size_t c = 0; c < cols; c++) {
			if (*p++ != ',' || parse_value(p, &end, d, (size_t)row * cols + c))
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
	if (apod_dtype_integer(d->dtype))
		apod_usage_fail("%s: malformed: expected %ld rows of a step and %zu whole numbers "
		                "('%s') after a header", path, d->rows, cols, apod_dtype_descr(d->dtype));
	else
		apod_usage_fail("%s: malformed: expected %ld rows of a step and %zu numbers after a "
		                "header", path, d->rows, cols);
fail:
	free(line);
	fclose(f);
	return -1;
}
