/* SPDX-License-Identifier: ISC */
/*
 * The model interface: what the generic engine (the files of engine/) asks
 * of a model, and the helpers every model shares.  The integration schemes
 * a model builds its step from are in schemes/ (scheme_gauss.h,
 * scheme_compose.h, scheme_rattle.h).
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
#define PENDULA_KAPPA_SLOW  0.05
#define PENDULA_KAPPA_FORCE 0.1 /* forcing: about 63 steps per forcing period */
#define PENDULA_KAPPA_DAMP  1.0 /* damping rate: the composed decay per step is within 0.5 % */
/* Large motions: at most PENDULA_KAPPA_RATE radians per step of the relative
 * turn of two bodies (the angles the trigonometry sees).  With the
 * Gauss-Legendre step this bounds the interpolation between steps more than
 * the step itself (the frames are septic Hermites, interpolant.c): at 0.2
 * the float outputs' cubics are off by at most about 4e-7 of a swing's
 * amplitude and their slopes (the velocity outputs) by 7e-6 (the energy
 * spreads: docs/BENCHMARKS.md, "Why the constants are what they are"). */
#define PENDULA_KAPPA_RATE  0.2
/* Largest step of the engine, simulated seconds: 2^-7 s (the step levels
 * are H_MAX 2^-level).  Each scheme has its own largest step, H_MAX
 * 2^-min_level (pendula_scheme_h_max): the Gauss-Legendre models (order 6)
 * take up to 2^-7 s, the model on Suzuki's composition (order 4, a larger
 * error constant) up to 2^-9 s, the one on Kahan and Li's (order 6, nine
 * stages) up to 2^-8 s (the defaults' energy spreads at each:
 * docs/BENCHMARKS.md, "Why the constants are what they are"). */
#define PENDULA_H_MAX       (1.0 / 128.0)

/* The longest step of the model's scheme (simulated s).  A model's derive()
 * sets sys->min_level before it asks pendula_settings_step. */
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
	 * energy does not add up was too long for the motion (step.c,
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
 * (system.c) */
double pendula_settings_step(const pendula_system *sys, double omega_nat, double kappa_nat,
                             double damp);

/* A model's functions (see the top of this file).  The members marked
 * optional may be NULL; the comment after "NULL:" says what the engine
 * does then (engine/system.c, engine/step.c). */
struct pendula_model_ops {
	/* Constants from settings, clamped: sys's common fields but ops, and the model's part. */
	void (*derive)(pendula_system *sys, const pendula_params *p);
	/* Bodies k >= from start at their initial places at rest (q, qdot of the others kept). */
	void (*initial)(const pendula_system *sys, const pendula_params *p, int from, double *q,
	                double *qdot);
	/* Velocities qdot from momenta p at coordinates q. */
	void (*velocity)(const pendula_system *sys, const double *q, const double *p, double *qdot);
	/* Momenta p from velocities qdot at coordinates q (the mass matrix). */
	void (*momentum)(const pendula_system *sys, const double *q, const double *qdot, double *p);
	/* Accelerations at (q, qdot) and the forcing phases. */
	void (*accel)(const pendula_system *sys, const double *q, const double *qdot,
	              double phase_x, double phase_y, double *accel);
	/* Energy (J) at (q, qdot), kinetic and potential. */
	double (*energy)(const pendula_system *sys, const double *q, const double *qdot);
	/* Power (W) of the damping, torques and forcing at (q, qdot) and the forcing phases. */
	double (*power)(const pendula_system *sys, const double *q, const double *qdot,
	                double phase_x, double phase_y);
	/* One step over h of the model's scheme (q, p, phases, t); sets pr->work, pr->failed. */
	int (*step)(const pendula_system *sys, pendula_state *s, double h, pendula_predictor *pr);
	/* Optional, for the tests only (pendula_step_base): one base step of a composed scheme. */
	int (*step_base)(const pendula_system *sys, pendula_state *s, double h,
	                 pendula_predictor *pr);
	/* Largest step (s) for the motion at s: see below. */
	double (*step_bound_at)(const pendula_system *sys, const pendula_state *s,
	                        const double *qdot, const double *qddot, const float *inv_mass,
	                        double energy_norm);
	/* Between steps: wraps the angles, flushes tiny values; adds each angle's jump to shift. */
	void (*canonical)(const pendula_system *sys, pendula_state *s, double *shift);
	/* Velocities at s, every channel's value and time derivative (unless measure_jerk). */
	void (*measure)(const pendula_system *sys, const pendula_state *s, double *qdot,
	                double *val, double *der);
	/* Optional, in place of measure: measure() plus the angles' jerks (see below). */
	void (*measure_jerk)(const pendula_system *sys, const pendula_state *s, double *qdot,
	                     double *val, double *der, double *jerk, float *inv_mass);
	/* Geometry at q for drawing, pivot in 3-D, the bead floor's wave at wave_phase. */
	void (*pose)(const pendula_system *sys, const double *q, pendula_vec3 pivot,
	             double wave_phase, pendula_pose *pose);
	/* Optional: fits the state to new settings (see below).  NULL: nothing. */
	void (*adapt)(const pendula_system *sys, int from, double *q, double *qdot,
	              double wave_phase);
	/* Optional, after new settings: every channel's start.  NULL: the angle models' rule. */
	void (*fresh)(const pendula_system *sys, const pendula_state *s, double *qdot, double *val,
	              double *der);
	/* Optional: coordinates q from a frame's channels.  NULL: q[k] = theta[k]. */
	void (*coords)(const pendula_system *sys, const pendula_frame *f, double *q);
	/* Optional: where a pluck strikes at q (see below).  NULL: an angular impulse on body 1. */
	void (*strike)(const pendula_system *sys, const double *q, double *impulse);
	/* How the velocity outputs come from the interpolants (PENDULA_VEL_*; 0: _ANGLE). */
	int velocity_outputs;
};

/* derive: sets sys->min_level too (the scheme's, schemes/scheme_*.h), before
 * it asks pendula_settings_step.
 *
 * step_bound_at: the largest step (simulated s) for the motion at the state
 * s with velocities qdot and normalised energy energy_norm.  A model sizes
 * the step from the actual speeds, with the bound its energy allows as a
 * floor.  qddot: the accelerations at s if the engine has them (an angle
 * model's PENDULA_CH_OMEGA derivatives, measured at the end of the last
 * step), else NULL; inv_mass: what the model's measure_jerk left for this
 * rule at the same state (PENDULA_MAX_BODIES values, e.g. the diagonal of
 * the inverse mass matrix), else NULL.
 *
 * measure_jerk: measure(), and the angles' third derivatives at the state
 * in jerk (the end conditions of an angle model's output interpolant), in
 * one pass that shares the model's factorisations; the engine then calls it
 * instead of measure(), which the model need not give.  NULL: the engine
 * takes the central difference of accel() (engine/step.c, angle_jerk), two
 * more evaluations.  inv_mass (PENDULA_MAX_BODIES values; NULL: not
 * wanted): what the model's step_bound_at would otherwise compute again
 * from the same factorisation; the engine keeps it (in single precision:
 * the step rules need no more) until it chooses the next step.
 *
 * adapt: bodies k >= from have just been placed by initial(); fit the whole
 * state to the new settings (e.g. rescale Cartesian positions to new rod
 * lengths, keeping directions and turn rates, and put the velocities back
 * on the constraints).
 *
 * fresh: the value and derivative every channel starts the next step with
 * after new settings.  NULL: the angle channels of bodies k < n start at
 * q[k] with velocity qdot[k], the others carry on.
 *
 * strike: the generalised impulse (in momentum space, sys->dof entries,
 * any positive scale) of a pluck at coordinates q: which body is struck
 * and which way.  The engine kicks the velocities along M^-1 impulse, put
 * back on the constraints (adapt), by as much as the pluck's energy asks,
 * and from whichever side pushes along the motion (engine/pluck.c; the
 * table of strikes: docs/GUIDE.md, "Plucking it").
 *
 * velocity_outputs: a model other than an angle model fills sys->speed_ref
 * in derive(). */

/* The model's own constants inside sys. */
#define PENDULA_MODEL_PART(type, sys)       ((type *)(void *)(sys)->model.d)
#define PENDULA_MODEL_PART_CONST(type, sys) ((const type *)(const void *)(sys)->model.d)

/* Forcing from the settings (the same for every model). */
void pendula_forcing_init(pendula_forcing *f, const pendula_params *p);

/* Gravity in the frame that moves with the pivot: (gx, gy) = (-Gamma''x,
 * -g - Gamma''y) at the given phases, Gamma'' the pivot acceleration of the
 * forcing and of the drive signal (pendula_forcing.drive, constant over a
 * step).  (pendula_sincos: every force evaluation of a forced model asks
 * for it, and the phases stay within a few radians of zero, where it is
 * within an ulp of the C library's sin and cos at a fraction of their
 * cost.) */
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
	if (sys->force.driven) { /* the drive's pivot acceleration, held over the step */
		*gx -= sys->force.drive[0];
		*gy -= sys->force.drive[1];
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
	if (sys->force.driven)
		g3[2] -= sys->force.drive[2];
}

/* The same at a state's forcing phases. */
static inline void pendula_effective_gravity_at(const pendula_system *sys, const pendula_state *s,
                                                double *g3)
{
	pendula_effective_gravity3(sys, s->phase_x, s->phase_y, s->phase_z, g3);
}

/* The pivot's place at the forcing phases (pendula_pivot, pendula_pivot_z;
 * inline: the engine's frames read it at every frame): amp sin(phase), y
 * amp cos(phase), without the sine for an unforced axis at phase 0 (the
 * usual case: its phase never moves), where the product is +0. */
static inline double pendula_pivot_sin(double amp, double phase)
{
	return amp != 0.0 || phase != 0.0 ? amp * sin(phase) : 0.0;
}

static inline void pendula_pivot_xy_at(const pendula_system *sys, double phase_x, double phase_y,
                                       double *x, double *y)
{
	*x = pendula_pivot_sin(sys->force.amp_x, phase_x);
	*y = sys->force.amp_y != 0.0 || phase_y != 0.0 ? sys->force.amp_y * cos(phase_y) : 0.0;
}

static inline double pendula_pivot_z_at(const pendula_system *sys, double phase_z)
{
	return pendula_pivot_sin(sys->force.amp_z, phase_z);
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

#endif
