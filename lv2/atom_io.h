/* SPDX-License-Identifier: ISC */
/*
 * Checked reading and writing of LV2 atom sequences for the MIDI / time port
 * pair of the plugins: plain functions over the host's atom buffers (no
 * Pendula instance).  The LV2 glue (pendula_lv2.c) calls them from run().
 *
 * Input (the control atom port):
 * - Nothing is read outside what the enclosing atom says it holds: an event
 *   header and its body must lie inside the sequence, a property header and
 *   its value inside the object.  A malformed event (or property) is not
 *   followed: its size is what would locate the next one, so reading stops
 *   there.  lv2_atom_sequence_*() and lv2_atom_object_get() of the LV2 headers
 *   check none of this.
 * - Frame times are made usable: each is clamped to [0, n_samples - 1] and
 *   never before the previous event's, so a negative, beyond-block or
 *   backwards timestamp moves the event to the nearest frame that keeps the
 *   input order (events are never reordered: note-on / note-off pairs stay
 *   as the host sent them).
 * - In place: a host may pass the same buffer as atom input and MIDI output
 *   (the plugins do not declare lv2:inPlaceBroken).  The output then
 *   overwrites the input as it is written, so at the start of run() the input
 *   sequence is copied into a buffer allocated at instantiate(), sized to
 *   the buffer the host shares: its bufsz:sequenceSize, or without that
 *   option the MIDI output's rsz:minimumSize (8 KiB, the least a host may
 *   give it; a copy costs at most that many bytes).  An input too big for
 *   it is read where it is: the pass-through then never overtakes the
 *   reading (each event out takes exactly the room it had in), and no
 *   generated event is written in that block.  In place, the buffer's
 *   capacity is the larger of what the input occupies and
 *   bufsz:sequenceSize.
 *
 * Output (the MIDI port): a sequence that is valid after every write (its
 * atom.size always covers exactly the events written), frame times
 * non-decreasing, nothing written beyond the capacity the host gives in
 * atom.size (taken, as most plugins do, as the size of the whole buffer).
 *
 * Real time: pendula_midi_io_begin() and the functions it leads to never
 * allocate, lock or log; their cost is bounded by the size of the input.
 */
#ifndef PENDULA_ATOM_IO_H
#define PENDULA_ATOM_IO_H

#include <lv2/atom/atom.h>
#include <lv2/core/lv2.h>
#include <lv2/urid/urid.h>

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Smallest copy buffer for an in-place input (bytes): the MIDI output's
 * rsz:minimumSize (ttl/ttl_gen.c), the least an in-place buffer holds. */
#define PENDULA_ATOM_COPY_MIN (8u * 1024u)
/* Largest copy buffer, whatever bufsz:sequenceSize says. */
#define PENDULA_ATOM_COPY_MAX (16u * 1024u * 1024u)

/* Events of an input sequence, read with every size checked. */
typedef struct {
	const uint8_t *events; /* the first event (after the sequence body header) */
	uint32_t size;         /* bytes from `events` on that the sequence holds */
	uint32_t offset;       /* the next event, from `events` */
	int64_t last;          /* frame given to the previous event */
	int64_t max_frame;     /* n_samples - 1 (0 for an empty block) */
} pendula_seq_reader;

/* Reader over a port buffer that should hold an atom:Sequence (NULL, another
 * type or a size below the sequence header: no events). */
void pendula_seq_reader_init(pendula_seq_reader *r, const LV2_Atom_Sequence *seq,
                             LV2_URID sequence_type, uint32_t n_samples);
/* The next event that lies wholly inside the sequence: its body and its
 * frame (clamped and ordered, see above); NULL at the end or at a malformed
 * event.  Does not move on. */
const LV2_Atom *pendula_seq_reader_peek(const pendula_seq_reader *r, int64_t *frame);
/* Moves past the event peek() returned (with the frame it gave). */
void pendula_seq_reader_next(pendula_seq_reader *r, int64_t frame);

/* The values of the properties `keys[i]` of an atom:Object (or Blank) whose
 * size has been checked by its container; values[i] NULL when absent.  A
 * property whose header or value does not fit in the object ends the search.
 * Returns the object's otype, 0 if the body is too small to hold one. */
LV2_URID pendula_atom_object_get(const LV2_Atom *object, uint32_t n_keys, const LV2_URID *keys,
                                 const LV2_Atom **values);

/* A sequence being written into an output port buffer. */
typedef struct {
	LV2_Atom_Sequence *seq; /* NULL: nothing can be written */
	uint32_t capacity;      /* bytes of the buffer, sequence header included */
	uint32_t used;          /* bytes written, sequence header included */
	int64_t last;           /* frame of the last event written */
} pendula_seq_writer;

/* An empty sequence in buf (NULL, or a capacity below the sequence header:
 * no output). */
void pendula_seq_writer_begin(pendula_seq_writer *w, void *buf, uint32_t capacity,
                              LV2_URID sequence_type);
/* Whether an event with a body of `size` bytes fits, with `reserve` bytes
 * left over. */
bool pendula_seq_writer_fits(const pendula_seq_writer *w, uint32_t size, uint32_t reserve);
/* Appends an event (a frame before the last one written takes that one);
 * false, and nothing written, if it does not fit.  The body may lie in the
 * buffer itself at or after the place it is written to. */
bool pendula_seq_writer_add(pendula_seq_writer *w, int64_t frame, LV2_URID type, uint32_t size,
                            const void *body);

/* Bytes an event with a body of `size` bytes takes in a sequence. */
static inline uint64_t pendula_atom_event_bytes(uint32_t size)
{
	return (uint64_t)sizeof(LV2_Atom_Event) + (((uint64_t)size + 7u) & ~(uint64_t)7u);
}

/* The input / output pair of one instance. */
typedef struct {
	LV2_URID sequence;   /* atom:Sequence */
	LV2_URID midi_event; /* midi:MidiEvent */
	uint8_t *copy;       /* copy of an in-place input (allocated by init) */
	uint32_t copy_capacity;
	uint32_t sequence_size; /* bufsz:sequenceSize from the host's options; 0: none */

	/* this block */
	pendula_seq_reader in;
	pendula_seq_writer out;
	uint32_t frames;   /* n_samples */
	uint32_t reserved; /* room the input MIDI not yet passed through needs */
	bool in_place;     /* input and output share memory */
	bool generate_ok;  /* generated events may be written */
} pendula_midi_io;

/* At instantiate(): URIDs, options, the copy buffer.  False if out of
 * memory. */
bool pendula_midi_io_init(pendula_midi_io *io, LV2_URID_Map *map,
                          const LV2_Feature *const *features);
void pendula_midi_io_cleanup(pendula_midi_io *io);

/* Start of run(): the input port buffer (may be NULL), the output port
 * buffer (may be NULL; its atom.size is the capacity) and the block length.
 * Starts the output sequence. */
void pendula_midi_io_begin(pendula_midi_io *io, const void *in_port, void *out_port,
                           uint32_t n_samples);
/* The next input event with a frame before `until`, and its frame; the
 * reader moves past it.  NULL if none. */
const LV2_Atom *pendula_midi_io_next(pendula_midi_io *io, int64_t until, int64_t *frame);
/* Frame of the next input event, or -1 if none is left. */
int64_t pendula_midi_io_next_frame(const pendula_midi_io *io);
/* Passes an input MIDI event (from pendula_midi_io_next) through at its
 * frame.  Nothing goes out in an empty block (there is no frame for it). */
void pendula_midi_io_forward(pendula_midi_io *io, int64_t frame, const LV2_Atom *body);
/* A generated MIDI message, if it fits beside the room the input MIDI still
 * needs and `keep` bytes more (room held for generated events that must
 * not be crowded out: notes before control changes).  Returns whether it
 * went out: a message that did not is the caller's to send again. */
bool pendula_midi_io_generate(pendula_midi_io *io, int64_t frame, const uint8_t *bytes,
                              uint32_t size, uint32_t keep);
/* Bytes a generated MIDI message of `size` bytes takes in the output. */
uint32_t pendula_midi_io_event_bytes(uint32_t size);

#ifdef __cplusplus
}
#endif
#endif
