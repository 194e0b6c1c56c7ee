#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fail.h"
#include "outdir.h"
#include "outfile.h"

/* How long a run waits for another run's commit into the same parent. */
#define LOCK_WAIT_S 120

static pthread_mutex_t noting = PTHREAD_MUTEX_INITIALIZER;

/*
 * Fault injection, for tests (doc/results-dir.md): APOD_TEST_KILL_AT=POINT
 * kills the process at that point of the commit; APOD_TEST_PAUSE_AT=POINT
 * with APOD_TEST_PAUSE_FILE=F creates F.paused there and waits (at most
 * two minutes) until F exists.
 */
static void test_point(const char *point)
{
	const char *kill_at = getenv("APOD_TEST_KILL_AT");
	const char *pause_at = getenv("APOD_TEST_PAUSE_AT"), *file = getenv("APOD_TEST_PAUSE_FILE");
	if (kill_at && !strcmp(kill_at, point))
		raise(SIGKILL);
	if (pause_at && file && !strcmp(pause_at, point)) {
		char ready[4200];
		struct timespec tick = { 0, 10 * 1000 * 1000 };
		int fd;
		snprintf(ready, sizeof ready, "%s.paused", file);
		if ((fd = open(ready, O_WRONLY | O_CREAT | O_CLOEXEC, 0600)) >= 0)
			close(fd);
		for (int i = 0; i < 12000 && access(file, F_OK) != 0; i++)
			nanosleep(&tick, NULL);
	}
}

static void cleaning_point(void)
{
	test_point("commit-cleaning");
}

static mode_t shared_mode(mode_t full)
{
	mode_t mask = umask(0);
	umask(mask);
	return full & ~mask & ~(mode_t)S_IWOTH;
}

/* Take an exclusive flock on fd, waiting for another run's commit at most
 * LOCK_WAIT_S.  Where the file system has no flock, go on without it. */
static int lock_wait(int fd, const char *what)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	for (long i = 0;; i++) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno == EINTR)
			continue;
		if (errno != EWOULDBLOCK)
			return 0;
		if (i >= LOCK_WAIT_S * 50L)
			return apod_fail("output directory %s: another process has held its lock for %d s "
			                 "(another apod run into it?)", what, LOCK_WAIT_S);
		nanosleep(&tick, NULL);
	}
}

static int note(const char *path, void *arg)
{
	struct apod_outdir *o = arg;
	size_t n = strlen(o->staging);
	const char *name = path + n + 1;
	int r = 0;
	if (strncmp(path, o->staging, n) || path[n] != '/' || strchr(name, '/'))
		return 0;                     /* not in the staging directory */
	pthread_mutex_lock(&noting);
	if (!strcmp(name, "end") || apod_manifest_add(&o->written, name) ||
	    apod_manifest_append(o->manifestfd, name)) {
		o->failed_note = 1;
		r = -1;
	}
	pthread_mutex_unlock(&noting);
	return r;
}

/* target without trailing slashes, a symbolic link to a directory
 * resolved (results are written through it), and its parent. */
static int set_target(struct apod_outdir *o, const char *target, char *parent, size_t len)
{
	size_t n = strlen(target);
	struct stat st;
	char *slash;
	while (n > 1 && target[n - 1] == '/')
		n--;
	if (n == 0 || n >= sizeof o->target - 64)
		return apod_usage_fail("output directory '%s': empty or too long", target);
	memcpy(o->target, target, n);
	o->target[n] = '\0';
	if (lstat(o->target, &st) == 0 && S_ISLNK(st.st_mode)) {
		char *real;
		/* Another user's link (in a shared directory such as /tmp) could
		 * send the results over a directory of this user's elsewhere. */
		if (st.st_uid != geteuid())
			return apod_usage_fail("output directory %s: a symbolic link of another user: "
			                       "refusing to follow it (choose another --out)", o->target);
		real = realpath(o->target, NULL);
		if (!real)
			return apod_usage_fail("output directory %s: a symbolic link that leads nowhere: %s",
			                       o->target, strerror(errno));
		if (strlen(real) >= sizeof o->target - 64) {
			free(real);
			return apod_usage_fail("output directory %s: the path it links to is too long",
			                       o->target);
		}
		strcpy(o->target, real);
		free(real);
	}
	slash = strrchr(o->target, '/');
	o->base = slash ? slash + 1 : o->target;
	if (!*o->base || !strcmp(o->base, ".") || !strcmp(o->base, ".."))
		return apod_usage_fail("output directory '%s': name the directory itself, not '.', '..' "
		                       "or '/'", target);
	if (strlen(o->base) > 200)
		return apod_usage_fail("output directory %s: its name is too long", o->target);
	if (!slash)
		snprintf(parent, len, ".");
	else if (slash == o->target)
		snprintf(parent, len, "/");
	else
		snprintf(parent, len, "%.*s", (int)(slash - o->target), o->target);
	return 0;
}

/* Open the target, if there is one, and read its manifest: 0 when it is
 * apod's to replace (or absent: *fd -1), else a refusal naming why. */
static int open_target(struct apod_outdir *o, int *fd, struct apod_manifest *m)
{
	char odd[256];
	struct stat st;
	int r;
	memset(m, 0, sizeof *m);
	*fd = openat(o->parentfd, o->base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*fd < 0) {
		if (errno == ENOENT)
			return 0;
		if (errno == ENOTDIR || errno == ELOOP)
			return apod_usage_fail("output directory %s: exists and is not a directory",
			                       o->target);
		return apod_fail("output directory %s: %s", o->target, strerror(errno));
	}
	if (fstatat(*fd, APOD_MANIFEST, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_uid != geteuid())
		r = apod_usage_fail("output directory %s: its " APOD_MANIFEST " belongs to another user: "
		                    "refusing to replace it (choose another --out)", o->target);
	else if (apod_manifest_read(*fd, m) != 0 && errno != ENOENT)
		r = apod_usage_fail("output directory %s: its " APOD_MANIFEST " is not one apod wrote: "
		                    "refusing to replace it (choose another --out)", o->target);
	else if (!m->sealed && faccessat(*fd, APOD_MANIFEST, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
		r = apod_usage_fail("output directory %s: its " APOD_MANIFEST " is incomplete: "
		                    "refusing to replace it (choose another --out)", o->target);
	else if ((r = apod_manifest_stray(*fd, m, 0, odd, sizeof odd)) < 0)
		r = apod_fail("output directory %s: cannot read it: %s", o->target, strerror(errno));
	else if (r > 0 && faccessat(*fd, APOD_MANIFEST, F_OK, AT_SYMLINK_NOFOLLOW) != 0)
		r = apod_usage_fail("output directory %s holds '%s', which apod did not write (it has "
		                    "no " APOD_MANIFEST ", the record of what a run wrote; an older apod, "
		                    "from before results directories kept it, wrote none): refusing to replace it (remove it yourself "
		                    "or choose another --out)", o->target, odd);
	else if (r > 0)
		r = apod_usage_fail("output directory %s holds '%s', which apod did not write: refusing "
		                    "to replace it (choose another --out)", o->target, odd);
	if (r == 0 && faccessat(o->parentfd, o->base, W_OK, AT_EACCESS) != 0)
		r = apod_fail("output directory %s: not writable: %s", o->target, strerror(errno));
	if (r) {
		close(*fd);
		*fd = -1;
		apod_manifest_free(m);
		return -1;
	}
	return 0;
}

/* 1 if name is one of this target's staging directories: .BASE.apod-XXXXXX */
static int is_stage_name(const struct apod_outdir *o, const char *name)
{
	size_t n = strlen(o->base);
	const char *x;
	if (name[0] != '.' || strncmp(name + 1, o->base, n) || strncmp(name + 1 + n, ".apod-", 6))
		return 0;
	x = name + 1 + n + 6;
	if (strlen(x) != 6)
		return 0;
	for (; *x; x++)
		if (!(*x >= '0' && *x <= '9') && !(*x >= 'a' && *x <= 'z') && !(*x >= 'A' && *x <= 'Z'))
			return 0;
	return 1;
}

/* The names of this target's staging directories in the parent. */
static int list_leftovers(const struct apod_outdir *o, struct apod_manifest *names)
{
	int fd = openat(o->parentfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;
	struct dirent *e;
	memset(names, 0, sizeof *names);
	if (fd < 0)
		return -1;
	if (!(d = fdopendir(fd))) {
		close(fd);
		return -1;
	}
	while ((e = readdir(d)) != NULL)
		if (is_stage_name(o, e->d_name) && apod_manifest_add(names, e->d_name))
			break;
	closedir(d);
	return 0;
}

/* A leftover that is provably a dead run's: a directory (not a link) of
 * this user whose lock no live run holds.  Its manifest goes to m (empty
 * where it has none).  The file descriptor, locked, or -1. */
static int open_dead(const struct apod_outdir *o, const char *name, struct apod_manifest *m)
{
	struct stat st;
	int fd = openat(o->parentfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	memset(m, 0, sizeof *m);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || st.st_uid != geteuid() || flock(fd, LOCK_EX | LOCK_NB) != 0 ||
	    (apod_manifest_read(fd, m) != 0 && errno != ENOENT)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* rmdir name in the parent if it is still the directory fd holds. */
static void remove_dir(const struct apod_outdir *o, int fd, const char *name)
{
	struct stat a, b;
	if (fstat(fd, &a) == 0 && fstatat(o->parentfd, name, &b, AT_SYMLINK_NOFOLLOW) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		unlinkat(o->parentfd, name, AT_REMOVEDIR);
}

/* Delete, by its manifest, a directory apod made; say so where something
 * apod did not write keeps it. */
static void clear_dir(const struct apod_outdir *o, int fd, const char *name,
                      const struct apod_manifest *m, int temporaries, void (*hook)(void))
{
	char odd[256] = "";
	int r = apod_manifest_clear(fd, m, temporaries, hook, odd, sizeof odd);
	if (hook)
		test_point("commit-cleaned");
	if (r == 0)
		remove_dir(o, fd, name);
	else if (r > 0)
		fprintf(stderr, "apod: note: kept %s beside %s: it holds '%s', which apod did not "
		        "write\n", name, o->target, odd);
}

/* Finish what dead runs left beside the target (the parent is locked): if
 * the target is missing (a kill between the two renames where there is no
 * RENAME_EXCHANGE), the newest complete results left beside it become it;
 * then every dead run's directory is emptied by its manifest and removed. */
static void recover(struct apod_outdir *o)
{
	struct apod_manifest names, m;
	struct stat st;
	const char *best = NULL;
	struct timespec newest = { 0, 0 };
	if (list_leftovers(o, &names) || names.n == 0)
		goto out;
	if (fstatat(o->parentfd, o->base, &st, AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT) {
		for (int i = 0; i < names.n; i++) {
			int fd = open_dead(o, names.names[i], &m);
			if (fd < 0)
				continue;
			if (m.sealed && fstatat(fd, APOD_MANIFEST, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    (!best || st.st_mtim.tv_sec > newest.tv_sec ||
			     (st.st_mtim.tv_sec == newest.tv_sec && st.st_mtim.tv_nsec > newest.tv_nsec))) {
				best = names.names[i];
				newest = st.st_mtim;
			}
			apod_manifest_free(&m);
			close(fd);
		}
		if (best)
			renameat(o->parentfd, best, o->parentfd, o->base);
	}
	for (int i = 0; i < names.n; i++) {
		int fd;
		if (names.names[i] == best || (fd = open_dead(o, names.names[i], &m)) < 0)
			continue;
		/* Without a manifest it is not provably apod's: removed only if
		 * empty (a run killed before its manifest was made). */
		if (faccessat(fd, APOD_MANIFEST, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
			clear_dir(o, fd, names.names[i], &m, 1, NULL);
		else
			remove_dir(o, fd, names.names[i]);
		apod_manifest_free(&m);
		close(fd);
	}
out:
	apod_manifest_free(&names);
}

/* A new directory with an unpredictable name beside the target, mode 0700
 * whatever the umask: its name to name, its path to path. */
static int make_stage(struct apod_outdir *o, char *path, size_t len, char *name, size_t name_len)
{
	int fd;
	if (snprintf(path, len, "%s/.%s.apod-XXXXXX", o->parent, o->base) >= (int)len)
		return apod_usage_fail("output directory %s: path too long", o->target);
	if (!mkdtemp(path))
		return apod_fail("output directory %s: cannot create a directory beside it: %s",
		                 o->target, strerror(errno));
	snprintf(name, name_len, "%s", strrchr(path, '/') + 1);
	fd = openat(o->parentfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fchmod(fd, 0700) != 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		unlinkat(o->parentfd, name, AT_REMOVEDIR);
		return apod_fail("output directory %s: cannot open %s: %s", o->target, path, strerror(e));
	}
	return fd;
}

static void close_all(struct apod_outdir *o)
{
	if (o->manifestfd >= 0)
		close(o->manifestfd);
	if (o->stagefd >= 0)
		close(o->stagefd);
	if (o->parentfd >= 0)
		close(o->parentfd);
	o->manifestfd = o->stagefd = o->parentfd = -1;
	apod_manifest_free(&o->written);
}

int apod_outdir_begin(struct apod_outdir *o, const char *target)
{
	struct apod_manifest m;
	struct stat st;
	int fd;
	memset(o, 0, sizeof *o);
	o->parentfd = o->stagefd = o->manifestfd = -1;
	if (set_target(o, target, o->parent, sizeof o->parent))
		return -1;
	if (stat(o->parent, &st) != 0 && apod_mkdirs(o->parent))
		return -1;
	if ((o->parentfd = open(o->parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return apod_fail("output directory %s: cannot create it in %s: %s", o->target, o->parent,
		                 strerror(errno));
	/* Under the parent's lock, no other run commits, recovers or makes its
	 * staging directory while this one looks. */
	if (lock_wait(o->parentfd, o->target))
		goto fail;
	recover(o);
	if (open_target(o, &fd, &m))
		goto fail;
	if (fd >= 0)
		close(fd);
	apod_manifest_free(&m);
	if ((o->stagefd = make_stage(o, o->staging, sizeof o->staging, o->stage_name,
	                             sizeof o->stage_name)) < 0)
		goto fail;
	/* Held while the process lives: no other run takes it for a dead
	 * run's.  (Where there is no flock, leftovers stay: doc/results-dir.md.) */
	flock(o->stagefd, LOCK_EX | LOCK_NB);
	if ((o->manifestfd = apod_manifest_create(o->stagefd, shared_mode(0666))) < 0) {
		apod_fail("output directory %s: cannot write %s/" APOD_MANIFEST ": %s", o->target,
		          o->staging, strerror(errno));
		unlinkat(o->parentfd, o->stage_name, AT_REMOVEDIR);
		goto fail;
	}
	flock(o->parentfd, LOCK_UN);
	apod_outfile_on_commit(note, o);
	o->active = 1;
	return 0;
fail:
	close_all(o);
	return -1;
}

static int rename_flags(int fd, const char *from, const char *to, unsigned flags)
{
#ifdef RENAME_EXCHANGE
	if (!(flags & RENAME_EXCHANGE) || !getenv("APOD_TEST_NO_EXCHANGE"))
		return renameat2(fd, from, fd, to, flags);
#endif
	(void)fd, (void)from, (void)to, (void)flags;
	errno = ENOSYS;
	return -1;
}

/* Swap the staging directory in for the existing target; the name now
 * holding the previous results goes to old. */
static int swap_in(struct apod_outdir *o, char *old, size_t len)
{
	char path[4200];
	int fd;
#ifdef RENAME_EXCHANGE
	if (rename_flags(o->parentfd, o->stage_name, o->base, RENAME_EXCHANGE) == 0) {
		snprintf(old, len, "%s", o->stage_name);
		return 0;
	}
#endif
	if (errno != EINVAL && errno != ENOSYS)
		return apod_fail("output directory %s: cannot swap the new results in: %s", o->target,
		                 strerror(errno));
	/* No RENAME_EXCHANGE here: two renames, with the target missing in
	 * between, which the next run repairs (recover). */
	if ((fd = make_stage(o, path, sizeof path, old, len)) < 0)
		return -1;
	close(fd);
	if (renameat(o->parentfd, o->base, o->parentfd, old) != 0) {
		int e = errno;
		unlinkat(o->parentfd, old, AT_REMOVEDIR);
		return apod_fail("output directory %s: cannot move the previous results aside: %s",
		                 o->target, strerror(e));
	}
	test_point("commit-aside");
	if (renameat(o->parentfd, o->stage_name, o->parentfd, o->base) != 0) {
		int e = errno;
		renameat(o->parentfd, old, o->parentfd, o->base);
		return apod_fail("output directory %s: cannot move the new results into place: %s",
		                 o->target, strerror(e));
	}
	return 0;
}

/* Move the staging directory in where there is no target. */
static int move_in(struct apod_outdir *o)
{
	int r = -1;
	errno = ENOSYS;
#ifdef RENAME_NOREPLACE
	r = rename_flags(o->parentfd, o->stage_name, o->base, RENAME_NOREPLACE);
#endif
	if (r != 0 && (errno == EINVAL || errno == ENOSYS))
		r = renameat(o->parentfd, o->stage_name, o->parentfd, o->base);
	if (r != 0)
		return apod_fail("output directory %s: cannot move the new results into place: %s",
		                 o->target, strerror(errno));
	return 0;
}

int apod_outdir_commit(struct apod_outdir *o)
{
	struct apod_manifest old;
	char odd[256], old_name[300];
	int oldfd = -1;
	if (!o->active)
		return 0;
	apod_outfile_on_commit(NULL, NULL);
	test_point("commit-start");
	apod_manifest_sort(&o->written);
	if (o->failed_note) {
		apod_fail("output directory %s: cannot record a file in %s/" APOD_MANIFEST, o->target,
		          o->staging);
		goto fail;
	}
	/* Only what this run wrote is committed. */
	switch (apod_manifest_stray(o->stagefd, &o->written, 0, odd, sizeof odd)) {
	case 0:
		break;
	case 1:
		apod_fail("output directory %s: %s holds '%s', which this run did not write: not "
		          "committing", o->target, o->staging, odd);
		goto fail;
	default:
		apod_fail("output directory %s: cannot read %s: %s", o->target, o->staging,
		          strerror(errno));
		goto fail;
	}
	if (apod_manifest_append(o->manifestfd, "end") != 0 || close(o->manifestfd) != 0) {
		o->manifestfd = -1;
		apod_fail("output directory %s: cannot write %s/" APOD_MANIFEST ": %s", o->target,
		          o->staging, strerror(errno));
		goto fail;
	}
	o->manifestfd = -1;
	fchmod(o->stagefd, shared_mode(0777));
	if (lock_wait(o->parentfd, o->target))
		goto fail;
	/* Checked again: what appeared in the target during the run is kept. */
	if (open_target(o, &oldfd, &old))
		goto fail_locked;
	if (oldfd >= 0 && lock_wait(oldfd, o->target))
		goto fail_locked;
	test_point("commit-sealed");
	if (oldfd >= 0 ? swap_in(o, old_name, sizeof old_name) : move_in(o))
		goto fail_locked;
	/* The new results are in place; closing releases their lock. */
	close(o->stagefd);
	o->stagefd = -1;
	flock(o->parentfd, LOCK_UN);
	o->active = 0;
	apod_manifest_free(&o->written);
	test_point("commit-swapped");
	if (oldfd >= 0) {
		clear_dir(o, oldfd, old_name, &old, 1, cleaning_point);
		close(oldfd);
	}
	apod_manifest_free(&old);
	close_all(o);
	return 0;
fail_locked:
	if (oldfd >= 0)
		close(oldfd);
	apod_manifest_free(&old);
	flock(o->parentfd, LOCK_UN);
fail:
	apod_outdir_abort(o);
	return -1;
}

void apod_outdir_abort(struct apod_outdir *o)
{
	if (!o->active)
		return;
	apod_outfile_on_commit(NULL, NULL);
	if (o->manifestfd >= 0)
		close(o->manifestfd);
	o->manifestfd = -1;
	apod_manifest_sort(&o->written);
	clear_dir(o, o->stagefd, o->stage_name, &o->written, 1, NULL);
	o->active = 0;
	close_all(o);
}

int apod_outdir_remove(int dirfd, const char *name)
{
	struct apod_manifest m = { 0 };
	char odd[256];
	int rc, fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : apod_fail("%s: cannot open: %s", name, strerror(errno));
	if (apod_manifest_read(fd, &m) != 0) {
		close(fd);
		return apod_fail("%s: no results record (" APOD_MANIFEST "): left as it is", name);
	}
	apod_manifest_sort(&m);
	rc = apod_manifest_clear(fd, &m, 1, NULL, odd, sizeof odd);
	apod_manifest_free(&m);
	close(fd);
	if (rc < 0)
		return apod_fail("%s: cannot remove the results: %s", name, strerror(errno));
	if (rc > 0)
		return apod_fail("%s: holds %s, which no run wrote: left as it is", name, odd);
	if (unlinkat(dirfd, name, AT_REMOVEDIR) != 0)
		return apod_fail("%s: cannot remove: %s", name, strerror(errno));
	return 0;
}
