/* SPDX-License-Identifier: ISC */
/*
 * A model's settings and coordinates from port values, through the port
 * table alone (no per-model code): what a host-side reader of the ports (the
 * plugin UI, the render tool) needs to ask the model for its pose
 * (pendula_pose_at).  Header-only, plain C, no LV2.
 *
 * Port values are indexed by global port id (plugin/ports.h), in port units.
 */
#ifndef PENDULA_PORT_POSE_H
#define PENDULA_PORT_POSE_H

#include "ports.h"

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

#endif
