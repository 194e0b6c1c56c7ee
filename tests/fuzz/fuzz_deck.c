/*
 * libFuzzer target: the deck parser (the harness's, driven by heat's key
 * table) and heat's checks must turn any bytes into either a deck or a
 * message, never a crash.  Build and run: make fuzz-run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cpu/heat/heat.h"
#include "input_file.h"
#include "cpu/harness/params.h"

/* Heat's deck alone: the fuzzer needs no stages. */
static const struct apod_workload deck_only = {
	.version = APOD_WORKLOAD_VERSION, .name = "heat", .params_size = sizeof(struct heat_deck),
	.params = heat_params, .check = heat_deck_check,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	void *d;
	int fd = fuzz_input_file(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	if ((d = apod_params_new(&deck_only)) != NULL) {
		if (apod_params_load(&deck_only, d, path) == 0)
			apod_params_check(&deck_only, d);
		free(d);
	}
	close(fd);
	return 0;
}
