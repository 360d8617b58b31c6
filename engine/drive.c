/* SPDX-License-Identifier: ISC */
/*
 * The drive signal: an audio-rate input that shakes the pivot.  Its pivot
 * acceleration drive_gain g s along the drive axis enters every model as
 * the forcing's does (pendula_effective_gravity), so the motion stays
 * Hamiltonian for any signal and the energy budget holds with the drive's
 * work (docs/NUMERICS.md, "The drive signal").
 *
 * Sampling: the integrator's steps do not fall on audio frames, and a step
 * is taken when the frame after the last one it was read by comes up,
 * whose sample may be in a block not yet seen.  So each step holds the
 * mean of the samples of the frames since the step before began: known
 * when the step is taken, the same whatever the blocks (the frames are
 * summed one by one in order into one sum, and the steps fall on the same
 * frames at any block size), and a box filter as long as a step, so a
 * drum's content above the step rate does not alias into the motion.  The
 * price is a delay of about one step (at most 1/128 s of simulated time).
 */
#include "engine_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* A sample's magnitude is bounded by DRIVE_LIMIT (24 dB above full scale):
 * a wild value (a broken plugin upstream feeding 1e30) would otherwise make
 * a pivot acceleration no step can follow and, summed, overflow to
 * infinity; a non-finite sample counts as silence (0). */
#define DRIVE_LIMIT 16.0f

void pendula_engine_set_drive(pendula_engine *e, const float *buf)
{
	e->drive_in = buf;
}

/* A sample as the drive takes it.  Sorted by its bits first, so that a
 * subnormal or non-finite sample (plugin-torture feeds both) is never an
 * operand of floating-point arithmetic or of a comparison: a subnormal
 * counts as 0, as it would under the host's flush-to-zero (issue 38). */
static inline float drive_sample(float v)
{
	uint32_t bits;
	memcpy(&bits, &v, sizeof(bits));
	const uint32_t exponent = (bits >> 23) & 0xffu;
	if (exponent == 0u || exponent == 0xffu) /* zero, subnormal; inf, NaN */
		return 0.0f;
	const float a = fabsf(v);
	return a <= DRIVE_LIMIT ? v : copysignf(DRIVE_LIMIT, v);
}

void engine_drive_take(pendula_engine *e, uint32_t from, uint32_t m)
{
	e->drive_count += (double)m;
	if (!e->drive_in)
		return;
	/* one by one into the running sum: the same roundings whatever the
	 * blocks */
	const float *x = e->drive_in + from;
	double sum = e->drive_sum;
	for (uint32_t i = 0; i < m; ++i)
		sum += drive_sample(x[i]);
	e->drive_sum = sum;
}

void engine_drive_clear(pendula_engine *e)
{
	e->drive_sum = e->drive_count = e->drive_mean = 0.0;
	e->sys.force.driven = 0;
	memset(e->sys.force.drive, 0, sizeof(e->sys.force.drive));
}

int engine_drive_begin(pendula_engine *e)
{
	pendula_forcing *f = &e->sys.force;
	/* silence, the usual case: no drive held and none to come (the mean of
	 * the samples summed is 0), so nothing changes */
	if (!f->driven && e->drive_sum == 0.0 && e->drive_mean == 0.0) {
		e->drive_count = 0.0;
		return 0;
	}
	if (e->drive_count > 0.0) {
		e->drive_mean = e->drive_sum / e->drive_count;
		e->drive_sum = e->drive_count = 0.0;
	}
	const double gain = pendula_nonneg(e->pending.drive_gain);
	const int axis = e->pending.drive_axis;
	double d[3] = {0.0, 0.0, 0.0};
	/* gain 0 or silence: exactly no drive (not a product that is -0) */
	const int on = gain > 0.0 && e->drive_mean != 0.0 && axis >= 0 && axis <= 2;
	if (on)
		d[axis] = gain * e->sys.g * e->drive_mean;
	if (on == f->driven && memcmp(d, f->drive, sizeof(d)) == 0)
		return 0; /* unchanged (no drive: the step is today's, bit for bit) */
	memcpy(f->drive, d, sizeof(d));
	f->driven = on;
	return 1;
}
