/*
 * dtype.c: the element types of outputs, and their names in .npy headers.
 */
#include <string.h>

#include "npy.h"

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

int apod_dtype_from_descr(const char *quoted, enum apod_dtype *t)
{
	static const enum apod_dtype all[] = { APOD_F32, APOD_F64, APOD_I32, APOD_I64, APOD_U64 };
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
		const char *d = apod_dtype_descr(all[i]);
		if (quoted[0] == '\'' && !strncmp(quoted + 1, d, strlen(d)) &&
		    quoted[1 + strlen(d)] == '\'') {
			*t = all[i];
			return 0;
		}
	}
	return -1;
}
