/* SPDX-License-Identifier: ISC */
/*
 * The drive signal in the engine (issue 35, docs/NUMERICS.md "The drive
 * signal"), every model:
 *   - silence (no buffer, a buffer of zeros) or gain 0 gives the motion of
 *     an engine that was never given a drive, bit for bit;
 *   - the energy budget: with no damping, torque or forcing, the change of
 *     the energy equals the work of the drive's pseudo-force (drive_budget.h),
 *     for a sine and for noise along each of the model's axes, with the
 *     held drive exactly the sampling rule's;
 *   - non-finite and huge samples: finite outputs in range, and the same
 *     output as the rule's value for them (0, or the clamp);
 *   - block sizes: random blocks give the output of one block, bit for bit.
 * The chain's budget: test_drive_chain.c.
 */
#include "angle_models.h"
#include "drive_budget.h"
#include "test_rng.h"

#define RATE   48000.0
#define FRAMES 48000 /* one second */

static const pendula_model all_models[] = {PENDULA_MODEL_DOUBLE, PENDULA_MODEL_PARALLEL,
                                           PENDULA_MODEL_CHAIN, PENDULA_MODEL_SPHERICAL,
                                           PENDULA_MODEL_BEAD};
#define N_MODELS (int)(sizeof(all_models) / sizeof(all_models[0]))

static int is_3d(pendula_model m)
{
	return m == PENDULA_MODEL_SPHERICAL || m == PENDULA_MODEL_BEAD;
}

/* A model's defaults, swinging (the defaults start it away from rest). */
static pendula_params model_params(pendula_model m)
{
	pendula_params p;
	pendula_params_default(&p, m);
	return p;
}

/* Every output channel of `frames` frames, in blocks from `blocks` (0:
 * one block), with drive `signal` (NULL: none given) at `gain`. */
typedef struct {
	float *ch[PENDULA_N_CHANNELS];
} recording;

static void record(pendula_params p, const float *signal, int give_null, const uint32_t *blocks,
                   recording *r)
{
	pendula_engine *e = pendula_engine_new(RATE, &p);
	pendula_outputs out;
	for (int c = 0; c < PENDULA_N_CHANNELS; ++c)
		r->ch[c] = calloc(FRAMES, sizeof(float));
	uint32_t done = 0;
	for (int b = 0; done < FRAMES; ++b) {
		uint32_t n = blocks ? blocks[b] : FRAMES;
		if (n > FRAMES - done)
			n = FRAMES - done;
		for (int c = 0; c < PENDULA_N_CHANNELS; ++c)
			out.ch[c] = r->ch[c] + done;
		if (signal)
			pendula_engine_set_drive(e, signal + done);
		else if (give_null)
			pendula_engine_set_drive(e, NULL);
		pendula_engine_run_events(e, n, &out, NULL, NULL);
		done += n;
	}
	pendula_engine_free(e);
}

static void recording_free(recording *r)
{
	for (int c = 0; c < PENDULA_N_CHANNELS; ++c)
		free(r->ch[c]);
}

/* The first channel where a and b differ (bits), or -1. */
static int recordings_differ(const recording *a, const recording *b)
{
	for (int c = 0; c < PENDULA_N_CHANNELS; ++c)
		if (memcmp(a->ch[c], b->ch[c], FRAMES * sizeof(float)))
			return c;
	return -1;
}

static void test_silent(void)
{
	float *zeros = calloc(FRAMES, sizeof(float));
	float *noise = drive_signal(1, FRAMES, RATE);
	for (int i = 0; i < N_MODELS; ++i) {
		const pendula_model m = all_models[i];
		pendula_params p = model_params(m);
		recording today, other;
		record(p, NULL, 0, NULL, &today);
		struct {
			double gain;
			const float *signal;
			int give_null;
			const char *what;
		} cases[] = {
		    {20.0, NULL, 1, "NULL buffer, gain 20"},
		    {20.0, zeros, 0, "zeros, gain 20"},
		    {0.0, noise, 0, "noise, gain 0"},
		};
		for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); ++k) {
			p.drive_gain = cases[k].gain;
			p.drive_axis = 1;
			record(p, cases[k].signal, cases[k].give_null, NULL, &other);
			const int c = recordings_differ(&today, &other);
			CHECK(c < 0, "model %d, %s: channel %d differs from no drive", (int)m,
			      cases[k].what, c);
			recording_free(&other);
		}
		/* and the drive does something at all */
		p.drive_gain = 2.0;
		record(p, noise, 0, NULL, &other);
		CHECK(recordings_differ(&today, &other) >= 0, "model %d: a drive changes nothing",
		      (int)m);
		recording_free(&other);
		recording_free(&today);
	}
	free(zeros);
	free(noise);
}

/* ---- the budget: each model's E and V_a from its own geometry ---- */

static double angle_energy(const void *ctx, const double *q, const double *qdot)
{
	return ref_energy((const ref_model *)ctx, q, qdot);
}

static double angle_potential(const void *ctx, const double *q, const double *a)
{
	const ref_model *r = ctx;
	double x[NB], y[NB], v = 0.0;
	ref_positions(r, q, x, y);
	for (int k = 0; k < r->n; ++k)
		v += r->m[k] * (a[0] * x[k] + a[1] * y[k]);
	return v;
}

/* The 3-D models: point masses m_k at q[3k..3k+2] (relative to the pivot). */
typedef struct {
	int n;
	double g, m[PENDULA_MAX_BODIES];
} point_masses;

static double point_energy(const void *ctx, const double *q, const double *qdot)
{
	const point_masses *r = ctx;
	double e = 0.0;
	for (int k = 0; k < r->n; ++k) {
		const double *v = qdot + 3 * k;
		e += r->m[k] *
		     (0.5 * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + r->g * q[3 * k + 1]);
	}
	return e;
}

static double point_potential(const void *ctx, const double *q, const double *a)
{
	const point_masses *r = ctx;
	double v = 0.0;
	for (int k = 0; k < r->n; ++k)
		v += r->m[k] * (a[0] * q[3 * k] + a[1] * q[3 * k + 1] + a[2] * q[3 * k + 2]);
	return v;
}

static void check_budget(pendula_params p, const drive_ref *ref, const char *what)
{
	const long frames = 3 * (long)RATE;
	for (int kind = 0; kind < 2; ++kind) {
		for (int axis = 0; axis < (is_3d(p.model) ? 3 : 2); ++axis) {
			float *s = drive_signal(kind, frames, RATE);
			p.drive_axis = axis;
			p.drive_gain = kind == 0 ? 0.5 : 4.0;
			drive_budget_result r;
			drive_budget(&p, RATE, s, frames, ref, &r);
			printf("\n    %s, %s along %d: |work| up to %.4f J, max |dE - work| %.2e J "
			       "(%.1e relative), %ld changes of the drive, sampling off by %.1e",
			       what, kind ? "noise" : "sine", axis, r.max_work, r.max_dev,
			       r.max_dev / r.max_work, r.changes, r.sampling);
			CHECK(r.max_work > 0.01, "%s: the drive did no work", what);
			CHECK(r.max_dev < 1e-6 * r.max_work, "%s: the energy does not add up",
			      what);
			CHECK(r.sampling == 0.0, "%s: the held drive is not the rule's", what);
			CHECK(r.changes > 100, "%s: the drive hardly changed", what);
			free(s);
		}
	}
}

static pendula_params undamped(pendula_model m)
{
	pendula_params p = model_params(m);
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k)
		p.lambda[k] = p.sigma[k] = 0.0;
	p.pivot_x_amp = p.pivot_y_amp = p.pivot_z_amp = 0.0;
	p.energy_target = -1.0;
	return p;
}

static void test_budget(void)
{
	const pendula_model angle[] = {PENDULA_MODEL_DOUBLE, PENDULA_MODEL_PARALLEL};
	for (int i = 0; i < 2; ++i) {
		const pendula_params p = undamped(angle[i]);
		const ref_model r = ref_from_params(&p);
		const drive_ref ref = {angle_energy, angle_potential, &r};
		check_budget(p, &ref, i ? "parallel" : "double");
	}
	const pendula_model spatial[] = {PENDULA_MODEL_SPHERICAL, PENDULA_MODEL_BEAD};
	for (int i = 0; i < 2; ++i) {
		const pendula_params p = undamped(spatial[i]);
		point_masses r = {
		    spatial[i] == PENDULA_MODEL_BEAD ? 1 : p.n_bodies, p.gravity, {0}};
		for (int k = 0; k < r.n; ++k)
			r.m[k] = p.m[k];
		const drive_ref ref = {point_energy, point_potential, &r};
		check_budget(p, &ref, i ? "bead" : "spherical");
	}
}

/* Non-finite and huge samples at the largest gain: finite outputs in their
 * ranges, the same as the rule's values for those samples. */
static void test_hostile(void)
{
	float *wild = drive_signal(1, FRAMES, RATE), *tame = malloc(FRAMES * sizeof(float));
	const float bad[] = {NAN,     INFINITY, -INFINITY, 1e30f, -1e30f,
	                     FLT_MAX, 17.0f,    -1e5f,     1e-40f};
	for (int n = 0; n < FRAMES; ++n) {
		if (n % 7 == 0)
			wild[n] = bad[(n / 7) % (int)(sizeof(bad) / sizeof(bad[0]))];
		tame[n] = drive_rule_sample(wild[n]);
	}
	for (int i = 0; i < N_MODELS; ++i) {
		pendula_params p = model_params(all_models[i]);
		p.drive_gain = 20.0;
		p.drive_axis = is_3d(p.model) ? 2 : 0;
		recording a, b;
		record(p, wild, 0, NULL, &a);
		record(p, tame, 0, NULL, &b);
		CHECK(recordings_differ(&a, &b) < 0,
		      "model %d: a wild sample is not its rule's value", (int)p.model);
		int bad_frames = 0;
		for (int c = 0; c < PENDULA_N_CHANNELS; ++c)
			for (int n = 0; n < FRAMES; ++n) {
				const float x = a.ch[c][n];
				const float hi = c == PENDULA_CH_ENERGY ? 1e9f : 1.0f;
				const float lo = c == PENDULA_CH_ENERGY ? 0.0f : -1.0f;
				bad_frames += !(x >= lo && x <= hi);
			}
		CHECK(bad_frames == 0, "model %d: %d output values not finite or out of range",
		      (int)p.model, bad_frames);
		recording_free(&a);
		recording_free(&b);
	}
	free(wild);
	free(tame);
}

/* Random block sizes (0 included) give the output of one block. */
static void test_blocks(void)
{
	float *noise = drive_signal(1, FRAMES, RATE);
	static uint32_t blocks[FRAMES];
	test_rng rng = test_rng_seeded(35);
	for (int b = 0; b < FRAMES; ++b)
		blocks[b] = test_rng_below(&rng, 700);
	for (int i = 0; i < N_MODELS; ++i) {
		pendula_params p = model_params(all_models[i]);
		p.drive_gain = 3.0;
		p.drive_axis = 1;
		recording one, many;
		record(p, noise, 0, NULL, &one);
		record(p, noise, 0, blocks, &many);
		const int c = recordings_differ(&one, &many);
		CHECK(c < 0, "model %d: channel %d depends on the blocks", (int)p.model, c);
		recording_free(&one);
		recording_free(&many);
	}
	free(noise);
}

int main(void)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	CU_pSuite s = CU_add_suite("drive", NULL, NULL);
	CU_add_test(s, "silence or gain 0: no drive, bit for bit", test_silent);
	CU_add_test(s, "energy budget with the drive's work", test_budget);
	CU_add_test(s, "non-finite and huge samples", test_hostile);
	CU_add_test(s, "random blocks: the same output", test_blocks);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	const unsigned failed = CU_get_number_of_failures();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
