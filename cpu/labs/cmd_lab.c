/*
 * cmd_lab.c: `apod lab`: the guide's experiments on this machine's GPU.
 * The list is gpu/labs/labs.def, the same in every build; a build without
 * CUDA has no entry points (NULL) and says so when a lab is asked for.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "apod/command.h"
#include "lab_cmd.h"
#if defined(HAVE_CUDA) && !defined(APOD_NO_GPU_STAGES)
#include "gpu/device.h"
#include "gpu/labs/lab.h"
#define LAB_RUN(name) apod_lab_##name
#else
struct apod_lab_opts;
#define LAB_RUN(name) NULL
#endif

enum { OPT_LAB_SIZE = 3000, OPT_LAB_CHECK, OPT_LAB_REPS, OPT_LAB_JSON, OPT_LAB_HELP };

static const struct {
	const char *name, *about, *size_means;
	int (*run)(const struct apod_lab_opts *, json_object *);
} lab_list[] = {
#define LAB(name, about, size_means) { #name, about, size_means, LAB_RUN(name) },
#include "gpu/labs/labs.def"
#undef LAB
};

static int list(void)
{
	printf("labs (apod lab NAME [--size=N] [--reps=N] [--check] [--json=FILE]):\n");
	for (size_t i = 0; i < sizeof lab_list / sizeof lab_list[0]; i++)
		printf("  %-12s %s\n  %-12s --size: %s\n", lab_list[i].name, lab_list[i].about, "",
		       lab_list[i].size_means);
#if !defined(HAVE_CUDA) || defined(APOD_NO_GPU_STAGES)
	printf("(this build has no CUDA: configure --with-cuda to run them)\n");
#endif
	return APOD_EXIT_OK;
}

int apod_cmd_lab(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, OPT_LAB_SIZE },
		{ "check", no_argument, NULL, OPT_LAB_CHECK },
		{ "reps", required_argument, NULL, OPT_LAB_REPS },
		{ "json", required_argument, NULL, OPT_LAB_JSON },
		{ "help", no_argument, NULL, OPT_LAB_HELP },
		{ NULL, 0, NULL, 0 },
	};
	const char *json = NULL, *name;
	long size = 0, reps = 20;
	int c, check = 0;
	size_t i;

	opterr = 0;
	optind = 0;   /* 0, not 1: glibc then also forgets a half-read "-abc" */
	while ((c = apod_getopt(argc, argv, ":h", longopts)) != -1) {
		char *end;
		switch (c) {
		case OPT_LAB_SIZE:
			errno = 0;
			size = strtol(optarg, &end, 10);
			if (end == optarg || *end || size < 1)
				return apod_usage_error("lab", "--size: '%s' is not a positive whole number", optarg);
			if (errno == ERANGE)
				return apod_usage_error("lab", "--size: '%s' is too large (at most %ld)", optarg,
				                        LONG_MAX);
			break;
		case OPT_LAB_REPS:
			errno = 0;
			reps = strtol(optarg, &end, 10);
			if (end == optarg || *end || errno == ERANGE || reps < 1 || reps > 10000)
				return apod_usage_error("lab", "--reps: '%s' is not 1 to 10000", optarg);
			break;
		case OPT_LAB_CHECK: check = 1; break;
		case OPT_LAB_JSON: json = optarg; break;
		case 'h':
		case OPT_LAB_HELP: return list();
		default:
			return apod_option_error("lab", c, argv);
		}
	}
	if (optind == argc)
		return list();
	if (optind + 1 < argc)
		return apod_usage_error("lab", "one lab at a time, got '%s' and '%s'", argv[optind],
		                        argv[optind + 1]);
	name = argv[optind];
	for (i = 0; i < sizeof lab_list / sizeof lab_list[0]; i++)
		if (!strcmp(lab_list[i].name, name))
			break;
	if (i == sizeof lab_list / sizeof lab_list[0])
		return apod_usage_error("lab", "unknown lab '%s' (see 'apod lab')", name);
#if !defined(HAVE_CUDA) || defined(APOD_NO_GPU_STAGES)
	(void)size;
	(void)reps;
	(void)check;
	(void)json;
	fprintf(stderr, "apod: lab %s needs a GPU, and this build has no CUDA\n", name);
	return APOD_EXIT_FAIL;
#else
	{
		char why[256];
		struct apod_lab_opts o = { (size_t)size, (int)reps, check };
		json_object *out = json_object_new_object();
		int rc;
		if (!apod_gpu_available(why, sizeof why)) {
			json_object_put(out);
			fprintf(stderr, "apod: lab %s cannot run here: %s\n", name, why);
			return APOD_EXIT_FAIL;
		}
		json_object_object_add(out, "lab", json_object_new_string(name));
		json_object_object_add(out, "reps", json_object_new_int((int)reps));
		printf("lab %s%s\n", name, check ? " (check only: every version verified, none timed)" : "");
		rc = lab_list[i].run(&o, out);
		if (rc == 0 && json) {
			int flags = JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE;
			const char *body = json_object_to_json_string_ext(out, flags);
			size_t n = strlen(body);
			char *text = malloc(n + 2);
			if (!text)
				rc = apod_fail("%s: out of memory", json);
			else {
				memcpy(text, body, n);
				memcpy(text + n, "\n", 2);
				rc = apod_file_write(json, text);
			}
			free(text);
		}
		json_object_put(out);
		return rc ? apod_report_failure() : APOD_EXIT_OK;
	}
#endif
}
