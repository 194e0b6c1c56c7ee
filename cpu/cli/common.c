/*
 * common.c: the program the commands serve, how they report what went wrong (one line on stderr,
 * the exit status of apod/apod.h), and the run of one stage into a
 * results directory that every command shares.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli.h"
#include "cpu/harness/fail.h"
#include "cpu/harness/outdir.h"
#include "cpu/harness/params.h"
#include "cpu/harness/trace.h"

/* Set once by apod_main, before any command runs, and never changed: the
 * name that apod_usage_error and apod_report_failure (apod/command.h, whose
 * callers include a program's own commands) begin their messages with. */
const struct apod_program *apod_prog;

int apod_cli_trace_begin(void)
{
	return apod_trace_start() ? -1 : 0;
}

int apod_report_failure(void)
{
	fprintf(stderr, "%s: %s\n", apod_prog ? apod_prog->name : "apod", apod_failure());
	return apod_failure_status();
}

int apod_usage_error(const char *cmd, const char *fmt, ...)
{
	const char *prog = apod_prog ? apod_prog->name : "apod";
	va_list ap;
	fprintf(stderr, "%s%s%s: ", prog, cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", prog);
	return APOD_EXIT_USAGE;
}

int apod_opt_count(const char *opt, const char *arg, long lo, long hi, int *v)
{
	char *end;
	long x;
	errno = 0;
	x = strtol(arg, &end, 10);
	if (end == arg || *end || errno || x < lo || x > hi)
		return apod_usage_fail("--%s: '%s' is not %ld to %ld", opt, arg, lo, hi);
	*v = (int)x;
	return 0;
}

int apod_command_error(const char *cmd)
{
	if (apod_failure_status() == APOD_EXIT_USAGE)
		return apod_usage_error(cmd, "%s", apod_failure());
	return apod_report_failure();
}

int apod_option_error(const char *cmd, int c, char **argv)
{
	apod_option_fail(c, argv);
	return apod_usage_error(cmd, "%s", apod_failure());
}

json_object *apod_json_head(const struct apod_workload *w, const void *params)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "workload", json_object_new_string(w->name));
	json_object_object_add(o, "params", apod_params_json(w, params));
	json_object_object_add(o, "host_cores", json_object_new_int64(sysconf(_SC_NPROCESSORS_ONLN)));
	return o;
}

int apod_run_stage(const struct apod_workload *w, const struct apod_stage *e, const void *params,
                   const void *problem, const char *out, unsigned flags, struct apod_run *r,
                   int *reports)
{
	char why[256] = "";
	struct apod_outdir od;
	int rep;
	if (reports)
		*reports = 1;
	if (!apod_stage_available(e, why, sizeof why))
		return apod_fail("stage %s cannot run here: %s", e->name, why);
	if ((rep = apod_stage_reporter(w, e)) < 0)
		return -1;
	if (reports)
		*reports = rep;
	if (!out)
		return apod_simulate(w, e, params, problem, NULL, flags, r);
	/* The reporter alone makes, fills and commits the results directory;
	 * the others take part in the run (it is collective) and write nothing. */
	if (apod_stage_agree(w, e, rep && apod_outdir_begin(&od, out)))
		return -1;
	if (apod_simulate(w, e, params, problem, rep ? od.staging : out, flags, r)) {
		if (rep)
			apod_outdir_abort(&od);
		return -1;
	}
	if (apod_stage_agree(w, e, rep && apod_outdir_commit(&od))) {
		apod_run_free(r);
		return -1;
	}
	return 0;
}

