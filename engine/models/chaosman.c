/* SPDX-License-Identifier: ISC */
/*
 * The Chaos Man kernel (chaosman.h; note section 3, with its errata
 * applied): body 1 on the pivot with bodies 2..N hinged on it, shared by
 * the parallel model (model_parallel.c) and the double pendulum
 * (model_double.c), which add their own constants and pictures.
 *
 *   p = R thdot,  pdot = dT/dth - dU_eff/dth + sigma - lambda thdot
 *
 * U_eff uses the effective gravity (gx, gy) = (-Gamma''x, -g - Gamma''y) of
 * the frame moving with the pivot, so pivot forcing keeps the system
 * Hamiltonian (time-dependent).
 *
 * Integrator: Gauss-Legendre collocation with three stages (order 6,
 * scheme_gauss.h) applied to the Hamiltonian equations in (theta, p).  It is
 * symplectic for any Hamiltonian, separable or not, and symmetric.  The
 * stage equations are solved by fixed-point iteration in which each stage's
 * own damping term is taken implicitly (R + h a_ii Lambda is still an
 * arrowhead matrix, solved in O(N)).  (Until 0.2 the kernel composed the
 * implicit midpoint rule to 4th order after Suzuki: at the same accuracy it
 * took about four times the steps; CHANGELOG.md, "Fifth round".)
 */
#include "chaosman.h"
#include "scheme_gauss.h"

#include <math.h>
#include <string.h>

/* A solve takes at most MAX_ITERATIONS fixed-point iterations. */
#define MAX_ITERATIONS 10
/* Fixed-point tolerance on the angle increment, rad. */
#define ITERATION_TOL  1e-14
/* Small oscillations: at most KAPPA_NAT radians of the fastest normal mode
 * per step (an upper bound: trace of R^-1 K with the largest R^-1 over all
 * angles and the peak effective gravity of the forcing).  The earlier
 * composition needed 0.05 (its stages, 0.41 h and -0.66 h, contract the
 * fixed-point iteration by about a third of omega h; stiff damped settings
 * failed at 0.2); the Gauss-Legendre stages contract it by about a fifth of
 * omega h (the spectral radius of a_ij), so 0.1 iterates as fast as the
 * composition did at 0.05 and halves the steps of stiff settings. */
#define KAPPA_NAT      0.1
/* Large motions: at most PENDULA_KAPPA_RATE (model.h) radians per step of
 * body 1 plus the fastest arm (the angles the trigonometry sees turn at that
 * rate). */
#define KAPPA_RATE     PENDULA_KAPPA_RATE

_Static_assert(sizeof(pendula_chaosman) <= PENDULA_SYSTEM_BYTES, "model constants fit");

#define CM(sys) PENDULA_MODEL_PART_CONST(pendula_chaosman, sys)

/* ------------------------------------------------------------------------ */
/* Settings                                                                 */

/* diag(R^-1) of the arrowhead mass matrix, R_11 = r11, R_1k = a_k C_k, R_kk =
 * J_k: with s = R_11 - sum (a_k C_k)^2 / J_k (floored at 1e-300),
 * (R^-1)_11 = 1 / s and (R^-1)_kk = 1 / J_k + (a_k C_k / J_k)^2 / s.  C the
 * C_k at some angles, or NULL for |C_k| = 1: the largest over all angles. */
static void inv_r_diag(const pendula_chaosman *cm, int n, const double *C, double *inv)
{
	double s = cm->r11;
	for (int k = 1; k < n; ++k) {
		const double ac = C ? cm->a[k] * C[k] : cm->a[k];
		s -= ac * ac / cm->j[k];
	}
	if (!(s > 1e-300))
		s = 1e-300;
	inv[0] = 1.0 / s;
	for (int k = 1; k < n; ++k) {
		const double q = (C ? cm->a[k] * C[k] : cm->a[k]) / cm->j[k];
		inv[k] = 1.0 / cm->j[k] + q * q / s;
	}
}

/* The settings' step rules (small oscillations, damping, forcing) for
 * diag(R^-1) = inv: K is diagonal at equilibrium (U is separable in the
 * angles), so the largest normal-mode omega^2 <= trace(R^-1 K), with the
 * peak effective gravity of the forcing. */
static double settings_step_for(const pendula_system *sys, const double *inv)
{
	const pendula_chaosman *cm = CM(sys);
	const pendula_forcing *f = &sys->force;
	const double g_max = hypot(sys->g + f->accel_y, f->accel_x);
	double omega2 = 0.0, damp = 0.0;
	for (int k = 0; k < sys->n; ++k) {
		omega2 += inv[k] * cm->lever[k] * g_max;
		damp += inv[k] * cm->lambda[k];
	}
	return pendula_settings_step(sys, sqrt(omega2), KAPPA_NAT, damp);
}

void pendula_chaosman_finish(pendula_system *sys, const pendula_params *p, double zr, double zi,
                             double sum_mc)
{
	pendula_chaosman *cm = PENDULA_MODEL_PART(pendula_chaosman, sys);
	const double g = sys->g;
	sys->dof = sys->n;
	/* Work per iteration (docs/NUMERICS.md, "Bounded work"): grows with the
	 * arms; 16 for N = 2, the double pendulum's price, which is the unit's
	 * definition (fitted to CPU time: docs/BENCHMARKS.md, "Why the constants
	 * are what they are"). */
	sys->work_iteration = (unsigned char)(8 + 4 * sys->n);
	const double zabs = hypot(zr, zi);
	cm->lever[0] = zabs;
	cm->lever_cos[0] = zabs > 0.0 ? zr / zabs : 1.0;
	cm->lever_sin[0] = zabs > 0.0 ? zi / zabs : 0.0;
	for (int k = 1; k < sys->n; ++k) {
		cm->lever_cos[k] = 1.0;
		cm->lever_sin[k] = 0.0;
	}
	for (int k = 0; k < sys->n; ++k) {
		cm->lambda[k] = pendula_nonneg(p->lambda[k]);
		cm->sigma[k] = pendula_finite_or(p->sigma[k], 0.0);
	}

	/* docs/MODELS.md: U_max - U_min = 2 g (|Z| + sum m_k c_k), floored at 1e-6 J. */
	sys->energy_min = -g * (zabs + sum_mc);
	sys->energy_range = 2.0 * g * (zabs + sum_mc);
	if (!(sys->energy_range > 1e-6))
		sys->energy_range = 1e-6;

	/* Bounds on diag(R^-1) over all angles (worst case |C_k| = 1):
	 * s = R11 - sum a_k^2 / J_k = I_O1 + sum m_k b_k^2 I_Gk / J_k > 0. */
	inv_r_diag(cm, sys->n, NULL, cm->inv_r_diag_max);
	sys->min_level = PENDULA_LEVEL_GAUSS;
	cm->h_params = settings_step_for(sys, cm->inv_r_diag_max);
}

void pendula_chaosman_initial(const pendula_system *sys, const pendula_params *p, int from,
                              double *q, double *qdot)
{
	for (int k = from; k < sys->n; ++k) {
		q[k] = pendula_wrap_angle(pendula_finite_or(p->theta_init[k], 0.0));
		qdot[k] = 0.0;
	}
}

/* ------------------------------------------------------------------------ */
/* Physics at one state (the reference evaluations; the integrator inlines   */
/* the same formulas).                                                      */

typedef struct {
	double s[PENDULA_MAX_BODIES], c[PENDULA_MAX_BODIES];   /* sin, cos th_k */
	double ck[PENDULA_MAX_BODIES], sk[PENDULA_MAX_BODIES]; /* C_k, S_k */
	double lever_s1, lever_c1;                             /* sin, cos (th1 + gamma) */
} trig_cache;

/* The products of the cache from its sines and cosines. */
static inline void trig_derive(const pendula_chaosman *cm, trig_cache *tc, const int n)
{
	tc->lever_s1 = tc->s[0] * cm->lever_cos[0] + tc->c[0] * cm->lever_sin[0];
	tc->lever_c1 = tc->c[0] * cm->lever_cos[0] - tc->s[0] * cm->lever_sin[0];
	for (int k = 1; k < n; ++k) {
		/* angle th1 + beta_k - th_k */
		const double sb = tc->s[0] * cm->cos_beta[k] + tc->c[0] * cm->sin_beta[k];
		const double cb = tc->c[0] * cm->cos_beta[k] - tc->s[0] * cm->sin_beta[k];
		tc->ck[k] = cb * tc->c[k] + sb * tc->s[k];
		tc->sk[k] = sb * tc->c[k] - cb * tc->s[k];
	}
}

static inline void trig_fill(const pendula_chaosman *cm, const double *theta, trig_cache *tc,
                             const int n)
{
	/* Body 1 always exists (n >= 1). */
	pendula_sincos(theta[0], &tc->s[0], &tc->c[0]);
	for (int k = 1; k < n; ++k)
		pendula_sincos(theta[k], &tc->s[k], &tc->c[k]);
	trig_derive(cm, tc, n);
}

/* The cache at theta + d from the cache at theta, for the small moves of a
 * fixed-point iteration: sin and cos by their Taylor series to d^3, whose
 * remainder |d|^4 / 24 <= 4e-18 for |d| <= TRIG_TAYLOR_MAX, below the
 * rounding of a direct evaluation.  Larger moves are evaluated afresh. */
#define TRIG_TAYLOR_MAX 1e-4
static inline void trig_move(const pendula_chaosman *cm, const double *theta, const double *d,
                             trig_cache *tc, const int n)
{
	double big = 0.0;
	for (int k = 0; k < n; ++k) /* (as fmax, a NaN is skipped; no libm call) */
		big = fabs(d[k]) > big ? fabs(d[k]) : big;
	if (!(big <= TRIG_TAYLOR_MAX)) {
		trig_fill(cm, theta, tc, n);
		return;
	}
	for (int k = 0; k < n; ++k) {
		const double s = tc->s[k], c = tc->c[k], dd = d[k], d2 = 0.5 * dd * dd;
		const double d3 = dd * d2 * (1.0 / 3.0);
		tc->s[k] = s + (c * dd - s * d2 - c * d3);
		tc->c[k] = c - (s * dd + c * d2 - s * d3);
	}
	trig_derive(cm, tc, n);
}

/* Solves M x = y for the arrowhead matrix M with diagonal (d0, 1/inv[k]) and
 * off-diagonal entries R1k = a_k C_k at the cached angles: M is R, or
 * R + h a_ii Lambda inside the Gauss-Legendre iteration.  O(n), one division. */
static inline void arrow_solve(const pendula_chaosman *cm, const trig_cache *tc, double d0,
                               const double *inv, const double *y, double *x, const int n)
{
	double den = d0, num = y[0];
	double v[PENDULA_MAX_BODIES];
	for (int k = 1; k < n; ++k) {
		v[k] = cm->a[k] * tc->ck[k];
		den -= v[k] * v[k] * inv[k];
		num -= v[k] * y[k] * inv[k];
	}
	x[0] = num / den;
	for (int k = 1; k < n; ++k)
		x[k] = (y[k] - v[k] * x[0]) * inv[k];
}

static inline void inverse_diag(const pendula_chaosman *cm, double extra_factor, double *inv,
                                const int n)
{
	for (int k = 1; k < n; ++k)
		inv[k] = 1.0 / (cm->j[k] + extra_factor * cm->lambda[k]);
}

void pendula_chaosman_velocity(const pendula_system *sys, const double *q, const double *p,
                               double *qdot)
{
	const pendula_chaosman *cm = CM(sys);
	trig_cache tc;
	double inv[PENDULA_MAX_BODIES];
	trig_fill(cm, q, &tc, sys->n);
	inverse_diag(cm, 0.0, inv, sys->n);
	arrow_solve(cm, &tc, cm->r11, inv, p, qdot, sys->n);
}

/* The double pendulum (a tip): a strike on bob 2 across arm 2, horizontal
 * while it hangs, the generalised impulse of a unit impulse there (bob 2 at
 * b p(th1) + c p(th2)); the tip output answers at once.  The parallel
 * pendulum (no tip): an angular impulse on body 1 about the pivot, the body
 * that carries the arms, which then answer through their hinges. */
void pendula_chaosman_strike(const pendula_system *sys, const double *q, double *impulse)
{
	const pendula_chaosman *cm = CM(sys);
	memset(impulse, 0, sizeof(double) * (size_t)sys->dof);
	if (cm->has_tip && sys->n >= 2) {
		impulse[0] = cm->tip_b * cos(q[0] - q[1]);
		impulse[1] = cm->tip_c;
	} else {
		impulse[0] = 1.0;
	}
}

void pendula_chaosman_momentum(const pendula_system *sys, const double *q, const double *qdot,
                               double *p)
{
	const pendula_chaosman *cm = CM(sys);
	trig_cache tc;
	trig_fill(cm, q, &tc, sys->n);
	p[0] = cm->r11 * qdot[0];
	for (int k = 1; k < sys->n; ++k) {
		p[0] += cm->a[k] * tc.ck[k] * qdot[k];
		p[k] = cm->a[k] * tc.ck[k] * qdot[0] + cm->j[k] * qdot[k];
	}
}

/* Generalised gravity (effective) force -dU_eff/dth_k. */
static inline void gravity_force(const pendula_chaosman *cm, const trig_cache *tc, double gx,
                                 double gy, double *f, const int n)
{
	f[0] = cm->lever[0] * (gx * tc->lever_c1 + gy * tc->lever_s1);
	for (int k = 1; k < n; ++k)
		f[k] = cm->lever[k] * (gx * tc->c[k] + gy * tc->s[k]);
}

static inline void accel_at(const pendula_chaosman *cm, const trig_cache *tc, const double *omega,
                            double gx, double gy, double *accel, const int n)
{
	double rhs[PENDULA_MAX_BODIES], inv[PENDULA_MAX_BODIES];
	gravity_force(cm, tc, gx, gy, rhs, n);
	/* R thddot = dT/dth - Rdot thdot - dU/dth + F:
	 *   row 1: - sum a_k S_k thdot_k^2,  row k: + a_k S_k thdot_1^2 */
	for (int k = 0; k < n; ++k)
		rhs[k] += cm->sigma[k] - cm->lambda[k] * omega[k];
	for (int k = 1; k < n; ++k) {
		const double as = cm->a[k] * tc->sk[k];
		rhs[0] -= as * omega[k] * omega[k];
		rhs[k] += as * omega[0] * omega[0];
	}
	inverse_diag(cm, 0.0, inv, n);
	arrow_solve(cm, tc, cm->r11, inv, rhs, accel, n);
}

void pendula_chaosman_accel(const pendula_system *sys, const double *q, const double *qdot,
                            double phase_x, double phase_y, double *accel)
{
	const pendula_chaosman *cm = CM(sys);
	trig_cache tc;
	double gx, gy;
	trig_fill(cm, q, &tc, sys->n);
	pendula_effective_gravity(sys, phase_x, phase_y, &gx, &gy);
	accel_at(cm, &tc, qdot, gx, gy, accel, sys->n);
}

static inline double energy_at(const pendula_system *sys, const trig_cache *tc, const double *omega,
                               const int n)
{
	const pendula_chaosman *cm = CM(sys);
	double t2 = cm->r11 * omega[0] * omega[0];
	double u = -cm->lever[0] * tc->lever_c1;
	for (int k = 1; k < n; ++k) {
		t2 += 2.0 * cm->a[k] * tc->ck[k] * omega[0] * omega[k] +
		      cm->j[k] * omega[k] * omega[k];
		u -= cm->lever[k] * tc->c[k];
	}
	return 0.5 * t2 + sys->g * u;
}

double pendula_chaosman_energy(const pendula_system *sys, const double *q, const double *qdot)
{
	trig_cache tc;
	trig_fill(CM(sys), q, &tc, sys->n);
	return energy_at(sys, &tc, qdot, sys->n);
}

static inline double power_at(const pendula_system *sys, const trig_cache *tc, const double *omega,
                              double gx, double gy, const int n)
{
	/* dE/dt = sum (sigma - lambda w) w + w^T Q, Q = the forcing part of
	 * -dU_eff/dth, i.e. gravity_force with (gx, gy + g). */
	const pendula_chaosman *cm = CM(sys);
	double q[PENDULA_MAX_BODIES];
	double pw = 0.0;
	gravity_force(cm, tc, gx, gy + sys->g, q, n);
	for (int k = 0; k < n; ++k)
		pw += (cm->sigma[k] - cm->lambda[k] * omega[k] + q[k]) * omega[k];
	return pw;
}

double pendula_chaosman_power(const pendula_system *sys, const double *q, const double *qdot,
                              double phase_x, double phase_y)
{
	trig_cache tc;
	double gx, gy;
	trig_fill(CM(sys), q, &tc, sys->n);
	pendula_effective_gravity(sys, phase_x, phase_y, &gx, &gy);
	return power_at(sys, &tc, qdot, gx, gy, sys->n);
}

/* ------------------------------------------------------------------------ */
/* The integrator                                                           */

/*
 * One Gauss-Legendre step (scheme_gauss.h: three stages, order 6) in (theta, p):
 *   th_i = th0 + h sum_j a_ij W_j,   P_i = p0 + h sum_j a_ij (F_j - Lambda W_j),
 *   R(th_i) W_i = P_i,
 *   th1 = th0 + h sum_i b_i W_i,     p1 = p0 + h sum_i b_i (F_i - Lambda W_i),
 * F_i = dT/dth(th_i, W_i) - dU_eff/dth(th_i, t0 + c_i h) + sigma, solved for
 * the stage velocities W_i by fixed-point iteration (all stages at once).
 * The damping of a stage's own velocity is taken implicitly:
 *   (R(th_i) + h a_ii Lambda) W_i = p0 + h sum_j a_ij F_j - h sum_{j!=i} a_ij Lambda W_j,
 * an arrowhead system like R (O(n), one division), so that a heavily damped
 * joint does not slow the iteration.  The first guess extrapolates the
 * last steps' stage velocities and adds the error the same stage's guess
 * made in the step before (pendula_gauss_guess).  Returns the stage
 * evaluations (iterations x 3): each costs about one midpoint iteration.
 */
static inline __attribute__((always_inline)) int
gauss_n(const pendula_system *sys, pendula_state *s, double h, pendula_predictor *pr, const int n)
{
	enum { S = PENDULA_GAUSS_STAGES };
	const pendula_chaosman *cm = CM(sys);
	double gx[S], gy[S];
	pendula_gauss_gravity(sys, s, h, gx, gy);
	/* Stages 1 and 3 share a_ii = 5/36, stage 2 has 2/9. */
	double inv[S][PENDULA_MAX_BODIES], d0[S];
	for (int i = 0; i < S; ++i) {
		const double hd = h * pendula_gauss_a[i][i];
		d0[i] = cm->r11 + hd * cm->lambda[0];
		inverse_diag(cm, hd, inv[i], n);
	}
	double w[S][PENDULA_MAX_BODIES], extrapolated[S][PENDULA_MAX_BODIES];
	pendula_gauss_guess(pr, h, w, extrapolated, n);

	double th[S][PENDULA_MAX_BODIES], f[S][PENDULA_MAX_BODIES];
	trig_cache tc[S];
	for (int i = 0; i < S; ++i) {
		pendula_gauss_stage_angles(s->q, w, h, i, th[i], n);
		trig_fill(cm, th[i], &tc[i], n);
	}
	int it = 0;
	double step_change = 0.0;
	while (it < MAX_ITERATIONS) {
		++it;
		if (it > 1) {
			for (int i = 0; i < S; ++i) {
				double d[PENDULA_MAX_BODIES], t[PENDULA_MAX_BODIES];
				pendula_gauss_stage_angles(s->q, w, h, i, t, n);
				for (int k = 0; k < n; ++k) {
					d[k] = t[k] - th[i][k];
					th[i][k] = t[k];
				}
				trig_move(cm, th[i], d, &tc[i], n);
			}
		}
		/* the stage forces at the current velocities (damping apart) */
		for (int i = 0; i < S; ++i) {
			gravity_force(cm, &tc[i], gx[i], gy[i], f[i], n);
			for (int k = 0; k < n; ++k)
				f[i][k] += cm->sigma[k];
			for (int k = 1; k < n; ++k) {
				/* dT/dth_1 = -sum a_k S_k w1 wk, dT/dth_k = +a_k S_k w1 wk */
				const double t = cm->a[k] * tc[i].sk[k] * w[i][0] * w[i][k];
				f[i][0] -= t;
				f[i][k] += t;
			}
		}
		double w_new[S][PENDULA_MAX_BODIES];
		for (int i = 0; i < S; ++i) {
			double rhs[PENDULA_MAX_BODIES];
			pendula_gauss_stage_force(f, w, cm->lambda, i, rhs, n);
			for (int k = 0; k < n; ++k)
				rhs[k] = s->p[k] + h * rhs[k];
			arrow_solve(cm, &tc[i], d0[i], inv[i], rhs, w_new[i], n);
		}
		double change = 0.0;
		for (int i = 0; i < S; ++i)
			for (int k = 0; k < n; ++k) {
				const double d = fabs(w_new[i][k] - w[i][k]);
				change = d > change ? d : change;
				w[i][k] = w_new[i][k];
			}
		step_change = change * fabs(h);
		if (!(step_change > ITERATION_TOL))
			break; /* converged (or NaN: caught by the engine) */
	}
	if (!(step_change <= PENDULA_SOLVE_FAILED))
		pr->failed = 1; /* diverging or NaN: the engine halves the step */
	/* the power of the non-conservative forces at each stage (at the last
	 * iteration's stage angles: they differ from the final ones by far
	 * less than the energy check looks at) */
	double power[S];
	for (int i = 0; i < S; ++i)
		power[i] = power_at(sys, &tc[i], w[i], gx[i], gy[i], n);
	pendula_gauss_finish(sys, s, h, pr, w, f, cm->lambda, power, extrapolated, n);
	return it * S;
}

int pendula_chaosman_step(const pendula_system *sys, pendula_state *s, double h,
                          pendula_predictor *pr)
{
	switch (sys->n) {
	case 1:
		return gauss_n(sys, s, h, pr, 1);
	case 2:
		return gauss_n(sys, s, h, pr, 2);
	case 3:
		return gauss_n(sys, s, h, pr, 3);
	default:
		return gauss_n(sys, s, h, pr, 4);
	}
}

/* The settings' step rules (small oscillations, damping, forcing) with the
 * mass matrix at the angles q instead of its worst case over all angles
 * (h_params).  Near a straight knee (s of inv_r_diag small) the bound
 * shrinks; a step that runs into
 * one regardless fails the engine's energy check and is taken again. */
static double settings_step_at(const pendula_system *sys, const double *q)
{
	const pendula_chaosman *cm = CM(sys);
	trig_cache tc;
	trig_fill(cm, q, &tc, sys->n);
	double inv[PENDULA_MAX_BODIES];
	inv_r_diag(cm, sys->n, tc.ck, inv);
	const double h = settings_step_for(sys, inv);
	return h > cm->h_params ? h : cm->h_params;
}

static double step_bound(const pendula_system *sys, double energy_norm)
{
	const pendula_chaosman *cm = CM(sys);
	/* Speed bound from the energy: T <= E - U_min, |w_k| <= sqrt(2 T R^-1_kk). */
	double t_max = energy_norm * sys->energy_range;
	if (!(t_max > 0.0))
		t_max = 0.0;
	/* Each joint's speed is bounded by its own share of the kinetic
	 * energy; the coupling terms see the relative speeds of body 1 and an
	 * arm, so the rate is the fastest joint plus body 1. */
	double fastest = 0.0;
	for (int k = 1; k < sys->n; ++k)
		fastest = fmax(fastest, cm->inv_r_diag_max[k]);
	const double speed =
	    sqrt(2.0 * t_max * fastest) + sqrt(2.0 * t_max * cm->inv_r_diag_max[0]);
	double h_need = cm->h_params;
	if (speed * h_need > KAPPA_RATE)
		h_need = KAPPA_RATE / speed;
	return h_need;
}

/* The same rate rule as step_bound (KAPPA_RATE radians per step for body 1
 * plus the fastest arm), applied to the actual motion instead of the worst
 * case the energy allows: the speeds at the step's start, extrapolated over
 * the step with the current accelerations, (W + A h) h <= kappa_slow.  The
 * engine chooses the step again before every step (shrinking at once), so
 * the rule follows the motion; the energy bound stays a floor (it holds for
 * every state of that energy). */
double pendula_chaosman_step_bound_at(const pendula_system *sys, const pendula_state *s,
                                      const double *qdot, const double *qddot,
                                      const float *inv_mass, double energy_norm)
{
	(void)inv_mass; /* (the kernel has no measure_jerk) */
	const pendula_chaosman *cm = CM(sys);
	const double h_energy = step_bound(sys, energy_norm);
	if (!(h_energy < cm->h_params))
		return h_energy; /* the energy bound allows the settings' own step */
	const int n = sys->n;
	double acc[PENDULA_MAX_BODIES];
	if (qddot) {
		memcpy(acc, qddot, sizeof(double) * (size_t)n);
	} else {
		trig_cache tc;
		double gx, gy;
		trig_fill(cm, s->q, &tc, n);
		pendula_effective_gravity(sys, s->phase_x, s->phase_y, &gx, &gy);
		accel_at(cm, &tc, qdot, gx, gy, acc, n);
	}
	double w_arm = 0.0, a_arm = 0.0;
	for (int k = 1; k < n; ++k) {
		w_arm = fmax(w_arm, fabs(qdot[k]));
		a_arm = fmax(a_arm, fabs(acc[k]));
	}
	const double W = fabs(qdot[0]) + w_arm, A = fabs(acc[0]) + a_arm;
	return fmin(pendula_state_step(W, A, KAPPA_RATE, h_energy), settings_step_at(sys, s->q));
}

void pendula_chaosman_canonical(const pendula_system *sys, pendula_state *s, double *shift)
{
	for (int k = 0; k < sys->n; ++k) {
		const double wrapped = pendula_wrap_angle(s->q[k]);
		shift[PENDULA_CH_THETA + k] += wrapped - s->q[k];
		s->q[k] = pendula_flush(wrapped);
		s->p[k] = pendula_flush(s->p[k]);
	}
}

/* Angular velocities at the state, and the values and time derivatives of
 * the output channels there (one evaluation of the trigonometry). */
void pendula_chaosman_measure(const pendula_system *sys, const pendula_state *s, double *qdot,
                              double *val, double *der)
{
	const pendula_chaosman *cm = CM(sys);
	const int n = sys->n;
	trig_cache tc;
	double inv[PENDULA_MAX_BODIES];
	trig_fill(cm, s->q, &tc, n);
	inverse_diag(cm, 0.0, inv, n);
	arrow_solve(cm, &tc, cm->r11, inv, s->p, qdot, n);
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		val[PENDULA_CH_THETA + k] = k < n ? s->q[k] : 0.0;
		der[PENDULA_CH_THETA + k] = k < n ? qdot[k] : 0.0;
	}
	if (cm->has_tip) {
		/* bob 2 = l1 (sin th1, -cos th1) + l2 (sin th2, -cos th2) */
		const double scale = 1.0 / sys->tip_length;
		const double b = cm->tip_b * scale, c = cm->tip_c * scale;
		val[PENDULA_CH_TIP_X] = b * tc.s[0] + c * tc.s[1];
		val[PENDULA_CH_TIP_Y] = -b * tc.c[0] - c * tc.c[1];
		der[PENDULA_CH_TIP_X] = b * tc.c[0] * qdot[0] + c * tc.c[1] * qdot[1];
		der[PENDULA_CH_TIP_Y] = b * tc.s[0] * qdot[0] + c * tc.s[1] * qdot[1];
	} else {
		val[PENDULA_CH_TIP_X] = val[PENDULA_CH_TIP_Y] = 0.0;
		der[PENDULA_CH_TIP_X] = der[PENDULA_CH_TIP_Y] = 0.0;
	}
	double gx, gy, acc[PENDULA_MAX_BODIES];
	pendula_effective_gravity(sys, s->phase_x, s->phase_y, &gx, &gy);
	val[PENDULA_CH_ENERGY] = pendula_energy_normalised(sys, energy_at(sys, &tc, qdot, n));
	der[PENDULA_CH_ENERGY] = power_at(sys, &tc, qdot, gx, gy, n) / sys->energy_range;
	accel_at(cm, &tc, qdot, gx, gy, acc, n);
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		val[PENDULA_CH_OMEGA + k] = k < n ? qdot[k] : 0.0;
		der[PENDULA_CH_OMEGA + k] = k < n ? acc[k] : 0.0;
	}
}
