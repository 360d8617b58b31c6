/* SPDX-License-Identifier: ISC */
/*
 * The plugin UI's drive meter (ui_meter.h).
 */
#include "ui_meter.h"

#include <math.h>

/* The fall below which the bar counts as settled (a pixel of a wide bar). */
#define SETTLED 0.002

double ui_meter_shown(const ui_meter *m, double now)
{
	const double age = now - m->peak_at;
	const double fall = age > 0.0 ? m->peak * exp(-age / UI_METER_FALL) : m->peak;
	return fmax((double)m->level, fall);
}

void ui_meter_set(ui_meter *m, float level, double now)
{
	if (!(level >= 0.0f)) /* (NaN) */
		level = 0.0f;
	if (level > 1.0f)
		level = 1.0f;
	if ((double)level >= ui_meter_shown(m, now)) {
		m->peak = level;
		m->peak_at = now;
	}
	m->level = level;
}

bool ui_meter_moving(const ui_meter *m, double now)
{
	return ui_meter_shown(m, now) > (double)m->level + SETTLED;
}

void ui_meter_draw(cairo_t *cr, const ui_meter *m, const pendula_rect *r, double now)
{
	cairo_rectangle(cr, r->x, r->y, r->w, r->h);
	cairo_set_source_rgb(cr, 0.13, 0.15, 0.18);
	cairo_fill(cr);
	const double shown = ui_meter_shown(m, now);
	const double w = shown >= 1.0 ? r->w : floor(shown * r->w + 0.5);
	if (w <= 0.0)
		return;
	cairo_rectangle(cr, r->x, r->y, w, r->h);
	/* green, amber near the top */
	if (shown >= 0.9)
		cairo_set_source_rgb(cr, 0.95, 0.65, 0.25);
	else
		cairo_set_source_rgb(cr, 0.35, 0.80, 0.45);
	cairo_fill(cr);
}
