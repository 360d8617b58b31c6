/* SPDX-License-Identifier: ISC */
/*
 * Pendula LV2 glue: the four plugins of README.md (double, double-cv, parallel,
 * parallel-cv) in one shared object.  Thin on purpose: map ports, read and
 * clamp controls, smooth the physical ones, call the engine, write outputs.
 * The physics lives in engine/pendula_engine.c, the port table in ports.h.
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

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Frames per processing chunk: the smoothers step and parameter changes reach
 * the engine at most this often. */
#define PENDULA_CHUNK 64u
/* Time constant of the control smoothers, seconds of real (audio) time. */
#define PENDULA_SMOOTH_TIME 0.020

#define PENDULA_PI 3.14159265358979323846

/* ---------------------------------------------------------------------- */
/* Signal outputs                                                          */

enum {
	SIG_THETA1,
	SIG_THETA2,
	SIG_THETA3,
	SIG_THETA4,
	SIG_TIP_X,
	SIG_TIP_Y,
	SIG_ENERGY,
	N_SIGNALS
};

static const pendula_port_id signal_port[N_SIGNALS] = {
	P_OUT_THETA1, P_OUT_THETA2, P_OUT_THETA3, P_OUT_THETA4,
	P_OUT_TIP_X,  P_OUT_TIP_Y,  P_OUT_ENERGY,
};

/* Block-rate control output mirroring each signal output. */
static const pendula_port_id signal_ctl_port[N_SIGNALS] = {
	P_CTL_THETA1, P_CTL_THETA2, P_CTL_THETA3, P_CTL_THETA4,
	P_CTL_TIP_X,  P_CTL_TIP_Y,  P_CTL_ENERGY,
};

/* Controls smoothed by a one-pole (PENDULA_SMOOTH_TIME): the continuous
 * physical settings, whose jumps would kink the motion or click in an
 * oscillator.  Not smoothed: n_bodies (a count), the initial angles (they act
 * at a reset), reset, and the MIDI / tempo controls. */
static const pendula_port_id smoothed_ports[] = {
	P_TIME_SCALE,   P_GRAVITY,      P_M1,           P_M2,          P_M3,
	P_M4,           P_L1,           P_L2,           P_C1,          P_C2,
	P_C3,           P_C4,           P_INERTIA1,     P_INERTIA2,    P_INERTIA3,
	P_INERTIA4,     P_B2,           P_B3,           P_B4,          P_BETA2,
	P_BETA3,        P_BETA4,        P_LAMBDA1,      P_LAMBDA2,     P_LAMBDA3,
	P_LAMBDA4,      P_SIGMA1,       P_SIGMA2,       P_SIGMA3,      P_SIGMA4,
	P_PIVOT_X_AMP,  P_PIVOT_X_FREQ, P_PIVOT_Y_AMP,  P_PIVOT_Y_FREQ,
};
#define N_SMOOTHED (sizeof(smoothed_ports) / sizeof(smoothed_ports[0]))

static const pendula_port_id mass_port[4] = {P_M1, P_M2, P_M3, P_M4};
static const pendula_port_id com_port[4] = {P_C1, P_C2, P_C3, P_C4};
static const pendula_port_id inertia_port[4] = {P_INERTIA1, P_INERTIA2, P_INERTIA3, P_INERTIA4};
static const pendula_port_id hinge_port[4] = {P_M1 /* unused */, P_B2, P_B3, P_B4};
static const pendula_port_id hinge_angle_port[4] = {P_M1 /* unused */, P_BETA2, P_BETA3, P_BETA4};
static const pendula_port_id lambda_port[4] = {P_LAMBDA1, P_LAMBDA2, P_LAMBDA3, P_LAMBDA4};
static const pendula_port_id sigma_port[4] = {P_SIGMA1, P_SIGMA2, P_SIGMA3, P_SIGMA4};
static const pendula_port_id theta_init_port[4] = {P_THETA1_INIT, P_THETA2_INIT, P_THETA3_INIT,
                                                   P_THETA4_INIT};

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
	pendula_model model;
	double sample_rate;
	pendula_engine *engine;

	/* Port buffers by global port id (NULL: not connected). */
	void *port[PENDULA_N_PORT_IDS];
	/* Port index -> global id, for this variant. */
	int16_t id_of_index[PENDULA_N_PORT_IDS];
	uint32_t n_ports;
	/* Control inputs of this variant, global ids. */
	pendula_port_id control_in[PENDULA_N_PORT_IDS];
	uint32_t n_control_in;
	bool has_signal[N_SIGNALS];

	/* This block's control inputs, clamped (global id). */
	float control[PENDULA_N_PORT_IDS];

	/* Smoothers: value moves toward control[] by smooth_coef per chunk. */
	double smoothed[PENDULA_N_PORT_IDS];
	bool is_smoothed[PENDULA_N_PORT_IDS];
	double smooth_coef;

	/* Frames since the last chunk boundary, in [0, PENDULA_CHUNK). */
	uint32_t chunk_phase;
	/* Settings last given to the engine. */
	pendula_params params;
	int n_bodies_pushed;
	bool params_dirty;
	bool restart_pending; /* set by activate(): restart at the first run() */
	float prev_reset;

	/* Values of the current chunk per signal: the host's buffer (offset
	 * to the chunk) or, for an unconnected output, scratch.  NULL for a
	 * signal the variant lacks.  Valid inside chunk_done(). */
	float *chunk_signal[N_SIGNALS];
	float scratch[N_SIGNALS][PENDULA_CHUNK];
	/* Latest value of each signal output (for the control outputs). */
	float signal_last[N_SIGNALS];

	/* LV2 */
	LV2_URID_Map *map;
	LV2_Log_Logger logger;
	pendula_uris uris;

	/* MIDI pass-through and the control port's input (see "MIDI" below;
	 * atom_io.c reads and writes the sequences) */
	pendula_midi_io midi;

	/* MIDI CC out and tempo sync (see "MIDI CC out, tempo sync") */
	pendula_cc cc;          /* encoder, outputs indexed by SIG_* */
	bool cc_any;            /* some output is sent this block */
	uint32_t cc_offset;     /* block frame of the chunk being encoded */
	pendula_tempo tempo;    /* host transport, at the next frame to render */
	bool position_event;    /* a time:Position arrived since the last phase lock */
	double sync_hz[2];      /* tempo-synced forcing (x, y), Hz of audio time; 0: free */

	/* Inline display (inline_display.c); NULL: none */
	pendula_idpy *idpy;
} Pendula;

static const LV2_Descriptor descriptors[PENDULA_N_VARIANTS];

/* ---------------------------------------------------------------------- */
/* Controls                                                                */

/* The README.md bad-input rule: NaN -> default, clamp to the declared range
 * (which also catches +-inf); integer ports round, toggles become 0 or 1. */
static float sanitize_control(const Pendula *self, pendula_port_id id, float v)
{
	const pendula_port_info *info = &pendula_ports[id];
	if (v != v)
		v = pendula_port_default(self->variant, id);
	if (v < info->min)
		v = info->min;
	if (v > info->max)
		v = info->max;
	if (info->flags & PF_TOGGLED)
		v = v >= 0.5f ? 1.0f : 0.0f;
	else if (info->flags & (PF_INTEGER | PF_ENUM))
		v = floorf(v + 0.5f);
	return v;
}

/* Reads every control input once, into self->control. */
static void read_controls(Pendula *self)
{
	for (uint32_t i = 0; i < self->n_control_in; ++i) {
		const pendula_port_id id = self->control_in[i];
		const float *p = (const float *)self->port[id];
		const float v = p ? *p : pendula_port_default(self->variant, id);
		self->control[id] = sanitize_control(self, id, v);
	}
}

/* The smoothers jump to their targets (activate, reset). */
static void smoothers_snap(Pendula *self)
{
	for (size_t i = 0; i < N_SMOOTHED; ++i)
		self->smoothed[smoothed_ports[i]] = self->control[smoothed_ports[i]];
}

/* One chunk of the one-pole smoothers.  Returns true if a value moved. */
static bool smoothers_advance(Pendula *self)
{
	bool moved = false;
	for (size_t i = 0; i < N_SMOOTHED; ++i) {
		const pendula_port_id id = smoothed_ports[i];
		if (!self->is_smoothed[id])
			continue;
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
	return moved;
}

static double deg_to_rad(double deg)
{
	return deg * (PENDULA_PI / 180.0);
}

static int n_bodies_of(const Pendula *self)
{
	if (self->model == PENDULA_MODEL_DOUBLE)
		return 2;
	return (int)self->control[P_N_BODIES];
}

static void tempo_sync_params(const Pendula *self, pendula_params *p);

/* Engine settings from the smoothed and the unsmoothed controls. */
static void build_params(const Pendula *self, pendula_params *p)
{
	const double *s = self->smoothed;
	const int n_max = self->model == PENDULA_MODEL_DOUBLE ? 2 : PENDULA_MAX_BODIES;

	pendula_params_default(p, self->model);
	p->model = self->model;
	p->n_bodies = n_bodies_of(self);
	p->time_scale = s[P_TIME_SCALE];
	p->gravity = s[P_GRAVITY];
	for (int k = 0; k < n_max; ++k) {
		p->m[k] = s[mass_port[k]];
		p->lambda[k] = s[lambda_port[k]];
		p->sigma[k] = s[sigma_port[k]];
		p->theta_init[k] = deg_to_rad(self->control[theta_init_port[k]]);
	}
	if (self->model == PENDULA_MODEL_DOUBLE) {
		p->l[0] = s[P_L1];
		p->l[1] = s[P_L2];
	} else {
		for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
			p->c[k] = s[com_port[k]];
			p->inertia[k] = s[inertia_port[k]];
		}
		for (int k = 1; k < PENDULA_MAX_BODIES; ++k) {
			p->b[k] = s[hinge_port[k]];
			p->beta[k] = deg_to_rad(s[hinge_angle_port[k]]);
		}
	}
	p->pivot_x_amp = s[P_PIVOT_X_AMP];
	p->pivot_x_freq = s[P_PIVOT_X_FREQ];
	p->pivot_y_amp = s[P_PIVOT_Y_AMP];
	p->pivot_y_freq = s[P_PIVOT_Y_FREQ];
	tempo_sync_params(self, p);
}

static void push_params(Pendula *self)
{
	build_params(self, &self->params);
	self->n_bodies_pushed = self->params.n_bodies;
	pendula_engine_set_params(self->engine, &self->params);
	self->params_dirty = false;
}

/* ---------------------------------------------------------------------- */
/* Outputs                                                                 */

/* Wrapped angle / pi in [-1, 1), as the engine writes the signal outputs. */
static float angle_output(double theta)
{
	double v = theta * (1.0 / PENDULA_PI);
	if (v >= 1.0 || v < -1.0)
		v -= 2.0 * floor((v + 1.0) * 0.5);
	float f = (float)v;
	if (f >= 1.0f || f < -1.0f) /* README.md: a value rounding to 1 is -1 */
		f = -1.0f;
	return f;
}

/* signal_last from the engine's last frame (before any frame was run). */
static void signal_last_from_engine(Pendula *self)
{
	pendula_frame f;
	pendula_engine_last(self->engine, &f);
	const int n = n_bodies_of(self);
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k)
		self->signal_last[SIG_THETA1 + k] = k < n ? angle_output(f.theta[k]) : 0.0f;
	self->signal_last[SIG_TIP_X] = (float)f.tip_x_norm;
	self->signal_last[SIG_TIP_Y] = (float)f.tip_y_norm;
	self->signal_last[SIG_ENERGY] = (float)f.energy;
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
	for (int s = 0; s < N_SIGNALS; ++s)
		if (self->has_signal[s])
			write_control_output(self, signal_ctl_port[s], self->signal_last[s]);
	pendula_frame f;
	pendula_engine_last(self->engine, &f);
	write_control_output(self, P_CTL_PIVOT_X, (float)f.pivot_x);
	write_control_output(self, P_CTL_PIVOT_Y, (float)f.pivot_y);
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

/* The control input carrying the controller number of each signal, and the
 * CC mapping of README.md. */
static const pendula_port_id signal_cc_port[N_SIGNALS] = {
	P_CC_THETA1, P_CC_THETA2, P_CC_THETA3, P_CC_THETA4,
	P_CC_TIP_X,  P_CC_TIP_Y,  P_CC_ENERGY,
};
static const pendula_cc_map signal_cc_map[N_SIGNALS] = {
	PENDULA_CC_MAP_ANGLE, PENDULA_CC_MAP_ANGLE, PENDULA_CC_MAP_ANGLE, PENDULA_CC_MAP_ANGLE,
	PENDULA_CC_MAP_TIP,   PENDULA_CC_MAP_TIP,   PENDULA_CC_MAP_ENERGY,
};
static const pendula_port_id sync_port[2] = {P_PIVOT_X_SYNC, P_PIVOT_Y_SYNC};

/* instantiate() and activate(): nothing sent yet, transport unknown
 * (stopped), no sync. */
static void midi_tempo_init(Pendula *self)
{
	pendula_cc_init(&self->cc, self->sample_rate, N_SIGNALS);
	pendula_tempo_init(&self->tempo, self->sample_rate);
	self->position_event = false;
	self->sync_hz[0] = self->sync_hz[1] = 0.0;
}

/* This block's CC settings (after read_controls). */
static void cc_configure(Pendula *self)
{
	pendula_cc_configure(&self->cc, (int)self->control[P_MIDI_CHANNEL],
	                     self->control[P_CC_14BIT] >= 0.5f, self->control[P_ENERGY_MAX]);
	for (int s = 0; s < N_SIGNALS; ++s)
		pendula_cc_set_output(&self->cc, s,
		                      self->has_signal[s] ? (int)self->control[signal_cc_port[s]] : -1,
		                      signal_cc_map[s]);
	self->cc_any = pendula_cc_any_enabled(&self->cc);
}

/* A generated MIDI message at a frame of the block, if it fits in the
 * output beside the room reserved for the input MIDI still to come. */
static void midi_write_generated(Pendula *self, uint32_t frame, const uint8_t *bytes,
                                 uint32_t size)
{
	pendula_midi_io_generate(&self->midi, frame, bytes, size);
}

static void cc_emit(void *user, uint32_t frame, const pendula_cc_msg *msg)
{
	Pendula *self = (Pendula *)user;
	midi_write_generated(self, self->cc_offset + frame, msg->bytes, 3);
}

/* The control changes of frames [offset, offset + n) of the block, from the
 * values the engine just wrote (self->chunk_signal). */
static void cc_chunk(Pendula *self, uint32_t offset, uint32_t n)
{
	if (!self->cc_any) {
		pendula_cc_skip(&self->cc, n);
		return;
	}
	const float *signals[N_SIGNALS];
	for (int s = 0; s < N_SIGNALS; ++s)
		signals[s] = self->chunk_signal[s];
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
	cc_chunk(self, offset, n);
}

static void run_chunk(Pendula *self, uint32_t offset, uint32_t n)
{
	pendula_outputs out;
	memset(&out, 0, sizeof(out));
	for (int s = 0; s < N_SIGNALS; ++s) {
		float *buf = NULL;
		if (self->has_signal[s]) {
			float *host = (float *)self->port[signal_port[s]];
			buf = host ? host + offset : self->scratch[s];
		}
		self->chunk_signal[s] = buf;
	}
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k)
		out.theta[k] = self->chunk_signal[SIG_THETA1 + k];
	out.tip_x = self->chunk_signal[SIG_TIP_X];
	out.tip_y = self->chunk_signal[SIG_TIP_Y];
	out.energy = self->chunk_signal[SIG_ENERGY];

	pendula_engine_run(self->engine, n, &out);

	/* README.md: bodies beyond N output 0. */
	for (int k = self->n_bodies_pushed; k < PENDULA_MAX_BODIES; ++k)
		if (self->chunk_signal[SIG_THETA1 + k])
			memset(self->chunk_signal[SIG_THETA1 + k], 0, n * sizeof(float));

	for (int s = 0; s < N_SIGNALS; ++s)
		if (self->chunk_signal[s])
			self->signal_last[s] = self->chunk_signal[s][n - 1];

	chunk_done(self, offset, n);
}

static void run(LV2_Handle instance, uint32_t n_samples)
{
	Pendula *self = (Pendula *)instance;

	read_controls(self);

	/* reset: rising edge; before the first block the previous value is 0. */
	const float reset = self->control[P_RESET];
	const bool reset_edge = reset >= 0.5f && self->prev_reset < 0.5f;
	self->prev_reset = reset;

	if (self->restart_pending || reset_edge) {
		self->restart_pending = false;
		restart(self);
	} else if (n_bodies_of(self) != self->n_bodies_pushed) {
		self->params_dirty = true;
	}

	midi_begin(self, n_samples);
	cc_configure(self);

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
		if (n > n_samples - pos)
			n = n_samples - pos;
		n = frames_before_next_event(self, pos, n);
		run_chunk(self, pos, n);
		pendula_tempo_advance(&self->tempo, n);
		pos += n;
		self->chunk_phase = (self->chunk_phase + n) % PENDULA_CHUNK;
	}

	midi_end(self);
	write_control_outputs(self);
	pendula_idpy_run(self->idpy, self->engine, &self->params, n_samples);
}

/* ---------------------------------------------------------------------- */
/* LV2 plumbing                                                            */

static LV2_Handle instantiate(const LV2_Descriptor *descriptor, double rate,
                              const char *bundle_path, const LV2_Feature *const *features)
{
	(void)bundle_path;
	LV2_URID_Map *map = NULL;
	LV2_Log_Log *log = NULL;
	const char *missing = lv2_features_query(features, LV2_LOG__log, &log, false,
	                                         LV2_URID__map, &map, true, NULL);
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
	while (v < PENDULA_N_VARIANTS && strcmp(descriptor->URI, descriptors[v].URI))
		++v;
	if (v == PENDULA_N_VARIANTS)
		return NULL;

	Pendula *self = (Pendula *)calloc(1, sizeof(Pendula));
	if (!self)
		return NULL;
	self->variant = (pendula_variant)v;
	self->model = pendula_variant_model_mask(self->variant) == PM_D ? PENDULA_MODEL_DOUBLE
	                                                                : PENDULA_MODEL_PARALLEL;
	self->sample_rate = rate;
	self->map = map;
	self->logger = logger;
	map_uris(map, &self->uris);
	if (!pendula_midi_io_init(&self->midi, map, features)) {
		free(self);
		return NULL;
	}
	midi_tempo_init(self);

	self->n_ports = pendula_port_count(self->variant);
	for (uint32_t i = 0; i < self->n_ports; ++i)
		self->id_of_index[i] = (int16_t)pendula_port_id_at(self->variant, i);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		const bool present = pendula_port_index(self->variant, (pendula_port_id)id) >= 0;
		self->control[id] = pendula_port_default(self->variant, (pendula_port_id)id);
		if (present && pendula_ports[id].kind == PK_CONTROL_IN)
			self->control_in[self->n_control_in++] = (pendula_port_id)id;
	}
	for (size_t i = 0; i < N_SMOOTHED; ++i)
		self->is_smoothed[smoothed_ports[i]] =
		    pendula_port_index(self->variant, smoothed_ports[i]) >= 0;
	for (int s = 0; s < N_SIGNALS; ++s)
		self->has_signal[s] = pendula_port_index(self->variant, signal_port[s]) >= 0;
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
	signal_last_from_engine(self);
	self->idpy = pendula_idpy_new(features, rate);
	return (LV2_Handle)self;
}

static void connect_port(LV2_Handle instance, uint32_t index, void *data)
{
	Pendula *self = (Pendula *)instance;
	if (index < self->n_ports)
		self->port[self->id_of_index[index]] = data;
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

static const LV2_Descriptor descriptors[PENDULA_N_VARIANTS] = {
	{PENDULA_URI_DOUBLE, instantiate, connect_port, activate, run, deactivate, cleanup,
	 extension_data},
	{PENDULA_URI_DOUBLE_CV, instantiate, connect_port, activate, run, deactivate, cleanup,
	 extension_data},
	{PENDULA_URI_PARALLEL, instantiate, connect_port, activate, run, deactivate, cleanup,
	 extension_data},
	{PENDULA_URI_PARALLEL_CV, instantiate, connect_port, activate, run, deactivate, cleanup,
	 extension_data},
};

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index)
{
	return index < PENDULA_N_VARIANTS ? &descriptors[index] : NULL;
}
