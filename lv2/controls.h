/* SPDX-License-Identifier: ISC */
/*
 * The control inputs of one plugin instance: where each is read from (the
 * host's buffer, or its default while unconnected), the raw value last read,
 * the clamped value (the bad-input rule: docs/MODELS.md, "The contract in
 * detail"), the one-pole smoothers of the physical controls (PF_SMOOTH) and
 * the other settings (those with a field in pendula_params) as last given
 * to the engine.
 *
 * Why a part of its own: every block starts by reading the controls, and
 * most blocks change none; keeping the raw bits beside the buffers lets one
 * branch-free pass tell, and the rest of the glue reads only the clamped
 * values (control[], by global port id).  Which port is smoothed, stepped or
 * restarts the motion comes from the port table, ports.h.
 */
#ifndef PENDULA_LV2_CONTROLS_H
#define PENDULA_LV2_CONTROLS_H

#include "pendula_engine.h"
#include "ports.h"

#include <stdbool.h>
#include <stdint.h>

/* A global port id in two bytes (the table has more than 256 rows since
 * the MOD CV outputs): the lists below are walked every block, and an
 * instance small enough to stay in cache costs less (docs/BENCHMARKS.md,
 * "As a host wires it"). */
typedef uint16_t pendula_port_byte;
_Static_assert(PENDULA_N_PORT_IDS <= 65536, "port ids no longer fit two bytes");

typedef struct {
	pendula_variant variant;
	/* Control inputs of this variant, global ids. */
	pendula_port_byte control_in[PENDULA_N_PORT_IDS];
	uint32_t n_control_in;
	/* The same inputs by their place i in control_in: the buffer and the
	 * bits of the raw value last read from it, side by side so that
	 * pendula_controls_read scans two short arrays. */
	const float *control_buf[PENDULA_N_PORT_IDS];
	uint32_t control_bits[PENDULA_N_PORT_IDS];
	int16_t control_place[PENDULA_N_PORT_IDS]; /* global id -> i, or -1 */
	/* What an unconnected control input reads. */
	float control_default[PENDULA_N_PORT_IDS];
	/* Smoothed controls (PF_SMOOTH) and the other settings (those with a
	 * field in pendula_params), of this variant. */
	pendula_port_byte smoothed_in[PENDULA_N_PORT_IDS];
	uint32_t n_smoothed;
	pendula_port_byte stepped_in[PENDULA_N_PORT_IDS];
	uint32_t n_stepped;

	/* This block's control inputs, clamped (global id); control_bits holds
	 * the raw values they came from (a control whose raw value is
	 * unchanged is not sanitised again). */
	float control[PENDULA_N_PORT_IDS];
	bool changed; /* some control input changed (or everything is new) */
	/* A setting of the motion (a control with a field in pendula_params:
	 * physical, initial, the chaos knob) changed in the last
	 * pendula_controls_read. */
	bool motion_changed;
	bool smoothing; /* some smoother has not reached its target */

	/* Smoothers: value moves toward control[] by smooth_coef per chunk. */
	double smoothed[PENDULA_N_PORT_IDS];
	double smooth_coef;
	/* The stepped settings as last given to the engine. */
	float stepped_last[PENDULA_N_PORT_IDS];
} pendula_controls;

/* What a change of the stepped settings asks for
 * (pendula_controls_stepped_changes). */
enum {
	PENDULA_STEPPED_RESTART = 1u << 0, /* an initial condition: restart */
	PENDULA_STEPPED_PARAMS = 1u << 1   /* another setting: give it again */
};

/* At instantiate() (c zeroed): the variant's control inputs from the port
 * table, each reading its default, the smoothers on their targets. */
void pendula_controls_init(pendula_controls *c, pendula_variant variant, double sample_rate);
/* connect_port(): what the port's buffer is from now on (data, or the
 * default of a control input connected to NULL); a control input of this
 * variant is read from it. */
void *pendula_controls_connect(pendula_controls *c, pendula_port_id id, void *data);
/* Reads every control input once, into control[]; sets `changed` if a value
 * differs from the last block's, `motion_changed` if a setting of the
 * motion does in this read. */
void pendula_controls_read(pendula_controls *c);
/* The block's changes have been seen: whether the smoothers move is known
 * again, `changed` is cleared. */
void pendula_controls_seen(pendula_controls *c);
/* The smoothers jump to their targets (activate, reset). */
void pendula_controls_snap(pendula_controls *c);
/* One chunk of the smoothers; true if a value moved. */
bool pendula_controls_advance(pendula_controls *c);
/* Which stepped settings differ from those last given to the engine
 * (PENDULA_STEPPED_*). */
unsigned pendula_controls_stepped_changes(const pendula_controls *c);
/* Engine settings: the model's defaults, the smoothed and the stepped
 * controls. */
void pendula_controls_params(const pendula_controls *c, pendula_params *p);
/* The stepped settings have been given to the engine. */
void pendula_controls_pushed(pendula_controls *c);

#endif
