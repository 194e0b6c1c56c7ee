/*
 * cmd_verify.c: `apod verify REFERENCE RESULT`: the gate, from the command
 * line, on two results directories.
 */
#include <stdio.h>

#include "cli.h"
#include "fail.h"
#include "results.h"
#include "verify.h"

/* Two runs are comparable only if every input that shapes the results is
 * the same (the name and the snapshot interval do not). */
static int same_deck(const struct apod_deck *a, const struct apod_deck *b)
{
	if (a->nx != b->nx || a->ny != b->ny || a->steps != b->steps || a->alpha != b->alpha ||
	    a->t_init != b->t_init || a->t_hot != b->t_hot || a->t_cold != b->t_cold ||
	    a->summary_every != b->summary_every || a->zones_x != b->zones_x ||
	    a->zones_y != b->zones_y || a->hist_bins != b->hist_bins || a->hist_lo != b->hist_lo ||
	    a->hist_hi != b->hist_hi || a->nsources != b->nsources)
		return 0;
	for (int i = 0; i < a->nsources; i++)
		if (a->sources[i].x != b->sources[i].x || a->sources[i].y != b->sources[i].y ||
		    a->sources[i].r != b->sources[i].r || a->sources[i].temp != b->sources[i].temp)
			return 0;
	return 1;
}

int apod_cmd_verify(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	struct apod_deck dref, dgot;
	struct apod_run ref, got;
	struct apod_tolerance tol;
	struct apod_verdict v;
	int c;

	opterr = 0;
	optind = 0;   /* 0, not 1: glibc then also forgets a half-read "-abc" */
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (c == OPT_HELP || c == 'h') {
			printf("Usage: apod verify REFERENCE_DIR RESULT_DIR\n"
			       "Compare two results directories (as written by apod run --out) under\n"
			       "the tolerances designed in doc/verification.md.  Exit 0 if they agree,\n"
			       "1 if they do not.\n");
			return APOD_EXIT_OK;
		}
		return apod_usage_error("verify", "unknown option '%s'", argv[optind - 1]);
	}
	if (argc - optind != 2)
		return apod_usage_error("verify", "expected two results directories, got %d",
		                        argc - optind);
	if (apod_results_load(argv[optind], &dref, &ref))
		return apod_report_failure();
	if (apod_results_load(argv[optind + 1], &dgot, &got)) {
		apod_run_free(&ref);
		return apod_report_failure();
	}
	if (!same_deck(&dref, &dgot)) {
		fprintf(stderr, "apod: %s and %s ran different decks (%zux%zu %ld steps against "
		        "%zux%zu %ld steps); nothing to compare\n", argv[optind], argv[optind + 1],
		        dref.nx, dref.ny, dref.steps, dgot.nx, dgot.ny, dgot.steps);
		apod_run_free(&ref);
		apod_run_free(&got);
		return APOD_EXIT_USAGE;
	}
	apod_tolerance_design(&tol, &dref, !ref.was_double || !got.was_double);
	apod_verify(&ref, &got, &tol, &v);
	printf("verify %s (%s) against %s (%s): %zux%zu, %ld steps\n", argv[optind + 1], got.stage,
	       argv[optind], ref.stage, dref.nx, dref.ny, dref.steps);
	apod_verdict_print(stdout, &v, &tol, dref.nx);
	apod_run_free(&ref);
	apod_run_free(&got);
	return v.ok ? APOD_EXIT_OK : APOD_EXIT_FAIL;
}
