/* SPDX-License-Identifier: ISC */
/*
 * The drive signal's energy budget along the engine's own trajectory, for
 * any model (test_drive.c, test_drive_chain.c).  The drive is a pivot
 * acceleration a held over each integration step (engine/drive.c), so in
 * the pivot's frame every mass feels -m a and the drive's work over a
 * stretch of constant a is -(V_a(end) - V_a(start)), V_a = sum_i m_i a.r_i
 * (r_i: centre of mass i relative to the pivot; docs/NUMERICS.md, "The
 * drive signal").  With no damping, torque or forcing, the change of the
 * energy E = T + U must equal the sum of that work over the steps.  The
 * test's reference supplies E and V_a from its own geometry; the engine
 * supplies only the states at the ends of its steps and the drive it held.
 *
 * The same pass checks the sampling rule: each step holds drive_gain g
 * times the mean of the samples (non-finite: 0, magnitudes above 16
 * clamped) of the frames since the step before began.
 */
#ifndef PENDULA_TEST_DRIVE_BUDGET_H
#define PENDULA_TEST_DRIVE_BUDGET_H

#include "pendula_engine.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	/* E = T + U at coordinates q, velocities qdot (J) */
	double (*energy)(const void *ctx, const double *q, const double *qdot);
	/* V_a(q) = sum_i m_i a.r_i (J) for the pivot acceleration a (x y z) */
	double (*potential)(const void *ctx, const double *q, const double *a);
	const void *ctx;
} drive_ref;

typedef struct {
	double max_dev;   /* largest |change of E - work of the drive| (J) */
	double max_work;  /* largest |work of the drive| (J) */
	double sampling;  /* largest |held drive - the rule's| (m/s^2) */
	double max_drive; /* largest |held drive| (m/s^2) */
	long changes;     /* steps whose drive differed from the step before's */
} drive_budget_result;

/* The rule's view of one sample (engine/drive.c). */
static inline float drive_rule_sample(float v)
{
	if (!isfinite(v))
		return 0.0f;
	return v > 16.0f ? 16.0f : v < -16.0f ? -16.0f : v;
}

static inline void drive_budget(const pendula_params *p, double rate, const float *signal,
                                long frames, const drive_ref *ref, drive_budget_result *res)
{
	memset(res, 0, sizeof(*res));
	pendula_engine *e = pendula_engine_new(rate, p);
	const pendula_system *sys = pendula_engine_system(e);
	pendula_stats st;
	pendula_engine_stats(e, &st);
	uint64_t steps = st.steps;
	pendula_state x0;
	double v0[PENDULA_MAX_DOF];
	pendula_engine_state(e, &x0);
	pendula_velocity(sys, x0.q, x0.p, v0);
	const double e_start = ref->energy(ref->ctx, x0.q, v0);
	double work = 0.0, sum = 0.0, count = 0.0, held[3] = {0, 0, 0};
	for (long n = 0; n < frames; ++n) {
		pendula_frame f;
		pendula_engine_set_drive(e, signal + n);
		pendula_engine_tick(e, &f);
		sum += drive_rule_sample(signal[n]);
		count += 1.0;
		pendula_engine_stats(e, &st);
		if (st.steps == steps)
			continue;
		steps = st.steps;
		/* the steps just taken all held this drive, from x0 to x1 */
		double a[3] = {0, 0, 0}, v1[PENDULA_MAX_DOF];
		if (sys->force.driven)
			memcpy(a, sys->force.drive, sizeof(a));
		const double mean = sum / count;
		sum = count = 0.0;
		for (int i = 0; i < 3; ++i) {
			const double want =
			    i == p->drive_axis ? p->drive_gain * p->gravity * mean : 0.0;
			res->sampling = fmax(res->sampling, fabs(a[i] - want));
			res->max_drive = fmax(res->max_drive, fabs(a[i]));
		}
		res->changes += memcmp(a, held, sizeof(a)) != 0;
		memcpy(held, a, sizeof(a));
		pendula_state x1;
		pendula_engine_state(e, &x1);
		work -= ref->potential(ref->ctx, x1.q, a) - ref->potential(ref->ctx, x0.q, a);
		pendula_velocity(sys, x1.q, x1.p, v1);
		const double change = ref->energy(ref->ctx, x1.q, v1) - e_start;
		res->max_dev = fmax(res->max_dev, fabs(change - work));
		res->max_work = fmax(res->max_work, fabs(work));
		x0 = x1;
	}
	pendula_engine_free(e);
}

/* A drive signal: a sine (kind 0) or white noise in [-1, 1] (kind 1). */
static inline float *drive_signal(int kind, long frames, double rate)
{
	float *s = malloc(sizeof(float) * (size_t)frames);
	uint64_t x = 0x9e3779b97f4a7c15u;
	for (long n = 0; n < frames; ++n) {
		if (kind == 0) {
			s[n] = (float)(0.8 *
			               sin(2.0 * 3.14159265358979323846 * 2.5 * (double)n / rate));
		} else {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			s[n] = (float)((double)(x >> 11) * 0x1p-52 - 1.0);
		}
	}
	return s;
}

#endif
