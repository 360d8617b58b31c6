/* SPDX-License-Identifier: ISC */
/*
 * The chain's dynamics: the inverted chain held up by vertical vibration
 * (Floquet multipliers of RK4 runs of the linearised equation), the
 * accelerations against the reference's Lagrangian (chain.h) at random
 * states, and the integrator's properties.  Run by test_chain.c.
 */
#define _POSIX_C_SOURCE 200809L
#include "chain.h"

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

CU_TestInfo chain_dynamics_tests[] = {
    {"accelerations vs Lagrangian from positions", test_accelerations_independent},
    {"symplectic, reversible, order 6", test_symplectic_reversible},
    {"inverted chain held by vibration", test_inverted_chain},
    CU_TEST_INFO_NULL,
};
