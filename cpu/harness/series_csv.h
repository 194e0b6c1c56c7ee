/*
 * series_csv.h: a series as its CSV file (a "step" column, then the
 * values) and back, each value in the series' own dtype: doubles with
 * every digit that tells them apart, integers exactly.
 */
#ifndef APOD_SERIES_CSV_H
#define APOD_SERIES_CSV_H

#include <stddef.h>

#include "rundata.h"

/* Value i of a series as text: its integers exactly; a double with
 * `digits` significant digits, or none after the point where digits is 0
 * (counts, which are whole). */
void apod_series_format(char *buf, size_t len, const struct apod_series_data *d, int digits,
                        size_t i);

/* Write series s's rows d to path (atomically: outfile.h). */
int apod_series_csv_write(const char *path, const struct apod_series *s,
                          const struct apod_series_data *d);

/* Read a CSV of our own making into d (allocated for the run: d->rows rows
 * of d->cols values): a header, then rows of a step and the values, parsed
 * in d's dtype.  0, or -1 with a usage failure that names the file. */
int apod_series_csv_read(const char *path, struct apod_series_data *d);

#endif
