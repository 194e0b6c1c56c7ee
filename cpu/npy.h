/*
 * npy.h: fields as NumPy .npy files (format version 1.0), which NumPy,
 * Julia, MATLAB readers and most plotting tools open as they are.
 */
#ifndef APOD_NPY_H
#define APOD_NPY_H

#include <stddef.h>

#include "apod_hd.h"

/* Write a ny x nx array (row-major) atomically. */
int apod_npy_write(const char *path, const apod_real *data, size_t ny, size_t nx);

/* Open path for a ny x nx array and write the header; the caller writes
 * ny*nx values to o->f and commits (or aborts) the outfile. */
struct apod_outfile;
int apod_npy_open(struct apod_outfile *o, const char *path, size_t ny, size_t nx);

/* Read a 2-D little-endian float32 or float64 C-order array, converting to
 * apod_real.  *was_double tells which it was.  The caller frees *data. */
int apod_npy_read(const char *path, apod_real **data, size_t *ny, size_t *nx, int *was_double);

#endif
