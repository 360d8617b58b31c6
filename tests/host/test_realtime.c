/* SPDX-License-Identifier: ISC */
/*
 * Real-time safety of run() (docs/DEVELOPMENT.md, "Real-time rules"): this
 * host defines malloc, calloc, realloc, free, aligned_alloc, posix_memalign
 * and the pthread mutex and condition calls itself (the plugin's calls bind
 * to them: the executable exports them, -rdynamic) and counts every call
 * made while a run() is in progress, for one plugin at 48 kHz:
 *   - the defaults, random block sizes 1..1024, 0-frame blocks;
 *   - everything a player does live, every block: memories stored and
 *     recalled (glide on and off), memory notes, plucks from notes, the
 *     drive input with noise, event notes in a scale on a grid under a
 *     rolling transport, resets, freeze on and off;
 *   - a state saved and restored between blocks (outside run(), where
 *     allocation is allowed) and running on.
 * Any allocation or lock inside run() fails.
 *
 * usage: test_realtime BUNDLE_DIR --plugin NAME
 */
#define _GNU_SOURCE
#include "lv2_test_host.h"

#include <lv2/atom/atom.h>
#include <lv2/atom/forge.h>
#include <lv2/atom/util.h>
#include <lv2/midi/midi.h>
#include <lv2/state/state.h>
#include <lv2/time/time.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the counting allocator and locks ---- */

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);
extern void *__libc_memalign(size_t align, size_t n);

static volatile int in_run;
static unsigned long bad_calls;
static const char *bad_what;

static void note_call(const char *what)
{
	if (in_run) {
		++bad_calls;
		bad_what = what;
	}
}

void *malloc(size_t n)
{
	note_call("malloc");
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	note_call("calloc");
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	note_call("realloc");
	return __libc_realloc(p, n);
}

void free(void *p)
{
	if (p)
		note_call("free");
	__libc_free(p);
}

void *aligned_alloc(size_t align, size_t n)
{
	note_call("aligned_alloc");
	return __libc_memalign(align, n);
}

int posix_memalign(void **out, size_t align, size_t n)
{
	note_call("posix_memalign");
	*out = __libc_memalign(align, n);
	return *out ? 0 : 12;
}

/* The locks: counted, and (this host has one thread) not taken. */
int pthread_mutex_lock(pthread_mutex_t *m)
{
	(void)m;
	note_call("pthread_mutex_lock");
	return 0;
}

int pthread_mutex_trylock(pthread_mutex_t *m)
{
	(void)m;
	note_call("pthread_mutex_trylock");
	return 0;
}

int pthread_mutex_unlock(pthread_mutex_t *m)
{
	(void)m;
	note_call("pthread_mutex_unlock");
	return 0;
}

int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	(void)c;
	(void)m;
	note_call("pthread_cond_wait");
	return 0;
}

/* ---- the host ---- */

#define RATE      48000.0
#define MAX_BLOCK 1024u

static uint32_t rng_state = 4242u;
static uint32_t rng(void)
{
	rng_state = rng_state * 1664525u + 1013904223u;
	return rng_state >> 8;
}

typedef struct {
	pendula_variant v;
	LilvInstance *inst;
	float control[PENDULA_N_PORT_IDS];
	float *signal[PENDULA_N_PORT_IDS];
	float drive[MAX_BLOCK];
	uint64_t atom_in[4096], atom_out[4096];
	LV2_Atom_Forge forge;
	uint64_t frame; /* transport frame */
} rig;

static void set(rig *r, const char *symbol, float value)
{
	const int id = test_port_by_symbol(r->v, symbol);
	if (id >= 0)
		r->control[id] = value;
}

/* The input of a block: a time:Position (rolling, 120 bpm) and notes. */
static void fill_input(rig *r, uint32_t n)
{
	LV2_Atom_Forge *f = &r->forge;
	lv2_atom_forge_set_buffer(f, (uint8_t *)r->atom_in, sizeof r->atom_in);
	LV2_Atom_Forge_Frame seq;
	lv2_atom_forge_sequence_head(f, &seq, 0);
	lv2_atom_forge_frame_time(f, 0);
	LV2_Atom_Forge_Frame obj;
	lv2_atom_forge_object(f, &obj, 0, lv2th_map_uri(NULL, LV2_TIME__Position));
	lv2_atom_forge_key(f, lv2th_map_uri(NULL, LV2_TIME__speed));
	lv2_atom_forge_float(f, 1.0f);
	lv2_atom_forge_key(f, lv2th_map_uri(NULL, LV2_TIME__beatsPerMinute));
	lv2_atom_forge_float(f, 120.0f);
	lv2_atom_forge_key(f, lv2th_map_uri(NULL, LV2_TIME__barBeat));
	lv2_atom_forge_float(f, (float)fmod((double)r->frame / (RATE / 2.0), 4.0));
	lv2_atom_forge_key(f, lv2th_map_uri(NULL, LV2_TIME__frame));
	lv2_atom_forge_long(f, (int64_t)r->frame);
	lv2_atom_forge_pop(f, &obj);
	for (uint32_t k = 0; n > 0 && k < 3; ++k) {
		const uint8_t note = (uint8_t)(rng() % 2 ? 60 + rng() % 8 : 30 + rng() % 90);
		const uint8_t msg[3] = {rng() % 4 ? LV2_MIDI_MSG_NOTE_ON : LV2_MIDI_MSG_NOTE_OFF,
		                        note, (uint8_t)(1 + rng() % 127)};
		lv2_atom_forge_frame_time(f, rng() % n);
		lv2_atom_forge_atom(f, 3, lv2th_map_uri(NULL, LV2_MIDI__MidiEvent));
		lv2_atom_forge_write(f, msg, 3);
	}
	lv2_atom_forge_pop(f, &seq);
	/* (frames out of order are the plugin's to clamp; keep them sorted
	 * here anyway, as a host does) */
	LV2_Atom_Sequence *s = (LV2_Atom_Sequence *)r->atom_in;
	int64_t last = 0;
	LV2_ATOM_SEQUENCE_FOREACH(s, ev)
	{
		if (ev->time.frames < last)
			ev->time.frames = last;
		last = ev->time.frames;
	}
	LV2_Atom *out = (LV2_Atom *)r->atom_out;
	out->type = lv2th_map_uri(NULL, LV2_ATOM__Chunk);
	out->size = sizeof r->atom_out - 8u;
}

static void run_block(rig *r, uint32_t n)
{
	for (uint32_t i = 0; i < n; ++i)
		r->drive[i] = (float)((int)(rng() % 2001) - 1000) / 1000.0f;
	fill_input(r, n);
	in_run = 1;
	lilv_instance_run(r->inst, n);
	in_run = 0;
	r->frame += n;
}

/* Every live control moved at random, every block. */
static void play(rig *r)
{
	set(r, "mem_slot", (float)(1 + rng() % 8));
	set(r, "mem_store", (float)(rng() % 2));
	set(r, "mem_recall", (float)(rng() % 2));
	set(r, "mem_glide", (float)(rng() % 3 ? rng() % 200 : 0));
	set(r, "mem_note", rng() % 2 ? 60.0f : -1.0f);
	set(r, "pluck_energy", (float)(rng() % 3) * 0.5f);
	set(r, "drive_gain", (float)(rng() % 5));
	set(r, "drive_axis", (float)(rng() % 3));
	set(r, "note_flip", 48.0f);
	set(r, "note_swing", 60.0f);
	set(r, "note_scale", (float)(rng() % 8));
	set(r, "note_root", (float)(rng() % 12));
	set(r, "note_low", (float)(rng() % 60));
	set(r, "note_high", (float)(60 + rng() % 60));
	set(r, "note_grid", (float)(rng() % 5));
	set(r, "reset", rng() % 50 == 0 ? 1.0f : 0.0f);
	set(r, "freeze", rng() % 40 == 0 ? 1.0f : 0.0f);
}

/* ---- state, outside run() ---- */

typedef struct {
	void *data;
	size_t size;
	uint32_t type, key;
} blob;

static LV2_State_Status store(LV2_State_Handle h, uint32_t key, const void *value, size_t size,
                              uint32_t type, uint32_t flags)
{
	(void)flags;
	blob *b = (blob *)h;
	b->data = lv2th_realloc(b->data, size);
	memcpy(b->data, value, size);
	b->size = size;
	b->type = type;
	b->key = key;
	return LV2_STATE_SUCCESS;
}

static const void *retrieve(LV2_State_Handle h, uint32_t key, size_t *size, uint32_t *type,
                            uint32_t *flags)
{
	const blob *b = (const blob *)h;
	*size = b->size;
	*type = b->type;
	*flags = LV2_STATE_IS_POD;
	return key == b->key ? b->data : NULL;
}

static int usage(const char *why)
{
	fprintf(stderr, "test_realtime: %s\nusage: test_realtime BUNDLE_DIR --plugin NAME\n", why);
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
	if (!lv2th_world_load("test_realtime", bundle, &world, plugins))
		return 1;

	static rig r;
	r.v = (pendula_variant)variant;
	test_control_defaults(r.v, r.control);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (pendula_ports[id].kind == PK_SIGNAL_OUT &&
		    pendula_port_index(r.v, (pendula_port_id)id) >= 0)
			r.signal[id] = lv2th_calloc(MAX_BLOCK, sizeof(float));
	const int drive = test_port_by_symbol(r.v, "drive");
	if (drive >= 0)
		r.signal[drive] = r.drive;
	lv2_atom_forge_init(&r.forge, &lv2th_map);
	static const LV2_Feature *features[] = {&lv2th_map_feature, &lv2th_unmap_feature, NULL};
	r.inst = lv2th_instantiate("test_realtime", plugins[variant], r.v, RATE, features);
	lv2th_connect(r.inst, r.v, r.control, r.signal, r.atom_in, r.atom_out);
	lilv_instance_activate(r.inst);
	const LV2_State_Interface *state =
	    (const LV2_State_Interface *)lilv_instance_get_extension_data(r.inst,
	                                                                  LV2_STATE__interface);

	unsigned long blocks = 0;
	for (int phase = 0; phase < 2; ++phase)
		for (int b = 0; b < 1500; ++b, ++blocks) {
			if (phase == 1)
				play(&r);
			run_block(&r, b % 97 == 0 ? 0u : 1u + rng() % MAX_BLOCK);
			if (state && b % 300 == 299) { /* a session saved and reopened */
				blob saved = {0};
				state->save(lilv_instance_get_handle(r.inst), store, &saved, 0,
				            features);
				state->restore(lilv_instance_get_handle(r.inst), retrieve, &saved,
				               0, features);
				free(saved.data);
			}
		}
	lilv_instance_deactivate(r.inst);
	lilv_instance_free(r.inst);
	printf("%s: %lu blocks, %lu allocation or lock calls inside run()%s%s\n",
	       pendula_variant_names[variant], blocks, bad_calls, bad_calls ? ", the last: " : "",
	       bad_calls ? bad_what : "");
	lilv_world_free(world);
	lv2th_free_uris();
	return bad_calls ? 1 : 0;
}
