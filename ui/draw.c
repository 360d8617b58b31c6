/* SPDX-License-Identifier: ISC */
/*
 * The pendulum scene with cairo (see draw.h): pure drawing, no X, no LV2.
 */
#include "draw.h"

#include <math.h>
#include <string.h>

#define DRAW_PI 3.14159265358979323846

/* ---------------------------------------------------------------------- */
/* Geometry                                                                */

/* Unit vector of a body at angle th (README.md: from the downward vertical). */
static pendula_xy dir(double th)
{
	pendula_xy d = {sin(th), -cos(th)};
	return d;
}

static pendula_xy along(pendula_xy from, double len, double th)
{
	const pendula_xy d = dir(th);
	pendula_xy p = {from.x + len * d.x, from.y + len * d.y};
	return p;
}

static int scene_bodies(const pendula_scene *s)
{
	if (!s->parallel)
		return 2;
	if (s->n_bodies < 1)
		return 1;
	if (s->n_bodies > PENDULA_SCENE_MAX_BODIES)
		return PENDULA_SCENE_MAX_BODIES;
	return s->n_bodies;
}

/* A length we can draw: finite and not negative. */
static double len_ok(double v)
{
	return isfinite(v) && v > 0.0 ? v : 0.0;
}

static double angle_ok(double v)
{
	return isfinite(v) ? v : 0.0;
}

void pendula_scene_pose(const pendula_scene *s, pendula_scene_points *p)
{
	memset(p, 0, sizeof *p);
	p->n = scene_bodies(s);
	p->pivot.x = isfinite(s->pivot_x) ? s->pivot_x : 0.0;
	p->pivot.y = isfinite(s->pivot_y) ? s->pivot_y : 0.0;
	p->hinge[0] = p->pivot;

	if (!s->parallel) {
		p->bob[0] = along(p->pivot, len_ok(s->l[0]), angle_ok(s->theta[0]));
		p->end[0] = p->bob[0];
		p->hinge[1] = p->bob[0];
		p->bob[1] = along(p->hinge[1], len_ok(s->l[1]), angle_ok(s->theta[1]));
		p->end[1] = p->bob[1];
		p->marker = 1;
		return;
	}

	const double th1 = angle_ok(s->theta[0]);
	p->bob[0] = along(p->pivot, len_ok(s->c[0]), th1);
	p->end[0] = p->bob[0];
	for (int k = 1; k < p->n; ++k) {
		const double thk = angle_ok(s->theta[k]);
		p->hinge[k] = along(p->pivot, len_ok(s->b[k]), th1 + angle_ok(s->beta[k]));
		p->bob[k] = along(p->hinge[k], len_ok(s->c[k]), thk);
		p->end[k] = along(p->hinge[k], 2.0 * len_ok(s->c[k]), thk);
	}
	p->marker = p->n >= 2 ? 1 : 0;
}

double pendula_scene_reach(const pendula_scene *s)
{
	double r = 0.0;
	if (!s->parallel) {
		r = len_ok(s->l[0]) + len_ok(s->l[1]);
	} else {
		const int n = scene_bodies(s);
		r = len_ok(s->c[0]);
		for (int k = 1; k < n; ++k) {
			const double arm = len_ok(s->b[k]) + 2.0 * len_ok(s->c[k]);
			if (arm > r)
				r = arm;
		}
	}
	return r > 1e-3 ? r : 1e-3;
}

void pendula_view_fit(pendula_view *v, const pendula_scene *s, double x, double y, double w,
                      double h)
{
	const double side = w < h ? w : h;
	double r = 0.035 * side;
	if (r < 2.5)
		r = 2.5;
	if (r > 11.0)
		r = 11.0;
	v->bob_r = r;

	const double pad = r + 2.0;
	const double reach = pendula_scene_reach(s);
	const double half_w = reach + len_ok(s->pivot_x_amp);
	const double half_h = reach + len_ok(s->pivot_y_amp);
	double sx = (w - 2.0 * pad) / (2.0 * half_w);
	double sy = (h - 2.0 * pad) / (2.0 * half_h);
	double scale = sx < sy ? sx : sy;
	v->scale = scale > 1e-6 ? scale : 1e-6;
	v->cx = x + 0.5 * w;
	v->cy = y + 0.5 * h;
}

void pendula_view_map(const pendula_view *v, pendula_xy m, double *px, double *py)
{
	*px = v->cx + v->scale * m.x;
	*py = v->cy - v->scale * m.y;
}

pendula_xy pendula_view_unmap(const pendula_view *v, double px, double py)
{
	pendula_xy m = {(px - v->cx) / v->scale, (v->cy - py) / v->scale};
	return m;
}

void pendula_scene_marker_px(const pendula_scene *s, double x, double y, double w, double h,
                             double *px, double *py)
{
	pendula_view v;
	pendula_scene_points p;
	pendula_view_fit(&v, s, x, y, w, h);
	pendula_scene_pose(s, &p);
	pendula_view_map(&v, p.bob[p.marker], px, py);
}

/* ---------------------------------------------------------------------- */
/* Trail                                                                   */

void pendula_trail_clear(pendula_trail *t)
{
	memset(t, 0, sizeof *t);
}

void pendula_trail_push(pendula_trail *t, const pendula_scene *s)
{
	pendula_scene_points p;
	pendula_xy tips[PENDULA_TRAIL_TIPS];
	int n_tips = 0;

	pendula_scene_pose(s, &p);
	if (!s->parallel) {
		tips[n_tips++] = p.bob[1];
	} else if (p.n == 1) {
		tips[n_tips++] = p.bob[0];
	} else {
		for (int k = 1; k < p.n && n_tips < PENDULA_TRAIL_TIPS; ++k)
			tips[n_tips++] = p.bob[k];
	}
	if (n_tips != t->n_tips) {
		pendula_trail_clear(t);
		t->n_tips = n_tips;
	}
	t->head = (t->head + 1) % PENDULA_TRAIL_LEN;
	for (int k = 0; k < n_tips; ++k)
		t->p[k][t->head] = tips[k];
	if (t->count < PENDULA_TRAIL_LEN)
		++t->count;
}

/* ---------------------------------------------------------------------- */
/* Drawing                                                                 */

/* Colours: none of them near the marker's orange (the tests look for it). */
static void set_rgb(cairo_t *cr, unsigned rgb, double alpha)
{
	cairo_set_source_rgba(cr, ((rgb >> 16) & 255) / 255.0, ((rgb >> 8) & 255) / 255.0,
	                      (rgb & 255) / 255.0, alpha);
}

#define COL_BACKGROUND 0x15181e
#define COL_REACH      0x2a303b
#define COL_FORCING    0x6b7280
#define COL_ROD        0xd2d6de
#define COL_BODY1      0x3a5f99
#define COL_ARM        0x5c77a8
#define COL_HINGE      0xf2f4f8
#define COL_BOB1       0x4fa3ff
#define COL_ARM_BOB    0x63d471
#define COL_PIVOT      0xf2f4f8
#define COL_OUTLINE    0x0b0d11
#define COL_METER      0x8c6bff
#define COL_METER_BG   0x22262f
static const unsigned trail_colour[PENDULA_TRAIL_TIPS] = {0x3fd0d8, 0xb39cff, 0x7fe08a};

static void move_to(cairo_t *cr, const pendula_view *v, pendula_xy m)
{
	double x, y;
	pendula_view_map(v, m, &x, &y);
	cairo_move_to(cr, x, y);
}

static void line_to(cairo_t *cr, const pendula_view *v, pendula_xy m)
{
	double x, y;
	pendula_view_map(v, m, &x, &y);
	cairo_line_to(cr, x, y);
}

static void disc(cairo_t *cr, const pendula_view *v, pendula_xy m, double r)
{
	double x, y;
	pendula_view_map(v, m, &x, &y);
	cairo_new_sub_path(cr);
	cairo_arc(cr, x, y, r, 0.0, 2.0 * DRAW_PI);
}

static double cross(pendula_xy o, pendula_xy a, pendula_xy b)
{
	return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/* Convex hull (Andrew's monotone chain) of at most 5 points; returns the
 * number of hull points written to out (in order). */
static int hull(pendula_xy *pts, int n, pendula_xy *out)
{
	/* insertion sort by x, then y */
	for (int i = 1; i < n; ++i) {
		pendula_xy key = pts[i];
		int j = i - 1;
		while (j >= 0 && (pts[j].x > key.x || (pts[j].x == key.x && pts[j].y > key.y))) {
			pts[j + 1] = pts[j];
			--j;
		}
		pts[j + 1] = key;
	}
	if (n < 3) {
		for (int i = 0; i < n; ++i)
			out[i] = pts[i];
		return n;
	}
	int k = 0;
	for (int i = 0; i < n; ++i) {
		while (k >= 2 && cross(out[k - 2], out[k - 1], pts[i]) <= 0.0)
			--k;
		out[k++] = pts[i];
	}
	for (int i = n - 2, t = k + 1; i >= 0; --i) {
		while (k >= t && cross(out[k - 2], out[k - 1], pts[i]) <= 0.0)
			--k;
		out[k++] = pts[i];
	}
	return k - 1;
}

/* Body 1 of the parallel model: the rigid shape holding the pivot, its centre
 * of mass and the hinges of the other bodies (hull grown by a round pen). */
static void draw_body1(cairo_t *cr, const pendula_view *v, const pendula_scene_points *p,
                       double width)
{
	pendula_xy pts[PENDULA_SCENE_MAX_BODIES + 1], h[2 * (PENDULA_SCENE_MAX_BODIES + 1)];
	int n = 0;
	pts[n++] = p->pivot;
	pts[n++] = p->bob[0];
	for (int k = 1; k < p->n; ++k)
		pts[n++] = p->hinge[k];
	const int m = hull(pts, n, h);
	cairo_new_path(cr);
	move_to(cr, v, h[0]);
	for (int i = 1; i < m; ++i)
		line_to(cr, v, h[i]);
	cairo_close_path(cr);
	set_rgb(cr, COL_BODY1, 1.0);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
	cairo_set_line_width(cr, width);
	cairo_fill_preserve(cr);
	cairo_stroke(cr);
}

/* The trail, oldest to newest, fading in: a few bands of constant alpha, each
 * one path (segment by segment, the round caps would dot the overlaps). */
#define TRAIL_BANDS 8
static void draw_trail(cairo_t *cr, const pendula_view *v, const pendula_trail *t, double width)
{
	if (!t || t->count < 2)
		return;
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	cairo_set_line_width(cr, width);
	const int oldest = t->head - t->count + 1 + PENDULA_TRAIL_LEN;
	for (int k = 0; k < t->n_tips && k < PENDULA_TRAIL_TIPS; ++k) {
		for (int band = 0; band < TRAIL_BANDS; ++band) {
			const int i0 = (t->count - 1) * band / TRAIL_BANDS;
			const int i1 = (t->count - 1) * (band + 1) / TRAIL_BANDS;
			if (i1 <= i0)
				continue;
			const double age = (double)(band + 1) / TRAIL_BANDS;
			cairo_new_path(cr);
			move_to(cr, v, t->p[k][(oldest + i0) % PENDULA_TRAIL_LEN]);
			for (int i = i0 + 1; i <= i1; ++i)
				line_to(cr, v, t->p[k][(oldest + i) % PENDULA_TRAIL_LEN]);
			set_rgb(cr, trail_colour[k], 0.05 + 0.75 * age * age);
			cairo_stroke(cr);
		}
	}
}

void pendula_draw_scene(cairo_t *cr, const pendula_scene *s, const pendula_trail *trail, double x,
                        double y, double w, double h)
{
	pendula_view v;
	pendula_scene_points p;
	pendula_view_fit(&v, s, x, y, w, h);
	pendula_scene_pose(s, &p);
	const double r = v.bob_r;
	const double rod_w = r * 0.32 > 1.2 ? r * 0.32 : 1.2;

	cairo_save(cr);
	cairo_rectangle(cr, x, y, w, h);
	cairo_clip(cr);
	set_rgb(cr, COL_BACKGROUND, 1.0);
	cairo_paint(cr);

	/* Where the pendulum can reach (from the rest position of the pivot). */
	const pendula_xy origin = {0.0, 0.0};
	cairo_new_path(cr);
	disc(cr, &v, origin, v.scale * pendula_scene_reach(s));
	set_rgb(cr, COL_REACH, 1.0);
	cairo_set_line_width(cr, 1.0);
	cairo_stroke(cr);

	draw_trail(cr, &v, trail, rod_w * 0.9);

	cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
	if (!s->parallel) {
		cairo_new_path(cr);
		move_to(cr, &v, p.pivot);
		line_to(cr, &v, p.bob[0]);
		line_to(cr, &v, p.bob[1]);
		set_rgb(cr, COL_ROD, 1.0);
		cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
		cairo_set_line_width(cr, rod_w);
		cairo_stroke(cr);
	} else {
		draw_body1(cr, &v, &p, r * 1.5);
		for (int k = 1; k < p.n; ++k) {
			cairo_new_path(cr);
			move_to(cr, &v, p.hinge[k]);
			line_to(cr, &v, p.end[k]);
			set_rgb(cr, COL_ARM, 1.0);
			cairo_set_line_width(cr, r * 0.9);
			cairo_stroke(cr);
		}
		/* hinges on body 1 */
		cairo_new_path(cr);
		for (int k = 1; k < p.n; ++k)
			disc(cr, &v, p.hinge[k], r * 0.3 > 1.0 ? r * 0.3 : 1.0);
		set_rgb(cr, COL_HINGE, 1.0);
		cairo_fill(cr);
	}

	/* The path of the pivot under the forcing (Gamma traces an ellipse),
	 * over the bodies so that it shows. */
	const double ax = len_ok(s->pivot_x_amp) * v.scale, ay = len_ok(s->pivot_y_amp) * v.scale;
	if (ax > 0.5 || ay > 0.5) {
		const double dash[] = {3.0, 3.0};
		cairo_new_path(cr);
		cairo_save(cr);
		cairo_translate(cr, v.cx, v.cy);
		cairo_scale(cr, ax > 0.5 ? ax : 0.5, ay > 0.5 ? ay : 0.5);
		cairo_arc(cr, 0.0, 0.0, 1.0, 0.0, 2.0 * DRAW_PI);
		cairo_restore(cr);
		cairo_set_dash(cr, dash, 2, 0.0);
		cairo_set_line_width(cr, 1.2);
		set_rgb(cr, COL_FORCING, 1.0);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0.0);
	}

	/* the pivot, where the forcing puts it */
	cairo_new_path(cr);
	disc(cr, &v, p.pivot, r * 0.55);
	set_rgb(cr, COL_PIVOT, 1.0);
	cairo_fill(cr);
	cairo_new_path(cr);
	disc(cr, &v, p.pivot, r * 0.22);
	set_rgb(cr, COL_BACKGROUND, 1.0);
	cairo_fill(cr);

	/* bobs (double) / centres of mass (parallel), the marker last */
	for (int k = 0; k < p.n; ++k) {
		if (k == p.marker)
			continue;
		double rk = r * 0.85;
		unsigned col = COL_ARM_BOB;
		if (!s->parallel)
			col = COL_BOB1;
		else if (k == 0)
			col = COL_HINGE, rk = r * 0.4;
		cairo_new_path(cr);
		disc(cr, &v, p.bob[k], rk + 1.0);
		set_rgb(cr, COL_OUTLINE, 1.0);
		cairo_fill(cr);
		cairo_new_path(cr);
		disc(cr, &v, p.bob[k], rk);
		set_rgb(cr, col, 1.0);
		cairo_fill(cr);
	}
	cairo_new_path(cr);
	disc(cr, &v, p.bob[p.marker], r + 1.0);
	set_rgb(cr, COL_OUTLINE, 1.0);
	cairo_fill(cr);
	cairo_new_path(cr);
	disc(cr, &v, p.bob[p.marker], r);
	cairo_set_source_rgb(cr, PENDULA_MARKER_R, PENDULA_MARKER_G, PENDULA_MARKER_B);
	cairo_fill(cr);

	cairo_restore(cr);
}

void pendula_draw_ghost(cairo_t *cr, const pendula_scene *s, double x, double y, double w, double h)
{
	pendula_view v;
	pendula_scene_points p;
	const double dash[] = {4.0, 3.0};
	pendula_view_fit(&v, s, x, y, w, h);
	pendula_scene_pose(s, &p);

	cairo_save(cr);
	cairo_rectangle(cr, x, y, w, h);
	cairo_clip(cr);
	cairo_new_path(cr);
	if (!s->parallel) {
		move_to(cr, &v, p.pivot);
		line_to(cr, &v, p.bob[0]);
		line_to(cr, &v, p.bob[1]);
	} else {
		move_to(cr, &v, p.pivot);
		line_to(cr, &v, p.bob[0]);
		for (int k = 1; k < p.n; ++k) {
			move_to(cr, &v, p.pivot);
			line_to(cr, &v, p.hinge[k]);
			line_to(cr, &v, p.end[k]);
		}
	}
	for (int k = 0; k < p.n; ++k)
		disc(cr, &v, p.bob[k], v.bob_r * 0.8);
	cairo_set_dash(cr, dash, 2, 0.0);
	cairo_set_line_width(cr, 1.5);
	cairo_set_source_rgba(cr, 1.0, 1.0, 1.0, 0.7);
	cairo_stroke(cr);
	cairo_restore(cr);
}

void pendula_draw_energy(cairo_t *cr, double energy, double x, double y, double w, double h)
{
	double frac = isfinite(energy) ? 0.5 * energy : 0.0;
	if (frac < 0.0)
		frac = 0.0;
	if (frac > 1.0)
		frac = 1.0;
	cairo_save(cr);
	cairo_new_path(cr);
	cairo_rectangle(cr, x, y, w, h);
	set_rgb(cr, COL_METER_BG, 1.0);
	cairo_fill(cr);
	cairo_rectangle(cr, x, y + h * (1.0 - frac), w, h * frac);
	set_rgb(cr, COL_METER, 1.0);
	cairo_fill(cr);
	/* energy 1: just enough to reach the highest configuration */
	cairo_rectangle(cr, x, y + 0.5 * h - 0.5, w, 1.0);
	cairo_set_source_rgba(cr, 1.0, 1.0, 1.0, 0.8);
	cairo_fill(cr);
	cairo_restore(cr);
}

void pendula_inline_scene_rect(double w, double h, double *sx, double *sy, double *sw, double *sh)
{
	double mw = floor(w * 0.05);
	if (mw < 3.0)
		mw = 3.0;
	*sx = 0.0;
	*sy = 0.0;
	*sw = w - mw - 2.0 > 1.0 ? w - mw - 2.0 : 1.0;
	*sh = h;
}

void pendula_draw_inline(cairo_t *cr, const pendula_scene *s, const pendula_trail *trail, double w,
                         double h)
{
	double sx, sy, sw, sh;
	pendula_inline_scene_rect(w, h, &sx, &sy, &sw, &sh);
	cairo_save(cr);
	set_rgb(cr, COL_BACKGROUND, 1.0);
	cairo_paint(cr);
	pendula_draw_scene(cr, s, trail, sx, sy, sw, sh);
	const double mx = sx + sw + 1.0;
	pendula_draw_energy(cr, s->energy, mx, 2.0, w - mx - 1.0, h - 4.0);
	cairo_restore(cr);
}

/* ---------------------------------------------------------------------- */
/* UI layout                                                               */

void pendula_layout_compute(pendula_layout *lay, double w, double h)
{
	const double margin = 8.0, gap = 6.0, meter_w = 16.0;
	const double row_h = 24.0, reset_h = 26.0;
	const double controls_h = PENDULA_UI_N_SLIDERS * row_h + reset_h + 2.0 * gap;

	memset(lay, 0, sizeof *lay);
	lay->scene.x = margin;
	lay->scene.y = margin;
	lay->scene.w = w - 2.0 * margin - gap - meter_w;
	lay->scene.h = h - 2.0 * margin - controls_h;
	if (lay->scene.w < 40.0)
		lay->scene.w = 40.0;
	if (lay->scene.h < 40.0)
		lay->scene.h = 40.0;
	lay->meter.x = lay->scene.x + lay->scene.w + gap;
	lay->meter.y = lay->scene.y;
	lay->meter.w = meter_w;
	lay->meter.h = lay->scene.h;

	double label_w = 0.26 * w;
	if (label_w > 110.0)
		label_w = 110.0;
	double value_w = 0.2 * w;
	if (value_w > 90.0)
		value_w = 90.0;
	double yy = lay->scene.y + lay->scene.h + gap;
	for (int i = 0; i < PENDULA_UI_N_SLIDERS; ++i) {
		pendula_rect *row = &lay->slider[i];
		row->x = margin;
		row->y = yy;
		row->w = w - 2.0 * margin;
		row->h = row_h;
		pendula_rect *tr = &lay->track[i];
		tr->x = row->x + label_w;
		tr->y = row->y + 5.0;
		tr->w = row->w - label_w - value_w;
		if (tr->w < 20.0)
			tr->w = 20.0;
		tr->h = row_h - 10.0;
		yy += row_h;
	}
	yy += gap;
	lay->reset.x = margin;
	lay->reset.y = yy;
	lay->reset.w = 80.0;
	lay->reset.h = reset_h - 4.0;
	lay->hint.x = lay->reset.x + lay->reset.w + 10.0;
	lay->hint.y = yy;
	lay->hint.w = w - lay->hint.x - margin;
	lay->hint.h = lay->reset.h;
}
