/*
 * main.c: apod_main(), the command line every program built on the
 * harness gets.  Subcommands dispatch to cmd_*.c; this file holds what
 * they share and the help text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fail.h"
#include "registry.h"
#include "threads.h"


static const char usage_text[] =
	"Commands:\n"
	"  (none)        run the deck through every available stage and print the APOD\n"
	"                table (time, speedups, Amdahl bound, verification)\n"
	"  run           run one stage:  run --stage=NAME [deck options] [--out=DIR]\n"
	"                [--json=FILE] [--trace]  (--trace: the device's busy time per\n"
	"                phase, from CUPTI; also for the table and bench)\n"
	"  stages        list the workload's stages and whether each can run here\n"
	"  workloads     list the workloads and their parameters\n"
	"  verify        compare two results directories:  verify REFERENCE RESULT\n"
	"  assess        profile the serial stage with gprof and print the hotspots and\n"
	"                the Amdahl and Gustafson bounds  [deck options] [--out=DIR]\n"
	"  info          host (and device) facts\n"
	"  bench         measure every stage (and, where there are some, the GPU kernels);\n"
	"                write JSON  [deck options] [--reps=N] [--kernels] [--json=FILE]\n"
	"                [--trace]\n"
	"  scale         strong and weak scaling of the omp stage against Amdahl and\n"
	"                Gustafson; JSON and plot data  [deck options] [--threads=LIST]\n"
	"                [--reps=N] [--no-weak] [--json=FILE]\n"
	"  new NAME      write a workload skeleton to start a port from (NAME/)\n"
	"                [--gpu] (with a GPU stage, stage_gpu.cu, built by nvcc)\n";

static const char deck_text[] =
	"\n"
	"Deck options (for the table, run, bench and assess):\n"
	"  --workload=NAME  the workload (default: the first listed by 'workloads')\n"
	"  --deck=FILE      read the deck (key = value lines) over the defaults\n"
	"  --KEY=VALUE      set one key of the workload's deck ('workloads --workload=NAME'\n"
	"                   lists them with their defaults), e.g. --steps=50\n"
	"Table options: --out=DIR (results of each stage in DIR/STAGE), --json=FILE,\n"
	"  --trace\n"
	"\n"
	"  -h, --help     show this help;  -V, --version  show the version\n"
	"\n"
	"Exit status: 0 success, 1 failure (I/O, memory, verification), 2 bad usage.\n";

static void usage(void)
{
	printf("Usage: %s [COMMAND] [OPTION]...\n%s%s\n\n%s", apod_prog->name,
	       apod_prog->about ? apod_prog->about : "", apod_prog->about ? "" : "", usage_text);
	for (int i = 0; apod_prog->commands && apod_prog->commands[i].name; i++)
		printf("  %-13s %s\n", apod_prog->commands[i].name, apod_prog->commands[i].help);
	fputs(deck_text, stdout);
}

int apod_main(int argc, char **argv, const struct apod_program *prog)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {
		{ "run", apod_cmd_run },           { "stages", apod_cmd_stages },
		{ "verify", apod_cmd_verify },     { "assess", apod_cmd_assess },
		{ "info", apod_cmd_info },         { "table", apod_cmd_table },
		{ "bench", apod_cmd_bench },       { "workloads", apod_cmd_workloads },
		{ "new", apod_cmd_new },           { "scale", apod_cmd_scale },
	};
	apod_prog = prog;
	apod_cap_threads();
	if (apod_registry_check(prog))
		return fprintf(stderr, "%s: %s\n", prog && prog->name ? prog->name : "apod",
		               apod_failure()), APOD_EXIT_FAIL;
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
		return apod_cmd_table(argc, argv);
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	for (int i = 0; prog->commands && prog->commands[i].name; i++)
		if (!strcmp(argv[1], prog->commands[i].name))
			return prog->commands[i].run(argc - 1, argv + 1);
	return apod_usage_error(NULL, "unknown command '%s'", argv[1]);
}
