/*
 * key_table.h: a workload's key table as data, with what each key does to
 * the run (key_table.c).
 */
#ifndef APOD_KEY_TABLE_H
#define APOD_KEY_TABLE_H

#include "apod/apod.h"

/* Write w's key table as JSON to path (whole, or not at all): 0, or -1
 * after apod_fail. */
int apod_key_table_write(const struct apod_workload *w, const char *path);

#endif
