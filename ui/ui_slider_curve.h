/* SPDX-License-Identifier: ISC */
/*
 * How a slider of the plugin UI maps its position u in [0, 1] to the value
 * of its port and back: the curve follows from the port's range, flags and
 * unit in the port table (contract/ports.h), so fine settings near the
 * bottom of a wide range get room.  Header-only, for pendula_ui.c.
 */
#ifndef PENDULA_UI_SLIDER_CURVE_H
#define PENDULA_UI_SLIDER_CURVE_H

#include "ports.h"

#include <math.h>

typedef enum {
	CURVE_LOG,         /* logarithmic (min > 0) */
	CURVE_POW2,        /* min + (max - min) u^2 (lengths) */
	CURVE_POW3,        /* min + (max - min) u^3: fine control near min */
	CURVE_SIGNED_POW3, /* a range around 0: cubic on either side of the middle */
	CURVE_LINEAR,      /* min + (max - min) u (the chaos knob; a toggle snaps) */
} slider_curve;

typedef struct {
	pendula_port_id id;
	slider_curve curve;
} slider_desc;

/* The curve of a slider, from the port's range, flags and unit. */
static inline slider_curve curve_of(pendula_port_id id)
{
	const pendula_port_info *p = &pendula_ports[id];
	if ((p->flags & PF_LOG) && p->min > 0.0f)
		return CURVE_LOG;
	if (p->flags & PF_TOGGLED)
		return CURVE_LINEAR;
	if (p->min < 0.0f && p->max > 0.0f)
		return p->min == -p->max ? CURVE_SIGNED_POW3 : CURVE_LINEAR;
	return p->unit == PU_M ? CURVE_POW2 : CURVE_POW3;
}

static inline double clamp01(double u)
{
	return u < 0.0 ? 0.0 : u > 1.0 ? 1.0 : u;
}

static inline double slider_value(const slider_desc *s, double u)
{
	const double lo = pendula_ports[s->id].min, hi = pendula_ports[s->id].max;
	u = clamp01(u);
	switch (s->curve) {
	case CURVE_LOG:
		return lo * pow(hi / lo, u);
	case CURVE_POW2:
		return lo + (hi - lo) * u * u;
	case CURVE_POW3:
		return lo + (hi - lo) * u * u * u;
	case CURVE_SIGNED_POW3: {
		const double a = 2.0 * u - 1.0;
		return lo + (hi - lo) * 0.5 * (1.0 + a * a * a);
	}
	case CURVE_LINEAR:
		if (pendula_ports[s->id].flags & PF_TOGGLED)
			return u >= 0.5 ? hi : lo;
		return lo + (hi - lo) * u;
	}
	return lo;
}

static inline double slider_position(const slider_desc *s, double v)
{
	const double lo = pendula_ports[s->id].min, hi = pendula_ports[s->id].max;
	if (!(v >= lo))
		v = lo;
	if (v > hi)
		v = hi;
	switch (s->curve) {
	case CURVE_LOG:
		return clamp01(log(v / lo) / log(hi / lo));
	case CURVE_POW2:
		return clamp01(sqrt((v - lo) / (hi - lo)));
	case CURVE_POW3:
		return clamp01(cbrt((v - lo) / (hi - lo)));
	case CURVE_SIGNED_POW3:
		return clamp01(0.5 * (cbrt(2.0 * (v - lo) / (hi - lo) - 1.0) + 1.0));
	case CURVE_LINEAR:
		return clamp01((v - lo) / (hi - lo));
	}
	return 0.0;
}

#endif
