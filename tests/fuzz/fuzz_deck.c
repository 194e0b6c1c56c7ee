/*
 * libFuzzer target: the deck parser and its checks must turn any bytes into
 * either a deck or a message, never a crash.  Build and run: make fuzz-run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "input_file.h"
#include "deck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	struct apod_deck d;
	int fd = fuzz_input_file(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	apod_deck_defaults(&d);
	if (apod_deck_load(&d, path) == 0)
		apod_deck_validate(&d);
	close(fd);
	return 0;
}
