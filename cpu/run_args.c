/*
 * run_args.c: the options that select a deck, and the whole option parser
 * of `apod run`, kept apart from running anything so that the fuzzer
 * (tests/fuzz/fuzz_cli.c) can drive them without starting a simulation.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "fail.h"

int apod_deck_opt(struct apod_deck_opts *o, int c, const char *arg)
{
	switch (c) {
	case OPT_DECK:
		o->deck = arg;
		return 1;
	case OPT_SIZE:
		o->size = arg;
		return 1;
	case OPT_STEPS:
		o->steps = arg;
		return 1;
	}
	return 0;
}

int apod_deck_resolve(struct apod_deck *d, const struct apod_deck_opts *o)
{
	apod_deck_defaults(d);
	if (o->deck && apod_deck_load(d, o->deck))
		return -1;
	if (o->size && apod_deck_set(d, "size", o->size, "--size"))
		return -1;
	if (o->steps && apod_deck_set(d, "steps", o->steps, "--steps"))
		return -1;
	return apod_deck_validate(d);
}

int apod_option_fail(int c, char **argv)
{
	if (c == ':')
		return apod_usage_fail("option '%s' needs a value", argv[optind - 1]);
	return apod_usage_fail("unknown option '%s'", argv[optind - 1]);
}

int apod_run_parse(int argc, char **argv, struct apod_run_args *a)
{
	static const struct option longopts[] = {
		APOD_DECK_LONGOPTS,
		{ "stage", required_argument, NULL, OPT_STAGE },
		{ "out", required_argument, NULL, OPT_OUT },
		{ "json", required_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(a, 0, sizeof *a);
	opterr = 0;
	optind = 0;   /* 0, not 1: glibc then also forgets a half-read "-abc" */
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (apod_deck_opt(&a->deck, c, optarg))
			continue;
		switch (c) {
		case OPT_STAGE: a->stage = optarg; break;
		case OPT_OUT: a->out = optarg; break;
		case OPT_JSON: a->json = optarg; break;
		case 'h':
		case OPT_HELP:
			return 1;
		default:
			return apod_option_fail(c, argv);
		}
	}
	if (optind < argc)
		return apod_usage_fail("unexpected argument '%s'", argv[optind]);
	if (!a->stage)
		return apod_usage_fail("which stage? give --stage=NAME (see 'apod stages')");
	return 0;
}
