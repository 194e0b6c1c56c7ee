/*
 * mpirun.c: the launcher (mpirun.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/harness/fail.h"
#include "cpu/harness/run.h"
#include "mpirun.h"

/* name as execvp would take it: a path as given, else the first on PATH. */
static int find_on_path(const char *name, char *out, size_t len)
{
	const char *path = getenv("PATH"), *p;
	if (strchr(name, '/')) {
		snprintf(out, len, "%s", name);
		return access(out, X_OK);
	}
	for (p = path && *path ? path : "/usr/bin:/bin"; p; ) {
		const char *colon = strchr(p, ':');
		int n = colon ? (int)(colon - p) : (int)strlen(p);
		snprintf(out, len, "%.*s/%s", n, n ? p : ".", name);
		if (access(out, X_OK) == 0)
			return 0;
		p = colon ? colon + 1 : NULL;
	}
	return -1;
}

int apod_mpirun_find(struct apod_mpirun *m)
{
	const char *name = getenv("APOD_MPIRUN"), *args = getenv("APOD_MPIRUN_ARGS");
	char *tok, *save = NULL;
	memset(m, 0, sizeof *m);
	if (!name || !*name)
		name = "mpirun";
	if (find_on_path(name, m->path, sizeof m->path))
		return apod_usage_fail("--ranks: no launcher: '%s' cannot be run (install Open MPI or "
		                       "MPICH, or set APOD_MPIRUN to mpirun's path)", name);
	if (!args)
		return 0;
	if (strlen(args) >= sizeof m->buf)
		return apod_usage_fail("APOD_MPIRUN_ARGS: longer than %zu characters", sizeof m->buf - 1);
	memcpy(m->buf, args, strlen(args) + 1);
	for (tok = strtok_r(m->buf, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		if (m->nargs == APOD_MPIRUN_MAX_ARGS)
			return apod_usage_fail("APOD_MPIRUN_ARGS: more than %d words", APOD_MPIRUN_MAX_ARGS);
		m->args[m->nargs++] = tok;
	}
	return 0;
}

int apod_mpirun_argv(const struct apod_mpirun *m, int nranks, char *np, char **argv)
{
	int argc = 0;
	snprintf(np, 16, "%d", nranks);
	argv[argc++] = (char *)m->path;
	argv[argc++] = "-np";
	argv[argc++] = np;
	for (int i = 0; i < m->nargs; i++)
		argv[argc++] = m->args[i];
	return argc;
}

int apod_stage_runs_ranks(const struct apod_stage *e)
{
	return e && e->ops && e->ops->reporter;
}
