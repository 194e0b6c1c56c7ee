/*
 * infile.h: open a file apod reads back (a results directory's files) only
 * if it is a regular file.  A FIFO named field.npy would block the reader
 * for ever, a device would be read without end; both are refused by name.
 */
#ifndef APOD_INFILE_H
#define APOD_INFILE_H

#include <stdio.h>

/* A descriptor open for reading, or -1 after a usage failure naming path
 * (errno then ENOENT where there is no such file). */
int apod_infile_open(const char *path);
/* The same as a stream ("rb"), or NULL after the failure. */
FILE *apod_infile_fopen(const char *path);

#endif
