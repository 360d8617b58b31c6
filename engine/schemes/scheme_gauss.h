/* SPDX-License-Identifier: ISC */
/*
 * Gauss-Legendre collocation with three stages, the scheme of the angle
 * models (chaosman.c, model_chain.c): its Butcher tableau, its largest step,
 * the predictor that guesses a step's stage velocities from the steps before,
 * and the pieces of a step that do not depend on the model (each model
 * solves the stages its own way).
 */
#ifndef PENDULA_SCHEME_GAUSS_H
#define PENDULA_SCHEME_GAUSS_H

#include "model.h"

/* pendula_system.min_level of a Gauss-Legendre model: steps up to H_MAX
 * (model.h, PENDULA_H_MAX). */
#define PENDULA_LEVEL_GAUSS 0

/* Gauss-Legendre collocation with three stages (order 6, symplectic and
 * symmetric for any Hamiltonian, separable or not; Hairer, Lubich, Wanner,
 * "Geometric Numerical Integration", II.1.3 and VI.4): nodes c_i = 1/2 +
 * (-1, 0, 1) sqrt(15)/10, weights b = (5, 8, 5)/18, and the Butcher matrix
 * a_ij = int_0^{c_i} L_j, L_j the Lagrange basis on the nodes.  On the
 * double pendulum it keeps the energy far closer than Suzuki's composition
 * of the midpoint rule with a fifth of the stage evaluations
 * (docs/BENCHMARKS.md, "Why the constants are what they are"). */
#define PENDULA_GAUSS_R15 3.87298334620741688518 /* sqrt(15) */
static const double pendula_gauss_c[PENDULA_GAUSS_STAGES] = {0.5 - PENDULA_GAUSS_R15 / 10.0, 0.5,
                                                             0.5 + PENDULA_GAUSS_R15 / 10.0};
static const double pendula_gauss_b[PENDULA_GAUSS_STAGES] = {5.0 / 18.0, 8.0 / 18.0, 5.0 / 18.0};
static const double pendula_gauss_a[PENDULA_GAUSS_STAGES][PENDULA_GAUSS_STAGES] = {
    {5.0 / 36.0, 2.0 / 9.0 - PENDULA_GAUSS_R15 / 15.0, 5.0 / 36.0 - PENDULA_GAUSS_R15 / 30.0},
    {5.0 / 36.0 + PENDULA_GAUSS_R15 / 24.0, 2.0 / 9.0, 5.0 / 36.0 - PENDULA_GAUSS_R15 / 24.0},
    {5.0 / 36.0 + PENDULA_GAUSS_R15 / 30.0, 2.0 / 9.0 + PENDULA_GAUSS_R15 / 15.0, 5.0 / 36.0}};

/* The predictor of a Gauss-Legendre step.  The stage velocities W_i
 * approximate the motion's velocity at t0 + c_i h to O(h^4) (stage order
 * 3), so the last steps' stages, extrapolated, guess the next ones:
 *  - after two steps of the same length, the quartic through the last five
 *    (at c_2 - 2, c_3 - 2, c_1 - 1, c_2 - 1, c_3 - 1 in units of h) plus
 *    the error the same guess made for the same stage in the step before
 *    (it changes little from one step to the next);
 *  - else the parabola through the last step's three stages (at
 *    (c_j - 1) h_last / h: also right after a change of step);
 *  - the first step after a start: the velocities at the start.
 * The quartic guesses closer than the parabola, so a step takes fewer
 * iterations (docs/BENCHMARKS.md, "Why the constants are what they are").
 * The quartic's weights (pendula_gauss_extrapolate) are the Lagrange
 * basis on the five nodes, at c_i (tests/models/test_chain.c recomputes them
 * from the Legendre roots); six nodes are no better (the sixth is the
 * farthest). */
static const double pendula_gauss_extrapolate[PENDULA_GAUSS_STAGES][PENDULA_GAUSS_MEMORY] = {
    {0.5140719307654581, -4.163977794943222, 6.5873666409185, -4.846777691950554,
     2.909316915209819},
    {4.163977794943222, -31.782927833565473, 47.69825006437042, -29.83064446160989,
     10.751344435861721},
    {14.95667192167787, -109.88064560785054, 159.87328947695445, -92.19259361147317,
     28.24327782069139}};

/* The parabola through the last step's stages, at the next step's stages
 * (the last step r times as long as the next; r = 0: a start, where every
 * stored velocity is the start's). */
static inline __attribute__((always_inline)) void
pendula_gauss_parabola(const pendula_predictor *pr, double r,
                       double w[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES], const int n)
{
	const double *last[PENDULA_GAUSS_STAGES];
	for (int j = 0; j < PENDULA_GAUSS_STAGES; ++j)
		last[j] = pr->gauss.w[PENDULA_GAUSS_MEMORY - PENDULA_GAUSS_STAGES + j];
	for (int i = 0; i < PENDULA_GAUSS_STAGES; ++i) {
		double l[PENDULA_GAUSS_STAGES] = {1.0, 0.0, 0.0};
		if (r != 0.0)
			for (int j = 0; j < PENDULA_GAUSS_STAGES; ++j) {
				double num = 1.0, den = 1.0;
				for (int m = 0; m < PENDULA_GAUSS_STAGES; ++m)
					if (m != j) {
						num *= pendula_gauss_c[i] -
						       (pendula_gauss_c[m] - 1.0) * r;
						den *=
						    (pendula_gauss_c[j] - pendula_gauss_c[m]) * r;
					}
				l[j] = num / den;
			}
		for (int k = 0; k < n; ++k) {
			double sum = 0.0;
			for (int j = 0; j < PENDULA_GAUSS_STAGES; ++j)
				sum += l[j] * last[j][k];
			w[i][k] = sum;
		}
	}
}

/* Guesses w of the stage velocities of a step of length h, and the plain
 * extrapolations behind them (for pendula_gauss_push). */
static inline __attribute__((always_inline)) void
pendula_gauss_guess(pendula_predictor *pr, double h,
                    double w[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES],
                    double extrapolated[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES], const int n)
{
	if (pr->stage_h != h) { /* a start, or a new step length */
		pendula_gauss_parabola(pr, pr->stage_h / h, extrapolated, n);
		pr->steps = 0;
		pr->stage_h = h;
	} else if (pr->steps < 2) {
		pendula_gauss_parabola(pr, 1.0, extrapolated, n);
	} else {
		for (int i = 0; i < PENDULA_GAUSS_STAGES; ++i)
			for (int k = 0; k < n; ++k) {
				double sum = 0.0;
				for (int j = 0; j < PENDULA_GAUSS_MEMORY; ++j)
					sum += pendula_gauss_extrapolate[i][j] * pr->gauss.w[j][k];
				extrapolated[i][k] = sum;
			}
	}
	/* the errors were learnt by the same extrapolation after three steps */
	const int learnt = pr->steps >= 3;
	for (int i = 0; i < PENDULA_GAUSS_STAGES; ++i)
		for (int k = 0; k < n; ++k)
			w[i][k] = learnt ? extrapolated[i][k] + pr->gauss.correction[i][k]
			                 : extrapolated[i][k];
}

/* The solved stages join the predictor's memory; each stage learns its
 * guess's error. */
static inline __attribute__((always_inline)) void
pendula_gauss_push(pendula_predictor *pr, const double w[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES],
                   const double extrapolated[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES], const int n)
{
	enum { LAST = PENDULA_GAUSS_MEMORY - PENDULA_GAUSS_STAGES };
	for (int k = 0; k < n; ++k) {
		for (int j = 0; j < LAST; ++j)
			pr->gauss.w[j][k] = pr->gauss.w[j + PENDULA_GAUSS_STAGES][k];
		for (int i = 0; i < PENDULA_GAUSS_STAGES; ++i) {
			pr->gauss.w[LAST + i][k] = w[i][k];
			pr->gauss.correction[i][k] = w[i][k] - extrapolated[i][k];
		}
	}
	/* (saturating: the guesses ask only whether 2 or 3 steps came before,
	 * and an int counting every step would overflow after 2^31 of them,
	 * three hours of a setting that takes four steps per frame at 48 kHz,
	 * and fall back to the plain parabola for as long again) */
	if (pr->steps < 3)
		pr->steps++;
}

/* The pieces of a Gauss-Legendre step that do not depend on the model
 * (model_parallel.c and model_chain.c solve the stages their own way). */

/* The effective gravity at each stage's time t0 + c_i h. */
static inline __attribute__((always_inline)) void
pendula_gauss_gravity(const pendula_system *sys, const pendula_state *s, double h,
                      double gx[PENDULA_GAUSS_STAGES], double gy[PENDULA_GAUSS_STAGES])
{
	for (int i = 0; i < PENDULA_GAUSS_STAGES; ++i) {
		gx[i] = 0.0;
		gy[i] = -sys->g;
		if (sys->force.forced || sys->force.driven) {
			const double ci = pendula_gauss_c[i] * h;
			pendula_effective_gravity(sys, s->phase_x + sys->force.omega_x * ci,
			                          s->phase_y + sys->force.omega_y * ci, &gx[i],
			                          &gy[i]);
		}
	}
}

/* sum_j a_ij w_j: stage i's angles are th0 + h times this. */
static inline __attribute__((always_inline)) void
pendula_gauss_stage_rate(const double w[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES], int i,
                         double *rate, const int n)
{
	for (int k = 0; k < n; ++k) {
		double sum = 0.0;
		for (int j = 0; j < PENDULA_GAUSS_STAGES; ++j)
			sum += pendula_gauss_a[i][j] * w[j][k];
		rate[k] = sum;
	}
}

/* Stage i's angles th0 + h sum_j a_ij w_j. */
static inline __attribute__((always_inline)) void
pendula_gauss_stage_angles(const double *q,
                           const double w[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES], double h,
                           int i, double *th, const int n)
{
	double rate[PENDULA_MAX_BODIES];
	pendula_gauss_stage_rate(w, i, rate, n);
	for (int k = 0; k < n; ++k)
		th[k] = q[k] + h * rate[k];
}

/* sum_j a_ij (f_j - [j != i] Lambda W_j): stage i's momentum is p0 + h
 * times this, the damping of its own velocity W_i being left to the
 * model's implicit solve. */
static inline __attribute__((always_inline)) void
pendula_gauss_stage_force(const double f[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES],
                          const double w[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES],
                          const double *lambda, int i, double *force, const int n)
{
	for (int k = 0; k < n; ++k) {
		double sum = 0.0;
		for (int j = 0; j < PENDULA_GAUSS_STAGES; ++j) {
			const double damp = j == i ? 0.0 : lambda[k] * w[j][k];
			sum += pendula_gauss_a[i][j] * (f[j][k] - damp);
		}
		force[k] = sum;
	}
}

/* The end of the step from the solved stages: th1 = th0 + h sum b_i W_i,
 * p1 = p0 + h sum b_i (f_i - Lambda W_i); the work of the non-conservative
 * forces, h sum b_i power_i (power_i: their power at stage i, the step's
 * own quadrature, for the engine's energy check); the stages join the
 * predictor, and the phases and t advance. */
static inline __attribute__((always_inline)) void
pendula_gauss_finish(const pendula_system *sys, pendula_state *s, double h, pendula_predictor *pr,
                     const double w[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES],
                     const double f[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES], const double *lambda,
                     const double power[PENDULA_GAUSS_STAGES],
                     const double extrapolated[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES],
                     const int n)
{
	double work = 0.0;
	for (int i = 0; i < PENDULA_GAUSS_STAGES; ++i)
		work += pendula_gauss_b[i] * power[i];
	pr->work = h * work;
	for (int k = 0; k < n; ++k) {
		double dq = 0.0, dp = 0.0;
		for (int i = 0; i < PENDULA_GAUSS_STAGES; ++i) {
			dq += pendula_gauss_b[i] * w[i][k];
			dp += pendula_gauss_b[i] * (f[i][k] - lambda[k] * w[i][k]);
		}
		s->q[k] += h * dq;
		s->p[k] += h * dp;
	}
	pendula_gauss_push(pr, w, extrapolated, n);
	s->phase_x = pendula_wrap_phase(s->phase_x + sys->force.omega_x * h);
	s->phase_y = pendula_wrap_phase(s->phase_y + sys->force.omega_y * h);
	s->t += h;
}

#endif
