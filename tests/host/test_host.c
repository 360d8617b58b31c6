/* SPDX-License-Identifier: ISC */
/*
 * A test host on lilv: loads pendula.lv2 from the build tree, checks its
 * description against the port table (contract/ports.h), then instantiates each
 * plugin at 44.1, 48 and 96 kHz and checks physics and host-facing behaviour
 * through the outputs only:
 *
 *   ports          TTL vs ports.h: indices, symbols, names, classes, ranges,
 *                  defaults, units, properties, scale points, atom ports
 *   mod_cv         MOD's rules (mod-ui's reader): every signal of a -mod
 *                  plugin a MOD CV output on one of MOD's ranges, its values
 *                  in range and on MOD's scale, none in the other plugins
 *                  (test_host_mod.c)
 *   first_frame    frame 0 shows the initial angles (degrees -> theta/pi)
 *   small_osc      normal-mode frequency from theta1 vs the linearised value
 *   energy         constant within 1e-5 relative when lambda = sigma = 0, no
 *                  forcing; non-increasing and falling with damping
 *   blocks         bit-identical outputs for fixed and random block sizes
 *                  (0-frame blocks too), direct buffers, late connection
 *   bad_input      NaN, +-inf, +-1e30 on every control: finite outputs,
 *                  bit-identical to the clamped value / the default
 *   reset          a rising edge reproduces the run after activate() exactly
 *   null_outputs   signal outputs unconnected (NULL): control outputs the same
 *   controls_out   control outputs = last frame of each signal; pivot in m;
 *                  bodies beyond N output 0
 *   midi           incoming MIDI comes out unchanged, in order, same frames
 *   midi_wiring    every output sent as CC: the MIDI output is the same event
 *                  for event with separate signal buffers, one buffer shared
 *                  by every signal output, and (CV) NULL signal outputs
 *
 * The tests are kept by concern: ports in test_host_ports.c; first frame,
 * small oscillations and energy in test_host_physics.c; blocks, bad input,
 * freeze, whole numbers, bodies and reset in test_host_controls.c; NULL and
 * control outputs and the time ratio in test_host_outputs.c; MIDI, events
 * and notes in test_host_midi.c; plucks in test_host_pluck.c; the host's
 * plumbing in host_fixture.c.  This file runs them, a suite per plugin and
 * rate.
 *
 * usage: test_host BUNDLE_DIR [--plugin double|double-cv|parallel|parallel-cv]
 *                             [--rate HZ] [--quick]
 * --quick (for valgrind): 48 kHz only, shorter runs, no
 * small_oscillation / energy_is_physical (long runs, no new code path).
 */
#include "cunit_main.h"
#include "host_fixture.h"

/* ---------------------------------------------------------------------- */
/* Suites                                                                  */

static const double all_rates[] = {44100.0, 48000.0, 96000.0};

typedef struct {
	pendula_variant v;
	double rate;
	char name[64];
} suite_info;

static suite_info suites[PENDULA_N_VARIANTS * 4];
static size_t n_suites;
static size_t next_suite;

/* CUnit suite init functions take no argument: suites are registered and
 * run in order, so each init takes the next entry. */
static int suite_init(void)
{
	const suite_info *s = &suites[next_suite++];
	cur_variant = s->v;
	cur_rate = s->rate;
	return 0;
}

static CU_TestInfo ttl_tests[] = {
    {"ports", test_ports},
    {"mod_cv", test_mod_cv},
    CU_TEST_INFO_NULL,
};

static CU_TestInfo rate_tests[] = {
    {"first_frame", test_first_frame},
    {"small_oscillation", test_small_oscillation},
    {"energy_is_physical", test_energy_is_physical},
    {"energy_conserved", test_energy_conserved},
    {"energy_damped", test_energy_damped},
    {"block_sizes", test_block_sizes},
    {"reset", test_reset},
    {"freeze", test_freeze},
    {"events", test_events},
    {"notes_channel_change", test_notes_channel_change},
    {"notes_small_output", test_notes_small_output},
    {"whole_numbers", test_whole_numbers},
    {"bodies_change", test_bodies_change},
    {"null_outputs", test_null_outputs},
    {"control_outputs", test_control_outputs},
    {"time_ratio", test_time_ratio},
    {"midi_through", test_midi_through},
    {"midi_wiring", test_midi_wiring},
    {"pluck_energy", test_pluck_energy},
    {"pluck_not", test_pluck_not},
    {"pluck_blocks", test_pluck_blocks},
    {"pluck_hard", test_pluck_hard},
    {"bad_input", test_bad_input},
    CU_TEST_INFO_NULL,
};

/* --quick: rate_tests without the long runs that add no code path for
 * valgrind to check (filled in by main()). */
static CU_TestInfo quick_rate_tests[sizeof rate_tests / sizeof rate_tests[0]];

static bool is_long_run(CU_TestFunc test)
{
	return test == test_small_oscillation || test == test_energy_is_physical;
}

/* The CUnit table of suites[], in the same order, and its end mark. */
static CU_SuiteInfo cu_suites[PENDULA_N_VARIANTS * 4 + 1];

static void add_suite(const suite_info *s, CU_TestInfo *tests)
{
	cu_suites[s - suites] = (CU_SuiteInfo){s->name, suite_init, NULL, NULL, NULL, tests};
}

static int usage(const char *msg)
{
	fprintf(stderr,
	        "test_host: %s\nusage: test_host BUNDLE_DIR [--plugin NAME] [--rate HZ] "
	        "[--quick] [--ttl-only]\n",
	        msg);
	return 2;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; ++i) {
		if (!strcmp(argv[i], "--quick")) {
			opt.quick = true;
		} else if (!strcmp(argv[i], "--ttl-only")) {
			opt.ttl_only = true;
		} else if (!strcmp(argv[i], "--plugin") && i + 1 < argc) {
			const char *name = argv[++i];
			opt.variant = -2;
			for (int v = 0; v < PENDULA_N_VARIANTS; ++v)
				if (!strcmp(name, pendula_variant_names[v]))
					opt.variant = v;
			if (opt.variant == -2)
				return usage("--plugin: unknown plugin name");
		} else if (!strcmp(argv[i], "--rate") && i + 1 < argc) {
			char *end;
			opt.rate = strtod(argv[++i], &end);
			if (*end || !(opt.rate >= 1000.0 && opt.rate <= 768000.0))
				return usage("--rate: not a sample rate in 1000..768000");
		} else if (argv[i][0] != '-' && !opt.bundle) {
			opt.bundle = argv[i];
		} else {
			return usage("bad argument");
		}
	}
	if (!opt.bundle)
		return usage("missing BUNDLE_DIR");

	urid_sequence = lv2th_map_uri(NULL, LV2_ATOM__Sequence);
	urid_midi = lv2th_map_uri(NULL, LV2_MIDI__MidiEvent);

	/* Load our bundle only, by its path: the test does not depend on what
	 * is installed. */
	if (!lv2th_world_load("test_host", opt.bundle, &world, plugins)) {
		lv2th_free_uris();
		return 1;
	}

	size_t n_quick = 0;
	for (const CU_TestInfo *t = rate_tests; t->pName; ++t)
		if (!is_long_run(t->pTestFunc))
			quick_rate_tests[n_quick++] = *t;
	for (int v = 0; v < PENDULA_N_VARIANTS; ++v) {
		if (opt.variant >= 0 && opt.variant != v)
			continue;
		suite_info *s = &suites[n_suites++];
		s->v = (pendula_variant)v;
		s->rate = 48000.0;
		snprintf(s->name, sizeof s->name, "%s ttl", pendula_variant_names[v]);
		add_suite(s, ttl_tests);
		/* (the physics suites read the signal outputs, which -midi lacks;
		 * its motion is checked against the audio plugin's in test_presets) */
		for (size_t r = 0; !opt.ttl_only && r < sizeof all_rates / sizeof all_rates[0];
		     ++r) {
			const double rate = opt.rate > 0.0 ? opt.rate : all_rates[r];
			if (opt.rate > 0.0 && r > 0)
				break;
			if (opt.quick && opt.rate <= 0.0 && rate != 48000.0)
				continue;
			s = &suites[n_suites++];
			s->v = (pendula_variant)v;
			s->rate = rate;
			snprintf(s->name, sizeof s->name, "%s @%g Hz", pendula_variant_names[v],
			         rate);
			add_suite(s, opt.quick ? quick_rate_tests : rate_tests);
		}
	}
	const int status = test_cunit_main("test_host", cu_suites);
	lilv_world_free(world);
	lv2th_free_uris();
	return status;
}
