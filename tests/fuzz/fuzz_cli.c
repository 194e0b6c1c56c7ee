/*
 * libFuzzer target: `apod run`'s command line.  The input is split at NUL
 * bytes and newlines into at most 16 arguments, parsed, and the deck it
 * names is resolved and checked; nothing is ever run.  Any argument list
 * must give a deck or a message, never a crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "deck.h"

#define MAX_ARGS 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_ARGS + 2];
	int argc = 0;
	struct apod_run_args a;
	struct apod_deck d;
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
	if (apod_run_parse(argc, argv, &a) == 0)
		apod_deck_resolve(&d, &a.deck);
	free(buf);
	return 0;
}
