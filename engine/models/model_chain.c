/* SPDX-License-Identifier: ISC */
/*
 * The series multiple pendulum ("chain"): N = 1..6 links in series, each a
 * bob on a massless rod, a uniform rod, or a custom rigid body (note
 * sections 4 and 5; the n-rod note for uniform rods).
 *
 * Geometry (docs/MODELS.md): link 1 hangs from the pivot O1, link k from the far
 * end of link k - 1; with p(th) = (sin th, -cos th),
 *
 *   O_{k+1} = O_k + l_k p(th_k),   G_k = O_k + c_k p(th_k),
 *
 * th_k absolute angles, link k of mass m_k with inertia I_Gk about G_k.
 * From the positions, G_k = sum_{j<k} l_j p(th_j) + c_k p(th_k), so
 *
 *   T = 1/2 sum_k (m_k |G_k'|^2 + I_Gk thdot_k^2) = 1/2 thdot^T R thdot,
 *   R_jk = a_jk cos(th_j - th_k),
 *   a_kk = J_k = I_Gk + m_k c_k^2 + M_k l_k^2,         M_k = sum_{i>k} m_i,
 *   a_jk = l_j mu_k  (j < k),                          mu_k = m_k c_k + M_k l_k,
 *   U   = -g sum_k mu_k cos th_k.
 *
 * This is the note's series mass matrix (section 4, point masses: c_k = l_k,
 * I_Gk = 0; section 5, rigid bodies, with its hinges on the line of the
 * centres, i.e. the C_(d,i) of eq. (208), which eq. (203) misprints as
 * C_(i,d)): R_jk = [sum_{i>max(j,k)} m_i l_j l_k + (j = k ? m_k c_k^2 + I_Gk
 * : m_max c_max l_min)] cos(th_j - th_k).  mu_k is the first moment of link
 * k and everything below it about O_k; U_max - U_min = 2 g sum_k mu_k.
 *
 * Equations (as for every model, model.h): p = R thdot,
 *   pdot_k = dT/dth_k - dU_eff/dth_k + sigma_k - lambda_k thdot_k,
 *   dT/dth_k = -sum_j a_kj sin(th_k - th_j) thdot_k thdot_j,
 *   -dU_eff/dth_k = mu_k (gx cos th_k + gy sin th_k),
 * with (gx, gy) the effective gravity of the frame moving with the pivot.
 *
 * Integrator: Gauss-Legendre collocation with three stages (order 6,
 * scheme_gauss.h) in (theta, p), as the Chaos Man kernel does, with each stage's
 * own damping implicit.  The stage equations are solved by a simplified
 * Newton iteration per stage: the Jacobian of the stage's block at the first
 * guess, factored once per step (LU, N <= 6), then corrections from the
 * exact residual (gauss_n).
 */
#include "scheme_gauss.h"

#include <math.h>
#include <string.h>

#define NMAX PENDULA_MAX_BODIES

/* A solve takes at most MAX_ITERATIONS fixed-point iterations. */
#define MAX_ITERATIONS   10
/* The iteration stops once it moves the angles by at most ITERATION_TOL
 * rad.  Each iteration shrinks the error 20 to 100 times (six rods, the
 * default run), so the angles are then within about 5e-15 rad of the
 * solution: 100 steps forth and back return to about 5e-13
 * (tests/models/test_chain.c; a tighter tolerance costs more iterations for
 * little: docs/BENCHMARKS.md, "Why the constants are what they are") and
 * the energy spreads over 10^7 frames do not change beyond their chaotic
 * variation. */
#define ITERATION_TOL    1e-13
/* Step size: rad per step of the fastest motion (relative turn of two
 * links) for chains of three or more links; two links keep the double
 * pendulum's PENDULA_KAPPA_RATE, so that two bobs reproduce `double`.
 * 0.15 keeps the frames of three rods within the 5e-6 energy spread asked
 * (tests/models/test_chain.c), 0.2 would not (docs/BENCHMARKS.md, "Why the
 * constants are what they are"). */
#define CHAIN_KAPPA      0.15
/* Chains of three or more links also keep omega_load h <= CHAIN_KAPPA_LOAD,
 * omega_load the bound on the fastest small oscillation of the chain as
 * loaded at the state (chain_load_step).  The rate rule alone does not see
 * a long chain's fast phases, where the outer links swing in the frame of a
 * hinge that the links above accelerate far beyond g.  0.6 keeps six rods'
 * spreads well within the bound with fewer steps than 0.4; 0.8 takes more
 * iterations per solve (docs/BENCHMARKS.md, "Why the constants are what
 * they are"). */
#define CHAIN_KAPPA_LOAD 0.6

typedef struct {
	int shape;
	double l[NMAX];  /* hinge to hinge */
	double c[NMAX];  /* hinge to centre of mass (the shape's) */
	double mu[NMAX]; /* m_k c_k + M_k l_k */
	double j[NMAX];  /* I_Gk + m_k c_k^2 + M_k l_k^2 */
	double lambda[NMAX], sigma[NMAX];
	double inv_r_diag_max[NMAX]; /* max over th of diag(R^-1) = diag(R(0)^-1) */
	double g_max;                /* largest effective gravity, m/s^2 */
	double h_params;             /* largest step these settings allow, s */
	double reach;                /* farthest point from the pivot, m */
} pendula_chain;

_Static_assert(sizeof(pendula_chain) <= PENDULA_SYSTEM_BYTES, "model constants fit");

#define CH(sys) PENDULA_MODEL_PART_CONST(pendula_chain, sys)

/* ------------------------------------------------------------------------ */
/* Linear algebra: Cholesky of a symmetric positive-definite n x n matrix    */
/* (lower triangle used) and the solve.                                      */

static inline __attribute__((always_inline)) void cholesky_factor(double a[NMAX][NMAX],
                                                                  double *inv_d, const int n)
{
	for (int j = 0; j < n; ++j) {
		double d = a[j][j];
		for (int k = 0; k < j; ++k)
			d -= a[j][k] * a[j][k];
		/* positive definite for every in-range setting; the floor only
		 * keeps a NaN-free result for settings beyond them */
		inv_d[j] = 1.0 / sqrt(d > 1e-300 ? d : 1e-300);
		for (int i = j + 1; i < n; ++i) {
			double s = a[i][j];
			for (int k = 0; k < j; ++k)
				s -= a[i][k] * a[j][k];
			a[i][j] = s * inv_d[j];
		}
	}
}

/* x = (L L^T)^-1 y with the factor from cholesky_factor (x may be y). */
static inline __attribute__((always_inline)) void cholesky_apply(const double a[NMAX][NMAX],
                                                                 const double *inv_d,
                                                                 const double *y, double *x,
                                                                 const int n)
{
	double z[NMAX];
	for (int i = 0; i < n; ++i) {
		double s = y[i];
		for (int k = 0; k < i; ++k)
			s -= a[i][k] * z[k];
		z[i] = s * inv_d[i];
	}
	for (int i = n - 1; i >= 0; --i) {
		double s = z[i];
		for (int k = i + 1; k < n; ++k)
			s -= a[k][i] * x[k];
		x[i] = s * inv_d[i];
	}
}

static inline __attribute__((always_inline)) void
cholesky_solve(double a[NMAX][NMAX], const double *y, double *x, const int n)
{
	double inv_d[NMAX];
	cholesky_factor(a, inv_d, n);
	cholesky_apply(a, inv_d, y, x, n);
}

/* ------------------------------------------------------------------------ */
/* Settings                                                                 */

/* The settings' step rules (small oscillations, damping, forcing) for
 * diag(R^-1) = inv: K is diagonal (g mu_k cos th_k), so the largest
 * normal-mode omega^2 is at most trace(R^-1 K) <= g_max sum mu_k
 * (R^-1)_kk. */
static double settings_step_for(const pendula_system *sys, const double *inv)
{
	const pendula_chain *ch = CH(sys);
	double omega2 = 0.0, damp = 0.0;
	for (int k = 0; k < sys->n; ++k) {
		omega2 += inv[k] * ch->mu[k] * ch->g_max;
		damp += inv[k] * ch->lambda[k];
	}
	return pendula_settings_step(sys, sqrt(omega2), CHAIN_KAPPA, damp);
}

static void chain_derive(pendula_system *sys, const pendula_params *p)
{
	pendula_chain *ch = PENDULA_MODEL_PART(pendula_chain, sys);
	int n = p->n_bodies;
	n = n < 1 ? 1 : n > NMAX ? NMAX : n;
	sys->n = n;
	sys->dof = n;
	/* Work per iteration (a double-pendulum iteration = 16; docs/NUMERICS.md,
	 * "Bounded work"), fitted so that a unit costs about the same CPU time
	 * in every model (docs/BENCHMARKS.md, "Why the constants are what they
	 * are"): 10 for one link, 68 for six.  Since the stage forces are O(N)
	 * (forces()) an iteration grows about linearly with N, the N x N solve
	 * apart.  A solve done in one iteration still pays its setup (fresh
	 * sines and cosines, the Newton matrices and their LU), so such steps
	 * cost more than their price: up to about 3 times at the cap (docs/NUMERICS.md,
	 * "Bounded work"). */
	sys->work_iteration = (unsigned char)((4 + 16 * n + n * n) / 2);
	int shape = p->shape;
	shape = shape < PENDULA_SHAPE_BOBS     ? PENDULA_SHAPE_BOBS
	        : shape > PENDULA_SHAPE_CUSTOM ? PENDULA_SHAPE_CUSTOM
	                                       : shape;
	ch->shape = shape;
	double m[NMAX], ig[NMAX];
	double length = 0.0;
	for (int k = 0; k < n; ++k) {
		m[k] = pendula_positive(p->m[k], 1e-9);
		const double l = pendula_positive(p->l[k], 1e-9);
		ch->l[k] = l;
		switch (shape) {
		case PENDULA_SHAPE_BOBS:
			ch->c[k] = l;
			ig[k] = 0.0;
			break;
		case PENDULA_SHAPE_RODS:
			ch->c[k] = 0.5 * l;
			ig[k] = m[k] * l * l / 12.0;
			break;
		default:
			ch->c[k] = pendula_nonneg(p->c[k]);
			ig[k] = pendula_positive(p->inertia[k], 1e-12);
			break;
		}
		length += l;
	}
	/* M_k, mu_k, J_k from the last link up */
	double below = 0.0, sum_mu = 0.0;
	for (int k = n - 1; k >= 0; --k) {
		const double l = ch->l[k], c = ch->c[k];
		ch->mu[k] = m[k] * c + below * l;
		ch->j[k] = ig[k] + m[k] * c * c + below * l * l;
		below += m[k];
		sum_mu += ch->mu[k];
	}
	/* Reach: the farthest centre of mass or hinge from the pivot. */
	double reach = 0.0, along = 0.0;
	for (int k = 0; k < n; ++k) {
		reach = fmax(reach, along + fmax(ch->l[k], ch->c[k]));
		along += ch->l[k];
	}
	ch->reach = reach;
	sys->tip_length = length; /* tip_x, tip_y: O_{N+1} / sum l_k */

	for (int k = 0; k < n; ++k) {
		ch->lambda[k] = pendula_nonneg(p->lambda[k]);
		ch->sigma[k] = pendula_finite_or(p->sigma[k], 0.0);
	}
	const double g = sys->g;
	sys->energy_min = -g * sum_mu;
	sys->energy_range = 2.0 * g * sum_mu;
	if (!(sys->energy_range > 1e-6))
		sys->energy_range = 1e-6;

	/* The largest diag(R^-1) over all angles.  With u_j = l_j thdot_j
	 * p'(th_j), T = 1/2 sum_jk Q_jk u_j . u_k with Q = L^-1 R(0) L^-1
	 * independent of th (L = diag l); every u in (R^2)^N is some
	 * (th, thdot), so max_th (R^-1)_kk = (Q^-1)_kk / l_k^2 = (R(0)^-1)_kk,
	 * reached when all links are parallel. */
	for (int k = 0; k < n; ++k) {
		double a[NMAX][NMAX], e[NMAX] = {0}, x[NMAX];
		for (int i = 0; i < n; ++i)
			for (int jj = 0; jj <= i; ++jj)
				a[i][jj] = i == jj ? ch->j[i] : ch->l[jj] * ch->mu[i];
		e[k] = 1.0;
		cholesky_solve(a, e, x, n);
		ch->inv_r_diag_max[k] = x[k] > 0.0 ? x[k] : 0.0;
	}

	/* Stiffness rates that do not depend on the state (1/s): K is
	 * diagonal (g mu_k cos th_k), so the largest normal-mode omega^2 is at
	 * most trace(R^-1 K) <= g_max sum mu_k (R^-1)_kk,max. */
	const pendula_forcing *f = &sys->force;
	ch->g_max = hypot(g + f->accel_y, f->accel_x);
	sys->min_level = PENDULA_LEVEL_GAUSS;
	ch->h_params = settings_step_for(sys, ch->inv_r_diag_max);
}

static void chain_initial(const pendula_system *sys, const pendula_params *p, int from, double *q,
                          double *qdot)
{
	for (int k = from; k < sys->n; ++k) {
		q[k] = pendula_wrap_angle(pendula_finite_or(p->theta_init[k], 0.0));
		qdot[k] = 0.0;
	}
}

/* ------------------------------------------------------------------------ */
/* Physics at one state                                                     */

typedef struct {
	double s[NMAX], c[NMAX];               /* sin, cos th_k */
	double cd[NMAX][NMAX], sd[NMAX][NMAX]; /* cos, sin (th_j - th_k), j < k */
} trig_cache;

static inline __attribute__((always_inline)) void trig_pairs(trig_cache *tc, const int n)
{
	for (int j = 0; j < n; ++j)
		for (int k = j + 1; k < n; ++k) {
			tc->cd[j][k] = tc->c[j] * tc->c[k] + tc->s[j] * tc->s[k];
			tc->sd[j][k] = tc->s[j] * tc->c[k] - tc->c[j] * tc->s[k];
		}
}

static inline __attribute__((always_inline)) void trig_fill(const double *th, trig_cache *tc,
                                                            const int n)
{
	for (int k = 0; k < n; ++k)
		pendula_sincos(th[k], &tc->s[k], &tc->c[k]);
	trig_pairs(tc, n);
}

/* a_jk for j < k */
static inline double coupling(const pendula_chain *ch, int j, int k)
{
	return ch->l[j] * ch->mu[k];
}

/* Lower triangle of R(th) + diag(extra) */
static inline __attribute__((always_inline)) void mass_matrix(const pendula_chain *ch,
                                                              const trig_cache *tc,
                                                              const double *extra,
                                                              double a[NMAX][NMAX], const int n)
{
	for (int k = 0; k < n; ++k) {
		a[k][k] = ch->j[k] + extra[k];
		for (int j = 0; j < k; ++j)
			a[k][j] = coupling(ch, j, k) * tc->cd[j][k];
	}
}

/* -dU_eff/dth_k */
static inline __attribute__((always_inline)) void gravity_force(const pendula_chain *ch,
                                                                const trig_cache *tc, double gx,
                                                                double gy, double *f, const int n)
{
	for (int k = 0; k < n; ++k)
		f[k] = ch->mu[k] * (gx * tc->c[k] + gy * tc->s[k]);
}

static void chain_velocity(const pendula_system *sys, const double *q, const double *p,
                           double *qdot)
{
	const pendula_chain *ch = CH(sys);
	const int n = sys->n;
	trig_cache tc;
	double a[NMAX][NMAX];
	const double zero[NMAX] = {0};
	trig_fill(q, &tc, n);
	mass_matrix(ch, &tc, zero, a, n);
	cholesky_solve(a, p, qdot, n);
}

static void chain_momentum(const pendula_system *sys, const double *q, const double *qdot,
                           double *p)
{
	const pendula_chain *ch = CH(sys);
	const int n = sys->n;
	trig_cache tc;
	trig_fill(q, &tc, n);
	for (int k = 0; k < n; ++k)
		p[k] = ch->j[k] * qdot[k];
	for (int j = 0; j < n; ++j)
		for (int k = j + 1; k < n; ++k) {
			const double r = coupling(ch, j, k) * tc.cd[j][k];
			p[j] += r * qdot[k];
			p[k] += r * qdot[j];
		}
}

/* R thddot = dT/dth - Rdot thdot - dU_eff/dth + F; the first two together
 * are -sum_k a_jk sin(th_j - th_k) thdot_k^2. */
static inline void accel_rhs(const pendula_chain *ch, const trig_cache *tc, const double *w,
                             double gx, double gy, double *rhs, const int n)
{
	gravity_force(ch, tc, gx, gy, rhs, n);
	for (int k = 0; k < n; ++k)
		rhs[k] += ch->sigma[k] - ch->lambda[k] * w[k];
	for (int j = 0; j < n; ++j)
		for (int k = j + 1; k < n; ++k) {
			const double as = coupling(ch, j, k) * tc->sd[j][k];
			rhs[j] -= as * w[k] * w[k];
			rhs[k] += as * w[j] * w[j];
		}
}

static inline void accel_at(const pendula_chain *ch, const trig_cache *tc, const double *w,
                            double gx, double gy, double *acc, const int n)
{
	double rhs[NMAX], a[NMAX][NMAX];
	const double zero[NMAX] = {0};
	accel_rhs(ch, tc, w, gx, gy, rhs, n);
	mass_matrix(ch, tc, zero, a, n);
	cholesky_solve(a, rhs, acc, n);
}

static void chain_accel(const pendula_system *sys, const double *q, const double *qdot,
                        double phase_x, double phase_y, double *acc)
{
	trig_cache tc;
	double gx, gy;
	trig_fill(q, &tc, sys->n);
	pendula_effective_gravity(sys, phase_x, phase_y, &gx, &gy);
	accel_at(CH(sys), &tc, qdot, gx, gy, acc, sys->n);
}

/* The third derivative of the angles: differentiating R thddot = rhs,
 *   R thdddot = d(rhs)/dt - Rdot thddot,
 *   d(rhs_j)/dt = mu_j (g'x cos th_j + g'y sin th_j + w_j (gy cos th_j - gx sin th_j))
 *                 - lambda_j thddot_j - sum_{k != j} a_jk [cos(th_j - th_k) (w_j - w_k) w_k^2
 *                                                      + 2 sin(th_j - th_k) w_k thddot_k],
 *   (Rdot thddot)_j = -sum_{k != j} a_jk sin(th_j - th_k) (w_j - w_k) thddot_k,
 * g' the rate of change of the effective gravity (model.h: gx = A_x sin
 * phase_x, gy = -g + A_y cos phase_y).  This is the right-hand side b;
 * chain_measure_jerk solves R thdddot = b with the factor of R it already
 * has, where the engine's central difference of chain_accel would take two
 * more factorisations. */
static inline void jerk_rhs(const pendula_system *sys, const pendula_state *s, const trig_cache *tc,
                            const double *w, const double *acc, double gx, double gy, double *b,
                            const int n)
{
	const pendula_chain *ch = CH(sys);
	double dgx = 0.0, dgy = 0.0;
	if (sys->force.accel_x > 0.0)
		dgx = sys->force.accel_x * sys->force.omega_x * cos(s->phase_x);
	if (sys->force.accel_y > 0.0)
		dgy = -sys->force.accel_y * sys->force.omega_y * sin(s->phase_y);
	for (int j = 0; j < n; ++j)
		b[j] = ch->mu[j] * (dgx * tc->c[j] + dgy * tc->s[j] +
		                    w[j] * (gy * tc->c[j] - gx * tc->s[j])) -
		       ch->lambda[j] * acc[j];
	for (int j = 0; j < n; ++j)
		for (int k = j + 1; k < n; ++k) {
			/* the pair (j, k) with sin(th_j - th_k) = sd, and (k, j) with -sd */
			const double ajk = coupling(ch, j, k), cd = tc->cd[j][k], sd = tc->sd[j][k];
			const double dw = w[j] - w[k];
			b[j] -= ajk * (cd * dw * w[k] * w[k] + 2.0 * sd * w[k] * acc[k] -
			               sd * dw * acc[k]);
			b[k] -= ajk * (-cd * dw * w[j] * w[j] - 2.0 * sd * w[j] * acc[j] -
			               sd * dw * acc[j]);
		}
}

static inline double energy_at(const pendula_system *sys, const trig_cache *tc, const double *w,
                               const int n)
{
	const pendula_chain *ch = CH(sys);
	double t2 = 0.0, u = 0.0;
	for (int k = 0; k < n; ++k) {
		t2 += ch->j[k] * w[k] * w[k];
		u -= ch->mu[k] * tc->c[k];
		for (int j = 0; j < k; ++j)
			t2 += 2.0 * coupling(ch, j, k) * tc->cd[j][k] * w[j] * w[k];
	}
	return 0.5 * t2 + sys->g * u;
}

static double chain_energy(const pendula_system *sys, const double *q, const double *qdot)
{
	trig_cache tc;
	trig_fill(q, &tc, sys->n);
	return energy_at(sys, &tc, qdot, sys->n);
}

/* dE/dt = sum (sigma - lambda w) w + w^T Q, Q the forcing part of -dU_eff/dth. */
static inline double power_at(const pendula_system *sys, const trig_cache *tc, const double *w,
                              double gx, double gy, const int n)
{
	const pendula_chain *ch = CH(sys);
	double q[NMAX], pw = 0.0;
	gravity_force(ch, tc, gx, gy + sys->g, q, n);
	for (int k = 0; k < n; ++k)
		pw += (ch->sigma[k] - ch->lambda[k] * w[k] + q[k]) * w[k];
	return pw;
}

static double chain_power(const pendula_system *sys, const double *q, const double *qdot,
                          double phase_x, double phase_y)
{
	trig_cache tc;
	double gx, gy;
	trig_fill(q, &tc, sys->n);
	pendula_effective_gravity(sys, phase_x, phase_y, &gx, &gy);
	return power_at(sys, &tc, qdot, gx, gy, sys->n);
}

/* ------------------------------------------------------------------------ */
/* The integrator                                                           */

/*
 * The stage solves (gauss_n below) are a simplified Newton iteration in
 * residual form: the Jacobian of each stage's residual at the first guess
 * (newton_matrix) is factored once per step, and each iteration corrects
 * the stage velocities by those factors applied to the exact residuals.
 * The first guess extrapolates the last steps' stage velocities plus the
 * error the same stage's guess made in the step before (scheme_gauss.h,
 * pendula_gauss_guess).
 * Between iterations the stage angles move little, so sin and cos follow
 * by Taylor's formula to the third order instead of being evaluated again.
 */
/* Angle moves below this (rad) update sin, cos by Taylor's formula, whose
 * error eps^4/24 is then below 5e-18. */
#define TAYLOR_EPS 1e-4

/*
 * The iteration works on the three stages at once: a quantity of link k is
 * a vector of four lanes, one per stage (the fourth a copy of the third,
 * which it stays: it sees the same operations), so that the same
 * arithmetic of the three stages runs as vector instructions (two SSE2
 * ones, or one AVX2 one where the CPU has it: chain_step is compiled for
 * both and chosen at load time).  Each lane does exactly the operations of
 * its stage's scalar evaluation, in the same order and without
 * contraction, so the results do not depend on the path.
 */
typedef double lanes __attribute__((vector_size(4 * sizeof(double))));
typedef long long lane_bits __attribute__((vector_size(4 * sizeof(long long))));
#define LANES 4

/* th = q + h rate, with the sines and cosines of th from the last ones
 * (the pairs are not needed: the iteration does not read them) */
static inline __attribute__((always_inline)) void
follow(const double *q, const lanes *rate, double h, lanes *th, lanes *sn, lanes *cs, const int n)
{
	for (int k = 0; k < n; ++k) {
		const lanes moved = q[k] + h * rate[k];
		const lanes e = moved - th[k];
		th[k] = moved;
		const lanes sk = sn[k], ck = cs[k];
		const lanes e2 = 0.5 * e * e;
		const lanes e3 = e2 * e * (1.0 / 3.0);
		sn[k] = sk + (ck * e - sk * e2 - ck * e3);
		cs[k] = ck - (sk * e + ck * e2 - sk * e3);
		/* a lane that moved too far (or NaN) evaluates afresh */
		int far = 0;
		for (int l = 0; l < LANES; ++l)
			far |= !(fabs(e[l]) < TAYLOR_EPS);
		for (int l = 0; far && l < LANES; ++l)
			if (!(fabs(e[l]) < TAYLOR_EPS)) {
				double sv, cv;
				pendula_sincos(moved[l], &sv, &cv);
				sn[k][l] = sv;
				cs[k][l] = cv;
			}
	}
}

/* f = dT/dth(th, w) - dU_eff/dth(th) + sigma and rw = (R(th) + diag(damp)) w
 * in O(n), without the pairs' sines and cosines: with C_j = sum_{k != j}
 * a_jk cos(th_k) w_k and S_j the same with sin(th_k),
 *   (R w)_j = J_j w_j + cos(th_j) C_j + sin(th_j) S_j,
 *   dT/dth_j = -sum_{k != j} a_jk sin(th_j - th_k) w_j w_k
 *            = -w_j (sin(th_j) C_j - cos(th_j) S_j),
 * and since a_jk = l_j mu_k for j < k (l_k mu_j for k < j) the sums split
 * into a prefix sum of l_k cos(th_k) w_k times mu_j and a suffix sum of
 * mu_k cos(th_k) w_k times l_j (R is semiseparable: the recursion of the
 * n-rod note).  About 19 n multiplications instead of the pairwise form's
 * 5 n (n - 1) / 2 + n^2 and the n (n - 1) / 2 pairs' sines and cosines,
 * which pays from five links on (docs/BENCHMARKS.md, "Why the constants
 * are what they are"). */
static inline __attribute__((always_inline)) void
forces(const pendula_chain *ch, const lanes *sn, const lanes *cs, const lanes *gx, const lanes *gy,
       const lanes *w, const lanes *damp, lanes *f, lanes *rw, const int n)
{
	lanes cw[NMAX], sw[NMAX], C[NMAX], S[NMAX];
	for (int k = 0; k < n; ++k) {
		cw[k] = cs[k] * w[k];
		sw[k] = sn[k] * w[k];
	}
	lanes pc = {0.0, 0.0, 0.0, 0.0}, ps = pc; /* sum_{k<j} l_k (cos, sin)(th_k) w_k */
	for (int j = 0; j < n; ++j) {
		C[j] = ch->mu[j] * pc;
		S[j] = ch->mu[j] * ps;
		pc += ch->l[j] * cw[j];
		ps += ch->l[j] * sw[j];
	}
	lanes qc = {0.0, 0.0, 0.0, 0.0}, qs = qc; /* sum_{k>j} mu_k (cos, sin)(th_k) w_k */
	for (int j = n - 1; j >= 0; --j) {
		C[j] += ch->l[j] * qc;
		S[j] += ch->l[j] * qs;
		qc += ch->mu[j] * cw[j];
		qs += ch->mu[j] * sw[j];
	}
	for (int j = 0; j < n; ++j) {
		f[j] = ch->mu[j] * (*gx * cs[j] + *gy * sn[j]); /* gravity_force */
		f[j] += ch->sigma[j] - w[j] * (sn[j] * C[j] - cs[j] * S[j]);
		rw[j] = (ch->j[j] + damp[j]) * w[j] + (cs[j] * C[j] + sn[j] * S[j]);
	}
}

/* The Jacobian of the midpoint residual
 *   F(w) = (R(th_m) + h/2 Lambda) w - p0 - h/2 f(th_m, w),  th_m = th0 + h/2 w,
 * which is also the diagonal block of a Gauss-Legendre stage's residual
 * with h/2 replaced by h a_ii, at the first guess (hh = h/2, S_jk, C_jk = sin, cos (th_j - th_k),
 * B, D the sums below):
 *   dF_j/dw_k = a_jk [C_jk + hh S_jk (w_j + w_k) - hh^2 C_jk w_j w_k]  (j != k),
 *   dF_k/dw_k = J_k + hh lambda_k - hh^2 (dG_k/dth_k - w_k D_k),
 *   D_k = sum_{j != k} a_jk C_jk w_j,  G_k = mu_k (gx cos th_k + gy sin th_k);
 * the first-order terms of the diagonal (from R and from dT/dth) cancel. */
static inline __attribute__((always_inline)) void
newton_matrix(const pendula_chain *ch, const trig_cache *tc, const double *w, const double *damp,
              double gx, double gy, double hh, double m[NMAX][NMAX], const int n)
{
	double d[NMAX];
	for (int k = 0; k < n; ++k)
		d[k] = 0.0;
	const double hh2 = hh * hh;
	for (int j = 0; j < n; ++j)
		for (int k = j + 1; k < n; ++k) {
			const double ajk = coupling(ch, j, k);
			const double c = ajk * tc->cd[j][k], sv = ajk * tc->sd[j][k];
			const double even = c * (1.0 - hh2 * w[j] * w[k]);
			const double odd = hh * sv * (w[j] + w[k]);
			m[j][k] = even + odd;
			m[k][j] = even - odd;
			d[j] += c * w[k];
			d[k] += c * w[j];
		}
	for (int k = 0; k < n; ++k) {
		const double dg = ch->mu[k] * (gy * tc->c[k] - gx * tc->s[k]);
		m[k][k] = ch->j[k] + damp[k] - hh2 * (dg - w[k] * d[k]);
	}
}

/* LU without pivoting (the matrix is R + O(h |w|), R positive definite);
 * 0 if a pivot is not positive (then a solve with the factor gives NaN).
 * (Here and in lu_apply the triangular loops are unrolled for the
 * dispatched n: the same operations in the same order, fewer
 * instructions; docs/BENCHMARKS.md, "Why the constants are what they
 * are".) */
static inline __attribute__((always_inline)) int lu_factor(double m[NMAX][NMAX], double *inv_u,
                                                           const int n)
{
	for (int k = 0; k < n; ++k) {
		const double piv = m[k][k];
		if (!(piv > 1e-300)) {
			for (int i = k; i < n; ++i)
				inv_u[i] = NAN;
			return 0;
		}
		inv_u[k] = 1.0 / piv;
#pragma GCC unroll 6
		for (int i = k + 1; i < n; ++i) {
			const double l = m[i][k] * inv_u[k];
			m[i][k] = l;
#pragma GCC unroll 6
			for (int j = k + 1; j < n; ++j)
				m[i][j] -= l * m[k][j];
		}
	}
	return 1;
}

/* x = (L U)^-1 x, each lane with its own factor */
static inline __attribute__((always_inline)) void
lu_apply(const lanes m[NMAX][NMAX], const lanes *inv_u, lanes *x, const int n)
{
#pragma GCC unroll 6
	for (int i = 1; i < n; ++i)
#pragma GCC unroll 6
		for (int k = 0; k < i; ++k)
			x[i] -= m[i][k] * x[k];
#pragma GCC unroll 6
	for (int i = n - 1; i >= 0; --i) {
		lanes sum = x[i];
#pragma GCC unroll 6
		for (int k = i + 1; k < n; ++k)
			sum -= m[i][k] * x[k];
		x[i] = sum * inv_u[i];
	}
}

/*
 * One Gauss-Legendre step (scheme_gauss.h: three stages, order 6) in (theta, p),
 * the chain's form of the Chaos Man kernel's (model_parallel.c):
 *   th_i = th0 + h sum_j a_ij W_j,
 *   (R(th_i) + h a_ii Lambda) W_i = p0 + h sum_j a_ij f_j - h sum_{j!=i} a_ij Lambda W_j,
 *   th1 = th0 + h sum_i b_i W_i,  p1 = p0 + h sum_i b_i (f_i - Lambda W_i),
 * f_i = dT/dth(th_i, W_i) - dU_eff/dth(th_i, t0 + c_i h) + sigma.  Each
 * stage's residual is corrected by the factored Jacobian of its own block,
 * which is the midpoint rule's (newton_matrix) with h/2 replaced by h a_ii,
 * taken at the first guess; the coupling between the stages converges by
 * the iteration.  Returns the stage evaluations (iterations x 3).
 */
static inline __attribute__((always_inline)) int
gauss_n(const pendula_system *sys, pendula_state *s, double h, pendula_predictor *pr, const int n)
{
	enum { S = PENDULA_GAUSS_STAGES };
	const pendula_chain *ch = CH(sys);
	double gx[S], gy[S], damp[S][NMAX];
	pendula_gauss_gravity(sys, s, h, gx, gy);
	for (int i = 0; i < S; ++i)
		for (int k = 0; k < n; ++k)
			damp[i][k] = h * pendula_gauss_a[i][i] * ch->lambda[k];
	double w[S][NMAX], extrapolated[S][NMAX];
	pendula_gauss_guess(pr, h, w, extrapolated, n);

	double th[S][NMAX], f[S][NMAX], lu[S][NMAX][NMAX], inv_u[S][NMAX];
	trig_cache tc[S];
	for (int i = 0; i < S; ++i) {
		pendula_gauss_stage_angles(s->q, w, h, i, th[i], n);
		trig_fill(th[i], &tc[i], n);
		newton_matrix(ch, &tc[i], w[i], damp[i], gx[i], gy[i], h * pendula_gauss_a[i][i],
		              lu[i], n);
		if (!lu_factor(lu[i], inv_u[i], n)) {
			/* far from the solution: R + h a_ii Lambda alone */
			for (int k = 0; k < n; ++k) {
				lu[i][k][k] = ch->j[k] + damp[i][k];
				for (int j = 0; j < k; ++j)
					lu[i][k][j] = lu[i][j][k] =
					    coupling(ch, j, k) * tc[i].cd[j][k];
			}
			lu_factor(lu[i], inv_u[i], n);
		}
	}
	/* the stages into lanes (the fourth lane: the third stage again) */
	/* (written and read element by element through the double views,
	 * which compilers store and load plainly, as vectors otherwise) */
	union {
		lanes v[NMAX];
		double d[NMAX][LANES];
	} Wu, THu, SNu, CSu, DAMPu, Fu, INVUu;
	union {
		lanes v[NMAX][NMAX];
		double d[NMAX][NMAX][LANES];
	} LUu;
	union {
		lanes v[S + 2];
		double d[S + 2][LANES];
	} cu; /* acol[j] = (a_0j, a_1j, a_2j, a_2j), then GX, GY */
	union {
		lane_bits v[S];
		long long d[S][LANES];
	} offu; /* all ones where the lane's stage is not j */
	for (int l = 0; l < LANES; ++l) {
		const int i = l < S ? l : S - 1;
		cu.d[S][l] = gx[i];
		cu.d[S + 1][l] = gy[i];
		for (int j = 0; j < S; ++j) {
			cu.d[j][l] = pendula_gauss_a[i][j];
			offu.d[j][l] = i == j ? 0 : -1;
		}
		for (int k = 0; k < n; ++k) {
			Wu.d[k][l] = w[i][k];
			THu.d[k][l] = th[i][k];
			SNu.d[k][l] = tc[i].s[k];
			CSu.d[k][l] = tc[i].c[k];
			DAMPu.d[k][l] = damp[i][k];
			INVUu.d[k][l] = inv_u[i][k];
			for (int j = 0; j < n; ++j)
				LUu.d[k][j][l] = lu[i][k][j];
		}
	}
	lanes *const W = Wu.v, *const TH = THu.v, *const SN = SNu.v, *const CS = CSu.v;
	lanes *const F = Fu.v;
	const lanes *const DAMP = DAMPu.v, *const INVU = INVUu.v, *const acol = cu.v;
	const lanes(*const LU)[NMAX] = LUu.v;
	const lane_bits *const off_diag = offu.v;
	const lanes GX = cu.v[S], GY = cu.v[S + 1];
	int it = 0;
	double step_change = 0.0;
	for (;;) {
		if (++it > 1) {
			/* the stage angles th0 + h sum_j a_ij W_j, sin and cos */
			lanes rate[NMAX];
			for (int k = 0; k < n; ++k) {
				lanes sum = {0.0, 0.0, 0.0, 0.0};
				for (int j = 0; j < S; ++j)
					sum += acol[j] * W[k][j];
				rate[k] = sum;
			}
			follow(s->q, rate, h, TH, SN, CS, n);
		}
		lanes RW[NMAX], r[NMAX];
		forces(ch, SN, CS, &GX, &GY, W, DAMP, F, RW, n);
		for (int k = 0; k < n; ++k) {
			/* residual p0 + h sum_j a_ij (f_j - [j != i] Lambda W_j)
			 *          - (R(th_i) + h a_ii Lambda) W_i */
			lanes sum = {0.0, 0.0, 0.0, 0.0};
			for (int j = 0; j < S; ++j) {
				const double dj = ch->lambda[k] * W[k][j];
				/* (the bits of dj, or +0.0 in stage j's own lane) */
				const lanes damp_j =
				    (lanes)((lane_bits)(lanes){dj, dj, dj, dj} & off_diag[j]);
				sum += acol[j] * (F[k][j] - damp_j);
			}
			r[k] = s->p[k] + h * sum - RW[k];
		}
		lu_apply(LU, INVU, r, n);
		double change = 0.0;
		for (int k = 0; k < n; ++k) {
			for (int l = 0; l < S; ++l) {
				const double d = fabs(r[k][l]);
				change = d > change ? d : change;
			}
			W[k] += r[k];
		}
		step_change = change * fabs(h);
		if (!(step_change > ITERATION_TOL))
			break; /* converged (or NaN: caught by the engine) */
		if (it >= MAX_ITERATIONS)
			break;
	}
	if (!(step_change <= PENDULA_SOLVE_FAILED))
		pr->failed = 1; /* diverging or NaN: the engine halves the step */
	/* out of the lanes */
	for (int i = 0; i < S; ++i)
		for (int k = 0; k < n; ++k) {
			w[i][k] = Wu.d[k][i];
			f[i][k] = Fu.d[k][i];
			tc[i].s[k] = SNu.d[k][i];
			tc[i].c[k] = CSu.d[k][i];
		}
	/* the power of the non-conservative forces at each stage (at the last
	 * iteration's stage angles: they differ from the final ones by far
	 * less than the energy check looks at) */
	double power[S];
	for (int i = 0; i < S; ++i)
		power[i] = power_at(sys, &tc[i], w[i], gx[i], gy[i], n);
	pendula_gauss_finish(sys, s, h, pr, w, f, ch->lambda, power, extrapolated, n);
	return it * S;
}

#define CHAIN_DISPATCH(call)    \
	switch (sys->n) {       \
	case 1:                 \
		return call(1); \
	case 2:                 \
		return call(2); \
	case 3:                 \
		return call(3); \
	case 4:                 \
		return call(4); \
	case 5:                 \
		return call(5); \
	default:                \
		return call(6); \
	}

/* (the lanes of the iteration in AVX2 where the CPU has it) */
PENDULA_SIMD_CLONES static int chain_step(const pendula_system *sys, pendula_state *s, double h,
                                          pendula_predictor *pr)
{
#define CALL(n) gauss_n(sys, s, h, pr, n)
	CHAIN_DISPATCH(CALL)
#undef CALL
}

/* Radians of relative turn of two links per step.  Two links get the double
 * pendulum's allowance (the same rule on the same quantities, so chain with
 * two bobs reproduces double); longer chains pass energy through more links
 * and keep CHAIN_KAPPA (see there). */
static double chain_kappa(const pendula_system *sys)
{
	return sys->n <= 2 ? PENDULA_KAPPA_RATE : CHAIN_KAPPA;
}

static double chain_step_bound(const pendula_system *sys, double energy_norm)
{
	const pendula_chain *ch = CH(sys);
	/* T <= E - U_min, |w_k| <= sqrt(2 T max (R^-1)_kk); the coupling
	 * terms see the relative speeds of two links, so the rate is the sum
	 * of the two largest bounds. */
	double t_max = energy_norm * sys->energy_range;
	if (!(t_max > 0.0))
		t_max = 0.0;
	double first = 0.0, second = 0.0;
	for (int k = 0; k < sys->n; ++k) {
		const double v = ch->inv_r_diag_max[k];
		if (v > first) {
			second = first;
			first = v;
		} else if (v > second) {
			second = v;
		}
	}
	const double speed = sqrt(2.0 * t_max * first) + sqrt(2.0 * t_max * second);
	const double kappa = chain_kappa(sys);
	double h_need = ch->h_params;
	if (speed * h_need > kappa)
		h_need = kappa / speed;
	return h_need;
}

/* The sum of the two largest of |x_k|: a bound on every relative rate. */
static double two_largest(const double *x, int n)
{
	double first = 0.0, second = 0.0;
	for (int k = 0; k < n; ++k) {
		const double v = fabs(x[k]);
		if (v > first) {
			second = first;
			first = v;
		} else if (v > second) {
			second = v;
		}
	}
	return first + second;
}

/* The step that keeps omega_load h <= CHAIN_KAPPA_LOAD.  Link k swings about
 * its hinge O_k in the frame of that hinge, where gravity is g_eff - a_k,
 * a_k = sum_{j<k} l_j (thddot_j p'(th_j) - thdot_j^2 p(th_j)) the hinge's
 * acceleration: its stiffness is at most mu_k (g_max + |a_k|), |a_k| <=
 * sum_{j<k} l_j (thdot_j^2 + |thddot_j|).  (These are the terms
 * a_jk cos(th_j - th_k) thdot_j^2 of the linearised equations.)  As for
 * h_params, omega^2 <= trace(R^-1 K) <= sum_k (R^-1)_kk,max mu_k (g_max +
 * |a_k|). */
static double chain_load_step(const pendula_system *sys, const double *qdot, const double *qddot,
                              const double *inv_r_diag)
{
	const pendula_chain *ch = CH(sys);
	double omega2 = 0.0, hinge = 0.0;
	for (int k = 0; k < sys->n; ++k) {
		omega2 += inv_r_diag[k] * ch->mu[k] * (ch->g_max + hinge);
		hinge += ch->l[k] * (qdot[k] * qdot[k] + fabs(qddot[k]));
	}
	/* no load (g_max 0, at rest): no bound from here; infinite speeds give
	 * 0 (the engine's smallest step); a NaN state is caught after the
	 * step, as for every model */
	return omega2 > 0.0 ? CHAIN_KAPPA_LOAD / sqrt(omega2) : pendula_scheme_h_max(sys);
}

/* diag(R^-1) from the Cholesky factor of R (cholesky_factor's a, inv_d):
 * with R = L L^T, R^-1 = L^-T L^-1, so (R^-1)_kk is the squared norm of
 * column k of L^-1 (the triangular inverse, n^3/6 products instead of n
 * solves' n^3). */
static inline __attribute__((always_inline)) void
inv_r_diag_from(const double a[NMAX][NMAX], const double *inv_d, double *out, const int n)
{
	for (int k = 0; k < n; ++k) {
		/* x = column k of L^-1: x_k = 1 / L_kk, x_i = -(sum_{k<=m<i} L_im x_m) / L_ii */
		double x[NMAX], sum = inv_d[k] * inv_d[k];
		x[k] = inv_d[k];
		for (int i = k + 1; i < n; ++i) {
			double t = 0.0;
			for (int m = k; m < i; ++m)
				t += a[i][m] * x[m];
			x[i] = -t * inv_d[i];
			sum += x[i] * x[i];
		}
		/* (NaN: 0; a NaN state is caught after the step) */
		out[k] = sum > 0.0 ? sum : 0.0;
	}
}

/* diag(R^-1) at the angles q.  (The engine's steps get it from
 * measure_with, which factors R at the same state anyway: a step chooses
 * its length with it; this is for new settings.) */
static void inv_r_diag_at(const pendula_chain *ch, const double *q, double *out, const int n)
{
	trig_cache tc;
	trig_fill(q, &tc, n);
	double a[NMAX][NMAX], inv_d[NMAX];
	const double zero[NMAX] = {0};
	mass_matrix(ch, &tc, zero, a, n);
	cholesky_factor(a, inv_d, n);
	inv_r_diag_from(a, inv_d, out, n);
}

/* The settings' step rules (small oscillations, damping, forcing) with
 * diag(R^-1) at the step's angles instead of its worst case over all
 * angles (h_params, all links parallel), as the Chaos Man kernel does. */
static double settings_step_at(const pendula_system *sys, const double *inv_r_diag)
{
	const double h = settings_step_for(sys, inv_r_diag), h_params = CH(sys)->h_params;
	return h > h_params ? h : h_params;
}

/* The step from the actual motion, as the Chaos Man kernel does: the
 * relative speed of two links extrapolated over the step with the current
 * accelerations turns by at most chain_kappa(), and the energy bound
 * is used when it allows more.  For N = 2 bobs this is the double
 * pendulum's rule (same quantities), so chain reproduces double. */
static double chain_step_bound_at(const pendula_system *sys, const pendula_state *s,
                                  const double *qdot, const double *qddot, const float *inv_mass,
                                  double energy_norm)
{
	const pendula_chain *ch = CH(sys);
	const double h_energy = chain_step_bound(sys, energy_norm);
	if (!(h_energy < ch->h_params))
		return h_energy;
	double acc[NMAX];
	if (qddot)
		memcpy(acc, qddot, sizeof(double) * (size_t)sys->n);
	else
		chain_accel(sys, s->q, qdot, s->phase_x, s->phase_y, acc);
	double inv_r_diag[NMAX];
	if (inv_mass) /* diag(R^-1) from measure_with's factor */
		for (int k = 0; k < sys->n; ++k)
			inv_r_diag[k] = inv_mass[k];
	else
		inv_r_diag_at(ch, s->q, inv_r_diag, sys->n);
	const double W = two_largest(qdot, sys->n), A = two_largest(acc, sys->n);
	const double h = fmin(pendula_state_step(W, A, chain_kappa(sys), h_energy),
	                      settings_step_at(sys, inv_r_diag));
	return sys->n <= 2 ? h : fmin(h, chain_load_step(sys, qdot, acc, inv_r_diag));
}

static void chain_canonical(const pendula_system *sys, pendula_state *s, double *shift)
{
	for (int k = 0; k < sys->n; ++k) {
		const double wrapped = pendula_wrap_angle(s->q[k]);
		shift[PENDULA_CH_THETA + k] += wrapped - s->q[k];
		s->q[k] = pendula_flush(wrapped);
		s->p[k] = pendula_flush(s->p[k]);
	}
}

/* The channels at the state, and with jerk the angles' third derivative
 * (one factorisation of R for the velocities, the accelerations and the
 * jerk). */
static inline __attribute__((always_inline)) void measure_with(const pendula_system *sys,
                                                               const pendula_state *s, double *qdot,
                                                               double *val, double *der,
                                                               double *jerk, float *inv_mass)
{
	const pendula_chain *ch = CH(sys);
	const int n = sys->n;
	trig_cache tc;
	double a[NMAX][NMAX];
	const double zero[NMAX] = {0};
	double inv_d[NMAX];
	trig_fill(s->q, &tc, n);
	mass_matrix(ch, &tc, zero, a, n);
	cholesky_factor(a, inv_d, n);
	cholesky_apply(a, inv_d, s->p, qdot, n);
	for (int k = 0; k < NMAX; ++k) {
		val[PENDULA_CH_THETA + k] = k < n ? s->q[k] : 0.0;
		der[PENDULA_CH_THETA + k] = k < n ? qdot[k] : 0.0;
	}
	/* tip O_{N+1} = sum l_k p(th_k), divided by sum l_k */
	const double scale = 1.0 / sys->tip_length;
	double x = 0.0, y = 0.0, vx = 0.0, vy = 0.0;
	for (int k = 0; k < n; ++k) {
		const double l = ch->l[k] * scale;
		x += l * tc.s[k];
		y -= l * tc.c[k];
		vx += l * tc.c[k] * qdot[k];
		vy += l * tc.s[k] * qdot[k];
	}
	val[PENDULA_CH_TIP_X] = x;
	val[PENDULA_CH_TIP_Y] = y;
	der[PENDULA_CH_TIP_X] = vx;
	der[PENDULA_CH_TIP_Y] = vy;
	double gx, gy, acc[NMAX];
	pendula_effective_gravity(sys, s->phase_x, s->phase_y, &gx, &gy);
	val[PENDULA_CH_ENERGY] = pendula_energy_normalised(sys, energy_at(sys, &tc, qdot, n));
	der[PENDULA_CH_ENERGY] = power_at(sys, &tc, qdot, gx, gy, n) / sys->energy_range;
	/* R thddot = rhs with the factor of R above */
	accel_rhs(ch, &tc, qdot, gx, gy, acc, n);
	cholesky_apply(a, inv_d, acc, acc, n);
	for (int k = 0; k < NMAX; ++k) {
		val[PENDULA_CH_OMEGA + k] = k < n ? qdot[k] : 0.0;
		der[PENDULA_CH_OMEGA + k] = k < n ? acc[k] : 0.0;
	}
	if (jerk) {
		jerk_rhs(sys, s, &tc, qdot, acc, gx, gy, jerk, n);
		cholesky_apply(a, inv_d, jerk, jerk, n);
	}
	if (inv_mass) {
		/* zeroed: the conversion below is vectorised over all NMAX
		 * entries, and stack garbage past n may be a subnormal operand */
		double inv_r_diag[NMAX] = {0.0};
		inv_r_diag_from(a, inv_d, inv_r_diag, n);
		for (int k = 0; k < NMAX; ++k)
			inv_mass[k] = k < n ? (float)inv_r_diag[k] : 0.0f;
	}
}

static void chain_measure_jerk(const pendula_system *sys, const pendula_state *s, double *qdot,
                               double *val, double *der, double *jerk, float *inv_mass)
{
	measure_with(sys, s, qdot, val, der, jerk, inv_mass);
}

/* ------------------------------------------------------------------------ */
/* Pose: bobs as discs on thin rods, rods as bars (custom bodies: a bar and  */
/* a disc at the centre of mass).  Each link's handle is its far end (the   */
/* centre of mass of a custom body may sit on its hinge); the trail follows */
/* the tip O_{N+1};                                                          */
/* the marker is the end of link 2 (link 1 when N = 1).                     */

static int add_point(pendula_pose *pose, double x, double y, pendula_point_kind kind, int body)
{
	const int i = pose->n_points++;
	pose->point[i].p = (pendula_vec3){x, y, 0.0};
	pose->point[i].kind = kind;
	pose->point[i].body = body;
	return i;
}

static void chain_pose(const pendula_system *sys, const double *q, pendula_vec3 pivot,
                       double wave_phase, pendula_pose *pose)
{
	(void)wave_phase;
	const double pivot_x = pivot.x, pivot_y = pivot.y; /* a planar picture: z = 0 */
	const pendula_chain *ch = CH(sys);
	const int n = sys->n;
	memset(pose, 0, sizeof(*pose));
	int hinge = add_point(pose, pivot_x, pivot_y, PENDULA_POINT_PIVOT, -1);
	double x = pivot_x, y = pivot_y;
	for (int k = 0; k < n; ++k) {
		const double th = pendula_finite_or(q[k], 0.0);
		const double s = sin(th), c = cos(th);
		const double ex = x + ch->l[k] * s, ey = y - ch->l[k] * c;
		pendula_point_kind kind = ch->shape == PENDULA_SHAPE_BOBS ? PENDULA_POINT_BOB
		                          : k + 1 < n                     ? PENDULA_POINT_HINGE
		                                                          : PENDULA_POINT_END;
		const int end = add_point(pose, ex, ey, kind, k);
		if (ch->shape == PENDULA_SHAPE_CUSTOM)
			add_point(pose, x + ch->c[k] * s, y - ch->c[k] * c, PENDULA_POINT_BOB, k);
		pendula_pose_rod *rod = &pose->rod[pose->n_rods++];
		rod->a = hinge;
		rod->b = end;
		rod->kind = ch->shape == PENDULA_SHAPE_BOBS ? PENDULA_ROD_THIN : PENDULA_ROD_BAR;
		rod->body = k;
		pose->handle[k].hinge = hinge;
		pose->handle[k].handle = end;
		pose->handle[k].offset = 0.0;
		if (k == 1 || n == 1)
			pose->marker = end;
		hinge = end;
		x = ex;
		y = ey;
	}
	pose->n_handles = n;
	pose->n_tips = 1;
	pose->tip[0] = hinge;
	pose->reach = ch->reach;
	pose->pivot_excursion.x = sys->force.amp_x;
	pose->pivot_excursion.y = sys->force.amp_y;
}

/* A pluck strikes the far end of the last link across that link
 * (horizontal while it hangs): the generalised impulse of a unit impulse
 * at O_{N+1} = sum_k l_k p(th_k) along p'(th_N), l_k cos(th_k - th_N).  The
 * end of the chain is where a hand plucks a string, and the tip output
 * answers at once. */
static void chain_strike(const pendula_system *sys, const double *q, double *impulse)
{
	const pendula_chain *ch = CH(sys);
	const int n = sys->n;
	memset(impulse, 0, sizeof(double) * (size_t)sys->dof);
	for (int k = 0; k < n; ++k)
		impulse[k] = ch->l[k] * cos(q[k] - q[n - 1]);
}

const pendula_model_ops pendula_model_chain = {
    .derive = chain_derive,
    .initial = chain_initial,
    .velocity = chain_velocity,
    .momentum = chain_momentum,
    .accel = chain_accel,
    .energy = chain_energy,
    .power = chain_power,
    .step = chain_step,
    .step_bound_at = chain_step_bound_at,
    .canonical = chain_canonical,
    .pose = chain_pose,
    .measure_jerk = chain_measure_jerk,
    .strike = chain_strike,
};
