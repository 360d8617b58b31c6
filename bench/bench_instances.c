/* SPDX-License-Identifier: ISC */
/*
 * Instances per core: N instances of one plugin (default `double`) run one
 * after the other in one thread, as a host runs a session's plugins, at
 * 48 kHz in blocks of 256 frames, with every port connected (control
 * inputs at their defaults, so the MIDI CC encoder runs, an empty input
 * sequence, a MIDI output).  The control ports, inputs and outputs, are one
 * float array per instance indexed by port, as Ardour's LV2Plugin
 * (_shadow_data, _control_data) and jalv (its Port array) hold them, so
 * reading the controls costs what it costs in those hosts; the signal
 * outputs go to one of the two layouts below.  The plugin is loaded through
 * its own descriptor (dlopen of the bundle's pendula.so), no lilv in
 * between.
 *
 * N keeps up if the thread's CPU time for TRIAL seconds of audio, for all N
 * instances, is at most that audio time (one core, no headroom), in the
 * median of three trials (REPEATS).  The
 * benchmark doubles N until an N fails, then bisects, and prints the largest
 * N that kept up, with its CPU load:
 *   bench instances_PLUGIN max_realtime=N load=L ns_per_frame_per_instance=X
 * Thread CPU time, so other processes on the machine disturb it less than
 * wall time would (their cache traffic still does).  Prints, never asserts.
 *
 * Two layouts of the signal outputs' buffers, one search each, same
 * instances:
 *   buffers=own     every instance writes buffers of its own (as Carla
 *                   gives each plugin its own), so N instances stream
 *                   N x 13 kB of output through the caches every block;
 *   buffers=thread  all instances write one set of buffers (one per
 *                   output port) that the thread reuses, as Ardour runs
 *                   every route of a process thread in that thread's
 *                   scratch buffers.
 * Either way each output port of an instance has a buffer of its own, so
 * the plugin writes all of them (none is shadowed by another).
 *
 * usage: bench_instances BUNDLE_DIR [PLUGIN [TRIAL_SECONDS]]
 *   (PLUGIN defaults to double, TRIAL_SECONDS, 0.05-60, to 1)
 */
#define _POSIX_C_SOURCE 200809L
#include "bench_stats.h"
#include "ports.h"

#include <lv2/atom/atom.h>
#include <lv2/core/lv2.h>
#include <lv2/urid/urid.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RATE      48000.0
#define BLOCK     256u
#define ATOM_SIZE 8192u
#define MAX_N     16384

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

typedef struct {
	LV2_Handle handle;
	float *mem; /* signals: BLOCK floats per port */
	float *ctl; /* controls: one float per port */
	LV2_Atom_Sequence *in, *out;
} instance;

static const LV2_Descriptor *desc;
static pendula_variant variant;
static LV2_URID urid_sequence, urid_chunk;

/* Connects the signal outputs of an instance to BLOCK-float slices of
 * mem, indexed by port. */
static void connect_signals(instance *in, float *mem)
{
	const uint32_t n_ports = pendula_port_count(variant);
	for (uint32_t i = 0; i < n_ports; ++i)
		if (pendula_ports[pendula_port_id_at(variant, i)].kind == PK_SIGNAL_OUT)
			desc->connect_port(in->handle, i, mem + (size_t)i * BLOCK);
}

static int instance_new(instance *in, const LV2_Feature *const *features)
{
	in->handle = desc->instantiate(desc, RATE, "", features);
	if (!in->handle)
		return 0;
	const uint32_t n_ports = pendula_port_count(variant);
	in->mem = calloc((size_t)n_ports * BLOCK, sizeof(float));
	in->ctl = calloc(n_ports, sizeof(float));
	in->in = aligned_alloc(8, ATOM_SIZE);
	in->out = aligned_alloc(8, ATOM_SIZE);
	if (!in->mem || !in->ctl || !in->in || !in->out)
		return 0;
	for (uint32_t i = 0; i < n_ports; ++i) {
		const pendula_port_id id = (pendula_port_id)pendula_port_id_at(variant, i);
		switch (pendula_ports[id].kind) {
		case PK_CONTROL_IN:
			in->ctl[i] = pendula_port_default(variant, id);
			desc->connect_port(in->handle, i, &in->ctl[i]);
			break;
		case PK_CONTROL_OUT:
			desc->connect_port(in->handle, i, &in->ctl[i]);
			break;
		case PK_SIGNAL_IN:  /* unconnected: silence */
		case PK_SIGNAL_OUT: /* connect_signals() */
		case PK_MOD_CV_OUT: /* (unconnected, as in a host without MOD) */
			break;
		case PK_ATOM_IN:
			desc->connect_port(in->handle, i, in->in);
			break;
		case PK_ATOM_OUT:
			desc->connect_port(in->handle, i, in->out);
			break;
		}
	}
	connect_signals(in, in->mem);
	desc->activate(in->handle);
	return 1;
}

static void instance_run(instance *in)
{
	in->in->atom.type = urid_sequence;
	in->in->atom.size = sizeof(LV2_Atom_Sequence_Body);
	in->in->body.unit = 0;
	in->in->body.pad = 0;
	in->out->atom.type = urid_chunk;
	in->out->atom.size = ATOM_SIZE - sizeof(LV2_Atom);
	desc->run(in->handle, BLOCK);
}

/* Each N's load is the median of this many timed trials.  On the 2-core VM
 * one trial can read far from the next (944 instances, back to back: 1.035,
 * 0.781 and 0.641 of a core), and one high reading stopped the search
 * early: three invocations of one build, one trial per N, gave 760, 1072
 * and 824 instances with their own buffers, the 760 at a load of 0.66.
 * The median ignores one outlier per N; the spread between invocations
 * stays (docs/BENCHMARKS.md, "Benchmarks"). */
#define REPEATS 3

/* CPU seconds per second of audio for n instances: the median of REPEATS
 * trials, each printed in seen[] (REPEATS of them). */
static double load_of(instance *inst, int n, double trial, double *seen)
{
	const int blocks = (int)(trial * RATE / BLOCK);
	/* one block each first: caches and branch predictors as in a session */
	for (int i = 0; i < n; ++i)
		instance_run(&inst[i]);
	for (int r = 0; r < REPEATS; ++r) {
		const double t0 = bench_thread_now();
		for (int b = 0; b < blocks; ++b)
			for (int i = 0; i < n; ++i)
				instance_run(&inst[i]);
		seen[r] = (bench_thread_now() - t0) / ((double)blocks * BLOCK / RATE);
	}
	double s[REPEATS];
	memcpy(s, seen, sizeof(s));
	return bench_median(s, REPEATS);
}

static void print_trial(int n, double load, const double *seen)
{
	printf("#   %d instances: %.3f of a core (median of", n, load);
	for (int r = 0; r < REPEATS; ++r)
		printf(" %.3f", seen[r]);
	printf(")\n");
}

/* The largest N of inst[0..made) (instantiating more as needed) that keeps
 * up, with its load; prints the trials. */
static int search(instance *inst, int *made, const LV2_Feature *const *features, double trial,
                  float *thread_mem, double *good_load)
{
	/* grow: 1, 2, 4, ... until an N does not keep up */
	int good = 0, bad = 0;
	*good_load = 0.0;
	for (int n = 1; n <= MAX_N; n *= 2) {
		for (; *made < n; ++*made)
			if (!instance_new(&inst[*made], features)) {
				fprintf(stderr, "bench_instances: instantiate failed\n");
				exit(1);
			}
		for (int i = 0; i < n; ++i)
			connect_signals(&inst[i], thread_mem ? thread_mem : inst[i].mem);
		double seen[REPEATS];
		const double load = load_of(inst, n, trial, seen);
		print_trial(n, load, seen);
		if (load > 1.0) {
			bad = n;
			break;
		}
		good = n;
		*good_load = load;
	}
	/* bisect between the last N that kept up and the first that did not */
	while (bad && bad - good > (good >= 64 ? good / 64 : 1)) {
		const int n = (good + bad) / 2;
		double seen[REPEATS];
		const double load = load_of(inst, n, trial, seen);
		print_trial(n, load, seen);
		if (load > 1.0) {
			bad = n;
		} else {
			good = n;
			*good_load = load;
		}
	}
	return good;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: bench_instances BUNDLE_DIR [PLUGIN [TRIAL_SECONDS]]\n");
		return 2;
	}
	const char *name = argc > 2 ? argv[2] : "double";
	double trial = 1.0;
	if (argc > 3) {
		char *end = NULL;
		trial = strtod(argv[3], &end);
		if (end == argv[3] || *end || !(trial >= 0.05 && trial <= 60.0)) {
			fprintf(stderr,
			        "bench_instances: TRIAL_SECONDS '%s' is not a number in 0.05-60\n",
			        argv[3]);
			return 2;
		}
	}
	char path[4096];
	snprintf(path, sizeof(path), "%s/pendula.so", argv[1]);
	void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		fprintf(stderr, "bench_instances: %s\n", dlerror());
		return 1;
	}
	LV2_Descriptor_Function fn;
	*(void **)&fn = dlsym(lib, "lv2_descriptor");
	int v = 0;
	while (v < PENDULA_N_VARIANTS && strcmp(pendula_variant_names[v], name))
		++v;
	if (!fn || v == PENDULA_N_VARIANTS) {
		fprintf(stderr, "bench_instances: no plugin %s\n", name);
		return 2;
	}
	variant = (pendula_variant)v;
	for (uint32_t i = 0; (desc = fn(i)); ++i)
		if (!strcmp(desc->URI, pendula_variant_uris[v]))
			break;
	if (!desc)
		return 1;
	LV2_URID_Map map = {NULL, map_uri};
	const LV2_Feature map_feature = {LV2_URID__map, &map};
	const LV2_Feature *features[] = {&map_feature, NULL};
	urid_sequence = map_uri(NULL, LV2_ATOM__Sequence);
	urid_chunk = map_uri(NULL, LV2_ATOM__Chunk);

	instance *inst = calloc(MAX_N, sizeof(instance));
	float *thread_mem = calloc((size_t)pendula_port_count(variant) * BLOCK, sizeof(float));
	if (!inst || !thread_mem)
		return 1;
	int made = 0;
	static const char *const layout[2] = {"own", "thread"};
	int good[2];
	double load[2];
	for (int k = 0; k < 2; ++k) {
		printf("# buffers=%s\n", layout[k]);
		good[k] = search(inst, &made, features, trial, k ? thread_mem : NULL, &load[k]);
	}
	printf("# %s at %.0f Hz, blocks of %u, %.2g s of audio per trial, thread CPU time\n", name,
	       RATE, BLOCK, trial);
	for (int k = 0; k < 2; ++k)
		printf("bench instances_%s buffers=%s max_realtime=%d load=%.3f "
		       "ns_per_frame_per_instance=%.2f\n",
		       name, layout[k], good[k], load[k],
		       good[k] > 0 ? load[k] * 1e9 / RATE / good[k] : 0.0);
	for (int i = 0; i < made; ++i) {
		desc->cleanup(inst[i].handle);
		free(inst[i].mem);
		free(inst[i].ctl);
		free(inst[i].in);
		free(inst[i].out);
	}
	free(inst);
	free(thread_mem);
	dlclose(lib);
	return 0;
}
