/* SPDX-License-Identifier: ISC */
/*
 * The plugin UI's drive meter: a horizontal bar showing drive_level (the
 * peak of the drive signal in the plugin's last block), which jumps up and
 * falls back with a short decay, so that peaks between two of the host's
 * updates stay visible (docs/UI.md).
 */
#ifndef PENDULA_UI_METER_H
#define PENDULA_UI_METER_H

#include "pendula_draw.h"

#include <cairo.h>
#include <stdbool.h>

/* The time constant of the fall (s). */
#define UI_METER_FALL 0.12

typedef struct {
	float level; /* the latest value the host sent */
	float peak;  /* the level it falls from */
	double peak_at;
} ui_meter;

/* A new value of the port, at time now. */
void ui_meter_set(ui_meter *m, float level, double now);
/* What the bar shows at time now (0 to 1). */
double ui_meter_shown(const ui_meter *m, double now);
/* True while the bar is still falling (the UI redraws). */
bool ui_meter_moving(const ui_meter *m, double now);
void ui_meter_draw(cairo_t *cr, const ui_meter *m, const pendula_rect *r, double now);

#endif
