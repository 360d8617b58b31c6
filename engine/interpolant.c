/* SPDX-License-Identifier: ISC */
/*
 * The interpolants of a step, built once per step from the values,
 * derivatives (and the angles' accelerations and jerks) at its two ends:
 * each output channel's cubic Hermite in u in single precision for run()
 * (an angle model's angle rows a quintic), the double-precision cubics of
 * the tip and the energy, the angles' septics for the double-precision
 * frames, and how the angle outputs must be wrapped over the step.
 */
#include "engine_internal.h"

#include <math.h>
#include <string.h>

/* The bits of x without its sign: 0 exactly when x == 0.0 (+0 or -0); a NaN
 * counts as nonzero, as in x != 0.0. */
static inline uint64_t magnitude_bits(double x)
{
	uint64_t u;
	memcpy(&u, &x, sizeof(u));
	return u << 1;
}

/* Bit ch set if any of the four values of interpolant row ch is nonzero:
 * integer ORs that the compiler vectorises, instead of four floating-point
 * comparisons per row (a quarter of the step's bookkeeping). */
static uint32_t nonzero_rows(const double *a, const double *b, const double *c, const double *d)
{
	uint64_t any[PENDULA_N_POLY_CHANNELS];
	for (int ch = 0; ch < PENDULA_N_POLY_CHANNELS; ++ch)
		any[ch] = magnitude_bits(a[ch]) | magnitude_bits(b[ch]) | magnitude_bits(c[ch]) |
		          magnitude_bits(d[ch]);
	uint32_t mask = 0;
	for (int ch = 0; ch < PENDULA_N_POLY_CHANNELS; ++ch)
		mask |= (uint32_t)(any[ch] != 0) << ch;
	return mask;
}

static void hermite(double *c, double y0, double d0, double y1, double d1, double h)
{
	c[0] = y0;
	c[1] = d0 * h;
	c[2] = 3.0 * (y1 - y0) - (2.0 * d0 + d1) * h;
	c[3] = 2.0 * (y0 - y1) + (d0 + d1) * h;
}

/* Quintic Hermite in u = (t - t0) / h from value, first and second time
 * derivatives at both ends. */
static void quintic(double *c, double y0, double v0, double a0, double y1, double v1, double a1,
                    double h)
{
	const double d0 = v0 * h, d1 = v1 * h, s0 = a0 * h * h, s1 = a1 * h * h;
	const double D = y1 - y0 - d0 - 0.5 * s0, E = d1 - d0 - s0, F = s1 - s0;
	c[0] = y0;
	c[1] = d0;
	c[2] = 0.5 * s0;
	c[3] = 10.0 * D - 4.0 * E + 0.5 * F;
	c[4] = -15.0 * D + 7.0 * E - F;
	c[5] = 6.0 * D - 3.0 * E + 0.5 * F;
}

/* Septic Hermite in u = (t - t0) / h from value and the first three time
 * derivatives at both ends (v, a, j): an angle's error is O(h^8), its
 * velocity's O(h^7). */
static void septic(double *c, const double *y, const double *v, const double *a, const double *j,
                   double h)
{
	const double h2 = h * h, h3 = h2 * h;
	const double d0 = v[0] * h, d1 = v[1] * h, s0 = a[0] * h2, s1 = a[1] * h2;
	const double t0 = j[0] * h3, t1 = j[1] * h3;
	const double A = y[1] - (y[0] + d0 + 0.5 * s0 + t0 / 6.0);
	const double B = d1 - (d0 + s0 + 0.5 * t0);
	const double C = s1 - (s0 + t0);
	const double D = t1 - t0;
	c[0] = y[0];
	c[1] = d0;
	c[2] = 0.5 * s0;
	c[3] = t0 / 6.0;
	c[4] = 35.0 * A - 15.0 * B + 2.5 * C - D / 6.0;
	c[5] = -84.0 * A + 39.0 * B - 7.0 * C + 0.5 * D;
	c[6] = 70.0 * A - 34.0 * B + 6.5 * C - 0.5 * D;
	c[7] = -20.0 * A + 10.0 * B - 2.0 * C + D / 6.0;
}

/* A coefficient in single precision, for run(): tiny ones are 0 (no
 * subnormal arithmetic in run()), huge ones stay finite (only a step spun
 * far beyond a turn has them). */
static inline float output_coef(double cs)
{
	return fabs(cs) < (double)PENDULA_OUTPUT_FLUSH ? 0.0f
	       : fabs(cs) < 1e30                       ? (float)cs
	       : cs > 0.0                              ? 1e30f
	                                               : -1e30f;
}

/* The cubic rows: every channel's Hermite from s to the step's end, in
 * output units for run() (fpoly), in double precision for the tip and the
 * energy (poly).  Returns the rows whose ends are not all zero. */
static uint32_t build_cubics(pendula_engine *e, const step_start *s, int feedback,
                             double energy_slope_end)
{
	_Static_assert(PENDULA_N_POLY_CHANNELS <= 32 && PENDULA_MAX_BODIES <= 32, "live masks");
	/* (most models leave most channels at 0: their cubic is 0, and a row
	 * that already holds zeros is left alone) */
	const uint32_t nonzero = nonzero_rows(s->val, s->der, e->end_val, e->end_der);
	for (uint32_t rows = nonzero | e->live; rows;) {
		const int ch = __builtin_ctz(rows);
		const uint32_t bit = (uint32_t)1 << ch;
		rows &= rows - 1;
		double c[4] = {0.0, 0.0, 0.0, 0.0};
		if (nonzero & bit) {
			hermite(c, s->val[ch], s->der[ch], e->end_val[ch],
			        feedback && ch == PENDULA_CH_ENERGY
			            ? e->end_der[ch] + energy_slope_end
			            : e->end_der[ch],
			        e->h);
			e->live |= bit;
		} else {
			e->live &= ~bit; /* written as zeros below */
		}
		if (ch >= PENDULA_CH_TIP_X && ch - PENDULA_CH_TIP_X < N_POLY)
			memcpy(e->poly[ch - PENDULA_CH_TIP_X], c, sizeof(c));
		const double scale =
		    ch < PENDULA_CH_THETA + PENDULA_MAX_BODIES ? 1.0 / PENDULA_PI : 1.0;
		for (int i = 0; i < 4; ++i)
			e->fpoly[ch][i] = output_coef(c[i] * scale);
	}
	return nonzero;
}

/* Angle k's output of an angle model: a quintic (its slope, the velocity
 * output, to 5th order in h), in place of the row's cubic. */
static void build_angle_output(pendula_engine *e, const step_start *s, int k)
{
	const int th = PENDULA_CH_THETA + k, om = PENDULA_CH_OMEGA + k;
	double c[6];
	quintic(c, s->val[th], s->der[th], s->der[om], e->end_val[th], e->end_der[th],
	        e->end_der[om], e->h);
	uint32_t any = 0;
	for (int i = 0; i < 6; ++i) {
		const float f = output_coef(c[i] * (1.0 / PENDULA_PI));
		if (i < 4)
			e->fpoly[th][i] = f;
		else
			e->fhigh[k][i - 4] = f;
		any |= f != 0.0f;
	}
	if (any)
		e->live |= (uint32_t)1 << th;
}

/* The angles' septics (qpoly, with their slope bounds qslope) for the
 * double-precision frames, and an angle model's quintic outputs. */
static void build_angles(pendula_engine *e, const step_start *s, uint32_t nonzero)
{
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		const uint32_t bit = (uint32_t)1 << k;
		/* the angle row's values and slopes (in nonzero), the
		 * accelerations at both ends */
		if ((nonzero >> (PENDULA_CH_THETA + k) & 1u) ||
		    (magnitude_bits(s->der[PENDULA_CH_OMEGA + k]) |
		     magnitude_bits(e->end_der[PENDULA_CH_OMEGA + k])) != 0)
			e->qlive |= bit;
		else if (!(e->qlive & bit))
			continue; /* zeros give zeros (a septic of zeros is +0) */
		else
			e->qlive &= ~bit;
		const int th = PENDULA_CH_THETA + k, om = PENDULA_CH_OMEGA + k;
		septic(e->qpoly[k], (const double[2]){s->val[th], e->end_val[th]},
		       (const double[2]){s->der[th], e->end_der[th]},
		       (const double[2]){s->der[om], e->end_der[om]},
		       (const double[2]){s->jerk[k], e->end_jerk[k]}, e->h);
		double slope = 0.0;
		for (int i = 1; i < QPOLY_COEFFS; ++i)
			slope += i * fabs(e->qpoly[k][i]);
		e->qslope[k] = slope;
		if (e->sys.ops->velocity_outputs == PENDULA_VEL_ANGLE)
			build_angle_output(e, s, k);
	}
}

/* How each angle output is wrapped over the step (pendula_engine.wrap):
 * |p(u) - c0| <= |c1| + ... + |c5| on [0, 1]; the margin covers
 * single-precision rounding.  The step starts wrapped, in [-1, 1). */
static void classify_wraps(pendula_engine *e)
{
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		if (!(e->live & (uint32_t)1 << (PENDULA_CH_THETA + k))) {
			e->wrap[k] = WRAP_NONE; /* a row of zeros */
			continue;
		}
		const float *q = e->fpoly[PENDULA_CH_THETA + k];
		const double reach = fabs(q[1]) + fabs(q[2]) + fabs(q[3]) + fabs(e->fhigh[k][0]) +
		                     fabs(e->fhigh[k][1]);
		e->wrap[k] = (unsigned char)(q[0] - reach > -1.0 + 1e-5 && q[0] + reach < 1.0 - 1e-5
		                                 ? WRAP_NONE
		                             : reach < 1.0 - 1e-5 ? WRAP_ONCE
		                                                  : WRAP_ANY);
	}
}

void engine_build_interpolants(pendula_engine *e, const step_start *s, int feedback,
                               double energy_slope_end)
{
	const uint32_t nonzero = build_cubics(e, s, feedback, energy_slope_end);
	build_angles(e, s, nonzero);
	classify_wraps(e);
}
