/*
 * rundata.c: what one run holds (its phases, series and arrays), allocated
 * from a workload's declarations; shared by the loop and by results.c,
 * which fills one from a results directory.
 */
#include <stdlib.h>
#include <string.h>

#include "fail.h"
#include "npy.h"
#include "run.h"
#include "typed.h"

/* The entries of a workload's list (probes, series or arrays: each begins
 * with its name) before the one whose name is NULL; 0 for no list. */
static int count_named(const void *list, size_t entry_size)
{
	const char *entry = list;
	int n = 0;
	while (entry && *(const char *const *)(entry + (size_t)n * entry_size))
		n++;
	return n;
}

int apod_probe_count(const struct apod_workload *w)
{
	return count_named(w->probes, sizeof *w->probes);
}

int apod_series_count(const struct apod_workload *w)
{
	return count_named(w->series, sizeof *w->series);
}

int apod_array_count(const struct apod_workload *w)
{
	return count_named(w->arrays, sizeof *w->arrays);
}

int apod_phase_count(const struct apod_workload *w)
{
	return apod_probe_count(w) + 5;
}

const char *apod_phase_name(const struct apod_workload *w, int i)
{
	int k = apod_probe_count(w);
	if (i == 0)
		return "setup";
	if (i == 1)
		return w->step_phase;
	if (i < 2 + k)
		return w->probes[i - 2].name;
	if (i == 2 + k)
		return "writeSnapshot";
	if (i == 3 + k)
		return "fetchResults";
	if (i == 4 + k)
		return "writeReport";
	return "?";
}

int apod_phase_width(const struct apod_workload *w, int min)
{
	int width = min;
	for (int i = 0; i < apod_phase_count(w); i++) {
		int len = (int)strlen(apod_phase_name(w, i));
		if (len > width)
			width = len;
	}
	return width;
}

unsigned apod_phase_bit(const struct apod_workload *w, int i)
{
	int k = apod_probe_count(w);
	if (i < 2 + k)
		return 1u << i;
	if (i == 2 + k)
		return APOD_PORTS_SNAPSHOT;
	return i == 3 + k ? APOD_PORTS_FETCH : APOD_PORTS_REPORT;
}

const struct apod_stage *apod_stage_baseline(const struct apod_workload *w)
{
	for (int i = 1; w->stages[i]; i++)
		if (w->stages[i]->role == APOD_ROLE_HOST_BASELINE)
			return w->stages[i];
	return NULL;
}

const struct apod_stage *apod_stage_find(const struct apod_workload *w, const char *name)
{
	for (int i = 0; w->stages[i]; i++)
		if (!strcmp(w->stages[i]->name, name))
			return w->stages[i];
	return NULL;
}

int apod_column_names_count(const char *list)
{
	int n = 1;
	if (!*list)
		return -1;
	for (const char *c = list; *c; c++)
		if (*c == ',') {
			if (c == list || c[1] == ',' || c[1] == '\0')
				return -1;
			n++;
		}
	return n;
}

int apod_run_alloc(struct apod_run *r, const struct apod_workload *w, const void *params)
{
	memset(r, 0, sizeof *r);
	r->w = w;
	r->steps = w->steps(params);
	r->nphases = apod_phase_count(w);
	r->nseries = apod_series_count(w);
	r->narrays = apod_array_count(w);
	r->series = calloc((size_t)r->nseries + 1, sizeof *r->series);
	r->arrays = calloc((size_t)r->narrays + 1, sizeof *r->arrays);
	if (!r->series || !r->arrays)
		goto nomem;
	for (int i = 0; i < r->nseries; i++) {
		const struct apod_series *s = &w->series[i];
		struct apod_series_data *d = &r->series[i];
		d->cols = s->columns ? s->columns(params) : s->ncolumns;
		if (s->column_names && apod_column_names_count(s->column_names) != d->cols) {
			int cols = d->cols;   /* d goes with the run */
			apod_run_free(r);
			return apod_fail("workload %s: series %s: column_names '%s' name %d columns, but "
			                 "columns() gives %d for this deck", w->name, s->name,
			                 s->column_names, apod_column_names_count(s->column_names), cols);
		}
		d->every = w->probes[s->probe].every(params);
		d->rows = d->every > 0 ? r->steps / d->every : 0;
		d->step = calloc(d->rows ? (size_t)d->rows : 1, sizeof *d->step);
		if (!d->step || apod_series_alloc_values(d, s->dtype))
			goto nomem;
	}
	for (int i = 0; i < r->narrays; i++) {
		struct apod_array_data *a = &r->arrays[i];
		a->ndim = w->arrays[i].shape(params, a->dims);
		if (a->ndim == 1)
			a->dims[1] = 1;
		a->count = a->dims[0] * a->dims[1];
		a->dtype = w->arrays[i].dtype;
		if (!(a->data = malloc(a->count * apod_dtype_size(a->dtype))))
			goto nomem;
	}
	return 0;
nomem:
	apod_run_free(r);
	return apod_fail("cannot allocate the results of a %ld-step run of %s", r->steps, w->name);
}

void apod_run_free(struct apod_run *r)
{
	for (int i = 0; r->series && i < r->nseries; i++) {
		free(r->series[i].step);
		free(r->series[i].v);
		free(r->series[i].iv);
	}
	for (int i = 0; r->arrays && i < r->narrays; i++)
		free(r->arrays[i].data);
	free(r->series);
	free(r->arrays);
	r->series = NULL;
	r->arrays = NULL;
}


int apod_device_timed(const struct apod_run *r, int i)
{
	return r->has_device && i > 0 && i < r->nphases - 1;
}

double apod_attributed(const struct apod_run *r, int i)
{
	return apod_device_timed(r, i) ? r->device[i] : r->phase[i];
}

double apod_unattributed(const struct apod_run *r)
{
	double t = r->total;
	for (int i = 0; i < r->nphases; i++)
		t -= apod_attributed(r, i);
	return r->has_device ? t : 0;
}

int apod_stage_reporter(const struct apod_workload *w, const struct apod_stage *e)
{
	(void)w;   /* every workload is read in the current revision (upgrade.h) */
	return e->reporter ? e->reporter() : 1;
}

int apod_stage_agree(const struct apod_workload *w, const struct apod_stage *e, int failed)
{
	(void)w;
	if (e->agree)
		return e->agree(failed);
	return failed ? -1 : 0;
}
