/*
 * dtype.h: the element types of outputs, and one value of an array of
 * them.  Every place that reads a value whatever its type asks here, so
 * that an integer is read as an integer (a uint64 checksum above 2^53 is
 * never rounded) and a float as the double it widens to.
 */
#ifndef APOD_DTYPE_H
#define APOD_DTYPE_H

#include <stddef.h>

#include "apod/workload.h"

size_t apod_dtype_size(enum apod_dtype t);
/* 1 for the integer types; the .npy descr of t ("<f4", "<i8", ...). */
int apod_dtype_integer(enum apod_dtype t);
const char *apod_dtype_descr(enum apod_dtype t);

/* Every integer dtype fits in it without loss, and so does any difference
 * of two of them. */
typedef __int128 apod_wide;

/* Value i of data, whose values are integers of dtype t (0 for a float t). */
apod_wide apod_int_at(const void *data, enum apod_dtype t, size_t i);
/* Value i of data as a double, whatever t: a float widened, an integer
 * rounded once (for arithmetic that is done in doubles anyway). */
double apod_value_at(const void *data, enum apod_dtype t, size_t i);
/* Value i of integer data as text, exactly ("-3", "18446744073709551615"). */
void apod_int_format(char *buf, size_t len, const void *data, enum apod_dtype t, size_t i);

#endif
