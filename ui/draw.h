/* SPDX-License-Identifier: ISC */
/*
 * The pendulum scene, drawn to scale with cairo into any cairo_t: the plugin
 * UI (ui/pendula_ui.c, an X11 window), the inline display of the mixer strip
 * (plugin/inline_display.c, an image surface) and the tests all use it.
 * Pure cairo and C: no X, no LV2, no engine.
 *
 * Conventions (README.md): angles from the downward vertical, positive toward
 * +x; y up.  A point at distance l on body k is at (l sin th_k, -l cos th_k)
 * from its hinge.  Parallel model: body 1 hangs on the pivot O1 with its
 * centre of mass G1 at distance c1; the hinge of body k is
 * O_k = b_k (sin(th1 + beta_k), -cos(th1 + beta_k)) from O1, and body k's
 * centre of mass is O_k + c_k (sin th_k, -cos th_k).
 *
 * The marker: ONE bob is drawn in the pure colour PENDULA_MARKER_RGB
 * (#ff7f00, opaque, flat, drawn last), so tests find it by colour:
 *   double    bob 2 (the tip)
 *   parallel  the centre of mass of body 2 (of body 1 when N = 1)
 * No other element of the scene uses a colour near it.
 */
#ifndef PENDULA_DRAW_H
#define PENDULA_DRAW_H

#include <cairo.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PENDULA_SCENE_MAX_BODIES 4

/* The marker bob's colour, 0xRRGGBB (and as cairo components). */
#define PENDULA_MARKER_RGB 0xff7f00
#define PENDULA_MARKER_R   (255.0 / 255.0)
#define PENDULA_MARKER_G   (127.0 / 255.0)
#define PENDULA_MARKER_B   (0.0 / 255.0)

/* What is drawn: the model, its geometry and its current state (SI units,
 * radians).  Plain data, so a plugin can copy it between threads. */
typedef struct {
	int parallel; /* 0: double pendulum, 1: parallel ("Chaos Man") */
	int n_bodies; /* parallel: 1..4; double: 2 */
	double l[2];  /* double: rod lengths l1, l2 (m) */
	/* masses (kg) */
	double m[PENDULA_SCENE_MAX_BODIES];
	/* parallel: hinge -> centre of mass of body k (m) */
	double c[PENDULA_SCENE_MAX_BODIES];
	/* parallel: |O1 O_k| (m) and angle G1 O1 O_k (rad), k >= 2 ([0] unused) */
	double b[PENDULA_SCENE_MAX_BODIES];
	double beta[PENDULA_SCENE_MAX_BODIES];
	/* forcing amplitudes Delta_x, Delta_y (m) */
	double pivot_x_amp, pivot_y_amp;
	/* the state: angles (rad), where the forcing puts the pivot now (m),
	 * normalised energy (0 at rest, 1 just reaches the top) */
	double theta[PENDULA_SCENE_MAX_BODIES];
	double pivot_x, pivot_y;
	double energy;
} pendula_scene;

typedef struct {
	double x, y;
} pendula_xy;

/* The scene's points in metres (world frame: y up, the pivot's rest position
 * at the origin). */
typedef struct {
	int n;            /* bodies drawn */
	int marker;       /* index of the marker bob in bob[] */
	pendula_xy pivot; /* O1, displaced by the forcing */
	/* hinge of body k (hinge[0] = the pivot) */
	pendula_xy hinge[PENDULA_SCENE_MAX_BODIES];
	/* double: bob k; parallel: centre of mass of body k */
	pendula_xy bob[PENDULA_SCENE_MAX_BODIES];
	/* far end of rod k / arm k (parallel arms: hinge + 2 c_k along the arm) */
	pendula_xy end[PENDULA_SCENE_MAX_BODIES];
} pendula_scene_points;

/* Fills the pose from the scene (angles, pivot, geometry). */
void pendula_scene_pose(const pendula_scene *s, pendula_scene_points *p);
/* Farthest any drawn point can get from the pivot, over all angles (m). */
double pendula_scene_reach(const pendula_scene *s);

/* Metres -> pixels for a scene in a rectangle: px = cx + scale x,
 * py = cy - scale y.  Depends on the geometry and the forcing amplitudes, not
 * on the angles, so the drawing is to scale and does not breathe. */
typedef struct {
	double cx, cy, scale;
	double bob_r; /* radius of the bobs (px) */
} pendula_view;

void pendula_view_fit(pendula_view *v, const pendula_scene *s, double x, double y, double w,
                      double h);
void pendula_view_map(const pendula_view *v, pendula_xy m, double *px, double *py);
pendula_xy pendula_view_unmap(const pendula_view *v, double px, double py);

/* Where the marker bob's centre is drawn (pixels), for a scene drawn into
 * the rectangle (x, y, w, h). */
void pendula_scene_marker_px(const pendula_scene *s, double x, double y, double w, double h,
                             double *px, double *py);

/* A fading trail of the tip(s): bob 2 (double), the centres of mass of the
 * arms k >= 2 (parallel; body 1's when N = 1).  World metres. */
#define PENDULA_TRAIL_LEN  96
#define PENDULA_TRAIL_TIPS 3
typedef struct {
	pendula_xy p[PENDULA_TRAIL_TIPS][PENDULA_TRAIL_LEN];
	int head;   /* index of the newest point */
	int count;  /* points held */
	int n_tips; /* tips of the scene the points belong to */
} pendula_trail;

void pendula_trail_clear(pendula_trail *t);
/* Appends the scene's tip positions (restarts the trail when the number of
 * tips changes). */
void pendula_trail_push(pendula_trail *t, const pendula_scene *s);

/* Background, forcing path, trail, bodies, bobs and pivot, to scale in the
 * rectangle.  trail may be NULL.  Draws inside the rectangle only. */
void pendula_draw_scene(cairo_t *cr, const pendula_scene *s, const pendula_trail *trail, double x,
                        double y, double w, double h);
/* The initial pose (e.g. while a bob is dragged): dashed outlines, in the
 * same view as pendula_draw_scene of the same geometry and rectangle. */
void pendula_draw_ghost(cairo_t *cr, const pendula_scene *s, double x, double y, double w,
                        double h);
/* Vertical energy meter: 0 at the bottom, the full bar is energy 2, with a
 * tick at 1 (just enough to reach the top). */
void pendula_draw_energy(cairo_t *cr, double energy, double x, double y, double w, double h);

/* The inline display: scene + a thin energy meter at the right edge. */
void pendula_inline_scene_rect(double w, double h, double *sx, double *sy, double *sw, double *sh);
void pendula_draw_inline(cairo_t *cr, const pendula_scene *s, const pendula_trail *trail, double w,
                         double h);

/* ---- The plugin UI's layout (shared with the tests) ---- */

#define PENDULA_UI_WIDTH      480
#define PENDULA_UI_HEIGHT     600
#define PENDULA_UI_MIN_WIDTH  320
#define PENDULA_UI_MIN_HEIGHT 400
#define PENDULA_UI_N_SLIDERS  7

typedef struct {
	double x, y, w, h;
} pendula_rect;

typedef struct {
	pendula_rect scene;                        /* the pendulum */
	pendula_rect meter;                        /* energy meter, right of the scene */
	pendula_rect slider[PENDULA_UI_N_SLIDERS]; /* whole row: label, track, value */
	pendula_rect track[PENDULA_UI_N_SLIDERS];  /* the part that is dragged */
	pendula_rect reset;                        /* reset button */
	pendula_rect hint;                         /* help text, right of the reset button */
} pendula_layout;

void pendula_layout_compute(pendula_layout *lay, double w, double h);

#ifdef __cplusplus
}
#endif
#endif
