#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "manifest.h"

/* A manifest that lists every snapshot of a very long run is still far
 * smaller than this; anything larger is not one. */
#define MANIFEST_MAX (64L << 20)

static int valid_name(const char *s, size_t n)
{
	if (n == 0 || n > 255 || (n == 1 && s[0] == '.') || (n == 2 && !memcmp(s, "..", 2)))
		return 0;
	if (memchr(s, '/', n) || memchr(s, '\n', n) || memchr(s, '\0', n))
		return 0;
	return !(n == strlen(APOD_MANIFEST) && !memcmp(s, APOD_MANIFEST, n));
}

int apod_manifest_add(struct apod_manifest *m, const char *name)
{
	if (m->n == m->cap) {
		int cap = m->cap ? 2 * m->cap : 16;
		char **p = realloc(m->names, (size_t)cap * sizeof *p);
		if (!p)
			return -1;
		m->names = p;
		m->cap = cap;
	}
	if (!(m->names[m->n] = strdup(name)))
		return -1;
	m->n++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void apod_manifest_sort(struct apod_manifest *m)
{
	if (m->n > 1)
		qsort(m->names, (size_t)m->n, sizeof *m->names, by_name);
}

int apod_manifest_has(const struct apod_manifest *m, const char *name)
{
	return m->n > 0 && bsearch(&name, m->names, (size_t)m->n, sizeof *m->names, by_name) != NULL;
}

void apod_manifest_free(struct apod_manifest *m)
{
	for (int i = 0; i < m->n; i++)
		free(m->names[i]);
	free(m->names);
	memset(m, 0, sizeof *m);
}

static int parse(struct apod_manifest *m, const char *text, size_t len)
{
	size_t head = strlen(APOD_MANIFEST_HEAD);
	const char *p = text + head, *end = text + len;
	if (len < head || memcmp(text, APOD_MANIFEST_HEAD, head))
		return -1;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n;
		char name[256];
		if (!nl || m->sealed)
			return -1;            /* a cut line, or a line after "end" */
		n = (size_t)(nl - p);
		if (n == strlen(APOD_MANIFEST_END) - 1 && !memcmp(p, APOD_MANIFEST_END, n)) {
			m->sealed = 1;
		} else {
			if (!valid_name(p, n))
				return -1;
			memcpy(name, p, n);
			name[n] = '\0';
			if (apod_manifest_add(m, name))
				return -1;
		}
		p = nl + 1;
	}
	apod_manifest_sort(m);
	return 0;
}

int apod_manifest_read(int dirfd, struct apod_manifest *m)
{
	struct stat st;
	char *text = NULL;
	size_t got = 0;
	int fd, bad = 0;
	memset(m, 0, sizeof *m);
	fd = openat(dirfd, APOD_MANIFEST, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno == ELOOP ? (errno = EINVAL, -1) : -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MANIFEST_MAX ||
	    !(text = malloc((size_t)st.st_size + 1))) {
		bad = 1;
	} else {
		while (got < (size_t)st.st_size) {
			ssize_t r = read(fd, text + got, (size_t)st.st_size - got);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			got += (size_t)r;
		}
		bad = parse(m, text, got) != 0;
	}
	free(text);
	close(fd);
	if (bad) {
		apod_manifest_free(m);
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int apod_manifest_create(int dirfd, unsigned mode)
{
	int fd = openat(dirfd, APOD_MANIFEST, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW |
	                O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	if (fchmod(fd, (mode_t)mode) != 0 || write(fd, APOD_MANIFEST_HEAD, strlen(APOD_MANIFEST_HEAD)) !=
	    (ssize_t)strlen(APOD_MANIFEST_HEAD)) {
		int e = errno;
		close(fd);
		unlinkat(dirfd, APOD_MANIFEST, 0);
		errno = e ? e : EIO;
		return -1;
	}
	return fd;
}

int apod_manifest_append(int fd, const char *line)
{
	char buf[258];
	size_t n = strlen(line);
	if (!valid_name(line, n) && strcmp(line, "end"))
		return errno = EINVAL, -1;
	memcpy(buf, line, n);
	buf[n++] = '\n';
	return write(fd, buf, n) == (ssize_t)n ? 0 : (errno = errno ? errno : EIO, -1);
}

int apod_manifest_is_temporary(const char *name)
{
	size_t n = strlen(name);
	if (n < 11 || memcmp(name + n - 10, ".tmp", 4))
		return 0;
	for (size_t i = n - 6; i < n; i++)
		if (!(name[i] >= '0' && name[i] <= '9') && !(name[i] >= 'a' && name[i] <= 'z') &&
		    !(name[i] >= 'A' && name[i] <= 'Z'))
			return 0;
	return 1;
}

/* 1 if name, in dirfd, is a regular file of this user that the record
 * accounts for. */
static int accounted(int dirfd, const char *name, const struct apod_manifest *m, int temporaries)
{
	struct stat st;
	if (strcmp(name, APOD_MANIFEST) && !apod_manifest_has(m, name) &&
	    !(temporaries && apod_manifest_is_temporary(name)))
		return 0;
	return fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
	       st.st_uid == geteuid();
}

/* Each entry of dirfd but . and .., through fn until it returns non-zero. */
static int each_entry(int dirfd, int (*fn)(int dirfd, const char *name, void *arg), void *arg)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), r = 0;
	DIR *d;
	struct dirent *e;
	if (fd < 0)
		return -1;
	if (!(d = fdopendir(fd))) {
		close(fd);
		return -1;
	}
	while (!r && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			r = fn(dirfd, e->d_name, arg);
	closedir(d);
	return r;
}

struct stray {
	const struct apod_manifest *m;
	int temporaries;
	char *odd;
	size_t len;
};

static int find_stray(int dirfd, const char *name, void *arg)
{
	struct stray *s = arg;
	if (accounted(dirfd, name, s->m, s->temporaries))
		return 0;
	strncpy(s->odd, name, s->len - 1);
	s->odd[s->len - 1] = '\0';
	return 1;
}

int apod_manifest_stray(int dirfd, const struct apod_manifest *m, int temporaries, char *odd,
                        size_t len)
{
	struct stray s = { m, temporaries, odd, len };
	return each_entry(dirfd, find_stray, &s);
}

static int unlink_regular(int dirfd, const char *name)
{
	struct stat st;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return errno == ENOENT ? 0 : -1;
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid())
		return 1;                     /* not ours to delete: left where it is */
	if (unlinkat(dirfd, name, 0) != 0 && errno != ENOENT)
		return -1;
	return 0;
}

struct temps {
	int failed;
};

static int clear_temporary(int dirfd, const char *name, void *arg)
{
	struct temps *t = arg;
	if (apod_manifest_is_temporary(name) && unlink_regular(dirfd, name) < 0)
		t->failed = 1;
	return 0;
}

int apod_manifest_clear(int dirfd, const struct apod_manifest *m, int temporaries,
                        void (*after_first)(void), char *odd, size_t len)
{
	struct temps t = { 0 };
	for (int i = 0; i < m->n; i++) {
		if (unlink_regular(dirfd, m->names[i]) < 0)
			t.failed = 1;
		if (i == 0 && after_first)
			after_first();
	}
	if (temporaries && each_entry(dirfd, clear_temporary, &t) < 0)
		return -1;
	if (t.failed)
		return -1;
	/* The manifest goes last: until the directory is empty it stays
	 * provably apod's, so a run killed here is finished by the next. */
	{
		int r = apod_manifest_stray(dirfd, m, 0, odd, len);
		if (r != 0)
			return r;
	}
	return unlink_regular(dirfd, APOD_MANIFEST) == 0 ? 0 : -1;
}
