/* SPDX-License-Identifier: ISC */
/*
 * Checked atom sequence input and output: see atom_io.h.
 */
#include "atom_io.h"

#include <lv2/atom/atom.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/midi/midi.h>
#include <lv2/options/options.h>

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------- */
/* Reading                                                                 */

void pendula_seq_reader_init(pendula_seq_reader *r, const LV2_Atom_Sequence *seq,
                             LV2_URID sequence_type, uint32_t n_samples)
{
	r->events = NULL;
	r->size = 0;
	r->offset = 0;
	r->last = 0;
	r->max_frame = n_samples > 0 ? (int64_t)n_samples - 1 : 0;
	if (!seq || seq->atom.type != sequence_type ||
	    seq->atom.size < sizeof(LV2_Atom_Sequence_Body))
		return;
	r->events = (const uint8_t *)(seq + 1);
	r->size = seq->atom.size - (uint32_t)sizeof(LV2_Atom_Sequence_Body);
}

/* The event at r->offset if its header and body lie inside the sequence. */
static const LV2_Atom_Event *event_here(const pendula_seq_reader *r)
{
	if (!r->events || r->offset > r->size || r->size - r->offset < sizeof(LV2_Atom_Event))
		return NULL;
	const LV2_Atom_Event *ev = (const LV2_Atom_Event *)(const void *)(r->events + r->offset);
	if (ev->body.size > r->size - r->offset - (uint32_t)sizeof(LV2_Atom_Event))
		return NULL; /* claims more than the sequence holds: not followed */
	return ev;
}

const LV2_Atom *pendula_seq_reader_peek(const pendula_seq_reader *r, int64_t *frame)
{
	const LV2_Atom_Event *ev = event_here(r);
	if (!ev)
		return NULL;
	int64_t f = ev->time.frames;
	if (f < r->last)
		f = r->last; /* backwards (or negative): at the previous event's frame */
	if (f > r->max_frame)
		f = r->max_frame; /* beyond the block: its last frame */
	*frame = f;
	return &ev->body;
}

void pendula_seq_reader_next(pendula_seq_reader *r, int64_t frame)
{
	const LV2_Atom_Event *ev = event_here(r);
	if (!ev)
		return;
	const uint64_t next = (uint64_t)r->offset + pendula_atom_event_bytes(ev->body.size);
	r->offset = next < r->size ? (uint32_t)next : r->size;
	r->last = frame;
}

LV2_URID pendula_atom_object_get(const LV2_Atom *object, uint32_t n_keys, const LV2_URID *keys,
                                 const LV2_Atom **values)
{
	for (uint32_t k = 0; k < n_keys; ++k)
		values[k] = NULL;
	const uint32_t size = object->size;
	if (size < sizeof(LV2_Atom_Object_Body))
		return 0;
	const uint8_t *body = (const uint8_t *)(object + 1);
	const LV2_URID otype = ((const LV2_Atom_Object_Body *)(const void *)body)->otype;
	uint32_t off = (uint32_t)sizeof(LV2_Atom_Object_Body);
	while (off <= size && size - off >= sizeof(LV2_Atom_Property_Body)) {
		const LV2_Atom_Property_Body *p =
		    (const LV2_Atom_Property_Body *)(const void *)(body + off);
		if (p->value.size > size - off - (uint32_t)sizeof(LV2_Atom_Property_Body))
			break; /* claims more than the object holds: not followed */
		for (uint32_t k = 0; k < n_keys; ++k)
			if (p->key == keys[k] && !values[k])
				values[k] = &p->value;
		const uint64_t next = (uint64_t)off + sizeof(LV2_Atom_Property_Body) +
		                      (((uint64_t)p->value.size + 7u) & ~(uint64_t)7u);
		if (next >= size)
			break;
		off = (uint32_t)next;
	}
	return otype;
}

/* ---------------------------------------------------------------------- */
/* Writing                                                                 */

void pendula_seq_writer_begin(pendula_seq_writer *w, void *buf, uint32_t capacity,
                              LV2_URID sequence_type)
{
	w->seq = NULL;
	w->capacity = 0;
	w->used = 0;
	w->last = 0;
	if (!buf || capacity < sizeof(LV2_Atom_Sequence))
		return;
	w->seq = (LV2_Atom_Sequence *)buf;
	w->capacity = capacity;
	w->used = (uint32_t)sizeof(LV2_Atom_Sequence);
	w->seq->atom.type = sequence_type;
	w->seq->atom.size = (uint32_t)sizeof(LV2_Atom_Sequence_Body);
	w->seq->body.unit = 0;
	w->seq->body.pad = 0;
}

bool pendula_seq_writer_fits(const pendula_seq_writer *w, uint32_t size, uint32_t reserve)
{
	return w->seq &&
	       (uint64_t)w->used + pendula_atom_event_bytes(size) + reserve <= w->capacity;
}

bool pendula_seq_writer_add(pendula_seq_writer *w, int64_t frame, LV2_URID type, uint32_t size,
                            const void *body)
{
	if (!pendula_seq_writer_fits(w, size, 0))
		return false;
	if (frame < w->last)
		frame = w->last;
	uint8_t *at = (uint8_t *)w->seq + w->used;
	const uint32_t bytes = (uint32_t)pendula_atom_event_bytes(size);
	/* The body first: in place it may start inside the header written
	 * below (never before it: the output does not overtake the input). */
	memmove(at + sizeof(LV2_Atom_Event), body, size);
	LV2_Atom_Event *ev = (LV2_Atom_Event *)(void *)at;
	ev->time.frames = frame;
	ev->body.size = size;
	ev->body.type = type;
	memset(at + sizeof(LV2_Atom_Event) + size, 0, bytes - sizeof(LV2_Atom_Event) - size);
	w->used += bytes;
	w->seq->atom.size += bytes;
	w->last = frame;
	return true;
}

/* ---------------------------------------------------------------------- */
/* The MIDI / time port pair                                               */

static uint32_t option_sequence_size(LV2_URID_Map *map, const LV2_Feature *const *features)
{
	const LV2_Options_Option *opt = NULL;
	for (int i = 0; features && features[i]; ++i)
		if (!strcmp(features[i]->URI, LV2_OPTIONS__options))
			opt = (const LV2_Options_Option *)features[i]->data;
	if (!opt)
		return 0;
	const LV2_URID key = map->map(map->handle, LV2_BUF_SIZE__sequenceSize);
	const LV2_URID atom_int = map->map(map->handle, LV2_ATOM__Int);
	const LV2_URID atom_long = map->map(map->handle, LV2_ATOM__Long);
	for (; opt->key; ++opt) {
		if (opt->key != key || opt->context != LV2_OPTIONS_INSTANCE || !opt->value)
			continue;
		int64_t v = -1;
		if (opt->type == atom_int && opt->size >= sizeof(int32_t))
			v = *(const int32_t *)opt->value;
		else if (opt->type == atom_long && opt->size >= sizeof(int64_t))
			v = *(const int64_t *)opt->value;
		if (v > 0)
			return v > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)v;
	}
	return 0;
}

bool pendula_midi_io_init(pendula_midi_io *io, LV2_URID_Map *map,
                          const LV2_Feature *const *features)
{
	memset(io, 0, sizeof(*io));
	io->sequence = map->map(map->handle, LV2_ATOM__Sequence);
	io->midi_event = map->map(map->handle, LV2_MIDI__MidiEvent);
	io->sequence_size = option_sequence_size(map, features);
	uint32_t cap =
	    io->sequence_size > PENDULA_ATOM_COPY_MIN ? io->sequence_size : PENDULA_ATOM_COPY_MIN;
	if (cap > PENDULA_ATOM_COPY_MAX)
		cap = PENDULA_ATOM_COPY_MAX;
	/* uint64_t elements: the copy is aligned as atoms want */
	io->copy = (uint8_t *)calloc(cap / 8u, sizeof(uint64_t));
	if (!io->copy)
		return false;
	io->copy_capacity = cap / 8u * 8u;
	pendula_seq_reader_init(&io->in, NULL, io->sequence, 0);
	pendula_seq_writer_begin(&io->out, NULL, 0, io->sequence);
	return true;
}

void pendula_midi_io_cleanup(pendula_midi_io *io)
{
	free(io->copy);
	io->copy = NULL;
	io->copy_capacity = 0;
}

static bool overlap(const void *a, uint64_t na, const void *b, uint64_t nb)
{
	const uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
	return pa < pb + nb && pb < pa + na;
}

void pendula_midi_io_begin(pendula_midi_io *io, const void *in_port, void *out_port,
                           uint32_t n_samples)
{
	const LV2_Atom_Sequence *in = (const LV2_Atom_Sequence *)in_port;
	io->frames = n_samples;
	io->in_place = false;
	io->generate_ok = true;

	/* Everything about the input and the output's capacity is read before
	 * anything is written: in place they are the same bytes. */
	uint64_t in_bytes = 0;
	if (in && in->atom.type == io->sequence && in->atom.size >= sizeof(LV2_Atom_Sequence_Body))
		in_bytes = (uint64_t)sizeof(LV2_Atom) + in->atom.size;
	uint32_t capacity = 0;
	if (out_port) {
		capacity = ((const LV2_Atom *)out_port)->size;
		if (in_bytes && out_port == in_port) {
			/* The host's buffer holds at least the input; its size,
			 * if the host tells it, is bufsz:sequenceSize. */
			capacity = io->sequence_size;
			if (capacity < in_bytes)
				capacity = (uint32_t)in_bytes;
		}
		io->in_place = in_bytes && overlap(in, in_bytes, out_port, capacity);
	}
	if (io->in_place) {
		if (in_bytes <= io->copy_capacity) {
			memcpy(io->copy, in, (size_t)in_bytes);
			in = (const LV2_Atom_Sequence *)(const void *)io->copy;
		} else if (out_port == in_port) {
			/* Read where it is; the pass-through never overtakes
			 * the reading, but generated events would. */
			io->generate_ok = false;
		} else {
			in = NULL; /* partly overlapping buffers: nothing sane to read */
		}
	}
	pendula_seq_reader_init(&io->in, in_bytes ? in : NULL, io->sequence, n_samples);

	/* Room the incoming MIDI will need: generated events never take it
	 * (pass-through comes first). */
	uint64_t reserved = 0;
	if (n_samples > 0) {
		pendula_seq_reader r = io->in;
		int64_t f;
		const LV2_Atom *a;
		while ((a = pendula_seq_reader_peek(&r, &f))) {
			if (a->type == io->midi_event)
				reserved += pendula_atom_event_bytes(a->size);
			pendula_seq_reader_next(&r, f);
		}
	}
	io->reserved = reserved > UINT32_MAX ? UINT32_MAX : (uint32_t)reserved;

	pendula_seq_writer_begin(&io->out, out_port, capacity, io->sequence);
}

const LV2_Atom *pendula_midi_io_next(pendula_midi_io *io, int64_t until, int64_t *frame)
{
	int64_t f;
	const LV2_Atom *a = pendula_seq_reader_peek(&io->in, &f);
	if (!a || f >= until)
		return NULL;
	pendula_seq_reader_next(&io->in, f);
	*frame = f;
	return a;
}

int64_t pendula_midi_io_next_frame(const pendula_midi_io *io)
{
	int64_t f;
	return pendula_seq_reader_peek(&io->in, &f) ? f : -1;
}

void pendula_midi_io_forward(pendula_midi_io *io, int64_t frame, const LV2_Atom *body)
{
	if (body->type != io->midi_event || io->frames == 0)
		return;
	const uint64_t need = pendula_atom_event_bytes(body->size);
	io->reserved = need < io->reserved ? io->reserved - (uint32_t)need : 0;
	pendula_seq_writer_add(&io->out, frame, body->type, body->size, body + 1);
}

bool pendula_midi_io_generate(pendula_midi_io *io, int64_t frame, const uint8_t *bytes,
                              uint32_t size, uint32_t keep)
{
	const uint64_t reserve = (uint64_t)io->reserved + keep;
	if (!io->generate_ok || io->frames == 0 ||
	    !pendula_seq_writer_fits(&io->out, size,
	                             reserve > UINT32_MAX ? UINT32_MAX : (uint32_t)reserve))
		return false;
	return pendula_seq_writer_add(&io->out, frame, io->midi_event, size, bytes);
}

uint32_t pendula_midi_io_event_bytes(uint32_t size)
{
	return (uint32_t)pendula_atom_event_bytes(size);
}
