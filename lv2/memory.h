/* SPDX-License-Identifier: ISC */
/*
 * Memories (docs/GUIDE.md, "Memories"): eight slots that each hold a motion
 * (pendula_engine_motion_save: state, step, simulated time, so the forcing
 * phases come back too), stored and recalled at a frame.  A recall with a
 * glide cross-fades the outputs from the old motion, which runs on in a
 * second engine for the glide's length, to the recalled one, so a recall
 * never clicks; with no glide the outputs replay the stored motion exactly.
 *
 * Why a part of its own: the slots, the second engine and the fade are
 * state no other part reads; the glue says when to store and recall (the
 * mem_* controls and notes) and hands each span's outputs here to fade.
 * Everything is allocated by pendula_memory_init; store, recall and the
 * fade are bounded copies and arithmetic, real-time safe.
 */
#ifndef PENDULA_LV2_MEMORY_H
#define PENDULA_LV2_MEMORY_H

#include "chunk.h"
#include "pendula_engine.h"

#include <stdbool.h>
#include <stdint.h>

#define PENDULA_MEMORY_SLOTS 8

typedef struct {
	unsigned long motion_bytes;
	uint8_t *slot[PENDULA_MEMORY_SLOTS]; /* motions (motion_bytes each) */
	uint8_t *scratch;                    /* one more, for a recall's old motion */
	uint8_t valid;                       /* bit k: slot k holds a motion */
	pendula_engine *old;                 /* the old motion during a glide */
	uint32_t glide_len, glide_done;      /* frames; done == len: no glide */
	float old_out[PENDULA_N_CHANNELS][PENDULA_CHUNK];
} pendula_memory;

/* Allocates the slots and the glide engine (instantiate()); false if out
 * of memory.  p: any settings of the plugin's model. */
bool pendula_memory_init(pendula_memory *m, double sample_rate, const pendula_params *p);
void pendula_memory_free(pendula_memory *m);

/* Slot k (0-based) takes the engine's motion at its next frame. */
void pendula_memory_store(pendula_memory *m, const pendula_engine *e, int k);
/* The engine takes slot k's motion at its next frame (nothing if empty);
 * with glide_frames > 0 the outputs fade from the old motion, which goes
 * on under the settings p.  True if a motion was recalled. */
bool pendula_memory_recall(pendula_memory *m, pendula_engine *e, int k, uint32_t glide_frames,
                           const pendula_params *p);

/* Whether a glide is under way. */
static inline bool pendula_memory_gliding(const pendula_memory *m)
{
	return m->glide_done < m->glide_len;
}

/* A glide under way ends (a reset or activate() starts a new motion). */
static inline void pendula_memory_end_glide(pendula_memory *m)
{
	m->glide_len = m->glide_done = 0;
}

/* After the engine wrote n frames into out: the old motion's n frames,
 * faded into them (each distinct buffer once; the pulses are left). */
void pendula_memory_glide(pendula_memory *m, const pendula_outputs *out, uint32_t n);

/* The state of the memories as it is saved (lv2/state.c): the slots, and a
 * glide under way with its old motion. */
void pendula_memory_glide_save(const pendula_memory *m, void *motion, uint32_t *len,
                               uint32_t *done);
void pendula_memory_glide_load(pendula_memory *m, const void *motion, uint32_t len, uint32_t done,
                               const pendula_params *p);

#endif
