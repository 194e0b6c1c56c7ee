/*
 * table_print.h: the APOD table's words, the same on the terminal and on
 * `apod report`'s page: its columns, each row's cells, what they mean.
 */
#ifndef APOD_CLI_TABLE_PRINT_H
#define APOD_CLI_TABLE_PRINT_H

#include <stddef.h>

#include "apod/workload.h"

#define APOD_TABLE_NCOLS 13

extern const char *const apod_table_columns[APOD_TABLE_NCOLS];
/* What the columns mean, as the terminal prints it under the table. */
extern const char apod_table_legend[];

struct apod_table_cells {
	char c[APOD_TABLE_NCOLS][160];
};

struct ladder;
/* Row i of a table that ran, as its cells (the JSON keeps them as
 * "cells", for the page). */
void apod_table_row_cells(const struct ladder *l, int i, struct apod_table_cells *c);

/* The phases of a bit mask, "setup+writeSnapshot". */
void apod_table_phase_list(const struct apod_workload *wl, unsigned long long mask, int nphases,
                           char *buf, size_t len);

#endif
