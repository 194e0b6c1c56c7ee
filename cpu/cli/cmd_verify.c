/*
 * cmd_verify.c: `apod verify REFERENCE RESULT`: the gate, from the command
 * line, on two results directories.
 */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"
#include "cpu/harness/fail.h"
#include "cpu/harness/params.h"
#include "cpu/harness/results.h"
#include "cpu/harness/verify.h"

const struct option apod_verify_options[] = {
	{ "any-deck", no_argument, NULL, OPT_ANY_DECK },
	APOD_OPT_HELP, APOD_OPT_END,
};

int apod_verify_main(int argc, char **argv)
{
	void *pref = NULL, *pgot = NULL, *problem;
	struct apod_run ref, got;
	struct apod_verdict v;
	char keys[512];
	int c, any_deck = 0, ndiffer;

	opterr = 0;
	optind = 0;   /* 0, not 1: glibc then also forgets a half-read "-abc" */
	while ((c = apod_getopt(argc, argv, ":h", apod_verify_options)) != -1) {
		if (c == OPT_HELP || c == 'h') {
			apod_cmd_usage(&apod_cmd_verify_entry);
			return APOD_EXIT_OK;
		}
		if (c == OPT_ANY_DECK) {
			any_deck = 1;
			continue;
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
	ndiffer = ref.w == got.w ? apod_params_differing(ref.w, pref, pgot, keys, sizeof keys) : 0;
	if (ref.w != got.w || (ndiffer && !any_deck)) {
		if (ref.w != got.w)
			fprintf(stderr, "%s: %s and %s ran different decks (workloads %s and %s); nothing "
			        "to compare\n", apod_prog->name, argv[optind], argv[optind + 1], ref.w->name,
			        got.w->name);
		else
			fprintf(stderr, "%s: %s and %s ran different decks (they differ in %s); nothing "
			        "to compare (--any-deck compares them anyway)\n", apod_prog->name,
			        argv[optind], argv[optind + 1], keys);
		apod_run_free(&ref);
		apod_run_free(&got);
		free(pref);
		free(pgot);
		return APOD_EXIT_USAGE;
	}
	/* Across decks, the reference's deck designs the tolerances; and since
	 * any tolerance may read the problem, it is built from that deck, as
	 * the stages started from (the files hold no problem). */
	if (!(problem = ref.w->problem_create(pref))) {
		apod_run_free(&ref);
		apod_run_free(&got);
		free(pref);
		free(pgot);
		return apod_report_failure();
	}
	ref.problem = problem;
	apod_verify(pref, &ref, &got, &v);
	printf("verify %s (%s) against %s (%s): workload %s, %ld steps\n", argv[optind + 1], got.stage,
	       argv[optind], ref.stage, ref.w->name, ref.steps);
	if (ndiffer)
		printf("the decks differ in %s (--any-deck): compared under %s's tolerances\n", keys,
		       argv[optind]);
	apod_verdict_print(stdout, &v, &ref);
	ref.w->problem_destroy(problem);
	apod_run_free(&ref);
	apod_run_free(&got);
	free(pref);
	free(pgot);
	return v.ok ? APOD_EXIT_OK : APOD_EXIT_FAIL;
}
