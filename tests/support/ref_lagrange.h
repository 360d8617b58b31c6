/* SPDX-License-Identifier: ISC */
/*
 * The parts of a planar reference model that do not depend on its geometry,
 * shared by the physics tests of the angle models (test_engine: the double
 * pendulum and the Chaos Man; test_chain: the series chain).  Independent of
 * the engine: Lagrange's equations assembled by finite differences of the
 * test's own mass matrix R(theta) and potential U(theta), the energy, the
 * power of torque, damping and pivot forcing, the Hessian of U (normal
 * modes), and the Jacobian of a step map (symplecticity).
 *
 * A "template", like ref_numerics.h (include that first): before including
 * it, define
 *   REF_DIM    the matrices' declared size,
 *   REF_MODEL  the test's model type, with the members
 *                int n; double lambda[], sigma[];   (per joint)
 *                double dx, wx, dy, wy;  (pivot: amplitude, angular frequency)
 * and the functions
 *   static void ref_mass_matrix(const REF_MODEL *, const double *th,
 *                               double R[REF_DIM][REF_DIM]);
 *   static double ref_potential(const REF_MODEL *, const double *th,
 *                               double acc_x, double acc_y);
 *       (gravity plus the pseudo-force -m Gamma'' of a pivot accelerating
 *       by (acc_x, acc_y));
 * and after it, the generalised force of the pivot forcing (declared here)
 *   static void ref_forcing_q(const REF_MODEL *, const double *th, double t,
 *                             double *q);
 * which may use pivot_accel() below.
 */
#if !defined(REF_DIM) || !defined(REF_MODEL)
#error "define REF_DIM and REF_MODEL before including ref_lagrange.h"
#endif

#include "pendula_engine.h"

#include <math.h>
#include <string.h>

/* The pivot's acceleration Gamma'' at time t, Gamma = (dx sin wx t, dy cos wy t). */
static inline void pivot_accel(const REF_MODEL *r, double t, double *ax, double *ay)
{
	*ax = -r->dx * r->wx * r->wx * sin(r->wx * t);
	*ay = -r->dy * r->wy * r->wy * cos(r->wy * t);
}

static inline void ref_forcing_q(const REF_MODEL *r, const double *th, double t, double *q);

/* E = 1/2 w^T R w + U (pivot at rest). */
static inline double ref_energy(const REF_MODEL *r, const double *th, const double *w)
{
	double R[REF_DIM][REF_DIM], t = 0.0;
	ref_mass_matrix(r, th, R);
	for (int i = 0; i < r->n; ++i)
		for (int j = 0; j < r->n; ++j)
			t += 0.5 * w[i] * R[i][j] * w[j];
	return t + ref_potential(r, th, 0.0, 0.0);
}

/* Power of the torques, the damping and the pivot forcing. */
static inline double ref_power(const REF_MODEL *r, const double *th, const double *w, double t)
{
	double q[REF_DIM], pw = 0.0;
	ref_forcing_q(r, th, t, q);
	for (int k = 0; k < r->n; ++k)
		pw += (r->sigma[k] - r->lambda[k] * w[k] + q[k]) * w[k];
	return pw;
}

/* Accelerations from Lagrange's equations, assembled with finite
 * differences of R(theta) and U(theta):
 *   R thdd = 1/2 d/dth (w^T R w) - Rdot w - dU/dth + sigma - lambda w + Q(t) */
static inline void ref_accel(const REF_MODEL *r, const double *th, const double *w, double t,
                             double *acc)
{
	const int n = r->n;
	const double e = 1e-6;
	double R[REF_DIM][REF_DIM], dR[REF_DIM][REF_DIM][REF_DIM], rhs[REF_DIM], q[REF_DIM];
	ref_mass_matrix(r, th, R);
	for (int i = 0; i < n; ++i) {
		double tp[REF_DIM], tm[REF_DIM], Rp[REF_DIM][REF_DIM], Rm[REF_DIM][REF_DIM];
		memcpy(tp, th, sizeof(tp));
		memcpy(tm, th, sizeof(tm));
		tp[i] += e;
		tm[i] -= e;
		ref_mass_matrix(r, tp, Rp);
		ref_mass_matrix(r, tm, Rm);
		for (int a = 0; a < n; ++a)
			for (int b = 0; b < n; ++b)
				dR[i][a][b] = (Rp[a][b] - Rm[a][b]) / (2 * e);
		rhs[i] = -(ref_potential(r, tp, 0, 0) - ref_potential(r, tm, 0, 0)) / (2 * e);
	}
	ref_forcing_q(r, th, t, q);
	for (int i = 0; i < n; ++i) {
		double half = 0.0, rdot = 0.0;
		for (int a = 0; a < n; ++a)
			for (int b = 0; b < n; ++b)
				half += 0.5 * w[a] * dR[i][a][b] * w[b];
		for (int j = 0; j < n; ++j)
			for (int k = 0; k < n; ++k)
				rdot += dR[k][i][j] * w[k] * w[j];
		rhs[i] += half - rdot + r->sigma[i] - r->lambda[i] * w[i] + q[i];
	}
	solve(n, R, rhs, acc);
}

/* K = d^2 U / dth^2 by central differences (gravity only). */
static inline void ref_hessian(const REF_MODEL *r, const double *th, double K[REF_DIM][REF_DIM])
{
	const double e = 1e-4;
	for (int i = 0; i < r->n; ++i)
		for (int j = 0; j < r->n; ++j) {
			double a[REF_DIM], b[REF_DIM], c[REF_DIM], d[REF_DIM];
			memcpy(a, th, sizeof(a));
			memcpy(b, th, sizeof(b));
			memcpy(c, th, sizeof(c));
			memcpy(d, th, sizeof(d));
			a[i] += e;
			a[j] += e;
			b[i] += e;
			b[j] -= e;
			c[i] -= e;
			c[j] += e;
			d[i] -= e;
			d[j] -= e;
			K[i][j] = (ref_potential(r, a, 0, 0) - ref_potential(r, b, 0, 0) -
			           ref_potential(r, c, 0, 0) + ref_potential(r, d, 0, 0)) /
			          (4 * e * e);
		}
}

/* Jacobian of the step map (theta, p) -> (theta', p') by central differences. */
static inline void step_jacobian(const pendula_system *sys, const pendula_state *s0, double h,
                                 int (*step)(const pendula_system *, pendula_state *, double),
                                 double J[2 * REF_DIM][2 * REF_DIM])
{
	const int n = sys->n;
	const double eps = 1e-6;
	for (int j = 0; j < 2 * n; ++j) {
		pendula_state sp = *s0, sm = *s0;
		double *xp = j < n ? &sp.q[j] : &sp.p[j - n];
		double *xm = j < n ? &sm.q[j] : &sm.p[j - n];
		*xp += eps;
		*xm -= eps;
		step(sys, &sp, h);
		step(sys, &sm, h);
		for (int i = 0; i < 2 * n; ++i) {
			const double yp = i < n ? sp.q[i] : sp.p[i - n];
			const double ym = i < n ? sm.q[i] : sm.p[i - n];
			J[i][j] = (yp - ym) / (2 * eps);
		}
	}
}

/* max |J^T Omega J - Omega|, Omega = [[0, I], [-I, 0]]: 0 for a symplectic
 * step map, up to the finite differences. */
static inline double symplectic_defect(const pendula_system *sys, const pendula_state *s0, double h,
                                       int (*step)(const pendula_system *, pendula_state *, double))
{
	const int n = sys->n;
	double J[2 * REF_DIM][2 * REF_DIM], worst = 0.0;
	step_jacobian(sys, s0, h, step, J);
	for (int a = 0; a < 2 * n; ++a)
		for (int b = 0; b < 2 * n; ++b) {
			double s = 0.0;
			for (int i = 0; i < n; ++i)
				s += J[i][a] * J[n + i][b] - J[n + i][a] * J[i][b];
			const double omega = (a < n && b == a + n)   ? 1.0
			                     : (b < n && a == b + n) ? -1.0
			                                             : 0.0;
			worst = fmax(worst, fabs(s - omega));
		}
	return worst;
}

/* The energy budget along the engine's trajectory (settings p, 48 kHz,
 * `seconds` long): dE/dt = sum (sigma - lambda w) w + w^T Q, so the
 * reference energy's change must equal the reference power integrated over
 * the frames.  *max_dev: the largest |change of E - work|; *scale: the
 * largest |work| (J). */
static inline void ref_energy_budget(const REF_MODEL *r, const pendula_params *p, double seconds,
                                     double *max_dev, double *scale)
{
	const double sr = 48000.0, dt = 1.0 / sr;
	pendula_engine *e = pendula_engine_new(sr, p);
	pendula_frame f;
	pendula_engine_tick(e, &f);
	const double e_start = ref_energy(r, f.theta, f.omega);
	double work = 0.0, prev_power = ref_power(r, f.theta, f.omega, f.t), prev_t = f.t;
	double power_2back = prev_power, p0 = prev_power, p1 = 0.0, first_slope = 0.0;
	*max_dev = 0.0;
	*scale = 0.0;
	const long frames = (long)(seconds * sr);
	for (long i = 1; i < frames; ++i) {
		pendula_engine_tick(e, &f);
		const double pw = ref_power(r, f.theta, f.omega, f.t);
		work += 0.5 * (pw + prev_power) * (f.t - prev_t);
		/* Euler-Maclaurin end correction of the trapezoid rule with
		 * second-order one-sided slopes, so that power swinging at up to
		 * 1 kHz is integrated to O(dt^4) */
		if (i == 1)
			p1 = pw;
		if (i == 2)
			first_slope = (-3.0 * p0 + 4.0 * p1 - pw) / (2.0 * dt);
		const double slope =
		    i >= 2 ? (3.0 * pw - 4.0 * prev_power + power_2back) / (2.0 * dt) : 0.0;
		const double corrected =
		    i >= 2 ? work - dt * dt / 12.0 * (slope - first_slope) : work;
		power_2back = prev_power;
		prev_power = pw;
		prev_t = f.t;
		const double change = ref_energy(r, f.theta, f.omega) - e_start;
		*max_dev = fmax(*max_dev, fabs(change - corrected));
		*scale = fmax(*scale, fabs(corrected));
	}
	pendula_engine_free(e);
}
