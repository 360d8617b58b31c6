/* SPDX-License-Identifier: ISC */
/*
 * pendula-render: the plane view (see render.h).  For a Pendula plugin the
 * model itself gives the geometry: its settings from the port values and
 * its coordinates from the signal outputs (through the port table and the
 * model: pendula_frame_from_ports), then its pose; the drawing module draws the tips' paths, the
 * start pose (dashed) and the end pose, relative to the pivot.  A 3-D model gets two views: x-y
 * (from the front) and x-z (from above).
 */
#include "render.h"

#include "port_pose.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The variant of a plugin URI, or -1: not a Pendula plugin. */
static int variant_of_uri(const char *uri)
{
	for (int v = 0; v < PENDULA_N_VARIANTS; ++v)
		if (!strcmp(uri, pendula_variant_uris[v]))
			return v;
	return -1;
}

/* The pose at coordinates q relative to the pivot at rest; the time is not
 * known from the outputs (a moving surface passes through the bodies). */
static void pose_of(const Plane *pl, const double *q, pendula_pose *pose)
{
	const pendula_vec3 origin = {0.0, 0.0, 0.0};
	pendula_pose_at3(&pl->sys, q, origin, NAN, pose);
}

void plane_setup(Plane *pl, Host *h, uint64_t total_frames)
{
	float value[PENDULA_N_PORT_IDS];
	pendula_params params;
	pendula_pose pose;

	memset(pl, 0, sizeof(*pl));
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		pl->port_sig[id] = -1;
	const int v = variant_of_uri(h->uri);
	if (v < 0)
		return;
	pl->variant = v;
	/* The settings the plugin runs with: its control inputs by symbol. */
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		const Port *p = find_port(h, pendula_ports[id].symbol);
		value[id] = p && p->role == ROLE_CONTROL_IN
		                ? p->value
		                : pendula_port_default(v, (pendula_port_id)id);
		if (pendula_ports[id].kind == PK_SIGNAL_OUT && p && p->role == ROLE_SIGNAL_OUT)
			pl->port_sig[id] = (int)p->signal;
	}
	pendula_params_from_ports(&params, v, value);
	pendula_system_init(&pl->sys, &params);
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k)
		pl->q_init[k] = pl->q_last[k] = params.theta_init[k];
	pose_of(pl, pl->q_init, &pose);
	pl->active = 1;
	pl->three_d = pendula_pose_is_3d(&pose);
	if (pl->three_d) { /* coordinates that are not angles: the model's own start */
		pendula_initial_coords(&pl->sys, &params, pl->q_init);
		memcpy(pl->q_last, pl->q_init, sizeof(pl->q_last));
	}
	pl->n_tips = pose.n_tips < PENDULA_POSE_MAX_TIPS ? pose.n_tips : PENDULA_POSE_MAX_TIPS;

	pl->decimation = (total_frames + MAX_TRACE_POINTS - 1) / MAX_TRACE_POINTS;
	if (pl->decimation < 1)
		pl->decimation = 1;
	pl->cap_points = (size_t)(total_frames / pl->decimation + 1);
	for (int k = 0; k < pl->n_tips; ++k)
		pl->path[k] = xcalloc(pl->cap_points, sizeof(pendula_vec3));
}

/* The coordinates the signal outputs show, through the model. */
static void q_of(const Plane *pl, const float *values, double *q)
{
	float value[PENDULA_N_PORT_IDS];
	pendula_frame f;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		value[id] = pl->port_sig[id] >= 0 ? values[pl->port_sig[id]] : 0.0f;
	pendula_frame_from_ports(&pl->sys, (pendula_variant)pl->variant, PK_SIGNAL_OUT, value, &f);
	pendula_frame_coords(&pl->sys, &f, q);
}

void plane_record(Plane *pl, uint64_t frame, const float *values)
{
	double q[PENDULA_MAX_DOF];
	pendula_pose pose;
	if (!pl->active || frame % pl->decimation != 0 || pl->n_points >= pl->cap_points)
		return;
	q_of(pl, values, q);
	pose_of(pl, q, &pose);
	for (int k = 0; k < pl->n_tips; ++k) {
		const int i = k < pose.n_tips ? pose.tip[k] : -1;
		pl->path[k][pl->n_points] =
		    i >= 0 && i < pose.n_points ? pose.point[i].p : (pendula_vec3){0.0, 0.0, 0.0};
	}
	++pl->n_points;
}

void plane_finish(Plane *pl, const float *values)
{
	if (pl->active)
		q_of(pl, values, pl->q_last);
}

int plane_n_bodies(const Plane *pl)
{
	return pl->sys.n;
}

/* Every output of a body beyond the model's N (its angle, rate, direction:
 * the body is the symbol's trailing digit, as for the plugin's port groups
 * and its silent outputs) reads 0. */
int plane_unused_signal(const Plane *pl, uint32_t s)
{
	for (int id = 0; pl->active && id < PENDULA_N_PORT_IDS; ++id)
		if (pl->port_sig[id] == (int)s)
			return pendula_symbol_body(pendula_ports[id].symbol) > pl->sys.n;
	return 0;
}

void plane_free(Plane *pl)
{
	for (int k = 0; k < PENDULA_POSE_MAX_TIPS; ++k)
		free(pl->path[k]);
}

/* ------------------------------------------------------------------------ */
/* Drawing                                                                  */

/* One view: paths, start and end poses, metre ticks along both axes. */
static void draw_view(cairo_t *cr, const Plane *pl, pendula_projection proj, pendula_rect r,
                      const char *title, const char *x_label, const char *y_label, int y_down)
{
	pendula_pose start, end;
	pendula_view v;
	char buf[64];
	pose_of(pl, pl->q_init, &start);
	pose_of(pl, pl->q_last, &end);
	pendula_view_fit(&v, &end, proj, r);

	cairo_save(cr);
	cairo_rectangle(cr, r.x, r.y, r.w, r.h);
	cairo_set_source_rgb(cr, 0x15 / 255.0, 0x18 / 255.0, 0x1e / 255.0);
	cairo_fill(cr);
	/* the metre grid */
	const double half = fmax(r.w, r.h) / (2.0 * v.scale);
	const double step = nice_step(2.0 * half, 8);
	cairo_set_line_width(cr, 1.0);
	cairo_rectangle(cr, r.x, r.y, r.w, r.h);
	cairo_clip(cr);
	for (double g = -floor(half / step) * step; g <= half; g += step) {
		const double gx = floor(v.cx + g * v.scale) + 0.5,
		             gy = floor(v.cy - g * v.scale) + 0.5;
		cairo_set_source_rgba(cr, 1, 1, 1, fabs(g) < step * 1e-9 ? 0.16 : 0.07);
		cairo_move_to(cr, gx, r.y);
		cairo_line_to(cr, gx, r.y + r.h);
		cairo_move_to(cr, r.x, gy);
		cairo_line_to(cr, r.x + r.w, gy);
		cairo_stroke(cr);
	}
	cairo_restore(cr);

	/* In 3-D the paths go over the end pose: a surface (the bead's
	 * ellipsoid) would hide them. */
	if (!pl->three_d)
		for (int k = 0; k < pl->n_tips; ++k)
			pendula_draw_path(cr, &v, pl->path[k], (long)pl->n_points,
			                  pendula_tip_colour(k), 1.0);
	pendula_draw_ghost(cr, &v, &start, r, 0.75, 0.78, 0.82, 0.8);
	pendula_draw_pose(cr, &v, &end, NULL, r);
	if (pl->three_d)
		for (int k = 0; k < pl->n_tips; ++k)
			pendula_draw_path(cr, &v, pl->path[k], (long)pl->n_points,
			                  pendula_tip_colour(k), 1.0);

	/* border, ticks, labels */
	cairo_set_source_rgb(cr, 0.60, 0.60, 0.58);
	cairo_set_line_width(cr, 1.0);
	cairo_rectangle(cr, floor(r.x) + 0.5, floor(r.y) + 0.5, floor(r.w), floor(r.h));
	cairo_stroke(cr);
	cairo_set_source_rgb(cr, 0.30, 0.30, 0.30);
	cairo_set_font_size(cr, 11.0);
	for (double g = -floor(half / step) * step; g <= half; g += step) {
		const double gx = v.cx + g * v.scale, gy = v.cy - g * v.scale;
		fmt_tick(buf, sizeof(buf), g, step);
		if (gx >= r.x && gx <= r.x + r.w)
			text_at(cr, gx, r.y + r.h + 4.0, 0.5, 0.0, buf);
		fmt_tick(buf, sizeof(buf), y_down ? -g : g, step);
		if (gy >= r.y && gy <= r.y + r.h)
			text_at(cr, r.x - 5.0, gy, 1.0, 0.5, buf);
	}
	cairo_set_font_size(cr, 12.0);
	text_at(cr, r.x + 0.5 * r.w, r.y + r.h + 20.0, 0.5, 0.0, x_label);
	cairo_save(cr);
	cairo_translate(cr, r.x - 40.0, r.y + 0.5 * r.h);
	cairo_rotate(cr, -M_PI / 2.0);
	text_at(cr, 0.0, 0.0, 0.5, 0.5, y_label);
	cairo_restore(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	cairo_set_font_size(cr, 12.5);
	cairo_set_source_rgb(cr, 0.85, 0.87, 0.90);
	text_at(cr, r.x + 8.0, r.y + 6.0, 0.0, 0.0, title);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
}

void draw_plane(cairo_t *cr, const Layout *L, const Plane *pl)
{
	const double x0 = L->plane_x, y0 = L->plane_y, side = L->plane_side;
	if (pl->three_d) {
		const double h = 0.5 * (side - 36.0);
		draw_view(cr, pl, PENDULA_PROJ_FRONT, (pendula_rect){x0, y0, side, h},
		          "Paths of the tips: x-y, from the front", "", "y (m)", 0);
		draw_view(cr, pl, PENDULA_PROJ_TOP, (pendula_rect){x0, y0 + h + 36.0, side, h},
		          "x-z, from above", "x (m)", "z (m)", 1);
	} else {
		draw_view(cr, pl, PENDULA_PROJ_FRONT, (pendula_rect){x0, y0, side, side},
		          "Paths of the tips, relative to the pivot", "x (m)", "y (m)", 0);
	}

	/* Legend under the panel */
	double ly = y0 + side + 46.0, lx = x0;
	cairo_set_font_size(cr, 12.0);
	for (int k = 0; k < pl->n_tips; ++k) {
		char name[64];
		const unsigned c = pendula_tip_colour(k);
		snprintf(name, sizeof(name), "tip %d", k + 1);
		cairo_set_source_rgb(cr, ((c >> 16) & 255) / 255.0, ((c >> 8) & 255) / 255.0,
		                     (c & 255) / 255.0);
		cairo_set_line_width(cr, 3.0);
		cairo_move_to(cr, lx, ly + 7.0);
		cairo_line_to(cr, lx + 22.0, ly + 7.0);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
		text_at(cr, lx + 28.0, ly, 0.0, 0.0, name);
		cairo_text_extents_t te;
		cairo_text_extents(cr, name, &te);
		lx += 28.0 + te.x_advance + 22.0;
	}
	ly += 22.0;
	cairo_set_source_rgb(cr, 0.40, 0.40, 0.40);
	cairo_set_font_size(cr, 11.0);
	text_fit(
	    cr, x0, ly, side,
	    "dashed: start (the initial angles), solid: end of the render; older path fainter");
	pendula_pose end;
	char geo[128];
	pose_of(pl, pl->q_last, &end);
	if (pl->sys.n == 1)
		snprintf(geo, sizeof(geo), "1 body; it reaches %.3g m from the pivot", end.reach);
	else
		snprintf(geo, sizeof(geo), "%d bodies; the bodies reach %.3g m from the pivot",
		         pl->sys.n, end.reach);
	text_fit(cr, x0, ly + 16.0, side, geo);
}
