/* SPDX-License-Identifier: ISC */
/*
 * Engine benchmark: ns per frame and energy spread of the Pendula engine at
 * 48 kHz from its default (chaotic) start, next to a plain classical RK4
 * step per frame on the same model, measured in the same run.
 *
 * Prints one line per figure:
 *   bench NAME ns_per_frame=X energy_spread=Y
 * Timings are medians of 5 runs.  Never a test: nothing here asserts time.
 */
#define _POSIX_C_SOURCE 200809L
#include "bench_stats.h"
#include "pendula_engine.h"
#include "ports.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SR    48000.0
#define BLOCK 256
#define PI    3.14159265358979323846

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static volatile float sink;

/* The engine as the plugin drives it: blocks of 256 frames, every signal
 * output of the plugin written. */
static double engine_ns_per_frame(const pendula_params *p, long frames)
{
	static float buf[PENDULA_N_CHANNELS][BLOCK];
	pendula_outputs o;
	memset(&o, 0, sizeof(o));
	pendula_system sys;
	pendula_system_init(&sys, p);
	for (int k = 0; k < sys.n; ++k)
		o.ch[PENDULA_CH_THETA + k] = buf[PENDULA_CH_THETA + k];
	if (sys.tip_length > 0.0) { /* a model with tip outputs */
		o.ch[PENDULA_CH_TIP_X] = buf[PENDULA_CH_TIP_X];
		o.ch[PENDULA_CH_TIP_Y] = buf[PENDULA_CH_TIP_Y];
	}
	o.ch[PENDULA_CH_ENERGY] = buf[PENDULA_CH_ENERGY];
	double runs[5];
	for (int r = 0; r < 5; ++r) {
		pendula_engine *e = pendula_engine_new(SR, p);
		const double t0 = now();
		for (long done = 0; done < frames; done += BLOCK)
			pendula_engine_run(e, BLOCK, &o);
		runs[r] = (now() - t0) * 1e9 / frames;
		sink = buf[0][BLOCK - 1];
		pendula_engine_free(e);
	}
	return bench_median(runs, 5);
}

static double engine_energy_spread(const pendula_params *p, long frames, double *steps_per_frame)
{
	pendula_engine *e = pendula_engine_new(SR, p);
	double lo = INFINITY, hi = -INFINITY;
	for (long i = 0; i < frames; ++i) {
		pendula_frame f;
		pendula_engine_tick(e, &f);
		lo = fmin(lo, f.energy);
		hi = fmax(hi, f.energy);
	}
	pendula_stats st;
	pendula_engine_stats(e, &st);
	*steps_per_frame = (double)st.steps / (double)st.frames;
	pendula_engine_free(e);
	return (hi - lo) / hi;
}

/* Classical RK4 on (theta, omega), one step of 1/48000 s per frame, writing
 * the angle outputs: with the closed-form accelerations for the double
 * pendulum, the engine's own (arrowhead solve) for the parallel model. */
typedef struct {
	pendula_system sys;
	double th[PENDULA_MAX_BODIES], w[PENDULA_MAX_BODIES];
} rk4_lfo;

static void rk4_init(rk4_lfo *r, const pendula_params *p)
{
	pendula_system_init(&r->sys, p);
	memset(r->w, 0, sizeof(r->w));
	memcpy(r->th, p->theta_init, sizeof(r->th));
}

/* Model A's accelerations in closed form (after the note's eq.
 * (25), corrected): what a hand-written RK4 LFO of the double pendulum
 * would evaluate. */
typedef struct {
	double g, l1, l2, mu;
} closed_form_a;

static void accel_closed_form(const closed_form_a *c, const double *th, const double *w,
                              double *acc)
{
	const double C = cos(th[0] - th[1]), S = sin(th[0] - th[1]);
	const double s1 = sin(th[0]), s2 = sin(th[1]), den = c->mu - C * C;
	acc[0] =
	    (c->g * (s2 * C - c->mu * s1) - (c->l1 * w[0] * w[0] * C + c->l2 * w[1] * w[1]) * S) /
	    (c->l1 * den);
	acc[1] = (c->g * c->mu * (C * s1 - s2) +
	          (c->mu * c->l1 * w[0] * w[0] + c->l2 * w[1] * w[1] * C) * S) /
	         (c->l2 * den);
}

static closed_form_a rk4_closed;
static int rk4_use_closed;

static void rk4_accel(rk4_lfo *r, const double *th, const double *w, double *acc)
{
	if (rk4_use_closed)
		accel_closed_form(&rk4_closed, th, w, acc);
	else
		pendula_accel(&r->sys, th, w, 0, 0, acc);
}

static void rk4_frame(rk4_lfo *r, double h, float *out)
{
	const int n = r->sys.n;
	/* (every body the models allow: the six-link chains have six) */
	enum { NB = PENDULA_MAX_BODIES };
	double k1t[NB], k1w[NB], k2t[NB], k2w[NB], k3t[NB], k3w[NB], k4t[NB], k4w[NB], t[NB], w[NB];
	memcpy(k1t, r->w, sizeof(k1t));
	rk4_accel(r, r->th, r->w, k1w);
	for (int k = 0; k < n; ++k) {
		t[k] = r->th[k] + 0.5 * h * k1t[k];
		w[k] = r->w[k] + 0.5 * h * k1w[k];
	}
	memcpy(k2t, w, sizeof(k2t));
	rk4_accel(r, t, w, k2w);
	for (int k = 0; k < n; ++k) {
		t[k] = r->th[k] + 0.5 * h * k2t[k];
		w[k] = r->w[k] + 0.5 * h * k2w[k];
	}
	memcpy(k3t, w, sizeof(k3t));
	rk4_accel(r, t, w, k3w);
	for (int k = 0; k < n; ++k) {
		t[k] = r->th[k] + h * k3t[k];
		w[k] = r->w[k] + h * k3w[k];
	}
	memcpy(k4t, w, sizeof(k4t));
	rk4_accel(r, t, w, k4w);
	for (int k = 0; k < n; ++k) {
		r->th[k] += h / 6 * (k1t[k] + 2 * k2t[k] + 2 * k3t[k] + k4t[k]);
		r->w[k] += h / 6 * (k1w[k] + 2 * k2w[k] + 2 * k3w[k] + k4w[k]);
		if (r->th[k] >= PI ||
		    r->th[k] < -PI) /* wrapped: unwrapped angles wander and lose precision */
			r->th[k] -= 2 * PI * floor((r->th[k] + PI) / (2 * PI));
		out[k] = (float)(r->th[k] / PI);
	}
}

static double rk4_ns_per_frame(const pendula_params *p, long frames)
{
	double runs[5];
	float out[PENDULA_MAX_BODIES];
	for (int r = 0; r < 5; ++r) {
		rk4_lfo lfo;
		rk4_init(&lfo, p);
		const double t0 = now();
		for (long i = 0; i < frames; ++i)
			rk4_frame(&lfo, p->time_scale / SR, out);
		runs[r] = (now() - t0) * 1e9 / frames;
		sink = out[0];
	}
	return bench_median(runs, 5);
}

static double rk4_energy_spread(const pendula_params *p, long frames)
{
	rk4_lfo lfo;
	float out[PENDULA_MAX_BODIES];
	rk4_init(&lfo, p);
	double lo = INFINITY, hi = -INFINITY;
	for (long i = 0; i < frames; ++i) {
		rk4_frame(&lfo, p->time_scale / SR, out);
		const double en =
		    pendula_energy_normalised(&lfo.sys, pendula_energy(&lfo.sys, lfo.th, lfo.w));
		lo = fmin(lo, en);
		hi = fmax(hi, en);
	}
	return (hi - lo) / hi;
}

int main(int argc, char **argv)
{
	/* --quick: fewer frames, for a smoke run */
	const int quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
	const long time_frames = quick ? 200000 : 2000000;
	const long spread_frames = quick ? 500000 : 10000000;
	struct {
		const char *name;
		pendula_model model;
		int n, shape; /* n = 0, shape = -1: the model's default */
	} cases[] = {
	    {"double", PENDULA_MODEL_DOUBLE, 2, -1},
	    {"parallel4", PENDULA_MODEL_PARALLEL, 4, -1},
	    {"chain_default", PENDULA_MODEL_CHAIN, 0, -1},
	    {"chain6_rods", PENDULA_MODEL_CHAIN, 6, PENDULA_SHAPE_RODS},
	    {"chain6_bobs", PENDULA_MODEL_CHAIN, 6, PENDULA_SHAPE_BOBS},
	};
	const int n_cases = (int)(sizeof(cases) / sizeof(cases[0]));
	printf("# Pendula engine, 48 kHz, default (chaotic) start, blocks of %d frames;\n"
	       "# ns per frame: median of 5 runs of %ld frames; energy spread over %ld frames\n",
	       BLOCK, time_frames, spread_frames);
	for (int c = 0; c < n_cases; ++c) {
		pendula_params p;
		pendula_params_default(&p, cases[c].model);
		if (cases[c].n > 0)
			p.n_bodies = cases[c].n;
		if (cases[c].shape >= 0)
			p.shape = cases[c].shape;
		rk4_use_closed = cases[c].model == PENDULA_MODEL_DOUBLE;
		rk4_closed.g = p.gravity;
		rk4_closed.l1 = p.l[0];
		rk4_closed.l2 = p.l[1];
		rk4_closed.mu = (p.m[0] + p.m[1]) / p.m[1];
		double spf;
		const double ns = engine_ns_per_frame(&p, time_frames);
		const double spread = engine_energy_spread(&p, spread_frames, &spf);
		const double rk_ns = rk4_ns_per_frame(&p, time_frames);
		const double rk_spread = rk4_energy_spread(&p, spread_frames);
		printf("bench engine_%s ns_per_frame=%.2f energy_spread=%.2e\n", cases[c].name, ns,
		       spread);
		printf("bench rk4_per_frame_%s ns_per_frame=%.2f energy_spread=%.2e\n",
		       cases[c].name, rk_ns, rk_spread);
		printf(
		    "# %s: RK4 per frame / engine = %.2f; the engine took %.4f steps per frame\n",
		    cases[c].name, rk_ns / ns, spf);
	}
	return 0;
}
