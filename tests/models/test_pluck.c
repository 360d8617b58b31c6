/* SPDX-License-Identifier: ISC */
/*
 * The pluck (pendula_engine_pluck; docs/GUIDE.md, "Plucking it"), on the
 * engine, against ground truth computed here:
 *
 *   - from rest at the bottom, every model (and a three-link chain, a
 *     two-link spherical pendulum, the bead on its floor) plucked with
 *     several energies has, at the very next frame, the energy asked
 *     within 5 %; for the double pendulum the energy is also computed here
 *     from the frame's angles and rates (its textbook mass matrix), not
 *     from the engine's own energy;
 *   - the kick acts at that frame and moves nothing: the plucked frame's
 *     angles and tip are those of the same frame without the pluck;
 *   - a moving double pendulum plucked gains the energy asked within 5 %;
 *   - a pluck of 0 or less changes nothing, bit for bit;
 *   - the same plucks at the same frames give bit-identical outputs
 *     whatever the block sizes (random, 0-frame blocks included);
 *   - plucked as hard as it goes every 64 frames for two seconds, the
 *     outputs stay finite and in their ranges.
 */
#include "cunit_main.h"
#include "pendula_engine.h"
#include "ports.h"
#include "test_rng.h"

#include <CUnit/Basic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RATE 48000.0

/* A model at rest at the bottom: no initial angle or spin, no forcing,
 * torque or chaos knob (damping left as it is). */
static pendula_params rest_params(pendula_model model, int n, int surface)
{
	pendula_params p;
	pendula_params_default(&p, model);
	if (n > 0)
		p.n_bodies = n;
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		p.theta_init[k] = 0.0;
		p.phi_init[k] = 0.0;
		p.sigma[k] = 0.0;
	}
	p.spin_init = 0.0;
	p.pivot_x_amp = p.pivot_y_amp = p.pivot_z_amp = 0.0;
	p.energy_target = -1.0;
	p.surface = surface;
	p.wave_amp = 0.0;
	p.floor_x_init = 0.0;
	return p;
}

typedef struct {
	const char *name;
	pendula_model model;
	int n, surface;
} model_case;

static const model_case cases[] = {
    {"double", PENDULA_MODEL_DOUBLE, 0, 0},       {"parallel", PENDULA_MODEL_PARALLEL, 0, 0},
    {"chain", PENDULA_MODEL_CHAIN, 0, 0},         {"chain 3", PENDULA_MODEL_CHAIN, 3, 0},
    {"spherical", PENDULA_MODEL_SPHERICAL, 0, 0}, {"spherical 2", PENDULA_MODEL_SPHERICAL, 2, 0},
    {"bead", PENDULA_MODEL_BEAD, 0, 0},           {"bead floor", PENDULA_MODEL_BEAD, 0, 1},
};
#define N_CASES (sizeof(cases) / sizeof(cases[0]))

/* The double pendulum's normalised energy from a frame's angles and rates:
 * T = 1/2 [(m1 + m2) l1^2 w1^2 + m2 l2^2 w2^2 + 2 m2 l1 l2 cos(th1 - th2) w1 w2],
 * U = -(m1 + m2) g l1 cos th1 - m2 g l2 cos th2, over D = 2 |U_min|. */
static double double_energy(const pendula_params *p, const pendula_frame *f)
{
	const double m1 = p->m[0], m2 = p->m[1], l1 = p->l[0], l2 = p->l[1], g = p->gravity;
	const double t1 = f->theta[0], t2 = f->theta[1], w1 = f->omega[0], w2 = f->omega[1];
	const double kin = 0.5 * ((m1 + m2) * l1 * l1 * w1 * w1 + m2 * l2 * l2 * w2 * w2 +
	                          2.0 * m2 * l1 * l2 * cos(t1 - t2) * w1 * w2);
	const double pot = -(m1 + m2) * g * l1 * cos(t1) - m2 * g * l2 * cos(t2);
	const double u_min = -(m1 + m2) * g * l1 - m2 * g * l2;
	return (kin + pot - u_min) / (-2.0 * u_min);
}

static void test_from_rest(void)
{
	static const double asked[] = {0.02, 0.3, 1.0, 2.0, 0.5 * 64.0 / 127.0};
	for (size_t c = 0; c < N_CASES; ++c)
		for (size_t i = 0; i < sizeof(asked) / sizeof(asked[0]); ++i) {
			const pendula_params p =
			    rest_params(cases[c].model, cases[c].n, cases[c].surface);
			pendula_engine *e = pendula_engine_new(RATE, &p);
			pendula_engine *twin = pendula_engine_new(RATE, &p);
			pendula_frame f, g;
			for (int j = 0; j < 777; ++j) {
				pendula_engine_tick(e, &f);
				pendula_engine_tick(twin, &g);
			}
			const double before = f.energy;
			pendula_engine_pluck(e, asked[i]);
			pendula_engine_tick(e, &f);
			pendula_engine_tick(twin, &g);
			const double gained = f.energy - before;
			if (!(fabs(gained - asked[i]) <= 0.05 * asked[i]))
				printf("  %s: asked %g, before %g, after %g\n", cases[c].name,
				       asked[i], before, f.energy);
			CU_ASSERT(fabs(before) < 1e-9);
			CU_ASSERT(fabs(gained - asked[i]) <= 0.05 * asked[i]);
			if (cases[c].model == PENDULA_MODEL_DOUBLE)
				CU_ASSERT(fabs(double_energy(&p, &f) - asked[i]) <=
				          0.05 * asked[i]);
			/* the kick moves nothing at its frame */
			for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
				CU_ASSERT(fabs(f.theta[k] - g.theta[k]) < 1e-6);
				CU_ASSERT(fabs(f.x[k] - g.x[k]) < 1e-6);
				CU_ASSERT(fabs(f.z[k] - g.z[k]) < 1e-6);
			}
			CU_ASSERT(fabs(f.tip_x_norm - g.tip_x_norm) < 1e-6);
			CU_ASSERT(fabs(f.tip_y_norm - g.tip_y_norm) < 1e-6);
			CU_ASSERT(f.t == g.t);
			/* and it moves: some output changes within 10 ms */
			double moved = 0.0;
			for (int j = 0; j < 480; ++j) {
				pendula_engine_tick(e, &f);
				pendula_engine_tick(twin, &g);
				moved =
				    fmax(moved, fabs(f.tip_x_norm - g.tip_x_norm) +
				                    fabs(f.x[0] - g.x[0]) + fabs(f.z[0] - g.z[0]) +
				                    fabs(f.theta[0] - g.theta[0]));
			}
			CU_ASSERT(moved > 1e-4);
			pendula_engine_free(e);
			pendula_engine_free(twin);
		}
}

/* A swinging double pendulum gains what a pluck asks, at its frame. */
static void test_moving(void)
{
	pendula_params p = rest_params(PENDULA_MODEL_DOUBLE, 0, 0);
	p.theta_init[0] = 1.0;
	p.theta_init[1] = -0.5;
	p.lambda[0] = p.lambda[1] = 0.0;
	pendula_engine *e = pendula_engine_new(RATE, &p);
	pendula_frame f;
	for (int round = 0; round < 6; ++round) {
		for (int j = 0; j < 5011; ++j)
			pendula_engine_tick(e, &f);
		const double before = double_energy(&p, &f), asked = 0.05 + 0.03 * round;
		pendula_engine_pluck(e, asked);
		pendula_engine_tick(e, &f);
		const double gained = double_energy(&p, &f) - before;
		CU_ASSERT(fabs(gained - asked) <= 0.05 * asked);
		CU_ASSERT(fabs(f.energy - double_energy(&p, &f)) < 1e-6);
	}
	pendula_engine_free(e);
}

/* ---------------------------------------------------------------------- */
/* Block sizes                                                             */

#define N_OUT (PENDULA_CH_W + PENDULA_MAX_BODIES)
#define TOTAL 24000

static float *buf_all; /* N_OUT channels x TOTAL frames */

/* Renders TOTAL frames in blocks (sizes from the rng, or whole if none),
 * cut at the pluck frames, plucking there. */
static void render_plucked(const pendula_params *p, const uint32_t *at, const double *energy,
                           int n_plucks, test_rng *rng)
{
	pendula_engine *e = pendula_engine_new(RATE, p);
	uint32_t done = 0;
	int next = 0;
	while (done < TOTAL) {
		while (next < n_plucks && at[next] == done)
			pendula_engine_pluck(e, energy[next++]);
		uint32_t n = rng ? test_rng_below(rng, 700) : TOTAL;
		if (n > TOTAL - done)
			n = TOTAL - done;
		if (next < n_plucks && at[next] - done < n)
			n = at[next] - done;
		pendula_outputs out;
		for (int ch = 0; ch < PENDULA_N_CHANNELS; ++ch)
			out.ch[ch] = ch < N_OUT ? buf_all + (size_t)ch * TOTAL + done : NULL;
		pendula_engine_run(e, n, &out);
		done += n;
	}
	pendula_engine_free(e);
}

static void test_block_sizes(void)
{
	static const uint32_t at[] = {1000, 1001, 4321, 4321, 9000, 15000, 15001, 23999};
	static const double energy[] = {0.4, 0.1, 0.3, 0.2, 1.5, 0.05, 2.0, 0.7};
	const int n_plucks = (int)(sizeof(at) / sizeof(at[0]));
	const size_t size = (size_t)N_OUT * TOTAL;
	float *ref = malloc(size * sizeof(float));
	buf_all = malloc(size * sizeof(float));
	test_rng rng = test_rng_seeded(35);
	for (size_t c = 0; c < N_CASES; ++c) {
		const pendula_params p = rest_params(cases[c].model, cases[c].n, cases[c].surface);
		memset(buf_all, 0, size * sizeof(float));
		render_plucked(&p, at, energy, n_plucks, NULL);
		memcpy(ref, buf_all, size * sizeof(float));
		for (int trial = 0; trial < 3; ++trial) {
			memset(buf_all, 0, size * sizeof(float));
			render_plucked(&p, at, energy, n_plucks, &rng);
			const int same = memcmp(ref, buf_all, size * sizeof(float)) == 0;
			if (!same)
				printf("  %s: outputs depend on the block sizes\n", cases[c].name);
			CU_ASSERT(same);
		}
		/* the plucks did something: the energy output after the first */
		CU_ASSERT(ref[(size_t)PENDULA_CH_ENERGY * TOTAL + 1000] > 0.3f);
	}
	free(ref);
	free(buf_all);
}

/* A pluck of 0, less, or NaN leaves the motion as it was, bit for bit. */
static void test_zero(void)
{
	pendula_params p = rest_params(PENDULA_MODEL_DOUBLE, 0, 0);
	p.theta_init[0] = 2.0;
	pendula_engine *a = pendula_engine_new(RATE, &p), *b = pendula_engine_new(RATE, &p);
	pendula_frame fa, fb;
	int same = 1;
	for (int j = 0; j < 20000; ++j) {
		if (j % 1000 == 7) {
			pendula_engine_pluck(b, 0.0);
			pendula_engine_pluck(b, -1.0);
			pendula_engine_pluck(b, NAN);
		}
		pendula_engine_tick(a, &fa);
		pendula_engine_tick(b, &fb);
		same &= memcmp(&fa, &fb, sizeof(fa)) == 0;
	}
	CU_ASSERT(same);
	pendula_engine_free(a);
	pendula_engine_free(b);
}

/* Plucked as hard as it goes, every 64 frames: outputs finite, in range. */
static void test_hard(void)
{
	enum { BLOCK = 64, BLOCKS = 1500 };
	static float out_buf[N_OUT][BLOCK];
	for (size_t c = 0; c < N_CASES; ++c) {
		const pendula_params p = rest_params(cases[c].model, cases[c].n, cases[c].surface);
		pendula_engine *e = pendula_engine_new(RATE, &p);
		pendula_outputs out;
		for (int ch = 0; ch < PENDULA_N_CHANNELS; ++ch)
			out.ch[ch] = ch < N_OUT ? out_buf[ch] : NULL;
		int ok = 1;
		for (int b = 0; b < BLOCKS; ++b) {
			pendula_engine_pluck(e, b % 2 ? 2.0 : PENDULA_PLUCK_MAX);
			pendula_engine_run(e, BLOCK, &out);
			for (int ch = 0; ch < N_OUT; ++ch)
				for (int i = 0; i < BLOCK; ++i) {
					const float v = out_buf[ch][i];
					const float lo = ch == PENDULA_CH_ENERGY ? 0.0f : -1.0f;
					const float hi = ch == PENDULA_CH_ENERGY
					                     ? PENDULA_ENERGY_OUTPUT_MAX
					                     : 1.0f;
					ok &= isfinite(v) && v >= lo && v <= hi;
				}
		}
		if (!ok)
			printf("  %s: an output left its range\n", cases[c].name);
		CU_ASSERT(ok);
		pendula_engine_free(e);
	}
}

int main(void)
{
	static CU_TestInfo tests[] = {
	    {"from rest: the energy asked, at the frame", test_from_rest},
	    {"moving: the energy asked", test_moving},
	    {"block sizes: bit-identical", test_block_sizes},
	    {"0: nothing changes", test_zero},
	    {"hard plucks: outputs in range", test_hard},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {{"pluck", NULL, NULL, NULL, NULL, tests}, CU_SUITE_INFO_NULL};
	return test_cunit_main("test_pluck", suites);
}
