/*
 * apod.c: the command line.  Subcommands dispatch to cmd_*.c; this file
 * holds what they share and the help text.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fail.h"

static const char usage_text[] =
	"Usage: apod [COMMAND] [OPTION]...\n"
	"The APOD porting workbench: a serial heat-diffusion simulation with per-step\n"
	"statistics, ported stage by stage, verified and measured.\n"
	"\n"
	"Commands:\n"
	"  (none)        run the deck through every available stage and print the APOD\n"
	"                table (time, speedups, Amdahl bound, verification)\n"
	"  run           run one stage:  apod run --stage=NAME [deck options] [--out=DIR]\n"
	"                [--json=FILE]\n"
	"  stages        list the stages and whether each can run here\n"
	"  verify        compare two results directories:  apod verify REFERENCE RESULT\n"
	"  assess        profile the serial stage with gprof and print the hotspots and\n"
	"                the Amdahl and Gustafson bounds  [deck options] [--out=DIR]\n"
	"  info          host (and device) facts\n"
	"  bench         measure every stage and the GPU kernels; write JSON\n"
	"  lab           the guide's experiments on this GPU, each verified then timed\n"
	"                (apod lab lists them)\n"
	"                [deck options] [--reps=N] [--json=FILE]\n"
	"\n"
	"Deck options (for the table, run and assess):\n"
	"  --deck=FILE   read the deck (key = value lines) over the default deck\n"
	"  --size=NXxNY  grid columns x rows, each 3 to 1048576\n"
	"  --steps=N     time steps\n"
	"Table options: --out=DIR (results of each stage in DIR/STAGE), --json=FILE\n"
	"\n"
	"  -h, --help     show this help;  -V, --version  show the version\n"
	"\n"
	"Exit status: 0 success, 1 failure (I/O, memory, verification), 2 bad usage.\n"
	"See apod(1) and the walkthroughs in doc/.\n";

int apod_report_failure(void)
{
	fprintf(stderr, "apod: %s\n", apod_failure());
	return apod_failure_status();
}

int apod_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "apod%s%s: ", cmd ? " " : "", cmd ? cmd : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'apod --help' for more information.\n");
	return APOD_EXIT_USAGE;
}

int apod_option_error(const char *cmd, int c, char **argv)
{
	apod_option_fail(c, argv);
	return apod_usage_error(cmd, "%s", apod_failure());
}

int apod_run_stage(const struct apod_engine *e, const struct apod_problem *p, const char *outdir,
                   struct apod_run *r)
{
	char why[256] = "";
	if (!e->available(why, sizeof why))
		return apod_fail("stage %s cannot run here: %s", e->name, why);
	return apod_simulate(e, p, outdir, r);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {
		{ "run", apod_cmd_run },       { "stages", apod_cmd_stages },
		{ "verify", apod_cmd_verify }, { "assess", apod_cmd_assess },
		{ "info", apod_cmd_info },     { "table", apod_cmd_table },
		{ "bench", apod_cmd_bench },   { "lab", apod_cmd_lab },
	};
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		fputs(usage_text, stdout);
		return APOD_EXIT_OK;
	}
	if (argc >= 2 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))) {
		printf("apod %s (%s precision%s)\n", PACKAGE_VERSION,
		       sizeof(apod_real) == sizeof(double) ? "double" : "float",
#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
		       ", with CUDA"
#else
		       ", without CUDA"
#endif
		);
		return APOD_EXIT_OK;
	}
	if (argc < 2 || argv[1][0] == '-')
		return apod_cmd_table(argc, argv);
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	return apod_usage_error(NULL, "unknown command '%s'", argv[1]);
}
