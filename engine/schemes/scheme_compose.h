/* SPDX-License-Identifier: ISC */
/*
 * Symmetric compositions of a symmetric base step (Suzuki's of order 4,
 * Kahan and Li's of order 6), the schemes of the Cartesian models over
 * RATTLE (scheme_rattle.h): their stages, their largest steps, and the
 * composition itself, which also adds up the work of the non-conservative
 * forces for the engine's energy check.
 */
#ifndef PENDULA_SCHEME_COMPOSE_H
#define PENDULA_SCHEME_COMPOSE_H

#include "model.h"

/* pendula_system.min_level of each composition: steps up to H_MAX 2^-level
 * (model.h, PENDULA_H_MAX). */
#define PENDULA_LEVEL_SUZUKI   2
#define PENDULA_LEVEL_KAHAN_LI 1

/* A symmetric composition of a symmetric base step: stages of c_j h,
 * j = 1..n_stages, c symmetric (c_j = c_{n+1-j}) with sum 1.  A model's
 * step() calls pendula_compose_suzuki or pendula_compose_s9 with its own
 * base step, which inlines.
 *
 * Suzuki's fractal 4th-order composition (Phys. Lett. A 146, 1990): stages
 * g1, g1, g2, g1, g1 with g1 = 1 / (4 - 4^(1/3)), g2 = 1 - 4 g1.  Against
 * Yoshida's triple jump: five solves instead of three, but the
 * same energy error at twice the step, so fewer solves per second of
 * simulated time; and the one negative stage is short (-0.66 h rather than
 * -1.70 h), which keeps implicitly damped stages well inside their stable
 * range.
 *
 * Kahan and Li's 6th-order composition s9odr6a (Math. Comp. 66, 1997):
 * nine stages, the longest 0.80 h and the negative ones -0.71 h (an
 * implicitly damped stage of -0.71 h stays far from the trapezoidal
 * factor's pole at |stage| c = 2 while h c <= PENDULA_KAPPA_DAMP).  On a
 * harmonic oscillator of frequency w with the Stormer-Verlet base step
 * (which RATTLE is), the energy error of Suzuki's at h w = 0.05, 4.5e-8 of
 * the oscillator's energy, is that of Kahan and Li's at h w = 0.2 (3.1e-8):
 * 45 stages per radian instead of 100.  The step it allows grows as the
 * sixth root of the error allowed rather than the fourth.
 *
 * The work of the non-conservative forces (pendula_predictor.work, for the
 * engine's energy check): each base step adds the trapezoidal rule of their
 * power, h_j/2 (P(start of stage j) + P(end of stage j)), from the model's
 * power at a state (power; NULL when the settings have no such forces: the
 * work is then 0, without evaluating anything).  Appended to a
 * symmetric base step, the trapezoidal rule keeps the step of the extended
 * system (q, p, W) with W' = P symmetric (run backwards it subtracts the
 * same two powers), so the composition raises it to its order with the
 * rest: the reported work is as accurate as the energy it is compared
 * with, not 2nd order (a damped motion would then fail the check for its
 * quadrature error alone).  n_stages + 1 powers per step: a stage's end is
 * the next one's start. */
#define PENDULA_SUZUKI_G1       0.41449077179437573714
#define PENDULA_SUZUKI_G2       -0.65796308717750294856
#define PENDULA_SUZUKI_STAGES   5
#define PENDULA_KAHAN_LI_STAGES 9
static const double pendula_suzuki_stages[PENDULA_SUZUKI_STAGES] = {
    PENDULA_SUZUKI_G1, PENDULA_SUZUKI_G1, PENDULA_SUZUKI_G2, PENDULA_SUZUKI_G1, PENDULA_SUZUKI_G1};
_Static_assert(PENDULA_KAHAN_LI_STAGES <= PENDULA_MAX_STAGES &&
                   PENDULA_SUZUKI_STAGES <= PENDULA_MAX_STAGES,
               "each stage's guess error fits pendula_predictor.multiplier_step");
static const double pendula_kahan_li_stages[PENDULA_KAHAN_LI_STAGES] = {
    0.39216144400731413928,  0.33259913678935943860, -0.70624617255763935981,
    0.08221359629355080023,  0.79854399093482996340, 0.08221359629355080023,
    -0.70624617255763935981, 0.33259913678935943860, 0.39216144400731413928};

typedef int (*pendula_base_step)(const pendula_system *sys, pendula_state *s, double h,
                                 pendula_predictor *pr, const int n);
/* The power of the non-conservative forces (the damping, torques and the
 * forcing) at a state, at its time and forcing phases, in W.  force: the
 * forces at s that a RATTLE stage computed where it ended
 * (pendula_predictor.stage_force: positions, time and forcing phases are
 * s's), which the model may take instead of evaluating the effective
 * gravity again; NULL at a step's start. */
typedef double (*pendula_state_power)(const pendula_system *sys, const pendula_state *s,
                                      const double *force);

static inline __attribute__((always_inline)) int
pendula_compose(const pendula_system *sys, pendula_state *s, double h, pendula_predictor *pr,
                const int n, const pendula_base_step base, const pendula_state_power power,
                const double *stage, const int n_stages)
{
	/* Each stage's constraint solve starts from the multipliers (the rods'
	 * forces) the stage before it solved for, the first stage from the
	 * previous step's last, which ended where this step starts: that costs
	 * less work than each stage starting from its own answer of the step
	 * before (a whole step earlier) or from the stage nearest in time.
	 * To that guess each stage adds the error it made in the step before
	 * (multiplier_step), as the Gauss predictor corrects its extrapolation:
	 * the multipliers change from stage to stage by nearly the same amount
	 * in consecutive steps (a stage's answer is not the tension at one
	 * instant: it depends on the stage's length and sign too), which saves
	 * more work again; extrapolating each stage linearly in time from the
	 * two stages before it does not.  Forgotten when the step length
	 * changes, which costs nothing measurable.  (The figures:
	 * docs/BENCHMARKS.md, "Why the constants are what they are".) */
	if (pr->stage_h != h) {
		memset(pr->multipliers, 0, sizeof(pr->multipliers));
		pr->stage_h = h;
		pr->steps = 0;
	}
	int it = 0;
	double p_start = power ? power(sys, s, NULL) : 0.0, work = 0.0;
	for (int j = 0; j < n_stages; ++j) {
		pr->stage = j;
		double start[PENDULA_MAX_CONSTRAINTS];
		memcpy(start, pr->multipliers, sizeof(start));
		/* (the first stage's error needs the step before last's end) */
		if (pr->steps >= 2 || (pr->steps == 1 && j > 0))
			for (int k = 0; k < PENDULA_MAX_CONSTRAINTS; ++k)
				pr->multipliers[k] += (double)pr->multiplier_step[j][k];
		it += base(sys, s, stage[j] * h, pr, n);
		for (int k = 0; k < PENDULA_MAX_CONSTRAINTS; ++k) {
			const double d = pr->multipliers[k] - start[k];
			/* (nothing that would overflow a float: a NaN or an absurd
			 * step starts the next one from the plain guess) */
			pr->multiplier_step[j][k] = fabs(d) < 1e30 ? (float)d : 0.0f;
		}
		if (power) {
			/* (the stage's end forces: fewer instructions per frame,
			 * the same output bits; docs/BENCHMARKS.md, "Why the
			 * constants are what they are") */
			const double p_end = power(sys, s, pr->stage_force);
			work += stage[j] * (p_start + p_end);
			p_start = p_end;
		}
	}
	pr->stage = -1;
	if (pr->steps < 2)
		pr->steps++;
	pr->work = 0.5 * h * work;
	return it;
}

static inline __attribute__((always_inline)) int
pendula_compose_suzuki(const pendula_system *sys, pendula_state *s, double h, pendula_predictor *pr,
                       const int n, const pendula_base_step base, const pendula_state_power power)
{
	return pendula_compose(sys, s, h, pr, n, base, power, pendula_suzuki_stages,
	                       PENDULA_SUZUKI_STAGES);
}

static inline __attribute__((always_inline)) int
pendula_compose_s9(const pendula_system *sys, pendula_state *s, double h, pendula_predictor *pr,
                   const int n, const pendula_base_step base, const pendula_state_power power)
{
	return pendula_compose(sys, s, h, pr, n, base, power, pendula_kahan_li_stages,
	                       PENDULA_KAHAN_LI_STAGES);
}

#endif
