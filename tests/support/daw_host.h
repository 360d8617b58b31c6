/* SPDX-License-Identifier: ISC */
/*
 * A small lilv host for the DAW tests (test_presets.c, test_daw.c): loads
 * pendula.lv2 from the build tree by its path, instantiates a plugin, feeds
 * its control atom port with time:Position and MIDI events at chosen frames,
 * runs it in blocks, and records the signal outputs, the control outputs and
 * the MIDI output (with absolute frame times).
 *
 * Header-only (static inline), shared by the two test programs, on top of
 * lv2_test_host.c (the plumbing every lilv test host shares); its state
 * (the world, the plugins, the URIDs) is daw_host.c's, one copy for every
 * file of a test program.
 */
#ifndef PENDULA_DAW_HOST_H
#define PENDULA_DAW_HOST_H

#include "lv2_test_host.h"
#include "ports.h"

#include <CUnit/Basic.h>
#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/atom/forge.h>
#include <lv2/atom/util.h>
#include <lv2/core/lv2.h>
#include <lv2/midi/midi.h>
#include <lv2/time/time.h>
#include <lv2/urid/urid.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DAW_PI            3.14159265358979323846
#define DAW_MAX_BLOCK     4096u
#define DAW_ATOM_CAPACITY 65536u

/* ---------------------------------------------------------------------- */
/* World                                                                   */

extern LilvWorld *daw_world;
extern const LilvPlugin *daw_plugins[PENDULA_N_VARIANTS];

/* Loads the bundle at its path; returns false (with a message) if a plugin
 * is missing. */
static inline bool daw_world_load(const char *bundle)
{
	return lv2th_world_load(NULL, bundle, &daw_world, daw_plugins);
}

static inline void daw_world_free(void)
{
	if (daw_world)
		lilv_world_free(daw_world);
	daw_world = NULL;
	lv2th_free_uris();
}

/* ---------------------------------------------------------------------- */
/* Host                                                                    */

typedef struct {
	int64_t frame; /* absolute: frames since the instance was activated */
	uint32_t size;
	uint8_t bytes[4];
} daw_midi;

typedef struct {
	pendula_variant v;
	double rate;
	LilvInstance *inst;
	float control[PENDULA_N_PORT_IDS]; /* control inputs and outputs, by id */
	float *buf[PENDULA_N_PORT_IDS];    /* signal outputs, by id */
	bool has[PENDULA_N_PORT_IDS];
	bool null_signals;     /* signal outputs left unconnected */
	uint32_t out_capacity; /* atom.size given to midi_out */

	/* input of the next block */
	uint64_t atom_in[DAW_ATOM_CAPACITY / 8];
	uint64_t atom_out[DAW_ATOM_CAPACITY / 8];
	LV2_Atom_Forge forge;
	LV2_Atom_Forge_Frame seq_frame;
	bool in_open;

	int64_t frames; /* frames run so far */

	/* recording: signals and control outputs (recording), MIDI output
	 * (record_midi) */
	bool recording;
	bool record_midi;
	size_t rec_n, rec_cap;
	float *rec[PENDULA_N_PORT_IDS];
	daw_midi *midi;
	size_t n_midi, cap_midi;
	size_t n_out_nonmidi;   /* non-MIDI events on the MIDI output */
	size_t n_out_unordered; /* events out of time order or outside their block */
	size_t n_out_bad;       /* output that is not a sequence */
	/* control outputs after each block */
	size_t n_blocks, cap_blocks;
	int64_t *block_end; /* absolute frame after each block */
	float *ctl[PENDULA_N_PORT_IDS];
} DawHost;

extern LV2_URID daw_urid_sequence, daw_urid_midi, daw_urid_position, daw_urid_bar,
    daw_urid_bar_beat, daw_urid_bpb, daw_urid_unit, daw_urid_bpm, daw_urid_speed, daw_urid_frame;

static inline void daw_map_urids(void)
{
	daw_urid_sequence = lv2th_map_uri(NULL, LV2_ATOM__Sequence);
	daw_urid_midi = lv2th_map_uri(NULL, LV2_MIDI__MidiEvent);
	daw_urid_position = lv2th_map_uri(NULL, LV2_TIME__Position);
	daw_urid_bar = lv2th_map_uri(NULL, LV2_TIME__bar);
	daw_urid_bar_beat = lv2th_map_uri(NULL, LV2_TIME__barBeat);
	daw_urid_bpb = lv2th_map_uri(NULL, LV2_TIME__beatsPerBar);
	daw_urid_unit = lv2th_map_uri(NULL, LV2_TIME__beatUnit);
	daw_urid_bpm = lv2th_map_uri(NULL, LV2_TIME__beatsPerMinute);
	daw_urid_speed = lv2th_map_uri(NULL, LV2_TIME__speed);
	daw_urid_frame = lv2th_map_uri(NULL, LV2_TIME__frame);
}

/* Instantiates (defaults on every control) without activating: set the
 * controls (or restore a preset), then daw_activate(). */
static inline DawHost *daw_host_new(pendula_variant v, double rate, bool null_signals)
{
	DawHost *h = (DawHost *)lv2th_calloc(1, sizeof(DawHost));
	h->v = v;
	h->rate = rate;
	h->null_signals = null_signals;
	h->out_capacity = DAW_ATOM_CAPACITY - sizeof(LV2_Atom);
	test_control_defaults(v, h->control);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		h->has[id] = pendula_port_index(v, (pendula_port_id)id) >= 0;
		if (h->has[id] && pendula_ports[id].kind == PK_SIGNAL_OUT)
			h->buf[id] = (float *)lv2th_calloc(DAW_MAX_BLOCK, sizeof(float));
	}
	h->inst = lv2th_instantiate(NULL, daw_plugins[v], v, rate, lv2th_features);
	lv2_atom_forge_init(&h->forge, &lv2th_map);
	lv2th_connect(h->inst, v, h->control, h->null_signals ? NULL : h->buf, h->atom_in,
	              h->atom_out);
	return h;
}

static inline void daw_activate(DawHost *h)
{
	lilv_instance_activate(h->inst);
}

static inline void daw_host_free(DawHost *h)
{
	if (!h)
		return;
	lilv_instance_deactivate(h->inst);
	lilv_instance_free(h->inst);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		free(h->buf[id]);
		free(h->rec[id]);
		free(h->ctl[id]);
	}
	free(h->midi);
	free(h->block_end);
	free(h);
}

static inline void daw_set(DawHost *h, pendula_port_id id, float value)
{
	h->control[id] = value;
}

/* Input events of the next block (frames relative to its start, in order). */
static inline void daw_in_open(DawHost *h)
{
	if (h->in_open)
		return;
	lv2_atom_forge_set_buffer(&h->forge, (uint8_t *)h->atom_in, sizeof h->atom_in);
	lv2_atom_forge_sequence_head(&h->forge, &h->seq_frame, 0);
	h->in_open = true;
}

/* A time:Position with the fields a host like Ardour sends. */
static inline void daw_in_position(DawHost *h, int64_t frame, double bar, double bar_beat,
                                   double beats_per_bar, double beat_unit, double bpm, double speed)
{
	daw_in_open(h);
	LV2_Atom_Forge_Frame obj;
	lv2_atom_forge_frame_time(&h->forge, frame);
	lv2_atom_forge_object(&h->forge, &obj, 0, daw_urid_position);
	lv2_atom_forge_key(&h->forge, daw_urid_frame);
	lv2_atom_forge_long(&h->forge, h->frames + frame);
	lv2_atom_forge_key(&h->forge, daw_urid_speed);
	lv2_atom_forge_float(&h->forge, (float)speed);
	lv2_atom_forge_key(&h->forge, daw_urid_bar);
	lv2_atom_forge_long(&h->forge, (int64_t)bar);
	lv2_atom_forge_key(&h->forge, daw_urid_bar_beat);
	lv2_atom_forge_float(&h->forge, (float)bar_beat);
	lv2_atom_forge_key(&h->forge, daw_urid_bpb);
	lv2_atom_forge_float(&h->forge, (float)beats_per_bar);
	lv2_atom_forge_key(&h->forge, daw_urid_unit);
	lv2_atom_forge_int(&h->forge, (int32_t)beat_unit);
	lv2_atom_forge_key(&h->forge, daw_urid_bpm);
	lv2_atom_forge_float(&h->forge, (float)bpm);
	lv2_atom_forge_pop(&h->forge, &obj);
}

static inline void daw_in_midi(DawHost *h, int64_t frame, const uint8_t *bytes, uint32_t size)
{
	daw_in_open(h);
	lv2_atom_forge_frame_time(&h->forge, frame);
	lv2_atom_forge_atom(&h->forge, size, daw_urid_midi);
	lv2_atom_forge_write(&h->forge, bytes, size);
}

/* Appends the MIDI output of the block just run (frames made absolute). */
static inline void daw_record_midi(DawHost *h, uint32_t n)
{
	const LV2_Atom_Sequence *out = (const LV2_Atom_Sequence *)h->atom_out;
	if (out->atom.type != daw_urid_sequence ||
	    out->atom.size < sizeof(LV2_Atom_Sequence_Body) || out->atom.size > h->out_capacity) {
		h->n_out_bad++;
		return;
	}
	int64_t last = -1;
	LV2_ATOM_SEQUENCE_FOREACH(out, ev)
	{
		if (ev->time.frames < last || ev->time.frames < 0 || ev->time.frames >= (int64_t)n)
			h->n_out_unordered++;
		last = ev->time.frames;
		if (ev->body.type != daw_urid_midi || ev->body.size > 4 || ev->body.size == 0) {
			h->n_out_nonmidi++;
			continue;
		}
		if (h->n_midi == h->cap_midi) {
			h->cap_midi = h->cap_midi ? 2 * h->cap_midi : 4096;
			h->midi =
			    (daw_midi *)lv2th_realloc(h->midi, h->cap_midi * sizeof(daw_midi));
		}
		daw_midi *m = &h->midi[h->n_midi++];
		m->frame = h->frames + ev->time.frames;
		m->size = ev->body.size;
		memset(m->bytes, 0, sizeof m->bytes);
		memcpy(m->bytes, LV2_ATOM_BODY_CONST(&ev->body), ev->body.size);
	}
}

static inline void daw_record_block(DawHost *h, uint32_t n)
{
	if (h->n_blocks == h->cap_blocks) {
		h->cap_blocks = h->cap_blocks ? 2 * h->cap_blocks : 1024;
		h->block_end =
		    (int64_t *)lv2th_realloc(h->block_end, h->cap_blocks * sizeof(int64_t));
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
			if (h->has[id] && pendula_ports[id].kind == PK_CONTROL_OUT)
				h->ctl[id] = (float *)lv2th_realloc(h->ctl[id],
				                                    h->cap_blocks * sizeof(float));
	}
	h->block_end[h->n_blocks] = h->frames + n;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (h->ctl[id])
			h->ctl[id][h->n_blocks] = h->control[id];
	h->n_blocks++;

	if (!h->null_signals) {
		if (h->rec_n + n > h->rec_cap) {
			h->rec_cap = (h->rec_n + n) * 2;
			for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
				if (h->buf[id])
					h->rec[id] = (float *)lv2th_realloc(
					    h->rec[id], h->rec_cap * sizeof(float));
		}
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
			if (h->buf[id])
				memcpy(h->rec[id] + h->rec_n, h->buf[id], n * sizeof(float));
	}
	h->rec_n += n;
}

/* One block of n frames, with the input events queued since the last one. */
static inline void daw_run(DawHost *h, uint32_t n)
{
	const bool queued = h->in_open;
	if (queued) {
		lv2_atom_forge_pop(&h->forge, &h->seq_frame);
		h->in_open = false;
	}
	lv2th_prepare_atoms(queued ? NULL : h->atom_in, h->atom_out, h->out_capacity);
	lilv_instance_run(h->inst, n);
	if (h->recording)
		daw_record_block(h, n);
	if (h->record_midi)
		daw_record_midi(h, n);
	h->frames += n;
}

/* xorshift, for block sizes */
static inline uint32_t daw_rand(uint32_t *state)
{
	uint32_t x = *state;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

/* `frames` frames in blocks of `block` (0: pseudo-random 1..1500 from
 * *seed). */
static inline void daw_render(DawHost *h, int64_t frames, uint32_t block, uint32_t *seed)
{
	while (frames > 0) {
		uint32_t n = block ? block : 1 + daw_rand(seed) % 1500;
		if (n > DAW_MAX_BLOCK)
			n = DAW_MAX_BLOCK;
		if ((int64_t)n > frames)
			n = (uint32_t)frames;
		daw_run(h, n);
		frames -= n;
	}
}

/* Recorded signal of a port (NULL if none). */
static inline const float *daw_signal(const DawHost *h, pendula_port_id id)
{
	return h->rec[id];
}

static inline double daw_wrap(double x)
{
	x = fmod(x + DAW_PI, 2.0 * DAW_PI);
	if (x < 0.0)
		x += 2.0 * DAW_PI;
	return x - DAW_PI;
}

#endif
