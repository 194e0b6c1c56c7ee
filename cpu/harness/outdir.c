#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "fail.h"
#include "outdir.h"
#include "outfile.h"

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) != 0 && errno != ENOENT ? -1 : 0;
}

static int remove_tree(const char *dir)
{
	return nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);
	return n >= m && !strcmp(s + n - m, tail);
}

/* 1 if dir holds nothing but what a run writes. */
static int holds_results(const char *dir, char *odd, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int ok = 1;
	if (!d)
		return 1;
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!strcmp(e->d_name, "report.json") || ends_with(e->d_name, ".npy") ||
		    ends_with(e->d_name, ".csv"))
			continue;
		snprintf(odd, len, "%s", e->d_name);
		ok = 0;
		break;
	}
	closedir(d);
	return ok;
}

/* Staging directories of runs that are no longer alive, beside target. */
static void remove_stale(const char *target)
{
	char parent[4096], base[4096], path[8192];
	DIR *d;
	struct dirent *e;
	snprintf(parent, sizeof parent, "%s", target);
	snprintf(base, sizeof base, "%s", target);
	d = opendir(dirname(parent));
	if (!d)
		return;
	{
		const char *b = basename(base);
		size_t n = strlen(b);
		while ((e = readdir(d)) != NULL) {
			long pid;
			char tail[8];
			if (strncmp(e->d_name, b, n) || sscanf(e->d_name + n, ".apod-%ld.%4s", &pid, tail) != 2 ||
			    strcmp(tail, "new") || pid <= 0)
				continue;
			if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
				continue;
			snprintf(path, sizeof path, "%s/%s", parent, e->d_name);
			remove_tree(path);
		}
	}
	closedir(d);
}

int apod_outdir_begin(struct apod_outdir *o, const char *target)
{
	struct stat st;
	char odd[256], parent[4096];
	size_t len = strlen(target);
	memset(o, 0, sizeof *o);
	while (len > 1 && target[len - 1] == '/')
		len--;
	if (len == 0 || len >= sizeof o->target - 32)
		return apod_usage_fail("output directory '%s': empty or too long", target);
	memcpy(o->target, target, len);
	o->target[len] = '\0';
	if (stat(o->target, &st) == 0) {
		if (!S_ISDIR(st.st_mode))
			return apod_usage_fail("output directory %s: exists and is not a directory",
			                       o->target);
		if (!holds_results(o->target, odd, sizeof odd))
			return apod_usage_fail("output directory %s holds '%s', which apod did not write: "
			                       "refusing to replace it (choose another --out)", o->target, odd);
		if (access(o->target, W_OK) != 0)
			return apod_fail("output directory %s: not writable: %s", o->target, strerror(errno));
	}
	snprintf(parent, sizeof parent, "%s", o->target);
	if (strchr(o->target, '/')) {
		char *p = dirname(parent);
		if (stat(p, &st) != 0 && apod_mkdirs(p))
			return -1;
	}
	remove_stale(o->target);
	snprintf(o->staging, sizeof o->staging, "%s.apod-%ld.new", o->target, (long)getpid());
	remove_tree(o->staging);
	if (mkdir(o->staging, 0777) != 0)
		return apod_fail("output directory %s: cannot create %s: %s", o->target, o->staging,
		                 strerror(errno));
	o->active = 1;
	return 0;
}

int apod_outdir_commit(struct apod_outdir *o)
{
	char old[4200];
	struct stat st;
	if (!o->active)
		return 0;
	snprintf(old, sizeof old, "%s.apod-%ld.old", o->target, (long)getpid());
	if (stat(o->target, &st) == 0) {
		remove_tree(old);
		if (rename(o->target, old) != 0) {
			int e = errno;
			apod_outdir_abort(o);
			return apod_fail("output directory %s: cannot move the previous results aside: %s",
			                 o->target, strerror(e));
		}
	}
	if (rename(o->staging, o->target) != 0) {
		int e = errno;
		rename(old, o->target);
		apod_outdir_abort(o);
		return apod_fail("output directory %s: cannot move the new results into place: %s",
		                 o->target, strerror(e));
	}
	o->active = 0;
	remove_tree(old);
	return 0;
}

void apod_outdir_abort(struct apod_outdir *o)
{
	if (o->active)
		remove_tree(o->staging);
	o->active = 0;
}
