/*
 * params.c: the heat workload's keys.  The harness parses, defaults,
 * writes and compares them from this table; what is left here is what no
 * table can say: a heater's four numbers, the optional histogram range, and
 * the checks that span keys.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apod/apod.h"
#include "apod/ready_made.h"
#include "heat.h"
#include "shared/heat/real.h"
#include "shared/stats.h"

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

static int parse_number(const char *s, double *out, const char *where, const char *key,
                        double limit)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end != '\0' || !isfinite(v))
		return apod_usage_fail("%s: %s: '%s' is not a finite number", where, key, s);
	if (fabs(v) > limit)
		return apod_usage_fail("%s: %s: %s is beyond +-%g", where, key, s, limit);
	*out = v;
	return 0;
}

static int source_set(void *params, const char *value, const char *where)
{
	struct heat_deck *d = params;
	char buf[256], *w[5];
	double v[4];
	struct heat_source *src;
	if (strlen(value) >= sizeof buf)
		return apod_usage_fail("%s: source: value too long", where);
	strcpy(buf, value);
	if (split_words(buf, w, 4) != 4)
		return apod_usage_fail("%s: source: expected 'X Y RADIUS TEMPERATURE', got '%s'",
		                       where, value);
	for (int i = 0; i < 4; i++)
		if (parse_number(w[i], &v[i], where, "source", i == 3 ? HEAT_MAX_TEMP : INFINITY))
			return -1;
	if (v[0] < 0 || v[0] > 1 || v[1] < 0 || v[1] > 1)
		return apod_usage_fail("%s: source: position %s %s is outside [0, 1]", where, w[0], w[1]);
	if (!(v[2] > 0 && v[2] <= 0.5))
		return apod_usage_fail("%s: source: radius %s is outside (0, 0.5]", where, w[2]);
	if (d->nsources == HEAT_MAX_SOURCES)
		return apod_usage_fail("%s: source: more than %d sources", where, HEAT_MAX_SOURCES);
	src = &d->sources[d->nsources++];
	*src = (struct heat_source){ v[0], v[1], v[2], v[3] };
	return 0;
}

static int source_get(const void *params, int i, char *buf, size_t len)
{
	const struct heat_deck *d = params;
	char v[4][32];
	if (i >= d->nsources)
		return 0;
	apod_format_real(v[0], sizeof v[0], d->sources[i].x);
	apod_format_real(v[1], sizeof v[1], d->sources[i].y);
	apod_format_real(v[2], sizeof v[2], d->sources[i].r);
	apod_format_real(v[3], sizeof v[3], d->sources[i].temp);
	snprintf(buf, len, "%s %s %s %s", v[0], v[1], v[2], v[3]);
	return 1;
}

static void source_reset(void *params)
{
	((struct heat_deck *)params)->nsources = 0;
}

/* "sources = none" clears the defaults, so a deck can have no heater. */
static int sources_set(void *params, const char *value, const char *where)
{
	if (strcmp(value, "none"))
		return apod_usage_fail("%s: sources: the only value is 'none'", where);
	source_reset(params);
	return 0;
}

static int range_set(void *params, const char *value, const char *where)
{
	struct heat_deck *d = params;
	char buf[128], *w[3];
	double lo = 0, hi = 0;
	if (strlen(value) >= sizeof buf)
		return apod_usage_fail("%s: hist_range: value too long", where);
	strcpy(buf, value);
	if (split_words(buf, w, 2) != 2)
		return apod_usage_fail("%s: hist_range: expected 'LOW HIGH', got '%s'", where, value);
	if (parse_number(w[0], &lo, where, "hist_range", HEAT_MAX_TEMP) ||
	    parse_number(w[1], &hi, where, "hist_range", HEAT_MAX_TEMP))
		return -1;
	if (!(lo < hi))
		return apod_usage_fail("%s: hist_range: LOW %s is not below HIGH %s", where, w[0], w[1]);
	d->hist_lo = lo;
	d->hist_hi = hi;
	d->hist_range_set = 1;
	return 0;
}

static int range_get(const void *params, int i, char *buf, size_t len)
{
	const struct heat_deck *d = params;
	char lo[32], hi[32];
	if (i > 0 || !d->hist_range_set)
		return 0;
	apod_format_real(lo, sizeof lo, d->hist_lo);
	apod_format_real(hi, sizeof hi, d->hist_hi);
	snprintf(buf, len, "%s %s", lo, hi);
	return 1;
}

static void range_reset(void *params)
{
	((struct heat_deck *)params)->hist_range_set = 0;
}

#define AT(member) offsetof(struct heat_deck, member)
#define TEMP(k, d, member, h) \
	{ .key = k, .type = APOD_PARAM_REAL, .def = d, .lo = -HEAT_MAX_TEMP, .hi = HEAT_MAX_TEMP, \
	  .range_why = " (temperatures beyond +-1e6 are refused)", .offset = AT(member), .help = h }

const struct apod_param heat_params[] = {
	APOD_KEY_NAME(struct heat_deck, name, "medium"),
	{ .key = "size", .type = APOD_PARAM_PAIR, .def = "2048x2048", .lo = 3, .hi = HEAT_MAX_DIM,
	  .offset = AT(size), .help = "NXxNY, grid columns x rows" },
	APOD_KEY_STEPS(struct heat_deck, steps, "300", HEAT_MAX_STEPS),
	{ .key = "alpha", .type = APOD_PARAM_REAL, .def = "0.24", .lo = 0, .lo_open = 1, .hi = 0.25,
	  .range_why = ", where the explicit scheme is stable", .offset = AT(alpha),
	  .help = "diffusion number k*dt/h^2" },
	TEMP("t_init", "20", t_init, "interior temperature at step 0"),
	TEMP("t_hot", "100", t_hot, "top edge, held fixed"),
	TEMP("t_cold", "0", t_cold, "the other three edges, held fixed"),
	APOD_KEY_EVERY(struct heat_deck, stats_every, "1", HEAT_MAX_STEPS, "calcStats"),
	APOD_KEY_EVERY(struct heat_deck, summary_every, "10", HEAT_MAX_STEPS, "calcSummaryData"),
	APOD_KEY_SNAPSHOT_EVERY(struct heat_deck, snapshot_every, "100", HEAT_MAX_STEPS, "a snapshot"),
	{ .key = "zones", .type = APOD_PARAM_PAIR, .def = "8x8", .lo = 1, .hi = HEAT_MAX_ZONES,
	  .offset = AT(zones), .help = "ZXxZY, zones across x down for calcSummaryData" },
	{ .key = "hist_bins", .type = APOD_PARAM_INT, .def = "64", .lo = 1, .hi = HEAT_MAX_BINS,
	  .offset = AT(hist_bins), .help = "histogram bins" },
	{ .key = "hist_range", .type = APOD_PARAM_CUSTOM, .set = range_set, .get = range_get,
	  .reset = range_reset, .help = "LOW HIGH (default: lowest to highest temperature)" },
	{ .key = "source", .type = APOD_PARAM_CUSTOM, .repeats = 1,
	  .def = "0.3 0.6 0.06 90; 0.7 0.35 0.04 60", .set = source_set, .get = source_get,
	  .reset = source_reset, .help = "a heater: X Y RADIUS TEMPERATURE (fractions of the grid)" },
	{ .key = "sources", .type = APOD_PARAM_CUSTOM, .set = sources_set,
	  .help = "'none': no heaters" },
	{ .key = NULL },
};

double heat_deck_tmin(const struct heat_deck *d)
{
	double t = fmin(d->t_init, fmin(d->t_hot, d->t_cold));
	for (int i = 0; i < d->nsources; i++)
		t = fmin(t, d->sources[i].temp);
	return t;
}

double heat_deck_tmax(const struct heat_deck *d)
{
	double t = fmax(d->t_init, fmax(d->t_hot, d->t_cold));
	for (int i = 0; i < d->nsources; i++)
		t = fmax(t, d->sources[i].temp);
	return t;
}

double heat_deck_scale(const struct heat_deck *d)
{
	return fmax(fabs(heat_deck_tmin(d)), fabs(heat_deck_tmax(d)));
}

void heat_deck_hist_range(const struct heat_deck *d, double *lo, double *hi)
{
	*lo = d->hist_range_set ? d->hist_lo : heat_deck_tmin(d);
	*hi = d->hist_range_set ? d->hist_hi : heat_deck_tmax(d);
}

size_t heat_deck_run_bytes(const struct heat_deck *d)
{
	size_t cells, bytes, per_step, steps_bytes, rows;
	/* Two fields, the final copy and a snapshot buffer... */
	if (__builtin_mul_overflow((size_t)d->size[0], (size_t)d->size[1], &cells) ||
	    __builtin_mul_overflow(cells, 4 * sizeof(heat_real), &bytes))
		return 0;
	/* ...and the statistics kept for every stats_every-th step: moments and
	 * histogram, in double. */
	per_step = (4 + (size_t)d->hist_bins) * sizeof(double);
	rows = d->stats_every > 0 ? (size_t)(d->steps / d->stats_every) : 0;
	if (__builtin_mul_overflow(rows, per_step, &steps_bytes) ||
	    __builtin_add_overflow(bytes, steps_bytes, &bytes))
		return 0;
	return bytes;
}

int heat_deck_check(const void *deck)
{
	const struct heat_deck *d = deck;
	if (d->zones[0] > d->size[0] || d->zones[1] > d->size[1])
		return apod_usage_fail("deck: zones %ldx%ld do not fit a %ldx%ld grid", d->zones[0],
		                       d->zones[1], d->size[0], d->size[1]);
	if (!d->hist_range_set && !(heat_deck_tmin(d) < heat_deck_tmax(d)))
		return apod_usage_fail("deck: every temperature is %g, so the histogram has no range; "
		                       "set hist_range", heat_deck_tmin(d));
	return apod_fits_in_memory(heat_deck_run_bytes(d), "deck: a %ldx%ld grid run for %ld steps "
	                           "(its fields and per-step statistics)", d->size[0], d->size[1],
	                           d->steps);
}
