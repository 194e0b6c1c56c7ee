/*
 * The command table (cpu/cli/commands.h) against what is written from it
 * by hand: doc/apod.1's SYNOPSIS holds each command's synopsis as the roff
 * below makes it, and names every option of every command.  A failure
 * prints the lines the man page should hold; `tests/check_cli --synopsis`
 * prints the harness's whole SYNOPSIS, to paste into doc/apod.1.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/cli/commands.h"
#include "check_run.h"

static const struct apod_workload *const no_workloads[] = { NULL };
static const struct apod_program program = { .name = "apod", .workloads = no_workloads };

static char *man;

/* doc/apod.1, whole; NULL where it cannot be read. */
static char *read_man(void)
{
	const char *top = getenv("top_srcdir");
	char path[4096], *buf;
	long n;
	FILE *f;
	snprintf(path, sizeof path, "%s/doc/apod.1", top ? top : ".");
	if (!(f = fopen(path, "rb")))
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	if (n < 0 || !(buf = malloc((size_t)n + 1)) || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		return NULL;
	}
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* text with every '-' as roff's "\-". */
static void dashes(char *dst, size_t len, const char *src, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n && src[i] && k + 3 < len; i++) {
		if (src[i] == '-')
			dst[k++] = '\\';
		dst[k++] = src[i];
	}
	dst[k] = '\0';
}

/* One synopsis word as roff lines: [--opt=ARG], [--opt], --opt=ARG, NAME,
 * [NAME], [deck options]. */
static void word_roff(char *out, size_t len, const char *w, size_t n)
{
	char a[128], b[128];
	int opt = n > 1 && w[0] == '[' && w[n - 1] == ']';
	const char *in = opt ? w + 1 : w, *eq;
	size_t m = opt ? n - 2 : n;
	if (opt && m == 12 && !strncmp(in, "deck options", 12)) {
		snprintf(out, len, ".RI [ \"deck options\" ]\n");
		return;
	}
	eq = memchr(in, '=', m);
	if (!strncmp(in, "--", 2) && eq) {
		dashes(a, sizeof a, in, (size_t)(eq - in) + 1);
		snprintf(b, sizeof b, "%.*s", (int)(m - (size_t)(eq - in) - 1), eq + 1);
		if (opt)
			snprintf(out, len, ".RB [ %s\\c\n.IR %s ]\n", a, b);
		else
			snprintf(out, len, ".BI %s %s\n", a, b);
	} else if (!strncmp(in, "--", 2)) {
		dashes(a, sizeof a, in, m);
		snprintf(out, len, opt ? ".RB [ %s ]\n" : ".B %s\n", a);
	} else {
		snprintf(out, len, opt ? ".RI [ %.*s ]\n" : ".I %.*s\n", (int)m, in);
	}
}

/* The roff of cmd's synopsis, as doc/apod.1 writes it. */
static void synopsis_roff(const struct apod_cmd *cmd, char *out, size_t len)
{
	const char *p = cmd->synopsis;
	size_t n, used = (size_t)snprintf(out, len, cmd->name ? ".B apod %s\n" : ".B apod\n.RB [ table ]\n",
	                                  cmd->name);
	while (used < len && (p = apod_synopsis_word(p, &n))) {
		word_roff(out + used, len - used, p, n);
		used += strlen(out + used);
		p += n;
	}
}

START_TEST(the_man_page_synopsis_is_the_table)
{
	ck_assert_msg(man != NULL, "cannot read doc/apod.1 (top_srcdir=%s)", getenv("top_srcdir"));
	for (int i = 0; apod_commands[i]; i++) {
		char roff[2048];
		synopsis_roff(apod_commands[i], roff, sizeof roff);
		ck_assert_msg(strstr(man, roff) != NULL, "doc/apod.1's SYNOPSIS lacks, for %s:\n%s",
		              apod_commands[i]->name ? apod_commands[i]->name : "the table", roff);
	}
}
END_TEST

START_TEST(the_man_page_names_every_command_and_option)
{
	ck_assert_msg(man != NULL, "cannot read doc/apod.1");
	for (int i = 0; apod_commands[i]; i++) {
		const struct apod_cmd *c = apod_commands[i];
		char want[128];
		if (c->name) {
			snprintf(want, sizeof want, ".B %s\n", c->name);
			ck_assert_msg(strstr(man, want) != NULL, "doc/apod.1 describes no command %s "
			              "(no '.B %s' line)", c->name, c->name);
		}
		for (const struct option *o = c->options; o && o->name; o++) {
			char d[96];
			dashes(d, sizeof d, o->name, strlen(o->name));
			snprintf(want, sizeof want, "\\-\\-%s", d);
			ck_assert_msg(strstr(man, want) != NULL, "doc/apod.1 never names %s's option --%s",
			              c->name ? c->name : "the table", o->name);
		}
	}
}
END_TEST

/* Each command's usage comes from its entry: the synopsis with the deck
 * options spelled out, wrapped within 79 columns. */
START_TEST(usage_lines_come_from_the_entry)
{
	for (int i = 0; apod_commands[i]; i++) {
		const struct apod_cmd *c = apod_commands[i];
		char buf[2048];
		FILE *f = fmemopen(buf, sizeof buf, "w");
		char *line, *save = NULL;
		ck_assert_ptr_nonnull(f);
		apod_cmd_usage_lines(f, c, 1);
		fclose(f);
		ck_assert_msg(!strncmp(buf, "Usage: apod ", 12), "%s", buf);
		if (c->deck)
			ck_assert_msg(strstr(buf, "[--deck=FILE]") != NULL, "%s", buf);
		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			ck_assert_msg(strlen(line) <= 79, "a usage line of %zu columns: %s", strlen(line),
			              line);
		ck_assert_ptr_eq(apod_cmd_find(c->name ? c->name : "table"), c);
	}
}
END_TEST

int main(int argc, char **argv)
{
	const TTest *tests[] = {
		the_man_page_synopsis_is_the_table, the_man_page_names_every_command_and_option,
		usage_lines_come_from_the_entry, NULL,
	};
	int failed;
	apod_prog = &program;
	if (argc > 1 && !strcmp(argv[1], "--synopsis")) {
		for (int i = 0; apod_commands[i]; i++) {
			char roff[2048];
			synopsis_roff(apod_commands[i], roff, sizeof roff);
			printf("%s.br\n", roff);
		}
		return 0;
	}
	man = read_man();
	failed = check_run(check_suite("cli", "table", 0, tests), CK_FORK_GETENV);
	free(man);
	return failed;
}
