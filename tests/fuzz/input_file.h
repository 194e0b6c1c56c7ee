/*
 * input_file.h: hand the fuzzer's bytes to code that reads files, through
 * an anonymous in-memory file and its /proc/self/fd path.
 */
#ifndef APOD_FUZZ_INPUT_FILE_H
#define APOD_FUZZ_INPUT_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* Write data to a new memfd and its path to path; returns the fd, or -1. */
static inline int fuzz_input_file(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("fuzz", 0);
	if (fd < 0)
		return -1;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

#endif
