/* SPDX-License-Identifier: ISC */
/*
 * Physics tests of the chain model (series multiple pendulum), CUnit:
 * main() runs the normal modes (the closed forms of the 3-bob chain and
 * the 2-rod chain) and the energy (here), the dynamics
 * (test_chain_dynamics.c) and the chain in the engine (test_chain_engine.c).
 * The reference model is chain.h's.
 */
#define _POSIX_C_SOURCE 200809L
#include "chain.h"
#include "cunit_main.h"

/* ------------------------------------------------------------------------ */
/* Normal modes                                                             */

static void test_modes_two_bobs_equal_double(void)
{
	/* N = 2 bobs: the double pendulum.  Unequal masses and lengths; the
	 * double plugin's engine measured the same way gives the same
	 * frequencies. */
	pendula_params p = chain_params(2, PENDULA_SHAPE_BOBS);
	p.m[0] = 1.7;
	p.m[1] = 0.6;
	p.l[0] = 0.8;
	p.l[1] = 0.5;
	double f_chain[NL], f_double[NL];
	check_modes(&p, "chain N=2 bobs", f_chain);
	pendula_params d;
	pendula_params_default(&d, PENDULA_MODEL_DOUBLE);
	d.m[0] = p.m[0];
	d.m[1] = p.m[1];
	d.l[0] = p.l[0];
	d.l[1] = p.l[1];
	double w2[NL], V[NL][NL];
	ref_modes(&p, w2, V);
	for (int m = 0; m < 2; ++m) {
		double v[NL] = {V[0][m], V[1][m]};
		f_double[m] = measure_mode(d, 2, w2[m], v);
		printf("\n  double plugin, same settings, mode %d: %.9f Hz (chain %.9f Hz)", m + 1,
		       f_double[m], f_chain[m]);
		CU_ASSERT(fabs(f_double[m] / f_chain[m] - 1.0) < 1e-7);
	}
}

/* Roots of x^3 - 9x^2 + 18x - 6 (three real roots: trigonometric form). */
static void cubic_roots(double *x)
{
	/* x = y + 3: y^3 - 9y - 6 = 0, y = 2 sqrt(3) cos(phi / 3 - 2 pi k / 3),
	 * cos phi = 6 / (2 * 3 sqrt 3) */
	const double phi = acos(6.0 / (2.0 * 3.0 * sqrt(3.0)));
	for (int k = 0; k < 3; ++k)
		x[k] = 3.0 + 2.0 * sqrt(3.0) * cos(phi / 3.0 - 2.0 * PI * k / 3.0);
	for (int a = 1; a < 3; ++a) /* ascending */
		for (int b = a; b > 0 && x[b - 1] > x[b]; --b) {
			const double t = x[b];
			x[b] = x[b - 1];
			x[b - 1] = t;
		}
}

static void test_modes_three_equal_bobs(void)
{
	const double l = 0.7, g = 9.81;
	pendula_params p = chain_params(3, PENDULA_SHAPE_BOBS);
	for (int k = 0; k < 3; ++k) {
		p.m[k] = 0.4;
		p.l[k] = l;
	}
	double x[3], w2[NL], V[NL][NL];
	cubic_roots(x);
	ref_modes(&p, w2, V);
	for (int k = 0; k < 3; ++k) {
		const double resid = x[k] * x[k] * x[k] - 9 * x[k] * x[k] + 18 * x[k] - 6;
		printf("\n  root %d: x = %.9f (residual %.1e), reference w^2 l / g = %.9f", k + 1,
		       x[k], resid, w2[k] * l / g);
		CU_ASSERT(fabs(resid) < 1e-9);
		CU_ASSERT(fabs(w2[k] * l / g - x[k]) < 1e-6 * x[k]);
	}
	double f[NL];
	check_modes(&p, "chain N=3 equal bobs", f);
	for (int k = 0; k < 3; ++k) {
		const double want = sqrt(x[k] * g / l) / (2 * PI);
		printf("\n  closed form mode %d: %.6f Hz, measured %.6f Hz", k + 1, want, f[k]);
		CU_ASSERT(fabs(f[k] / want - 1.0) < 1e-4);
	}
}

static void test_modes_rods(void)
{
	/* The n-rod note's double rod pendulum (one material, equal rods):
	 *   4/3 th1'' + 1/2 th2'' + 3g/(2l) th1 = 0,  1/2 th1'' + 1/3 th2'' + g/(2l) th2 = 0
	 * against the reference's R(0) and K. */
	const double l = 0.6, m = 0.9, g = 9.81;
	pendula_params p = chain_params(2, PENDULA_SHAPE_RODS);
	p.m[0] = p.m[1] = m;
	p.l[0] = p.l[1] = l;
	const ref_chain r = ref_from_params(&p);
	double th0[NL] = {0}, R[NL][NL], K[NL][NL];
	ref_mass_matrix(&r, th0, R);
	ref_hessian(&r, th0, K);
	const double s = m * l * l;
	CU_ASSERT(fabs(R[0][0] / s - 4.0 / 3.0) < 1e-12);
	CU_ASSERT(fabs(R[0][1] / s - 0.5) < 1e-12);
	CU_ASSERT(fabs(R[1][1] / s - 1.0 / 3.0) < 1e-12);
	CU_ASSERT(fabs(K[0][0] / s - 1.5 * g / l) < 1e-6);
	CU_ASSERT(fabs(K[1][1] / s - 0.5 * g / l) < 1e-6);
	CU_ASSERT(fabs(K[0][1]) < 1e-6);

	p = chain_params(3, PENDULA_SHAPE_RODS);
	for (int k = 0; k < 3; ++k) {
		p.m[k] = 1.0;
		p.l[k] = 0.5;
	}
	check_modes(&p, "chain N=3 uniform rods", NULL);
	p = chain_params(5, PENDULA_SHAPE_RODS);
	const double ms[5] = {2.0, 0.7, 1.3, 0.4, 0.9}, ls[5] = {0.9, 0.4, 0.7, 0.3, 0.55};
	for (int k = 0; k < 5; ++k) {
		p.m[k] = ms[k];
		p.l[k] = ls[k];
	}
	check_modes(&p, "chain N=5 unequal rods", NULL);
}

/* ------------------------------------------------------------------------ */
/* chain N = 2 bobs reproduces double                                       */

static void test_reproduces_double(void)
{
	const double m1 = 1.3, m2 = 0.7, l1 = 0.9, l2 = 0.6;
	pendula_params a;
	pendula_params_default(&a, PENDULA_MODEL_DOUBLE);
	a.m[0] = m1;
	a.m[1] = m2;
	a.l[0] = l1;
	a.l[1] = l2;
	a.lambda[1] = 0.01;
	a.sigma[0] = 0.1;
	a.pivot_x_amp = 0.03;
	a.pivot_x_freq = 2.0;
	a.pivot_y_amp = 0.01;
	a.pivot_y_freq = 5.0;
	pendula_params b = chain_params(2, PENDULA_SHAPE_BOBS);
	memcpy(b.m, a.m, sizeof(a.m));
	memcpy(b.l, a.l, sizeof(a.l));
	memcpy(b.lambda, a.lambda, sizeof(a.lambda));
	memcpy(b.sigma, a.sigma, sizeof(a.sigma));
	memcpy(b.theta_init, a.theta_init, sizeof(a.theta_init));
	b.pivot_x_amp = a.pivot_x_amp;
	b.pivot_x_freq = a.pivot_x_freq;
	b.pivot_y_amp = a.pivot_y_amp;
	b.pivot_y_freq = a.pivot_y_freq;
	pendula_engine *ea = pendula_engine_new(48000.0, &a), *eb = pendula_engine_new(48000.0, &b);
	double worst = 0.0, energy = 0.0, tip = 0.0, travel = 0.0;
	for (long i = 0; i < 3 * 48000; ++i) {
		pendula_frame fa, fb;
		pendula_engine_tick(ea, &fa);
		pendula_engine_tick(eb, &fb);
		for (int k = 0; k < 2; ++k) {
			double d = fabs(fa.theta[k] - fb.theta[k]);
			d = fmin(d, 2 * PI - d);
			worst = fmax(worst, d);
			travel = fmax(travel, fabs(fa.theta[k] - a.theta_init[k]));
		}
		energy = fmax(energy, fabs(fa.energy - fb.energy));
		tip = fmax(tip, fmax(fabs(fa.tip_x_norm - fb.tip_x_norm),
		                     fabs(fa.tip_y_norm - fb.tip_y_norm)));
	}
	pendula_engine_free(ea);
	pendula_engine_free(eb);
	printf("\n  chain N=2 bobs vs double, 3 s with damping, torque, forcing: max |dtheta| = "
	       "%.2e rad, |d energy| %.2e, |d tip| %.2e (angles travelled %.2f rad)",
	       worst, energy, tip, travel);
	CU_ASSERT(worst < 1e-9);
	CU_ASSERT(energy < 1e-9);
	CU_ASSERT(tip < 1e-9);
	CU_ASSERT(travel > 1.0);
}

/* ------------------------------------------------------------------------ */
/* Energy                                                                   */

static void check_conservation(pendula_params p, const char *what)
{
	const ref_chain r = ref_from_params(&p);
	pendula_engine *e = pendula_engine_new(48000.0, &p);
	double emin = DBL_MAX, emax = -DBL_MAX, nmin = DBL_MAX, nmax = -DBL_MAX;
	pendula_frame f;
	for (long i = 0; i < 10000000; ++i) {
		pendula_engine_tick(e, &f);
		nmin = fmin(nmin, f.energy);
		nmax = fmax(nmax, f.energy);
		if (i % 997 == 0) {
			const double en = ref_energy(&r, f.theta, f.omega);
			emin = fmin(emin, en);
			emax = fmax(emax, en);
		}
	}
	pendula_stats st;
	pendula_engine_stats(e, &st);
	pendula_engine_free(e);
	pendula_system sys;
	pendula_system_init(&sys, &p);
	double zero[NL] = {0};
	const double e0 = ref_energy(&r, p.theta_init, zero);
	const double lo = ref_potential(&r, zero, 0, 0); /* U_min: hanging */
	const double range = sys.energy_range;
	const double spread_output = (nmax - nmin) * range / fabs(e0 - lo);
	const double spread_frames = (emax - emin) / fabs(e0 - lo);
	printf("\n  %s: E0 - U_min = %.4f J (energy output %.4f), step %.3g ms, %.2f solver "
	       "iterations per stage; relative spread over 10^7 frames: energy output %.2e, "
	       "reference E of the frames %.2e",
	       what, e0 - lo, (e0 - lo) / range, st.step_size * 1e3,
	       (double)st.iterations / (5.0 * (double)st.steps), spread_output, spread_frames);
	/* the energy output is the physical energy, normalised as docs/MODELS.md says */
	CU_ASSERT(fabs(nmin - (e0 - lo) / range) < 1e-6 * nmin + 1e-9);
	CU_ASSERT(spread_output < 1e-6);
	CU_ASSERT(spread_frames < 5e-6);
	CU_ASSERT(st.restarts == 0);
}

static void test_energy_three_rods(void)
{
	pendula_params p = chain_params(3, PENDULA_SHAPE_RODS);
	p.theta_init[0] = 150 * DEG;
	p.theta_init[1] = -120 * DEG;
	p.theta_init[2] = 100 * DEG;
	check_conservation(p, "N=3 rods, chaotic start");
}

static void test_energy_six_bobs(void)
{
	pendula_params p = chain_params(6, PENDULA_SHAPE_BOBS);
	for (int k = 0; k < 6; ++k) {
		p.m[k] = 1.0;
		p.l[k] = 0.5;
		p.theta_init[k] = (k % 2 ? -1 : 1) * (90 + 15 * k) * DEG;
	}
	check_conservation(p, "N=6 bobs, chaotic start");
}

/* Six uniform rods from the plugin's default angles: fast phases in which
 * the outer rods swing about hinges accelerated far beyond g (the step rule
 * on the relative turn alone left 1.8e-6 here). */
static void test_energy_six_rods(void)
{
	pendula_params p = chain_params(6, PENDULA_SHAPE_RODS);
	check_conservation(p, "N=6 rods, default start");
}

static void check_budget(pendula_params p, double seconds, const char *what)
{
	const ref_chain r = ref_from_params(&p);
	double max_dev, scale;
	ref_energy_budget(&r, &p, seconds, &max_dev, &scale);
	printf("\n  %s: |work| up to %.4f J, max |dE - work| = %.2e J (%.1e relative)", what, scale,
	       max_dev, max_dev / scale);
	CU_ASSERT(scale > 0.1);
	CU_ASSERT(max_dev < 1e-5 * scale);
}

static void test_energy_budget(void)
{
	pendula_params p = chain_params(3, PENDULA_SHAPE_RODS);
	p.lambda[0] = 0.2;
	p.lambda[2] = 0.05;
	check_budget(p, 10.0, "N=3 rods, damping");
	p = chain_params(4, PENDULA_SHAPE_BOBS);
	p.sigma[0] = 1.5;
	p.sigma[3] = -0.5;
	p.lambda[1] = 0.1;
	check_budget(p, 10.0, "N=4 bobs, torque + damping");
	p = chain_params(5, PENDULA_SHAPE_CUSTOM);
	for (int k = 0; k < 5; ++k) {
		p.l[k] = 0.4 + 0.1 * k;
		p.c[k] = 0.3 * p.l[k] + 0.05 * k;
		p.inertia[k] = 0.01 * (k + 1);
		p.lambda[k] = 0.02;
		p.sigma[k] = 0.1 * (k - 2);
	}
	p.pivot_x_amp = 0.05;
	p.pivot_x_freq = 3.0;
	p.pivot_y_amp = 0.02;
	p.pivot_y_freq = 7.0;
	check_budget(p, 10.0, "N=5 custom bodies, all effects");
}

static CU_TestInfo chain_tests[] = {
    {"normal modes, N=2 bobs = double", test_modes_two_bobs_equal_double},
    {"normal modes, N=3 equal bobs (closed form)", test_modes_three_equal_bobs},
    {"normal modes, rods N=2 (n-rod note), N=3, N=5", test_modes_rods},
    {"N=2 bobs reproduces double", test_reproduces_double},
    {"energy conservation, N=3 rods", test_energy_three_rods},
    {"energy conservation, N=6 bobs", test_energy_six_bobs},
    {"energy conservation, N=6 rods", test_energy_six_rods},
    {"energy budget", test_energy_budget},
    CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
    {"chain", NULL, NULL, NULL, NULL, chain_tests},
    {"chain dynamics", NULL, NULL, NULL, NULL, chain_dynamics_tests},
    {"chain engine", NULL, NULL, NULL, NULL, chain_engine_tests},
    CU_SUITE_INFO_NULL,
};

int main(void)
{
	return test_cunit_main("test_chain", suites);
}
