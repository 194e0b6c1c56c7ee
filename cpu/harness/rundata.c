/*
 * rundata.c: what one run holds (its phases, series and arrays), allocated
 * from a workload's declarations (rundata.h); shared by the loop and by
 * results.c, which fills one from a results directory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apod/apod.h"
#include "fail.h"
#include "dtype.h"
#include "rundata.h"

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

int apod_step_phase_count(const struct apod_workload *w)
{
	return count_named(w->phases, sizeof *w->phases);
}

/* The harness's table of phases, the same for every run of w: setup, the
 * step's phases, the probes, writeSnapshot, fetchResults, writeReport.  A
 * workload and its stages name them; only this file numbers them. */
int apod_phase_count(const struct apod_workload *w)
{
	return apod_step_phase_count(w) + apod_probe_count(w) + 4;
}

int apod_phase_of_step(const struct apod_workload *w, int j)
{
	(void)w;
	return 1 + j;
}

int apod_phase_of_probe(const struct apod_workload *w, int k)
{
	return 1 + apod_step_phase_count(w) + k;
}

int apod_phase_snapshot(const struct apod_workload *w)
{
	return apod_phase_count(w) - 3;
}

int apod_phase_fetch(const struct apod_workload *w)
{
	return apod_phase_count(w) - 2;
}

int apod_phase_report(const struct apod_workload *w)
{
	return apod_phase_count(w) - 1;
}

const char *apod_phase_name(const struct apod_workload *w, int i)
{
	int nstep = apod_step_phase_count(w), nprobe = apod_probe_count(w);
	if (i == 0)
		return APOD_PHASE_SETUP_NAME;
	if (i >= 1 && i <= nstep)
		return w->phases[i - 1].name;
	if (i > nstep && i <= nstep + nprobe)
		return w->probes[i - 1 - nstep].name;
	if (i == apod_phase_snapshot(w))
		return APOD_PHASE_SNAPSHOT_NAME;
	if (i == apod_phase_fetch(w))
		return APOD_PHASE_FETCH_NAME;
	if (i == apod_phase_report(w))
		return APOD_PHASE_REPORT_NAME;
	return "?";
}

int apod_phase_total(const struct apod_workload *w)
{
	return apod_phase_count(w);
}

int apod_phase_number(const struct apod_workload *w, const char *name)
{
	for (int i = 0; name && i < apod_phase_count(w); i++)
		if (!strcmp(apod_phase_name(w, i), name))
			return i;
	return -1;
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

unsigned long long apod_phase_bit(const struct apod_workload *w, int i)
{
	(void)w;
	return 1ull << i;
}

int apod_ports_parse(const struct apod_workload *w, const char *ports, unsigned long long *mask,
                     char *bad, size_t len)
{
	const char *p = ports;
	*mask = 0;
	while (p && *p) {
		size_t n = strcspn(p, ",");
		char name[128];
		int i;
		while (n && p[n - 1] == ' ')
			n--;
		if (n == 0 || n >= sizeof name) {
			snprintf(bad, len, "%.*s", (int)(n < 100 ? n : 100), p);
			return -1;
		}
		memcpy(name, p, n);
		name[n] = 0;
		if ((i = apod_phase_number(w, name)) < 0) {
			snprintf(bad, len, "%s", name);
			return -1;
		}
		*mask |= apod_phase_bit(w, i);
		p += strcspn(p, ",");
		if (*p == ',')
			for (p++; *p == ' '; p++)
				;
	}
	return 0;
}

unsigned long long apod_stage_ports(const struct apod_workload *w, const struct apod_stage *e)
{
	unsigned long long mask;
	char bad[128];
	/* Checked at registration: a name that is no phase never gets here. */
	return apod_ports_parse(w, e->ports, &mask, bad, sizeof bad) ? 0 : mask;
}

int apod_probe_index(const struct apod_workload *w, const char *name)
{
	for (int k = 0; name && k < apod_probe_count(w); k++)
		if (!strcmp(w->probes[k].name, name))
			return k;
	return -1;
}

int apod_series_probe(const struct apod_workload *w, int i)
{
	return apod_probe_index(w, w->series[i].probe);
}

long apod_probe_every(const struct apod_workload *w, int k, const void *params)
{
	return w->probes[k].every ? w->probes[k].every(params) : 0;
}

long apod_probe_rows(const struct apod_workload *w, int k, const void *params, long steps)
{
	long every = apod_probe_every(w, k, params);
	long rows = every > 0 ? steps / every : 0;
	unsigned at = w->probes[k].at;
	if (at & APOD_AT_START)
		rows++;
	if ((at & APOD_AT_END) && steps > 0 && (every <= 0 || steps % every))
		rows++;
	return rows;
}

int apod_stage_width(const struct apod_stage *e)
{
	if (e->ops && e->ops->width)
		return e->ops->width(e);
	return e->runs_on & APOD_RUNS_DEVICE ? 0 : 1;
}

int apod_stage_available(const struct apod_stage *e, char *why, size_t len)
{
	if (!e->ops) {
		snprintf(why, len, "not in this build (it needs %s)",
		         e->needs && *e->needs ? e->needs : "what this build left out");
		return 0;
	}
	return e->ops->available ? e->ops->available(e, why, len) : 1;
}

const struct apod_stage *apod_stage_baseline(const struct apod_workload *w)
{
	if (!w->stages || !w->stages[0])
		return NULL;
	for (int i = 1; w->stages[i]; i++)
		if (w->stages[i]->role == APOD_ROLE_HOST_BASELINE)
			return w->stages[i];
	return NULL;
}

const struct apod_stage *apod_stage_find(const struct apod_workload *w, const char *name)
{
	/* A workload read back by a tool that has no stages (the results'
	 * readers, the fuzzer) finds none. */
	if (!w->stages)
		return NULL;
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

void apod_run_default_calls(struct apod_run *r, const void *params)
{
	const struct apod_workload *w = r->w;
	for (int i = 0; i < r->nphases; i++)
		r->calls[i] = 1;
	for (int j = 0; j < apod_step_phase_count(w); j++)
		r->calls[apod_phase_of_step(w, j)] = r->steps;
	for (int k = 0; k < apod_probe_count(w); k++)
		r->calls[apod_phase_of_probe(w, k)] = apod_probe_rows(w, k, params, r->steps);
	r->calls[apod_phase_snapshot(w)] = r->snapshots;
}

int apod_stage_advances(const struct apod_workload *w, const struct apod_stage *e)
{
	return w->version >= 5 && e && e->ops && e->ops->advance;
}

void *apod_stage_create(const struct apod_workload *w, const struct apod_stage *e,
                        const void *problem, struct apod_clock *clock)
{
	if (apod_stage_advances(w, e))
		return e->ops->create_timed(e, problem, clock);
	return e->ops->create(e, problem);
}

int apod_series_alloc_values(struct apod_series_data *d, enum apod_dtype t)
{
	size_t n = d->rows ? (size_t)d->rows * (size_t)d->cols : 1;
	d->dtype = apod_dtype_integer(t) ? t : APOD_F64;
	d->values = calloc(n, apod_dtype_size(d->dtype));
	return d->values ? 0 : -1;
}

void *apod_series_row(const struct apod_series_data *d, long row)
{
	size_t at = (size_t)row * (size_t)d->cols;
	return (char *)d->values + at * apod_dtype_size(d->dtype);
}

double apod_series_value(const struct apod_series_data *d, size_t i)
{
	return apod_value_at(d->values, d->dtype, i);
}

const char *apod_run_precision(const struct apod_run *r)
{
	for (int a = 0; a < r->narrays; a++)
		if (r->arrays[a].dtype == APOD_F32)
			return "float";
	return "double";
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
		d->cols = s->column_names ? apod_column_names_count(s->column_names) : s->columns(params);
		d->every = apod_probe_every(w, apod_series_probe(w, i), params);
		d->rows = apod_probe_rows(w, apod_series_probe(w, i), params, r->steps);
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
	apod_run_default_calls(r, params);
	return 0;
nomem:
	apod_run_free(r);
	return apod_fail("cannot allocate the results of a %ld-step run of %s", r->steps, w->name);
}

void apod_run_free(struct apod_run *r)
{
	for (int i = 0; r->series && i < r->nseries; i++) {
		free(r->series[i].step);
		free(r->series[i].values);
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
	(void)w;
	return e->ops && e->ops->reporter ? e->ops->reporter(e) : 1;
}

int apod_stage_agree(const struct apod_workload *w, const struct apod_stage *e, int failed)
{
	(void)w;
	if (e->ops && e->ops->agree)
		return e->ops->agree(e, failed);
	return failed ? -1 : 0;
}
