/* SPDX-License-Identifier: ISC */
/*
 * The double-precision frame: every field of pendula_frame at a position u
 * of the current step, from the step's interpolants (interpolant.c), for
 * pendula_engine_tick (sampler.c), for the last frame of a block (pendula_engine_last,
 * evaluated only when asked), and for the pose and pivot a picture needs.
 */
#include "engine_internal.h"

#include <math.h>
#include <string.h>

void engine_materialize_last(pendula_engine *e)
{
	if (e->last_lazy) {
		engine_fill_frame_at(e, e->last_u, &e->last);
		e->last_lazy = 0;
	}
}

void engine_fill_frame(const pendula_engine *e, pendula_frame *f)
{
	engine_fill_frame_at(e, frame_u(e), f);
}

/* The pivot at u of the current step (metres). */
static void pivot_at(const pendula_engine *e, double u, double *x, double *y, double *z)
{
	const double tau = u * e->h;
	pendula_pivot_xy_at(&e->sys, e->step_phase_x + e->sys.force.omega_x * tau,
	                    e->step_phase_y + e->sys.force.omega_y * tau, x, y);
	*z = pendula_pivot_z_at(&e->sys, e->step_phase_z + e->sys.force.omega_z * tau);
}

static void fill_pose_fields(const pendula_engine *e, double u, pendula_frame *f)
{
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k)
		/* a row of zeros evaluates to +0 */
		f->theta[k] = e->qlive & ((uint32_t)1 << k)
		                  ? pendula_wrap_angle(qpoly_value(e->qpoly[k], u))
		                  : 0.0;
	f->energy = poly_eval(e->poly[PENDULA_CH_ENERGY - PENDULA_CH_TIP_X], u);
	pivot_at(e, u, &f->pivot_x, &f->pivot_y, &f->pivot_z);
	f->t = e->st.t - (1.0 - u) * e->h;
	f->wave_phase =
	    e->sys.force.omega_w != 0.0
	        ? pendula_wrap_phase(e->st.phase_w - e->sys.force.omega_w * (1.0 - u) * e->h)
	        : e->st.phase_w;
}

/* The x / y / z rows of the frame at u. */
static void fill_directions(const pendula_engine *e, double u, pendula_frame *f)
{
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		f->x[k] = fpoly_live(e, PENDULA_CH_X + k, u);
		f->y[k] = fpoly_live(e, PENDULA_CH_Y + k, u);
		f->z[k] = fpoly_live(e, PENDULA_CH_Z + k, u);
	}
}

/* The fields of the frame at u that place the bodies (those
 * pendula_frame_coords reads: the angles, and the x / y / z rows of a model
 * that reads its coordinates from them), the pivot, the time and the
 * energy: what a picture of the frame needs. */
static void fill_pose_at(const pendula_engine *e, double u, pendula_frame *f)
{
	fill_pose_fields(e, u, f);
	if (e->sys.ops->coords)
		fill_directions(e, u, f);
}

void engine_fill_frame_at(const pendula_engine *e, double u, pendula_frame *f)
{
	fill_pose_fields(e, u, f);
	fill_directions(e, u, f);
	const double inv_h = 1.0 / e->h;
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k)
		f->omega[k] =
		    e->qlive & ((uint32_t)1 << k) ? qpoly_slope(e->qpoly[k], u) * inv_h : 0.0;
#define POLY(ch) e->poly[(ch)-PENDULA_CH_TIP_X]
	f->tip_x_norm = poly_eval(POLY(PENDULA_CH_TIP_X), u);
	f->tip_y_norm = poly_eval(POLY(PENDULA_CH_TIP_Y), u);
	f->tip_x = f->tip_x_norm * e->sys.tip_length;
	f->tip_y = f->tip_y_norm * e->sys.tip_length;
	f->tip_z_norm = poly_eval(POLY(PENDULA_CH_TIP_Z), u);
	f->tip_z = f->tip_z_norm * e->sys.tip_length;
#undef POLY
	engine_frame_velocities(e, u, f);
}

void engine_frame_velocities(const pendula_engine *e, double u, pendula_frame *f)
{
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		float d[3];
		if (e->sys.ops->velocity_outputs == PENDULA_VEL_ANGLE) {
			f->w[k] = (float)(f->omega[k] * e->sys.speed_ref[k]);
		} else if (velocity_quadratic(e, k, d)) {
			f->w[k] = (float)(d[0] + u * (d[1] + u * (double)d[2]));
		} else {
			const float *x = e->fpoly[PENDULA_CH_X + k],
			            *y = e->fpoly[PENDULA_CH_Y + k];
			float dx[3], dy[3];
			cubic_slope(x, 1.0, dx);
			cubic_slope(y, 1.0, dy);
			const double xv = fpoly_eval(x, u), yv = fpoly_eval(y, u);
			const double xd = dx[0] + u * (dx[1] + u * (double)dx[2]);
			const double yd = dy[0] + u * (dy[1] + u * (double)dy[2]);
			f->w[k] = (float)((xv * yd - yv * xd) * e->sys.speed_ref[k] / e->h);
		}
	}
}

double pendula_frame_channel(const pendula_frame *f, int ch)
{
	if (ch >= PENDULA_CH_THETA && ch < PENDULA_CH_THETA + PENDULA_MAX_BODIES)
		return (double)pendula_angle_output(f->theta[ch - PENDULA_CH_THETA]);
	if (ch >= PENDULA_CH_X && ch < PENDULA_CH_X + PENDULA_MAX_BODIES)
		return f->x[ch - PENDULA_CH_X];
	if (ch >= PENDULA_CH_Y && ch < PENDULA_CH_Y + PENDULA_MAX_BODIES)
		return f->y[ch - PENDULA_CH_Y];
	if (ch >= PENDULA_CH_Z && ch < PENDULA_CH_Z + PENDULA_MAX_BODIES)
		return f->z[ch - PENDULA_CH_Z];
	if (ch >= PENDULA_CH_W && ch < PENDULA_CH_W + PENDULA_MAX_BODIES) {
		const double w = f->w[ch - PENDULA_CH_W];
		return w < -1.0 ? -1.0 : w > 1.0 ? 1.0 : w;
	}
	if (ch >= PENDULA_CH_W_LEVEL && ch < PENDULA_CH_W_LEVEL + PENDULA_MAX_BODIES)
		return pendula_velocity_level_of(f->w[ch - PENDULA_CH_W_LEVEL]);
	switch (ch) {
	case PENDULA_CH_TIP_X:
		return f->tip_x_norm;
	case PENDULA_CH_TIP_Y:
		return f->tip_y_norm;
	case PENDULA_CH_TIP_Z:
		return f->tip_z_norm;
	case PENDULA_CH_ENERGY:
		return f->energy;
	case PENDULA_CH_ENERGY_LEVEL:
		return pendula_energy_level_of(pendula_energy_output(f->energy));
	default:
		return 0.0;
	}
}

void pendula_engine_last(const pendula_engine *e, pendula_frame *f)
{
	if (e->last_lazy)
		engine_fill_frame_at(e, e->last_u, f);
	else
		*f = e->last;
}

void pendula_engine_last_pose(const pendula_engine *e, pendula_frame *f)
{
	if (e->last_lazy) {
		fill_pose_at(e, e->last_u, f);
		return;
	}
	const pendula_frame *l = &e->last;
	memcpy(f->theta, l->theta, sizeof(f->theta));
	if (e->sys.ops->coords) {
		memcpy(f->x, l->x, sizeof(f->x));
		memcpy(f->y, l->y, sizeof(f->y));
		memcpy(f->z, l->z, sizeof(f->z));
	}
	f->energy = l->energy;
	f->pivot_x = l->pivot_x;
	f->pivot_y = l->pivot_y;
	f->pivot_z = l->pivot_z;
	f->t = l->t;
	f->wave_phase = l->wave_phase;
}

void pendula_engine_last_pivot(const pendula_engine *e, double *x, double *y, double *z)
{
	if (!e->last_lazy) {
		*x = e->last.pivot_x;
		*y = e->last.pivot_y;
		*z = e->last.pivot_z;
		return;
	}
	pivot_at(e, e->last_u, x, y, z);
}
