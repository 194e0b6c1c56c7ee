/*
 * results.h: a run's results as files, and back.
 *
 *   field.npy    the final field
 *   stats.csv    step, mean, min, max, variance      (every step)
 *   hist.csv     step, count per bin                 (every step)
 *   zones.csv    step, mean per zone                 (every summary)
 *   report.json  the deck, the stage, the phase timers, the final statistics
 *
 * `apod verify` reads two such directories back; the committed references
 * in data/ are one.
 */
#ifndef APOD_RESULTS_H
#define APOD_RESULTS_H

#include <json-c/json.h>

#include "deck.h"
#include "problem.h"
#include "sim.h"

/* The report of one run as a JSON object (the caller puts it). */
json_object *apod_report_json(const struct apod_deck *d, const struct apod_run *r);
json_object *apod_deck_json(const struct apod_deck *d);

/* Write a JSON object to path atomically, pretty-printed. */
int apod_json_write(const char *path, json_object *obj);

int apod_results_write(const char *dir, const struct apod_problem *p, const struct apod_run *r);

/* Load a results directory: the deck it ran (from report.json) and the run. */
int apod_results_load(const char *dir, struct apod_deck *d, struct apod_run *r);

#endif
