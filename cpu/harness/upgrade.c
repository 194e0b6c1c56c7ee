/*
 * upgrade.c: a workload compiled against an older revision of
 * apod/workload.h, copied into the current revision's layout once, at
 * start-up, so that the rest of the harness reads every member without
 * asking which revision it has.
 *
 * Each revision only adds members at the end of a struct, so an older
 * struct is a prefix of the current one.  The element tables (params,
 * arrays, series) are arrays of such structs: an older table is stepped
 * through with the older element size, and each element widened with
 * zeros.  What revision 3 declares and an older workload cannot say is
 * filled in as the older harness assumed it (the stage named "omp" was
 * the host baseline).
 */
#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "fail.h"
#include "upgrade.h"

/* The size a struct had when `first_new` was not yet its member. */
#define SIZE_BEFORE(type, first_new) \
	((offsetof(type, first_new) + alignof(type) - 1) / alignof(type) * alignof(type))

static size_t workload_size(int version)
{
	return version >= 3 ? sizeof(struct apod_workload) : SIZE_BEFORE(struct apod_workload, work);
}

static size_t stage_size(int version)
{
	if (version >= 3)
		return sizeof(struct apod_stage);
	return version == 2 ? SIZE_BEFORE(struct apod_stage, role)
	                    : SIZE_BEFORE(struct apod_stage, reporter);
}

/* Copy a table of n + 1 elements (the last is the NULL-named end) from an
 * older element size to the current one. */
static void *widen(const void *table, size_t old, size_t now)
{
	const char *src = table;
	size_t n = 0;
	char *dst;
	if (!table)
		return NULL;
	/* Every element struct starts with its name (or key). */
	while (*(const char *const *)(src + n * old))
		n++;
	if (!(dst = calloc(n + 1, now)))
		return NULL;
	for (size_t i = 0; i < n; i++)
		memcpy(dst + i * now, src + i * old, old);
	return dst;
}

const struct apod_workload *apod_workload_upgrade(const struct apod_workload *w)
{
	struct apod_workload *u;
	struct apod_stage **stages;
	size_t nstages = 0;
	int v;
	if (!w || w->version >= APOD_WORKLOAD_VERSION)
		return w;
	v = w->version;
	while (w->stages && w->stages[nstages])
		nstages++;
	u = calloc(1, sizeof *u);
	stages = calloc(nstages + 1, sizeof *stages);
	if (!u || !stages)
		goto oom;
	memcpy(u, w, workload_size(v));
	u->params = widen(w->params, SIZE_BEFORE(struct apod_param, choices), sizeof(struct apod_param));
	u->arrays = widen(w->arrays, SIZE_BEFORE(struct apod_array, tolerance_of),
	                  sizeof(struct apod_array));
	u->series = widen(w->series, SIZE_BEFORE(struct apod_series, ncolumns),
	                  sizeof(struct apod_series));
	if ((w->params && !u->params) || (w->arrays && !u->arrays) || (w->series && !u->series))
		goto oom;
	for (size_t i = 0; i < nstages; i++) {
		if (!(stages[i] = calloc(1, sizeof *stages[i])))
			goto oom;
		memcpy(stages[i], w->stages[i], stage_size(v));
		if (w->stages[i]->name && !strcmp(w->stages[i]->name, "omp"))
			stages[i]->role = APOD_ROLE_HOST_BASELINE;
	}
	u->stages = (const struct apod_stage *const *)stages;
	u->version = APOD_WORKLOAD_VERSION;
	/* Kept for the life of the program, as the original was. */
	return u;
oom:
	apod_fail("workload %s: out of memory reading its revision %d tables", w->name, v);
	return NULL;
}

void apod_workload_upgrade_free(const struct apod_workload *u, const struct apod_workload *w)
{
	if (!u || u == w)
		return;
	for (size_t i = 0; u->stages && u->stages[i]; i++)
		free((void *)u->stages[i]);
	free((void *)u->stages);
	free((void *)u->params);
	free((void *)u->arrays);
	free((void *)u->series);
	free((void *)u);
}
