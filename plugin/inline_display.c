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

#include "draw.h"

#include <cairo.h>

#include <math.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* At most this many queue_draw requests per second of audio. */
#define IDPY_MAX_FPS    30.0
/* Changes below these leave the picture as it is (no queue_draw). */
#define IDPY_ANGLE_EPS  2e-3 /* rad */
#define IDPY_PIVOT_EPS  1e-3 /* fraction of the reach */
#define IDPY_ENERGY_EPS 2e-3 /* normalised energy */
#define IDPY_MAX_SIZE   4096u

#define SLOT_FRESH 4u

/* run() must not take a lock: the hand-over has to be a lock-free atomic. */
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "atomic_uint is not lock-free on this platform");

struct pendula_idpy {
	/* host */
	LV2_Inline_Display *queue_draw; /* NULL: host without the feature */

	/* run() side (real-time thread) */
	uint32_t min_interval; /* frames between two queue_draw */
	uint32_t frames_since; /* frames since the last queue_draw */
	pendula_scene queued;  /* the state of the last queue_draw */
	bool any_queued;
	unsigned back; /* slot run() writes */

	/* shared */
	pendula_scene slot[3];
	atomic_uint middle; /* slot index | SLOT_FRESH */

	/* render() side (non-real-time thread) */
	unsigned front;      /* slot render() reads */
	pendula_scene shown; /* state of the last picture */
	bool any_shown;
	pendula_trail trail;
	cairo_surface_t *surface;
	uint32_t w, h;
	LV2_Inline_Display_Image_Surface image;
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
	pendula_trail_clear(&d->trail);
	return d;
}

void pendula_idpy_free(pendula_idpy *d)
{
	if (!d)
		return;
	if (d->surface)
		cairo_surface_destroy(d->surface);
	free(d);
}

/* The drawing's view of the engine: geometry from the settings, angles,
 * pivot and energy from the last frame. */
static void scene_from_engine(pendula_scene *s, const pendula_engine *engine,
                              const pendula_params *p)
{
	pendula_frame f;
	pendula_engine_last(engine, &f);
	memset(s, 0, sizeof *s);
	s->parallel = p->model == PENDULA_MODEL_PARALLEL;
	s->n_bodies = s->parallel ? p->n_bodies : 2;
	s->l[0] = p->l[0];
	s->l[1] = p->l[1];
	for (int k = 0; k < PENDULA_SCENE_MAX_BODIES && k < PENDULA_MAX_BODIES; ++k) {
		s->m[k] = p->m[k];
		s->c[k] = p->c[k];
		s->b[k] = p->b[k];
		s->beta[k] = p->beta[k];
		s->theta[k] = f.theta[k];
	}
	s->pivot_x_amp = p->pivot_x_amp;
	s->pivot_y_amp = p->pivot_y_amp;
	s->pivot_x = f.pivot_x;
	s->pivot_y = f.pivot_y;
	s->energy = f.energy;
}

/* Angle difference, wrapped (a wrapped angle jumping by 2 pi did not move). */
static double angle_moved(double a, double b)
{
	double d = fmod(fabs(a - b), 2.0 * 3.14159265358979323846);
	return d > 3.14159265358979323846 ? 2.0 * 3.14159265358979323846 - d : d;
}

/* Whether the picture of b differs visibly from that of a. */
static bool scene_moved(const pendula_scene *a, const pendula_scene *b)
{
	if (a->parallel != b->parallel || a->n_bodies != b->n_bodies || a->l[0] != b->l[0] ||
	    a->l[1] != b->l[1] || a->pivot_x_amp != b->pivot_x_amp ||
	    a->pivot_y_amp != b->pivot_y_amp)
		return true;
	const int n = b->parallel ? b->n_bodies : 2;
	for (int k = 0; k < n && k < PENDULA_SCENE_MAX_BODIES; ++k)
		if (a->m[k] != b->m[k] || a->c[k] != b->c[k] || a->b[k] != b->b[k] ||
		    a->beta[k] != b->beta[k] ||
		    !(angle_moved(a->theta[k], b->theta[k]) < IDPY_ANGLE_EPS))
			return true;
	const double eps = IDPY_PIVOT_EPS * pendula_scene_reach(b);
	return !(fabs(a->pivot_x - b->pivot_x) < eps) || !(fabs(a->pivot_y - b->pivot_y) < eps) ||
	       !(fabs(a->energy - b->energy) < IDPY_ENERGY_EPS);
}

void pendula_idpy_run(pendula_idpy *d, const pendula_engine *engine, const pendula_params *params,
                      uint32_t n_frames)
{
	if (!d)
		return;
	/* Every block, so render() always shows the state of the last block. */
	pendula_scene now;
	scene_from_engine(&now, engine, params);
	d->slot[d->back] = now;
	const unsigned old =
	    atomic_exchange_explicit(&d->middle, d->back | SLOT_FRESH, memory_order_acq_rel);
	d->back = old & 3u;

	/* queue_draw: at most IDPY_MAX_FPS per second, only for a change. */
	if (d->frames_since < d->min_interval)
		d->frames_since += n_frames < d->min_interval ? n_frames : d->min_interval;
	if (!d->queue_draw || d->frames_since < d->min_interval)
		return;
	if (d->any_queued && !scene_moved(&d->queued, &now))
		return;
	d->queued = now;
	d->any_queued = true;
	d->frames_since = 0;
	d->queue_draw->queue_draw(d->queue_draw->handle);
}

LV2_Inline_Display_Image_Surface *pendula_idpy_render(pendula_idpy *d, uint32_t w, uint32_t max_h)
{
	if (!d || w < 1 || max_h < 1)
		return NULL;
	if (w > IDPY_MAX_SIZE)
		w = IDPY_MAX_SIZE;
	const uint32_t h = w < max_h ? w : (max_h < IDPY_MAX_SIZE ? max_h : IDPY_MAX_SIZE);

	if (!d->surface || d->w != w || d->h != h) {
		if (d->surface)
			cairo_surface_destroy(d->surface);
		d->surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)w, (int)h);
		if (cairo_surface_status(d->surface) != CAIRO_STATUS_SUCCESS) {
			cairo_surface_destroy(d->surface);
			d->surface = NULL;
			return NULL;
		}
		d->w = w;
		d->h = h;
	}

	/* The latest state from run(), if there is a new one. */
	if (atomic_load_explicit(&d->middle, memory_order_acquire) & SLOT_FRESH) {
		const unsigned old =
		    atomic_exchange_explicit(&d->middle, d->front, memory_order_acq_rel);
		d->front = old & 3u;
		const pendula_scene *s = &d->slot[d->front];
		if (!d->any_shown || scene_moved(&d->shown, s))
			pendula_trail_push(&d->trail, s);
		d->shown = *s;
		d->any_shown = true;
	}
	if (!d->any_shown)
		return NULL; /* run() has not run yet */

	cairo_t *cr = cairo_create(d->surface);
	pendula_draw_inline(cr, &d->shown, &d->trail, (double)w, (double)h);
	cairo_destroy(cr);
	cairo_surface_flush(d->surface);

	d->image.data = cairo_image_surface_get_data(d->surface);
	d->image.width = (int)w;
	d->image.height = (int)h;
	d->image.stride = cairo_image_surface_get_stride(d->surface);
	return &d->image;
}
