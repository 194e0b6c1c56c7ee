/*
 * libFuzzer target: `apod verify` reads .npy files it is given; any bytes
 * must give an array or a message, never a crash or an overlong read.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "input_file.h"
#include "cpu/harness/npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	void *a = NULL;
	size_t dims[2];
	enum apod_dtype t;
	int ndim, fd = fuzz_input_file(data, size, path, sizeof path);
	if (fd < 0)
		return 0;
	if (apod_npy_read(path, &a, &t, &ndim, dims) == 0)
		free(a);
	close(fd);
	return 0;
}
