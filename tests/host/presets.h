/* SPDX-License-Identifier: ISC */
/*
 * What the files of test_presets share: the preset library and its host
 * (presets_host.c), the statistics of a run, and the claims, one function
 * per preset (test_presets_double.c, _chain.c, _3d.c, _knob.c), which
 * test_presets.c lists and runs.
 */
#ifndef PENDULA_TEST_PRESETS_H
#define PENDULA_TEST_PRESETS_H

#include "daw_host.h"

#include <lv2/presets/presets.h>

#define RATE      48000.0
#define BLOCK     1024u
#define G_DEFAULT 9.81

/* ---------------------------------------------------------------------- */
/* The library (presets_host.c)                                            */

#define MAX_PRESETS 64

typedef struct {
	LilvNode *uri;
	char slug[128];
	char label[256];
	char comment[512];
	bool applies[PENDULA_N_VARIANTS];
} preset_info;

extern preset_info presets[MAX_PRESETS];
extern size_t n_presets;

void presets_map_urids(void);
void collect_presets(void);
const preset_info *find_preset(const char *slug);

/* ---------------------------------------------------------------------- */
/* Loading a preset into a host (presets_host.c)                           */

typedef struct {
	DawHost *h;
	unsigned n_values, unknown, out_of_range, bad_type;
	char first_problem[200];
	unsigned char set[PENDULA_N_PORT_IDS]; /* the ports the preset sets */
} restore_ctx;

/* Suite "claims at run time": each preset is loaded into an instance that
 * has been running for a while (as Ardour or Carla load a preset), instead
 * of before activate(). */
extern bool at_run_time;

/* A host of variant v with the preset restored (not yet activated). */
DawHost *host_with_preset(pendula_variant v, const preset_info *p, restore_ctx *ctx);
/* The preset restored through lilv into an instance of variant v that has
 * run 1.3 s from other initial angles (other_start) or from the defaults,
 * as a host loads a preset; its frame counter starts again at 0. */
DawHost *host_running_with_preset_from(pendula_variant v, const preset_info *p, restore_ctx *ctx,
                                       bool other_start);
DawHost *host_running_with_preset(pendula_variant v, const preset_info *p, restore_ctx *ctx);
/* The preset into a host of variant v (NULL if it did not load), not yet
 * activated: start() does, load_activated() both. */
DawHost *load(pendula_variant v, const char *slug);
DawHost *load_activated(pendula_variant v, const char *slug);
/* The claims' hosts are activated through start(): at run time they are. */
void start(DawHost *h);

/* ---------------------------------------------------------------------- */
/* Streaming statistics of a run (presets_host.c)                          */

typedef struct {
	int64_t frames;
	int n_theta;
	double min[6], max[6]; /* theta outputs, units of pi */
	int flips[6];          /* wrap jumps (|step| > 1 unit) */
	int flips_up[6];       /* +1 -> -1: positive rotation */
	float prev[6];
	double dev_upright[6]; /* max |wrap(pi theta_k - pi)|, rad */
	double e_first, e_min, e_max, e_last;
	double max_dev_upright; /* max |wrap(pi theta1 - pi)|, rad */
	bool finite;
} run_stats;

extern const pendula_port_id theta_port[6];

/* Runs h for `seconds`, statistics from `from` seconds on. */
void render_stats(DawHost *h, double seconds, double from, run_stats *s);
/* The least energy at which an arm of the double pendulum flips. */
double double_flip_energy(const DawHost *h);
/* I_O1 of body 1 (parallel model). */
double inertia_o1(const DawHost *h);
/* Two hosts: the preset, and the preset with theta1_init moved by 1e-4 deg. */
double preset_divergence_on(pendula_variant v, const char *slug, double seconds);

/* ---------------------------------------------------------------------- */
/* The claims, one per preset (and the slow envelope's tail)               */

typedef struct {
	const char *slug;
	pendula_model model; /* the model whose two plugins the preset is for */
	void (*check)(void);
} claim;

/* test_presets_double.c */
void check_gentle_sway(void);
void check_edge_of_chaos(void);
void check_full_chaos(void);
void check_slow_envelope(void);
void check_slow_envelope_tail(void);
void check_kapitza(void);
void check_parametric(void);
void check_chaos_man_four(void);
void check_tempo_drive(void);
void check_oscillator(void);
void check_windmill(void);

/* test_presets_chain.c */
void check_triple_rod_chaos(void);
void check_six_bob_whip(void);
void check_chain_envelope(void);
void check_balanced_chain(void);
void check_plucked_chain(void);

/* test_presets_3d.c */
void check_conical_orbit(void);
void check_chaotic_3d_double(void);
void check_ellipsoid_example(void);
void check_shaken_floor(void);

/* test_presets_knob.c */
void check_chaos_knob(void);
void check_flip_sequencer(void);
void check_freeze_and_release(void);
void check_chain_knob(void);
void check_spherical_swings(void);
void check_bead_knob(void);
void check_c_minor_pentatonic_flips(void);

/* test_presets_live.c */
void check_memory_lanes(void);
void check_kick_shaken(void);

#endif
