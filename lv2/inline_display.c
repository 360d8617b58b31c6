/* SPDX-License-Identifier: ISC */
/*
 * Inline display: see inline_display.h.
 *
 * run() -> render() hand-over is a triple buffer: run() fills its private
 * slot and swaps it with the shared middle slot (one atomic exchange, marked
 * fresh); render() swaps the middle slot with its own only when it is fresh.
 * Neither side ever waits for the other and each slot is touched by one
 * thread at a time.
 */
#include "inline_display.h"

#include "pendula_draw.h"

#include <cairo.h>

#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* At most this many queue_draw requests per second of audio. */
#define IDPY_MAX_FPS    30.0
/* Changes below these leave the picture as it is (no queue_draw). */
#define IDPY_MOVE_EPS   2e-3 /* a point's move, fraction of the reach */
#define IDPY_ENERGY_EPS 2e-3 /* normalised energy */
#define IDPY_MAX_SIZE   4096u

#define SLOT_FRESH 4u

/* run() must not take a lock: the hand-over has to be a lock-free atomic. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "atomic_uint is not lock-free on this platform");

/* What a picture shows: the model's pose and the energy. */
typedef struct {
	pendula_pose pose;
	double energy;
} idpy_state;

/* What run() hands over: the last frame and the settings in force;
 * render() computes the pose from them (the same pose run() would have
 * computed, at a fraction of run()'s cost and memory traffic: a pose is
 * about 2.6 kB). */
typedef struct {
	pendula_system sys;
	uint32_t serial; /* pendula_engine_settings_serial of sys (0: none yet) */
	pendula_frame frame;
} idpy_snap;

/* What only render() uses, allocated at its first call (in the host's
 * non-real-time thread): a host that never draws the plugin never pays for
 * the picture's memory. */
typedef struct {
	idpy_state shown; /* state of the last picture */
	idpy_state fresh; /* the state of the slot just taken */
	bool any_shown;
	pendula_trail trail;
	cairo_surface_t *surface;
	uint32_t w, h;
	LV2_Inline_Display_Image_Surface image;
} idpy_view;

struct pendula_idpy {
	/* host */
	LV2_Inline_Display *queue_draw; /* NULL: host without the feature */

	/* run() side (real-time thread) */
	uint32_t min_interval; /* frames between two queue_draw */
	uint32_t frames_since; /* frames since the last queue_draw */
	idpy_state queued;     /* the state of the last queue_draw */
	bool any_queued;
	unsigned back; /* slot run() writes */

	/* shared */
	idpy_snap slot[3];
	atomic_uint middle; /* slot index | SLOT_FRESH */

	/* render() side (non-real-time thread) */
	unsigned front;  /* slot render() reads */
	idpy_view *view; /* NULL until the first render() */
};

pendula_idpy *pendula_idpy_new(const LV2_Feature *const *features, double sample_rate)
{
	pendula_idpy *d = (pendula_idpy *)calloc(1, sizeof(pendula_idpy));
	if (!d)
		return NULL;
	for (int i = 0; features && features[i]; ++i)
		if (!strcmp(features[i]->URI, LV2_INLINEDISPLAY__queue_draw))
			d->queue_draw = (LV2_Inline_Display *)features[i]->data;
	if (d->queue_draw && !d->queue_draw->queue_draw)
		d->queue_draw = NULL;
	const double interval = ceil(sample_rate / IDPY_MAX_FPS);
	d->min_interval = interval >= 1.0 && interval < 4e9 ? (uint32_t)interval : 1u;
	d->frames_since = d->min_interval; /* the first picture may go at once */
	d->back = 0;
	atomic_init(&d->middle, 1u);
	d->front = 2;
	return d;
}

void pendula_idpy_free(pendula_idpy *d)
{
	if (!d)
		return;
	if (d->view && d->view->surface)
		cairo_surface_destroy(d->view->surface);
	free(d->view);
	free(d);
}

/* The picture of the engine's last frame: the model's own pose (in 3-D,
 * a moving surface as it is at the frame's time).  run() only copies the
 * fields of the frame the pose needs, and the settings when they changed
 * since this slot last had them (the slots take turns); render() computes
 * the pose. */
static void snap_from_engine(idpy_snap *s, const pendula_engine *engine)
{
	pendula_engine_last_pose(engine, &s->frame);
	const uint32_t serial = pendula_engine_settings_serial(engine);
	if (s->serial != serial) {
		s->sys = *pendula_engine_system(engine);
		s->serial = serial;
	}
}

static void state_from_snap(idpy_state *s, const idpy_snap *snap)
{
	const pendula_frame *f = &snap->frame;
	double q[PENDULA_MAX_DOF];
	pendula_frame_coords(&snap->sys, f, q);
	const pendula_vec3 pivot = {f->pivot_x, f->pivot_y, f->pivot_z};
	pendula_pose_at3(&snap->sys, q, pivot, f->wave_phase, &s->pose);
	s->energy = f->energy;
}

static bool vec_moved(pendula_vec3 a, pendula_vec3 b, double eps)
{
	return !(fabs(a.x - b.x) < eps) || !(fabs(a.y - b.y) < eps) || !(fabs(a.z - b.z) < eps);
}

/* Whether the picture of b differs visibly from that of a. */
static bool state_moved(const idpy_state *a, const idpy_state *b)
{
	const pendula_pose *p = &a->pose, *q = &b->pose;
	if (p->n_points != q->n_points || p->n_rods != q->n_rods || p->n_hulls != q->n_hulls ||
	    p->n_tips != q->n_tips || p->marker != q->marker || p->reach != q->reach ||
	    p->surface.kind != q->surface.kind || p->surface.n != q->surface.n ||
	    p->pivot_excursion.x != q->pivot_excursion.x ||
	    p->pivot_excursion.y != q->pivot_excursion.y ||
	    p->pivot_excursion.z != q->pivot_excursion.z)
		return true;
	const double eps = IDPY_MOVE_EPS * q->reach;
	for (int i = 0; i < q->n_points && i < PENDULA_POSE_MAX_POINTS; ++i)
		if (vec_moved(p->point[i].p, q->point[i].p, eps))
			return true;
	if (vec_moved(p->surface.centre, q->surface.centre, eps))
		return true;
	for (int i = 0; i < q->surface.n && i < PENDULA_POSE_CURVE_PTS; ++i)
		if (vec_moved(p->surface.curve[i], q->surface.curve[i], eps))
			return true;
	return !(fabs(a->energy - b->energy) < IDPY_ENERGY_EPS);
}

void pendula_idpy_run(pendula_idpy *d, const pendula_engine *engine, uint32_t n_frames)
{
	if (!d)
		return;
	/* Every block, so render() always shows the state of the last block.
	 * The slot is run()'s own until it is handed over below. */
	idpy_snap *now = &d->slot[d->back];
	snap_from_engine(now, engine);

	/* queue_draw: at most IDPY_MAX_FPS per second, only for a change. */
	if (d->frames_since < d->min_interval)
		d->frames_since += n_frames < d->min_interval ? n_frames : d->min_interval;
	bool draw = false;
	idpy_state state; /* (on the stack: only this test needs it) */
	if (d->queue_draw && d->frames_since >= d->min_interval) {
		state_from_snap(&state, now);
		draw = !d->any_queued || state_moved(&d->queued, &state);
	}
	if (draw) {
		d->queued = state;
		d->any_queued = true;
		d->frames_since = 0;
	}
	const unsigned old =
	    atomic_exchange_explicit(&d->middle, d->back | SLOT_FRESH, memory_order_acq_rel);
	d->back = old & 3u;
	if (draw)
		d->queue_draw->queue_draw(d->queue_draw->handle);
}

LV2_Inline_Display_Image_Surface *pendula_idpy_render(pendula_idpy *d, uint32_t w, uint32_t max_h)
{
	if (!d || w < 1 || max_h < 1)
		return NULL;
	if (w > IDPY_MAX_SIZE)
		w = IDPY_MAX_SIZE;
	const uint32_t h = w < max_h ? w : (max_h < IDPY_MAX_SIZE ? max_h : IDPY_MAX_SIZE);

	if (!d->view) {
		d->view = (idpy_view *)calloc(1, sizeof(idpy_view));
		if (!d->view)
			return NULL;
		pendula_trail_clear(&d->view->trail);
	}
	idpy_view *v = d->view;
	if (!v->surface || v->w != w || v->h != h) {
		if (v->surface)
			cairo_surface_destroy(v->surface);
		v->surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)w, (int)h);
		if (cairo_surface_status(v->surface) != CAIRO_STATUS_SUCCESS) {
			cairo_surface_destroy(v->surface);
			v->surface = NULL;
			return NULL;
		}
		v->w = w;
		v->h = h;
	}

	/* The latest state from run(), if there is a new one. */
	if (atomic_load_explicit(&d->middle, memory_order_acquire) & SLOT_FRESH) {
		const unsigned old =
		    atomic_exchange_explicit(&d->middle, d->front, memory_order_acq_rel);
		d->front = old & 3u;
		idpy_state *s = &v->fresh;
		state_from_snap(s, &d->slot[d->front]);
		if (!v->any_shown || state_moved(&v->shown, s))
			pendula_trail_push(&v->trail, &s->pose);
		v->shown = *s;
		v->any_shown = true;
	}
	if (!v->any_shown)
		return NULL; /* run() has not run yet */

	cairo_t *cr = cairo_create(v->surface);
	pendula_draw_inline(cr, &v->shown.pose, &v->trail, v->shown.energy, (double)w, (double)h);
	cairo_destroy(cr);
	cairo_surface_flush(v->surface);

	v->image.data = cairo_image_surface_get_data(v->surface);
	v->image.width = (int)w;
	v->image.height = (int)h;
	v->image.stride = cairo_image_surface_get_stride(v->surface);
	return &v->image;
}
