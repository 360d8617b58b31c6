/* SPDX-License-Identifier: ISC */
/*
 * A pose: what a model looks like at one instant, as plain geometry in
 * metres (x right, y up, z toward the viewer; the planar models live in
 * z = 0).  Every model fills one (pendula_model_pose()); the drawing module
 * (draw/) turns any pose into a picture without knowing the model, and the
 * UI, the inline display, the render tool and the tests all use it.
 *
 * Plain C, no dependency at all: a UI or a test can include it alone.
 */
#ifndef PENDULA_POSE_H
#define PENDULA_POSE_H

#ifdef __cplusplus
extern "C" {
#endif

#define PENDULA_POSE_MAX_POINTS   16
#define PENDULA_POSE_MAX_RODS     16
#define PENDULA_POSE_MAX_HULLS    2
#define PENDULA_POSE_MAX_HULL_PTS 8
#define PENDULA_POSE_MAX_TIPS     4
#define PENDULA_POSE_MAX_HANDLES  6
#define PENDULA_POSE_CURVE_PTS    64

typedef struct {
	double x, y, z;
} pendula_vec3;

typedef enum {
	PENDULA_POINT_PIVOT, /* the (forced) pivot O1 */
	PENDULA_POINT_HINGE, /* a joint that carries no mass of its own */
	PENDULA_POINT_BOB,   /* a point mass, or the centre of mass of a body */
	PENDULA_POINT_END,   /* the free end of a bar (drawn as the bar's end only) */
} pendula_point_kind;

typedef struct {
	pendula_vec3 p;
	pendula_point_kind kind;
	int body; /* 0-based body / link the point belongs to (-1: none) */
} pendula_pose_point;

typedef enum {
	PENDULA_ROD_THIN, /* a massless rod */
	PENDULA_ROD_BAR,  /* a rigid body's bar (uniform rod, arm of a body) */
} pendula_rod_kind;

typedef struct {
	int a, b; /* point indices */
	pendula_rod_kind kind;
	int body;
} pendula_pose_rod;

/* A rigid body drawn as a filled polygon through some of the points. */
typedef struct {
	int n;
	int pt[PENDULA_POSE_MAX_HULL_PTS];
	int body;
} pendula_pose_hull;

typedef enum {
	PENDULA_SURFACE_NONE,
	PENDULA_SURFACE_ELLIPSOID, /* centre, semi-axes */
	PENDULA_SURFACE_CURVE,     /* a polyline (e.g. a moving floor) */
} pendula_surface_kind;

typedef struct {
	pendula_surface_kind kind;
	pendula_vec3 centre;
	double axis[3];
	int n; /* curve points */
	pendula_vec3 curve[PENDULA_POSE_CURVE_PTS];
} pendula_pose_surface;

/* A body the user can drag to set its initial angle: the angle of the line
 * from `hinge` to the dragged point `handle`, measured like theta
 * (docs/MODELS.md), is the body's angle plus `offset`. */
typedef struct {
	int hinge, handle;
	double offset; /* rad */
} pendula_pose_handle;

typedef struct {
	int n_points, n_rods, n_hulls;
	pendula_pose_point point[PENDULA_POSE_MAX_POINTS];
	pendula_pose_rod rod[PENDULA_POSE_MAX_RODS];
	pendula_pose_hull hull[PENDULA_POSE_MAX_HULLS];
	pendula_pose_surface surface;
	int marker; /* the one point drawn in the marker colour (tests find it) */
	int n_tips; /* points whose paths the trails follow */
	int tip[PENDULA_POSE_MAX_TIPS];
	int n_handles; /* handle[k]: body k's drag handle */
	pendula_pose_handle handle[PENDULA_POSE_MAX_HANDLES];
	/* Farthest any point can get from the pivot over all configurations,
	 * and the pivot's excursion from rest per axis (m): with them a view
	 * fits the whole motion and does not breathe. */
	double reach;
	pendula_vec3 pivot_excursion;
	/* Non-zero for a model that moves in 3-D: the drawing then shows z
	 * (an oblique view, depth cues) even while the motion happens to stay
	 * in z = 0.  0 (the planar models): the x-y plane, face on. */
	int three_d;
} pendula_pose;

#ifdef __cplusplus
}
#endif
#endif
