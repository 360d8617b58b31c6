/* SPDX-License-Identifier: ISC */
/*
 * Physics tests of the Pendula engine (CUnit).
 *
 * Ground truth never comes from the engine's own output: every reference is
 * computed here from the note's equations with code of its own
 * (positions-based potential, mass matrix from the note's formulas, finite
 * differences, a Jacobi eigen-solver, an RK4 of the linearised equation).
 */
#define _POSIX_C_SOURCE 200809L
#include "cunit_main.h"
#include "pendula_engine.h"
#include "test_common.h"
#include "ports.h"
#include "test_rng.h"

#include <CUnit/Basic.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI      3.14159265358979323846
#define DEG     (PI / 180.0)
#define NB      4 /* the Chaos Man: body 1 and up to three arms */
#define REF_DIM NB
#include "ref_numerics.h"

/* ------------------------------------------------------------------------ */
/* Reference model, written from the note's equations independently of the engine. */

typedef struct {
	int n;
	double g;
	double m[NB], c[NB], ig[NB], b[NB], beta[NB]; /* body 1: c = c1, ig = I_G1 */
	double lambda[NB], sigma[NB];
	double dx, wx, dy, wy; /* pivot: amplitude, angular frequency */
} ref_model;

static ref_model ref_from_params(const pendula_params *p)
{
	ref_model r;
	memset(&r, 0, sizeof(r));
	r.g = p->gravity;
	if (p->model == PENDULA_MODEL_DOUBLE) {
		r.n = 2;
		r.m[0] = p->m[0];
		r.c[0] = p->l[0];
		r.m[1] = p->m[1];
		r.b[1] = p->l[0];
		r.c[1] = p->l[1];
	} else {
		r.n = p->n_bodies;
		for (int k = 0; k < r.n; ++k) {
			r.m[k] = p->m[k];
			r.c[k] = p->c[k];
			r.ig[k] = p->inertia[k];
			r.b[k] = p->b[k];
			r.beta[k] = p->beta[k];
		}
	}
	for (int k = 0; k < r.n; ++k) {
		r.lambda[k] = p->lambda[k];
		r.sigma[k] = p->sigma[k];
	}
	r.dx = p->pivot_x_amp;
	r.wx = 2 * PI * p->pivot_x_freq;
	r.dy = p->pivot_y_amp;
	r.wy = 2 * PI * p->pivot_y_freq;
	return r;
}

/* Centres of mass relative to the pivot, from the geometry of README.md. */
static void ref_positions(const ref_model *r, const double *th, double *x, double *y)
{
	x[0] = r->c[0] * sin(th[0]);
	y[0] = -r->c[0] * cos(th[0]);
	for (int k = 1; k < r->n; ++k) {
		const double ox = r->b[k] * sin(th[0] + r->beta[k]);
		const double oy = -r->b[k] * cos(th[0] + r->beta[k]);
		x[k] = ox + r->c[k] * sin(th[k]);
		y[k] = oy - r->c[k] * cos(th[k]);
	}
}

/* Potential in a uniform field: gravity -g y plus the pseudo-force -m Gamma''. */
static double ref_potential(const ref_model *r, const double *th, double acc_x, double acc_y)
{
	double x[NB], y[NB], u = 0.0;
	ref_positions(r, th, x, y);
	for (int k = 0; k < r->n; ++k)
		u += r->m[k] * ((r->g + acc_y) * y[k] + acc_x * x[k]);
	return u;
}

/* Mass matrix of the note's section 3 (model B). */
static void ref_mass_matrix(const ref_model *r, const double *th, double R[NB][NB])
{
	memset(R, 0, sizeof(double) * NB * NB);
	R[0][0] = r->ig[0] + r->m[0] * r->c[0] * r->c[0];
	for (int k = 1; k < r->n; ++k) {
		R[0][0] += r->m[k] * r->b[k] * r->b[k];
		R[0][k] = R[k][0] = r->m[k] * r->b[k] * r->c[k] * cos(th[0] + r->beta[k] - th[k]);
		R[k][k] = r->ig[k] + r->m[k] * r->c[k] * r->c[k];
	}
}

#define REF_MODEL ref_model
#include "ref_lagrange.h"

/* Generalised force of the forcing: Q = -dV/dth, V = sum m (G''x x + G''y y),
 * with the Jacobian of the centres of mass taken analytically from the
 * geometry (finite differences would cap the accuracy of the energy budget
 * when the pivot shakes at 1 kHz and the power swings by kilowatts). */
static void ref_forcing_q(const ref_model *r, const double *th, double t, double *q)
{
	double ax, ay;
	pivot_accel(r, t, &ax, &ay);
	for (int i = 0; i < r->n; ++i)
		q[i] = 0.0;
	/* body 1: (c1 sin th1, -c1 cos th1) */
	q[0] -= r->m[0] * r->c[0] * (ax * cos(th[0]) + ay * sin(th[0]));
	for (int k = 1; k < r->n; ++k) {
		/* hinge b_k (sin(th1 + beta_k), -cos(...)) moves with th1; the
		 * centre c_k (sin th_k, -cos th_k) with th_k */
		const double a = th[0] + r->beta[k];
		q[0] -= r->m[k] * r->b[k] * (ax * cos(a) + ay * sin(a));
		q[k] -= r->m[k] * r->c[k] * (ax * cos(th[k]) + ay * sin(th[k]));
	}
}

/* Equilibrium (minimum of U) by Newton's method on the finite-difference
 * gradient, from the given start. */
static void ref_equilibrium(const ref_model *r, double *th)
{
	for (int it = 0; it < 50; ++it) {
		double grad[NB] = {0}, K[NB][NB], step[NB];
		const double e = 1e-6;
		for (int i = 0; i < r->n; ++i) {
			double tp[NB], tm[NB];
			memcpy(tp, th, sizeof(tp));
			memcpy(tm, th, sizeof(tm));
			tp[i] += e;
			tm[i] -= e;
			grad[i] =
			    (ref_potential(r, tp, 0, 0) - ref_potential(r, tm, 0, 0)) / (2 * e);
		}
		ref_hessian(r, th, K);
		solve(r->n, K, grad, step);
		for (int i = 0; i < r->n; ++i)
			th[i] -= step[i];
	}
}

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static pendula_params double_params(double m1, double m2, double l1, double l2)
{
	pendula_params p;
	pendula_params_default(&p, PENDULA_MODEL_DOUBLE);
	p.m[0] = m1;
	p.m[1] = m2;
	p.l[0] = l1;
	p.l[1] = l2;
	return p;
}

static pendula_params parallel_params(int n)
{
	pendula_params p;
	pendula_params_default(&p, PENDULA_MODEL_PARALLEL);
	p.n_bodies = n;
	return p;
}

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

/* ------------------------------------------------------------------------ */
/* Tests                                                                    */

static void test_defaults_match_port_table(void)
{
	/* Every setting a model's ports fill starts at that port's default in
	 * that model (read back from the field the port table names). */
	for (int v = 0; v < PENDULA_N_VARIANTS; v += 2) {
		const pendula_model model = pendula_variant_model(v);
		pendula_params p;
		pendula_params_default(&p, model);
		int checked = 0;
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
			const pendula_port_info *info = &pendula_ports[id];
			if (!(info->models & (1u << model)) || info->param < 0)
				continue;
			const char *field = (const char *)&p + info->param;
			double value = info->conv == PC_INT ? *(const int *)(const void *)field
			                                    : *(const double *)(const void *)field;
			if (info->conv == PC_DEG)
				value /= DEG;
			CU_ASSERT_DOUBLE_EQUAL(value, pendula_port_default((pendula_variant)v, id),
			                       1e-6);
			++checked;
		}
		CU_ASSERT(checked > 10);
		CU_ASSERT(p.model == model);
	}
	/* the double pendulum's fixed two bodies (a default for a port it lacks) */
	pendula_params d;
	pendula_params_default(&d, PENDULA_MODEL_DOUBLE);
	CU_ASSERT(d.n_bodies == 2);
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
 * The engine's energy check (engine.c, PENDULA_ENERGY_DEFECT) takes such a
 * step again, shorter.  Measured over 10 s, by the reference formula at
 * the frames: a spread of 1.1e-4 of the energy range with the check, 2.8e-2
 * without it; 2.1e-4 since the step rules take the mass matrix at the
 * step's angles (longer steps between the snaps); 5.7e-4 since a raised
 * step floor relaxes after quiet steps (engine.c, QUIET_HOLD), with
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

static void render(pendula_engine *e, long frames, const unsigned *blocks, int nblocks, float *out)
{
	float scratch[5][8192];
	long done = 0;
	int bi = 0;
	while (done < frames) {
		uint32_t n = blocks[bi++ % nblocks];
		if (n > frames - done)
			n = (uint32_t)(frames - done);
		pendula_outputs o = {{[PENDULA_CH_THETA] = scratch[0],
		                      [PENDULA_CH_THETA + 1] = scratch[1],
		                      [PENDULA_CH_THETA + 2] = scratch[2],
		                      [PENDULA_CH_TIP_X] = scratch[3],
		                      [PENDULA_CH_ENERGY] = scratch[4]}};
		pendula_engine_run(e, n, &o);
		for (uint32_t i = 0; i < n; ++i)
			for (int c = 0; c < 5; ++c)
				out[(done + i) * 5 + c] = scratch[c][i];
		done += n;
	}
}

static void test_block_size_independent(void)
{
	for (int model = 0; model < 2; ++model) {
		pendula_params p;
		pendula_params_default(&p, (pendula_model)model);
		p.pivot_x_amp = 0.05; /* forcing too, so the phase bookkeeping counts */
		p.pivot_x_freq = 3.0;
		const long frames = 3 * 48000;
		float *a = malloc(sizeof(float) * 5 * frames),
		      *b = malloc(sizeof(float) * 5 * frames),
		      *c = malloc(sizeof(float) * 5 * frames);
		unsigned fixed[1] = {256}, one[1] = {1}, random_blocks[64];
		rng = test_rng_seeded(7);
		for (int i = 0; i < 64; ++i)
			random_blocks[i] = (i % 5 == 0) ? 0 : test_rng_below(&rng, 3000);
		pendula_engine *e1 = pendula_engine_new(48000, &p),
		               *e2 = pendula_engine_new(48000, &p),
		               *e3 = pendula_engine_new(48000, &p);
		render(e1, frames, fixed, 1, a);
		render(e2, frames, random_blocks, 64, b);
		render(e3, frames, one, 1, c);
		CU_ASSERT(memcmp(a, b, sizeof(float) * 5 * frames) == 0);
		CU_ASSERT(memcmp(a, c, sizeof(float) * 5 * frames) == 0);
		/* and a reset reproduces the start exactly */
		pendula_engine_reset(e1);
		render(e1, frames, fixed, 1, b);
		CU_ASSERT(memcmp(a, b, sizeof(float) * 5 * frames) == 0);
		/* frame 0 shows the initial state */
		CU_ASSERT_DOUBLE_EQUAL(a[0] * PI, p.theta_init[0], 1e-6);
		CU_ASSERT_DOUBLE_EQUAL(a[1] * PI, p.theta_init[1], 1e-6);
		pendula_engine_free(e1);
		pendula_engine_free(e2);
		pendula_engine_free(e3);
		free(a);
		free(b);
		free(c);
	}
}

static void test_sample_rate_independent(void)
{
	/* A regular motion (small swing) compared at t = 0.02 s multiples, which
	 * are whole frames at every rate. */
	const double rates[5] = {22050, 44100, 48000, 96000, 192000};
	const int points = 100; /* 2 s */
	double th[5][100][2];
	pendula_params p = double_params(1, 1, 1, 1);
	p.theta_init[0] = 20 * DEG;
	p.theta_init[1] = -10 * DEG;
	for (int r = 0; r < 5; ++r) {
		pendula_engine *e = pendula_engine_new(rates[r], &p);
		const long every = (long)(rates[r] * 0.02);
		for (long i = 0; i < every * points; ++i) {
			pendula_frame f;
			pendula_engine_tick(e, &f);
			if (i % every == 0) {
				th[r][i / every][0] = f.theta[0];
				th[r][i / every][1] = f.theta[1];
			}
		}
		pendula_engine_free(e);
	}
	double worst = 0.0;
	for (int r = 1; r < 5; ++r)
		for (int i = 0; i < points; ++i)
			for (int k = 0; k < 2; ++k)
				worst = fmax(worst, fabs(th[r][i][k] - th[0][i][k]));
	printf("  max angle difference across 22.05..192 kHz over 2 s: %.2e rad\n", worst);
	CU_ASSERT(worst < 1e-4);
}

static void test_smooth_and_continuous(void)
{
	/* No steps at step or block boundaries, nor when parameters change:
	 * successive frames differ by about omega dt, and omega stays
	 * continuous across a change of masses and lengths. */
	pendula_params p = double_params(1, 1, 1, 1);
	const double sr = 48000, dt = 1 / sr;
	pendula_engine *e = pendula_engine_new(sr, &p);
	pendula_frame prev, f;
	pendula_engine_tick(e, &prev);
	double worst = 0.0, worst_w = 0.0;
	for (long i = 1; i < 4 * 48000; ++i) {
		if (i % 12000 == 0) { /* change the physics while it swings */
			p.m[1] = p.m[1] == 1.0 ? 0.3 : 1.0;
			p.l[0] = p.l[0] == 1.0 ? 0.8 : 1.0;
			p.gravity = p.gravity == 9.81 ? 5.0 : 9.81;
			pendula_engine_set_params(e, &p);
		}
		pendula_engine_tick(e, &f);
		for (int k = 0; k < 2; ++k) {
			double d = f.theta[k] - prev.theta[k];
			d -= 2 * PI * floor(d / (2 * PI) + 0.5);
			const double expect = 0.5 * (f.omega[k] + prev.omega[k]) * dt;
			worst = fmax(worst, fabs(d - expect) / (fabs(expect) + 1e-6));
			worst_w = fmax(worst_w, fabs(f.omega[k] - prev.omega[k]));
		}
		prev = f;
	}
	pendula_engine_free(e);
	printf("  worst |dtheta - omega dt| / |omega dt| = %.2e, worst |domega| per frame = %.2e "
	       "rad/s\n",
	       worst, worst_w);
	CU_ASSERT(worst < 1e-2);
	CU_ASSERT(worst_w < 0.05); /* |acceleration| dt is below ~1e-2 here */
}

static void test_bodies_added(void)
{
	pendula_params p = parallel_params(2);
	pendula_engine *e = pendula_engine_new(48000, &p);
	pendula_frame f, g;
	for (int i = 0; i < 24000; ++i)
		pendula_engine_tick(e, &f);
	p.n_bodies = 4;
	pendula_engine_set_params(e, &p);
	/* the new settings take effect with the next step, within the longest
	 * step (1/128 s, 375 frames at 48 kHz) */
	for (int i = 0; i < 400; ++i)
		pendula_engine_tick(e, &g);
	/* bodies 1, 2 carried on (close to where they were), 3 and 4 started
	 * near their initial angles at rest */
	CU_ASSERT(fabs(g.theta[0] - f.theta[0]) < 0.2);
	CU_ASSERT(fabs(g.theta[2] - p.theta_init[2]) < 0.05);
	CU_ASSERT(fabs(g.theta[3] - p.theta_init[3]) < 0.05);
	pendula_engine_free(e);

	/* The directions agree with the angles from the frame a body comes or
	 * goes (x = sin theta, y = -cos theta; 0 for a body that is not
	 * there): they used to blend from the old system's over the first
	 * step (a new body's direction off by up to 1 for 9 ms). */
	for (int dir = 0; dir < 2; ++dir) {
		p = parallel_params(dir ? 4 : 2);
		e = pendula_engine_new(48000, &p);
		for (int i = 0; i < 24000; ++i)
			pendula_engine_tick(e, &f);
		p.n_bodies = dir ? 2 : 4;
		pendula_engine_set_params(e, &p);
		double worst = 0.0;
		int applied = -1;
		for (int i = 0; i < 4800; ++i) {
			pendula_engine_tick(e, &g);
			if (applied < 0 && (dir ? g.theta[3] == 0.0 : g.theta[3] != 0.0))
				applied = i;
			if (applied < 0)
				continue;
			for (int k = 2; k < 4; ++k) {
				const double sx = dir ? 0.0 : sin(g.theta[k]),
				             sy = dir ? 0.0 : -cos(g.theta[k]);
				worst = fmax(worst, fmax(fabs(g.x[k] - sx), fabs(g.y[k] - sy)));
			}
		}
		printf("  bodies %s: applied after %d frames; directions of bodies 3, 4 off their "
		       "angles by at most %.2g\n",
		       dir ? "4 -> 2" : "2 -> 4", applied, worst);
		CU_ASSERT(applied >= 0 && applied <= 400);
		CU_ASSERT(worst < 1e-3);
		pendula_engine_free(e);
	}
}

/* pendula_engine_state is the end of the step the next frame falls in:
 * that frame's time is inside the step, and the state's own energy (from
 * pendula_energy, not from the engine's channels) is the run's. */
static void test_engine_state(void)
{
	static const pendula_model models[] = {PENDULA_MODEL_DOUBLE, PENDULA_MODEL_CHAIN,
	                                       PENDULA_MODEL_SPHERICAL};
	for (size_t m = 0; m < sizeof(models) / sizeof(models[0]); ++m) {
		pendula_params p;
		pendula_params_default(&p, models[m]);
		pendula_engine *e = pendula_engine_new(48000, &p);
		const pendula_system *sys = pendula_engine_system(e);
		double worst_t = 0.0, worst_e = 0.0;
		int inside = 1;
		for (int i = 0; i < 48000; ++i) {
			pendula_frame f;
			pendula_engine_tick(e, &f);
			pendula_state s;
			pendula_engine_state(e, &s);
			pendula_stats st;
			pendula_engine_stats(e, &st);
			const double next =
			    f.t + p.time_scale / 48000.0; /* the next frame's time */
			inside &= next <= s.t * (1.0 + 1e-12) &&
			          s.t - next <= st.step_size * (1.0 + 1e-9);
			worst_t = fmax(worst_t, s.t - next);
			double v[PENDULA_MAX_DOF];
			pendula_velocity(sys, s.q, s.p, v);
			const double en =
			    pendula_energy_normalised(sys, pendula_energy(sys, s.q, v));
			worst_e = fmax(worst_e, fabs(en - f.energy));
		}
		printf("  %s: state ahead of the next frame by at most %.3g s; energies apart by "
		       "%.2g\n",
		       pendula_model_infos[models[m]].slug, worst_t, worst_e);
		CU_ASSERT(inside);
		CU_ASSERT(worst_t > 0.0);
		/* conserved (no forcing, damping or torque by default): the frame
		 * between two steps and the step's end agree to the energy error */
		CU_ASSERT(worst_e < 1e-6);
		pendula_engine_free(e);
	}
}

/* New settings act within about 10 ms of audio at any time scale: at
 * time_scale 0.01 a step of 1/128 s of simulated time would otherwise last
 * 0.78 s of audio (MAX_STEP_AUDIO in engine.c). */
static void test_settings_latency(void)
{
	pendula_params p = parallel_params(2);
	p.time_scale = 0.01;
	pendula_engine *e = pendula_engine_new(48000, &p);
	pendula_frame f;
	for (int i = 0; i < 24000; ++i)
		pendula_engine_tick(e, &f);
	p.n_bodies = 4;
	pendula_engine_set_params(e, &p);
	int frames = 0;
	while (frames < 48000 && f.theta[2] == 0.0) {
		pendula_engine_tick(e, &f);
		++frames;
	}
	pendula_stats st;
	pendula_engine_stats(e, &st);
	printf("  time_scale 0.01: new settings act after %d frames (%.1f ms), step %.3g s\n",
	       frames, frames / 48.0, st.step_size);
	CU_ASSERT(frames <= 520); /* 10.4 ms, plus the frame that starts the step */
	CU_ASSERT(fabs(f.theta[2] - p.theta_init[2]) < 1e-6);
	pendula_engine_free(e);
}

static void test_stiff_and_extreme(void)
{
	/* Settings at the edges of the declared ranges: finite, bounded work,
	 * still moving where it should. */
	struct {
		const char *what;
		int model;
		double time_scale, m1, l1, lambda, sigma, dy, fy;
		int expect_motion;
	} cases[] = {
	    {"light body, heavy damping", 1, 1, 0.01, 0.01, 100, 0, 0, 0, 0},
	    {"forcing 1 kHz, 10 m, time scale 100", 0, 100, 1, 1, 0, 0, 10, 1000, 1},
	    {"tiny rods, strong torque, time scale 100", 0, 100, 0.01, 0.01, 0, 100, 0, 0, 1},
	    {"heavy damping, time scale 100", 0, 100, 0.01, 0.01, 100, 0, 0, 0, 0},
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); ++c) {
		pendula_params p;
		pendula_params_default(&p, (pendula_model)cases[c].model);
		p.time_scale = cases[c].time_scale;
		p.m[0] = cases[c].m1;
		p.l[0] = cases[c].l1;
		p.c[0] = cases[c].l1;
		p.inertia[0] = 1e-6;
		p.inertia[1] = 1e-6;
		for (int k = 0; k < NB; ++k) {
			p.lambda[k] = cases[c].lambda;
			p.sigma[k] = cases[c].sigma;
		}
		p.pivot_y_amp = cases[c].dy;
		p.pivot_y_freq = cases[c].fy;
		pendula_engine *e = pendula_engine_new(48000, &p);
		float th[2][4800], en[4800];
		pendula_outputs o = {{[PENDULA_CH_THETA] = th[0],
		                      [PENDULA_CH_THETA + 1] = th[1],
		                      [PENDULA_CH_ENERGY] = en}};
		int finite = 1;
		double lo = 1e9, hi = -1e9;
		for (int b = 0; b < 20; ++b) {
			pendula_engine_run(e, 4800, &o);
			for (int i = 0; i < 4800; ++i) {
				finite &=
				    isfinite(th[0][i]) && isfinite(th[1][i]) && isfinite(en[i]);
				finite &= th[0][i] >= -1.0f && th[0][i] < 1.0f;
				lo = fmin(lo, th[0][i]);
				hi = fmax(hi, th[0][i]);
			}
		}
		pendula_stats st;
		pendula_engine_stats(e, &st);
		printf("  %s: %.2f steps/frame, %.2f stage evaluations/step, %llu capped frames, "
		       "%llu restarts, theta1 range %.3f\n",
		       cases[c].what, (double)st.steps / st.frames,
		       (double)st.iterations / (double)st.steps,
		       (unsigned long long)st.capped_frames, (unsigned long long)st.restarts,
		       hi - lo);
		CU_ASSERT(finite);
		/* 72e6 work units per second of audio: 1500 per frame at 48 kHz */
		CU_ASSERT(st.max_work_per_frame == 1500.0);
		CU_ASSERT(test_work_within_cap(&st));
		CU_ASSERT(st.restarts == 0);
		if (cases[c].expect_motion)
			CU_ASSERT(hi - lo > 0.01);
		pendula_engine_free(e);
	}
}

/* A value of port id drawn inside its declared range (log-uniform for
 * logarithmic ports), as a host may send it. */
static double random_in_port_range(pendula_port_id id)
{
	const pendula_port_info *info = &pendula_ports[id];
	const double u = test_rng_uniform(&rng);
	if ((info->flags & PF_LOG) && info->min > 0)
		return info->min * pow(info->max / info->min, u);
	return info->min + (info->max - info->min) * u;
}

static void test_random_settings_in_range(void)
{
	/* README.md: every combination of values inside the declared ranges runs
	 * stably.  200 random settings of both models, 0.1 s each at 48 kHz:
	 * outputs finite and in range, no restart, the work cap respected. */
	rng = test_rng_seeded(2026);
	int bad = 0, restarts = 0, capped_cases = 0;
	for (int c = 0; c < 200; ++c) {
		const pendula_model model = (pendula_model)(c % 2);
		pendula_params p;
		pendula_params_default(&p, model);
		static const pendula_port_id m_ids[NB] = {P_M1, P_M2, P_M3, P_M4};
		static const pendula_port_id c_ids[NB] = {P_C1, P_C2, P_C3, P_C4};
		static const pendula_port_id i_ids[NB] = {P_INERTIA1, P_INERTIA2, P_INERTIA3,
		                                          P_INERTIA4};
		static const pendula_port_id b_ids[NB] = {P_B2, P_B2, P_B3, P_B4};
		static const pendula_port_id beta_ids[NB] = {P_BETA2, P_BETA2, P_BETA3, P_BETA4};
		static const pendula_port_id l_ids[NB] = {P_LAMBDA1, P_LAMBDA2, P_LAMBDA3,
		                                          P_LAMBDA4};
		static const pendula_port_id s_ids[NB] = {P_SIGMA1, P_SIGMA2, P_SIGMA3, P_SIGMA4};
		static const pendula_port_id t_ids[NB] = {P_THETA1_INIT, P_THETA2_INIT,
		                                          P_THETA3_INIT, P_THETA4_INIT};
		p.time_scale = random_in_port_range(P_TIME_SCALE);
		p.gravity = random_in_port_range(P_GRAVITY);
		p.n_bodies = 1 + (int)test_rng_below(&rng, NB);
		for (int k = 0; k < NB; ++k) {
			p.m[k] = random_in_port_range(m_ids[k]);
			p.c[k] = random_in_port_range(c_ids[k]);
			p.inertia[k] = random_in_port_range(i_ids[k]);
			p.b[k] = random_in_port_range(b_ids[k]);
			p.beta[k] = random_in_port_range(beta_ids[k]) * DEG;
			/* half the cases undamped, torque-free: the hardest for energy */
			p.lambda[k] = c % 4 < 2 ? random_in_port_range(l_ids[k]) : 0.0;
			p.sigma[k] = c % 4 < 2 ? random_in_port_range(s_ids[k]) : 0.0;
			p.theta_init[k] = random_in_port_range(t_ids[k]) * DEG;
		}
		p.l[0] = random_in_port_range(P_L1);
		p.l[1] = random_in_port_range(P_L2);
		if (c % 3 == 0) {
			p.pivot_x_amp = random_in_port_range(P_PIVOT_X_AMP);
			p.pivot_x_freq = random_in_port_range(P_PIVOT_X_FREQ);
			p.pivot_y_amp = random_in_port_range(P_PIVOT_Y_AMP);
			p.pivot_y_freq = random_in_port_range(P_PIVOT_Y_FREQ);
		}
		pendula_engine *e = pendula_engine_new(48000, &p);
		float th[NB][4800], tx[4800], ty[4800], en[4800];
		pendula_outputs o = {{[PENDULA_CH_THETA] = th[0],
		                      [PENDULA_CH_THETA + 1] = th[1],
		                      [PENDULA_CH_THETA + 2] = th[2],
		                      [PENDULA_CH_THETA + 3] = th[3],
		                      [PENDULA_CH_TIP_X] = tx,
		                      [PENDULA_CH_TIP_Y] = ty,
		                      [PENDULA_CH_ENERGY] = en}};
		pendula_engine_run(e, 4800, &o);
		for (int i = 0; i < 4800; ++i) {
			for (int k = 0; k < NB; ++k)
				bad += !(th[k][i] >= -1.0f && th[k][i] < 1.0f);
			bad += !isfinite(tx[i]) || !isfinite(ty[i]) || !isfinite(en[i]);
		}
		pendula_stats st;
		pendula_engine_stats(e, &st);
		restarts += (int)st.restarts;
		capped_cases += st.capped_frames > 0;
		CU_ASSERT(test_work_within_cap(&st));
		pendula_engine_free(e);
	}
	printf("  200 random settings: %d bad samples, %d restarts, %d cases at the work cap\n",
	       bad, restarts, capped_cases);
	CU_ASSERT(bad == 0);
	CU_ASSERT(restarts == 0);
}

static void test_non_finite_restarts(void)
{
	/* Outside every declared range: a torque that overflows the state.  The
	 * engine restarts from the initial state and the outputs stay finite. */
	pendula_params p = double_params(1, 1, 1, 1);
	p.sigma[0] = 1e305;
	pendula_engine *e = pendula_engine_new(48000, &p);
	float th[4800], en[4800];
	pendula_outputs o = {{[PENDULA_CH_THETA] = th, [PENDULA_CH_ENERGY] = en}};
	int finite = 1;
	for (int b = 0; b < 20; ++b) {
		pendula_engine_run(e, 4800, &o);
		for (int i = 0; i < 4800; ++i)
			finite &= isfinite(th[i]) && isfinite(en[i]);
	}
	pendula_stats st;
	pendula_engine_stats(e, &st);
	printf("  restarts: %llu\n", (unsigned long long)st.restarts);
	CU_ASSERT(finite);
	CU_ASSERT(st.restarts > 0);
	pendula_engine_free(e);
}

static void test_no_subnormals(void)
{
	/* A damped pendulum heading for rest for a long simulated time. */
	pendula_params p = double_params(1, 1, 1, 1);
	p.lambda[0] = p.lambda[1] = 5.0;
	p.time_scale = 100.0;
	pendula_engine *e = pendula_engine_new(48000, &p);
	int subnormal = 0;
	pendula_frame f;
	for (long i = 0; i < 2000000; ++i) { /* 4000 simulated seconds */
		pendula_engine_tick(e, &f);
		for (int k = 0; k < 2; ++k)
			subnormal |= fpclassify(f.theta[k]) == FP_SUBNORMAL ||
			             fpclassify(f.omega[k]) == FP_SUBNORMAL;
		subnormal |= fpclassify(f.energy) == FP_SUBNORMAL;
	}
	printf("  after %.0f s: theta1 = %g, omega1 = %g, energy = %g\n", f.t, f.theta[0],
	       f.omega[0], f.energy);
	CU_ASSERT(!subnormal);
	CU_ASSERT(fabs(f.theta[0]) < 1e-6); /* it did come to rest */
	pendula_engine_free(e);
}

/* The work cap prices every model's iterations (a model that forgot to
 * would step for free), dearer with more bodies; and at the cap each model
 * spends the same budget per frame, so a model with dear steps takes fewer
 * of them instead of more CPU time. */
static void test_work_cap(void)
{
	for (int m = 0; m < PENDULA_N_MODELS; ++m) {
		int last = 0;
		for (int n = 1; n <= PENDULA_MAX_BODIES; ++n) {
			pendula_params p;
			pendula_params_default(&p, (pendula_model)m);
			p.n_bodies = n;
			pendula_system sys;
			pendula_system_init(&sys, &p);
			CU_ASSERT(sys.work_iteration > 0);
			CU_ASSERT(sys.work_iteration >= last);
			last = sys.work_iteration;
		}
	}
	double steps_per_frame[2];
	for (int c = 0; c < 2; ++c) {
		pendula_params p;
		pendula_params_default(&p, c ? PENDULA_MODEL_CHAIN : PENDULA_MODEL_DOUBLE);
		p.n_bodies = c ? 6 : 2;
		p.time_scale = 100.0;
		p.pivot_y_amp = 10.0;
		p.pivot_y_freq = 1000.0;
		pendula_engine *e = pendula_engine_new(48000.0, &p);
		static float buf[256];
		pendula_outputs o;
		memset(&o, 0, sizeof(o));
		o.ch[PENDULA_CH_ENERGY] = buf;
		for (int b = 0; b < 375; ++b) /* 2 s */
			pendula_engine_run(e, 256, &o);
		pendula_stats st;
		pendula_engine_stats(e, &st);
		const double per_frame = (double)st.work / (double)st.frames;
		/* step attempts: a step taken again (a solve that failed, an
		 * energy that did not add up) costs work too */
		steps_per_frame[c] = (double)(st.steps + st.retries) / (double)st.frames;
		printf("  %s at the cap: %.1f work units per frame (budget %.0f), %.2f step "
		       "attempts per frame (%.2f taken again), %llu of %llu frames capped\n",
		       c ? "chain, 6 links" : "double", per_frame, st.max_work_per_frame,
		       steps_per_frame[c], (double)st.retries / (double)st.frames,
		       (unsigned long long)st.capped_frames, (unsigned long long)st.frames);
		CU_ASSERT(st.capped_frames > st.frames / 2);
		CU_ASSERT(test_work_within_cap(&st));
		CU_ASSERT(per_frame >= 0.95 * st.max_work_per_frame); /* the budget is used */
		pendula_engine_free(e);
	}
	/* the same budget buys fewer of the chain's dearer steps (the work per
	 * attempt: about 400 units against 200) */
	CU_ASSERT(steps_per_frame[1] < steps_per_frame[0] / 1.5);
}

/* A reset starts with the budget's carry-over (engine.c, start_credit):
 * the first steps are often the dearest, as the step level settles.  One
 * of bench_cap's musical chains (a 1 cm link of 12 g under 1.4 kg on
 * 6.4 m, time_scale 8.5, forced on both axes) had its first frame capped
 * when a reset started with no credit, and no other frame; a reset in the
 * middle of the run starts the same way. */
static void test_start_credit(void)
{
	pendula_params p;
	pendula_params_default(&p, PENDULA_MODEL_CHAIN);
	p.n_bodies = 4;
	p.time_scale = 8.5320434852929203;
	p.gravity = 14.001248082913543;
	const double m[4] = {0.012313894289333339, 0.016414165435630321, 0.19029864314861125,
	                     1.373810129845727};
	const double l[4] = {0.010259212882627442, 0.037913272152986593, 0.10584531139752797,
	                     6.4494513526481958};
	const double th[4] = {1.8381674000899237, 1.7894753996177155, -2.0228415505654627,
	                      2.9764804218756269};
	const double lam[4] = {0.00073165372276216899, 0.0080657395865206486, 0.0,
	                       5.8173525284150864};
	for (int k = 0; k < 4; ++k) {
		p.m[k] = m[k];
		p.l[k] = l[k];
		p.theta_init[k] = th[k];
		p.lambda[k] = lam[k];
		p.sigma[k] = 0.0;
	}
	p.sigma[1] = -0.15135359817847077;
	p.pivot_x_amp = 0.015298271180509922;
	p.pivot_x_freq = 11.143017624916908;
	p.pivot_y_amp = 0.0042056402990170005;
	p.pivot_y_freq = 12.775636021537364;
	pendula_engine *e = pendula_engine_new(48000.0, &p);
	static float buf[2][256];
	pendula_outputs o;
	memset(&o, 0, sizeof(o));
	uint64_t capped[2];
	for (int run = 0; run < 2; ++run) {
		o.ch[PENDULA_CH_ENERGY] = buf[run];
		pendula_engine_run(e, 256, &o);
		pendula_stats st;
		pendula_engine_stats(e, &st);
		capped[run] = st.capped_frames;
		CU_ASSERT(test_work_within_cap(&st));
		pendula_engine_reset(e);
	}
	printf("  a dear start: %llu frames capped in the first block, %llu after a reset\n",
	       (unsigned long long)capped[0], (unsigned long long)(capped[1] - capped[0]));
	CU_ASSERT(capped[1] == 0);
	CU_ASSERT(memcmp(buf[0], buf[1], sizeof(buf[0])) == 0);
	pendula_engine_free(e);
}

/* Time standing still (time_scale 0, which the engine API allows; the
 * plugin's is at least 0.01) for more than 2^31 frames, in calls that do
 * not divide 2^31: every frame holds the state, and when time runs again
 * the motion is the one of an engine that stood still for a single block.
 * The frame count within a step used to grow with every frame and to
 * overflow the output writers' int32 arithmetic (undefined behaviour; the
 * engine_ubsan test, this file built with -fsanitize=undefined, aborted
 * here). */
static void test_time_stands_still(void)
{
	pendula_params p;
	pendula_params_default(&p, PENDULA_MODEL_DOUBLE);
	p.time_scale = 0.0;
	pendula_engine *a = pendula_engine_new(48000.0, &p);
	pendula_engine *b = pendula_engine_new(48000.0, &p);
	enum { BLOCK = 1000003 }; /* a prime: no call ends at 2^31 */
	static float out_a[BLOCK], out_b[BLOCK];
	pendula_outputs none, oa, ob;
	memset(&none, 0, sizeof(none));
	memset(&oa, 0, sizeof(oa));
	memset(&ob, 0, sizeof(ob));
	oa.ch[PENDULA_CH_THETA] = out_a;
	ob.ch[PENDULA_CH_THETA] = out_b;
	const uint32_t block = BLOCK;
	uint64_t frames = 0;
	while (frames < (1ull << 31) - 3 * (uint64_t)block) {
		pendula_engine_run(a, block, &none);
		frames += block;
	}
	pendula_engine_run(b, 4096, &ob);
	const float held = out_b[0];
	bool still = true;
	for (int i = 0; i < 8; ++i) { /* across 2^31 frames, written */
		pendula_engine_run(a, block, &oa);
		frames += block;
		for (uint32_t f = 0; f < block; ++f)
			still &= out_a[f] == held;
	}
	pendula_frame fa, fb;
	pendula_engine_tick(a, &fa);
	pendula_engine_tick(b, &fb);
	printf("  %.3g frames with time standing: t = %g, theta1 held at %g: %s\n", (double)frames,
	       fa.t, (double)held, still ? "yes" : "no");
	CU_ASSERT(still);
	CU_ASSERT(fa.t == 0.0 && fb.t == 0.0);
	/* time runs again */
	p.time_scale = 1.0;
	pendula_engine_set_params(a, &p);
	pendula_engine_set_params(b, &p);
	bool same = true;
	for (int i = 0; i < 12; ++i) {
		pendula_engine_run(a, 4096, &oa);
		pendula_engine_run(b, 4096, &ob);
		same &= memcmp(out_a, out_b, 4096 * sizeof(float)) == 0;
	}
	pendula_engine_tick(a, &fa);
	pendula_engine_tick(b, &fb);
	printf("  then 1 s at time_scale 1: t = %.6f, the same frames as after one block: %s\n",
	       fa.t, same ? "yes" : "no");
	CU_ASSERT(same);
	CU_ASSERT(fa.t == fb.t && fa.t > 1.0);
	pendula_engine_free(a);
	pendula_engine_free(b);
}

static void test_memory(void)
{
	printf("  engine state: %lu bytes\n", pendula_engine_size());
	/* Cache residency of many instances (bench_instances): 4088 bytes
	 * until the angles' septic interpolant (its jerks and two more
	 * coefficients per angle, 144 bytes) let the steps of the angle
	 * models double; instances per core went up with it.  Since then a
	 * settings serial (4 bytes, for the inline display), the angle rows'
	 * slope bounds (48, for the event scan) and the step's work (8, for
	 * the energy check): 4336. */
	CU_ASSERT(pendula_engine_size() <= 4096 + 256);
}

static CU_TestInfo engine_tests[] = {
    {"defaults match the port table", test_defaults_match_port_table},
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
    {"model B reproduces model A", test_parallel_reproduces_double},
    {"accelerations vs independent evaluations", test_accelerations_independent},
    {"symplectic step map", test_symplectic},
    {"time reversible", test_time_reversible},
    {"order 6", test_order},
    {"block-size independence and reset", test_block_size_independent},
    {"sample-rate independence", test_sample_rate_independent},
    {"smooth output, continuous parameter changes", test_smooth_and_continuous},
    {"bodies added while running", test_bodies_added},
    {"the state at the end of the current step", test_engine_state},
    {"new settings act within 10 ms at any time scale", test_settings_latency},
    {"stiff and extreme settings", test_stiff_and_extreme},
    {"random settings inside the ranges", test_random_settings_in_range},
    {"non-finite state restarts", test_non_finite_restarts},
    {"no subnormals", test_no_subnormals},
    {"work cap", test_work_cap},
    {"a reset starts with the carry-over", test_start_credit},
    {"time standing still for 2^31 frames", test_time_stands_still},
    {"memory", test_memory},
    CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
    {"engine", NULL, NULL, NULL, NULL, engine_tests},
    CU_SUITE_INFO_NULL,
};

int main(void)
{
	return test_cunit_main("test_engine", suites);
}
