/* SPDX-License-Identifier: ISC */
/*
 * The sliders of the plugin UI: the control inputs the port table flags
 * PF_UI (contract/ports.h) that the plugin has, those also flagged
 * PF_UI_FIRST first, each group in table order; a model's
 * author marks which of its settings deserve one.  Shared by the UI and its
 * test probe, so both lay out the same rows.  Header-only.
 */
#ifndef PENDULA_UI_SLIDERS_H
#define PENDULA_UI_SLIDERS_H

#include "pendula_draw.h"
#include "ports.h"

/* Fills ids[] (room for PENDULA_UI_MAX_SLIDERS); returns how many. */
static inline int pendula_ui_sliders(pendula_variant v, pendula_port_id *ids)
{
	int n = 0;
	/* PF_UI_FIRST (the chaos knob, freeze) at the top, then the others */
	for (int pass = 0; pass < 2; ++pass)
		for (int id = 0; id < PENDULA_N_PORT_IDS && n < PENDULA_UI_MAX_SLIDERS; ++id)
			if (pendula_ports[id].kind == PK_CONTROL_IN &&
			    (pendula_ports[id].flags & PF_UI) &&
			    ((pendula_ports[id].flags & PF_UI_FIRST) ? 0 : 1) == pass &&
			    pendula_port_index(v, (pendula_port_id)id) >= 0)
				ids[n++] = (pendula_port_id)id;
	return n;
}

#endif
