/* SPDX-License-Identifier: ISC */
/*
 * Physics of the angle models (the double pendulum and the Chaos Man),
 * against ground truth computed here (angle_models.h): normal modes from a
 * Jacobi eigen-solver, energy conserved and its budget under damping,
 * torque and forcing, the Kapitza threshold, Mathieu's parametric
 * resonance (an RK4 of the linearised equation).  Run by test_engine.c.
 */
#define _POSIX_C_SOURCE 200809L
#include "angle_models.h"

/* Starts the engine in normal mode m of (R, K) at the equilibrium th_eq and
 * measures the mode's frequency from the coordinate that moves the most. */
static void check_modes(pendula_params p, const char *what)
{
	ref_model r = ref_from_params(&p);
	double th_eq[NB] = {0}, R[NB][NB], K[NB][NB], w2[NB], V[NB][NB];
	ref_equilibrium(&r, th_eq);
	ref_mass_matrix(&r, th_eq, R);
	ref_hessian(&r, th_eq, K);
	gen_eigen(r.n, R, K, w2, V);
	for (int m = 0; m < r.n; ++m) {
		int big = 0;
		for (int i = 1; i < r.n; ++i)
			if (fabs(V[i][m]) > fabs(V[big][m]))
				big = i;
		const double amp = 1e-3 / fabs(V[big][m]);
		for (int i = 0; i < r.n; ++i)
			p.theta_init[i] = th_eq[i] + amp * V[i][m];
		const double f_expect = sqrt(w2[m]) / (2 * PI);
		const double sr = 48000.0;
		pendula_engine *e = pendula_engine_new(sr, &p);
		crossings c = {0};
		const long frames = (long)(sr * 40.0 / f_expect); /* 40 periods */
		for (long i = 0; i < frames; ++i) {
			pendula_frame f;
			pendula_engine_tick(e, &f);
			crossings_add(&c, f.t, f.theta[big] - th_eq[big]);
		}
		pendula_engine_free(e);
		const double f_meas = crossings_freq(&c);
		const double rel = fabs(f_meas / f_expect - 1.0);
		printf("  %s mode %d: expected %.6f Hz, measured %.6f Hz, rel. error %.2e\n", what,
		       m + 1, f_expect, f_meas, rel);
		CU_ASSERT(rel < 1e-4);
	}
}

static void test_modes_double_equal(void)
{
	/* Linearised double pendulum, m1 = m2, l1 = l2 = l: w^2 = (2 -+ sqrt 2) g / l.  Check the
	 * reference eigen-solver against that closed form too. */
	pendula_params p = double_params(1, 1, 0.5, 0.5);
	ref_model r = ref_from_params(&p);
	double th0[NB] = {0}, R[NB][NB], K[NB][NB], w2[NB], V[NB][NB];
	ref_mass_matrix(&r, th0, R);
	ref_hessian(&r, th0, K);
	gen_eigen(2, R, K, w2, V);
	const double lo = fmin(w2[0], w2[1]), hi = fmax(w2[0], w2[1]);
	CU_ASSERT_DOUBLE_EQUAL(lo, (2 - sqrt(2)) * 9.81 / 0.5, 1e-6);
	CU_ASSERT_DOUBLE_EQUAL(hi, (2 + sqrt(2)) * 9.81 / 0.5, 1e-6);
	check_modes(p, "double m1=m2 l1=l2");
}

static void test_modes_double_unequal(void)
{
	check_modes(double_params(2.0, 0.3, 1.3, 0.6), "double unequal");
}

static void test_modes_parallel(void)
{
	pendula_params p = parallel_params(1);
	/* N = 1: w^2 = m1 c1 g / (I_G1 + m1 c1^2) */
	check_modes(p, "parallel N=1");
	ref_model r = ref_from_params(&p);
	const double w2 = r.m[0] * r.c[0] * r.g / (r.ig[0] + r.m[0] * r.c[0] * r.c[0]);
	printf("  (N=1 closed form: %.6f Hz)\n", sqrt(w2) / (2 * PI));
	/* N = 2 with beta = 0 and N = 3 with nonzero beta (the equilibrium of
	 * body 1 is then tilted). */
	p = parallel_params(2);
	p.beta[1] = 0.0;
	check_modes(p, "parallel N=2 beta=0");
	p = parallel_params(3);
	p.beta[1] = 70 * DEG;
	p.beta[2] = -20 * DEG;
	p.b[2] = 0.15;
	ref_model r3 = ref_from_params(&p);
	double th_eq[NB] = {0};
	ref_equilibrium(&r3, th_eq);
	printf("  N=3 equilibrium: theta1 = %.4f rad\n", th_eq[0]);
	CU_ASSERT(fabs(th_eq[0]) > 0.05); /* the case really is tilted */
	check_modes(p, "parallel N=3 beta!=0");
}

/* Energy of the engine's frame computed by the reference formulas. */
static double frame_energy(const ref_model *r, const pendula_frame *f)
{
	return ref_energy(r, f->theta, f->omega);
}

/* Energy conservation from a chaotic start, three ways:
 *  - the engine's energy output over 10^7 frames (what a user sees; it is E
 *    at the integrator's steps, interpolated with the exact dE/dt = 0);
 *  - E of the integrator's own states, by the reference formula, stepping
 *    pendula_step() at the engine's step size over the same simulated time;
 *  - E by the reference formula from each frame's interpolated (theta,
 *    omega): this also measures the interpolation between steps. */
/* Runs e for `frames` frames (the last into f): the range of the energy
 * output (nmin, nmax) and of the reference energy of every `every`-th
 * frame (emin, emax). */
static void frames_energy_range(pendula_engine *e, const ref_model *r, long frames, long every,
                                pendula_frame *f, double *nmin, double *nmax, double *emin,
                                double *emax)
{
	*nmin = *emin = DBL_MAX;
	*nmax = *emax = -DBL_MAX;
	for (long i = 0; i < frames; ++i) {
		pendula_engine_tick(e, f);
		*nmin = fmin(*nmin, f->energy);
		*nmax = fmax(*nmax, f->energy);
		if (i % every == 0) {
			const double en = frame_energy(r, f);
			*emin = fmin(*emin, en);
			*emax = fmax(*emax, en);
		}
	}
}

static void check_conservation(pendula_params p, const char *what)
{
	const ref_model r = ref_from_params(&p);
	pendula_engine *e = pendula_engine_new(48000.0, &p);
	double emin, emax, nmin, nmax;
	pendula_frame f;
	frames_energy_range(e, &r, 10000000, 997, &f, &nmin, &nmax, &emin, &emax);
	pendula_stats st;
	pendula_engine_stats(e, &st);
	pendula_engine_free(e);

	pendula_system sys;
	pendula_system_init(&sys, &p);
	pendula_state s;
	memset(&s, 0, sizeof(s));
	memcpy(s.q, p.theta_init, sizeof(p.theta_init));
	double smin = DBL_MAX, smax = -DBL_MAX;
	while (s.t < f.t) {
		double w[NB] = {0};
		pendula_step(&sys, &s, st.step_size);
		pendula_velocity(&sys, s.q, s.p, w);
		const double en = ref_energy(&r, s.q, w);
		smin = fmin(smin, en);
		smax = fmax(smax, en);
	}

	const double e0 = ref_energy(&r, p.theta_init, (double[NB]){0});
	const double range = sys.energy_range; /* J per unit of the output */
	const double spread_output = (nmax - nmin) * range / fabs(e0);
	const double spread_steps = (smax - smin) / fabs(e0);
	const double spread_frames = (emax - emin) / fabs(e0);
	printf("  %s: E0 = %.6f J, step %.3g ms; relative spread of E over 10^7 frames: "
	       "energy output %.2e, integrator states %.2e, interpolated frame states %.2e\n",
	       what, e0, st.step_size * 1e3, spread_output, spread_steps, spread_frames);
	CU_ASSERT(spread_output < 1e-6);
	CU_ASSERT(spread_steps < 1e-6);
	CU_ASSERT(spread_frames < 5e-6); /* 4th/5th-order interpolation between steps */
	CU_ASSERT(st.restarts == 0);
}

static void test_energy_conservation_double(void)
{
	check_conservation(double_params(1, 1, 1, 1), "double, chaotic default start");
	pendula_params p = double_params(1, 1, 1, 1);
	p.theta_init[0] = 2.0;
	p.theta_init[1] = 2.0;
	check_conservation(p, "double from (2, 2) rad");
}

static void test_energy_conservation_parallel(void)
{
	check_conservation(parallel_params(4), "parallel N=4 default");
}

/* dE/dt = sum (sigma - lambda w) w + w^T Q: integrate the reference power
 * along the engine's trajectory and compare with the change of the
 * reference energy. */
static void check_budget(pendula_params p, double seconds, const char *what)
{
	const ref_model r = ref_from_params(&p);
	double max_dev, scale;
	ref_energy_budget(&r, &p, seconds, &max_dev, &scale);
	printf("  %s: |work| up to %.4f J, max |dE - work| = %.2e J (%.1e relative)\n", what, scale,
	       max_dev, max_dev / scale);
	CU_ASSERT(scale > 0.1);            /* the budget is not trivially zero */
	CU_ASSERT(max_dev < 1e-5 * scale); /* quadrature at 48 kHz + integrator */
}

static void test_energy_budget(void)
{
	pendula_params p = double_params(1, 1, 1, 1);
	p.lambda[0] = 0.3;
	p.lambda[1] = 0.1;
	check_budget(p, 10.0, "double, damping");
	p = double_params(1, 0.5, 1, 0.7);
	p.sigma[0] = 2.0;
	p.sigma[1] = -1.0;
	p.lambda[1] = 0.2;
	check_budget(p, 10.0, "double, torque + damping");
	p = double_params(1, 1, 1, 1);
	p.pivot_x_amp = 0.05;
	p.pivot_x_freq = 3.0;
	p.pivot_y_amp = 0.02;
	p.pivot_y_freq = 7.0;
	check_budget(p, 10.0, "double, pivot forcing");
	/* forcing at 1 kHz (the top of the range) is resolved too */
	p = double_params(1, 1, 1, 1);
	p.pivot_y_amp = 2e-5;
	p.pivot_y_freq = 1000.0;
	p.pivot_x_amp = 1e-5;
	p.pivot_x_freq = 700.0;
	check_budget(p, 5.0, "double, pivot forcing at 1 kHz and 700 Hz");
	p = parallel_params(4);
	p.lambda[0] = 0.05;
	p.lambda[2] = 0.01;
	p.sigma[1] = 0.05;
	p.pivot_y_amp = 0.02;
	p.pivot_y_freq = 5.0;
	check_budget(p, 10.0, "parallel N=4, all effects");
}

/* A light bob between the pivot and a heavy one (mass ratio 1400, the lower
 * rod a tenth of the upper; one of bench_cap's musical settings, without
 * its damping) snaps through the straight knee now and then: the lower
 * arm's rate jumps from about 50 to 2500 rad/s within a few steps, which
 * the step rules, reading the motion at a step's start, do not see coming.
 * The engine's energy check (engine/step.c, PENDULA_ENERGY_DEFECT) takes such a
 * step again, shorter.  Measured over 10 s, by the reference formula at
 * the frames: a spread of 1.1e-4 of the energy range with the check, 2.8e-2
 * without it; 2.1e-4 since the step rules take the mass matrix at the
 * step's angles (longer steps between the snaps); 5.7e-4 since a raised
 * step floor relaxes after quiet steps (engine/step.c, QUIET_HOLD), with
 * 19 000 steps instead of 52 000.  The worst frame is chance: over eight
 * nearby starts it reached 2.5e-3 of the range before that change,
 * 9.1e-4 after. */
static void test_knee_snap(void)
{
	pendula_params p = double_params(0.026744050995391982, 37.390449245435583,
	                                 0.1228264285183205, 0.013010879910545938);
	p.gravity = 16.481673297170744;
	p.theta_init[0] = -1.9541201372328414;
	p.theta_init[1] = -1.7875516645583158;
	const ref_model r = ref_from_params(&p);
	pendula_system sys;
	pendula_system_init(&sys, &p);
	pendula_engine *e = pendula_engine_new(48000.0, &p);
	double emin, emax, nmin, nmax;
	pendula_frame f;
	frames_energy_range(e, &r, 10 * 48000, 7, &f, &nmin, &nmax, &emin, &emax);
	pendula_stats st;
	pendula_engine_stats(e, &st);
	pendula_engine_free(e);
	const double spread = (emax - emin) / sys.energy_range;
	printf("  knee snaps, 10 s: energy spread %.2e of the range, %llu steps taken again, "
	       "%llu steps\n",
	       spread, (unsigned long long)st.retries, (unsigned long long)st.steps);
	CU_ASSERT(st.retries > 0); /* the case really snaps */
	CU_ASSERT(spread < 1e-3);
	CU_ASSERT(st.restarts == 0);
	/* After a snap the step comes back as soon as its steps are quiet:
	 * holding each raised level for FLOOR_HOLD steps took 52 000. */
	CU_ASSERT(st.steps < 30000);
}

/* The energy check measures a step's defect against the energy range, or
 * against the energy itself once a torque has spun the motion far beyond
 * it: at 10^6 times the range the energy's own rounding exceeds the
 * budget, and an absolute check took 670 smooth steps again in the first
 * second of this run (and slowed its simulated time by 2.5 over 8 s). */
static void test_energy_check_spun_up(void)
{
	pendula_params p = double_params(0.01, 0.01, 0.1, 0.1);
	p.sigma[0] = 100.0;
	p.sigma[1] = -100.0;
	pendula_engine *e = pendula_engine_new(48000.0, &p);
	pendula_frame f;
	for (long i = 0; i < 48000; ++i)
		pendula_engine_tick(e, &f);
	pendula_stats st;
	pendula_engine_stats(e, &st);
	pendula_engine_free(e);
	printf("  spun up to %.2g times the energy range in 1 s: %llu steps taken again\n",
	       f.energy, (unsigned long long)st.retries);
	CU_ASSERT(f.energy > 1e6); /* the case really spins up */
	CU_ASSERT(st.retries == 0);
	CU_ASSERT(st.restarts == 0);
}

/* Kapitza: upright with Dy^2 Wy^2 > 2 g I_O1 / (m1 c1), falls below. */
static double kapitza_run(double freq)
{
	pendula_params p = parallel_params(1);
	p.m[0] = 1.0;
	p.c[0] = 0.2;
	p.inertia[0] = 0.001;
	p.pivot_y_amp = 0.01;
	p.pivot_y_freq = freq;
	p.theta_init[0] = PI - 0.2;
	pendula_engine *e = pendula_engine_new(48000.0, &p);
	double worst = 0.0;
	for (long i = 0; i < 30 * 48000; ++i) {
		pendula_frame f;
		pendula_engine_tick(e, &f);
		const double off = fabs(fabs(f.theta[0]) - PI); /* distance from upright */
		worst = fmax(worst, off);
	}
	pendula_engine_free(e);
	return worst;
}

static void test_kapitza(void)
{
	const double i_o1 = 0.001 + 1.0 * 0.2 * 0.2, g = 9.81, d = 0.01;
	const double w_threshold = sqrt(2 * g * i_o1 / (1.0 * 0.2)) / d;
	const double f_threshold = w_threshold / (2 * PI);
	const double above = kapitza_run(2.0 * f_threshold);
	const double below = kapitza_run(0.6 * f_threshold);
	printf("  threshold %.2f Hz; at 2x: worst |theta - pi| = %.3f rad; at 0.6x: %.3f rad\n",
	       f_threshold, above, below);
	CU_ASSERT(above < 0.5);
	CU_ASSERT(below > 0.5);
}

/* Floquet growth rate of th'' + w0^2 (1 - eps cos W t) th = 0 over one
 * period, by RK4 of the linear equation (independent of the engine). */
static double mathieu_floquet(double w0, double eps, double W)
{
	double M[2][2];
	hill_monodromy(w0 * w0, -w0 * w0 * eps, W, 20000, M);
	const double tr = M[0][0] + M[1][1], det = M[0][0] * M[1][1] - M[0][1] * M[1][0];
	const double disc = tr * tr / 4 - det;
	const double lam = fabs(tr) / 2 + (disc > 0 ? sqrt(disc) : 0);
	return log(lam) / (2 * PI / W);
}

static void test_mathieu(void)
{
	pendula_params p = parallel_params(1);
	p.m[0] = 1.0;
	p.c[0] = 0.25;
	p.inertia[0] = 0.001;
	const double i_o1 = 0.001 + 0.25 * 0.25, g = 9.81;
	const double w0 = sqrt(0.25 * g / i_o1);
	const double W = 2 * w0, eps = 0.1;
	p.pivot_y_freq = W / (2 * PI);
	p.pivot_y_amp = eps * g / (W * W);
	p.theta_init[0] = 1e-4;
	const double mu_theory = eps * w0 / 4;
	const double mu_floquet = mathieu_floquet(w0, eps, W);
	/* Fit log of the half-period peaks of |theta| against time. */
	pendula_engine *e = pendula_engine_new(48000.0, &p);
	const double half = PI / w0;
	double sx = 0, sy = 0, sxx = 0, sxy = 0, peak = 0, window_start = 0;
	int npk = 0;
	const double seconds = 25.0;
	for (long i = 0; i < (long)(seconds * 48000); ++i) {
		pendula_frame f;
		pendula_engine_tick(e, &f);
		peak = fmax(peak, fabs(f.theta[0]));
		if (f.t - window_start >= half) {
			if (f.t > 3.0) { /* after the transient of the start */
				const double tc = window_start + 0.5 * half;
				sx += tc;
				sy += log(peak);
				sxx += tc * tc;
				sxy += tc * log(peak);
				++npk;
			}
			peak = 0;
			window_start = f.t;
		}
	}
	pendula_engine_free(e);
	const double mu = (npk * sxy - sx * sy) / (npk * sxx - sx * sx);
	printf("  w0 = %.4f rad/s, eps = %.2f: growth rate measured %.5f /s, theory eps w0/4 "
	       "= %.5f, Floquet (RK4 of the linear equation) = %.5f\n",
	       w0, eps, mu, mu_theory, mu_floquet);
	CU_ASSERT(fabs(mu / mu_theory - 1) < 0.05);
	CU_ASSERT(fabs(mu / mu_floquet - 1) < 0.02);
}

CU_TestInfo angle_physics_tests[] = {
    {"normal modes, double m1=m2 l1=l2", test_modes_double_equal},
    {"normal modes, double unequal", test_modes_double_unequal},
    {"normal modes, parallel N=1,2,3", test_modes_parallel},
    {"energy conservation, double", test_energy_conservation_double},
    {"energy conservation, parallel N=4", test_energy_conservation_parallel},
    {"energy budget (damping, torque, forcing)", test_energy_budget},
    {"energy adds up through a knee snap (light bob, heavy bob)", test_knee_snap},
    {"energy check of a motion spun far beyond its range", test_energy_check_spun_up},
    {"Kapitza threshold", test_kapitza},
    {"Mathieu parametric resonance", test_mathieu},
    CU_TEST_INFO_NULL,
};
