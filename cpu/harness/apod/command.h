/*
 * apod/command.h: for a subcommand a program adds to its apod command
 * (struct apod_command in apod/apod.h, as the apod program adds `apod lab`),
 * so that it parses options, reports errors and writes its files as the
 * harness's own commands do.  (Its JSON is its own: this header needs no
 * JSON library.)
 *
 *     static int my_cmd(int argc, char **argv)
 *     {
 *         static const struct option opts[] = { { "json", required_argument, NULL, 'j' },
 *                                               { NULL, 0, NULL, 0 } };
 *         int c;
 *         opterr = 0;
 *         optind = 0;
 *         while ((c = apod_getopt(argc, argv, ":", opts)) != -1)
 *             switch (c) {
 *             case 'j': ...; break;
 *             default: return apod_option_error("mine", c, argv);
 *             }
 *         ...
 *         return failed ? apod_report_failure() : APOD_EXIT_OK;
 *     }
 *
 * These functions are defined with the command line (cpu/cli/), whose own
 * subcommands parse and report with them; they are declared here, in the
 * installed interface, because a program's own subcommands call them too.
 */
#ifndef APOD_COMMAND_H
#define APOD_COMMAND_H

#include <getopt.h>

#include "apod.h"

#ifdef __cplusplus
extern "C" {
#endif

/* getopt_long, except that a long option given by a prefix of its name
 * (--work for --workload) is refused: workload keys are options too, so a
 * prefix could name another than the user meant.  For a refused prefix it
 * returns a code of its own, with the usage failure recorded: hand every
 * code the command's switch does not know to apod_option_error. */
APOD_API int apod_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts);

/* After apod_getopt returned c, ':' (a value missing), a refused prefix or
 * anything unknown: print the usage error for command cmd with a hint and
 * return APOD_EXIT_USAGE. */
APOD_API int apod_option_error(const char *cmd, int c, char **argv);

/* Print a usage error of command cmd (printf-style) with a hint; returns
 * APOD_EXIT_USAGE. */
APOD_API int apod_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Print "PROGRAM: message" for the last failure recorded (apod_fail,
 * apod_usage_fail) and return the exit status it calls for. */
APOD_API int apod_report_failure(void);

/* Write text to path through a temporary file renamed into place (a
 * reader never sees half a file), as apod writes every file: a command's
 * JSON, say, made with the program's own JSON library; 0, or -1 after
 * apod_fail. */
APOD_API int apod_file_write(const char *path, const char *text);

#ifdef __cplusplus
}
#endif

#endif
