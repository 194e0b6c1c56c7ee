/*
 * check_ceilings.c: the ceilings' cache file (cpu/harness/ceilings.c):
 * what is written reads back the same, every malformed file is refused as
 * a usage error naming the fault, and the file is named by host and device.
 * Nothing here is timed.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "apod/apod.h"
#include "cpu/harness/ceilings.h"
#include "cpu/harness/settle.h"
#include "check_run.h"

/* A full set: the host measured, the device too, the links not (with why). */
static void example(struct apod_ceilings *c)
{
	memset(c, 0, sizeof *c);
	snprintf(c->host, sizeof c->host, "node7");
	snprintf(c->cpu, sizeof c->cpu, "Some CPU @ 2.0GHz");
	snprintf(c->device, sizeof c->device, "NVIDIA H200");
	snprintf(c->device_id, sizeof c->device_id, "0123456789abcdef0123456789abcdef");
	snprintf(c->build, sizeof c->build, "gcc, SSE2");
	snprintf(c->measured_at, sizeof c->measured_at, "2026-11-26T01:02:03Z");
	c->seconds = 4.25;
	for (int k = APOD_CEIL_HOST_ONE; k <= APOD_CEIL_HOST_ALL; k++) {
		c->r[k].measured = 1;
		c->r[k].threads = k == APOD_CEIL_HOST_ONE ? 1 : 16;
		c->r[k].bandwidth = 1.0 / 3 * 1e10 * (k + 1);
		c->r[k].triad = 1.1e10 * (k + 1);
		c->r[k].fp32 = 3.7e10 * (k + 1);
		c->r[k].fp64 = 1.85e10 * (k + 1);
	}
	c->r[APOD_CEIL_DEVICE] = (struct apod_ceiling){ .measured = 1, .bandwidth = 4.005e12,
		.fp32 = 6.1e13, .fp64 = 3.3e13, .special = 4.1e12, .launch = 4.5e-6,
		.launch_interval = 2.1e-6 };
	snprintf(c->r[APOD_CEIL_H2D].why, sizeof c->r[APOD_CEIL_H2D].why, "a reason, \"quoted\"");
	c->r[APOD_CEIL_D2H].measured = 1;
	c->r[APOD_CEIL_D2H].bandwidth = 5.3e10;
}

static void assert_same(const struct apod_ceilings *a, const struct apod_ceilings *b)
{
	ck_assert_str_eq(a->host, b->host);
	ck_assert_str_eq(a->cpu, b->cpu);
	ck_assert_str_eq(a->device, b->device);
	ck_assert_str_eq(a->device_id, b->device_id);
	ck_assert_str_eq(a->build, b->build);
	ck_assert_str_eq(a->measured_at, b->measured_at);
	ck_assert(a->seconds == b->seconds);
	/* Every figure bit for bit: json-c writes doubles that read back exactly. */
	ck_assert_int_eq(memcmp(a->r, b->r, sizeof a->r), 0);
}

START_TEST(a_file_reads_back_what_was_saved)
{
	char dir[] = "/tmp/apod-ceil-XXXXXX", path[256];
	struct apod_ceilings c, back;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/sub/ceilings.json", dir);
	example(&c);
	ck_assert_int_eq(apod_ceilings_save(&c, path), 0);
	ck_assert_str_eq(c.file, path);
	ck_assert_int_eq(apod_ceilings_load(&back, path, 0), 0);
	ck_assert_str_eq(back.file, path);
	assert_same(&c, &back);
	/* A missing file: 1 where that is allowed, a usage error where not. */
	snprintf(path, sizeof path, "%s/none.json", dir);
	ck_assert_int_eq(apod_ceilings_load(&back, path, 1), 1);
	ck_assert_int_eq(apod_ceilings_load(&back, path, 0), -1);
	ck_assert_int_eq(apod_failure_status(), APOD_EXIT_USAGE);
	snprintf(path, sizeof path, "%s/sub/ceilings.json", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/sub", dir);
	rmdir(path);
	rmdir(dir);
}
END_TEST

/* Refused as a usage error whose message holds `fragment`. */
static void assert_refused(json_object *o, const char *fragment)
{
	struct apod_ceilings c;
	ck_assert_int_eq(apod_ceilings_from_json(&c, o, "f.json"), -1);
	ck_assert_int_eq(apod_failure_status(), APOD_EXIT_USAGE);
	ck_assert_msg(strstr(apod_failure(), fragment), "'%s' does not say '%s'", apod_failure(), fragment);
	ck_assert_msg(strstr(apod_failure(), "f.json"), "'%s' does not name the file", apod_failure());
	json_object_put(o);
}

static json_object *resource(json_object *o, const char *name)
{
	json_object *res, *r;
	json_object_object_get_ex(o, "resources", &res);
	json_object_object_get_ex(res, name, &r);
	return r;
}

START_TEST(every_malformed_file_is_refused_by_name)
{
	static const char *const host_keys[] = { "threads", "bandwidth_bytes_per_s",
		"triad_bytes_per_s", "fp32_flop_per_s", "fp64_flop_per_s" };
	static const char *const device_keys[] = { "bandwidth_bytes_per_s", "fp32_flop_per_s",
		"fp64_flop_per_s", "special_op_per_s", "launch_seconds", "launch_interval_seconds" };
	static const char *const top[] = { "host", "cpu", "device", "device_id", "build",
		"measured_at", "seconds", "resources" };
	struct apod_ceilings c, back;
	json_object *o;
	example(&c);
	/* The example itself is accepted. */
	o = apod_ceilings_json(&c);
	ck_assert_int_eq(apod_ceilings_from_json(&back, o, "f.json"), 0);
	assert_same(&c, &back);
	json_object_put(o);

	assert_refused(json_object_new_array(), "not a JSON object");
	o = apod_ceilings_json(&c);
	json_object_object_add(o, "apod_ceilings", json_object_new_int(APOD_CEILINGS_FORMAT + 1));
	assert_refused(o, "format");
	for (size_t i = 0; i < sizeof top / sizeof top[0]; i++) {
		o = apod_ceilings_json(&c);
		json_object_object_del(o, top[i]);
		assert_refused(o, top[i]);
	}
	for (int k = 0; k < APOD_CEIL_COUNT; k++) {
		o = apod_ceilings_json(&c);
		{
			json_object *res;
			json_object_object_get_ex(o, "resources", &res);
			json_object_object_del(res, apod_ceiling_name(k));
		}
		assert_refused(o, apod_ceiling_name(k));
		o = apod_ceilings_json(&c);
		json_object_object_add(resource(o, apod_ceiling_name(k)), "measured",
		                       json_object_new_string("yes"));
		assert_refused(o, "measured");
	}
	/* Each figure a measured resource must have: missing, zero, negative, not a number. */
	for (size_t i = 0; i < sizeof host_keys / sizeof host_keys[0]; i++) {
		o = apod_ceilings_json(&c);
		json_object_object_del(resource(o, "host_all_cores"), host_keys[i]);
		assert_refused(o, host_keys[i]);
		o = apod_ceilings_json(&c);
		json_object_object_add(resource(o, "host_one_core"), host_keys[i], json_object_new_double(-1));
		assert_refused(o, host_keys[i]);
	}
	for (size_t i = 0; i < sizeof device_keys / sizeof device_keys[0]; i++) {
		o = apod_ceilings_json(&c);
		json_object_object_add(resource(o, "device"), device_keys[i], json_object_new_int(0));
		assert_refused(o, device_keys[i]);
		o = apod_ceilings_json(&c);
		json_object_object_add(resource(o, "device"), device_keys[i], json_object_new_string("4e12"));
		assert_refused(o, device_keys[i]);
		o = apod_ceilings_json(&c);
		json_object_object_add(resource(o, "device"), device_keys[i], json_object_new_double(INFINITY));
		assert_refused(o, device_keys[i]);
	}
	o = apod_ceilings_json(&c);
	json_object_object_add(resource(o, "host_one_core"), "threads", json_object_new_double(1.5));
	assert_refused(o, "threads");
	/* A resource not measured must say why. */
	o = apod_ceilings_json(&c);
	json_object_object_del(resource(o, "pcie_h2d"), "why");
	assert_refused(o, "why");
	/* A string too long for its field is refused, not cut. */
	{
		char big[600];
		memset(big, 'x', sizeof big - 1);
		big[sizeof big - 1] = '\0';
		o = apod_ceilings_json(&c);
		json_object_object_add(o, "cpu", json_object_new_string(big));
		assert_refused(o, "cpu");
	}
}
END_TEST

START_TEST(a_file_that_is_not_json_is_refused)
{
	char dir[] = "/tmp/apod-ceil-XXXXXX", path[256];
	struct apod_ceilings c;
	FILE *f;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/bad.json", dir);
	ck_assert_ptr_nonnull(f = fopen(path, "w"));
	fputs("{\"apod_ceilings\": 1, \"host\": ", f);
	fclose(f);
	ck_assert_int_eq(apod_ceilings_load(&c, path, 0), -1);
	ck_assert_int_eq(apod_failure_status(), APOD_EXIT_USAGE);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "not JSON"));
	/* A folder is not a file. */
	ck_assert_int_eq(apod_ceilings_load(&c, dir, 0), -1);
	ck_assert_int_eq(apod_failure_status(), APOD_EXIT_USAGE);
	unlink(path);
	rmdir(dir);
}
END_TEST

START_TEST(the_cache_file_is_named_by_host_cpu_and_device)
{
	struct apod_ceilings c, d;
	char p[4096], q[4096];
	memset(&c, 0, sizeof c);
	snprintf(c.host, sizeof c.host, "node 7/a");
	snprintf(c.cpu, sizeof c.cpu, "Some CPU");
	setenv("XDG_CACHE_HOME", "/xdg", 1);
	ck_assert_int_eq(apod_ceilings_cache_path(p, sizeof p, &c), 0);
	ck_assert_msg(!strncmp(p, "/xdg/apod/ceilings-node_7_a-", 28), "%s", p);
	ck_assert_msg(strlen(p) > 11 && !strcmp(p + strlen(p) - 11, "-nogpu.json"), "%s", p);
	d = c;
	snprintf(d.device, sizeof d.device, "NVIDIA H200");
	snprintf(d.device_id, sizeof d.device_id, "00ff");
	ck_assert_int_eq(apod_ceilings_cache_path(q, sizeof q, &d), 0);
	ck_assert_msg(strstr(q, "-NVIDIA_H200-00ff.json"), "%s", q);
	/* Another CPU, another file. */
	snprintf(d.cpu, sizeof d.cpu, "Other CPU");
	d.device[0] = d.device_id[0] = '\0';
	ck_assert_int_eq(apod_ceilings_cache_path(q, sizeof q, &d), 0);
	ck_assert_str_ne(p, q);
	/* XDG's rule: a relative XDG_CACHE_HOME counts for nothing. */
	setenv("XDG_CACHE_HOME", "rel", 1);
	setenv("HOME", "/home/u", 1);
	ck_assert_int_eq(apod_ceilings_cache_path(p, sizeof p, &c), 0);
	ck_assert_msg(!strncmp(p, "/home/u/.cache/apod/ceilings-", 29), "%s", p);
	unsetenv("XDG_CACHE_HOME");
	unsetenv("HOME");
	ck_assert_int_eq(apod_ceilings_cache_path(p, sizeof p, &c), -1);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "--ceilings=FILE"));
}
END_TEST

/* Every core below one, as measured on a loaded 2-core machine:
 * refused by name, on its own and as a file. */
START_TEST(figures_that_contradict_each_other_are_refused)
{
	struct apod_ceilings c;
	char why[512], dir[] = "/tmp/apod-ceil-XXXXXX", path[256];
	example(&c);
	ck_assert_int_eq(apod_ceilings_contradict(&c, why, sizeof why), 0);
	ck_assert_str_eq(why, "");
	/* The same on every core as on one (one core, or noise): no contradiction. */
	c.r[APOD_CEIL_HOST_ALL] = c.r[APOD_CEIL_HOST_ONE];
	ck_assert_int_eq(apod_ceilings_contradict(&c, why, sizeof why), 0);
	/* Bandwidth a little below one core's: one core can nearly fill the bus. */
	c.r[APOD_CEIL_HOST_ALL].bandwidth = 0.88 * c.r[APOD_CEIL_HOST_ONE].bandwidth;
	ck_assert_int_eq(apod_ceilings_contradict(&c, why, sizeof why), 0);
	example(&c);
	c.r[APOD_CEIL_HOST_ONE].fp32 = 29.8e9;
	c.r[APOD_CEIL_HOST_ALL].fp32 = 23.7e9;
	c.r[APOD_CEIL_HOST_ONE].fp64 = 14.9e9;
	c.r[APOD_CEIL_HOST_ALL].fp64 = 11.5e9;
	c.r[APOD_CEIL_HOST_ALL].threads = 2;
	ck_assert_int_eq(apod_ceilings_contradict(&c, why, sizeof why), 1);
	ck_assert_str_eq(why, "FP32 on 2 threads 23.7 GFLOP/s, below one core's 29.8; "
	                      "FP64 on 2 threads 11.5 GFLOP/s, below one core's 14.9");
	example(&c);
	c.r[APOD_CEIL_HOST_ALL].triad = 0.5 * c.r[APOD_CEIL_HOST_ONE].triad;
	ck_assert_int_eq(apod_ceilings_contradict(&c, why, sizeof why), 1);
	ck_assert_ptr_nonnull(strstr(why, "triad on 16 threads"));
	/* A host without one of the two has nothing to contradict. */
	c.r[APOD_CEIL_HOST_ALL].measured = 0;
	ck_assert_int_eq(apod_ceilings_contradict(&c, why, sizeof why), 0);
	/* Saved, it is not read back as a machine's ceilings. */
	example(&c);
	c.r[APOD_CEIL_HOST_ALL].fp64 = 0.5 * c.r[APOD_CEIL_HOST_ONE].fp64;
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/c.json", dir);
	ck_assert_int_eq(apod_ceilings_save(&c, path), 0);
	ck_assert_int_eq(apod_ceilings_load(&c, path, 0), -1);
	ck_assert_int_eq(apod_failure_status(), APOD_EXIT_USAGE);
	ck_assert_ptr_nonnull(strstr(apod_failure(), "contradict each other (FP64 on 16 threads"));
	unlink(path);
	rmdir(dir);
}
END_TEST

/* A fake timer: the seconds of each run, in order; -1 fails. */
struct script {
	const double *t;
	int n, at;
};
static double scripted(void *ctx)
{
	struct script *s = ctx;
	return s->at < s->n ? s->t[s->at++] : -1;
}

START_TEST(a_ceiling_is_timed_until_two_rounds_agree)
{
	/* A warm-up, then rounds of 3: best 2.0, then 1.0 (a busy moment
	 * passed), then 1.01: two rounds within 3%. */
	static const double busy_then_quiet[] = { 9, 2.5, 2.0, 2.2, 1.3, 1.0, 1.1, 1.01, 1.2, 1.05 };
	static const double never[] = { 9, 1, 1, 1, 2, 2, 2, 1.5, 1.5, 1.5, 3, 3, 3 };
	static const double steady[] = { 9, 1, 1, 1, 1, 1, 1 };
	struct script s = { busy_then_quiet, 10, 0 };
	struct apod_settled r;
	ck_assert_int_eq(apod_settle(scripted, &s, 3, 4, 0.03, &r), 0);
	ck_assert_int_eq(r.rounds, 3);
	ck_assert_int_eq(r.settled, 1);
	ck_assert_double_eq(r.seconds, 1.0);
	ck_assert_int_eq(s.at, 10);
	/* Never two alike: stops at the most rounds, the fastest kept, unsettled. */
	s = (struct script){ never, 13, 0 };
	ck_assert_int_eq(apod_settle(scripted, &s, 3, 4, 0.03, &r), 0);
	ck_assert_int_eq(r.rounds, 4);
	ck_assert_int_eq(r.settled, 0);
	ck_assert_double_eq(r.seconds, 1.0);
	ck_assert_double_eq_tol(r.spread, 1.0, 1e-12);
	/* Two rounds at least, even when the first is steady. */
	s = (struct script){ steady, 7, 0 };
	ck_assert_int_eq(apod_settle(scripted, &s, 3, 4, 0.03, &r), 0);
	ck_assert_int_eq(r.rounds, 2);
	ck_assert_int_eq(r.settled, 1);
	/* A run that fails fails the figure. */
	s = (struct script){ steady, 3, 0 };
	ck_assert_int_eq(apod_settle(scripted, &s, 3, 4, 0.03, &r), -1);
}
END_TEST

int main(void)
{
	const TTest *tests[] = {
		a_file_reads_back_what_was_saved, every_malformed_file_is_refused_by_name,
		a_file_that_is_not_json_is_refused, the_cache_file_is_named_by_host_cpu_and_device,
		figures_that_contradict_each_other_are_refused, a_ceiling_is_timed_until_two_rounds_agree,
		NULL,
	};
	return check_run(check_suite("ceilings", "file", 0, tests), CK_FORK_GETENV);
}
