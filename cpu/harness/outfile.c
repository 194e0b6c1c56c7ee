#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apod/command.h"
#include "fail.h"
#include "outfile.h"

static int (*on_commit)(const char *path, void *arg);
static void *on_commit_arg;

void apod_outfile_on_commit(int (*fn)(const char *path, void *arg), void *arg)
{
	on_commit = fn;
	on_commit_arg = arg;
}

int apod_outfile_open(struct apod_outfile *o, const char *path)
{
	struct stat st;
	int fd;
	o->f = NULL;
	o->tmp[0] = '\0';
	if (snprintf(o->path, sizeof o->path, "%s", path) >= (int)sizeof o->path ||
	    snprintf(o->tmp, sizeof o->tmp, "%s.tmpXXXXXX", path) >= (int)sizeof o->tmp)
		return apod_usage_fail("%s: path too long", path);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		o->tmp[0] = '\0';
		return apod_usage_fail("%s: is a directory, not a file", path);
	}
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;
		o->tmp[0] = '\0';
		return apod_fail("%s: cannot write here: %s", path, strerror(e));
	}
	/* mkstemp makes the file 0600; results are meant to be shared like any
	 * other, but never writable by every user, whatever the umask. */
	{
		mode_t mask = umask(0);
		umask(mask);
		fchmod(fd, 0666 & ~mask & ~(mode_t)S_IWOTH);
	}
	o->f = fdopen(fd, "wb");
	if (!o->f) {
		int e = errno;
		close(fd);
		unlink(o->tmp);
		o->tmp[0] = '\0';
		return apod_fail("%s: %s", path, strerror(e));
	}
	return 0;
}

int apod_outfile_commit(struct apod_outfile *o)
{
	int bad = ferror(o->f), e = 0;
	if (fflush(o->f) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	if (fclose(o->f) != 0 && !bad) {
		bad = 1;
		e = errno;
	}
	o->f = NULL;
	if (bad) {
		unlink(o->tmp);
		o->tmp[0] = '\0';
		return apod_fail("%s: write failed: %s", o->path, e ? strerror(e) : "I/O error");
	}
	/* Recorded before it appears, so that no file of a killed run is
	 * left unrecorded (a name with no file is harmless). */
	if ((on_commit && on_commit(o->path, on_commit_arg)) || rename(o->tmp, o->path) != 0) {
		e = errno;
		unlink(o->tmp);
		o->tmp[0] = '\0';
		return apod_fail("%s: cannot replace: %s", o->path, strerror(e));
	}
	o->tmp[0] = '\0';
	return 0;
}

void apod_outfile_abort(struct apod_outfile *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = '\0';
}

int apod_mkdirs(const char *dir)
{
	char buf[4096];
	struct stat st;
	size_t len = strlen(dir);
	if (len == 0 || len >= sizeof buf)
		return apod_usage_fail("output directory '%s': empty or too long", dir);
	memcpy(buf, dir, len + 1);
	for (char *p = buf + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;
			*p = '\0';
			if (mkdir(buf, 0777) != 0 && errno != EEXIST)
				return apod_fail("output directory %s: cannot create %s: %s", dir, buf,
				                 strerror(errno));
			*p = c;
			if (c == '\0')
				break;
		}
	}
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		return apod_usage_fail("output directory %s: exists and is not a directory", dir);
	if (access(dir, W_OK) != 0)
		return apod_fail("output directory %s: not writable: %s", dir, strerror(errno));
	return 0;
}

int apod_file_write(const char *path, const char *text)
{
	struct apod_outfile o;
	if (apod_outfile_open(&o, path))
		return -1;
	fputs(text, o.f);
	return apod_outfile_commit(&o);
}
