/*
 * commands.c: what follows from the commands' entries (command_table.c,
 * commands.h): the lookup, the option names a workload key
 * may not take, and the usage lines.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "cpu/harness/registry.h"

/* The options every command line has, whatever the command. */
static const char *const global_options[] = { "workload", "deck", "help", "version", NULL };

const struct apod_cmd *apod_cmd_find(const char *name)
{
	for (int i = 0; apod_commands[i]; i++)
		if (!strcmp(apod_commands[i]->name ? apod_commands[i]->name : "table", name))
			return apod_commands[i];
	return NULL;
}

int apod_option_taken(const char *name)
{
	for (int i = 0; global_options[i]; i++)
		if (!strcmp(name, global_options[i]))
			return 1;
	for (int i = 0; apod_commands[i]; i++)
		for (const struct option *o = apod_commands[i]->options;
		     apod_commands[i]->deck && o && o->name; o++)
			if (!strcmp(name, o->name))
				return 1;
	return 0;
}

int apod_workload_check(const struct apod_workload *w)
{
	return apod_workload_valid(w, apod_option_taken);
}

#define DECK_WORDS "[--workload=NAME] [--deck=FILE] [--KEY=VALUE]..."
#define LINE_WIDTH 79

const char *apod_synopsis_word(const char *text, size_t *len)
{
	const char *end;
	int depth = 0;
	while (*text == ' ')
		text++;
	if (!*text)
		return NULL;
	for (end = text; *end && (depth > 0 || *end != ' '); end++)
		depth += (*end == '[') - (*end == ']');
	*len = (size_t)(end - text);
	return text;
}

void apod_print_words(FILE *f, const char *lead, int indent, const char *text)
{
	int col = fprintf(f, "%s", lead), first = 1;
	const char *p = text;
	size_t n;
	while ((p = apod_synopsis_word(p, &n))) {
		int len = (int)n;
		if (!first && col + 1 + len > LINE_WIDTH)
			col = fprintf(f, "\n%*s", indent, "") - 1;
		else if (!first)
			col += fprintf(f, " ");
		col += fprintf(f, "%.*s", len, p);
		first = 0;
		p += n;
	}
	fputc('\n', f);
}

void apod_cmd_usage_lines(FILE *f, const struct apod_cmd *cmd, int deck_spelled)
{
	char lead[64], text[512];
	const char *deck = deck_spelled ? strstr(cmd->synopsis, "[deck options]") : NULL;
	snprintf(lead, sizeof lead, "Usage: %s %s ", apod_prog->name, cmd->name ? cmd->name : "[table]");
	if (deck)
		snprintf(text, sizeof text, "%.*s%s%s", (int)(deck - cmd->synopsis), cmd->synopsis,
		         DECK_WORDS, deck + strlen("[deck options]"));
	else
		snprintf(text, sizeof text, "%s", cmd->synopsis);
	apod_print_words(f, lead, 10, text);
}

void apod_cmd_usage(const struct apod_cmd *cmd)
{
	apod_cmd_usage_lines(stdout, cmd, 1);
	fputs(cmd->about, stdout);
}
