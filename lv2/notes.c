/* SPDX-License-Identifier: ISC */
/*
 * Events of one plugin instance: the flips and swings pulses and the MIDI
 * notes they play, with every note-on balanced by its note-off (see notes.h
 * for what this part owns and why).
 */
#include "notes.h"

#include <math.h>
#include <string.h>

#define NOTE_SOUNDING 0x10u
#define NOTE_OWED     0x20u

void pendula_notes_init(pendula_notes *n, double sample_rate)
{
	n->sample_rate = sample_rate;
	n->pulse_frames = (uint32_t)fmax(1.0, floor(0.001 * sample_rate + 0.5));
}

void pendula_notes_activate(pendula_notes *n)
{
	n->note_clock = 0;
	n->notes_flush = true;
}

void pendula_notes_restart(pendula_notes *n)
{
	n->notes_flush = true; /* the notes of the old motion end */
	n->pulse_left[0] = n->pulse_left[1] = 0;
}

/* No note waits for the grid any more (none sounds for it yet). */
static void drop_waiting(pendula_notes *n)
{
	for (int i = 0; i < 128 && n->n_waiting > 0; ++i)
		if (n->start_at[i]) {
			n->start_at[i] = 0;
			n->n_waiting--;
		}
}

void pendula_notes_block(pendula_notes *n, const float *control, bool midi_out, bool routed)
{
	/* notes: at most a chunk at a time (the chunk's event list is
	 * bounded); the pulses need no list */
	n->notes_live = midi_out && (control[P_NOTE_FLIP] >= 0.0f || control[P_NOTE_SWING] >= 0.0f);
	n->events_on = n->notes_live || routed;
	if (!n->notes_live && n->n_waiting > 0)
		drop_waiting(n); /* notes turned off: what waited is not played */
}

/* Pulses go straight into the flips and swings buffers of the span being
 * run (pendula_notes_pulse_begin sets them up); the events are kept for the notes only
 * when notes are on (their list is bounded by a chunk). */
void pendula_notes_on_event(void *user, const pendula_event *ev)
{
	pendula_notes *n = (pendula_notes *)user;
	const int kind = ev->kind;
	const uint32_t end = ev->frame + n->pulse_frames;
	const uint32_t stop = end < n->pulse_n ? end : n->pulse_n;
	const float value = (float)ev->dir;
	float *buf = n->pulse_buf[kind];
	if (buf)
		for (uint32_t f = ev->frame; f < stop; ++f)
			buf[f] = value;
	/* the latest event's pulse is the one that goes on (all last as
	 * long: it also ends last) */
	n->pulse_value[kind] = value;
	n->pulse_left[kind] = end >= n->pulse_n ? (int32_t)(end - n->pulse_n) : -1;
	if (n->notes_live && n->n_events < sizeof(n->events) / sizeof(n->events[0])) {
		pendula_note_event *kept = &n->events[n->n_events++];
		kept->frame = ev->frame;
		kept->body = (uint8_t)ev->body;
		kept->kind = (uint8_t)ev->kind;
		kept->dir = (int8_t)ev->dir;
		kept->speed = ev->speed;
		kept->position = ev->position;
	}
}

void pendula_notes_pulse_begin(pendula_notes *n, float *flips, float *swings, uint32_t frames)
{
	n->pulse_buf[0] = flips;
	n->pulse_buf[1] = swings;
	n->pulse_n = frames;
	for (int kind = 0; kind < 2; ++kind) {
		const int32_t left = n->pulse_left[kind];
		const uint32_t lit = left <= 0                 ? 0
		                     : (uint32_t)left < frames ? (uint32_t)left
		                                               : frames;
		float *buf = n->pulse_buf[kind];
		if (buf) {
			for (uint32_t f = 0; f < lit; ++f)
				buf[f] = n->pulse_value[kind];
			memset(buf + lit, 0, (frames - lit) * sizeof(float));
		}
		n->pulse_left[kind] = left >= (int32_t)frames ? left - (int32_t)frames : -1;
	}
}

/* The channel (0..15) new notes go out on. */
static int note_channel_now(const float *control)
{
	return ((int)control[P_MIDI_CHANNEL] - 1) & 15;
}

/* A message of the chunk: its frame is below PENDULA_CHUNK (a block that
 * plays notes runs chunk by chunk, pendula_notes_busy). */
_Static_assert(PENDULA_CHUNK <= 256, "a chunk's frame no longer fits a note message's byte");
static void note_msg(pendula_notes *n, uint32_t frame, uint8_t status, int channel, uint8_t note,
                     uint8_t vel)
{
	const uint32_t cap = sizeof(n->note_msg) / sizeof(n->note_msg[0]);
	if (n->n_note_msgs >= cap)
		return;
	n->note_msg[n->n_note_msgs].frame = (uint8_t)frame;
	n->note_msg[n->n_note_msgs].bytes[0] = (uint8_t)(status | (channel & 15));
	n->note_msg[n->n_note_msgs].bytes[1] = note;
	n->note_msg[n->n_note_msgs].bytes[2] = vel;
	n->n_note_msgs++;
}

/* The sounding note whose note-off comes first, if it is due before
 * `until` (absolute frame); -1 if none. */
static int next_note_off(const pendula_notes *n, uint64_t until)
{
	int best = -1;
	for (int i = 0; i < 128; ++i)
		if (n->note_off[i] && n->note_off[i] < until &&
		    (best < 0 || n->note_off[i] < n->note_off[best]))
			best = i;
	return best;
}

/* The start that waited for the grid and is due first, if before `until`
 * (absolute frame); -1 if none. */
static int next_start(const pendula_notes *n, uint64_t until)
{
	int best = -1;
	for (int i = 0; i < 128; ++i)
		if (n->start_at[i] && n->start_at[i] < until &&
		    (best < 0 || n->start_at[i] < n->start_at[best]))
			best = i;
	return best;
}

/* A note-on at a frame of the chunk (c0: the chunk's first frame), its
 * note-off planned `length` frames later; a note that sounds ends first. */
static void note_start(pendula_notes *n, const float *control, uint64_t c0, uint32_t frame,
                       int note, uint8_t vel, uint64_t length)
{
	if (n->note_off[note])
		note_msg(n, frame, 0x80, 0, (uint8_t)note, 0);
	else
		n->n_sounding++;
	note_msg(n, frame, 0x90, note_channel_now(control), (uint8_t)note, vel);
	n->note_off[note] = c0 + frame + length;
}

/* Semitones of each note_scale above the root (bit i: i semitones), from
 * the scales' definitions (docs/GUIDE.md, "Notes in a scale"). */
static const uint16_t scale_steps[] = {0,      /* 0: fixed pitches */
                                       0xfff,  /* chromatic */
                                       0xab5,  /* major: 0 2 4 5 7 9 11 */
                                       0x5ad,  /* natural minor: 0 2 3 5 7 8 10 */
                                       0x295,  /* major pentatonic: 0 2 4 7 9 */
                                       0x4a9,  /* minor pentatonic: 0 3 5 7 10 */
                                       0x555,  /* whole tone: 0 2 4 6 8 10 */
                                       0x6ad}; /* dorian: 0 2 3 5 7 9 10 */

/* The chunk's scale: the notes of note_scale from note_root between
 * note_low and note_high (swapped if low > high), lowest first; returns
 * how many (0 with fixed pitches). */
static int scale_notes(const float *control, uint8_t *notes)
{
	const int scale = (int)control[P_NOTE_SCALE];
	if (scale <= 0 || scale >= (int)(sizeof(scale_steps) / sizeof(scale_steps[0])))
		return 0;
	int lo = (int)control[P_NOTE_LOW], hi = (int)control[P_NOTE_HIGH];
	if (lo > hi) {
		const int t = lo;
		lo = hi;
		hi = t;
	}
	const int root = (int)control[P_NOTE_ROOT];
	int m = 0;
	for (int note = lo < 0 ? 0 : lo; note <= hi && note < 128; ++note)
		if (scale_steps[scale] >> ((note - root + 120) % 12) & 1u)
			notes[m++] = (uint8_t)note;
	return m;
}

/* Frames from the chunk's frame `frame` to the first frame on or after the
 * next line of note_grid (0: on a line, no grid, or no transport to follow:
 * at once).  The song position of a frame is the tempo follower's there,
 * so the lines fall on the same frames whatever the block sizes. */
static uint32_t grid_delay(const float *control, const pendula_tempo *tempo, uint32_t frame)
{
	const int grid = (int)control[P_NOTE_GRID];
	if (grid <= 0 || !tempo || !pendula_tempo_locked(tempo) || !pendula_tempo_rolling(tempo))
		return 0;
	const double step = ldexp(1.0, 1 - grid); /* quarters: 1/4 note = 1 */
	const double per_frame = pendula_tempo_quarters_per_frame(tempo);
	const double q = pendula_tempo_quarters_ahead(tempo, frame);
	/* (a grid step of more than 2^30 frames, a tempo near 0, plays at
	 * once: the frame counts stay far from overflowing) */
	if (!(per_frame * 0x1p30 > step) || !isfinite(q))
		return 0;
	/* a frame within a millionth of a frame of a line is on it: the
	 * rounding of the song position does not move a note a frame late */
	const double tol = 1e-6 * per_frame;
	const double lines = floor((q + tol) / step);
	if (fabs(q - lines * step) <= tol)
		return 0;
	const double line = (lines + 1.0) * step - tol;
	const double guess = ceil((line - q) / per_frame);
	const double most = ceil(step / per_frame) + 1.0; /* one grid step */
	uint32_t d = (uint32_t)(guess < 1.0 ? 1.0 : guess < most ? guess : most);
	/* the guess's rounding, to the frame: a step or two, bounded for a
	 * song position so far that frames no longer move it */
	for (int i = 0;
	     i < 4 && d > 1 && pendula_tempo_quarters_ahead(tempo, frame + d - 1) >= line; ++i)
		--d;
	for (int i = 0; i < 4 && d < most && pendula_tempo_quarters_ahead(tempo, frame + d) < line;
	     ++i)
		++d;
	return d;
}

/* An event of the chunk: its note starts at once or waits for the grid. */
static void note_event(pendula_notes *n, const float *control, const pendula_tempo *tempo,
                       uint64_t c0, const pendula_note_event *ev, const uint8_t *scale, int n_scale,
                       uint64_t length)
{
	const float base = control[ev->kind == PENDULA_EVENT_FLIP ? P_NOTE_FLIP : P_NOTE_SWING];
	if (base < 0.0f)
		return;
	int note = (int)base + ev->body;
	if ((int)control[P_NOTE_SCALE] > 0) {
		if (n_scale == 0)
			return; /* no note of the scale in the range */
		const int i = (int)(ev->position * n_scale);
		note = scale[i < 0 ? 0 : i < n_scale ? i : n_scale - 1];
	}
	if (note > 127)
		return;
	const double speed = ev->speed < 1.0 ? ev->speed : 1.0;
	const uint8_t vel = (uint8_t)(1.0 + floor(126.0 * speed + 0.5));
	const uint32_t wait = grid_delay(control, tempo, ev->frame);
	if (!wait) {
		note_start(n, control, c0, ev->frame, note, vel, length);
		return;
	}
	/* events of one note waiting for the same line make one note */
	if (!n->start_at[note]) {
		n->start_at[note] = c0 + ev->frame + wait;
		n->start_vel[note] = vel;
		n->n_waiting++;
	} else if (vel > n->start_vel[note]) {
		n->start_vel[note] = vel;
	}
}

void pendula_notes_chunk(pendula_notes *n, const float *control, const pendula_tempo *tempo,
                         uint32_t frames)
{
	uint32_t j;
	n->n_note_msgs = n->next_note_msg = 0;
	const uint64_t c0 = n->note_clock;
	if (n->notes_flush) { /* at the chunk's first frame */
		n->notes_flush = false;
		pendula_notes_end_all(n);
	}
	const bool on = n->notes_live;
	const uint64_t length =
	    (uint64_t)fmax(1.0, floor(control[P_NOTE_LENGTH] * 0.001 * n->sample_rate + 0.5));
	uint8_t scale[128];
	const int n_scale = on && n->n_events ? scale_notes(control, scale) : 0;
	j = 0;
	for (;;) {
		/* the note-offs due at an event's (or a waiting start's) frame
		 * or before go first, then the start, then the event; at the
		 * chunk's end, those due before it (one due at frame n is the
		 * next chunk's first frame: at n it could be frame n_samples of
		 * the block, outside it) */
		const int wait = n->n_waiting ? next_start(n, c0 + frames) : -1;
		const uint64_t at_start = wait >= 0 ? n->start_at[wait] : UINT64_MAX;
		const uint64_t at_event = j < n->n_events ? c0 + n->events[j].frame : UINT64_MAX;
		const uint64_t next = at_start <= at_event ? at_start : at_event;
		const uint64_t until = next != UINT64_MAX ? next + 1 : c0 + frames;
		const int off = n->n_sounding ? next_note_off(n, until) : -1;
		if (off >= 0) {
			/* (note_out sends it on its note-on's channel) */
			note_msg(n, (uint32_t)(n->note_off[off] - c0), 0x80, 0, (uint8_t)off, 0);
			n->note_off[off] = 0;
			n->n_sounding--;
			continue;
		}
		if (wait >= 0 && at_start <= at_event) {
			n->start_at[wait] = 0;
			n->n_waiting--;
			note_start(n, control, c0, (uint32_t)(at_start - c0), wait,
			           n->start_vel[wait], length);
			continue;
		}
		if (j >= n->n_events)
			break;
		const pendula_note_event *ev = &n->events[j++];
		if (on)
			note_event(n, control, tempo, c0, ev, scale, n_scale, length);
	}
	n->note_clock += frames;
	n->n_events = 0;
}

/* A note message into the MIDI output at a frame of the block, with what
 * went out kept per note (note_sent), so that a host buffer without room
 * for every message leaves no note stuck:
 * - a note that sounds is ended first, whatever the message: a note-on
 *   goes out only after the note-off of the note's last note-on did;
 * - a note-off that finds no room is owed and sent again at the next
 *   chance (pendula_notes_retry), on the channel of its note-on;
 * - a note-off whose note-on did not go out is not sent. */
static void note_out(pendula_notes *n, pendula_midi_io *io, uint32_t frame, const uint8_t *msg)
{
	const int note = msg[1] & 127;
	uint8_t *sent = &n->note_sent[note];
	if (*sent & NOTE_SOUNDING) {
		const uint8_t off[3] = {(uint8_t)(0x80 | (*sent & 15)), (uint8_t)note, 0};
		if (!pendula_midi_io_generate(io, frame, off, 3, 0)) {
			if (!(*sent & NOTE_OWED)) {
				*sent |= NOTE_OWED;
				n->n_owed++;
			}
			return;
		}
		if (*sent & NOTE_OWED)
			n->n_owed--;
		*sent = 0;
	}
	if ((msg[0] & 0xf0) == 0x90 && pendula_midi_io_generate(io, frame, msg, 3, 0))
		*sent = (uint8_t)(NOTE_SOUNDING | (msg[0] & 15));
}

void pendula_notes_retry(pendula_notes *n, pendula_midi_io *io, uint32_t frame)
{
	for (int i = 0; i < 128 && n->n_owed > 0; ++i)
		if (n->note_sent[i] & NOTE_OWED) {
			const uint8_t off[3] = {0x80, (uint8_t)i, 0};
			note_out(n, io, frame, off);
		}
}

void pendula_notes_end_all(pendula_notes *n)
{
	drop_waiting(n);
	for (int i = 0; i < 128; ++i) {
		n->note_off[i] = 0;
		if ((n->note_sent[i] & (NOTE_SOUNDING | NOTE_OWED)) == NOTE_SOUNDING) {
			n->note_sent[i] |= NOTE_OWED;
			n->n_owed++;
		}
	}
	n->n_sounding = 0;
}

uint32_t pendula_notes_keep(const pendula_notes *n)
{
	return (n->n_note_msgs - n->next_note_msg + (uint32_t)n->n_owed) *
	       pendula_midi_io_event_bytes(3);
}

void pendula_notes_flush_until(pendula_notes *n, pendula_midi_io *io, uint32_t offset,
                               uint32_t until)
{
	while (n->next_note_msg < n->n_note_msgs && n->note_msg[n->next_note_msg].frame < until) {
		note_out(n, io, offset + n->note_msg[n->next_note_msg].frame,
		         n->note_msg[n->next_note_msg].bytes);
		n->next_note_msg++;
	}
}
