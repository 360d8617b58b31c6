/* SPDX-License-Identifier: ISC */
/*
 * The dearest single run() call: each model's plugin, loaded through its
 * own descriptor (dlopen of the bundle's pendula.so), at 48 kHz in blocks
 * of 16, 64 and 256 frames, every port connected, under
 *
 *   random    random in-range settings (a fresh instance each, now and
 *             then a control exactly at a bound), 0.25 s each;
 *   min, max  every control at its minimum, at its maximum;
 *   hostile   every control a new random in-range value every block;
 *   structure the structural controls (n_links, n_bodies, link_shape,
 *             surface) a new value every block, the rest at the defaults;
 *   restart   a new initial angle every block (each block restarts),
 *             time_scale 100;
 *   reset     the reset control rising every other block, every control
 *             at its maximum;
 *
 * each call timed in the thread's CPU time (CLOCK_THREAD_CPUTIME_ID: the
 * host preempting the thread does not count).  Prints, per model and block
 * size, the dearest call in µs, its ratio to the block's duration (1: the
 * call took as long as its audio lasts) and the case it came from, then
 * the worst ratio over everything:
 *   bench calls model=M block=B worst_us=X ratio=R case=C
 *   bench calls worst_ratio=R (M, block B, C)
 * A ratio above 1 is a call that would make a host with that buffer size
 * miss its deadline on one core of this machine.  Never a test: nothing here
 * asserts time (docs/BENCHMARKS.md, "The dearest call").
 *
 * usage: bench_calls BUNDLE_DIR [--quick]
 */
#define _POSIX_C_SOURCE 200809L
#include "bench_stats.h"
#include "ports.h"

#include <lv2/atom/atom.h>
#include <lv2/core/lv2.h>
#include <lv2/urid/urid.h>

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE      48000.0
#define MAX_BLOCK 256u
#define ATOM_SIZE 8192u

static const char *uris[256];
static uint32_t n_uris;

static LV2_URID map_uri(LV2_URID_Map_Handle handle, const char *uri)
{
	(void)handle;
	for (uint32_t i = 0; i < n_uris; ++i)
		if (!strcmp(uris[i], uri))
			return i + 1;
	if (n_uris == 256)
		return 0;
	uris[n_uris++] = uri; /* the plugin's strings are static */
	return n_uris;
}

static LV2_Descriptor_Function descriptors;
static const LV2_Feature *const *features;
static LV2_URID urid_sequence, urid_chunk;

typedef struct {
	pendula_variant v;
	const LV2_Descriptor *desc;
	LV2_Handle handle;
	uint32_t n_ports;
	float *mem; /* signals: MAX_BLOCK floats per port */
	float *ctl; /* controls: one float per port */
	LV2_Atom_Sequence *in, *out;
} instance;

static uint32_t xorshift(uint32_t *s)
{
	uint32_t x = *s;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

/* A value in the declared range of a control (log-uniform on logarithmic
 * ports), one time in four exactly a bound. */
static float random_control(pendula_port_id id, uint32_t *s)
{
	const pendula_port_info *info = &pendula_ports[id];
	const uint32_t pick = xorshift(s) % 8;
	if (pick == 0)
		return info->min;
	if (pick == 1)
		return info->max;
	const double u = (xorshift(s) >> 8) * (1.0 / 16777216.0);
	double v = (info->flags & PF_LOG) && info->min > 0
	               ? info->min * pow((double)info->max / info->min, u)
	               : info->min + ((double)info->max - info->min) * u;
	if (info->flags & (PF_INTEGER | PF_ENUM | PF_TOGGLED))
		v = floor(v + 0.5);
	return (float)v;
}

static int instance_new(instance *in, pendula_variant v)
{
	memset(in, 0, sizeof(*in));
	in->v = v;
	for (uint32_t i = 0; (in->desc = descriptors(i)); ++i)
		if (!strcmp(in->desc->URI, pendula_variant_uris[v]))
			break;
	if (!in->desc)
		return 0;
	in->handle = in->desc->instantiate(in->desc, RATE, "", features);
	if (!in->handle)
		return 0;
	in->n_ports = pendula_port_count(v);
	in->mem = calloc((size_t)in->n_ports * MAX_BLOCK, sizeof(float));
	in->ctl = calloc(in->n_ports, sizeof(float));
	in->in = aligned_alloc(8, ATOM_SIZE);
	in->out = aligned_alloc(8, ATOM_SIZE);
	if (!in->mem || !in->ctl || !in->in || !in->out)
		return 0;
	for (uint32_t i = 0; i < in->n_ports; ++i) {
		const pendula_port_id id = (pendula_port_id)pendula_port_id_at(v, i);
		switch (pendula_ports[id].kind) {
		case PK_CONTROL_IN:
			in->ctl[i] = pendula_port_default(v, id);
			in->desc->connect_port(in->handle, i, &in->ctl[i]);
			break;
		case PK_CONTROL_OUT:
			in->desc->connect_port(in->handle, i, &in->ctl[i]);
			break;
		case PK_SIGNAL_IN: /* silence */
		case PK_SIGNAL_OUT:
		case PK_MOD_CV_OUT:
			in->desc->connect_port(in->handle, i, in->mem + (size_t)i * MAX_BLOCK);
			break;
		case PK_ATOM_IN:
			in->desc->connect_port(in->handle, i, in->in);
			break;
		case PK_ATOM_OUT:
			in->desc->connect_port(in->handle, i, in->out);
			break;
		}
	}
	in->desc->activate(in->handle);
	return 1;
}

static void instance_free(instance *in)
{
	if (in->handle)
		in->desc->cleanup(in->handle);
	free(in->mem);
	free(in->ctl);
	free(in->in);
	free(in->out);
}

/* One run() call of n frames: its thread CPU time in seconds. */
static double instance_run(instance *in, uint32_t n)
{
	in->in->atom.type = urid_sequence;
	in->in->atom.size = sizeof(LV2_Atom_Sequence_Body);
	in->in->body.unit = 0;
	in->in->body.pad = 0;
	in->out->atom.type = urid_chunk;
	in->out->atom.size = ATOM_SIZE - sizeof(LV2_Atom);
	const double t0 = bench_thread_now();
	in->desc->run(in->handle, n);
	return bench_thread_now() - t0;
}

/* Which controls a case changes every block. */
enum { SET_NONE, SET_ALL, SET_STRUCTURE, SET_INITIAL, SET_RESET };

static int is_structural(pendula_port_id id)
{
	const char *s = pendula_ports[id].symbol;
	return !strcmp(s, "n_links") || !strcmp(s, "n_bodies") || !strcmp(s, "link_shape") ||
	       !strcmp(s, "surface");
}

/* Sets the controls a case changes (freeze stays off: a frozen block
 * costs nothing). */
static void set_controls(instance *in, int which, uint32_t *seed, long block)
{
	for (uint32_t i = 0; i < in->n_ports; ++i) {
		const pendula_port_id id = (pendula_port_id)pendula_port_id_at(in->v, i);
		const pendula_port_info *info = &pendula_ports[id];
		if (info->kind != PK_CONTROL_IN || !strcmp(info->symbol, "freeze"))
			continue;
		if (which == SET_ALL && strcmp(info->symbol, "reset"))
			in->ctl[i] = random_control(id, seed);
		else if (which == SET_STRUCTURE && is_structural(id))
			in->ctl[i] = random_control(id, seed);
		else if (which == SET_INITIAL && (info->flags & PF_INITIAL))
			in->ctl[i] = random_control(id, seed);
		else if (which == SET_RESET && !strcmp(info->symbol, "reset"))
			in->ctl[i] = (float)(block & 1);
	}
}

/* Every control (but freeze and reset) at its minimum (0), maximum (1) or
 * a random value (2). */
static void set_all(instance *in, int how, uint32_t *seed)
{
	for (uint32_t i = 0; i < in->n_ports; ++i) {
		const pendula_port_id id = (pendula_port_id)pendula_port_id_at(in->v, i);
		const pendula_port_info *info = &pendula_ports[id];
		if (info->kind != PK_CONTROL_IN || !strcmp(info->symbol, "freeze") ||
		    !strcmp(info->symbol, "reset"))
			continue;
		in->ctl[i] = how == 0 ? info->min : how == 1 ? info->max : random_control(id, seed);
	}
}

static void set_symbol(instance *in, const char *symbol, float value)
{
	for (uint32_t i = 0; i < in->n_ports; ++i)
		if (!strcmp(pendula_ports[pendula_port_id_at(in->v, i)].symbol, symbol))
			in->ctl[i] = value;
}

typedef struct {
	double worst; /* s */
	const char *where;
} worst_call;

static void note(worst_call *w, double t, const char *where)
{
	if (t > w->worst) {
		w->worst = t;
		w->where = where;
	}
}

/* A case: a fresh instance set up by `start` (0 min, 1 max, 2 random, 3
 * defaults), `blocks` calls of `block` frames with `which` controls
 * changed before each. */
static void run_case(pendula_variant v, uint32_t block, int start, int which, long blocks,
                     uint32_t seed, const char *name, worst_call *w)
{
	instance in;
	if (!instance_new(&in, v)) {
		fprintf(stderr, "bench_calls: instantiate failed\n");
		exit(1);
	}
	if (start < 3)
		set_all(&in, start, &seed);
	if (which == SET_INITIAL)
		set_symbol(&in, "time_scale", 100.0f);
	for (long b = 0; b < blocks; ++b) {
		set_controls(&in, which, &seed, b);
		note(w, instance_run(&in, block), name);
	}
	instance_free(&in);
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: bench_calls BUNDLE_DIR [--quick]\n");
		return 2;
	}
	const int quick = argc > 2 && !strcmp(argv[2], "--quick");
	char path[4096];
	snprintf(path, sizeof(path), "%s/pendula.so", argv[1]);
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "bench_calls: %s\n", dlerror());
		return 1;
	}
	*(void **)&descriptors = dlsym(lib, "lv2_descriptor");
	if (!descriptors)
		return 1;
	LV2_URID_Map map = {NULL, map_uri};
	const LV2_Feature map_feature = {LV2_URID__map, &map};
	const LV2_Feature *feature_list[] = {&map_feature, NULL};
	features = feature_list;
	urid_sequence = map_uri(NULL, LV2_ATOM__Sequence);
	urid_chunk = map_uri(NULL, LV2_ATOM__Chunk);

	const uint32_t blocks[3] = {16, 64, 256};
	const double seconds = quick ? 0.25 : 1.0;
	const int n_random = quick ? 8 : 40;
	printf("# Pendula, the dearest single run() call at %.0f Hz: %d random in-range settings "
	       "(0.25 s each), every control at min and at max, and every block: every control, "
	       "the structural controls, the initial angles, the reset (%.2g s each); thread CPU "
	       "time\n",
	       RATE, n_random, seconds);
	double worst_ratio = 0.0;
	const char *worst_model = "", *worst_case = "";
	uint32_t worst_block = 0;
	for (int m = 0; m < PENDULA_N_MODELS; ++m) {
		const pendula_variant v = (pendula_variant)(2 * m);
		for (int bi = 0; bi < 3; ++bi) {
			const uint32_t block = blocks[bi];
			const long per_case = (long)(seconds * RATE / block);
			worst_call w = {0.0, ""};
			for (int r = 0; r < n_random; ++r)
				run_case(v, block, 2, SET_NONE, (long)(0.25 * RATE / block),
				         1234u + 7919u * (uint32_t)r, "random", &w);
			run_case(v, block, 0, SET_NONE, per_case, 1u, "min", &w);
			run_case(v, block, 1, SET_NONE, per_case, 1u, "max", &w);
			run_case(v, block, 3, SET_ALL, per_case, 99u, "hostile", &w);
			run_case(v, block, 3, SET_STRUCTURE, per_case, 77u, "structure", &w);
			run_case(v, block, 3, SET_INITIAL, per_case, 55u, "restart", &w);
			run_case(v, block, 1, SET_RESET, per_case, 33u, "reset", &w);
			const double ratio = w.worst / (block / RATE);
			printf("bench calls model=%s block=%u worst_us=%.1f ratio=%.3f case=%s\n",
			       pendula_variant_names[v], block, w.worst * 1e6, ratio, w.where);
			fflush(stdout);
			if (ratio > worst_ratio) {
				worst_ratio = ratio;
				worst_model = pendula_variant_names[v];
				worst_block = block;
				worst_case = w.where;
			}
		}
	}
	printf("bench calls worst_ratio=%.3f (%s, block %u, %s)\n", worst_ratio, worst_model,
	       worst_block, worst_case);
	dlclose(lib);
	return 0;
}
