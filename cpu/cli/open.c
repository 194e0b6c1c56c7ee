/*
 * open.c: how every command that runs a workload opens: its options
 * parsed, --help answered, --trace started, the deck resolved, the problem
 * created; and the one place that frees what that made.
 */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "cpu/harness/fail.h"

int apod_cmd_parsed(struct apod_open *o, const struct apod_cmd *cmd, int rc)
{
	if (rc == 0)
		return 0;
	if (rc > 0) {
		apod_cmd_usage(cmd);
		o->status = APOD_EXIT_OK;
	} else {
		o->status = apod_command_error(cmd->name);
	}
	return 1;
}

int apod_cmd_begin(struct apod_open *o, const struct apod_deck_opts *dopt, unsigned what)
{
	o->w = dopt->w;
	o->params = o->problem = NULL;
	o->flags = dopt->trace ? APOD_SIM_TRACE : 0;
	if ((dopt->trace && apod_cli_trace_begin()) || apod_deck_resolve(&o->params, dopt) ||
	    ((what & APOD_OPEN_PROBLEM) == APOD_OPEN_PROBLEM &&
	     !(o->problem = o->w->problem_create(o->params)))) {
		apod_cmd_close(o);
		o->status = apod_report_failure();
		return 1;
	}
	apod_deck_title(dopt, o->params, o->title, sizeof o->title);
	o->ladder.run.flags = o->flags;
	o->ladder.title = o->title;
	return 0;
}

/* The ladder's options into o->ladder, then the command's own. */
struct ladder_first {
	struct apod_ladder_opts *ladder;
	int (*own_opt)(int c, const char *arg, void *ctx);
	void *ctx;
};

static int ladder_then_own(int c, const char *arg, void *ctx)
{
	struct ladder_first *f = ctx;
	int rc = apod_ladder_opt(f->ladder, c, arg);
	if (rc <= 0)
		return rc;
	return f->own_opt ? f->own_opt(c, arg, f->ctx) : apod_option_fail(c, NULL);
}

int apod_cmd_open(struct apod_open *o, const struct apod_cmd *cmd, int argc, char **argv,
                  int (*own_opt)(int c, const char *arg, void *ctx), void *ctx, unsigned what)
{
	struct ladder_first f = { &o->ladder, own_opt, ctx };
	memset(o, 0, sizeof *o);
	apod_ladder_opts_init(&o->ladder);
	if (apod_cmd_parsed(o, cmd, apod_deck_command(argc, argv, cmd->options, &o->deck,
	                                              ladder_then_own, &f)))
		return 1;
	/* A wrong name is a usage error before anything is looked for or run
	 * (report's gnuplot, the ceilings). */
	if (o->ladder.stages && apod_ladder_stages_named(o->deck.w, o->ladder.stages, NULL) < 0) {
		o->status = apod_report_failure();
		return 1;
	}
	return apod_cmd_begin(o, &o->deck, what);
}

void apod_cmd_close(struct apod_open *o)
{
	if (o->problem)
		o->w->problem_destroy(o->problem);
	free(o->params);
	o->problem = o->params = NULL;
}
