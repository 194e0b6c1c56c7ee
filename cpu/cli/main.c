/*
 * main.c: apod_main(), the command line every program built on the
 * harness gets.  The commands are the entries of apod_commands
 * (commands.c), then the program's own; this file dispatches to them and
 * lists them for --help.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apod/ranks.h"
#include "commands.h"
#include "cpu/harness/fail.h"
#include "cpu/harness/registry.h"
#include "cpu/harness/results.h"
#include "threads.h"

static const char deck_text[] =
	"\n"
	"Deck options (for every command whose synopsis above says [deck options]):\n"
	"  --workload=NAME  the workload (default: the first listed by 'workloads')\n"
	"  --deck=FILE      read the deck (key = value lines) over the defaults\n"
	"  --KEY=VALUE      set one key of the workload's deck ('workloads --workload=NAME'\n"
	"                   lists them with their defaults), e.g. --steps=50\n"
	"Long options are given whole: an abbreviation such as --work is refused.\n"
	"'%s COMMAND --help' says more about each command.\n"
	"\n"
	"  -h, --help     show this help;  -V, --version  show the version\n"
	"\n"
	"Exit status: 0 success, 1 failure (I/O, memory, verification), 2 bad usage.\n";

static void usage(void)
{
	printf("Usage: %s [COMMAND] [OPTION]...\n%s\n\nCommands:\n", apod_prog->name,
	       apod_prog->about ? apod_prog->about : "");
	for (int i = 0; apod_commands[i]; i++) {
		const struct apod_cmd *c = apod_commands[i];
		char lead[32];
		snprintf(lead, sizeof lead, "  %-13s ", c->name ? c->name : "(none)");
		apod_print_words(stdout, lead, 16, c->help);
		if (*c->synopsis)
			apod_print_words(stdout, "                ", 18, c->synopsis);
	}
	for (int i = 0; apod_prog->commands && apod_prog->commands[i].name; i++) {
		char lead[32];
		snprintf(lead, sizeof lead, "  %-13s ", apod_prog->commands[i].name);
		apod_print_words(stdout, lead, 16, apod_prog->commands[i].help);
	}
	printf(deck_text, apod_prog->name);
}

int apod_close_stdout(int status)
{
	int lost = ferror(stdout);
	errno = 0;
	if (fflush(stdout) == 0 && !lost)
		return status;
	fprintf(stderr, "%s: write error on standard output%s%s\n",
	        apod_prog && apod_prog->name ? apod_prog->name : "apod", errno ? ": " : "",
	        errno ? strerror(errno) : "");
	return status == APOD_EXIT_OK ? APOD_EXIT_FAIL : status;
}

static int dispatch(int argc, char **argv, const struct apod_program *prog)
{
	const struct apod_cmd *c;
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		usage();
		return APOD_EXIT_OK;
	}
	if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		printf("%s (apod harness %s, workload interface version %d)\n", prog->name,
		       APOD_HARNESS_VERSION, APOD_WORKLOAD_VERSION);
		return APOD_EXIT_OK;
	}
	if (argc < 2 || argv[1][0] == '-')
		return apod_cmd_table_entry.main(argc, argv);
	if ((c = apod_cmd_find(argv[1])) != NULL)
		return c->main(argc - 1, argv + 1);
	for (int i = 0; prog->commands && prog->commands[i].name; i++)
		if (!strcmp(argv[1], prog->commands[i].name))
			return prog->commands[i].run(argc - 1, argv + 1);
	return apod_usage_error(NULL, "unknown command '%s'", argv[1]);
}

/* Started by a launcher as one of several processes: every one starts MPI
 * here, before it reads a stage, and they compare their whole command lines
 * at once.  Ranks given different stages or options would otherwise part:
 * one running a stage of one process and writing its results while
 * another waits for it in MPI's start, or a collective, for ever. */
static int agree_on_args(int argc, char **argv)
{
	int n = apod_ranks_launched();
	if (n == 0 || n == 1)
		return 0;
	if (!apod_ranks_built())
		return n < 0 ? 0 : apod_usage_fail("a launcher started %d processes of this program, "
		                                   "whose apod library was built without MPI: each "
		                                   "would run alone, all writing the same results; "
		                                   "run it without the launcher", n);
	return apod_ranks_same_args(argc, argv);
}

int apod_main(int argc, char **argv, const struct apod_program *prog)
{
	apod_cap_threads();
	if (!(apod_prog = apod_registry_load(prog, apod_option_taken)))
		return fprintf(stderr, "%s: %s\n", prog && prog->name ? prog->name : "apod",
		               apod_failure()), APOD_EXIT_FAIL;
	apod_report_set_program(apod_prog->name);
	/* Every rank says why it stops: each one's output may go to a file of
	 * its own. */
	if (agree_on_args(argc, argv)) {
		if (apod_ranks_started())
			fprintf(stderr, "%s: rank %d of %d: %s\n", apod_prog->name, apod_ranks_rank(),
			        apod_ranks_size(), apod_failure());
		else
			fprintf(stderr, "%s: %s\n", apod_prog->name, apod_failure());
		return apod_failure_status();
	}
	return apod_close_stdout(dispatch(argc, argv, apod_prog));
}
