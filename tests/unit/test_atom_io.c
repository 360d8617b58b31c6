/* SPDX-License-Identifier: ISC */
/*
 * The atom ports under hostile or unusual wiring, through lilv, on every
 * plugin (the atom code is shared, the outputs and the forcing each model's):
 *
 *   in_place     the same buffer as atom input and MIDI output (allowed: the
 *                plugins do not declare lv2:inPlaceBroken): every input MIDI
 *                event comes out unchanged, in order, at its frame; the
 *                signals, control outputs and (when the host gives
 *                bufsz:sequenceSize) the whole MIDI output are bit-identical
 *                to a run with separate buffers; time:Position still locks
 *                the forcing to the song
 *   timestamps   3000 blocks (some of 0 frames) whose input events have
 *                negative, beyond-block and backwards frame times: the MIDI
 *                output is always a sequence in time order inside the block,
 *                empty for 0 frames; every input MIDI event of a non-empty
 *                block comes out, in input order; the generated CCs are merged
 *   malformed    input sequences (and one output buffer) that end exactly on
 *                an inaccessible page: events, objects and properties that
 *                claim more bytes than their container holds, a sequence that
 *                ends inside an event header, and others.  Each case runs in a
 *                child process; a read past the sequence kills it (SIGSEGV),
 *                which fails the case.  The well-formed events before the bad
 *                one still come out.
 *
 * usage: test_atom_io BUNDLE_DIR [--quick]
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "cunit_main.h"
#include "lv2_test_host.h"

#include <CUnit/Basic.h>
#include <lv2/atom/atom.h>
#include <lv2/atom/forge.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/midi/midi.h>
#include <lv2/options/options.h>
#include <lv2/time/time.h>

#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define RATE      48000.0
#define MAX_BLOCK 1024u
#define BUF_BYTES 65536u
#define PI        3.14159265358979323846

static LilvWorld *world;
/* --quick (for valgrind): in place and timestamps on the audio plugins only
 * (a -cv plugin differs in its port types, not in its atom code) */
static bool quick;
static const LilvPlugin *plugins[PENDULA_N_VARIANTS];

static LV2_URID urid_sequence, urid_chunk, urid_midi, urid_object, urid_position, urid_long,
    urid_float, urid_int, urid_bar, urid_bar_beat, urid_bpb, urid_unit, urid_bpm, urid_speed,
    urid_frame;

static void map_urids(void)
{
	urid_sequence = lv2th_map_uri(NULL, LV2_ATOM__Sequence);
	urid_chunk = lv2th_map_uri(NULL, LV2_ATOM__Chunk);
	urid_midi = lv2th_map_uri(NULL, LV2_MIDI__MidiEvent);
	urid_object = lv2th_map_uri(NULL, LV2_ATOM__Object);
	urid_position = lv2th_map_uri(NULL, LV2_TIME__Position);
	urid_long = lv2th_map_uri(NULL, LV2_ATOM__Long);
	urid_float = lv2th_map_uri(NULL, LV2_ATOM__Float);
	urid_int = lv2th_map_uri(NULL, LV2_ATOM__Int);
	urid_bar = lv2th_map_uri(NULL, LV2_TIME__bar);
	urid_bar_beat = lv2th_map_uri(NULL, LV2_TIME__barBeat);
	urid_bpb = lv2th_map_uri(NULL, LV2_TIME__beatsPerBar);
	urid_unit = lv2th_map_uri(NULL, LV2_TIME__beatUnit);
	urid_bpm = lv2th_map_uri(NULL, LV2_TIME__beatsPerMinute);
	urid_speed = lv2th_map_uri(NULL, LV2_TIME__speed);
	urid_frame = lv2th_map_uri(NULL, LV2_TIME__frame);
}

/* ---------------------------------------------------------------------- */
/* Host                                                                    */

/* Features: map, unmap and, if seq_size > 0, options:options with
 * bufsz:sequenceSize. */
typedef struct {
	LV2_Options_Option opts[2];
	int32_t seq_size;
	LV2_Feature options_feature;
	const LV2_Feature *list[4];
} features;

static void features_make(features *f, int32_t seq_size)
{
	memset(f, 0, sizeof(*f));
	f->seq_size = seq_size;
	int n = 0;
	f->list[n++] = lv2th_features[0];
	f->list[n++] = lv2th_features[1];
	if (seq_size > 0) {
		f->opts[0].context = LV2_OPTIONS_INSTANCE;
		f->opts[0].key = lv2th_map_uri(NULL, LV2_BUF_SIZE__sequenceSize);
		f->opts[0].size = sizeof(int32_t);
		f->opts[0].type = urid_int;
		f->opts[0].value = &f->seq_size;
		f->options_feature.URI = LV2_OPTIONS__options;
		f->options_feature.data = f->opts;
		f->list[n++] = &f->options_feature;
	}
	f->list[n] = NULL;
}

typedef struct {
	pendula_variant v;
	LilvInstance *inst;
	features feat;
	float control[PENDULA_N_PORT_IDS];
	float *sig[PENDULA_N_PORT_IDS];
} host;

static host *host_new(pendula_variant v, int32_t seq_size)
{
	host *h = (host *)lv2th_calloc(1, sizeof(host));
	h->v = v;
	features_make(&h->feat, seq_size);
	test_control_defaults(v, h->control);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (pendula_port_index(v, (pendula_port_id)id) >= 0 &&
		    pendula_ports[id].kind == PK_SIGNAL_OUT)
			h->sig[id] = (float *)lv2th_calloc(MAX_BLOCK, sizeof(float));
	h->inst = lv2th_instantiate("test_atom_io", plugins[v], v, RATE, h->feat.list);
	lv2th_connect(h->inst, v, h->control, h->sig, NULL, NULL);
	return h;
}

static void host_free(host *h)
{
	lilv_instance_deactivate(h->inst);
	lilv_instance_free(h->inst);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		free(h->sig[id]);
	free(h);
}

static void host_atoms(host *h, void *in, void *out)
{
	lv2th_connect(h->inst, h->v, h->control, h->sig, in, out);
}

/* ---------------------------------------------------------------------- */
/* Sequences                                                               */

typedef struct {
	LV2_Atom_Forge forge;
	LV2_Atom_Forge_Frame frame;
} seq_builder;

static void seq_open(seq_builder *b, void *buf, uint32_t size)
{
	lv2_atom_forge_init(&b->forge, &lv2th_map);
	lv2_atom_forge_set_buffer(&b->forge, (uint8_t *)buf, size);
	lv2_atom_forge_sequence_head(&b->forge, &b->frame, 0);
}

static void seq_midi(seq_builder *b, int64_t frame, const uint8_t *bytes, uint32_t size)
{
	lv2_atom_forge_frame_time(&b->forge, frame);
	lv2_atom_forge_atom(&b->forge, size, urid_midi);
	lv2_atom_forge_write(&b->forge, bytes, size);
}

static void seq_position(seq_builder *b, int64_t frame, double bpm, double speed)
{
	LV2_Atom_Forge_Frame obj;
	lv2_atom_forge_frame_time(&b->forge, frame);
	lv2_atom_forge_object(&b->forge, &obj, 0, urid_position);
	lv2_atom_forge_key(&b->forge, urid_speed);
	lv2_atom_forge_float(&b->forge, (float)speed);
	lv2_atom_forge_key(&b->forge, urid_bar);
	lv2_atom_forge_long(&b->forge, 0);
	lv2_atom_forge_key(&b->forge, urid_bar_beat);
	lv2_atom_forge_float(&b->forge, 0.0f);
	lv2_atom_forge_key(&b->forge, urid_bpb);
	lv2_atom_forge_float(&b->forge, 4.0f);
	lv2_atom_forge_key(&b->forge, urid_unit);
	lv2_atom_forge_int(&b->forge, 4);
	lv2_atom_forge_key(&b->forge, urid_bpm);
	lv2_atom_forge_float(&b->forge, (float)bpm);
	lv2_atom_forge_pop(&b->forge, &obj);
}

static void seq_close(seq_builder *b)
{
	lv2_atom_forge_pop(&b->forge, &b->frame);
}

typedef struct {
	int64_t frame;
	uint32_t size;
	uint8_t bytes[4];
} midi_ev;

typedef struct {
	midi_ev ev[4096];
	size_t n;
	bool bad;         /* not a sequence, or bigger than its buffer */
	size_t unordered; /* frames decreasing, or outside [0, n) */
	size_t non_midi;
} midi_out;

/* Reads an output sequence with every size checked against `capacity`
 * (the bytes of the buffer). */
static void read_output(const void *buf, uint32_t capacity, uint32_t n_frames, midi_out *o)
{
	memset(o, 0, sizeof(*o));
	const LV2_Atom_Sequence *seq = (const LV2_Atom_Sequence *)buf;
	if (capacity < sizeof(LV2_Atom_Sequence) || seq->atom.type != urid_sequence ||
	    seq->atom.size < sizeof(LV2_Atom_Sequence_Body) ||
	    (uint64_t)seq->atom.size + sizeof(LV2_Atom) > capacity) {
		o->bad = true;
		return;
	}
	const uint8_t *p = (const uint8_t *)(seq + 1);
	const uint32_t size = seq->atom.size - (uint32_t)sizeof(LV2_Atom_Sequence_Body);
	uint32_t off = 0;
	int64_t last = 0;
	while (off < size) {
		if (size - off < sizeof(LV2_Atom_Event)) {
			o->bad = true;
			return;
		}
		const LV2_Atom_Event *ev = (const LV2_Atom_Event *)(const void *)(p + off);
		if (ev->body.size > size - off - sizeof(LV2_Atom_Event)) {
			o->bad = true;
			return;
		}
		if (ev->time.frames < last || ev->time.frames < 0 ||
		    ev->time.frames >= (int64_t)n_frames)
			o->unordered++;
		last = ev->time.frames;
		if (ev->body.type != urid_midi || ev->body.size == 0 || ev->body.size > 4)
			o->non_midi++;
		else if (o->n < sizeof(o->ev) / sizeof(o->ev[0])) {
			midi_ev *m = &o->ev[o->n++];
			m->frame = ev->time.frames;
			m->size = ev->body.size;
			memset(m->bytes, 0, 4);
			memcpy(m->bytes, ev + 1, ev->body.size);
		}
		off += (uint32_t)(sizeof(LV2_Atom_Event) + ((ev->body.size + 7u) & ~7u));
	}
}

static bool is_cc(const midi_ev *m)
{
	return m->size == 3 && (m->bytes[0] & 0xF0) == 0xB0;
}

/* ---------------------------------------------------------------------- */
/* In place                                                                */

/* The song position of frame f in quarter notes: 120 bpm from frame 0. */
static double quarters_at(int64_t f)
{
	return (double)f * 2.0 / RATE;
}

static void in_place_case(pendula_variant v, int32_t seq_size)
{
	host *sep = host_new(v, seq_size), *inp = host_new(v, seq_size);
	host *both[2] = {sep, inp};
	for (int k = 0; k < 2; ++k) {
		both[k]->control[P_TIME_SCALE] = 20.0f; /* busy CCs */
		both[k]->control[P_PIVOT_X_AMP] = 0.1f;
		both[k]->control[P_PIVOT_X_SYNC] = 9.0f; /* 1/4 */
		lilv_instance_activate(both[k]->inst);
	}
	static uint64_t in_a[BUF_BYTES / 8], out_a[BUF_BYTES / 8], shared[BUF_BYTES / 8];
	host_atoms(sep, in_a, out_a);
	host_atoms(inp, shared, shared);

	const uint32_t n = 256;
	const int blocks = 100;
	size_t notes_in = 0, notes_sep = 0, notes_inp = 0, cc_sep = 0, cc_inp = 0;
	size_t bad = 0, signal_diff = 0, midi_diff = 0;
	double phase_err = 0.0;
	for (int b = 0; b < blocks; ++b) {
		/* the same input in both */
		seq_builder sb;
		seq_open(&sb, in_a, sizeof in_a);
		if (b == 0)
			seq_position(&sb, 0, 120.0, 1.0);
		const int64_t at[5] = {0, 3, 100, 100, 255};
		midi_ev want[5];
		for (int i = 0; i < 5; ++i) {
			const uint8_t msg[3] = {(uint8_t)(i % 2 ? 0x80 : 0x91),
			                        (uint8_t)(40 + (b + i) % 40), (uint8_t)(1 + i)};
			seq_midi(&sb, at[i], msg, 3);
			want[i].frame = at[i];
			want[i].size = 3;
			memset(want[i].bytes, 0, 4);
			memcpy(want[i].bytes, msg, 3);
		}
		seq_close(&sb);
		notes_in += 5;
		memcpy(shared, in_a, sizeof shared);
		LV2_Atom *oa = (LV2_Atom *)out_a;
		oa->type = urid_chunk;
		oa->size = BUF_BYTES - sizeof(LV2_Atom); /* as jalv does */

		lilv_instance_run(sep->inst, n);
		lilv_instance_run(inp->inst, n);

		midi_out *ms = (midi_out *)lv2th_calloc(1, sizeof(midi_out));
		midi_out *mi = (midi_out *)lv2th_calloc(1, sizeof(midi_out));
		read_output(out_a, BUF_BYTES, n, ms);
		read_output(shared, BUF_BYTES, n, mi);
		bad +=
		    ms->bad + mi->bad + ms->unordered + mi->unordered + ms->non_midi + mi->non_midi;
		/* the input notes, in order, among the CCs */
		size_t w = 0;
		for (size_t i = 0; i < mi->n; ++i)
			if (w < 5 && mi->ev[i].frame == want[w].frame &&
			    !memcmp(mi->ev[i].bytes, want[w].bytes, 4))
				++w;
			else if (is_cc(&mi->ev[i]))
				++cc_inp;
		notes_inp += w;
		w = 0;
		for (size_t i = 0; i < ms->n; ++i)
			if (w < 5 && ms->ev[i].frame == want[w].frame &&
			    !memcmp(ms->ev[i].bytes, want[w].bytes, 4))
				++w;
			else if (is_cc(&ms->ev[i]))
				++cc_sep;
		notes_sep += w;
		if (seq_size > 0) {
			bool same = ms->n == mi->n;
			for (size_t i = 0; same && i < ms->n; ++i)
				same = ms->ev[i].frame == mi->ev[i].frame &&
				       !memcmp(ms->ev[i].bytes, mi->ev[i].bytes, 4);
			midi_diff += !same;
		}
		free(ms);
		free(mi);
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
			if (sep->sig[id] && memcmp(sep->sig[id], inp->sig[id], n * sizeof(float)))
				signal_diff++;
			if (pendula_ports[id].kind == PK_CONTROL_OUT &&
			    memcmp(&sep->control[id], &inp->control[id], sizeof(float)))
				signal_diff++;
		}
		/* time:Position arrived: the forcing follows the song */
		const double q = quarters_at((int64_t)(b + 1) * n - 1);
		const double want_x = 0.1 * sin(2.0 * PI * (q - floor(q)));
		const double e = fabs(inp->control[P_CTL_PIVOT_X] - want_x);
		if (e > phase_err)
			phase_err = e;
	}
	printf("\n    %s, %s: in place %zu of %zu notes out, %zu CCs (separate buffers: %zu "
	       "notes, %zu CCs); %zu blocks with other MIDI, %zu signal differences, pivot "
	       "off the song by %.2g m",
	       pendula_variant_names[v], seq_size > 0 ? "bufsz:sequenceSize given" : "no options",
	       notes_inp, notes_in, cc_inp, notes_sep, cc_sep, midi_diff, signal_diff, phase_err);
	CHECK(bad == 0, "%zu malformed or unordered outputs", bad);
	CHECK(notes_inp == notes_in, "in place: %zu of %zu input notes lost", notes_in - notes_inp,
	      notes_in);
	CHECK(notes_sep == notes_in, "separate buffers: %zu of %zu input notes lost",
	      notes_in - notes_sep, notes_in);
	CHECK(signal_diff == 0, "in place changes the signal or control outputs (%zu)",
	      signal_diff);
	CHECK(phase_err < 2e-4, "in place, the forcing does not follow time:Position (%.3g m)",
	      phase_err);
	CHECK(cc_sep > 100, "too few CCs (%zu) for the test to mean anything", cc_sep);
	if (seq_size > 0) {
		CHECK(midi_diff == 0, "in place, the MIDI output of %zu blocks differs", midi_diff);
		CHECK(cc_inp == cc_sep, "in place: %zu CCs, separate: %zu", cc_inp, cc_sep);
	}
	host_free(sep);
	host_free(inp);
}

/* Every plugin: the atom code is shared, but each model has its own
 * outputs to send as CCs and its own forcing to lock to the song. */
static void test_in_place(void)
{
	for (int v = 0; v < PENDULA_N_VARIANTS; ++v) {
		if (quick && pendula_variant_is_cv((pendula_variant)v))
			continue;
		in_place_case((pendula_variant)v, 0);
		in_place_case((pendula_variant)v, (int32_t)BUF_BYTES);
	}
}

/* ---------------------------------------------------------------------- */
/* Timestamps                                                              */

static uint32_t rng_state = 2024u;
static uint32_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 17;
	rng_state ^= rng_state << 5;
	return rng_state;
}

static void timestamps_case(pendula_variant v)
{
	host *h = host_new(v, 0);
	h->control[P_TIME_SCALE] = 20.0f;
	lilv_instance_activate(h->inst);
	static uint64_t in[BUF_BYTES / 8], out[BUF_BYTES / 8];
	host_atoms(h, in, out);
	const int blocks = 3000;
	size_t bad_blocks = 0, unordered_blocks = 0, empty_with_output = 0, lost = 0, sent = 0,
	       ccs = 0, zero_blocks = 0, odd_events = 0;
	midi_out *o = (midi_out *)lv2th_calloc(1, sizeof(midi_out));
	for (int b = 0; b < blocks; ++b) {
		const uint32_t n = rng() % 10 == 0 ? 0 : 1 + rng() % 600;
		zero_blocks += n == 0;
		seq_builder sb;
		seq_open(&sb, in, sizeof in);
		midi_ev want[8];
		const int k = (int)(rng() % 8);
		for (int i = 0; i < k; ++i) {
			int64_t f;
			switch (rng() % 4) {
			case 0:
				f = -1 - (int64_t)(rng() % 1000);
				break; /* negative */
			case 1:
				f = (int64_t)n + (int64_t)(rng() % 1000);
				break; /* beyond */
			default:
				f = n ? (int64_t)(rng() % n) : 0;
				break; /* any order */
			}
			if (rng() % 7 == 0)
				f = (rng() & 1) ? INT64_MIN : INT64_MAX;
			odd_events += f < 0 || f >= (int64_t)n || (i && f < want[i - 1].frame);
			if (rng() % 5 == 0)
				seq_position(&sb, f, 100.0 + rng() % 60, 1.0);
			const uint8_t msg[3] = {0x92, (uint8_t)(rng() % 128), (uint8_t)(i + 1)};
			seq_midi(&sb, f, msg, 3);
			want[i].frame = f;
			want[i].size = 3;
			memset(want[i].bytes, 0, 4);
			memcpy(want[i].bytes, msg, 3);
		}
		seq_close(&sb);
		LV2_Atom *oa = (LV2_Atom *)(void *)out;
		oa->type = urid_chunk;
		oa->size = BUF_BYTES - sizeof(LV2_Atom);
		lilv_instance_run(h->inst, n);
		read_output(out, BUF_BYTES, n, o);
		bad_blocks += o->bad || o->non_midi;
		unordered_blocks += o->unordered > 0;
		if (n == 0) {
			empty_with_output += o->n > 0;
			continue;
		}
		sent += (size_t)k;
		/* input notes in input order (their bytes; frames were clamped) */
		int w = 0;
		for (size_t i = 0; i < o->n; ++i)
			if (w < k && o->ev[i].bytes[0] == 0x92 &&
			    !memcmp(o->ev[i].bytes, want[w].bytes, 4))
				++w;
			else if (is_cc(&o->ev[i]))
				++ccs;
		lost += (size_t)(k - w);
	}
	free(o);
	printf("\n    %s: %d blocks (%zu of 0 frames), %zu odd timestamps; %zu blocks out of "
	       "time order, %zu not sequences; %zu of %zu notes lost; %zu CCs merged; %zu empty "
	       "blocks with output",
	       pendula_variant_names[v], blocks, zero_blocks, odd_events, unordered_blocks,
	       bad_blocks, lost, sent, ccs, empty_with_output);
	CHECK(odd_events > 1000, "too few odd timestamps (%zu)", odd_events);
	CHECK(unordered_blocks == 0, "%zu blocks with MIDI out of time order or outside the block",
	      unordered_blocks);
	CHECK(bad_blocks == 0, "%zu blocks with a malformed output", bad_blocks);
	CHECK(empty_with_output == 0, "%zu blocks of 0 frames wrote events", empty_with_output);
	CHECK(lost == 0, "%zu of %zu input notes lost or reordered", lost, sent);
	CHECK(ccs > 1000, "the CCs were not merged (%zu)", ccs);
	host_free(h);
}

/* Every plugin, each with the same random sequence of blocks and events. */
static void test_timestamps(void)
{
	for (int v = 0; v < PENDULA_N_VARIANTS; ++v) {
		if (quick && pendula_variant_is_cv((pendula_variant)v))
			continue;
		rng_state = 2024u;
		timestamps_case((pendula_variant)v);
	}
}

/* ---------------------------------------------------------------------- */
/* Malformed input on a guard page                                         */

/* Two pages, the second inaccessible: a buffer of `bytes` placed to end at
 * the first 8-byte boundary at or after its last byte, and that boundary is
 * the inaccessible page. */
typedef struct {
	uint8_t *map;
	size_t page;
} guard;

static void *guard_place(guard *g, size_t bytes)
{
	g->page = (size_t)sysconf(_SC_PAGESIZE);
	g->map = (uint8_t *)mmap(NULL, 2 * g->page, PROT_READ | PROT_WRITE,
	                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (g->map == MAP_FAILED || mprotect(g->map + g->page, g->page, PROT_NONE)) {
		perror("test_atom_io: mmap");
		exit(2);
	}
	const size_t room = (bytes + 7u) & ~(size_t)7u;
	return g->map + g->page - room;
}

/* A well-formed start: two notes at frames 1 and 2 (the bad part follows). */
static uint32_t put_two_notes(uint8_t *p)
{
	uint32_t off = 0;
	for (int i = 0; i < 2; ++i) {
		LV2_Atom_Event *ev = (LV2_Atom_Event *)(void *)(p + off);
		ev->time.frames = 1 + i;
		ev->body.size = 3;
		ev->body.type = urid_midi;
		uint8_t *b = (uint8_t *)(ev + 1);
		b[0] = 0x90;
		b[1] = (uint8_t)(60 + i);
		b[2] = 100;
		b[3] = b[4] = b[5] = b[6] = b[7] = 0;
		off += 24;
	}
	return off;
}

/* A time:Position object body with 4 properties (16 + 4 * 24 bytes). */
static uint32_t put_position_body(uint8_t *p)
{
	LV2_Atom_Object_Body *ob = (LV2_Atom_Object_Body *)(void *)p;
	ob->id = 0;
	ob->otype = urid_position;
	uint32_t off = sizeof(*ob);
	const LV2_URID keys[4] = {urid_speed, urid_bpm, urid_bar, urid_frame};
	for (int i = 0; i < 4; ++i) {
		LV2_Atom_Property_Body *pr = (LV2_Atom_Property_Body *)(void *)(p + off);
		pr->key = keys[i];
		pr->context = 0;
		pr->value.size = 8;
		pr->value.type = urid_long;
		int64_t v = i == 1 ? 120 : 1;
		memcpy(pr + 1, &v, 8);
		off += sizeof(*pr) + 8;
	}
	return off;
}

enum {
	MAL_EVENT_1000,      /* last event claims 1000 bytes, 3 present */
	MAL_EVENT_HUGE,      /* last event claims 0xFFFFFFF9 bytes */
	MAL_EVENT_HEADER,    /* the sequence ends inside an event header */
	MAL_EVENT_HEADER4,   /* ... 4 bytes into it */
	MAL_POSITION_200,    /* time:Position claims 200 bytes, 28 present */
	MAL_PROPERTY_VALUE,  /* a property value claims more than the object */
	MAL_PROPERTY_HEADER, /* the object ends inside a property header */
	MAL_OBJECT_TINY,     /* an object of 4 bytes (no otype) */
	MAL_SEQ_TINY,        /* a sequence of 4 bytes (no body header) */
	MAL_OUT_EXACT,       /* the output buffer ends at the page: many notes in */
	MAL_OUT_TINY,        /* an output capacity below the sequence header */
	N_MAL
};

static const char *const mal_names[N_MAL] = {
    "event claims 1000 bytes, 3 present",
    "event claims 0xFFFFFFF9 bytes",
    "sequence ends 8 bytes into an event header",
    "sequence ends 4 bytes into an event header",
    "time:Position claims 200 bytes, 28 present",
    "property value claims more than the object",
    "object ends inside a property header",
    "object of 4 bytes",
    "sequence of 4 bytes",
    "output buffer ends on the guard page",
    "output capacity below a sequence header",
};

/* Runs one case in this (child) process; exits 0 if the plugin returned and
 * the output is right, 1 otherwise.  A bad read kills it. */
static void mal_run(pendula_variant v, int c)
{
	host *h = host_new(v, 0);
	lilv_instance_activate(h->inst);
	static uint64_t normal_in[BUF_BYTES / 8], normal_out[BUF_BYTES / 8];
	guard g;
	uint8_t body[512];
	memset(body, 0, sizeof body);
	uint32_t size = sizeof(LV2_Atom_Sequence_Body); /* atom.size of the input */
	uint8_t *events = body;
	uint32_t off = 0;
	int expect_notes = 2;
	bool guard_out = false;
	uint32_t out_capacity = BUF_BYTES - sizeof(LV2_Atom);

	switch (c) {
	case MAL_EVENT_1000:
	case MAL_EVENT_HUGE: {
		off = put_two_notes(events);
		LV2_Atom_Event *ev = (LV2_Atom_Event *)(void *)(events + off);
		ev->time.frames = 5;
		ev->body.size = c == MAL_EVENT_1000 ? 1000u : 0xFFFFFFF9u;
		ev->body.type = urid_midi;
		uint8_t *b = (uint8_t *)(ev + 1);
		b[0] = 0x90;
		b[1] = 62;
		b[2] = 100;
		off += sizeof(*ev) + 3;
		break;
	}
	case MAL_EVENT_HEADER:
	case MAL_EVENT_HEADER4: {
		off = put_two_notes(events);
		LV2_Atom_Event *ev = (LV2_Atom_Event *)(void *)(events + off);
		ev->time.frames = 5;
		off += c == MAL_EVENT_HEADER ? 8 : 4;
		break;
	}
	case MAL_POSITION_200: {
		off = put_two_notes(events);
		LV2_Atom_Event *ev = (LV2_Atom_Event *)(void *)(events + off);
		ev->time.frames = 5;
		ev->body.type = urid_object;
		ev->body.size = 200;
		put_position_body((uint8_t *)(ev + 1));
		off += sizeof(*ev) + 28;
		break;
	}
	case MAL_PROPERTY_VALUE:
	case MAL_PROPERTY_HEADER:
	case MAL_OBJECT_TINY: {
		off = put_two_notes(events);
		LV2_Atom_Event *ev = (LV2_Atom_Event *)(void *)(events + off);
		ev->time.frames = 5;
		ev->body.type = urid_object;
		uint32_t osize = put_position_body((uint8_t *)(ev + 1));
		if (c == MAL_PROPERTY_VALUE) {
			/* the last property's value claims 64 bytes; 8 are there */
			LV2_Atom_Property_Body *pr =
			    (LV2_Atom_Property_Body *)(void *)((uint8_t *)(ev + 1) + osize - 24);
			pr->value.size = 64;
		} else if (c == MAL_PROPERTY_HEADER) {
			osize -= 24 - 4; /* 4 bytes of the last property header */
		} else {
			osize = 4;
		}
		ev->body.size = osize;
		off += sizeof(*ev) + osize;
		break;
	}
	case MAL_SEQ_TINY:
		size = 4;
		expect_notes = 0;
		break;
	case MAL_OUT_EXACT:
	case MAL_OUT_TINY: {
		/* 100 notes in, a normal input buffer */
		for (int i = 0; i < 100; ++i) {
			LV2_Atom_Event *ev = (LV2_Atom_Event *)(void *)(events + off);
			ev->time.frames = i;
			ev->body.size = 3;
			ev->body.type = urid_midi;
			uint8_t *b = (uint8_t *)(ev + 1);
			b[0] = 0x90;
			b[1] = (uint8_t)i;
			b[2] = 1;
			off += 24;
			if (off + 24 > sizeof body)
				break;
		}
		guard_out = true;
		out_capacity =
		    c == MAL_OUT_EXACT ? (uint32_t)(sizeof(LV2_Atom_Sequence) + 5 * 24 + 8) : 12;
		expect_notes = c == MAL_OUT_EXACT ? 5 : 0;
		break;
	}
	default:
		break;
	}
	if (c != MAL_SEQ_TINY)
		size += off;

	void *in_buf, *out_buf;
	const size_t in_bytes = sizeof(LV2_Atom) + size;
	if (guard_out) {
		LV2_Atom_Sequence *seq = (LV2_Atom_Sequence *)normal_in;
		seq->atom.type = urid_sequence;
		seq->atom.size = size;
		seq->body.unit = seq->body.pad = 0;
		memcpy(seq + 1, body, off);
		in_buf = normal_in;
		out_buf = guard_place(&g, out_capacity);
		((LV2_Atom *)out_buf)->type = urid_chunk;
		((LV2_Atom *)out_buf)->size = out_capacity;
	} else {
		uint8_t *p = (uint8_t *)guard_place(&g, in_bytes);
		LV2_Atom_Sequence *seq = (LV2_Atom_Sequence *)(void *)p;
		seq->atom.type = urid_sequence;
		seq->atom.size = size;
		if (size >= sizeof(LV2_Atom_Sequence_Body)) {
			seq->body.unit = seq->body.pad = 0;
			memcpy(p + sizeof(LV2_Atom_Sequence), body,
			       in_bytes - sizeof(LV2_Atom_Sequence));
		} else {
			memcpy(p + sizeof(LV2_Atom), body, size);
		}
		in_buf = p;
		out_buf = normal_out;
		((LV2_Atom *)out_buf)->type = urid_chunk;
		((LV2_Atom *)out_buf)->size = out_capacity;
	}
	host_atoms(h, in_buf, out_buf);
	lilv_instance_run(h->inst, 256);

	midi_out *o = (midi_out *)lv2th_calloc(1, sizeof(midi_out));
	int notes = 0;
	bool ok = true;
	if (c == MAL_OUT_TINY) {
		/* nothing could be written: the host's header stays as it was, or
		 * an empty sequence fits */
		ok = true;
	} else {
		read_output(out_buf, guard_out ? out_capacity : BUF_BYTES, 256, o);
		for (size_t i = 0; i < o->n; ++i)
			notes += o->ev[i].size == 3 && o->ev[i].bytes[0] == 0x90;
		ok = !o->bad && !o->unordered && !o->non_midi && notes == expect_notes;
	}
	printf(" [%d notes out, expected %d%s]", notes, expect_notes, ok ? "" : ", output wrong");
	free(o);
	host_free(h);
	lv2th_free_uris();
	lilv_world_free(world);
	exit(ok ? 0 : 1);
}

/* Every case on every plugin: the reader is shared, but each plugin gets
 * there through its own instance and writes its own outputs after it. */
static void test_malformed(void)
{
	int crashed = 0, wrong = 0, cases = 0;
	for (int v = 0; v < PENDULA_N_VARIANTS; ++v)
		for (int c = 0; c < N_MAL; ++c, ++cases) {
			printf("\n    %-12s %-44s", pendula_variant_names[v], mal_names[c]);
			fflush(stdout);
			const pid_t pid = fork();
			if (pid < 0) {
				perror("test_atom_io: fork");
				exit(2);
			}
			if (pid == 0)
				mal_run((pendula_variant)v, c);
			int status = 0;
			waitpid(pid, &status, 0);
			fflush(stdout);
			if (WIFSIGNALED(status)) {
				printf(" killed by signal %d", WTERMSIG(status));
				crashed++;
			} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
				printf(" failed (exit %d)",
				       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
				wrong++;
			} else {
				printf(" ok");
			}
		}
	printf("\n    %d cases on %d plugins: %d crashed, %d with a wrong output", cases,
	       PENDULA_N_VARIANTS, crashed, wrong);
	CHECK(crashed == 0, "%d of %d malformed inputs crashed run()", crashed, cases);
	CHECK(wrong == 0, "%d of %d malformed inputs gave a wrong output", wrong, cases);
}

int main(int argc, char **argv)
{
	quick = argc == 3 && !strcmp(argv[2], "--quick");
	if (argc != 2 && !quick) {
		fprintf(stderr, "usage: test_atom_io BUNDLE_DIR [--quick]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	map_urids();
	if (!lv2th_world_load("test_atom_io", argv[1], &world, plugins)) {
		lv2th_free_uris();
		return 1;
	}
	static CU_TestInfo tests[] = {
	    {"in_place", test_in_place},
	    {"timestamps", test_timestamps},
	    {"malformed", test_malformed},
	    CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
	    {"atom_io", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};
	const int status = test_cunit_main("test_atom_io", suites);
	lilv_world_free(world);
	lv2th_free_uris();
	return status;
}
