/*
 * deck.c: parse and check input decks.
 *
 * Decks come from users, so nothing here trusts them: numbers must be
 * whole tokens (no "12abc"), finite and in range; lines are bounded;
 * binary garbage is refused by name instead of being parsed as text.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apod_hd.h"
#include "deck.h"
#include "stats.h"
#include "fail.h"

#define LINE_MAX_LEN 1024
#define DECK_MAX_BYTES (1 << 20)

void apod_deck_defaults(struct apod_deck *d)
{
	memset(d, 0, sizeof *d);
	snprintf(d->name, sizeof d->name, "medium");
	d->nx = 2048;
	d->ny = 2048;
	d->steps = 300;
	d->alpha = 0.24;
	d->t_init = 20.0;
	d->t_hot = 100.0;
	d->t_cold = 0.0;
	d->summary_every = 10;
	d->snapshot_every = 100;
	d->zones_x = 8;
	d->zones_y = 8;
	d->hist_bins = 64;
	d->nsources = 2;
	d->sources[0] = (struct apod_source){ 0.30, 0.60, 0.06, 90.0 };
	d->sources[1] = (struct apod_source){ 0.70, 0.35, 0.04, 60.0 };
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
                      const char *key)
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
		return apod_usage_fail("%s: %s: %s is out of range [%ld, %ld]", where, key, s, lo, hi);
	*out = v;
	return 0;
}

/* "NXxNY": two whole numbers joined by 'x'. */
static int parse_pair(const char *s, long lo, long hi, long *a, long *b,
                      const char *where, const char *key)
{
	char buf[64], *x;
	if (strlen(s) >= sizeof buf)
		return apod_usage_fail("%s: %s: '%s' is too long", where, key, s);
	strcpy(buf, s);
	x = strchr(buf, 'x');
	if (!x)
		return apod_usage_fail("%s: %s: '%s' is not of the form NXxNY", where, key, s);
	*x = '\0';
	if (parse_long(buf, lo, hi, a, where, key) || parse_long(x + 1, lo, hi, b, where, key))
		return -1;
	return 0;
}

/* Split s into at most max whitespace-separated words (modifies s). */
static int split_words(char *s, char **w, int max)
{
	int n = 0;
	char *save = NULL, *t;
	for (t = strtok_r(s, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (n == max)
			return max + 1;
		w[n++] = t;
	}
	return n;
}

static int parse_temp(const char *s, double *out, const char *where, const char *key)
{
	if (parse_double(s, out, where, key))
		return -1;
	if (fabs(*out) > APOD_MAX_TEMP)
		return apod_usage_fail("%s: %s: %s is beyond +-%g", where, key, s, APOD_MAX_TEMP);
	return 0;
}

static int parse_source(struct apod_deck *d, const char *value, const char *where)
{
	char buf[256], *w[5];
	double v[4];
	int i, n;
	struct apod_source *src;
	if (strlen(value) >= sizeof buf)
		return apod_usage_fail("%s: source: value too long", where);
	strcpy(buf, value);
	n = split_words(buf, w, 4);
	if (n != 4)
		return apod_usage_fail("%s: source: expected 'X Y RADIUS TEMPERATURE', got '%s'",
		                       where, value);
	for (i = 0; i < 3; i++)
		if (parse_double(w[i], &v[i], where, "source"))
			return -1;
	if (parse_temp(w[3], &v[3], where, "source"))
		return -1;
	if (v[0] < 0 || v[0] > 1 || v[1] < 0 || v[1] > 1)
		return apod_usage_fail("%s: source: position %s %s is outside [0, 1]", where, w[0], w[1]);
	if (!(v[2] > 0 && v[2] <= 0.5))
		return apod_usage_fail("%s: source: radius %s is outside (0, 0.5]", where, w[2]);
	if (d->nsources == APOD_MAX_SOURCES)
		return apod_usage_fail("%s: source: more than %d sources", where, APOD_MAX_SOURCES);
	src = &d->sources[d->nsources++];
	src->x = v[0];
	src->y = v[1];
	src->r = v[2];
	src->temp = v[3];
	return 0;
}

int apod_deck_set(struct apod_deck *d, const char *key, const char *value, const char *where)
{
	long a, b;
	if (!strcmp(key, "name")) {
		size_t i, n = strlen(value);
		if (n == 0 || n >= sizeof d->name)
			return apod_usage_fail("%s: name: must be 1 to %zu characters", where,
			                       sizeof d->name - 1);
		for (i = 0; i < n; i++)
			if (!isalnum((unsigned char)value[i]) && value[i] != '-' && value[i] != '_')
				return apod_usage_fail("%s: name: '%s' may hold only letters, digits, - and _",
				                       where, value);
		memcpy(d->name, value, n + 1);
		return 0;
	}
	if (!strcmp(key, "size")) {
		if (parse_pair(value, 3, APOD_MAX_DIM, &a, &b, where, key))
			return -1;
		d->nx = (size_t)a;
		d->ny = (size_t)b;
		return 0;
	}
	if (!strcmp(key, "steps"))
		return parse_long(value, 1, APOD_MAX_STEPS, &d->steps, where, key);
	if (!strcmp(key, "alpha")) {
		if (parse_double(value, &d->alpha, where, key))
			return -1;
		if (!(d->alpha > 0 && d->alpha <= 0.25))
			return apod_usage_fail("%s: alpha: %s is outside (0, 0.25], where the explicit "
			                       "scheme is stable", where, value);
		return 0;
	}
	if (!strcmp(key, "t_init"))
		return parse_temp(value, &d->t_init, where, key);
	if (!strcmp(key, "t_hot"))
		return parse_temp(value, &d->t_hot, where, key);
	if (!strcmp(key, "t_cold"))
		return parse_temp(value, &d->t_cold, where, key);
	if (!strcmp(key, "summary_every"))
		return parse_long(value, 0, APOD_MAX_STEPS, &d->summary_every, where, key);
	if (!strcmp(key, "snapshot_every"))
		return parse_long(value, 0, APOD_MAX_STEPS, &d->snapshot_every, where, key);
	if (!strcmp(key, "zones")) {
		if (parse_pair(value, 1, APOD_MAX_ZONES, &a, &b, where, key))
			return -1;
		d->zones_x = (int)a;
		d->zones_y = (int)b;
		return 0;
	}
	if (!strcmp(key, "hist_bins")) {
		if (parse_long(value, 1, APOD_MAX_BINS, &a, where, key))
			return -1;
		d->hist_bins = (int)a;
		return 0;
	}
	if (!strcmp(key, "hist_range")) {
		char buf[128], *w[3];
		if (strlen(value) >= sizeof buf)
			return apod_usage_fail("%s: hist_range: value too long", where);
		strcpy(buf, value);
		if (split_words(buf, w, 2) != 2)
			return apod_usage_fail("%s: hist_range: expected 'LOW HIGH', got '%s'", where, value);
		if (parse_temp(w[0], &d->hist_lo, where, key) || parse_temp(w[1], &d->hist_hi, where, key))
			return -1;
		if (!(d->hist_lo < d->hist_hi))
			return apod_usage_fail("%s: hist_range: LOW %s is not below HIGH %s", where, w[0], w[1]);
		d->hist_range_set = 1;
		return 0;
	}
	if (!strcmp(key, "source"))
		return parse_source(d, value, where);
	if (!strcmp(key, "sources")) {
		/* "sources = none" clears the defaults, so a deck can have no heater. */
		if (strcmp(value, "none"))
			return apod_usage_fail("%s: sources: the only value is 'none'", where);
		d->nsources = 0;
		return 0;
	}
	return apod_usage_fail("%s: unknown key '%s'", where, key);
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

/* Read a whole deck into memory: decks are small, and a bound on the size
 * is the first defence against being handed the wrong file. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;
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

int apod_deck_load(struct apod_deck *d, const char *path)
{
	char where[512], *text, *line, *next;
	size_t len, i;
	int lineno = 0, sources_seen = 0, rc = 0;
	if (!(text = slurp(path, &len)))
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
	if (len == 0) {
		free(text);
		return apod_usage_fail("deck %s: empty file", path);
	}
	for (line = text; line && rc == 0; line = next) {
		char *eq, *key, *value, *hash;
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
			rc = apod_usage_fail("%s: expected 'key = value', got '%s'", where, key);
			break;
		}
		*eq = '\0';
		value = trim(eq + 1);
		key = trim(key);
		if (*key == '\0' || *value == '\0') {
			rc = apod_usage_fail("%s: empty key or value", where);
			break;
		}
		/* The first source line in a deck replaces the default heaters. */
		if (!strcmp(key, "source") && !sources_seen) {
			d->nsources = 0;
			sources_seen = 1;
		}
		rc = apod_deck_set(d, key, value, where);
	}
	free(text);
	return rc;
}

double apod_deck_tmin(const struct apod_deck *d)
{
	double t = fmin(d->t_init, fmin(d->t_hot, d->t_cold));
	for (int i = 0; i < d->nsources; i++)
		t = fmin(t, d->sources[i].temp);
	return t;
}

double apod_deck_tmax(const struct apod_deck *d)
{
	double t = fmax(d->t_init, fmax(d->t_hot, d->t_cold));
	for (int i = 0; i < d->nsources; i++)
		t = fmax(t, d->sources[i].temp);
	return t;
}

double apod_deck_scale(const struct apod_deck *d)
{
	return fmax(fabs(apod_deck_tmin(d)), fabs(apod_deck_tmax(d)));
}

size_t apod_deck_run_bytes(const struct apod_deck *d)
{
	size_t cells, bytes, per_step, steps_bytes;
	/* Two fields, the final copy and a snapshot buffer... */
	if (__builtin_mul_overflow(d->nx, d->ny, &cells) ||
	    __builtin_mul_overflow(cells, 4 * sizeof(apod_real), &bytes))
		return 0;
	/* ...and the statistics kept for every step: moments and histogram. */
	per_step = sizeof(struct apod_moments) + (size_t)d->hist_bins * sizeof(unsigned);
	if (__builtin_mul_overflow((size_t)d->steps, per_step, &steps_bytes) ||
	    __builtin_add_overflow(bytes, steps_bytes, &bytes))
		return 0;
	return bytes;
}

int apod_deck_validate(const struct apod_deck *d)
{
	size_t need = apod_deck_run_bytes(d);
	long pages = sysconf(_SC_PHYS_PAGES), pagesize = sysconf(_SC_PAGESIZE);
	if (d->zones_x > (long)d->nx || d->zones_y > (long)d->ny)
		return apod_usage_fail("deck: zones %dx%d do not fit a %zux%zu grid",
		                       d->zones_x, d->zones_y, d->nx, d->ny);
	if (!d->hist_range_set && !(apod_deck_tmin(d) < apod_deck_tmax(d)))
		return apod_usage_fail("deck: every temperature is %g, so the histogram has no range; "
		                       "set hist_range", apod_deck_tmin(d));
	if (need == 0)
		return apod_usage_fail("deck: a %zux%zu grid overflows the address space", d->nx, d->ny);
	if (pages > 0 && pagesize > 0 && need / (size_t)pagesize > (size_t)pages)
		return apod_usage_fail("deck: a %zux%zu grid run for %ld steps needs %zu bytes (fields "
		                       "and per-step statistics), more than this machine's %zu bytes "
		                       "of memory", d->nx, d->ny, d->steps, need,
		                       (size_t)pages * (size_t)pagesize);
	return 0;
}
