/*
 * commands.h: the harness's subcommands, each described once.
 *
 * Every command is one struct apod_cmd (as tmux's cmd_entry), all of them in
 * one table, command_table.c: its name, its line in `apod --help`, its
 * synopsis, its own long options and whether it takes the deck options;
 * its main and its options are in its own cmd_*.c.  From that one entry
 * come the help listing, the dispatch (main.c), the command's own usage
 * text, the option names a workload key may not take (apod_option_taken)
 * and, through tests/check_cli.c, the check of doc/apod.1's SYNOPSIS.
 */
#ifndef APOD_COMMANDS_H
#define APOD_COMMANDS_H

#include <getopt.h>

#include "cli.h"

struct apod_cmd {
	const char *name;              /* "run"; NULL for the table (apod with no command) */
	const char *help;              /* its line in apod --help */
	/* Its arguments after "apod NAME", as words: [--opt=ARG] optional,
	 * UPPER a value, "[deck options]" where the deck options go. */
	const char *synopsis;
	const char *about;             /* what `apod NAME --help` says under the usage */
	const struct option *options;  /* its own long options, zero-ended; NULL: none */
	int deck;                      /* takes --workload, --deck and --KEY=VALUE */
	int (*main)(int argc, char **argv);   /* argv[0] is the command's name */
};

extern const struct apod_cmd apod_cmd_table_entry, apod_cmd_run_entry, apod_cmd_stages_entry,
	apod_cmd_workloads_entry, apod_cmd_verify_entry, apod_cmd_assess_entry,
	apod_cmd_info_entry, apod_cmd_bench_entry, apod_cmd_scale_entry, apod_cmd_new_entry,
	apod_cmd_ceilings_entry, apod_cmd_report_entry;
/* Every command, the table first, in the order of apod --help; NULL-ended. */
extern const struct apod_cmd *const apod_commands[];

/* Each command's main and own options, for its entry (cmd_*.c). */
int apod_table_main(int argc, char **argv), apod_run_main(int argc, char **argv),
	apod_stages_main(int argc, char **argv), apod_workloads_main(int argc, char **argv),
	apod_verify_main(int argc, char **argv), apod_assess_main(int argc, char **argv),
	apod_info_main(int argc, char **argv), apod_bench_main(int argc, char **argv),
	apod_scale_main(int argc, char **argv), apod_ceilings_main(int argc, char **argv),
	apod_new_main(int argc, char **argv), apod_report_main(int argc, char **argv);
extern const struct option apod_table_options[], apod_assess_options[], apod_bench_options[],
	apod_scale_options[], apod_ceilings_options[], apod_new_options[], apod_verify_options[],
	apod_report_options[];
/* `apod info`'s: --help alone; stages': --workload and --help; workloads':
 * those and --json. */
extern const struct option apod_help_option[], apod_workload_option[], apod_workloads_options[];

/* The command called name, or NULL. */
const struct apod_cmd *apod_cmd_find(const char *name);
/* 1 if a workload key called name would clash with an option: one of a
 * command that takes deck keys (they share its getopt_long table), or
 * --workload, --deck, --help, --version. */
int apod_option_taken(const char *name);
/* `apod NAME --help`: the usage lines (the deck options spelled out) and
 * the about text, on stdout. */
void apod_cmd_usage(const struct apod_cmd *cmd);
/* The usage lines alone: "Usage: apod NAME SYNOPSIS", wrapped; with
 * deck_spelled, "[deck options]" written out as the options it stands for. */
void apod_cmd_usage_lines(FILE *f, const struct apod_cmd *cmd, int deck_spelled);
/* The first word of text, its leading spaces skipped (a bracketed group,
 * spaces and all, is one word: "[deck options]"), its length in *len; NULL
 * where only spaces are left.  The next word starts at the return + *len. */
const char *apod_synopsis_word(const char *text, size_t *len);
/* lead, then the words of text (a bracketed group is one word), wrapped at
 * 79 columns with indent spaces before each further line; a newline ends it. */
void apod_print_words(FILE *f, const char *lead, int indent, const char *text);

/* What a command that runs a workload opens with: its options parsed (the
 * deck's, --trace and its own), --help answered, --trace started, the deck
 * resolved and, where asked, the problem created. */
struct apod_open {
	struct apod_deck_opts deck;    /* as parsed by apod_cmd_open */
	/* How the table runs the stages: --runs, --budget, --stages and
	 * --ceilings where the command's options list them, and the deck's
	 * --trace and title; the defaults elsewhere. */
	struct apod_ladder_opts ladder;
	const struct apod_workload *w;
	void *params, *problem;
	unsigned flags;                /* APOD_SIM_TRACE where --trace was given and started */
	char title[512];               /* the deck's heading (apod_deck_title) */
	int status;                    /* where apod_cmd_open returned 1: the exit status */
};
enum { APOD_OPEN_PARAMS = 1, APOD_OPEN_PROBLEM = 3 };
/* Parse argv by cmd's entry (own_opt(c, arg, ctx) takes each of its own
 * options but --trace, --help and the ladder's), then apod_cmd_begin.  0: go on, and
 * close with apod_cmd_close; 1: return o->status (help printed, or the
 * failure reported). */
int apod_cmd_open(struct apod_open *o, const struct apod_cmd *cmd, int argc, char **argv,
                  int (*own_opt)(int c, const char *arg, void *ctx), void *ctx, unsigned what);
/* After a parse of its own (apod_deck_command's rc): help printed or the
 * failure reported, the status set; 1, or 0 where rc was 0. */
int apod_cmd_parsed(struct apod_open *o, const struct apod_cmd *cmd, int rc);
/* --trace started where given, the deck resolved, the problem created
 * (APOD_OPEN_PROBLEM): 0, or 1 with the failure reported in o->status. */
int apod_cmd_begin(struct apod_open *o, const struct apod_deck_opts *dopt, unsigned what);
void apod_cmd_close(struct apod_open *o);

#endif
