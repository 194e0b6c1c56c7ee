/*
 * ladder_opts.c: how the table runs its stages, as the table, bench and
 * report take it from their command lines (cli.h's apod_ladder_opts).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cpu/harness/fail.h"
#include "table_rows.h"

void apod_ladder_opts_init(struct apod_ladder_opts *o)
{
	memset(o, 0, sizeof *o);
	o->runs = APOD_SPREAD_RUNS;
	o->budget = -1;
}

int apod_ladder_opt(struct apod_ladder_opts *o, int c, const char *arg)
{
	char *end;
	switch (c) {
	case OPT_RUNS:
		return apod_opt_count("runs", arg, 1, APOD_TABLE_MAX_RUNS, &o->runs);
	case OPT_BUDGET:
		errno = 0;
		o->budget = strtod(arg, &end);
		if (errno || end == arg || *end || !(o->budget >= 0) || !isfinite(o->budget))
			return apod_usage_fail("--budget=%s: not a number of seconds (0 or more)", arg);
		return 0;
	case OPT_STAGES:
		if (!*arg)
			return apod_usage_fail("--stages= names no stage");
		o->stages = arg;
		return 0;
	case OPT_CEILINGS:
		o->run.ceilings = arg;
		return 0;
	}
	return 1;
}

/* Whether list (names joined by commas) names stage e, and every name in
 * it a stage of w: 0 or 1; -1 after a usage failure naming w's stages. */
int apod_ladder_stages_named(const struct apod_workload *w, const char *list,
                             const struct apod_stage *e)
{
	int named = 0;
	while (list && *list) {
		size_t n = strcspn(list, ",");
		int found = 0;
		for (int i = 0; w->stages[i] && !found; i++)
			found = strlen(w->stages[i]->name) == n && !strncmp(w->stages[i]->name, list, n);
		if (!found) {
			char names[1024] = "";
			size_t used = 0;
			for (int i = 0; w->stages[i] && used < sizeof names; i++)
				used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
				                         i ? ", " : "", w->stages[i]->name);
			return apod_usage_fail("--stages: workload %s has no stage '%.*s' (its stages: %s)",
			                       w->name, (int)n, list, names);
		}
		named |= e && strlen(e->name) == n && !strncmp(e->name, list, n);
		list += n + (list[n] == ',');
	}
	return named;
}
