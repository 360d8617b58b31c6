/* SPDX-License-Identifier: ISC */
/*
 * Inline display (Ardour / Carla mixer strip): a miniature of the pendulum,
 * the model's own pose (pendula_pose_at) drawn by the drawing module (draw/)
 * into a plugin-owned cairo image surface.
 *
 * Threads: pendula_idpy_run() is called at the end of run() (real-time: it
 * copies the state into a lock-free triple buffer and may call the host's
 * queue_draw, at most ~30 times a second and only when the picture changed;
 * no allocation, lock or I/O).  pendula_idpy_render() is the host's render()
 * (non-real-time thread): it takes the latest state, (re)allocates its
 * surface when the size changes, and draws.  What only render() uses (the
 * picture, its trail) is allocated at its first call: an instance no host
 * draws keeps only the hand-over (docs/BENCHMARKS.md, "As a host wires
 * it").
 */
#ifndef PENDULA_INLINE_DISPLAY_H
#define PENDULA_INLINE_DISPLAY_H

#include "lv2_inline_display.h"
#include "pendula_engine.h"

#include <lv2/core/lv2.h>

#include <stdint.h>

typedef struct pendula_idpy pendula_idpy;

/* In instantiate(): finds the host's queue_draw among the features (optional:
 * without it render() still works).  NULL if out of memory (the plugin then
 * runs without an inline display). */
pendula_idpy *pendula_idpy_new(const LV2_Feature *const *features, double sample_rate);
void pendula_idpy_free(pendula_idpy *d);

/* In run(), after the block: the pose of the engine's last frame (the
 * settings the engine runs with, the model's pose function: no allocation,
 * bounded cost).  Real-time safe.  d may be NULL. */
void pendula_idpy_run(pendula_idpy *d, const pendula_engine *engine, uint32_t n_frames);

/* The host's render(w, max_h): a w x min(w, max_h) picture, or NULL. */
LV2_Inline_Display_Image_Surface *pendula_idpy_render(pendula_idpy *d, uint32_t w, uint32_t max_h);

#endif
