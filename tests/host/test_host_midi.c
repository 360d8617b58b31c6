/* SPDX-License-Identifier: ISC */
/*
 * MIDI: incoming MIDI comes out unchanged, in order, at the same frames;
 * every output sent as CC gives the same MIDI with separate, shared and
 * (CV) NULL signal buffers; events; notes on a channel change and into an
 * output buffer with little room.
 * Run by test_host.c for each plugin and rate (host_fixture.h).
 */
#include "host_fixture.h"

/* ---------------------------------------------------------------------- */
/* MIDI through                                                            */

typedef struct {
	int64_t frames;
	uint8_t bytes[3];
	uint32_t size;
} midi_ev;

void test_midi_through(void)
{
	Host *h = host_new(cur_variant, cur_rate);
	const uint32_t n = 256;
	const midi_ev in[] = {
	    {0, {0x90, 60, 100}, 3}, {17, {0xB3, 7, 64}, 3},  {17, {0xC0, 5, 0}, 2},
	    {200, {0xE0, 0, 64}, 3}, {255, {0x80, 60, 0}, 3},
	};
	const size_t n_in = sizeof in / sizeof in[0];

	LV2_Atom_Forge forge;
	lv2_atom_forge_init(&forge, &lv2th_map);
	lv2_atom_forge_set_buffer(&forge, (uint8_t *)h->atom_in, sizeof h->atom_in);
	LV2_Atom_Forge_Frame seq_frame, obj_frame;
	lv2_atom_forge_sequence_head(&forge, &seq_frame, 0);
	for (size_t i = 0; i < n_in; ++i) {
		if (i == 1) {
			/* a time:Position between MIDI events: not MIDI, not passed on */
			lv2_atom_forge_frame_time(&forge, 5);
			lv2_atom_forge_object(&forge, &obj_frame, 0,
			                      lv2th_map_uri(NULL, LV2_TIME__Position));
			lv2_atom_forge_key(&forge, lv2th_map_uri(NULL, LV2_TIME__beatsPerMinute));
			lv2_atom_forge_float(&forge, 120.0f);
			lv2_atom_forge_key(&forge, lv2th_map_uri(NULL, LV2_TIME__speed));
			lv2_atom_forge_float(&forge, 1.0f);
			lv2_atom_forge_pop(&forge, &obj_frame);
		}
		lv2_atom_forge_frame_time(&forge, in[i].frames);
		lv2_atom_forge_atom(&forge, in[i].size, urid_midi);
		lv2_atom_forge_write(&forge, in[i].bytes, in[i].size);
	}
	lv2_atom_forge_pop(&forge, &seq_frame);
	h->keep_input = true;

	host_render(h, NULL, n, NULL);

	const LV2_Atom_Sequence *out = (const LV2_Atom_Sequence *)h->atom_out;
	CHECK(out->atom.type == urid_sequence, "MIDI output is not an atom:Sequence (type %u)",
	      out->atom.type);
	CHECK(out->atom.size >= sizeof(LV2_Atom_Sequence_Body) &&
	          out->atom.size <= ATOM_CAPACITY - sizeof(LV2_Atom),
	      "MIDI output size %u", out->atom.size);
	size_t matched = 0, non_midi = 0, events = 0;
	int64_t last_frame = -1;
	bool ordered = true;
	if (out->atom.type == urid_sequence) {
		LV2_ATOM_SEQUENCE_FOREACH(out, ev)
		{
			++events;
			if (ev->time.frames < last_frame || ev->time.frames >= n)
				ordered = false;
			last_frame = ev->time.frames;
			if (ev->body.type != urid_midi) {
				++non_midi;
				continue;
			}
			const uint8_t *bytes = (const uint8_t *)LV2_ATOM_BODY_CONST(&ev->body);
			if (matched < n_in && ev->time.frames == in[matched].frames &&
			    ev->body.size == in[matched].size &&
			    !memcmp(bytes, in[matched].bytes, in[matched].size))
				++matched;
		}
	}
	printf("\n    %zu events out, %zu of %zu MIDI inputs found in order", events, matched,
	       n_in);
	CHECK(matched == n_in, "only %zu of %zu input MIDI events came out unchanged", matched,
	      n_in);
	CHECK(non_midi == 0, "%zu non-MIDI events on the MIDI output", non_midi);
	CHECK(ordered, "MIDI output events out of order or outside the block");

	/* next block: empty input, a valid (possibly empty) sequence out */
	h->keep_input = false;
	host_render(h, NULL, 64, NULL);
	CHECK(out->atom.type == urid_sequence && out->atom.size >= sizeof(LV2_Atom_Sequence_Body),
	      "MIDI output of an empty block is not a sequence");
	/* and a 0-frame block */
	host_render(h, NULL, 0, NULL);
	CHECK(out->atom.type == urid_sequence, "MIDI output of a 0-frame block is not a sequence");
	host_free(h);
}

/* ---------------------------------------------------------------------- */
/* MIDI output under other wirings of the signal outputs                   */

typedef struct {
	size_t n, cap;
	midi_ev *ev;    /* frames absolute */
	size_t outside; /* events not within their run()'s frames [0, n) */
} midi_log;

/* Appends the events of the MIDI output after a run() of n frames whose
 * first frame is frame `done` of the render. */
static void log_midi_out(const Host *h, midi_log *log, uint32_t done, uint32_t n)
{
	const LV2_Atom_Sequence *out = (const LV2_Atom_Sequence *)h->atom_out;
	if (out->atom.type != urid_sequence)
		return;
	LV2_ATOM_SEQUENCE_FOREACH(out, ev)
	{
		if (log->n == log->cap) {
			log->cap = log->cap ? 2 * log->cap : 4096;
			log->ev = lv2th_realloc(log->ev, log->cap * sizeof(midi_ev));
		}
		midi_ev *m = &log->ev[log->n++];
		memset(m, 0, sizeof(*m));
		log->outside += ev->time.frames < 0 || ev->time.frames >= (int64_t)n;
		m->frames = (int64_t)done + ev->time.frames;
		m->size = ev->body.size;
		memcpy(m->bytes, LV2_ATOM_BODY_CONST(&ev->body),
		       ev->body.size < 3 ? ev->body.size : 3);
	}
}

/* Runs `frames` frames in random blocks (0-frame ones too), changing the
 * controls at fixed frames, and logs every event of the MIDI output. */
static void render_midi(Host *h, uint32_t frames, midi_log *log)
{
	Blocking b = {0, 8086, true, false};
	uint32_t done = 0;
	bool changed = false;
	while (done < frames) {
		const uint32_t n = next_block(&b, frames - done);
		if (!changed && done >= frames / 2) {
			host_set(h, P_SIGMA1, 2.0f);
			host_set(h, P_PIVOT_X_AMP, 0.2f);
			host_set(h, P_PIVOT_X_FREQ, 4.0f);
			changed = true;
		}
		host_prepare_atoms(h);
		lilv_instance_run(h->inst, n);
		log_midi_out(h, log, done, n);
		done += n;
	}
}

static Host *host_all_cc(bool shared, bool null_signals)
{
	Host *h = host_new_ex(cur_variant, cur_rate, null_signals, false);
	h->shared_signals = shared; /* connected again below */
	int cc = 20;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (h->has[id] && pendula_ports[id].kind == PK_CONTROL_IN &&
		    pendula_ports[id].related != P_NONE)
			h->control[id] = (float)cc++; /* every output sent, on its own CC */
	h->control[P_CC_14BIT] = 1.0f;
	host_connect(h);
	return h;
}

/* The MIDI output (control changes and events alike) is the same event for
 * event whether the signal outputs have their own buffers, all share one
 * buffer, or (CV outputs, connectionOptional) are not connected. */
void test_midi_wiring(void)
{
	const uint32_t len = seconds(opt.quick ? 0.2 : 1.0);
	midi_log ref = {0}, shared = {0}, null_log = {0};
	Host *h = host_all_cc(false, false);
	render_midi(h, len, &ref);
	host_free(h);
	h = host_all_cc(true, false);
	render_midi(h, len, &shared);
	host_free(h);
	printf("\n    %zu MIDI events with separate buffers, %zu with one shared buffer", ref.n,
	       shared.n);
	CHECK(ref.n > 100, "only %zu MIDI events", ref.n);
	CHECK(ref.outside == 0 && shared.outside == 0, "%zu, %zu MIDI events outside their block",
	      ref.outside, shared.outside);
	size_t i = 0;
	while (i < ref.n && i < shared.n && !memcmp(&ref.ev[i], &shared.ev[i], sizeof(midi_ev)))
		++i;
	CHECK(i == ref.n && i == shared.n,
	      "shared signal buffer: MIDI differs from event %zu on (%zu vs %zu events)", i, ref.n,
	      shared.n);
	if (pendula_variant_is_cv(cur_variant)) {
		h = host_all_cc(false, true);
		render_midi(h, len, &null_log);
		host_free(h);
		printf(", %zu with NULL CV outputs", null_log.n);
		i = 0;
		while (i < ref.n && i < null_log.n &&
		       !memcmp(&ref.ev[i], &null_log.ev[i], sizeof(midi_ev)))
			++i;
		CHECK(i == ref.n && i == null_log.n,
		      "NULL CV outputs: MIDI differs from event %zu on (%zu vs %zu events)", i,
		      ref.n, null_log.n);
	}
	free(ref.ev);
	free(shared.ev);
	free(null_log.ev);
}

/* ---------------------------------------------------------------------- */
/* Events: flips and swings as pulses and as notes                         */

/* Renders with the chaos knob at 1.2 and flip / swing notes on, in blocks
 * (random: block 0; a block also ends at frame split if it is not 0),
 * logging the MIDI output and recording the signals. */
static void render_events(Host *h, uint32_t frames, uint32_t block, uint32_t split, midi_log *log,
                          Rec *rec)
{
	host_set(h, P_ENERGY_TARGET, 1.2f);
	host_set(h, P_ENERGY_RATE, 2.0f);
	host_set(h, P_NOTE_FLIP, 60.0f);
	host_set(h, P_NOTE_SWING, 72.0f);
	host_set(h, P_NOTE_LENGTH, 30.0f);
	Blocking b = {block, 777, block == 0, false};
	uint32_t done = 0;
	rec_reserve(rec, h->v, frames);
	while (done < frames) {
		uint32_t n = next_block(&b, frames - done);
		if (done < split && n > split - done)
			n = split - done;
		host_prepare_atoms(h);
		lilv_instance_run(h->inst, n);
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
			if (rec->sig[id])
				memcpy(rec->sig[id] + rec->n, h->buf[id], n * sizeof(float));
		rec->n += n;
		log_midi_out(h, log, done, n);
		done += n;
	}
}

/* Every flip played as a note: its note-on lies on a frame of a flips
 * pulse, and there are as many of each (but for pulses of the same sign
 * closer than 1 ms, which merge); every note-on has its
 * note-off (a note played again ends first); the MIDI and the pulses are
 * the same for any block split. */
void test_events(void)
{
	const uint32_t len = seconds(opt.quick ? 3.0 : 20.0);
	Host *h = host_new(cur_variant, cur_rate);
	midi_log log = {0}, log2 = {0}, log3 = {0};
	Rec rec = {0}, rec2 = {0}, rec3 = {0};
	render_events(h, len, 0, 0, &log, &rec);
	host_free(h);
	h = host_new(cur_variant, cur_rate);
	render_events(h, len, 256, 0, &log2, &rec2);
	host_free(h);
	/* once more, a block ending where the first note ends: its note-off is
	 * due at the first frame after that block */
	uint32_t split = 0;
	for (size_t i = 0; i < log.n && !split; ++i)
		if (log.ev[i].size == 3 && (log.ev[i].bytes[0] & 0xf0) == 0x90)
			split =
			    (uint32_t)log.ev[i].frames + (uint32_t)floor(0.030 * cur_rate + 0.5);
	h = host_new(cur_variant, cur_rate);
	render_events(h, len, 256, split, &log3, &rec3);
	host_free(h);

	const float *flips = rec.sig[P_OUT_FLIPS], *swings = rec.sig[P_OUT_SWINGS];
	long onsets[2] = {0, 0}, ons[2] = {0, 0}, unmatched = 0, unpaired = 0;
	int sounding[128] = {0};
	for (size_t i = 0; i < log.n; ++i) {
		const midi_ev *m = &log.ev[i];
		const int status = m->bytes[0] & 0xf0, note = m->bytes[1];
		if (m->size != 3 || (status != 0x90 && status != 0x80))
			continue;
		if (status == 0x80) {
			unpaired += !sounding[note];
			sounding[note] = 0;
			continue;
		}
		unpaired += sounding[note]; /* a note-on while it sounds */
		sounding[note] = 1;
		const int kind = note >= 72 ? 1 : 0;
		ons[kind]++;
		const float *pulse = kind ? swings : flips;
		const int64_t f = m->frames;
		/* (a pulse still on from an event of another body less than 1 ms
		 * before, with the same sign, just goes on) */
		unmatched += pulse[f] == 0.0f;
	}
	for (int kind = 0; kind < 2; ++kind) {
		const float *pulse = kind ? swings : flips;
		for (size_t i = 0; i < rec.n; ++i)
			onsets[kind] += pulse[i] != 0.0f && (i == 0 || pulse[i - 1] == 0.0f ||
			                                     pulse[i - 1] != pulse[i]);
	}
	printf("\n    %ld flips, %ld swings played; pulses: %ld, %ld", ons[0], ons[1], onsets[0],
	       onsets[1]);
	CHECK(ons[0] > 0 && ons[1] > 0, "no flip or no swing in %u frames", len);
	CHECK(unmatched == 0, "%ld note-ons off their pulse", unmatched);
	CHECK(unpaired == 0, "%ld note-ons or note-offs without their pair", unpaired);
	/* (a note-off due at the first frame after a block is the next
	 * block's, never at frame n of a run() of n frames) */
	CHECK(log.outside == 0 && log2.outside == 0 && log3.outside == 0,
	      "%zu, %zu, %zu MIDI events outside their block", log.outside, log2.outside,
	      log3.outside);
	/* pulses of the same sign closer than 1 ms merge (rare) */
	CHECK(labs(onsets[0] - ons[0]) <= ons[0] / 50 && labs(onsets[1] - ons[1]) <= ons[1] / 50,
	      "pulse onsets %ld, %ld vs notes %ld, %ld", onsets[0], onsets[1], ons[0], ons[1]);
	size_t i = 0;
	while (i < log.n && i < log2.n && !memcmp(&log.ev[i], &log2.ev[i], sizeof(midi_ev)))
		++i;
	CHECK(i == log.n && i == log2.n, "the MIDI differs with the block split from event %zu", i);
	i = 0;
	while (i < log.n && i < log3.n && !memcmp(&log.ev[i], &log3.ev[i], sizeof(midi_ev)))
		++i;
	CHECK(split > 0 && i == log.n && i == log3.n,
	      "a block ending where a note ends (frame %u): the MIDI differs from event %zu", split,
	      i);
	CHECK(same_signals(&rec, &rec2, 0, 0, len, "events"), "the outputs differ with the blocks");
	free(log.ev);
	free(log2.ev);
	free(log3.ev);
	rec_free(&rec);
	rec_free(&rec2);
	rec_free(&rec3);
}

/* The chaos knob at 1.2 and flip / swing notes on, notes `length` ms long. */
static void notes_on_chaos(Host *h, float length)
{
	host_set(h, P_ENERGY_TARGET, 1.2f);
	host_set(h, P_ENERGY_RATE, 2.0f);
	host_set(h, P_NOTE_FLIP, 60.0f);
	host_set(h, P_NOTE_SWING, 72.0f);
	host_set(h, P_NOTE_LENGTH, length);
}

/* The notes of a MIDI log, as a receiver plays them. */
typedef struct {
	long ons[2];     /* note-ons of the events before / from `first` */
	long offs;       /* note-offs */
	long orphans;    /* note-offs without a sounding note */
	long retriggers; /* note-ons of a note that sounds (on its channel) */
	long stuck;      /* notes left sounding at the end */
} note_tally;

static note_tally tally_notes(const midi_log *log, size_t first)
{
	note_tally t = {{0, 0}, 0, 0, 0, 0};
	static int sounding[16][128];
	memset(sounding, 0, sizeof(sounding));
	for (size_t i = 0; i < log->n; ++i) {
		const midi_ev *m = &log->ev[i];
		const int status = m->bytes[0] & 0xf0, ch = m->bytes[0] & 15, note = m->bytes[1];
		if (m->size != 3 || (status != 0x90 && status != 0x80))
			continue;
		if (status == 0x80) {
			t.offs++;
			t.orphans += !sounding[ch][note];
			sounding[ch][note] = 0;
		} else {
			t.retriggers += sounding[ch][note];
			sounding[ch][note] = 1;
			t.ons[i >= first]++;
		}
	}
	for (int ch = 0; ch < 16; ++ch)
		for (int note = 0; note < 128; ++note)
			t.stuck += sounding[ch][note];
	return t;
}

/* midi_channel changed while notes sound (a note length of 2 s, so that
 * some always do): each note-off goes out on its note-on's channel, and
 * a freeze at the end ends every note; no note-on is left without its
 * note-off, and no note-off comes without its note-on. */
void test_notes_channel_change(void)
{
	const uint32_t len = seconds(opt.quick ? 2.0 : 6.0) / 256 * 256;
	Host *h = host_new(cur_variant, cur_rate);
	midi_log log = {0};
	notes_on_chaos(h, 2000.0f);
	size_t first = 0;
	uint32_t done = 0;
	while (done < 2 * len + 256) {
		if (done == len) { /* the second half on channel 2 */
			host_set(h, P_MIDI_CHANNEL, 2.0f);
			first = log.n;
		}
		if (done == 2 * len) /* a freeze ends the notes */
			host_set(h, P_FREEZE, 1.0f);
		host_prepare_atoms(h);
		lilv_instance_run(h->inst, 256);
		log_midi_out(h, &log, done, 256);
		done += 256;
	}
	host_free(h);
	const note_tally t = tally_notes(&log, first);
	printf(
	    "\n    %ld notes on channel 1, %ld on channel 2; left sounding %ld, note-offs without "
	    "their note-on %ld",
	    t.ons[0], t.ons[1], t.stuck, t.orphans);
	CHECK(t.ons[0] > 0 && t.ons[1] > 0, "notes %ld, %ld", t.ons[0], t.ons[1]);
	CHECK(t.stuck == 0 && t.orphans == 0 && t.retriggers == 0,
	      "%ld notes stuck, %ld note-offs without a note-on, %ld note-ons while sounding",
	      t.stuck, t.orphans, t.retriggers);
	CHECK(log.outside == 0, "%zu MIDI events outside their block", log.outside);
	free(log.ev);
}

/* Input MIDI for a block: k program changes (channel 6) at spread frames. */
static void input_program_changes(Host *h, uint32_t k, uint32_t n)
{
	LV2_Atom_Forge forge;
	lv2_atom_forge_init(&forge, &lv2th_map);
	lv2_atom_forge_set_buffer(&forge, (uint8_t *)h->atom_in, sizeof h->atom_in);
	LV2_Atom_Forge_Frame seq_frame;
	lv2_atom_forge_sequence_head(&forge, &seq_frame, 0);
	for (uint32_t i = 0; i < k; ++i) {
		const uint8_t pc[2] = {0xC5, (uint8_t)(i & 127)};
		lv2_atom_forge_frame_time(&forge, (int64_t)(i * n / (k + 1)));
		lv2_atom_forge_atom(&forge, 2, urid_midi);
		lv2_atom_forge_write(&forge, pc, 2);
	}
	lv2_atom_forge_pop(&forge, &seq_frame);
	h->keep_input = true;
}

/* A MIDI output with room for a few events per block, under the traffic of
 * every output sent as a 14-bit CC, flips and swings played as short notes
 * and input MIDI taking a random part of the room (all of it at times),
 * then a freeze: what does not fit is dropped, but the input all comes
 * through, no note is left sounding, no note-off comes without its note-on
 * and no note-on comes for a note that sounds (a note-off that finds no
 * room goes out later; the note's next note-on waits for it). */
static void notes_small_output(uint32_t room, long *ons, long *dropped)
{
	const uint32_t len = seconds(opt.quick ? 2.0 : 6.0) / 256 * 256;
	Host *h = host_all_cc(false, false);
	h->out_capacity = (uint32_t)(sizeof(LV2_Atom_Sequence) + room * 24);
	midi_log log = {0};
	notes_on_chaos(h, 5.0f);
	host_set(h, P_TIME_SCALE, 4.0f); /* more notes */
	uint32_t done = 0, seed = 4711;
	size_t full = 0;
	long pcs_in = 0, pcs_out = 0;
	while (done < len + 8 * 256) {
		if (done == len) /* a freeze ends the notes */
			host_set(h, P_FREEZE, 1.0f);
		seed = seed * 1664525u + 1013904223u;
		const uint32_t k = (seed >> 16) % 3 ? 0 : (seed >> 20) % (room + 1);
		input_program_changes(h, k, 256);
		pcs_in += k;
		host_prepare_atoms(h);
		lilv_instance_run(h->inst, 256);
		const size_t before = log.n;
		log_midi_out(h, &log, done, 256);
		full += log.n - before == room;
		done += 256;
	}
	host_free(h);
	long ccs = 0;
	for (size_t i = 0; i < log.n; ++i) {
		const midi_ev *m = &log.ev[i];
		ccs += m->size == 3 && (m->bytes[0] & 0xf0) == 0xB0;
		pcs_out += m->size == 2 && m->bytes[0] == 0xC5;
	}
	const note_tally t = tally_notes(&log, log.n);
	*ons = t.ons[0];
	*dropped = (long)full;
	printf("\n    room for %u events: %zu blocks full; %ld of %ld input events, %ld note-ons, "
	       "%ld note-offs, %ld CCs; left sounding %ld, note-offs without their note-on %ld, "
	       "note-ons while sounding %ld",
	       room, full, pcs_out, pcs_in, *ons, t.offs, ccs, t.stuck, t.orphans, t.retriggers);
	CHECK(pcs_out == pcs_in, "room %u: %ld of %ld input events came through", room, pcs_out,
	      pcs_in);
	CHECK(t.stuck == 0 && t.orphans == 0 && t.retriggers == 0,
	      "room %u: %ld notes stuck, %ld note-offs without a note-on, %ld note-ons while "
	      "sounding",
	      room, t.stuck, t.orphans, t.retriggers);
	CHECK(log.outside == 0, "%zu MIDI events outside their block", log.outside);
	free(log.ev);
}

void test_notes_small_output(void)
{
	static const uint32_t rooms[] = {4, 8, 16, 32};
	long ons_total = 0;
	for (size_t i = 0; i < sizeof(rooms) / sizeof(rooms[0]); ++i) {
		long ons, full;
		notes_small_output(rooms[i], &ons, &full);
		ons_total += ons;
		CHECK(full > 100, "room %u: only %ld blocks full", rooms[i], full);
	}
	CHECK(ons_total > 0, "no note played");
}
