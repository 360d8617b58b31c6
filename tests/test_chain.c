/* SPDX-License-Identifier: ISC */
/*
 * Physics tests of the chain model (series multiple pendulum), CUnit.
 *
 * Ground truth never comes from the engine: the reference below builds the
 * kinetic energy from the positions of README.md (centre of mass G_i of link
 * i = sum_{j<i} l_j p(th_j) + c_i p(th_i), p(th) = (sin th, -cos th)) with
 * the Jacobian dG_i/dth_j written from that geometry, the potential from the
 * positions, the equations of motion by finite differences of R and U
 * (tests/ref_lagrange.h, shared with test_engine), the
 * normal modes by a Jacobi eigen-solver, the vibration-held upright state by
 * Floquet multipliers of RK4 runs of the linearised equation, and the
 * closed forms of the 3-bob chain and the 2-rod chain.
 */
#define _POSIX_C_SOURCE 200809L
#include "model.h"        /* the model's jerk */
#include "scheme_gauss.h" /* the Gauss-Legendre predictor */
#include "pendula_engine.h"
#include "test_common.h"
#include "ports.h"

#include <CUnit/Basic.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI      3.14159265358979323846
#define DEG     (PI / 180.0)
#define NL      6 /* links at most */
#define REF_DIM NL
#include "ref_numerics.h"

/* ------------------------------------------------------------------------ */
/* Reference model                                                          */

typedef struct {
	int n;
	double g;
	double m[NL], l[NL], c[NL], ig[NL]; /* ig: inertia about the centre of mass */
	double lambda[NL], sigma[NL];
	double dx, wx, dy, wy;
} ref_chain;

static ref_chain ref_from_params(const pendula_params *p)
{
	ref_chain r;
	memset(&r, 0, sizeof(r));
	r.n = p->n_bodies;
	r.g = p->gravity;
	for (int k = 0; k < r.n; ++k) {
		r.m[k] = p->m[k];
		r.l[k] = p->l[k];
		switch (p->shape) {
		case 0: /* bobs: a point mass at the end of a massless rod */
			r.c[k] = p->l[k];
			r.ig[k] = 0.0;
			break;
		case 1: /* a uniform rod: centre halfway, m l^2 / 12 about it */
			r.c[k] = 0.5 * p->l[k];
			r.ig[k] = p->m[k] * p->l[k] * p->l[k] / 12.0;
			break;
		default:
			r.c[k] = p->c[k];
			r.ig[k] = p->inertia[k];
			break;
		}
		r.lambda[k] = p->lambda[k];
		r.sigma[k] = p->sigma[k];
	}
	r.dx = p->pivot_x_amp;
	r.wx = 2 * PI * p->pivot_x_freq;
	r.dy = p->pivot_y_amp;
	r.wy = 2 * PI * p->pivot_y_freq;
	return r;
}

static void ref_positions(const ref_chain *r, const double *th, double *x, double *y)
{
	double ox = 0.0, oy = 0.0;
	for (int i = 0; i < r->n; ++i) {
		x[i] = ox + r->c[i] * sin(th[i]);
		y[i] = oy - r->c[i] * cos(th[i]);
		ox += r->l[i] * sin(th[i]);
		oy -= r->l[i] * cos(th[i]);
	}
}

/* dG_i/dth_j = l_j p'(th_j) for j < i, c_i p'(th_i) for j = i, 0 beyond. */
static void ref_jacobian(const ref_chain *r, const double *th, double jx[NL][NL], double jy[NL][NL])
{
	for (int i = 0; i < r->n; ++i)
		for (int j = 0; j < r->n; ++j) {
			const double arm = j < i ? r->l[j] : j == i ? r->c[i] : 0.0;
			jx[i][j] = arm * cos(th[j]);
			jy[i][j] = arm * sin(th[j]);
		}
}

/* T = 1/2 sum_i (m_i |G_i'|^2 + I_i th_i'^2) = 1/2 w^T R w */
static void ref_mass_matrix(const ref_chain *r, const double *th, double R[NL][NL])
{
	double jx[NL][NL], jy[NL][NL];
	ref_jacobian(r, th, jx, jy);
	for (int a = 0; a < r->n; ++a)
		for (int b = 0; b < r->n; ++b) {
			double s = a == b ? r->ig[a] : 0.0;
			for (int i = 0; i < r->n; ++i)
				s += r->m[i] * (jx[i][a] * jx[i][b] + jy[i][a] * jy[i][b]);
			R[a][b] = s;
		}
}

/* Potential in the field of gravity plus the pseudo-force -m Gamma''. */
static double ref_potential(const ref_chain *r, const double *th, double acc_x, double acc_y)
{
	double x[NL], y[NL], u = 0.0;
	ref_positions(r, th, x, y);
	for (int i = 0; i < r->n; ++i)
		u += r->m[i] * ((r->g + acc_y) * y[i] + acc_x * x[i]);
	return u;
}

#define REF_MODEL ref_chain
#include "ref_lagrange.h"

/* Q_j = -sum_i m_i Gamma'' . dG_i/dth_j */
static void ref_forcing_q(const ref_chain *r, const double *th, double t, double *q)
{
	double ax, ay, jx[NL][NL], jy[NL][NL];
	pivot_accel(r, t, &ax, &ay);
	ref_jacobian(r, th, jx, jy);
	for (int j = 0; j < r->n; ++j) {
		q[j] = 0.0;
		for (int i = 0; i < r->n; ++i)
			q[j] -= r->m[i] * (ax * jx[i][j] + ay * jy[i][j]);
	}
}

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static pendula_params chain_params(int n, int shape)
{
	pendula_params p;
	pendula_params_default(&p, PENDULA_MODEL_CHAIN);
	p.n_bodies = n;
	p.shape = shape;
	return p;
}

/* Normal-mode angular frequencies^2 of the reference at th = 0. */
static void ref_modes(const pendula_params *p, double *w2, double V[NL][NL])
{
	const ref_chain r = ref_from_params(p);
	double th0[NL] = {0}, R[NL][NL], K[NL][NL];
	ref_mass_matrix(&r, th0, R);
	ref_hessian(&r, th0, K);
	gen_eigen(r.n, R, K, w2, V);
}

/* Starts the engine in mode m (amplitude 1e-3 rad on the link that moves
 * most) and measures the frequency from that link's angle over 40 periods. */
static double measure_mode(pendula_params p, int n, double w2, const double *v)
{
	int big = 0;
	for (int i = 1; i < n; ++i)
		if (fabs(v[i]) > fabs(v[big]))
			big = i;
	const double amp = 1e-3 / fabs(v[big]);
	for (int i = 0; i < n; ++i)
		p.theta_init[i] = amp * v[i];
	const double f_expect = sqrt(w2) / (2 * PI), sr = 48000.0;
	pendula_engine *e = pendula_engine_new(sr, &p);
	crossings c = {0};
	const long frames = (long)(sr * 40.0 / f_expect);
	for (long i = 0; i < frames; ++i) {
		pendula_frame f;
		pendula_engine_tick(e, &f);
		crossings_add(&c, f.t, f.theta[big]);
	}
	pendula_engine_free(e);
	return crossings_freq(&c);
}

static double check_modes(const pendula_params *p, const char *what, double *f_meas)
{
	double w2[NL], V[NL][NL], worst = 0.0;
	ref_modes(p, w2, V);
	for (int m = 0; m < p->n_bodies; ++m) {
		double v[NL];
		for (int i = 0; i < p->n_bodies; ++i)
			v[i] = V[i][m];
		const double f = measure_mode(*p, p->n_bodies, w2[m], v);
		const double want = sqrt(w2[m]) / (2 * PI);
		const double rel = fabs(f / want - 1.0);
		printf("\n  %s mode %d: R(0)^-1 K gives %.6f Hz, measured %.6f Hz, rel. error %.2e",
		       what, m + 1, want, f, rel);
		CU_ASSERT(rel < 1e-4);
		worst = fmax(worst, rel);
		if (f_meas)
			f_meas[m] = f;
	}
	return worst;
}

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
	/* the energy output is the physical energy, normalised as README says */
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

/* ------------------------------------------------------------------------ */
/* Inverted chain held up by vertical vibration                             */

/* Linearised about all links upright (th = pi + phi), with the pivot at
 * Dy cos(W t):  R(0) phi'' = (g - Dy W^2 cos W t) diag(mu) phi, where diag(mu)
 * = -K(0) / g.  The generalised eigenvectors of (K(0), R(0)) decouple it into
 * Mathieu equations  q'' = nu (g - Dy W^2 cos W t) q, nu = w2 / g; the
 * upright state is stable if every one has Floquet multipliers on the unit
 * circle, |trace of the monodromy| < 2 (RK4 over one period, 4000 steps). */
static double mathieu_trace(double nu, double g, double dy, double W)
{
	/* q'' + (-nu g + nu Dy W^2 cos W t) q = 0 */
	double M[2][2];
	hill_monodromy(-nu * g, nu * dy * W * W, W, 4000, M);
	return M[0][0] + M[1][1];
}

/* The largest |trace| over the modes: < 2 means the upright chain is stable. */
static double upright_margin(const pendula_params *p, double dy, double freq)
{
	double w2[NL], V[NL][NL], worst = 0.0;
	ref_modes(p, w2, V);
	for (int m = 0; m < p->n_bodies; ++m)
		worst = fmax(
		    worst, fabs(mathieu_trace(w2[m] / p->gravity, p->gravity, dy, 2 * PI * freq)));
	return worst;
}

/* Worst distance from upright of any link over `seconds`, from a start
 * tilted by a few degrees. */
static double upright_run(pendula_params p, double dy, double freq, double seconds)
{
	p.pivot_y_amp = dy;
	p.pivot_y_freq = freq;
	for (int k = 0; k < p.n_bodies; ++k)
		p.theta_init[k] = PI + (k % 2 ? -0.03 : 0.05);
	pendula_engine *e = pendula_engine_new(48000.0, &p);
	double worst = 0.0;
	for (long i = 0; i < (long)(seconds * 48000); ++i) {
		pendula_frame f;
		pendula_engine_tick(e, &f);
		for (int k = 0; k < p.n_bodies; ++k)
			worst = fmax(worst, PI - fabs(f.theta[k]));
	}
	pendula_engine_free(e);
	return worst;
}

static void check_inverted(int n, double l, double dy)
{
	pendula_params p = chain_params(n, PENDULA_SHAPE_RODS);
	for (int k = 0; k < n; ++k) {
		p.m[k] = 0.1;
		p.l[k] = l;
	}
	/* the lowest stable frequency, by bisection on the Floquet margin
	 * between a frequency where it is unstable and one where it is stable */
	double lo = 1.0, hi = 0.0;
	for (double f = 5.0; f < 400.0; f *= 1.05)
		if (upright_margin(&p, dy, f) < 2.0) {
			hi = f;
			break;
		}
	CU_ASSERT_FATAL(hi > 0.0);
	lo = hi / 1.05;
	for (int it = 0; it < 30; ++it) {
		const double mid = 0.5 * (lo + hi);
		if (upright_margin(&p, dy, mid) < 2.0)
			hi = mid;
		else
			lo = mid;
	}
	const double threshold = hi;
	/* how wide the window is: the next frequency where a higher mode goes
	 * parametrically unstable */
	double top = threshold;
	while (top < 8 * threshold && upright_margin(&p, dy, top * 1.01) < 2.0)
		top *= 1.01;
	const double above = fmin(1.15 * threshold, 0.5 * (threshold + top));
	const double below = 0.85 * threshold;
	printf("\n  %d rods of %.2f m, Dy = %.1f mm: stable (Floquet) from %.2f Hz up to at least "
	       "%.2f Hz; margins %.3f at %.2f Hz, %.3f at %.2f Hz",
	       n, l, dy * 1e3, threshold, top, upright_margin(&p, dy, above), above,
	       upright_margin(&p, dy, below), below);
	CU_ASSERT(upright_margin(&p, dy, above) < 2.0);
	CU_ASSERT(upright_margin(&p, dy, below) > 2.0);
	const double up = upright_run(p, dy, above, 10.0);
	const double down = upright_run(p, dy, below, 10.0);
	printf(
	    "\n  worst distance from upright over 10 s: %.3f rad at %.2f Hz, %.3f rad at %.2f Hz",
	    up, above, down, below);
	CU_ASSERT(up < 0.3);
	CU_ASSERT(down > 1.0);
}

static void test_inverted_chain(void)
{
	check_inverted(2, 0.2, 0.005);
	check_inverted(3, 0.2, 0.004);
	/* Too strong a vibration shakes the highest mode parametrically
	 * unstable at any frequency: three 0.2 m rods at Dy = 1 cm have no
	 * stable frequency (Floquet), and the simulated chain falls. */
	pendula_params p = chain_params(3, PENDULA_SHAPE_RODS);
	for (int k = 0; k < 3; ++k) {
		p.m[k] = 0.1;
		p.l[k] = 0.2;
	}
	int stable = 0;
	double least = 1e300;
	for (double f = 5.0; f < 2000.0; f *= 1.02) {
		const double m = upright_margin(&p, 0.01, f);
		stable += m < 2.0;
		least = fmin(least, m);
	}
	/* the largest amplitude with a stable frequency (bisection at 1 kHz) */
	double lo = 0.004, hi = 0.01;
	for (int it = 0; it < 20; ++it) {
		const double mid = 0.5 * (lo + hi);
		if (upright_margin(&p, mid, 1000.0) < 2.0)
			lo = mid;
		else
			hi = mid;
	}
	const double fall = upright_run(p, 0.01, 300.0, 5.0);
	printf("\n  3 rods of 0.20 m, Dy = 1 cm: %d stable frequencies in 5..2000 Hz (least "
	       "|trace| %.3f); at 1 kHz stable up to Dy = %.2f mm; simulated at 300 Hz: worst "
	       "distance from upright %.3f rad",
	       stable, least, lo * 1e3, fall);
	CU_ASSERT(stable == 0);
	CU_ASSERT(lo > 0.004 && lo < 0.01);
	CU_ASSERT(fall > 1.0);
}

/* ------------------------------------------------------------------------ */
/* Accelerations at random states                                           */

static double rand_in(double lo, double hi)
{
	return lo + (hi - lo) * (rand() / (double)RAND_MAX);
}

static void test_accelerations_independent(void)
{
	srand(4242);
	double worst = 0.0, worst_energy = 0.0, worst_power = 0.0, worst_jerk = 0.0;
	double worst_inv_mass = 0.0, worst_bound = 0.0;
	int bound_reads = 0;
	for (int trial = 0; trial < 300; ++trial) {
		pendula_params p = chain_params(1 + trial % 6, trial % 3);
		for (int k = 0; k < NL; ++k) {
			p.m[k] = rand_in(0.05, 3);
			p.l[k] = rand_in(0.1, 1.5);
			p.c[k] = rand_in(0, 1.5);
			p.inertia[k] = rand_in(1e-3, 0.5);
			p.lambda[k] = rand_in(0, 2);
			p.sigma[k] = rand_in(-2, 2);
		}
		p.gravity = rand_in(1, 30);
		p.pivot_x_amp = rand_in(0, 0.3);
		p.pivot_x_freq = rand_in(0, 20);
		p.pivot_y_amp = rand_in(0, 0.3);
		p.pivot_y_freq = rand_in(0, 20);
		pendula_system sys;
		pendula_system_init(&sys, &p);
		const ref_chain r = ref_from_params(&p);
		double th[NL], w[NL], acc[NL], ref[NL];
		for (int k = 0; k < NL; ++k) {
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
			worst = fmax(worst, fabs(acc[k] - ref[k]) / scale);
		/* the third derivative the output interpolant uses, against the
		 * time derivative of the accelerations along the motion: central
		 * differences at eps and eps/2 with Richardson's extrapolation
		 * (truncation O(eps^4), though forcing at 20 Hz changes fast;
		 * rounding about 1e-11) */
		double jerk[NL], qdot[PENDULA_MAX_DOF], val[PENDULA_N_CH_ALL],
		    der[PENDULA_N_CH_ALL];
		pendula_state st;
		memset(&st, 0, sizeof(st));
		memcpy(st.q, th, sizeof(th));
		pendula_momentum(&sys, th, w, st.p);
		st.phase_x = r.wx * t;
		st.phase_y = r.wy * t;
		float inv_mass[PENDULA_MAX_BODIES];
		sys.ops->measure_jerk(&sys, &st, qdot, val, der, jerk, inv_mass);
		/* what it leaves for the step rule, diag(R^-1), against the
		 * inverse of the mass matrix from the positions' Jacobian
		 * (Gauss-Jordan here), to single precision */
		{
			double R[NL][NL], inv[NL][NL];
			ref_mass_matrix(&r, th, R);
			for (int i = 0; i < r.n; ++i)
				for (int j = 0; j < r.n; ++j)
					inv[i][j] = i == j;
			for (int c = 0; c < r.n; ++c) {
				const double piv = R[c][c];
				for (int j = 0; j < r.n; ++j) {
					R[c][j] /= piv;
					inv[c][j] /= piv;
				}
				for (int i = 0; i < r.n; ++i) {
					const double f = i == c ? 0.0 : R[i][c];
					for (int j = 0; j < r.n; ++j) {
						R[i][j] -= f * R[c][j];
						inv[i][j] -= f * inv[c][j];
					}
				}
			}
			for (int k = 0; k < r.n; ++k)
				worst_inv_mass =
				    fmax(worst_inv_mass, fabs(inv_mass[k] - inv[k][k]) / inv[k][k]);
			/* and the step rule reads it as it would its own */
			const double e = val[PENDULA_CH_ENERGY];
			const double h_own = sys.ops->step_bound_at(&sys, &st, qdot, acc, NULL, e);
			const double h_measured =
			    sys.ops->step_bound_at(&sys, &st, qdot, acc, inv_mass, e);
			worst_bound = fmax(worst_bound, fabs(h_measured - h_own) / h_own);
			float scaled[PENDULA_MAX_BODIES];
			for (int k = 0; k < PENDULA_MAX_BODIES; ++k)
				scaled[k] = 16.0f * inv_mass[k];
			bound_reads +=
			    sys.ops->step_bound_at(&sys, &st, qdot, acc, scaled, e) != h_own;
		}
		double diff[2][NL];
		for (int e = 0; e < 2; ++e) {
			const double eps = e ? 5e-5 : 1e-4;
			double qa[NL], wa[NL], qb[NL], wb[NL], aa[NL], ab[NL];
			for (int k = 0; k < r.n; ++k) {
				qa[k] = th[k] + eps * w[k];
				wa[k] = w[k] + eps * acc[k];
				qb[k] = th[k] - eps * w[k];
				wb[k] = w[k] - eps * acc[k];
			}
			pendula_accel(&sys, qa, wa, r.wx * (t + eps), r.wy * (t + eps), aa);
			pendula_accel(&sys, qb, wb, r.wx * (t - eps), r.wy * (t - eps), ab);
			for (int k = 0; k < r.n; ++k)
				diff[e][k] = (aa[k] - ab[k]) / (2 * eps);
		}
		double jscale = 1.0;
		for (int k = 0; k < r.n; ++k)
			jscale += fabs(jerk[k]);
		for (int k = 0; k < r.n; ++k)
			worst_jerk = fmax(
			    worst_jerk, fabs(jerk[k] - (4 * diff[1][k] - diff[0][k]) / 3) / jscale);
		/* energy and power against the reference too */
		const double e_ref = ref_energy(&r, th, w);
		worst_energy = fmax(worst_energy, fabs(pendula_energy(&sys, th, w) - e_ref) /
		                                      (1.0 + fabs(e_ref)));
		const double pw = ref_power(&r, th, w, t);
		worst_power =
		    fmax(worst_power, fabs(pendula_power(&sys, th, w, r.wx * t, r.wy * t) - pw) /
		                          (1.0 + fabs(pw)));
		/* and the momentum round trip p = R w, w = R^-1 p */
		double mom[NL], back[NL];
		pendula_momentum(&sys, th, w, mom);
		pendula_velocity(&sys, th, mom, back);
		for (int k = 0; k < r.n; ++k)
			CU_ASSERT(fabs(back[k] - w[k]) < 1e-9 * (1 + fabs(w[k])));
	}
	printf(
	    "\n  300 random states, N = 1..6, all shapes, damping, torque, forcing: max relative "
	    "difference of the accelerations %.2e, energy %.2e, power %.2e; jerk against the "
	    "accelerations' time difference %.2e; diag(R^-1) for the step rule %.2e, its step "
	    "against the rule's own %.2e (%d of 300 steps change with it)",
	    worst, worst_energy, worst_power, worst_jerk, worst_inv_mass, worst_bound, bound_reads);
	CU_ASSERT(worst < 1e-6); /* finite differences in the reference */
	CU_ASSERT(worst_jerk < 1e-7);
	CU_ASSERT(worst_inv_mass < 1e-6);
	CU_ASSERT(worst_bound < 1e-6);
	CU_ASSERT(bound_reads > 30);
	CU_ASSERT(worst_energy < 1e-12);
	CU_ASSERT(worst_power < 1e-12);
}

/* ------------------------------------------------------------------------ */
/* Integrator properties                                                    */

static void test_symplectic_reversible(void)
{
	pendula_params p = chain_params(5, PENDULA_SHAPE_RODS);
	pendula_system sys;
	pendula_system_init(&sys, &p);
	pendula_state s0 = {
	    {2.0, -1.0, 0.5, 3.0, -2.5}, {0.3, -0.2, 0.1, 0.05, -0.04}, 0, 0, 0, 0, 0};
	const double defect = symplectic_defect(&sys, &s0, 1e-3, pendula_step);
	pendula_state s = s0;
	for (int i = 0; i < 100; ++i)
		pendula_step(&sys, &s, 1e-3);
	for (int i = 0; i < 100; ++i)
		pendula_step(&sys, &s, -1e-3);
	double back = 0.0;
	for (int k = 0; k < 5; ++k)
		back = fmax(back, fmax(fabs(s.q[k] - s0.q[k]), fabs(s.p[k] - s0.p[k])));
	/* order 6 (Gauss-Legendre, three stages): the error after 1 s falls
	 * 64-fold when h halves */
	double err[2];
	pendula_state ref = s0;
	for (int i = 0; i < 8192; ++i)
		pendula_step(&sys, &ref, 1.0 / 8192);
	for (int r = 0; r < 2; ++r) {
		const int n = r == 0 ? 256 : 512;
		pendula_state x = s0;
		for (int i = 0; i < n; ++i)
			pendula_step(&sys, &x, 1.0 / n);
		err[r] = 0.0;
		for (int k = 0; k < 5; ++k)
			err[r] += fabs(x.q[k] - ref.q[k]);
	}
	printf("\n  N=5 rods: symplectic defect %.2e, 100 steps forth and back %.2e, error ratio "
	       "for h/2 %.2f (order %.2f)",
	       defect, back, err[0] / err[1], log2(err[0] / err[1]));
	CU_ASSERT(defect < 1e-8);
	CU_ASSERT(back < 1e-11);
	CU_ASSERT(err[0] / err[1] > 45 && err[0] / err[1] < 90);
}

/* ------------------------------------------------------------------------ */
/* Changes while running                                                    */

static void test_shape_switch_continuous(void)
{
	/* link_shape bobs -> rods -> custom while swinging: theta and omega go
	 * on continuously (p follows the new mass matrix). */
	pendula_params p = chain_params(3, PENDULA_SHAPE_BOBS);
	const double sr = 48000, dt = 1 / sr;
	pendula_engine *e = pendula_engine_new(sr, &p);
	pendula_frame prev, f;
	pendula_engine_tick(e, &prev);
	double worst = 0.0, worst_w = 0.0, calm_w = 0.0, fastest = 0.0;
	for (long i = 1; i < 3 * 48000; ++i) {
		if (i % 24000 == 0) {
			p.shape = (p.shape + 1) % 3;
			pendula_engine_set_params(e, &p);
		}
		pendula_engine_tick(e, &f);
		for (int k = 0; k < 3; ++k) {
			double d = f.theta[k] - prev.theta[k];
			d -= 2 * PI * floor(d / (2 * PI) + 0.5);
			const double expect = 0.5 * (f.omega[k] + prev.omega[k]) * dt;
			worst = fmax(worst, fabs(d - expect));
			const double dw = fabs(f.omega[k] - prev.omega[k]);
			worst_w = fmax(worst_w, dw);
			if (i % 24000 > 1000)
				calm_w = fmax(calm_w, dw);
			fastest = fmax(fastest, fabs(f.omega[k]));
		}
		prev = f;
	}
	pendula_engine_free(e);
	/* (the engine's interpolant over the step in which new settings arrive
	 * starts from a zero acceleration: omega bends within that one step by
	 * about |acceleration| h, but the state itself is continuous) */
	printf("\n  shape switched twice while swinging: worst |dtheta - omega dt| = %.2e rad, "
	       "worst |domega| per frame %.2e rad/s (%.2e away from the switches; |omega| up "
	       "to %.1f rad/s)",
	       worst, worst_w, calm_w, fastest);
	CU_ASSERT(worst < 1e-5);
	CU_ASSERT(worst_w < 2.0 * calm_w); /* no jump at the switches */
}

static void test_links_added(void)
{
	pendula_params p = chain_params(2, PENDULA_SHAPE_RODS);
	p.theta_init[4] = 40 * DEG;
	pendula_engine *e = pendula_engine_new(48000, &p);
	pendula_frame f, g;
	for (int i = 0; i < 24000; ++i)
		pendula_engine_tick(e, &f);
	CU_ASSERT(f.theta[2] == 0.0 && f.theta[4] == 0.0);
	p.n_bodies = 5;
	pendula_engine_set_params(e, &p);
	/* New settings take effect with the next step, at most 1/128 s
	 * (375 frames at 48 kHz) later; 400 frames see the links at their
	 * start. */
	double worst_start = 0.0;
	for (int i = 0; i < 400; ++i)
		pendula_engine_tick(e, &g);
	for (int k = 2; k < 5; ++k)
		worst_start = fmax(worst_start, fabs(g.theta[k] - p.theta_init[k]));
	printf("\n  links 3..5 added after 0.5 s: 400 frames later within %.3f rad of their "
	       "initial angles; link 1 moved %.3f rad",
	       worst_start, fabs(g.theta[0] - f.theta[0]));
	CU_ASSERT(worst_start < 0.05);
	CU_ASSERT(fabs(g.theta[0] - f.theta[0]) < 0.2);
	/* and fewer again: the links beyond N read 0 */
	p.n_bodies = 1;
	pendula_engine_set_params(e, &p);
	for (int i = 0; i < 2000; ++i)
		pendula_engine_tick(e, &g);
	CU_ASSERT(g.theta[1] == 0.0 && g.theta[4] == 0.0);
	pendula_engine_free(e);
}

/* Outputs stay finite and in range at random settings inside the declared
 * ranges of the chain's ports, and the work cap holds. */
static double random_in_port_range(pendula_port_id id)
{
	const pendula_port_info *info = &pendula_ports[id];
	const double u = rand() / (double)RAND_MAX;
	if ((info->flags & PF_LOG) && info->min > 0)
		return info->min * pow(info->max / info->min, u);
	return info->min + (info->max - info->min) * u;
}

static void test_random_settings(void)
{
	srand(99);
	int bad = 0, restarts = 0, capped = 0;
	const unsigned mask = 1u << PENDULA_MODEL_CHAIN;
	for (int c = 0; c < 120; ++c) {
		pendula_params p;
		pendula_params_default(&p, PENDULA_MODEL_CHAIN);
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
			const pendula_port_info *info = &pendula_ports[id];
			if (!(info->models & mask) || info->kind != PK_CONTROL_IN ||
			    info->param < 0)
				continue;
			double v = random_in_port_range((pendula_port_id)id);
			if (info->flags & PF_INTEGER)
				v = floor(v + 0.5);
			if (c % 4 >= 2 &&
			    (strstr(info->symbol, "lambda") || strstr(info->symbol, "sigma")))
				v = 0.0; /* half the cases free: the hardest for energy */
			if (c % 3 && !strncmp(info->symbol, "pivot", 5))
				v = 0.0;
			pendula_param_set(&p, (pendula_port_id)id, v);
		}
		pendula_engine *e = pendula_engine_new(48000, &p);
		float out[PENDULA_N_CHANNELS][4800];
		pendula_outputs o;
		for (int ch = 0; ch < PENDULA_N_CHANNELS; ++ch)
			o.ch[ch] = out[ch];
		pendula_engine_run(e, 4800, &o);
		for (int i = 0; i < 4800; ++i) {
			for (int k = 0; k < NL; ++k)
				bad += !(out[PENDULA_CH_THETA + k][i] >= -1.0f &&
				         out[PENDULA_CH_THETA + k][i] < 1.0f);
			bad += !(fabsf(out[PENDULA_CH_TIP_X][i]) <= 1.0f + 1e-6f);
			bad += !(fabsf(out[PENDULA_CH_TIP_Y][i]) <= 1.0f + 1e-6f);
			bad += !isfinite(out[PENDULA_CH_ENERGY][i]);
		}
		pendula_stats st;
		pendula_engine_stats(e, &st);
		restarts += (int)st.restarts;
		capped += st.capped_frames > 0;
		CU_ASSERT(test_work_within_cap(&st));
		pendula_engine_free(e);
	}
	printf("\n  120 random settings: %d bad samples, %d restarts, %d cases at the work cap",
	       bad, restarts, capped);
	CU_ASSERT(bad == 0);
	CU_ASSERT(restarts == 0);
}

static void test_pose(void)
{
	/* The pose follows README's geometry: the tip point is O_{N+1}; each
	 * handle's line from its hinge has the link's angle. */
	for (int shape = 0; shape < 3; ++shape) {
		pendula_params p = chain_params(4, shape);
		pendula_system sys;
		pendula_system_init(&sys, &p);
		const double th[NL] = {0.3, -1.2, 2.5, -0.4};
		pendula_pose pose;
		pendula_pose_at(&sys, th, 0.1, -0.2, &pose);
		double x = 0.1, y = -0.2, reach = 0.0;
		for (int k = 0; k < 4; ++k) {
			x += p.l[k] * sin(th[k]);
			y -= p.l[k] * cos(th[k]);
			reach += p.l[k];
			const pendula_vec3 a = pose.point[pose.handle[k].hinge].p;
			const pendula_vec3 b = pose.point[pose.handle[k].handle].p;
			const double ang = atan2(b.x - a.x, -(b.y - a.y)) - pose.handle[k].offset;
			CU_ASSERT(fabs(remainder(ang - th[k], 2 * PI)) < 1e-12);
		}
		const pendula_vec3 tip = pose.point[pose.tip[0]].p;
		CU_ASSERT(pose.n_handles == 4 && pose.n_tips == 1);
		CU_ASSERT(fabs(tip.x - x) < 1e-12 && fabs(tip.y - y) < 1e-12);
		CU_ASSERT(pose.reach >= reach - 1e-12);
		CU_ASSERT(pose.n_points <= PENDULA_POSE_MAX_POINTS);
	}
}

/* The first guess of a Gauss-Legendre step's stages (model.h,
 * pendula_gauss_guess), fed the exact stage velocities of a smooth motion:
 * its quartic's weights are the Lagrange basis on the last five stages (at
 * c_2 - 2, c_3 - 2, c_1 - 1, c_2 - 1, c_3 - 1, the Gauss nodes computed
 * here from the Legendre polynomial's roots), and with the error it learnt
 * in the step before the guess misses by O(h^6): halving the step divides
 * the miss by about 64. */
static double motion_rate(double t)
{
	return sin(1.3 * t) + 0.5 * cos(2.1 * t + 0.4);
}

/* long_run: as if the steps after the fourth had come after 2^31 steps of
 * the same length (hours of a busy setting), which an int counter of them
 * would overflow. */
static double predictor_miss_run(double h, int long_run)
{
	pendula_predictor pr;
	const double start[PENDULA_MAX_BODIES] = {motion_rate(0.0)};
	pendula_predictor_start(&pr, start);
	double miss = 0.0;
	for (int m = 0; m < 8; ++m) {
		if (long_run && m == 4)
			pr.steps = INT_MAX - 1;
		double w[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES];
		double ex[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES];
		double exact[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES] = {{0}};
		pendula_gauss_guess(&pr, h, w, ex, 1);
		for (int i = 0; i < PENDULA_GAUSS_STAGES; ++i) {
			exact[i][0] = motion_rate((m + pendula_gauss_c[i]) * h);
			if (m == 7)
				miss = fmax(miss, fabs(w[i][0] - exact[i][0]));
		}
		pendula_gauss_push(&pr, exact, ex, 1);
	}
	return miss;
}

static double predictor_miss(double h)
{
	return predictor_miss_run(h, 0);
}

/* The same after the step halves (the engine's response to a failed step):
 * the parabola through the last step's stages, at the nodes of a step half
 * as long; its miss is O(h^3), not the O(h) of stages taken at the wrong
 * times. */
static double predictor_miss_halved(double h)
{
	/* (six steps of 2 h, then the guess of the step of h at t = 0.5) */
	double t0 = 0.5 - 12.0 * h, miss = 0.0;
	pendula_predictor pr;
	const double start[PENDULA_MAX_BODIES] = {motion_rate(t0)};
	pendula_predictor_start(&pr, start);
	for (int m = 0; m < 7; ++m) {
		const double hm = m < 6 ? 2.0 * h : h;
		double w[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES];
		double ex[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES];
		double exact[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES] = {{0}};
		pendula_gauss_guess(&pr, hm, w, ex, 1);
		for (int i = 0; i < PENDULA_GAUSS_STAGES; ++i) {
			exact[i][0] = motion_rate(t0 + pendula_gauss_c[i] * hm);
			if (m == 6)
				miss = fmax(miss, fabs(w[i][0] - exact[i][0]));
		}
		pendula_gauss_push(&pr, exact, ex, 1);
		t0 += hm;
	}
	return miss;
}

static void test_gauss_predictor(void)
{
	/* the nodes: roots of P_3(2c - 1), 1/2 + (-1, 0, 1) sqrt(3/5) / 2 */
	const long double half_width = sqrtl(3.0L / 5.0L) / 2.0L;
	const long double c[3] = {0.5L - half_width, 0.5L, 0.5L + half_width};
	const long double u[5] = {c[1] - 2, c[2] - 2, c[0] - 1, c[1] - 1, c[2] - 1};
	double worst = 0.0;
	for (int i = 0; i < 3; ++i)
		for (int j = 0; j < 5; ++j) {
			long double l = 1.0L;
			for (int m = 0; m < 5; ++m)
				if (m != j)
					l *= (c[i] - u[m]) / (u[j] - u[m]);
			const double rel = (double)fabsl((pendula_gauss_extrapolate[i][j] - l) / l);
			worst = fmax(worst, rel);
		}
	const double m1 = predictor_miss(0.02), m2 = predictor_miss(0.01);
	const double hm1 = predictor_miss_halved(0.02), hm2 = predictor_miss_halved(0.01);
	printf("\n  weights within %.1e of the Lagrange basis; miss at h = 0.02: %.2e, at 0.01: "
	       "%.2e, ratio %.1f; right after the step halves to 0.02: %.2e, to 0.01: %.2e, "
	       "ratio %.1f",
	       worst, m1, m2, m1 / m2, hm1, hm2, hm1 / hm2);
	CU_ASSERT(worst < 4 * DBL_EPSILON);
	CU_ASSERT(m1 < 1e-9);
	CU_ASSERT(m1 / m2 > 45.0 && m1 / m2 < 90.0);
	CU_ASSERT(hm1 / hm2 > 6.0 && hm1 / hm2 < 11.0); /* O(h^3): 8 per halving */
	/* the same guesses after 2^31 steps (the count of steps saturates) */
	const double long1 = predictor_miss_run(0.02, 1);
	printf("; after 2^31 steps: %.2e", long1);
	CU_ASSERT(long1 == m1);
}

int main(void)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	CU_pSuite s = CU_add_suite("chain", NULL, NULL);
	CU_add_test(s, "normal modes, N=2 bobs = double", test_modes_two_bobs_equal_double);
	CU_add_test(s, "normal modes, N=3 equal bobs (closed form)", test_modes_three_equal_bobs);
	CU_add_test(s, "normal modes, rods N=2 (n-rod note), N=3, N=5", test_modes_rods);
	CU_add_test(s, "N=2 bobs reproduces double", test_reproduces_double);
	CU_add_test(s, "accelerations vs Lagrangian from positions",
	            test_accelerations_independent);
	CU_add_test(s, "symplectic, reversible, order 6", test_symplectic_reversible);
	CU_add_test(s, "energy conservation, N=3 rods", test_energy_three_rods);
	CU_add_test(s, "energy conservation, N=6 bobs", test_energy_six_bobs);
	CU_add_test(s, "energy conservation, N=6 rods", test_energy_six_rods);
	CU_add_test(s, "energy budget", test_energy_budget);
	CU_add_test(s, "inverted chain held by vibration", test_inverted_chain);
	CU_add_test(s, "link_shape switched while running", test_shape_switch_continuous);
	CU_add_test(s, "links added and removed while running", test_links_added);
	CU_add_test(s, "random settings inside the ranges", test_random_settings);
	CU_add_test(s, "pose", test_pose);
	CU_add_test(s, "the Gauss predictor's guesses", test_gauss_predictor);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	const unsigned failed = CU_get_number_of_failures();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
