/* SPDX-License-Identifier: ISC */
/*
 * Pendula LV2 glue: every plugin of README.md (two per model of the registry)
 * in one shared object.  Thin on purpose, and the same for every model: map
 * ports, read and clamp controls, smooth the physical ones, call the engine,
 * write outputs.  What each port means (which setting it fills, which
 * control output mirrors a signal, which CC port sends it, which controls are
 * smoothed or restart the motion) comes from the port table, ports.h; the
 * physics lives in engine/.
 *
 * Real-time rules for run(): no allocation, lock, log or I/O; cost bounded
 * by A + B * frames (the engine caps its own work per frame).
 *
 * Determinism: the block is processed in chunks of at most PENDULA_CHUNK
 * frames aligned to a frame counter that starts at activate()/reset, and the
 * smoothers only move at chunk boundaries.  So for the same control values
 * arriving at the same frames, the outputs are bit-identical whatever the
 * host's block sizes (tests/test_host.c checks it).
 */
#include "atom_io.h"
#include "inline_display.h"
#include "midi_cc.h"
#include "pendula_engine.h"
#include "ports.h"
#include "tempo.h"

#include <lv2/atom/atom.h>
#include <lv2/atom/util.h>
#include <lv2/core/lv2.h>
#include <lv2/core/lv2_util.h>
#include <lv2/log/log.h>
#include <lv2/log/logger.h>
#include <lv2/midi/midi.h>
#include <lv2/time/time.h>
#include <lv2/urid/urid.h>

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Frames per processing chunk: the smoothers step and parameter changes reach
 * the engine at most this often. */
#define PENDULA_CHUNK       64u
/* Time constant of the control smoothers, seconds of real (audio) time. */
#define PENDULA_SMOOTH_TIME 0.020

/* Signal outputs a plugin may have (the CC encoder's limit). */
#define MAX_SIGNALS PENDULA_CC_MAX_OUTPUTS

/* ---------------------------------------------------------------------- */
/* URIDs (the atom/time/MIDI ones serve the MIDI and tempo parts)          */

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
} pendula_uris;

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
}

/* ---------------------------------------------------------------------- */
/* Instance                                                                */

typedef struct {
	pendula_variant variant;
	double sample_rate;
	pendula_engine *engine;

	/* Port buffers by global port id (NULL: not connected; a control
	 * input not connected reads its control_default). */
	void *port[PENDULA_N_PORT_IDS];
	/* Port index -> global id, for this variant. */
	int16_t id_of_index[PENDULA_N_PORT_IDS];
	uint32_t n_ports;
	/* Control inputs of this variant, global ids, and their defaults. */
	pendula_port_id control_in[PENDULA_N_PORT_IDS];
	uint32_t n_control_in;
	/* The same inputs by their place i in control_in: the buffer
	 * (port[control_in[i]]) and the bits of the raw value last read from
	 * it, side by side so that read_controls scans two short arrays. */
	const float *control_buf[PENDULA_N_PORT_IDS];
	uint32_t control_bits[PENDULA_N_PORT_IDS];
	int16_t control_place[PENDULA_N_PORT_IDS]; /* global id -> i, or -1 */
	float control_default[PENDULA_N_PORT_IDS];
	/* Smoothed controls (PF_SMOOTH) and the other settings (those with a
	 * field in pendula_params), of this variant. */
	pendula_port_id smoothed_in[PENDULA_N_PORT_IDS];
	uint32_t n_smoothed;
	pendula_port_id stepped_in[PENDULA_N_PORT_IDS];
	uint32_t n_stepped;
	/* Signal outputs of this variant, in table order: port id, engine
	 * channel, control-output mirror, CC port (or P_NONE), CC mapping. */
	int n_signals;
	pendula_port_id signal[MAX_SIGNALS];
	int signal_ch[MAX_SIGNALS];
	/* the body a signal belongs to (theta3, omega3, x3, y3, z3: 3), or 0
	 * (pendula_symbol_body): 0 while that body is not there */
	int signal_body[MAX_SIGNALS];
	int signal_mirror[MAX_SIGNALS];
	int signal_cc[MAX_SIGNALS];
	pendula_cc_map signal_map[MAX_SIGNALS];

	/* This block's control inputs, clamped (global id); control_bits holds
	 * the raw values they came from (a control whose raw value is
	 * unchanged is not sanitised again). */
	float control[PENDULA_N_PORT_IDS];
	bool controls_changed; /* some control input changed (or everything is new) */
	bool smoothing;        /* some smoother has not reached its target */

	/* Smoothers: value moves toward control[] by smooth_coef per chunk. */
	double smoothed[PENDULA_N_PORT_IDS];
	double smooth_coef;
	/* The stepped settings as last given to the engine. */
	float stepped_last[PENDULA_N_PORT_IDS];

	/* Frames since the last chunk boundary, in [0, PENDULA_CHUNK). */
	uint32_t chunk_phase;
	/* Settings last given to the engine. */
	pendula_params params;
	int n_bodies_pushed;
	int angle_bodies; /* the highest body with an angle output (theta{k}) */
	bool params_dirty;
	bool restart_pending; /* set by activate(): restart at the first run() */
	float prev_reset;

	/* Where the engine writes each signal (see route_outputs()): straight
	 * into the host's buffer when it is connected and no other signal
	 * output overlaps it (of several outputs sharing one buffer, the last
	 * in table order: the value the buffer ends up with); into scratch
	 * when the CC encoder needs the values of an output that is
	 * unconnected or shadowed; nowhere otherwise, except the value of
	 * the block's last frame for a control output mirror (route_last:
	 * the engine writes that one value to last_value).  The CC encoder
	 * reads the engine's own values either way, so its messages do not
	 * depend on the wiring.
	 * If outputs overlap partially (never seen in a host), every output goes
	 * through scratch and is copied, chunk by chunk, in table order. */
	float *route_host[MAX_SIGNALS];  /* direct target, or NULL */
	bool route_scratch[MAX_SIGNALS]; /* CC reads this signal from scratch */
	bool route_last[MAX_SIGNALS];    /* its last value comes from last_value */
	bool route_copy;                 /* partial overlap: scratch and copy all */
	bool route_any_scratch;          /* route_copy or some route_scratch */
	bool route_events;               /* the outputs need the events (events_routed) */
	bool cc_live;                    /* CC encoder runs: midi_out connected, a cc on */
	bool cc_dirty;                   /* the CC settings must be given again */
	/* The route holds until a buffer changes (connect_port), the CC
	 * settings change (cc_configure) or the block size does. */
	bool route_stale;
	uint32_t routed_block; /* the block size it was made for */
	/* The direct route (not route_copy) as short lists, so that a span
	 * walks only the signals concerned (plan_build; for the bodies pushed
	 * when it was built, plan_bodies): the signals the engine writes
	 * (into the host's buffer at the span's offset, or into scratch), those
	 * whose last value is wanted (route_last), and those of absent bodies
	 * (zeros). */
	int plan_n_write, plan_n_last, plan_n_silent, plan_bodies;
	unsigned char plan_write[MAX_SIGNALS], plan_last[MAX_SIGNALS], plan_silent[MAX_SIGNALS];
	/* The control output mirrors that are connected: signal and buffer
	 * (rebuilt after a connect_port: mirrors_stale). */
	int n_mirrors;
	unsigned char mirror_signal[MAX_SIGNALS];
	float *mirror_buf[MAX_SIGNALS];
	bool mirrors_stale;
	/* Scratch: one slice of the pool per signal that needs it (route_copy:
	 * every signal; else those with route_scratch), each
	 * scratch_frames long (at least PENDULA_CHUNK): the fewer signals
	 * need scratch, the longer the spans the engine runs at once. */
	float scratch_pool[MAX_SIGNALS * PENDULA_CHUNK];
	float *chunk_signal[MAX_SIGNALS];
	uint32_t scratch_frames;
	/* Latest value of each signal output (for the control outputs). */
	float signal_last[MAX_SIGNALS];
	float last_value[MAX_SIGNALS]; /* route_last: the engine's value at the block's end */
	/* What run_chunk hands the engine: every entry NULL between chunks
	 * (calloc), run_chunk sets a span's entries and clears them after it
	 * (cheaper than clearing the whole struct for every span). */
	pendula_outputs span_out, span_last;

	/* LV2 */
	LV2_URID_Map *map;
	LV2_Log_Logger logger;
	pendula_uris uris;

	/* MIDI pass-through and the control port's input (see "MIDI" below;
	 * atom_io.c reads and writes the sequences) */
	pendula_midi_io midi;

	/* MIDI CC out and tempo sync (see "MIDI CC out, tempo sync") */
	pendula_cc cc;       /* encoder, outputs indexed like signal[] */
	bool cc_any;         /* some output is sent this block */
	uint32_t cc_offset;  /* block frame of the chunk being encoded */
	pendula_tempo tempo; /* host transport, at the next frame to render */
	bool position_event; /* a time:Position arrived since the last phase lock */
	double sync_hz[2];   /* tempo-synced forcing (x, y), Hz of audio time; 0: free */

	/* time_ratio (see time_ratio_begin/_end): simulated seconds the
	 * engine's work cap had dropped when the block began. */
	double lost_time_begin;

	/* Inline display (inline_display.c); NULL: none */
	pendula_idpy *idpy;

	/* Events (see "Events: pulses and notes") */
	bool events_on;                                           /* followed this block */
	uint32_t n_events;                                        /* of the current chunk */
	pendula_event events[PENDULA_CHUNK * PENDULA_MAX_BODIES]; /* of the current chunk */
	/* flips, swings: frames of the pulse left after the span run (from
	 * its end; 0: it ended with the span's last frame, -1: before it) */
	int32_t pulse_left[2];
	float pulse_value[2];   /* their sign */
	uint64_t note_clock;    /* frames run since activate() */
	uint64_t note_off[128]; /* frame of each sounding note's note-off, or 0 */
	int n_sounding;         /* notes with a note-off pending */
	/* What went out, per note (a message may find no room in the host's
	 * buffer): NOTE_SOUNDING | the channel of a note-on without its
	 * note-off yet (the note-off goes there, whatever midi_channel says
	 * by then); NOTE_OWED: that note-off is due and is sent at the next
	 * chance (note_out, notes_retry). */
	uint8_t note_sent[128];
	int n_owed;            /* notes with NOTE_OWED */
	bool notes_live;       /* notes on this block: the events are kept */
	uint32_t pulse_frames; /* a pulse's length: 1 ms, at least a frame */
	float *pulse_buf[2];   /* flips, swings buffers of the span being run */
	uint32_t pulse_n;      /* its length */
	bool notes_flush;      /* send every pending note-off first */
	struct {
		uint32_t frame;
		uint8_t bytes[3];
	} note_msg[2 * PENDULA_CHUNK * PENDULA_MAX_BODIES + 128]; /* of the current chunk */
	uint32_t n_note_msgs, next_note_msg;
} Pendula;

/* ---------------------------------------------------------------------- */
/* Controls                                                                */

/* The README.md bad-input rule: NaN -> default, clamp to the declared range
 * (which also catches +-inf); integer ports round, toggles become 0 or 1.  A
 * subnormal value is 0 (it would reach the outputs as a subnormal, e.g. a
 * theta1_init of 1e-40 degrees). */
static float sanitize_control(const Pendula *self, pendula_port_id id, float v)
{
	const pendula_port_info *info = &pendula_ports[id];
	if (v != v)
		v = pendula_port_default(self->variant, id);
	if (fabsf(v) < FLT_MIN)
		v = 0.0f;
	float lo, hi;
	pendula_port_range(self->variant, id, &lo, &hi);
	if (v < lo)
		v = lo;
	if (v > hi)
		v = hi;
	if (info->flags & (PF_TOGGLED | PF_INTEGER | PF_ENUM))
		v = pendula_whole_value(v, (info->flags & PF_TOGGLED) != 0);
	return v;
}

/* Reads every control input once, into self->control; sets
 * controls_changed if a value differs from the last block's (an
 * unchanged raw value gives the same sanitised one: not redone). */
static void read_controls(Pendula *self)
{
	/* Most blocks change nothing: one pass without branches tells. */
	uint32_t diff = 0;
	for (uint32_t i = 0; i < self->n_control_in; ++i) {
		uint32_t bits;
		memcpy(&bits, self->control_buf[i], sizeof(bits));
		diff |= bits ^ self->control_bits[i];
	}
	if (!diff)
		return;
	bool changed = false;
	for (uint32_t i = 0; i < self->n_control_in; ++i) {
		uint32_t bits;
		memcpy(&bits, self->control_buf[i], sizeof(bits));
		if (bits == self->control_bits[i])
			continue;
		self->control_bits[i] = bits;
		float v;
		memcpy(&v, &bits, sizeof(v));
		const pendula_port_id id = self->control_in[i];
		const float c = sanitize_control(self, id, v);
		changed |= c != self->control[id];
		self->control[id] = c;
	}
	self->controls_changed |= changed;
}

/* Whether some smoother has yet to reach its target. */
static bool smoothers_moving(const Pendula *self)
{
	for (uint32_t i = 0; i < self->n_smoothed; ++i)
		if (self->smoothed[self->smoothed_in[i]] != self->control[self->smoothed_in[i]])
			return true;
	return false;
}

/* The smoothers jump to their targets (activate, reset). */
static void smoothers_snap(Pendula *self)
{
	for (uint32_t i = 0; i < self->n_smoothed; ++i)
		self->smoothed[self->smoothed_in[i]] = self->control[self->smoothed_in[i]];
	self->smoothing = false;
}

/* One chunk of the one-pole smoothers.  Returns true if a value moved;
 * nothing to do once every smoother sits on its target. */
static bool smoothers_advance(Pendula *self)
{
	if (!self->smoothing)
		return false;
	bool moved = false;
	for (uint32_t i = 0; i < self->n_smoothed; ++i) {
		const pendula_port_id id = self->smoothed_in[i];
		const double target = self->control[id];
		double y = self->smoothed[id];
		if (y == target)
			continue;
		y += self->smooth_coef * (target - y);
		/* Land exactly on the target (no endless ulp-sized updates, no
		 * subnormals when heading for 0). */
		if (fabs(target - y) <= 1e-6 * fabs(target) + 1e-9)
			y = target;
		self->smoothed[id] = y;
		moved = true;
	}
	self->smoothing = moved && smoothers_moving(self);
	return moved;
}

static void tempo_sync_params(const Pendula *self, pendula_params *p);

/* Engine settings from the smoothed and the stepped controls. */
static void build_params(const Pendula *self, pendula_params *p)
{
	pendula_params_default(p, pendula_variant_model(self->variant));
	for (uint32_t i = 0; i < self->n_smoothed; ++i)
		pendula_param_set(p, self->smoothed_in[i], self->smoothed[self->smoothed_in[i]]);
	for (uint32_t i = 0; i < self->n_stepped; ++i)
		pendula_param_set(p, self->stepped_in[i], self->control[self->stepped_in[i]]);
	tempo_sync_params(self, p);
}

static void push_params(Pendula *self)
{
	build_params(self, &self->params);
	self->n_bodies_pushed = self->params.n_bodies;
	for (uint32_t i = 0; i < self->n_stepped; ++i)
		self->stepped_last[self->stepped_in[i]] = self->control[self->stepped_in[i]];
	pendula_engine_set_params(self->engine, &self->params);
	self->params_dirty = false;
}

/* ---------------------------------------------------------------------- */
/* Outputs                                                                 */

static bool is_angle_channel(int ch)
{
	return ch >= PENDULA_CH_THETA && ch < PENDULA_CH_THETA + PENDULA_MAX_BODIES;
}

static bool is_silent_body(const Pendula *self, int s);

/* signal_last from the engine's last frame (before any frame was run). */
static void signal_last_from_engine(Pendula *self)
{
	pendula_frame f;
	pendula_engine_last(self->engine, &f);
	for (int s = 0; s < self->n_signals; ++s) {
		const int ch = self->signal_ch[s];
		const double x = pendula_frame_channel(&f, ch);
		float v = 0.0f;
		if (is_silent_body(self, s))
			v = 0.0f;
		else if (is_angle_channel(ch))
			v = (float)x;
		else if (ch == PENDULA_CH_ENERGY)
			v = pendula_energy_output(x);
		else
			v = pendula_tip_output(x);
		self->signal_last[s] = v;
	}
}

static void write_control_output(Pendula *self, pendula_port_id id, float v)
{
	float *p = (float *)self->port[id];
	if (p)
		*p = v;
}

/* Control outputs: the last frame's values (bit-equal to the last sample
 * of each signal output), and the pivot position in metres. */
static void write_control_outputs(Pendula *self)
{
	if (self->mirrors_stale) {
		self->n_mirrors = 0;
		for (int s = 0; s < self->n_signals; ++s) {
			float *buf = self->signal_mirror[s] != P_NONE
			                 ? (float *)self->port[self->signal_mirror[s]]
			                 : NULL;
			if (!buf)
				continue;
			self->mirror_signal[self->n_mirrors] = (unsigned char)s;
			self->mirror_buf[self->n_mirrors++] = buf;
		}
		self->mirrors_stale = false;
	}
	for (int i = 0; i < self->n_mirrors; ++i)
		*self->mirror_buf[i] = self->signal_last[self->mirror_signal[i]];
	if (!self->port[P_CTL_PIVOT_X] && !self->port[P_CTL_PIVOT_Y] && !self->port[P_CTL_PIVOT_Z])
		return;
	double x, y, z;
	pendula_engine_last_pivot(self->engine, &x, &y, &z);
	write_control_output(self, P_CTL_PIVOT_X, pendula_flush_output((float)x));
	write_control_output(self, P_CTL_PIVOT_Y, pendula_flush_output((float)y));
	write_control_output(self, P_CTL_PIVOT_Z, pendula_flush_output((float)z));
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

/* ---------------------------------------------------------------------- */
/* Restart (activate, reset)                                               */

/* Restart from the initial state with the current settings, t = 0: the
 * smoothers land on their targets and the chunk grid starts again, so a
 * reset reproduces the run that followed activate(). */
static void restart(Pendula *self)
{
	smoothers_snap(self);
	push_params(self);
	pendula_engine_reset(self->engine);
	self->chunk_phase = 0;
	signal_last_from_engine(self);
	/* The control changes restart too: every enabled output is sent at
	 * the first frame, and the rate-limit grid starts again (a bounce
	 * repeats its MIDI as well as its audio). */
	pendula_cc_reset(&self->cc);
	self->notes_flush = true; /* the notes of the old motion end */
	self->pulse_left[0] = self->pulse_left[1] = 0;
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
	pendula_tempo_position(&self->tempo, &pos);
	self->position_event = true;
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
		if (body->type == self->uris.midi_MidiEvent)
			pendula_midi_io_forward(&self->midi, frame, body);
		else
			control_event(self, body);
	}
}

/* The output sequence is complete after every write; this only hands the
 * events left (all of them in an empty block) to their handlers. */
static void midi_end(Pendula *self)
{
	midi_forward_until(self, INT64_MAX);
}

/* ---------------------------------------------------------------------- */
/* MIDI CC out, tempo sync, reset on transport start                       */
/* (midi_cc.c and tempo.c do the work; these functions connect them.)      */

static const pendula_port_id sync_port[2] = {P_PIVOT_X_SYNC, P_PIVOT_Y_SYNC};

/* instantiate() and activate(): nothing sent yet, transport unknown
 * (stopped), no sync. */
static void midi_tempo_init(Pendula *self)
{
	pendula_cc_init(&self->cc, self->sample_rate, self->n_signals);
	pendula_tempo_init(&self->tempo, self->sample_rate);
	self->position_event = false;
	self->sync_hz[0] = self->sync_hz[1] = 0.0;
	self->cc_dirty = true;
}

/* This block's CC settings (after read_controls): given again only when a
 * control changed (the encoder keeps them). */
static void cc_configure(Pendula *self)
{
	if (!self->cc_dirty && !self->controls_changed)
		return;
	self->cc_dirty = false;
	pendula_cc_configure(&self->cc, (int)self->control[P_MIDI_CHANNEL],
	                     self->control[P_CC_14BIT] >= 0.5f, self->control[P_ENERGY_MAX]);
	for (int s = 0; s < self->n_signals; ++s)
		pendula_cc_set_output(
		    &self->cc, s,
		    self->signal_cc[s] != P_NONE ? (int)self->control[self->signal_cc[s]] : -1,
		    self->signal_map[s]);
	self->cc_any = pendula_cc_any_enabled(&self->cc);
	self->route_stale = true;
}

/* A generated 3-byte MIDI message at a frame of the block, if it fits in
 * the output beside the room reserved for the input MIDI still to come and
 * `keep` bytes more; whether it went out. */
static bool midi_write_generated(Pendula *self, uint32_t frame, const uint8_t *bytes, uint32_t keep)
{
	return pendula_midi_io_generate(&self->midi, frame, bytes, 3, keep);
}

static void notes_flush_until(Pendula *self, uint32_t offset, uint32_t until);
static uint32_t notes_keep(const Pendula *self);
static void notes_end_all(Pendula *self);

/* A control change goes out only beside the room the chunk's note messages
 * still need: in a host buffer too small for a block's traffic the notes
 * win (a control change that finds no room is sent again a millisecond
 * later, midi_cc.h; a lost note-on is a lost note). */
static bool cc_emit(void *user, uint32_t frame, const pendula_cc_msg *msg)
{
	Pendula *self = (Pendula *)user;
	notes_flush_until(self, self->cc_offset, frame + 1); /* notes first at a frame */
	return midi_write_generated(self, self->cc_offset + frame, msg->bytes, notes_keep(self));
}

/* The control changes of frames [offset, offset + n) of the block, from the
 * values the engine just wrote (its own values: the host's buffer if the
 * signal went straight there, scratch otherwise).  Nothing to do but count
 * the frames when the MIDI output is unconnected or every cc_* is off. */
static void cc_chunk(Pendula *self, uint32_t offset, uint32_t n)
{
	if (!self->cc_live) {
		pendula_cc_skip(&self->cc, n);
		return;
	}
	const float *signals[MAX_SIGNALS];
	for (int s = 0; s < self->n_signals; ++s)
		signals[s] = self->route_copy || self->route_scratch[s] ? self->chunk_signal[s]
		             : self->route_host[s] ? self->route_host[s] + offset
		                                   : NULL;
	self->cc_offset = offset;
	pendula_cc_process(&self->cc, signals, n, cc_emit, self);
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

/* Reset on transport start: the pendulum restarts at the frame where the
 * transport starts rolling, so every bounce of a song is the same. */
static void transport_start(Pendula *self)
{
	if (pendula_tempo_take_start(&self->tempo) && self->control[P_RESET_ON_START] >= 0.5f)
		restart(self);
}

/* Tempo-synced frequency of each axis, in Hz of audio time (0: free, the
 * pivot_*_freq control applies; also while no tempo is known). */
static void tempo_sync_update(Pendula *self)
{
	for (int axis = 0; axis < 2; ++axis) {
		const int note = (int)self->control[sync_port[axis]];
		double hz = 0.0;
		if (note > 0 && note < (int)PENDULA_N_SYNC_NOTES)
			hz = pendula_tempo_sync_freq(&self->tempo, pendula_sync_notes[note].beats);
		if (hz != self->sync_hz[axis]) {
			self->sync_hz[axis] = hz;
			self->params_dirty = true;
		}
	}
}

/* build_params(): a synced axis runs at the tempo's frequency.  The engine
 * counts simulated time, time_scale x audio time, so the simulated
 * frequency is the audio one divided by time_scale; clamped to the range of
 * pivot_*_freq. */
static void tempo_sync_params(const Pendula *self, pendula_params *p)
{
	const float max_hz = pendula_ports[P_PIVOT_X_FREQ].max;
	for (int axis = 0; axis < 2; ++axis) {
		if (!(self->sync_hz[axis] > 0.0))
			continue;
		double f = self->sync_hz[axis] / p->time_scale;
		if (f > max_hz)
			f = max_hz;
		if (axis == 0)
			p->pivot_x_freq = f;
		else
			p->pivot_y_freq = f;
	}
}

/* Phase lock: while the transport rolls, a synced axis has the phase of the
 * song position, 2 pi frac(quarters / period) (Gamma_x = Delta_x sin, Gamma_y
 * = Delta_y cos of it).  Set at every chunk-grid boundary and after every
 * time:Position (relocation, tempo change), so frames the frequency already
 * agrees with get a correction of rounding size only, and the result does not
 * depend on the host's block sizes. */
static void tempo_sync_lock(Pendula *self)
{
	const bool due = self->chunk_phase == 0 || self->position_event;
	self->position_event = false;
	if (!due || !pendula_tempo_locked(&self->tempo) || !pendula_tempo_rolling(&self->tempo))
		return;
	const double max_hz = pendula_ports[P_PIVOT_X_FREQ].max;
	for (int axis = 0; axis < 2; ++axis) {
		const int note = (int)self->control[sync_port[axis]];
		if (!(self->sync_hz[axis] > 0.0) || note <= 0 || note >= (int)PENDULA_N_SYNC_NOTES)
			continue;
		if (self->sync_hz[axis] / self->params.time_scale > max_hz)
			continue; /* clamped: the forcing cannot follow this tempo */
		pendula_engine_set_phase(
		    self->engine, axis,
		    pendula_tempo_sync_phase(&self->tempo, pendula_sync_notes[note].beats));
	}
}

/* ---------------------------------------------------------------------- */
/* Events: pulses and notes (README.md, "Events")                          */
/*                                                                          */
/* The engine reports each flip and swing at its frame (pendula_event).     */
/* The flips and swings outputs hold +1 or -1 for 1 ms (at least a frame)  */
/* from the event's frame, 0 otherwise; when several bodies fire at once   */
/* the highest-numbered body's sign wins.  With note_flip / note_swing on, */
/* body k plays note base + k - 1 (notes above 127 are not played) with    */
/* velocity 1 + round(126 min(|omega{k}|, 1)) (the bead: its speed), and   */
/* its note-off follows note_length ms later; a note played again while it */
/* sounds gets its note-off first.  Notes go out in frame order, merged    */
/* with the control changes and the MIDI passed through.                   */

static bool notes_on(const Pendula *self);

/* Pulses go straight into the flips and swings buffers of the span being
 * run (pulse_begin sets them up); the events are kept for the notes only
 * when notes are on (their list is bounded by a chunk). */
static void on_event(void *user, const pendula_event *ev)
{
	Pendula *self = (Pendula *)user;
	const int kind = ev->kind;
	const uint32_t end = ev->frame + self->pulse_frames;
	const uint32_t stop = end < self->pulse_n ? end : self->pulse_n;
	const float value = (float)ev->dir;
	float *buf = self->pulse_buf[kind];
	if (buf)
		for (uint32_t f = ev->frame; f < stop; ++f)
			buf[f] = value;
	/* the latest event's pulse is the one that goes on (all last as
	 * long: it also ends last) */
	self->pulse_value[kind] = value;
	self->pulse_left[kind] = end >= self->pulse_n ? (int32_t)(end - self->pulse_n) : -1;
	if (self->notes_live && self->n_events < sizeof(self->events) / sizeof(self->events[0]))
		self->events[self->n_events++] = *ev;
}

/* Frames [0, n) of the flips and swings buffers (either may be NULL) before
 * the engine runs them: the rest of a pulse that began earlier, then 0. */
static void pulse_begin(Pendula *self, float *flips, float *swings, uint32_t n)
{
	self->pulse_buf[0] = flips;
	self->pulse_buf[1] = swings;
	self->pulse_n = n;
	for (int kind = 0; kind < 2; ++kind) {
		const int32_t left = self->pulse_left[kind];
		const uint32_t lit = left <= 0 ? 0 : (uint32_t)left < n ? (uint32_t)left : n;
		float *buf = self->pulse_buf[kind];
		if (buf) {
			for (uint32_t f = 0; f < lit; ++f)
				buf[f] = self->pulse_value[kind];
			memset(buf + lit, 0, (n - lit) * sizeof(float));
		}
		self->pulse_left[kind] = left >= (int32_t)n ? left - (int32_t)n : -1;
	}
}

static bool notes_on(const Pendula *self)
{
	return self->port[P_MIDI_OUT] &&
	       (self->control[P_NOTE_FLIP] >= 0.0f || self->control[P_NOTE_SWING] >= 0.0f);
}

/* Whether the outputs need the events (a flips or swings output, its
 * control mirror or its CC): part of the routing (route_outputs). */
static bool events_routed(const Pendula *self)
{
	bool on = false;
	for (int s = 0; s < self->n_signals; ++s) {
		const int ch = self->signal_ch[s];
		if (ch != PENDULA_CH_FLIPS && ch != PENDULA_CH_SWINGS)
			continue;
		on |= self->port[self->signal[s]] != NULL;
		on |=
		    self->signal_mirror[s] != P_NONE && self->port[self->signal_mirror[s]] != NULL;
		on |= self->cc_live && self->cc.out[s].cc >= 0;
	}
	return on;
}

/* The channel (0..15) new notes go out on. */
static int note_channel_now(const Pendula *self)
{
	return ((int)self->control[P_MIDI_CHANNEL] - 1) & 15;
}

static void note_msg(Pendula *self, uint32_t frame, uint8_t status, int channel, uint8_t note,
                     uint8_t vel)
{
	const uint32_t cap = sizeof(self->note_msg) / sizeof(self->note_msg[0]);
	if (self->n_note_msgs >= cap)
		return;
	self->note_msg[self->n_note_msgs].frame = frame;
	self->note_msg[self->n_note_msgs].bytes[0] = (uint8_t)(status | (channel & 15));
	self->note_msg[self->n_note_msgs].bytes[1] = note;
	self->note_msg[self->n_note_msgs].bytes[2] = vel;
	self->n_note_msgs++;
}

/* The sounding note whose note-off comes first, if it is due before
 * `until` (absolute frame); -1 if none. */
static int next_note_off(const Pendula *self, uint64_t until)
{
	int best = -1;
	for (int i = 0; i < 128; ++i)
		if (self->note_off[i] && self->note_off[i] < until &&
		    (best < 0 || self->note_off[i] < self->note_off[best]))
			best = i;
	return best;
}

/* The note messages of frames [0, n) of this chunk, from its events. */
static void notes_chunk(Pendula *self, uint32_t n)
{
	uint32_t j;
	self->n_note_msgs = self->next_note_msg = 0;
	const uint64_t c0 = self->note_clock;
	if (self->notes_flush) { /* at the chunk's first frame (chunk_done) */
		self->notes_flush = false;
		notes_end_all(self);
	}
	const bool on = notes_on(self);
	const uint64_t length = (uint64_t)fmax(
	    1.0, floor(self->control[P_NOTE_LENGTH] * 0.001 * self->sample_rate + 0.5));
	j = 0;
	for (;;) {
		/* the note-offs due at an event's frame or before go first; at
		 * the chunk's end, those due before it (one due at frame n is
		 * the next chunk's first frame: at n it could be frame n_samples
		 * of the block, outside it) */
		const uint64_t until = j < self->n_events ? c0 + self->events[j].frame + 1 : c0 + n;
		const int off = self->n_sounding ? next_note_off(self, until) : -1;
		if (off >= 0) {
			/* (note_out sends it on its note-on's channel) */
			note_msg(self, (uint32_t)(self->note_off[off] - c0), 0x80, 0, (uint8_t)off,
			         0);
			self->note_off[off] = 0;
			self->n_sounding--;
			continue;
		}
		if (j >= self->n_events)
			break;
		const pendula_event *ev = &self->events[j++];
		const float base =
		    self->control[ev->kind == PENDULA_EVENT_FLIP ? P_NOTE_FLIP : P_NOTE_SWING];
		const int note = (int)base + ev->body;
		if (!on || base < 0.0f || note > 127)
			continue;
		if (self->note_off[note])
			note_msg(self, ev->frame, 0x80, 0, (uint8_t)note, 0);
		else
			self->n_sounding++;
		const double speed = ev->speed < 1.0 ? ev->speed : 1.0;
		const int channel = note_channel_now(self);
		note_msg(self, ev->frame, 0x90, channel, (uint8_t)note,
		         (uint8_t)(1.0 + floor(126.0 * speed + 0.5)));
		self->note_off[note] = c0 + ev->frame + length;
	}
	self->note_clock += n;
	self->n_events = 0;
}

#define NOTE_SOUNDING 0x10u
#define NOTE_OWED     0x20u

/* A note message into the MIDI output at a frame of the block, with what
 * went out kept per note (note_sent), so that a host buffer without room
 * for every message leaves no note stuck:
 * - a note that sounds is ended first, whatever the message: a note-on
 *   goes out only after the note-off of the note's last note-on did;
 * - a note-off that finds no room is owed and sent again at the next
 *   chance (notes_retry), on the channel of its note-on;
 * - a note-off whose note-on did not go out is not sent. */
static void note_out(Pendula *self, uint32_t frame, const uint8_t *msg)
{
	const int note = msg[1] & 127;
	uint8_t *sent = &self->note_sent[note];
	if (*sent & NOTE_SOUNDING) {
		const uint8_t off[3] = {(uint8_t)(0x80 | (*sent & 15)), (uint8_t)note, 0};
		if (!midi_write_generated(self, frame, off, 0)) {
			if (!(*sent & NOTE_OWED)) {
				*sent |= NOTE_OWED;
				self->n_owed++;
			}
			return;
		}
		if (*sent & NOTE_OWED)
			self->n_owed--;
		*sent = 0;
	}
	if ((msg[0] & 0xf0) == 0x90 && midi_write_generated(self, frame, msg, 0))
		*sent = (uint8_t)(NOTE_SOUNDING | (msg[0] & 15));
}

/* The owed note-offs, at a frame of the block (none before the last event
 * written). */
static void notes_retry(Pendula *self, uint32_t frame)
{
	for (int i = 0; i < 128 && self->n_owed > 0; ++i)
		if (self->note_sent[i] & NOTE_OWED) {
			const uint8_t off[3] = {0x80, (uint8_t)i, 0};
			note_out(self, frame, off);
		}
}

/* Every note that sounds ends at the next chance (the planned note-offs
 * are dropped: their notes are owed now). */
static void notes_end_all(Pendula *self)
{
	for (int i = 0; i < 128; ++i) {
		self->note_off[i] = 0;
		if ((self->note_sent[i] & (NOTE_SOUNDING | NOTE_OWED)) == NOTE_SOUNDING) {
			self->note_sent[i] |= NOTE_OWED;
			self->n_owed++;
		}
	}
	self->n_sounding = 0;
}

/* Room for the chunk's note messages still to go out and the owed
 * note-offs. */
static uint32_t notes_keep(const Pendula *self)
{
	return (self->n_note_msgs - self->next_note_msg + (uint32_t)self->n_owed) *
	       pendula_midi_io_event_bytes(3);
}

/* The chunk's note messages up to frame `until` (exclusive, in the chunk),
 * into the MIDI output at block frame offset + frame. */
static void notes_flush_until(Pendula *self, uint32_t offset, uint32_t until)
{
	while (self->next_note_msg < self->n_note_msgs &&
	       self->note_msg[self->next_note_msg].frame < until) {
		note_out(self, offset + self->note_msg[self->next_note_msg].frame,
		         self->note_msg[self->next_note_msg].bytes);
		self->next_note_msg++;
	}
}

/* ---------------------------------------------------------------------- */
/* Processing                                                              */

/* After the engine has produced frames [offset, offset + n) of the block,
 * with their values in self->chunk_signal[]: the place for per-frame work
 * on the outputs (MIDI control changes). */
static void cc_chunk(Pendula *self, uint32_t offset, uint32_t n);

static void chunk_done(Pendula *self, uint32_t offset, uint32_t n)
{
	/* No input event lies inside the chunk (run() splits at event
	 * frames; those at `offset` went out first), so the control changes
	 * of these frames follow them in time order. */
	if (self->n_owed > 0)
		notes_retry(self, offset);
	cc_chunk(self, offset, n);
	notes_flush_until(self, offset, UINT32_MAX);
}

/* README.md: bodies beyond N output 0: every output of a body (its
 * angle, direction and rate) from the block in which N drops, although
 * the engine runs the old bodies to the end of its step (up to 10 ms;
 * silencing the angles alone tore a body that long: an angle of 0 beside
 * a direction of length 1). */
static bool is_silent_body(const Pendula *self, int s)
{
	return self->signal_body[s] > self->n_bodies_pushed;
}

/* Whether the ranges [a, a + n) and [b, b + n) of floats overlap. */
static bool buffers_overlap(const float *a, const float *b, uint32_t n)
{
	const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b, len = (uintptr_t)n * sizeof(float);
	return x < y + len && y < x + len;
}

/* The lists of the direct route (see plan_write in Pendula). */
static void plan_build(Pendula *self)
{
	self->plan_n_write = self->plan_n_last = self->plan_n_silent = 0;
	for (int s = 0; s < self->n_signals; ++s) {
		if (is_silent_body(self, s))
			self->plan_silent[self->plan_n_silent++] = (unsigned char)s;
		else if (self->route_host[s] || self->route_scratch[s])
			self->plan_write[self->plan_n_write++] = (unsigned char)s;
		else if (self->route_last[s])
			self->plan_last[self->plan_n_last++] = (unsigned char)s;
	}
	self->plan_bodies = self->n_bodies_pushed;
}

/* Where each signal goes this block (see route_host in Pendula); redone
 * only when the buffers, the block size or the CC settings change. */
static void route_outputs(Pendula *self, uint32_t n_samples)
{
	const bool cc_live = self->cc_any && self->port[P_MIDI_OUT] != NULL;
	if (!self->route_stale && cc_live == self->cc_live && self->routed_block == n_samples)
		return;
	if (cc_live && !self->cc_live)
		pendula_cc_resend(&self->cc); /* the receiver may have missed them */
	self->cc_live = cc_live;
	self->route_stale = false;
	self->routed_block = n_samples;
	self->route_copy = false;
	for (int s = 0; s < self->n_signals; ++s) {
		float *host = (float *)self->port[self->signal[s]];
		bool shadowed = false;
		for (int t = 0; host && t < self->n_signals; ++t) {
			const float *other = (const float *)self->port[self->signal[t]];
			if (t == s || !other || !buffers_overlap(host, other, n_samples))
				continue;
			if (other != host)
				self->route_copy = true;
			else if (t > s)
				shadowed = true; /* a later output overwrites this buffer */
		}
		self->route_host[s] = shadowed ? NULL : host;
		const bool cc_on = cc_live && self->cc.out[s].cc >= 0;
		self->route_scratch[s] = cc_on && !self->route_host[s];
		self->route_last[s] = !self->route_host[s] && self->signal_mirror[s] != P_NONE &&
		                      self->port[self->signal_mirror[s]] != NULL;
	}
	/* The signals that need scratch share the pool. */
	int spans = 0;
	for (int s = 0; s < self->n_signals; ++s)
		spans += self->route_copy || self->route_scratch[s];
	self->route_any_scratch = spans > 0;
	self->route_events = events_routed(self);
	const uint32_t pool = MAX_SIGNALS * PENDULA_CHUNK;
	self->scratch_frames =
	    spans > 0 ? pool / (uint32_t)spans / PENDULA_CHUNK * PENDULA_CHUNK : pool;
	float *next = self->scratch_pool;
	for (int s = 0; s < self->n_signals; ++s) {
		self->chunk_signal[s] = next;
		if (self->route_copy || self->route_scratch[s])
			next += self->scratch_frames;
	}
	plan_build(self);
}

/* Frames [offset, offset + n) of the block; at most scratch_frames if some
 * output goes through scratch.  last: this span ends the block and is the
 * place to take the last values of outputs not written anywhere. */
static void run_chunk(Pendula *self, uint32_t offset, uint32_t n, bool last)
{
	pendula_outputs *out = &self->span_out;
	const pendula_event_fn events = self->events_on ? on_event : NULL;
	if (self->route_copy) {
		for (int s = 0; s < self->n_signals; ++s)
			out->ch[self->signal_ch[s]] = self->chunk_signal[s];
		pulse_begin(self, out->ch[PENDULA_CH_FLIPS], out->ch[PENDULA_CH_SWINGS], n);
		pendula_engine_run_events(self->engine, n, out, events, self);
		notes_chunk(self, n);
		for (int s = 0; s < self->n_signals; ++s) {
			out->ch[self->signal_ch[s]] = NULL;
			float *values = self->chunk_signal[s];
			if (is_silent_body(self, s))
				memset(values, 0, n * sizeof(float));
			self->signal_last[s] = values[n - 1];
			float *host = (float *)self->port[self->signal[s]];
			if (host)
				memcpy(host + offset, values, n * sizeof(float));
		}
		chunk_done(self, offset, n);
		return;
	}
	/* values at the block's last frame only (route_last) */
	pendula_outputs *last_out = &self->span_last;
	if (self->plan_bodies != self->n_bodies_pushed)
		plan_build(self); /* bodies came or went within the block */
	for (int j = 0; j < self->plan_n_write; ++j) {
		const int s = self->plan_write[j];
		out->ch[self->signal_ch[s]] =
		    self->route_host[s] ? self->route_host[s] + offset : self->chunk_signal[s];
	}
	const bool any_last = last && self->plan_n_last > 0;
	for (int j = 0; any_last && j < self->plan_n_last; ++j) {
		const int s = self->plan_last[j];
		last_out->ch[self->signal_ch[s]] = &self->last_value[s];
	}
	pulse_begin(self, out->ch[PENDULA_CH_FLIPS], out->ch[PENDULA_CH_SWINGS], n);
	pendula_engine_run_events_last(self->engine, n, out, any_last ? last_out : NULL, events,
	                               self);
	for (int j = 0; j < self->plan_n_write; ++j)
		out->ch[self->signal_ch[self->plan_write[j]]] = NULL;
	for (int j = 0; any_last && j < self->plan_n_last; ++j)
		last_out->ch[self->signal_ch[self->plan_last[j]]] = NULL;
	notes_chunk(self, n);
	/* The last values are read at the end of the block only; before it,
	 * only the outputs of absent bodies need work (zeros). */
	for (int j = 0; j < self->plan_n_silent; ++j) {
		const int s = self->plan_silent[j];
		if (self->route_host[s])
			memset(self->route_host[s] + offset, 0, n * sizeof(float));
		if (self->route_scratch[s])
			memset(self->chunk_signal[s], 0, n * sizeof(float));
		self->signal_last[s] = 0.0f;
	}
	if (last) {
		for (int j = 0; j < self->plan_n_write; ++j) {
			const int s = self->plan_write[j];
			self->signal_last[s] = self->route_host[s]
			                           ? self->route_host[s][offset + n - 1]
			                           : self->chunk_signal[s][n - 1];
		}
		for (int j = 0; j < self->plan_n_last; ++j) {
			const int s = self->plan_last[j];
			const int ch = self->signal_ch[s];
			const int kind = ch == PENDULA_CH_SWINGS;
			self->signal_last[s] =
			    ch != PENDULA_CH_FLIPS && ch != PENDULA_CH_SWINGS ? self->last_value[s]
			    : self->pulse_left[kind] >= 0 ? self->pulse_value[kind]
			                                  : 0.0f;
		}
	}
	chunk_done(self, offset, n);
}

/* A stepped setting changed: an initial condition restarts the motion from
 * the new initial state (so a preset chosen at run time starts its own
 * motion); any other (e.g. the number of bodies) reaches the engine at the
 * next chunk. */
static void stepped_changes(Pendula *self)
{
	for (uint32_t i = 0; i < self->n_stepped; ++i) {
		const pendula_port_id id = self->stepped_in[i];
		if (self->control[id] == self->stepped_last[id])
			continue;
		if (pendula_ports[id].flags & PF_INITIAL)
			self->restart_pending = true;
		else
			self->params_dirty = true;
	}
}

/* ---------------------------------------------------------------------- */
/* Freeze (README.md): while `freeze` is on, simulated time stops.  The    */
/* engine, the chunk grid and the smoothers stand still, every signal      */
/* output holds its last frame's value and the control outputs keep       */
/* theirs; MIDI still passes through.  On release the motion resumes      */
/* exactly where it stopped: the frames after a freeze of N frames are     */
/* those of the run without it, N frames later.                            */

static bool frozen(const Pendula *self)
{
	return self->control[P_FREEZE] >= 0.5f;
}

static void run_frozen(Pendula *self, uint32_t n_samples)
{
	midi_begin(self, n_samples);
	/* the sounding notes end now (or, without room or frame, at the next
	 * chance) */
	notes_end_all(self);
	notes_retry(self, 0);
	time_ratio_begin(self); /* (1: time stands by request) */
	/* The input events at their frames, the tempo follower advanced to
	 * each in between, as run() does: a time:Position describes its own
	 * frame (taken at the block's first frame, the song position stood
	 * that many frames ahead until the next Position). */
	for (uint32_t pos = 0, n; pos < n_samples; pos += n) {
		midi_forward_until(self, (int64_t)pos + 1);
		n = frames_before_next_event(self, pos, n_samples - pos);
		pendula_tempo_advance(&self->tempo, n);
	}
	midi_end(self);
	for (int s = 0; s < self->n_signals; ++s) {
		float *host = (float *)self->port[self->signal[s]];
		if (self->signal_ch[s] == PENDULA_CH_FLIPS ||
		    self->signal_ch[s] == PENDULA_CH_SWINGS)
			self->signal_last[s] = 0.0f; /* a pulse ends */
		if (!host)
			continue;
		for (uint32_t i = 0; i < n_samples; ++i)
			host[i] = self->signal_last[s];
	}
	write_control_outputs(self);
	time_ratio_end(self, n_samples);
}

static void run(LV2_Handle instance, uint32_t n_samples)
{
	Pendula *self = (Pendula *)instance;

	read_controls(self);

	/* reset: rising edge; before the first block the previous value is 0. */
	const float reset = self->control[P_RESET];
	const bool reset_edge = reset >= 0.5f && self->prev_reset < 0.5f;
	self->prev_reset = reset;

	if (self->controls_changed) /* (otherwise stepped_last is up to date) */
		stepped_changes(self);
	if (self->restart_pending || reset_edge) {
		self->restart_pending = false;
		restart(self);
	}
	if (frozen(self)) {
		run_frozen(self, n_samples);
		return;
	}

	midi_begin(self, n_samples);
	time_ratio_begin(self);
	cc_configure(self);
	if (self->controls_changed)
		self->smoothing = smoothers_moving(self);
	self->controls_changed = false;
	route_outputs(self, n_samples);
	/* Spans longer than a chunk when nothing needs the chunk grid in this
	 * block: every smoother settled (they stay so until the next block's
	 * controls) and no tempo sync (which locks the phase on the grid).
	 * The engine's output does not depend on how its frames are split. */
	const bool sync_on =
	    self->control[P_PIVOT_X_SYNC] > 0.0f || self->control[P_PIVOT_Y_SYNC] > 0.0f;
	const uint32_t span = self->route_any_scratch ? self->scratch_frames : UINT32_MAX;
	/* notes: at most a chunk at a time (the chunk's event list is bounded);
	 * the pulses need no list */
	self->notes_live = notes_on(self);
	self->events_on = self->notes_live || self->route_events;
	const bool notes = self->notes_live || self->n_sounding > 0 || self->notes_flush;

	uint32_t pos = 0;
	while (pos < n_samples) {
		/* The input events of this frame: MIDI out, time:Position into
		 * the tempo follower (a transport start may restart). */
		midi_forward_until(self, (int64_t)pos + 1);
		transport_start(self);
		if (self->chunk_phase == 0 && smoothers_advance(self))
			self->params_dirty = true;
		tempo_sync_update(self);
		if (self->params_dirty)
			push_params(self);
		tempo_sync_lock(self);
		uint32_t n = PENDULA_CHUNK - self->chunk_phase;
		if (!self->smoothing && !sync_on && !self->params_dirty && !notes)
			n = n_samples - pos;
		if (n > span)
			n = span;
		if (n > n_samples - pos)
			n = n_samples - pos;
		n = frames_before_next_event(self, pos, n);
		run_chunk(self, pos, n, pos + n == n_samples);
		pendula_tempo_advance(&self->tempo, n);
		pos += n;
		self->chunk_phase = (self->chunk_phase + n) % PENDULA_CHUNK;
	}

	midi_end(self);
	/* the control outputs and the inline display read parts of the last
	 * frame (pendula_engine_last_pose: the pivot, the pose) */
	write_control_outputs(self);
	time_ratio_end(self, n_samples);
	pendula_idpy_run(self->idpy, self->engine, n_samples);
}

/* ---------------------------------------------------------------------- */
/* LV2 plumbing                                                            */

/* The variant's ports and their relations, from the port table. */
static void ports_from_table(Pendula *self)
{
	const pendula_variant v = self->variant;
	self->n_ports = pendula_port_count(v);
	for (uint32_t i = 0; i < self->n_ports; ++i)
		self->id_of_index[i] = (int16_t)pendula_port_id_at(v, i);
	for (int i = 0; i < PENDULA_N_PORT_IDS; ++i) {
		const pendula_port_id id = (pendula_port_id)i;
		const pendula_port_info *info = &pendula_ports[id];
		self->control[id] = pendula_port_default(v, id);
		self->control_place[id] = -1;
		if (pendula_port_index(v, id) < 0)
			continue;
		if (info->kind == PK_CONTROL_IN)
			self->control[id] = sanitize_control(self, id, self->control[id]);
		if (info->kind == PK_CONTROL_IN) {
			self->control_default[id] = pendula_port_default(v, id);
			self->port[id] = &self->control_default[id]; /* until connected */
			const uint32_t place = self->n_control_in++;
			self->control_in[place] = id;
			self->control_place[id] = (int16_t)place;
			self->control_buf[place] = &self->control_default[id];
			/* a NaN: never a host's value until it is read (a host's
			 * NaN means the default, which control[] holds) */
			self->control_bits[place] = 0x7fc0beefu;
			if (info->flags & PF_SMOOTH)
				self->smoothed_in[self->n_smoothed++] = id;
			else if (info->param != PP_NONE)
				self->stepped_in[self->n_stepped++] = id;
		} else if (info->kind == PK_SIGNAL_OUT && self->n_signals < MAX_SIGNALS) {
			const int s = self->n_signals++;
			self->signal[s] = id;
			self->signal_ch[s] = info->channel;
			self->signal_body[s] = pendula_symbol_body(info->symbol);
			self->signal_mirror[s] =
			    info->related != P_NONE &&
			            pendula_port_index(v, (pendula_port_id)info->related) >= 0
			        ? info->related
			        : P_NONE;
			self->signal_map[s] = (info->flags & PF_CC_ENERGY) ? PENDULA_CC_MAP_ENERGY
			                      : is_angle_channel(info->channel)
			                          ? PENDULA_CC_MAP_ANGLE
			                          : PENDULA_CC_MAP_TIP;
			self->signal_cc[s] = P_NONE;
			if (is_angle_channel(info->channel) &&
			    info->channel - PENDULA_CH_THETA + 1 > self->angle_bodies)
				self->angle_bodies = info->channel - PENDULA_CH_THETA + 1;
		}
	}
	/* The CC port of each signal: the control input related to it. */
	for (int i = 0; i < PENDULA_N_PORT_IDS; ++i) {
		const pendula_port_info *info = &pendula_ports[i];
		if (info->kind != PK_CONTROL_IN || info->related == P_NONE ||
		    pendula_port_index(v, (pendula_port_id)i) < 0)
			continue;
		for (int s = 0; s < self->n_signals; ++s)
			if (self->signal[s] == (pendula_port_id)info->related)
				self->signal_cc[s] = i;
	}
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
	/* Accepted sample rates: 1 kHz to 1.536 MHz (README.md).  The frame
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

	Pendula *self = (Pendula *)calloc(1, sizeof(Pendula));
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

	self->pulse_frames = (uint32_t)fmax(1.0, floor(0.001 * rate + 0.5));
	self->smooth_coef = 1.0 - exp(-(double)PENDULA_CHUNK / (PENDULA_SMOOTH_TIME * rate));

	smoothers_snap(self);
	build_params(self, &self->params);
	self->n_bodies_pushed = self->params.n_bodies;
	self->engine = pendula_engine_new(rate, &self->params);
	if (!self->engine) {
		pendula_midi_io_cleanup(&self->midi);
		free(self);
		return NULL;
	}
	self->restart_pending = true;
	self->controls_changed = true;
	self->route_stale = true;
	self->mirrors_stale = true;
	signal_last_from_engine(self);
	self->idpy = pendula_idpy_new(features, rate);
	return (LV2_Handle)self;
}

static void connect_port(LV2_Handle instance, uint32_t index, void *data)
{
	Pendula *self = (Pendula *)instance;
	if (index < self->n_ports && self->port[self->id_of_index[index]] != data) {
		const int id = self->id_of_index[index];
		/* a control input not connected reads its default */
		self->port[id] = data || pendula_ports[id].kind != PK_CONTROL_IN
		                     ? data
		                     : &self->control_default[id];
		if (self->control_place[id] >= 0)
			self->control_buf[self->control_place[id]] = (const float *)self->port[id];
		self->route_stale = true; /* route again */
		self->mirrors_stale = true;
	}
}

static void activate(LV2_Handle instance)
{
	Pendula *self = (Pendula *)instance;
	/* t = 0.  The ports may not be connected yet: the settings are read
	 * and the state restarted with them at the first run(). */
	pendula_engine_reset(self->engine);
	self->restart_pending = true;
	self->prev_reset = 0.0f;
	self->chunk_phase = 0;
	midi_tempo_init(self);
	self->note_clock = 0;
	self->notes_flush = true; /* notes that sounded before deactivate() end */
}

static void deactivate(LV2_Handle instance)
{
	(void)instance;
}

static void cleanup(LV2_Handle instance)
{
	Pendula *self = (Pendula *)instance;
	pendula_idpy_free(self->idpy);
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
	if (!strcmp(uri, LV2_INLINEDISPLAY__interface))
		return &idpy;
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
static const LV2_Descriptor descriptors[PENDULA_N_VARIANTS] = {
    PENDULA_MODELS(PENDULA_X_DESCRIPTORS)};
#undef PENDULA_X_DESCRIPTORS

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index)
{
	return index < PENDULA_N_VARIANTS ? &descriptors[index] : NULL;
}
