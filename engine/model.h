/* SPDX-License-Identifier: ISC */
/*
 * The model interface: what the generic engine (engine.c) asks of a model.
 * A model is one file, engine/models/model_<slug>.c, that defines
 *
 *     const pendula_model_ops pendula_model_<slug> = { ... };
 *
 * and is listed in the registry (pendula_models.h).  The engine, the sampler,
 * the step-size control, the forcing and the composition know no model.
 *
 * Every function is real-time safe (no allocation, bounded cost) and takes
 * the derived constants (pendula_system), never the raw settings, except
 * derive() and initial().  Coordinates q, velocities qdot and momenta p are
 * arrays of sys->dof entries.
 *
 * Angle channels: the first sys->n output channels are the bodies' angles
 * (PENDULA_CH_THETA + k), interpolated with their angular velocities and
 * accelerations (quintic Hermite) for the double-precision frames.
 */
#ifndef PENDULA_MODEL_H
#define PENDULA_MODEL_H

#include "pendula_engine.h"
#include "pmath.h"

#include <string.h>

/* Internal channels: the output channels with an interpolant, then one
 * angular-velocity channel per body (value = omega, derivative = angular
 * acceleration).  They share their indices with the velocity outputs
 * PENDULA_CH_W + k, which the engine derives from the interpolants. */
enum {
	PENDULA_CH_OMEGA = PENDULA_N_POLY_CHANNELS,
	PENDULA_N_CH_ALL = PENDULA_CH_OMEGA + PENDULA_MAX_BODIES
};
_Static_assert((int)PENDULA_CH_OMEGA == (int)PENDULA_CH_W &&
                   (int)PENDULA_N_CH_ALL <= (int)PENDULA_N_CHANNELS,
               "the raw angular velocities share the indices of the velocity outputs");

/* How the engine derives the velocity outputs PENDULA_CH_W + k from the
 * interpolants (pendula_model_ops.velocity_outputs). */
enum {
	PENDULA_VEL_ANGLE = 0, /* theta-dot of angle channel k (the angle models) */
	PENDULA_VEL_DIRECTION, /* (u x u')_z of the direction channels X, Y + k */
	PENDULA_VEL_POSITION,  /* d/dt of channel X, Y, Z (+ 0) for k = 0, 1, 2 */
};

/* Step size: h <= PENDULA_KAPPA_SLOW / rate for the fastest motion (rad per
 * step); models use it in step_bound(). */
#define PENDULA_KAPPA_SLOW     0.05
#define PENDULA_KAPPA_FORCE    0.1 /* forcing: about 63 steps per forcing period */
#define PENDULA_KAPPA_DAMP     1.0 /* damping rate: the composed decay per step is within 0.5 % */
/* Large motions: at most PENDULA_KAPPA_RATE radians per step of the relative
 * turn of two bodies (the angles the trigonometry sees).  With the
 * Gauss-Legendre step this bounds the interpolation between steps more than
 * the step itself: at 0.2 the double pendulum's chaotic default spreads its
 * energy output by 4e-8 over 10^7 frames and the states of its
 * interpolated frames (septic Hermite, engine.c) by 5e-7; the float
 * outputs' cubics are then off by at most about 4e-7 of a swing's amplitude
 * and their slopes (the velocity outputs) by 7e-6.  (0.1 until the septic
 * interpolant: the quintic before it spread the frames by 1.3e-5 at 0.15.) */
#define PENDULA_KAPPA_RATE     0.2
/* Largest step of the engine, simulated seconds: 2^-7 s (the step levels
 * are H_MAX 2^-level).  Each scheme has its own largest step, H_MAX
 * 2^-min_level (pendula_scheme_h_max): the Gauss-Legendre models (order 6)
 * take up to 2^-7 s, the model on Suzuki's composition (order 4, a larger
 * error constant) up to 2^-9 s, the one on Kahan and Li's (order 6, nine
 * stages) up to 2^-8 s.  (The spherical pendulum at its defaults, N = 2, 3,
 * 4, 60 s: energy spread 8.7e-9, 2.0e-8, 7.1e-9 of the range on Suzuki's at
 * 2^-9 s; on Kahan and Li's 3.9e-12, 5.8e-12, 2.0e-11 at 2^-9 s, 2.7e-10,
 * 3.6e-10, 4.1e-9 at 2^-8 s, 1.2e-8, 3.2e-8, 3.7e-8 at 2^-7 s.) */
#define PENDULA_H_MAX          (1.0 / 128.0)
#define PENDULA_LEVEL_GAUSS    0 /* pendula_system.min_level of each scheme */
#define PENDULA_LEVEL_SUZUKI   2
#define PENDULA_LEVEL_KAHAN_LI 1

/* The longest step of the model's scheme (simulated s).  A model that sets
 * sys->min_level does so in derive() before it asks pendula_settings_step. */
static inline double pendula_scheme_h_max(const pendula_system *sys)
{
	return PENDULA_H_MAX / (double)(1u << sys->min_level);
}

/* What the implicit solves remember from one step to the next, to start
 * the next step's solves close to their answers (one unknown per body).  A
 * Gauss-Legendre step (pendula_gauss_guess) keeps the last five stage
 * velocities and the error each stage's guess made in the step before; a
 * composition of RATTLE steps (scheme_rattle.h) keeps the multipliers its
 * last stage solved for (pendula_compose) and the forces where that stage
 * ended.  A model uses one or the other. */
/* Constraints of a RATTLE model at most (the spherical pendulum's four
 * rods; the bead has one): the multipliers remembered. */
#define PENDULA_MAX_CONSTRAINTS 4
#define PENDULA_MAX_STAGES      9 /* stages of a composition at most (Kahan and Li's) */
#define PENDULA_GAUSS_STAGES    3
#define PENDULA_GAUSS_MEMORY    5 /* stage velocities the Gauss predictor keeps */
typedef struct {
	union {
		struct {
			/* oldest first: the step before last's stages 2 and 3,
			 * then the last step's three */
			double w[PENDULA_GAUSS_MEMORY][PENDULA_MAX_BODIES];
			double correction[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES];
		} gauss;
		struct {
			double multipliers[PENDULA_MAX_CONSTRAINTS];
			/* the forces (pendula_rattle_force) at the end of the
			 * stage just taken: the next stage starts there */
			double stage_force[PENDULA_MAX_DOF];
			/* each stage's multipliers less the ones it started
			 * from (the stage before's, the first stage: the step
			 * before's last) in the last step: the error of that
			 * guess, which pendula_compose adds to it in the next
			 * step (floats: the guess needs no more, and so the
			 * predictor is no larger than the Gauss memory) */
			float multiplier_step[PENDULA_MAX_STAGES][PENDULA_MAX_CONSTRAINTS];
		};
	};
	/* the length of the last step (0: none since the start), and so the
	 * step the memory was learnt at */
	double stage_h;
	/* Set by the model's step (the engine sets NAN before each step, and a
	 * step that leaves it NAN is not checked): the energy the step's
	 * damping, torques and forcing put in, in J, by the step's own
	 * quadrature of their power, of the step's order (a Gauss-Legendre
	 * step: h sum_i b_i P(stage i), pendula_gauss_finish; a composition
	 * of RATTLE steps: the trapezoidal rule per stage, pendula_compose).
	 * The engine compares it with the change of the energy: a step whose
	 * energy does not add up was too long for the motion (engine.c,
	 * PENDULA_ENERGY_DEFECT). */
	double work;
	/* (the ints together, without padding between them: the engine that
	 * holds a predictor stays about 4 kB) */
	int steps; /* steps taken in a row at stage_h (counted up to what the guesses use) */
	int stage; /* stage being solved (-1: none) */
	/* Set by a model whose implicit solve did not converge in this step
	 * (the step is too long for the dynamics): the engine then takes the
	 * step again at half the length.  The engine clears it. */
	int failed;
} pendula_predictor;

/* A solve whose last iteration still moved the angles by more than this
 * (rad) has not converged: the model sets pendula_predictor.failed. */
#define PENDULA_SOLVE_FAILED 1e-9

/* A new start at velocities qdot: nothing learnt yet (the first step's
 * guess is qdot). */
static inline void pendula_predictor_start(pendula_predictor *pr, const double *qdot)
{
	memset(pr, 0, sizeof(*pr));
	for (int j = 0; j < PENDULA_GAUSS_MEMORY; ++j)
		memcpy(pr->gauss.w[j], qdot, sizeof(pr->gauss.w[j]));
}

/* Largest step the settings allow (simulated s): at most kappa_nat rad per
 * step of the fastest small oscillation omega_nat, PENDULA_KAPPA_DAMP of
 * the damping rate damp, and PENDULA_KAPPA_FORCE of each forced axis's
 * frequency; never above the scheme's longest step (pendula_scheme_h_max).
 * (engine.c) */
double pendula_settings_step(const pendula_system *sys, double omega_nat, double kappa_nat,
                             double damp);

struct pendula_model_ops {
	size_t sys_size; /* bytes of the model's part of pendula_system */

	/* Constants from settings (clamping whatever is out of range): fills
	 * every common field of sys except ops, and the model's part. */
	void (*derive)(pendula_system *sys, const pendula_params *p);

	/* Bodies k >= from (0-based) start at their initial angles at rest:
	 * sets their coordinates in q and their velocities in qdot (the
	 * others are left alone). */
	void (*initial)(const pendula_system *sys, const pendula_params *p, int from, double *q,
	                double *qdot);

	void (*velocity)(const pendula_system *sys, const double *q, const double *p, double *qdot);
	void (*momentum)(const pendula_system *sys, const double *q, const double *qdot, double *p);
	void (*accel)(const pendula_system *sys, const double *q, const double *qdot,
	              double phase_x, double phase_y, double *accel);
	double (*energy)(const pendula_system *sys, const double *q, const double *qdot);
	double (*power)(const pendula_system *sys, const double *q, const double *qdot,
	                double phase_x, double phase_y);

	/* One composed 4th-order step over h, and one step of its base scheme;
	 * both advance q, p, the phases and t. */
	int (*step)(const pendula_system *sys, pendula_state *s, double h, pendula_predictor *pr);
	int (*step_base)(const pendula_system *sys, pendula_state *s, double h,
	                 pendula_predictor *pr);

	/* Largest step (simulated s) for the motion at this normalised energy. */
	double (*step_bound)(const pendula_system *sys, double energy_norm);
	/* Optional (NULL: step_bound alone): the largest step for the motion
	 * at this state, with velocities qdot, given its normalised energy; at
	 * least step_bound(sys, energy_norm) when the energy bound is
	 * rigorous.  Lets a model size the step from the actual speeds rather
	 * than from the worst case its energy allows.  qddot: the
	 * accelerations at the state if the engine has them (an angle model's
	 * PENDULA_CH_OMEGA derivatives, measured at the end of the last step),
	 * else NULL; inv_mass: what the model's measure_jerk left there for
	 * this rule at the same state (PENDULA_MAX_BODIES values, e.g. the
	 * diagonal of the inverse mass matrix), else NULL. */
	double (*step_bound_at)(const pendula_system *sys, const pendula_state *s,
	                        const double *qdot, const double *qddot, const float *inv_mass,
	                        double energy_norm);

	/* Between steps: wraps the angles, flushes tiny values; adds to
	 * shift[PENDULA_CH_THETA + k] what each angle channel jumped by. */
	void (*canonical)(const pendula_system *sys, pendula_state *s, double *shift);

	/* Velocities at the state, and the value and time derivative of every
	 * channel (PENDULA_N_CH_ALL; channels the model lacks are 0). */
	void (*measure)(const pendula_system *sys, const pendula_state *s, double *qdot,
	                double *val, double *der);

	/* Geometry at q for drawing. */
	void (*pose)(const pendula_system *sys, const double *q, double pivot_x, double pivot_y,
	             pendula_pose *pose);

	/* Optional (NULL for the planar angle models, whose defaults are
	 * written in engine.c): */

	/* After new settings (apply_pending, restart): bodies k >= from have
	 * just been placed by initial(); fit the whole state to the new
	 * settings (e.g. rescale Cartesian positions to new rod lengths,
	 * keeping directions and turn rates, and put the velocities back on
	 * the constraints).  Default: nothing (angles need no fitting). */
	void (*adapt)(const pendula_system *sys, int from, double *q, double *qdot,
	              double wave_phase);

	/* After new settings: the value and derivative every channel starts
	 * the next step with.  Default: the angle channels of bodies k < n
	 * start at q[k] with velocity qdot[k], the others carry on. */
	void (*fresh)(const pendula_system *sys, const pendula_state *s, double *qdot, double *val,
	              double *der);

	/* Geometry with a 3-D pivot, the bead floor's wave at wave_phase
	 * (pendula_pose_at3).  Default: pose() with (pivot.x, pivot.y). */
	void (*pose3)(const pendula_system *sys, const double *q, pendula_vec3 pivot,
	              double wave_phase, pendula_pose *pose);

	/* measure(), and the angles' third derivative at the state in jerk
	 * (for the output interpolant of an angle model), in one pass that
	 * shares the model's factorisations.  When given, the engine calls it
	 * instead of measure() at the end of each step.  Default: the central
	 * difference of accel() (engine.c, angle_jerk), two more evaluations.
	 * inv_mass (PENDULA_MAX_BODIES values; NULL: not wanted): what the
	 * model's step_bound_at would otherwise compute again at the same
	 * state from the same factorisation; the engine keeps it (in single
	 * precision: the step rules need no more) until it chooses the next
	 * step. */
	void (*measure_jerk)(const pendula_system *sys, const pendula_state *s, double *qdot,
	                     double *val, double *der, double *jerk, float *inv_mass);

	/* Coordinates q from a frame's channels.  Default: q[k] = theta[k]. */
	void (*coords)(const pendula_system *sys, const pendula_frame *f, double *q);

	/* How the velocity outputs come from the interpolants (PENDULA_VEL_*;
	 * default 0 = PENDULA_VEL_ANGLE).  A model other than an angle model
	 * fills sys->speed_ref in derive(). */
	int velocity_outputs;
};

/* The model's own constants inside sys. */
#define PENDULA_MODEL_PART(type, sys)       ((type *)(void *)(sys)->model.d)
#define PENDULA_MODEL_PART_CONST(type, sys) ((const type *)(const void *)(sys)->model.d)

/* Forcing from the settings (the same for every model). */
void pendula_forcing_init(pendula_forcing *f, const pendula_params *p);

/* Gravity in the frame that moves with the pivot: (gx, gy) = (-Gamma''x,
 * -g - Gamma''y) at the given phases.  (pendula_sincos: every force
 * evaluation of a forced model asks for it, and the phases stay within a
 * few radians of zero, where it is within an ulp of the C library's sin
 * and cos at a fraction of their cost.) */
static inline void pendula_effective_gravity(const pendula_system *sys, double phase_x,
                                             double phase_y, double *gx, double *gy)
{
	*gx = 0.0;
	*gy = -sys->g;
	double s, c;
	if (sys->force.accel_x > 0.0) {
		pendula_sincos(phase_x, &s, &c);
		*gx = sys->force.accel_x * s;
	}
	if (sys->force.accel_y > 0.0) {
		pendula_sincos(phase_y, &s, &c);
		*gy += sys->force.accel_y * c;
	}
}

/* The same in 3-D: (-Gamma''x, -g - Gamma''y, -Gamma''z).  (The models'
 * functions that get the x and y phases only pass phase_z = 0.) */
static inline void pendula_effective_gravity3(const pendula_system *sys, double phase_x,
                                              double phase_y, double phase_z, double *g3)
{
	pendula_effective_gravity(sys, phase_x, phase_y, &g3[0], &g3[1]);
	g3[2] = 0.0;
	if (sys->force.accel_z > 0.0) {
		double s, c;
		pendula_sincos(phase_z, &s, &c);
		g3[2] = sys->force.accel_z * s;
	}
}

/* The same at a state's forcing phases. */
static inline void pendula_effective_gravity_at(const pendula_system *sys, const pendula_state *s,
                                                double *g3)
{
	pendula_effective_gravity3(sys, s->phase_x, s->phase_y, s->phase_z, g3);
}

/* The step a model's step_bound_at takes from the actual motion: the
 * positive root h of A h^2 + W h = kappa (a rate W, extrapolated over the
 * step with its rate of change A, turns by at most kappa), or h_energy,
 * the step the energy bound allows, when that is not shorter (also when
 * the root is NaN). */
static inline double pendula_state_step(double W, double A, double kappa, double h_energy)
{
	const double h = 2.0 * kappa / (W + sqrt(W * W + 4.0 * A * kappa));
	return h > h_energy ? h : h_energy;
}

/* Gauss-Legendre collocation with three stages (order 6, symplectic and
 * symmetric for any Hamiltonian, separable or not; Hairer, Lubich, Wanner,
 * "Geometric Numerical Integration", II.1.3 and VI.4): nodes c_i = 1/2 +
 * (-1, 0, 1) sqrt(15)/10, weights b = (5, 8, 5)/18, and the Butcher matrix
 * a_ij = int_0^{c_i} L_j, L_j the Lagrange basis on the nodes.  Measured
 * on the double pendulum from its chaotic default start (fixed steps, 208
 * s): 1/128 s spreads the energy by 4.2e-8 with 1971 stage evaluations per
 * simulated second; Suzuki's composition of the midpoint rule spreads it by
 * 6.1e-5 at 1/512 s with 9452. */
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
 * Measured on the six-rod default chain (10 s): the first iteration moves
 * the angles by 10^-7.4 rad (geometric mean) against 10^-5.9 with the
 * parabola plus its error, and a step takes 4.9 iterations instead of 5.8
 * (instructions per frame, lv2bench at block 256: six rods 291 to 275,
 * `chain` 107 to 101, `double` 49.8 to 48.3, `parallel` 62.4 to 60.1).
 * The quartic's weights (pendula_gauss_extrapolate) are the Lagrange
 * basis on the five nodes, at c_i (tests/test_chain.c recomputes them
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
		if (sys->force.forced) {
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

/* A symmetric composition of a symmetric base step: stages of c_j h,
 * j = 1..n_stages, c symmetric (c_j = c_{n+1-j}) with sum 1.  A model's
 * step() calls pendula_compose_suzuki or pendula_compose_s9 with its own
 * base step, which inlines.
 *
 * Suzuki's fractal 4th-order composition (Phys. Lett. A 146, 1990): stages
 * g1, g1, g2, g1, g1 with g1 = 1 / (4 - 4^(1/3)), g2 = 1 - 4 g1.  Measured
 * here against Yoshida's triple jump: five solves instead of three, but the
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
	 * previous step's last, which ended where this step starts.  Over
	 * bench_cap's 500 musical spherical settings this costs 4.5 % less work
	 * than each stage starting from its own answer of the step before (a
	 * whole step earlier), and settings at the cap 3 -> 2; the stage
	 * nearest in time (by the stages' midpoints or starts) did worse (2.8
	 * and 4.0 % less).
	 * To that guess each stage adds the error it made in the step before
	 * (multiplier_step), as the Gauss predictor corrects its extrapolation:
	 * the multipliers change from stage to stage by nearly the same amount
	 * in consecutive steps (a stage's answer is not the tension at one
	 * instant: it depends on the stage's length and sign too).  Work of
	 * the 500 musical spherical settings, four draws of them: -4.8, -5.6,
	 * -7.2 and -8.0 % (with the differences in double precision: -7.6,
	 * -6.7, -7.2, -8.2 %); settings at the cap unchanged (2, 2, 3, 2).
	 * Extrapolating each stage linearly in time from the two stages before
	 * it instead: +0.7 %.  Forgotten when the step length changes (kept:
	 * the same work within 1 %). */
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
			/* (the stage's end forces: measured over bench_cap's
			 * shaken spherical settings #128 and #222, 5 % fewer
			 * instructions per frame, the same output bits) */
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
