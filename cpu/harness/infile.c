#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fail.h"
#include "infile.h"

static const char *kind(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device";
	if (S_ISSOCK(m))
		return "a socket";
	return "neither a file nor a directory";
}

int apod_infile_open(const char *path)
{
	struct stat st;
	int flags;
	/* O_NONBLOCK: opening a FIFO must not wait for a writer; it is then
	 * refused by what fstat says, and a regular file reads the same either
	 * way (the flag is still cleared). */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		apod_usage_fail("%s: cannot open: %s", path, strerror(e));
		errno = e;   /* the caller may say more of a missing file */
		return -1;
	}
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		return apod_usage_fail("%s: cannot stat: %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return apod_usage_fail("%s: is %s, not a regular file; apod reads back only the files "
		                       "a run wrote", path, kind(st.st_mode));
	}
	if ((flags = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		int e = errno;
		close(fd);
		return apod_fail("%s: cannot set it to blocking reads: %s", path, strerror(e));
	}
	return fd;
}

FILE *apod_infile_fopen(const char *path)
{
	int fd = apod_infile_open(path);
	FILE *f;
	if (fd < 0)
		return NULL;
	if (!(f = fdopen(fd, "rb"))) {
		int e = errno;
		close(fd);
		apod_fail("%s: cannot open: %s", path, strerror(e));
	}
	return f;
}
