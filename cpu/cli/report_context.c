/*
 * report_context.c: the facts a table's JSON keeps of where it was made
 * (report.h), read back by `apod report --from`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "cpu/harness/sol.h"
#include "report.h"

static json_object *ceiling_json(const struct apod_sol_ceiling *c)
{
	json_object *o = json_object_new_object();
	json_object_object_add(o, "bytes_per_second", json_object_new_double(c->bytes));
	json_object_object_add(o, "flops32_per_second", json_object_new_double(c->flops32));
	json_object_object_add(o, "flops64_per_second", json_object_new_double(c->flops64));
	return o;
}

/* The device's facts as `apod info` prints them. */
static char *device_text(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	if (apod_prog && apod_prog->device_info && apod_prog->device_info(f) < 0)
		fprintf(f, "(the device's facts could not be read)\n");
	fclose(f);
	return buf;
}

void apod_report_context(json_object *head, int argc, char **argv)
{
	char date[64], why[256];
	time_t now = time(NULL);
	struct tm tm;
	struct apod_sol_machine m;
	char *cmd = NULL, *dev;
	size_t len = 0;
	FILE *f = open_memstream(&cmd, &len);

	if (f) {
		fputs(apod_prog && apod_prog->name ? apod_prog->name : "apod", f);
		for (int i = 0; i < argc; i++)
			fprintf(f, " %s", argv[i]);
		fclose(f);
		json_object_object_add(head, "command", json_object_new_string(cmd ? cmd : ""));
		free(cmd);
	}
	if (gmtime_r(&now, &tm) && strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", &tm))
		json_object_object_add(head, "date", json_object_new_string(date));
	if ((dev = device_text()) != NULL) {
		json_object_object_add(head, "device_info", json_object_new_string(dev));
		free(dev);
	}
	/* The ceilings are cached by the table's run: no measurement here. */
	if (apod_cli_machine(&m, why, sizeof why) == 0) {
		json_object *c = json_object_new_object();
		if (m.have_host) {
			json_object_object_add(c, "host_core", ceiling_json(&m.core));
			json_object_object_add(c, "host_cores", ceiling_json(&m.cores));
		}
		if (m.have_device)
			json_object_object_add(c, "device", ceiling_json(&m.device));
		json_object_object_add(head, "ceilings", c);
	}
}
