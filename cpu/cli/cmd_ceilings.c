/*
 * cmd_ceilings.c: `apod ceilings`, and apod_ceilings_get() behind it: this
 * machine's measured ceilings, from its cache file or measured now (the
 * host here, the device through the program's hook), or another
 * machine's file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu/harness/ceilings.h"
#include "commands.h"
#include "cpu/harness/fail.h"
#include "cpu/harness/results.h"
#include "cpu/harness/timer.h"

/* The host's name and CPU, and the device's through the program's hook. */
static int identify(struct apod_ceilings *c, int measure)
{
	apod_ceilings_identify_host(c);
	if (!apod_prog || !apod_prog->ceilings) {
		/* apod's own build without CUDA, or a user's program that gives no hook. */
		apod_ceilings_no_device(c, "this program was built without GPU support (apod: "
		                        "configure --with-cuda)");
		return 0;
	}
	return apod_prog->ceilings(c, measure);
}

/* Measuring takes seconds with nothing on stdout: say so first, and for
 * how long (as long as last time, where there was a last time). */
static void announce(const char *path)
{
	struct apod_ceilings last;
	fprintf(stderr, "%s: measuring this machine's ceilings for the speed of light (memory "
	        "bandwidth and multiply-add rates on one core and on every core, and the GPU's "
	        "where there is one); ", apod_prog->name);
	if (apod_ceilings_load(&last, path, 1) == 0 && last.seconds > 0)
		fprintf(stderr, "about %.0f s, as last time.", last.seconds);
	else
		fprintf(stderr, "this takes 5 to 30 s.");
	fprintf(stderr, " Keep the machine otherwise idle. They are kept in %s\n", path);
}

int apod_ceilings_get(struct apod_ceilings *c, const char *file, int how)
{
	char path[4096], unsettled[1024], why[512];
	double t0;
	double load[1];
	int rc, contradict = 0;
	memset(c, 0, sizeof *c);
	if (file)
		return apod_ceilings_load(c, file, 0);
	if (identify(c, 0) || apod_ceilings_cache_path(path, sizeof path, c))
		return -1;
	if (how != APOD_CEILINGS_REFRESH) {
		rc = apod_ceilings_load(c, path, 1);
		if (rc < 0) {
			char why[1024];
			snprintf(why, sizeof why, "%s", apod_failure());
			return apod_usage_fail("%s (apod ceilings --refresh measures this machine again)",
			                       why);
		}
		if (rc == 0 || how == APOD_CEILINGS_CACHED)
			return rc;
	}
	announce(path);
	memset(c, 0, sizeof *c);
	/* Before measuring: the measuring itself loads every core. */
	c->cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (getloadavg(load, 1) != 1)
		load[0] = -1;
	c->load = load[0];
	t0 = apod_now();
	/* Figures that contradict each other are measured once more, then
	 * refused: cached, they would bound every later table. */
	for (int attempt = 0;; attempt++) {
		if (apod_ceilings_measure_host(c, unsettled, sizeof unsettled))
			return -1;
		if (!(contradict = apod_ceilings_contradict(c, why, sizeof why)) || attempt == 1)
			break;
		fprintf(stderr, "%s: the host's ceilings contradict each other (%s): measuring them "
		        "again\n", apod_prog->name, why);
	}
	if (identify(c, 1))
		return -1;
	c->seconds = apod_now() - t0;
	if (*unsettled)
		fprintf(stderr, "%s: warning: some ceilings did not settle, the fastest round is kept: "
		        "%s\n", apod_prog->name, unsettled);
	if (contradict)
		return apod_fail("this machine's ceilings contradict each other twice (%s), so they "
		                 "are not kept: measure them on an idle machine with `%s ceilings "
		                 "--refresh`", why, apod_prog->name);
	/* Every later table would be bounded by a busy moment's figures: they
	 * serve this run alone, and the next measures again. */
	if (c->load > c->cores && c->cores > 0) {
		fprintf(stderr, "%s: warning: this host was busy (load average %.2f on %d cores) "
		        "while its ceilings were measured, so they serve this run only and are not "
		        "kept: measure them on an idle machine with `%s ceilings --refresh`\n",
		        apod_prog->name, c->load, c->cores, apod_prog->name);
		c->file[0] = '\0';
		return 0;
	}
	fprintf(stderr, "%s: ceilings measured in %.1f s\n", apod_prog->name, c->seconds);
	return apod_ceilings_save(c, path);
}

static void print_ceilings(const struct apod_ceilings *c)
{
	printf("ceilings of %s (%s)", c->host, c->cpu);
	if (c->device[0])
		printf(" with %s", c->device);
	printf(",\nmeasured %s in %.1f s", c->measured_at, c->seconds);
	if (c->load >= 0 && c->cores > 0)
		printf(" at load average %.2f on %d cores", c->load, c->cores);
	printf("; host kernels: %s\nfile: %s\n\n", c->build,
	       c->file[0] ? c->file : "none: not kept (the host was busy, or its figures "
	       "contradict each other)");
	printf("%-16s %8s %10s %11s %12s %12s %13s %9s %9s\n", "resource", "threads", "copy GB/s",
	       "triad GB/s", "FP32 GFLOP/s", "FP64 GFLOP/s", "special Gop/s", "launch us",
	       "back2back");
	for (int k = 0; k < APOD_CEIL_COUNT; k++) {
		const struct apod_ceiling *r = &c->r[k];
		printf("%-16s ", apod_ceiling_name(k));
		if (!r->measured) {
			printf("not measured: %s\n", r->why);
			continue;
		}
		if (r->threads)
			printf("%8d ", r->threads);
		else
			printf("%8s ", "-");
#define CELL(width, v, scale, fmt) \
	((v) > 0 ? printf("%*" fmt " ", width, (v) * (scale)) : printf("%*s ", width, "-"))
		CELL(10, r->bandwidth, 1e-9, ".1f");
		CELL(11, r->triad, 1e-9, ".1f");
		CELL(12, r->fp32, 1e-9, ".1f");
		CELL(12, r->fp64, 1e-9, ".1f");
		CELL(13, r->special, 1e-9, ".1f");
		CELL(9, r->launch, 1e6, ".2f");
		CELL(9, r->launch_interval, 1e6, ".2f");
#undef CELL
		putchar('\n');
	}
	printf("\ncopy: bytes read + written a second (the better of STREAM's copy and memcpy; copy4 on the device); triad: "
	       "a = b + s*c,\n3 arrays counted; FLOP/s: 2 a multiply-add; special: rsqrt on the "
	       "device's MUFU;\nlaunch: an empty kernel from launch to completion; back2back: "
	       "between back-to-back launches (us).\n");
}

enum { OPT_REFRESH = 3100 };
const struct option apod_ceilings_options[] = {
	{ "refresh", no_argument, NULL, OPT_REFRESH },
	APOD_OPT_CEILINGS, APOD_OPT_JSON, APOD_OPT_HELP, APOD_OPT_END,
};

int apod_ceilings_main(int argc, char **argv)
{
	const char *file = NULL, *json = NULL;
	struct apod_ceilings c;
	int ch, refresh = 0;

	opterr = 0;
	optind = 0;
	while ((ch = apod_getopt(argc, argv, ":h", apod_ceilings_options)) != -1) {
		switch (ch) {
		case OPT_REFRESH: refresh = 1; break;
		case OPT_CEILINGS: file = optarg; break;
		case OPT_JSON: json = optarg; break;
		case 'h':
		case OPT_HELP:
			apod_cmd_usage(&apod_cmd_ceilings_entry);
			return APOD_EXIT_OK;
		default:
			return apod_option_error("ceilings", ch, argv);
		}
	}
	if (optind < argc)
		return apod_usage_error("ceilings", "unexpected argument '%s'", argv[optind]);
	if (file && refresh)
		return apod_usage_error("ceilings", "--refresh measures this machine; --ceilings=FILE "
		                        "reads a file: one or the other");
	if (apod_ceilings_get(&c, file, refresh ? APOD_CEILINGS_REFRESH : APOD_CEILINGS_MEASURE)) {
		/* Figures measured but refused: shown, so that the user sees what
		 * contradicts what, then the failure. */
		if (!file && !c.file[0] && apod_ceilings_contradict(&c, NULL, 0))
			print_ceilings(&c);
		return apod_command_error("ceilings");
	}
	print_ceilings(&c);
	if (json) {
		json_object *o = apod_ceilings_json(&c);
		int rc = apod_json_write(json, o);
		json_object_put(o);
		if (rc)
			return apod_report_failure();
	}
	return APOD_EXIT_OK;
}
