/*
 * dtype.c: the element types of outputs, their names in .npy headers, and
 * one value of an array of them (dtype.h).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#include "dtype.h"

size_t apod_dtype_size(enum apod_dtype t)
{
	return t == APOD_F64 || t == APOD_I64 || t == APOD_U64 ? 8 : 4;
}

int apod_dtype_integer(enum apod_dtype t)
{
	return t == APOD_I32 || t == APOD_I64 || t == APOD_U64;
}

const char *apod_dtype_descr(enum apod_dtype t)
{
	switch (t) {
	case APOD_F32: return "<f4";
	case APOD_F64: return "<f8";
	case APOD_I32: return "<i4";
	case APOD_I64: return "<i8";
	case APOD_U64: return "<u8";
	}
	return "?";
}

apod_wide apod_int_at(const void *data, enum apod_dtype t, size_t i)
{
	switch (t) {
	case APOD_I32: return ((const int32_t *)data)[i];
	case APOD_I64: return ((const int64_t *)data)[i];
	case APOD_U64: return ((const uint64_t *)data)[i];
	default: return 0;
	}
}

double apod_value_at(const void *data, enum apod_dtype t, size_t i)
{
	switch (t) {
	case APOD_F64: return ((const double *)data)[i];
	case APOD_F32: return (double)((const float *)data)[i];
	default: return (double)apod_int_at(data, t, i);
	}
}

void apod_int_format(char *buf, size_t len, const void *data, enum apod_dtype t, size_t i)
{
	if (t == APOD_U64)
		snprintf(buf, len, "%" PRIu64, ((const uint64_t *)data)[i]);
	else
		snprintf(buf, len, "%" PRId64, (int64_t)apod_int_at(data, t, i));
}
