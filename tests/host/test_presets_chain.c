/* SPDX-License-Identifier: ISC */
/*
 * The claims of the chain's presets (presets.h; the list of what each
 * checks is test_presets.c's).
 */
#include "presets.h"

/* ---------------------------------------------------------------------- */
/* The chain's presets                                                     */

/* Links of the chain's preset in h: masses, lengths, centres of mass by the
 * link_shape rule of docs/MODELS.md; returns N.  mu_k = m_k c_k + (sum_{j>k} m_j)
 * l_k, the normalisation D = 2 g sum mu_k. */
static int chain_links(const DawHost *h, double *m, double *l, double *c, double *mu)
{
	static const pendula_port_id mp[6] = {P_M1, P_M2, P_M3, P_M4, P_M5, P_M6};
	static const pendula_port_id lp[6] = {P_L1, P_L2, P_L3, P_L4, P_L5, P_L6};
	static const pendula_port_id cp[6] = {P_C1, P_C2, P_C3, P_C4, P_C5, P_C6};
	const int n = (int)h->control[P_N_LINKS], shape = (int)h->control[P_LINK_SHAPE];
	for (int k = 0; k < n; ++k) {
		m[k] = h->control[mp[k]];
		l[k] = h->control[lp[k]];
		c[k] = shape == 0 ? l[k] : shape == 1 ? 0.5 * l[k] : h->control[cp[k]];
	}
	double below = 0.0;
	for (int k = n - 1; k >= 0; --k) {
		mu[k] = m[k] * c[k] + below * l[k];
		below += m[k];
	}
	return n;
}

void check_triple_rod_chaos(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_CHAIN, "triple-rod-chaos");
	if (!h)
		return;
	CHECK(h->control[P_N_LINKS] == 3 && h->control[P_LINK_SHAPE] == 1,
	      "not three uniform rods (n_links %g, link_shape %g)", (double)h->control[P_N_LINKS],
	      (double)h->control[P_LINK_SHAPE]);
	run_stats s;
	render_stats(h, 60.0, 0.0, &s);
	printf("\n    energy %.4f; flips in 60 s: %d / %d / %d", s.e_first, s.flips[0], s.flips[1],
	       s.flips[2]);
	CHECK(s.finite, "non-finite output");
	for (int k = 0; k < 3; ++k)
		CHECK(s.flips[k] >= 3, "link %d flipped %d times only", k + 1, s.flips[k]);
	daw_host_free(h);
	const double d = preset_divergence_on(PENDULA_VARIANT_CHAIN, "triple-rod-chaos", 30.0);
	printf("; 1e-4 deg apart -> %.3g rad within 30 s", d);
	CHECK(d > 1.0, "1e-4 deg grew only to %.3g rad", d);
}

void check_six_bob_whip(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_CHAIN, "six-bob-whip");
	if (!h)
		return;
	double m[6], l[6], c[6], mu[6], sum = 0.0;
	const int n = chain_links(h, m, l, c, mu);
	CHECK(n == 6, "n_links %d", n);
	for (int k = 0; k < n; ++k)
		sum += mu[k];
	/* Link 1 upright with the rest hanging: U - U_min = 2 g mu_1, i.e. a
	 * normalised energy of mu_1 / sum mu: link 1 can never go over. */
	const double flip1 = mu[0] / sum;
	run_stats s;
	render_stats(h, 30.0, 0.0, &s);
	printf("\n    energy %.4f, link 1 needs %.4f to flip; flips in 30 s:", s.e_first, flip1);
	for (int k = 0; k < n; ++k)
		printf(" %d", s.flips[k]);
	CHECK(s.finite, "non-finite output");
	CHECK(s.e_first < flip1, "energy %.4f enough for link 1 to flip (%.4f)", s.e_first, flip1);
	CHECK(s.flips[0] == 0, "link 1 flipped %d times", s.flips[0]);
	CHECK(s.flips[5] >= 20, "the tip link flipped only %d times", s.flips[5]);
	daw_host_free(h);
}

void check_chain_envelope(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_CHAIN, "chain-envelope");
	if (!h)
		return;
	double e_prev = -1.0, worst_rise = 0.0, e0 = 0.0;
	int64_t left = (int64_t)(20.0 * RATE);
	bool finite = true;
	while (left > 0) {
		const uint32_t n = left < BLOCK ? (uint32_t)left : BLOCK;
		daw_run(h, n);
		for (uint32_t i = 0; i < n; ++i) {
			const double e = h->buf[P_OUT_ENERGY][i];
			finite = finite && isfinite(e);
			if (e_prev < 0.0)
				e0 = e;
			else
				worst_rise = fmax(worst_rise, e - e_prev);
			e_prev = e;
		}
		left -= n;
	}
	printf("\n    energy %.4f -> %.5f in 20 s (%.0f times less), largest rise %.2e", e0, e_prev,
	       e0 / e_prev, worst_rise);
	CHECK(finite, "non-finite output");
	CHECK(worst_rise <= 1e-6 * e0, "energy rose by %.3g", worst_rise);
	CHECK(e_prev < e0 / 30.0, "energy fell only from %.4f to %.4f", e0, e_prev);
	daw_host_free(h);
}

void check_balanced_chain(void)
{
	DawHost *h = load(PENDULA_VARIANT_CHAIN, "balanced-chain");
	if (!h)
		return;
	double m[6], l[6], c[6], mu[6];
	const int n = chain_links(h, m, l, c, mu);
	CHECK(n == 2 && h->control[P_LINK_SHAPE] == 1, "not two uniform rods");
	/* Linearised about upright, R(0) phi'' = (g - Dy W^2 cos W t) diag(mu) phi:
	 * modes q'' = nu (g - Dy W^2 cos W t) q with nu the eigenvalues of
	 * R(0)^-1 diag(mu).  Kapitza's average holds each one up if
	 * nu Dy^2 W^2 / 2 > g. */
	const double ig0 = m[0] * l[0] * l[0] / 12.0, ig1 = m[1] * l[1] * l[1] / 12.0;
	const double r11 = ig0 + m[0] * c[0] * c[0] + m[1] * l[0] * l[0],
	             r22 = ig1 + m[1] * c[1] * c[1];
	const double r12 = l[0] * mu[1];
	/* det(diag(mu) - nu R) = 0 */
	const double qa = r11 * r22 - r12 * r12, qb = -(mu[0] * r22 + mu[1] * r11),
	             qc = mu[0] * mu[1];
	const double nu_min = (-qb - sqrt(qb * qb - 4 * qa * qc)) / (2 * qa);
	const double g = h->control[P_GRAVITY], dy = h->control[P_PIVOT_Y_AMP];
	const double omega = 2.0 * DAW_PI * h->control[P_PIVOT_Y_FREQ];
	const double omega_min = sqrt(2.0 * g / (nu_min * dy * dy));
	daw_activate(h);
	run_stats s;
	render_stats(h, 60.0, 0.0, &s);
	const double up = fmax(s.dev_upright[0], s.dev_upright[1]);
	printf("\n    Kapitza threshold %.1f Hz, preset %.1f Hz; max distance from upright over "
	       "60 s %.3f rad",
	       omega_min / (2 * DAW_PI), omega / (2 * DAW_PI), up);
	CHECK(omega > 1.2 * omega_min, "forcing %.1f Hz not above the threshold %.1f Hz",
	      omega / (2 * DAW_PI), omega_min / (2 * DAW_PI));
	CHECK(s.finite, "non-finite output");
	CHECK(up < 0.5, "left upright by %.3f rad", up);
	daw_host_free(h);
	/* At 60 % of the frequency (below the threshold) it falls. */
	h = load(PENDULA_VARIANT_CHAIN, "balanced-chain");
	if (!h)
		return;
	h->control[P_PIVOT_Y_FREQ] *= 0.6f;
	daw_activate(h);
	render_stats(h, 20.0, 0.0, &s);
	printf("; at 60 %%: %.3f rad", fmax(s.dev_upright[0], s.dev_upright[1]));
	CHECK(fmax(s.dev_upright[0], s.dev_upright[1]) > 1.0, "stayed up below the threshold");
	daw_host_free(h);
}

/* The energy output and the angles of a plucked-chain run, block by block:
 * the most any moved before frame `note`, the energy at it, 1 s after it
 * and at the end. */
typedef struct {
	double still, at_note, after_1s, at_end;
} pluck_run;

static void run_plucked(DawHost *h, int64_t note, int64_t frames, pluck_run *r)
{
	static const pendula_port_id angles[] = {P_OUT_THETA1, P_OUT_THETA2, P_OUT_THETA3};
	memset(r, 0, sizeof(*r));
	for (int64_t t = 0; t < frames; t += BLOCK) {
		const uint32_t n = frames - t < BLOCK ? (uint32_t)(frames - t) : BLOCK;
		if (note >= t && note < t + n) {
			const uint8_t on[3] = {0x90, 60, 127};
			daw_in_midi(h, note - t, on, 3);
		}
		daw_run(h, n);
		const float *e = h->buf[P_OUT_ENERGY];
		for (uint32_t i = 0; i < n; ++i) {
			const int64_t f = t + i;
			if (f < note) {
				r->still = fmax(r->still, fabs((double)e[i]));
				for (int k = 0; k < 3; ++k)
					r->still =
					    fmax(r->still, fabs((double)h->buf[angles[k]][i]));
			}
			if (f == note)
				r->at_note = e[i];
			if (f == note + (int64_t)RATE)
				r->after_1s = e[i];
			r->at_end = e[i];
		}
	}
}

void check_plucked_chain(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_CHAIN, "plucked-chain");
	if (!h)
		return;
	const double pluck = h->control[P_PLUCK_ENERGY];
	CHECK(pluck > 0.0 && h->control[P_ENERGY_TARGET] < 0.0f && h->control[P_LAMBDA1] > 0.0f,
	      "pluck_energy %g, energy_target %g, lambda1 %g: not a damped chain to pluck", pluck,
	      (double)h->control[P_ENERGY_TARGET], (double)h->control[P_LAMBDA1]);
	pluck_run r;
	run_plucked(h, (int64_t)(1.5 * RATE) + 77, (int64_t)(32.0 * RATE), &r);
	printf("\n    at rest: %.3g; energy %.4f at the note (pluck_energy %.3f), %.4f 1 s later, "
	       "%.4f 30 s later",
	       r.still, r.at_note, pluck, r.after_1s, r.at_end);
	CHECK(r.still == 0.0, "moved by %.3g before the note", r.still);
	CHECK(fabs(r.at_note - pluck) <= 0.05 * pluck, "energy %.4f at the note, not %.3f",
	      r.at_note, pluck);
	CHECK(r.after_1s > 0.5 * pluck, "the pluck did not ring: energy %.4f 1 s later",
	      r.after_1s);
	CHECK(r.at_end < 0.5 * r.after_1s, "the pluck did not die away: energy %.4f 30 s later",
	      r.at_end);
	daw_host_free(h);
	/* without notes it stays at rest, exactly */
	h = load_activated(PENDULA_VARIANT_CHAIN, "plucked-chain");
	if (!h)
		return;
	run_plucked(h, INT64_MAX, (int64_t)(10.0 * RATE), &r);
	CHECK(r.still == 0.0, "moved by %.3g without notes", r.still);
	daw_host_free(h);
}
