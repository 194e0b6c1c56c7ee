/*
 * results.h: a run's results as files, and back.
 *
 *   ARRAY.npy    each array the workload declares, at the end of the run
 *   SERIES.csv   each series: a "step" column, then the values
 *   report.json  the workload, the stage, the parameters, the phase timers
 *                and the last row of the first series
 *
 * `apod verify` reads two such directories back; the committed references
 * in data/NAME/ref/ are one.
 */
#ifndef APOD_RESULTS_H
#define APOD_RESULTS_H

#include <json-c/json.h>

#include "apod/command.h"
#include "json_file.h"
#include "rundata.h"

/* The report of one run as a JSON object (the caller puts it). */
json_object *apod_report_json(const void *params, const struct apod_run *r);
/* An object of one number a phase, by the phase's name: w's first nphases
 * phases, phase i's number seconds[i] (report.json's phase_seconds,
 * device_seconds, device_busy_seconds, device_work_seconds). */
json_object *apod_phases_json(const struct apod_workload *w, const double *seconds, int nphases);
/* Each phase's calls (occurrences), by name. */
json_object *apod_calls_json(const struct apod_workload *w, const long *calls, int nphases);
/* The program report.json names ("apod" until apod_main sets its own). */
void apod_report_set_program(const char *name);

/* apod_json_write: json_file.h. */

int apod_results_write(const char *dir, const void *params, const struct apod_run *r);

/* Load a results directory written by a run of one of `workloads`: the
 * workload, its parameters (*params, to free) and the run. */
int apod_results_load(const char *dir, const struct apod_workload *const *workloads,
                      void **params, struct apod_run *r);

/* The timers of a run loaded from dir (apod_results_load): its phases
 * (host, device, --trace's), width, total, snapshots, from report.json, so
 * that a run made in another process counts as one made here. */
int apod_results_load_timers(const char *dir, struct apod_run *r);

#endif
