/* SPDX-License-Identifier: ISC */
/*
 * The control inputs of one plugin instance: reading, clamping, smoothing
 * (see controls.h for what this part owns and why).
 */
#include "controls.h"

#include "chunk.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Time constant of the control smoothers, seconds of real (audio) time. */
#define PENDULA_SMOOTH_TIME 0.020

/* The docs/MODELS.md bad-input rule: NaN -> default, clamp to the declared range
 * (which also catches +-inf); integer ports round, toggles become 0 or 1.  A
 * subnormal value is 0 (it would reach the outputs as a subnormal, e.g. a
 * theta1_init of 1e-40 degrees). */
static float sanitize_control(const pendula_controls *c, pendula_port_id id, float v)
{
	const pendula_port_info *info = &pendula_ports[id];
	if (v != v)
		v = pendula_port_default(c->variant, id);
	if (fabsf(v) < FLT_MIN)
		v = 0.0f;
	float lo, hi;
	pendula_port_range(c->variant, id, &lo, &hi);
	if (v < lo)
		v = lo;
	if (v > hi)
		v = hi;
	if (info->flags & (PF_TOGGLED | PF_INTEGER | PF_ENUM))
		v = pendula_whole_value(v, (info->flags & PF_TOGGLED) != 0);
	return v;
}

void pendula_controls_init(pendula_controls *c, pendula_variant variant, double sample_rate)
{
	const pendula_variant v = variant;
	c->variant = v;
	for (int i = 0; i < PENDULA_N_PORT_IDS; ++i) {
		const pendula_port_id id = (pendula_port_id)i;
		const pendula_port_info *info = &pendula_ports[id];
		c->control[id] = pendula_port_default(v, id);
		c->control_place[id] = -1;
		if (pendula_port_index(v, id) < 0 || info->kind != PK_CONTROL_IN)
			continue;
		c->control[id] = sanitize_control(c, id, c->control[id]);
		c->control_default[id] = pendula_port_default(v, id);
		const uint32_t place = c->n_control_in++;
		c->control_in[place] = (pendula_port_byte)id;
		c->control_place[id] = (int16_t)place;
		c->control_buf[place] = &c->control_default[id]; /* until connected */
		/* a NaN: never a host's value until it is read (a host's NaN
		 * means the default, which control[] holds) */
		c->control_bits[place] = 0x7fc0beefu;
		if (info->flags & PF_SMOOTH)
			c->smoothed_in[c->n_smoothed++] = (pendula_port_byte)id;
		else if (info->param != PP_NONE)
			c->stepped_in[c->n_stepped++] = (pendula_port_byte)id;
	}
	c->smooth_coef = 1.0 - exp(-(double)PENDULA_CHUNK / (PENDULA_SMOOTH_TIME * sample_rate));
	pendula_controls_snap(c);
	c->changed = true;
}

void *pendula_controls_connect(pendula_controls *c, pendula_port_id id, void *data)
{
	/* a control input not connected reads its default */
	void *buf =
	    data || pendula_ports[id].kind != PK_CONTROL_IN ? data : &c->control_default[id];
	if (c->control_place[id] >= 0)
		c->control_buf[c->control_place[id]] = (const float *)buf;
	return buf;
}

void pendula_controls_read(pendula_controls *c)
{
	/* Most blocks change nothing: one pass without branches tells. */
	c->motion_changed = false;
	uint32_t diff = 0;
	for (uint32_t i = 0; i < c->n_control_in; ++i) {
		uint32_t bits;
		memcpy(&bits, c->control_buf[i], sizeof(bits));
		diff |= bits ^ c->control_bits[i];
	}
	if (!diff)
		return;
	bool changed = false;
	for (uint32_t i = 0; i < c->n_control_in; ++i) {
		uint32_t bits;
		memcpy(&bits, c->control_buf[i], sizeof(bits));
		if (bits == c->control_bits[i])
			continue;
		c->control_bits[i] = bits;
		float v;
		memcpy(&v, &bits, sizeof(v));
		const pendula_port_id id = (pendula_port_id)c->control_in[i];
		const float value = sanitize_control(c, id, v);
		changed |= value != c->control[id];
		if (value != c->control[id] && pendula_ports[id].param != PP_NONE)
			c->motion_changed = true;
		c->control[id] = value;
	}
	c->changed |= changed;
}

/* Whether some smoother has yet to reach its target. */
static bool smoothers_moving(const pendula_controls *c)
{
	for (uint32_t i = 0; i < c->n_smoothed; ++i)
		if (c->smoothed[c->smoothed_in[i]] != c->control[c->smoothed_in[i]])
			return true;
	return false;
}

void pendula_controls_seen(pendula_controls *c)
{
	if (c->changed)
		c->smoothing = smoothers_moving(c);
	c->changed = false;
}

void pendula_controls_snap(pendula_controls *c)
{
	for (uint32_t i = 0; i < c->n_smoothed; ++i)
		c->smoothed[c->smoothed_in[i]] = c->control[c->smoothed_in[i]];
	c->smoothing = false;
}

/* One chunk of the one-pole smoothers; nothing to do once every smoother
 * sits on its target. */
bool pendula_controls_advance(pendula_controls *c)
{
	if (!c->smoothing)
		return false;
	bool moved = false;
	for (uint32_t i = 0; i < c->n_smoothed; ++i) {
		const pendula_port_id id = (pendula_port_id)c->smoothed_in[i];
		const double target = c->control[id];
		double y = c->smoothed[id];
		if (y == target)
			continue;
		y += c->smooth_coef * (target - y);
		/* Land exactly on the target (no endless ulp-sized updates, no
		 * subnormals when heading for 0). */
		if (fabs(target - y) <= 1e-6 * fabs(target) + 1e-9)
			y = target;
		c->smoothed[id] = y;
		moved = true;
	}
	c->smoothing = moved && smoothers_moving(c);
	return moved;
}

/* An initial condition restarts the motion from the new initial state (so a
 * preset chosen at run time starts its own motion); any other setting (e.g.
 * the number of bodies) reaches the engine at the next chunk. */
unsigned pendula_controls_stepped_changes(const pendula_controls *c)
{
	unsigned asked = 0;
	for (uint32_t i = 0; i < c->n_stepped; ++i) {
		const pendula_port_id id = (pendula_port_id)c->stepped_in[i];
		if (c->control[id] == c->stepped_last[id])
			continue;
		if (pendula_ports[id].flags & PF_INITIAL)
			asked |= PENDULA_STEPPED_RESTART;
		else
			asked |= PENDULA_STEPPED_PARAMS;
	}
	return asked;
}

void pendula_controls_params(const pendula_controls *c, pendula_params *p)
{
	pendula_params_default(p, pendula_variant_model(c->variant));
	for (uint32_t i = 0; i < c->n_smoothed; ++i)
		pendula_param_set(p, (pendula_port_id)c->smoothed_in[i],
		                  c->smoothed[c->smoothed_in[i]]);
	for (uint32_t i = 0; i < c->n_stepped; ++i)
		pendula_param_set(p, (pendula_port_id)c->stepped_in[i],
		                  c->control[c->stepped_in[i]]);
}

void pendula_controls_pushed(pendula_controls *c)
{
	for (uint32_t i = 0; i < c->n_stepped; ++i)
		c->stepped_last[c->stepped_in[i]] = c->control[c->stepped_in[i]];
}
