/* SPDX-License-Identifier: ISC */
/*
 * The plugin UI's buttons (ui_buttons.h).
 */
#include "ui_buttons.h"

void ui_momentary_press(ui_momentary *m, double now, const ui_port_writer *w)
{
	w->set(w->ctx, m->id, 1.0f);
	m->high = true;
	m->held = true;
	m->since = now;
}

void ui_momentary_release(ui_momentary *m)
{
	m->held = false;
}

bool ui_momentary_update(ui_momentary *m, double now, const ui_port_writer *w)
{
	if (!m->high || m->held || now - m->since < UI_MOMENTARY_HOLD)
		return false;
	w->set(w->ctx, m->id, 0.0f);
	m->high = false;
	return true;
}

void ui_text_at(cairo_t *cr, double x, double y_mid, const char *s, int align_right)
{
	cairo_text_extents_t e;
	cairo_text_extents(cr, s, &e);
	const double tx = align_right ? x - e.x_advance : x;
	cairo_move_to(cr, tx, y_mid + 0.5 * e.height - (e.height + e.y_bearing));
	cairo_show_text(cr, s);
}

void ui_draw_button(cairo_t *cr, const pendula_rect *r, const char *label, bool lit)
{
	cairo_rectangle(cr, r->x, r->y, r->w, r->h);
	if (lit)
		cairo_set_source_rgb(cr, 0.40, 0.52, 0.82);
	else
		cairo_set_source_rgb(cr, 0.20, 0.23, 0.28);
	cairo_fill(cr);
	cairo_text_extents_t e;
	cairo_text_extents(cr, label, &e);
	cairo_set_source_rgb(cr, 0.92, 0.93, 0.95);
	ui_text_at(cr, r->x + 0.5 * (r->w - e.x_advance), r->y + 0.5 * r->h, label, 0);
}
