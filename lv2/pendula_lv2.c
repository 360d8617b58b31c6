/* SPDX-License-Identifier: ISC */
/*
 * Pendula LV2 glue: every plugin of docs/PORTS.md (four per model of the registry)
 * in one shared object.  Thin on purpose, and the same for every model: map
 * ports, read and clamp controls, smooth the physical ones, call the engine,
 * write outputs.  What each port means (which setting it fills, which
 * control output mirrors a signal, which CC port sends it, which controls are
 * smoothed or restart the motion) comes from the port table, ports.h; the
 * physics lives in engine/.
 *
 * This file holds the descriptors, the URIDs, the LV2 entry points and the
 * order of work in run(); each concern owns its state in a part of its own:
 *   controls.c   the control inputs, clamped, and the smoothers
 *   routing.c    where the engine writes each signal output, the control
 *                outputs that mirror them
 *   notes.c      the flips / swings pulses and the notes they play
 *   freeze.c     the outputs while simulated time stands still
 *   tempo_sync.c the host's transport and the forcing synced to it
 *   memory.c     the eight memories and the glide of a recall
 *   state.c      the saved state's format, session.c its glue part (save()
 *                and restore(); the instance's struct is in instance.h)
 *   pluck.c      which MIDI notes pluck the motion, and how hard
 *   midi_cc.c, tempo.c, atom_io.c, inline_display.c  (see their headers)
 * The instance below is their composition, plus what ties them together:
 * the engine and its settings, the chunk grid (chunk.h), the MIDI input and
 * the CC encoder's connection to the outputs and the notes.
 *
 * Real-time rules for run(): no allocation, lock, log or I/O; cost bounded
 * by A + B * frames (the engine caps its own work per frame).
 */
#include "chunk.h"
#include "freeze.h"
#include "instance.h"
#include "pluck.h"
#include "state.h"
#include "tempo.h"

#include <lv2/atom/atom.h>
#include <lv2/atom/util.h>
#include <lv2/core/lv2.h>
#include <lv2/core/lv2_util.h>
#include <lv2/log/log.h>
#include <lv2/log/logger.h>
#include <lv2/midi/midi.h>
#include <lv2/state/state.h>
#include <lv2/time/time.h>
#include <lv2/urid/urid.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* URIDs (instance.h)                                                      */

static void map_uris(LV2_URID_Map *map, pendula_uris *u)
{
	u->atom_Blank = map->map(map->handle, LV2_ATOM__Blank);
	u->atom_Chunk = map->map(map->handle, LV2_ATOM__Chunk);
	u->atom_Double = map->map(map->handle, LV2_ATOM__Double);
	u->atom_Float = map->map(map->handle, LV2_ATOM__Float);
	u->atom_Int = map->map(map->handle, LV2_ATOM__Int);
	u->atom_Long = map->map(map->handle, LV2_ATOM__Long);
	u->atom_Object = map->map(map->handle, LV2_ATOM__Object);
	u->atom_Sequence = map->map(map->handle, LV2_ATOM__Sequence);
	u->midi_MidiEvent = map->map(map->handle, LV2_MIDI__MidiEvent);
	u->time_Position = map->map(map->handle, LV2_TIME__Position);
	u->time_bar = map->map(map->handle, LV2_TIME__bar);
	u->time_barBeat = map->map(map->handle, LV2_TIME__barBeat);
	u->time_beatUnit = map->map(map->handle, LV2_TIME__beatUnit);
	u->time_beatsPerBar = map->map(map->handle, LV2_TIME__beatsPerBar);
	u->time_beatsPerMinute = map->map(map->handle, LV2_TIME__beatsPerMinute);
	u->time_frame = map->map(map->handle, LV2_TIME__frame);
	u->time_speed = map->map(map->handle, LV2_TIME__speed);
	u->state_motion = map->map(map->handle, PENDULA_STATE_KEY);
}

/* ---------------------------------------------------------------------- */
/* Engine settings                                                         */

/* Engine settings from the smoothed and the stepped controls. */
static void build_params(const Pendula *self, pendula_params *p)
{
	pendula_controls_params(&self->ctl, p);
	pendula_tempo_sync_params(&self->sync, p);
}

static void push_params(Pendula *self)
{
	build_params(self, &self->params);
	self->route.bodies = self->params.n_bodies;
	pendula_controls_pushed(&self->ctl);
	pendula_engine_set_params(self->engine, &self->params);
	self->params_dirty = false;
}

/* time_ratio: the simulated time the block advanced over what time_scale
 * asks (time_scale x the block's audio time), from the time the engine's
 * work cap dropped (pendula_stats.lost_time); 1 while the engine keeps up.
 * Nothing to do when the port is unconnected. */
static void time_ratio_begin(Pendula *self)
{
	if (!self->port[P_CTL_TIME_RATIO])
		return;
	self->lost_time_begin = pendula_engine_lost_time(self->engine);
}

static void time_ratio_end(Pendula *self, uint32_t n_samples)
{
	float *out = (float *)self->port[P_CTL_TIME_RATIO];
	if (!out)
		return;
	const double lost = pendula_engine_lost_time(self->engine) - self->lost_time_begin;
	const double asked = self->params.time_scale * (double)n_samples / self->sample_rate;
	double ratio = 1.0;
	if (lost > 0.0 && asked > 0.0)
		ratio = 1.0 - lost / asked;
	*out = ratio >= 1.0 ? 1.0f : ratio > 1e-6 ? (float)ratio : 0.0f;
}

/* drive_level: the peak |drive sample| of the block, clamped to 1, so the
 * player sees that sound arrives before raising drive_gain (docs/GUIDE.md,
 * "Drive").  A zero, subnormal or non-finite sample counts as 0, as the
 * drive itself takes it (engine/drive.c); the samples are compared by
 * their bits (a positive float's order is its bits' order), so none is an
 * operand of floating-point arithmetic.  Read before the outputs are
 * written, as the drive's buffer may be one of theirs. */
static void drive_level_write(Pendula *self, uint32_t n_samples)
{
	float *out = (float *)self->port[P_CTL_DRIVE_LEVEL];
	if (!out)
		return;
	const float *in = (const float *)self->port[P_DRIVE];
	int32_t peak = 0; /* bits of the largest |sample| so far */
	for (uint32_t i = 0; in && i < n_samples; ++i) {
		int32_t bits;
		memcpy(&bits, &in[i], sizeof bits);
		bits &= 0x7fffffff;
		/* a normal number: exponent 1..254 (a branch-free form the
		 * compiler turns into vector compares and a vector max) */
		const int32_t normal = bits >= 0x00800000 && bits < 0x7f800000;
		const int32_t b = normal ? bits : 0;
		peak = b > peak ? b : peak;
	}
	const int32_t one = 0x3f800000; /* 1.0f */
	if (peak > one)
		peak = one;
	memcpy(out, &peak, sizeof peak);
}

/* ---------------------------------------------------------------------- */
/* Restart (activate, reset)                                               */

/* Restart from the initial state with the current settings, t = 0: the
 * smoothers land on their targets and the chunk grid starts again, so a
 * reset reproduces the run that followed activate(). */
static void restart(Pendula *self)
{
	pendula_controls_snap(&self->ctl);
	push_params(self);
	pendula_engine_reset(self->engine);
	self->chunk_phase = 0;
	pendula_routing_last_from_engine(&self->route, self->engine);
	/* The control changes restart too: every enabled output is sent at
	 * the first frame, and the rate-limit grid starts again (a bounce
	 * repeats its MIDI as well as its audio). */
	pendula_cc_reset(&self->cc);
	pendula_notes_restart(&self->notes);
	pendula_memory_end_glide(&self->mem); /* (the old motion is gone too) */
}

/* ---------------------------------------------------------------------- */
/* Memories (memory.h): stored and recalled at the frame the engine is at  */

static void memory_recall(Pendula *self, int slot)
{
	const double ms = self->ctl.control[P_MEM_GLIDE];
	const uint32_t glide = (uint32_t)lround(ms * 0.001 * self->sample_rate);
	if (pendula_memory_recall(&self->mem, self->engine, slot, glide, &self->params))
		pendula_routing_last_from_engine(&self->route, self->engine);
}

/* The store and recall triggers (rising edges, like reset): store first,
 * so that both at once recall what was just stored. */
static void memory_controls(Pendula *self)
{
	const float *control = self->ctl.control;
	const int slot = (int)control[P_MEM_SLOT] - 1;
	const float store = control[P_MEM_STORE], recall = control[P_MEM_RECALL];
	if (store >= 0.5f && self->prev_store < 0.5f)
		pendula_memory_store(&self->mem, self->engine, slot);
	if (recall >= 0.5f && self->prev_recall < 0.5f)
		memory_recall(self, slot);
	self->prev_store = store;
	self->prev_recall = recall;
}

/* A note-on of the memory notes (mem_note .. mem_note + 7, any channel)
 * recalls its slot at its frame; true if the note was one of them. */
static bool memory_note(Pendula *self, const LV2_Atom *body)
{
	const int first = (int)self->ctl.control[P_MEM_NOTE];
	const uint8_t *msg = (const uint8_t *)(body + 1);
	if (first < 0 || body->size < 3 || (msg[0] & 0xF0) != LV2_MIDI_MSG_NOTE_ON || msg[2] == 0)
		return false;
	const int slot = (int)msg[1] - first;
	if (slot < 0 || slot >= PENDULA_MEMORY_SLOTS)
		return false;
	memory_recall(self, slot);
	return true;
}

/* ---------------------------------------------------------------------- */
/* MIDI: incoming MIDI goes out unchanged, in order, at the same frames.   */
/* Other events of the control port (time:Position) go to control_event(). */

/* A number atom (Int, Long, Float, Double) as a double. */
static bool atom_number(const pendula_uris *u, const LV2_Atom *a, double *x)
{
	if (!a)
		return false;
	if (a->type == u->atom_Float && a->size >= sizeof(float))
		*x = ((const LV2_Atom_Float *)a)->body;
	else if (a->type == u->atom_Double && a->size >= sizeof(double))
		*x = ((const LV2_Atom_Double *)a)->body;
	else if (a->type == u->atom_Int && a->size >= sizeof(int32_t))
		*x = ((const LV2_Atom_Int *)a)->body;
	else if (a->type == u->atom_Long && a->size >= sizeof(int64_t))
		*x = (double)((const LV2_Atom_Long *)a)->body;
	else
		return false;
	return true;
}

/* Non-MIDI event of the control port: a time:Position updates the tempo
 * follower, which has been advanced to this event's frame (run() splits
 * the chunks at event frames).  Anything else is ignored.  The body lies
 * inside the input sequence (atom_io.c checked it), and each property is
 * checked against the object's size before it is read. */
static void control_event(Pendula *self, const LV2_Atom *body)
{
	const pendula_uris *u = &self->uris;
	if (body->type != u->atom_Object && body->type != u->atom_Blank)
		return;
	enum { BAR, BAR_BEAT, BEATS_PER_BAR, BEAT_UNIT, BPM, SPEED, FRAME, N_KEYS };
	const LV2_URID keys[N_KEYS] = {
	    u->time_bar,      u->time_barBeat,        u->time_beatsPerBar,
	    u->time_beatUnit, u->time_beatsPerMinute, u->time_speed,
	    u->time_frame};
	const LV2_Atom *value[N_KEYS];
	if (pendula_atom_object_get(body, N_KEYS, keys, value) != u->time_Position)
		return;
	pendula_position pos;
	memset(&pos, 0, sizeof(pos));
	double frame_value = 0.0;
	if (atom_number(u, value[BAR], &pos.bar))
		pos.fields |= PENDULA_POS_BAR;
	if (atom_number(u, value[BAR_BEAT], &pos.bar_beat))
		pos.fields |= PENDULA_POS_BAR_BEAT;
	if (atom_number(u, value[BEATS_PER_BAR], &pos.beats_per_bar))
		pos.fields |= PENDULA_POS_BEATS_PER_BAR;
	if (atom_number(u, value[BEAT_UNIT], &pos.beat_unit))
		pos.fields |= PENDULA_POS_BEAT_UNIT;
	if (atom_number(u, value[BPM], &pos.bpm))
		pos.fields |= PENDULA_POS_BPM;
	if (atom_number(u, value[SPEED], &pos.speed))
		pos.fields |= PENDULA_POS_SPEED;
	if (atom_number(u, value[FRAME], &frame_value) && fabs(frame_value) < 9e18) {
		pos.frame = (int64_t)frame_value;
		pos.fields |= PENDULA_POS_FRAME;
	}
	pendula_tempo_sync_position(&self->sync, &pos);
}

/* Start of a block: the input sequence is checked as it is read, its frame
 * times clamped to the block and kept in order; an input sharing the
 * output's buffer is read from a copy (atom_io.h). */
static void midi_begin(Pendula *self, uint32_t n_samples)
{
	pendula_midi_io_begin(&self->midi, self->port[P_CONTROL], self->port[P_MIDI_OUT],
	                      n_samples);
}

/* Handles the input events with a frame time before `until`, in order:
 * MIDI out unchanged at its frame, the rest to control_event(). */
static void midi_forward_until(Pendula *self, int64_t until)
{
	int64_t frame;
	const LV2_Atom *body;
	while ((body = pendula_midi_io_next(&self->midi, until, &frame))) {
		if (body->type == self->uris.midi_MidiEvent) {
			pendula_midi_io_forward(&self->midi, frame, body);
			memory_note(self, body);
			self->pluck_pending += pendula_pluck_energy(
			    self->ctl.control, (const uint8_t *)LV2_ATOM_BODY_CONST(body),
			    body->size);
		} else
			control_event(self, body);
	}
}

/* The output sequence is complete after every write; this only hands the
 * events left (all of them in an empty block) to their handlers. */
static void midi_end(Pendula *self)
{
	midi_forward_until(self, INT64_MAX);
}

/* The notes of this frame pluck the motion (after a transport start's
 * restart, so that a note on the first beat plucks the fresh motion). */
static void pluck_apply(Pendula *self)
{
	if (self->pluck_pending > 0.0)
		pendula_engine_pluck(self->engine, self->pluck_pending);
	self->pluck_pending = 0.0;
}

/* Frames of a chunk starting at pos, cut at the next input event so that
 * the event acts at its own frame. */
static uint32_t frames_before_next_event(const Pendula *self, uint32_t pos, uint32_t n)
{
	const int64_t next = pendula_midi_io_next_frame(&self->midi);
	if (next > (int64_t)pos && next < (int64_t)pos + n)
		return (uint32_t)(next - (int64_t)pos);
	return n;
}

/* ---------------------------------------------------------------------- */
/* MIDI CC out (midi_cc.c does the work; these functions connect it to    */
/* the outputs and the notes), reset on transport start                    */

/* instantiate() and activate(): nothing sent yet, transport unknown
 * (stopped), no sync. */
static void midi_tempo_init(Pendula *self)
{
	pendula_cc_init(&self->cc, self->sample_rate, self->route.n_signals);
	pendula_tempo_sync_init(&self->sync, self->sample_rate);
	self->cc_dirty = true;
}

/* This block's CC settings (after pendula_controls_read): given again only
 * when a control changed (the encoder keeps them). */
static void cc_configure(Pendula *self)
{
	if (!self->cc_dirty && !self->ctl.changed)
		return;
	const float *control = self->ctl.control;
	const pendula_routing *r = &self->route;
	self->cc_dirty = false;
	pendula_cc_configure(&self->cc, (int)control[P_MIDI_CHANNEL], control[P_CC_14BIT] >= 0.5f,
	                     control[P_ENERGY_MAX]);
	for (int s = 0; s < r->n_signals; ++s)
		pendula_cc_set_output(
		    &self->cc, s, r->signal_cc[s] != P_NONE ? (int)control[r->signal_cc[s]] : -1,
		    r->signal_map[s]);
	self->cc_any = pendula_cc_any_enabled(&self->cc);
	pendula_routing_cc_changed(&self->route);
}

/* A control change goes out only beside the room the chunk's note messages
 * still need: in a host buffer too small for a block's traffic the notes
 * win (a control change that finds no room is sent again a millisecond
 * later, midi_cc.h; a lost note-on is a lost note). */
static bool cc_emit(void *user, uint32_t frame, const pendula_cc_msg *msg)
{
	Pendula *self = (Pendula *)user;
	/* notes first at a frame */
	pendula_notes_flush_until(&self->notes, &self->midi, self->cc_offset, frame + 1);
	return pendula_midi_io_generate(&self->midi, self->cc_offset + frame, msg->bytes, 3,
	                                pendula_notes_keep(&self->notes));
}

/* The control changes of frames [offset, offset + n) of the block, from the
 * values the engine just wrote (its own values: the host's buffer if the
 * signal went straight there, scratch otherwise).  Nothing to do but count
 * the frames when the MIDI output is unconnected or every cc_* is off. */
static void cc_chunk(Pendula *self, uint32_t offset, uint32_t n)
{
	if (!self->route.cc_live) {
		pendula_cc_skip(&self->cc, n);
		return;
	}
	const float *signals[PENDULA_MAX_SIGNALS];
	pendula_routing_values(&self->route, offset, signals);
	self->cc_offset = offset;
	pendula_cc_process(&self->cc, signals, n, cc_emit, self);
}

/* Reset on transport start: the pendulum restarts at the frame where the
 * transport starts rolling, so every bounce of a song is the same. */
static void transport_start(Pendula *self)
{
	if (pendula_tempo_sync_take_start(&self->sync) &&
	    self->ctl.control[P_RESET_ON_START] >= 0.5f)
		restart(self);
}

/* ---------------------------------------------------------------------- */
/* Processing                                                              */

/* After the engine has produced frames [offset, offset + n) of the block:
 * the owed note-offs, the control changes of these frames, the chunk's
 * notes.  No input event lies inside the chunk (run() splits at event
 * frames; those at `offset` went out first), so the control changes of
 * these frames follow them in time order. */
static void chunk_done(Pendula *self, uint32_t offset, uint32_t n)
{
	if (self->notes.n_owed > 0)
		pendula_notes_retry(&self->notes, &self->midi, offset);
	cc_chunk(self, offset, n);
	pendula_notes_flush_until(&self->notes, &self->midi, offset, UINT32_MAX);
}

/* Frames [offset, offset + n) of the block; at most scratch_frames if some
 * output goes through scratch.  last: this span ends the block and is the
 * place to take the last values of outputs not written anywhere. */
static void run_chunk(Pendula *self, uint32_t offset, uint32_t n, bool last)
{
	pendula_notes *notes = &self->notes;
	const pendula_outputs *last_out;
	pendula_outputs *out = pendula_routing_span_begin(&self->route, offset, last, &last_out);
	pendula_notes_pulse_begin(notes, out->ch[PENDULA_CH_FLIPS], out->ch[PENDULA_CH_SWINGS], n);
	/* (at gain 0 the input is not read at all: silence, as the drive's
	 * contract says, and no host's denormals reach the arithmetic) */
	const float *drive = (const float *)self->port[P_DRIVE];
	const bool driven = drive && self->params.drive_gain != 0.0;
	pendula_engine_set_drive(self->engine, driven ? drive + offset : NULL);
	pendula_engine_run_events_last(self->engine, n, out, last_out,
	                               notes->events_on ? pendula_notes_on_event : NULL, notes);
	if (pendula_memory_gliding(&self->mem))
		pendula_memory_glide(&self->mem, out, n);
	float held[2] = {0.0f, 0.0f};
	if (last) {
		held[0] = pendula_notes_pulse_held(notes, 0);
		held[1] = pendula_notes_pulse_held(notes, 1);
	}
	pendula_routing_span_end(&self->route, self->port, offset, n, last, held);
	pendula_notes_chunk(notes, self->ctl.control, &self->sync.tempo, n);
	chunk_done(self, offset, n);
}

/* A frozen block (freeze.h): MIDI and the tempo follower go on, the
 * sounding notes end, the outputs hold. */
static void run_frozen(Pendula *self, uint32_t n_samples)
{
	midi_begin(self, n_samples);
	/* the sounding notes end now (or, without room or frame, at the next
	 * chance) */
	pendula_notes_end_all(&self->notes);
	pendula_notes_retry(&self->notes, &self->midi, 0);
	time_ratio_begin(self); /* (1: time stands by request) */
	/* The input events at their frames, the tempo follower advanced to
	 * each in between, as run() does: a time:Position describes its own
	 * frame (taken at the block's first frame, the song position stood
	 * that many frames ahead until the next Position). */
	for (uint32_t pos = 0, n; pos < n_samples; pos += n) {
		midi_forward_until(self, (int64_t)pos + 1);
		n = frames_before_next_event(self, pos, n_samples - pos);
		pendula_tempo_sync_advance(&self->sync, n);
	}
	midi_end(self);
	self->pluck_pending = 0.0; /* frozen: the motion holds, notes do not pluck */
	pendula_freeze_hold(&self->route, self->port, n_samples);
	pendula_mod_cv_write(&self->mod_cv, self->port, self->ctl.control[P_ENERGY_MAX], n_samples);
	pendula_routing_write_controls(&self->route, self->port, self->engine);
	time_ratio_end(self, n_samples);
}

/* The controls of a new block: the reset edge, the stepped settings that
 * restart the motion or reach the engine. */
static void block_controls(Pendula *self)
{
	pendula_controls_read(&self->ctl);

	/* reset: rising edge; before the first block the previous value is 0. */
	const float reset = self->ctl.control[P_RESET];
	const bool reset_edge = reset >= 0.5f && self->prev_reset < 0.5f;
	self->prev_reset = reset;
	/* Freeze switched on together with a new motion (a preset loaded, whose
	 * initial angles may equal the running ones) holds the new motion's
	 * start, not the old motion (docs/GUIDE.md, "Freeze"). */
	const bool freeze_edge = pendula_freeze_on(self->ctl.control) && self->prev_freeze < 0.5f;
	self->prev_freeze = self->ctl.control[P_FREEZE];
	if (freeze_edge && self->ctl.motion_changed)
		self->restart_pending = true;

	if (self->ctl.changed) { /* (otherwise stepped_last is up to date) */
		const unsigned asked = pendula_controls_stepped_changes(&self->ctl);
		if (asked & PENDULA_STEPPED_RESTART)
			self->restart_pending = true;
		if (asked & PENDULA_STEPPED_PARAMS)
			self->params_dirty = true;
	}
	if (self->restart_pending || reset_edge) {
		self->restart_pending = false;
		restart(self);
	}
	memory_controls(self);
}

static void run(LV2_Handle instance, uint32_t n_samples)
{
	Pendula *self = (Pendula *)instance;

	self->restored = false; /* (a later activate() starts again) */
	block_controls(self);
	drive_level_write(self, n_samples);
	if (pendula_freeze_on(self->ctl.control)) {
		run_frozen(self, n_samples);
		return;
	}

	midi_begin(self, n_samples);
	time_ratio_begin(self);
	cc_configure(self);
	pendula_controls_seen(&self->ctl);
	pendula_routing_route(&self->route, self->port, &self->cc, self->cc_any, n_samples);
	/* Spans longer than a chunk when nothing needs the chunk grid in this
	 * block: every smoother settled (they stay so until the next block's
	 * controls) and no tempo sync (which locks the phase on the grid).
	 * The engine's output does not depend on how its frames are split. */
	const float *control = self->ctl.control;
	const bool sync_on = pendula_tempo_sync_on(control);
	const uint32_t span =
	    self->route.route_any_scratch ? self->route.scratch_frames : UINT32_MAX;
	pendula_notes_block(&self->notes, control, self->port[P_MIDI_OUT] != NULL,
	                    self->route.route_events);
	const bool notes = pendula_notes_busy(&self->notes);

	uint32_t pos = 0;
	while (pos < n_samples) {
		/* The input events of this frame: MIDI out, time:Position into
		 * the tempo follower (a transport start may restart). */
		midi_forward_until(self, (int64_t)pos + 1);
		transport_start(self);
		pluck_apply(self);
		if (self->chunk_phase == 0 && pendula_controls_advance(&self->ctl))
			self->params_dirty = true;
		if (pendula_tempo_sync_update(&self->sync, control))
			self->params_dirty = true;
		if (self->params_dirty)
			push_params(self);
		pendula_tempo_sync_lock(&self->sync, self->engine, control, self->params.time_scale,
		                        self->chunk_phase == 0);
		uint32_t n = PENDULA_CHUNK - self->chunk_phase;
		if (!self->ctl.smoothing && !sync_on && !self->params_dirty && !notes)
			n = n_samples - pos;
		if (n > span)
			n = span;
		if (n > n_samples - pos)
			n = n_samples - pos;
		n = frames_before_next_event(self, pos, n);
		run_chunk(self, pos, n, pos + n == n_samples);
		pendula_tempo_sync_advance(&self->sync, n);
		pos += n;
		self->chunk_phase = (self->chunk_phase + n) % PENDULA_CHUNK;
	}

	/* (the notes of an empty block, or past its end, pluck at the next
	 * frame) */
	midi_end(self);
	pendula_mod_cv_write(&self->mod_cv, self->port, self->ctl.control[P_ENERGY_MAX], n_samples);
	/* the control outputs and the inline display read parts of the last
	 * frame (pendula_engine_last_pose: the pivot, the pose) */
	pendula_routing_write_controls(&self->route, self->port, self->engine);
	time_ratio_end(self, n_samples);
	pendula_idpy_run(self->idpy, self->engine, n_samples);
}

/* ---------------------------------------------------------------------- */
/* LV2 plumbing                                                            */

/* The variant's ports and their parts, from the port table. */
static void ports_from_table(Pendula *self)
{
	const pendula_variant v = self->variant;
	self->n_ports = pendula_port_count(v);
	for (uint32_t i = 0; i < self->n_ports; ++i)
		self->id_of_index[i] = (int16_t)pendula_port_id_at(v, i);
	pendula_controls_init(&self->ctl, v, self->sample_rate);
	/* a control input reads its default until connected */
	for (uint32_t i = 0; i < self->ctl.n_control_in; ++i)
		self->port[self->ctl.control_in[i]] = pendula_controls_connect(
		    &self->ctl, (pendula_port_id)self->ctl.control_in[i], NULL);
	pendula_routing_init(&self->route, v, self->route_pool);
	pendula_mod_cv_init(&self->mod_cv, v);
	pendula_notes_init(&self->notes, self->sample_rate);
}

static LV2_Handle instantiate(const LV2_Descriptor *descriptor, double rate,
                              const char *bundle_path, const LV2_Feature *const *features)
{
	(void)bundle_path;
	LV2_URID_Map *map = NULL;
	LV2_Log_Log *log = NULL;
	const char *missing = lv2_features_query(features, LV2_LOG__log, &log, false, LV2_URID__map,
	                                         &map, true, NULL);
	LV2_Log_Logger logger;
	lv2_log_logger_init(&logger, map, log);
	if (missing) {
		lv2_log_error(&logger, "pendula: missing feature <%s>\n", missing);
		return NULL;
	}
	/* Accepted sample rates: 1 kHz to 1.536 MHz (docs/MODELS.md).  The frame
	 * arithmetic is checked over this range (an engine step spans fewer
	 * than 2^31 frames even at time_scale 0.01; at 1 kHz a frame takes at
	 * most 192 steps); outside it, 1e-300 Hz gave NaN at frame 0 and
	 * 2e10 Hz a frame index that wraps.  NaN and infinities fail the
	 * comparison. */
	const double rate_min = 1000.0, rate_max = 1536000.0;
	if (!(rate >= rate_min && rate <= rate_max)) {
		lv2_log_error(&logger, "pendula: sample rate %g Hz outside %g..%g Hz\n", rate,
		              rate_min, rate_max);
		return NULL;
	}

	/* The variant, by URI (a host may hand back a copy of the descriptor). */
	int v = 0;
	while (v < PENDULA_N_VARIANTS && strcmp(descriptor->URI, pendula_variant_uris[v]))
		++v;
	if (v == PENDULA_N_VARIANTS)
		return NULL;

	const size_t pool = pendula_routing_pool_floats((pendula_variant)v);
	Pendula *self = (Pendula *)calloc(1, sizeof(Pendula) + pool * sizeof(float));
	if (!self)
		return NULL;
	self->variant = (pendula_variant)v;
	self->sample_rate = rate;
	self->map = map;
	self->logger = logger;
	map_uris(map, &self->uris);
	if (!pendula_midi_io_init(&self->midi, map, features)) {
		free(self);
		return NULL;
	}
	ports_from_table(self);
	midi_tempo_init(self);

	build_params(self, &self->params);
	self->route.bodies = self->params.n_bodies;
	self->engine = pendula_engine_new(rate, &self->params);
	if (!self->engine) {
		pendula_midi_io_cleanup(&self->midi);
		free(self);
		return NULL;
	}
	if (!pendula_memory_init(&self->mem, rate, &self->params)) {
		pendula_engine_free(self->engine);
		pendula_midi_io_cleanup(&self->midi);
		free(self);
		return NULL;
	}
	self->restart_pending = true;
	pendula_routing_last_from_engine(&self->route, self->engine);
	self->idpy = pendula_idpy_new(features, rate);
	return (LV2_Handle)self;
}

static void set_port(Pendula *self, pendula_port_id id, void *buf)
{
	if (self->port[id] != buf) {
		self->port[id] = buf;
		pendula_routing_ports_changed(&self->route); /* route again */
	}
}

static void connect_port(LV2_Handle instance, uint32_t index, void *data)
{
	Pendula *self = (Pendula *)instance;
	if (index >= self->n_ports)
		return;
	const pendula_port_id id = (pendula_port_id)self->id_of_index[index];
	const pendula_port_kind kind = pendula_ports[id].kind;
	self->host[id] = data;
	void *buf = pendula_controls_connect(&self->ctl, id, data);
	if (kind == PK_SIGNAL_OUT)
		buf = pendula_mod_cv_signal_buffer(&self->mod_cv, self->host, id);
	set_port(self, id, buf);
	if (kind == PK_MOD_CV_OUT) { /* its signal goes where it goes */
		const pendula_port_id s = (pendula_port_id)pendula_ports[id].related;
		set_port(self, s, pendula_mod_cv_signal_buffer(&self->mod_cv, self->host, s));
	}
}

static void activate(LV2_Handle instance)
{
	Pendula *self = (Pendula *)instance;
	/* A session's state restored before activation goes on from there. */
	if (self->restored) {
		self->restored = false;
		return;
	}
	/* t = 0.  The ports may not be connected yet: the settings are read
	 * and the state restarted with them at the first run(). */
	pendula_engine_reset(self->engine);
	self->restart_pending = true;
	self->prev_reset = self->prev_store = self->prev_recall = 0.0f;
	self->prev_freeze = 0.0f;
	self->chunk_phase = 0;
	self->pluck_pending = 0.0;
	midi_tempo_init(self);
	pendula_notes_activate(&self->notes); /* notes that sounded before deactivate() end */
}

static void deactivate(LV2_Handle instance)
{
	(void)instance;
}

static void cleanup(LV2_Handle instance)
{
	Pendula *self = (Pendula *)instance;
	pendula_idpy_free(self->idpy);
	pendula_memory_free(&self->mem);
	pendula_engine_free(self->engine);
	pendula_midi_io_cleanup(&self->midi);
	free(self);
}

/* The inline display's render(), called by the host in a non-real-time thread. */
static LV2_Inline_Display_Image_Surface *idpy_render(LV2_Handle instance, uint32_t w,
                                                     uint32_t max_h)
{
	return pendula_idpy_render(((Pendula *)instance)->idpy, w, max_h);
}

static const void *extension_data(const char *uri)
{
	static const LV2_Inline_Display_Interface idpy = {idpy_render};
	static const LV2_State_Interface state = {pendula_session_save, pendula_session_restore};
	if (!strcmp(uri, LV2_INLINEDISPLAY__interface))
		return &idpy;
	if (!strcmp(uri, LV2_STATE__interface))
		return &state;
	return NULL;
}

#define PENDULA_X_DESCRIPTORS(id, slug, name, desc)                                             \
	{PENDULA_URI_BASE #slug, instantiate, connect_port, activate, run, deactivate, cleanup, \
	 extension_data},                                                                       \
	    {PENDULA_URI_BASE #slug "-cv",                                                      \
	     instantiate,                                                                       \
	     connect_port,                                                                      \
	     activate,                                                                          \
	     run,                                                                               \
	     deactivate,                                                                        \
	     cleanup,                                                                           \
	     extension_data},
#define PENDULA_X_MIDI_DESCRIPTORS(id, slug, name, desc) \
	{PENDULA_URI_BASE #slug "-midi",                 \
	 instantiate,                                    \
	 connect_port,                                   \
	 activate,                                       \
	 run,                                            \
	 deactivate,                                     \
	 cleanup,                                        \
	 extension_data},
#define PENDULA_X_MOD_DESCRIPTORS(id, slug, name, desc) \
	{PENDULA_URI_BASE #slug "-mod",                 \
	 instantiate,                                   \
	 connect_port,                                  \
	 activate,                                      \
	 run,                                           \
	 deactivate,                                    \
	 cleanup,                                       \
	 extension_data},
/* In the order of pendula_variant: the -midi plugins after the others,
 * then the -mod ones. */
static const LV2_Descriptor descriptors[PENDULA_N_VARIANTS] = {
    PENDULA_MODELS(PENDULA_X_DESCRIPTORS) PENDULA_MODELS(PENDULA_X_MIDI_DESCRIPTORS)
        PENDULA_MODELS(PENDULA_X_MOD_DESCRIPTORS)};
#undef PENDULA_X_DESCRIPTORS
#undef PENDULA_X_MIDI_DESCRIPTORS
#undef PENDULA_X_MOD_DESCRIPTORS

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index)
{
	return index < PENDULA_N_VARIANTS ? &descriptors[index] : NULL;
}
