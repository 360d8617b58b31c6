/* SPDX-License-Identifier: ISC */
/*
 * The claims of the 3-D plugins' presets, spherical and bead (presets.h;
 * the list of what each checks is test_presets.c's).
 */
#include "presets.h"

/* ---------------------------------------------------------------------- */
/* The 3-D plugins                                                         */

/* Runs h for `seconds` in blocks; per output port, min and max over the
 * frames from second `from` on. */
static void run_range(DawHost *h, double seconds, double from, const pendula_port_id *ids, int n,
                      double *lo, double *hi)
{
	for (int k = 0; k < n; ++k) {
		lo[k] = 1e30;
		hi[k] = -1e30;
	}
	const int64_t total = (int64_t)(seconds * RATE), skip = (int64_t)(from * RATE);
	for (int64_t f = 0; f < total; f += BLOCK) {
		daw_run(h, BLOCK);
		if (f < skip)
			continue;
		for (uint32_t i = 0; i < BLOCK; ++i)
			for (int k = 0; k < n; ++k) {
				const double x = h->buf[ids[k]][i];
				lo[k] = x < lo[k] ? x : lo[k];
				hi[k] = x > hi[k] ? x : hi[k];
			}
	}
}

void check_conical_orbit(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_SPHERICAL, "conical-orbit");
	if (!h)
		return;
	const double g = h->control[P_GRAVITY], l = h->control[P_L1];
	const double alpha = h->control[P_THETA1_INIT] * DAW_PI / 180.0;
	const double w = 2.0 * DAW_PI * h->control[P_SPIN_INIT];
	const double steady = w * w * l * cos(alpha) / g;
	CHECK(h->control[P_N_LINKS] == 1, "one link expected");
	CHECK(fabs(steady - 1.0) < 1e-5,
	      "spin_init is not the steady circle's (w^2 l cos a / g = %.7f)", steady);
	/* 60 s: y1 stays at -cos alpha, x1's frequency is the spin */
	double y_lo = 1e30, y_hi = -1e30, e_lo = 1e30, e_hi = -1e30, first = -1, last = -1;
	int crossings = 0;
	float prev = 0.0f;
	for (int64_t f = 0; f < (int64_t)(60 * RATE); f += BLOCK) {
		daw_run(h, BLOCK);
		for (uint32_t i = 0; i < BLOCK; ++i) {
			const float x = h->buf[P_OUT_X1][i], y = h->buf[P_OUT_Y1][i];
			const double e = h->buf[P_OUT_ENERGY][i];
			y_lo = fmin(y_lo, y);
			y_hi = fmax(y_hi, y);
			e_lo = fmin(e_lo, e);
			e_hi = fmax(e_hi, e);
			if (f + i > 0 && prev < 0.0f && x >= 0.0f) {
				const double t = ((double)(f + i) - 1.0 + prev / (prev - x)) / RATE;
				if (crossings == 0)
					first = t;
				last = t;
				++crossings;
			}
			prev = x;
		}
	}
	const double freq = (crossings - 1) / (last - first);
	printf("\n    y1 %.6f..%.6f (-cos alpha = %.6f); x1 at %.6f Hz (spin %.6f Hz); energy "
	       "%.7f..%.7f",
	       y_lo, y_hi, -cos(alpha), freq, w / (2 * DAW_PI), e_lo, e_hi);
	CHECK(fabs(y_lo + cos(alpha)) < 1e-4 && fabs(y_hi + cos(alpha)) < 1e-4,
	      "the bob leaves its cone: y1 %.6f..%.6f", y_lo, y_hi);
	CHECK(fabs(freq / (w / (2 * DAW_PI)) - 1.0) < 1e-4, "x1 at %.6f Hz, spin %.6f Hz", freq,
	      w / (2 * DAW_PI));
	CHECK(e_hi - e_lo < 1e-5 * e_hi, "energy not constant: %.7f..%.7f", e_lo, e_hi);
	daw_host_free(h);
}

void check_chaotic_3d_double(void)
{
	DawHost *a = load(PENDULA_VARIANT_SPHERICAL, "chaotic-3d-double");
	DawHost *b = load(PENDULA_VARIANT_SPHERICAL, "chaotic-3d-double");
	if (!a || !b) {
		daw_host_free(a);
		daw_host_free(b);
		return;
	}
	b->control[P_THETA1_INIT] += 1e-4f;
	daw_activate(a);
	daw_activate(b);
	double worst = 0.0, z_lo = 1e30, z_hi = -1e30;
	for (int64_t f = 0; f < (int64_t)(60 * RATE); f += BLOCK) {
		daw_run(a, BLOCK);
		daw_run(b, BLOCK);
		for (uint32_t i = 0; i < BLOCK; ++i) {
			double d2 = 0.0;
			const pendula_port_id tip[3] = {P_OUT_TIP_X, P_OUT_TIP_Y, P_OUT_TIP_Z};
			for (int c = 0; c < 3; ++c) {
				const double d = (double)a->buf[tip[c]][i] - b->buf[tip[c]][i];
				d2 += d * d;
			}
			worst = fmax(worst, sqrt(d2));
			z_lo = fmin(z_lo, a->buf[P_OUT_Z1][i]);
			z_hi = fmax(z_hi, a->buf[P_OUT_Z1][i]);
		}
	}
	printf("\n    z1 %.3f..%.3f; 1e-4 deg apart -> tips %.3f (of the length) apart within 60 s",
	       z_lo, z_hi, worst);
	CHECK(z_hi - z_lo > 0.5, "it stays near a plane (z1 %.3f..%.3f)", z_lo, z_hi);
	CHECK(worst > 0.3, "no sensitive dependence: %.3g", worst);
	daw_host_free(a);
	daw_host_free(b);
}

void check_ellipsoid_example(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_BEAD, "ellipsoid-example");
	if (!h)
		return;
	const double a = h->control[P_AXIS_X], b = h->control[P_AXIS_Y], c = h->control[P_AXIS_Z];
	const double th = h->control[P_THETA1_INIT] * DAW_PI / 180.0;
	const double ph = h->control[P_PHI1_INIT] * DAW_PI / 180.0;
	/* the start point is the note's (sqrt 6 / 4, 3/2, sqrt 6 / 2) */
	const double x0 = a * sin(th) * cos(ph), y0 = -b * cos(th), z0 = c * sin(th) * sin(ph);
	CHECK(fabs(x0 - sqrt(6.0) / 4) < 1e-5 && fabs(y0 - 1.5) < 1e-5 &&
	          fabs(z0 - sqrt(6.0) / 2) < 1e-5,
	      "start (%.5f, %.5f, %.5f) is not the note's", x0, y0, z0);
	CHECK(h->control[P_SPIN_INIT] == 0 && h->control[P_LAMBDA1] == 0 &&
	          h->control[P_SURFACE] == 0,
	      "not at rest on the ellipsoid without drag");
	double y_max = -1e30, e_lo = 1e30, e_hi = -1e30;
	int climbs = 0;
	bool low = false;
	for (int64_t f = 0; f < (int64_t)(60 * RATE); f += BLOCK) {
		daw_run(h, BLOCK);
		for (uint32_t i = 0; i < BLOCK; ++i) {
			const double y = h->buf[P_OUT_Y][i], e = h->buf[P_OUT_ENERGY][i];
			y_max = fmax(y_max, y);
			e_lo = fmin(e_lo, e);
			e_hi = fmax(e_hi, e);
			if (y < -0.6)
				low = true;
			if (low && y > 0.0) {
				++climbs;
				low = false;
			}
		}
	}
	printf("\n    energy %.7f..%.7f; highest y %.6f (start %.6f); %d climbs back above the "
	       "centre in 60 s",
	       e_lo, e_hi, y_max, y0 / b, climbs);
	CHECK(e_hi - e_lo < 1e-5 * e_hi, "energy not constant");
	CHECK(y_max <= y0 / b + 1e-4, "the bead got above its start (%.6f)", y_max);
	CHECK(climbs >= 5, "only %d climbs", climbs);
	daw_host_free(h);
}

void check_shaken_floor(void)
{
	DawHost *on = load_activated(PENDULA_VARIANT_BEAD, "shaken-floor");
	DawHost *off = load(PENDULA_VARIANT_BEAD, "shaken-floor");
	if (!on || !off) {
		daw_host_free(on);
		daw_host_free(off);
		return;
	}
	CHECK(on->control[P_SURFACE] == 1 && on->control[P_WAVE_AMP] > 0 &&
	          on->control[P_LAMBDA1] > 0,
	      "not a moving floor with drag");
	off->control[P_WAVE_AMP] = 0.0f;
	daw_activate(off);
	const double rate = on->control[P_LAMBDA1] / on->control[P_M1];
	const pendula_port_id ids[2] = {P_OUT_ENERGY, P_OUT_X};
	double lo_on[2], hi_on[2], lo_off[2], hi_off[2];
	daw_run(off, 1);
	const double e0 = off->buf[P_OUT_ENERGY][0];
	run_range(on, 30.0, 20.0, ids, 2, lo_on, hi_on);
	run_range(off, 30.0, 29.0, ids, 2, lo_off, hi_off);
	printf("\n    energy over 20..30 s with the wave %.4f..%.4f, without %.2e at 30 s "
	       "(start %.4f, exp(-lambda t / m) gives %.2e); x %.3f..%.3f",
	       lo_on[0], hi_on[0], hi_off[0], e0, e0 * exp(-30.0 * rate), lo_on[1], hi_on[1]);
	CHECK(hi_off[0] < 3.0 * e0 * exp(-30.0 * rate), "drag alone: energy %.3g at 30 s",
	      hi_off[0]);
	CHECK(hi_on[0] > 10.0 * hi_off[0], "the wave does not keep the motion up (%.3g vs %.3g)",
	      hi_on[0], hi_off[0]);
	CHECK(hi_on[1] - lo_on[1] > 0.2, "the bead hardly moves (x %.3f..%.3f)", lo_on[1],
	      hi_on[1]);
	daw_host_free(on);
	daw_host_free(off);
}
