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

void pendula_notes_block(pendula_notes *n, const float *control, bool midi_out, bool routed)
{
	/* notes: at most a chunk at a time (the chunk's event list is
	 * bounded); the pulses need no list */
	n->notes_live = midi_out && (control[P_NOTE_FLIP] >= 0.0f || control[P_NOTE_SWING] >= 0.0f);
	n->events_on = n->notes_live || routed;
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
	if (n->notes_live && n->n_events < sizeof(n->events) / sizeof(n->events[0]))
		n->events[n->n_events++] = *ev;
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

static void note_msg(pendula_notes *n, uint32_t frame, uint8_t status, int channel, uint8_t note,
                     uint8_t vel)
{
	const uint32_t cap = sizeof(n->note_msg) / sizeof(n->note_msg[0]);
	if (n->n_note_msgs >= cap)
		return;
	n->note_msg[n->n_note_msgs].frame = frame;
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

void pendula_notes_chunk(pendula_notes *n, const float *control, uint32_t frames)
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
	j = 0;
	for (;;) {
		/* the note-offs due at an event's frame or before go first; at
		 * the chunk's end, those due before it (one due at frame n is
		 * the next chunk's first frame: at n it could be frame n_samples
		 * of the block, outside it) */
		const uint64_t until = j < n->n_events ? c0 + n->events[j].frame + 1 : c0 + frames;
		const int off = n->n_sounding ? next_note_off(n, until) : -1;
		if (off >= 0) {
			/* (note_out sends it on its note-on's channel) */
			note_msg(n, (uint32_t)(n->note_off[off] - c0), 0x80, 0, (uint8_t)off, 0);
			n->note_off[off] = 0;
			n->n_sounding--;
			continue;
		}
		if (j >= n->n_events)
			break;
		const pendula_event *ev = &n->events[j++];
		const float base =
		    control[ev->kind == PENDULA_EVENT_FLIP ? P_NOTE_FLIP : P_NOTE_SWING];
		const int note = (int)base + ev->body;
		if (!on || base < 0.0f || note > 127)
			continue;
		if (n->note_off[note])
			note_msg(n, ev->frame, 0x80, 0, (uint8_t)note, 0);
		else
			n->n_sounding++;
		const double speed = ev->speed < 1.0 ? ev->speed : 1.0;
		note_msg(n, ev->frame, 0x90, note_channel_now(control), (uint8_t)note,
		         (uint8_t)(1.0 + floor(126.0 * speed + 0.5)));
		n->note_off[note] = c0 + ev->frame + length;
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
