/* SPDX-License-Identifier: ISC */
/*
 * Small numerical helpers shared by the engine and the model files: pi,
 * angle wrapping, sin and cos together, flushing of tiny values.  Defined
 * once here; everything is static inline so the hot loops inline it.
 */
#ifndef PENDULA_PMATH_H
#define PENDULA_PMATH_H

#include <math.h>

#define PENDULA_PI     3.14159265358979323846
#define PENDULA_TWO_PI 6.28318530717958647692

/* A function compiled twice, for AVX2 and for the baseline (SSE2), the
 * copy chosen at load time (an ifunc) where GCC can: its vector arithmetic
 * then runs 4 doubles or 8 floats per instruction instead of 2 or 4.  AVX2
 * without FMA and without contraction does the same operations in the same
 * order as the baseline, so the results do not depend on the copy. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__ELF__)
#define PENDULA_SIMD_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define PENDULA_SIMD_CLONES
#endif

/* State values below this are flushed to zero (keeps out of subnormals). */
#define PENDULA_FLUSH_BELOW 1e-30

static inline double pendula_finite_or(double x, double fallback)
{
	return isfinite(x) ? x : fallback;
}

/* x if finite and above floor_value, else floor_value. */
static inline double pendula_positive(double x, double floor_value)
{
	x = pendula_finite_or(x, floor_value);
	return x > floor_value ? x : floor_value;
}

static inline double pendula_nonneg(double x)
{
	x = pendula_finite_or(x, 0.0);
	return x > 0.0 ? x : 0.0;
}

static inline double pendula_flush(double x)
{
	return fabs(x) < PENDULA_FLUSH_BELOW ? 0.0 : x;
}

/* An angle wrapped to [-pi, pi). */
static inline double pendula_wrap_angle(double x)
{
	if (x >= PENDULA_PI || x < -PENDULA_PI)
		x -= PENDULA_TWO_PI * floor((x + PENDULA_PI) / PENDULA_TWO_PI);
	if (x >= PENDULA_PI) /* rounding at the boundary */
		x -= PENDULA_TWO_PI;
	return x;
}

/* A phase wrapped to [0, 2 pi). */
static inline double pendula_wrap_phase(double phase)
{
	if (phase >= PENDULA_TWO_PI || phase < 0.0)
		phase -= PENDULA_TWO_PI * floor(phase / PENDULA_TWO_PI);
	return phase;
}

/* Single-precision outputs: magnitudes below this are written as 0, so no
 * output (and no arithmetic on the way to one) is subnormal, and the bits
 * do not depend on flush-to-zero modes. */
#define PENDULA_OUTPUT_FLUSH 1e-20f

/* The energy output is clamped to [0, PENDULA_ENERGY_OUTPUT_MAX], the range
 * its port declares: a thousand times the energy that just reaches the
 * highest configuration (docs/MODELS.md).  Swings, tumbling and the shipped
 * presets stay far below; only a pendulum shaken hard by the pivot or spun
 * up by a torque without damping goes beyond (without a bound: 1e9 and
 * more), where the number no longer means much as a modulation. */
#define PENDULA_ENERGY_OUTPUT_MAX 1000.0f

static inline float pendula_flush_output(float x)
{
	return fabsf(x) < PENDULA_OUTPUT_FLUSH ? 0.0f : x;
}

/* An angle output: theta / pi wrapped to [-1, 1), in single precision; a
 * value that rounds to 1 is written as -1 (docs/MODELS.md). */
static inline float pendula_angle_output(double theta)
{
	double v = theta * (1.0 / PENDULA_PI);
	if (v >= 1.0 || v < -1.0)
		v -= 2.0 * floor((v + 1.0) * 0.5);
	float f = (float)v;
	if (!(f < 1.0f && f >= -1.0f)) /* also NaN */
		f = -1.0f;
	return pendula_flush_output(f);
}

/* A tip output (position / reach) in single precision, in [-1, 1]. */
static inline float pendula_tip_output(double x)
{
	float f = (float)x;
	f = f < -1.0f ? -1.0f : f;
	f = f > 1.0f ? 1.0f : f;
	return pendula_flush_output(f == f ? f : 0.0f);
}

/* The energy output in single precision, in [0, PENDULA_ENERGY_OUTPUT_MAX]. */
static inline float pendula_energy_output(double e)
{
	float f = e < (double)PENDULA_ENERGY_OUTPUT_MAX ? (float)e : PENDULA_ENERGY_OUTPUT_MAX;
	f = f > 0.0f ? f : 0.0f; /* also NaN */
	return pendula_flush_output(f);
}

/* The energy level output a / (1 + a), a = sqrt(E), of an energy output
 * value E (already in [0, PENDULA_ENERGY_OUTPUT_MAX]), in single precision,
 * in [0, 1): 0.5 reaches the top, and a small swing reads in proportion to
 * its amplitude (E grows as its square); docs/GUIDE.md, "Continuous
 * outputs". */
static inline float pendula_energy_level_of(float energy)
{
	const float a = sqrtf(energy);
	return pendula_flush_output(a / (1.0f + a));
}

/* The velocity level output v / sqrt(1 + v^2) of a velocity output's
 * value v before its clamp to [-1, 1] (the rate over its reference rate),
 * in [-1, 1]: the same slope at rest as the velocity output, so a small
 * swing reads alike on both, 0.71 at the reference rate and 0.99 only at
 * seven times it, where the velocity output has long read 1 (docs/GUIDE.md,
 * "Continuous outputs", says why this map).  Evaluated in double precision
 * and rounded once, so that it never decreases as v grows (in single
 * precision it does by an ulp here and there); |v| beyond 1e30 counts as
 * 1e30 (v^2 stays finite), NaN as 0. */
#define PENDULA_VELOCITY_LEVEL_LIM 1.0e30f

static inline float pendula_velocity_level_of(float v)
{
	v = v == v ? v : 0.0f;
	v = v < -PENDULA_VELOCITY_LEVEL_LIM ? -PENDULA_VELOCITY_LEVEL_LIM : v;
	v = v > PENDULA_VELOCITY_LEVEL_LIM ? PENDULA_VELOCITY_LEVEL_LIM : v;
	const double x = (double)v;
	return pendula_flush_output((float)(x / sqrt(1.0 + x * x)));
}

/*
 * sin and cos together.  The integrators spend most of their time on sin
 * and cos of angles that stay within a few radians of zero (they are
 * wrapped every step).  Reduce by multiples of pi/2 (pi/2 split in two
 * parts, so k * PIO2_HI is exact for |k| < 2^20) and evaluate the Taylor
 * series on |r| <= pi/4, where the first omitted terms (r^17/17!, r^18/18!)
 * are below 1e-16.  Arguments too large for that reduction go to the C
 * library.
 */
#define PENDULA_PIO2_HI     1.57079632673412561417e+00 /* first 33 bits of pi/2 */
#define PENDULA_PIO2_LO     6.07710050650619224932e-11 /* pi/2 - PIO2_HI */
#define PENDULA_TWO_OVER_PI 6.36619772367581382433e-01

static inline void pendula_sincos(double x, double *s, double *c)
{
	if (!(fabs(x) < 1.0e5)) {
		*s = sin(x);
		*c = cos(x);
		return;
	}
	/* nearest integer to x 2/pi (round-to-nearest addition trick) */
	const double shifter = 6755399441055744.0; /* 1.5 * 2^52 */
	const double kd = (x * PENDULA_TWO_OVER_PI + shifter) - shifter;
	const int k = (int)kd;
	const double r = (x - kd * PENDULA_PIO2_HI) - kd * PENDULA_PIO2_LO;
	const double r2 = r * r;
	/* Taylor: sin r = r - r^3/3! + ... - r^15/15!, cos r = 1 - r^2/2! + ... + r^16/16! */
	const double sp =
	    -1.0 / 6.0 +
	    r2 * (1.0 / 120.0 +
	          r2 * (-1.0 / 5040.0 +
	                r2 * (1.0 / 362880.0 +
	                      r2 * (-1.0 / 39916800.0 +
	                            r2 * (1.0 / 6227020800.0 + r2 * (-1.0 / 1307674368000.0))))));
	const double cp =
	    1.0 / 24.0 +
	    r2 * (-1.0 / 720.0 +
	          r2 * (1.0 / 40320.0 +
	                r2 * (-1.0 / 3628800.0 +
	                      r2 * (1.0 / 479001600.0 +
	                            r2 * (-1.0 / 87178291200.0 + r2 * (1.0 / 20922789888000.0))))));
	const double sr = r + r * r2 * sp;
	const double cr = 1.0 - (0.5 * r2 - r2 * r2 * cp);
	switch (k & 3) {
	case 0:
		*s = sr;
		*c = cr;
		break;
	case 1:
		*s = cr;
		*c = -sr;
		break;
	case 2:
		*s = -sr;
		*c = -cr;
		break;
	default:
		*s = -cr;
		*c = sr;
		break;
	}
}

#endif
