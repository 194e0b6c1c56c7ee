/*
 * libFuzzer target: `apod verify` reads .npy files it is given; any bytes
 * must give an array or a message, never a crash or an overlong read.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "input_file.h"
#include "npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	apod_real *a = NULL;
	size_t ny, nx;
	int dbl, fd = fuzz_input_file(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	if (apod_npy_read(path, &a, &ny, &nx, &dbl) == 0)
		free(a);
	close(fd);
	return 0;
}
