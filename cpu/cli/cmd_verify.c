/*
 * cmd_verify.c: `apod verify REFERENCE RESULT`: the gate, from the command
 * line, on two results directories.
 */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "fail.h"
#include "params.h"
#include "results.h"
#include "verify.h"

static const struct option verify_options[] = {
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static int verify_main(int argc, char **argv)
{
	void *pref = NULL, *pgot = NULL;
	struct apod_run ref, got;
	struct apod_verdict v;
	const char *key = NULL;
	int c;

	opterr = 0;
	optind = 0;   /* 0, not 1: glibc then also forgets a half-read "-abc" */
	while ((c = apod_getopt(argc, argv, ":h", verify_options)) != -1) {
		if (c == OPT_HELP || c == 'h') {
			apod_cmd_usage(&apod_cmd_verify_entry);
			return APOD_EXIT_OK;
		}
		return apod_option_error("verify", c, argv);
	}
	if (argc - optind != 2)
		return apod_usage_error("verify", "expected two results directories, got %d",
		                        argc - optind);
	if (apod_results_load(argv[optind], apod_prog->workloads, &pref, &ref))
		return apod_report_failure();
	if (apod_results_load(argv[optind + 1], apod_prog->workloads, &pgot, &got)) {
		apod_run_free(&ref);
		free(pref);
		return apod_report_failure();
	}
	if (ref.w != got.w || !apod_params_same(ref.w, pref, pgot, &key)) {
		if (ref.w != got.w)
			fprintf(stderr, "%s: %s and %s ran different decks (workloads %s and %s); nothing "
			        "to compare\n", apod_prog->name, argv[optind], argv[optind + 1], ref.w->name,
			        got.w->name);
		else
			fprintf(stderr, "%s: %s and %s ran different decks (they differ in '%s'); nothing "
			        "to compare\n", apod_prog->name, argv[optind], argv[optind + 1], key);
		apod_run_free(&ref);
		apod_run_free(&got);
		free(pref);
		free(pgot);
		return APOD_EXIT_USAGE;
	}
	apod_verify(pref, &ref, &got, &v);
	printf("verify %s (%s) against %s (%s): workload %s, %ld steps\n", argv[optind + 1], got.stage,
	       argv[optind], ref.stage, ref.w->name, ref.steps);
	apod_verdict_print(stdout, &v, &ref);
	apod_run_free(&ref);
	apod_run_free(&got);
	free(pref);
	free(pgot);
	return v.ok ? APOD_EXIT_OK : APOD_EXIT_FAIL;
}

const struct apod_cmd apod_cmd_verify_entry = {
	.name = "verify",
	.help = "compare two results directories under their workload's tolerances",
	.synopsis = "REFERENCE_DIR RESULT_DIR",
	.about = "Compare two results directories (as written by run --out) under the\n"
	         "tolerances their workload designs.  Exit 0 if they agree, 1 if they do not.\n",
	.options = verify_options,
	.main = verify_main,
};
