/*
 * run_args.c: the options that select a workload and its deck, and the
 * whole option parser of `apod run`, kept apart from running anything so
 * that the fuzzer (tests/fuzz/fuzz_cli.c) can drive them without starting
 * a run.
 */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cpu/harness/fail.h"
#include "cpu/harness/params.h"

const struct apod_workload *apod_cli_workload(int argc, char **argv)
{
	const char *name = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strncmp(argv[i], "--workload=", 11))
			name = argv[i] + 11;
		else if (!strcmp(argv[i], "--workload") && i + 1 < argc)
			name = argv[++i];
	}
	if (!name)
		return apod_prog->workloads[0];
	for (int i = 0; apod_prog->workloads[i]; i++)
		if (!strcmp(apod_prog->workloads[i]->name, name))
			return apod_prog->workloads[i];
	apod_usage_fail("unknown workload '%s' (see '%s workloads')", name, apod_prog->name);
	return NULL;
}

struct option *apod_longopts(const struct apod_workload *w, const struct option *own)
{
	size_t n = 0, k = 0, i = 0;
	struct option *o;
	while (own && own[n].name)
		n++;
	while (w && w->params && w->params[k].key)
		k++;
	o = calloc(n + k + 3, sizeof *o);
	if (!o) {
		apod_fail("out of memory");
		return NULL;
	}
	for (size_t j = 0; j < n; j++)
		o[i++] = own[j];
	o[i++] = (struct option){ "workload", required_argument, NULL, OPT_WORKLOAD };
	o[i++] = (struct option){ "deck", required_argument, NULL, OPT_DECK };
	for (size_t j = 0; j < k; j++)
		o[i++] = (struct option){ w->params[j].key, required_argument, NULL, OPT_PARAM + (int)j };
	return o;
}

int apod_deck_opt(struct apod_deck_opts *o, int c, const char *arg)
{
	if (c == OPT_WORKLOAD)
		return 1;    /* taken before parsing: apod_cli_workload */
	if (c == OPT_DECK) {
		o->deck = arg;
		return 1;
	}
	if (c >= OPT_PARAM && o->w && c - OPT_PARAM < 1000) {
		if (o->nsets == APOD_MAX_SETS)
			return apod_usage_fail("more than %d --KEY=VALUE options", APOD_MAX_SETS);
		o->key[o->nsets] = o->w->params[c - OPT_PARAM].key;
		o->value[o->nsets++] = arg;
		return 1;
	}
	return 0;
}

int apod_deck_resolve(void **params, const struct apod_deck_opts *o)
{
	char where[128];
	char seen[APOD_MAX_PARAMS] = { 0 };
	void *p = apod_params_new(o->w);
	if (!p)
		return -1;
	if (o->deck && apod_params_load(o->w, p, o->deck))
		goto fail;
	for (int i = 0; i < o->nsets; i++) {
		const struct apod_param *k = apod_param_find(o->w, o->key[i]);
		snprintf(where, sizeof where, "--%s", o->key[i]);
		/* A repeating key given on the command line replaces the deck's list. */
		if (k->type == APOD_PARAM_CUSTOM && k->repeats && k->reset &&
		    !seen[k - o->w->params]) {
			k->reset(p);
			seen[k - o->w->params] = 1;
		}
		if (apod_params_set(o->w, p, o->key[i], o->value[i], where))
			goto fail;
	}
	if (apod_params_check(o->w, p))
		goto fail;
	*params = p;
	return 0;
fail:
	free(p);
	return -1;
}

int apod_deck_args(const struct apod_deck_opts *o, char **args, int max)
{
	int n = 0;
	if (n < max && asprintf(&args[n], "--workload=%s", o->w->name) >= 0)
		n++;
	if (o->deck && n < max) {
		char abs[PATH_MAX];
		if (!realpath(o->deck, abs))
			snprintf(abs, sizeof abs, "%s", o->deck);
		if (asprintf(&args[n], "--deck=%s", abs) >= 0)
			n++;
	}
	for (int i = 0; i < o->nsets && n < max; i++)
		if (asprintf(&args[n], "--%s=%s", o->key[i], o->value[i]) >= 0)
			n++;
	return n;
}

void apod_deck_title(const struct apod_deck_opts *o, const void *params, char *buf, size_t len)
{
	const char *t = o->w->title ? o->w->title(params) : NULL;
	size_t used = 0;
	int n = 0;
	snprintf(buf, len, "%s", t ? t : o->w->name);
	/* The title says what the command line changed: a deck given
	 * --size=512x512 is no longer the deck its name promises. */
	for (int i = 0; i < o->nsets; i++) {
		if (!strcmp(o->key[i], "name"))
			continue;
		used = strlen(buf);
		snprintf(buf + used, len - used, "%s%s=%s", n++ ? ", " : " (changed: ", o->key[i],
		         o->value[i]);
	}
	used = strlen(buf);
	if (n)
		snprintf(buf + used, len - used, ")");
}

int apod_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts)
{
	int i = -1, c = getopt_long(argc, argv, shortopts, longopts, &i);
	const char *text;
	size_t len;
	if (c == -1 || c == ':' || c == '?' || i < 0)
		return c;
	/* The option's own word: "--NAME=VALUE", or "--NAME" before its value's. */
	text = longopts[i].has_arg != no_argument && optarg && optind >= 2 && optarg == argv[optind - 1]
	       ? argv[optind - 2] : argv[optind - 1];
	len = strcspn(text + 2, "=");
	if (strncmp(text, "--", 2) || len == strlen(longopts[i].name))
		return c;
	apod_usage_fail("option '--%.*s' is short for '--%s': give the whole name", (int)len, text + 2,
	                longopts[i].name);
	return OPT_ABBREV;
}

int apod_option_fail(int c, char **argv)
{
	if (c == OPT_ABBREV)   /* apod_getopt recorded it */
		return -1;
	if (!argv)   /* a command's own option it did not expect: a bug, named */
		return apod_fail("option %d is declared but not handled", c);
	if (c == ':')
		return apod_usage_fail("option '%s' needs a value", argv[optind - 1]);
	return apod_usage_fail("unknown option '%s'", argv[optind - 1]);
}

int apod_deck_command(int argc, char **argv, const struct option *own,
                      struct apod_deck_opts *dopt,
                      int (*own_opt)(int c, const char *arg, void *ctx), void *ctx)
{
	struct option *longopts;
	int c, d, rc = 0;

	memset(dopt, 0, sizeof *dopt);
	if (!(dopt->w = apod_cli_workload(argc, argv)) || !(longopts = apod_longopts(dopt->w, own)))
		return -1;
	opterr = 0;
	optind = 0;   /* 0, not 1: glibc then also forgets a half-read "-abc" */
	while (rc == 0 && (c = apod_getopt(argc, argv, ":h", longopts)) != -1) {
		if ((d = apod_deck_opt(dopt, c, optarg)) != 0)
			rc = d < 0 ? -1 : 0;
		else if (c == 'h' || c == OPT_HELP)
			rc = 1;
		else if (c == OPT_TRACE)
			dopt->trace = 1;
		else if (c == ':' || c == '?' || c == OPT_ABBREV || !own_opt)
			rc = apod_option_fail(c, argv);
		else
			rc = own_opt(c, optarg, ctx);
	}
	free(longopts);
	if (rc == 0 && optind < argc)
		return apod_usage_fail("unexpected argument '%s'", argv[optind]);
	return rc;
}

static int run_opt(int c, const char *arg, void *ctx)
{
	struct apod_run_args *a = ctx;
	switch (c) {
	case OPT_STAGE: a->stage = arg; return 0;
	case OPT_OUT: a->out = arg; return 0;
	case OPT_JSON: a->json = arg; return 0;
	case OPT_CEILINGS: a->run.ceilings = arg; return 0;
	case OPT_NO_SNAPSHOTS: a->run.flags |= APOD_SIM_NO_SNAPSHOTS; return 0;
	}
	return apod_option_fail(c, NULL);
}

const struct option apod_run_options[] = {
	APOD_OPT_STAGE, APOD_OPT_OUT, APOD_OPT_JSON, APOD_OPT_CEILINGS, APOD_OPT_TRACE,
	{ "no-snapshots", no_argument, NULL, OPT_NO_SNAPSHOTS }, APOD_OPT_HELP, APOD_OPT_END,
};

int apod_run_parse(int argc, char **argv, struct apod_run_args *a)
{
	int rc;
	memset(a, 0, sizeof *a);
	if ((rc = apod_deck_command(argc, argv, apod_run_options, &a->deck, run_opt, a)) != 0)
		return rc;
	if (!a->stage)
		return apod_usage_fail("which stage? give --stage=NAME (see '%s stages')",
		                       apod_prog->name);
	return 0;
}
