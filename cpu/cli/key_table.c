/*
 * key_table.c: a workload's key table as data (`apod workloads
 * --workload=NAME --json=FILE`), for programs that write decks, such as the
 * deck-space test's generator (tests/deckspace/gen.awk).
 *
 * Beside what the deck parser checks (type, default, range, choices), each
 * key carries what the workload's own callbacks say it does, found by
 * setting it to two values over the default deck and asking them: whether
 * it sets the number of steps (steps()), a probe's or the snapshots'
 * schedule (every(), snapshot_every()), and how a run's declared work
 * (steps() times the work() of every step phase) grows with it, as the
 * exponent e of work ~ value^e.  So a generator can keep a deck within a
 * budget of work, and exercise a schedule against the steps it runs,
 * without a rule of its own for any workload: a workload added with its
 * folder and one line gets its decks drawn from this table alone.
 *
 * One key a line, inside an otherwise ordinary JSON object, so that line
 * tools read it as easily as JSON readers do.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "commands.h"
#include "cpu/harness/fail.h"
#include "cpu/harness/outfile.h"
#include "cpu/harness/params.h"
#include "cpu/harness/run.h"
#include "key_table.h"

#define WHERE "the key table"

static const char *type_word(enum apod_param_type t)
{
	switch (t) {
	case APOD_PARAM_INT: return "integer";
	case APOD_PARAM_REAL: return "number";
	case APOD_PARAM_PAIR: return "pair";
	case APOD_PARAM_NAME: return "name";
	case APOD_PARAM_CHOICE: return "choice";
	default: return "text";
	}
}

/* A run's declared work, or its steps alone where the workload declares
 * none; *declared says which. */
static double run_work(const struct apod_workload *w, const void *params, int *declared)
{
	double step = 0;
	*declared = 0;
	for (int j = 0; w->work && j < apod_step_phase_count(w); j++) {
		struct apod_work wk = { 0 };
		if (!w->work(params, NULL, w->phases[j].name, &wk))
			continue;
		*declared = 1;
		step += wk.bytes + wk.flops32 + wk.flops64 + wk.special;
	}
	return (double)w->steps(params) * (*declared ? step : 1);
}

/* The schedule the deck sets: every probe's period and the snapshots'. */
static void schedule(const struct apod_workload *w, const void *params, long *at, int n)
{
	for (int k = 0; k < n; k++)
		at[k] = k < apod_probe_count(w) ? (w->probes[k].every ? w->probes[k].every(params) : 0)
		                                 : (w->snapshot_every ? w->snapshot_every(params) : 0);
}

/* Component c of an integer or pair key (0 for an integer). */
static long *slot(void *params, const struct apod_param *p, int c)
{
	return (long *)((char *)params + p->offset) + c;
}

/* Set component c of p to v over the defaults, by its text, as a deck would. */
static void *with(const struct apod_workload *w, const struct apod_param *p, int c, long v)
{
	char text[64];
	void *params = apod_params_new(w);
	if (!params)
		return NULL;
	if (p->type == APOD_PARAM_PAIR)
		snprintf(text, sizeof text, "%ldx%ld", c ? *slot(params, p, 0) : v,
		         c ? v : *slot(params, p, 1));
	else
		snprintf(text, sizeof text, "%ld", v);
	if (apod_params_set(w, params, p->key, text, WHERE)) {
		free(params);
		return NULL;
	}
	return params;
}

/* What component c of an integer or pair key does: its role and e. */
static const char *effect(const struct apod_workload *w, const struct apod_param *p, int c,
                          double *e)
{
	int nsched = apod_probe_count(w) + 1, declared;
	long s1[nsched + 1], s2[nsched + 1];
	const char *role = NULL;
	void *base = apod_params_new(w), *a = NULL, *b = NULL;
	*e = 0;
	if (!base)
		return NULL;
	long v0 = *slot(base, p, c), v1 = v0 <= p->hi / 2 ? 2 * v0 : v0 / 2;
	/* A schedule key: 1 and 2 give schedules of their own. */
	if (p->lo <= 1 && p->hi >= 2 && (a = with(w, p, c, 1)) && (b = with(w, p, c, 2))) {
		schedule(w, a, s1, nsched);
		schedule(w, b, s2, nsched);
		if (memcmp(s1, s2, sizeof(long) * (size_t)nsched))
			role = "schedule";
	}
	free(a);
	free(b);
	a = NULL;
	if (v0 >= 1 && v1 >= 1 && v1 >= p->lo && v1 != v0 && (a = with(w, p, c, v1))) {
		double w0 = run_work(w, base, &declared), w1 = run_work(w, a, &declared);
		if (w->steps(a) != w->steps(base))
			role = "steps";
		if (w0 > 0 && w1 > 0)
			*e = round(100 * log(w1 / w0) / log((double)v1 / (double)v0)) / 100;
	}
	free(a);
	free(base);
	if (!role && *e > 0)
		role = "size";
	return role;
}

/* A real as a deck would write it (the shortest text that reads back the
 * same), not json-c's 17 digits. */
static json_object *real(double v)
{
	char text[64];
	apod_format_real(text, sizeof text, v);
	return json_object_new_double_s(v, text);
}

static json_object *number(const struct apod_param *p, double v)
{
	return p->type == APOD_PARAM_REAL ? real(v) : json_object_new_int64((int64_t)v);
}

static json_object *key_json(const struct apod_workload *w, const struct apod_param *p)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "key", json_object_new_string(p->key));
	json_object_object_add(o, "type", json_object_new_string(type_word(p->type)));
	if (p->repeats)
		json_object_object_add(o, "repeats", json_object_new_boolean(1));
	if (p->neutral)
		json_object_object_add(o, "neutral", json_object_new_boolean(1));
	if (p->def) {
		/* A repeating key's defaults, one value each. */
		json_object *d = json_object_new_array();
		char *all = strdup(p->def), *save = NULL;
		for (char *v = all ? strtok_r(all, ";", &save) : NULL; v; v = strtok_r(NULL, ";", &save)) {
			while (*v == ' ')
				v++;
			json_object_array_add(d, json_object_new_string(v));
		}
		free(all);
		if (!p->repeats) {
			json_object *one = json_object_get(json_object_array_get_idx(d, 0));
			json_object_put(d);
			d = one;
		}
		json_object_object_add(o, "default", d);
	}
	if (p->type == APOD_PARAM_INT || p->type == APOD_PARAM_REAL || p->type == APOD_PARAM_PAIR) {
		json_object_object_add(o, "lo", number(p, p->lo));
		json_object_object_add(o, "hi", number(p, p->hi));
		if (p->lo_open)
			json_object_object_add(o, "lo_open", json_object_new_boolean(1));
	}
	if (p->type == APOD_PARAM_CHOICE) {
		json_object *c = json_object_new_array();
		for (int i = 0; p->choices[i]; i++)
			json_object_array_add(c, json_object_new_string(p->choices[i]));
		json_object_object_add(o, "choices", c);
	}
	if (p->type == APOD_PARAM_INT || p->type == APOD_PARAM_PAIR) {
		json_object *ex = json_object_new_array();
		const char *role = NULL;
		for (int c = 0; c < (p->type == APOD_PARAM_PAIR ? 2 : 1); c++) {
			double e;
			const char *r = effect(w, p, c, &e);
			role = role ? role : r;
			json_object_array_add(ex, real(e));
		}
		if (role)
			json_object_object_add(o, "role", json_object_new_string(role));
		if (p->type != APOD_PARAM_PAIR) {
			json_object *one = json_object_get(json_object_array_get_idx(ex, 0));
			json_object_put(ex);
			ex = one;
		}
		json_object_object_add(o, "work_exponent", ex);
	}
	return o;
}

int apod_key_table_write(const struct apod_workload *w, const char *path)
{
	struct apod_outfile out;
	int declared = 0;
	void *params = apod_params_new(w);
	if (!params)
		return -1;
	run_work(w, params, &declared);
	free(params);
	if (apod_outfile_open(&out, path))
		return -1;
	fprintf(out.f, "{\"workload\": \"%s\", \"declares_work\": %s, \"keys\": [\n", w->name,
	        declared ? "true" : "false");
	for (const struct apod_param *p = w->params; p && p->key; p++) {
		json_object *o = key_json(w, p);
		int flags = JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE;
		fprintf(out.f, "%s%s\n", json_object_to_json_string_ext(o, flags), p[1].key ? "," : "");
		json_object_put(o);
	}
	fprintf(out.f, "]}\n");
	return apod_outfile_commit(&out);
}
