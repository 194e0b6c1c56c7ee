#include <ctype.h>
#include <string.h>

#include <stdlib.h>

#include "fail.h"
#include "npy.h"
#include "params.h"
#include "registry.h"
#include "rundata.h"

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
	case APOD_PARAM_CHOICE: return sizeof(int);
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
		if (p->type == APOD_PARAM_CHOICE) {
			if (!p->choices || !p->choices[0])
				return apod_fail("workload %s: parameter '%s' lists no choices", w->name,
				                 p->key);
			for (int c = 0; p->choices[c]; c++)
				if (bad_name(p->choices[c]))
					return apod_fail("workload %s: parameter '%s': choice '%s' is not a "
					                 "name of a-z, 0-9 and _", w->name, p->key,
					                 p->choices[c]);
		}
	}
	return 0;
}

/* What arrays and series are both held to: a tolerance for any comparison
 * but exact, a dtype apod knows, and a horizon with something to compare
 * past it.  kind: "array" or "series". */
static int check_compared(const struct apod_workload *w, const char *kind, const char *name,
                          enum apod_compare compare, apod_tolerance_fn tolerance,
                          enum apod_dtype dtype, apod_horizon_fn horizon, enum apod_compare beyond)
{
	/* Revision 5's hooks answer for every output: where the workload has
	 * them, an output needs no tolerance or horizon of its own. */
	int tolerance_at = w->version >= 5 && w->tolerance_at;
	int horizon_of = w->version >= 5 && w->horizon_of;
	if (compare > APOD_COMPARE_STATS || beyond > APOD_COMPARE_STATS)
		return apod_fail("workload %s: %s %s has an unknown comparison", w->name, kind, name);
	if ((compare != APOD_COMPARE_EXACT || horizon) && !tolerance && !tolerance_at)
		return apod_fail("workload %s: %s %s needs a tolerance() for its comparison", w->name,
		                 kind, name);
	if (dtype > APOD_U64)
		return apod_fail("workload %s: %s %s has an unknown dtype", w->name, kind, name);
	if ((horizon || (horizon_of && beyond)) && beyond != APOD_COMPARE_STATS &&
	    !(beyond == APOD_COMPARE_DRIFT && !strcmp(kind, "series")))
		return apod_fail("workload %s: %s %s has a horizon: past it, it is compared by its "
		                 "statistics (beyond = APOD_COMPARE_STATS)%s", w->name, kind, name,
		                 strcmp(kind, "series") ? "" : " or as a conserved quantity (DRIFT)");
	if (!horizon && !horizon_of && beyond)
		return apod_fail("workload %s: %s %s says how to compare past a horizon (beyond) but "
		                 "has no horizon()", w->name, kind, name);
	return 0;
}

static int check_outputs(const struct apod_workload *w)
{
	int narrays = apod_array_count(w), nseries = apod_series_count(w);
	int nprobes = apod_probe_count(w), nsteps = apod_step_phase_count(w);
	if (narrays + nseries == 0)
		return apod_fail("workload %s declares no outputs: a run must produce something to verify",
		                 w->name);
	if (nsteps == 0)
		return apod_fail("workload %s declares no step phases (phases): a step has at least one",
		                 w->name);
	if (nsteps > APOD_MAX_STEP_PHASES)
		return apod_fail("workload %s: more than %d step phases", w->name, APOD_MAX_STEP_PHASES);
	if (nprobes > APOD_MAX_PROBES)
		return apod_fail("workload %s: more than %d probes", w->name, APOD_MAX_PROBES);
	for (int k = 0; k < nprobes; k++)
		if (!w->probes[k].every && !(w->probes[k].at & (APOD_AT_START | APOD_AT_END)))
			return apod_fail("workload %s: probe %s has neither every() nor a step it runs "
			                 "at (APOD_AT_START, APOD_AT_END)", w->name, w->probes[k].name);
	/* Every phase's name is unique: stages name the phases they port, and
	 * work() is asked for a phase by its name. */
	for (int i = 0; i < apod_phase_count(w); i++) {
		const char *name = apod_phase_name(w, i);
		if (!*name || strchr(name, ',') || strchr(name, ' '))
			return apod_fail("workload %s: phase '%s' is not a name (no commas, no spaces)",
			                 w->name, name);
		for (int j = 0; j < i; j++)
			if (!strcmp(name, apod_phase_name(w, j)))
				return apod_fail("workload %s: two phases are called '%s' (step phases, "
				                 "probes and the harness's setup, writeSnapshot, "
				                 "fetchResults, writeReport)", w->name, name);
	}
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
		if (check_compared(w, "array", d->name, d->compare, d->tolerance, d->dtype, d->horizon,
		                   d->beyond))
			return -1;
		if (d->compare == APOD_COMPARE_ULP && apod_dtype_integer(d->dtype))
			return apod_fail("workload %s: array %s: integers have no units in the last place",
			                 w->name, d->name);
	}
	for (int i = 0; i < nseries; i++) {
		const struct apod_series *s = &w->series[i];
		if (apod_series_probe(w, i) < 0)
			return apod_fail("workload %s: series %s names probe '%s', which does not exist",
			                 w->name, s->name, s->probe ? s->probe : "(null)");
		/* NAME.csv's header must have a name for every value of a row, or
		 * `apod verify` refuses the file the run wrote. */
		if (s->column_names) {
			if (apod_column_names_count(s->column_names) < 0)
				return apod_fail("workload %s: series %s: column_names '%s' has an empty name",
				                 w->name, s->name, s->column_names);
			if (s->columns)
				return apod_fail("workload %s: series %s has both column_names and columns(): "
				                 "its width is the names' count, or columns() with "
				                 "column_prefix where it depends on the deck", w->name, s->name);
		} else if (!s->columns) {
			return apod_fail("workload %s: series %s has neither column_names nor columns()",
			                 w->name, s->name);
		}
		if (check_compared(w, "series", s->name, s->compare, s->tolerance, s->dtype, s->horizon,
		                   s->beyond))
			return -1;
		if (s->dtype == APOD_F32)
			return apod_fail("workload %s: series %s: a series holds doubles (APOD_F64) or "
			                 "integers", w->name, s->name);
		if (apod_dtype_integer(s->dtype) &&
		    (s->compare == APOD_COMPARE_ULP || s->compare == APOD_COMPARE_DRIFT ||
		     ((s->horizon || (w->version >= 5 && w->horizon_of)) &&
		      s->beyond == APOD_COMPARE_DRIFT)))
			return apod_fail("workload %s: series %s: integers are compared exactly, by "
			                 "absolute difference, as counts or by their statistics", w->name,
			                 s->name);
	}
	return 0;
}

/* A stage runs its step one way: the harness's fixed list of phases
 * (create and step) or, from revision 5, its own (create_timed and
 * advance), never both.  A revision-4 workload's ops end before
 * create_timed, so they are read only from revision 5 on. */
static int check_step(const struct apod_workload *w, const struct apod_stage *e)
{
	const struct apod_stage_ops *o = e->ops;
	int timed = w->version >= 5 && (o->create_timed || o->advance);
	if (!timed) {
		if (!o->create || !o->step)
			return apod_fail("workload %s: stage %s must have create and step%s", w->name,
			                 e->name, w->version >= 5 ? ", or create_timed and advance" : "");
		return 0;
	}
	if (!o->create_timed || !o->advance)
		return apod_fail("workload %s: stage %s has one of create_timed and advance without "
		                 "the other", w->name, e->name);
	if (o->create || o->step)
		return apod_fail("workload %s: stage %s has advance and also %s: a stage with "
		                 "advance (its own step) leaves create and step NULL", w->name, e->name,
		                 o->create && o->step ? "create and step" : o->create ? "create" : "step");
	return 0;
}

static int check_stages(const struct apod_workload *w)
{
	int n = 0, baselines = 0;
	if (!w->stages || !w->stages[0])
		return apod_fail("workload %s declares no stages", w->name);
	if (strcmp(w->stages[0]->name, "serial"))
		return apod_fail("workload %s: the first stage is '%s'; it must be the serial reference, "
		                 "'serial'", w->name, w->stages[0]->name);
	for (; w->stages[n]; n++) {
		const struct apod_stage *e = w->stages[n];
		const struct apod_stage_ops *o = e->ops;
		unsigned long long mask;
		char bad[128];
		if (bad_name(e->name))
			return apod_fail("workload %s: stage '%s' is not a name of a-z, 0-9 and _", w->name,
			                 e->name ? e->name : "(null)");
		for (int j = 0; j < n; j++)
			if (!strcmp(e->name, w->stages[j]->name))
				return apod_fail("workload %s: two stages are called '%s'", w->name, e->name);
		if (apod_ports_parse(w, e->ports, &mask, bad, sizeof bad))
			return apod_fail("workload %s: stage %s ports '%s', which is no phase of the "
			                 "workload (its step phases, probes, setup, writeSnapshot, "
			                 "fetchResults, writeReport)", w->name, e->name, bad);
		if (n == 0 && mask)
			return apod_fail("workload %s: the serial reference ports no phase", w->name);
		if (mask & apod_phase_bit(w, apod_phase_report(w)))
			return apod_fail("workload %s: stage %s ports writeReport, which is the harness's "
			                 "own", w->name, e->name);
		if (n == 0 && !o)
			return apod_fail("workload %s: the serial reference has no ops: it must be built",
			                 w->name);
		if (!o) {
			if (!e->needs || !*e->needs)
				return apod_fail("workload %s: stage %s is not in this build (no ops) and "
				                 "does not say what it needs (needs)", w->name, e->name);
			continue;
		}
		if (check_step(w, e))
			return -1;
		if (!o->destroy || (!o->fetch && apod_array_count(w)) ||
		    (!o->probe && apod_probe_count(w)))
			return apod_fail("workload %s: stage %s must have create, step, destroy, fetch "
			                 "(where there are arrays) and probe (where there are probes)",
			                 w->name, e->name);
		if (!o->collect != !(o->defer_rows > 0))
			return apod_fail("workload %s: stage %s: collect and defer_rows go together",
			                 w->name, e->name);
		if (e->role > APOD_ROLE_ALGORITHM || (n == 0 && e->role))
			return apod_fail("workload %s: stage %s: role %u is not one this harness knows "
			                 "(the reference's is 0)", w->name, e->name, e->role);
		if (e->role == APOD_ROLE_HOST_BASELINE && baselines++)
			return apod_fail("workload %s: two stages are the host baseline", w->name);
		if (e->runs_on & ~(APOD_RUNS_HOST_CORE | APOD_RUNS_HOST_CORES | APOD_RUNS_DEVICE |
		                   APOD_RUNS_OVER_BUS))
			return apod_fail("workload %s: stage %s runs on an unknown resource", w->name,
			                 e->name);
		if (!o->mark != !o->device_seconds)
			return apod_fail("workload %s: stage %s has one of mark and device_seconds "
			                 "without the other", w->name, e->name);
		if (!o->snapshot_begin != !o->snapshot_stream)
			return apod_fail("workload %s: stage %s has one of snapshot_begin and "
			                 "snapshot_stream without the other", w->name, e->name);
		if (!o->reporter != !o->agree)
			return apod_fail("workload %s: stage %s has one of reporter and agree without "
			                 "the other", w->name, e->name);
		if (o->reporter && o->snapshot_begin)
			return apod_fail("workload %s: stage %s runs as several processes and cannot "
			                 "stream snapshots", w->name, e->name);
	}
	return 0;
}

/* The oldest revision this harness reads: every revision from it on only
 * appends members, so a workload built against any of them still loads. */
#define APOD_OLDEST_VERSION 4

static int check_version(const struct apod_workload *w)
{
	if (!w)
		return apod_fail("a NULL workload");
	if (w->version >= 1 && w->version < APOD_OLDEST_VERSION)
		return apod_fail("workload %s: written for interface revision %d; this harness reads "
		                 "revisions %d to %d (a step of named phases, stages described once "
		                 "with their ops apart, ports and work by phase name: see "
		                 "doc/extending.md, \"Moving to revision 4\")",
		                 w->name ? w->name : "(unnamed)", w->version, APOD_OLDEST_VERSION,
		                 APOD_WORKLOAD_VERSION);
	if (w->version > APOD_WORKLOAD_VERSION)
		return apod_fail("workload %s: built against a newer apod (revision %d); this library "
		                 "reads revisions %d to %d", w->name ? w->name : "(unnamed)", w->version,
		                 APOD_OLDEST_VERSION, APOD_WORKLOAD_VERSION);
	if (w->version < APOD_OLDEST_VERSION)
		return apod_fail("workload %s: interface version %d, but this harness reads revisions "
		                 "%d to %d", w->name ? w->name : "(unnamed)", w->version,
		                 APOD_OLDEST_VERSION, APOD_WORKLOAD_VERSION);
	return 0;
}

static int check_current(const struct apod_workload *w, int (*taken)(const char *key))
{
	if (bad_name(w->name))
		return apod_fail("workload '%s': a name must be a-z, 0-9 and _",
		                 w->name ? w->name : "(null)");
	if (!w->steps || !w->problem_create || !w->problem_destroy || !w->phases)
		return apod_fail("workload %s: steps, problem_create, problem_destroy and phases "
		                 "are required", w->name);
	return check_params(w, taken) || check_outputs(w) || check_stages(w) ? -1 : 0;
}

int apod_workload_valid(const struct apod_workload *w, int (*taken)(const char *key))
{
	return check_version(w) || check_current(w, taken) ? -1 : 0;
}

const struct apod_program *apod_registry_load(const struct apod_program *prog,
                                              int (*taken)(const char *key))
{
	static struct apod_program loaded;
	static const struct apod_workload **list;
	int n = 0;
	if (!prog || !prog->name || !prog->workloads || !prog->workloads[0])
		return apod_fail("the program declares no workloads"), NULL;
	while (prog->workloads[n])
		n++;
	free(list);
	if (!(list = calloc((size_t)n + 1, sizeof *list)))
		return apod_fail("out of memory"), NULL;
	for (int i = 0; i < n; i++) {
		list[i] = prog->workloads[i];
		if (check_version(list[i]) || check_current(list[i], taken))
			return NULL;
		for (int j = 0; j < i; j++)
			if (!strcmp(list[i]->name, list[j]->name))
				return apod_fail("two workloads are called '%s'", list[i]->name), NULL;
	}
	loaded = *prog;
	loaded.workloads = list;
	return &loaded;
}
