/*
 * cmd_info.c: `apod info` and `apod stages`: what this machine and this
 * build can do.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cli.h"
#include "fail.h"
#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
#include "gpu_info.h"
#endif

static void cpu_model(char *buf, size_t len)
{
	char line[512];
	FILE *f = fopen("/proc/cpuinfo", "r");
	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, "model name", 10)) {
			char *v = strchr(line, ':');
			if (v) {
				v += 1 + (v[1] == ' ');
				v[strcspn(v, "\n")] = '\0';
				snprintf(buf, len, "%s", v);
			}
			break;
		}
	fclose(f);
}

static int no_args(const char *cmd, int argc, char **argv)
{
	if (argc > 1) {
		if (!strcmp(argv[1], "--help")) {
			printf("Usage: apod %s\n", cmd);
			return -1;
		}
		apod_usage_error(cmd, "unexpected argument '%s'", argv[1]);
		return APOD_EXIT_USAGE;
	}
	return 0;
}

int apod_cmd_info(int argc, char **argv)
{
	char model[256];
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	int rc = no_args("info", argc, argv);
	if (rc)
		return rc < 0 ? APOD_EXIT_OK : rc;
	cpu_model(model, sizeof model);
	printf("apod %s, %s precision, compiled by gcc %s\n", PACKAGE_VERSION,
	       sizeof(apod_real) == sizeof(double) ? "double" : "float", __VERSION__);
	printf("host: %s, %ld logical cores, %.1f GiB memory\n", model, sysconf(_SC_NPROCESSORS_ONLN),
	       (double)pages * (double)psize / (1 << 30));
#ifdef _OPENMP
	printf("OpenMP: version %d, %d threads (OMP_NUM_THREADS to change)\n", _OPENMP,
	       omp_get_max_threads());
#else
	printf("OpenMP: not available in this build\n");
#endif
#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
	return apod_gpu_print_info(stdout) ? apod_report_failure() : APOD_EXIT_OK;
#else
	printf("CUDA: not in this build (configure --with-cuda)\n");
	return APOD_EXIT_OK;
#endif
}

int apod_cmd_stages(int argc, char **argv)
{
	int rc = no_args("stages", argc, argv);
	if (rc)
		return rc < 0 ? APOD_EXIT_OK : rc;
	for (int i = 0; apod_engines[i]; i++) {
		const struct apod_engine *e = apod_engines[i];
		char why[256] = "";
		int ok = e->available(why, sizeof why);
		printf("%-7s %-13s %s\n", e->name, ok ? "available" : "unavailable", e->about);
		if (!ok)
			printf("%-7s %-13s why: %s\n", "", "", why);
	}
	return APOD_EXIT_OK;
}
