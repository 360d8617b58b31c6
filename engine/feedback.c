/* SPDX-License-Identifier: ISC */
/*
 * The chaos knob: a feedback force that holds the normalised energy
 * (docs/GUIDE.md, "The chaos knob").  The force is a generalised force along
 * the motion, F = mu(t) R(q) q' (R the mass matrix, pivot frame): a torque
 * proportional to each body's momentum, never a rescaling of the state.
 * Its power is F . q' = 2 mu T.  With q and t frozen its flow is exact,
 * q' <- exp(mu tau) q', and it enters each integration step by Strang
 * splitting: a half kick, the model's step, a half kick (the 3-D models
 * then put the velocities back on their constraints, adapt()).  mu is held
 * over a step, chosen at its start so that
 *     dE/dt = P_other + 2 mu T = rate D (target - E_norm)
 * whatever the damping, torques or forcing do (P_other, the model's own
 * power), and clamped to |mu| <= FEEDBACK_MU_RATE rate + |P_other| / 2T
 * (and a tenth of the step's rate, so a kick never exceeds a few percent).
 * At rest (T ~ 0) there is no motion to push along: a tiny seed force on
 * the first coordinate starts it when the target lies above the energy.
 * Depends only on the state at the step start: block-split independent.
 */
#include "engine_internal.h"

#include <math.h>
#include <string.h>

#define FEEDBACK_MU_RATE 10.0
#define FEEDBACK_REST    1e-9 /* T / D below which the seed force acts */
#define FEEDBACK_SEED    1e-3 /* seed force in units of rate sqrt(2 D R_00) */

/* mu for the step that starts at the current state (0: the knob is off). */
static double feedback_mu(const pendula_engine *e, double energy_norm, double power_norm,
                          double *kinetic)
{
	const pendula_params *p = &e->pending; /* in force: apply_pending ran */
	*kinetic = 0.0;
	if (!(p->energy_target >= 0.0) || !(p->energy_rate > 0.0))
		return 0.0;
	const double rate = fmin(p->energy_rate, 1e3), d = e->sys.energy_range;
	double t = 0.0;
	for (int i = 0; i < e->sys.dof; ++i)
		t += 0.5 * e->qdot[i] * e->st.p[i];
	*kinetic = t;
	if (!(t > FEEDBACK_REST * d))
		return 0.0;
	const double want = rate * d * (fmin(p->energy_target, 1e3) - energy_norm);
	const double other = power_norm * d;
	double mu = (want - other) / (2.0 * t);
	double mu_max = FEEDBACK_MU_RATE * rate + fabs(other) / (2.0 * t);
	if (mu_max > 0.1 / e->h)
		mu_max = 0.1 / e->h;
	mu = mu > mu_max ? mu_max : mu < -mu_max ? -mu_max : mu;
	return isfinite(mu) ? mu : 0.0;
}

/* The feedback force over simulated time tau: q' <- exp(mu tau) q', plus the
 * seed force at rest.  Changes st.p and leaves the velocities in e->qdot. */
void engine_feedback_kick(pendula_engine *e, double mu, double tau)
{
	const pendula_params *p = &e->pending;
	const pendula_system *sys = &e->sys;
	double qdot[PENDULA_MAX_DOF] = {0};
	sys->ops->velocity(sys, e->st.q, e->st.p, qdot);
	double t = 0.0;
	for (int i = 0; i < sys->dof; ++i)
		t += 0.5 * qdot[i] * e->st.p[i];
	const int seed =
	    !(t > FEEDBACK_REST * sys->energy_range) &&
	    p->energy_target > pendula_energy_normalised(sys, pendula_energy(sys, e->st.q, qdot));
	if (seed) {
		double unit[PENDULA_MAX_DOF] = {0}, r[PENDULA_MAX_DOF] = {0};
		unit[0] = 1.0;
		sys->ops->momentum(sys, e->st.q, unit, r);
		const double r00 = r[0] > 0.0 ? r[0] : 0.0;
		e->st.p[0] += FEEDBACK_SEED * fmin(p->energy_rate, 1e3) *
		              sqrt(2.0 * sys->energy_range * r00) * tau;
		sys->ops->velocity(sys, e->st.q, e->st.p, qdot);
	} else if (mu == 0.0) {
		memcpy(e->qdot, qdot, sizeof(e->qdot));
		return;
	}
	const double grow = exp(mu * tau);
	for (int i = 0; i < sys->dof; ++i)
		qdot[i] *= grow;
	if (sys->ops->adapt)
		sys->ops->adapt(sys, sys->n, e->st.q, qdot, e->st.phase_w);
	sys->ops->momentum(sys, e->st.q, qdot, e->st.p);
	memcpy(e->qdot, qdot, sizeof(e->qdot));
}

/* Kinetic energy at the state (velocities e->qdot). */
static double kinetic_now(const pendula_engine *e)
{
	double t = 0.0;
	for (int i = 0; i < e->sys.dof; ++i)
		t += 0.5 * e->qdot[i] * e->st.p[i];
	return t;
}

void engine_feedback_begin(const pendula_engine *e, double energy_norm, double power_norm,
                           feedback_step *fb)
{
	fb->mu = feedback_mu(e, energy_norm, power_norm, &fb->kinetic);
	fb->on = e->pending.energy_target >= 0.0 && e->pending.energy_rate > 0.0;
}

double engine_feedback_power_end(const pendula_engine *e, double mu)
{
	return 2.0 * mu * kinetic_now(e) / e->sys.energy_range;
}
