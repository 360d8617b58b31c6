/* SPDX-License-Identifier: ISC */
/*
 * The preset library (presets/) through lilv, as jalv loads a preset:
 * lilv_plugin_get_related(pset:Preset) lists them from the bundle manifest,
 * lilv_world_load_resource() reads each file, lilv_state_new_from_world()
 * and lilv_state_restore() with a set-port-value callback set the ports.
 * Then each preset is rendered at 48 kHz and checked against the behaviour its
 * description claims; the thresholds are derived from the preset's own
 * parameters, as read back from the state:
 *
 *   library        >= 10 presets; label, one-line comment, appliesTo both
 *                  variants of one model; known symbols, values in range;
 *                  every preset has a check here and every check a preset
 *   gentle-sway    regular: energy below the least flip energy
 *                  min(m2 l2, (m1+m2) l1) / ((m1+m2) l1 + m2 l2), |theta| < pi,
 *                  and a 1e-4 degree change of theta1_init stays < 1e-3 rad
 *   edge-of-chaos  the same energy bound, yet the 1e-4 degree change grows
 *                  beyond 0.3 rad (chaos without flips)
 *   full-chaos     both arms flip (>= 3 times each in 60 s), diverges
 *   slow-envelope  energy never rises, falls by > 1000 in 20 s, and its tail
 *                  decays at the small-amplitude rate lambda1 / I_O1
 *   kapitza        within 0.5 rad of upright for 60 s; the parameters are above
 *                  Delta_y^2 Omega_y^2 > 2 g I_O1 / (m1 c1), and at 0.6 times the
 *                  threshold amplitude the rod falls
 *   parametric     Omega_y = 2 omega0 from the parameters; a 2 degree swing
 *                  grows >= 5x in 10 s, and does not when detuned by 30 %
 *   chaos-man-four 4 bodies, all four move over > 1.5 rad, flips happen
 *   tempo-drive    with time:Position, pivot_x_ctl follows the half-note phase
 *                  at 120 and then 100 bpm, and the motion settles into a
 *                  swing that repeats every half note
 *   oscillator     time_scale 100, most of tip_x's variance above 20 Hz,
 *                  arm 1 flips > 20 times per second
 *   windmill       turns one way only, at a rate below sigma1 / (2 pi lambda1)
 *                  and above 0.7 of it
 *   conical-orbit  its spin is the steady circle's, sqrt(g / (l cos alpha)); the
 *                  bob stays at alpha (y1 = -cos alpha) and x1 turns at spin_init
 *   chaotic-3d     leaves the plane (|z1| > 0.5), and a 1e-4 degree change of
 *                  theta1_init moves the tip by > 0.3 of the length within 60 s
 *   ellipsoid-ex.  the note's start point on the ellipsoid; energy constant, the
 *                  bead never above its start, back above the centre >= 5 times
 *   shaken-floor   with the wave, the energy over 20..30 s reaches 10 times
 *                  what drag alone leaves (run without the wave), which decays
 *                  at least as fast as exp(-lambda t / m) predicts (x 3)
 *   cv variants    the -cv variant of each preset's model gives bit-identical
 *                  outputs
 *   midi variants  the -midi variant (no signal port) and the -mod variant
 *                  send the same MIDI at the same frames, and the same
 *                  control outputs
 *   chaos-knob     energy within 2 % of 0.25 over 10..40 s despite damping,
 *                  below the flip level: no flips, swings
 *   flip-sequencer energy within 2 % of 1.2; more than 20 flips and 20 swings
 *                  in 30 s
 *   freeze-and-release  frozen: the outputs stand still; released: moves,
 *                  energy within 2 % of 0.9
 *   chain-knob, spherical-swings, bead-knob  energy within 2 % of the target;
 *                  the continuous outputs within -1..1, moving, no step above
 *                  0.01 between frames (spherical: more than 10 swings)
 *   memory-lanes   a moment stored, recalled 3 s later by its note in the
 *                  middle of a block: after the glide, an exact replay
 *   c-minor-pentatonic-flips  energy within 2 % of 1.2; more than 20 notes
 *                  in 30 s, every one in C minor pentatonic (C Eb F G Bb)
 *                  within 48..72, at least four pitches, each note-off
 *                  after its note-on, none left after a freeze
 *   plucked-chain  at rest (every angle and the energy exactly 0) until a
 *                  note-on; at its frame the energy pluck_energy within 5 %;
 *                  more than half of it 1 s later, less than half of that
 *                  30 s later; without notes at rest for 10 s
 *   kick-shaken    a synthetic kick loop (120 BPM) in the drive: the energy
 *                  moves by more than 0.1 and stays below 1 over 10..40 s;
 *                  without a drive the knob holds it within 2 % of 0.3
 *   slow-envelope tail  no subnormal or negative output up to 215 s
 *   run-time start every preset loaded into a running instance starts with
 *                  the frames of a fresh instance with it (freeze: its pose)
 *   at run time    every claim again, with the preset restored through lilv
 *                  into an instance that has been running for 1.3 s (as
 *                  Ardour loads a preset): a change of theta*_init restarts
 *                  the motion from the preset's own start
 *
 * The claims are kept by model (test_presets_double.c, _chain.c, _3d.c,
 * _knob.c: the chaos knob's presets), the library's host and a run's
 * statistics in presets_host.c; this file lists the claims and runs them.
 *
 * usage: test_presets BUNDLE_DIR
 */
#include "cunit_main.h"
#include "presets.h"

static const claim claims[] = {
    {"chaos-knob", PENDULA_MODEL_DOUBLE, check_chaos_knob},
    {"flip-sequencer", PENDULA_MODEL_DOUBLE, check_flip_sequencer},
    {"freeze-and-release", PENDULA_MODEL_PARALLEL, check_freeze_and_release},
    {"chain-knob", PENDULA_MODEL_CHAIN, check_chain_knob},
    {"spherical-swings", PENDULA_MODEL_SPHERICAL, check_spherical_swings},
    {"bead-knob", PENDULA_MODEL_BEAD, check_bead_knob},
    {"memory-lanes", PENDULA_MODEL_DOUBLE, check_memory_lanes},
    {"c-minor-pentatonic-flips", PENDULA_MODEL_DOUBLE, check_c_minor_pentatonic_flips},
    {"kick-shaken", PENDULA_MODEL_DOUBLE, check_kick_shaken},
    {"gentle-sway", PENDULA_MODEL_DOUBLE, check_gentle_sway},
    {"edge-of-chaos", PENDULA_MODEL_DOUBLE, check_edge_of_chaos},
    {"full-chaos", PENDULA_MODEL_DOUBLE, check_full_chaos},
    {"slow-envelope", PENDULA_MODEL_PARALLEL, check_slow_envelope},
    {"kapitza-upright", PENDULA_MODEL_PARALLEL, check_kapitza},
    {"parametric-swell", PENDULA_MODEL_PARALLEL, check_parametric},
    {"chaos-man-four", PENDULA_MODEL_PARALLEL, check_chaos_man_four},
    {"tempo-drive", PENDULA_MODEL_DOUBLE, check_tempo_drive},
    {"chaotic-oscillator", PENDULA_MODEL_DOUBLE, check_oscillator},
    {"windmill-ramp", PENDULA_MODEL_PARALLEL, check_windmill},
    {"triple-rod-chaos", PENDULA_MODEL_CHAIN, check_triple_rod_chaos},
    {"six-bob-whip", PENDULA_MODEL_CHAIN, check_six_bob_whip},
    {"chain-envelope", PENDULA_MODEL_CHAIN, check_chain_envelope},
    {"balanced-chain", PENDULA_MODEL_CHAIN, check_balanced_chain},
    {"plucked-chain", PENDULA_MODEL_CHAIN, check_plucked_chain},
    {"conical-orbit", PENDULA_MODEL_SPHERICAL, check_conical_orbit},
    {"chaotic-3d-double", PENDULA_MODEL_SPHERICAL, check_chaotic_3d_double},
    {"ellipsoid-example", PENDULA_MODEL_BEAD, check_ellipsoid_example},
    {"shaken-floor", PENDULA_MODEL_BEAD, check_shaken_floor},
};
#define N_CLAIMS (sizeof claims / sizeof claims[0])

/* ---------------------------------------------------------------------- */
/* Library-wide checks                                                     */

static void test_library(void)
{
	printf("\n    %zu presets:", n_presets);
	CHECK(n_presets >= 14, "only %zu presets", n_presets);
	for (size_t i = 0; i < n_presets; ++i) {
		const preset_info *p = &presets[i];
		printf("\n      %-20s %s", p->slug, p->label);
		CHECK(p->label[0] != '\0', "%s: no rdfs:label", p->slug);
		CHECK(p->comment[0] != '\0', "%s: no rdfs:comment", p->slug);
		CHECK(!strchr(p->comment, '\n') && strlen(p->comment) < 200,
		      "%s: the description is not one line", p->slug);
		int models = 0, model = -1;
		for (int m = 0; m < PENDULA_N_MODELS; ++m)
			if (p->applies[pendula_variant_of((pendula_model)m, PENDULA_KIND_AUDIO)] &&
			    p->applies[pendula_variant_of((pendula_model)m, PENDULA_KIND_CV)]) {
				++models;
				model = m;
			}
		CHECK(models == 1, "%s: should apply to both signal plugins of one model", p->slug);
		/* and to the -midi plugin unless it is made for the drive input,
		 * which -midi lacks (docs/PORTS.md) */
		if (models == 1) {
			restore_ctx ctx;
			DawHost *h = host_with_preset((pendula_variant)(2 * model), p, &ctx);
			const bool driven = h->control[P_DRIVE_GAIN] != 0.0f;
			daw_host_free(h);
			CHECK(p->applies[pendula_variant_of((pendula_model)model,
			                                    PENDULA_KIND_MIDI)] == !driven,
			      "%s: drive_gain %s, yet it %s to -midi", p->slug, driven ? "on" : "0",
			      driven ? "applies" : "does not apply");
			/* the -mod plugin has every port a preset sets, the drive too */
			CHECK(
			    p->applies[pendula_variant_of((pendula_model)model, PENDULA_KIND_MOD)],
			    "%s does not apply to -mod", p->slug);
		}
		bool has_claim = false;
		for (size_t c = 0; c < N_CLAIMS; ++c)
			if (!strcmp(claims[c].slug, p->slug)) {
				has_claim = true;
				CHECK((int)claims[c].model == model,
				      "%s: applies to the wrong model", p->slug);
			}
		CHECK(has_claim, "%s: no check of its claim in test_presets.c", p->slug);

		/* every variant it applies to: loads, known ports, in range */
		for (int v = 0; v < PENDULA_N_VARIANTS; ++v) {
			if (!p->applies[v])
				continue;
			restore_ctx ctx;
			DawHost *h = host_with_preset((pendula_variant)v, p, &ctx);
			CHECK(ctx.n_values >= 10 && !ctx.unknown && !ctx.out_of_range &&
			          !ctx.bad_type,
			      "%s on %s: %u values, %u unknown, %u out of range, %u bad type (%s)",
			      p->slug, pendula_variant_names[v], ctx.n_values, ctx.unknown,
			      ctx.out_of_range, ctx.bad_type, ctx.first_problem);
			daw_host_free(h);
		}
	}
	for (size_t c = 0; c < N_CLAIMS; ++c)
		CHECK(find_preset(claims[c].slug) != NULL, "preset %s missing from the bundle",
		      claims[c].slug);
}

/* The -cv variant gives the same signals as the audio variant. */
static void test_cv_variants(void)
{
	for (size_t i = 0; i < n_presets; ++i) {
		const preset_info *p = &presets[i];
		int va = -1;
		for (int v = 0; v < PENDULA_N_SIGNAL_VARIANTS && va < 0; v += 2)
			if (p->applies[v])
				va = v;
		if (va < 0 || !p->applies[va + 1])
			continue;
		const pendula_variant vc = (pendula_variant)(va + 1);
		restore_ctx ca, cc;
		DawHost *a = host_with_preset((pendula_variant)va, p, &ca);
		DawHost *c = host_with_preset(vc, p, &cc);
		a->recording = c->recording = true;
		daw_activate(a);
		daw_activate(c);
		daw_render(a, (int64_t)RATE, BLOCK, NULL);
		daw_render(c, (int64_t)RATE, BLOCK, NULL);
		bool same = true, finite = true;
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
			if (!a->rec[id] || !c->rec[id])
				continue;
			if (memcmp(a->rec[id], c->rec[id], a->rec_n * sizeof(float)))
				same = false;
			for (size_t f = 0; f < a->rec_n; ++f)
				if (!isfinite(a->rec[id][f]))
					finite = false;
		}
		CHECK(same, "%s: %s and %s differ", p->slug,
		      pendula_variant_names[(pendula_variant)va], pendula_variant_names[vc]);
		CHECK(finite, "%s: non-finite output", p->slug);
		daw_host_free(a);
		daw_host_free(c);
	}
}

/* Whether two hosts sent the same MIDI at the same frames. */
static bool same_midi(const DawHost *a, const DawHost *b)
{
	if (a->n_midi != b->n_midi)
		return false;
	for (size_t i = 0; i < a->n_midi; ++i)
		if (a->midi[i].frame != b->midi[i].frame || a->midi[i].size != b->midi[i].size ||
		    memcmp(a->midi[i].bytes, b->midi[i].bytes, sizeof a->midi[i].bytes))
			return false;
	return true;
}

/* The -midi variant, which has no signal port, sends the audio variant's
 * MIDI (control changes and notes) at the same frames and shows the same
 * control outputs after every block (docs/PORTS.md): the same motion, only
 * without the signals; so does the -mod variant, whose signals are MOD CV
 * outputs (test_host_mod.c compares those). */
static void test_midi_variants(void)
{
	size_t compared = 0, compared_mod = 0, messages = 0;
	for (size_t i = 0; i < n_presets; ++i) {
		const preset_info *p = &presets[i];
		for (int mk = 0; mk < 2 * PENDULA_N_MODELS; ++mk) {
			const int m = mk % PENDULA_N_MODELS;
			const bool mod = mk >= PENDULA_N_MODELS;
			const pendula_variant va =
			    pendula_variant_of((pendula_model)m, PENDULA_KIND_AUDIO);
			const pendula_variant vm = pendula_variant_of(
			    (pendula_model)m, mod ? PENDULA_KIND_MOD : PENDULA_KIND_MIDI);
			if (!p->applies[va] || !p->applies[vm])
				continue;
			restore_ctx ca, cm;
			DawHost *a = host_with_preset(va, p, &ca);
			DawHost *d = host_with_preset(vm, p, &cm);
			a->recording = d->recording = a->record_midi = d->record_midi = true;
			daw_activate(a);
			daw_activate(d);
			uint32_t seed = 7;
			daw_render(a, (int64_t)RATE, BLOCK, NULL);
			daw_render(d, (int64_t)RATE, 0, &seed); /* (random blocks) */
			bool same_ctl = a->n_blocks > 0;
			for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
				if (pendula_ports[id].kind != PK_CONTROL_OUT ||
				    id == P_CTL_TIME_RATIO || !a->has[id])
					continue;
				CHECK(d->has[id], "%s: %s lacks %s", p->slug,
				      pendula_variant_names[vm], pendula_ports[id].symbol);
				/* the last block's values (the block sizes differ) */
				if (d->has[id] &&
				    a->ctl[id][a->n_blocks - 1] != d->ctl[id][d->n_blocks - 1])
					same_ctl = false;
			}
			CHECK(same_ctl, "%s: the control outputs of %s and %s differ", p->slug,
			      pendula_variant_names[va], pendula_variant_names[vm]);
			CHECK(same_midi(a, d),
			      "%s: %s sent %zu MIDI messages, %s %zu, or other ones", p->slug,
			      pendula_variant_names[va], a->n_midi, pendula_variant_names[vm],
			      d->n_midi);
			for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
				CHECK(!d->has[id] ||
				          (pendula_ports[id].kind != PK_SIGNAL_OUT &&
				           (mod || pendula_ports[id].kind != PK_SIGNAL_IN)),
				      "%s has the signal port %s", pendula_variant_names[vm],
				      pendula_ports[id].symbol);
			if (mod) {
				++compared_mod;
			} else {
				++compared;
				messages += a->n_midi;
			}
			daw_host_free(a);
			daw_host_free(d);
		}
	}
	printf("\n    %zu presets, %zu MIDI messages alike (and %zu presets on -mod)", compared,
	       messages, compared_mod);
	CHECK(compared + 1 >= n_presets, "%zu of %zu presets compared on -midi", compared,
	      n_presets); /* (kick-shaken, made for the drive input, is not for -midi) */
	CHECK(compared_mod == n_presets, "%zu of %zu presets compared on -mod", compared_mod,
	      n_presets);
	/* (a frozen preset sends nothing; the others send their CCs) */
	CHECK(messages > 100 * compared, "only %zu MIDI messages", messages);
}

/* The first frames of variant v with preset p loaded at run time (after a
 * motion from other initial angles, or from the defaults) against a fresh
 * instance that loaded it before activate(): the signal outputs frame by
 * frame and the control outputs after the last block.  Block sizes differ
 * between the two: the outputs do not depend on them (docs/ARCHITECTURE.md).
 * Returns the symbol of the first output that differs, or NULL. */
static const char *run_time_difference(pendula_variant v, const preset_info *p, bool other_start)
{
	const int64_t frames = 4096;
	restore_ctx cf, cr;
	DawHost *fresh = host_with_preset(v, p, &cf);
	DawHost *late = host_running_with_preset_from(v, p, &cr, other_start);
	fresh->recording = late->recording = true;
	daw_activate(fresh);
	daw_render(fresh, frames, 256, NULL);
	daw_render(late, frames, 1000, NULL);
	const char *bad = NULL;
	for (int id = 0; id < PENDULA_N_PORT_IDS && !bad; ++id) {
		if (fresh->rec[id] && late->rec[id] &&
		    memcmp(fresh->rec[id], late->rec[id], (size_t)frames * sizeof(float)))
			bad = pendula_ports[id].symbol;
		if (fresh->has[id] && pendula_ports[id].kind == PK_CONTROL_OUT &&
		    id != P_CTL_TIME_RATIO && fresh->control[id] != late->control[id])
			bad = pendula_ports[id].symbol;
	}
	daw_host_free(fresh);
	daw_host_free(late);
	return bad;
}

/* Every preset loaded at run time, after a motion from other initial
 * angles, starts as in a fresh instance (a change of an initial angle
 * restarts the motion); a preset that loads frozen shows its own pose also
 * after the default motion, whose initial angles may be its own
 * (docs/GUIDE.md, "Freeze"). */
static void test_run_time_start(void)
{
	for (size_t i = 0; i < n_presets; ++i) {
		const preset_info *p = &presets[i];
		for (int v = 0; v < PENDULA_N_VARIANTS; ++v) {
			if (!p->applies[v])
				continue;
			const char *bad = run_time_difference((pendula_variant)v, p, true);
			CHECK(
			    !bad,
			    "%s on %s, loaded after another motion: %s differs from a fresh start",
			    p->slug, pendula_variant_names[v], bad);
			restore_ctx ctx;
			DawHost *probe = host_with_preset((pendula_variant)v, p, &ctx);
			const bool frozen = probe->control[P_FREEZE] >= 0.5f;
			daw_host_free(probe);
			if (!frozen)
				continue;
			printf("\n    %s on %s loads frozen", p->slug, pendula_variant_names[v]);
			bad = run_time_difference((pendula_variant)v, p, false);
			CHECK(!bad,
			      "%s on %s, loaded frozen after the default motion: %s is not its own "
			      "pose",
			      p->slug, pendula_variant_names[v], bad);
		}
	}
}

/* How one preset's velocity outputs use their range, body by body
 * (issue 37): the frames at which |omega{k}| > 0.99 and those at which
 * |omega{k}_level| > 0.99, the largest rate v = l / sqrt(1 - l^2) that
 * the level l shows, and the frames at which omega{k} is inside (-1, 1)
 * and the level is not v / sqrt(1 + v^2) of it (computed here). */
typedef struct {
	size_t old_pinned[PENDULA_MAX_BODIES], new_pinned[PENDULA_MAX_BODIES];
	double v_max;
	size_t level_wrong;
} omega_use;

static const pendula_port_id omega_out[PENDULA_MAX_BODIES] = {
    P_OUT_OMEGA1, P_OUT_OMEGA2, P_OUT_OMEGA3, P_OUT_OMEGA4, P_OUT_OMEGA5, P_OUT_OMEGA6};
static const pendula_port_id omega_level_out[PENDULA_MAX_BODIES] = {
    P_OUT_OMEGA1_LEVEL, P_OUT_OMEGA2_LEVEL, P_OUT_OMEGA3_LEVEL,
    P_OUT_OMEGA4_LEVEL, P_OUT_OMEGA5_LEVEL, P_OUT_OMEGA6_LEVEL};

static void omega_use_add(const DawHost *h, uint32_t n, omega_use *u)
{
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		if (!h->has[omega_out[k]])
			continue;
		const float *w = h->buf[omega_out[k]], *l = h->buf[omega_level_out[k]];
		for (uint32_t f = 0; f < n; ++f) {
			u->old_pinned[k] += fabsf(w[f]) > 0.99f;
			u->new_pinned[k] += fabsf(l[f]) > 0.99f;
			const double a = fabs((double)l[f]);
			u->v_max = fmax(u->v_max, a < 1.0 ? a / sqrt(1.0 - a * a) : INFINITY);
			const float want = (float)((double)w[f] / sqrt(1.0 + (double)w[f] * w[f]));
			u->level_wrong += fabsf(w[f]) < 1.0f && l[f] != want;
		}
	}
}

/* The fractions of frames pinned, old and new, printed per body; the level
 * pins at no more than 5 % of any body's frames. */
static void omega_use_check(const DawHost *h, const char *slug, const omega_use *u, size_t frames)
{
	if (!h->has[omega_out[0]])
		return;
	CHECK(u->level_wrong == 0,
	      "%s: omega_level is not v / sqrt(1 + v^2) of omega at %zu frames", slug,
	      u->level_wrong);
	printf("\n    %-20s |v| up to %.2f; frames beyond 0.99, omega/omega_level:", slug,
	       u->v_max);
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		if (!h->has[omega_out[k]])
			continue;
		const double old = (double)u->old_pinned[k] / (double)frames,
		             now = (double)u->new_pinned[k] / (double)frames;
		printf(" %.3f/%.3f", old, now);
		CHECK(now < 0.05, "%s: omega%d_level beyond 0.99 at %.1f %% of the frames", slug,
		      k + 1, 100.0 * now);
	}
}

/* Each preset's span of every output against its declared range, over 20 s
 * from its start (the audio variant): never outside the range (the edge
 * test, test_edge.c, checks the corners of the settings).  energy_level is
 * sqrt(E) / (1 + sqrt(E)) of the energy output E at every frame (computed
 * here), and every preset's motion reads at least a tenth of its range
 * there (for a level the value reached counts, not its span: a motion
 * without damping keeps its energy; a preset played by notes gets a note).  The part of the range
 * every other output spans is printed where it is below a tenth (issue 37).
 * The velocity levels: omega_use_add and omega_use_check. */
static void test_output_spans(void)
{
	for (size_t i = 0; i < n_presets; ++i) {
		const preset_info *p = &presets[i];
		int v = -1;
		for (int w = 0; w < PENDULA_N_SIGNAL_VARIANTS && v < 0; w += 2)
			if (p->applies[w])
				v = w;
		if (v < 0)
			continue;
		restore_ctx ctx;
		DawHost *h = host_with_preset((pendula_variant)v, p, &ctx);
		daw_activate(h);
		float lo[PENDULA_N_PORT_IDS], hi[PENDULA_N_PORT_IDS];
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
			lo[id] = INFINITY;
			hi[id] = -INFINITY;
		}
		size_t level_wrong = 0;
		omega_use use = {{0}, {0}, 0.0, 0};
		/* a preset played by notes (Plucked chain) gets one, at the start */
		if (h->has[P_PLUCK_ENERGY] && h->control[P_PLUCK_ENERGY] > 0.0f) {
			const uint8_t on[3] = {0x90, 60, 127};
			daw_in_midi(h, 0, on, 3);
		}
		int64_t frames = 0;
		for (; frames < (int64_t)(20.0 * RATE); frames += BLOCK) {
			daw_run(h, BLOCK);
			for (uint32_t f = 0; f < BLOCK; ++f) {
				const float e = h->buf[P_OUT_ENERGY][f], a = sqrtf(e);
				level_wrong += h->buf[P_OUT_ENERGY_LEVEL][f] != a / (1.0f + a);
			}
			omega_use_add(h, BLOCK, &use);
			for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
				if (!h->has[id])
					continue;
				const pendula_port_kind k = pendula_ports[id].kind;
				if (k == PK_SIGNAL_OUT)
					for (uint32_t f = 0; f < BLOCK; ++f) {
						lo[id] = fminf(lo[id], h->buf[id][f]);
						hi[id] = fmaxf(hi[id], h->buf[id][f]);
					}
				else if (k == PK_CONTROL_OUT) {
					lo[id] = fminf(lo[id], h->control[id]);
					hi[id] = fmaxf(hi[id], h->control[id]);
				}
			}
		}
		CHECK(level_wrong == 0,
		      "%s: energy_level is not sqrt(E) / (1 + sqrt(E)) at %zu frames", p->slug,
		      level_wrong);
		CHECK(hi[P_OUT_ENERGY_LEVEL] >= 0.1f && hi[P_CTL_ENERGY_LEVEL] >= 0.1f,
		      "%s: energy_level reaches only %g (control %g)", p->slug,
		      (double)hi[P_OUT_ENERGY_LEVEL], (double)hi[P_CTL_ENERGY_LEVEL]);
		omega_use_check(h, p->slug, &use, (size_t)frames);
		printf("\n    %-20s energy_level %.3f..%.3f; below a tenth:", p->slug,
		       (double)lo[P_OUT_ENERGY_LEVEL], (double)hi[P_OUT_ENERGY_LEVEL]);
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
			const pendula_port_kind k = pendula_ports[id].kind;
			if (!h->has[id] || (k != PK_SIGNAL_OUT && k != PK_CONTROL_OUT))
				continue;
			float min, max;
			pendula_port_range((pendula_variant)v, (pendula_port_id)id, &min, &max);
			CHECK(lo[id] >= min && hi[id] <= max, "%s: %s spans %g..%g, outside %g..%g",
			      p->slug, pendula_ports[id].symbol, (double)lo[id], (double)hi[id],
			      (double)min, (double)max);
			const double part = (hi[id] - lo[id]) / (double)(max - min);
			if (part < 0.1 && id != P_OUT_ENERGY_LEVEL && id != P_CTL_ENERGY_LEVEL)
				printf(" %s %.2g", pendula_ports[id].symbol, part);
		}
		daw_host_free(h);
	}
}

static int suite_at_run_time(void)
{
	at_run_time = true;
	return 0;
}

static CU_TestInfo library_tests[] = {
    {"library", test_library},
    {"cv_variants", test_cv_variants},
    {"midi_variants", test_midi_variants},
    {"run_time_start", test_run_time_start},
    {"output_spans", test_output_spans},
    CU_TEST_INFO_NULL,
};

/* one test per claim (and the slow-envelope tail), filled in by main(); the
 * last entry stays the end mark */
static CU_TestInfo claim_tests[N_CLAIMS + 2];
/* the same claims, each checked after the preset is loaded into an instance
 * that is already running (as a host does) */
static CU_TestInfo run_time_tests[N_CLAIMS + 1];

static CU_SuiteInfo suites[] = {
    {"library", NULL, NULL, NULL, NULL, library_tests},
    {"claims", NULL, NULL, NULL, NULL, claim_tests},
    {"claims at run time", suite_at_run_time, NULL, NULL, NULL, run_time_tests},
    CU_SUITE_INFO_NULL,
};

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_presets BUNDLE_DIR\n");
		return 2;
	}
	presets_map_urids();
	if (!daw_world_load(argv[1])) {
		daw_world_free();
		return 1;
	}
	collect_presets();

	for (size_t c = 0; c < N_CLAIMS; ++c)
		claim_tests[c] = (CU_TestInfo){claims[c].slug, claims[c].check};
	claim_tests[N_CLAIMS] = (CU_TestInfo){"slow-envelope tail", check_slow_envelope_tail};
	for (size_t c = 0; c < N_CLAIMS; ++c)
		run_time_tests[c] = (CU_TestInfo){claims[c].slug, claims[c].check};
	const int status = test_cunit_main("test_presets", suites);
	for (size_t i = 0; i < n_presets; ++i)
		lilv_node_free(presets[i].uri);
	daw_world_free();
	return status;
}
