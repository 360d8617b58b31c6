/* SPDX-License-Identifier: ISC */
/*
 * Pendula physics engine.  See pendula_engine.h for the conventions and
 * ../../README.md ("How the engine works") for the design in prose.
 *
 * Equations (the note's section 3, with its errata applied):
 *
 *   R11 = I_O1 + sum_k m_k b_k^2,  R1k = a_k C_k,  Rkk = J_k = I_Gk + m_k c_k^2
 *   a_k = m_k b_k c_k,  C_k = cos(th1 + beta_k - thk),  S_k = sin(...)
 *   U   = -g [ |Z| cos(th1 + gamma) + sum_k m_k c_k cos thk ],
 *         Z = m1 c1 + sum_k m_k b_k e^{i beta_k} = |Z| e^{i gamma}
 *   p = R thdot,  pdot = dT/dth - dU_eff/dth + sigma - lambda thdot
 *
 * U_eff uses the effective gravity (gx, gy) = (-Gamma''x, -g - Gamma''y) of
 * the frame moving with the pivot, so pivot forcing keeps the system
 * Hamiltonian (time-dependent).  The double pendulum is the case N = 2 with
 * point masses.
 *
 * Integrator: a symmetric 4th-order composition (Suzuki's five stages) of
 * the implicit midpoint rule applied to the Hamiltonian equations in
 * (theta, p).  Implicit midpoint is symplectic for any Hamiltonian, separable
 * or not, and symmetric; so is the composition.  The midpoint equations are
 * solved by fixed-point iteration in which the damping term is taken
 * implicitly (R + h/2 Lambda is still an arrowhead matrix, solved in O(N)).
 *
 * Audio rate: the integrator takes steps of a simulated length h that does
 * not depend on the sample rate (a power-of-two fraction of H_MAX chosen from
 * the stiffness of the current settings and energy), and each audio frame
 * reads a cubic Hermite interpolant of the outputs over the current step
 * (value and time derivative at both ends: C1 in time, 4th-order accurate).
 */
#include "pendula_engine.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846
#define TWO_PI 6.28318530717958647692

/* Largest step, simulated seconds: 2^-9 s. */
#define H_MAX (1.0 / 512.0)
/* Smallest step level: H_MAX 2^-J_MAX. */
#define J_MAX 24
/* Step-size factors: h <= KAPPA / rate for each kind of rate. */
#define KAPPA_SLOW 0.05   /* small-oscillation frequency and speed, rad */
#define KAPPA_FORCE 0.1   /* forcing: about 63 steps per forcing period */
#define KAPPA_DAMP 1.0    /* damping rate: the composed decay per step is within 0.5 % of exact */
/* Hysteresis before a step is allowed to grow again. */
#define GROW_MARGIN 1.5
/* Work caps: at most MAX_STEPS_PER_SECOND steps (5 implicit midpoint solves
 * each) per second of audio, i.e. 4 per frame at 48 kHz and never fewer
 * than 4 per frame; a solve takes at most MAX_ITERATIONS fixed-point
 * iterations.  Beyond the cap simulated time slows down for that frame. */
#define MAX_STEPS_PER_SECOND 192000.0
#define MIN_STEPS_PER_FRAME 4
#define MAX_ITERATIONS 10
/* Fixed-point tolerance on the angle increment, rad. */
#define ITERATION_TOL 1e-14
/* State values below this are flushed to zero (keeps out of subnormals). */
#define FLUSH_BELOW 1e-30

/* Suzuki's fractal 4th-order composition (Phys. Lett. A 146, 1990):
 * stages g1, g1, g2, g1, g1 with g1 = 1 / (4 - 4^(1/3)), g2 = 1 - 4 g1.
 * Measured here against Yoshida's triple jump: five solves instead of three,
 * but the same energy error at twice the step, so fewer solves per second
 * of simulated time; and the one negative stage is short (-0.66 h rather
 * than -1.70 h), which keeps the implicitly damped stages well inside their
 * stable range. */
static const double SZ_G1 = 0.41449077179437573714;
static const double SZ_G2 = -0.65796308717750294856;

/* ------------------------------------------------------------------------ */
/* Parameters                                                               */

void pendula_params_default(pendula_params *p, pendula_model model)
{
	memset(p, 0, sizeof(*p));
	p->model = model;
	p->time_scale = 1.0;
	p->gravity = 9.81;
	if (model == PENDULA_MODEL_DOUBLE) {
		p->n_bodies = 2;
		p->m[0] = p->m[1] = 1.0;
		p->l[0] = p->l[1] = 1.0;
		p->theta_init[0] = 120.0 * PI / 180.0;
		p->theta_init[1] = -60.0 * PI / 180.0;
	} else {
		/* A Chaos Man: a body with three arms hinged above its pivot. */
		p->n_bodies = 3;
		p->m[0] = 1.0;
		p->m[1] = p->m[2] = p->m[3] = 0.25;
		p->c[0] = 0.2;
		p->c[1] = p->c[2] = p->c[3] = 0.25;
		p->inertia[0] = 0.02;
		p->inertia[1] = p->inertia[2] = p->inertia[3] = 0.005;
		p->b[1] = p->b[2] = p->b[3] = 0.3;
		p->beta[1] = 120.0 * PI / 180.0;
		p->beta[2] = -120.0 * PI / 180.0;
		p->beta[3] = PI;
		p->theta_init[0] = 30.0 * PI / 180.0;
		p->theta_init[1] = 100.0 * PI / 180.0;
		p->theta_init[2] = -90.0 * PI / 180.0;
		p->theta_init[3] = 150.0 * PI / 180.0;
	}
}

static double finite_or(double x, double fallback)
{
	return isfinite(x) ? x : fallback;
}

static double positive(double x, double floor_value)
{
	x = finite_or(x, floor_value);
	return x > floor_value ? x : floor_value;
}

static double nonneg(double x)
{
	x = finite_or(x, 0.0);
	return x > 0.0 ? x : 0.0;
}

void pendula_system_init(pendula_system *sys, const pendula_params *p)
{
	memset(sys, 0, sizeof(*sys));
	const double g = positive(p->gravity, 0.0);
	sys->g = g;
	double zr, zi; /* Z = m1 c1 + sum m_k b_k e^{i beta_k} */
	double sum_mc = 0.0;

	if (p->model == PENDULA_MODEL_DOUBLE) {
		const double m1 = positive(p->m[0], 1e-9), m2 = positive(p->m[1], 1e-9);
		const double l1 = positive(p->l[0], 1e-9), l2 = positive(p->l[1], 1e-9);
		sys->n = 2;
		sys->i_o1 = m1 * l1 * l1;
		sys->r11 = sys->i_o1 + m2 * l1 * l1;
		sys->j[1] = m2 * l2 * l2;
		sys->a[1] = m2 * l1 * l2;
		sys->cos_beta[1] = 1.0;
		sys->sin_beta[1] = 0.0;
		zr = (m1 + m2) * l1;
		zi = 0.0;
		sys->lever[1] = m2 * l2;
		sum_mc = m2 * l2;
		sys->has_tip = 1;
		sys->tip_b = l1;
		sys->tip_c = l2;
		sys->tip_scale = 1.0 / (l1 + l2);
	} else {
		int n = p->n_bodies;
		if (n < 1)
			n = 1;
		if (n > PENDULA_MAX_BODIES)
			n = PENDULA_MAX_BODIES;
		sys->n = n;
		const double m1 = positive(p->m[0], 1e-9);
		const double c1 = nonneg(p->c[0]);
		sys->i_o1 = positive(p->inertia[0], 1e-12) + m1 * c1 * c1;
		sys->r11 = sys->i_o1;
		zr = m1 * c1;
		zi = 0.0;
		for (int k = 1; k < n; ++k) {
			const double mk = positive(p->m[k], 1e-9);
			const double bk = nonneg(p->b[k]);
			const double ck = nonneg(p->c[k]);
			const double beta = finite_or(p->beta[k], 0.0);
			sys->r11 += mk * bk * bk;
			sys->j[k] = positive(p->inertia[k], 1e-12) + mk * ck * ck;
			sys->a[k] = mk * bk * ck;
			sys->cos_beta[k] = cos(beta);
			sys->sin_beta[k] = sin(beta);
			zr += mk * bk * sys->cos_beta[k];
			zi += mk * bk * sys->sin_beta[k];
			sys->lever[k] = mk * ck;
			sum_mc += mk * ck;
		}
		sys->has_tip = 0;
		sys->tip_scale = 0.0;
	}
	const double zabs = hypot(zr, zi);
	sys->lever[0] = zabs;
	sys->lever_cos[0] = zabs > 0.0 ? zr / zabs : 1.0;
	sys->lever_sin[0] = zabs > 0.0 ? zi / zabs : 0.0;
	for (int k = 1; k < sys->n; ++k) {
		sys->lever_cos[k] = 1.0;
		sys->lever_sin[k] = 0.0;
	}

	for (int k = 0; k < sys->n; ++k) {
		sys->lambda[k] = nonneg(p->lambda[k]);
		sys->sigma[k] = finite_or(p->sigma[k], 0.0);
	}
	const double dx = nonneg(p->pivot_x_amp), dy = nonneg(p->pivot_y_amp);
	const double fx = nonneg(p->pivot_x_freq), fy = nonneg(p->pivot_y_freq);
	sys->pivot_x_amp = dx;
	sys->pivot_y_amp = dy;
	sys->omega_x = TWO_PI * fx;
	sys->omega_y = TWO_PI * fy;
	sys->force_x_amp = dx * sys->omega_x * sys->omega_x;
	sys->force_y_amp = dy * sys->omega_y * sys->omega_y;
	sys->forced = sys->force_x_amp > 0.0 || sys->force_y_amp > 0.0;

	/* README.md: U_max - U_min = 2 g (|Z| + sum m_k c_k), floored at 1e-6 J. */
	sys->energy_min = -g * (zabs + sum_mc);
	sys->energy_range = 2.0 * g * (zabs + sum_mc);
	if (!(sys->energy_range > 1e-6))
		sys->energy_range = 1e-6;

	/* Bounds on diag(R^-1) over all angles (worst case |C_k| = 1):
	 * s = R11 - sum a_k^2 / J_k = I_O1 + sum m_k b_k^2 I_Gk / J_k > 0. */
	double s = sys->r11;
	for (int k = 1; k < sys->n; ++k)
		s -= sys->a[k] * sys->a[k] / sys->j[k];
	if (!(s > 1e-300))
		s = 1e-300;
	sys->inv_r_diag_max[0] = 1.0 / s;
	for (int k = 1; k < sys->n; ++k) {
		const double q = sys->a[k] / sys->j[k];
		sys->inv_r_diag_max[k] = 1.0 / sys->j[k] + q * q / s;
	}

	/* Stiffness rates that do not depend on the state (1/s). */
	const double g_max = hypot(g + sys->force_y_amp, sys->force_x_amp);
	double omega2 = 0.0, damp = 0.0;
	for (int k = 0; k < sys->n; ++k) {
		/* K is diagonal at equilibrium (U is separable in the angles),
		 * so the largest normal-mode omega^2 <= trace(R^-1 K). */
		omega2 += sys->inv_r_diag_max[k] * sys->lever[k] * g_max;
		damp += sys->inv_r_diag_max[k] * sys->lambda[k];
	}
	double h = H_MAX;
	const double omega_nat = sqrt(omega2);
	if (omega_nat * h > KAPPA_SLOW)
		h = KAPPA_SLOW / omega_nat;
	if (damp * h > KAPPA_DAMP)
		h = KAPPA_DAMP / damp;
	if (dx > 0.0 && sys->omega_x * h > KAPPA_FORCE)
		h = KAPPA_FORCE / sys->omega_x;
	if (dy > 0.0 && sys->omega_y * h > KAPPA_FORCE)
		h = KAPPA_FORCE / sys->omega_y;
	sys->h_params = h;
}

/* ------------------------------------------------------------------------ */
/* sin and cos together                                                     */

/*
 * The integrator spends most of its time on sin and cos of the angles, which
 * stay within a few radians of zero (they are wrapped every step).  Reduce by
 * multiples of pi/2 (pi/2 split in two parts, so k * PIO2_HI is exact for
 * |k| < 2^20) and evaluate the Taylor series on |r| <= pi/4, where the first
 * omitted terms (r^17/17!, r^18/18!) are below 1e-16.  Arguments too large
 * for that reduction go to the C library.
 */
#define PIO2_HI 1.57079632673412561417e+00 /* first 33 bits of pi/2 */
#define PIO2_LO 6.07710050650619224932e-11 /* pi/2 - PIO2_HI */
#define TWO_OVER_PI 6.36619772367581382433e-01

static inline void fast_sincos(double x, double *s, double *c)
{
	if (!(fabs(x) < 1.0e5)) {
		*s = sin(x);
		*c = cos(x);
		return;
	}
	/* nearest integer to x 2/pi (round-to-nearest addition trick) */
	const double shifter = 6755399441055744.0; /* 1.5 * 2^52 */
	const double kd = (x * TWO_OVER_PI + shifter) - shifter;
	const int k = (int)kd;
	const double r = (x - kd * PIO2_HI) - kd * PIO2_LO;
	const double r2 = r * r;
	/* Taylor: sin r = r - r^3/3! + ... - r^15/15!, cos r = 1 - r^2/2! + ... + r^16/16! */
	const double sp = -1.0 / 6.0 + r2 * (1.0 / 120.0 + r2 * (-1.0 / 5040.0 +
	                  r2 * (1.0 / 362880.0 + r2 * (-1.0 / 39916800.0 +
	                  r2 * (1.0 / 6227020800.0 + r2 * (-1.0 / 1307674368000.0))))));
	const double cp = 1.0 / 24.0 + r2 * (-1.0 / 720.0 + r2 * (1.0 / 40320.0 +
	                  r2 * (-1.0 / 3628800.0 + r2 * (1.0 / 479001600.0 +
	                  r2 * (-1.0 / 87178291200.0 + r2 * (1.0 / 20922789888000.0))))));
	const double sr = r + r * r2 * sp;
	const double cr = 1.0 - (0.5 * r2 - r2 * r2 * cp);
	switch (k & 3) {
	case 0: *s = sr; *c = cr; break;
	case 1: *s = cr; *c = -sr; break;
	case 2: *s = -sr; *c = -cr; break;
	default: *s = -cr; *c = sr; break;
	}
}

/* ------------------------------------------------------------------------ */
/* Physics at one state (the reference evaluations; the integrator inlines   */
/* the same formulas).                                                      */

typedef struct {
	double s[PENDULA_MAX_BODIES], c[PENDULA_MAX_BODIES]; /* sin, cos th_k */
	double ck[PENDULA_MAX_BODIES], sk[PENDULA_MAX_BODIES]; /* C_k, S_k */
	double lever_s1, lever_c1; /* sin, cos (th1 + gamma) */
} trig_cache;

static inline void trig_fill(const pendula_system *sys, const double *theta,
                             trig_cache *tc, const int n)
{
	/* Body 1 always exists (n >= 1). */
	fast_sincos(theta[0], &tc->s[0], &tc->c[0]);
	for (int k = 1; k < n; ++k)
		fast_sincos(theta[k], &tc->s[k], &tc->c[k]);
	tc->lever_s1 = tc->s[0] * sys->lever_cos[0] + tc->c[0] * sys->lever_sin[0];
	tc->lever_c1 = tc->c[0] * sys->lever_cos[0] - tc->s[0] * sys->lever_sin[0];
	for (int k = 1; k < n; ++k) {
		/* angle th1 + beta_k - th_k */
		const double sb = tc->s[0] * sys->cos_beta[k] + tc->c[0] * sys->sin_beta[k];
		const double cb = tc->c[0] * sys->cos_beta[k] - tc->s[0] * sys->sin_beta[k];
		tc->ck[k] = cb * tc->c[k] + sb * tc->s[k];
		tc->sk[k] = sb * tc->c[k] - cb * tc->s[k];
	}
}

/* Solves M x = y for the arrowhead matrix M with diagonal (d0, 1/inv[k]) and
 * off-diagonal entries R1k = a_k C_k at the cached angles: M is R, or
 * R + h/2 Lambda inside the midpoint iteration.  O(n), one division. */
static inline void arrow_solve(const pendula_system *sys, const trig_cache *tc,
                               double d0, const double *inv, const double *y,
                               double *x, const int n)
{
	double den = d0, num = y[0];
	double v[PENDULA_MAX_BODIES];
	for (int k = 1; k < n; ++k) {
		v[k] = sys->a[k] * tc->ck[k];
		den -= v[k] * v[k] * inv[k];
		num -= v[k] * y[k] * inv[k];
	}
	x[0] = num / den;
	for (int k = 1; k < n; ++k)
		x[k] = (y[k] - v[k] * x[0]) * inv[k];
}

static inline void inverse_diag(const pendula_system *sys, double extra_factor,
                                double *inv, const int n)
{
	for (int k = 1; k < n; ++k)
		inv[k] = 1.0 / (sys->j[k] + extra_factor * sys->lambda[k]);
}

static void effective_gravity(const pendula_system *sys, double phase_x,
                              double phase_y, double *gx, double *gy)
{
	*gx = 0.0;
	*gy = -sys->g;
	if (sys->force_x_amp > 0.0)
		*gx = sys->force_x_amp * sin(phase_x);
	if (sys->force_y_amp > 0.0)
		*gy += sys->force_y_amp * cos(phase_y);
}

void pendula_mass_matrix(const pendula_system *sys, const double *theta,
                         double r[PENDULA_MAX_BODIES][PENDULA_MAX_BODIES])
{
	trig_cache tc;
	trig_fill(sys, theta, &tc, sys->n);
	memset(r, 0, sizeof(double) * PENDULA_MAX_BODIES * PENDULA_MAX_BODIES);
	r[0][0] = sys->r11;
	for (int k = 1; k < sys->n; ++k) {
		r[0][k] = r[k][0] = sys->a[k] * tc.ck[k];
		r[k][k] = sys->j[k];
	}
}

void pendula_velocity(const pendula_system *sys, const double *theta,
                      const double *p, double *omega)
{
	trig_cache tc;
	double inv[PENDULA_MAX_BODIES];
	trig_fill(sys, theta, &tc, sys->n);
	inverse_diag(sys, 0.0, inv, sys->n);
	arrow_solve(sys, &tc, sys->r11, inv, p, omega, sys->n);
}

void pendula_momentum(const pendula_system *sys, const double *theta,
                      const double *omega, double *p)
{
	trig_cache tc;
	trig_fill(sys, theta, &tc, sys->n);
	p[0] = sys->r11 * omega[0];
	for (int k = 1; k < sys->n; ++k) {
		p[0] += sys->a[k] * tc.ck[k] * omega[k];
		p[k] = sys->a[k] * tc.ck[k] * omega[0] + sys->j[k] * omega[k];
	}
}

/* Generalised gravity (effective) force -dU_eff/dth_k. */
static inline void gravity_force(const pendula_system *sys, const trig_cache *tc,
                                 double gx, double gy, double *f, const int n)
{
	f[0] = sys->lever[0] * (gx * tc->lever_c1 + gy * tc->lever_s1);
	for (int k = 1; k < n; ++k)
		f[k] = sys->lever[k] * (gx * tc->c[k] + gy * tc->s[k]);
}

static inline void accel_at(const pendula_system *sys, const trig_cache *tc,
                            const double *omega, double gx, double gy,
                            double *accel, const int n)
{
	double rhs[PENDULA_MAX_BODIES], inv[PENDULA_MAX_BODIES];
	gravity_force(sys, tc, gx, gy, rhs, n);
	/* R thddot = dT/dth - Rdot thdot - dU/dth + F:
	 *   row 1: - sum a_k S_k thdot_k^2,  row k: + a_k S_k thdot_1^2 */
	for (int k = 0; k < n; ++k)
		rhs[k] += sys->sigma[k] - sys->lambda[k] * omega[k];
	for (int k = 1; k < n; ++k) {
		const double as = sys->a[k] * tc->sk[k];
		rhs[0] -= as * omega[k] * omega[k];
		rhs[k] += as * omega[0] * omega[0];
	}
	inverse_diag(sys, 0.0, inv, n);
	arrow_solve(sys, tc, sys->r11, inv, rhs, accel, n);
}

void pendula_accel(const pendula_system *sys, const double *theta,
                   const double *omega, double phase_x, double phase_y,
                   double *accel)
{
	trig_cache tc;
	double gx, gy;
	trig_fill(sys, theta, &tc, sys->n);
	effective_gravity(sys, phase_x, phase_y, &gx, &gy);
	accel_at(sys, &tc, omega, gx, gy, accel, sys->n);
}

static inline double energy_at(const pendula_system *sys, const trig_cache *tc,
                               const double *omega, const int n)
{
	double t2 = sys->r11 * omega[0] * omega[0];
	double u = -sys->lever[0] * tc->lever_c1;
	for (int k = 1; k < n; ++k) {
		t2 += 2.0 * sys->a[k] * tc->ck[k] * omega[0] * omega[k] +
		      sys->j[k] * omega[k] * omega[k];
		u -= sys->lever[k] * tc->c[k];
	}
	return 0.5 * t2 + sys->g * u;
}

double pendula_energy(const pendula_system *sys, const double *theta,
                      const double *omega)
{
	trig_cache tc;
	trig_fill(sys, theta, &tc, sys->n);
	return energy_at(sys, &tc, omega, sys->n);
}

double pendula_energy_normalised(const pendula_system *sys, double energy)
{
	return (energy - sys->energy_min) / sys->energy_range;
}

static inline double power_at(const pendula_system *sys, const trig_cache *tc,
                              const double *omega, double gx, double gy, const int n)
{
	/* dE/dt = sum (sigma - lambda w) w + w^T Q, Q = the forcing part of
	 * -dU_eff/dth, i.e. gravity_force with (gx, gy + g). */
	double q[PENDULA_MAX_BODIES];
	double pw = 0.0;
	gravity_force(sys, tc, gx, gy + sys->g, q, n);
	for (int k = 0; k < n; ++k)
		pw += (sys->sigma[k] - sys->lambda[k] * omega[k] + q[k]) * omega[k];
	return pw;
}

double pendula_power(const pendula_system *sys, const double *theta,
                     const double *omega, double phase_x, double phase_y)
{
	trig_cache tc;
	double gx, gy;
	trig_fill(sys, theta, &tc, sys->n);
	effective_gravity(sys, phase_x, phase_y, &gx, &gy);
	return power_at(sys, &tc, omega, gx, gy, sys->n);
}

void pendula_pivot(const pendula_system *sys, double phase_x, double phase_y,
                   double *x, double *y)
{
	*x = sys->pivot_x_amp * sin(phase_x);
	*y = sys->pivot_y_amp * cos(phase_y);
}

/* ------------------------------------------------------------------------ */
/* The integrator                                                           */

static inline double wrap_phase(double phase)
{
	if (phase >= TWO_PI || phase < 0.0)
		phase -= TWO_PI * floor(phase / TWO_PI);
	return phase;
}

/* Guess of the midpoint velocity: linear extrapolation in time from the
 * last two midpoint velocities (each solve starts O(h^2) from its answer,
 * which saves about one fixed-point iteration per solve). */
#define N_STAGES 5
typedef struct {
	double w[3][PENDULA_MAX_BODIES]; /* oldest first */
	double t[3];
	int count;
	/* The extrapolation's error at each stage of the previous step: it
	 * changes little from one step to the next, so adding it back removes
	 * most of the error of the next guess. */
	double correction[N_STAGES][PENDULA_MAX_BODIES];
	int stage;          /* stage of the composition being solved */
	double stage_h;     /* step the corrections were learnt at (0: none) */
} predictor;

static void predictor_start(predictor *pr, const double *omega, double t)
{
	memcpy(pr->w[2], omega, sizeof(pr->w[2]));
	pr->t[2] = t;
	pr->count = 1;
	memset(pr->correction, 0, sizeof(pr->correction));
	pr->stage = 0;
	pr->stage_h = 0.0;
}

/*
 * One implicit midpoint step in (theta, p):
 *   z1 = z0 + h f(z_m),  z_m = (z0 + z1) / 2,
 * solved for the midpoint velocity w_m by fixed-point iteration:
 *   th_m = th0 + h/2 w_m,
 *   (R(th_m) + h/2 Lambda) w_m = p0 + h/2 [dT/dth(th_m, w_m) - dU_eff/dth(th_m) + sigma]
 * (the damping is implicit, so a heavily damped joint does not slow the
 * iteration).  At the fixed point, p_m = R(th_m) w_m and
 * z1 = 2 z_m - z0 exactly as the midpoint rule says.
 */
static inline __attribute__((always_inline)) int
midpoint_n(const pendula_system *sys, pendula_state *s, double h,
           predictor *pr, const int n)
{
	const double hh = 0.5 * h;
	const double t_mid = s->t + hh;
	double gx = 0.0, gy = -sys->g;
	if (sys->forced)
		effective_gravity(sys, s->phase_x + sys->omega_x * hh,
		                  s->phase_y + sys->omega_y * hh, &gx, &gy);

	double inv[PENDULA_MAX_BODIES], th_m[PENDULA_MAX_BODIES], w[PENDULA_MAX_BODIES];
	double f[PENDULA_MAX_BODIES], rhs[PENDULA_MAX_BODIES];
	const double d0 = sys->r11 + hh * sys->lambda[0];
	inverse_diag(sys, hh, inv, n);
	const double *t3 = pr->t;
	if (pr->count >= 3 && t3[0] != t3[1] && t3[1] != t3[2] && t3[0] != t3[2]) {
		/* Lagrange weights of the parabola through the last three */
		const double l0 = (t_mid - t3[1]) * (t_mid - t3[2]) / ((t3[0] - t3[1]) * (t3[0] - t3[2]));
		const double l1 = (t_mid - t3[0]) * (t_mid - t3[2]) / ((t3[1] - t3[0]) * (t3[1] - t3[2]));
		const double l2 = (t_mid - t3[0]) * (t_mid - t3[1]) / ((t3[2] - t3[0]) * (t3[2] - t3[1]));
		for (int k = 0; k < n; ++k)
			w[k] = l0 * pr->w[0][k] + l1 * pr->w[1][k] + l2 * pr->w[2][k];
	} else if (pr->count >= 2 && t3[1] != t3[2]) {
		const double x = (t_mid - t3[2]) / (t3[2] - t3[1]);
		for (int k = 0; k < n; ++k)
			w[k] = pr->w[2][k] + (pr->w[2][k] - pr->w[1][k]) * x;
	} else {
		for (int k = 0; k < n; ++k)
			w[k] = pr->w[2][k];
	}
	double extrapolated[PENDULA_MAX_BODIES];
	const int learn = pr->stage >= 0 && pr->stage < N_STAGES;
	for (int k = 0; k < n; ++k) {
		extrapolated[k] = w[k];
		if (learn)
			w[k] += pr->correction[pr->stage][k];
	}

	int it = 0;
	trig_cache tc;
	while (it < MAX_ITERATIONS) {
		++it;
		for (int k = 0; k < n; ++k)
			th_m[k] = s->theta[k] + hh * w[k];
		trig_fill(sys, th_m, &tc, n);
		gravity_force(sys, &tc, gx, gy, f, n);
		for (int k = 0; k < n; ++k)
			f[k] += sys->sigma[k];
		for (int k = 1; k < n; ++k) {
			/* dT/dth_1 = -sum a_k S_k w1 wk, dT/dth_k = +a_k S_k w1 wk */
			const double t = sys->a[k] * tc.sk[k] * w[0] * w[k];
			f[0] -= t;
			f[k] += t;
		}
		for (int k = 0; k < n; ++k)
			rhs[k] = s->p[k] + hh * f[k];
		double w_new[PENDULA_MAX_BODIES];
		arrow_solve(sys, &tc, d0, inv, rhs, w_new, n);
		double change = 0.0;
		for (int k = 0; k < n; ++k) {
			const double d = fabs(w_new[k] - w[k]);
			change = d > change ? d : change;
			w[k] = w_new[k];
		}
		const double step_change = change * fabs(h);
		if (!(step_change > ITERATION_TOL))
			break; /* converged (or NaN: caught by the caller) */
	}
	for (int k = 0; k < n; ++k) {
		s->theta[k] += h * w[k];
		s->p[k] += h * (f[k] - sys->lambda[k] * w[k]);
		pr->w[0][k] = pr->w[1][k];
		pr->w[1][k] = pr->w[2][k];
		pr->w[2][k] = w[k];
		if (learn)
			pr->correction[pr->stage][k] = w[k] - extrapolated[k];
	}
	pr->t[0] = pr->t[1];
	pr->t[1] = pr->t[2];
	pr->t[2] = t_mid;
	pr->count++;
	s->phase_x = wrap_phase(s->phase_x + sys->omega_x * h);
	s->phase_y = wrap_phase(s->phase_y + sys->omega_y * h);
	s->t += h;
	return it;
}

static inline __attribute__((always_inline)) int
composition_n(const pendula_system *sys, pendula_state *s, double h,
              predictor *pr, const int n)
{
	static const double stage[N_STAGES] = {SZ_G1, SZ_G1, SZ_G2, SZ_G1, SZ_G1};
	if (pr->stage_h != h) { /* corrections learnt at another step size */
		memset(pr->correction, 0, sizeof(pr->correction));
		pr->stage_h = h;
	}
	int it = 0;
	for (int j = 0; j < N_STAGES; ++j) {
		pr->stage = j;
		it += midpoint_n(sys, s, stage[j] * h, pr, n);
	}
	pr->stage = -1;
	return it;
}

static int composition(const pendula_system *sys, pendula_state *s, double h,
                       predictor *pr)
{
	switch (sys->n) {
	case 1: return composition_n(sys, s, h, pr, 1);
	case 2: return composition_n(sys, s, h, pr, 2);
	case 3: return composition_n(sys, s, h, pr, 3);
	default: return composition_n(sys, s, h, pr, 4);
	}
}

int pendula_step(const pendula_system *sys, pendula_state *s, double h)
{
	double w[PENDULA_MAX_BODIES] = {0};
	predictor pr;
	pendula_velocity(sys, s->theta, s->p, w);
	predictor_start(&pr, w, s->t);
	return composition(sys, s, h, &pr);
}

int pendula_step_midpoint(const pendula_system *sys, pendula_state *s, double h)
{
	double w[PENDULA_MAX_BODIES] = {0};
	predictor pr;
	pendula_velocity(sys, s->theta, s->p, w);
	predictor_start(&pr, w, s->t);
	switch (sys->n) {
	case 1: return midpoint_n(sys, s, h, &pr, 1);
	case 2: return midpoint_n(sys, s, h, &pr, 2);
	case 3: return midpoint_n(sys, s, h, &pr, 3);
	default: return midpoint_n(sys, s, h, &pr, 4);
	}
}

/* ------------------------------------------------------------------------ */
/* The audio-rate engine                                                    */

/* Output channels of the interpolant. */
enum {
	CH_THETA = 0,
	CH_TIP_X = PENDULA_MAX_BODIES,
	CH_TIP_Y,
	CH_ENERGY,
	CH_OMEGA, /* angular velocities: interpolated on their own (value and
	           * acceleration at both ends), for the double-precision API */
	N_CH = CH_OMEGA + PENDULA_MAX_BODIES,
	N_OUT_CH = CH_OMEGA /* the channels run() writes */
};

struct pendula_engine {
	double sample_rate;
	pendula_params params;  /* in force */
	pendula_params pending; /* from set_params, applied at the next step */
	int has_pending;
	pendula_system sys;
	pendula_state st;       /* state at the end of the current step */
	predictor pred;
	double omega[PENDULA_MAX_BODIES]; /* thdot at st */
	/* Current step: [t0, t0 + h], read at u in [0, 1]. */
	int level;              /* h = H_MAX 2^-level */
	double h;
	/* Frame i of the step reads the interpolant at u = u0 + i du: a function
	 * of the frame's index within the step only, so the output does not
	 * depend on how blocks split the frames. */
	double u0, du;
	uint32_t idx;
	int max_steps;          /* per frame, from MAX_STEPS_PER_SECOND */
	double clock_base, clock_h; /* st.t = clock_base + clock_steps * clock_h */
	uint64_t clock_steps;
	double step_phase_x, step_phase_y; /* forcing phases at the step start */
	double poly[N_CH][4];   /* Hermite interpolant in u, per channel */
	float fpoly[N_OUT_CH][4];   /* the same in output units (angles / pi), for run() */
	/* Angle channels that stay well inside (-1, 1) over the whole step:
	 * they need no wrapping per frame (most steps of most angles). */
	int wrap_free[PENDULA_MAX_BODIES];
	/* Angles as quintic Hermite interpolants (value, velocity and
	 * acceleration at both ends): the double-precision frames read theta and
	 * omega from these, omega to 5th order in h. */
	double qpoly[PENDULA_MAX_BODIES][6];
	int restarting;
	double end_val[N_CH], end_der[N_CH]; /* values, d/dt at the step end */
	int phase_request[2];
	double phase_value[2];
	/* The last frame produced.  run() only notes where it was (last_u on the
	 * current step) and pendula_engine_last() evaluates it on demand; it is
	 * written out before the interpolant or the phases change. */
	pendula_frame last;
	int last_lazy;
	double last_u;
	pendula_stats stats;
};

static double flush(double x)
{
	return fabs(x) < FLUSH_BELOW ? 0.0 : x;
}

static double wrap_angle(double x)
{
	if (x >= PI || x < -PI)
		x -= TWO_PI * floor((x + PI) / TWO_PI);
	if (x >= PI) /* rounding at the boundary */
		x -= TWO_PI;
	return x;
}

/* Angular velocities at the state st, and the values and time derivatives
 * of the output channels there (one evaluation of the trigonometry). */
static void measure(pendula_engine *e, double *val, double *der)
{
	const pendula_system *sys = &e->sys;
	const int n = sys->n;
	trig_cache tc;
	double inv[PENDULA_MAX_BODIES];
	trig_fill(sys, e->st.theta, &tc, n);
	inverse_diag(sys, 0.0, inv, n);
	arrow_solve(sys, &tc, sys->r11, inv, e->st.p, e->omega, n);
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		val[CH_THETA + k] = k < n ? e->st.theta[k] : 0.0;
		der[CH_THETA + k] = k < n ? e->omega[k] : 0.0;
	}
	if (sys->has_tip) {
		/* bob 2 = l1 (sin th1, -cos th1) + l2 (sin th2, -cos th2) */
		const double b = sys->tip_b * sys->tip_scale, c = sys->tip_c * sys->tip_scale;
		val[CH_TIP_X] = b * tc.s[0] + c * tc.s[1];
		val[CH_TIP_Y] = -b * tc.c[0] - c * tc.c[1];
		der[CH_TIP_X] = b * tc.c[0] * e->omega[0] + c * tc.c[1] * e->omega[1];
		der[CH_TIP_Y] = b * tc.s[0] * e->omega[0] + c * tc.s[1] * e->omega[1];
	} else {
		val[CH_TIP_X] = val[CH_TIP_Y] = der[CH_TIP_X] = der[CH_TIP_Y] = 0.0;
	}
	double gx, gy, acc[PENDULA_MAX_BODIES];
	effective_gravity(sys, e->st.phase_x, e->st.phase_y, &gx, &gy);
	val[CH_ENERGY] = pendula_energy_normalised(sys, energy_at(sys, &tc, e->omega, n));
	der[CH_ENERGY] = power_at(sys, &tc, e->omega, gx, gy, n) / sys->energy_range;
	accel_at(sys, &tc, e->omega, gx, gy, acc, n);
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		val[CH_OMEGA + k] = k < n ? e->omega[k] : 0.0;
		der[CH_OMEGA + k] = k < n ? acc[k] : 0.0;
	}
}

/* Step level for the current settings and energy, with hysteresis. */
static int choose_level(const pendula_engine *e, double energy_norm)
{
	const pendula_system *sys = &e->sys;
	/* Speed bound from the energy: T <= E - U_min, |w_k| <= sqrt(2 T R^-1_kk). */
	double t_max = energy_norm * sys->energy_range;
	if (!(t_max > 0.0))
		t_max = 0.0;
	/* Each joint's speed is bounded by its own share of the kinetic
	 * energy; the coupling terms see the relative speeds of body 1 and an
	 * arm, so the rate is the fastest joint plus body 1. */
	double fastest = 0.0;
	for (int k = 1; k < sys->n; ++k)
		fastest = fmax(fastest, sys->inv_r_diag_max[k]);
	const double speed = sqrt(2.0 * t_max * fastest) + sqrt(2.0 * t_max * sys->inv_r_diag_max[0]);
	double h_need = sys->h_params;
	if (speed * h_need > KAPPA_SLOW)
		h_need = KAPPA_SLOW / speed;
	if (!(h_need > 0.0)) /* NaN or an infinite speed */
		return J_MAX;
	int need = 0, relaxed = 0;
	double h = H_MAX;
	while (need < J_MAX && h > h_need) {
		++need;
		h *= 0.5;
	}
	h = H_MAX * GROW_MARGIN;
	while (relaxed < J_MAX && h > h_need) {
		++relaxed;
		h *= 0.5;
	}
	if (need > e->level)
		return need;      /* shrink at once */
	if (relaxed < e->level)
		return relaxed;   /* grow only with a margin */
	return e->level;
}

static void apply_pending(pendula_engine *e)
{
	if (!e->has_pending)
		return;
	e->has_pending = 0;
	const int old_n = e->sys.n;
	e->params = e->pending;
	pendula_system_init(&e->sys, &e->params);
	/* Bodies added while running start at their initial angle, at rest. */
	for (int k = old_n; k < e->sys.n; ++k) {
		e->st.theta[k] = wrap_angle(finite_or(e->params.theta_init[k], 0.0));
		e->omega[k] = 0.0;
	}
	for (int k = e->sys.n; k < PENDULA_MAX_BODIES; ++k)
		e->st.theta[k] = e->omega[k] = e->st.p[k] = 0.0;
	/* Keep theta and thdot continuous: p follows the new mass matrix. */
	pendula_momentum(&e->sys, e->st.theta, e->omega, e->st.p);
	predictor_start(&e->pred, e->omega, e->st.t);
}

static void frame_advance_setup(pendula_engine *e)
{
	const double ts = finite_or(e->params.time_scale, 1.0);
	const double du = (ts > 0.0 ? ts : 0.0) / e->sample_rate / e->h;
	if (du != e->du) {
		/* keep the current position, change the pace from here on */
		e->u0 = e->u0 + (double)e->idx * e->du;
		e->idx = 0;
		e->du = du;
	}
}

static void hermite(double *c, double y0, double d0, double y1, double d1, double h)
{
	c[0] = y0;
	c[1] = d0 * h;
	c[2] = 3.0 * (y1 - y0) - (2.0 * d0 + d1) * h;
	c[3] = 2.0 * (y0 - y1) + (d0 + d1) * h;
}

/* Quintic Hermite in u = (t - t0) / h from value, first and second time
 * derivatives at both ends. */
static void quintic(double *c, double y0, double v0, double a0, double y1, double v1,
                    double a1, double h)
{
	const double d0 = v0 * h, d1 = v1 * h, s0 = a0 * h * h, s1 = a1 * h * h;
	const double D = y1 - y0 - d0 - 0.5 * s0, E = d1 - d0 - s0, F = s1 - s0;
	c[0] = y0;
	c[1] = d0;
	c[2] = 0.5 * s0;
	c[3] = 10.0 * D - 4.0 * E + 0.5 * F;
	c[4] = -15.0 * D + 7.0 * E - F;
	c[5] = 6.0 * D - 3.0 * E + 0.5 * F;
}

static void restart(pendula_engine *e);
static void fill_frame(const pendula_engine *e, pendula_frame *f);
static void fill_frame_at(const pendula_engine *e, double u, pendula_frame *f);

static void materialize_last(pendula_engine *e)
{
	if (e->last_lazy) {
		fill_frame_at(e, e->last_u, &e->last);
		e->last_lazy = 0;
	}
}

/* Takes the next integration step: the step that ends at st begins the
 * new one; the interpolant runs from the old end values to the new ones. */
static void next_step(pendula_engine *e)
{
	double start_val[N_CH], start_der[N_CH];
	materialize_last(e);
	/* The new step starts where the last one ended (wrapped angles). */
	for (int k = 0; k < e->sys.n; ++k) {
		const double wrapped = wrap_angle(e->st.theta[k]);
		e->end_val[CH_THETA + k] += wrapped - e->st.theta[k];
		e->st.theta[k] = flush(wrapped);
		e->st.p[k] = flush(e->st.p[k]);
	}
	memcpy(start_val, e->end_val, sizeof(start_val));
	memcpy(start_der, e->end_der, sizeof(start_der));

	const int had_pending = e->has_pending;
	apply_pending(e);
	if (had_pending) {
		/* Channels of bodies that appeared or vanished start afresh. */
		for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
			start_val[CH_THETA + k] = k < e->sys.n ? e->st.theta[k] : 0.0;
			start_der[CH_THETA + k] = k < e->sys.n ? e->omega[k] : 0.0;
			start_val[CH_OMEGA + k] = k < e->sys.n ? e->omega[k] : 0.0;
			start_der[CH_OMEGA + k] = 0.0;
		}
	}

	double energy_now = start_val[CH_ENERGY];
	if (had_pending)
		energy_now = pendula_energy_normalised(
		    &e->sys, pendula_energy(&e->sys, e->st.theta, e->omega));
	const int level = choose_level(e, energy_now);
	if (level != e->level) {
		e->level = level;
		e->h = H_MAX * ldexp(1.0, -level);
	}
	e->step_phase_x = e->st.phase_x;
	e->step_phase_y = e->st.phase_y;

	/* Simulated time as t_base + k h (k steps of the current size since
	 * t_base): one rounding instead of one per stage, so t stays exact
	 * enough to phase a 1 kHz forcing after hours (a sum of stage lengths
	 * drifts by about 1e-9 s per million stages). */
	if (e->h != e->clock_h) {
		e->clock_base = e->st.t;
		e->clock_steps = 0;
		e->clock_h = e->h;
	}
	e->stats.iterations += (uint64_t)composition(&e->sys, &e->st, e->h, &e->pred);
	e->st.t = e->clock_base + (double)(++e->clock_steps) * e->h;
	e->stats.steps++;
	/* A damped motion decays towards zero; keep it out of the subnormal
	 * range, where arithmetic is slow. */
	for (int k = 0; k < e->sys.n; ++k) {
		e->st.theta[k] = flush(e->st.theta[k]);
		e->st.p[k] = flush(e->st.p[k]);
	}
	measure(e, e->end_val, e->end_der);
	int finite = 1;
	for (int ch = 0; ch < N_CH; ++ch)
		finite &= isfinite(e->end_val[ch]) && isfinite(e->end_der[ch]);
	if (!finite) {
		/* Last resort (README.md): a state that is no longer finite
		 * restarts from the initial state. */
		e->stats.restarts++;
		if (!e->restarting) {
			restart(e);
			return;
		}
		/* Even the initial state fails (cannot happen with settings
		 * in range): hang at rest, outputs zero. */
		memset(&e->st, 0, sizeof(e->st));
		memset(e->omega, 0, sizeof(e->omega));
		memset(e->end_val, 0, sizeof(e->end_val));
		memset(e->end_der, 0, sizeof(e->end_der));
		memset(start_val, 0, sizeof(start_val));
		memset(start_der, 0, sizeof(start_der));
	}
	for (int ch = 0; ch < N_CH; ++ch) {
		hermite(e->poly[ch], start_val[ch], start_der[ch], e->end_val[ch],
		        e->end_der[ch], e->h);
	}
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k)
		quintic(e->qpoly[k], start_val[CH_THETA + k], start_der[CH_THETA + k],
		        start_der[CH_OMEGA + k], e->end_val[CH_THETA + k],
		        e->end_der[CH_THETA + k], e->end_der[CH_OMEGA + k], e->h);
	for (int ch = 0; ch < N_OUT_CH; ++ch) {
		const double scale = ch < CH_TIP_X ? 1.0 / PI : 1.0;
		for (int i = 0; i < 4; ++i)
			e->fpoly[ch][i] = (float)(e->poly[ch][i] * scale);
	}
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		/* |p(u) - c0| <= |c1| + |c2| + |c3| on [0, 1]; the margin covers
		 * single-precision rounding. */
		const float *q = e->fpoly[CH_THETA + k];
		const double reach = fabs(q[1]) + fabs(q[2]) + fabs(q[3]);
		e->wrap_free[k] = q[0] - reach > -1.0 + 1e-5 && q[0] + reach < 1.0 - 1e-5;
	}
	frame_advance_setup(e);
}

/* State = initial, t = 0, and the first step computed. */
static void restart(pendula_engine *e)
{
	apply_pending(e);
	memset(&e->st, 0, sizeof(e->st));
	memset(e->omega, 0, sizeof(e->omega));
	e->clock_base = 0.0;
	e->clock_steps = 0;
	e->clock_h = 0.0;
	for (int k = 0; k < e->sys.n; ++k)
		e->st.theta[k] = wrap_angle(finite_or(e->params.theta_init[k], 0.0));
	predictor_start(&e->pred, e->omega, 0.0);
	e->level = 0;
	e->h = H_MAX;
	measure(e, e->end_val, e->end_der);
	e->level = choose_level(e, e->end_val[CH_ENERGY]);
	e->h = H_MAX * ldexp(1.0, -e->level);
	e->u0 = 0.0;
	e->idx = 0;
	e->phase_request[0] = e->phase_request[1] = 0;
	e->restarting = 1;
	next_step(e);
	e->restarting = 0;
	e->u0 = 0.0;
	e->idx = 0;
}

pendula_engine *pendula_engine_new(double sample_rate, const pendula_params *p)
{
	pendula_engine *e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->sample_rate = sample_rate > 0.0 && isfinite(sample_rate) ? sample_rate : 48000.0;
	const double per_frame = ceil(MAX_STEPS_PER_SECOND / e->sample_rate);
	e->max_steps = per_frame > MIN_STEPS_PER_FRAME ? (int)fmin(per_frame, 1e6) : MIN_STEPS_PER_FRAME;
	e->pending = *p;
	e->has_pending = 1;
	pendula_system_init(&e->sys, p); /* so that n is known */
	e->sys.n = 0;                    /* every body "appears" at the reset */
	restart(e);
	memset(&e->stats, 0, sizeof(e->stats));
	fill_frame(e, &e->last);
	return e;
}

unsigned long pendula_engine_size(void)
{
	return (unsigned long)sizeof(pendula_engine);
}

void pendula_engine_free(pendula_engine *e)
{
	free(e);
}

void pendula_engine_set_params(pendula_engine *e, const pendula_params *p)
{
	e->pending = *p;
	e->has_pending = 1;
	/* The time scale only sets how fast the frames read the motion: it acts
	 * at once. */
	e->params.time_scale = p->time_scale;
	frame_advance_setup(e);
}

void pendula_engine_reset(pendula_engine *e)
{
	e->has_pending = 1; /* pending is always the latest settings */
	if (e->pending.model != e->params.model)
		e->sys.n = 0;
	restart(e);
	fill_frame(e, &e->last);
	e->last_lazy = 0;
}

void pendula_engine_set_phase(pendula_engine *e, int axis, double phase)
{
	if (axis < 0 || axis > 1 || !isfinite(phase))
		return;
	e->phase_request[axis] = 1;
	e->phase_value[axis] = phase;
}

/* Rebase the forcing phase so that it equals the request at the current
 * frame: the current step is left as it is, the next ones follow. */
static inline double frame_u(const pendula_engine *e)
{
	return e->u0 + (double)(int32_t)e->idx * e->du;
}

static void apply_phase_requests(pendula_engine *e)
{
	materialize_last(e);
	const double u = frame_u(e);
	const double tau_end = (1.0 - u) * e->h; /* from now to the step end */
	if (e->phase_request[0]) {
		e->st.phase_x = wrap_phase(e->phase_value[0] + e->sys.omega_x * tau_end);
		e->step_phase_x = wrap_phase(e->phase_value[0] - e->sys.omega_x * u * e->h);
		e->phase_request[0] = 0;
	}
	if (e->phase_request[1]) {
		e->st.phase_y = wrap_phase(e->phase_value[1] + e->sys.omega_y * tau_end);
		e->step_phase_y = wrap_phase(e->phase_value[1] - e->sys.omega_y * u * e->h);
		e->phase_request[1] = 0;
	}
}

static inline double poly_eval(const double *c, double u)
{
	return c[0] + u * (c[1] + u * (c[2] + u * c[3]));
}

/* theta / pi wrapped to [-1, 1), as the angle outputs want it, from the
 * interpolant already in units of pi.  Within a step an angle moves by far
 * less than pi (the step size keeps h |w| small) and the step starts
 * wrapped, so one conditional correction suffices; the loop stays
 * branch-free and vectorisable. */
static inline float angle_out(float v)
{
	v = v < -1.0f ? v + 2.0f : v;
	v = v >= 1.0f ? v - 2.0f : v; /* README.md: a value that rounds to 1 is -1 */
	return v;
}

/* Called when the current frame position has reached the end of the step:
 * takes the steps that bring it back inside one (at most
 * the work cap). */
static void steps_for_frame(pendula_engine *e)
{
	double u = frame_u(e);
	int steps = 0;
	while (u >= 1.0) {
		if (steps == e->max_steps) {
			/* Work cap reached: simulated time slows down for this
			 * frame rather than the integrator losing accuracy or
			 * stability. */
			u = 1.0 - DBL_EPSILON; /* read the end of this step */
			e->stats.capped_frames++;
			break;
		}
		const double rest = (u - 1.0) * e->h; /* simulated seconds */
		next_step(e);
		u = rest / e->h;
		++steps;
	}
	if (steps > 0 || u != frame_u(e)) {
		e->u0 = u;
		e->idx = 0;
	}
}

/* Frames left in the current step from the current one, at most limit. */
static inline uint32_t frames_in_step(const pendula_engine *e, uint32_t limit)
{
	if (!(e->du > 0.0))
		return limit;
	uint32_t m = 0;
	/* first estimate, then exact by the frame_u rule */
	double est = (1.0 - e->u0) / e->du - (double)e->idx;
	if (est > 1.0)
		m = est >= (double)limit ? limit : (uint32_t)est - 1u;
	while (m > 0 && e->u0 + (double)(e->idx + m - 1) * e->du >= 1.0)
		--m;
	while (m < limit && e->u0 + (double)(e->idx + m) * e->du < 1.0)
		++m;
	return m;
}

static void fill_frame(const pendula_engine *e, pendula_frame *f)
{
	fill_frame_at(e, frame_u(e), f);
}

static void fill_frame_at(const pendula_engine *e, double u, pendula_frame *f)
{
	const double inv_h = 1.0 / e->h;
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		const double *q = e->qpoly[k];
		f->theta[k] = wrap_angle(q[0] + u * (q[1] + u * (q[2] + u * (q[3] + u * (q[4] + u * q[5])))));
		f->omega[k] = (q[1] + u * (2 * q[2] + u * (3 * q[3] + u * (4 * q[4] + u * 5 * q[5])))) * inv_h;
	}
	f->tip_x_norm = poly_eval(e->poly[CH_TIP_X], u);
	f->tip_y_norm = poly_eval(e->poly[CH_TIP_Y], u);
	const double scale = e->sys.has_tip ? 1.0 / e->sys.tip_scale : 0.0;
	f->tip_x = f->tip_x_norm * scale;
	f->tip_y = f->tip_y_norm * scale;
	f->energy = poly_eval(e->poly[CH_ENERGY], u);
	const double tau = u * e->h;
	pendula_pivot(&e->sys, e->step_phase_x + e->sys.omega_x * tau,
	              e->step_phase_y + e->sys.omega_y * tau, &f->pivot_x, &f->pivot_y);
	f->t = e->st.t - (1.0 - u) * e->h;
}

void pendula_engine_tick(pendula_engine *e, pendula_frame *f)
{
	if (e->phase_request[0] || e->phase_request[1])
		apply_phase_requests(e);
	fill_frame(e, f);
	e->last = *f;
	e->last_lazy = 0;
	e->idx++;
	e->stats.frames++;
	if (frame_u(e) >= 1.0)
		steps_for_frame(e);
}

/* Frame indices within a step stay far below 2^31 (a step lasts at most
 * H_MAX / time_scale_min seconds of audio), so int32 arithmetic is exact. */
/* The outputs are single precision: evaluating the interpolant in single
 * precision costs at most an ulp or two of the output and runs four frames
 * per SIMD instruction. */
static void write_angle(float *restrict out, const float *restrict c, float u0,
                        float du, int32_t idx, int32_t m)
{
	const float c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3];
	for (int32_t i = 0; i < m; ++i) {
		const float u = u0 + (float)(idx + i) * du;
		out[i] = angle_out(c0 + u * (c1 + u * (c2 + u * c3)));
	}
}

static void write_plain(float *restrict out, const float *restrict c, float u0,
                        float du, int32_t idx, int32_t m)
{
	const float c0 = c[0], c1 = c[1], c2 = c[2], c3 = c[3];
	for (int32_t i = 0; i < m; ++i) {
		const float u = u0 + (float)(idx + i) * du;
		out[i] = c0 + u * (c1 + u * (c2 + u * c3));
	}
}

void pendula_engine_run(pendula_engine *e, uint32_t n_frames,
                        const pendula_outputs *out)
{
	if (n_frames == 0)
		return;
	if (e->phase_request[0] || e->phase_request[1])
		apply_phase_requests(e);
	uint32_t done = 0;
	while (done < n_frames) {
		const uint32_t m = frames_in_step(e, n_frames - done);
		if (m > 0) {
			/* Channel by channel over the frames of this step. */
			const float u0 = (float)e->u0, du = (float)e->du;
			const int32_t idx = (int32_t)e->idx, mm = (int32_t)m;
			for (int k = 0; k < PENDULA_MAX_BODIES; ++k)
				if (out->theta[k]) {
					if (e->wrap_free[k])
						write_plain(out->theta[k] + done, e->fpoly[CH_THETA + k], u0, du, idx, mm);
					else
						write_angle(out->theta[k] + done, e->fpoly[CH_THETA + k], u0, du, idx, mm);
				}
			if (out->tip_x)
				write_plain(out->tip_x + done, e->fpoly[CH_TIP_X], u0, du, idx, mm);
			if (out->tip_y)
				write_plain(out->tip_y + done, e->fpoly[CH_TIP_Y], u0, du, idx, mm);
			if (out->energy)
				write_plain(out->energy + done, e->fpoly[CH_ENERGY], u0, du, idx, mm);
			done += m;
			e->idx += m;
			e->stats.frames += m;
			if (done == n_frames) {
				/* The last frame of the block, for control outputs:
				 * evaluated only if someone asks (see last_lazy). */
				e->last_u = e->u0 + (double)(int32_t)(e->idx - 1) * e->du;
				e->last_lazy = 1;
			}
		}
		if (frame_u(e) >= 1.0)
			steps_for_frame(e);
	}
}

void pendula_engine_last(const pendula_engine *e, pendula_frame *f)
{
	if (e->last_lazy)
		fill_frame_at(e, e->last_u, f);
	else
		*f = e->last;
}

void pendula_engine_stats(const pendula_engine *e, pendula_stats *st)
{
	*st = e->stats;
	st->step_size = e->h;
	st->max_steps_per_frame = e->max_steps;
}
