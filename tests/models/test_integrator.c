/* SPDX-License-Identifier: ISC */
/*
 * The integrator of the angle models: the Chaos Man with two bodies is the
 * double pendulum, the accelerations agree with the reference model's
 * (angle_models.h) at random states, and the step map is symplectic, time
 * reversible and of order 6.  Run by test_engine.c.
 */
#define _POSIX_C_SOURCE 200809L
#include "angle_models.h"
#include "test_rng.h"

static void test_parallel_reproduces_double(void)
{
	const double m1 = 1.3, m2 = 0.7, l1 = 0.9, l2 = 0.6;
	pendula_params a = double_params(m1, m2, l1, l2);
	a.lambda[1] = 0.01;
	a.sigma[0] = 0.1;
	a.pivot_x_amp = 0.03;
	a.pivot_x_freq = 2.0;
	pendula_params b = parallel_params(2);
	b.m[0] = m1;
	b.c[0] = l1;
	b.inertia[0] = 0.0; /* point masses */
	b.m[1] = m2;
	b.b[1] = l1;
	b.beta[1] = 0.0;
	b.c[1] = l2;
	b.inertia[1] = 0.0;
	memcpy(b.lambda, a.lambda, sizeof(a.lambda));
	memcpy(b.sigma, a.sigma, sizeof(a.sigma));
	b.pivot_x_amp = a.pivot_x_amp;
	b.pivot_x_freq = a.pivot_x_freq;
	memcpy(b.theta_init, a.theta_init, sizeof(a.theta_init));
	pendula_engine *ea = pendula_engine_new(48000.0, &a), *eb = pendula_engine_new(48000.0, &b);
	double worst = 0.0, energy_diff = 0.0;
	for (long i = 0; i < 3 * 48000; ++i) {
		pendula_frame fa, fb;
		pendula_engine_tick(ea, &fa);
		pendula_engine_tick(eb, &fb);
		for (int k = 0; k < 2; ++k) {
			double d = fabs(fa.theta[k] - fb.theta[k]);
			d = fmin(d, 2 * PI - d);
			worst = fmax(worst, d);
		}
		energy_diff = fmax(energy_diff, fabs(fa.energy - fb.energy));
	}
	pendula_engine_free(ea);
	pendula_engine_free(eb);
	printf("  max |theta_A - theta_B| over 3 s = %.2e rad, energy %.2e\n", worst, energy_diff);
	CU_ASSERT(worst < 1e-8);
	CU_ASSERT(energy_diff < 1e-8);
}

/* The random draws of the tests below; each test seeds it first. */
static test_rng rng;

static double rand_in(double lo, double hi)
{
	return test_rng_range(&rng, lo, hi);
}

static void test_accelerations_independent(void)
{
	rng = test_rng_seeded(12345);
	double worst_a = 0.0, worst_b = 0.0;
	for (int trial = 0; trial < 200; ++trial) {
		/* Model A, closed form after the note's eq. (25), corrected (no damping, torque,
		 * forcing) */
		pendula_params p = double_params(rand_in(0.1, 5), rand_in(0.1, 5), rand_in(0.1, 3),
		                                 rand_in(0.1, 3));
		pendula_system sys;
		pendula_system_init(&sys, &p);
		const double t1 = rand_in(-PI, PI), t2 = rand_in(-PI, PI);
		const double w1 = rand_in(-5, 5), w2 = rand_in(-5, 5);
		const double g = p.gravity, l1 = p.l[0], l2 = p.l[1];
		const double mu = (p.m[0] + p.m[1]) / p.m[1], C = cos(t1 - t2), S = sin(t1 - t2);
		const double a1 =
		    (g * (sin(t2) * C - mu * sin(t1)) - (l1 * w1 * w1 * C + l2 * w2 * w2) * S) /
		    (l1 * (mu - C * C));
		const double a2 = (g * mu * (C * sin(t1) - sin(t2)) +
		                   (mu * l1 * w1 * w1 + l2 * w2 * w2 * C) * S) /
		                  (l2 * (mu - C * C));
		double acc[NB];
		pendula_accel(&sys, (double[NB]){t1, t2}, (double[NB]){w1, w2}, 0, 0, acc);
		worst_a = fmax(worst_a, fmax(fabs(acc[0] - a1), fabs(acc[1] - a2)) /
		                            (1 + fabs(a1) + fabs(a2)));

		/* Model B with everything on, against the assembled linear system */
		pendula_params q = parallel_params(1 + trial % 4);
		for (int k = 0; k < NB; ++k) {
			q.m[k] = rand_in(0.05, 3);
			q.c[k] = rand_in(0, 1);
			q.inertia[k] = rand_in(1e-3, 0.5);
			q.b[k] = rand_in(0, 1);
			q.beta[k] = rand_in(-PI, PI);
			q.lambda[k] = rand_in(0, 2);
			q.sigma[k] = rand_in(-2, 2);
		}
		q.pivot_x_amp = rand_in(0, 0.3);
		q.pivot_x_freq = rand_in(0, 20);
		q.pivot_y_amp = rand_in(0, 0.3);
		q.pivot_y_freq = rand_in(0, 20);
		pendula_system_init(&sys, &q);
		const ref_model r = ref_from_params(&q);
		double th[NB], w[NB], ref[NB];
		for (int k = 0; k < NB; ++k) {
			th[k] = rand_in(-PI, PI);
			w[k] = rand_in(-4, 4);
		}
		const double t = rand_in(0, 10);
		pendula_accel(&sys, th, w, r.wx * t, r.wy * t, acc);
		ref_accel(&r, th, w, t, ref);
		double scale = 1.0;
		for (int k = 0; k < r.n; ++k)
			scale += fabs(ref[k]);
		for (int k = 0; k < r.n; ++k)
			worst_b = fmax(worst_b, fabs(acc[k] - ref[k]) / scale);
	}
	printf("  max relative difference: model A closed form %.2e, model B assembled %.2e\n",
	       worst_a, worst_b);
	CU_ASSERT(worst_a < 1e-12);
	CU_ASSERT(worst_b < 1e-6); /* finite differences in the reference */
}

static void test_symplectic(void)
{
	pendula_params pa = double_params(1, 1, 1, 1);
	pendula_params pb = parallel_params(3);
	pb.beta[1] = 0.7;
	const pendula_params *cases[2] = {&pa, &pb};
	for (int c = 0; c < 2; ++c) {
		pendula_system sys;
		pendula_system_init(&sys, cases[c]);
		pendula_state s = {{2.0, -1.0, 0.5, 0}, {0.3, -0.2, 0.1, 0}, 0, 0, 0, 0, 0};
		const double d4 = symplectic_defect(&sys, &s, 1e-3, pendula_step);
		const double d2 = symplectic_defect(&sys, &s, 1e-3, pendula_step_base);
		/* with damping, the map contracts phase space: not symplectic */
		pendula_params damped = *cases[c];
		damped.lambda[0] = 0.5;
		pendula_system dsys;
		pendula_system_init(&dsys, &damped);
		const double dd = symplectic_defect(&dsys, &s, 1e-3, pendula_step);
		printf("  %s: max |J^T Omega J - Omega| = %.2e (step), %.2e (base step); "
		       "damped %.2e\n",
		       c ? "parallel N=3" : "double", d4, d2, dd);
		CU_ASSERT(d4 < 1e-8);
		CU_ASSERT(d2 < 1e-8);
		CU_ASSERT(dd > 1e-5);
	}
}

static void test_time_reversible(void)
{
	pendula_params p = parallel_params(4);
	pendula_system sys;
	pendula_system_init(&sys, &p);
	pendula_state s0 = {{2.0, -1.0, 0.5, 3.0}, {0.3, -0.2, 0.1, 0.05}, 0, 0, 0, 0, 0}, s = s0;
	for (int i = 0; i < 100; ++i)
		pendula_step(&sys, &s, 1e-3);
	for (int i = 0; i < 100; ++i)
		pendula_step(&sys, &s, -1e-3);
	double worst = 0.0;
	for (int k = 0; k < 4; ++k)
		worst = fmax(worst, fmax(fabs(s.q[k] - s0.q[k]), fabs(s.p[k] - s0.p[k])));
	printf("  100 steps forward and back: max deviation %.2e\n", worst);
	CU_ASSERT(worst < 1e-11);
}

static void test_order(void)
{
	/* Global error after a fixed time against a 64x finer run: order 6
	 * (Gauss-Legendre, three stages) means the error falls 64-fold when h
	 * halves. */
	pendula_params p = double_params(1, 1, 1, 1);
	pendula_system sys;
	pendula_system_init(&sys, &p);
	const pendula_state s0 = {{2.0, 2.0, 0, 0}, {0, 0, 0, 0}, 0, 0, 0, 0, 0};
	const double T = 1.0;
	double err[2];
	pendula_state ref = s0;
	for (int i = 0; i < 16 * 256; ++i)
		pendula_step(&sys, &ref, T / (16 * 256));
	for (int r = 0; r < 2; ++r) {
		const int n = r == 0 ? 64 : 128;
		pendula_state s = s0;
		for (int i = 0; i < n; ++i)
			pendula_step(&sys, &s, T / n);
		err[r] = fabs(s.q[0] - ref.q[0]) + fabs(s.q[1] - ref.q[1]);
	}
	const double ratio = err[0] / err[1];
	printf("  error at h = T/64: %.3e, at T/128: %.3e, ratio %.2f (order %.2f)\n", err[0],
	       err[1], ratio, log2(ratio));
	CU_ASSERT(ratio > 45 && ratio < 90);
}

CU_TestInfo integrator_tests[] = {
    {"model B reproduces model A", test_parallel_reproduces_double},
    {"accelerations vs independent evaluations", test_accelerations_independent},
    {"symplectic step map", test_symplectic},
    {"time reversible", test_time_reversible},
    {"order 6", test_order},
    CU_TEST_INFO_NULL,
};
