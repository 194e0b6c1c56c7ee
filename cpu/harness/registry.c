#include <ctype.h>
#include <string.h>

#include "fail.h"
#include "params.h"
#include "registry.h"
#include "run.h"

static int bad_name(const char *s)
{
	if (!s || !*s)
		return 1;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_')
			return 1;
	return 0;
}

static size_t value_size(enum apod_param_type t)
{
	switch (t) {
	case APOD_PARAM_INT: return sizeof(long);
	case APOD_PARAM_REAL: return sizeof(double);
	case APOD_PARAM_PAIR: return 2 * sizeof(long);
	case APOD_PARAM_NAME: return APOD_NAME_MAX;
	default: return 0;
	}
}

static int check_params(const struct apod_workload *w, int (*taken)(const char *key))
{
	int n = 0;
	while (w->params && w->params[n].key)
		n++;
	/* The deck parser and the command line track keys in fixed tables. */
	if (n > APOD_MAX_PARAMS)
		return apod_fail("workload %s declares %d parameters; at most %d", w->name, n,
		                 APOD_MAX_PARAMS);
	for (const struct apod_param *p = w->params; p && p->key; p++) {
		if (bad_name(p->key))
			return apod_fail("workload %s: parameter '%s' is not a name of a-z, 0-9 and _", w->name,
			                 p->key);
		if (taken && taken(p->key))
			return apod_fail("workload %s: parameter '%s' would clash with the option --%s",
			                 w->name, p->key, p->key);
		for (const struct apod_param *q = w->params; q < p; q++)
			if (!strcmp(p->key, q->key))
				return apod_fail("workload %s: parameter '%s' is declared twice", w->name, p->key);
		if (p->type == APOD_PARAM_CUSTOM && !p->set)
			return apod_fail("workload %s: custom parameter '%s' has no set function", w->name,
			                 p->key);
		if (p->type != APOD_PARAM_CUSTOM && p->offset + value_size(p->type) > w->params_size)
			return apod_fail("workload %s: parameter '%s' lies outside the parameter struct",
			                 w->name, p->key);
	}
	return 0;
}

static int check_outputs(const struct apod_workload *w)
{
	int narrays = apod_array_count(w), nseries = apod_series_count(w);
	int nprobes = apod_probe_count(w);
	if (narrays == 0)
		return apod_fail("workload %s declares no arrays: a run must produce something to verify",
		                 w->name);
	if (nprobes > APOD_MAX_PROBES)
		return apod_fail("workload %s: more than %d probes", w->name, APOD_MAX_PROBES);
	for (int k = 0; k < nprobes; k++)
		if (!w->probes[k].every)
			return apod_fail("workload %s: probe %s has no every()", w->name, w->probes[k].name);
	for (int i = 0; i < narrays + nseries; i++) {
		const char *name = i < narrays ? w->arrays[i].name : w->series[i - narrays].name;
		if (bad_name(name) || !strcmp(name, "report"))
			return apod_fail("workload %s: output '%s' is not a file name of a-z, 0-9 and _ "
			                 "(nor 'report')", w->name, name);
		for (int j = 0; j < i; j++) {
			const char *other = j < narrays ? w->arrays[j].name : w->series[j - narrays].name;
			if (!strcmp(name, other))
				return apod_fail("workload %s: two outputs are called '%s'", w->name, name);
		}
	}
	for (int a = 0; a < narrays; a++) {
		const struct apod_array *d = &w->arrays[a];
		if (!d->shape)
			return apod_fail("workload %s: array %s has no shape()", w->name, d->name);
		if (d->compare == APOD_COMPARE_COUNTS || d->compare == APOD_COMPARE_DRIFT)
			return apod_fail("workload %s: array %s: counts and drift apply to series only",
			                 w->name, d->name);
		if (d->compare != APOD_COMPARE_EXACT && !d->tolerance)
			return apod_fail("workload %s: array %s needs a tolerance() for its comparison",
			                 w->name, d->name);
	}
	for (int i = 0; i < nseries; i++) {
		const struct apod_series *s = &w->series[i];
		if (s->probe < 0 || s->probe >= nprobes)
			return apod_fail("workload %s: series %s names probe %d, which does not exist",
			                 w->name, s->name, s->probe);
		if (!s->columns)
			return apod_fail("workload %s: series %s has no columns()", w->name, s->name);
		if (s->compare != APOD_COMPARE_EXACT && !s->tolerance)
			return apod_fail("workload %s: series %s needs a tolerance() for its comparison",
			                 w->name, s->name);
	}
	return 0;
}

static int check_stages(const struct apod_workload *w)
{
	int n = 0;
	if (!w->stages || !w->stages[0])
		return apod_fail("workload %s declares no stages", w->name);
	if (strcmp(w->stages[0]->name, "serial"))
		return apod_fail("workload %s: the first stage is '%s'; it must be the serial reference, "
		                 "'serial'", w->name, w->stages[0]->name);
	for (; w->stages[n]; n++) {
		const struct apod_stage *e = w->stages[n];
		if (bad_name(e->name))
			return apod_fail("workload %s: stage '%s' is not a name of a-z, 0-9 and _", w->name,
			                 e->name ? e->name : "(null)");
		for (int j = 0; j < n; j++)
			if (!strcmp(e->name, w->stages[j]->name))
				return apod_fail("workload %s: two stages are called '%s'", w->name, e->name);
		if (!e->available)
			return apod_fail("workload %s: stage %s has no available()", w->name, e->name);
		if (!e->create != !e->step || !e->create != !e->fetch || !e->create != !e->destroy ||
		    (!e->create && n == 0))
			return apod_fail("workload %s: stage %s must have all of create, step, fetch and "
			                 "destroy (or none, if it is never available)", w->name, e->name);
		if (e->create && apod_probe_count(w) > 0 && !e->probe)
			return apod_fail("workload %s: stage %s has no probe() for the workload's probes",
			                 w->name, e->name);
		if (!e->mark != !e->device_seconds)
			return apod_fail("workload %s: stage %s has one of mark and device_seconds "
			                 "without the other", w->name, e->name);
		if (!e->snapshot_begin != !e->snapshot_stream)
			return apod_fail("workload %s: stage %s has one of snapshot_begin and "
			                 "snapshot_stream without the other", w->name, e->name);
		if (n == 0 && e->ports)
			return apod_fail("workload %s: the serial reference ports no phase", w->name);
		if (w->version >= 2 && !e->reporter != !e->agree)
			return apod_fail("workload %s: stage %s has one of reporter and agree without "
			                 "the other", w->name, e->name);
		if (w->version >= 2 && e->reporter && e->snapshot_begin)
			return apod_fail("workload %s: stage %s runs as several processes and cannot "
			                 "stream snapshots", w->name, e->name);
	}
	return 0;
}

int apod_workload_valid(const struct apod_workload *w, int (*taken)(const char *key))
{
	if (!w)
		return apod_fail("a NULL workload");
	if (w->version < 1 || w->version > APOD_WORKLOAD_VERSION)
		return apod_fail("workload %s: interface version %d, but this harness knows 1 to %d",
		                 w->name ? w->name : "(unnamed)", w->version, APOD_WORKLOAD_VERSION);
	if (bad_name(w->name))
		return apod_fail("workload '%s': a name must be a-z, 0-9 and _",
		                 w->name ? w->name : "(null)");
	if (!w->steps || !w->problem_create || !w->problem_destroy || !w->step_phase)
		return apod_fail("workload %s: steps, problem_create, problem_destroy and step_phase "
		                 "are required", w->name);
	return check_params(w, taken) || check_outputs(w) || check_stages(w) ? -1 : 0;
}

int apod_registry_check(const struct apod_program *prog, int (*taken)(const char *key))
{
	if (!prog || !prog->name || !prog->workloads || !prog->workloads[0])
		return apod_fail("the program declares no workloads");
	for (int i = 0; prog->workloads[i]; i++) {
		if (apod_workload_valid(prog->workloads[i], taken))
			return -1;
		for (int j = 0; j < i; j++)
			if (!strcmp(prog->workloads[i]->name, prog->workloads[j]->name))
				return apod_fail("two workloads are called '%s'", prog->workloads[i]->name);
	}
	return 0;
}
