/*
 * cmd_assess.c: `apod assess`, the first step of APOD.
 *
 * Runs the serial stage in its profiling build (apod-pg, compiled with -pg)
 * on the deck, keeps gprof's flat profile and call graph, and sets them
 * beside the wall-clock phase timers: gprof names the hotspots, the timers
 * give the fractions that add up to the run, and from the fraction P of the
 * phases a port would take over come Amdahl's and Gustafson's bounds.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "apod_paths.h"
#include "cpu/harness/bounds.h"
#include "commands.h"
#include "scratch.h"
#include "cpu/harness/fail.h"
#include "cpu/harness/outfile.h"
#include "cpu/harness/params.h"
#include "cpu/harness/results.h"

/* Fewer samples than this in gprof's profile, and assess says its shares
 * are too coarse to rank by (one sample is 1% of 100). */
#define ASSESS_FEW_SAMPLES 100

#ifndef GPROF_PATH
#define GPROF_PATH "gprof"
#endif

/* The profiling build: $APOD_PG, else PROGRAM-pg beside this executable
 * (the build tree), else where `make install` put apod's. */
static int find_profiling_binary(char *buf, size_t len)
{
	const char *env = getenv("APOD_PG");
	char self[PATH_MAX];
	ssize_t n;
	if (env && *env) {
		/* Absolute: the profiled run starts in a scratch directory. */
		if (!realpath(env, self) || access(self, X_OK) != 0)
			return apod_fail("APOD_PG=%s is not an executable", env);
		snprintf(buf, len, "%s", self);
		return 0;
	}
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		char *slash;
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash) {
			*slash = '\0';
			if (snprintf(buf, len, "%s/%s-pg", self, apod_prog->name) < (int)len &&
			    access(buf, X_OK) == 0)
				return 0;
		}
	}
	/* The installed apod-pg holds apod's workloads only: a program of a
	 * user's own profiled by it would find no workload of its name. */
	if (strcmp(apod_prog->name, "apod") != 0)
		return apod_fail("cannot find %s-pg, the profiling build of %s, beside it: build it "
		                 "first (the skeleton of apod new: make %s-pg), or name it in APOD_PG",
		                 apod_prog->name, apod_prog->name, apod_prog->name);
	snprintf(buf, len, "%s/apod-pg", PKGLIBEXECDIR);
	if (access(buf, X_OK) == 0)
		return 0;
	return apod_fail("cannot find %s-pg, the profiling build (set APOD_PG, or build it "
	                 "with -pg beside %s)", apod_prog->name, apod_prog->name);
}

/* Run argv with the working directory cwd and stdout to out_path (atomic). */
static int run_to(char *const argv[], const char *cwd, const char *out_path)
{
	struct apod_outfile o;
	pid_t pid;
	int status;
	if (out_path && apod_outfile_open(&o, out_path))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		if (out_path)
			apod_outfile_abort(&o);
		return apod_fail("fork: %s", strerror(errno));
	}
	if (pid > 0)
		apod_scratch_child(pid);
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		if (out_path)
			dup2(fileno(o.f), STDOUT_FILENO);
		else if (fd >= 0)
			dup2(fd, STDOUT_FILENO);
		if (cwd && chdir(cwd) != 0)
			_exit(126);
		execvp(argv[0], argv);
		fprintf(stderr, "apod: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			status = -1;
			break;
		}
	apod_scratch_child(0);
	if (status != 0) {
		if (out_path)
			apod_outfile_abort(&o);
		return apod_fail("%s exited with status %d", argv[0],
		                 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	return out_path ? apod_outfile_commit(&o) : 0;
}

struct hotspot {
	char name[128];
	double pct, self;
};

/* Read gprof's flat profile: "%time cumulative self [calls ms/call ms/call] name". */
static int parse_flat(const char *path, struct hotspot *h, int max, double *period)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	int n = 0, in_table = 0;
	if (!f)
		return apod_fail("%s: %s", path, strerror(errno));
	*period = 0;
	while (fgets(line, sizeof line, f) && n < max) {
		double pct, cum, self;
		char *name;
		if (sscanf(line, " Each sample counts as %lf", period) == 1)
			continue;
		if (strstr(line, "time   seconds")) {
			in_table = 1;
			continue;
		}
		if (!in_table)
			continue;
		if (sscanf(line, "%lf %lf %lf", &pct, &cum, &self) != 3)
			break;
		line[strcspn(line, "\n")] = '\0';
		name = strrchr(line, ' ');
		if (!name)
			continue;
		snprintf(h[n].name, sizeof h[n].name, "%s", name + 1);
		h[n].pct = pct;
		h[n].self = self;
		n++;
	}
	fclose(f);
	return n;
}

static void print_bounds(const char *what, const char *kind, double p, int threads,
                         json_object *arr)
{
	json_object *o = json_object_new_object();
	double limit = apod_amdahl(p, INFINITY);
	char lim[32];
	snprintf(lim, sizeof lim, isinf(limit) ? "unbounded" : "%.1fx", limit);
	/* A long set on a line of its own, its figures under it. */
	if (strlen(what) > 38)
		printf("    %s\n    %-38s", what, "");
	else
		printf("    %-38s", what);
	printf(" P=%.4f  Amdahl: N=%d %.2fx, N->inf %s;  Gustafson N=%d %.2fx\n", p,
	       threads, apod_amdahl(p, threads), lim, threads, apod_gustafson(p, threads));
	json_object_object_add(o, "phases", json_object_new_string(what));
	json_object_object_add(o, "set", json_object_new_string(kind));
	json_object_object_add(o, "p", json_object_new_double(p));
	json_object_object_add(o, "threads", json_object_new_int(threads));
	json_object_object_add(o, "amdahl_at_threads", json_object_new_double(apod_amdahl(p, threads)));
	/* JSON has no infinity: -1 stands for an unbounded limit. */
	json_object_object_add(o, "amdahl_limit", json_object_new_double(isinf(limit) ? -1 : limit));
	json_object_object_add(o, "gustafson_at_threads", json_object_new_double(apod_gustafson(p, threads)));
	json_object_array_add(arr, o);
}

static int assess_opt(int c, const char *arg, void *ctx)
{
	if (c != OPT_OUT)
		return apod_option_fail(c, NULL);
	*(const char **)ctx = arg;
	return 0;
}

const struct option apod_assess_options[] = {
	APOD_OPT_OUT, APOD_OPT_HELP, APOD_OPT_END,
};

/* One assessment: what the profiled run, gprof and the timers gave. */
struct assess {
	const struct apod_open *cmd;      /* the command, opened: its deck and params */
	const char *out;                  /* the folder the results go to */
	char pg[PATH_MAX];                /* the profiling build */
	char flat[PATH_MAX], graph[PATH_MAX], phases[PATH_MAX];
	int threads;
	struct hotspot hot[64];
	int nh;
	double profiled, samples;         /* gprof's seconds of samples, and their count */
	json_object *timers;              /* the profiled run's report */
	json_object *ph;                  /* its phase_seconds, within timers */
	double sec[APOD_MAX_PHASES], total;
};

/* The serial stage in the profiling build on the deck, in the scratch
 * folder tmp (where gmon.out lands), its timers into a->phases. */
static int profile_serial(struct assess *a, const char *tmp)
{
	char *args[APOD_MAX_SETS + 8], *owned[APOD_MAX_SETS + 4], cwd[PATH_MAX];
	int na = 0, nowned = 0, rc = -1;
	/* The child runs in the temporary directory, so every path it is
	 * given must be absolute. */
	if (!getcwd(cwd, sizeof cwd))
		return apod_fail("getcwd: %s", strerror(errno));
	args[na++] = a->pg;
	args[na++] = "run";
	args[na++] = "--stage=serial";
	nowned = apod_deck_args(&a->cmd->deck, owned, APOD_MAX_SETS + 2);
	for (int i = 0; i < nowned; i++)
		args[na++] = owned[i];
	if (asprintf(&owned[nowned], "--json=%s%s%s", a->phases[0] == '/' ? "" : cwd,
	             a->phases[0] == '/' ? "" : "/", a->phases) < 0) {
		apod_fail("out of memory");
		goto done;
	}
	args[na++] = owned[nowned++];
	args[na] = NULL;
	printf("assess: profiling the serial stage of %s on deck %s (%ld steps) with %s\n",
	       a->cmd->w->name, a->cmd->title, a->cmd->w->steps(a->cmd->params), a->pg);
	rc = run_to(args, tmp, NULL);
done:
	for (int i = 0; i < nowned; i++)
		free(owned[i]);
	return rc;
}

/* gprof's flat profile and call graph of gmon into the results, the
 * hotspots read from the flat one. */
static int read_profile(struct assess *a, const char *gmon)
{
	char *gp_flat[] = { GPROF_PATH, "-b", "-p", a->pg, (char *)gmon, NULL };
	char *gp_graph[] = { GPROF_PATH, "-b", "-q", a->pg, (char *)gmon, NULL };
	double period = 0;
	if (run_to(gp_flat, NULL, a->flat) || run_to(gp_graph, NULL, a->graph))
		return -1;
	if ((a->nh = parse_flat(a->flat, a->hot, 64, &period)) < 0)
		return -1;
	/* gprof's shares are counts of samples (every 10 ms of the serial
	 * run's own code): on a small deck a few samples decide the ranking. */
	for (int i = 0; i < a->nh; i++)
		a->profiled += a->hot[i].self;
	a->samples = period > 0 ? a->profiled / period : 0;
	if (a->samples < ASSESS_FEW_SAMPLES)
		fprintf(stderr, "%s: assess: warning: gprof's profile holds %.0f sample%s (%.2f s): "
		        "its shares are that coarse; a larger problem or more --steps gives it more\n",
		        apod_prog->name, a->samples, a->samples == 1 ? "" : "s", a->profiled);
	return 0;
}

/* The profiled run's wall-clock phase timers. */
static int read_timers(struct assess *a)
{
	const struct apod_workload *w = a->cmd->w;
	a->timers = json_object_from_file(a->phases);
	if (!a->timers || !json_object_object_get_ex(a->timers, "phase_seconds", &a->ph))
		return apod_fail("%s: no phase timers", a->phases);
	for (int i = 0; i < apod_phase_count(w); i++) {
		json_object *x;
		a->sec[i] = json_object_object_get_ex(a->ph, apod_phase_name(w, i), &x)
		            ? json_object_get_double(x) : 0;
		a->total += a->sec[i];
	}
	return 0;
}

/* The ten hottest functions, printed and as JSON; then the phase timers. */
static json_object *print_profile(const struct assess *a)
{
	const struct apod_workload *w = a->cmd->w;
	int width = apod_phase_width(w, 16);
	json_object *harr = json_object_new_array();
	printf("\ngprof flat profile (the main thread's own code; %s):\n", a->flat);
	printf("  %6s %9s  %s\n", "% time", "self s", "function");
	for (int i = 0; i < a->nh && i < 10; i++) {
		json_object *o = json_object_new_object();
		printf("  %6.2f %9.2f  %s\n", a->hot[i].pct, a->hot[i].self, a->hot[i].name);
		json_object_object_add(o, "function", json_object_new_string(a->hot[i].name));
		json_object_object_add(o, "percent", json_object_new_double(a->hot[i].pct));
		json_object_object_add(o, "self_seconds", json_object_new_double(a->hot[i].self));
		json_object_array_add(harr, o);
	}
	printf("\nwall-clock phase timers (profiling build, %s):\n", a->phases);
	printf("  %-*s %10s %7s\n", width, "phase", "seconds", "share");
	for (int i = 0; i < apod_phase_count(w); i++)
		printf("  %-*s %10.4f %6.1f%%\n", width, apod_phase_name(w, i), a->sec[i],
		       100 * a->sec[i] / a->total);
	printf("  %-*s %10.4f\n", width, "total", a->total);
	return harr;
}

/* Each phase alone, then the hottest together, growing by share of the
 * run: a phase that is most of it is read at the top whatever its place in
 * the loop.  writeReport is the harness's own. */
static json_object *print_all_bounds(const struct assess *a)
{
	const struct apod_workload *w = a->cmd->w;
	int order[APOD_MAX_PHASES], cand[APOD_MAX_PHASES], nc = 0;
	int report = apod_phase_report(w);
	double csec[APOD_MAX_PHASES], p = 0;
	char what[1024] = "";
	json_object *barr = json_object_new_array();
	printf("\nbounds on the whole-run speedup from porting (N: parallel width, or the speedup\n"
	       "of the ported part alone), the hottest phase first:\n");
	for (int i = 0; i < apod_phase_count(w); i++)
		if (i != report && a->sec[i] > 0) {
			cand[nc] = i;
			csec[nc++] = a->sec[i];
		}
	apod_rank_hottest(nc, csec, order);
	printf("  each phase alone:\n");
	for (int k = 0; k < nc; k++)
		print_bounds(apod_phase_name(w, cand[order[k]]), "alone",
		             a->sec[cand[order[k]]] / a->total, a->threads, barr);
	if (nc > 1)
		printf("  the hottest phases together:\n");
	for (int k = 0; k < nc; k++) {
		size_t len = strlen(what);
		snprintf(what + len, sizeof what - len, "%s%s", k ? "+" : "",
		         apod_phase_name(w, cand[order[k]]));
		p += a->sec[cand[order[k]]];
		if (k > 0)
			print_bounds(what, "together", p / a->total, a->threads, barr);
		/* Past P = 1 to the printed digits a longer set says nothing new. */
		if (p / a->total >= 0.99995 && k + 1 < nc) {
			if (nc - k - 1 == 1)
				printf("    (adding the last phase: P rounds to 1)\n");
			else
				printf("    (adding the other %d phases: P rounds to 1)\n", nc - k - 1);
			break;
		}
	}
	return barr;
}

/* What was printed, as OUT/assess.json. */
static int write_assessment(const struct assess *a, json_object *harr, json_object *barr)
{
	const struct apod_workload *w = a->cmd->w;
	char path[PATH_MAX + 16];
	json_object *res = json_object_new_object();
	int rc;
	json_object_object_add(res, "workload", json_object_new_string(w->name));
	json_object_object_add(res, "params", apod_params_json(w, a->cmd->params));
	json_object_object_add(res, "hotspots", harr);
	json_object_object_add(res, "profile_samples", json_object_new_double(a->samples));
	json_object_object_add(res, "phase_seconds", json_object_get(a->ph));
	json_object_object_add(res, "total_seconds", json_object_new_double(a->total));
	json_object_object_add(res, "threads", json_object_new_int(a->threads));
	json_object_object_add(res, "bounds", barr);
	snprintf(path, sizeof path, "%s/assess.json", a->out);
	rc = apod_json_write(path, res);
	json_object_put(res);
	return rc;
}

/* Profile, read, print and write, in the scratch folder sc. */
static int assess(struct assess *a, struct apod_scratch *sc)
{
	char gmon[PATH_MAX + 16];
	if (find_profiling_binary(a->pg, sizeof a->pg) || apod_mkdirs(a->out) ||
	    apod_scratch_make(sc, "assess"))
		return -1;
	snprintf(gmon, sizeof gmon, "%s/gmon.out", sc->path);
	snprintf(a->phases, sizeof a->phases, "%s/phases.json", a->out);
	snprintf(a->flat, sizeof a->flat, "%s/flat.txt", a->out);
	snprintf(a->graph, sizeof a->graph, "%s/callgraph.txt", a->out);
	if (profile_serial(a, sc->path) || read_profile(a, gmon) || read_timers(a))
		return -1;
	{
		json_object *harr = print_profile(a), *barr = print_all_bounds(a);
		printf("\nthe profile, call graph, timers and bounds are in %s/\n", a->out);
		return write_assessment(a, harr, barr);
	}
}

int apod_assess_main(int argc, char **argv)
{
	struct apod_open o;
	struct apod_scratch sc = { .fd = -1, .slot = -1 };
	struct assess *a = calloc(1, sizeof *a);
	int rc;
	if (!a) {
		apod_fail("out of memory");
		return apod_report_failure();
	}
	a->out = "profiles";
	a->threads = 1;
#ifdef _OPENMP
	a->threads = omp_get_max_threads();
#endif
	/* The deck is checked here, so a bad one is reported once and as a usage error. */
	if (apod_cmd_open(&o, &apod_cmd_assess_entry, argc, argv, assess_opt, &a->out,
	                  APOD_OPEN_PARAMS)) {
		free(a);
		return o.status;
	}
	a->cmd = &o;
	rc = assess(a, &sc);
	if (a->timers)
		json_object_put(a->timers);
	free(a);
	apod_scratch_remove(&sc);
	apod_cmd_close(&o);
	return rc == 0 ? APOD_EXIT_OK : apod_report_failure();
}
