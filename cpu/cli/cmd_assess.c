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

int apod_assess_main(int argc, char **argv)
{
	struct apod_open a;
	const char *out = "profiles";
	char pg[PATH_MAX], path[PATH_MAX], gmon[PATH_MAX + 16] = "";
	struct apod_scratch sc = { .fd = -1, .slot = -1 };
	const char *tmp = sc.path;
	char flat[PATH_MAX], graph[PATH_MAX], phases[PATH_MAX], cwd[PATH_MAX];
	char *args[APOD_MAX_SETS + 8], *owned[APOD_MAX_SETS + 4];
	int na = 0, nowned = 0, nh, threads = 1, rc = APOD_EXIT_FAIL, nphases;
	const struct apod_workload *w;
	struct hotspot hot[64];
	json_object *rep = NULL, *ph, *x, *res = NULL, *harr, *barr;
	double sec[APOD_MAX_PHASES], total = 0, period = 0, profiled = 0, samples = 0;

	/* The deck is checked here, so a bad one is reported once and as a usage error. */
	if (apod_cmd_open(&a, &apod_cmd_assess_entry, argc, argv, assess_opt, &out,
	                  APOD_OPEN_PARAMS))
		return a.status;
	w = a.w;
	if (find_profiling_binary(pg, sizeof pg) || apod_mkdirs(out))
		goto done;
	if (apod_scratch_make(&sc, "assess"))
		goto done;
	/* Set before anything else can fail: the cleanup below removes it. */
	snprintf(gmon, sizeof gmon, "%s/gmon.out", tmp);
#ifdef _OPENMP
	threads = omp_get_max_threads();
#endif

	/* The child runs in the temporary directory, where gmon.out lands, so
	 * every path it is given must be absolute. */
	if (!getcwd(cwd, sizeof cwd)) {
		apod_fail("getcwd: %s", strerror(errno));
		goto done;
	}
	snprintf(phases, sizeof phases, "%s/phases.json", out);
	args[na++] = pg;
	args[na++] = "run";
	args[na++] = "--stage=serial";
	{
		int k = apod_deck_args(&a.deck, owned + nowned, APOD_MAX_SETS + 2);
		for (int i = 0; i < k; i++)
			args[na++] = owned[nowned++];
	}
	if (asprintf(&owned[nowned++], "--json=%s%s%s", phases[0] == '/' ? "" : cwd,
	             phases[0] == '/' ? "" : "/", phases) < 0)
		goto nomem;
	args[na++] = owned[nowned - 1];
	args[na] = NULL;
	printf("assess: profiling the serial stage of %s on deck %s (%ld steps) with %s\n", w->name,
	       a.title, w->steps(a.params), pg);
	if (run_to(args, tmp, NULL))
		goto done;

	snprintf(flat, sizeof flat, "%s/flat.txt", out);
	snprintf(graph, sizeof graph, "%s/callgraph.txt", out);
	{
		char *gp_flat[] = { GPROF_PATH, "-b", "-p", pg, gmon, NULL };
		char *gp_graph[] = { GPROF_PATH, "-b", "-q", pg, gmon, NULL };
		if (run_to(gp_flat, NULL, flat) || run_to(gp_graph, NULL, graph))
			goto done;
	}
	if ((nh = parse_flat(flat, hot, 64, &period)) < 0)
		goto done;
	/* gprof's shares are counts of samples (every 10 ms of the serial
	 * run's own code): on a small deck a few samples decide the ranking. */
	for (int i = 0; i < nh; i++)
		profiled += hot[i].self;
	samples = period > 0 ? profiled / period : 0;
	if (samples < ASSESS_FEW_SAMPLES)
		fprintf(stderr, "%s: assess: warning: gprof's profile holds %.0f sample%s (%.2f s): "
		        "its shares are that coarse; a larger problem or more --steps gives it more\n",
		        apod_prog->name, samples, samples == 1 ? "" : "s", profiled);

	rep = json_object_from_file(phases);
	if (!rep || !json_object_object_get_ex(rep, "phase_seconds", &ph)) {
		apod_fail("%s: no phase timers", phases);
		goto done;
	}
	nphases = apod_phase_count(w);
	for (int i = 0; i < nphases; i++) {
		sec[i] = json_object_object_get_ex(ph, apod_phase_name(w, i), &x) ? json_object_get_double(x) : 0;
		total += sec[i];
	}

	res = json_object_new_object();
	harr = json_object_new_array();
	barr = json_object_new_array();
	printf("\ngprof flat profile (the main thread's own code; %s):\n", flat);
	printf("  %6s %9s  %s\n", "% time", "self s", "function");
	for (int i = 0; i < nh && i < 10; i++) {
		json_object *o = json_object_new_object();
		printf("  %6.2f %9.2f  %s\n", hot[i].pct, hot[i].self, hot[i].name);
		json_object_object_add(o, "function", json_object_new_string(hot[i].name));
		json_object_object_add(o, "percent", json_object_new_double(hot[i].pct));
		json_object_object_add(o, "self_seconds", json_object_new_double(hot[i].self));
		json_object_array_add(harr, o);
	}
	printf("\nwall-clock phase timers (profiling build, %s):\n", phases);
	printf("  %-*s %10s %7s\n", apod_phase_width(w, 16), "phase", "seconds", "share");
	for (int i = 0; i < nphases; i++)
		printf("  %-*s %10.4f %6.1f%%\n", apod_phase_width(w, 16), apod_phase_name(w, i), sec[i],
		       100 * sec[i] / total);
	printf("  %-*s %10.4f\n", apod_phase_width(w, 16), "total", total);

	printf("\nbounds on the whole-run speedup from porting (N: parallel width, or the speedup\n"
	       "of the ported part alone), the hottest phase first:\n");
	/* Each phase alone, then the hottest together, growing by share of
	 * the run: a phase that is most of it is read at the top whatever its
	 * place in the loop.  writeReport is the harness's own. */
	{
		int order[APOD_MAX_PHASES], cand[APOD_MAX_PHASES], nc = 0;
		int report = apod_phase_report(w);
		double csec[APOD_MAX_PHASES];
		char what[1024] = "";
		double p = 0;
		for (int i = 0; i < nphases; i++)
			if (i != report && sec[i] > 0) {
				cand[nc] = i;
				csec[nc++] = sec[i];
			}
		apod_rank_hottest(nc, csec, order);
		printf("  each phase alone:\n");
		for (int k = 0; k < nc; k++)
			print_bounds(apod_phase_name(w, cand[order[k]]), "alone", sec[cand[order[k]]] / total,
			             threads, barr);
		if (nc > 1)
			printf("  the hottest phases together:\n");
		for (int k = 0; k < nc; k++) {
			size_t len = strlen(what);
			snprintf(what + len, sizeof what - len, "%s%s", k ? "+" : "",
			         apod_phase_name(w, cand[order[k]]));
			p += sec[cand[order[k]]];
			if (k > 0)
				print_bounds(what, "together", p / total, threads, barr);
			/* Past P = 1 to the printed digits a longer set says nothing new. */
			if (p / total >= 0.99995 && k + 1 < nc) {
				if (nc - k - 1 == 1)
					printf("    (adding the last phase: P rounds to 1)\n");
				else
					printf("    (adding the other %d phases: P rounds to 1)\n", nc - k - 1);
				break;
			}
		}
	}
	printf("\nthe profile, call graph, timers and bounds are in %s/\n", out);

	json_object_object_add(res, "workload", json_object_new_string(w->name));
	json_object_object_add(res, "params", apod_params_json(w, a.params));
	json_object_object_add(res, "hotspots", harr);
	json_object_object_add(res, "profile_samples", json_object_new_double(samples));
	json_object_get(ph);
	json_object_object_add(res, "phase_seconds", ph);
	json_object_object_add(res, "total_seconds", json_object_new_double(total));
	json_object_object_add(res, "threads", json_object_new_int(threads));
	json_object_object_add(res, "bounds", barr);
	snprintf(path, sizeof path, "%s/assess.json", out);
	if (apod_json_write(path, res))
		goto done;
	rc = APOD_EXIT_OK;
	goto done;
nomem:
	apod_fail("out of memory");
done:
	for (int i = 0; i < nowned; i++)
		free(owned[i]);
	if (rep)
		json_object_put(rep);
	if (res)
		json_object_put(res);
	apod_scratch_remove(&sc);
	apod_cmd_close(&a);
	return rc == APOD_EXIT_OK ? rc : apod_report_failure();
}
