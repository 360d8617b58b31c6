/* SPDX-License-Identifier: ISC */
/*
 * Freeze (docs/GUIDE.md): while `freeze` is on, simulated time stops.  The
 * engine, the chunk grid and the smoothers stand still, every signal output
 * holds its last frame's value and the control outputs keep theirs; MIDI
 * still passes through and the sounding notes end.  On release the motion
 * resumes exactly where it stopped: the frames after a freeze of N frames
 * are those of the run without it, N frames later.
 *
 * Why a part of its own: a frozen block runs none of the engine's path, and
 * what the outputs show meanwhile is a rule of its own; this part says when
 * the plugin is frozen and writes the held outputs.  The glue's run() hands
 * a frozen block here after the MIDI input has been passed through.
 */
#ifndef PENDULA_LV2_FREEZE_H
#define PENDULA_LV2_FREEZE_H

#include "ports.h"
#include "routing.h"

#include <stdbool.h>
#include <stdint.h>

/* Whether the block is frozen (control: the clamped controls by port id). */
static inline bool pendula_freeze_on(const float *control)
{
	return control[P_FREEZE] >= 0.5f;
}

/* The outputs of a frozen block of n_samples frames: every signal output
 * holds its last value, except flips and swings, whose pulse ends. */
void pendula_freeze_hold(pendula_routing *r, void *const *port, uint32_t n_samples);

#endif
