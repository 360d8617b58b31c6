/* SPDX-License-Identifier: ISC */
/*
 * Any model's pose with cairo (see pendula_draw.h): pure drawing, no X, no
 * LV2, no engine, no model.
 */
#include "pendula_draw.h"

#include <math.h>
#include <string.h>

#define DRAW_PI 3.14159265358979323846

/* ---------------------------------------------------------------------- */
/* Projections and the view                                                */

/* The screen's x and y axes and the direction toward the viewer, as unit
 * vectors in world coordinates (pendula_draw.h). */
typedef struct {
	pendula_vec3 ex, ey, ed;
} axes;

static axes projection_axes(pendula_projection proj)
{
	axes a;
	switch (proj) {
	case PENDULA_PROJ_TOP:
		a.ex = (pendula_vec3){1.0, 0.0, 0.0};
		a.ey = (pendula_vec3){0.0, 0.0, -1.0};
		a.ed = (pendula_vec3){0.0, 1.0, 0.0};
		break;
	case PENDULA_PROJ_OBLIQUE: {
		const double cy = cos(PENDULA_OBLIQUE_YAW), sy = sin(PENDULA_OBLIQUE_YAW);
		const double cp = cos(PENDULA_OBLIQUE_PITCH), sp = sin(PENDULA_OBLIQUE_PITCH);
		a.ex = (pendula_vec3){cy, 0.0, sy};
		a.ey = (pendula_vec3){sy * sp, cp, -cy * sp};
		a.ed = (pendula_vec3){-sy * cp, sp, cy * cp};
		break;
	}
	case PENDULA_PROJ_AUTO:
	case PENDULA_PROJ_FRONT:
	default:
		a.ex = (pendula_vec3){1.0, 0.0, 0.0};
		a.ey = (pendula_vec3){0.0, 1.0, 0.0};
		a.ed = (pendula_vec3){0.0, 0.0, 1.0};
		break;
	}
	return a;
}

static double finite_or_zero(double v)
{
	return isfinite(v) ? v : 0.0;
}

static double dot(pendula_vec3 a, pendula_vec3 b)
{
	return finite_or_zero(a.x) * b.x + finite_or_zero(a.y) * b.y + finite_or_zero(a.z) * b.z;
}

void pendula_project(pendula_projection proj, pendula_vec3 p, double *sx, double *sy, double *depth)
{
	const axes a = projection_axes(proj);
	*sx = dot(p, a.ex);
	*sy = dot(p, a.ey);
	if (depth)
		*depth = dot(p, a.ed);
}

int pendula_pose_is_3d(const pendula_pose *pose)
{
	if (pose->three_d || pose->surface.kind == PENDULA_SURFACE_ELLIPSOID ||
	    pose->pivot_excursion.z != 0.0)
		return 1;
	for (int i = 0; i < pose->n_points && i < PENDULA_POSE_MAX_POINTS; ++i)
		if (pose->point[i].p.z != 0.0)
			return 1;
	return 0;
}

/* A length we can draw: finite and not negative. */
static double len_ok(double v)
{
	return isfinite(v) && v > 0.0 ? v : 0.0;
}

void pendula_view_fit(pendula_view *v, const pendula_pose *pose, pendula_projection proj,
                      pendula_rect r)
{
	if (proj == PENDULA_PROJ_AUTO)
		proj = pendula_pose_is_3d(pose) ? PENDULA_PROJ_OBLIQUE : PENDULA_PROJ_FRONT;
	v->proj = proj;
	const double side = r.w < r.h ? r.w : r.h;
	double br = 0.035 * side;
	if (br < 2.5)
		br = 2.5;
	if (br > 11.0)
		br = 11.0;
	v->bob_r = br;
	const double reach = len_ok(pose->reach) > 1e-3 ? len_ok(pose->reach) : 1e-3;
	v->reach = reach;

	/* The pivot's excursion box, projected: its farthest corner per axis. */
	const pendula_vec3 e = {len_ok(pose->pivot_excursion.x), len_ok(pose->pivot_excursion.y),
	                        len_ok(pose->pivot_excursion.z)};
	double ex = 0.0, ey = 0.0;
	for (int c = 0; c < 8; ++c) {
		const pendula_vec3 corner = {c & 1 ? e.x : -e.x, c & 2 ? e.y : -e.y,
		                             c & 4 ? e.z : -e.z};
		double sx, sy;
		pendula_project(proj, corner, &sx, &sy, NULL);
		ex = fmax(ex, fabs(sx));
		ey = fmax(ey, fabs(sy));
	}
	const double pad = br + 2.0;
	const double sx = (r.w - 2.0 * pad) / (2.0 * (reach + ex));
	const double sy = (r.h - 2.0 * pad) / (2.0 * (reach + ey));
	const double scale = sx < sy ? sx : sy;
	v->scale = scale > 1e-6 ? scale : 1e-6;
	v->cx = r.x + 0.5 * r.w;
	v->cy = r.y + 0.5 * r.h;
}

void pendula_view_map(const pendula_view *v, pendula_vec3 p, double *px, double *py)
{
	double sx, sy;
	pendula_project(v->proj, p, &sx, &sy, NULL);
	*px = v->cx + v->scale * sx;
	*py = v->cy - v->scale * sy;
}

void pendula_pose_marker_px(const pendula_pose *pose, pendula_rect r, double *px, double *py)
{
	pendula_view v;
	pendula_view_fit(&v, pose, PENDULA_PROJ_AUTO, r);
	const int m = pose->marker >= 0 && pose->marker < pose->n_points ? pose->marker : 0;
	pendula_view_map(&v, pose->point[m].p, px, py);
}

/* ---------------------------------------------------------------------- */
/* Trail                                                                   */

void pendula_trail_clear(pendula_trail *t)
{
	memset(t, 0, sizeof *t);
}

void pendula_trail_push(pendula_trail *t, const pendula_pose *pose)
{
	int n_tips = pose->n_tips < PENDULA_POSE_MAX_TIPS ? pose->n_tips : PENDULA_POSE_MAX_TIPS;
	if (n_tips < 0)
		n_tips = 0;
	if (n_tips != t->n_tips) {
		pendula_trail_clear(t);
		t->n_tips = n_tips;
	}
	t->head = (t->head + 1) % PENDULA_TRAIL_LEN;
	for (int k = 0; k < n_tips; ++k) {
		const int i = pose->tip[k];
		t->p[k][t->head] =
		    i >= 0 && i < pose->n_points ? pose->point[i].p : (pendula_vec3){0.0, 0.0, 0.0};
	}
	if (t->count < PENDULA_TRAIL_LEN)
		++t->count;
}

/* ---------------------------------------------------------------------- */
/* Colours: none of them near the marker's orange (the tests look for it). */

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
#define COL_SURFACE    0x27303f
#define COL_SURF_LINE  0x56627a
#define COL_CURVE      0x8a93a6
#define COL_METER      0x8c6bff
#define COL_METER_BG   0x22262f

static const unsigned tip_colour[PENDULA_POSE_MAX_TIPS] = {0x3fd0d8, 0xb39cff, 0x7fe08a, 0xe0d27f};

unsigned pendula_tip_colour(int k)
{
	return tip_colour[(k < 0 ? 0 : k) % PENDULA_POSE_MAX_TIPS];
}

static void set_rgb(cairo_t *cr, unsigned rgb, double alpha)
{
	cairo_set_source_rgba(cr, ((rgb >> 16) & 255) / 255.0, ((rgb >> 8) & 255) / 255.0,
	                      (rgb & 255) / 255.0, alpha);
}

/* A colour toward the background by depth: shade 1 as it is, 0 background. */
static unsigned shaded(unsigned rgb, double shade)
{
	unsigned out = 0;
	for (int s = 0; s <= 16; s += 8) {
		const double c = (rgb >> s) & 255, b = (COL_BACKGROUND >> s) & 255;
		out |= (unsigned)lrint(b + (c - b) * shade) << s;
	}
	return out;
}

/* ---------------------------------------------------------------------- */
/* Drawing helpers                                                         */

static void move_to(cairo_t *cr, const pendula_view *v, pendula_vec3 m)
{
	double x, y;
	pendula_view_map(v, m, &x, &y);
	cairo_move_to(cr, x, y);
}

static void line_to(cairo_t *cr, const pendula_view *v, pendula_vec3 m)
{
	double x, y;
	pendula_view_map(v, m, &x, &y);
	cairo_line_to(cr, x, y);
}

static void disc(cairo_t *cr, const pendula_view *v, pendula_vec3 m, double r)
{
	double x, y;
	pendula_view_map(v, m, &x, &y);
	cairo_new_sub_path(cr);
	cairo_arc(cr, x, y, r, 0.0, 2.0 * DRAW_PI);
}

static pendula_vec3 point_at(const pendula_pose *pose, int i)
{
	return i >= 0 && i < pose->n_points ? pose->point[i].p : (pendula_vec3){0.0, 0.0, 0.0};
}

/* Depth of a world point, -1 (far) .. 1 (near) of the reach. */
static double depth_of(const pendula_view *v, pendula_vec3 p)
{
	double sx, sy, d;
	pendula_project(v->proj, p, &sx, &sy, &d);
	d /= v->reach;
	return d < -1.0 ? -1.0 : d > 1.0 ? 1.0 : d;
}

/* Size and shade by depth: 1 and 1 in a face-on view. */
static double depth_size(const pendula_view *v, double d)
{
	return v->proj == PENDULA_PROJ_FRONT ? 1.0 : 1.0 + 0.3 * d;
}

static double depth_shade(const pendula_view *v, double d)
{
	return v->proj == PENDULA_PROJ_FRONT ? 1.0 : 0.7 + 0.3 * d;
}

typedef struct {
	double x, y;
} xy;

static double cross(xy o, xy a, xy b)
{
	return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/* Convex hull (Andrew's monotone chain) of n <= PENDULA_POSE_MAX_HULL_PTS
 * points; returns the number written to out (in order). */
static int convex_hull(xy *pts, int n, xy *out)
{
	for (int i = 1; i < n; ++i) {
		xy key = pts[i];
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

/* The outline of a hull as a closed path (in pixels). */
static void hull_path(cairo_t *cr, const pendula_view *v, const pendula_pose *pose,
                      const pendula_pose_hull *h)
{
	xy pts[PENDULA_POSE_MAX_HULL_PTS], out[2 * PENDULA_POSE_MAX_HULL_PTS];
	const int n = h->n < PENDULA_POSE_MAX_HULL_PTS ? h->n : PENDULA_POSE_MAX_HULL_PTS;
	for (int i = 0; i < n; ++i)
		pendula_view_map(v, point_at(pose, h->pt[i]), &pts[i].x, &pts[i].y);
	const int m = convex_hull(pts, n, out);
	if (m < 1)
		return;
	cairo_move_to(cr, out[0].x, out[0].y);
	for (int i = 1; i < m; ++i)
		cairo_line_to(cr, out[i].x, out[i].y);
	cairo_close_path(cr);
}

/* What a point looks like, from the pose's structure alone. */
typedef enum {
	LOOK_NONE,
	LOOK_PIVOT,
	LOOK_HINGE,
	LOOK_POINT_MASS,
	LOOK_ARM_COM,
	LOOK_HULL_COM
} look;

static look point_look(const pendula_pose *pose, int i)
{
	const pendula_pose_point *pt = &pose->point[i];
	switch (pt->kind) {
	case PENDULA_POINT_PIVOT:
		return LOOK_PIVOT;
	case PENDULA_POINT_HINGE:
		return LOOK_HINGE;
	case PENDULA_POINT_END:
		return LOOK_NONE;
	case PENDULA_POINT_BOB:
		break;
	}
	for (int h = 0; h < pose->n_hulls && h < PENDULA_POSE_MAX_HULLS; ++h)
		for (int j = 0; j < pose->hull[h].n && j < PENDULA_POSE_MAX_HULL_PTS; ++j)
			if (pose->hull[h].pt[j] == i)
				return LOOK_HULL_COM;
	for (int r = 0; r < pose->n_rods && r < PENDULA_POSE_MAX_RODS; ++r)
		if (pose->rod[r].kind == PENDULA_ROD_BAR && pose->rod[r].body == pt->body)
			return LOOK_ARM_COM;
	return LOOK_POINT_MASS;
}

/* A bob: a disc of colour rgb in a 1 px dark outline. */
static void outlined_disc(cairo_t *cr, const pendula_view *v, pendula_vec3 p, double r,
                          unsigned rgb)
{
	cairo_new_path(cr);
	disc(cr, v, p, r + 1.0);
	set_rgb(cr, COL_OUTLINE, 1.0);
	cairo_fill(cr);
	cairo_new_path(cr);
	disc(cr, v, p, r);
	set_rgb(cr, rgb, 1.0);
	cairo_fill(cr);
}

static void draw_point(cairo_t *cr, const pendula_view *v, const pendula_pose *pose, int i)
{
	const double r = v->bob_r;
	const pendula_vec3 p = point_at(pose, i);
	const double d = depth_of(v, p), size = depth_size(v, d), shade = depth_shade(v, d);
	double rk = r * 0.85;
	unsigned col = COL_BOB1;
	switch (point_look(pose, i)) {
	case LOOK_NONE:
		return;
	case LOOK_PIVOT:
		cairo_new_path(cr);
		disc(cr, v, p, r * 0.55 * size);
		set_rgb(cr, shaded(COL_PIVOT, shade), 1.0);
		cairo_fill(cr);
		cairo_new_path(cr);
		disc(cr, v, p, r * 0.22 * size);
		set_rgb(cr, COL_BACKGROUND, 1.0);
		cairo_fill(cr);
		return;
	case LOOK_HINGE:
		cairo_new_path(cr);
		disc(cr, v, p, (r * 0.3 > 1.0 ? r * 0.3 : 1.0) * size);
		set_rgb(cr, shaded(COL_HINGE, shade), 1.0);
		cairo_fill(cr);
		return;
	case LOOK_HULL_COM:
		col = COL_HINGE;
		rk = r * 0.4;
		break;
	case LOOK_ARM_COM:
		col = COL_ARM_BOB;
		break;
	case LOOK_POINT_MASS:
		break;
	}
	outlined_disc(cr, v, p, rk * size, shaded(col, shade));
}

static void draw_rod(cairo_t *cr, const pendula_view *v, const pendula_pose *pose, int i)
{
	const pendula_pose_rod *rod = &pose->rod[i];
	const pendula_vec3 a = point_at(pose, rod->a), b = point_at(pose, rod->b);
	const pendula_vec3 mid = {0.5 * (a.x + b.x), 0.5 * (a.y + b.y), 0.5 * (a.z + b.z)};
	const double d = depth_of(v, mid), size = depth_size(v, d), shade = depth_shade(v, d);
	const double r = v->bob_r;
	const int bar = rod->kind == PENDULA_ROD_BAR;
	cairo_new_path(cr);
	move_to(cr, v, a);
	line_to(cr, v, b);
	set_rgb(cr, shaded(bar ? COL_ARM : COL_ROD, shade), 1.0);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
	cairo_set_line_width(cr, (bar ? r * 0.9 : (r * 0.32 > 1.2 ? r * 0.32 : 1.2)) * size);
	cairo_stroke(cr);
}

static void draw_hulls(cairo_t *cr, const pendula_view *v, const pendula_pose *pose)
{
	for (int h = 0; h < pose->n_hulls && h < PENDULA_POSE_MAX_HULLS; ++h) {
		cairo_new_path(cr);
		hull_path(cr, v, pose, &pose->hull[h]);
		set_rgb(cr, COL_BODY1, 1.0);
		cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
		cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
		cairo_set_line_width(cr, v->bob_r * 1.5);
		cairo_fill_preserve(cr);
		cairo_stroke(cr);
	}
}

/* A closed curve c(s) = centre + u cos s + w sin s, projected. */
static void ring_path(cairo_t *cr, const pendula_view *v, pendula_vec3 c, pendula_vec3 u,
                      pendula_vec3 w)
{
	for (int i = 0; i <= 72; ++i) {
		const double s = 2.0 * DRAW_PI * i / 72.0, cs = cos(s), sn = sin(s);
		const pendula_vec3 p = {c.x + u.x * cs + w.x * sn, c.y + u.y * cs + w.y * sn,
		                        c.z + u.z * cs + w.z * sn};
		if (i == 0)
			move_to(cr, v, p);
		else
			line_to(cr, v, p);
	}
}

static void draw_surface(cairo_t *cr, const pendula_view *v, const pendula_pose *pose)
{
	const pendula_pose_surface *s = &pose->surface;
	if (s->kind == PENDULA_SURFACE_CURVE) {
		const int n = s->n < PENDULA_POSE_CURVE_PTS ? s->n : PENDULA_POSE_CURVE_PTS;
		if (n < 2)
			return;
		cairo_new_path(cr);
		move_to(cr, v, s->curve[0]);
		for (int i = 1; i < n; ++i)
			line_to(cr, v, s->curve[i]);
		set_rgb(cr, COL_CURVE, 1.0);
		cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
		cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
		cairo_set_line_width(cr, v->bob_r * 0.3 > 1.5 ? v->bob_r * 0.3 : 1.5);
		cairo_stroke(cr);
		return;
	}
	if (s->kind != PENDULA_SURFACE_ELLIPSOID)
		return;
	/* Silhouette of x^2/a^2 + y^2/b^2 + z^2/c^2 = 1 under an orthographic
	 * projection: the ellipse s^T A^-1 s = 1, A = P diag(a^2, b^2, c^2) P^T
	 * with P the screen axes. */
	const axes ax = projection_axes(v->proj);
	const double a2[3] = {s->axis[0] * s->axis[0], s->axis[1] * s->axis[1],
	                      s->axis[2] * s->axis[2]};
	const double ex[3] = {ax.ex.x, ax.ex.y, ax.ex.z}, ey[3] = {ax.ey.x, ax.ey.y, ax.ey.z};
	double a11 = 0.0, a12 = 0.0, a22 = 0.0;
	for (int i = 0; i < 3; ++i) {
		a11 += ex[i] * ex[i] * a2[i];
		a12 += ex[i] * ey[i] * a2[i];
		a22 += ey[i] * ey[i] * a2[i];
	}
	const double mean = 0.5 * (a11 + a22), dev = hypot(0.5 * (a11 - a22), a12);
	const double l1 = sqrt(fmax(mean + dev, 0.0)), l2 = sqrt(fmax(mean - dev, 0.0));
	const double phi = 0.5 * atan2(2.0 * a12, a11 - a22);
	double cx, cy;
	pendula_view_map(v, s->centre, &cx, &cy);
	if (!isfinite(l1) || !(l1 * v->scale > 0.5))
		return;
	cairo_new_path(cr);
	cairo_save(cr);
	cairo_translate(cr, cx, cy);
	cairo_rotate(cr, -phi);
	cairo_scale(cr, l1 * v->scale, fmax(l2 * v->scale, 0.5));
	cairo_arc(cr, 0.0, 0.0, 1.0, 0.0, 2.0 * DRAW_PI);
	cairo_restore(cr);
	set_rgb(cr, COL_SURFACE, 0.85);
	cairo_fill_preserve(cr);
	set_rgb(cr, COL_SURF_LINE, 1.0);
	cairo_set_line_width(cr, 1.2);
	cairo_stroke(cr);
	/* the equator and two meridians */
	const pendula_vec3 ux = {s->axis[0], 0.0, 0.0}, uy = {0.0, s->axis[1], 0.0},
	                   uz = {0.0, 0.0, s->axis[2]};
	cairo_new_path(cr);
	ring_path(cr, v, s->centre, ux, uz);
	ring_path(cr, v, s->centre, uy, ux);
	ring_path(cr, v, s->centre, uy, uz);
	set_rgb(cr, COL_SURF_LINE, 0.6);
	cairo_set_line_width(cr, 0.8);
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
	for (int k = 0; k < t->n_tips && k < PENDULA_POSE_MAX_TIPS; ++k) {
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
			set_rgb(cr, tip_colour[k], 0.05 + 0.75 * age * age);
			cairo_stroke(cr);
		}
	}
}

void pendula_draw_path(cairo_t *cr, const pendula_view *v, const pendula_vec3 *pts, long n,
                       unsigned rgb, double width)
{
	const long chunks = 24;
	cairo_save(cr);
	cairo_set_line_width(cr, width);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
	for (long ch = 0; ch < chunks && n > 1; ++ch) {
		const long a = n * ch / chunks;
		long b = n * (ch + 1) / chunks;
		if (b >= n)
			b = n - 1;
		if (b <= a)
			continue;
		cairo_new_path(cr);
		move_to(cr, v, pts[a]);
		for (long i = a + 1; i <= b; ++i)
			line_to(cr, v, pts[i]);
		set_rgb(cr, rgb, 0.12 + 0.68 * (double)(ch + 1) / (double)chunks);
		cairo_stroke(cr);
	}
	cairo_restore(cr);
}

/* The path of the pivot under the forcing: Gamma with equal frequencies
 * traces this ellipse (around the rest position). */
static void draw_forcing(cairo_t *cr, const pendula_view *v, const pendula_pose *pose)
{
	const pendula_vec3 e = {len_ok(pose->pivot_excursion.x), len_ok(pose->pivot_excursion.y),
	                        len_ok(pose->pivot_excursion.z)};
	double sx0, sy0, sx1, sy1;
	pendula_project(v->proj, (pendula_vec3){e.x, 0.0, e.z}, &sx0, &sy0, NULL);
	pendula_project(v->proj, (pendula_vec3){0.0, e.y, 0.0}, &sx1, &sy1, NULL);
	if (!(hypot(sx0, sy0) * v->scale > 0.5 || hypot(sx1, sy1) * v->scale > 0.5))
		return;
	const double dash[] = {3.0, 3.0};
	cairo_new_path(cr);
	ring_path(cr, v, (pendula_vec3){0.0, 0.0, 0.0}, (pendula_vec3){0.0, e.y, 0.0},
	          (pendula_vec3){e.x, 0.0, e.z});
	cairo_set_dash(cr, dash, 2, 0.0);
	cairo_set_line_width(cr, 1.2);
	set_rgb(cr, COL_FORCING, 1.0);
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0.0);
}

static void draw_marker(cairo_t *cr, const pendula_view *v, const pendula_pose *pose)
{
	if (pose->marker < 0 || pose->marker >= pose->n_points)
		return;
	const pendula_vec3 p = pose->point[pose->marker].p;
	/* flat, opaque, the pure marker colour */
	outlined_disc(cr, v, p, v->bob_r * depth_size(v, depth_of(v, p)), PENDULA_MARKER_RGB);
}

/* Rods and points back to front (3-D); in a face-on view the layers are
 * rods, hinges, the forcing path, the pivot, then the bobs. */
typedef struct {
	double depth;
	int rod; /* 1: rod index, 0: point index */
	int index;
} item;

static void draw_bodies_3d(cairo_t *cr, const pendula_view *v, const pendula_pose *pose)
{
	item items[PENDULA_POSE_MAX_RODS + PENDULA_POSE_MAX_POINTS];
	int n = 0;
	for (int i = 0; i < pose->n_rods && i < PENDULA_POSE_MAX_RODS; ++i) {
		const pendula_vec3 a = point_at(pose, pose->rod[i].a),
		                   b = point_at(pose, pose->rod[i].b);
		const pendula_vec3 mid = {0.5 * (a.x + b.x), 0.5 * (a.y + b.y), 0.5 * (a.z + b.z)};
		/* a rod goes under the points at its ends */
		items[n++] = (item){depth_of(v, mid) - 1e-3, 1, i};
	}
	for (int i = 0; i < pose->n_points && i < PENDULA_POSE_MAX_POINTS; ++i)
		if (i != pose->marker)
			items[n++] = (item){depth_of(v, pose->point[i].p), 0, i};
	for (int i = 1; i < n; ++i) { /* stable insertion sort, far first */
		const item key = items[i];
		int j = i - 1;
		while (j >= 0 && items[j].depth > key.depth) {
			items[j + 1] = items[j];
			--j;
		}
		items[j + 1] = key;
	}
	for (int i = 0; i < n; ++i) {
		if (items[i].rod)
			draw_rod(cr, v, pose, items[i].index);
		else
			draw_point(cr, v, pose, items[i].index);
	}
}

void pendula_draw_pose(cairo_t *cr, const pendula_view *v, const pendula_pose *pose,
                       const pendula_trail *trail, pendula_rect clip)
{
	const double r = v->bob_r;
	const double rod_w = r * 0.32 > 1.2 ? r * 0.32 : 1.2;
	cairo_save(cr);
	cairo_rectangle(cr, clip.x, clip.y, clip.w, clip.h);
	cairo_clip(cr);

	/* Where the bodies can reach, from the rest position of the pivot (in
	 * 3-D, the sphere's outline and its horizontal great circle). */
	const pendula_vec3 origin = {0.0, 0.0, 0.0};
	cairo_new_path(cr);
	disc(cr, v, origin, v->scale * v->reach);
	if (v->proj != PENDULA_PROJ_FRONT) {
		cairo_new_sub_path(cr);
		ring_path(cr, v, origin, (pendula_vec3){v->reach, 0.0, 0.0},
		          (pendula_vec3){0.0, 0.0, v->reach});
	}
	set_rgb(cr, COL_REACH, 1.0);
	cairo_set_line_width(cr, 1.0);
	cairo_stroke(cr);

	draw_surface(cr, v, pose);
	draw_trail(cr, v, trail, rod_w * 0.9);
	draw_hulls(cr, v, pose);
	if (v->proj == PENDULA_PROJ_FRONT) {
		for (int i = 0; i < pose->n_rods && i < PENDULA_POSE_MAX_RODS; ++i)
			draw_rod(cr, v, pose, i);
		for (int i = 0; i < pose->n_points && i < PENDULA_POSE_MAX_POINTS; ++i)
			if (pose->point[i].kind == PENDULA_POINT_HINGE)
				draw_point(cr, v, pose, i);
		/* over the bodies, so that it shows */
		draw_forcing(cr, v, pose);
		for (int i = 0; i < pose->n_points && i < PENDULA_POSE_MAX_POINTS; ++i)
			if (pose->point[i].kind == PENDULA_POINT_PIVOT)
				draw_point(cr, v, pose, i);
		for (int i = 0; i < pose->n_points && i < PENDULA_POSE_MAX_POINTS; ++i)
			if (pose->point[i].kind == PENDULA_POINT_BOB && i != pose->marker)
				draw_point(cr, v, pose, i);
	} else {
		draw_forcing(cr, v, pose);
		draw_bodies_3d(cr, v, pose);
	}
	draw_marker(cr, v, pose);
	cairo_restore(cr);
}

void pendula_draw_scene(cairo_t *cr, const pendula_pose *pose, const pendula_trail *trail,
                        pendula_rect r)
{
	pendula_view v;
	pendula_view_fit(&v, pose, PENDULA_PROJ_AUTO, r);
	cairo_save(cr);
	cairo_rectangle(cr, r.x, r.y, r.w, r.h);
	cairo_clip(cr);
	set_rgb(cr, COL_BACKGROUND, 1.0);
	cairo_paint(cr);
	cairo_restore(cr);
	pendula_draw_pose(cr, &v, pose, trail, r);
}

void pendula_draw_ghost(cairo_t *cr, const pendula_view *v, const pendula_pose *pose,
                        pendula_rect clip, double r, double g, double b, double alpha)
{
	const double dash[] = {4.0, 3.0};
	cairo_save(cr);
	cairo_rectangle(cr, clip.x, clip.y, clip.w, clip.h);
	cairo_clip(cr);
	cairo_new_path(cr);
	for (int h = 0; h < pose->n_hulls && h < PENDULA_POSE_MAX_HULLS; ++h)
		hull_path(cr, v, pose, &pose->hull[h]);
	for (int i = 0; i < pose->n_rods && i < PENDULA_POSE_MAX_RODS; ++i) {
		move_to(cr, v, point_at(pose, pose->rod[i].a));
		line_to(cr, v, point_at(pose, pose->rod[i].b));
	}
	for (int i = 0; i < pose->n_points && i < PENDULA_POSE_MAX_POINTS; ++i)
		if (pose->point[i].kind == PENDULA_POINT_BOB)
			disc(cr, v, pose->point[i].p, v->bob_r * 0.8);
	cairo_set_dash(cr, dash, 2, 0.0);
	cairo_set_line_width(cr, 1.5);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
	cairo_set_source_rgba(cr, r, g, b, alpha);
	cairo_stroke(cr);
	cairo_restore(cr);
}

void pendula_draw_energy(cairo_t *cr, double energy, pendula_rect r)
{
	double frac = isfinite(energy) ? 0.5 * energy : 0.0;
	if (frac < 0.0)
		frac = 0.0;
	if (frac > 1.0)
		frac = 1.0;
	cairo_save(cr);
	cairo_new_path(cr);
	cairo_rectangle(cr, r.x, r.y, r.w, r.h);
	set_rgb(cr, COL_METER_BG, 1.0);
	cairo_fill(cr);
	cairo_rectangle(cr, r.x, r.y + r.h * (1.0 - frac), r.w, r.h * frac);
	set_rgb(cr, COL_METER, 1.0);
	cairo_fill(cr);
	/* energy 1: just enough to reach the highest configuration */
	cairo_rectangle(cr, r.x, r.y + 0.5 * r.h - 0.5, r.w, 1.0);
	cairo_set_source_rgba(cr, 1.0, 1.0, 1.0, 0.8);
	cairo_fill(cr);
	cairo_restore(cr);
}

pendula_rect pendula_inline_scene_rect(double w, double h)
{
	double mw = floor(w * 0.05);
	if (mw < 3.0)
		mw = 3.0;
	const pendula_rect r = {0.0, 0.0, w - mw - 2.0 > 1.0 ? w - mw - 2.0 : 1.0, h};
	return r;
}

void pendula_draw_inline(cairo_t *cr, const pendula_pose *pose, const pendula_trail *trail,
                         double energy, double w, double h)
{
	const pendula_rect s = pendula_inline_scene_rect(w, h);
	cairo_save(cr);
	set_rgb(cr, COL_BACKGROUND, 1.0);
	cairo_paint(cr);
	pendula_draw_scene(cr, pose, trail, s);
	const double mx = s.x + s.w + 1.0;
	pendula_draw_energy(cr, energy, (pendula_rect){mx, 2.0, w - mx - 1.0, h - 4.0});
	cairo_restore(cr);
}

/* ---------------------------------------------------------------------- */
/* UI layout                                                               */

/* The bottom row: reset at the left, store and recall at the right, the
 * memory slots between them, all of one height; the buttons narrow with
 * the window (down to what their labels need). */
static void layout_bottom_row(pendula_layout *lay, double w, double y, double h)
{
	const double margin = 8.0, gap = 8.0, slot_gap = 3.0;
	const double button_w = fmax(48.0, fmin(72.0, 0.15 * w));
	lay->reset = (pendula_rect){margin, y, button_w, h};
	lay->recall = (pendula_rect){w - margin - button_w, y, button_w, h};
	lay->store = (pendula_rect){lay->recall.x - 4.0 - button_w, y, button_w, h};
	const double x0 = lay->reset.x + button_w + gap, x1 = lay->store.x - gap;
	const double pitch = fmax(x1 - x0 + slot_gap, 0.0) / PENDULA_UI_MEM_SLOTS;
	for (int k = 0; k < PENDULA_UI_MEM_SLOTS; ++k)
		lay->slot[k] = (pendula_rect){x0 + k * pitch, y, fmax(pitch - slot_gap, 1.0), h};
}

void pendula_layout_compute(pendula_layout *lay, double w, double h, int n_sliders)
{
	const double margin = 8.0, gap = 6.0, meter_w = 16.0;
	const double row_h = 24.0, reset_h = 26.0;
	if (n_sliders < 0)
		n_sliders = 0;
	if (n_sliders > PENDULA_UI_MAX_SLIDERS)
		n_sliders = PENDULA_UI_MAX_SLIDERS;
	const double controls_h = n_sliders * row_h + reset_h + 2.0 * gap;

	memset(lay, 0, sizeof *lay);
	lay->n_sliders = n_sliders;
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
	if (label_w > 116.0)
		label_w = 116.0;
	double value_w = 0.2 * w;
	if (value_w > 90.0)
		value_w = 90.0;
	double yy = lay->scene.y + lay->scene.h + gap;
	for (int i = 0; i < n_sliders; ++i) {
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
	layout_bottom_row(lay, w, yy, reset_h - 4.0);
	lay->level_row = -1;
	lay->hint.x = lay->scene.x + 6.0;
	lay->hint.y = lay->scene.y + lay->scene.h - 20.0;
	lay->hint.w = lay->scene.w - 12.0;
	lay->hint.h = lay->scene.h >= 120.0 ? 16.0 : 0.0; /* (a small scene: no hint over it) */
}

void pendula_layout_level_row(pendula_layout *lay, int row)
{
	if (row < 0 || row >= lay->n_sliders)
		return;
	pendula_rect *tr = &lay->track[row];
	const double meter_w = fmin(48.0, 0.3 * tr->w), gap = 6.0;
	if (tr->w - meter_w - gap < 20.0)
		return; /* (no room: no meter) */
	tr->w -= meter_w + gap;
	lay->level_row = row;
	lay->level = (pendula_rect){tr->x + tr->w + gap, tr->y, meter_w, tr->h};
}
