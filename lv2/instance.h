/* SPDX-License-Identifier: ISC */
/*
 * The plugin instance: its URIDs and the composition of its parts (each
 * part owns its state: controls.c, routing.c, notes.c, memory.c, ...).
 * pendula_lv2.c drives it (the LV2 entry points and the order of work in
 * run()); session.c saves and restores its motion (the state interface).
 */
#ifndef PENDULA_LV2_INSTANCE_H
#define PENDULA_LV2_INSTANCE_H

#include "atom_io.h"
#include "controls.h"
#include "inline_display.h"
#include "memory.h"
#include "midi_cc.h"
#include "mod_cv.h"
#include "notes.h"
#include "pendula_engine.h"
#include "ports.h"
#include "routing.h"
#include "tempo_sync.h"

#include <lv2/core/lv2.h>
#include <lv2/log/logger.h>
#include <lv2/state/state.h>
#include <lv2/urid/urid.h>

#include <stdbool.h>
#include <stdint.h>

/* URIDs (the atom/time/MIDI ones serve the MIDI and tempo parts) */
typedef struct {
	LV2_URID atom_Blank;
	LV2_URID atom_Chunk;
	LV2_URID atom_Double;
	LV2_URID atom_Float;
	LV2_URID atom_Int;
	LV2_URID atom_Long;
	LV2_URID atom_Object;
	LV2_URID atom_Sequence;
	LV2_URID midi_MidiEvent;
	LV2_URID time_Position;
	LV2_URID time_bar;
	LV2_URID time_barBeat;
	LV2_URID time_beatUnit;
	LV2_URID time_beatsPerBar;
	LV2_URID time_beatsPerMinute;
	LV2_URID time_frame;
	LV2_URID time_speed;
	LV2_URID state_motion; /* the key of the saved state (lv2/state.h) */
} pendula_uris;

typedef struct {
	pendula_variant variant;
	double sample_rate;
	pendula_engine *engine;

	/* Port buffers by global port id (NULL: not connected; a control
	 * input not connected reads its default, see controls.h). */
	void *port[PENDULA_N_PORT_IDS];
	/* The host's own buffers by id: port[] differs for a signal the host
	 * has no port of (a -mod plugin) while its MOD CV output is connected
	 * (mod_cv.h). */
	void *host[PENDULA_N_PORT_IDS];
	/* Port index -> global id, for this variant. */
	int16_t id_of_index[PENDULA_N_PORT_IDS];
	uint32_t n_ports;

	pendula_controls ctl;    /* control inputs, smoothers (controls.c) */
	pendula_routing route;   /* signal and control outputs (routing.c) */
	pendula_mod_cv mod_cv;   /* the -mod plugins' MOD CV outputs (mod_cv.c) */
	pendula_notes notes;     /* pulses and notes (notes.c) */
	pendula_tempo_sync sync; /* transport, tempo-synced forcing (tempo_sync.c) */

	/* Frames since the last chunk boundary, in [0, PENDULA_CHUNK). */
	uint32_t chunk_phase;
	/* Settings last given to the engine. */
	pendula_params params;
	bool params_dirty;
	bool restart_pending; /* set by activate(): restart at the first run() */
	float prev_reset;
	float prev_freeze;

	/* time_ratio (see time_ratio_begin/_end): simulated seconds the
	 * engine's work cap had dropped when the block began. */
	double lost_time_begin;

	/* LV2 */
	LV2_URID_Map *map;
	LV2_Log_Logger logger;
	pendula_uris uris;

	/* MIDI pass-through and the control port's input (see "MIDI" below;
	 * atom_io.c reads and writes the sequences) */
	pendula_midi_io midi;
	/* Energy the note-ons of the frame being read pluck with (pluck.h),
	 * handed to the engine once their frame's input is read. */
	double pluck_pending;

	/* MIDI CC out (see "MIDI CC out" below) */
	pendula_cc cc;      /* encoder, outputs indexed like route.signal[] */
	bool cc_any;        /* some output is sent this block */
	bool cc_dirty;      /* the CC settings must be given again */
	uint32_t cc_offset; /* block frame of the chunk being encoded */

	/* Inline display (inline_display.c); NULL: none */
	pendula_idpy *idpy;

	/* Memories (memory.c) and their triggers' last values */
	pendula_memory mem;
	float prev_store, prev_recall;
	/* A state was restored since instantiate() or the last activate():
	 * activate() keeps it instead of starting again (a host restores a
	 * session before it activates the plugin). */
	bool restored;

	/* The routing's scratch (routing.h), sized to the variant's signal
	 * outputs: a larger fixed pool would make every instance larger
	 * (docs/BENCHMARKS.md, "As a host wires it"). */
	float route_pool[];
} Pendula;

/* The state interface (session.c): the motion, the glue's own state and
 * the memories saved and restored, outside run(). */
LV2_State_Status pendula_session_save(LV2_Handle instance, LV2_State_Store_Function store,
                                      LV2_State_Handle handle, uint32_t flags,
                                      const LV2_Feature *const *features);
LV2_State_Status pendula_session_restore(LV2_Handle instance, LV2_State_Retrieve_Function retrieve,
                                         LV2_State_Handle handle, uint32_t flags,
                                         const LV2_Feature *const *features);

#endif
