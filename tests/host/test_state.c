/* SPDX-License-Identifier: ISC */
/*
 * The motion saved with the session (issue 35): through lilv's state API,
 * as a host saves and reopens a session, for one plugin at 44.1, 48 and
 * 96 kHz with random block sizes:
 *   (a) a state saved in the middle of the motion, written out as Turtle
 *       and read back, restored into a new instance before activate() (as
 *       Ardour loads a session) and after it (a running instance), goes on
 *       bit for bit like the run that was never interrupted: every signal
 *       and control output of every block and the MIDI output;
 *   (b) the memories are saved with it: a memory stored before the save
 *       and recalled after the restore replays the same motion;
 *   (c) a blob of another model, another version, of the wrong type, cut
 *       short or damaged is refused: restore() fails, the log says why, and
 *       the motion goes on as if nothing had happened.
 *
 * usage: test_state BUNDLE_DIR --plugin NAME
 */
#include "lv2_test_host.h"

#include <lv2/atom/atom.h>
#include <lv2/log/log.h>
#include <lv2/state/state.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BLOCK  700u
#define ATOM_WORDS 4096u

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

/* ---- the log feature: counts what the plugin says ---- */

static int log_errors;
static char log_last[256];

__attribute__((format(printf, 3, 0))) static int log_vprintf(LV2_Log_Handle h, LV2_URID type,
                                                             const char *fmt, va_list ap)
{
	(void)h;
	(void)type;
	++log_errors;
	return vsnprintf(log_last, sizeof log_last, fmt, ap);
}

__attribute__((format(printf, 3, 4))) static int log_printf(LV2_Log_Handle h, LV2_URID type,
                                                            const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	const int n = log_vprintf(h, type, fmt, ap);
	va_end(ap);
	return n;
}

static LV2_Log_Log log_impl = {NULL, log_printf, log_vprintf};
static const LV2_Feature log_feature = {LV2_LOG__log, &log_impl};

/* ---- one plugin instance with its buffers ---- */

typedef struct {
	pendula_variant v;
	LilvInstance *inst;
	float control[PENDULA_N_PORT_IDS];
	float *signal[PENDULA_N_PORT_IDS];
	uint64_t atom_in[ATOM_WORDS], atom_out[ATOM_WORDS];
} rig;

typedef struct {
	pendula_variant v;
	const LilvPlugin *plugin;
	LilvWorld *world;
	double rate;
	const LV2_Feature *features[4];
} setup;

static void rig_open(rig *r, const setup *s)
{
	memset(r, 0, sizeof(*r));
	r->v = s->v;
	test_control_defaults(s->v, r->control);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (pendula_ports[id].kind == PK_SIGNAL_OUT &&
		    pendula_port_index(s->v, (pendula_port_id)id) >= 0)
			r->signal[id] = lv2th_calloc(MAX_BLOCK, sizeof(float));
	r->inst = lv2th_instantiate("test_state", s->plugin, s->v, s->rate, s->features);
	lv2th_connect(r->inst, s->v, r->control, r->signal, r->atom_in, r->atom_out);
}

static void rig_close(rig *r)
{
	lilv_instance_deactivate(r->inst);
	lilv_instance_free(r->inst);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		free(r->signal[id]);
}

/* FNV-1a over the block's outputs: signals, control outputs, MIDI out. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; ++i)
		h = (h ^ c[i]) * 1099511628211ull;
	return h;
}

static uint64_t block_hash(const rig *r, pendula_variant v, uint32_t n)
{
	uint64_t h = 14695981039346656037ull;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (pendula_port_index(v, (pendula_port_id)id) < 0)
			continue;
		if (r->signal[id])
			h = fnv(h, r->signal[id], n * sizeof(float));
		if (pendula_ports[id].kind == PK_CONTROL_OUT)
			h = fnv(h, &r->control[id], sizeof(float));
	}
	const LV2_Atom_Sequence *seq = (const LV2_Atom_Sequence *)r->atom_out;
	return fnv(h, seq, sizeof(LV2_Atom) + seq->atom.size);
}

/* The plan of a run: block sizes and the controls that change at a block. */
typedef struct {
	uint32_t n_blocks;
	uint32_t size[4096];
} plan;

static uint32_t rng_state;
static uint32_t rng(void)
{
	rng_state = rng_state * 1664525u + 1013904223u;
	return rng_state >> 8;
}

static void make_plan(plan *p, uint32_t frames)
{
	p->n_blocks = 0;
	while (frames > 0 && p->n_blocks < 4096) {
		uint32_t n = 1 + rng() % MAX_BLOCK;
		if (n > frames)
			n = frames;
		p->size[p->n_blocks++] = n;
		frames -= n;
	}
}

/* The controls a block sets: a memory stored at block 5 of the first part
 * (slot 3), recalled at block 7 of the second (glide 0: an exact replay). */
static void block_controls(rig *r, pendula_variant v, int part, uint32_t b)
{
	const int slot = test_port_by_symbol(v, "mem_slot");
	const int store = test_port_by_symbol(v, "mem_store");
	const int recall = test_port_by_symbol(v, "mem_recall");
	const int glide = test_port_by_symbol(v, "mem_glide");
	r->control[slot] = 3.0f;
	r->control[glide] = 0.0f;
	r->control[store] = part == 0 && b == 5 ? 1.0f : 0.0f;
	r->control[recall] = part == 1 && b == 7 ? 1.0f : 0.0f;
}

/* Runs the blocks of a plan, hashing each into hash[] (if not NULL). */
static void run_plan(rig *r, pendula_variant v, const plan *p, int part, uint64_t *hash)
{
	for (uint32_t b = 0; b < p->n_blocks; ++b) {
		block_controls(r, v, part, b);
		lv2th_prepare_atoms(r->atom_in, r->atom_out, (uint32_t)sizeof r->atom_out - 8u);
		lilv_instance_run(r->inst, p->size[b]);
		if (hash)
			hash[b] = block_hash(r, v, p->size[b]);
	}
}

/* ---- lilv's port value callbacks ---- */

static const void *get_value(const char *symbol, void *user, uint32_t *size, uint32_t *type)
{
	rig *r = (rig *)user;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (pendula_ports[id].kind == PK_CONTROL_IN &&
		    pendula_port_index(r->v, (pendula_port_id)id) >= 0 &&
		    !strcmp(pendula_ports[id].symbol, symbol)) {
			*size = sizeof(float);
			*type = lv2th_map_uri(NULL, LV2_ATOM__Float);
			return &r->control[id];
		}
	*size = *type = 0;
	return NULL;
}

static void set_value(const char *symbol, void *user, const void *value, uint32_t size,
                      uint32_t type)
{
	rig *r = (rig *)user;
	if (size != sizeof(float) || type != lv2th_map_uri(NULL, LV2_ATOM__Float))
		return;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (pendula_port_index(r->v, (pendula_port_id)id) >= 0 &&
		    !strcmp(pendula_ports[id].symbol, symbol))
			memcpy(&r->control[id], value, sizeof(float));
}

/* The state of r, written out as Turtle and read back (as a session file). */
static LilvState *save_reload(const setup *s, rig *r)
{
	LilvState *st = lilv_state_new_from_instance(s->plugin, r->inst, &lv2th_map, NULL, NULL,
	                                             NULL, NULL, get_value, r, 0, s->features);
	EXPECT(st != NULL, "no state from the instance");
	char *text = lilv_state_to_string(s->world, &lv2th_map, &lv2th_unmap, st,
	                                  "urn:pendula:test-state", NULL);
	lilv_state_free(st);
	LilvState *back = lilv_state_new_from_string(s->world, &lv2th_map, text);
	EXPECT(back != NULL, "the state's Turtle does not read back");
	lilv_free(text);
	return back;
}

/* ---- (c) refused blobs, through the state interface itself ---- */

typedef struct {
	uint8_t *data;
	size_t size;
	uint32_t type;
	uint32_t key;
} blob;

static LV2_State_Status store_blob(LV2_State_Handle h, uint32_t key, const void *value, size_t size,
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

static const void *retrieve_blob(LV2_State_Handle h, uint32_t key, size_t *size, uint32_t *type,
                                 uint32_t *flags)
{
	const blob *b = (const blob *)h;
	if (key != b->key)
		return NULL;
	*size = b->size;
	*type = b->type;
	*flags = LV2_STATE_IS_POD;
	return b->data;
}

static const LV2_State_Interface *state_iface(rig *r)
{
	return (const LV2_State_Interface *)lilv_instance_get_extension_data(r->inst,
	                                                                     LV2_STATE__interface);
}

static int first_difference(const uint64_t *a, const uint64_t *b, uint32_t n)
{
	for (uint32_t i = 0; i < n; ++i)
		if (a[i] != b[i])
			return (int)i;
	return -1;
}

/* (a), (b): both restore orders against the uninterrupted run. */
static void test_round_trip(const setup *s)
{
	const uint32_t frames1 = (uint32_t)(0.75 * s->rate), frames2 = (uint32_t)(0.75 * s->rate);
	static plan p1, p2;
	make_plan(&p1, frames1);
	make_plan(&p2, frames2);
	static uint64_t want[4096], got[4096];

	rig a, b, c;
	rig_open(&a, s);
	lilv_instance_activate(a.inst);
	run_plan(&a, s->v, &p1, 0, NULL);
	run_plan(&a, s->v, &p2, 1, want);
	rig_close(&a);

	rig_open(&b, s);
	lilv_instance_activate(b.inst);
	run_plan(&b, s->v, &p1, 0, NULL);
	LilvState *st = save_reload(s, &b);
	rig_close(&b);
	if (!st)
		return;

	for (int order = 0; order < 2; ++order) {
		rig_open(&c, s);
		if (order == 0) { /* restored, then activated: a session loads */
			lilv_state_restore(st, c.inst, set_value, &c, 0, s->features);
			lilv_instance_activate(c.inst);
		} else { /* a running instance, another motion, then restored */
			c.control[test_port_by_symbol(s->v, "theta1_init")] = 10.0f;
			lilv_instance_activate(c.inst);
			static plan other;
			make_plan(&other, 3000);
			run_plan(&c, s->v, &other, 2, NULL);
			lilv_state_restore(st, c.inst, set_value, &c, 0, s->features);
		}
		run_plan(&c, s->v, &p2, 1, got);
		const int diff = first_difference(want, got, p2.n_blocks);
		EXPECT(diff < 0, "%s at %.0f Hz, restored %s activate(): block %d of %u differs",
		       pendula_variant_names[s->v], s->rate, order ? "after" : "before", diff,
		       p2.n_blocks);
		rig_close(&c);
	}
	lilv_state_free(st);
	printf("  %.0f Hz: %u + %u blocks, both restore orders bit-identical%s\n", s->rate,
	       p1.n_blocks, p2.n_blocks, failures ? " (NOT)" : "");
}

static void test_refused(const setup *s, const setup *other)
{
	static plan p1, p2;
	make_plan(&p1, 20000);
	make_plan(&p2, 20000);
	static uint64_t want[4096], got[4096];
	rig a;
	rig_open(&a, s);
	lilv_instance_activate(a.inst);
	run_plan(&a, s->v, &p1, 0, NULL);
	run_plan(&a, s->v, &p2, 1, want);
	rig_close(&a);

	/* a good blob of this plugin, and one of another model */
	blob good = {0}, foreign = {0};
	rig b;
	rig_open(&b, s);
	lilv_instance_activate(b.inst);
	run_plan(&b, s->v, &p1, 0, NULL);
	EXPECT(state_iface(&b) &&
	           state_iface(&b)->save(lilv_instance_get_handle(b.inst), store_blob, &good, 0,
	                                 s->features) == LV2_STATE_SUCCESS,
	       "save() fails");
	rig_close(&b);
	rig o;
	rig_open(&o, other);
	lilv_instance_activate(o.inst);
	run_plan(&o, other->v, &p1, 0, NULL);
	state_iface(&o)->save(lilv_instance_get_handle(o.inst), store_blob, &foreign, 0,
	                      other->features);
	rig_close(&o);
	foreign.key = good.key;

	enum { FOREIGN, TRUNCATED, EMPTY, DAMAGED, VERSION, TYPE, N_CASES };
	static const char *names[N_CASES] = {"another model's", "truncated",       "empty",
	                                     "damaged",         "another version", "not a chunk"};
	for (int k = 0; k < N_CASES; ++k) {
		blob bad = {0};
		const blob *src = k == FOREIGN ? &foreign : &good;
		bad.data = lv2th_calloc(src->size + 1, 1);
		memcpy(bad.data, src->data, src->size);
		bad.size = src->size;
		bad.type = src->type;
		bad.key = good.key;
		if (k == TRUNCATED)
			bad.size -= 1 + rng() % (bad.size - 1);
		else if (k == EMPTY)
			bad.size = 0;
		else if (k == DAMAGED)
			bad.data[bad.size / 2 + rng() % (bad.size / 2)] ^= 0x10;
		else if (k == VERSION)
			bad.data[8] ^= 0x7;
		else if (k == TYPE)
			bad.type = lv2th_map_uri(NULL, LV2_ATOM__String);

		rig c;
		rig_open(&c, s);
		lilv_instance_activate(c.inst);
		run_plan(&c, s->v, &p1, 0, NULL);
		log_errors = 0;
		const LV2_State_Status status = state_iface(&c)->restore(
		    lilv_instance_get_handle(c.inst), retrieve_blob, &bad, 0, s->features);
		EXPECT(status != LV2_STATE_SUCCESS, "%s blob: restore() succeeded", names[k]);
		EXPECT(log_errors == 1, "%s blob: %d log messages", names[k], log_errors);
		run_plan(&c, s->v, &p2, 1, got);
		const int diff = first_difference(want, got, p2.n_blocks);
		EXPECT(diff < 0, "%s blob: the motion changed at block %d", names[k], diff);
		printf("  %s blob refused: %s", names[k], log_last);
		rig_close(&c);
		free(bad.data);
	}
	free(good.data);
	free(foreign.data);
}

static int usage(const char *why)
{
	fprintf(stderr, "test_state: %s\nusage: test_state BUNDLE_DIR --plugin NAME\n", why);
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
	if (!lv2th_world_load("test_state", bundle, &world, plugins))
		return 1;
	log_impl.handle = NULL;
	printf("%s:\n", pendula_variant_names[variant]);
	static const double rates[] = {44100.0, 48000.0, 96000.0};
	for (int k = 0; k < 3; ++k) {
		rng_state = 12345u + (uint32_t)k * 7919u + (uint32_t)variant * 104729u;
		setup s = {(pendula_variant)variant,
		           plugins[variant],
		           world,
		           rates[k],
		           {&lv2th_map_feature, &lv2th_unmap_feature, &log_feature, NULL}};
		test_round_trip(&s);
	}
	/* another model's blob: the next model's plugin of the same kind */
	const pendula_variant_kind kind = pendula_variant_kind_of((pendula_variant)variant);
	const int other_v = pendula_variant_of(
	    (pendula_model)((pendula_variant_model((pendula_variant)variant) + 1) %
	                    PENDULA_N_MODELS),
	    kind);
	setup s = {(pendula_variant)variant,
	           plugins[variant],
	           world,
	           48000.0,
	           {&lv2th_map_feature, &lv2th_unmap_feature, &log_feature, NULL}};
	setup o = {(pendula_variant)other_v,
	           plugins[other_v],
	           world,
	           48000.0,
	           {&lv2th_map_feature, &lv2th_unmap_feature, &log_feature, NULL}};
	test_refused(&s, &o);
	lilv_world_free(world);
	lv2th_free_uris();
	printf("%s: %s\n", pendula_variant_names[variant], failures ? "FAILED" : "passed");
	return failures ? 1 : 0;
}
