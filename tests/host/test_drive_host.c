/* SPDX-License-Identifier: ISC */
/*
 * The drive input through lilv, every plugin (the engine's side:
 * tests/models/test_drive.c):
 *   - unconnected, connected to zeros, or any signal at drive_gain 0: the
 *     outputs of a plugin whose drive was never connected, bit for bit;
 *   - a drive changes the motion, and random block sizes give the output
 *     of fixed blocks, bit for bit (the plugin passes each chunk's part of
 *     the port to the engine);
 *   - in place: the drive in the same buffer as a signal output gives the
 *     output of separate buffers (the host may do so: no inPlaceBroken);
 *   - non-finite and huge samples at the largest gain: finite outputs in
 *     their ranges;
 *   - drive_level, the control output: the largest |sample| of each run()
 *     (found here by a plain scan of the block), 1 above 1, 0 for silence,
 *     an unconnected drive or an empty block; NaN, infinities and
 *     subnormals count as 0; at any gain, frozen or not.
 *
 * usage: test_drive_host BUNDLE_DIR
 */
#include "cunit_main.h"
#include "lv2_test_host.h"
#include "test_rng.h"

#include <CUnit/Basic.h>
#include <lv2/atom/atom.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE   48000.0
#define FRAMES 24000u /* half a second */
#define BLOCK  4096u

static LilvWorld *world;
static const LilvPlugin *plugins[PENDULA_N_VARIANTS];

/* How a run feeds the drive. */
typedef struct {
	const float *signal; /* FRAMES samples; NULL: the port left unconnected */
	float gain;
	bool random_blocks;
	bool in_place; /* the drive in the first signal output's buffer */
} drive_case;

/* Every signal output of a run, FRAMES frames each (by port id). */
typedef struct {
	float *out[PENDULA_N_PORT_IDS];
} run_rec;

static void run_rec_free(run_rec *r)
{
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		free(r->out[id]);
}

static void run_plugin(pendula_variant v, const drive_case *dc, run_rec *rec)
{
	LilvInstance *inst =
	    lv2th_instantiate("test_drive_host", plugins[v], v, RATE, lv2th_features);
	float control[PENDULA_N_PORT_IDS];
	float *sig[PENDULA_N_PORT_IDS] = {0};
	test_control_defaults(v, control);
	control[P_DRIVE_GAIN] = dc->gain;
	int first_out = -1;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		rec->out[id] = NULL;
		if (pendula_port_index(v, (pendula_port_id)id) < 0 ||
		    pendula_ports[id].kind != PK_SIGNAL_OUT)
			continue;
		sig[id] = (float *)lv2th_calloc(BLOCK, sizeof(float));
		rec->out[id] = (float *)lv2th_calloc(FRAMES, sizeof(float));
		if (first_out < 0)
			first_out = id;
	}
	static uint64_t atom_in[512], atom_out[512];
	lv2th_connect(inst, v, control, sig, atom_in, atom_out);
	const uint32_t drive_index = (uint32_t)pendula_port_index(v, P_DRIVE);
	float *block_drive = (float *)lv2th_calloc(BLOCK, sizeof(float));
	lilv_instance_activate(inst);
	test_rng rng = test_rng_seeded(3500 + (uint64_t)v);
	for (uint32_t done = 0; done < FRAMES;) {
		uint32_t n = dc->random_blocks ? test_rng_below(&rng, 600) : BLOCK;
		if (n > FRAMES - done)
			n = FRAMES - done;
		if (dc->signal) {
			/* the host's buffer for this block: its own, or an output's */
			float *buf = dc->in_place ? sig[first_out] : block_drive;
			memcpy(buf, dc->signal + done, n * sizeof(float));
			lilv_instance_connect_port(inst, drive_index, buf);
		}
		lv2th_prepare_atoms(atom_in, atom_out, sizeof atom_out);
		lilv_instance_run(inst, n);
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
			if (sig[id])
				memcpy(rec->out[id] + done, sig[id], n * sizeof(float));
		done += n;
	}
	lilv_instance_deactivate(inst);
	lilv_instance_free(inst);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		free(sig[id]);
	free(block_drive);
}

/* The first port whose outputs differ (bits), or -1. */
static int runs_differ(const run_rec *a, const run_rec *b)
{
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (a->out[id] && memcmp(a->out[id], b->out[id], FRAMES * sizeof(float)))
			return id;
	return -1;
}

static float *noise(uint64_t seed)
{
	float *s = malloc(FRAMES * sizeof(float));
	test_rng rng = test_rng_seeded(seed);
	for (uint32_t n = 0; n < FRAMES; ++n)
		s[n] = (float)test_rng_range(&rng, -1.0, 1.0);
	return s;
}

static void test_silence(void)
{
	float *zeros = calloc(FRAMES, sizeof(float)), *sound = noise(1);
	for (int v = 0; v < PENDULA_N_SIGNAL_VARIANTS; ++v) { /* (no drive input in -midi) */
		run_rec today, other;
		const drive_case never = {NULL, 0.0f, false, false};
		run_plugin((pendula_variant)v, &never, &today);
		const drive_case cases[] = {
		    {NULL, 20.0f, true, false},  /* unconnected, gain up */
		    {zeros, 20.0f, true, false}, /* silence */
		    {sound, 0.0f, true, false},  /* gain 0 */
		    {zeros, 20.0f, false, true}, /* silence in an output's buffer */
		};
		for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); ++k) {
			run_plugin((pendula_variant)v, &cases[k], &other);
			const int id = runs_differ(&today, &other);
			CHECK(id < 0, "%s, case %zu: %s differs from no drive",
			      pendula_variant_names[v], k, id >= 0 ? pendula_ports[id].symbol : "");
			run_rec_free(&other);
		}
		run_rec_free(&today);
	}
	free(zeros);
	free(sound);
}

static void test_blocks_and_in_place(void)
{
	float *sound = noise(2);
	for (int v = 0; v < PENDULA_N_SIGNAL_VARIANTS; ++v) { /* (no drive input in -midi) */
		run_rec fixed, other, never;
		const drive_case off = {NULL, 0.0f, false, false};
		const drive_case on = {sound, 3.0f, false, false};
		const drive_case random = {sound, 3.0f, true, false};
		const drive_case in_place = {sound, 3.0f, true, true};
		run_plugin((pendula_variant)v, &off, &never);
		run_plugin((pendula_variant)v, &on, &fixed);
		CHECK(runs_differ(&never, &fixed) >= 0, "%s: the drive changes nothing",
		      pendula_variant_names[v]);
		run_plugin((pendula_variant)v, &random, &other);
		int id = runs_differ(&fixed, &other);
		CHECK(id < 0, "%s: %s depends on the blocks", pendula_variant_names[v],
		      id >= 0 ? pendula_ports[id].symbol : "");
		run_rec_free(&other);
		run_plugin((pendula_variant)v, &in_place, &other);
		id = runs_differ(&fixed, &other);
		CHECK(id < 0, "%s: in place, %s differs", pendula_variant_names[v],
		      id >= 0 ? pendula_ports[id].symbol : "");
		run_rec_free(&other);
		run_rec_free(&fixed);
		run_rec_free(&never);
	}
	free(sound);
}

static void test_hostile(void)
{
	float *wild = noise(3);
	const float bad[] = {NAN, INFINITY, -INFINITY, 1e30f, -FLT_MAX, 1e-42f, 300.0f};
	for (uint32_t n = 0; n < FRAMES; n += 5)
		wild[n] = bad[(n / 5) % (sizeof(bad) / sizeof(bad[0]))];
	for (int v = 0; v < PENDULA_N_SIGNAL_VARIANTS; ++v) { /* (no drive input in -midi) */
		run_rec r;
		const drive_case dc = {wild, 20.0f, true, false};
		run_plugin((pendula_variant)v, &dc, &r);
		int bad_values = 0;
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
			for (uint32_t n = 0; r.out[id] && n < FRAMES; ++n) {
				const float x = r.out[id][n];
				/* (energy may exceed 1 when forced, as in test_rates) */
				const float hi = id == P_OUT_ENERGY ? 1e9f : pendula_ports[id].max;
				bad_values += !(x >= pendula_ports[id].min && x <= hi);
			}
		CHECK(bad_values == 0, "%s: %d output values not finite or out of range",
		      pendula_variant_names[v], bad_values);
		run_rec_free(&r);
	}
	free(wild);
}

/* The level a block should show: the largest |x| over its normal finite
 * samples (a zero, subnormal, NaN or infinity counts as 0), at most 1. */
static float expected_level(const float *x, uint32_t n)
{
	float peak = 0.0f;
	for (uint32_t i = 0; x && i < n; ++i)
		if (isnormal(x[i]) && fabsf(x[i]) > peak)
			peak = fabsf(x[i]);
	return peak > 1.0f ? 1.0f : peak;
}

/* One plugin, a sequence of blocks of varied content and size: after each
 * run() drive_level is the block's own peak (not the previous block's, nor
 * a running maximum). */
static void level_blocks(pendula_variant v, float gain, float freeze)
{
	LilvInstance *inst =
	    lv2th_instantiate("test_drive_host", plugins[v], v, RATE, lv2th_features);
	float control[PENDULA_N_PORT_IDS];
	test_control_defaults(v, control);
	control[P_DRIVE_GAIN] = gain;
	control[P_FREEZE] = freeze;
	static uint64_t atom_in[512], atom_out[512];
	lv2th_connect(inst, v, control, NULL, atom_in, atom_out);
	/* a -midi plugin has no drive input: its level stays 0 */
	const int drive_index = pendula_port_index(v, P_DRIVE);
	float *buf = (float *)lv2th_calloc(BLOCK, sizeof(float));
	lilv_instance_activate(inst);
	test_rng rng = test_rng_seeded(7100 + (uint64_t)v);
	const float specials[] = {NAN, -NAN, INFINITY, -INFINITY, 1e-42f, -1e-40f, 0.0f, -0.0f};
	int wrong = 0;
	for (int b = 0; b < 60; ++b) {
		const uint32_t n = b % 7 == 3 ? 0u : (uint32_t)test_rng_below(&rng, 700);
		const int kind =
		    b % 6; /* unconnected, silence, sound, loud, hostile, hostile only */
		const double amp = test_rng_range(&rng, 0.01, 0.99);
		for (uint32_t i = 0; i < n; ++i) {
			const float s = (float)test_rng_range(&rng, -amp, amp);
			const float sp = specials[test_rng_below(&rng, 8)];
			buf[i] = kind == 1   ? 0.0f
			         : kind == 3 ? 3.0f * s
			         : kind == 4 ? (i % 3 == 0 ? sp : s)
			         : kind == 5 ? sp
			                     : s;
		}
		if (drive_index >= 0)
			lilv_instance_connect_port(inst, (uint32_t)drive_index,
			                           kind == 0 ? NULL : buf);
		control[P_CTL_DRIVE_LEVEL] = NAN; /* (what a host may leave there) */
		lv2th_prepare_atoms(atom_in, atom_out, sizeof atom_out);
		lilv_instance_run(inst, n);
		const float want = expected_level(kind == 0 || drive_index < 0 ? NULL : buf, n);
		const float got = control[P_CTL_DRIVE_LEVEL];
		if (got != want && wrong++ < 3)
			CHECK(false,
			      "%s (gain %g, freeze %g), block %d (%u frames, kind %d): level %g, "
			      "the block's peak is %g",
			      pendula_variant_names[v], (double)gain, (double)freeze, b, n, kind,
			      (double)got, (double)want);
	}
	CHECK(wrong == 0, "%s: %d blocks show another level than their peak",
	      pendula_variant_names[v], wrong);
	lilv_instance_deactivate(inst);
	lilv_instance_free(inst);
	free(buf);
}

static void test_level(void)
{
	for (int v = 0; v < PENDULA_N_VARIANTS; ++v) {
		level_blocks((pendula_variant)v, 0.0f, 0.0f);
		level_blocks((pendula_variant)v, 5.0f, 0.0f);
		level_blocks((pendula_variant)v, 5.0f, 1.0f);
	}
	/* the ground truth itself: a known peak, clamping, the specials */
	const float x[] = {0.25f, -0.5f, NAN, 1e-42f, INFINITY};
	const float loud[] = {0.1f, -1.5f};
	CU_ASSERT_EQUAL(expected_level(x, 5), 0.5f);
	CU_ASSERT_EQUAL(expected_level(loud, 2), 1.0f);
	CU_ASSERT_EQUAL(expected_level(x + 2, 3), 0.0f);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_drive_host BUNDLE_DIR\n");
		return 2;
	}
	if (!lv2th_world_load("test_drive_host", argv[1], &world, plugins)) {
		lv2th_free_uris();
		return 1;
	}
	static CU_TestInfo tests[] = {
	    {"silence or gain 0: no drive, bit for bit", test_silence},
	    {"random blocks and in place: the same output", test_blocks_and_in_place},
	    {"non-finite and huge samples", test_hostile},
	    {"drive_level: each block's peak", test_level},
	    CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
	    {"drive_host", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};
	const int status = test_cunit_main("test_drive_host", suites);
	lilv_world_free(world);
	lv2th_free_uris();
	return status;
}
