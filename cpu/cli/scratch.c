/*
 * scratch.c: scratch folders removed at the end, on interruption, and after
 * a kill -9 by the next command (scratch.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu/harness/fail.h"
#include "scratch.h"

#define RECORD ".apod-scratch"
#define MAX_LIVE 8

/* What the signal handler removes: the folders' descriptors, the folder
 * they sit in, and their names there.  Written before a folder is used and
 * cleared after it is gone; sig_atomic_t so the handler never reads half. */
static struct {
	volatile sig_atomic_t used;
	int fd, parent;
	char name[64];
} live[MAX_LIVE];
/* The process of a command's own running now (apod_scratch_child), which
 * the handler passes the signal on to and waits for before it removes the
 * folders that process writes into. */
static volatile sig_atomic_t child;

/* Everything inside dfd, by descriptor.  Only calls that are safe in a
 * signal handler: the handler runs this too.  Entries are unlinked while
 * the folder is read, so it is read again until a pass removes nothing. */
static void empty_fd(int dfd, int depth)
{
	/* getdents64's records are 8-byte aligned within an aligned buffer. */
	unsigned long long buf[512];
	int removed = 1;
	if (depth > 16)
		return;
	while (removed) {
		long n;
		removed = 0;
		if (lseek(dfd, 0, SEEK_SET) < 0)
			return;
		while ((n = syscall(SYS_getdents64, dfd, buf, sizeof buf)) > 0) {
			for (long off = 0; off < n;) {
				struct {
					unsigned long long ino;
					long long off;
					unsigned short reclen;
					unsigned char type;
					char name[];
				} *e = (void *)((char *)buf + off);
				off += e->reclen;
				if (!strcmp(e->name, ".") || !strcmp(e->name, ".."))
					continue;
				if (unlinkat(dfd, e->name, 0) == 0) {
					removed = 1;
				} else if (errno == EISDIR || errno == EPERM) {
					int sub = openat(dfd, e->name,
					                 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
					if (sub >= 0) {
						empty_fd(sub, depth + 1);
						close(sub);
						if (unlinkat(dfd, e->name, AT_REMOVEDIR) == 0)
							removed = 1;
					}
				}
			}
		}
	}
}

static void remove_live(int i)
{
	if (!live[i].used)
		return;
	empty_fd(live[i].fd, 0);
	unlinkat(live[i].parent, live[i].name, AT_REMOVEDIR);
	close(live[i].fd);
	close(live[i].parent);
	live[i].used = 0;
}

static void on_signal(int sig)
{
	pid_t c = (pid_t)child;
	if (c > 0) {
		int status;
		kill(c, sig);
		while (waitpid(c, &status, 0) < 0 && errno == EINTR)
			;
	}
	for (int i = 0; i < MAX_LIVE; i++)
		remove_live(i);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void set_handlers(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
		struct sigaction sa, old;
		/* A command started under nohup (SIGHUP ignored) keeps it ignored;
		 * a handler already set stays set. */
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    (old.sa_handler == SIG_IGN || old.sa_handler == on_signal))
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_signal;
		sigfillset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL);
	}
}

/* A process's start time in clock ticks since boot (field 22 of
 * /proc/PID/stat), so that a pid reused by another process is told apart;
 * 0 where it cannot be read (no such process). */
static unsigned long long start_time(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long t = 0;
	FILE *f;
	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	if (!(f = fopen(path, "r")))
		return 0;
	if (fgets(buf, sizeof buf, f) && (p = strrchr(buf, ')'))) {
		/* After the name: field 3 onwards; the start time is the 20th of them. */
		for (int field = 2; field < 22 && p; field++)
			p = strchr(p + 1, ' ');
		if (p)
			t = strtoull(p + 1, NULL, 10);
	}
	fclose(f);
	return t;
}

/* The record: "apod-scratch HOST PID START\n". */
static int write_record(int dfd)
{
	char host[256] = "", text[400];
	int fd, len, rc = 0;
	gethostname(host, sizeof host - 1);
	len = snprintf(text, sizeof text, "apod-scratch %s %ld %llu\n", *host ? host : "-",
	               (long)getpid(), start_time(getpid()));
	fd = openat(dfd, RECORD, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, text, (size_t)len) != len)
		rc = -1;
	if (fd >= 0 && close(fd))
		rc = -1;
	return rc;
}

/* 1 if the folder dfd (already known to be a folder of this user) holds a
 * record of this user's, of this host, whose process is gone. */
static int stale(int dfd)
{
	char text[400], who[256], host[256] = "";
	long pid;
	unsigned long long start;
	struct stat st;
	ssize_t n;
	int fd = openat(dfd, RECORD, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), ok;
	if (fd < 0)
		return 0;
	ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid();
	n = ok ? read(fd, text, sizeof text - 1) : -1;
	close(fd);
	if (n <= 0)
		return 0;
	text[n] = '\0';
	gethostname(host, sizeof host - 1);
	if (sscanf(text, "apod-scratch %255s %ld %llu", who, &pid, &start) != 3 || pid <= 0 ||
	    strcmp(who, *host ? host : "-"))
		return 0;
	if (kill((pid_t)pid, 0) == 0 || errno == EPERM)
		return start_time((pid_t)pid) != start;   /* alive: stale only if the pid was reused */
	return 1;
}

/* Remove the folders left in the scratch folder tfd by commands that were
 * killed.  Another command may sweep at the same time: what it removed
 * first is simply gone. */
static void sweep(int tfd)
{
	int fd = dup(tfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		struct stat st;
		int dfd;
		size_t len = strlen(e->d_name);
		/* apod-KIND-XXXXXX, as mkdtemp makes them. */
		if (strncmp(e->d_name, "apod-", 5) || len < 12 || e->d_name[len - 7] != '-')
			continue;
		dfd = openat(tfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (dfd < 0)
			continue;
		if (fstat(dfd, &st) == 0 && st.st_uid == geteuid() && stale(dfd)) {
			empty_fd(dfd, 0);
			unlinkat(tfd, e->d_name, AT_REMOVEDIR);
		}
		close(dfd);
	}
	closedir(d);
}

int apod_scratch_make(struct apod_scratch *s, const char *kind)
{
	const char *tmp = getenv("TMPDIR");
	const char *base;
	char *name;
	int tfd, slot = -1;

	memset(s, 0, sizeof *s);
	s->fd = -1;
	s->slot = -1;
	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (snprintf(s->path, sizeof s->path, "%s/apod-%s-XXXXXX", tmp, kind) >= (int)sizeof s->path)
		return apod_fail("TMPDIR %s: too long a path for a scratch folder", tmp);
	for (int i = 0; i < MAX_LIVE && slot < 0; i++)
		if (!live[i].used)
			slot = i;
	if (slot < 0)
		return apod_fail("more than %d scratch folders at once", MAX_LIVE);
	if ((tfd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return apod_fail("cannot open the scratch folder's parent %s (TMPDIR): %s", tmp,
		                 strerror(errno));
	sweep(tfd);
	set_handlers();
	if (!mkdtemp(s->path)) {
		int e = errno;
		close(tfd);
		return apod_fail("cannot make a scratch folder in %s (TMPDIR): %s", tmp, strerror(e));
	}
	name = strrchr(s->path, '/') + 1;
	base = name;
	if ((s->fd = openat(tfd, base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0 ||
	    write_record(s->fd)) {
		int e = errno;
		if (s->fd >= 0) {
			empty_fd(s->fd, 0);
			close(s->fd);
		}
		unlinkat(tfd, base, AT_REMOVEDIR);
		close(tfd);
		s->fd = -1;
		return apod_fail("cannot set up the scratch folder %s: %s", s->path, strerror(e));
	}
	live[slot].fd = s->fd;
	live[slot].parent = tfd;
	snprintf(live[slot].name, sizeof live[slot].name, "%s", base);
	live[slot].used = 1;
	s->slot = slot;
	return 0;
}

void apod_scratch_remove(struct apod_scratch *s)
{
	if (s->slot >= 0 && s->slot < MAX_LIVE && live[s->slot].used && live[s->slot].fd == s->fd) {
		sigset_t all, old;
		/* Not while the handler might remove it too. */
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, &old);
		remove_live(s->slot);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	s->slot = -1;
	s->fd = -1;
}

void apod_scratch_remove_entry(const struct apod_scratch *s, const char *name)
{
	int sub;
	if (s->fd < 0 || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return;
	if (unlinkat(s->fd, name, 0) == 0)
		return;
	sub = openat(s->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sub < 0)
		return;
	empty_fd(sub, 0);
	close(sub);
	unlinkat(s->fd, name, AT_REMOVEDIR);
}

void apod_scratch_child(pid_t pid)
{
	child = pid;
}
