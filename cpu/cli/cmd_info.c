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

#include "cpu/harness/ceilings.h"
#include "commands.h"
#include "cpu/harness/fail.h"
#include "cpu/harness/params.h"
#include "key_table.h"

static int no_args(const struct apod_cmd *cmd, int argc, char **argv)
{
	if (argc > 1) {
		if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
			apod_cmd_usage(cmd);
			return -1;
		}
		apod_usage_error(cmd->name, "unexpected argument '%s'", argv[1]);
		return APOD_EXIT_USAGE;
	}
	return 0;
}

int apod_info_main(int argc, char **argv)
{
	char model[256];
	long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
	int rc = no_args(&apod_cmd_info_entry, argc, argv);
	if (rc)
		return rc < 0 ? APOD_EXIT_OK : rc;
	apod_host_cpu_model(model, sizeof model);
	printf("%s (apod harness %s), compiled by gcc %s\n", apod_prog->name, APOD_HARNESS_VERSION,
	       __VERSION__);
	printf("host: %s, %ld logical cores, %.1f GiB memory\n", model, sysconf(_SC_NPROCESSORS_ONLN),
	       (double)pages * (double)psize / (1 << 30));
#ifdef _OPENMP
	printf("OpenMP: version %d, %d threads (OMP_NUM_THREADS to change)\n", _OPENMP,
	       omp_get_max_threads());
#else
	printf("OpenMP: not available in this build\n");
#endif
	if (!apod_prog->device_info) {
		printf("devices: none in this build\n");
		return APOD_EXIT_OK;
	}
	return apod_prog->device_info(stdout) ? apod_report_failure() : APOD_EXIT_OK;
}

/* The workload a listing is for: --workload=NAME or the default; json,
 * where not NULL, takes --json=FILE. */
static const struct apod_workload *listed_workload(const struct apod_cmd *cmd, int argc,
                                                   char **argv, const char **json, int *rc)
{
	const struct apod_workload *w = apod_cli_workload(argc, argv);
	*rc = 0;
	if (!w) {
		*rc = apod_usage_error(cmd->name, "%s", apod_failure());
		return NULL;
	}
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			apod_cmd_usage(cmd);
			*rc = -1;
			return NULL;
		}
		if (!strncmp(argv[i], "--workload=", 11))
			continue;
		if (!strcmp(argv[i], "--workload")) {
			i++;
			continue;
		}
		if (json && !strncmp(argv[i], "--json=", 7) && argv[i][7]) {
			*json = argv[i] + 7;
			continue;
		}
		if (json && (!strcmp(argv[i], "--json") || !strcmp(argv[i], "--json="))) {
			if (i + 1 >= argc || argv[i][6]) {
				*rc = apod_usage_error(cmd->name, "--json needs a FILE");
				return NULL;
			}
			*json = argv[++i];
			continue;
		}
		*rc = apod_usage_error(cmd->name, "unexpected argument '%s'", argv[i]);
		return NULL;
	}
	return w;
}

int apod_stages_main(int argc, char **argv)
{
	int rc;
	const struct apod_workload *w = listed_workload(&apod_cmd_stages_entry, argc, argv, NULL, &rc);
	if (!w)
		return rc < 0 ? APOD_EXIT_OK : rc;
	for (int i = 0; w->stages[i]; i++) {
		const struct apod_stage *e = w->stages[i];
		char why[256] = "";
		int ok = apod_stage_available(e, why, sizeof why);
		printf("%-7s %-13s %s\n", e->name, ok ? "available" : "unavailable", e->about);
		if (!ok)
			printf("%-7s %-13s why: %s\n", "", "", why);
	}
	return APOD_EXIT_OK;
}

static const char *type_name(const struct apod_param *p)
{
	switch (p->type) {
	case APOD_PARAM_INT: return "integer";
	case APOD_PARAM_REAL: return "number";
	case APOD_PARAM_PAIR: return "AxB";
	case APOD_PARAM_NAME: return "name";
	case APOD_PARAM_CHOICE: return "choice";
	default: return p->repeats ? "text, repeats" : "text";
	}
}

/* The values a key accepts, as the deck parser checks them (params.c), so
 * that a user, and the deck-space tests, read the range where they read the
 * key: "[1, 4096]", "(0, 0.25]", "[3, 1048576] each" for a pair. */
static const char *range_text(const struct apod_param *p, char *buf, size_t len)
{
	switch (p->type) {
	case APOD_PARAM_INT:
		snprintf(buf, len, "[%ld, %ld]", (long)p->lo, (long)p->hi);
		break;
	case APOD_PARAM_PAIR:
		snprintf(buf, len, "[%ld, %ld] each", (long)p->lo, (long)p->hi);
		break;
	case APOD_PARAM_REAL:
		snprintf(buf, len, "%c%g, %g]", p->lo_open ? '(' : '[', p->lo, p->hi);
		break;
	default:
		return "-";
	}
	return buf;
}

int apod_workloads_main(int argc, char **argv)
{
	int rc, verbose = 0;
	const char *json = NULL;
	const struct apod_workload *only =
		listed_workload(&apod_cmd_workloads_entry, argc, argv, &json, &rc);
	if (!only)
		return rc < 0 ? APOD_EXIT_OK : rc;
	for (int i = 1; i < argc; i++)
		verbose |= !strncmp(argv[i], "--workload", 10);
	if (json)
		return apod_key_table_write(only, json) ? apod_report_failure() : APOD_EXIT_OK;
	for (int i = 0; apod_prog->workloads[i]; i++) {
		const struct apod_workload *w = apod_prog->workloads[i];
		int n = 0;
		if (verbose && w != only)
			continue;
		while (w->stages[n])
			n++;
		printf("%-10s %s%s\n", w->name, w->about, i == 0 ? " (the default)" : "");
		printf("%-10s stages:", "");
		for (int k = 0; k < n; k++)
			printf(" %s", w->stages[k]->name);
		/* A step's phases in the order they run, and the probes with the
		 * steps beyond every() they observe. */
		printf("\n%-10s a step:", "");
		for (int k = 0; k < apod_step_phase_count(w); k++)
			printf(" %s", w->phases[k].name);
		if (apod_probe_count(w) > 0) {
			printf("\n%-10s probes:", "");
			for (int k = 0; k < apod_probe_count(w); k++)
				printf(" %s%s%s", w->probes[k].name,
				       w->probes[k].at & APOD_AT_START ? " (also at step 0)" : "",
				       w->probes[k].at & APOD_AT_END ? " (also at the end)" : "");
		}
		printf("\n%-10s keys:", "");
		for (const struct apod_param *p = w->params; p && p->key; p++)
			printf(" %s", p->key);
		putchar('\n');
		if (!verbose)
			continue;
		printf("\n%-16s %-14s %-22s %-24s %s\n", "key", "type", "default", "range", "meaning");
		for (const struct apod_param *p = w->params; p && p->key; p++) {
			char range[64];
			printf("%-16s %-14s %-22s %-24s %s\n", p->key, type_name(p), p->def ? p->def : "-",
			       range_text(p, range, sizeof range), p->help ? p->help : "");
			/* A choice's names, so that nobody has to guess them. */
			for (int c = 0; p->type == APOD_PARAM_CHOICE && p->choices[c]; c++)
				printf("%-16s %-14s %-22s %-24s %s%s\n", "", "", "", "", c ? "  | " : "  one of: ",
				       p->choices[c]);
		}
	}
	if (!verbose)
		printf("\n'%s workloads --workload=NAME' lists a workload's keys with their defaults.\n",
		       apod_prog->name);
	return APOD_EXIT_OK;
}

/* --workload is read by hand (listed_workload), as the deck options are not taken. */
const struct option apod_workload_option[] = {
	APOD_OPT_WORKLOAD, APOD_OPT_HELP, APOD_OPT_END,
};

const struct option apod_workloads_options[] = {
	APOD_OPT_WORKLOAD, APOD_OPT_JSON, APOD_OPT_HELP, APOD_OPT_END,
};

const struct option apod_help_option[] = {
	APOD_OPT_HELP, APOD_OPT_END,
};
