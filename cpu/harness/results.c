/*
 * results.c: write a run's results directory, and read one back.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fail.h"
#include "infile.h"
#include "npy.h"
#include "outfile.h"
#include "params.h"
#include "results.h"
#include "series_csv.h"

static const char *report_program = "apod";

void apod_report_set_program(const char *name)
{
	report_program = name && *name ? name : "apod";
}

json_object *apod_phases_json(const struct apod_workload *w, const double *seconds, int nphases)
{
	json_object *o = json_object_new_object();
	for (int i = 0; i < nphases; i++)
		json_object_object_add(o, apod_phase_name(w, i), json_object_new_double(seconds[i]));
	return o;
}

json_object *apod_calls_json(const struct apod_workload *w, const long *calls, int nphases)
{
	json_object *o = json_object_new_object();
	for (int i = 0; i < nphases; i++)
		json_object_object_add(o, apod_phase_name(w, i), json_object_new_int64(calls[i]));
	return o;
}

/* Value i of a series as JSON, an integer's exactly. */
static json_object *series_json(const struct apod_series_data *d, size_t i)
{
	if (!apod_dtype_integer(d->dtype))
		return json_object_new_double(d->v[i]);
	if (d->dtype == APOD_U64)
		return json_object_new_uint64(((const uint64_t *)d->values)[i]);
	return json_object_new_int64((int64_t)apod_int_at(d->values, d->dtype, i));
}

json_object *apod_report_json(const void *params, const struct apod_run *r)
{
	const struct apod_workload *w = r->w;
	json_object *o = json_object_new_object();
	json_object_object_add(o, "program", json_object_new_string(report_program));
	json_object_object_add(o, "version", json_object_new_string(APOD_HARNESS_VERSION));
	json_object_object_add(o, "workload", json_object_new_string(w->name));
	json_object_object_add(o, "stage", json_object_new_string(r->stage));
	json_object_object_add(o, "precision", json_object_new_string(apod_run_precision(r)));
	json_object_object_add(o, "width", json_object_new_int(r->width));
	json_object_object_add(o, "params", apod_params_json(w, params));
	json_object_object_add(o, "phase_seconds", apod_phases_json(w, r->phase, r->nphases));
	json_object_object_add(o, "phase_calls", apod_calls_json(w, r->calls, r->nphases));
	if (apod_stage_advances(w, apod_stage_find(w, r->stage)))
		json_object_object_add(o, "unmarked_step_seconds", json_object_new_double(r->unmarked));
	if (r->has_device)
		json_object_object_add(o, "device_seconds", apod_phases_json(w, r->device, r->nphases));
	if (r->has_busy) {
		json_object_object_add(o, "device_busy_seconds", apod_phases_json(w, r->busy, r->nphases));
		json_object_object_add(o, "device_work_seconds", apod_phases_json(w, r->work, r->nphases));
		json_object_object_add(o, "device_busy_unattributed_seconds",
		                       json_object_new_double(r->busy_unattributed));
	}
	json_object_object_add(o, "total_seconds", json_object_new_double(r->total));
	/* The last row of the first series, by column name where it has names. */
	if (r->nseries > 0 && r->series[0].rows > 0 && w->series[0].column_names) {
		const struct apod_series_data *d = &r->series[0];
		size_t last = (size_t)(d->rows - 1) * (size_t)d->cols;
		json_object *fin = json_object_new_object();
		char names[1024], *save = NULL, *t;
		int c = 0;
		snprintf(names, sizeof names, "%s", w->series[0].column_names);
		for (t = strtok_r(names, ",", &save); t && c < d->cols; t = strtok_r(NULL, ",", &save), c++)
			json_object_object_add(fin, t, series_json(d, last + (size_t)c));
		json_object_object_add(o, "final", fin);
	}
	json_object_object_add(o, "snapshots", json_object_new_int64(r->snapshots));
	json_object_object_add(o, "snapshot_background_seconds", json_object_new_double(r->background));
	return o;
}

int apod_json_write(const char *path, json_object *obj)
{
	struct apod_outfile o;
	const char *text = json_object_to_json_string_ext(obj, JSON_C_TO_STRING_PRETTY |
	                                                  JSON_C_TO_STRING_NOSLASHESCAPE);
	if (apod_outfile_open(&o, path))
		return -1;
	fputs(text, o.f);
	fputc('\n', o.f);
	return apod_outfile_commit(&o);
}

static int path_in(char *buf, size_t len, const char *dir, const char *name, const char *ext)
{
	if (snprintf(buf, len, "%s/%s%s", dir, name, ext) >= (int)len)
		return apod_usage_fail("%s: path too long", dir);
	return 0;
}

int apod_results_write(const char *dir, const void *params, const struct apod_run *r)
{
	const struct apod_workload *w = r->w;
	char path[4096];
	json_object *rep;
	int rc;
	for (int a = 0; a < r->narrays; a++) {
		const struct apod_array_data *d = &r->arrays[a];
		if (path_in(path, sizeof path, dir, w->arrays[a].name, ".npy") ||
		    apod_npy_write(path, d->data, d->dtype, d->ndim, d->dims))
			return -1;
	}
	for (int i = 0; i < r->nseries; i++)
		if (path_in(path, sizeof path, dir, w->series[i].name, ".csv") ||
		    apod_series_csv_write(path, &w->series[i], &r->series[i]))
			return -1;
	if (path_in(path, sizeof path, dir, "report", ".json"))
		return -1;
	rep = apod_report_json(params, r);
	rc = apod_json_write(path, rep);
	json_object_put(rep);
	return rc;
}

/* ---- reading back ---------------------------------------------------- */

static const struct apod_workload *find_workload(const struct apod_workload *const *ws,
                                                 const char *name)
{
	for (int i = 0; ws[i]; i++)
		if (!strcmp(ws[i]->name, name))
			return ws[i];
	return NULL;
}

static int load_report(const char *dir, const struct apod_workload *const *ws,
                       const struct apod_workload **w, void **params, char *stage, size_t len)
{
	char path[4096];
	json_object *rep, *x, *pj;
	int rc = -1, fd;
	if (path_in(path, sizeof path, dir, "report", ".json"))
		return -1;
	errno = 0;
	if ((fd = apod_infile_open(path)) < 0)
		return errno == ENOENT ? apod_usage_fail("%s: missing or not valid JSON (is %s a "
		                                         "results directory?)", path, dir) : -1;
	rep = json_object_from_fd(fd);
	close(fd);
	if (!rep)
		return apod_usage_fail("%s: not valid JSON (is %s a results directory?)", path, dir);
	if (!json_object_object_get_ex(rep, "workload", &x) || !json_object_is_type(x, json_type_string))
		apod_usage_fail("%s: no 'workload' (written by an older apod? rerun it)", path);
	else if (!(*w = find_workload(ws, json_object_get_string(x)))) {
		char shown[4 * 64 + 1];
		apod_escape(shown, sizeof shown, json_object_get_string(x),
		            strlen(json_object_get_string(x)));
		apod_usage_fail("%s: workload '%s' is not built into this program", path, shown);
	} else if (!json_object_object_get_ex(rep, "params", &pj))
		apod_usage_fail("%s: no 'params' object", path);
	else if ((*params = apod_params_new(*w)) != NULL) {
		if (apod_params_from_json(*w, *params, pj, path) || apod_params_check(*w, *params)) {
			free(*params);
			*params = NULL;
		} else {
			rc = 0;
			if (json_object_object_get_ex(rep, "stage", &x))
				snprintf(stage, len, "%s", json_object_get_string(x));
		}
	}
	json_object_put(rep);
	return rc;
}

/* Phase i's figure from an object by phase name; 0 where it is absent. */
static void phases_from(json_object *o, const struct apod_workload *w, int n, double *v)
{
	json_object *x;
	for (int i = 0; i < n; i++)
		v[i] = json_object_object_get_ex(o, apod_phase_name(w, i), &x) ? json_object_get_double(x) : 0;
}

static double number(json_object *rep, const char *key)
{
	json_object *x;
	return json_object_object_get_ex(rep, key, &x) ? json_object_get_double(x) : 0;
}

int apod_results_load_timers(const char *dir, struct apod_run *r)
{
	char path[4096];
	json_object *rep, *x;
	int fd;
	if (path_in(path, sizeof path, dir, "report", ".json"))
		return -1;
	if ((fd = apod_infile_open(path)) < 0)
		return -1;
	rep = json_object_from_fd(fd);
	close(fd);
	if (!rep || !json_object_object_get_ex(rep, "phase_seconds", &x)) {
		if (rep)
			json_object_put(rep);
		return apod_fail("%s: no phase timers", path);
	}
	phases_from(x, r->w, r->nphases, r->phase);
	if ((r->has_device = json_object_object_get_ex(rep, "device_seconds", &x)))
		phases_from(x, r->w, r->nphases, r->device);
	if ((r->has_busy = json_object_object_get_ex(rep, "device_busy_seconds", &x))) {
		phases_from(x, r->w, r->nphases, r->busy);
		if (json_object_object_get_ex(rep, "device_work_seconds", &x))
			phases_from(x, r->w, r->nphases, r->work);
		r->busy_unattributed = number(rep, "device_busy_unattributed_seconds");
	}
	r->width = (int)number(rep, "width");
	r->total = number(rep, "total_seconds");
	r->snapshots = (long)number(rep, "snapshots");
	r->background = number(rep, "snapshot_background_seconds");
	r->unmarked = number(rep, "unmarked_step_seconds");
	/* A report written before calls were kept: the calls of a stage
	 * without advance, which is what wrote it. */
	r->calls[apod_phase_snapshot(r->w)] = r->snapshots;
	if (json_object_object_get_ex(rep, "phase_calls", &x))
		for (int i = 0; i < r->nphases; i++) {
			json_object *c;
			if (json_object_object_get_ex(x, apod_phase_name(r->w, i), &c))
				r->calls[i] = json_object_get_int64(c) > 0 ? (long)json_object_get_int64(c) : 0;
		}
	json_object_put(rep);
	return 0;
}

static int load_array(const char *path, struct apod_array_data *d)
{
	void *data;
	enum apod_dtype t;
	int ndim;
	size_t dims[2];
	if (apod_npy_read(path, &data, &t, &ndim, dims))
		return -1;
	if (ndim != d->ndim || dims[0] != d->dims[0] || dims[1] != d->dims[1]) {
		free(data);
		return apod_usage_fail("%s: shape (%zu, %zu) does not match the parameters' (%zu, %zu)",
		                       path, dims[0], dims[1], d->dims[0], d->dims[1]);
	}
	/* Floats may come in either precision (a float build's run); integers
	 * only as declared, since they are compared as such. */
	if ((apod_dtype_integer(t) || apod_dtype_integer(d->dtype)) && t != d->dtype) {
		free(data);
		return apod_usage_fail("%s: holds '%s' values; the workload declares '%s'", path,
		                       apod_dtype_descr(t), apod_dtype_descr(d->dtype));
	}
	free(d->data);
	d->data = data;
	d->dtype = t;
	return 0;
}

int apod_results_load(const char *dir, const struct apod_workload *const *workloads,
                      void **params, struct apod_run *r)
{
	const struct apod_workload *w = NULL;
	char path[4096], stage[32] = "?";
	*params = NULL;
	if (load_report(dir, workloads, &w, params, stage, sizeof stage))
		return -1;
	if (apod_run_alloc(r, w, *params)) {
		free(*params);
		return -1;
	}
	snprintf(r->stage, sizeof r->stage, "%s", stage);
	for (int a = 0; a < r->narrays; a++)
		if (path_in(path, sizeof path, dir, w->arrays[a].name, ".npy") ||
		    load_array(path, &r->arrays[a]))
			goto fail;
	for (int i = 0; i < r->nseries; i++)
		if (path_in(path, sizeof path, dir, w->series[i].name, ".csv") ||
		    apod_series_csv_read(path, &r->series[i]))
			goto fail;
	return 0;
fail:
	apod_run_free(r);
	free(*params);
	*params = NULL;
	return -1;
}
