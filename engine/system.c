/* SPDX-License-Identifier: ISC */
/*
 * The physics API of pendula_engine.h (forcing, system, velocities, momenta,
 * accelerations, energy, power, pivot, pose, a single step): the dispatch to
 * the models through the interface of model.h, and the registry of models.
 */
#include "model.h"

#include <math.h>
#include <string.h>

/* The registry: every model's interface, by id. */
#define PENDULA_X_MODEL_DECL(id, slug, name, desc) \
	extern const pendula_model_ops pendula_model_##slug;
PENDULA_MODELS(PENDULA_X_MODEL_DECL)
#undef PENDULA_X_MODEL_DECL

static const pendula_model_ops *const model_ops[PENDULA_N_MODELS] = {
#define PENDULA_X_MODEL_OPS(id, slug, name, desc) &pendula_model_##slug,
    PENDULA_MODELS(PENDULA_X_MODEL_OPS)
#undef PENDULA_X_MODEL_OPS
};

void pendula_forcing_init(pendula_forcing *f, const pendula_params *p)
{
	const double dx = pendula_nonneg(p->pivot_x_amp), dy = pendula_nonneg(p->pivot_y_amp);
	const double fx = pendula_nonneg(p->pivot_x_freq), fy = pendula_nonneg(p->pivot_y_freq);
	f->amp_x = dx;
	f->amp_y = dy;
	f->omega_x = PENDULA_TWO_PI * fx;
	f->omega_y = PENDULA_TWO_PI * fy;
	f->accel_x = dx * f->omega_x * f->omega_x;
	f->accel_y = dy * f->omega_y * f->omega_y;
	const double dz = pendula_nonneg(p->pivot_z_amp), fz = pendula_nonneg(p->pivot_z_freq);
	f->amp_z = dz;
	f->omega_z = PENDULA_TWO_PI * fz;
	f->accel_z = dz * f->omega_z * f->omega_z;
	f->forced = f->accel_x > 0.0 || f->accel_y > 0.0 || f->accel_z > 0.0;
}

double pendula_settings_step(const pendula_system *sys, double omega_nat, double kappa_nat,
                             double damp)
{
	const pendula_forcing *f = &sys->force;
	double h = pendula_scheme_h_max(sys);
	if (omega_nat * h > kappa_nat)
		h = kappa_nat / omega_nat;
	if (damp * h > PENDULA_KAPPA_DAMP)
		h = PENDULA_KAPPA_DAMP / damp;
	if (f->amp_x > 0.0 && f->omega_x * h > PENDULA_KAPPA_FORCE)
		h = PENDULA_KAPPA_FORCE / f->omega_x;
	if (f->amp_y > 0.0 && f->omega_y * h > PENDULA_KAPPA_FORCE)
		h = PENDULA_KAPPA_FORCE / f->omega_y;
	if (f->amp_z > 0.0 && f->omega_z * h > PENDULA_KAPPA_FORCE)
		h = PENDULA_KAPPA_FORCE / f->omega_z;
	return h;
}

/* The velocity outputs of an angle model: omega{k} = theta-dot_k /
 * omega_ref_k, omega_ref_k = sqrt(2 D / R_kk) with R_kk the diagonal of the
 * mass matrix with every body hanging at rest (q = 0): the rate joint k
 * would turn at if the whole energy range D went into it alone.  A motion
 * at normalised energy 1 stays within about +-1 (docs/GUIDE.md). */
static void angle_speed_refs(pendula_system *sys)
{
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		sys->speed_ref[k] = 0.0f;
		if (k >= sys->n || k >= sys->dof)
			continue;
		double q[PENDULA_MAX_DOF] = {0}, qdot[PENDULA_MAX_DOF] = {0}, p[PENDULA_MAX_DOF];
		qdot[k] = 1.0;
		sys->ops->momentum(sys, q, qdot, p);
		const double r = p[k] / (2.0 * sys->energy_range);
		sys->speed_ref[k] = r > 0.0 && isfinite(r) ? (float)sqrt(r) : 0.0f;
	}
}

void pendula_system_init(pendula_system *sys, const pendula_params *p)
{
	memset(sys, 0, sizeof(*sys));
	const int id = (int)p->model >= 0 && p->model < PENDULA_N_MODELS ? (int)p->model : 0;
	sys->ops = model_ops[id];
	sys->g = pendula_positive(p->gravity, 0.0);
	pendula_forcing_init(&sys->force, p);
	sys->ops->derive(sys, p);
	if (sys->ops->velocity_outputs == PENDULA_VEL_ANGLE)
		angle_speed_refs(sys);
}

void pendula_velocity(const pendula_system *sys, const double *q, const double *p, double *qdot)
{
	sys->ops->velocity(sys, q, p, qdot);
}

void pendula_momentum(const pendula_system *sys, const double *q, const double *qdot, double *p)
{
	sys->ops->momentum(sys, q, qdot, p);
}

void pendula_accel(const pendula_system *sys, const double *q, const double *qdot, double phase_x,
                   double phase_y, double *accel)
{
	sys->ops->accel(sys, q, qdot, phase_x, phase_y, accel);
}

double pendula_energy(const pendula_system *sys, const double *q, const double *qdot)
{
	return sys->ops->energy(sys, q, qdot);
}

double pendula_energy_normalised(const pendula_system *sys, double energy)
{
	return (energy - sys->energy_min) / sys->energy_range;
}

double pendula_power(const pendula_system *sys, const double *q, const double *qdot, double phase_x,
                     double phase_y)
{
	return sys->ops->power(sys, q, qdot, phase_x, phase_y);
}

void pendula_pivot(const pendula_system *sys, double phase_x, double phase_y, double *x, double *y)
{
	pendula_pivot_xy_at(sys, phase_x, phase_y, x, y);
}

double pendula_pivot_z(const pendula_system *sys, double phase_z)
{
	return pendula_pivot_z_at(sys, phase_z);
}

void pendula_pose_at(const pendula_system *sys, const double *q, double pivot_x, double pivot_y,
                     pendula_pose *pose)
{
	const pendula_vec3 pivot = {pivot_x, pivot_y, 0.0};
	pendula_pose_at3(sys, q, pivot, 0.0, pose);
}

void pendula_pose_at3(const pendula_system *sys, const double *q, pendula_vec3 pivot,
                      double wave_phase, pendula_pose *pose)
{
	sys->ops->pose(sys, q, pivot, wave_phase, pose);
}

void pendula_frame_coords(const pendula_system *sys, const pendula_frame *f, double *q)
{
	memset(q, 0, sizeof(double) * PENDULA_MAX_DOF);
	if (sys->ops->coords) {
		sys->ops->coords(sys, f, q);
		return;
	}
	for (int k = 0; k < sys->n && k < PENDULA_MAX_BODIES; ++k)
		q[k] = f->theta[k];
}

static void start_predictor(const pendula_system *sys, const pendula_state *s,
                            pendula_predictor *pr)
{
	double qdot[PENDULA_MAX_DOF] = {0};
	sys->ops->velocity(sys, s->q, s->p, qdot);
	pendula_predictor_start(pr, qdot);
}

int pendula_step(const pendula_system *sys, pendula_state *s, double h)
{
	pendula_predictor pr;
	start_predictor(sys, s, &pr);
	return sys->ops->step(sys, s, h, &pr);
}

int pendula_step_base(const pendula_system *sys, pendula_state *s, double h)
{
	pendula_predictor pr;
	start_predictor(sys, s, &pr);
	/* (a scheme that is no composition is its own base step) */
	return (sys->ops->step_base ? sys->ops->step_base : sys->ops->step)(sys, s, h, &pr);
}
