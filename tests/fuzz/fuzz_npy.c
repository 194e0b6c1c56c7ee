/*
 * libFuzzer target: `apod verify` reads .npy files it is given; any bytes
 * must give an array or a message, never a crash or an overlong read.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "npy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	apod_real *a = NULL;
	size_t ny, nx;
	int dbl, fd = memfd_create("npy", 0);
	if (fd < 0)
		return 0;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	if (apod_npy_read(path, &a, &ny, &nx, &dbl) == 0)
		free(a);
	close(fd);
	return 0;
}
