/*
 * bench_rows.h: `apod bench --kernels`: a workload's kernel measurements
 * (apod/workload.h, kernel_rows) printed as one table and kept as JSON.
 */
#ifndef APOD_CLI_BENCH_ROWS_H
#define APOD_CLI_BENCH_ROWS_H

#include <json-c/json.h>

#include "apod/workload.h"

/* The workload's kernel measurements, printed and added to out: its
 * kernel_rows where its revision has one, else its revision-4 kernels.
 * 0 measured; 1 nothing to measure (why recorded: a usage failure where
 * the workload has no kernels, a failure where there is no GPU); -1
 * failed. */
int apod_bench_kernels(const struct apod_workload *w, const void *problem, int reps,
                       json_object *out);

#endif
