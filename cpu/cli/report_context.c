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

/* W as the shell reads it back: single-quoted unless every character is
 * one the shell takes as it is, so that a deck's "0.5 0.5 0.1 50" survives
 * a paste. */
static void put_word(FILE *f, const char *w)
{
	int plain = *w != '\0';
	for (const char *c = w; *c && plain; c++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		               "0123456789-_=+./,:@%^", *c) != NULL;
	if (plain) {
		fputs(w, f);
		return;
	}
	fputc('\'', f);
	for (; *w; w++)
		if (*w == '\'')
			fputs("'\\''", f);
		else
			fputc(*w, f);
	fputc('\'', f);
}

char *apod_command_text(const char *sub, int argc, char **argv)
{
	char *cmd = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&cmd, &len);
	if (!f)
		return NULL;
	fputs(apod_prog && apod_prog->name ? apod_prog->name : "apod", f);
	if (sub)
		fprintf(f, " %s", sub);
	for (int i = 0; i < argc; i++) {
		fputc(' ', f);
		put_word(f, argv[i]);
	}
	if (fclose(f) != 0) {
		free(cmd);
		return NULL;
	}
	return cmd;
}

void apod_report_context(json_object *head, const char *ceilings, int argc, char **argv)
{
	char date[64], why[256];
	time_t now = time(NULL);
	struct tm tm;
	struct apod_sol_machine m;
	char *cmd = apod_command_text(NULL, argc, argv), *dev;

	if (cmd) {
		json_object_object_add(head, "command", json_object_new_string(cmd));
		free(cmd);
	}
	if (gmtime_r(&now, &tm) && strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", &tm))
		json_object_object_add(head, "date", json_object_new_string(date));
	if ((dev = device_text()) != NULL) {
		json_object_object_add(head, "device_info", json_object_new_string(dev));
		free(dev);
	}
	/* The ceilings are cached by the table's run: no measurement here. */
	if (apod_cli_machine(ceilings, &m, why, sizeof why) == 0) {
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
