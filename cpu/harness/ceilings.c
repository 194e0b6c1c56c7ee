/*
 * ceilings.c: the ceilings' cache file: where it lives, how it is written
 * (JSON, temp file then rename) and how it is read back, checked, so that a
 * file from another machine (--ceilings=FILE) is refused with the reason
 * rather than half believed.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ceilings.h"
#include "fail.h"
#include "outfile.h"
#include "results.h"

static const char *const resource_names[APOD_CEIL_COUNT] = {
	"host_one_core", "host_all_cores", "device", "pcie_h2d", "pcie_d2h",
};

const char *apod_ceiling_name(enum apod_resource k)
{
	return (unsigned)k < APOD_CEIL_COUNT ? resource_names[k] : "unknown";
}

enum { HOST = 1, DEVICE = 2, LINK = 4 };

/* Every figure, its key in the file, and the resources that must have it
 * once measured (the others write and require none). */
static const struct {
	const char *key;
	size_t off;
	unsigned need;
} figures[] = {
	{ "bandwidth_bytes_per_s", offsetof(struct apod_ceiling, bandwidth), HOST | DEVICE | LINK },
	{ "triad_bytes_per_s", offsetof(struct apod_ceiling, triad), HOST },
	{ "fp32_flop_per_s", offsetof(struct apod_ceiling, fp32), HOST | DEVICE },
	{ "fp64_flop_per_s", offsetof(struct apod_ceiling, fp64), HOST | DEVICE },
	{ "special_op_per_s", offsetof(struct apod_ceiling, special), DEVICE },
	{ "launch_seconds", offsetof(struct apod_ceiling, launch), DEVICE },
	{ "launch_interval_seconds", offsetof(struct apod_ceiling, launch_interval), DEVICE },
};

static unsigned kind_of(int k)
{
	return k <= APOD_CEIL_HOST_ALL ? HOST : k == APOD_CEIL_DEVICE ? DEVICE : LINK;
}

static double *figure(struct apod_ceiling *r, size_t i)
{
	return (double *)((char *)r + figures[i].off);
}

void apod_ceilings_no_device(struct apod_ceilings *c, const char *why)
{
	for (int k = APOD_CEIL_DEVICE; k < APOD_CEIL_COUNT; k++) {
		memset(&c->r[k], 0, sizeof c->r[k]);
		snprintf(c->r[k].why, sizeof c->r[k].why, "%s", why);
	}
}

/* A name part of the cache file: letters, digits, '.', '_' and '-' only. */
static void name_part(char *out, size_t len, const char *in)
{
	size_t n = 0;
	for (; *in && n + 1 < len; in++)
		out[n++] = (isalnum((unsigned char)*in) || *in == '.' || *in == '-') ? *in : '_';
	out[n] = '\0';
}

/* FNV-1a: the CPU model is long and full of spaces; its hash names it. */
static unsigned fnv1a(const char *s)
{
	unsigned h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

int apod_ceilings_cache_path(char *buf, size_t len, const struct apod_ceilings *c)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char host[128], dev[256], id[64];
	int n;
	name_part(host, sizeof host, c->host[0] ? c->host : "host");
	name_part(dev, sizeof dev, c->device);
	name_part(id, sizeof id, c->device_id);
	/* The XDG rule: a relative XDG_CACHE_HOME is ignored. */
	if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/apod/", xdg);
	else if (home && home[0] == '/')
		n = snprintf(buf, len, "%s/.cache/apod/", home);
	else
		return apod_fail("ceilings: no cache folder: neither XDG_CACHE_HOME nor HOME is an "
		                 "absolute path (use --ceilings=FILE)");
	if (n < 0 || (size_t)n >= len)
		return apod_fail("ceilings: the cache folder's path is too long");
	if (c->device[0])
		n += snprintf(buf + n, len - n, "ceilings-%s-%08x-%s-%s.json", host, fnv1a(c->cpu), dev, id);
	else
		n += snprintf(buf + n, len - n, "ceilings-%s-%08x-nogpu.json", host, fnv1a(c->cpu));
	if ((size_t)n >= len)
		return apod_fail("ceilings: the cache file's path is too long");
	return 0;
}

json_object *apod_ceilings_json(const struct apod_ceilings *c)
{
	json_object *o = json_object_new_object(), *res = json_object_new_object();
	json_object_object_add(o, "apod_ceilings", json_object_new_int(APOD_CEILINGS_FORMAT));
	json_object_object_add(o, "host", json_object_new_string(c->host));
	json_object_object_add(o, "cpu", json_object_new_string(c->cpu));
	json_object_object_add(o, "device", json_object_new_string(c->device));
	json_object_object_add(o, "device_id", json_object_new_string(c->device_id));
	json_object_object_add(o, "build", json_object_new_string(c->build));
	json_object_object_add(o, "measured_at", json_object_new_string(c->measured_at));
	json_object_object_add(o, "seconds", json_object_new_double(c->seconds));
	if (c->load >= 0 && c->cores > 0) {
		json_object_object_add(o, "load_average", json_object_new_double(c->load));
		json_object_object_add(o, "cores", json_object_new_int(c->cores));
	}
	for (int k = 0; k < APOD_CEIL_COUNT; k++) {
		const struct apod_ceiling *r = &c->r[k];
		json_object *x = json_object_new_object();
		json_object_object_add(x, "measured", json_object_new_boolean(r->measured));
		if (!r->measured) {
			json_object_object_add(x, "why", json_object_new_string(r->why));
		} else {
			if (kind_of(k) == HOST)
				json_object_object_add(x, "threads", json_object_new_int(r->threads));
			for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++)
				if (figures[i].need & kind_of(k))
					json_object_object_add(x, figures[i].key, json_object_new_double(
					                       *figure((struct apod_ceiling *)r, i)));
		}
		json_object_object_add(res, resource_names[k], x);
	}
	json_object_object_add(o, "resources", res);
	return o;
}

int apod_ceilings_contradict(const struct apod_ceilings *c, char *why, size_t len)
{
	static const struct {
		const char *name, *unit;
		size_t off;
		double slack;
	} host[] = {
		{ "copy", "GB/s", offsetof(struct apod_ceiling, bandwidth), APOD_CEILINGS_SLACK_BYTES },
		{ "triad", "GB/s", offsetof(struct apod_ceiling, triad), APOD_CEILINGS_SLACK_BYTES },
		{ "FP32", "GFLOP/s", offsetof(struct apod_ceiling, fp32), APOD_CEILINGS_SLACK_FLOPS },
		{ "FP64", "GFLOP/s", offsetof(struct apod_ceiling, fp64), APOD_CEILINGS_SLACK_FLOPS },
	};
	const struct apod_ceiling *one = &c->r[APOD_CEIL_HOST_ONE], *all = &c->r[APOD_CEIL_HOST_ALL];
	size_t used = 0;
	if (len)
		why[0] = '\0';
	if (!one->measured || !all->measured)
		return 0;
	/* More threads never make the machine slower than one of them: where
	 * they seem to, something else was running. */
	for (size_t i = 0; i < sizeof host / sizeof host[0]; i++) {
		double a = *(const double *)((const char *)all + host[i].off);
		double o = *(const double *)((const char *)one + host[i].off);
		if (!(a < (1 - host[i].slack) * o))
			continue;
		if (used < len)
			used += (size_t)snprintf(why + used, len - used, "%s%s on %d threads %.1f %s, "
			                         "below one core's %.1f", used ? "; " : "", host[i].name,
			                         all->threads, a * 1e-9, host[i].unit, o * 1e-9);
		else
			used++;
	}
	return used > 0;
}

/* A string member into buf; -1 (with the reason) if absent, not a string or too long. */
static int get_string(json_object *o, const char *key, char *buf, size_t len, const char *what)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return apod_usage_fail("%s: not a ceilings file: \"%s\" is missing or not a string", what, key);
	if ((size_t)json_object_get_string_len(v) >= len)
		return apod_usage_fail("%s: not a ceilings file: \"%s\" is too long", what, key);
	snprintf(buf, len, "%s", json_object_get_string(v));
	return 0;
}

/* A number member: finite, and positive where required (else at least 0). */
static int get_number(json_object *o, const char *key, double *v, int positive, const char *what,
                      const char *in)
{
	json_object *x;
	if (!json_object_object_get_ex(o, key, &x) ||
	    !(json_object_is_type(x, json_type_double) || json_object_is_type(x, json_type_int)))
		return apod_usage_fail("%s: not a ceilings file: %s\"%s\" is missing or not a number",
		                       what, in, key);
	*v = json_object_get_double(x);
	if (!isfinite(*v) || *v < 0 || (positive && *v == 0))
		return apod_usage_fail("%s: not a ceilings file: %s\"%s\" is %g, not a %s number", what,
		                       in, key, *v, positive ? "positive" : "finite, non-negative");
	return 0;
}

static int resource_from_json(struct apod_ceiling *r, int k, json_object *x, const char *what)
{
	json_object *m;
	char in[64];
	snprintf(in, sizeof in, "%s's ", resource_names[k]);
	memset(r, 0, sizeof *r);
	if (!json_object_is_type(x, json_type_object))
		return apod_usage_fail("%s: not a ceilings file: \"%s\" is not an object", what,
		                       resource_names[k]);
	if (!json_object_object_get_ex(x, "measured", &m) || !json_object_is_type(m, json_type_boolean))
		return apod_usage_fail("%s: not a ceilings file: %s\"measured\" is missing or not true "
		                       "or false", what, in);
	r->measured = json_object_get_boolean(m);
	if (!r->measured)
		return get_string(x, "why", r->why, sizeof r->why, what);
	if (kind_of(k) == HOST) {
		double t;
		if (get_number(x, "threads", &t, 1, what, in))
			return -1;
		if (t != floor(t) || t > 1e6)
			return apod_usage_fail("%s: not a ceilings file: %s\"threads\" is %g", what, in, t);
		r->threads = (int)t;
	}
	for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++)
		if ((figures[i].need & kind_of(k)) && get_number(x, figures[i].key, figure(r, i), 1, what, in))
			return -1;
	return 0;
}

int apod_ceilings_from_json(struct apod_ceilings *c, json_object *o, const char *what)
{
	json_object *v, *res;
	memset(c, 0, sizeof *c);
	if (!json_object_is_type(o, json_type_object))
		return apod_usage_fail("%s: not a ceilings file: not a JSON object", what);
	if (!json_object_object_get_ex(o, "apod_ceilings", &v) || !json_object_is_type(v, json_type_int))
		return apod_usage_fail("%s: not a ceilings file (no \"apod_ceilings\" format number)", what);
	if (json_object_get_int(v) != APOD_CEILINGS_FORMAT)
		return apod_usage_fail("%s: ceilings file format %d; this apod reads format %d", what,
		                       json_object_get_int(v), APOD_CEILINGS_FORMAT);
	if (get_string(o, "host", c->host, sizeof c->host, what) ||
	    get_string(o, "cpu", c->cpu, sizeof c->cpu, what) ||
	    get_string(o, "device", c->device, sizeof c->device, what) ||
	    get_string(o, "device_id", c->device_id, sizeof c->device_id, what) ||
	    get_string(o, "build", c->build, sizeof c->build, what) ||
	    get_string(o, "measured_at", c->measured_at, sizeof c->measured_at, what) ||
	    get_number(o, "seconds", &c->seconds, 0, what, ""))
		return -1;
	/* Files written before the load was recorded have none. */
	c->load = -1;
	if (json_object_object_get_ex(o, "load_average", &v) &&
	    get_number(o, "load_average", &c->load, 0, what, ""))
		return -1;
	if (json_object_object_get_ex(o, "cores", &v))
		c->cores = json_object_get_int(v);
	if (!json_object_object_get_ex(o, "resources", &res) || !json_object_is_type(res, json_type_object))
		return apod_usage_fail("%s: not a ceilings file: \"resources\" is missing or not an object",
		                       what);
	for (int k = 0; k < APOD_CEIL_COUNT; k++) {
		if (!json_object_object_get_ex(res, resource_names[k], &v))
			return apod_usage_fail("%s: not a ceilings file: resource \"%s\" is missing", what,
			                       resource_names[k]);
		if (resource_from_json(&c->r[k], k, v, what))
			return -1;
	}
	{
		char why[512];
		if (apod_ceilings_contradict(c, why, sizeof why))
			return apod_usage_fail("%s: the host's figures contradict each other (%s): "
			                       "measured on a busy machine?", what, why);
	}
	return 0;
}

int apod_ceilings_load(struct apod_ceilings *c, const char *path, int missing_ok)
{
	struct stat st;
	json_object *o;
	int rc;
	if (stat(path, &st) != 0) {
		if (errno == ENOENT && missing_ok)
			return 1;
		return apod_usage_fail("%s: cannot open: %s", path, strerror(errno));
	}
	if (!S_ISREG(st.st_mode))
		return apod_usage_fail("%s: not a ceilings file: not a regular file", path);
	if (!(o = json_object_from_file(path)))
		return apod_usage_fail("%s: not a ceilings file: not JSON (%s)", path,
		                       json_util_get_last_err() ? json_util_get_last_err() : "unreadable");
	rc = apod_ceilings_from_json(c, o, path);
	json_object_put(o);
	if (rc)
		return -1;
	snprintf(c->file, sizeof c->file, "%s", path);
	return 0;
}

int apod_ceilings_save(struct apod_ceilings *c, const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	json_object *o;
	int rc;
	if (slash && slash != path) {
		if ((size_t)(slash - path) >= sizeof dir)
			return apod_fail("%s: path too long", path);
		memcpy(dir, path, slash - path);
		dir[slash - path] = '\0';
		if (apod_mkdirs(dir))
			return -1;
	}
	o = apod_ceilings_json(c);
	rc = apod_json_write(path, o);
	json_object_put(o);
	if (rc == 0)
		snprintf(c->file, sizeof c->file, "%s", path);
	return rc;
}
