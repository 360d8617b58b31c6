/* SPDX-License-Identifier: ISC */
/*
 * The drawing module: any model's pose (engine/pendula_pose.h) drawn
 * to scale with cairo into any cairo_t.  The plugin UI (an X11 window), the
 * inline display of the mixer strip (an image surface), the render tool's
 * plane view and the tests all use it.  Pure cairo and C: no X, no LV2, no
 * engine, no model; whatever differs between models comes from the pose.
 *
 * Projections (world: metres, x right, y up, z toward the viewer; screen:
 * sx right, sy up, before the view's scale and flip):
 *   FRONT    sx = x, sy = y (the plane z = 0 face on: the planar models)
 *   TOP      sx = x, sy = -z (seen from above, the viewer at the bottom)
 *   OBLIQUE  the world turned by the yaw PENDULA_OBLIQUE_YAW about the
 *            vertical, then seen from PENDULA_OBLIQUE_PITCH above the
 *            horizon (orthographic):
 *              xr = x cos(yaw) + z sin(yaw),  zr = z cos(yaw) - x sin(yaw)
 *              sx = xr,  sy = y cos(pitch) - zr sin(pitch)
 *              depth (toward the viewer) = zr cos(pitch) + y sin(pitch)
 *            Nearer points are drawn larger and lighter, farther ones
 *            smaller and darker, back to front; a ring at the pivot's
 *            height shows the horizontal plane.
 * AUTO picks OBLIQUE for a 3-D pose (pose.three_d, or any z != 0), else FRONT.
 *
 * The view: the pivot's rest position (the world origin) at the centre of
 * the rectangle; the scale fits a sphere of radius pose.reach around every
 * pivot position within pose.pivot_excursion, leaving the bob radius + 2 px
 * free at the edges; it depends on the pose's geometry only, not on where
 * the bodies are, so the drawing is to scale and does not breathe.
 * Screen pixel of a world point: px = cx + scale sx, py = cy - scale sy.
 *
 * The marker: the pose's marker point is drawn LAST as a flat opaque disc of
 * the pure colour PENDULA_MARKER_RGB (#ff7f00), so tests find it by colour;
 * no other element uses a colour near it.
 */
#ifndef PENDULA_DRAW_H
#define PENDULA_DRAW_H

#include "pendula_pose.h"

#include <cairo.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The marker's colour, 0xRRGGBB (and as cairo components). */
#define PENDULA_MARKER_RGB 0xff7f00
#define PENDULA_MARKER_R   (255.0 / 255.0)
#define PENDULA_MARKER_G   (127.0 / 255.0)
#define PENDULA_MARKER_B   (0.0 / 255.0)

#define PENDULA_OBLIQUE_YAW   (30.0 * 3.14159265358979323846 / 180.0)
#define PENDULA_OBLIQUE_PITCH (20.0 * 3.14159265358979323846 / 180.0)

typedef enum {
	PENDULA_PROJ_AUTO,
	PENDULA_PROJ_FRONT,
	PENDULA_PROJ_TOP,
	PENDULA_PROJ_OBLIQUE,
} pendula_projection;

typedef struct {
	double x, y, w, h;
} pendula_rect;

/* Whether a pose is drawn in 3-D (pose.three_d, or a point off z = 0). */
int pendula_pose_is_3d(const pendula_pose *pose);

/* World point -> screen-plane metres (sx right, sy up) and depth (toward
 * the viewer).  proj must not be AUTO. */
void pendula_project(pendula_projection proj, pendula_vec3 p, double *sx, double *sy,
                     double *depth);

/* Metres -> pixels for a pose in a rectangle (see above). */
typedef struct {
	pendula_projection proj; /* never AUTO */
	double cx, cy, scale;    /* pixel of the world origin, pixels per metre */
	double bob_r;            /* radius of a bob (px) */
	double reach;            /* pose.reach (m), for the depth cues */
} pendula_view;

void pendula_view_fit(pendula_view *v, const pendula_pose *pose, pendula_projection proj,
                      pendula_rect r);
void pendula_view_map(const pendula_view *v, pendula_vec3 p, double *px, double *py);

/* Where the marker's centre is drawn (pixels) for the pose drawn into r. */
void pendula_pose_marker_px(const pendula_pose *pose, pendula_rect r, double *px, double *py);

/* A fading trail of the pose's tips (world metres). */
#define PENDULA_TRAIL_LEN 96
typedef struct {
	pendula_vec3 p[PENDULA_POSE_MAX_TIPS][PENDULA_TRAIL_LEN];
	int head;   /* index of the newest point */
	int count;  /* points held */
	int n_tips; /* tips of the pose the points belong to */
} pendula_trail;

void pendula_trail_clear(pendula_trail *t);
/* Appends the pose's tip positions (restarts when the number of tips changes). */
void pendula_trail_push(pendula_trail *t, const pendula_pose *pose);

/* Background, reach, forcing path, trail, bodies, bobs and pivot, to scale
 * in the rectangle (AUTO projection).  trail may be NULL.  Draws inside the
 * rectangle only. */
void pendula_draw_scene(cairo_t *cr, const pendula_pose *pose, const pendula_trail *trail,
                        pendula_rect r);
/* The same in a given view, without the background (the render tool). */
void pendula_draw_pose(cairo_t *cr, const pendula_view *v, const pendula_pose *pose,
                       const pendula_trail *trail, pendula_rect clip);
/* A pose as dashed outlines (e.g. the initial pose while a body is dragged). */
void pendula_draw_ghost(cairo_t *cr, const pendula_view *v, const pendula_pose *pose,
                        pendula_rect clip, double r, double g, double b, double alpha);
/* A long path (e.g. a tip over a whole render), older parts fainter. */
void pendula_draw_path(cairo_t *cr, const pendula_view *v, const pendula_vec3 *pts, long n,
                       unsigned rgb, double width);
/* The colour of tip k's trail, 0xRRGGBB. */
unsigned pendula_tip_colour(int k);

/* Vertical energy meter: 0 at the bottom, the full bar is energy 2, with a
 * tick at 1 (just enough to reach the top). */
void pendula_draw_energy(cairo_t *cr, double energy, pendula_rect r);

/* The inline display: scene + a thin energy meter at the right edge. */
pendula_rect pendula_inline_scene_rect(double w, double h);
void pendula_draw_inline(cairo_t *cr, const pendula_pose *pose, const pendula_trail *trail,
                         double energy, double w, double h);

/* ---- The plugin UI's layout (shared with the tests) ---- */

#define PENDULA_UI_WIDTH       480
#define PENDULA_UI_HEIGHT      600
#define PENDULA_UI_MIN_WIDTH   320
#define PENDULA_UI_MIN_HEIGHT  400
#define PENDULA_UI_MAX_SLIDERS 12
#define PENDULA_UI_MEM_SLOTS   8

typedef struct {
	pendula_rect scene;                          /* the pendulum */
	pendula_rect meter;                          /* energy meter, right of the scene */
	int n_sliders;                               /* rows below the scene */
	pendula_rect slider[PENDULA_UI_MAX_SLIDERS]; /* whole row: label, track, value */
	pendula_rect track[PENDULA_UI_MAX_SLIDERS];  /* the part that is dragged */
	int level_row;                               /* the row with a level meter, or -1 */
	pendula_rect level;                          /* that meter, right of its track */
	pendula_rect reset;                          /* reset button (bottom row) */
	pendula_rect slot[PENDULA_UI_MEM_SLOTS];     /* memory slot buttons, right of it */
	pendula_rect store, recall;                  /* memory buttons, at the right end */
	pendula_rect hint; /* help text, the scene's bottom line (h 0: none) */
} pendula_layout;

void pendula_layout_compute(pendula_layout *lay, double w, double h, int n_sliders);
/* Gives slider row `row` a level meter: its track shortens to make room. */
void pendula_layout_level_row(pendula_layout *lay, int row);

#ifdef __cplusplus
}
#endif
#endif
