#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fail.h"
#include "npy.h"
#include "outfile.h"
#include "results.h"

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

json_object *apod_deck_json(const struct apod_deck *d)
{
	json_object *o = json_object_new_object(), *src = json_object_new_array();
	double lo = d->hist_range_set ? d->hist_lo : apod_deck_tmin(d);
	double hi = d->hist_range_set ? d->hist_hi : apod_deck_tmax(d);
	json_object_object_add(o, "name", json_object_new_string(d->name));
	json_object_object_add(o, "nx", json_object_new_int64((int64_t)d->nx));
	json_object_object_add(o, "ny", json_object_new_int64((int64_t)d->ny));
	json_object_object_add(o, "steps", json_object_new_int64(d->steps));
	json_object_object_add(o, "alpha", json_object_new_double(d->alpha));
	json_object_object_add(o, "t_init", json_object_new_double(d->t_init));
	json_object_object_add(o, "t_hot", json_object_new_double(d->t_hot));
	json_object_object_add(o, "t_cold", json_object_new_double(d->t_cold));
	json_object_object_add(o, "summary_every", json_object_new_int64(d->summary_every));
	json_object_object_add(o, "snapshot_every", json_object_new_int64(d->snapshot_every));
	json_object_object_add(o, "zones_x", json_object_new_int(d->zones_x));
	json_object_object_add(o, "zones_y", json_object_new_int(d->zones_y));
	json_object_object_add(o, "hist_bins", json_object_new_int(d->hist_bins));
	json_object_object_add(o, "hist_lo", json_object_new_double(lo));
	json_object_object_add(o, "hist_hi", json_object_new_double(hi));
	for (int i = 0; i < d->nsources; i++) {
		json_object *s = json_object_new_object();
		json_object_object_add(s, "x", json_object_new_double(d->sources[i].x));
		json_object_object_add(s, "y", json_object_new_double(d->sources[i].y));
		json_object_object_add(s, "r", json_object_new_double(d->sources[i].r));
		json_object_object_add(s, "temp", json_object_new_double(d->sources[i].temp));
		json_object_array_add(src, s);
	}
	json_object_object_add(o, "sources", src);
	return o;
}

json_object *apod_report_json(const struct apod_deck *d, const struct apod_run *r)
{
	json_object *o = json_object_new_object(), *ph = json_object_new_object();
	json_object *fin = json_object_new_object();
	const struct apod_moments *m = &r->moments[r->steps - 1];
	json_object_object_add(o, "program", json_object_new_string("apod"));
	json_object_object_add(o, "version", json_object_new_string(PACKAGE_VERSION));
	json_object_object_add(o, "stage", json_object_new_string(r->stage));
	json_object_object_add(o, "precision", json_object_new_string(r->was_double ? "double" : "float"));
	json_object_object_add(o, "width", json_object_new_int(r->width));
	json_object_object_add(o, "deck", apod_deck_json(d));
	for (int i = 0; i < APOD_NPHASES; i++)
		json_object_object_add(ph, apod_phase_name(i), json_object_new_double(r->phase[i]));
	json_object_object_add(o, "phase_seconds", ph);
	json_object_object_add(o, "total_seconds", json_object_new_double(r->total));
	json_object_object_add(fin, "mean", json_object_new_double(m->mean));
	json_object_object_add(fin, "min", json_object_new_double(m->min));
	json_object_object_add(fin, "max", json_object_new_double(m->max));
	json_object_object_add(fin, "variance", json_object_new_double(apod_moments_variance(m)));
	json_object_object_add(o, "final", fin);
	json_object_object_add(o, "snapshots", json_object_new_int64(r->snapshots));
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

static int path_in(char *buf, size_t len, const char *dir, const char *name)
{
	if (snprintf(buf, len, "%s/%s", dir, name) >= (int)len)
		return apod_usage_fail("%s: path too long", dir);
	return 0;
}

static int write_stats(const char *path, const struct apod_run *r)
{
	struct apod_outfile o;
	if (apod_outfile_open(&o, path))
		return -1;
	fprintf(o.f, "step,mean,min,max,variance\n");
	for (long s = 0; s < r->steps; s++) {
		const struct apod_moments *m = &r->moments[s];
		fprintf(o.f, "%ld,%.17g,%.17g,%.17g,%.17g\n", s + 1, m->mean, m->min, m->max,
		        apod_moments_variance(m));
	}
	return apod_outfile_commit(&o);
}

static int write_hist(const char *path, const struct apod_run *r)
{
	struct apod_outfile o;
	if (apod_outfile_open(&o, path))
		return -1;
	fprintf(o.f, "step");
	for (int b = 0; b < r->nbins; b++)
		fprintf(o.f, ",bin%d", b);
	fputc('\n', o.f);
	for (long s = 0; s < r->steps; s++) {
		fprintf(o.f, "%ld", s + 1);
		for (int b = 0; b < r->nbins; b++)
			fprintf(o.f, ",%u", r->hist[(size_t)s * (size_t)r->nbins + (size_t)b]);
		fputc('\n', o.f);
	}
	return apod_outfile_commit(&o);
}

static int write_zones(const char *path, const struct apod_run *r)
{
	struct apod_outfile o;
	if (apod_outfile_open(&o, path))
		return -1;
	fprintf(o.f, "step");
	for (int z = 0; z < r->nzones; z++)
		fprintf(o.f, ",zone%d", z);
	fputc('\n', o.f);
	for (long k = 0; k < r->nsummaries; k++) {
		fprintf(o.f, "%ld", r->summary_step[k]);
		for (int z = 0; z < r->nzones; z++)
			fprintf(o.f, ",%.17g", r->zones[(size_t)k * (size_t)r->nzones + (size_t)z]);
		fputc('\n', o.f);
	}
	return apod_outfile_commit(&o);
}

int apod_results_write(const char *dir, const struct apod_problem *p, const struct apod_run *r)
{
	char path[4096];
	json_object *rep;
	int rc;
	if (path_in(path, sizeof path, dir, "field.npy") ||
	    apod_npy_write(path, r->field, r->ny, r->nx) ||
	    path_in(path, sizeof path, dir, "stats.csv") || write_stats(path, r) ||
	    path_in(path, sizeof path, dir, "hist.csv") || write_hist(path, r) ||
	    path_in(path, sizeof path, dir, "zones.csv") || write_zones(path, r) ||
	    path_in(path, sizeof path, dir, "report.json"))
		return -1;
	rep = apod_report_json(p->deck, r);
	rc = apod_json_write(path, rep);
	json_object_put(rep);
	return rc;
}

/* ---- reading back ---------------------------------------------------- */

static int get_num(json_object *o, const char *key, double *v, const char *path)
{
	json_object *x;
	if (!json_object_object_get_ex(o, key, &x) ||
	    !(json_object_is_type(x, json_type_double) || json_object_is_type(x, json_type_int)))
		return apod_usage_fail("%s: missing or non-numeric '%s'", path, key);
	*v = json_object_get_double(x);
	return 0;
}

static int deck_from_json(json_object *o, struct apod_deck *d, const char *path)
{
	double v[15];
	static const char *const keys[15] = {
		"nx", "ny", "steps", "alpha", "t_init", "t_hot", "t_cold", "summary_every",
		"snapshot_every", "zones_x", "zones_y", "hist_bins", "hist_lo", "hist_hi", NULL
	};
	json_object *src, *name;
	apod_deck_defaults(d);
	for (int i = 0; keys[i]; i++)
		if (get_num(o, keys[i], &v[i], path))
			return -1;
	d->nx = (size_t)v[0];
	d->ny = (size_t)v[1];
	d->steps = (long)v[2];
	d->alpha = v[3];
	d->t_init = v[4];
	d->t_hot = v[5];
	d->t_cold = v[6];
	d->summary_every = (long)v[7];
	d->snapshot_every = (long)v[8];
	d->zones_x = (int)v[9];
	d->zones_y = (int)v[10];
	d->hist_bins = (int)v[11];
	d->hist_lo = v[12];
	d->hist_hi = v[13];
	d->hist_range_set = 1;
	if (d->nx < 3 || d->ny < 3 || d->nx > APOD_MAX_DIM || d->ny > APOD_MAX_DIM ||
	    d->steps < 1 || d->steps > APOD_MAX_STEPS || d->hist_bins < 1 ||
	    d->hist_bins > APOD_MAX_BINS || d->zones_x < 1 || d->zones_y < 1 ||
	    d->zones_x > APOD_MAX_ZONES || d->zones_y > APOD_MAX_ZONES || d->summary_every < 0 ||
	    !(d->hist_lo < d->hist_hi))
		return apod_usage_fail("%s: deck values out of range", path);
	if (json_object_object_get_ex(o, "name", &name) && json_object_is_type(name, json_type_string))
		snprintf(d->name, sizeof d->name, "%s", json_object_get_string(name));
	d->nsources = 0;
	if (json_object_object_get_ex(o, "sources", &src) && json_object_is_type(src, json_type_array)) {
		size_t n = json_object_array_length(src);
		if (n > APOD_MAX_SOURCES)
			return apod_usage_fail("%s: more than %d sources", path, APOD_MAX_SOURCES);
		for (size_t i = 0; i < n; i++) {
			json_object *s = json_object_array_get_idx(src, i);
			struct apod_source *t = &d->sources[i];
			if (get_num(s, "x", &t->x, path) || get_num(s, "y", &t->y, path) ||
			    get_num(s, "r", &t->r, path) || get_num(s, "temp", &t->temp, path))
				return -1;
		}
		d->nsources = (int)n;
	}
	return 0;
}

/* Read a CSV file of our own making: a header, then rows of `cols` numbers. */
static int read_csv(const char *path, size_t cols, size_t rows, double *out)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, row = 0;
	ssize_t len;
	if (!f)
		return apod_usage_fail("%s: cannot open: %s", path, strerror(errno));
	if (getline(&line, &cap, f) < 0)
		goto malformed;
	while ((len = getline(&line, &cap, f)) > 0) {
		char *p = line, *end;
		if (row == rows)
			goto malformed;
		for (size_t c = 0; c < cols; c++) {
			errno = 0;
			out[row * cols + c] = strtod(p, &end);
			if (end == p || errno == ERANGE)
				goto malformed;
			p = end;
			if (c + 1 < cols) {
				if (*p != ',')
					goto malformed;
				p++;
			}
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
	free(line);
	fclose(f);
	return apod_usage_fail("%s: malformed: expected %zu rows of %zu numbers after a header",
	                       path, rows, cols);
}

int apod_results_load(const char *dir, struct apod_deck *d, struct apod_run *r)
{
	char path[4096];
	json_object *rep, *deck = NULL, *x;
	long nsum;
	size_t ny, nx;
	int was_double;
	apod_real *field;
	double *buf = NULL;

	if (path_in(path, sizeof path, dir, "report.json"))
		return -1;
	rep = json_object_from_file(path);
	if (!rep)
		return apod_usage_fail("%s: missing or not valid JSON (is %s a results directory?)",
		                       path, dir);
	if (!json_object_object_get_ex(rep, "deck", &deck) || deck_from_json(deck, d, path)) {
		if (!deck)
			apod_usage_fail("%s: no 'deck' object", path);
		json_object_put(rep);
		return -1;
	}
	nsum = d->summary_every ? d->steps / d->summary_every : 0;
	if (apod_run_alloc(r, d->nx, d->ny, d->steps, d->hist_bins, d->zones_x * d->zones_y, nsum)) {
		json_object_put(rep);
		return -1;
	}
	if (json_object_object_get_ex(rep, "stage", &x))
		snprintf(r->stage, sizeof r->stage, "%s", json_object_get_string(x));
	json_object_put(rep);

	if (path_in(path, sizeof path, dir, "field.npy") ||
	    apod_npy_read(path, &field, &ny, &nx, &was_double))
		goto fail;
	if (ny != d->ny || nx != d->nx) {
		free(field);
		apod_usage_fail("%s: shape (%zu, %zu) does not match the deck's %zux%zu", path, ny, nx,
		                d->nx, d->ny);
		goto fail;
	}
	free(r->field);
	r->field = field;
	r->was_double = was_double;

	{
		size_t cols = 5 + (size_t)r->nbins, zc = 1 + (size_t)r->nzones;
		size_t need = (size_t)r->steps * cols;
		if ((size_t)nsum * zc > need)
			need = (size_t)nsum * zc;
		buf = malloc(need * sizeof *buf);
		if (!buf) {
			apod_fail("cannot allocate %zu values to read %s", need, dir);
			goto fail;
		}
		if (path_in(path, sizeof path, dir, "stats.csv") || read_csv(path, 5, (size_t)r->steps, buf))
			goto fail;
		for (long s = 0; s < r->steps; s++) {
			const double *row = buf + s * 5;
			struct apod_moments *m = &r->moments[s];
			m->n = (double)(d->nx * d->ny);
			m->mean = row[1];
			m->min = row[2];
			m->max = row[3];
			m->m2 = row[4] * m->n;
		}
		cols = 1 + (size_t)r->nbins;
		if (path_in(path, sizeof path, dir, "hist.csv") ||
		    read_csv(path, cols, (size_t)r->steps, buf))
			goto fail;
		for (long s = 0; s < r->steps; s++)
			for (int b = 0; b < r->nbins; b++)
				r->hist[(size_t)s * (size_t)r->nbins + (size_t)b] =
					(unsigned)buf[(size_t)s * cols + 1 + (size_t)b];
		if (path_in(path, sizeof path, dir, "zones.csv") || read_csv(path, zc, (size_t)nsum, buf))
			goto fail;
		for (long k = 0; k < nsum; k++) {
			r->summary_step[k] = (long)buf[(size_t)k * zc];
			memcpy(r->zones + (size_t)k * (size_t)r->nzones, buf + (size_t)k * zc + 1,
			       (size_t)r->nzones * sizeof *buf);
		}
	}
	free(buf);
	return 0;
fail:
	free(buf);
	apod_run_free(r);
	return -1;
}
