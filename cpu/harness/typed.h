/*
 * typed.h: integer outputs (apod/workload.h).  An integer
 * array or series keeps its values in its own dtype, from the stage's
 * buffer to the results file and back, and the gate compares them in
 * integer arithmetic: a uint64 checksum above 2^53 is never rounded.
 */
#ifndef APOD_TYPED_H
#define APOD_TYPED_H

#include <stddef.h>
#include <stdio.h>

#include <json-c/json.h>

#include "run.h"
#include "verify.h"

/* Every integer dtype fits in it without loss, and so does any difference
 * of two of them. */
typedef __int128 apod_wide;

/* Value i of data, whose values are integers of dtype t. */
apod_wide apod_int_at(const void *data, enum apod_dtype t, size_t i);
/* Value i of data as text, exactly ("-3", "18446744073709551615"). */
void apod_int_format(char *buf, size_t len, const void *data, enum apod_dtype t, size_t i);
/* Parse one value of dtype t at s into data[i], exactly and in range;
 * *end after it.  0, or -1 where s holds no such value. */
int apod_int_parse(const char *s, char **end, enum apod_dtype t, void *data, size_t i);

/* Allocate a series' values (zeroed), as integers of t where t is one,
 * else as doubles: 0, or -1 out of memory. */
int apod_series_alloc_values(struct apod_series_data *d, enum apod_dtype t);

/* Row `row` of a series, in the series' own type (its integers, or its doubles). */
void *apod_series_row(const struct apod_series_data *d, long row);

/* Value i of a series as its CSV writes it: its integers exactly, doubles
 * with 17 digits (or none after the point where whole). */
void apod_series_format(char *buf, size_t len, const struct apod_series_data *d, int whole,
                        size_t i);
/* Value i of a series as JSON, an integer's exactly. */
json_object *apod_series_json(const struct apod_series_data *d, size_t i);

/* Read an integer series' CSV (a header, then rows of a step, 0 for the
 * row a probe takes before the first step, and d->cols values) into
 * d->step and d->iv.  0, or -1 with a usage failure. */
int apod_series_read_ints(const char *path, struct apod_series_data *d);

/* The gate on integers (verify.c): n values of want and got compared under
 * c, the value at flat index i held to tols[i % ntols]; o's counts and worst
 * value are updated, and *worst is the index of the largest difference. */
void apod_verify_ints(struct apod_output_verdict *o, enum apod_compare c, enum apod_dtype t,
                      const void *want, const void *got, size_t n, const struct apod_tol *tols,
                      size_t ntols, size_t *worst);
/* COUNTS on integer rows: each row's totals equal on both sides (and equal
 * tol->total where it is set), and the moved fraction within tol->frac.
 * *worst_row is the row of the largest moved fraction. */
void apod_verify_int_counts(struct apod_output_verdict *o, enum apod_dtype t, const void *want,
                            const void *got, long rows, int cols, const struct apod_tol *tol,
                            long *worst_row);
/* STATS on integers: the mean and the spread (the standard deviation over
 * n, not n - 1) of the n values of data at first, first + stride, ...  The
 * sum is exact in integers, and so is each value's distance from the mean
 * until its one rounding to a double.  n is below 2^62. */
void apod_int_moments(const void *data, enum apod_dtype t, size_t first, size_t stride, size_t n,
                      double *mean, double *sd);
/* `apod verify`'s lines for an integer output (all but COUNTS), after
 * its name; a is the array's shape, NULL for a series; note ends the
 * first line (how close the worst came to its tolerance, or ""). */
void apod_verdict_print_ints(FILE *f, const struct apod_output_verdict *o, int nw,
                             const struct apod_array_data *a, const char *note);

#endif
