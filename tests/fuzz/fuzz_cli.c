/*
 * libFuzzer target: `apod run`'s command line.  The input is split at NUL
 * bytes and newlines into at most 16 arguments, parsed, and the deck it
 * names is resolved and checked; nothing is ever run.  Any argument list
 * must give a deck or a message, never a crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cli/cli.h"
#include "cpu/heat/heat.h"

/* Heat's deck alone, as the program the parser serves. */
static const struct apod_workload deck_only = {
	.version = APOD_WORKLOAD_VERSION, .name = "heat", .params_size = sizeof(struct heat_deck),
	.params = heat_params, .check = heat_deck_check,
};
static const struct apod_workload *const workloads[] = { &deck_only, NULL };
static const struct apod_program program = { .name = "apod", .workloads = workloads };
const struct apod_program *apod_prog = &program;

#define MAX_ARGS 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 2];
	int argc = 0;
	struct apod_run_args a;
	void *d;
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = "run";
	for (char *p = buf, *end = buf + size; p <= end && argc <= MAX_ARGS; ) {
		char *q = p;
		while (q < end && *q != '\0' && *q != '\n')
			q++;
		*q = '\0';
		/* Device files could block or be huge: a deck is a plain file. */
		if (strstr(p, "/dev") || strstr(p, "/proc") || strstr(p, "/sys")) {
			free(buf);
			return 0;
		}
		argv[argc++] = p;
		p = q + 1;
	}
	argv[argc] = NULL;
	if (apod_run_parse(argc, argv, &a) == 0 && apod_deck_resolve(&d, &a.deck) == 0)
		free(d);
	free(buf);
	return 0;
}
