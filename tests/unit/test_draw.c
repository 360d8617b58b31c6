/* SPDX-License-Identifier: ISC */
/*
 * The drawing module (draw/) on synthetic poses, no plugin and no model:
 *
 *   planar    a planar pose drawn into an image surface: the marker's
 *             pixels centred where the FRONT projection and the view rule
 *             documented in draw/pendula_draw.h put it (computed here, by
 *             tests/support/model_geometry.h), within 1 px; nothing drawn outside
 *             the rectangle; the marker on top of a bob at the same place
 *   oblique   a 3-D pose: the marker where the OBLIQUE projection (yaw 30
 *             degrees, pitch 20 degrees) puts it, within 1 px; nearer bobs
 *             drawn larger; an ellipsoid surface and a curve draw
 *   top       the TOP projection maps (x, z) to (right, down)
 *   fit       the view does not depend on where the bodies are, and a
 *             larger reach or excursion gives a smaller scale
 */
#include "model_geometry.h"
#include "pendula_draw.h"
#include "test_common.h"

#include <CUnit/Basic.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MARKER_TOL 24

typedef struct {
	long n;
	double x, y;
	long outside; /* non-transparent pixels outside the rectangle */
} marker_stats;

static int is_marker(uint32_t p)
{
	const int a = (int)(p >> 24), r = (int)((p >> 16) & 255), g = (int)((p >> 8) & 255),
	          b = (int)(p & 255);
	return a == 255 && abs(r - 0xff) <= MARKER_TOL && abs(g - 0x7f) <= MARKER_TOL &&
	       b <= MARKER_TOL;
}

/* Draws the pose with pendula_draw_scene into rect r of a w x h transparent
 * surface and finds the marker's pixels. */
static void draw_and_find(const pendula_pose *pose, int w, int h, pendula_rect r, marker_stats *st)
{
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
	cairo_t *cr = cairo_create(s);
	pendula_trail trail;
	pendula_trail_clear(&trail);
	pendula_trail_push(&trail, pose);
	pendula_trail_push(&trail, pose);
	pendula_draw_scene(cr, pose, &trail, r);
	cairo_destroy(cr);
	cairo_surface_flush(s);
	const unsigned char *data = cairo_image_surface_get_data(s);
	const int stride = cairo_image_surface_get_stride(s);
	double sx = 0.0, sy = 0.0;
	memset(st, 0, sizeof *st);
	for (int y = 0; y < h; ++y)
		for (int x = 0; x < w; ++x) {
			const uint32_t p =
			    *(const uint32_t *)(const void *)(data + (size_t)y * stride +
			                                      4 * (size_t)x);
			const int inside = x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h;
			if (!inside && (p >> 24) != 0)
				++st->outside;
			if (is_marker(p)) {
				sx += x + 0.5;
				sy += y + 0.5;
				++st->n;
			}
		}
	st->x = st->n ? sx / (double)st->n : -1.0;
	st->y = st->n ? sy / (double)st->n : -1.0;
	cairo_surface_destroy(s);
}

static int add_point(pendula_pose *pose, double x, double y, double z, pendula_point_kind kind,
                     int body)
{
	const int i = pose->n_points++;
	pose->point[i].p = (pendula_vec3){x, y, z};
	pose->point[i].kind = kind;
	pose->point[i].body = body;
	return i;
}

static void add_rod(pendula_pose *pose, int a, int b, pendula_rod_kind kind, int body)
{
	pose->rod[pose->n_rods++] = (pendula_pose_rod){a, b, kind, body};
}

/* Where the test expects the marker: its own projection and view rule. */
static void expected_px(const pendula_pose *pose, pendula_rect r, int three_d, double *ex,
                        double *ey)
{
	tg_geometry g;
	double cx, cy, scale;
	memset(&g, 0, sizeof g);
	g.reach = pose->reach;
	g.excursion =
	    (tg_point){pose->pivot_excursion.x, pose->pivot_excursion.y, pose->pivot_excursion.z};
	g.three_d = three_d;
	tg_view(&g, r.x, r.y, r.w, r.h, &cx, &cy, &scale);
	const pendula_vec3 m = pose->point[pose->marker].p;
	tg_project_px(&g, (tg_point){m.x, m.y, m.z}, cx, cy, scale, ex, ey);
}

/* A planar pose: a forced pivot, a hull, a bar and a point mass on a rod. */
static void planar_pose(pendula_pose *pose)
{
	memset(pose, 0, sizeof *pose);
	const int o = add_point(pose, 0.1, -0.05, 0.0, PENDULA_POINT_PIVOT, -1);
	const int g1 = add_point(pose, 0.15, -0.2, 0.0, PENDULA_POINT_BOB, 0);
	const int h2 = add_point(pose, -0.2, -0.1, 0.0, PENDULA_POINT_HINGE, 0);
	const int e2 = add_point(pose, -0.5, -0.3, 0.0, PENDULA_POINT_END, 1);
	const int c2 = add_point(pose, -0.35, -0.2, 0.0, PENDULA_POINT_BOB, 1);
	const int b3 = add_point(pose, 0.45, -0.55, 0.0, PENDULA_POINT_BOB, 2);
	pose->hull[0].pt[0] = o;
	pose->hull[0].pt[1] = g1;
	pose->hull[0].pt[2] = h2;
	pose->hull[0].n = 3;
	pose->n_hulls = 1;
	add_rod(pose, h2, e2, PENDULA_ROD_BAR, 1);
	add_rod(pose, g1, b3, PENDULA_ROD_THIN, 2);
	pose->marker = b3;
	pose->n_tips = 2;
	pose->tip[0] = c2;
	pose->tip[1] = b3;
	pose->reach = 0.8;
	pose->pivot_excursion = (pendula_vec3){0.1, 0.05, 0.0};
}

static void test_planar(void)
{
	pendula_pose pose;
	planar_pose(&pose);
	CHECK(!pendula_pose_is_3d(&pose), "a planar pose taken for 3-D");
	const pendula_rect sizes[] = {{10, 20, 280, 170}, {0, 0, 128, 128}, {5, 3, 57, 200}};
	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
		const pendula_rect r = sizes[i];
		marker_stats st;
		double ex, ey, px, py;
		draw_and_find(&pose, 300, 240, r, &st);
		expected_px(&pose, r, 0, &ex, &ey);
		pendula_pose_marker_px(&pose, r, &px, &py);
		const double d = hypot(st.x - ex, st.y - ey);
		printf("\n    planar in %gx%g+%g+%g: marker at (%.2f, %.2f), %ld px; expected "
		       "(%.2f, %.2f): %.2f px",
		       r.w, r.h, r.x, r.y, st.x, st.y, st.n, ex, ey, d);
		CHECK(st.n >= 8, "planar: marker not found (%ld pixels)", st.n);
		CHECK(d <= 1.0,
		      "planar: marker at (%.2f, %.2f), the projection puts it at (%.2f, %.2f)",
		      st.x, st.y, ex, ey);
		CHECK(hypot(px - ex, py - ey) < 1e-9,
		      "planar: pendula_pose_marker_px (%.3f, %.3f) vs (%.3f, %.3f)", px, py, ex,
		      ey);
		CHECK(st.outside == 0, "planar: %ld pixels drawn outside the rectangle",
		      st.outside);
	}

	/* a bob right under the marker: the marker is drawn last */
	const int under = add_point(&pose, 0.45, -0.55, 0.0, PENDULA_POINT_BOB, 3);
	(void)under;
	marker_stats st2;
	draw_and_find(&pose, 300, 240, sizes[0], &st2);
	CHECK(st2.n >= 8, "the marker is hidden by a bob drawn after it (%ld pixels)", st2.n);
}

/* A 3-D pose: two links off the plane, an ellipsoid and a curve. */
static void spatial_pose(pendula_pose *pose, int with_surface)
{
	memset(pose, 0, sizeof *pose);
	const int o = add_point(pose, 0.0, 0.05, 0.02, PENDULA_POINT_PIVOT, -1);
	const int b1 = add_point(pose, 0.3, -0.4, -0.35, PENDULA_POINT_BOB, 0);
	const int b2 = add_point(pose, 0.25, -0.6, 0.4, PENDULA_POINT_BOB, 1);
	add_rod(pose, o, b1, PENDULA_ROD_THIN, 0);
	add_rod(pose, b1, b2, PENDULA_ROD_THIN, 1);
	pose->marker = b2;
	pose->n_tips = 1;
	pose->tip[0] = b2;
	pose->reach = 1.0;
	pose->pivot_excursion = (pendula_vec3){0.05, 0.1, 0.08};
	pose->three_d = 1;
	if (with_surface == 1) {
		pose->surface.kind = PENDULA_SURFACE_ELLIPSOID;
		pose->surface.centre = (pendula_vec3){0.0, 0.05, 0.02};
		pose->surface.axis[0] = 0.3;
		pose->surface.axis[1] = 0.9;
		pose->surface.axis[2] = 0.6;
	} else if (with_surface == 2) {
		pose->surface.kind = PENDULA_SURFACE_CURVE;
		pose->surface.n = PENDULA_POSE_CURVE_PTS;
		for (int i = 0; i < PENDULA_POSE_CURVE_PTS; ++i) {
			const double x = -1.0 + 2.0 * i / (PENDULA_POSE_CURVE_PTS - 1.0);
			pose->surface.curve[i] = (pendula_vec3){x, 0.5 * x * x - 0.8, 0.0};
		}
	}
}

static void test_oblique(void)
{
	for (int surface = 0; surface < 3; ++surface) {
		pendula_pose pose;
		spatial_pose(&pose, surface);
		CHECK(pendula_pose_is_3d(&pose), "a 3-D pose taken for planar");
		const pendula_rect r = {0, 0, 256, 256};
		marker_stats st;
		double ex, ey;
		draw_and_find(&pose, 256, 256, r, &st);
		expected_px(&pose, r, 1, &ex, &ey);
		const double d = hypot(st.x - ex, st.y - ey);
		printf("\n    3-D (surface %d): marker at (%.2f, %.2f), %ld px; the oblique "
		       "projection puts it at (%.2f, %.2f): %.2f px",
		       surface, st.x, st.y, st.n, ex, ey, d);
		CHECK(st.n >= 8, "3-D: marker not found (%ld pixels)", st.n);
		CHECK(d <= 1.0,
		      "3-D: marker at (%.2f, %.2f), the projection puts it at (%.2f, %.2f)", st.x,
		      st.y, ex, ey);
	}

	/* Depth cue: the marker near the viewer is drawn larger than far away. */
	pendula_pose near_pose, far_pose;
	spatial_pose(&near_pose, 0);
	spatial_pose(&far_pose, 0);
	near_pose.point[near_pose.marker].p.z = 0.6;
	far_pose.point[far_pose.marker].p.z = -0.6;
	marker_stats sn, sf;
	draw_and_find(&near_pose, 256, 256, (pendula_rect){0, 0, 256, 256}, &sn);
	draw_and_find(&far_pose, 256, 256, (pendula_rect){0, 0, 256, 256}, &sf);
	printf("\n    marker near the viewer %ld px, far %ld px", sn.n, sf.n);
	CHECK(sn.n > sf.n * 1.2, "no depth cue: marker near %ld px, far %ld px", sn.n, sf.n);
}

static void test_top(void)
{
	pendula_pose pose;
	pendula_view v;
	double px, py;
	spatial_pose(&pose, 0);
	pendula_view_fit(&v, &pose, PENDULA_PROJ_TOP, (pendula_rect){0, 0, 200, 200});
	pendula_view_map(&v, (pendula_vec3){0.5, 0.3, 0.25}, &px, &py);
	CHECK(fabs(px - (v.cx + 0.5 * v.scale)) < 1e-9 && fabs(py - (v.cy + 0.25 * v.scale)) < 1e-9,
	      "TOP: (0.5, 0.3, 0.25) at (%.3f, %.3f), expected (%.3f, %.3f)", px, py,
	      v.cx + 0.5 * v.scale, v.cy + 0.25 * v.scale);
	pendula_view_fit(&v, &pose, PENDULA_PROJ_FRONT, (pendula_rect){0, 0, 200, 200});
	pendula_view_map(&v, (pendula_vec3){0.5, 0.3, 0.25}, &px, &py);
	CHECK(fabs(px - (v.cx + 0.5 * v.scale)) < 1e-9 && fabs(py - (v.cy - 0.3 * v.scale)) < 1e-9,
	      "FRONT: (0.5, 0.3, 0.25) at (%.3f, %.3f)", px, py);
}

static void test_fit(void)
{
	pendula_pose a, b;
	pendula_view va, vb;
	const pendula_rect r = {0, 0, 300, 200};
	planar_pose(&a);
	planar_pose(&b);
	for (int i = 0; i < b.n_points; ++i)
		b.point[i].p.x += 0.3;
	pendula_view_fit(&va, &a, PENDULA_PROJ_AUTO, r);
	pendula_view_fit(&vb, &b, PENDULA_PROJ_AUTO, r);
	CHECK(va.scale == vb.scale && va.cx == vb.cx && va.cy == vb.cy,
	      "the view breathes: scale %.4f vs %.4f", va.scale, vb.scale);
	b = a;
	b.reach *= 2.0;
	pendula_view_fit(&vb, &b, PENDULA_PROJ_AUTO, r);
	CHECK(vb.scale < va.scale, "a larger reach, scale %.4f vs %.4f", vb.scale, va.scale);
	b = a;
	b.pivot_excursion.y = 0.5;
	pendula_view_fit(&vb, &b, PENDULA_PROJ_AUTO, r);
	CHECK(vb.scale < va.scale, "a larger excursion, scale %.4f vs %.4f", vb.scale, va.scale);
}

int main(void)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	CU_pSuite suite = CU_add_suite("draw", NULL, NULL);
	if (!suite || !CU_add_test(suite, "planar", test_planar) ||
	    !CU_add_test(suite, "oblique", test_oblique) || !CU_add_test(suite, "top", test_top) ||
	    !CU_add_test(suite, "fit", test_fit))
		return 1;
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	const unsigned failures = CU_get_number_of_failures() + CU_get_number_of_suites_failed();
	const unsigned run = CU_get_number_of_tests_run();
	CU_cleanup_registry();
	printf("\ntest_draw: %u tests run, %u failures\n", run, failures);
	return failures || run == 0 ? 1 : 0;
}
