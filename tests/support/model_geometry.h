/* SPDX-License-Identifier: ISC */
/*
 * The tests' own geometry of each model, from its documented conventions
 * (docs/MODELS.md), independent of the models' pose functions and of the
 * drawing module: where the marker is, where the drag handles are, how far
 * the drawing reaches.  The UI probe and the inline-display test compare
 * the pixels against it.
 *
 * Port values are indexed by global port id: the control inputs in port
 * units, the control outputs as the plugin writes them (angles / pi, pivot
 * in metres).  World: metres, x right, y up, z toward the viewer, origin at
 * the pivot's rest position.  A point at distance l on body k is at
 * l (sin th_k, -cos th_k) from its hinge.
 *
 * A model the tests do not know yet has no geometry here: the tests fail
 * for it (add it from the model's documentation).
 */
#ifndef PENDULA_TEST_MODEL_GEOMETRY_H
#define PENDULA_TEST_MODEL_GEOMETRY_H

#include "ports.h"

#include <math.h>
#include <string.h>

#define TG_MAX_HANDLES 8

typedef struct {
	double x, y, z;
} tg_point;

typedef struct {
	tg_point marker;                 /* the point drawn in the marker colour */
	tg_point handle[TG_MAX_HANDLES]; /* handle[k]: the point that drags body k */
	int n_handles;
	double reach;       /* farthest drawn point from the pivot (m) */
	tg_point excursion; /* the pivot's excursion per axis (m) */
	int three_d;        /* drawn with the oblique projection */
} tg_geometry;

static inline tg_point tg_along(tg_point from, double len, double th)
{
	tg_point p = {from.x + len * sin(th), from.y - len * cos(th), from.z};
	return p;
}

/* The 3-D models (docs/MODELS.md, "The 3-D plugins"), from the control outputs:
 *  spherical: link 1's direction (x1, y1, z1)_ctl, the last bob at
 *    (tip_x, tip_y, tip_z)_ctl times the total length l1 + ... + lN from
 *    the pivot (pivot_x, pivot_y, pivot_z)_ctl; bob 1 at l1 along link 1.
 *    The marker is the last bob; body k's handle its bob (the bobs in
 *    between are not in the outputs: only bob 1 and the last one here).
 *    Drawn in 3-D; reach l1 + ... + lN.
 *  bead on the ellipsoid (surface 0): the bead at the pivot + (x axis_x,
 *    y axis_y, z axis_z) from (x, y, z)_ctl; it is the marker and its own
 *    handle; drawn in 3-D; reach: the longest semi-axis.
 *  bead on the floor (surface 1): the bead at the pivot + (x axis_x,
 *    y d axis_x^2, 0); no handle (its start is floor_x_init); drawn in the
 *    plane; the floor is drawn over |x| <= 1.25 axis_x, so the reach is the
 *    distance to its end at the wave's crest, hypot(1.25 a, d (1.25 a)^2 + A).
 * 1 and g filled for those; else 0 (g untouched). */
static inline int tg_model_geometry_3d(pendula_variant variant, const float *v, tg_geometry *g)
{
	const char *slug = pendula_model_infos[pendula_variant_model(variant)].slug;
	const tg_point pivot = {v[P_CTL_PIVOT_X], v[P_CTL_PIVOT_Y], v[P_CTL_PIVOT_Z]};
	if (!strcmp(slug, "spherical")) {
		static const pendula_port_id l[4] = {P_L1, P_L2, P_L3, P_L4};
		int n = (int)lrintf(v[P_N_LINKS]);
		n = n < 1 ? 1 : n > 4 ? 4 : n;
		double total = 0.0;
		for (int k = 0; k < n; ++k)
			total += v[l[k]];
		const double ux = v[P_CTL_X1], uy = v[P_CTL_Y1], uz = v[P_CTL_Z1];
		const double len = sqrt(ux * ux + uy * uy + uz * uz);
		memset(g, 0, sizeof *g);
		g->excursion = (tg_point){v[P_PIVOT_X_AMP], v[P_PIVOT_Y_AMP], v[P_PIVOT_Z_AMP]};
		g->handle[0] = len > 0.0 ? (tg_point){pivot.x + v[P_L1] * ux / len,
		                                      pivot.y + v[P_L1] * uy / len,
		                                      pivot.z + v[P_L1] * uz / len}
		                         : (tg_point){pivot.x, pivot.y - v[P_L1], pivot.z};
		g->marker =
		    (tg_point){pivot.x + total * v[P_CTL_TIP_X], pivot.y + total * v[P_CTL_TIP_Y],
		               pivot.z + total * v[P_CTL_TIP_Z]};
		g->handle[1] = g->marker;
		g->n_handles = n == 2 ? 2 : 1;
		if (n == 1)
			g->marker = g->handle[0];
		g->reach = total;
		g->three_d = 1;
		return 1;
	}
	if (!strcmp(slug, "bead")) {
		const double a = v[P_AXIS_X];
		memset(g, 0, sizeof *g);
		g->excursion = (tg_point){v[P_PIVOT_X_AMP], v[P_PIVOT_Y_AMP], v[P_PIVOT_Z_AMP]};
		if (lrintf(v[P_SURFACE]) == 0) {
			g->marker =
			    (tg_point){pivot.x + a * v[P_CTL_X], pivot.y + v[P_AXIS_Y] * v[P_CTL_Y],
			               pivot.z + v[P_AXIS_Z] * v[P_CTL_Z]};
			g->handle[0] = g->marker;
			g->n_handles = 1;
			g->reach = fmax(a, fmax(v[P_AXIS_Y], v[P_AXIS_Z]));
			g->three_d = 1;
		} else {
			const double d = v[P_FLOOR_CURVATURE], x0 = 1.25 * a;
			g->marker = (tg_point){pivot.x + a * v[P_CTL_X],
			                       pivot.y + d * a * a * v[P_CTL_Y], pivot.z};
			g->reach = hypot(x0, d * x0 * x0 + v[P_WAVE_AMP]);
		}
		return 1;
	}
	return 0;
}

/* The chain (docs/MODELS.md, "The chain"): link 1 hangs from the pivot O1, link
 * k from the far end of link k - 1, O_{k+1} = O_k + l_k (sin th_k, -cos
 * th_k).  Each link is dragged by its far end O_{k+1}; the marker is the end
 * of link 2 (of link 1 when N = 1).  Drawn: the hinges, the bars, and for
 * custom links (link_shape 2) a disc at the centre of mass G_k, c_k along
 * the link, so the reach is the largest sum_{j<k} l_j + max(l_k, c_k). */
static inline void tg_chain_geometry(const float *v, tg_point pivot, tg_geometry *g)
{
	static const double pi = 3.14159265358979323846;
	static const pendula_port_id l[6] = {P_L1, P_L2, P_L3, P_L4, P_L5, P_L6};
	static const pendula_port_id c[6] = {P_C1, P_C2, P_C3, P_C4, P_C5, P_C6};
	static const pendula_port_id th[6] = {P_CTL_THETA1, P_CTL_THETA2, P_CTL_THETA3,
	                                      P_CTL_THETA4, P_CTL_THETA5, P_CTL_THETA6};
	int n = (int)lrintf(v[P_N_LINKS]);
	n = n < 1 ? 1 : n > 6 ? 6 : n;
	const int custom = lrintf(v[P_LINK_SHAPE]) == 2;
	tg_point hinge = pivot;
	double along = 0.0;
	g->reach = 0.0;
	for (int k = 0; k < n; ++k) {
		hinge = tg_along(hinge, v[l[k]], v[th[k]] * pi);
		g->handle[k] = hinge;
		const double far = custom ? fmax(v[l[k]], v[c[k]]) : v[l[k]];
		g->reach = fmax(g->reach, along + far);
		along += v[l[k]];
	}
	g->n_handles = n;
	g->marker = g->handle[n > 1 ? 1 : 0];
}

/* 1 and g filled if the tests know the model of variant v; else 0. */
static inline int tg_model_geometry(pendula_variant variant, const float *v, tg_geometry *g)
{
	if (tg_model_geometry_3d(variant, v, g))
		return 1;
	static const double pi = 3.14159265358979323846;
	const char *slug = pendula_model_infos[pendula_variant_model(variant)].slug;
	const tg_point pivot = {v[P_CTL_PIVOT_X], v[P_CTL_PIVOT_Y], 0.0};
	const double th1 = v[P_CTL_THETA1] * pi, th2 = v[P_CTL_THETA2] * pi;
	memset(g, 0, sizeof *g);
	g->excursion.x = v[P_PIVOT_X_AMP];
	g->excursion.y = v[P_PIVOT_Y_AMP];
	if (!strcmp(slug, "double")) {
		/* bob 1 at l1 from the pivot, bob 2 (the marker) at l2 from bob 1 */
		const tg_point bob1 = tg_along(pivot, v[P_L1], th1);
		g->marker = tg_along(bob1, v[P_L2], th2);
		g->handle[0] = bob1;
		g->handle[1] = g->marker;
		g->n_handles = 2;
		g->reach = v[P_L1] + v[P_L2];
		return 1;
	}
	if (!strcmp(slug, "parallel")) {
		/* body 1: centre of mass G1 at c1 from the pivot O1; body k >= 2
		 * hangs from O_k = O1 + b_k (sin(th1 + beta_k), -cos(th1 +
		 * beta_k)), its centre of mass G_k at c_k from O_k, its bar 2 c_k
		 * long.  The marker: G2 (G1 when N = 1). */
		static const pendula_port_id c[4] = {P_C1, P_C2, P_C3, P_C4};
		static const pendula_port_id b[4] = {P_C1, P_B2, P_B3, P_B4};
		static const pendula_port_id beta[4] = {P_C1, P_BETA2, P_BETA3, P_BETA4};
		static const pendula_port_id th[4] = {P_CTL_THETA1, P_CTL_THETA2, P_CTL_THETA3,
		                                      P_CTL_THETA4};
		int n = (int)lrintf(v[P_N_BODIES]);
		n = n < 1 ? 1 : n > 4 ? 4 : n;
		g->handle[0] = tg_along(pivot, v[P_C1], th1);
		g->reach = v[P_C1];
		for (int k = 1; k < n; ++k) {
			const tg_point ok = tg_along(pivot, v[b[k]], th1 + v[beta[k]] * pi / 180.0);
			g->handle[k] = tg_along(ok, v[c[k]], v[th[k]] * pi);
			g->reach = fmax(g->reach, v[b[k]] + 2.0 * v[c[k]]);
		}
		g->n_handles = n;
		g->marker = g->handle[n > 1 ? 1 : 0];
		return 1;
	}
	if (!strcmp(slug, "chain")) {
		tg_chain_geometry(v, pivot, g);
		return 1;
	}
	return 0;
}

/* Where the drawing puts a world point, by the projection documented in
 * draw/pendula_draw.h (FRONT for planar models, OBLIQUE for 3-D ones),
 * given the view's centre (cx, cy) and scale. */
static inline void tg_project_px(const tg_geometry *g, tg_point p, double cx, double cy,
                                 double scale, double *px, double *py)
{
	double sx = p.x, sy = p.y;
	if (g->three_d) {
		const double yaw = 30.0 * 3.14159265358979323846 / 180.0;
		const double pitch = 20.0 * 3.14159265358979323846 / 180.0;
		const double xr = p.x * cos(yaw) + p.z * sin(yaw);
		const double zr = p.z * cos(yaw) - p.x * sin(yaw);
		sx = xr;
		sy = p.y * cos(pitch) - zr * sin(pitch);
	}
	*px = cx + scale * sx;
	*py = cy - scale * sy;
}

/* The view a drawing into the rectangle (x, y, w, h) uses, by the rule
 * draw/pendula_draw.h documents: the world origin at the centre; the scale
 * fits a sphere of radius reach around every pivot position of the
 * excursion box, with the bob radius (3.5 % of the shorter side, 2.5 to
 * 11 px) + 2 px free at the edges. */
static inline void tg_view(const tg_geometry *g, double x, double y, double w, double h, double *cx,
                           double *cy, double *scale)
{
	const double side = fmin(w, h);
	const double br = fmin(fmax(0.035 * side, 2.5), 11.0), pad = br + 2.0;
	double ex = 0.0, ey = 0.0;
	for (int c = 0; c < 8; ++c) {
		const tg_point corner = {c & 1 ? g->excursion.x : -g->excursion.x,
		                         c & 2 ? g->excursion.y : -g->excursion.y,
		                         c & 4 ? g->excursion.z : -g->excursion.z};
		double px, py;
		tg_project_px(g, corner, 0.0, 0.0, 1.0, &px, &py);
		ex = fmax(ex, fabs(px));
		ey = fmax(ey, fabs(py));
	}
	const double reach = fmax(g->reach, 1e-3);
	*scale =
	    fmin((w - 2.0 * pad) / (2.0 * (reach + ex)), (h - 2.0 * pad) / (2.0 * (reach + ey)));
	*cx = x + 0.5 * w;
	*cy = y + 0.5 * h;
}

#endif
