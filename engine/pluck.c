/* SPDX-License-Identifier: ISC */
/*
 * The pluck (pendula_engine_pluck): a kick at the current frame that adds
 * a given energy.  The state the frame shows is read from the step's
 * interpolants; the model says where it is struck (pendula_model_ops.strike,
 * a generalised impulse); the kinetic energy being quadratic in the
 * velocities, E(alpha) = E(q, qdot + alpha d) is an exact quadratic whose
 * coefficients three evaluations of the model's energy give, and alpha
 * solves it for the energy asked; then the steps start again from the
 * kicked state (step.c).  Everything depends on the frame's place in its
 * step only, so a pluck at a given frame gives the same motion whatever
 * the blocks.  The table of strikes: docs/GUIDE.md, "Plucking it".
 */
#include "engine_internal.h"

#include <math.h>
#include <string.h>

/* Half the span in u of the central difference that gives a Cartesian
 * model's velocities from its coordinates' interpolants: their cubics'
 * third derivatives make its error (DU^2 / 6 of the cubic term, far below
 * the single-precision rounding of the cubics) and the rounding 1e-16 / DU. */
#define DU 0x1p-10

/* The coordinates the frame at u shows (a Cartesian model's from its
 * direction or position channels, pendula_frame_coords). */
static void coords_at(const pendula_engine *e, double u, double *q)
{
	pendula_frame f;
	engine_fill_frame_at(e, u, &f);
	pendula_frame_coords(&e->sys, &f, q);
}

/* The state the frame at u of the current step shows: coordinates and
 * velocities (an angle model's from its angles' septics, double precision;
 * a Cartesian model's from its channels, then put on the constraints by
 * adapt), the forcing phases and the time (as the frame's pivot and t). */
static void state_at(const pendula_engine *e, double u, pendula_state *s, double *qdot)
{
	const pendula_system *sys = &e->sys;
	memset(s, 0, sizeof(*s));
	memset(qdot, 0, sizeof(double) * PENDULA_MAX_DOF);
	if (sys->ops->velocity_outputs == PENDULA_VEL_ANGLE) {
		for (int k = 0; k < sys->n && k < PENDULA_MAX_BODIES; ++k) {
			s->q[k] = qpoly_value(e->qpoly[k], u);
			qdot[k] = qpoly_slope(e->qpoly[k], u) / e->h;
		}
	} else {
		double qa[PENDULA_MAX_DOF], qb[PENDULA_MAX_DOF];
		coords_at(e, u, s->q);
		coords_at(e, u + DU, qa);
		coords_at(e, u - DU, qb);
		for (int i = 0; i < sys->dof; ++i)
			qdot[i] = (qa[i] - qb[i]) / (2.0 * DU * e->h);
	}
	const double tau = u * e->h, rest = (1.0 - u) * e->h;
	const pendula_forcing *f = &sys->force;
	s->phase_x = pendula_wrap_phase(e->step_phase_x + f->omega_x * tau);
	s->phase_y = pendula_wrap_phase(e->step_phase_y + f->omega_y * tau);
	/* a model without z forcing leaves phase_z alone (pendula_state) */
	s->phase_z = e->st.phase_z == e->step_phase_z
	                 ? e->st.phase_z
	                 : pendula_wrap_phase(e->step_phase_z + f->omega_z * tau);
	s->phase_w = f->omega_w != 0.0 ? pendula_wrap_phase(e->st.phase_w - f->omega_w * rest)
	                               : e->st.phase_w;
	s->t = e->st.t - rest;
	if (sys->ops->adapt)
		sys->ops->adapt(sys, sys->n, s->q, qdot, s->phase_w);
	for (int i = 0; i < PENDULA_MAX_DOF; ++i)
		if (!isfinite(s->q[i]) || !isfinite(qdot[i]))
			s->q[i] = qdot[i] = 0.0;
}

/* The kick's direction in velocity space at s (velocities v): M^-1 of the
 * model's strike, on the constraints (adapt is affine in the velocities:
 * the difference of two projections is the direction's own). */
static void strike_direction(const pendula_system *sys, const pendula_state *s, const double *v,
                             double *d)
{
	double impulse[PENDULA_MAX_DOF] = {0};
	if (sys->ops->strike)
		sys->ops->strike(sys, s->q, impulse);
	else
		impulse[0] = 1.0;
	memset(d, 0, sizeof(double) * PENDULA_MAX_DOF);
	sys->ops->velocity(sys, s->q, impulse, d);
	if (!sys->ops->adapt)
		return;
	double q[PENDULA_MAX_DOF], w[PENDULA_MAX_DOF];
	memcpy(q, s->q, sizeof(q));
	for (int i = 0; i < PENDULA_MAX_DOF; ++i)
		w[i] = v[i] + d[i];
	sys->ops->adapt(sys, sys->n, q, w, s->phase_w);
	for (int i = 0; i < sys->dof; ++i)
		d[i] = w[i] - v[i];
}

/* The alpha of v + alpha d that adds energy_j (J) to the state: the root of
 * a alpha^2 + b alpha = energy_j on the side of the motion (b's sign; from
 * rest +), in the form without cancellation.  d is first scaled so that
 * its own kinetic energy is energy_j: the three energies then differ by
 * amounts of the kick's size.  0 if the direction carries no energy. */
static double kick_size(const pendula_system *sys, const pendula_state *s, const double *v,
                        double *d, double energy_j)
{
	double pd[PENDULA_MAX_DOF] = {0}, vp[PENDULA_MAX_DOF], vm[PENDULA_MAX_DOF];
	sys->ops->momentum(sys, s->q, d, pd);
	double kin = 0.0;
	for (int i = 0; i < sys->dof; ++i)
		kin += 0.5 * d[i] * pd[i];
	if (!(kin > 0.0) || !isfinite(kin))
		return 0.0;
	const double scale = sqrt(energy_j / kin);
	for (int i = 0; i < PENDULA_MAX_DOF; ++i) {
		d[i] *= scale;
		vp[i] = v[i] + d[i];
		vm[i] = v[i] - d[i];
	}
	const double e0 = sys->ops->energy(sys, s->q, v);
	const double ep = sys->ops->energy(sys, s->q, vp), em = sys->ops->energy(sys, s->q, vm);
	const double a = 0.5 * (ep + em) - e0, b = 0.5 * (ep - em);
	if (!(a > 0.0) || !isfinite(b))
		return 0.0;
	const double alpha = 2.0 * energy_j / (fabs(b) + sqrt(b * b + 4.0 * a * energy_j));
	return b < 0.0 ? -alpha : alpha;
}

void pendula_engine_pluck(pendula_engine *e, double energy_norm)
{
	if (!(energy_norm > 0.0))
		return;
	if (energy_norm > PENDULA_PLUCK_MAX)
		energy_norm = PENDULA_PLUCK_MAX;
	/* a phase request acts at this frame too: first, as the frame would */
	if (e->phase_request[0] || e->phase_request[1])
		engine_apply_phase_requests(e);
	const pendula_system *sys = &e->sys;
	double u = frame_u(e);
	u = u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
	pendula_state s;
	double v[PENDULA_MAX_DOF], d[PENDULA_MAX_DOF];
	state_at(e, u, &s, v);
	strike_direction(sys, &s, v, d);
	const double alpha = kick_size(sys, &s, v, d, energy_norm * sys->energy_range);
	if (alpha == 0.0 || !isfinite(alpha))
		return;
	for (int i = 0; i < sys->dof; ++i)
		v[i] += alpha * d[i];
	engine_materialize_last(e); /* the last frame, before the step changes */
	e->st = s;
	memcpy(e->qdot, v, sizeof(e->qdot));
	engine_restart_from_state(e);
}
