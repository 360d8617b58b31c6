/* SPDX-License-Identifier: ISC */
/*
 * The claims of the double pendulum's and the Chaos Man's presets
 * (presets.h; the list of what each checks is test_presets.c's).
 */
#include "presets.h"

static double preset_divergence(const char *slug, double seconds)
{
	return preset_divergence_on(PENDULA_VARIANT_DOUBLE, slug, seconds);
}

/* The preset on the double pendulum run for `seconds`: its statistics and
 * its flip energy; false if it did not load. */
static bool run_double_preset(const char *slug, double seconds, double *flip, run_stats *s)
{
	DawHost *h = load_activated(PENDULA_VARIANT_DOUBLE, slug);
	if (!h)
		return false;
	*flip = double_flip_energy(h);
	render_stats(h, seconds, 0.0, s);
	daw_host_free(h);
	return true;
}

void check_gentle_sway(void)
{
	double flip;
	run_stats s;
	if (!run_double_preset("gentle-sway", 120.0, &flip, &s))
		return;
	printf("\n    flip energy %.4f; energy %.4f..%.4f; |theta| max %.3f / %.3f pi; flips %d/%d",
	       flip, s.e_min, s.e_max, fmax(-s.min[0], s.max[0]), fmax(-s.min[1], s.max[1]),
	       s.flips[0], s.flips[1]);
	CHECK(s.finite, "non-finite output");
	CHECK(s.e_max < flip, "energy %.4f reaches the flip energy %.4f", s.e_max, flip);
	CHECK(s.flips[0] == 0 && s.flips[1] == 0, "an arm flipped (%d, %d)", s.flips[0],
	      s.flips[1]);
	for (int k = 0; k < 2; ++k)
		CHECK(s.max[k] < 0.9 && s.min[k] > -0.9, "|theta%d| reached %.3f pi", k + 1,
		      fmax(-s.min[k], s.max[k]));
	const double d = preset_divergence("gentle-sway", 90.0);
	printf("; 1e-4 deg apart -> %.3g rad after 90 s", d);
	CHECK(d >= 0.0 && d < 1e-3, "regular motion diverged to %.3g rad", d);
}

void check_edge_of_chaos(void)
{
	double flip;
	run_stats s;
	if (!run_double_preset("edge-of-chaos", 120.0, &flip, &s))
		return;
	printf("\n    flip energy %.4f; energy %.4f..%.4f; flips %d/%d", flip, s.e_min, s.e_max,
	       s.flips[0], s.flips[1]);
	CHECK(s.finite, "non-finite output");
	CHECK(s.e_max < flip, "energy %.4f reaches the flip energy %.4f", s.e_max, flip);
	CHECK(s.e_max > 0.8 * flip, "energy %.4f is not near the flip energy %.4f", s.e_max, flip);
	CHECK(s.flips[0] == 0 && s.flips[1] == 0, "an arm flipped (%d, %d)", s.flips[0],
	      s.flips[1]);
	const double d = preset_divergence("edge-of-chaos", 90.0);
	printf("; 1e-4 deg apart -> %.3g rad within 90 s", d);
	CHECK(d > 0.3, "no sensitive dependence: 1e-4 deg grew only to %.3g rad", d);
}

void check_full_chaos(void)
{
	double flip;
	run_stats s;
	if (!run_double_preset("full-chaos", 60.0, &flip, &s))
		return;
	printf("\n    flip energy %.4f; energy %.4f; flips in 60 s: %d / %d", flip, s.e_first,
	       s.flips[0], s.flips[1]);
	CHECK(s.finite, "non-finite output");
	CHECK(s.e_first > flip, "energy %.4f below the flip energy %.4f", s.e_first, flip);
	CHECK(s.flips[0] >= 3 && s.flips[1] >= 3, "too few flips: %d, %d", s.flips[0], s.flips[1]);
	const double d = preset_divergence("full-chaos", 30.0);
	printf("; 1e-4 deg apart -> %.3g rad within 30 s", d);
	CHECK(d > 1.0, "1e-4 deg grew only to %.3g rad", d);
}

void check_slow_envelope(void)
{
	DawHost *h = load(PENDULA_VARIANT_PARALLEL, "slow-envelope");
	if (!h)
		return;
	h->record_midi = true;
	start(h);
	const double rate = h->control[P_LAMBDA1] / inertia_o1(h); /* 1/s, small amplitude */
	CHECK(h->control[P_N_BODIES] == 1 && h->control[P_PIVOT_X_AMP] == 0 &&
	          h->control[P_PIVOT_Y_AMP] == 0 && h->control[P_SIGMA1] == 0,
	      "not a free damped single body");
	double e_at[21] = {0};
	double e0 = -1, running_min = 1e30, worst_rise = 0.0;
	for (int64_t f = 0; f < (int64_t)(20 * RATE) + 1;) {
		daw_run(h, BLOCK);
		for (uint32_t i = 0; i < BLOCK; ++i, ++f) {
			const double e = h->buf[P_OUT_ENERGY][i];
			if (f == 0)
				e0 = e;
			if (f % (int64_t)RATE == 0 && f / (int64_t)RATE <= 20)
				e_at[f / (int64_t)RATE] = e;
			if (e - running_min > worst_rise)
				worst_rise = e - running_min;
			if (e < running_min)
				running_min = e;
		}
	}
	const double tail = e_at[19] / e_at[14], tail_pred = exp(-5.0 * rate);
	printf("\n    lambda1 / I_O1 = %.4f/s; E(0) %.4f, E(10 s) %.4g, E(20 s) %.4g; "
	       "E(19)/E(14) %.4f (predicted %.4f); largest rise %.2g",
	       rate, e0, e_at[10], e_at[20], tail, tail_pred, worst_rise);
	CHECK(worst_rise <= 1e-5 * e0, "energy rose by %.3g (damping only: dE/dt <= 0)",
	      worst_rise);
	CHECK(e_at[20] < e0 / 1000.0, "energy fell only by %.3g in 20 s", e0 / e_at[20]);
	CHECK(e_at[10] > e0 / 1000.0, "energy gone within 10 s: not a slow envelope");
	CHECK(tail > 0.6 * tail_pred && tail < 1.5 * tail_pred,
	      "tail decay %.4f per 5 s, small-amplitude theory %.4f", tail, tail_pred);
	/* the description says: sent on CC 1 */
	size_t cc1 = 0, cc_other = 0;
	int last = 128;
	bool falling = true;
	for (size_t i = 0; i < h->n_midi; ++i) {
		const daw_midi *m = &h->midi[i];
		if ((m->bytes[0] & 0xF0) != 0xB0)
			continue;
		if (m->bytes[1] == 1) {
			++cc1;
			if (m->bytes[2] > last)
				falling = false;
			last = m->bytes[2];
		} else {
			++cc_other;
		}
	}
	printf("; CC1 messages %zu, others %zu", cc1, cc_other);
	CHECK(cc1 > 20 && falling, "energy not sent as a falling CC 1 (%zu messages)", cc1);
	CHECK(cc_other <= 1, "%zu other control changes (theta2 beyond N may send once)", cc_other);
	daw_host_free(h);
}

/* The envelope's tail, far below anything audible: energy >= 0 and no
 * subnormal output up to 215 s (1.8 million subnormal energy samples
 * between 120 and 215 s before the sampler flushed them). */
void check_slow_envelope_tail(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_PARALLEL, "slow-envelope");
	if (!h)
		return;
	size_t bad = 0, zero = 0;
	double first_bad = -1.0;
	for (int64_t f = 0; f < (int64_t)(215 * RATE); f += BLOCK) {
		daw_run(h, BLOCK);
		for (uint32_t i = 0; i < BLOCK; ++i)
			for (int k = 0; k < PENDULA_N_PORT_IDS; ++k) {
				if (!h->buf[k])
					continue;
				const float x = h->buf[k][i];
				if (!isfinite(x) || fpclassify(x) == FP_SUBNORMAL ||
				    (k == P_OUT_ENERGY && x < 0.0f)) {
					if (bad++ == 0)
						first_bad = (double)(f + i) / RATE;
				}
				zero += k == P_OUT_ENERGY && x == 0.0f;
			}
	}
	printf("\n    %zu bad samples (first at %.2f s); energy exactly 0 in %zu frames", bad,
	       first_bad, zero);
	CHECK(bad == 0, "%zu subnormal, negative-energy or non-finite samples, first at %.2f s",
	      bad, first_bad);
	daw_host_free(h);
}

void check_kapitza(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_PARALLEL, "kapitza-upright");
	if (!h)
		return;
	const double g = h->control[P_GRAVITY], m1 = h->control[P_M1], c1 = h->control[P_C1];
	const double omega = 2.0 * DAW_PI * h->control[P_PIVOT_Y_FREQ];
	const double omega0 = sqrt(m1 * g * c1 / inertia_o1(h));
	const double threshold = 2.0 * g * inertia_o1(h) / (m1 * c1); /* Delta^2 Omega^2 */
	const double amp = h->control[P_PIVOT_Y_AMP];
	const double amp_threshold = sqrt(threshold) / omega;
	const double ratio = amp * amp * omega * omega / threshold;
	CHECK(h->control[P_N_BODIES] == 1, "Kapitza's formula is for one body (n_bodies %g)",
	      (double)h->control[P_N_BODIES]);
	CHECK(ratio > 1.0, "Delta^2 Omega^2 = %.3g below the threshold %.3g", ratio * threshold,
	      threshold);
	CHECK(omega > 10.0 * omega0, "forcing %.3g rad/s not fast against omega0 %.3g", omega,
	      omega0);
	run_stats s;
	render_stats(h, 60.0, 0.0, &s);
	printf("\n    threshold %.3f m^2/s^2, preset %.2f times it (amplitude %.4f m, threshold "
	       "%.4f m); max distance from upright over 60 s %.3f rad",
	       threshold, ratio, amp, amp_threshold, s.max_dev_upright);
	CHECK(s.finite, "non-finite output");
	CHECK(s.max_dev_upright < 0.5, "left upright by %.3f rad", s.max_dev_upright);
	daw_host_free(h);

	/* Below the threshold the same rod falls. */
	h = load(PENDULA_VARIANT_PARALLEL, "kapitza-upright");
	if (!h)
		return;
	h->control[P_PIVOT_Y_AMP] = (float)(0.6 * amp_threshold);
	start(h);
	render_stats(h, 60.0, 0.0, &s);
	printf("; at 0.6 x threshold amplitude: %.3f rad", s.max_dev_upright);
	CHECK(s.max_dev_upright > 1.0, "below the threshold it stayed up (%.3f rad)",
	      s.max_dev_upright);
	daw_host_free(h);
}

/* Largest |theta1| (rad) in [from, to) seconds, running h from its start. */
static void swing_windows(DawHost *h, double *first_second, double *at_10s)
{
	*first_second = *at_10s = 0.0;
	for (int64_t f = 0; f < (int64_t)(11 * RATE);) {
		daw_run(h, BLOCK);
		for (uint32_t i = 0; i < BLOCK; ++i, ++f) {
			const double a = fabs(DAW_PI * h->buf[P_OUT_THETA1][i]);
			if (f < (int64_t)RATE && a > *first_second)
				*first_second = a;
			if (f >= (int64_t)(9 * RATE) && f < (int64_t)(11 * RATE) && a > *at_10s)
				*at_10s = a;
		}
	}
}

void check_parametric(void)
{
	DawHost *h = load(PENDULA_VARIANT_PARALLEL, "parametric-swell");
	if (!h)
		return;
	const double g = h->control[P_GRAVITY], m1 = h->control[P_M1], c1 = h->control[P_C1];
	const double omega0 = sqrt(m1 * g * c1 / inertia_o1(h));
	const double omega_y = 2.0 * DAW_PI * h->control[P_PIVOT_Y_FREQ];
	const double h_mathieu = h->control[P_PIVOT_Y_AMP] * omega_y * omega_y / g;
	CHECK(h->control[P_N_BODIES] == 1, "one body expected");
	CHECK(fabs(omega_y / (2.0 * omega0) - 1.0) < 0.005,
	      "Omega_y = %.4f rad/s is not 2 omega0 = %.4f", omega_y, 2.0 * omega0);
	start(h);
	double a0, a10;
	swing_windows(h, &a0, &a10);
	printf("\n    omega0 %.4f rad/s, Omega_y %.4f, h = %.3f (growth exp(%.3f t)); "
	       "|theta1| %.2f deg in the first second, %.2f deg at 10 s",
	       omega0, omega_y, h_mathieu, h_mathieu * omega0 / 4.0, a0 * 180 / DAW_PI,
	       a10 * 180 / DAW_PI);
	CHECK(a0 < 0.1, "not a small start (%.3f rad)", a0);
	CHECK(a10 > 5.0 * a0, "the swing grew only %.2f times in 10 s", a10 / a0);
	daw_host_free(h);

	/* detuned by 30 %: outside the resonance tongue, no growth */
	h = load(PENDULA_VARIANT_PARALLEL, "parametric-swell");
	if (!h)
		return;
	h->control[P_PIVOT_Y_FREQ] *= 1.3f;
	start(h);
	swing_windows(h, &a0, &a10);
	printf("; detuned 1.3x: %.2f -> %.2f deg", a0 * 180 / DAW_PI, a10 * 180 / DAW_PI);
	CHECK(a10 < 2.0 * a0, "detuned forcing also grew the swing (%.2f times)", a10 / a0);
	daw_host_free(h);
}

void check_chaos_man_four(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_PARALLEL, "chaos-man-four");
	if (!h)
		return;
	CHECK(h->control[P_N_BODIES] == 4, "n_bodies %g, not 4", (double)h->control[P_N_BODIES]);
	run_stats s;
	render_stats(h, 60.0, 0.0, &s);
	int total_flips = 0;
	printf("\n    ranges over 60 s:");
	for (int k = 0; k < 4; ++k) {
		const double range = DAW_PI * (s.max[k] - s.min[k]);
		printf(" %.2f", range);
		CHECK(range > 1.5, "body %d moves over %.3f rad only", k + 1, range);
		total_flips += s.flips[k];
	}
	printf(" rad; flips %d/%d/%d/%d", s.flips[0], s.flips[1], s.flips[2], s.flips[3]);
	CHECK(s.finite, "non-finite output");
	CHECK(total_flips >= 3, "only %d flips in all: not tumbling", total_flips);
	daw_host_free(h);
}

/* Song position in quarter notes at absolute frame f, for a transport that
 * started at frame 0 at bar 0 beat 0 with tempo bpm0 and changed to bpm1 at
 * frame f1. */
static double quarters_at(int64_t f, double bpm0, int64_t f1, double bpm1)
{
	if (f < f1)
		return (double)f * bpm0 / 60.0 / RATE;
	return (double)f1 * bpm0 / 60.0 / RATE + (double)(f - f1) * bpm1 / 60.0 / RATE;
}

void check_tempo_drive(void)
{
	DawHost *h = load(PENDULA_VARIANT_DOUBLE, "tempo-drive");
	if (!h)
		return;
	h->recording = true;
	start(h);
	const int note = (int)h->control[P_PIVOT_X_SYNC];
	CHECK(note > 0 && note < (int)PENDULA_N_SYNC_NOTES, "pivot_x_sync %d is not a note value",
	      note);
	if (!(note > 0 && note < (int)PENDULA_N_SYNC_NOTES)) {
		daw_host_free(h);
		return;
	}
	const double period_q = pendula_sync_notes[note].beats;
	const double amp = h->control[P_PIVOT_X_AMP];
	const double bpm0 = 120.0, bpm1 = 100.0;
	const int64_t f1 = (int64_t)(40 * RATE), end = (int64_t)(80 * RATE);

	daw_in_position(h, 0, 0, 0, 4, 4, bpm0, 1);
	double worst_pivot = 0.0;
	bool changed = false;
	while (h->frames < end) {
		if (!changed && h->frames >= f1) {
			const double q = quarters_at(h->frames, bpm0, f1, bpm1);
			daw_in_position(h, 0, floor(q / 4), q - 4 * floor(q / 4), 4, 4, bpm1, 1);
			changed = true;
		}
		daw_run(h, BLOCK);
		const int64_t last = h->frames - 1;
		const double q = quarters_at(last, bpm0, f1, bpm1);
		const double want = amp * sin(2.0 * DAW_PI * (q / period_q - floor(q / period_q)));
		const double err = fabs(h->ctl[P_CTL_PIVOT_X][h->n_blocks - 1] - want);
		if (err > worst_pivot)
			worst_pivot = err;
	}
	/* periodic response: theta(t + T) = theta(t) once settled */
	double worst_repeat[2] = {0, 0}, amplitude[2] = {0, 0};
	const double bpms[2] = {bpm0, bpm1};
	const int64_t settle[2] = {(int64_t)(30 * RATE), f1 + (int64_t)(30 * RATE)};
	for (int w = 0; w < 2; ++w) {
		const int64_t T = (int64_t)llround(period_q * 60.0 / bpms[w] * RATE);
		for (int64_t f = settle[w]; f < settle[w] + T; ++f)
			for (int k = 0; k < 2; ++k) {
				const float *th = daw_signal(h, theta_port[k]);
				const double d = fabs(DAW_PI * (th[f + T] - th[f]));
				if (d > worst_repeat[w])
					worst_repeat[w] = d;
				if (k == 0 && fabs(DAW_PI * th[f]) > amplitude[w])
					amplitude[w] = fabs(DAW_PI * th[f]);
			}
	}
	printf("\n    %s (%.3g quarters): pivot_x_ctl vs song phase, worst %.2g m; "
	       "theta repeats every period to %.2g rad at 120 bpm (theta1 amplitude %.2f), "
	       "%.2g rad at 100 bpm (%.2f)",
	       pendula_sync_notes[note].label, period_q, worst_pivot, worst_repeat[0], amplitude[0],
	       worst_repeat[1], amplitude[1]);
	CHECK(worst_pivot < 1e-3 * amp + 1e-6, "forcing off the tempo phase by %.3g m",
	      worst_pivot);
	CHECK(worst_repeat[0] < 0.01 && worst_repeat[1] < 0.01,
	      "motion not locked to the period (%.3g, %.3g rad)", worst_repeat[0], worst_repeat[1]);
	CHECK(amplitude[0] > 0.1 && amplitude[1] > 0.1, "no real swing (%.3f, %.3f rad)",
	      amplitude[0], amplitude[1]);
	daw_host_free(h);
}

void check_oscillator(void)
{
	DawHost *h = load(PENDULA_VARIANT_DOUBLE, "chaotic-oscillator");
	if (!h)
		return;
	h->recording = true;
	start(h);
	CHECK(h->control[P_TIME_SCALE] >= 50, "time_scale %g is not audio rate",
	      (double)h->control[P_TIME_SCALE]);
	daw_render(h, (int64_t)(2 * RATE), BLOCK, NULL);
	const float *x = daw_signal(h, P_OUT_TIP_X);
	const size_t n = h->rec_n, from = (size_t)(0.1 * RATE);
	double mean = 0.0;
	for (size_t i = from; i < n; ++i)
		mean += x[i];
	mean /= (double)(n - from);
	/* one-pole low-pass at 20 Hz; high = x - low */
	const double a = exp(-2.0 * DAW_PI * 20.0 / RATE);
	double low = x[0], var = 0.0, var_high = 0.0;
	for (size_t i = 0; i < n; ++i) {
		low = a * low + (1.0 - a) * x[i];
		if (i >= from) {
			var += (x[i] - mean) * (x[i] - mean);
			var_high += (x[i] - low) * (x[i] - low);
		}
	}
	int flips = 0;
	const float *th = daw_signal(h, P_OUT_THETA1);
	for (size_t i = 1; i < n; ++i)
		if (fabsf(th[i] - th[i - 1]) > 1.0f)
			++flips;
	printf("\n    tip_x: %.0f %% of the variance above 20 Hz; arm 1 flips %.0f times/s",
	       100.0 * var_high / var, flips / 2.0);
	CHECK(var_high > 0.5 * var, "only %.0f %% of the variance above 20 Hz",
	      100.0 * var_high / var);
	CHECK(flips / 2.0 > 20.0, "arm 1 flips %.1f times per second only", flips / 2.0);
	daw_host_free(h);
}

void check_windmill(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_PARALLEL, "windmill-ramp");
	if (!h)
		return;
	const double sigma = h->control[P_SIGMA1], lambda = h->control[P_LAMBDA1];
	const double g = h->control[P_GRAVITY], m1 = h->control[P_M1], c1 = h->control[P_C1];
	const double bound = sigma / (2.0 * DAW_PI * lambda); /* turns per second, at most */
	CHECK(sigma > m1 * g * c1, "torque %.3g cannot overcome gravity %.3g", sigma, m1 * g * c1);
	run_stats s;
	render_stats(h, 35.0, 5.0, &s);
	const double turns = s.flips_up[0] / 30.0;
	printf("\n    %.3f turns/s (bound sigma1 / (2 pi lambda1) = %.3f); backward flips %d",
	       turns, bound, s.flips[0] - s.flips_up[0]);
	CHECK(s.flips[0] == s.flips_up[0], "turned backwards %d times", s.flips[0] - s.flips_up[0]);
	CHECK(turns <= 1.01 * bound && turns >= 0.7 * bound, "%.3f turns/s, bound %.3f", turns,
	      bound);
	daw_host_free(h);
}
