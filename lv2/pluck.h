/* SPDX-License-Identifier: ISC */
/*
 * Pluck (docs/GUIDE.md, "Plucking it"): a MIDI note-on on the control input
 * kicks the motion at its frame so that its energy rises by pluck_energy x
 * velocity / 127 (normalised energy, the unit of the energy output).  The
 * notes that recall memories (mem_note .. mem_note + 7) do not pluck, nor
 * does a note-on of velocity 0 (a note-off).  The MIDI itself still passes
 * through unchanged.
 *
 * Why a part of its own: which messages pluck, and by how much, is a rule
 * of its own; the glue sums the energies of a frame's notes and hands them
 * to the engine (pendula_engine_pluck) before the frame, once per frame.
 */
#ifndef PENDULA_LV2_PLUCK_H
#define PENDULA_LV2_PLUCK_H

#include <stdint.h>

/* The memory notes: mem_note and the seven above it (memories 1 to 8). */
#define PENDULA_MEM_NOTES 8

/* The energy one MIDI message (size bytes) plucks with at these controls
 * (the clamped controls by port id): 0 unless it plucks. */
double pendula_pluck_energy(const float *control, const uint8_t *msg, uint32_t size);

#endif
