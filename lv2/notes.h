/* SPDX-License-Identifier: ISC */
/*
 * Events of one plugin instance: the flips and swings pulses and the MIDI
 * notes they play (docs/GUIDE.md, "Events").
 *
 * The engine reports each flip and swing at its frame (pendula_event).  The
 * flips and swings outputs hold +1 or -1 for 1 ms (at least a frame) from
 * the event's frame, 0 otherwise; when several bodies fire at once the
 * highest-numbered body's sign wins.  With note_flip / note_swing on, body k
 * plays note base + k - 1 (notes above 127 are not played) with velocity
 * 1 + round(126 min(|omega{k}|, 1)) (the bead: its speed), and its note-off
 * follows note_length ms later; a note played again while it sounds gets
 * its note-off first.  Notes go out in frame order, merged with the control
 * changes and the MIDI passed through.
 *
 * With note_scale > 0 an enabled event's pitch comes from where the motion
 * stands (pendula_event.position, 0..1) instead: the notes of the scale
 * (note_root + its degrees) between note_low and note_high (swapped if
 * low > high) share [0, 1] equally, lowest first; no scale note in the
 * range, no note.  With note_grid on and the host's transport rolling with
 * a known tempo and position, a note starts at the first frame on or after
 * the next line of the grid (at most one grid step late), its note-off
 * note_length after that; events of one pitch that wait for the same line
 * make one note, the loudest (docs/GUIDE.md, "Notes in a scale").
 *
 * Why a part of its own: a note must never stick.  This part keeps, per
 * note, what was planned (the note-off's frame) and what went out (a host
 * buffer may lack room), and owes a note-off until it is sent.  It writes
 * into the MIDI output through atom_io.h only.
 */
#ifndef PENDULA_LV2_NOTES_H
#define PENDULA_LV2_NOTES_H

#include "atom_io.h"
#include "chunk.h"
#include "pendula_engine.h"
#include "ports.h"
#include "tempo.h"

#include <stdbool.h>
#include <stdint.h>

/* An event as the notes keep it: the fields a note reads, packed (the
 * list holds a chunk's worst case, and a smaller instance stays in cache:
 * docs/BENCHMARKS.md, "As a host wires it"). */
typedef struct {
	uint32_t frame;
	uint8_t body, kind;
	int8_t dir;
	double speed, position;
} pendula_note_event;

typedef struct {
	double sample_rate;
	bool events_on;    /* the engine's events are followed this block */
	bool notes_live;   /* notes on this block: the events are kept */
	bool notes_flush;  /* send every pending note-off first */
	uint32_t n_events; /* of the current chunk */
	pendula_note_event events[PENDULA_CHUNK * PENDULA_MAX_BODIES]; /* of the current chunk */
	/* flips, swings: frames of the pulse left after the span run (from
	 * its end; 0: it ended with the span's last frame, -1: before it) */
	int32_t pulse_left[2];
	float pulse_value[2];   /* their sign */
	uint32_t pulse_frames;  /* a pulse's length: 1 ms, at least a frame */
	float *pulse_buf[2];    /* flips, swings buffers of the span being run */
	uint32_t pulse_n;       /* its length */
	uint64_t note_clock;    /* frames run since activate() */
	uint64_t note_off[128]; /* frame of each sounding note's note-off, or 0 */
	int n_sounding;         /* notes with a note-off pending */
	/* What went out, per note (a message may find no room in the host's
	 * buffer): NOTE_SOUNDING | the channel of a note-on without its
	 * note-off yet (the note-off goes there, whatever midi_channel says
	 * by then); NOTE_OWED: that note-off is due and is sent at the next
	 * chance (note_out, pendula_notes_retry). */
	uint8_t note_sent[128];
	int n_owed; /* notes with NOTE_OWED */
	/* Note starts waiting for the grid: the frame (as note_off) each
	 * note starts at, or 0, and its velocity. */
	uint64_t start_at[128];
	uint8_t start_vel[128];
	int n_waiting;
	/* A chunk's messages: its note-ons (at most one per event and one per
	 * start that waited), a note-off for each, and the note-offs of the
	 * notes that sounded before the chunk. */
	struct {
		uint8_t frame; /* (of the chunk: notes run a chunk at a time) */
		uint8_t bytes[3];
	} note_msg[2 * (PENDULA_CHUNK * PENDULA_MAX_BODIES + 128) + 128]; /* of the current chunk */
	uint32_t n_note_msgs, next_note_msg;
} pendula_notes;

/* At instantiate() (n zeroed). */
void pendula_notes_init(pendula_notes *n, double sample_rate);
/* activate(): the frame count starts again; notes that sounded before
 * deactivate() end. */
void pendula_notes_activate(pendula_notes *n);
/* A restart of the motion: its notes end, no pulse goes on. */
void pendula_notes_restart(pendula_notes *n);
/* Start of a block: whether notes are played (midi_out: the MIDI output is
 * connected) and whether the events are followed at all (routed: an output
 * needs the pulses). */
void pendula_notes_block(pendula_notes *n, const float *control, bool midi_out, bool routed);
/* Whether the block must run chunk by chunk for the notes (played, or
 * note-offs pending). */
static inline bool pendula_notes_busy(const pendula_notes *n)
{
	return n->notes_live || n->n_sounding > 0 || n->notes_flush || n->n_waiting > 0;
}

/* The engine's event callback (user: the pendula_notes): the pulse goes
 * into the span's buffers; the event is kept for the notes. */
void pendula_notes_on_event(void *user, const pendula_event *ev);
/* Frames [0, frames) of the flips and swings buffers (either may be NULL)
 * before the engine runs them: the rest of a pulse that began earlier,
 * then 0. */
void pendula_notes_pulse_begin(pendula_notes *n, float *flips, float *swings, uint32_t frames);
/* The value the flips (kind 0) or swings (1) output holds at the last frame
 * of the span just run. */
static inline float pendula_notes_pulse_held(const pendula_notes *n, int kind)
{
	return n->pulse_left[kind] >= 0 ? n->pulse_value[kind] : 0.0f;
}

/* The note messages of frames [0, frames) of this chunk, from its events;
 * tempo: the host's transport at the chunk's first frame (for note_grid). */
void pendula_notes_chunk(pendula_notes *n, const float *control, const pendula_tempo *tempo,
                         uint32_t frames);
/* The chunk's note messages up to frame `until` (exclusive, in the chunk),
 * into the MIDI output at block frame offset + frame. */
void pendula_notes_flush_until(pendula_notes *n, pendula_midi_io *io, uint32_t offset,
                               uint32_t until);
/* Room (bytes) for the chunk's note messages still to go out and the owed
 * note-offs: a control change goes out only beside it. */
uint32_t pendula_notes_keep(const pendula_notes *n);
/* The owed note-offs, at a frame of the block (none before the last event
 * written). */
void pendula_notes_retry(pendula_notes *n, pendula_midi_io *io, uint32_t frame);
/* Every note that sounds ends at the next chance (the planned note-offs are
 * dropped: their notes are owed now); no note waits for the grid. */
void pendula_notes_end_all(pendula_notes *n);

#endif
