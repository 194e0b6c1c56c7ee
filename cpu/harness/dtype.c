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
