/* SPDX-License-Identifier: ISC */
/*
 * The plugin UI's memory strip (ui_memory.h).
 */
#include "ui_memory.h"

#include <stdio.h>

static bool inside(const pendula_rect *r, double x, double y)
{
	return x >= r->x && x < r->x + r->w && y >= r->y && y < r->y + r->h;
}

/* The selected slot, 0-based (mem_slot is 1 to 8). */
static int selected(const float *value)
{
	const int k = (int)(value[P_MEM_SLOT] + 0.5f) - 1;
	return k < 0 ? 0 : k >= PENDULA_UI_MEM_SLOTS ? PENDULA_UI_MEM_SLOTS - 1 : k;
}

void ui_memory_init(ui_memory *m)
{
	*m = (ui_memory){0};
	m->store.id = P_MEM_STORE;
	m->recall.id = P_MEM_RECALL;
}

bool ui_memory_press(ui_memory *m, const pendula_layout *lay, const float *value, double x,
                     double y, double now, const ui_port_writer *w)
{
	for (int k = 0; k < PENDULA_UI_MEM_SLOTS; ++k)
		if (inside(&lay->slot[k], x, y)) {
			w->set(w->ctx, P_MEM_SLOT, (float)(k + 1));
			return true;
		}
	if (inside(&lay->store, x, y)) {
		ui_momentary_press(&m->store, now, w);
		m->stored |= 1u << selected(value);
		return true;
	}
	if (inside(&lay->recall, x, y)) {
		ui_momentary_press(&m->recall, now, w);
		return true;
	}
	return false;
}

void ui_memory_release(ui_memory *m)
{
	ui_momentary_release(&m->store);
	ui_momentary_release(&m->recall);
}

bool ui_memory_update(ui_memory *m, double now, const ui_port_writer *w)
{
	const bool a = ui_momentary_update(&m->store, now, w);
	const bool b = ui_momentary_update(&m->recall, now, w);
	return a || b;
}

void ui_memory_port(ui_memory *m, pendula_port_id id, float was, const float *value)
{
	/* (a store edge from automation or another controller; a pulse
	 * shorter than the host's UI updates goes unseen) */
	if (id == P_MEM_STORE && was < 0.5f && value[P_MEM_STORE] >= 0.5f)
		m->stored |= 1u << selected(value);
}

void ui_memory_draw(cairo_t *cr, const ui_memory *m, const pendula_layout *lay, const float *value)
{
	const int sel = selected(value);
	char label[4];
	for (int k = 0; k < PENDULA_UI_MEM_SLOTS; ++k) {
		const pendula_rect *r = &lay->slot[k];
		snprintf(label, sizeof label, "%d", k + 1);
		ui_draw_button(cr, r, label, k == sel);
		if (m->stored & (1u << k)) {
			cairo_arc(cr, r->x + r->w - 4.0, r->y + 4.0, 2.0, 0.0, 6.2832);
			cairo_set_source_rgb(cr, 0.95, 0.80, 0.35);
			cairo_fill(cr);
		}
	}
	ui_draw_button(cr, &lay->store, "Store", m->store.high);
	ui_draw_button(cr, &lay->recall, "Recall", m->recall.high);
}
