/*
 * fresh_process.c: a stage of the table in a process of its own (fresh_process.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "cpu/harness/ceilings.h"
#include "cpu/harness/fail.h"
#include "cpu/harness/outfile.h"
#include "cpu/harness/params.h"
#include "cpu/harness/results.h"
#include "fresh_process.h"
#include "mpirun.h"

static int write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int rc = f && fputs(text, f) >= 0 ? 0 : -1;
	if (f && fclose(f))
		rc = -1;
	return rc ? apod_fail("%s: %s", path, strerror(errno)) : 0;
}

void apod_fresh_begin(struct apod_fresh *f, const struct apod_workload *w, const void *params,
                      unsigned flags)
{
	struct apod_ceilings none;
	char *deck;
	ssize_t n;

	memset(f, 0, sizeof *f);
	f->flags = flags;
	f->scratch.fd = f->scratch.slot = -1;
	n = readlink("/proc/self/exe", f->exe, sizeof f->exe - 1);
	if (n <= 0)
		return;
	f->exe[n] = '\0';
	if (apod_scratch_make(&f->scratch, "table"))
		return;
	snprintf(f->deck, sizeof f->deck, "%s/deck", f->scratch.path);
	snprintf(f->ceilings, sizeof f->ceilings, "%s/ceilings.json", f->scratch.path);
	/* The children's speed of light is never read (the table works out
	 * each row's own), so they are given no ceilings: none measures. */
	memset(&none, 0, sizeof none);
	snprintf(none.host, sizeof none.host, "none");
	for (int k = 0; k < APOD_CEIL_COUNT; k++)
		snprintf(none.r[k].why, sizeof none.r[k].why, "the table's stages hold their own");
	deck = apod_params_deck_text(w, params);
	if (!deck || write_text(f->deck, deck) || apod_ceilings_save(&none, f->ceilings)) {
		free(deck);
		apod_scratch_remove(&f->scratch);
		return;
	}
	free(deck);
	f->ok = 1;
}

void apod_fresh_end(struct apod_fresh *f)
{
	apod_scratch_remove(&f->scratch);
	f->ok = 0;
}

/* This program's `run` of stage e on deck into dir, its output to
 * /dev/null (the table prints the row); its failures reach stderr as they
 * would alone.  Under m (not NULL) at nranks ranks, each rank on one
 * OpenMP thread: the count scaled is the ranks. */
static int run_child(const struct apod_fresh *f, const struct apod_workload *w,
                     const struct apod_stage *e, const char *deck_path, const char *dir,
                     int snapshots, const struct apod_mpirun *m, int nranks)
{
	char workload[256], stage[256], deck[PATH_MAX + 32], out[PATH_MAX + 96],
	     ceilings[PATH_MAX + 32], np[16];
	char *argv[APOD_MPIRUN_MAX_ARGS + 16];
	int argc = 0, status;
	pid_t pid;
	snprintf(workload, sizeof workload, "--workload=%s", w->name);
	snprintf(stage, sizeof stage, "--stage=%s", e->name);
	snprintf(deck, sizeof deck, "--deck=%s", deck_path);
	snprintf(out, sizeof out, "--out=%s", dir);
	snprintf(ceilings, sizeof ceilings, "--ceilings=%s", f->ceilings);
	if (m)
		argc = apod_mpirun_argv(m, nranks, np, argv);
	argv[argc++] = (char *)f->exe;
	argv[argc++] = "run";
	argv[argc++] = workload;
	argv[argc++] = stage;
	argv[argc++] = deck;
	argv[argc++] = out;
	argv[argc++] = ceilings;
	if (!snapshots)
		argv[argc++] = "--no-snapshots";
	if (f->flags & APOD_SIM_TRACE)
		argv[argc++] = "--trace";
	argv[argc] = NULL;
	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) < 0)
		return apod_fail("fork: %s", strerror(errno));
	if (pid > 0)
		apod_scratch_child(pid);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		if (m && setenv("OMP_NUM_THREADS", "1", 1)) {
			fprintf(stderr, "%s: setenv: %s\n", apod_prog->name, strerror(errno));
			_exit(127);
		}
		execv(argv[0], argv);
		fprintf(stderr, "%s: cannot run %s: %s\n", apod_prog->name, argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			apod_scratch_child(0);
			return apod_fail("waitpid: %s", strerror(errno));
		}
	apod_scratch_child(0);
	if (WIFSIGNALED(status))
		return apod_fail("its process was killed by signal %d", WTERMSIG(status));
	/* A refusal (the stage cannot run so, here: more ranks than GPUs) stays
	 * one, for callers that skip such a point rather than fail. */
	if (WEXITSTATUS(status) == APOD_EXIT_USAGE)
		return apod_usage_fail("its process refused to run (exit %d: its reason is above)",
		                       WEXITSTATUS(status));
	if (WEXITSTATUS(status) != 0)
		return apod_fail("its process exited %d (its reason is above)", WEXITSTATUS(status));
	return 0;
}

/* dir's results and timers into r; 0 or -1 (apod_fail). */
static int load(const struct apod_workload *w, const char *dir, const void *problem,
                struct apod_run *r)
{
	const struct apod_workload *ws[] = { w, NULL };
	void *loaded = NULL;
	int rc = apod_results_load(dir, ws, &loaded, r);
	if (rc == 0) {
		if ((rc = apod_results_load_timers(dir, r)) != 0)
			apod_run_free(r);
		else
			r->problem = problem;
	}
	free(loaded);
	return rc;
}

int apod_fresh_run(struct apod_fresh *f, const struct apod_workload *w,
                   const struct apod_stage *e, const void *params, const void *problem,
                   const char *out, struct apod_run *r)
{
	char dir[PATH_MAX + 64];
	int rc;
	if (!f->ok)
		return apod_run_stage(w, e, params, problem, out, f->flags, r, NULL);
	if (out)
		snprintf(dir, sizeof dir, "%s", out);
	else
		snprintf(dir, sizeof dir, "%s/%s", f->scratch.path, e->name);
	rc = run_child(f, w, e, f->deck, dir, out != NULL, NULL, 0);
	if (rc == 0)
		rc = load(w, dir, problem, r);
	if (!out)
		apod_scratch_remove_entry(&f->scratch, e->name);
	return rc;
}

int apod_fresh_run_ranks(struct apod_fresh *f, const struct apod_workload *w,
                         const struct apod_stage *e, const void *params,
                         const struct apod_mpirun *m, int nranks, struct apod_run *r)
{
	char deck[PATH_MAX + 32], dir[PATH_MAX + 64];
	char *text;
	int rc;
	if (!f->ok)
		return apod_fail("no process of its own for %s: this program cannot name itself, or "
		                 "no scratch folder", e->name);
	snprintf(deck, sizeof deck, "%s/deck-ranks", f->scratch.path);
	snprintf(dir, sizeof dir, "%s/%s-ranks", f->scratch.path, e->name);
	if (!(text = apod_params_deck_text(w, params)))
		return -1;
	rc = write_text(deck, text);
	free(text);
	if (rc == 0 && (rc = run_child(f, w, e, deck, dir, 0, m, nranks)) == 0)
		rc = load(w, dir, NULL, r);
	{
		char name[PATH_MAX];
		snprintf(name, sizeof name, "%s-ranks", e->name);
		apod_scratch_remove_entry(&f->scratch, name);
	}
	return rc;
}
