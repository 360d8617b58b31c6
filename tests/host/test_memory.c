/* SPDX-License-Identifier: ISC */
/*
 * Memories (issue 35), through the plugin as a host runs it, for one plugin
 * at 48 kHz with random block sizes and pivot forcing on (so the forcing
 * phase must come back too):
 *   (a) a motion stored at a block and recalled later with mem_glide 0
 *       replays exactly: every signal output, frame for frame, equals what
 *       followed the store;
 *   (b) a recall by note (mem_note + slot - 1) acts at the note's frame
 *       inside a block, and replays exactly from there;
 *   (c) a recall with a glide of 10 ms (N frames) has no step between two
 *       frames larger than the motion's own largest step plus the steepest
 *       step of the raised-cosine fade across the output's whole range
 *       (pi / N for a range of 2), on every output that does not wrap,
 *       where the same recall without a glide jumps by far more;
 *   (d) recalling an empty slot changes nothing;
 *   (e) a reset in the middle of a glide starts the motion a fresh
 *       instance starts: the glide ends with the old motion.
 *
 * usage: test_memory BUNDLE_DIR --plugin NAME
 */
#include "lv2_test_host.h"

#include <lv2/atom/atom.h>
#include <lv2/atom/util.h>
#include <lv2/midi/midi.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE       48000.0
#define MAX_BLOCK  600u
#define ATOM_WORDS 4096u
#define REPLAY     20000u /* frames compared after a recall */

static int failures;
#define EXPECT(cond, ...)                                                    \
	do {                                                                 \
		if (!(cond)) {                                               \
			++failures;                                          \
			fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                        \
			fputc('\n', stderr);                                 \
		}                                                            \
	} while (0)

typedef struct {
	pendula_variant v;
	LilvInstance *inst;
	float control[PENDULA_N_PORT_IDS];
	float *signal[PENDULA_N_PORT_IDS];
	uint64_t atom_in[ATOM_WORDS], atom_out[ATOM_WORDS];
	/* every frame of every signal output since open */
	float *trace[PENDULA_N_PORT_IDS];
	uint32_t frames, capacity;
} rig;

static uint32_t rng_state = 2024u;
static uint32_t rng(void)
{
	rng_state = rng_state * 1664525u + 1013904223u;
	return rng_state >> 8;
}

static int port(pendula_variant v, const char *symbol)
{
	const int id = test_port_by_symbol(v, symbol);
	if (id < 0) {
		fprintf(stderr, "test_memory: no port %s\n", symbol);
		exit(2);
	}
	return id;
}

static void rig_open(rig *r, pendula_variant v, const LilvPlugin *plugin, uint32_t capacity)
{
	memset(r, 0, sizeof(*r));
	r->v = v;
	test_control_defaults(v, r->control);
	/* forcing on: a recall must bring the forcing phase back too */
	r->control[port(v, "pivot_x_amp")] = 0.05f;
	r->control[port(v, "pivot_x_freq")] = 1.3f;
	r->control[port(v, "mem_glide")] = 0.0f;
	r->capacity = capacity;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (pendula_ports[id].kind == PK_SIGNAL_OUT &&
		    pendula_port_index(v, (pendula_port_id)id) >= 0) {
			r->signal[id] = lv2th_calloc(MAX_BLOCK, sizeof(float));
			r->trace[id] = lv2th_calloc(capacity, sizeof(float));
		}
	static const LV2_Feature *features[] = {&lv2th_map_feature, &lv2th_unmap_feature, NULL};
	r->inst = lv2th_instantiate("test_memory", plugin, v, RATE, features);
	lv2th_connect(r->inst, v, r->control, r->signal, r->atom_in, r->atom_out);
	lilv_instance_activate(r->inst);
}

static void rig_close(rig *r)
{
	lilv_instance_deactivate(r->inst);
	lilv_instance_free(r->inst);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		free(r->signal[id]);
		free(r->trace[id]);
	}
}

/* One block of n frames; a note-on of `note` at frame note_frame if note
 * >= 0.  The trigger controls are as the caller set them. */
static void run_block(rig *r, uint32_t n, int note, uint32_t note_frame)
{
	lv2th_prepare_atoms(r->atom_in, r->atom_out, (uint32_t)sizeof r->atom_out - 8u);
	if (note >= 0) {
		LV2_Atom_Sequence *seq = (LV2_Atom_Sequence *)r->atom_in;
		struct {
			LV2_Atom_Event ev;
			uint8_t msg[4];
		} e;
		memset(&e, 0, sizeof(e));
		e.ev.time.frames = note_frame;
		e.ev.body.type = lv2th_map_uri(NULL, LV2_MIDI__MidiEvent);
		e.ev.body.size = 3;
		e.msg[0] = LV2_MIDI_MSG_NOTE_ON;
		e.msg[1] = (uint8_t)note;
		e.msg[2] = 100;
		lv2_atom_sequence_append_event(seq, sizeof r->atom_in, &e.ev);
	}
	lilv_instance_run(r->inst, n);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (r->trace[id] && r->frames + n <= r->capacity)
			memcpy(r->trace[id] + r->frames, r->signal[id], n * sizeof(float));
	r->frames += n;
}

/* Random blocks until `frames` frames have run (triggers off). */
static void run_frames(rig *r, uint32_t frames)
{
	r->control[port(r->v, "mem_store")] = 0.0f;
	r->control[port(r->v, "mem_recall")] = 0.0f;
	while (frames > 0) {
		uint32_t n = 1 + rng() % MAX_BLOCK;
		if (n > frames)
			n = frames;
		run_block(r, n, -1, 0);
		frames -= n;
	}
}

/* One block with the store or recall trigger up. */
static void trigger(rig *r, const char *which, int slot, uint32_t n)
{
	r->control[port(r->v, "mem_slot")] = (float)slot;
	r->control[port(r->v, which)] = 1.0f;
	run_block(r, n, -1, 0);
	r->control[port(r->v, which)] = 0.0f;
}

/* The first frame from which [a, a + n) and [b, b + n) differ on some
 * signal output, or -1. */
static long first_mismatch(const rig *r, uint32_t a, uint32_t b, uint32_t n)
{
	for (uint32_t i = 0; i < n; ++i)
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
			if (r->trace[id] &&
			    memcmp(&r->trace[id][a + i], &r->trace[id][b + i], 4) != 0)
				return (long)i;
	return -1;
}

static bool wraps(int id)
{
	const char *s = pendula_ports[id].symbol;
	return !strncmp(s, "theta", 5) || !strcmp(s, "flips") || !strcmp(s, "swings");
}

/* The largest step between two frames of [a, b) of a non-wrapping output. */
static double largest_step(const rig *r, int id, uint32_t a, uint32_t b)
{
	double m = 0.0;
	for (uint32_t i = a + 1; i < b; ++i)
		m = fmax(m, fabs((double)r->trace[id][i] - r->trace[id][i - 1]));
	return m;
}

static void test_replay(pendula_variant v, const LilvPlugin *plugin)
{
	rig r;
	rig_open(&r, v, plugin, 400000);
	run_frames(&r, 30000);
	const uint32_t stored = r.frames;
	trigger(&r, "mem_store", 3, 1 + rng() % MAX_BLOCK);
	run_frames(&r, 60000);
	/* (d) an empty slot: the motion goes on as before */
	const uint32_t before_empty = r.frames;
	trigger(&r, "mem_recall", 5, 300);
	run_frames(&r, 1000);
	EXPECT(first_mismatch(&r, before_empty, stored, 10) != -1 || stored == before_empty,
	       "(the motion at the empty recall is not the stored one)");
	/* (a) recall with glide 0 */
	const uint32_t recalled = r.frames;
	trigger(&r, "mem_recall", 3, 1 + rng() % MAX_BLOCK);
	run_frames(&r, REPLAY);
	long bad = first_mismatch(&r, stored, recalled, REPLAY);
	EXPECT(bad < 0, "%s: the recalled motion differs from the stored one at frame %ld",
	       pendula_variant_names[v], bad);
	printf("  recall (glide 0): %u frames replayed exactly%s\n", REPLAY,
	       bad < 0 ? "" : " (NOT)");

	/* (b) by note, at a frame inside a block: slot 3 = mem_note + 2 */
	r.control[port(v, "mem_note")] = 60.0f;
	const uint32_t at = 1 + rng() % 200;
	run_block(&r, 256, 62, at);
	const uint32_t by_note = r.frames - 256 + at;
	run_frames(&r, REPLAY);
	bad = first_mismatch(&r, stored, by_note, REPLAY);
	EXPECT(bad < 0, "%s: the motion recalled by note differs at frame %ld",
	       pendula_variant_names[v], bad);
	printf("  recall by note at frame %u of a block: replayed exactly%s\n", at,
	       bad < 0 ? "" : " (NOT)");
	r.control[port(v, "mem_note")] = -1.0f;
	rig_close(&r);
}

/* (c): the same recall without and with a glide. */
static void test_glide(pendula_variant v, const LilvPlugin *plugin)
{
	double jump0 = 0.0, worst_ratio = 0.0;
	for (int glide = 0; glide < 2; ++glide) {
		rng_state = 99u;
		rig r;
		rig_open(&r, v, plugin, 200000);
		r.control[port(v, "mem_glide")] = glide ? 10.0f : 0.0f;
		run_frames(&r, 20000);
		trigger(&r, "mem_store", 1, 256);
		run_frames(&r, 50000);
		const uint32_t recalled = r.frames;
		trigger(&r, "mem_recall", 1, 256);
		run_frames(&r, 4000);
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
			if (!r.trace[id] || wraps(id))
				continue;
			const double own = fmax(largest_step(&r, id, 0, recalled),
			                        largest_step(&r, id, recalled + 1000, r.frames));
			const double at = largest_step(&r, id, recalled - 1, recalled + 1000);
			if (!glide)
				jump0 = fmax(jump0, at / fmax(own, 1e-9));
			else
				worst_ratio = fmax(worst_ratio, at / fmax(own, 1e-9));
			/* the fade's steepest step over a range of 2: pi / N */
			const double fade = 3.14159265358979 / (0.010 * RATE);
			if (glide)
				EXPECT(at <= own + fade * 1.0001,
				       "%s: %s steps by %g during the glide; its motion by at most "
				       "%g, "
				       "the fade by %g",
				       pendula_variant_names[v], pendula_ports[id].symbol, at, own,
				       fade);
		}
		rig_close(&r);
	}
	/* the check above means something only if a recall without a glide jumps */
	EXPECT(jump0 > 1.5, "%s: a recall without a glide jumps by only %.2f x the motion's step",
	       pendula_variant_names[v], jump0);
	printf("  recall without glide: largest step %.1f x the motion's own; with a 10 ms glide "
	       "%.2f x\n",
	       jump0, worst_ratio);
}

/* (e) */
static void test_reset_ends_glide(pendula_variant v, const LilvPlugin *plugin)
{
	rig fresh, r;
	rig_open(&fresh, v, plugin, 4096);
	for (int k = 0; k < 4; ++k)
		run_block(&fresh, 512, -1, 0);
	rig_open(&r, v, plugin, 40000);
	r.control[port(v, "mem_glide")] = 200.0f;
	run_frames(&r, 10000);
	trigger(&r, "mem_store", 2, 128);
	run_frames(&r, 10000);
	trigger(&r, "mem_recall", 2, 128); /* a 200 ms glide begins */
	const uint32_t at = r.frames;
	r.control[port(v, "reset")] = 1.0f;
	for (int k = 0; k < 4; ++k)
		run_block(&r, 512, -1, 0);
	r.control[port(v, "reset")] = 0.0f;
	long bad = -1;
	for (uint32_t i = 0; i < 2048 && bad < 0; ++i)
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
			if (r.trace[id] &&
			    memcmp(&r.trace[id][at + i], &fresh.trace[id][i], 4) != 0)
				bad = (long)i;
	EXPECT(bad < 0, "%s: after a reset during a glide, frame %ld differs from a fresh start",
	       pendula_variant_names[v], bad);
	printf("  a reset during a glide starts afresh%s\n", bad < 0 ? "" : " (NOT)");
	rig_close(&r);
	rig_close(&fresh);
}

static int usage(const char *why)
{
	fprintf(stderr, "test_memory: %s\nusage: test_memory BUNDLE_DIR --plugin NAME\n", why);
	return 2;
}

int main(int argc, char **argv)
{
	const char *bundle = NULL;
	int variant = -1;
	for (int i = 1; i < argc; ++i) {
		if (!strcmp(argv[i], "--plugin") && i + 1 < argc) {
			const char *name = argv[++i];
			for (int v = 0; v < PENDULA_N_VARIANTS; ++v)
				if (!strcmp(name, pendula_variant_names[v]))
					variant = v;
			if (variant < 0)
				return usage("--plugin: unknown plugin name");
		} else if (argv[i][0] != '-' && !bundle) {
			bundle = argv[i];
		} else {
			return usage("unknown argument");
		}
	}
	if (!bundle || variant < 0)
		return usage("a bundle folder and --plugin are needed");
	LilvWorld *world;
	const LilvPlugin *plugins[PENDULA_N_VARIANTS];
	if (!lv2th_world_load("test_memory", bundle, &world, plugins))
		return 1;
	printf("%s:\n", pendula_variant_names[variant]);
	test_replay((pendula_variant)variant, plugins[variant]);
	test_glide((pendula_variant)variant, plugins[variant]);
	test_reset_ends_glide((pendula_variant)variant, plugins[variant]);
	lilv_world_free(world);
	lv2th_free_uris();
	printf("%s: %s\n", pendula_variant_names[variant], failures ? "FAILED" : "passed");
	return failures ? 1 : 0;
}
