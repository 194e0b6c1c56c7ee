/*
 * cmd_verify.c: `apod verify REFERENCE RESULT`: the gate, from the command
 * line, on two results directories.
 */
#include <stdio.h>

#include "cli.h"
#include "fail.h"
#include "results.h"
#include "verify.h"

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
	optind = 1;
	while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		if (c == OPT_HELP) {
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
	if (dref.nx != dgot.nx || dref.ny != dgot.ny || dref.steps != dgot.steps ||
	    dref.alpha != dgot.alpha || dref.hist_bins != dgot.hist_bins) {
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
