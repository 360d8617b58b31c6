/* SPDX-License-Identifier: ISC */
/* pendula-render: text and axis ticks, shared by the PNG page and its plane
 * panel (see render.h). */
#include "render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Draw text with its anchor at (x, y): ax = 0 left, 0.5 centre, 1 right;
 * ay = 0 top, 0.5 middle, 1 baseline. */
void text_at(cairo_t *cr, double x, double y, double ax, double ay, const char *s)
{
	cairo_text_extents_t te;
	cairo_font_extents_t fe;
	cairo_text_extents(cr, s, &te);
	cairo_font_extents(cr, &fe);
	double baseline = ay >= 1.0   ? y
	                  : ay >= 0.5 ? y + 0.5 * (fe.ascent - fe.descent)
	                              : y + fe.ascent;
	cairo_move_to(cr, x - ax * te.x_advance, baseline);
	cairo_show_text(cr, s);
}

/* Text truncated with an ellipsis to fit max_w. */
void text_fit(cairo_t *cr, double x, double y, double max_w, const char *s)
{
	cairo_text_extents_t te;
	size_t len = strlen(s);
	char *buf = xcalloc(len + 4, 1);
	memcpy(buf, s, len);
	cairo_text_extents(cr, buf, &te);
	while (te.x_advance > max_w && len > 0) {
		--len;
		while (len > 0 && ((unsigned char)buf[len] & 0xC0) == 0x80)
			--len; /* do not cut a UTF-8 sequence */
		memcpy(buf + len, "\xE2\x80\xA6", 4);
		cairo_text_extents(cr, buf, &te);
	}
	text_at(cr, x, y, 0.0, 0.0, buf);
	free(buf);
}

double nice_step(double range, int max_ticks)
{
	double raw = range / (max_ticks > 1 ? max_ticks : 1);
	double mag = pow(10.0, floor(log10(raw)));
	double f = raw / mag;
	return (f <= 1.0 ? 1.0 : f <= 2.0 ? 2.0 : f <= 2.5 ? 2.5 : f <= 5.0 ? 5.0 : 10.0) * mag;
}

void fmt_tick(char *buf, size_t n, double v, double step)
{
	if (fabs(v) < step * 1e-9)
		v = 0.0;
	/* as many decimals as the step has (0.25 needs two) */
	int digits = step >= 1.0 ? 0 : (int)ceil(-log10(step) - 1e-9);
	while (digits < 6 &&
	       fabs(step * pow(10.0, digits) - round(step * pow(10.0, digits))) > 1e-6)
		++digits;
	snprintf(buf, n, "%.*f", digits, v);
}
