/* SPDX-License-Identifier: ISC */
/*
 * The saved state's format (docs/GUIDE.md, "Sessions and memories"): one
 * blob in an atom:Chunk, made of a header and sections — the engine's
 * motion, the glue's own state (smoothers, notes, CC, transport), the eight
 * memories and a glide under way.  The header carries a magic word, the
 * format version, the model and the size of every section, and a checksum
 * of the rest, so that a blob from another model, another version or
 * build, or a truncated or damaged one is refused before anything is read
 * from it.  The blob is for this build on this kind of machine (the
 * sections are the engine's and glue's own structs).
 *
 * Why a part of its own: the format and its checks are one concern; the
 * glue (pendula_lv2.c) says what goes into the sections and what a
 * restored section means.
 */
#ifndef PENDULA_LV2_STATE_H
#define PENDULA_LV2_STATE_H

#include "memory.h"
#include "pendula_engine.h"

#include <stdint.h>

/* The key the blob is saved under (an atom:Chunk). */
#define PENDULA_STATE_KEY "https://pendula.invalid/plugins/pendula/state#motion"

/* The format version: bump it whenever a section's layout changes. */
#define PENDULA_STATE_VERSION 1u

typedef struct {
	const void *engine; /* pendula_motion_bytes() */
	const void *glue;   /* glue_bytes */
	uint32_t glue_bytes;
	uint8_t memory_valid; /* bit k: memory[k] holds a motion */
	const void *memory[PENDULA_MEMORY_SLOTS];
	const void *glide; /* the old motion of a glide (pendula_motion_bytes()) */
	uint32_t glide_len, glide_done;
} pendula_state_parts;

/* The blob of the parts (malloc'd; NULL if out of memory), its size in
 * *size.  Not real-time: the host calls save() outside run(). */
void *pendula_state_pack(pendula_model model, const pendula_state_parts *parts, uint32_t *size);

/* Checks a blob of `size` bytes against this build and the model, and
 * points the parts into it: NULL if it is good, else why it is refused
 * (a sentence for the log). */
const char *pendula_state_unpack(const void *blob, uint32_t size, pendula_model model,
                                 uint32_t glue_bytes, pendula_state_parts *parts);

#endif
