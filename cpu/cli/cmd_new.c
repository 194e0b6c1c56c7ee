/*
 * cmd_new.c: `apod new NAME`: a workload skeleton to start a port from.
 *
 * Copies the template folder (installed under $(pkgdatadir)/template, or
 * $APOD_TEMPLATE_DIR) into ./NAME, putting NAME wherever the template says
 * @NAME@.  What it writes builds against the installed library with
 * pkg-config alone and passes its own gate as it is: a serial reference
 * and an OpenMP stage of a small computation, to be replaced by yours.
 *
 * With --gpu it also writes a GPU stage: the files of the template's gpu/
 * folder, and the lines of the common files marked @GPU@ (the stage's
 * place in the ladder, its nvcc rule).  Without --gpu those lines are
 * left out, so a CPU-only port never needs the CUDA toolkit.  --mpi does
 * the same for a stage of MPI ranks: the template's mpi/ folder and the
 * lines marked @MPI@ (only where this apod was built with MPI, which the
 * stage's file needs).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apod/ranks.h"
#include "apod_paths.h"
#include "commands.h"
#include "cpu/harness/fail.h"
#include "cpu/harness/outfile.h"

/* DIR is one of the folders of the colon-separated LIST. */
static int path_has(const char *list, const char *dir)
{
	size_t n = strlen(dir);
	for (const char *p = list; p && *p; p = strchr(p, ':') ? strchr(p, ':') + 1 : NULL)
		if (strncmp(p, dir, n) == 0 && (p[n] == ':' || p[n] == '\0'))
			return 1;
	return 0;
}

/* The next steps, to paste: with the PKG_CONFIG_PATH the skeleton's make
 * needs where pkg-config would not find this install's apod.pc by itself
 * (a --prefix of one's own). */
static void print_next(const char *name, int gpu, int mpi, int n)
{
	const char *env = getenv("PKG_CONFIG_PATH");
	int found = path_has(PKGCONFIG_DEFAULT_PATH, PKGCONFIGDIR) || path_has(env, PKGCONFIGDIR);
	printf("wrote %d files into %s/%s%s; next:\n", n, name,
	       gpu ? " (with a GPU stage: nvcc must be on PATH, or make NVCC=...)" : "",
	       mpi ? " (with an MPI stage: its ranks started by mpirun)" : "");
	if (!found)
		printf("    export PKG_CONFIG_PATH=%s${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
		       "   # pkg-config does not look in this install's folder by itself\n", PKGCONFIGDIR);
	printf("    cd %s && make && ./%s\n", name, name);
}

static int template_dir(char *buf, size_t len)
{
	const char *env = getenv("APOD_TEMPLATE_DIR");
	struct stat st;
	if (env && *env) {
		snprintf(buf, len, "%s", env);
		if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
			return 0;
		return apod_fail("APOD_TEMPLATE_DIR=%s is not a directory", env);
	}
	snprintf(buf, len, "%s/template", PKGDATADIR);
	if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	return apod_fail("no workload template in %s (is apod installed? set APOD_TEMPLATE_DIR "
	                 "to the source tree's data/template)", buf);
}

/* The marks of optional lines, each five characters, and the option that
 * keeps them. */
#define OPT_GPU 1u
#define OPT_MPI 2u
#define MARK_LEN 5
static unsigned line_mark(const char *line)
{
	if (!strncmp(line, "@GPU@", MARK_LEN))
		return OPT_GPU;
	if (!strncmp(line, "@MPI@", MARK_LEN))
		return OPT_MPI;
	return 0;
}

/* text with every @NAME@ replaced by name, written atomically to path; a
 * line that starts with @GPU@ (@MPI@) is kept, without the mark, only if
 * opts has OPT_GPU (OPT_MPI). */
static int write_filled(const char *path, const char *text, const char *name, unsigned opts)
{
	struct apod_outfile o;
	const char *p = text, *q = strstr(text, "@NAME@");   /* the next mark, searched once */
	if (apod_outfile_open(&o, path))
		return -1;
	while (*p) {
		const char *end = strchr(p, '\n');
		unsigned mark = line_mark(p);
		end = end ? end + 1 : p + strlen(p);
		if (mark) {
			if (!(opts & mark)) {
				p = end;
				if (q && q < p)
					q = strstr(p, "@NAME@");
				continue;
			}
			p += MARK_LEN;
			if (q && q < p)   /* "@GPU@NAME@": the mark's last @ is not a name's */
				q = strstr(p, "@NAME@");
		}
		while (q && q < end) {
			fwrite(p, 1, (size_t)(q - p), o.f);
			fputs(name, o.f);
			p = q + 6;
			q = strstr(p, "@NAME@");
		}
		fwrite(p, 1, (size_t)(end - p), o.f);
		p = end;
	}
	return apod_outfile_commit(&o);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;
	if (!f) {
		apod_fail("%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && n < (1 << 20) &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) != NULL) {
		if (fread(buf, 1, (size_t)n, f) == (size_t)n)
			buf[n] = '\0';
		else {
			free(buf);
			buf = NULL;
		}
	}
	fclose(f);
	if (!buf)
		apod_fail("%s: cannot read it", path);
	return buf;
}

/* Every plain file of folder tdir into folder dir, filled in for the
 * workload name; adds the count to *n.  Folders inside tdir are left to
 * the caller. */
static int copy_folder(const char *tdir, const char *dir, const char *name, unsigned opts, int *n)
{
	char src[PATH_MAX * 2], dst[PATH_MAX * 2], fname[NAME_MAX + 64];
	DIR *d;
	struct dirent *e;
	struct stat st;
	if (!(d = opendir(tdir)))
		return apod_fail("%s: %s", tdir, strerror(errno));
	while ((e = readdir(d)) != NULL) {
		char *text, *at;
		if (e->d_name[0] == '.')
			continue;
		snprintf(src, sizeof src, "%s/%s", tdir, e->d_name);
		if (stat(src, &st) == 0 && S_ISDIR(st.st_mode))
			continue;
		snprintf(fname, sizeof fname, "%s", e->d_name);
		/* @NAME@ in a file name, too (e.g. @NAME@.c). */
		if ((at = strstr(fname, "@NAME@")) != NULL) {
			char rest[NAME_MAX + 1];
			snprintf(rest, sizeof rest, "%s", at + 6);
			snprintf(at, sizeof fname - (size_t)(at - fname), "%s%s", name, rest);
		}
		snprintf(dst, sizeof dst, "%s/%s", dir, fname);
		if (!(text = slurp(src)) || write_filled(dst, text, name, opts)) {
			free(text);
			closedir(d);
			return -1;
		}
		free(text);
		(*n)++;
	}
	closedir(d);
	return 0;
}

/* Names a skeleton cannot take: its Makefile would have two rules for one
 * target (`apod new check` gave the program's rule and the gate's the same
 * name), `make NAME` would mean something else, or make would read the
 * program as its makefile.  The skeleton's own targets and files, and the
 * GNU standard targets a user types. */
static const char *const taken_names[] = {
	"all", "check", "clean", "main", "workload", "stage_gpu", "stage_mpi",
	"install", "uninstall", "installcheck", "installdirs", "distclean", "mostlyclean",
	"dist", "distcheck", "info", "dvi", "html", "pdf", "ps", "tags", "ctags", "test",
	"force", "default", "makefile",
};

static int name_is_taken(const char *name)
{
	for (size_t i = 0; i < sizeof taken_names / sizeof taken_names[0]; i++)
		if (!strcmp(name, taken_names[i]))
			return 1;
	return 0;
}

/* Remove the staging folder and the files in it: all of them this command's
 * own (a folder of its own making, mode 0700, of an unpredictable name),
 * removed through its descriptor, never following a link. */
static void remove_staging(const char *staging)
{
	int dfd = open(staging, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d;
	struct dirent *e;
	if (dfd >= 0 && (d = fdopendir(dfd)) != NULL) {
		int removed;
		do {   /* again while a pass removed something: readdir may skip */
			removed = 0;
			rewinddir(d);
			while ((e = readdir(d)) != NULL)
				if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
				    unlinkat(dirfd(d), e->d_name, 0) == 0)
					removed = 1;
		} while (removed);
		closedir(d);
	} else if (dfd >= 0)
		close(dfd);
	rmdir(staging);
}

/* rename, except over a NAME that appeared meanwhile (rename alone would
 * replace an empty folder); a file system without RENAME_NOREPLACE gets
 * the check just before. */
static int move_into_place(const char *staging, const char *name)
{
	if (renameat2(AT_FDCWD, staging, AT_FDCWD, name, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	if (access(name, F_OK) == 0) {
		errno = EEXIST;
		return -1;
	}
	return rename(staging, name);
}

int apod_new_main(int argc, char **argv)
{
	char tdir[PATH_MAX], gdir[PATH_MAX + 8], mdir[PATH_MAX + 8], staging[NAME_MAX + 1];
	const char *name = NULL;
	int n = 0, gpu = 0, mpi = 0;
	unsigned opts;
	mode_t mask;
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		apod_cmd_usage(&apod_cmd_new_entry);
		return APOD_EXIT_OK;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--gpu"))
			gpu = 1;
		else if (!strcmp(argv[i], "--mpi"))
			mpi = 1;
		else if (argv[i][0] == '-')
			return apod_usage_error("new", "unknown option '%s' (the options are --gpu and "
			                        "--mpi)", argv[i]);
		else if (name)
			return apod_usage_error("new", "expected one NAME, got '%s' and '%s'", name,
			                        argv[i]);
		else
			name = argv[i];
	}
	if (!name)
		return apod_usage_error("new", "expected a NAME for the new workload");
	for (const char *c = name; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_') ||
		    c - name >= 32)
			return apod_usage_error("new", "NAME '%s': 1 to 32 of a-z, 0-9 and _, please "
			                        "(it becomes a C identifier)", name);
	if (!*name || (name[0] >= '0' && name[0] <= '9'))
		return apod_usage_error("new", "NAME '%s' must start with a letter or _", name);
	if (name_is_taken(name))
		return apod_usage_error("new", "NAME '%s' is a target or a file of the skeleton's "
		                        "Makefile (or a standard make target): `make %s` would not "
		                        "build the program; choose another NAME", name, name);
	if (access(name, F_OK) == 0)
		return apod_usage_error("new", "'%s' already exists; choose another NAME", name);
	if (mpi && !apod_ranks_built())
		return apod_usage_error("new", "--mpi: this apod was built without MPI, and the "
		                        "skeleton's mpi stage needs it (rebuild apod where MPI is "
		                        "installed, e.g. libopenmpi-dev)");
	if (template_dir(tdir, sizeof tdir))
		return apod_report_failure();
	snprintf(gdir, sizeof gdir, "%s/gpu", tdir);
	snprintf(mdir, sizeof mdir, "%s/mpi", tdir);
	if (gpu && access(gdir, R_OK) != 0)
		return apod_fail("the template in %s has no gpu/ folder (an older install?)", tdir),
		       apod_report_failure();
	if (mpi && access(mdir, R_OK) != 0)
		return apod_fail("the template in %s has no mpi/ folder (an older install?)", tdir),
		       apod_report_failure();
	/* Written into a folder of its own beside NAME, renamed to NAME only
	 * whole: a template file that cannot be read leaves nothing behind. */
	snprintf(staging, sizeof staging, ".%s.apod-new-XXXXXX", name);
	if (!mkdtemp(staging))
		return apod_fail("cannot create %s: %s", name, strerror(errno)), apod_report_failure();
	opts = (gpu ? OPT_GPU : 0) | (mpi ? OPT_MPI : 0);
	if (copy_folder(tdir, staging, name, opts, &n) ||
	    (gpu && copy_folder(gdir, staging, name, opts, &n)) ||
	    (mpi && copy_folder(mdir, staging, name, opts, &n))) {
		remove_staging(staging);
		return apod_report_failure();
	}
	/* mkdtemp made it 0700; NAME gets what mkdir would have given it. */
	mask = umask(0);
	umask(mask);
	if (chmod(staging, 0777 & ~mask) != 0 || move_into_place(staging, name) != 0) {
		int e = errno;
		remove_staging(staging);
		if (e == EEXIST)
			return apod_usage_error("new", "'%s' already exists; choose another NAME", name);
		return apod_fail("cannot create %s: %s", name, strerror(e)), apod_report_failure();
	}
	print_next(name, gpu, mpi, n);
	return APOD_EXIT_OK;
}

/* Read by hand above: NAME, --gpu and --mpi in any order. */
const struct option apod_new_options[] = {
	{ "gpu", no_argument, NULL, 0 },
	{ "mpi", no_argument, NULL, 0 },
	APOD_OPT_HELP, APOD_OPT_END,
};
