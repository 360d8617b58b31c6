/* SPDX-License-Identifier: ISC */
/*
 * Pluck (docs/GUIDE.md, "Plucking it"), through the plugin: a note-on on
 * the control input at rest gives, at its own frame, the energy output
 * pluck_energy x velocity / 127 within 5 % (velocities 127 and 64: in
 * proportion); a note in the memory-note range, a note-on of velocity 0,
 * or any note with pluck_energy 0 changes nothing, bit for bit; the same
 * notes at the same frames give bit-identical outputs in random blocks; a
 * hard pluck in every block keeps the outputs finite and in range; the
 * notes still pass through.
 * Run by test_host.c for each plugin and rate (host_fixture.h).
 */
#include "host_fixture.h"

typedef struct {
	uint32_t frame;
	uint8_t note, velocity;
} pluck_note;

/* At rest at the bottom: no initial angle or spin, no forcing or chaos
 * knob; pluck_energy and mem_note as given. */
static Host *rest_host(float pluck, float mem_note)
{
	Host *h = host_new(cur_variant, cur_rate);
	for (int k = 0; k < 6; ++k)
		host_set(h, theta_init_port[k], 0.0f);
	host_set(h, P_SPIN_INIT, 0.0f);
	host_set(h, P_FLOOR_X_INIT, 0.0f);
	host_set(h, P_PIVOT_X_AMP, 0.0f);
	host_set(h, P_PIVOT_Y_AMP, 0.0f);
	host_set(h, P_PIVOT_Z_AMP, 0.0f);
	host_set(h, P_ENERGY_TARGET, -1.0f);
	host_set(h, P_PLUCK_ENERGY, pluck);
	host_set(h, P_MEM_NOTE, mem_note);
	return h;
}

/* The block's input: the notes with frames in [from, from + n). */
static void notes_input(Host *h, const pluck_note *notes, int n_notes, uint32_t from, uint32_t n)
{
	LV2_Atom_Forge forge;
	lv2_atom_forge_init(&forge, &lv2th_map);
	lv2_atom_forge_set_buffer(&forge, (uint8_t *)h->atom_in, sizeof h->atom_in);
	LV2_Atom_Forge_Frame seq;
	lv2_atom_forge_sequence_head(&forge, &seq, 0);
	for (int i = 0; i < n_notes; ++i) {
		if (notes[i].frame < from || notes[i].frame >= from + n)
			continue;
		const uint8_t msg[3] = {0x93, notes[i].note, notes[i].velocity};
		lv2_atom_forge_frame_time(&forge, notes[i].frame - from);
		lv2_atom_forge_atom(&forge, 3, urid_midi);
		lv2_atom_forge_write(&forge, msg, 3);
	}
	lv2_atom_forge_pop(&forge, &seq);
	h->keep_input = true;
}

/* Renders `frames` frames in blocks of `block` (0: random, 1..1000),
 * with the notes at their frames, into rec; returns how many of the notes
 * came out. */
static int render_notes(Host *h, Rec *rec, uint32_t frames, uint32_t block, const pluck_note *notes,
                        int n_notes)
{
	uint32_t state = 0x35u, done = 0;
	int out_events = 0;
	rec_reserve(rec, h->v, frames);
	while (done < frames) {
		state = state * 1664525u + 1013904223u;
		uint32_t n = block ? block : 1u + (state >> 8) % 1000u;
		n = n < frames - done ? n : frames - done;
		notes_input(h, notes, n_notes, done, n);
		host_prepare_atoms(h);
		lilv_instance_run(h->inst, n);
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
			if (rec->sig[id])
				memcpy(rec->sig[id] + rec->n, h->buf[id], n * sizeof(float));
		rec->n += n;
		const LV2_Atom_Sequence *out = (const LV2_Atom_Sequence *)h->atom_out;
		LV2_ATOM_SEQUENCE_FOREACH(out, ev)
		{
			const uint8_t *m = (const uint8_t *)LV2_ATOM_BODY_CONST(&ev->body);
			/* (the plugin's own MIDI, CC and notes, is on other
			 * channels) */
			if (ev->body.type == urid_midi && ev->body.size == 3 && m[0] == 0x93)
				out_events++;
		}
		done += n;
	}
	return out_events;
}

/* The energy output at frame i after a render with these notes. */
static double energy_after(float pluck, const pluck_note *notes, int n_notes, uint32_t i)
{
	const int id = output_of_channel(PENDULA_CH_ENERGY);
	Host *h = rest_host(pluck, -1.0f);
	Rec rec = {0};
	render_notes(h, &rec, i + 1, 256, notes, n_notes);
	const double e = rec.sig[id][i], before = rec.sig[id][i > 0 ? i - 1 : 0];
	CU_ASSERT(fabs(before) < 1e-6); /* at rest until the note */
	rec_free(&rec);
	host_free(h);
	return e;
}

void test_pluck_energy(void)
{
	if (output_of_channel(PENDULA_CH_ENERGY) == P_NONE)
		return;
	const uint32_t at = 1000;
	const pluck_note loud = {at, 60, 127}, soft = {at, 60, 64};
	const double e127 = energy_after(0.5f, &loud, 1, at);
	const double e64 = energy_after(0.5f, &soft, 1, at);
	const double e2 = energy_after(2.0f, &loud, 1, at);
	CHECK(fabs(e127 - 0.5) <= 0.05 * 0.5, "velocity 127 at 0.5: energy %g", e127);
	CHECK(fabs(e64 - 0.5 * 64.0 / 127.0) <= 0.05 * 0.5 * 64.0 / 127.0,
	      "velocity 64 at 0.5: energy %g", e64);
	CHECK(fabs(e64 / e127 - 64.0 / 127.0) <= 0.05 * 64.0 / 127.0,
	      "energy against velocity: %g / %g", e64, e127);
	CHECK(fabs(e2 - 2.0) <= 0.05 * 2.0, "velocity 127 at 2: energy %g", e2);
	/* two notes at one frame add up; the frame before is untouched */
	const pluck_note two[] = {{at, 60, 127}, {at, 72, 64}};
	const double both = energy_after(0.5f, two, 2, at);
	CHECK(fabs(both - (0.5 + 0.5 * 64.0 / 127.0)) <= 0.05 * both, "two notes: energy %g", both);
}

/* Notes that must not pluck (and pluck_energy 0) leave every output as
 * without them, bit for bit; a note just past the memory range plucks. */
void test_pluck_not(void)
{
	const uint32_t frames = seconds(0.25);
	const pluck_note mem[] = {{100, 60, 127}, {2000, 67, 90}, {3000, 64, 0}, {3001, 50, 0}};
	const pluck_note any[] = {{100, 61, 127}, {2000, 40, 90}};
	const pluck_note past = {2000, 68, 127};
	Host *h0 = rest_host(0.5f, 60.0f), *h1 = rest_host(0.5f, 60.0f);
	Host *h2 = rest_host(0.0f, -1.0f), *h3 = rest_host(0.5f, 60.0f);
	Rec r0 = {0}, r1 = {0}, r2 = {0}, r3 = {0};
	render_notes(h0, &r0, frames, 256, NULL, 0);
	const int through = render_notes(h1, &r1, frames, 256, mem, 4);
	render_notes(h2, &r2, frames, 256, any, 2);
	render_notes(h3, &r3, frames, 256, &past, 1);
	CU_ASSERT(same_signals(&r0, &r1, 0, 0, frames, "memory notes, velocity 0"));
	CU_ASSERT(same_signals(&r0, &r2, 0, 0, frames, "pluck_energy 0"));
	CHECK(through == 4, "%d of 4 notes passed through", through);
	const int id = output_of_channel(PENDULA_CH_ENERGY);
	if (id != P_NONE)
		CHECK(r3.sig[id][2000] > 0.45f && r0.sig[id][2000] < 1e-6f,
		      "note 68 (past the memories) did not pluck: %g", (double)r3.sig[id][2000]);
	rec_free(&r0);
	rec_free(&r1);
	rec_free(&r2);
	rec_free(&r3);
	host_free(h0);
	host_free(h1);
	host_free(h2);
	host_free(h3);
}

/* The same notes at the same frames, random blocks: the same outputs. */
void test_pluck_blocks(void)
{
	const uint32_t frames = seconds(0.5);
	const pluck_note notes[] = {{0, 60, 100},   {777, 62, 127},       {778, 64, 30},
	                            {5000, 65, 90}, {5000, 67, 90},       {12000, 69, 127},
	                            {12001, 71, 5}, {frames - 1, 72, 127}};
	const int n_notes = (int)(sizeof(notes) / sizeof(notes[0]));
	Host *a = rest_host(1.0f, -1.0f), *b = rest_host(1.0f, -1.0f);
	Rec ra = {0}, rb = {0};
	render_notes(a, &ra, frames, 512, notes, n_notes);
	render_notes(b, &rb, frames, 0, notes, n_notes);
	CU_ASSERT(same_signals(&ra, &rb, 0, 0, frames, "plucks in random blocks"));
	rec_free(&ra);
	rec_free(&rb);
	host_free(a);
	host_free(b);
}

/* A hard pluck in every block of 64 for a second: finite, in range. */
void test_pluck_hard(void)
{
	const uint32_t frames = seconds(1.0);
	const int n_notes = (int)(frames / 64);
	pluck_note *notes = lv2th_calloc((size_t)n_notes, sizeof(pluck_note));
	for (int i = 0; i < n_notes; ++i)
		notes[i] = (pluck_note){(uint32_t)i * 64u, (uint8_t)(30 + i % 60), 127};
	Host *h = rest_host(2.0f, -1.0f);
	Rec r = {0};
	render_notes(h, &r, frames, 64, notes, n_notes);
	const char *bad = NULL;
	CHECK(all_finite(&r, &bad), "%s not finite", bad ? bad : "?");
	bool in_range = true;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (r.sig[id] && pendula_ports[id].kind == PK_SIGNAL_OUT)
			for (size_t i = 0; i < r.n; ++i)
				in_range &= r.sig[id][i] >= pendula_ports[id].min &&
				            r.sig[id][i] <= pendula_ports[id].max;
	CU_ASSERT(in_range);
	rec_free(&r);
	host_free(h);
	free(notes);
}
