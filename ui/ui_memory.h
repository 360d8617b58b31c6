/* SPDX-License-Identifier: ISC */
/*
 * The plugin UI's memory strip (docs/UI.md): eight slot buttons (the one
 * mem_slot selects is lit; a click selects another), and Store and Recall,
 * momentary buttons on mem_store and mem_recall.  A slot stored while the
 * UI is open (from it, or a store edge the host reported) shows a dot; the
 * UI cannot know the memories stored before it opened.
 */
#ifndef PENDULA_UI_MEMORY_H
#define PENDULA_UI_MEMORY_H

#include "ui_buttons.h"

typedef struct {
	ui_momentary store, recall;
	unsigned stored; /* bit k: slot k + 1 seen stored */
} ui_memory;

void ui_memory_init(ui_memory *m);
/* A left press at (x, y): true if it hit the strip (and acted). */
bool ui_memory_press(ui_memory *m, const pendula_layout *lay, const float *value, double x,
                     double y, double now, const ui_port_writer *w);
void ui_memory_release(ui_memory *m);
/* The store and recall ports back to 0 when due; true if one changed. */
bool ui_memory_update(ui_memory *m, double now, const ui_port_writer *w);
/* A control input the host reported (value[] holds the new one). */
void ui_memory_port(ui_memory *m, pendula_port_id id, float was, const float *value);
void ui_memory_draw(cairo_t *cr, const ui_memory *m, const pendula_layout *lay, const float *value);

#endif
