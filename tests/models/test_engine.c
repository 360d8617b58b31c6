/* SPDX-License-Identifier: ISC */
/*
 * Tests of the Pendula engine (CUnit): main() runs, as suites of one
 * program, the physics of the angle models (test_angle_physics.c), their
 * integrator (test_integrator.c), the engine's sampler (here: defaults,
 * block sizes, sample rates, smooth outputs, settings changed while
 * running, the state at the end of the step, the velocity level's map,
 * memory) and its limits
 * (test_engine_limits.c).
 *
 * Ground truth never comes from the engine's own output: every reference is
 * computed in the tests from the note's equations with code of its own
 * (angle_models.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "angle_models.h"
#include "cunit_main.h"
#include "test_rng.h"

/* The random draws of the tests below; each test seeds it first. */
static test_rng rng;

static void test_defaults_match_port_table(void)
{
	/* Every setting a model's ports fill starts at that port's default in
	 * that model (read back from the field the port table names). */
	for (int v = 0; v < PENDULA_N_SIGNAL_VARIANTS; v += 2) {
		const pendula_model model = pendula_variant_model(v);
		pendula_params p;
		pendula_params_default(&p, model);
		int checked = 0;
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
			const pendula_port_info *info = &pendula_ports[id];
			if (!(info->models & (1u << model)) || info->param < 0)
				continue;
			const char *field = (const char *)&p + info->param;
			double value = info->conv == PC_INT ? *(const int *)(const void *)field
			                                    : *(const double *)(const void *)field;
			if (info->conv == PC_DEG)
				value /= DEG;
			CU_ASSERT_DOUBLE_EQUAL(value, pendula_port_default((pendula_variant)v, id),
			                       1e-6);
			++checked;
		}
		CU_ASSERT(checked > 10);
		CU_ASSERT(p.model == model);
	}
	/* the double pendulum's fixed two bodies (a default for a port it lacks) */
	pendula_params d;
	pendula_params_default(&d, PENDULA_MODEL_DOUBLE);
	CU_ASSERT(d.n_bodies == 2);
}

static void render(pendula_engine *e, long frames, const unsigned *blocks, int nblocks, float *out)
{
	float scratch[5][8192];
	long done = 0;
	int bi = 0;
	while (done < frames) {
		uint32_t n = blocks[bi++ % nblocks];
		if (n > frames - done)
			n = (uint32_t)(frames - done);
		pendula_outputs o = {{[PENDULA_CH_THETA] = scratch[0],
		                      [PENDULA_CH_THETA + 1] = scratch[1],
		                      [PENDULA_CH_THETA + 2] = scratch[2],
		                      [PENDULA_CH_TIP_X] = scratch[3],
		                      [PENDULA_CH_ENERGY] = scratch[4]}};
		pendula_engine_run(e, n, &o);
		for (uint32_t i = 0; i < n; ++i)
			for (int c = 0; c < 5; ++c)
				out[(done + i) * 5 + c] = scratch[c][i];
		done += n;
	}
}

static void test_block_size_independent(void)
{
	for (int model = 0; model < 2; ++model) {
		pendula_params p;
		pendula_params_default(&p, (pendula_model)model);
		p.pivot_x_amp = 0.05; /* forcing too, so the phase bookkeeping counts */
		p.pivot_x_freq = 3.0;
		const long frames = 3 * 48000;
		float *a = malloc(sizeof(float) * 5 * frames),
		      *b = malloc(sizeof(float) * 5 * frames),
		      *c = malloc(sizeof(float) * 5 * frames);
		unsigned fixed[1] = {256}, one[1] = {1}, random_blocks[64];
		rng = test_rng_seeded(7);
		for (int i = 0; i < 64; ++i)
			random_blocks[i] = (i % 5 == 0) ? 0 : test_rng_below(&rng, 3000);
		pendula_engine *e1 = pendula_engine_new(48000, &p),
		               *e2 = pendula_engine_new(48000, &p),
		               *e3 = pendula_engine_new(48000, &p);
		render(e1, frames, fixed, 1, a);
		render(e2, frames, random_blocks, 64, b);
		render(e3, frames, one, 1, c);
		CU_ASSERT(memcmp(a, b, sizeof(float) * 5 * frames) == 0);
		CU_ASSERT(memcmp(a, c, sizeof(float) * 5 * frames) == 0);
		/* and a reset reproduces the start exactly */
		pendula_engine_reset(e1);
		render(e1, frames, fixed, 1, b);
		CU_ASSERT(memcmp(a, b, sizeof(float) * 5 * frames) == 0);
		/* frame 0 shows the initial state */
		CU_ASSERT_DOUBLE_EQUAL(a[0] * PI, p.theta_init[0], 1e-6);
		CU_ASSERT_DOUBLE_EQUAL(a[1] * PI, p.theta_init[1], 1e-6);
		pendula_engine_free(e1);
		pendula_engine_free(e2);
		pendula_engine_free(e3);
		free(a);
		free(b);
		free(c);
	}
}

static void test_sample_rate_independent(void)
{
	/* A regular motion (small swing) compared at t = 0.02 s multiples, which
	 * are whole frames at every rate. */
	const double rates[5] = {22050, 44100, 48000, 96000, 192000};
	const int points = 100; /* 2 s */
	double th[5][100][2];
	pendula_params p = double_params(1, 1, 1, 1);
	p.theta_init[0] = 20 * DEG;
	p.theta_init[1] = -10 * DEG;
	for (int r = 0; r < 5; ++r) {
		pendula_engine *e = pendula_engine_new(rates[r], &p);
		const long every = (long)(rates[r] * 0.02);
		for (long i = 0; i < every * points; ++i) {
			pendula_frame f;
			pendula_engine_tick(e, &f);
			if (i % every == 0) {
				th[r][i / every][0] = f.theta[0];
				th[r][i / every][1] = f.theta[1];
			}
		}
		pendula_engine_free(e);
	}
	double worst = 0.0;
	for (int r = 1; r < 5; ++r)
		for (int i = 0; i < points; ++i)
			for (int k = 0; k < 2; ++k)
				worst = fmax(worst, fabs(th[r][i][k] - th[0][i][k]));
	printf("  max angle difference across 22.05..192 kHz over 2 s: %.2e rad\n", worst);
	CU_ASSERT(worst < 1e-4);
}

static void test_smooth_and_continuous(void)
{
	/* No steps at step or block boundaries, nor when parameters change:
	 * successive frames differ by about omega dt, and omega stays
	 * continuous across a change of masses and lengths. */
	pendula_params p = double_params(1, 1, 1, 1);
	const double sr = 48000, dt = 1 / sr;
	pendula_engine *e = pendula_engine_new(sr, &p);
	pendula_frame prev, f;
	pendula_engine_tick(e, &prev);
	double worst = 0.0, worst_w = 0.0;
	for (long i = 1; i < 4 * 48000; ++i) {
		if (i % 12000 == 0) { /* change the physics while it swings */
			p.m[1] = p.m[1] == 1.0 ? 0.3 : 1.0;
			p.l[0] = p.l[0] == 1.0 ? 0.8 : 1.0;
			p.gravity = p.gravity == 9.81 ? 5.0 : 9.81;
			pendula_engine_set_params(e, &p);
		}
		pendula_engine_tick(e, &f);
		for (int k = 0; k < 2; ++k) {
			double d = f.theta[k] - prev.theta[k];
			d -= 2 * PI * floor(d / (2 * PI) + 0.5);
			const double expect = 0.5 * (f.omega[k] + prev.omega[k]) * dt;
			worst = fmax(worst, fabs(d - expect) / (fabs(expect) + 1e-6));
			worst_w = fmax(worst_w, fabs(f.omega[k] - prev.omega[k]));
		}
		prev = f;
	}
	pendula_engine_free(e);
	printf("  worst |dtheta - omega dt| / |omega dt| = %.2e, worst |domega| per frame = %.2e "
	       "rad/s\n",
	       worst, worst_w);
	CU_ASSERT(worst < 1e-2);
	CU_ASSERT(worst_w < 0.05); /* |acceleration| dt is below ~1e-2 here */
}

static void test_bodies_added(void)
{
	pendula_params p = parallel_params(2);
	pendula_engine *e = pendula_engine_new(48000, &p);
	pendula_frame f, g;
	for (int i = 0; i < 24000; ++i)
		pendula_engine_tick(e, &f);
	p.n_bodies = 4;
	pendula_engine_set_params(e, &p);
	/* the new settings take effect with the next step, within the longest
	 * step (1/128 s, 375 frames at 48 kHz) */
	for (int i = 0; i < 400; ++i)
		pendula_engine_tick(e, &g);
	/* bodies 1, 2 carried on (close to where they were), 3 and 4 started
	 * near their initial angles at rest */
	CU_ASSERT(fabs(g.theta[0] - f.theta[0]) < 0.2);
	CU_ASSERT(fabs(g.theta[2] - p.theta_init[2]) < 0.05);
	CU_ASSERT(fabs(g.theta[3] - p.theta_init[3]) < 0.05);
	pendula_engine_free(e);

	/* The directions agree with the angles from the frame a body comes or
	 * goes (x = sin theta, y = -cos theta; 0 for a body that is not
	 * there): they used to blend from the old system's over the first
	 * step (a new body's direction off by up to 1 for 9 ms). */
	for (int dir = 0; dir < 2; ++dir) {
		p = parallel_params(dir ? 4 : 2);
		e = pendula_engine_new(48000, &p);
		for (int i = 0; i < 24000; ++i)
			pendula_engine_tick(e, &f);
		p.n_bodies = dir ? 2 : 4;
		pendula_engine_set_params(e, &p);
		double worst = 0.0;
		int applied = -1;
		for (int i = 0; i < 4800; ++i) {
			pendula_engine_tick(e, &g);
			if (applied < 0 && (dir ? g.theta[3] == 0.0 : g.theta[3] != 0.0))
				applied = i;
			if (applied < 0)
				continue;
			for (int k = 2; k < 4; ++k) {
				const double sx = dir ? 0.0 : sin(g.theta[k]),
				             sy = dir ? 0.0 : -cos(g.theta[k]);
				worst = fmax(worst, fmax(fabs(g.x[k] - sx), fabs(g.y[k] - sy)));
			}
		}
		printf("  bodies %s: applied after %d frames; directions of bodies 3, 4 off their "
		       "angles by at most %.2g\n",
		       dir ? "4 -> 2" : "2 -> 4", applied, worst);
		CU_ASSERT(applied >= 0 && applied <= 400);
		CU_ASSERT(worst < 1e-3);
		pendula_engine_free(e);
	}
}

/* pendula_engine_state is the end of the step the next frame falls in:
 * that frame's time is inside the step, and the state's own energy (from
 * pendula_energy, not from the engine's channels) is the run's. */
static void test_engine_state(void)
{
	static const pendula_model models[] = {PENDULA_MODEL_DOUBLE, PENDULA_MODEL_CHAIN,
	                                       PENDULA_MODEL_SPHERICAL};
	for (size_t m = 0; m < sizeof(models) / sizeof(models[0]); ++m) {
		pendula_params p;
		pendula_params_default(&p, models[m]);
		pendula_engine *e = pendula_engine_new(48000, &p);
		const pendula_system *sys = pendula_engine_system(e);
		double worst_t = 0.0, worst_e = 0.0;
		int inside = 1;
		for (int i = 0; i < 48000; ++i) {
			pendula_frame f;
			pendula_engine_tick(e, &f);
			pendula_state s;
			pendula_engine_state(e, &s);
			pendula_stats st;
			pendula_engine_stats(e, &st);
			const double next =
			    f.t + p.time_scale / 48000.0; /* the next frame's time */
			inside &= next <= s.t * (1.0 + 1e-12) &&
			          s.t - next <= st.step_size * (1.0 + 1e-9);
			worst_t = fmax(worst_t, s.t - next);
			double v[PENDULA_MAX_DOF];
			pendula_velocity(sys, s.q, s.p, v);
			const double en =
			    pendula_energy_normalised(sys, pendula_energy(sys, s.q, v));
			worst_e = fmax(worst_e, fabs(en - f.energy));
		}
		printf("  %s: state ahead of the next frame by at most %.3g s; energies apart by "
		       "%.2g\n",
		       pendula_model_infos[models[m]].slug, worst_t, worst_e);
		CU_ASSERT(inside);
		CU_ASSERT(worst_t > 0.0);
		/* conserved (no forcing, damping or torque by default): the frame
		 * between two steps and the step's end agree to the energy error */
		CU_ASSERT(worst_e < 1e-6);
		pendula_engine_free(e);
	}
}

/* New settings act within about 10 ms of audio at any time scale: at
 * time_scale 0.01 a step of 1/128 s of simulated time would otherwise last
 * 0.78 s of audio (MAX_STEP_AUDIO in engine/step.c). */
static void test_settings_latency(void)
{
	pendula_params p = parallel_params(2);
	p.time_scale = 0.01;
	pendula_engine *e = pendula_engine_new(48000, &p);
	pendula_frame f;
	for (int i = 0; i < 24000; ++i)
		pendula_engine_tick(e, &f);
	p.n_bodies = 4;
	pendula_engine_set_params(e, &p);
	int frames = 0;
	while (frames < 48000 && f.theta[2] == 0.0) {
		pendula_engine_tick(e, &f);
		++frames;
	}
	pendula_stats st;
	pendula_engine_stats(e, &st);
	printf("  time_scale 0.01: new settings act after %d frames (%.1f ms), step %.3g s\n",
	       frames, frames / 48.0, st.step_size);
	CU_ASSERT(frames <= 520); /* 10.4 ms, plus the frame that starts the step */
	CU_ASSERT(fabs(f.theta[2] - p.theta_init[2]) < 1e-6);
	pendula_engine_free(e);
}
/* The velocity level's map v / sqrt(1 + v^2) (pmath.h) at values where it
 * is known: exact where the square root is (3/4 -> 3/5), within an ulp of
 * 1/sqrt(2), sqrt(3)/2 and 7/sqrt(50); odd, nondecreasing and within
 * [-1, 1] over a sweep; +-1 at the infinities, 0 for NaN and for a
 * subnormal, never a subnormal result. */
static void test_velocity_level_map(void)
{
	const struct {
		float v, want, tol;
	} c[] = {
	    {0.0f, 0.0f, 0.0f},
	    {0.75f, 0.6f, 0.0f},
	    {-0.75f, -0.6f, 0.0f},
	    {1.0f, 0.70710678f, 6e-8f},
	    {-1.7320508f, -0.8660254f, 1.2e-7f},
	    {7.0f, 0.98994949f, 1.2e-7f},
	    {1e-10f, 1e-10f, 0.0f},
	    {1e-19f, 1e-19f, 0.0f},
	    {1e-21f, 0.0f, 0.0f},
	    {1e-40f, 0.0f, 0.0f},
	    {1e30f, 1.0f, 0.0f},
	    {-1e30f, -1.0f, 0.0f},
	    {INFINITY, 1.0f, 0.0f},
	    {-INFINITY, -1.0f, 0.0f},
	    {NAN, 0.0f, 0.0f},
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; ++i) {
		const float l = pendula_velocity_level_of(c[i].v);
		CU_ASSERT(fabsf(l - c[i].want) <= c[i].tol);
	}
	float prev = -1.0f;
	int bad = 0;
	for (int i = -200000; i <= 200000; ++i) {
		const float v = (float)i * 1e-3f, l = pendula_velocity_level_of(v);
		bad += l != -pendula_velocity_level_of(-v);
		bad += !(l >= prev && l <= 1.0f);
		bad += !(l == 0.0f || fabsf(l) >= FLT_MIN);
		prev = l;
	}
	CU_ASSERT(bad == 0);
}

static void test_memory(void)
{
	printf("  engine state: %lu bytes\n", pendula_engine_size());
	/* The engine stays about 4 kB so that many instances stay in cache
	 * (docs/BENCHMARKS.md, "Why the constants are what they are"). */
	CU_ASSERT(pendula_engine_size() <= 4096 + 512);
}

static CU_TestInfo engine_tests[] = {
    {"defaults match the port table", test_defaults_match_port_table},
    {"block-size independence and reset", test_block_size_independent},
    {"sample-rate independence", test_sample_rate_independent},
    {"smooth output, continuous parameter changes", test_smooth_and_continuous},
    {"bodies added while running", test_bodies_added},
    {"the state at the end of the current step", test_engine_state},
    {"new settings act within 10 ms at any time scale", test_settings_latency},
    {"the velocity level's map", test_velocity_level_map},
    {"memory", test_memory},
    CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
    {"angle physics", NULL, NULL, NULL, NULL, angle_physics_tests},
    {"integrator", NULL, NULL, NULL, NULL, integrator_tests},
    {"engine", NULL, NULL, NULL, NULL, engine_tests},
    {"engine limits", NULL, NULL, NULL, NULL, engine_limits_tests},
    CU_SUITE_INFO_NULL,
};

int main(void)
{
	return test_cunit_main("test_engine", suites);
}
