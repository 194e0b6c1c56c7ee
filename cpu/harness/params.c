/*
 * params.c: parse and check a workload's parameters from its key table.
 *
 * Decks come from users, so nothing here trusts them: numbers must be
 * whole tokens (no "12abc"), finite and in range; lines are bounded;
 * binary garbage is refused by name instead of being parsed as text.  Every
 * workload gets the same messages, each naming where and which key.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fail.h"
#include "params.h"

#define LINE_MAX_LEN 1024
#define DECK_MAX_BYTES (1 << 20)

static void *at(void *params, const struct apod_param *p)
{
	return (char *)params + p->offset;
}

static const void *at_c(const void *params, const struct apod_param *p)
{
	return (const char *)params + p->offset;
}

const struct apod_param *apod_param_find(const struct apod_workload *w, const char *key)
{
	for (const struct apod_param *p = w->params; p && p->key; p++)
		if (!strcmp(p->key, key))
			return p;
	return NULL;
}

static int parse_double(const char *s, double *out, const char *where, const char *key)
{
	char *end;
	double v;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v))
		return apod_usage_fail("%s: %s: '%s' is not a finite number", where, key, s);
	*out = v;
	return 0;
}

static int parse_long(const char *s, long lo, long hi, long *out, const char *where,
                      const char *key, const char *why)
{
	char *end;
	long v;
	errno = 0;
	if (*s == '+')
		return apod_usage_fail("%s: %s: '%s' is not a whole number", where, key, s);
	v = strtol(s, &end, 10);
	if (end == s || *end != '\0')
		return apod_usage_fail("%s: %s: '%s' is not a whole number", where, key, s);
	if (errno == ERANGE || v < lo || v > hi)
		return apod_usage_fail("%s: %s: %s is out of range [%ld, %ld]%s", where, key, s, lo, hi,
		                       why ? why : "");
	*out = v;
	return 0;
}

/* "AxB": two whole numbers joined by 'x'. */
static int parse_pair(const char *s, const struct apod_param *p, long out[2], const char *where)
{
	char buf[64], *x;
	if (strlen(s) >= sizeof buf)
		return apod_usage_fail("%s: %s: '%s' is too long", where, p->key, s);
	strcpy(buf, s);
	x = strchr(buf, 'x');
	if (!x)
		return apod_usage_fail("%s: %s: '%s' is not of the form %s", where, p->key, s,
		                       p->help ? p->help : "AxB (two whole numbers joined by 'x')");
	*x = '\0';
	if (parse_long(buf, (long)p->lo, (long)p->hi, &out[0], where, p->key, p->range_why) ||
	    parse_long(x + 1, (long)p->lo, (long)p->hi, &out[1], where, p->key, p->range_why))
		return -1;
	return 0;
}

static int parse_name(const char *s, char *out, const char *where, const char *key)
{
	size_t n = strlen(s);
	if (n == 0 || n >= APOD_NAME_MAX)
		return apod_usage_fail("%s: %s: must be 1 to %d characters", where, key,
		                       APOD_NAME_MAX - 1);
	for (size_t i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_')
			return apod_usage_fail("%s: %s: '%s' may hold only letters, digits, - and _",
			                       where, key, s);
	memcpy(out, s, n + 1);
	return 0;
}

/* One of p's choices, by name; the message lists them all. */
static int parse_choice(const char *s, const struct apod_param *p, int *out, const char *where)
{
	char list[512];
	size_t used = 0;
	for (int c = 0; p->choices[c]; c++)
		if (!strcmp(s, p->choices[c])) {
			*out = c;
			return 0;
		}
	list[0] = '\0';
	for (int c = 0; p->choices[c] && used < sizeof list; c++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", c ? ", " : "",
		                         p->choices[c]);
	return apod_usage_fail("%s: %s: '%s' is not one of %s", where, p->key, s, list);
}

static int set_one(const struct apod_param *p, void *params, const char *value, const char *where)
{
	switch (p->type) {
	case APOD_PARAM_INT:
		return parse_long(value, (long)p->lo, (long)p->hi, at(params, p), where, p->key,
		                  p->range_why);
	case APOD_PARAM_REAL: {
		double v = 0;
		if (parse_double(value, &v, where, p->key))
			return -1;
		if (v > p->hi || v < p->lo || (p->lo_open && v == p->lo))
			return apod_usage_fail("%s: %s: %s is outside %c%g, %g]%s", where, p->key, value,
			                       p->lo_open ? '(' : '[', p->lo, p->hi,
			                       p->range_why ? p->range_why : "");
		*(double *)at(params, p) = v;
		return 0;
	}
	case APOD_PARAM_PAIR:
		return parse_pair(value, p, at(params, p), where);
	case APOD_PARAM_NAME:
		return parse_name(value, at(params, p), where, p->key);
	case APOD_PARAM_CUSTOM:
		return p->set(params, value, where);
	case APOD_PARAM_CHOICE:
		return parse_choice(value, p, at(params, p), where);
	}
	return apod_fail("%s: %s: unknown parameter type", where, p->key);
}

/* A key quoted as it is, bytes that would not show escaped (a stray BOM
 * or control character is then visible in the message). */
static int unknown_key(const struct apod_workload *w, const char *key, const char *where)
{
	char shown[4 * 64 + 1];
	apod_escape(shown, sizeof shown, key, strlen(key));
	return apod_usage_fail("%s: unknown key '%s' (workload %s)", where, shown, w->name);
}

/* The status rc of a key's setter or of the workload's check, with the
 * workload's name added to the message where it failed.  Those callees
 * (set_one, json_text, a workload's set and check hooks) never name the
 * workload themselves, and each failure passes through here once, from
 * the public function that called them: the name is added exactly once. */
static int named(const struct apod_workload *w, int rc)
{
	char msg[1024];
	if (rc == 0)
		return 0;
	snprintf(msg, sizeof msg, "%s", apod_failure());
	return apod_failure_status() == APOD_EXIT_USAGE
	       ? apod_usage_fail("%s (workload %s)", msg, w->name)
	       : apod_fail("%s (workload %s)", msg, w->name);
}

int apod_params_set(const struct apod_workload *w, void *params, const char *key,
                    const char *value, const char *where)
{
	const struct apod_param *p = apod_param_find(w, key);
	if (!p)
		return unknown_key(w, key, where);
	return named(w, set_one(p, params, value, where));
}

/* Set a key's default: one value, or a repeating key's list split at ';'. */
static int set_default(const struct apod_param *p, void *params)
{
	char buf[LINE_MAX_LEN], *save = NULL, *t;
	if (p->type == APOD_PARAM_CUSTOM && p->reset)
		p->reset(params);
	if (!p->def)
		return 0;
	if (!(p->type == APOD_PARAM_CUSTOM && p->repeats))
		return set_one(p, params, p->def, "default");
	if (strlen(p->def) >= sizeof buf)
		return apod_fail("%s: default too long", p->key);
	strcpy(buf, p->def);
	for (t = strtok_r(buf, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
		while (isspace((unsigned char)*t))
			t++;
		if (*t && set_one(p, params, t, "default"))
			return -1;
	}
	return 0;
}

void *apod_params_new(const struct apod_workload *w)
{
	void *params = calloc(1, w->params_size ? w->params_size : 1);
	if (!params) {
		apod_fail("%s: cannot allocate its parameters", w->name);
		return NULL;
	}
	for (const struct apod_param *p = w->params; p && p->key; p++)
		if (set_default(p, params)) {
			char why[1024];
			snprintf(why, sizeof why, "%s", apod_failure());
			apod_fail("workload %s: the default of '%s' is refused: %s", w->name, p->key, why);
			free(params);
			return NULL;
		}
	return params;
}

int apod_params_check(const struct apod_workload *w, const void *params)
{
	return named(w, w->check ? w->check(params) : 0);
}

static char *trim(char *s)
{
	char *e;
	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* Each workload's decks sit in a folder named after it (data/NAME/small.deck),
 * so a path without that folder (data/small.deck) is an easy slip: where the
 * deck stands there, the failure names it, but no file the user did not name
 * is read. */
static void missing_deck(const char *path, const char *workload)
{
	const char *slash = strrchr(path, '/');
	int dir = slash ? (int)(slash - path + 1) : 0;
	char moved[4096];
	struct stat st;
	int n = snprintf(moved, sizeof moved, "%.*s%s/%s", dir, path, workload, path + dir);
	if (n > 0 && (size_t)n < sizeof moved && stat(moved, &st) == 0 && S_ISREG(st.st_mode))
		apod_usage_fail("deck %s: cannot open: %s; %s's decks are in a folder of their own: %s",
		                path, strerror(ENOENT), workload, moved);
	else
		apod_usage_fail("deck %s: cannot open: %s", path, strerror(ENOENT));
}

/* Read a whole deck into memory: decks are small, and a bound on the size
 * is the first defence against being handed the wrong file. */
static char *slurp(const char *path, const char *workload, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;
	if (!f && errno == ENOENT && workload) {
		missing_deck(path, workload);
		return NULL;
	}
	if (!f) {
		apod_usage_fail("deck %s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	buf = malloc(DECK_MAX_BYTES + 1);
	if (!buf) {
		fclose(f);
		apod_fail("deck %s: out of memory", path);
		return NULL;
	}
	n = fread(buf, 1, DECK_MAX_BYTES + 1, f);
	if (ferror(f)) {
		apod_usage_fail("deck %s: read error: %s", path, strerror(errno));
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	if (n > DECK_MAX_BYTES) {
		apod_usage_fail("deck %s: larger than %d bytes; is this a deck?", path, DECK_MAX_BYTES);
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

int apod_params_load(const struct apod_workload *w, void *params, const char *path)
{
	char where[512], *text, *line, *next;
	char seen[APOD_MAX_PARAMS] = { 0 };
	size_t len, i;
	int lineno = 0, rc = 0;
	if (!(text = slurp(path, w->name, &len)))
		return -1;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
			apod_usage_fail("deck %s: byte %zu is control character 0x%02x; is this a deck?",
			                path, i, c);
			free(text);
			return -1;
		}
	}
	/* A byte order mark, as some Windows editors write one: UTF-8 has no
	 * byte order, so it says nothing and is skipped. */
	line = len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3) ? text + 3 : text;
	if (len == (size_t)(line - text)) {
		free(text);
		return apod_usage_fail("deck %s: empty file", path);
	}
	for (; line && rc == 0; line = next) {
		char *eq, *key, *value, *hash;
		const struct apod_param *p;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		snprintf(where, sizeof where, "deck %s:%d", path, lineno);
		if (strlen(line) > LINE_MAX_LEN) {
			rc = apod_usage_fail("%s: line longer than %d characters", where, LINE_MAX_LEN);
			break;
		}
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		key = trim(line);
		if (*key == '\0')
			continue;
		eq = strchr(key, '=');
		if (!eq) {
			char shown[4 * 64 + 1];
			apod_escape(shown, sizeof shown, key, strlen(key));
			rc = apod_usage_fail("%s: expected 'key = value', got '%s'", where, shown);
			break;
		}
		*eq = '\0';
		value = trim(eq + 1);
		key = trim(key);
		if (*key == '\0' || *value == '\0') {
			rc = apod_usage_fail("%s: empty key or value", where);
			break;
		}
		p = apod_param_find(w, key);
		if (!p) {
			rc = unknown_key(w, key, where);
			break;
		}
		/* The first line of a repeating key replaces its defaults. */
		if (p->type == APOD_PARAM_CUSTOM && p->repeats && p->reset &&
		    !seen[p - w->params]) {
			p->reset(params);
			seen[p - w->params] = 1;
		}
		rc = named(w, set_one(p, params, value, where));
	}
	free(text);
	return rc;
}

int apod_format_real(char *buf, size_t len, double v)
{
	/* The shortest text that reads back to the same double. */
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, len, "%.*g", digits, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return 0;
}

int apod_param_text(const struct apod_param *p, const void *params, int i, char *buf, size_t len)
{
	const void *v = at_c(params, p);
	if (p->type == APOD_PARAM_CUSTOM)
		return p->get ? p->get(params, i, buf, len) : 0;
	if (i > 0)
		return 0;
	switch (p->type) {
	case APOD_PARAM_INT:
		snprintf(buf, len, "%ld", *(const long *)v);
		break;
	case APOD_PARAM_REAL:
		apod_format_real(buf, len, *(const double *)v);
		break;
	case APOD_PARAM_PAIR:
		snprintf(buf, len, "%ldx%ld", ((const long *)v)[0], ((const long *)v)[1]);
		break;
	case APOD_PARAM_NAME:
		snprintf(buf, len, "%s", (const char *)v);
		break;
	case APOD_PARAM_CHOICE:
		snprintf(buf, len, "%s", p->choices[*(const int *)v]);
		break;
	default:
		return 0;
	}
	return 1;
}

json_object *apod_params_json(const struct apod_workload *w, const void *params)
{
	json_object *o = json_object_new_object();
	char buf[LINE_MAX_LEN];
	for (const struct apod_param *p = w->params; p && p->key; p++) {
		const void *v = at_c(params, p);
		switch (p->type) {
		case APOD_PARAM_INT:
			json_object_object_add(o, p->key, json_object_new_int64(*(const long *)v));
			break;
		case APOD_PARAM_REAL:
			json_object_object_add(o, p->key, json_object_new_double(*(const double *)v));
			break;
		case APOD_PARAM_PAIR: {
			json_object *a = json_object_new_array();
			json_object_array_add(a, json_object_new_int64(((const long *)v)[0]));
			json_object_array_add(a, json_object_new_int64(((const long *)v)[1]));
			json_object_object_add(o, p->key, a);
			break;
		}
		case APOD_PARAM_NAME:
			json_object_object_add(o, p->key, json_object_new_string((const char *)v));
			break;
		case APOD_PARAM_CHOICE:
			json_object_object_add(o, p->key,
			                       json_object_new_string(p->choices[*(const int *)v]));
			break;
		case APOD_PARAM_CUSTOM:
			if (!p->get)
				break;
			if (p->repeats) {
				json_object *a = json_object_new_array();
				for (int i = 0; p->get(params, i, buf, sizeof buf); i++)
					json_object_array_add(a, json_object_new_string(buf));
				json_object_object_add(o, p->key, a);
			} else if (p->get(params, 0, buf, sizeof buf))
				json_object_object_add(o, p->key, json_object_new_string(buf));
			break;
		}
	}
	return o;
}

/* One JSON value back to deck text, so that it passes the same checks as a deck line. */
static int json_text(const struct apod_param *p, json_object *x, char *buf, size_t len,
                     const char *where)
{
	switch (p->type) {
	case APOD_PARAM_INT:
		if (!json_object_is_type(x, json_type_int))
			break;
		snprintf(buf, len, "%" PRId64, json_object_get_int64(x));
		return 0;
	case APOD_PARAM_REAL:
		if (!json_object_is_type(x, json_type_double) && !json_object_is_type(x, json_type_int))
			break;
		apod_format_real(buf, len, json_object_get_double(x));
		return 0;
	case APOD_PARAM_PAIR:
		if (!json_object_is_type(x, json_type_array) || json_object_array_length(x) != 2 ||
		    !json_object_is_type(json_object_array_get_idx(x, 0), json_type_int) ||
		    !json_object_is_type(json_object_array_get_idx(x, 1), json_type_int))
			break;
		snprintf(buf, len, "%" PRId64 "x%" PRId64,
		         json_object_get_int64(json_object_array_get_idx(x, 0)),
		         json_object_get_int64(json_object_array_get_idx(x, 1)));
		return 0;
	case APOD_PARAM_NAME:
	case APOD_PARAM_CUSTOM:
	case APOD_PARAM_CHOICE:
		if (!json_object_is_type(x, json_type_string))
			break;
		snprintf(buf, len, "%s", json_object_get_string(x));
		return 0;
	}
	return apod_usage_fail("%s: '%s' has the wrong type", where, p->key);
}

int apod_params_from_json(const struct apod_workload *w, void *params, json_object *o,
                          const char *where)
{
	char buf[LINE_MAX_LEN];
	if (!json_object_is_type(o, json_type_object))
		return apod_usage_fail("%s: 'params' is not an object", where);
	for (const struct apod_param *p = w->params; p && p->key; p++) {
		json_object *x;
		if (p->type == APOD_PARAM_CUSTOM && !p->get)
			continue;
		if (!json_object_object_get_ex(o, p->key, &x)) {
			/* A custom key with no value (an unset optional range) is left out. */
			if (p->type == APOD_PARAM_CUSTOM && !p->repeats) {
				if (p->reset)
					p->reset(params);
				continue;
			}
			return apod_usage_fail("%s: params: missing '%s'", where, p->key);
		}
		if (p->type == APOD_PARAM_CUSTOM && p->repeats) {
			size_t n;
			if (!json_object_is_type(x, json_type_array))
				return apod_usage_fail("%s: '%s' is not a list", where, p->key);
			if (p->reset)
				p->reset(params);
			n = json_object_array_length(x);
			for (size_t i = 0; i < n; i++)
				if (json_text(p, json_object_array_get_idx(x, i), buf, sizeof buf, where) ||
				    set_one(p, params, buf, where))
					return named(w, -1);
			continue;
		}
		if (json_text(p, x, buf, sizeof buf, where) || set_one(p, params, buf, where))
			return named(w, -1);
	}
	return 0;
}

/* 1 if key p has the same values in a and b. */
static int key_same(const struct apod_param *p, const void *a, const void *b)
{
	char ta[LINE_MAX_LEN], tb[LINE_MAX_LEN];
	for (int i = 0;; i++) {
		int ha = apod_param_text(p, a, i, ta, sizeof ta);
		int hb = apod_param_text(p, b, i, tb, sizeof tb);
		if (ha != hb || (ha && strcmp(ta, tb)))
			return 0;
		if (!ha)
			return 1;
	}
}

int apod_params_same(const struct apod_workload *w, const void *a, const void *b,
                     const char **key)
{
	for (const struct apod_param *p = w->params; p && p->key; p++)
		if (!p->neutral && !key_same(p, a, b)) {
			if (key)
				*key = p->key;
			return 0;
		}
	return 1;
}

int apod_params_differing(const struct apod_workload *w, const void *a, const void *b,
                          char *buf, size_t len)
{
	int n = 0;
	size_t used = 0;
	if (len)
		buf[0] = '\0';
	for (const struct apod_param *p = w->params; p && p->key; p++) {
		if (p->neutral || key_same(p, a, b))
			continue;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s'%s'", n ? ", " : "", p->key);
		n++;
	}
	return n;
}

char *apod_params_deck_text(const struct apod_workload *w, const void *params)
{
	char *text = NULL, buf[LINE_MAX_LEN];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f) {
		apod_fail("cannot format the deck: out of memory");
		return NULL;
	}
	for (const struct apod_param *p = w->params; p && p->key; p++)
		for (int i = 0; apod_param_text(p, params, i, buf, sizeof buf); i++)
			fprintf(f, "%s = %s\n", p->key, buf);
	if (fclose(f)) {
		free(text);
		apod_fail("cannot format the deck: out of memory");
		return NULL;
	}
	return text;
}
