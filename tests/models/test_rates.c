/* SPDX-License-Identifier: ISC */
/*
 * Sample rates through lilv: instantiate() refuses a rate that is not finite,
 * not positive, or outside 1 kHz .. 1.536 MHz (NULL, so lilv gives no
 * instance), and every plugin runs at the rates inside, including both ends,
 * with finite outputs in their ranges: at 1 kHz with time_scale 100 and fast
 * forcing (the most engine steps per frame), at 1.536 MHz with time_scale
 * 0.01 (the most frames per engine step) for longer than one step.
 *
 * usage: test_rates BUNDLE_DIR
 */
#include "cunit_main.h"
#include "lv2_test_host.h"

#include <CUnit/Basic.h>
#include <lv2/atom/atom.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static LilvWorld *world;
static const LilvPlugin *plugins[PENDULA_N_VARIANTS];

static void test_refused(void)
{
	const double bad[] = {0.0, -0.0,   -48000.0,  NAN,  INFINITY, -INFINITY, 1e-300,
	                      1.0, 999.99, 1536000.5, 2e10, 1e300,    DBL_MIN};
	const size_t n_bad = sizeof(bad) / sizeof(bad[0]);
	for (int v = 0; v < PENDULA_N_VARIANTS; ++v) {
		size_t accepted = 0;
		for (size_t i = 0; i < n_bad; ++i) {
			LilvInstance *inst =
			    lilv_plugin_instantiate(plugins[v], bad[i], lv2th_features);
			if (inst) {
				printf("\n    %s: %.10g Hz accepted", pendula_variant_names[v],
				       bad[i]);
				accepted++;
				lilv_instance_free(inst);
			}
		}
		printf("\n    %s: %zu of %zu bad rates refused", pendula_variant_names[v],
		       n_bad - accepted, n_bad);
		CHECK(accepted == 0, "%s accepted %zu bad sample rates", pendula_variant_names[v],
		      accepted);
	}
}

/* Runs `frames` frames at `rate` in blocks of 4096 with the given settings;
 * returns false if an output left its range or was not finite. */
static bool run_at(pendula_variant v, double rate, int64_t frames, float time_scale,
                   float pivot_freq, double *worst)
{
	LilvInstance *inst = lilv_plugin_instantiate(plugins[v], rate, lv2th_features);
	if (!inst)
		return false;
	enum { BLOCK = 4096 };
	float control[PENDULA_N_PORT_IDS];
	float *sig[PENDULA_N_PORT_IDS] = {0};
	test_control_defaults(v, control);
	control[P_TIME_SCALE] = time_scale;
	control[P_PIVOT_Y_AMP] = pivot_freq > 0.0f ? 0.05f : 0.0f;
	control[P_PIVOT_Y_FREQ] = pivot_freq;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (pendula_port_index(v, (pendula_port_id)id) >= 0 &&
		    pendula_ports[id].kind == PK_SIGNAL_OUT)
			sig[id] = (float *)lv2th_calloc(BLOCK, sizeof(float));
	static uint64_t atom_in[512], atom_out[512];
	lv2th_connect(inst, v, control, sig, atom_in, atom_out);
	lilv_instance_activate(inst);
	bool ok = true;
	*worst = 0.0;
	for (int64_t done = 0; done < frames;) {
		const uint32_t n = frames - done < BLOCK ? (uint32_t)(frames - done) : BLOCK;
		lv2th_prepare_atoms(atom_in, atom_out, sizeof atom_out);
		lilv_instance_run(inst, n);
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
			for (uint32_t f = 0; sig[id] && f < n; ++f) {
				const float x = sig[id][f];
				/* energy may exceed 1 with forcing */
				const float lo = pendula_ports[id].min,
				            hi = id == P_OUT_ENERGY ? 1e9f : pendula_ports[id].max;
				if (!isfinite(x) || x < lo || x > hi)
					ok = false;
				if (fabs(x) > *worst && id != P_OUT_ENERGY)
					*worst = fabs(x);
			}
		done += n;
	}
	lilv_instance_deactivate(inst);
	lilv_instance_free(inst);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		free(sig[id]);
	return ok;
}

static void test_accepted(void)
{
	static const struct {
		double rate;
		double seconds;
		float time_scale, pivot_freq;
	} cases[] = {
	    {1000.0, 2.0, 100.0f, 400.0f}, /* most steps per frame */
	    {1000.0, 2.0, 1.0f, 0.0f},
	    {44100.0, 0.2, 1.0f, 0.0f},
	    {192000.0, 0.2, 1.0f, 0.0f},
	    {1536000.0, 0.25, 0.01f, 0.0f}, /* most frames per step: 300000 */
	    {1536000.0, 0.05, 100.0f, 900.0f},
	};
	for (int v = 0; v < PENDULA_N_SIGNAL_VARIANTS; v += 2)
		for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); ++c) {
			double worst = 0.0;
			const bool ok = run_at((pendula_variant)v, cases[c].rate,
			                       (int64_t)(cases[c].rate * cases[c].seconds),
			                       cases[c].time_scale, cases[c].pivot_freq, &worst);
			printf("\n    %s at %g Hz, time_scale %g: %s (largest angle or tip %.3f)",
			       pendula_variant_names[v], cases[c].rate, (double)cases[c].time_scale,
			       ok ? "ok" : "FAILED", worst);
			CHECK(ok, "%s at %g Hz: refused, or an output not finite or out of range",
			      pendula_variant_names[v], cases[c].rate);
		}
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_rates BUNDLE_DIR\n");
		return 2;
	}
	if (!lv2th_world_load("test_rates", argv[1], &world, plugins)) {
		lv2th_free_uris();
		return 1;
	}
	static CU_TestInfo tests[] = {
	    {"refused", test_refused},
	    {"accepted", test_accepted},
	    CU_TEST_INFO_NULL,
	};
	static CU_SuiteInfo suites[] = {
	    {"rates", NULL, NULL, NULL, NULL, tests},
	    CU_SUITE_INFO_NULL,
	};
	const int status = test_cunit_main("test_rates", suites);
	lilv_world_free(world);
	lv2th_free_uris();
	return status;
}
