/* SPDX-License-Identifier: ISC */
/*
 * Speed and size as a host wires the plugins (docs/BENCHMARKS.md, "As a
 * host wires it"): each plugin loaded through lilv, every signal output on
 * a buffer of its own, the MIDI output connected, control inputs at their
 * defaults (or the settings a PLUGIN argument names), an empty input
 * sequence every block.  Thread CPU time (CLOCK_THREAD_CPUTIME_ID), in
 * rounds: each round runs every case once, in a shuffled order, and each
 * figure is the median over the rounds of its ratio to the reference of the
 * same round (so a change of the machine's load between rounds does not
 * skew it).  Prints, never asserts.
 *
 * Per plugin:
 *   b256, b64   CPU per frame at blocks of 256 and 64 frames, and the ratio
 *               to swh sinCos (http://plugin.org.uk/swh-plugins/sinCos,
 *               Debian package swh-lv2) wired the same way (its two outputs
 *               on buffers of their own);
 *   lv2bench    the ratio at block 256 wired as lv2bench wires a plugin
 *               (every audio output on one shared buffer: the plugin then
 *               computes only the output that survives), labelled as such;
 *   floor       the ratio to the output floor for the plugin's own number
 *               of signal outputs: bench/floor.lv2, a plugin that writes a
 *               ramp to each of N outputs with buffers of their own;
 *   call        the fixed cost of a run() call: a 0-frame call, and a
 *               1-frame call less the per-frame cost at block 256;
 *   rates       CPU seconds per second of audio at 44.1, 48, 96, 192 kHz;
 *   per_core    instances one core runs in real time at 48 kHz, 256-frame
 *               blocks (block duration / CPU per block: one instance, warm
 *               caches; bench_instances measures many at once);
 *   heap        bytes the plugin holds after instantiate() (this program
 *               counts every allocation, as tests/host/test_realtime.c
 *               does), those the eight memories take (memory.h: the slots
 *               and the glide's engine), and what the first inline-display
 *               render() adds.
 *
 * usage: bench_host [--rounds N] [--frames N] [--alone BLOCK] PLUGIN...
 *   --alone BLOCK: only the first PLUGIN, own buffers, blocks of BLOCK
 *   frames (0 too), rounds x frames frames: a loop to profile.
 *   PLUGIN: a Pendula plugin name (double, chain, ...), optionally with
 *   settings NAME:SYMBOL=VALUE[:SYMBOL=VALUE...] (chain:n_links=6).
 *   LV2_PATH must find the Pendula bundle, bench/floor.lv2 and sinCos.
 */
#define _GNU_SOURCE
#include "bench_stats.h"
#include "lv2_inline_display.h"
#include "memory.h"
#include "pendula_engine.h"

#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/core/lv2.h>
#include <lv2/options/options.h>
#include <lv2/urid/urid.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PENDULA_BASE "https://pendula.invalid/plugins/pendula#"
#define SINCOS_URI   "http://plugin.org.uk/swh-plugins/sinCos"
#define FLOOR_URI    "https://pendula.invalid/bench/floor"
#define ATOM_CAP     8192u /* the MIDI output's rsz:minimumSize */
#define MAX_PLUGINS  16
#define MAX_CASES    256
#define MAX_ROUNDS   64
#define MAX_PORTS    256

/* ---- the counting allocator (the plugin's calls bind to these) ---- */

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);
extern void *__libc_memalign(size_t align, size_t n);

/* While counting: every live allocation made since counting began. */
#define MAX_TRACKED 1024
static bool counting;
static struct {
	void *p;
	size_t n;
} tracked[MAX_TRACKED];
static int n_tracked;

static void track(void *p, size_t n)
{
	if (counting && p && n_tracked < MAX_TRACKED) {
		tracked[n_tracked].p = p;
		tracked[n_tracked++].n = n;
	}
}

static void untrack(void *p)
{
	if (!counting || !p)
		return;
	for (int i = 0; i < n_tracked; ++i)
		if (tracked[i].p == p) {
			memmove(&tracked[i], &tracked[i + 1],
			        (size_t)(n_tracked - i - 1) * sizeof(tracked[0]));
			--n_tracked;
			return;
		}
}

void *malloc(size_t n)
{
	void *p = __libc_malloc(n);
	track(p, n);
	return p;
}

void *calloc(size_t n, size_t size)
{
	void *p = __libc_calloc(n, size);
	track(p, n * size);
	return p;
}

void *realloc(void *p, size_t n)
{
	untrack(p);
	void *q = __libc_realloc(p, n);
	track(q, n);
	return q;
}

void free(void *p)
{
	untrack(p);
	__libc_free(p);
}

void *aligned_alloc(size_t align, size_t n)
{
	void *p = __libc_memalign(align, n);
	track(p, n);
	return p;
}

int posix_memalign(void **out, size_t align, size_t n)
{
	*out = __libc_memalign(align, n);
	track(*out, n);
	return *out ? 0 : 12;
}

static void count_begin(void)
{
	n_tracked = 0;
	counting = true;
}

static size_t count_end(void)
{
	counting = false;
	size_t sum = 0;
	for (int i = 0; i < n_tracked; ++i)
		sum += tracked[i].n;
	return sum;
}

/* ---- URIDs (static storage: no allocation while counting) ---- */

static char uri_store[32768];
static size_t uri_used;
static const char *uris[512];
static uint32_t n_uris;

static LV2_URID map_uri(LV2_URID_Map_Handle handle, const char *uri)
{
	(void)handle;
	for (uint32_t i = 0; i < n_uris; ++i)
		if (!strcmp(uris[i], uri))
			return i + 1;
	const size_t len = strlen(uri) + 1;
	if (n_uris == 512 || uri_used + len > sizeof(uri_store))
		return 0;
	memcpy(uri_store + uri_used, uri, len);
	uris[n_uris++] = uri_store + uri_used;
	uri_used += len;
	return n_uris;
}

static LV2_URID_Map map = {NULL, map_uri};

/* The features a host such as jalv or Ardour gives: URID map, and the
 * options with the atom buffers' size (bufsz:sequenceSize). */
static const LV2_Feature *const *host_features(void)
{
	static int32_t seq_size = ATOM_CAP, block = 1024;
	static LV2_Options_Option options[3];
	static LV2_Feature map_f, opt_f, bounded_f;
	static const LV2_Feature *features[4];
	options[0] = (LV2_Options_Option){LV2_OPTIONS_INSTANCE,
	                                  0,
	                                  map_uri(NULL, LV2_BUF_SIZE__sequenceSize),
	                                  sizeof(int32_t),
	                                  map_uri(NULL, LV2_ATOM__Int),
	                                  &seq_size};
	options[1] = (LV2_Options_Option){LV2_OPTIONS_INSTANCE,
	                                  0,
	                                  map_uri(NULL, LV2_BUF_SIZE__maxBlockLength),
	                                  sizeof(int32_t),
	                                  map_uri(NULL, LV2_ATOM__Int),
	                                  &block};
	memset(&options[2], 0, sizeof(options[2]));
	map_f = (LV2_Feature){LV2_URID__map, &map};
	opt_f = (LV2_Feature){LV2_OPTIONS__options, options};
	bounded_f = (LV2_Feature){LV2_BUF_SIZE__boundedBlockLength, NULL};
	features[0] = &map_f;
	features[1] = &opt_f;
	features[2] = &bounded_f;
	features[3] = NULL;
	return features;
}

/* ---- a plugin instance, wired ---- */

typedef enum { WIRE_OWN, WIRE_SHARED } wiring;

typedef struct {
	LilvInstance *inst;
	uint32_t block;
	float ctl[MAX_PORTS];
	float *audio; /* WIRE_OWN: one block per port; WIRE_SHARED: one block */
	float *zero;  /* the signal inputs: silence */
	LV2_Atom_Sequence *seq_in, *seq_out;
	int n_outputs; /* signal outputs connected */
} wired;

static LilvWorld *world;
static LilvNode *n_control, *n_audio, *n_cv, *n_atom, *n_input, *n_output;

/* A setting "sym=value" of settings ("sym=value:sym=value") for symbol
 * sym; true if found. */
static bool setting_of(const char *settings, const char *sym, float *value)
{
	const size_t len = strlen(sym);
	for (const char *s = settings; s && *s;) {
		if (!strncmp(s, sym, len) && s[len] == '=') {
			*value = strtof(s + len + 1, NULL);
			return true;
		}
		s = strchr(s, ':');
		s = s ? s + 1 : NULL;
	}
	return false;
}

/* Instantiates and connects; floor_n >= 0: connect only that many signal
 * outputs (the floor plugin). */
static bool wire(wired *w, const LilvPlugin *p, double rate, uint32_t block, wiring how,
                 const char *settings, int floor_n)
{
	memset(w, 0, sizeof(*w));
	w->block = block;
	w->inst = lilv_plugin_instantiate(p, rate, host_features());
	const uint32_t n_ports = lilv_plugin_get_num_ports(p);
	if (!w->inst || n_ports > MAX_PORTS)
		return false;
	w->audio = aligned_alloc(64, (size_t)(how == WIRE_OWN ? n_ports : 1) * block * 4 + 64);
	w->zero = aligned_alloc(64, (size_t)block * 4 + 64);
	w->seq_in = aligned_alloc(64, ATOM_CAP);
	w->seq_out = aligned_alloc(64, ATOM_CAP);
	memset(w->audio, 0, (size_t)(how == WIRE_OWN ? n_ports : 1) * block * 4);
	memset(w->zero, 0, (size_t)block * 4);
	for (uint32_t i = 0; i < n_ports; ++i) {
		const LilvPort *port = lilv_plugin_get_port_by_index(p, i);
		const bool in = lilv_port_is_a(p, port, n_input);
		void *buf = NULL;
		if (lilv_port_is_a(p, port, n_control)) {
			LilvNode *def = NULL;
			lilv_port_get_range(p, port, &def, NULL, NULL);
			w->ctl[i] = def ? lilv_node_as_float(def) : 0.0f;
			lilv_node_free(def);
			const char *sym = lilv_node_as_string(lilv_port_get_symbol(p, port));
			if (in)
				setting_of(settings, sym, &w->ctl[i]);
			buf = &w->ctl[i];
		} else if (lilv_port_is_a(p, port, n_audio) || lilv_port_is_a(p, port, n_cv)) {
			if (in)
				buf = w->zero;
			else if (floor_n < 0 || w->n_outputs < floor_n) {
				buf = w->audio + (how == WIRE_OWN ? (size_t)i * block : 0);
				++w->n_outputs;
			}
		} else if (lilv_port_is_a(p, port, n_atom)) {
			buf = in ? (void *)w->seq_in : (void *)w->seq_out;
		}
		lilv_instance_connect_port(w->inst, i, buf);
	}
	lilv_instance_activate(w->inst);
	return true;
}

static void unwire(wired *w)
{
	if (w->inst) {
		lilv_instance_deactivate(w->inst);
		lilv_instance_free(w->inst);
	}
	free(w->audio);
	free(w->zero);
	free(w->seq_in);
	free(w->seq_out);
}

static LV2_URID urid_sequence, urid_chunk;

static void run_block(wired *w, uint32_t n)
{
	w->seq_in->atom.type = urid_sequence;
	w->seq_in->atom.size = sizeof(LV2_Atom_Sequence_Body);
	w->seq_in->body.unit = 0;
	w->seq_in->body.pad = 0;
	w->seq_out->atom.type = urid_chunk;
	w->seq_out->atom.size = ATOM_CAP - sizeof(LV2_Atom);
	lilv_instance_run(w->inst, n);
}

/* ---- the timed cases ---- */

typedef struct {
	wired w;
	uint32_t calls, frames_per_call; /* per round */
	double t[MAX_ROUNDS];            /* CPU seconds per call */
} timed;

static timed cases[MAX_CASES];
static int n_cases;

static int add_case(const LilvPlugin *p, double rate, uint32_t block, wiring how,
                    const char *settings, int floor_n, uint32_t frames)
{
	if (n_cases == MAX_CASES)
		return -1;
	timed *c = &cases[n_cases];
	const uint32_t alloc_block = block ? block : 1;
	if (!wire(&c->w, p, rate, alloc_block, how, settings, floor_n))
		return -1;
	c->frames_per_call = block;
	c->calls = block ? (frames + block - 1) / block : frames / 8;
	run_block(&c->w, block); /* warm */
	return n_cases++;
}

static void run_case(timed *c, int round)
{
	const double t0 = bench_thread_now();
	for (uint32_t k = 0; k < c->calls; ++k)
		run_block(&c->w, c->frames_per_call);
	c->t[round] = (bench_thread_now() - t0) / c->calls;
}

/* Median over rounds of a / b (b < 0: a alone), per call. */
static double median_ratio(int a, int b, int rounds)
{
	double r[MAX_ROUNDS];
	for (int k = 0; k < rounds; ++k)
		r[k] = cases[a].t[k] / (b >= 0 ? cases[b].t[k] : 1.0);
	return bench_median(r, rounds);
}

/* Median over rounds of case a's nanoseconds per frame. */
static double ns_per_frame(int a, int rounds)
{
	return median_ratio(a, -1, rounds) * 1e9 / cases[a].frames_per_call;
}

/* ---- the plugins ---- */

typedef struct {
	const char *arg, *settings;
	char name[64];
	const LilvPlugin *plugin;
	int own256, own64, shared256, call0, call1, floor, rate[4];
	int n_outputs;
} plugin_cases;

static const double rates[4] = {44100.0, 48000.0, 96000.0, 192000.0};

static const LilvPlugin *plugin_by_uri(const char *uri)
{
	LilvNode *u = lilv_new_uri(world, uri);
	const LilvPlugin *p = lilv_plugins_get_by_uri(lilv_world_get_all_plugins(world), u);
	lilv_node_free(u);
	return p;
}

/* Heap after instantiate() (the descriptor called directly, the library
 * already loaded), the memories' part of it, and what the first render()
 * of the inline display adds. */
static void heap_of(const plugin_cases *pc)
{
	wired w;
	if (!wire(&w, pc->plugin, 48000.0, 256, WIRE_OWN, pc->settings, -1))
		return;
	const LV2_Descriptor *d = lilv_instance_get_descriptor(w.inst);
	char *bundle =
	    lilv_file_uri_parse(lilv_node_as_uri(lilv_plugin_get_bundle_uri(pc->plugin)), NULL);
	count_begin();
	LV2_Handle h = d->instantiate(d, 48000.0, bundle, host_features());
	const size_t held = count_end();
	/* The memories (memory.c): one pool of nine motions, then the glide's
	 * engine, allocated right after it, and the glide's buffer inside the
	 * instance (memory.h, old_out). */
	size_t memories = sizeof(((pendula_memory *)NULL)->old_out);
	const size_t pool = 9u * pendula_motion_bytes();
	for (int i = 0; i + 1 < n_tracked; ++i)
		if (tracked[i].n == pool)
			memories += pool + tracked[i + 1].n;
	char sizes[512] = "";
	for (int i = 0, len = 0; i < n_tracked && len < 400; ++i)
		len += snprintf(sizes + len, sizeof(sizes) - (size_t)len, "%s%zu", i ? "," : "",
		                tracked[i].n);
	/* the first picture of the instance the rounds ran, after a block */
	size_t render = 0;
	const LV2_Inline_Display_Interface *idpy =
	    lilv_instance_get_extension_data(w.inst, LV2_INLINEDISPLAY__interface);
	run_block(&w, 256);
	if (idpy) {
		count_begin();
		idpy->render(lilv_instance_get_handle(w.inst), 128, 128);
		render = count_end();
	}
	if (h)
		d->cleanup(h);
	lilv_free(bundle);
	printf("bench host_heap_%s bytes=%zu memories=%zu aside_memories=%zu "
	       "first_render_adds=%zu allocations=%s\n",
	       pc->name, held, memories, held - memories, render, sizes);
	unwire(&w);
}

static void shuffle(int *order, int n, uint64_t *seed)
{
	for (int i = n - 1; i > 0; --i) {
		*seed ^= *seed << 13;
		*seed ^= *seed >> 7;
		*seed ^= *seed << 17;
		const int j = (int)(*seed % (uint64_t)(i + 1));
		const int t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
}

/* The plugin a PLUGIN argument names, and its settings. */
static bool plugin_of(const char *arg, plugin_cases *pc)
{
	pc->arg = arg;
	const char *colon = strchr(arg, ':');
	pc->settings = colon ? colon + 1 : NULL;
	snprintf(pc->name, sizeof(pc->name), "%.*s",
	         (int)(colon ? (size_t)(colon - arg) : strlen(arg)), arg);
	char uri[256];
	snprintf(uri, sizeof(uri), PENDULA_BASE "%s", pc->name);
	pc->plugin = plugin_by_uri(uri);
	if (!pc->plugin)
		fprintf(stderr, "bench_host: no plugin %s\n", uri);
	return pc->plugin != NULL;
}

/* The cases of one plugin, and the floor for its number of outputs
 * (floor_case: by number of outputs, made once). */
static bool add_plugin_cases(plugin_cases *pc, const LilvPlugin *floor_p, int *floor_case,
                             uint32_t frames)
{
	const LilvPlugin *p = pc->plugin;
	const char *set = pc->settings;
	pc->own256 = add_case(p, 48000.0, 256, WIRE_OWN, set, -1, frames);
	pc->own64 = add_case(p, 48000.0, 64, WIRE_OWN, set, -1, frames);
	pc->shared256 = add_case(p, 48000.0, 256, WIRE_SHARED, set, -1, frames);
	pc->call0 = add_case(p, 48000.0, 0, WIRE_OWN, set, -1, frames);
	pc->call1 = add_case(p, 48000.0, 1, WIRE_OWN, set, -1, frames / 16);
	bool ok = pc->own256 >= 0 && pc->own64 >= 0 && pc->shared256 >= 0 && pc->call0 >= 0 &&
	          pc->call1 >= 0;
	for (int r = 0; r < 4; ++r) {
		pc->rate[r] = add_case(p, rates[r], 256, WIRE_OWN, set, -1,
		                       (uint32_t)(frames * (rates[r] / 48000.0)));
		ok = ok && pc->rate[r] >= 0;
	}
	if (!ok)
		return false;
	pc->n_outputs = cases[pc->own256].w.n_outputs;
	const int n = pc->n_outputs > 32 ? 32 : pc->n_outputs;
	if (floor_case[n] < 0)
		floor_case[n] = add_case(floor_p, 48000.0, 256, WIRE_OWN, NULL, n, frames);
	pc->floor = floor_case[n];
	return pc->floor >= 0;
}

/* The references of the same round: sinCos at blocks of 256 and 64, with
 * the lv2bench wiring, and its 0-frame call. */
typedef struct {
	int b256, b64, shared, call0;
} references;

static void print_plugin(const plugin_cases *pc, const references *ref, int rounds)
{
	const char *label = pc->arg;
	/* fixed cost of a call: a 1-frame call less one frame at block 256 */
	double fixed[MAX_ROUNDS];
	for (int r = 0; r < rounds; ++r)
		fixed[r] = cases[pc->call1].t[r] - cases[pc->own256].t[r] / 256.0;
	const double per_block = ns_per_frame(pc->own256, rounds) * 256.0;
	printf("bench host_%s outputs=%d b256_ns_per_frame=%.2f b256_vs_sinCos=%.3f "
	       "b64_vs_sinCos=%.3f vs_floor=%.2f lv2bench_shared_buffer_vs_sinCos=%.3f\n",
	       label, pc->n_outputs, ns_per_frame(pc->own256, rounds),
	       median_ratio(pc->own256, ref->b256, rounds),
	       median_ratio(pc->own64, ref->b64, rounds),
	       median_ratio(pc->own256, pc->floor, rounds),
	       median_ratio(pc->shared256, ref->shared, rounds));
	printf("bench host_%s call_ns_0_frames=%.1f call_ns_fixed_1_frame=%.1f "
	       "per_core_48k_256=%.0f\n",
	       label, median_ratio(pc->call0, -1, rounds) * 1e9, bench_median(fixed, rounds) * 1e9,
	       256.0 / 48000.0 / (per_block * 1e-9));
	printf("bench host_%s cpu_per_audio_second", label);
	for (int r = 0; r < 4; ++r)
		printf(" %gk=%.5f", rates[r] / 1000.0,
		       ns_per_frame(pc->rate[r], rounds) * rates[r] * 1e-9);
	printf(" ratio_192k_48k=%.2f\n",
	       ns_per_frame(pc->rate[3], rounds) * 4.0 / ns_per_frame(pc->rate[1], rounds));
}

/* --alone: one plugin at one block size, nothing else (a loop to profile). */
static int run_alone(const char *arg, int block, int rounds, uint32_t frames)
{
	plugin_cases pc;
	if (!plugin_of(arg, &pc))
		return 1;
	const int c =
	    add_case(pc.plugin, 48000.0, (uint32_t)block, WIRE_OWN, pc.settings, -1, frames);
	if (c < 0)
		return 1;
	for (int r = 0; r < rounds; ++r)
		run_case(&cases[c], r);
	printf("bench host_alone_%s block=%d ns_per_call=%.1f\n", arg, block,
	       median_ratio(c, -1, rounds) * 1e9);
	unwire(&cases[c].w);
	return 0;
}

/* Every case once per round, in a new shuffled order each round. */
static void run_rounds(int rounds)
{
	int order[MAX_CASES];
	for (int i = 0; i < n_cases; ++i)
		order[i] = i;
	uint64_t seed = 0x9E3779B97F4A7C15ull;
	for (int r = 0; r < rounds; ++r) {
		shuffle(order, n_cases, &seed);
		for (int i = 0; i < n_cases; ++i)
			run_case(&cases[order[i]], r);
	}
}

static void world_open(void)
{
	world = lilv_world_new();
	lilv_world_load_all(world);
	n_control = lilv_new_uri(world, LV2_CORE__ControlPort);
	n_audio = lilv_new_uri(world, LV2_CORE__AudioPort);
	n_cv = lilv_new_uri(world, LV2_CORE__CVPort);
	n_atom = lilv_new_uri(world, LV2_ATOM__AtomPort);
	n_input = lilv_new_uri(world, LV2_CORE__InputPort);
	n_output = lilv_new_uri(world, LV2_CORE__OutputPort);
	urid_sequence = map_uri(NULL, LV2_ATOM__Sequence);
	urid_chunk = map_uri(NULL, LV2_ATOM__Chunk);
}

int main(int argc, char **argv)
{
	int rounds = 11, alone = -1;
	uint32_t frames = 1u << 18;
	int a = 1;
	for (; a + 1 < argc && argv[a][0] == '-'; a += 2) {
		if (!strcmp(argv[a], "--rounds"))
			rounds = atoi(argv[a + 1]);
		else if (!strcmp(argv[a], "--frames"))
			frames = (uint32_t)atol(argv[a + 1]);
		else if (!strcmp(argv[a], "--alone"))
			alone = atoi(argv[a + 1]);
	}
	if (a >= argc || rounds < 1 || rounds > MAX_ROUNDS || frames < 256 ||
	    argc - a > MAX_PLUGINS) {
		fprintf(
		    stderr,
		    "usage: bench_host [--rounds 1-%d] [--frames N] [--alone BLOCK] PLUGIN...\n",
		    MAX_ROUNDS);
		return 2;
	}
	world_open();
	const LilvPlugin *sincos = plugin_by_uri(SINCOS_URI);
	const LilvPlugin *floor_p = plugin_by_uri(FLOOR_URI);
	if (!sincos || !floor_p) {
		printf("bench host: %s not found (LV2_PATH; apt-get install swh-lv2); no figures\n",
		       sincos ? FLOOR_URI : SINCOS_URI);
		return 0;
	}
	if (alone >= 0)
		return run_alone(argv[a], alone, rounds, frames);
	references ref;
	ref.b256 = add_case(sincos, 48000.0, 256, WIRE_OWN, NULL, -1, frames);
	ref.b64 = add_case(sincos, 48000.0, 64, WIRE_OWN, NULL, -1, frames);
	ref.shared = add_case(sincos, 48000.0, 256, WIRE_SHARED, NULL, -1, frames);
	ref.call0 = add_case(sincos, 48000.0, 0, WIRE_OWN, NULL, -1, frames);
	int floor_case[33];
	for (int n = 0; n <= 32; ++n)
		floor_case[n] = -1;
	plugin_cases pcs[MAX_PLUGINS];
	const int n_plugins = argc - a;
	for (int k = 0; k < n_plugins; ++k)
		if (!plugin_of(argv[a + k], &pcs[k]) ||
		    !add_plugin_cases(&pcs[k], floor_p, floor_case, frames)) {
			fprintf(stderr, "bench_host: cannot run %s\n", argv[a + k]);
			return 1;
		}

	run_rounds(rounds);
	printf("# thread CPU time, %d rounds of %u frames per case, shuffled; medians of each "
	       "round's ratio\n",
	       rounds, frames);
	printf("bench host_sinCos ns_per_frame_b256=%.2f ns_per_frame_b64=%.2f "
	       "ns_per_call_0=%.1f\n",
	       ns_per_frame(ref.b256, rounds), ns_per_frame(ref.b64, rounds),
	       median_ratio(ref.call0, -1, rounds) * 1e9);
	for (int n = 0; n <= 32; ++n)
		if (floor_case[n] >= 0)
			printf(
			    "bench host_floor outputs=%d ns_per_frame=%.2f ratio_vs_sinCos=%.2f\n",
			    n, ns_per_frame(floor_case[n], rounds),
			    median_ratio(floor_case[n], ref.b256, rounds));
	for (int k = 0; k < n_plugins; ++k)
		print_plugin(&pcs[k], &ref, rounds);
	for (int k = 0; k < n_plugins; ++k)
		heap_of(&pcs[k]);
	for (int i = 0; i < n_cases; ++i)
		unwire(&cases[i].w);
	lilv_world_free(world);
	return 0;
}
