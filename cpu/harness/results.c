/*
 * results.c: write a run's results directory, and read one back.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
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
#include "typed.h"

const char *apod_run_precision(const struct apod_run *r)
{
	for (int a = 0; a < r->narrays; a++)
		if (r->arrays[a].dtype == APOD_F32)
			return "float";
	return "double";
}

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
			json_object_object_add(fin, t, apod_series_json(d, last + (size_t)c));
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

static int write_series(const char *path, const struct apod_series *s,
                        const struct apod_series_data *d)
{
	struct apod_outfile o;
	if (apod_outfile_open(&o, path))
		return -1;
	fprintf(o.f, "step");
	if (s->column_names)
		fprintf(o.f, ",%s", s->column_names);
	else
		for (int c = 0; c < d->cols; c++)
			fprintf(o.f, ",%s%d", s->column_prefix ? s->column_prefix : "v", c);
	fputc('\n', o.f);
	for (long k = 0; k < d->rows; k++) {
		fprintf(o.f, "%ld", d->step[k]);
		for (int c = 0; c < d->cols; c++) {
			char text[320];   /* %.0f of the largest double: 309 digits */
			/* Counts are whole numbers, written as such. */
			apod_series_format(text, sizeof text, d, s->compare == APOD_COMPARE_COUNTS,
			                   (size_t)k * (size_t)d->cols + (size_t)c);
			fprintf(o.f, ",%s", text);
		}
		fputc('\n', o.f);
	}
	return apod_outfile_commit(&o);
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
		    write_series(path, &w->series[i], &r->series[i]))
			return -1;
	if (path_in(path, sizeof path, dir, "report", ".json"))
		return -1;
	rep = apod_report_json(params, r);
	rc = apod_json_write(path, rep);
	json_object_put(rep);
	return rc;
}

/* ---- reading back ---------------------------------------------------- */

/* A step number as write_series writes it: decimal digits, then the comma
 * or the line's end.  (Read as a double and cast, nan, inf or 1e300 were
 * undefined behaviour.) */
static int parse_step(const char *p, char **end, long *step)
{
	long long v;
	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	v = strtoll(p, end, 10);
	if (errno == ERANGE || v > LONG_MAX || (**end != ',' && **end != '\n' && **end != '\0'))
		return -1;
	*step = (long)v;
	return 0;
}

/* Read a CSV file of our own making: a header, then rows of a step number
 * and `cols` numbers. */
static int read_csv(const char *path, size_t cols, size_t rows, long *steps, double *out)
{
	FILE *f = apod_infile_fopen(path);
	char *line = NULL;
	size_t cap = 0, row = 0;
	ssize_t len;
	if (!f)
		return -1;
	if (getline(&line, &cap, f) < 0)
		goto malformed;
	while ((len = getline(&line, &cap, f)) > 0) {
		char *p = line, *end;
		if (row == rows)
			goto malformed;
		if ((size_t)len != strlen(line))
			goto malformed;   /* a NUL byte inside the line */
		if (parse_step(p, &end, &steps[row])) {
			char shown[4 * 40 + 1];
			size_t n = strcspn(p, ",\n");
			apod_escape(shown, sizeof shown, p, n < 40 ? n : 40);
			apod_usage_fail("%s: line %zu: the step '%s%s' is not a whole number from 0 to %ld",
			                path, row + 2, shown, n > 40 ? "..." : "", LONG_MAX);
			goto fail;
		}
		p = end;
		for (size_t c = 0; c < cols; c++) {
			if (*p++ != ',')
				goto malformed;
			errno = 0;
			out[row * cols + c] = strtod(p, &end);
			if (end == p || errno == ERANGE)
				goto malformed;
			p = end;
		}
		if (*p != '\n' && *p != '\0')
			goto malformed;
		row++;
	}
	if (row != rows)
		goto malformed;
	free(line);
	fclose(f);
	return 0;
malformed:
	apod_usage_fail("%s: malformed: expected %zu rows of a step and %zu numbers after a header",
	                path, rows, cols);
fail:
	free(line);
	fclose(f);
	return -1;
}

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
	for (int i = 0; i < r->nseries; i++) {
		struct apod_series_data *d = &r->series[i];
		if (d->iv) {
			if (path_in(path, sizeof path, dir, w->series[i].name, ".csv") ||
			    apod_series_read_ints(path, d))
				goto fail;
			continue;
		}
		if (path_in(path, sizeof path, dir, w->series[i].name, ".csv") ||
		    read_csv(path, (size_t)d->cols, (size_t)d->rows, d->step, d->v))
			goto fail;
	}
	return 0;
fail:
	apod_run_free(r);
	free(*params);
	*params = NULL;
	return -1;
}
