/*
 * params.h: a workload's parameters, driven by its key table
 * (struct apod_param in apod/workload.h).  The deck parser, the defaults,
 * the --KEY=VALUE options, report.json's "params" both ways and the test
 * that two runs are comparable all read the same table.
 */
#ifndef APOD_PARAMS_H
#define APOD_PARAMS_H

#include <json-c/json.h>

#include "apod/apod.h"

/* The most keys a workload may declare: the deck parser and the command line
 * track keys in tables of this size (registry.c refuses more). */
#define APOD_MAX_PARAMS 64

/* A parameter struct holding the defaults (free with free()), or NULL. */
void *apod_params_new(const struct apod_workload *w);
const struct apod_param *apod_param_find(const struct apod_workload *w, const char *key);

/* Set one key from its text; a usage failure names `where` and the key. */
int apod_params_set(const struct apod_workload *w, void *params, const char *key,
                    const char *value, const char *where);
/* Read a deck file ("key = value" lines, '#' comments) over params. */
int apod_params_load(const struct apod_workload *w, void *params, const char *path);
/* The workload's checks across keys. */
int apod_params_check(const struct apod_workload *w, const void *params);

/* The i-th value of key p as deck text: 1, or 0 past the last. */
int apod_param_text(const struct apod_param *p, const void *params, int i, char *buf, size_t len);

json_object *apod_params_json(const struct apod_workload *w, const void *params);
int apod_params_from_json(const struct apod_workload *w, void *params, json_object *o,
                          const char *where);
/* 1 if every key that can change a result has the same value in a and b;
 * else 0 with the first key that differs in `key`. */
int apod_params_same(const struct apod_workload *w, const void *a, const void *b,
                     const char **key);
/* The number of such keys that differ, and their names in buf ("a, b"). */
int apod_params_differing(const struct apod_workload *w, const void *a, const void *b,
                          char *buf, size_t len);

/* apod_params_deck_text, the canonical deck: apod/apod.h. */

#endif
