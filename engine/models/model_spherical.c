/* SPDX-License-Identifier: ISC */
/*
 * The spherical N-pendulum (the 3-D N-pendulum note): N = 1..4 point masses
 * m_k on massless rods l_k, bob k at r_k with |r_k - r_{k-1}| = l_k, r_0 the
 * pivot.  Written in Cartesian coordinates with the rod tensions as Lagrange
 * multipliers, as the note does: no spherical angles, so no singularity at
 * the poles, where a pendulum hangs.
 *
 * State: q = (r_1 .. r_N) relative to the pivot (the frame that moves with
 * it: the forcing is the effective gravity of model.h), p = m v.
 * Forces: gravity, the pivot's pseudo-force -m Gamma'', per link k a damper
 * -(lambda_k / l_k^2)(v_k - v_{k-1}) on bob k (the opposite on bob k - 1,
 * none on the pivot) and a swirl (sigma_k / l_k^2) y x (r_k - r_{k-1}) (the
 * opposite on bob k - 1): in the plane the damper is exactly -lambda_k
 * thdot_k on the absolute angle; the swirl is a torque sigma_k sin^2(angle
 * from the vertical) about the vertical.
 *
 * Integrator: Kahan and Li's 6th-order composition (scheme_compose.h) of RATTLE
 * (scheme_rattle.h).  The constraints g_k = (|r_k - r_{k-1}|^2 - l_k^2)/2
 * couple neighbours only, so the SHAKE Newton matrix and the Gram matrix
 * G M^-1 G^T of the velocity projection are tridiagonal: O(N) per
 * iteration.
 */
#include "scheme_rattle.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define NL 4 /* links at most */
_Static_assert(NL <= PENDULA_MAX_CONSTRAINTS, "the rods' multipliers fit the predictor");
/* Step rule: at most KAPPA radians per step of the fastest small
 * oscillation (spherical_derive), and KAPPA_MOTION of the links' turn by
 * the energy bound (spherical_step_bound) and by the actual motion
 * (spherical_step_bound_at).  The fastest oscillation is often a light
 * bob's swing across its two taut rods, which every explicit or composed
 * scheme must resolve; the 6th-order composition resolves it in longer
 * steps than Suzuki's 4th-order one did at 0.05 (PENDULA_KAPPA_SLOW), with
 * no more energy spread over bench_cap's musical settings and about a
 * fifth of the steps.
 * The motion's rule also bounds the frames between steps: the outputs
 * are cubics in time (value and slope at both ends), off by about
 * 1e-7 of a link's length at 0.15 rad per step and their slopes (the
 * velocity outputs) by 2e-6 of its speed, as close as the angle models'
 * quintics at PENDULA_KAPPA_RATE.  The ceiling of 0.45 (with the engine's
 * quiet relaxation of a raised step floor, step.c QUIET_HOLD) saves work
 * and keeps the settings at the cap closer to real time; the measurements:
 * docs/BENCHMARKS.md, "Why the constants are what they are".  The ceiling
 * only matters for a fast mode the motion's rule does not see moving: on a
 * harmonic oscillator Kahan and Li's composition errs by 1.2e-7 of the
 * oscillation's energy at 0.25 rad per step and 4.1e-6 at 0.45 (bounded,
 * not a drift; stable up to 2.53), and a light bob's mode holds little of
 * the energy.  The defaults never
 * reach it (their spreads over 60 s are unchanged). */
#define KAPPA          0.45
#define KAPPA_MOTION   0.15
/* A SHAKE solve takes at most MAX_ITERATIONS Newton iterations. */
#define MAX_ITERATIONS 12
/* Newton stops when every |g_k| / l_k^2 (about the relative length error)
 * is below this, or below what rounding of the positions allows
 * (spherical_model.g_tol). */
#define CONSTRAINT_TOL 1e-14
/* Positions relative to the pivot are rounded to about DBL_EPSILON times
 * their size, up to reach_k = l_1 + .. + l_k for bob k, so a link's
 * vector r_k - r_{k-1} has an error of about 2 DBL_EPSILON reach_k and
 * |g_k| / l_k^2 one of about 2 DBL_EPSILON reach_k / l_k: above 1e-14 for
 * a centimetre link 7 m from the pivot.  Newton cannot go below that, and
 * spent all MAX_ITERATIONS of every stage trying (46 iterations per step
 * instead of 10 for a 13 mm link 14 m out).  The tolerance is this many
 * times that rounding. */
#define ROUNDING_TOL   8.0

typedef struct {
	double m[NL], inv_m[NL];
	double mass3[3 * NL], inv_m3[3 * NL]; /* per coordinate */
	double l[NL];
	double damp[NL];  /* lambda_k / l_k^2 */
	double swirl[NL]; /* sigma_k / l_k^2 */
	int damped;       /* any damper */
	int conservative; /* no damper, swirl or forcing: every step's work is 0 */
	double h_params;  /* largest step these settings allow, s */
	/* |g_k| at which SHAKE has converged: l_k^2 times CONSTRAINT_TOL or
	 * the rounding of the positions (ROUNDING_TOL), whichever is larger */
	double g_tol[NL];
	double rate_coef; /* speed bound: sum_k sqrt(2 (1/m_k + 1/m_{k-1})) / l_k */
} spherical_model;

_Static_assert(sizeof(spherical_model) <= PENDULA_SYSTEM_BYTES, "model constants fit");

#define SM(sys) PENDULA_MODEL_PART_CONST(spherical_model, sys)

/* ------------------------------------------------------------------------ */
/* Small vector helpers                                                     */

static inline double dot3(const double *a, const double *b)
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Link k's vector r_k - r_{k-1} (r_{-1} = the pivot = 0), k 0-based. */
static inline void link_vec(const double *q, int k, double *d)
{
	for (int i = 0; i < 3; ++i)
		d[i] = q[3 * k + i] - (k > 0 ? q[3 * (k - 1) + i] : 0.0);
}

/* A tridiagonal matrix (lower a[k] for k >= 1, diagonal b, upper c for
 * k < n - 1) factored by Thomas' algorithm, B = L U: the inverse pivots
 * and U's upper diagonal (its diagonal is 1). */
typedef struct {
	double inv_piv[NL], cp[NL];
} tridiag_lu;

static inline void tridiag_factor(int n, const double *a, const double *b, const double *c,
                                  tridiag_lu *f)
{
	for (int k = 0; k < n; ++k) {
		f->inv_piv[k] = 1.0 / (k > 0 ? b[k] - a[k] * f->cp[k - 1] : b[0]);
		f->cp[k] = k < n - 1 ? c[k] * f->inv_piv[k] : 0.0;
	}
}

/* r = B^-1 r with B's factors (a: its lower diagonal, as for the factors) */
static inline void tridiag_substitute(int n, const double *a, const tridiag_lu *f, double *r)
{
	r[0] *= f->inv_piv[0];
	for (int k = 1; k < n; ++k)
		r[k] = (r[k] - a[k] * r[k - 1]) * f->inv_piv[k];
	for (int k = n - 2; k >= 0; --k)
		r[k] -= f->cp[k] * r[k + 1];
}

/* Solves the tridiagonal system in place of r. */
static inline void tridiag_solve(int n, const double *a, const double *b, const double *c,
                                 double *r)
{
	tridiag_lu f;
	tridiag_factor(n, a, b, c, &f);
	tridiag_substitute(n, a, &f, r);
}

/* ------------------------------------------------------------------------ */
/* Settings                                                                 */

static void spherical_derive(pendula_system *sys, const pendula_params *p)
{
	spherical_model *sm = PENDULA_MODEL_PART(spherical_model, sys);
	sys->min_level = PENDULA_LEVEL_KAHAN_LI;
	int n = p->n_bodies;
	n = n < 1 ? 1 : n > NL ? NL : n;
	sys->n = n;
	sys->dof = 3 * n;
	/* Work per iteration (a double-pendulum iteration = 16; docs/NUMERICS.md,
	 * "Bounded work"): 6 + 4 n is what n bobs cost, timed against the double
	 * pendulum (docs/BENCHMARKS.md, "Why the constants are what they are"). */
	sys->work_iteration = (unsigned char)(6 + 4 * n);
	const double g = sys->g;
	double sum_l = 0.0, u_range = 0.0;
	sm->damped = 0;
	for (int k = 0; k < n; ++k) {
		sm->m[k] = pendula_positive(p->m[k], 1e-9);
		sm->inv_m[k] = 1.0 / sm->m[k];
		for (int i = 0; i < 3; ++i) {
			sm->mass3[3 * k + i] = sm->m[k];
			sm->inv_m3[3 * k + i] = sm->inv_m[k];
		}
		sm->l[k] = pendula_positive(p->l[k], 1e-9);
		const double l2 = sm->l[k] * sm->l[k];
		sm->damp[k] = pendula_nonneg(p->lambda[k]) / l2;
		sm->swirl[k] = pendula_finite_or(p->sigma[k], 0.0) / l2;
		sm->damped |= sm->damp[k] > 0.0;
		sum_l += sm->l[k];
		const double rounding = ROUNDING_TOL * DBL_EPSILON * sum_l / sm->l[k];
		sm->g_tol[k] = l2 * (rounding > CONSTRAINT_TOL ? rounding : CONSTRAINT_TOL);
	}
	sm->conservative = !sm->damped && !sys->force.forced;
	for (int k = 0; k < n; ++k)
		sm->conservative &= sm->swirl[k] == 0.0;
	/* U_max - U_min = 2 g sum_k (sum_{j >= k} m_j) l_k */
	double rate_coef = 0.0, omega2 = 0.0, damp = 0.0;
	const pendula_forcing *f = &sys->force;
	const double g_max = sqrt((g + f->accel_y) * (g + f->accel_y) + f->accel_x * f->accel_x +
	                          f->accel_z * f->accel_z);
	double inertia[NL] = {0}; /* l_k^2 sum_{j >= k} m_j: link k turning alone */
	for (int k = 0; k < n; ++k) {
		double below = 0.0;
		for (int j = k; j < n; ++j)
			below += sm->m[j];
		u_range += below * sm->l[k];
		inertia[k] = below * sm->l[k] * sm->l[k];
		/* (R^-1)_kk <= (1/m_k + 1/m_{k-1}) / l_k^2: the link's two ends
		 * as a free pair is the lightest the link can be. */
		const double inv_pair = sm->inv_m[k] + (k > 0 ? sm->inv_m[k - 1] : 0.0);
		rate_coef += sqrt(2.0 * inv_pair) / sm->l[k];
		omega2 += inv_pair / sm->l[k] * g_max * below;
		damp += sm->damp[k] * inv_pair;
	}
	sm->rate_coef = rate_coef;
	sys->energy_min = -g * u_range;
	sys->energy_range = 2.0 * g * u_range;
	if (!(sys->energy_range > 1e-6))
		sys->energy_range = 1e-6;
	sys->tip_length = sum_l;
	/* omega{k} = (u_k x u_k')_z / omega_ref_k, omega_ref_k = sqrt(2 D /
	 * R_k) with R_k = l_k^2 sum_{j >= k} m_j: the rate link k would turn at
	 * alone with the whole energy range D (as the angle models' reference;
	 * in a plane (u x u')_z is theta-dot). */
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k)
		sys->speed_ref[k] =
		    k < n ? (float)sqrt(inertia[k] / (2.0 * sys->energy_range)) : 0.0f;

	sm->h_params = pendula_settings_step(sys, sqrt(omega2), KAPPA, damp);
}

/* Direction of link k: (sin th cos ph, -cos th, sin th sin ph). */
static void initial_direction(const pendula_params *p, int k, double *u)
{
	const double th = pendula_finite_or(p->theta_init[k], 0.0);
	const double ph = pendula_finite_or(p->phi_init[k], 0.0);
	u[0] = sin(th) * cos(ph);
	u[1] = -cos(th);
	u[2] = sin(th) * sin(ph);
}

/* Links k >= from start along their initial directions; at a restart
 * (from = 0) the whole pendulum turns about the vertical at spin_init, an
 * added link starts at rest relative to the bob it hangs from. */
static void spherical_initial(const pendula_system *sys, const pendula_params *p, int from,
                              double *q, double *qdot)
{
	const spherical_model *sm = SM(sys);
	const double w = PENDULA_TWO_PI * pendula_finite_or(p->spin_init, 0.0);
	for (int k = from; k < sys->n; ++k) {
		double u[3];
		initial_direction(p, k, u);
		for (int i = 0; i < 3; ++i)
			q[3 * k + i] = (k > 0 ? q[3 * (k - 1) + i] : 0.0) + sm->l[k] * u[i];
		double *v = qdot + 3 * k;
		if (from == 0) { /* v = w y x r */
			v[0] = w * q[3 * k + 2];
			v[1] = 0.0;
			v[2] = -w * q[3 * k + 0];
		} else {
			for (int i = 0; i < 3; ++i)
				v[i] = k > 0 ? qdot[3 * (k - 1) + i] : 0.0;
		}
	}
}

/* New lengths: every link keeps its direction and its turn rate. */
static void spherical_adapt(const pendula_system *sys, int from, double *q, double *qdot,
                            double wave_phase)
{
	(void)from;
	(void)wave_phase;
	const spherical_model *sm = SM(sys);
	double prev_old[3] = {0, 0, 0}, prev_vold[3] = {0, 0, 0};
	double prev_new[3] = {0, 0, 0}, prev_vnew[3] = {0, 0, 0};
	for (int k = 0; k < sys->n; ++k) {
		double *r = q + 3 * k, *v = qdot + 3 * k;
		double d[3], w[3];
		for (int i = 0; i < 3; ++i) {
			d[i] = r[i] - prev_old[i];
			w[i] = v[i] - prev_vold[i];
			prev_old[i] = r[i];
			prev_vold[i] = v[i];
		}
		double len = sqrt(dot3(d, d));
		if (!(len > 0.0) || !isfinite(len)) {
			d[0] = d[2] = 0.0;
			d[1] = -1.0;
			len = 1.0;
			w[0] = w[1] = w[2] = 0.0;
		}
		double u[3];
		for (int i = 0; i < 3; ++i)
			u[i] = d[i] / len;
		const double wu = dot3(w, u);
		const double scale = sm->l[k] / len;
		for (int i = 0; i < 3; ++i) {
			r[i] = prev_new[i] + sm->l[k] * u[i];
			v[i] = prev_vnew[i] + scale * (w[i] - wu * u[i]);
			prev_new[i] = r[i];
			prev_vnew[i] = v[i];
		}
	}
}

/* ------------------------------------------------------------------------ */
/* Forces                                                                   */

static inline void forces_at(const spherical_model *sm, const double *q, const double *g3,
                             double *f, const int n)
{
	for (int k = 0; k < n; ++k)
		for (int i = 0; i < 3; ++i)
			f[3 * k + i] = sm->m[k] * g3[i];
	for (int k = 0; k < n; ++k) {
		if (sm->swirl[k] == 0.0)
			continue;
		double d[3];
		link_vec(q, k, d);
		/* (sigma / l^2) y x d = (sigma / l^2) (d_z, 0, -d_x) */
		const double fx = sm->swirl[k] * d[2], fz = -sm->swirl[k] * d[0];
		f[3 * k + 0] += fx;
		f[3 * k + 2] += fz;
		if (k > 0) {
			f[3 * (k - 1) + 0] -= fx;
			f[3 * (k - 1) + 2] -= fz;
		}
	}
}

static inline void damp_at(const spherical_model *sm, const double *v, double *f, const int n)
{
	for (int k = 0; k < n; ++k) {
		if (sm->damp[k] == 0.0)
			continue;
		for (int i = 0; i < 3; ++i) {
			const double w = v[3 * k + i] - (k > 0 ? v[3 * (k - 1) + i] : 0.0);
			f[3 * k + i] -= sm->damp[k] * w;
			if (k > 0)
				f[3 * (k - 1) + i] += sm->damp[k] * w;
		}
	}
}

/* ------------------------------------------------------------------------ */
/* RATTLE: the model's parts                                                */

static inline __attribute__((always_inline)) void rattle_force_n(const pendula_system *sys,
                                                                 const double *q,
                                                                 const pendula_state *s, double *f,
                                                                 const int n)
{
	double g3[3];
	pendula_effective_gravity_at(sys, s, g3);
	forces_at(SM(sys), q, g3, f, n);
}

/* SHAKE by Newton's method: r_k = rt_k - (Lambda_k d0_k - Lambda_{k+1}
 * d0_{k+1}) / m_k (d0: the links at the step start), solve g(r) = 0.  The
 * Jacobian dg_j/dLambda_i is tridiagonal. */
static inline __attribute__((always_inline)) int shake_n(const pendula_system *sys,
                                                         const double *q0, const double *qt,
                                                         double h, double *tau, double *dq,
                                                         const int n)
{
	const spherical_model *sm = SM(sys);
	double d0[NL][3], lam[NL], d[NL][3], g[NL];
	const double scale = 0.5 * h * h;
	for (int k = 0; k < n; ++k) {
		link_vec(q0, k, d0[k]);
		lam[k] = scale * tau[k];
	}
	int it = 0;
	for (;;) {
		double err = 0.0;
		for (int k = 0; k < n; ++k)
			for (int i = 0; i < 3; ++i) {
				double x = lam[k] * d0[k][i];
				if (k + 1 < n)
					x -= lam[k + 1] * d0[k + 1][i];
				dq[3 * k + i] = -sm->inv_m[k] * x;
			}
		for (int k = 0; k < n; ++k) {
			for (int i = 0; i < 3; ++i)
				d[k][i] = qt[3 * k + i] + dq[3 * k + i] -
				          (k > 0 ? qt[3 * (k - 1) + i] + dq[3 * (k - 1) + i] : 0.0);
			g[k] = 0.5 * (dot3(d[k], d[k]) - sm->l[k] * sm->l[k]);
			const double e_k = fabs(g[k]) / sm->g_tol[k];
			err = e_k > err ? e_k : err; /* (fmax without the libm call) */
		}
		if (!(err > 1.0) || it == MAX_ITERATIONS)
			break; /* converged (or NaN: the engine restarts) */
		double lo[NL], di[NL], up[NL];
		for (int j = 0; j < n; ++j) {
			const double inv_prev = j > 0 ? sm->inv_m[j - 1] : 0.0;
			di[j] = -(sm->inv_m[j] + inv_prev) * dot3(d[j], d0[j]);
			lo[j] = j > 0 ? inv_prev * dot3(d[j], d0[j - 1]) : 0.0;
			up[j] = j + 1 < n ? sm->inv_m[j] * dot3(d[j], d0[j + 1]) : 0.0;
			g[j] = -g[j];
		}
		tridiag_solve(n, lo, di, up, g);
		for (int k = 0; k < n; ++k)
			lam[k] += g[k];
		++it;
	}
	for (int k = 0; k < n; ++k)
		tau[k] = lam[k] / scale;
	return it + 1;
}

/* Solves S x = b in place of b for a small symmetric positive definite S
 * (n <= NL) by S = L D L^T; S is overwritten. */
static void spd_solve(int n, double S[NL][NL], double *b)
{
	for (int j = 0; j < n; ++j) {
		for (int k = 0; k < j; ++k) {
			const double l = S[j][k] / S[k][k];
			for (int i = j; i < n; ++i)
				S[i][j] -= l * S[i][k];
			S[j][k] = l;
			b[j] -= l * b[k];
		}
	}
	for (int i = n - 1; i >= 0; --i) {
		double x = b[i] / S[i][i];
		for (int k = i + 1; k < n; ++k)
			x -= S[k][i] * b[k];
		b[i] = x;
	}
}

/* Velocity projection with the implicit damper: (M + h/2 C) v1 = pt - G^T nu,
 * G v1 = 0.  Without dampers M is diagonal and G M^-1 G^T tridiagonal; with
 * them B = M + h/2 C is tridiagonal per coordinate and G B^-1 G^T is a
 * small dense matrix (N <= 4). */
static inline __attribute__((always_inline)) void project_n(const pendula_system *sys,
                                                            const double *q1, const double *pt,
                                                            double h, double *p1, const int n)
{
	const spherical_model *sm = SM(sys);
	double d[NL][3];
	for (int k = 0; k < n; ++k)
		link_vec(q1, k, d[k]);
	if (!sm->damped) {
		double lo[NL], di[NL], up[NL], nu[NL], v[NL][3];
		for (int k = 0; k < n; ++k)
			for (int i = 0; i < 3; ++i)
				v[k][i] = pt[3 * k + i] * sm->inv_m[k];
		for (int j = 0; j < n; ++j) {
			const double inv_prev = j > 0 ? sm->inv_m[j - 1] : 0.0;
			double w[3];
			for (int i = 0; i < 3; ++i)
				w[i] = v[j][i] - (j > 0 ? v[j - 1][i] : 0.0);
			nu[j] = dot3(d[j], w);
			di[j] = (sm->inv_m[j] + inv_prev) * dot3(d[j], d[j]);
			lo[j] = j > 0 ? -inv_prev * dot3(d[j], d[j - 1]) : 0.0;
			up[j] = j + 1 < n ? -sm->inv_m[j] * dot3(d[j], d[j + 1]) : 0.0;
		}
		tridiag_solve(n, lo, di, up, nu);
		for (int k = 0; k < n; ++k)
			for (int i = 0; i < 3; ++i) {
				double x = pt[3 * k + i] - nu[k] * d[k][i];
				if (k + 1 < n)
					x += nu[k + 1] * d[k + 1][i];
				p1[3 * k + i] = x;
			}
		return;
	}
	/* B = M + h/2 C: diagonal m_k + h/2 (c_k + c_{k+1}), off-diagonal
	 * -h/2 c_{k+1} between bobs k and k + 1, the same for each of the
	 * three coordinates.  With Y_j = B^-1 (e_j - e_{j-1}) (how the bobs'
	 * velocities answer a unit impulse of link j, per coordinate of its
	 * direction: it pushes bob j one way and bob j - 1 the other), G B^-1 G^T
	 * is S_rj = (d_r . d_j) (Y_j[r] - Y_j[r-1]): one factorisation of B
	 * and n + 3 substitutions, instead of a solve per link and coordinate. */
	const double hh = 0.5 * h;
	double bd[NL], bo[NL], blo[NL];
	for (int k = 0; k < n; ++k) {
		const double c_next = k + 1 < n ? sm->damp[k + 1] : 0.0;
		bd[k] = sm->m[k] + hh * (sm->damp[k] + c_next);
		bo[k] = -hh * c_next;             /* upper: (k, k + 1) */
		blo[k] = k > 0 ? bo[k - 1] : 0.0; /* lower: (k, k - 1) */
	}
	tridiag_lu b_lu;
	tridiag_factor(n, blo, bd, bo, &b_lu);
	double w[3][NL], Y[NL][NL];
	for (int i = 0; i < 3; ++i) {
		for (int k = 0; k < n; ++k)
			w[i][k] = pt[3 * k + i];
		tridiag_substitute(n, blo, &b_lu, w[i]);
	}
	for (int j = 0; j < n; ++j) {
		for (int k = 0; k < n; ++k)
			Y[j][k] = k == j ? 1.0 : k == j - 1 ? -1.0 : 0.0;
		tridiag_substitute(n, blo, &b_lu, Y[j]);
	}
	double S[NL][NL], nu[NL];
	for (int r = 0; r < n; ++r) {
		double dw[3];
		for (int i = 0; i < 3; ++i)
			dw[i] = w[i][r] - (r > 0 ? w[i][r - 1] : 0.0);
		nu[r] = dot3(d[r], dw);
		for (int j = 0; j < n; ++j)
			S[r][j] = dot3(d[r], d[j]) * (Y[j][r] - (r > 0 ? Y[j][r - 1] : 0.0));
	}
	spd_solve(n, S, nu);
	for (int k = 0; k < n; ++k)
		for (int i = 0; i < 3; ++i) {
			double v = w[i][k];
			for (int j = 0; j < n; ++j)
				v -= nu[j] * d[j][i] * Y[j][k];
			p1[3 * k + i] = sm->m[k] * v;
		}
}

#define SPHERICAL_RATTLE_N(N)                                                                     \
	static void force_##N(const pendula_system *sys, const double *q, const pendula_state *s, \
	                      double *f)                                                          \
	{                                                                                         \
		rattle_force_n(sys, q, s, f, N);                                                  \
	}                                                                                         \
	static void damp_##N(const pendula_system *sys, const double *q, const double *v,         \
	                     double *f)                                                           \
	{                                                                                         \
		(void)q;                                                                          \
		damp_at(SM(sys), v, f, N);                                                        \
	}                                                                                         \
	static int shake_##N(const pendula_system *sys, const double *q0, const double *qt,       \
	                     const pendula_state *s1, double h, double *tau, double *dq)          \
	{                                                                                         \
		(void)s1;                                                                         \
		return shake_n(sys, q0, qt, h, tau, dq, N);                                       \
	}                                                                                         \
	static void project_##N(const pendula_system *sys, const double *q1, const double *pt,    \
	                        double h, const pendula_state *s1, double *p1)                    \
	{                                                                                         \
		(void)s1;                                                                         \
		project_n(sys, q1, pt, h, p1, N);                                                 \
	}                                                                                         \
	static int base_##N(const pendula_system *sys, pendula_state *s, double h,                \
	                    pendula_predictor *pr, const int n)                                   \
	{                                                                                         \
		(void)n;                                                                          \
		return pendula_rattle_step(sys, s, h, pr, 3 * N, SM(sys)->mass3, SM(sys)->inv_m3, \
		                           SM(sys)->damped, force_##N, damp_##N, shake_##N,       \
		                           project_##N);                                          \
	}

SPHERICAL_RATTLE_N(1)
SPHERICAL_RATTLE_N(2)
SPHERICAL_RATTLE_N(3)
SPHERICAL_RATTLE_N(4)

static double state_power(const pendula_system *sys, const pendula_state *s, const double *force);

static int spherical_step(const pendula_system *sys, pendula_state *s, double h,
                          pendula_predictor *pr)
{
	/* (no power to integrate when nothing but gravity and the rods acts) */
	const pendula_state_power power =
	    SM(sys)->conservative && !sys->force.driven ? NULL : state_power;
	switch (sys->n) {
	case 1:
		return pendula_compose_s9(sys, s, h, pr, 1, base_1, power);
	case 2:
		return pendula_compose_s9(sys, s, h, pr, 2, base_2, power);
	case 3:
		return pendula_compose_s9(sys, s, h, pr, 3, base_3, power);
	default:
		return pendula_compose_s9(sys, s, h, pr, 4, base_4, power);
	}
}

static int spherical_step_base(const pendula_system *sys, pendula_state *s, double h,
                               pendula_predictor *pr)
{
	switch (sys->n) {
	case 1:
		return base_1(sys, s, h, pr, 1);
	case 2:
		return base_2(sys, s, h, pr, 2);
	case 3:
		return base_3(sys, s, h, pr, 3);
	default:
		return base_4(sys, s, h, pr, 4);
	}
}

/* ------------------------------------------------------------------------ */
/* Physics at one state                                                     */

static void spherical_velocity(const pendula_system *sys, const double *q, const double *p,
                               double *qdot)
{
	(void)q;
	for (int i = 0; i < sys->dof; ++i)
		qdot[i] = p[i] * SM(sys)->inv_m3[i];
}

static void spherical_momentum(const pendula_system *sys, const double *q, const double *qdot,
                               double *p)
{
	(void)q;
	for (int i = 0; i < sys->dof; ++i)
		p[i] = qdot[i] * SM(sys)->mass3[i];
}

/* Constrained accelerations: m a = F - G^T tau with G a + Gdot v = 0, i.e.
 * (G M^-1 G^T) tau = G M^-1 F + |v_k - v_{k-1}|^2 (tridiagonal). */
/* Accelerations of the masses at positions q, velocities qdot, under the
 * effective gravity g3 (the tensions from the tridiagonal system). */
static void accel_with(const spherical_model *sm, const int n, const double *q, const double *qdot,
                       const double *g3, double *accel)
{
	double f[3 * NL], d[NL][3], lo[NL], di[NL], up[NL], tau[NL];
	forces_at(sm, q, g3, f, n);
	damp_at(sm, qdot, f, n);
	for (int k = 0; k < n; ++k)
		link_vec(q, k, d[k]);
	for (int j = 0; j < n; ++j) {
		const double inv_prev = j > 0 ? sm->inv_m[j - 1] : 0.0;
		double da[3], w[3];
		for (int i = 0; i < 3; ++i) {
			da[i] = f[3 * j + i] * sm->inv_m[j] -
			        (j > 0 ? f[3 * (j - 1) + i] * inv_prev : 0.0);
			w[i] = qdot[3 * j + i] - (j > 0 ? qdot[3 * (j - 1) + i] : 0.0);
		}
		tau[j] = dot3(d[j], da) + dot3(w, w);
		di[j] = (sm->inv_m[j] + inv_prev) * dot3(d[j], d[j]);
		lo[j] = j > 0 ? -inv_prev * dot3(d[j], d[j - 1]) : 0.0;
		up[j] = j + 1 < n ? -sm->inv_m[j] * dot3(d[j], d[j + 1]) : 0.0;
	}
	tridiag_solve(n, lo, di, up, tau);
	for (int k = 0; k < n; ++k)
		for (int i = 0; i < 3; ++i) {
			double x = f[3 * k + i] - tau[k] * d[k][i];
			if (k + 1 < n)
				x += tau[k + 1] * d[k + 1][i];
			accel[3 * k + i] = x * sm->inv_m[k];
		}
}

static void spherical_accel(const pendula_system *sys, const double *q, const double *qdot,
                            double phase_x, double phase_y, double *accel)
{
	double g3[3];
	pendula_effective_gravity3(sys, phase_x, phase_y, 0.0, g3);
	accel_with(SM(sys), sys->n, q, qdot, g3, accel);
}

static double spherical_energy(const pendula_system *sys, const double *q, const double *qdot)
{
	const spherical_model *sm = SM(sys);
	double e = 0.0;
	for (int k = 0; k < sys->n; ++k)
		e += sm->m[k] * (0.5 * dot3(qdot + 3 * k, qdot + 3 * k) + sys->g * q[3 * k + 1]);
	return e;
}

/* dE/dt = sum_k F_k . v_k of the forces f without gravity (the forcing's
 * pseudo-force and the swirl), with the dampers added to f here (the rods
 * do no work). */
static double power_of(const pendula_system *sys, double *f, const double *qdot)
{
	damp_at(SM(sys), qdot, f, sys->n);
	double pw = 0.0;
	for (int i = 0; i < sys->dof; ++i)
		pw += f[i] * qdot[i];
	return pw;
}

/* The same from the effective gravity g3. */
static double power_with(const pendula_system *sys, const double *q, const double *qdot,
                         const double *g3)
{
	double f[3 * NL], g_force[3] = {g3[0], g3[1] + sys->g, g3[2]};
	forces_at(SM(sys), q, g_force, f, sys->n);
	return power_of(sys, f, qdot);
}

/* The power at a state (the work the composed step reports): v = p / m;
 * from the forces a stage computed at s (force, gravity's pull taken out
 * again) when there are any, else from the effective gravity. */
static double state_power(const pendula_system *sys, const pendula_state *s, const double *force)
{
	const spherical_model *sm = SM(sys);
	double v[3 * NL];
	for (int i = 0; i < sys->dof; ++i)
		v[i] = s->p[i] * sm->inv_m3[i];
	if (!force) {
		double g3[3];
		pendula_effective_gravity_at(sys, s, g3);
		return power_with(sys, s->q, v, g3);
	}
	double f[3 * NL];
	for (int k = 0; k < sys->n; ++k) {
		f[3 * k + 0] = force[3 * k + 0];
		f[3 * k + 1] = force[3 * k + 1] + sm->m[k] * sys->g;
		f[3 * k + 2] = force[3 * k + 2];
	}
	return power_of(sys, f, v);
}

static double spherical_power(const pendula_system *sys, const double *q, const double *qdot,
                              double phase_x, double phase_y)
{
	double g3[3];
	pendula_effective_gravity3(sys, phase_x, phase_y, 0.0, g3);
	return power_with(sys, q, qdot, g3);
}

static double spherical_step_bound(const pendula_system *sys, double energy_norm)
{
	const spherical_model *sm = SM(sys);
	double t_max = energy_norm * sys->energy_range;
	if (!(t_max > 0.0))
		t_max = 0.0;
	/* |d(link k)/dt| / l_k <= sqrt(2 T (1/m_k + 1/m_{k-1})) / l_k */
	const double rate = sqrt(t_max) * sm->rate_coef;
	double h = sm->h_params;
	if (rate * h > KAPPA_MOTION)
		h = KAPPA_MOTION / rate;
	return h;
}

/* The step from the actual motion, as the chain and the Chaos Man kernel
 * size theirs: the links' angular rates |w_k| / l_k (w_k the velocity of
 * mass k relative to mass k - 1), extrapolated over the step with their
 * current rates of change |a_k - a_{k-1}| / l_k, turn by at most
 * KAPPA_MOTION in all: (W + A h) h <= kappa.  The energy bound
 * (which holds for every state of that energy, e.g. all of it in the
 * lightest link) is used when it allows more; the settings' own step
 * (fastest small oscillation, damping, forcing) stays the ceiling.  With
 * very unequal masses the energy bound is up to a hundred times shorter
 * than the motion needs. */
static double spherical_step_bound_at(const pendula_system *sys, const pendula_state *s,
                                      const double *qdot, const double *qddot,
                                      const float *inv_mass, double energy_norm)
{
	(void)qddot; /* (an angle model's; this one has none) */
	(void)inv_mass;
	const spherical_model *sm = SM(sys);
	const double h_energy = spherical_step_bound(sys, energy_norm);
	if (!(h_energy < sm->h_params))
		return h_energy;
	const int n = sys->n;
	double g3[3], acc[3 * NL];
	pendula_effective_gravity_at(sys, s, g3);
	accel_with(sm, n, s->q, qdot, g3, acc);
	double W = 0.0, A = 0.0;
	for (int k = 0; k < n; ++k) {
		double w[3], a[3];
		for (int i = 0; i < 3; ++i) {
			w[i] = qdot[3 * k + i] - (k > 0 ? qdot[3 * (k - 1) + i] : 0.0);
			a[i] = acc[3 * k + i] - (k > 0 ? acc[3 * (k - 1) + i] : 0.0);
		}
		const double inv_l = 1.0 / sm->l[k];
		W += sqrt(dot3(w, w)) * inv_l;
		A += sqrt(dot3(a, a)) * inv_l;
	}
	return fmin(pendula_state_step(W, A, KAPPA_MOTION, h_energy), sm->h_params);
}

static void spherical_canonical(const pendula_system *sys, pendula_state *s, double *shift)
{
	(void)shift; /* nothing wraps */
	for (int i = 0; i < sys->dof; ++i) {
		s->q[i] = pendula_flush(s->q[i]);
		s->p[i] = pendula_flush(s->p[i]);
	}
}

static void spherical_measure(const pendula_system *sys, const pendula_state *s, double *qdot,
                              double *val, double *der)
{
	const spherical_model *sm = SM(sys);
	const int n = sys->n;
	spherical_velocity(sys, s->q, s->p, qdot);
	const double inv_len = 1.0 / sys->tip_length;
	const double *tip = s->q + 3 * (n - 1), *tip_v = qdot + 3 * (n - 1);
	val[PENDULA_CH_TIP_X] = tip[0] * inv_len;
	val[PENDULA_CH_TIP_Y] = tip[1] * inv_len;
	val[PENDULA_CH_TIP_Z] = tip[2] * inv_len;
	der[PENDULA_CH_TIP_X] = tip_v[0] * inv_len;
	der[PENDULA_CH_TIP_Y] = tip_v[1] * inv_len;
	der[PENDULA_CH_TIP_Z] = tip_v[2] * inv_len;
	for (int k = 0; k < n; ++k) {
		double d[3], w[3];
		link_vec(s->q, k, d);
		link_vec(qdot, k, w);
		const double inv_l = 1.0 / sm->l[k];
		val[PENDULA_CH_X + k] = d[0] * inv_l;
		val[PENDULA_CH_Y + k] = d[1] * inv_l;
		val[PENDULA_CH_Z + k] = d[2] * inv_l;
		der[PENDULA_CH_X + k] = w[0] * inv_l;
		der[PENDULA_CH_Y + k] = w[1] * inv_l;
		der[PENDULA_CH_Z + k] = w[2] * inv_l;
	}
	double g3[3];
	pendula_effective_gravity_at(sys, s, g3);
	val[PENDULA_CH_ENERGY] = pendula_energy_normalised(sys, spherical_energy(sys, s->q, qdot));
	der[PENDULA_CH_ENERGY] = power_with(sys, s->q, qdot, g3) / sys->energy_range;
}

static void spherical_fresh(const pendula_system *sys, const pendula_state *s, double *qdot,
                            double *val, double *der)
{
	spherical_measure(sys, s, qdot, val, der);
}

/* Directions from the frame's x{k}, y{k}, z{k} channels. */
/* A frame as a reader of the outputs rebuilds it (pendula_frame_from_ports)
 * carries the direction of link 1 and the tip only: the directions of the
 * links in between are then 0.  Those links are drawn from the last known
 * bob straight toward the tip, and the last bob is put on the tip (exact
 * for N <= 2; for N > 2 the links in between are a guess). */
static void spherical_coords(const pendula_system *sys, const pendula_frame *f, double *q)
{
	const spherical_model *sm = SM(sys);
	double r[3] = {0, 0, 0};
	const double tip[3] = {f->tip_x, f->tip_y, f->tip_z};
	for (int k = 0; k < sys->n; ++k) {
		double u[3] = {f->x[k], f->y[k], f->z[k]};
		double len = sqrt(dot3(u, u));
		if (!(len > 0.0) && k > 0) {
			for (int i = 0; i < 3; ++i)
				u[i] = k == sys->n - 1 ? tip[i] - r[i] : (tip[i] - r[i]) / sm->l[k];
			len = k == sys->n - 1 ? 1.0 : fmax(1.0, sqrt(dot3(u, u)));
			if (k == sys->n - 1) {
				for (int i = 0; i < 3; ++i)
					q[3 * k + i] = r[i] + u[i];
				break;
			}
		}
		for (int i = 0; i < 3; ++i) {
			r[i] += sm->l[k] * (len > 0.0 ? u[i] / len : (i == 1 ? -1.0 : 0.0));
			q[3 * k + i] = r[i];
		}
	}
}

/* Thin rods and bobs in 3-D; the last bob is the marker and leaves the
 * trail.  The handles set theta{k} in the plane of the view (x, y). */
static void spherical_pose(const pendula_system *sys, const double *q, pendula_vec3 pivot,
                           double wave_phase, pendula_pose *pose)
{
	(void)wave_phase;
	const spherical_model *sm = SM(sys);
	memset(pose, 0, sizeof(*pose));
	pose->point[0].p = pivot;
	pose->point[0].kind = PENDULA_POINT_PIVOT;
	pose->point[0].body = -1;
	double reach = 0.0;
	for (int k = 0; k < sys->n; ++k) {
		pendula_pose_point *pt = &pose->point[k + 1];
		pt->p.x = pivot.x + pendula_finite_or(q[3 * k + 0], 0.0);
		pt->p.y = pivot.y + pendula_finite_or(q[3 * k + 1], 0.0);
		pt->p.z = pivot.z + pendula_finite_or(q[3 * k + 2], 0.0);
		pt->kind = PENDULA_POINT_BOB;
		pt->body = k;
		pose->rod[k] = (pendula_pose_rod){k, k + 1, PENDULA_ROD_THIN, k};
		pose->handle[k] = (pendula_pose_handle){k, k + 1, 0.0};
		reach += sm->l[k];
	}
	pose->n_points = sys->n + 1;
	pose->n_rods = sys->n;
	pose->n_handles = sys->n;
	pose->marker = sys->n;
	pose->n_tips = 1;
	pose->tip[0] = sys->n;
	pose->reach = reach;
	pose->three_d = 1; /* 3-D even while the motion stays in a plane */
	pose->pivot_excursion.x = sys->force.amp_x;
	pose->pivot_excursion.y = sys->force.amp_y;
	pose->pivot_excursion.z = sys->force.amp_z;
}

/* A pluck strikes the last bob horizontally, half along x and half along
 * z: from rest the swing then shows on the tip's x and z outputs alike, and
 * a swing in one plane struck across it turns into a 3-D one.  (adapt puts
 * the kick back on the rods.) */
static void spherical_strike(const pendula_system *sys, const double *q, double *impulse)
{
	(void)q;
	const int last = 3 * (sys->n - 1);
	memset(impulse, 0, sizeof(double) * (size_t)sys->dof);
	impulse[last + 0] = 1.0;
	impulse[last + 2] = 1.0;
}

const pendula_model_ops pendula_model_spherical = {
    .derive = spherical_derive,
    .initial = spherical_initial,
    .velocity = spherical_velocity,
    .momentum = spherical_momentum,
    .accel = spherical_accel,
    .energy = spherical_energy,
    .power = spherical_power,
    .step = spherical_step,
    .step_base = spherical_step_base,
    .step_bound_at = spherical_step_bound_at,
    .canonical = spherical_canonical,
    .measure = spherical_measure,
    .adapt = spherical_adapt,
    .fresh = spherical_fresh,
    .pose = spherical_pose,
    .coords = spherical_coords,
    .strike = spherical_strike,
    .velocity_outputs = PENDULA_VEL_DIRECTION,
};
