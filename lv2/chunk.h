/* SPDX-License-Identifier: ISC */
/*
 * The chunk grid of the LV2 glue, shared by its parts (controls.c, routing.c,
 * notes.c, pendula_lv2.c).
 *
 * Determinism: the block is processed in chunks of at most PENDULA_CHUNK
 * frames aligned to a frame counter that starts at activate()/reset, and the
 * smoothers only move at chunk boundaries.  So for the same control values
 * arriving at the same frames, the outputs are bit-identical whatever the
 * host's block sizes (tests/host/test_host.c checks it).
 */
#ifndef PENDULA_CHUNK_H
#define PENDULA_CHUNK_H

/* Frames per processing chunk: the smoothers step and parameter changes reach
 * the engine at most this often. */
#define PENDULA_CHUNK 64u

#endif
