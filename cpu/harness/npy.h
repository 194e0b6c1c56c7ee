/*
 * npy.h: arrays as NumPy .npy files (format version 1.0), which NumPy,
 * Julia, MATLAB readers and most plotting tools open as they are.
 */
#ifndef APOD_NPY_H
#define APOD_NPY_H

#include <stddef.h>

#include "dtype.h"

/* Write a 1-D (dims[0]) or 2-D (dims[0] rows x dims[1] columns) array atomically. */
int apod_npy_write(const char *path, const void *data, enum apod_dtype dtype, int ndim,
                   const size_t dims[2]);

/* Open path for such an array and write the header; the caller writes the
 * values to o->f and commits (or aborts) the outfile. */
struct apod_outfile;
int apod_npy_open(struct apod_outfile *o, const char *path, enum apod_dtype dtype, int ndim,
                  const size_t dims[2]);

/* Read a 1-D or 2-D little-endian C-order array of one of the dtypes, in the
 * file's own type (*dtype); dims[1] is 1 for 1-D.  The caller frees *data. */
int apod_npy_read(const char *path, void **data, enum apod_dtype *dtype, int *ndim,
                  size_t dims[2]);

#endif
