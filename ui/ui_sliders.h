/* SPDX-License-Identifier: ISC */
/*
 * The sliders of the plugin UI: the control inputs the port table flags
 * PF_UI (contract/ports.h) that the plugin has, those also flagged
 * PF_UI_FIRST first, each group in table order; a model's
 * author marks which of its settings deserve one.  Shared by the UI and its
 * tests (ui_probe, ui_harness), so all lay out the same rows.  Header-only.
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

/* The UI's layout for a window of w x h: the variant's slider rows, a
 * level meter for drive_level in the drive gain's row (docs/UI.md). */
static inline void pendula_ui_layout(pendula_variant v, double w, double h, pendula_layout *lay)
{
	pendula_port_id ids[PENDULA_UI_MAX_SLIDERS];
	const int n = pendula_ui_sliders(v, ids);
	pendula_layout_compute(lay, w, h, n);
	for (int i = 0; i < n; ++i)
		if (ids[i] == P_DRIVE_GAIN && pendula_port_index(v, P_CTL_DRIVE_LEVEL) >= 0)
			pendula_layout_level_row(lay, i);
}

#endif
