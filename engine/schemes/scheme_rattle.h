/* SPDX-License-Identifier: ISC */
/*
 * RATTLE (Andersen, J. Comput. Phys. 52, 1983; Leimkuhler & Skeel, J.
 * Comput. Phys. 112, 1994) for point masses in Cartesian coordinates with
 * holonomic constraints g(q, t) = 0, as a template the Cartesian models
 * (model_spherical.c, model_bead.c) instantiate, like the compositions
 * of scheme_compose.h, which turn it into a method of order 4 (Suzuki's, the bead)
 * or 6 (Kahan and Li's, the spherical pendulum).
 *
 * Coordinates q are positions relative to the pivot (the frame that moves
 * with the pivot, where the forcing is the effective gravity of model.h),
 * momenta p = M v with a diagonal mass M.  One step over h:
 *
 *   p~  = p0 + h/2 [F(q0, t0) - C(q0) v0]                 (kick, explicit)
 *   q1  = q0 + h M^-1 p~ - M^-1 G(q0)^T Lambda,  g(q1, t1) = 0    (SHAKE)
 *   p_h = M (q1 - q0) / h                                 (the kicked momentum with its constraint
 * impulse) p1  = p_h + h/2 [F(q1, t1) - C(q1) v1] - G(q1)^T nu, G(q1) v1 + dg/dt(q1, t1) = 0,  v1 =
 * M^-1 p1     (kick, implicit; velocity projection)
 *
 * F: the forces that depend on positions and time (gravity, the pivot's
 * pseudo-force, torques); C v: the dampers and drag (linear in the
 * velocities).  Without C this is RATTLE: symplectic on the constraint
 * manifold and symmetric (time-reversible), 2nd order.  The damping is
 * split as the trapezoidal rule (explicit in the first half kick, implicit
 * in the second): the step stays symmetric (its adjoint, the step run
 * backwards and inverted, is itself, because the inverse of an explicit
 * half kick with -h is the implicit one), so a symmetric composition
 * still raises it to its order; the trapezoidal factor (1 - hc/2)/(1 + hc/2) per
 * unit of damping rate c is A-stable, so a stiff damper cannot blow up;
 * within the engine's step bound (h c <= PENDULA_KAPPA_DAMP) it is accurate
 * to the method's order.  With dissipation the map is of course not
 * symplectic; it contracts phase volume as the flow does.
 *
 * The model gives:
 *   force(sys, q, s, f)         F at the state's time and forcing phases
 *   damp(sys, q, v, f)          adds -C(q) v to f
 *   shake(sys, q0, qt, s1, h, tau, dq)
 *                               the displacement dq = -M^-1 G(q0)^T Lambda that
 *                               puts q1 = qt + dq on the constraints at the
 *                               time of s1; tau holds a guess of the
 *                               multipliers (Lambda = h^2/2 tau: tau are the
 *                               constraint forces) and gets the solution;
 *                               returns the iterations spent.  (dq rather
 *                               than q1: p_h = p~ + M dq / h then has no
 *                               cancellation in q1 - q0.)
 *   project(sys, q1, pt, h, s1, p1)
 *                               p1 from pt = p_h + h/2 F(q1): the implicit
 *                               damper and the velocity constraint
 * The constraint solves are the model's (the structure of G is: a
 * tridiagonal Gram matrix for a chain of rods, a scalar for a bead), with
 * a bounded number of iterations like the implicit solves of the angle
 * models.
 */
#ifndef PENDULA_SCHEME_RATTLE_H
#define PENDULA_SCHEME_RATTLE_H

#include "scheme_compose.h"

typedef void (*pendula_rattle_force)(const pendula_system *sys, const double *q,
                                     const pendula_state *s, double *f);
typedef void (*pendula_rattle_damp)(const pendula_system *sys, const double *q, const double *v,
                                    double *f);
typedef int (*pendula_rattle_shake)(const pendula_system *sys, const double *q0, const double *qt,
                                    const pendula_state *s1, double h, double *tau, double *dq);
typedef void (*pendula_rattle_project)(const pendula_system *sys, const double *q1,
                                       const double *pt, double h, const pendula_state *s1,
                                       double *p1);

/* Advances the forcing phases, the bead floor's wave phase and the time of
 * s by h (what every base step does once). */
static inline void pendula_rattle_advance_clock(const pendula_system *sys, pendula_state *s,
                                                double h)
{
	s->phase_x = pendula_wrap_phase(s->phase_x + sys->force.omega_x * h);
	s->phase_y = pendula_wrap_phase(s->phase_y + sys->force.omega_y * h);
	s->phase_z = pendula_wrap_phase(s->phase_z + sys->force.omega_z * h);
	if (sys->force.omega_w != 0.0)
		s->phase_w = pendula_wrap_phase(s->phase_w + sys->force.omega_w * h);
	s->t += h;
}

/* One RATTLE step over h of a model given by its four parts (constant
 * function pointers: the step inlines them), dof coordinates with masses
 * mass[] and inverse masses inv_m[] (per coordinate).
 * pr->multipliers holds the guess of the multipliers and gets this
 * stage's answer, the next stage's guess; pr->stage_force gets the forces
 * at this stage's end, where the next stage starts (in a composition:
 * pendula_compose sets pr->stage_h and pr->stage; a step on its own has
 * nothing to remember). */
static inline __attribute__((always_inline)) int
pendula_rattle_step(const pendula_system *sys, pendula_state *s, double h, pendula_predictor *pr,
                    const int dof, const double *mass, const double *inv_m, const int damped,
                    const pendula_rattle_force force, const pendula_rattle_damp damp,
                    const pendula_rattle_shake shake, const pendula_rattle_project project)
{
	double f[PENDULA_MAX_DOF], v[PENDULA_MAX_DOF], pt[PENDULA_MAX_DOF], qt[PENDULA_MAX_DOF];
	double q0[PENDULA_MAX_DOF], dq[PENDULA_MAX_DOF];
	const double hh = 0.5 * h;
	const int learn = pr && pr->stage_h != 0.0 && pr->stage >= 0;
	/* A stage after the first starts where the stage before ended, at the
	 * same positions, time and forcing phases: its forces are the ones
	 * that stage computed last (the same bits). */
	if (learn && pr->stage > 0)
		memcpy(f, pr->stage_force, sizeof(f[0]) * (size_t)dof);
	else
		force(sys, s->q, s, f);
	if (damped) {
		for (int i = 0; i < dof; ++i)
			v[i] = s->p[i] * inv_m[i];
		damp(sys, s->q, v, f);
	}
	for (int i = 0; i < dof; ++i) {
		q0[i] = s->q[i];
		pt[i] = s->p[i] + hh * f[i];
		qt[i] = q0[i] + h * inv_m[i] * pt[i];
	}
	pendula_rattle_advance_clock(sys, s, h); /* s is at t1 from here on */
	double local[PENDULA_MAX_CONSTRAINTS] = {0};
	double *tau = learn ? pr->multipliers : local;
	const int it = shake(sys, q0, qt, s, h, tau, dq);
	/* q1 = q0 + h M^-1 p_h: p_h = p~ + M dq / h (the constraint impulse). */
	const double inv_h = 1.0 / h;
	for (int i = 0; i < dof; ++i) {
		s->q[i] = qt[i] + dq[i];
		pt[i] += mass[i] * dq[i] * inv_h;
	}
	force(sys, s->q, s, f);
	if (learn)
		memcpy(pr->stage_force, f, sizeof(f[0]) * (size_t)dof);
	for (int i = 0; i < dof; ++i)
		pt[i] += hh * f[i];
	project(sys, s->q, pt, h, s, s->p);
	return it;
}

#endif
