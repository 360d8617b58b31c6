/* SPDX-License-Identifier: ISC */
/*
 * The plugin UI's buttons: drawing one, and the momentary ones (reset,
 * memory store and recall), which hold their trigger port at 1 long enough
 * for the plugin to see the rising edge in a block of its own, whatever the
 * host's period, then put it back to 0 (docs/UI.md).
 */
#ifndef PENDULA_UI_BUTTONS_H
#define PENDULA_UI_BUTTONS_H

#include "pendula_draw.h"
#include "ports.h"

#include <cairo.h>
#include <stdbool.h>

/* How long a momentary button's port stays at 1 at least (s). */
#define UI_MOMENTARY_HOLD 0.08

/* How the buttons set a control input (here and in the plugin). */
typedef struct {
	void (*set)(void *ctx, pendula_port_id id, float v);
	void *ctx;
} ui_port_writer;

typedef struct {
	pendula_port_id id;
	bool high;    /* the port is at 1 */
	bool held;    /* the mouse button is still down */
	double since; /* when it went to 1 */
} ui_momentary;

/* The port to 1, now. */
void ui_momentary_press(ui_momentary *m, double now, const ui_port_writer *w);
/* The mouse button is up: the port may drop once held long enough. */
void ui_momentary_release(ui_momentary *m);
/* Drops the port back to 0 when due; true if it did (something to redraw). */
bool ui_momentary_update(ui_momentary *m, double now, const ui_port_writer *w);

/* Text whose vertical middle is y_mid: starting at x, or ending there. */
void ui_text_at(cairo_t *cr, double x, double y_mid, const char *s, int align_right);
/* A button: its face (lit: pressed or selected) and its label, centred. */
void ui_draw_button(cairo_t *cr, const pendula_rect *r, const char *label, bool lit);

#endif
