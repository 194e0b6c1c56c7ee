/* Unit tests of shared/nbody/interact.h and the n-body host engine, on the CPU. */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/nbody/nbody.h"
#include "shared/nbody/interact.h"
#include "cpu/nbody/tolerance.h"
#include "check_run.h"

/* The pull of one body, in double, for comparison. */
static void exact(double xi, double yi, double zi, double xj, double yj, double zj, double mj,
                  double eps2, double a[3])
{
	double dx = xj - xi, dy = yj - yi, dz = zj - zi, s = dx * dx + dy * dy + dz * dz + eps2;
	double w = mj / (s * sqrt(s));
	a[0] = dx * w;
	a[1] = dy * w;
	a[2] = dz * w;
}

/* A random pair of bodies: i at p[0..2] and j at p[3..5], each coordinate
 * uniform in [-span, span]. */
static void random_positions(float p[6], double span)
{
	for (int c = 0; c < 6; c++)
		p[c] = (float)(2 * span * rand() / RAND_MAX - span);
}

/* j's mass, uniform in [0, 1]. */
static float random_mass(void)
{
	return (float)(1.0 * rand() / RAND_MAX);
}

/* What a component of one pull may be off by: its largest value,
 * NBODY_FORCE_MAX_COEF m / eps^2, times that many roundings. */
static double pull_tolerance(float mass, double eps2, int roundings)
{
	return mass * NBODY_FORCE_MAX_COEF / eps2 * roundings * FLT_EPSILON;
}

/* A random pair with a mass: positions in [-2, 2], j's mass at p[6]. */
static void random_pair(float p[7])
{
	random_positions(p, 2);
	p[6] = random_mass();
}

/* A form of the pull: nbody_interact's signature, adding to (ax, ay, az). */
typedef void pull_form(float xi, float yi, float zi, float xj, float yj, float zj, float mj,
                       float eps2, float *ax, float *ay, float *az);

/* gpu4's form: the unit-mass pull, then times the mass (the float product
 * mj * u, added to what was there). */
static void unit_pull_times_mass(float xi, float yi, float zi, float xj, float yj, float zj,
                                 float mj, float eps2, float *ax, float *ay, float *az)
{
	float u[3] = { 0, 0, 0 };
	nbody_interact_rsqrt_unit(xi, yi, zi, xj, yj, zj, eps2, &u[0], &u[1], &u[2]);
	*ax += mj * u[0];
	*ay += mj * u[1];
	*az += mj * u[2];
}

/* Two forms of the pull agree on 100000 random pairs (rand seeded with
 * seed), each component within that many roundings of the largest pull;
 * a failure names the pair and both values. */
static void forms_agree(unsigned seed, pull_form *f, pull_form *g, int roundings)
{
	srand(seed);
	for (int k = 0; k < 100000; k++) {
		float p[7], a[3] = { 0, 0, 0 }, b[3] = { 0, 0, 0 };
		random_pair(p);
		f(p[0], p[1], p[2], p[3], p[4], p[5], p[6], 0.01f, &a[0], &a[1], &a[2]);
		g(p[0], p[1], p[2], p[3], p[4], p[5], p[6], 0.01f, &b[0], &b[1], &b[2]);
		double scale = pull_tolerance(p[6], 0.01, roundings);
		for (int c = 0; c < 3; c++)
			ck_assert_msg(fabs(a[c] - b[c]) <= scale, "pair %d: %g against %g", k, a[c], b[c]);
	}
}

START_TEST(interact_matches_the_formula)
{
	/* Exact in binary: d = (3, 0, 4), eps = 0: s = 25, w = 2 / 125; a = (6, 0, 8) / 125. */
	float ax = 0, ay = 0, az = 0;
	nbody_interact(0, 0, 0, 3, 0, 4, 2, 0, &ax, &ay, &az);
	ck_assert(ax == 6.0f / 125 && ay == 0 && az == 8.0f / 125);
	/* Random pairs: within a few roundings of the double result. */
	srand(11);
	for (int k = 0; k < 100000; k++) {
		float p[7], bx = 0, by = 0, bz = 0;
		double a[3];
		random_pair(p);
		nbody_interact(p[0], p[1], p[2], p[3], p[4], p[5], p[6], 0.01f, &bx, &by, &bz);
		exact(p[0], p[1], p[2], p[3], p[4], p[5], p[6], 0.01f, a);
		/* Each component is |d| w at most, with about 8 roundings. */
		double scale = pull_tolerance(p[6], 0.01, 16);
		ck_assert_msg(fabs(bx - a[0]) <= scale && fabs(by - a[1]) <= scale && fabs(bz - a[2]) <= scale,
		              "pair %d: (%g %g %g) against (%g %g %g)", k, bx, by, bz, a[0], a[1], a[2]);
	}
}
END_TEST

START_TEST(self_interaction_adds_zero)
{
	float ax = 1.5f, ay = -2.25f, az = 0.125f;
	nbody_interact(0.3f, -0.7f, 1.1f, 0.3f, -0.7f, 1.1f, 0.5f, 0.0025f, &ax, &ay, &az);
	ck_assert(ax == 1.5f && ay == -2.25f && az == 0.125f);
	nbody_interact_rsqrt(0.3f, -0.7f, 1.1f, 0.3f, -0.7f, 1.1f, 0.5f, 0.0025f, &ax, &ay, &az);
	ck_assert(ax == 1.5f && ay == -2.25f && az == 0.125f);
}
END_TEST

START_TEST(pairs_pull_equally_and_oppositely)
{
	/* d -> -d negates every product exactly: a_ij = -a_ji bit for bit (unit masses). */
	srand(5);
	for (int k = 0; k < 10000; k++) {
		float p[6], a[3] = { 0, 0, 0 }, b[3] = { 0, 0, 0 };
		random_positions(p, 1);
		nbody_interact(p[0], p[1], p[2], p[3], p[4], p[5], 1, 0.04f, &a[0], &a[1], &a[2]);
		nbody_interact(p[3], p[4], p[5], p[0], p[1], p[2], 1, 0.04f, &b[0], &b[1], &b[2]);
		ck_assert(a[0] == -b[0] && a[1] == -b[1] && a[2] == -b[2]);
	}
}
END_TEST

START_TEST(rsqrt_form_is_close_to_the_reference)
{
	/* On the host nbody_rsqrt is 1/sqrtf, so the two forms differ only by the
	 * order of the squared distance and of the cube: a few roundings. */
	forms_agree(3, nbody_interact, nbody_interact_rsqrt, 16);
}
END_TEST

START_TEST(unit_mass_form_times_the_mass_is_the_pull)
{
	/* gpu4 sums unit-mass pulls and multiplies by the common mass once:
	 * each term may differ from the massed form by a rounding or two. */
	forms_agree(5, nbody_interact_rsqrt, unit_pull_times_mass, 4);
}
END_TEST

START_TEST(a_far_body_adds_exactly_zero)
{
	/* The padding of gpu4's last tile (NBODY_FAR); on the host the rsqrt of
	 * +inf is 1/sqrtf(inf) = 0 as on the device. */
	float a[3] = { 0.25f, -0.5f, 1.0f };
	nbody_interact_rsqrt_unit(3.0f, -7.0f, 0.5f, NBODY_FAR, NBODY_FAR, NBODY_FAR, 0.0025f, &a[0], &a[1],
	                          &a[2]);
	ck_assert(a[0] == 0.25f && a[1] == -0.5f && a[2] == 1.0f);
}
END_TEST

START_TEST(force_bound_is_the_maximum)
{
	/* r / (r^2 + eps^2)^1.5 peaks at r = eps / sqrt 2 with the value C / eps^2. */
	double eps = 0.3, best = 0;
	for (int k = 1; k < 100000; k++) {
		double r = k * 1e-5, f = r / pow(r * r + eps * eps, 1.5);
		best = f > best ? f : best;
	}
	ck_assert(best <= NBODY_FORCE_MAX_COEF / (eps * eps) * (1 + 1e-12));
	ck_assert(best >= NBODY_FORCE_MAX_COEF / (eps * eps) * (1 - 1e-6));
}
END_TEST

START_TEST(kinetic_and_potential)
{
	ck_assert(nbody_kinetic(2, 1, 2, 2) == 9);          /* 0.5 * 2 * 9 */
	ck_assert(nbody_pair_potential(0, 0, 0, 2, 3, 0, 4, 0.5, 0) == -0.2);   /* -1/5 */
}
END_TEST

/* The host engine: forces of a small system against a double sum, and
 * the total momentum the forces leave (exact forces conserve it). */
START_TEST(host_forces_against_double)
{
	struct nbody_params prm = { .n = 300, .steps = 1, .dt = 0.01, .eps = 0.1, .seed = 9,
	                            .model = NBODY_PLUMMER };
	float *pos = malloc(300 * 4 * sizeof(float)), *vel = malloc(300 * 4 * sizeof(float));
	struct nbody_soa s;
	ck_assert(pos && vel && nbody_initial(&prm, pos, vel) == 0);
	ck_assert(nbody_soa_alloc(&s, 300, "test") == 0);
	for (size_t i = 0; i < 300; i++) {
		s.x[i] = pos[4 * i], s.y[i] = pos[4 * i + 1], s.z[i] = pos[4 * i + 2], s.m[i] = pos[4 * i + 3];
		ck_assert(fabsf(pos[4 * i]) <= NBODY_R0 && fabsf(vel[4 * i]) <= NBODY_V0);
	}
	nbody_host_forces(&s, 0.01f, 0, 300);
	/* 300 terms: (n + 20) u of amax = M C / eps^2 at most. */
	double bound = 320 * FLT_EPSILON / 2 * NBODY_FORCE_MAX_COEF / 0.01;
	for (size_t i = 0; i < 300; i++) {
		double sum[3] = { 0, 0, 0 };
		for (size_t j = 0; j < 300; j++) {
			double a[3];
			exact(s.x[i], s.y[i], s.z[i], s.x[j], s.y[j], s.z[j], s.m[j], 0.01f, a);
			for (int c = 0; c < 3; c++)
				sum[c] += a[c];
		}
		ck_assert(fabs(s.ax[i] - sum[0]) <= bound && fabs(s.ay[i] - sum[1]) <= bound &&
		          fabs(s.az[i] - sum[2]) <= bound);
	}
	/* Splitting the range changes no bit (what makes omp agree with serial). */
	{
		float keep = s.ax[123];
		nbody_host_forces(&s, 0.01f, 100, 137);
		ck_assert(s.ax[123] == keep);
	}
	nbody_soa_free(&s);
	free(pos);
	free(vel);
}
END_TEST

START_TEST(tolerance_grows_with_the_steps)
{
	struct nbody_params p = { .n = 1500, .steps = 10, .dt = 0.005, .eps = 0.2 };
	struct nbody_tolerance a, b;
	nbody_design(&p, &a);
	p.steps = 40;
	nbody_design(&p, &b);
	ck_assert(a.pos > 0 && b.pos > 4 * a.pos);   /* faster than linearly */
	ck_assert(b.vel > a.vel && b.energy_drift > a.energy_drift && b.momentum_drift > a.momentum_drift);
}
END_TEST

int main(void)
{
	const TTest *tests[] = {
		interact_matches_the_formula, self_interaction_adds_zero,
		pairs_pull_equally_and_oppositely, rsqrt_form_is_close_to_the_reference,
		unit_mass_form_times_the_mass_is_the_pull, a_far_body_adds_exactly_zero,
		force_bound_is_the_maximum, kinetic_and_potential, host_forces_against_double,
		tolerance_grows_with_the_steps,
		NULL,
	};
	return check_run(check_suite("nbody", "core", 60, tests), CK_FORK_GETENV);
}
