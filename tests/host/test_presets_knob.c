/* SPDX-License-Identifier: ISC */
/*
 * The claims of the presets that use the chaos knob, the events, the
 * continuous outputs and freeze (presets.h; the list of what each checks
 * is test_presets.c's).
 */
#include "presets.h"

/* ---------------------------------------------------------------------- */
/* The chaos knob, events, continuous outputs, freeze                       */

typedef struct {
	double e_lo, e_hi;       /* energy from `from` on */
	long onsets[2];          /* flips, swings pulse onsets */
	double w_lo, w_hi, jump; /* the continuous outputs given: range, largest step */
	double theta_span;       /* theta1 or x1: max - min */
} knob_stats;

/* Runs h for `seconds`, the energy and pulses counted from second `from` on,
 * the continuous outputs `ids` throughout. */
static void run_knob(DawHost *h, double seconds, double from, const pendula_port_id *ids, int n_ids,
                     knob_stats *k)
{
	k->e_lo = k->w_lo = 1e30;
	k->e_hi = k->w_hi = -1e30;
	k->onsets[0] = k->onsets[1] = 0;
	k->jump = 0.0;
	double t_lo = 1e30, t_hi = -1e30;
	float prev[2] = {0, 0}, prev_w[8] = {0};
	const pendula_port_id motion = pendula_port_index(h->v, P_OUT_THETA1) >= 0 ? P_OUT_THETA1
	                               : pendula_port_index(h->v, P_OUT_X1) >= 0   ? P_OUT_X1
	                                                                           : P_OUT_X;
	const pendula_port_id pulse[2] = {P_OUT_FLIPS, P_OUT_SWINGS};
	for (int64_t f = 0; f < (int64_t)(seconds * RATE); f += BLOCK) {
		daw_run(h, BLOCK);
		for (uint32_t i = 0; i < BLOCK; ++i) {
			const bool counted = (double)(f + i) >= from * RATE;
			const double e = h->buf[P_OUT_ENERGY][i];
			if (counted) {
				k->e_lo = fmin(k->e_lo, e);
				k->e_hi = fmax(k->e_hi, e);
			}
			for (int j = 0; j < 2; ++j) {
				const float v = h->buf[pulse[j]][i];
				if (counted && v != 0.0f && v != prev[j])
					k->onsets[j]++;
				prev[j] = v;
			}
			for (int j = 0; j < n_ids && j < 8; ++j) {
				const float w = h->buf[ids[j]][i];
				k->w_lo = fmin(k->w_lo, w);
				k->w_hi = fmax(k->w_hi, w);
				if (f + i > 0)
					k->jump = fmax(k->jump, fabs(w - prev_w[j]));
				prev_w[j] = w;
			}
			t_lo = fmin(t_lo, h->buf[motion][i]);
			t_hi = fmax(t_hi, h->buf[motion][i]);
		}
	}
	k->theta_span = t_hi - t_lo;
}

static void check_energy_held(const char *slug, const DawHost *h, const knob_stats *k)
{
	const double target = h->control[P_ENERGY_TARGET];
	printf("\n    %s: energy %.4f..%.4f (target %.3f); flips %ld, swings %ld", slug, k->e_lo,
	       k->e_hi, target, k->onsets[0], k->onsets[1]);
	CHECK(k->e_lo >= 0.98 * target && k->e_hi <= 1.02 * target,
	      "%s: energy %.4f..%.4f, not within 2 %% of %.3f", slug, k->e_lo, k->e_hi, target);
}

void check_chaos_knob(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_DOUBLE, "chaos-knob");
	if (!h)
		return;
	knob_stats k;
	run_knob(h, 40.0, 10.0, NULL, 0, &k);
	check_energy_held("chaos-knob", h, &k);
	CHECK(h->control[P_LAMBDA1] > 0.0f, "the preset should be damped");
	CHECK(k.e_hi < double_flip_energy(h), "energy %.4f above the flip level %.4f", k.e_hi,
	      double_flip_energy(h));
	CHECK(k.onsets[0] == 0 && k.onsets[1] > 10, "%ld flips, %ld swings", k.onsets[0],
	      k.onsets[1]);
	daw_host_free(h);
}

void check_flip_sequencer(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_DOUBLE, "flip-sequencer");
	if (!h)
		return;
	knob_stats k;
	run_knob(h, 40.0, 10.0, NULL, 0, &k);
	check_energy_held("flip-sequencer", h, &k);
	CHECK(k.onsets[0] > 20 && k.onsets[1] > 20, "%ld flips, %ld swings in 30 s", k.onsets[0],
	      k.onsets[1]);
	CHECK(h->control[P_NOTE_FLIP] >= 0.0f && h->control[P_NOTE_SWING] >= 0.0f,
	      "the notes are off");
	daw_host_free(h);
}

void check_freeze_and_release(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_PARALLEL, "freeze-and-release");
	if (!h)
		return;
	knob_stats k;
	run_knob(h, 1.0, 0.0, NULL, 0, &k);
	printf("\n    frozen: theta1 moves by %g, energy %.4f..%.4f", k.theta_span, k.e_lo, k.e_hi);
	CHECK(k.theta_span == 0.0 && k.e_lo == k.e_hi, "the outputs move while frozen");
	daw_set(h, P_FREEZE, 0.0f);
	run_knob(h, 30.0, 10.0, NULL, 0, &k);
	check_energy_held("freeze-and-release (released)", h, &k);
	CHECK(k.theta_span > 0.2, "theta1 hardly moves after the release (%g)", k.theta_span);
	daw_host_free(h);
}

void check_chain_knob(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_CHAIN, "chain-knob");
	if (!h)
		return;
	const pendula_port_id ids[6] = {P_OUT_OMEGA1, P_OUT_OMEGA2, P_OUT_OMEGA3,
	                                P_OUT_X1P,    P_OUT_Y2,     P_OUT_X3};
	knob_stats k;
	run_knob(h, 30.0, 10.0, ids, 6, &k);
	check_energy_held("chain-knob", h, &k);
	printf("; omega, x, y outputs %.3f..%.3f, largest step %.2e", k.w_lo, k.w_hi, k.jump);
	CHECK(k.w_lo >= -1.0 && k.w_hi <= 1.0 && k.w_hi - k.w_lo > 0.5,
	      "continuous outputs %.3f..%.3f", k.w_lo, k.w_hi);
	CHECK(k.jump < 0.01, "a continuous output jumps by %g", k.jump);
	daw_host_free(h);
}

void check_spherical_swings(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_SPHERICAL, "spherical-swings");
	if (!h)
		return;
	const pendula_port_id ids[2] = {P_OUT_OMEGA1, P_OUT_OMEGA2};
	knob_stats k;
	run_knob(h, 30.0, 10.0, ids, 2, &k);
	check_energy_held("spherical-swings", h, &k);
	CHECK(k.onsets[1] > 10, "only %ld swings in 20 s", k.onsets[1]);
	CHECK(k.jump < 0.01 && k.w_hi - k.w_lo > 0.2, "omega %.3f..%.3f, step %g", k.w_lo, k.w_hi,
	      k.jump);
	daw_host_free(h);
}

void check_bead_knob(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_BEAD, "bead-knob");
	if (!h)
		return;
	const pendula_port_id ids[3] = {P_OUT_VX, P_OUT_VY, P_OUT_VZ};
	knob_stats k;
	run_knob(h, 30.0, 10.0, ids, 3, &k);
	check_energy_held("bead-knob", h, &k);
	CHECK(h->control[P_LAMBDA1] > 0.0f, "the preset should have drag");
	CHECK(k.w_lo >= -1.0 && k.w_hi <= 1.0 && k.w_hi - k.w_lo > 0.2 && k.jump < 0.01,
	      "velocity outputs %.3f..%.3f, step %g", k.w_lo, k.w_hi, k.jump);
	daw_host_free(h);
}

/* Notes in C minor pentatonic: the pitch classes C, Eb, F, G, Bb (0, 3, 5,
 * 7, 10 semitones above C), from the scale's definition. */
static bool c_minor_pentatonic(int note)
{
	const int pc = note % 12;
	return pc == 0 || pc == 3 || pc == 5 || pc == 7 || pc == 10;
}

void check_c_minor_pentatonic_flips(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_DOUBLE, "c-minor-pentatonic-flips");
	if (!h)
		return;
	h->record_midi = true;
	knob_stats k;
	run_knob(h, 40.0, 10.0, NULL, 0, &k);
	check_energy_held("c-minor-pentatonic-flips", h, &k);
	daw_set(h, P_FREEZE, 1.0f);
	daw_run(h, BLOCK);
	long ons = 0, outside = 0, unpaired = 0;
	bool sounding[128] = {false}, seen[128] = {false};
	for (size_t i = 0; i < h->n_midi; ++i) {
		const daw_midi *m = &h->midi[i];
		const int status = m->bytes[0] & 0xf0, note = m->bytes[1] & 127;
		if (m->size != 3 || (status != 0x90 && status != 0x80))
			continue;
		if (status == 0x80) {
			unpaired += !sounding[note];
			sounding[note] = false;
			continue;
		}
		unpaired += sounding[note];
		sounding[note] = seen[note] = true;
		++ons;
		outside += !c_minor_pentatonic(note) || note < 48 || note > 72;
	}
	int pitches = 0;
	for (int i = 0; i < 128; ++i) {
		pitches += seen[i];
		unpaired += sounding[i];
	}
	printf("; %ld notes, %d pitches, %ld outside C minor pentatonic 48..72", ons, pitches,
	       outside);
	CHECK(ons > 20 && pitches >= 4, "%ld notes, %d pitches", ons, pitches);
	CHECK(outside == 0, "%ld notes outside C minor pentatonic 48..72", outside);
	CHECK(unpaired == 0, "%ld note-ons or note-offs without their pair", unpaired);
	daw_host_free(h);
}

/* A kick drum at 120 BPM, peak 1: a sine gliding from 150 Hz down to 50 Hz
 * in about 30 ms, decaying with 0.15 s, every half second. */
static float synthetic_kick(int64_t n)
{
	const double t = fmod((double)n / RATE, 0.5);
	const double phase = 2.0 * DAW_PI * (50.0 * t + 100.0 * 0.03 * (1.0 - exp(-t / 0.03)));
	return (float)(sin(phase) * exp(-t / 0.15));
}

/* The energy's range from `from` seconds on, the kick loop in the drive
 * input or the drive unconnected. */
static void run_kicked(DawHost *h, double seconds, double from, bool kicked, double *e_lo,
                       double *e_hi, bool *finite)
{
	static float drive[BLOCK];
	const uint32_t index = (uint32_t)pendula_port_index(h->v, P_DRIVE);
	lilv_instance_connect_port(h->inst, index, kicked ? drive : NULL);
	*e_lo = 1e30;
	*e_hi = -1e30;
	*finite = true;
	for (int64_t f = 0; f < (int64_t)(seconds * RATE); f += BLOCK) {
		for (uint32_t i = 0; i < BLOCK; ++i)
			drive[i] = synthetic_kick(f + (int64_t)i);
		daw_run(h, BLOCK);
		for (uint32_t i = 0; i < BLOCK; ++i) {
			const double e = h->buf[P_OUT_ENERGY][i];
			*finite = *finite && isfinite(e);
			if ((double)(f + i) >= from * RATE) {
				*e_lo = fmin(*e_lo, e);
				*e_hi = fmax(*e_hi, e);
			}
		}
	}
}

void check_kick_shaken(void)
{
	double lo[2], hi[2];
	bool finite[2];
	for (int kicked = 0; kicked < 2; ++kicked) {
		DawHost *h = load_activated(PENDULA_VARIANT_DOUBLE, "kick-shaken");
		if (!h)
			return;
		CHECK(h->control[P_DRIVE_GAIN] > 0.0f && h->control[P_ENERGY_TARGET] > 0.0f,
		      "the preset should drive and hold the energy");
		run_kicked(h, 40.0, 10.0, kicked, &lo[kicked], &hi[kicked], &finite[kicked]);
		daw_host_free(h);
	}
	printf("\n    kick-shaken: energy %.4f..%.4f without a drive, %.4f..%.4f with a kick "
	       "loop",
	       lo[0], hi[0], lo[1], hi[1]);
	/* without a drive the knob holds 0.3; the kicks shake the energy by
	 * more than a third of that, and the knob keeps it below 1 (where
	 * both arms would tumble) */
	CHECK(lo[0] >= 0.98 * 0.3 && hi[0] <= 1.02 * 0.3, "undriven: energy %.4f..%.4f", lo[0],
	      hi[0]);
	CHECK(hi[1] - lo[1] > 0.1, "the kicks hardly move the energy (%.4f..%.4f)", lo[1], hi[1]);
	CHECK(finite[1] && hi[1] < 1.0, "driven: energy up to %.4f", hi[1]);
}
