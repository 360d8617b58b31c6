/* SPDX-License-Identifier: ISC */
/*
 * A model's settings and coordinates from port values, through the port
 * table alone (no per-model code): what a host-side reader of the ports (the
 * plugin UI, the render tool) needs to ask the model for its pose
 * (pendula_pose_at).  Header-only, plain C, no LV2.
 *
 * Port values are indexed by global port id (contract/ports.h), in port units.
 */
#ifndef PENDULA_PORT_POSE_H
#define PENDULA_PORT_POSE_H

#include "ports.h"

#include <math.h>
#include <string.h>

/* The settings of variant v: the model's defaults, then every control
 * input the plugin has that fills a setting, clamped to its range. */
static inline void pendula_params_from_ports(pendula_params *p, pendula_variant v,
                                             const float *value)
{
	pendula_params_default(p, pendula_variant_model(v));
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		const pendula_port_info *info = &pendula_ports[id];
		if (info->kind != PK_CONTROL_IN || info->param < 0 ||
		    pendula_port_index(v, (pendula_port_id)id) < 0)
			continue;
		float x = value[id];
		if (!(x >= info->min)) /* and NaN */
			x = x > info->max ? info->max : info->min;
		if (x > info->max)
			x = info->max;
		pendula_param_set(p, (pendula_port_id)id, x);
	}
}

/* The body whose angle a port carries (a signal output on an angle channel,
 * or a control output mirroring one), or -1. */
static inline int pendula_port_angle_body(pendula_port_id id)
{
	const pendula_port_info *info = &pendula_ports[id];
	int ch = info->channel;
	if (info->kind == PK_CONTROL_OUT)
		for (int i = 0; i < PENDULA_N_PORT_IDS; ++i)
			if (pendula_ports[i].kind == PK_SIGNAL_OUT &&
			    pendula_ports[i].related == (int)id)
				ch = pendula_ports[i].channel;
	return ch >= PENDULA_CH_THETA && ch < PENDULA_CH_THETA + PENDULA_MAX_BODIES
	           ? ch - PENDULA_CH_THETA
	           : -1;
}

/* The control input that sets body k's initial angle in variant v, or -1. */
static inline int pendula_port_theta_init(pendula_variant v, int k)
{
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (pendula_ports[id].kind == PK_CONTROL_IN &&
		    pendula_ports[id].param == PP(theta_init[0]) + k * (int)sizeof(double) &&
		    pendula_port_index(v, (pendula_port_id)id) >= 0)
			return id;
	return -1;
}

/* The coordinates q (rad) the outputs of variant v show: q[k] = pi * the
 * angle output of body k (angles are output divided by pi), 0 for bodies
 * without one.  kind: PK_CONTROL_OUT or PK_SIGNAL_OUT. */
static inline void pendula_q_from_ports(pendula_variant v, pendula_port_kind kind,
                                        const float *value, double q[PENDULA_MAX_DOF])
{
	for (int k = 0; k < PENDULA_MAX_DOF; ++k)
		q[k] = 0.0;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (pendula_ports[id].kind != kind ||
		    pendula_port_index(v, (pendula_port_id)id) < 0)
			continue;
		const int k = pendula_port_angle_body((pendula_port_id)id);
		if (k >= 0)
			q[k] = PENDULA_PI * pendula_finite_or(value[id], 0.0);
	}
}

/* The engine channel a port carries (a signal output's own, a control
 * output's through the signal output it mirrors), or -1. */
static inline int pendula_port_channel(pendula_port_id id)
{
	const pendula_port_info *info = &pendula_ports[id];
	if (info->kind == PK_CONTROL_OUT)
		for (int i = 0; i < PENDULA_N_PORT_IDS; ++i)
			if (pendula_ports[i].kind == PK_SIGNAL_OUT &&
			    pendula_ports[i].related == (int)id)
				return pendula_ports[i].channel;
	return info->kind == PK_SIGNAL_OUT ? info->channel : -1;
}

/* A frame as the outputs of kind `kind` (PK_CONTROL_OUT or PK_SIGNAL_OUT)
 * of variant v show it: every channel one of them carries, back in the
 * frame's units (angles * pi, the tip in metres through sys->tip_length);
 * the pivot from the pivot control outputs (control outputs only); the
 * channels no output carries 0, and the simulated time and the bead
 * floor's wave phase unknown (NaN: a model's pose then fits a moving
 * surface to what the outputs show).
 * pendula_frame_coords() then gives the model's coordinates. */
static inline void pendula_frame_from_ports(const pendula_system *sys, pendula_variant v,
                                            pendula_port_kind kind, const float *value,
                                            pendula_frame *f)
{
	memset(f, 0, sizeof(*f));
	f->t = NAN;
	f->wave_phase = NAN;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (pendula_ports[id].kind != kind ||
		    pendula_port_index(v, (pendula_port_id)id) < 0)
			continue;
		const int ch = pendula_port_channel((pendula_port_id)id);
		const double x = pendula_finite_or(value[id], 0.0);
		if (ch >= PENDULA_CH_THETA && ch < PENDULA_CH_THETA + PENDULA_MAX_BODIES)
			f->theta[ch - PENDULA_CH_THETA] = PENDULA_PI * x;
		else if (ch >= PENDULA_CH_X && ch < PENDULA_CH_X + PENDULA_MAX_BODIES)
			f->x[ch - PENDULA_CH_X] = x;
		else if (ch >= PENDULA_CH_Y && ch < PENDULA_CH_Y + PENDULA_MAX_BODIES)
			f->y[ch - PENDULA_CH_Y] = x;
		else if (ch >= PENDULA_CH_Z && ch < PENDULA_CH_Z + PENDULA_MAX_BODIES)
			f->z[ch - PENDULA_CH_Z] = x;
		else if (ch == PENDULA_CH_TIP_X)
			f->tip_x = (f->tip_x_norm = x) * sys->tip_length;
		else if (ch == PENDULA_CH_TIP_Y)
			f->tip_y = (f->tip_y_norm = x) * sys->tip_length;
		else if (ch == PENDULA_CH_TIP_Z)
			f->tip_z = (f->tip_z_norm = x) * sys->tip_length;
		else if (ch == PENDULA_CH_ENERGY)
			f->energy = x;
	}
	if (kind == PK_CONTROL_OUT) {
		if (pendula_port_index(v, P_CTL_PIVOT_X) >= 0)
			f->pivot_x = pendula_finite_or(value[P_CTL_PIVOT_X], 0.0);
		if (pendula_port_index(v, P_CTL_PIVOT_Y) >= 0)
			f->pivot_y = pendula_finite_or(value[P_CTL_PIVOT_Y], 0.0);
		if (pendula_port_index(v, P_CTL_PIVOT_Z) >= 0)
			f->pivot_z = pendula_finite_or(value[P_CTL_PIVOT_Z], 0.0);
	}
}

/* The model's coordinates at its initial state (what a reset starts
 * from), through a throw-away engine (allocates: not for run()); 0 if the
 * engine cannot be made. */
static inline void pendula_initial_coords(const pendula_system *sys, const pendula_params *p,
                                          double q[PENDULA_MAX_DOF])
{
	pendula_frame f;
	pendula_engine *e = pendula_engine_new(48000.0, p);
	for (int k = 0; k < PENDULA_MAX_DOF; ++k)
		q[k] = 0.0;
	if (!e)
		return;
	pendula_engine_last(e, &f);
	pendula_frame_coords(sys, &f, q);
	pendula_engine_free(e);
}

#endif
