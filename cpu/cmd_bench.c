/*
 * cmd_bench.c: `apod bench`: measurements, not tests.
 *
 * The ladder on a deck (by default the large one's size when given
 * --deck=data/large.deck), with snapshots written to a scratch directory so
 * that gpu3's overlap has something to hide; gpu3 once more writing the
 * same results but no snapshots, for its compute-only time; then the kernel measurements of
 * gpu/bench.cu.  Everything goes to the JSON file as well as the screen.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fail.h"
#include "results.h"
#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
#include "bench.h"
#endif

int apod_cmd_bench(int argc, char **argv)
{
	static const struct option longopts[] = {
		APOD_DECK_LONGOPTS,
		{ "json", required_argument, NULL, OPT_JSON },
		{ "reps", required_argument, NULL, OPT_REPS },
		{ "kernels", no_argument, NULL, OPT_KERNELS },
		{ "help", no_argument, NULL, OPT_HELP },
		{ NULL, 0, NULL, 0 },
	};
	struct apod_deck_opts dopt = { 0 };
	const char *json = NULL;
	char scratch[4096], cmd[4200];
	const char *tmpdir = getenv("TMPDIR");
	struct apod_deck d;
	struct apod_problem p;
	json_object *o, *rows = NULL;
	int c, reps = 20, failed = 0, kernels_only = 0;
	double serial_total = 0;

	opterr = 0;
	optind = 0;   /* 0, not 1: glibc then also forgets a half-read "-abc" */
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		if (apod_deck_opt(&dopt, c, optarg))
			continue;
		switch (c) {
		case OPT_JSON: json = optarg; break;
		case OPT_KERNELS: kernels_only = 1; break;
		case OPT_REPS: {
			char *end;
			long v = strtol(optarg, &end, 10);
			if (*end || v < 1 || v > 10000)
				return apod_usage_error("bench", "--reps: '%s' is not 1 to 10000", optarg);
			reps = (int)v;
			break;
		}
		case 'h':
		case OPT_HELP:
			printf("Usage: apod bench [--deck=FILE] [--size=NXxNY] [--steps=N] [--reps=N] [--kernels]\n"
			       "                  [--json=FILE]\n"
			       "Measure every stage (whole runs, with snapshots) and the GPU kernels;\n"
			       "--kernels measures the kernels only.\n");
			return APOD_EXIT_OK;
		default:
			return apod_option_error("bench", c, argv);
		}
	}
	if (optind < argc)
		return apod_usage_error("bench", "unexpected argument '%s'", argv[optind]);
	if (apod_deck_resolve(&d, &dopt) || apod_problem_init(&p, &d))
		return apod_report_failure();
	snprintf(scratch, sizeof scratch, "%s/apod-bench-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!mkdtemp(scratch)) {
		apod_problem_free(&p);
		apod_fail("bench: cannot make a scratch directory: %s", strerror(errno));
		return apod_report_failure();
	}

	o = json_object_new_object();
	json_object_object_add(o, "deck", apod_deck_json(&d));
	json_object_object_add(o, "host_cores", json_object_new_int64(sysconf(_SC_NPROCESSORS_ONLN)));
	if (!kernels_only)
		failed |= apod_ladder(&d, &p, scratch, &rows, &serial_total) != 0;
	if (rows)
		json_object_object_add(o, "stages", rows);

	/* gpu3's overlap: the same run, writing the same results but no
	 * snapshots, is its compute time. */
	{
		const struct apod_engine *e = apod_engine_find("gpu3");
		char why[256], dir[4200];
		struct apod_deck quiet = d;
		struct apod_problem pq;
		struct apod_run r;
		quiet.snapshot_every = 0;
		snprintf(dir, sizeof dir, "%s/gpu3-no-snapshots", scratch);
		if (!kernels_only && e && e->available(why, sizeof why) && d.snapshot_every > 0 &&
		    apod_problem_init(&pq, &quiet) == 0) {
			int rc = apod_simulate(e, &pq, dir, &r);
			apod_problem_free(&pq);
			if (rc == 0) {
				double total = 0, bg = 0, eff;
				for (size_t i = 0; rows && i < json_object_array_length(rows); i++) {
					json_object *row = json_object_array_get_idx(rows, i), *x;
					if (json_object_object_get_ex(row, "stage", &x) &&
					    !strcmp(json_object_get_string(x), "gpu3")) {
						if (json_object_object_get_ex(row, "total_seconds", &x))
							total = json_object_get_double(x);
						if (json_object_object_get_ex(row, "snapshot_background_seconds", &x))
							bg = json_object_get_double(x);
					}
				}
				/* Perfect overlap: the run takes as long as the longer of its
				 * compute (the run without snapshots) and its snapshot streaming. */
				eff = total > 0 ? fmax(r.total, bg) / total : 0;
				printf("\ngpu3 overlap: %.4f s with snapshots; %.4f s compute only; %.4f s streaming "
				       "snapshots in the background; efficiency %.1f%%\n", total, r.total, bg, 100 * eff);
				json_object_object_add(o, "gpu3_overlap_efficiency", json_object_new_double(eff));
				json_object_object_add(o, "gpu3_snapshot_streaming_seconds", json_object_new_double(bg));
				json_object_object_add(o, "gpu3_compute_only_seconds", json_object_new_double(r.total));
				json_object_object_add(o, "snapshots", json_object_new_int64(d.steps / d.snapshot_every));
				apod_run_free(&r);
			} else {
				failed = 1;
				apod_report_failure();
			}
		}
	}
#if !defined(HAVE_CUDA) || defined(APOD_NO_GPU_STAGES)
	(void)reps;
#else
	{
		char why[256];
		extern int apod_gpu_available(char *, size_t);
		if (apod_gpu_available(why, sizeof why) && apod_gpu_bench(&p, reps, o))
			failed = 1, apod_report_failure();
	}
#endif
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", scratch);
	if (system(cmd) != 0)
		fprintf(stderr, "apod: could not remove %s\n", scratch);
	if (json && apod_json_write(json, o))
		failed = 1, apod_report_failure();
	json_object_put(o);
	apod_problem_free(&p);
	return failed ? APOD_EXIT_FAIL : APOD_EXIT_OK;
}
