/* SPDX-License-Identifier: ISC */
/*
 * The chain in the engine: link_shape switched and links added while
 * running, random settings inside the ranges, the pose, the Gauss
 * predictor's guesses, the velocity levels at the chaos knob's top.  Run
 * by test_chain.c.
 */
#define _POSIX_C_SOURCE 200809L
#include "chain.h"
#include "scheme_gauss.h" /* the predictor of the chain's Gauss step */
#include "sweep.h"

/* ------------------------------------------------------------------------ */
/* Changes while running                                                    */

static void test_shape_switch_continuous(void)
{
	/* link_shape bobs -> rods -> custom while swinging: theta and omega go
	 * on continuously (p follows the new mass matrix). */
	pendula_params p = chain_params(3, PENDULA_SHAPE_BOBS);
	const double sr = 48000, dt = 1 / sr;
	pendula_engine *e = pendula_engine_new(sr, &p);
	pendula_frame prev, f;
	pendula_engine_tick(e, &prev);
	double worst = 0.0, worst_w = 0.0, calm_w = 0.0, fastest = 0.0;
	for (long i = 1; i < 3 * 48000; ++i) {
		if (i % 24000 == 0) {
			p.shape = (p.shape + 1) % 3;
			pendula_engine_set_params(e, &p);
		}
		pendula_engine_tick(e, &f);
		for (int k = 0; k < 3; ++k) {
			double d = f.theta[k] - prev.theta[k];
			d -= 2 * PI * floor(d / (2 * PI) + 0.5);
			const double expect = 0.5 * (f.omega[k] + prev.omega[k]) * dt;
			worst = fmax(worst, fabs(d - expect));
			const double dw = fabs(f.omega[k] - prev.omega[k]);
			worst_w = fmax(worst_w, dw);
			if (i % 24000 > 1000)
				calm_w = fmax(calm_w, dw);
			fastest = fmax(fastest, fabs(f.omega[k]));
		}
		prev = f;
	}
	pendula_engine_free(e);
	/* (the engine's interpolant over the step in which new settings arrive
	 * starts from a zero acceleration: omega bends within that one step by
	 * about |acceleration| h, but the state itself is continuous) */
	printf("\n  shape switched twice while swinging: worst |dtheta - omega dt| = %.2e rad, "
	       "worst |domega| per frame %.2e rad/s (%.2e away from the switches; |omega| up "
	       "to %.1f rad/s)",
	       worst, worst_w, calm_w, fastest);
	CU_ASSERT(worst < 1e-5);
	CU_ASSERT(worst_w < 2.0 * calm_w); /* no jump at the switches */
}

static void test_links_added(void)
{
	pendula_params p = chain_params(2, PENDULA_SHAPE_RODS);
	p.theta_init[4] = 40 * DEG;
	pendula_engine *e = pendula_engine_new(48000, &p);
	pendula_frame f, g;
	for (int i = 0; i < 24000; ++i)
		pendula_engine_tick(e, &f);
	CU_ASSERT(f.theta[2] == 0.0 && f.theta[4] == 0.0);
	p.n_bodies = 5;
	pendula_engine_set_params(e, &p);
	/* New settings take effect with the next step, at most 1/128 s
	 * (375 frames at 48 kHz) later; 400 frames see the links at their
	 * start. */
	double worst_start = 0.0;
	for (int i = 0; i < 400; ++i)
		pendula_engine_tick(e, &g);
	for (int k = 2; k < 5; ++k)
		worst_start = fmax(worst_start, fabs(g.theta[k] - p.theta_init[k]));
	printf("\n  links 3..5 added after 0.5 s: 400 frames later within %.3f rad of their "
	       "initial angles; link 1 moved %.3f rad",
	       worst_start, fabs(g.theta[0] - f.theta[0]));
	CU_ASSERT(worst_start < 0.05);
	CU_ASSERT(fabs(g.theta[0] - f.theta[0]) < 0.2);
	/* and fewer again: the links beyond N read 0 */
	p.n_bodies = 1;
	pendula_engine_set_params(e, &p);
	for (int i = 0; i < 2000; ++i)
		pendula_engine_tick(e, &g);
	CU_ASSERT(g.theta[1] == 0.0 && g.theta[4] == 0.0);
	pendula_engine_free(e);
}

/* Half the cases free (no damping, no torque: the hardest for energy),
 * forcing in one case of three; the controls are drawn all the same. */
static sweep_choice free_half_forced_third(pendula_port_id id, int index)
{
	const char *symbol = pendula_ports[id].symbol;
	if (index % 4 >= 2 && (strstr(symbol, "lambda") || strstr(symbol, "sigma")))
		return SWEEP_ZERO;
	if (index % 3 && !strncmp(symbol, "pivot", 5))
		return SWEEP_ZERO;
	return SWEEP_DRAW;
}

/* Outputs stay finite and in range at random settings inside the declared
 * ranges of the chain's ports, and the work cap holds. */
static void test_random_settings(void)
{
	srand(99);
	int bad = 0, restarts = 0, capped = 0;
	const sweep_spec spec = {
	    .models = 1u << PENDULA_MODEL_CHAIN,
	    .settings = 120,
	    .source = {sweep_rand_uniform, NULL},
	    .rule = free_half_forced_third,
	};
	for (sweep_iter s = sweep_start(&spec); sweep_next(&s);) {
		const pendula_params p = s.p;
		pendula_engine *e = pendula_engine_new(48000, &p);
		float out[PENDULA_N_CHANNELS][4800];
		pendula_outputs o;
		for (int ch = 0; ch < PENDULA_N_CHANNELS; ++ch)
			o.ch[ch] = out[ch];
		pendula_engine_run(e, 4800, &o);
		for (int i = 0; i < 4800; ++i) {
			for (int k = 0; k < NL; ++k)
				bad += !(out[PENDULA_CH_THETA + k][i] >= -1.0f &&
				         out[PENDULA_CH_THETA + k][i] < 1.0f);
			bad += !(fabsf(out[PENDULA_CH_TIP_X][i]) <= 1.0f + 1e-6f);
			bad += !(fabsf(out[PENDULA_CH_TIP_Y][i]) <= 1.0f + 1e-6f);
			bad += !isfinite(out[PENDULA_CH_ENERGY][i]);
			for (int k = 0; k < NL; ++k)
				bad += !(fabsf(out[PENDULA_CH_W_LEVEL + k][i]) <= 1.0f);
		}
		pendula_stats st;
		pendula_engine_stats(e, &st);
		restarts += (int)st.restarts;
		capped += st.capped_frames > 0;
		CU_ASSERT(test_work_within_cap(&st));
		pendula_engine_free(e);
	}
	printf("\n  120 random settings: %d bad samples, %d restarts, %d cases at the work cap",
	       bad, restarts, capped);
	CU_ASSERT(bad == 0);
	CU_ASSERT(restarts == 0);
}

static void test_pose(void)
{
	/* The pose follows docs/MODELS.md's geometry: the tip point is O_{N+1}; each
	 * handle's line from its hinge has the link's angle. */
	for (int shape = 0; shape < 3; ++shape) {
		pendula_params p = chain_params(4, shape);
		pendula_system sys;
		pendula_system_init(&sys, &p);
		const double th[NL] = {0.3, -1.2, 2.5, -0.4};
		pendula_pose pose;
		pendula_pose_at(&sys, th, 0.1, -0.2, &pose);
		double x = 0.1, y = -0.2, reach = 0.0;
		for (int k = 0; k < 4; ++k) {
			x += p.l[k] * sin(th[k]);
			y -= p.l[k] * cos(th[k]);
			reach += p.l[k];
			const pendula_vec3 a = pose.point[pose.handle[k].hinge].p;
			const pendula_vec3 b = pose.point[pose.handle[k].handle].p;
			const double ang = atan2(b.x - a.x, -(b.y - a.y)) - pose.handle[k].offset;
			CU_ASSERT(fabs(remainder(ang - th[k], 2 * PI)) < 1e-12);
		}
		const pendula_vec3 tip = pose.point[pose.tip[0]].p;
		CU_ASSERT(pose.n_handles == 4 && pose.n_tips == 1);
		CU_ASSERT(fabs(tip.x - x) < 1e-12 && fabs(tip.y - y) < 1e-12);
		CU_ASSERT(pose.reach >= reach - 1e-12);
		CU_ASSERT(pose.n_points <= PENDULA_POSE_MAX_POINTS);
	}
}

/* The first guess of a Gauss-Legendre step's stages (model.h,
 * pendula_gauss_guess), fed the exact stage velocities of a smooth motion:
 * its quartic's weights are the Lagrange basis on the last five stages (at
 * c_2 - 2, c_3 - 2, c_1 - 1, c_2 - 1, c_3 - 1, the Gauss nodes computed
 * here from the Legendre polynomial's roots), and with the error it learnt
 * in the step before the guess misses by O(h^6): halving the step divides
 * the miss by about 64. */
static double motion_rate(double t)
{
	return sin(1.3 * t) + 0.5 * cos(2.1 * t + 0.4);
}

/* long_run: as if the steps after the fourth had come after 2^31 steps of
 * the same length (hours of a busy setting), which an int counter of them
 * would overflow. */
static double predictor_miss_run(double h, int long_run)
{
	pendula_predictor pr;
	const double start[PENDULA_MAX_BODIES] = {motion_rate(0.0)};
	pendula_predictor_start(&pr, start);
	double miss = 0.0;
	for (int m = 0; m < 8; ++m) {
		if (long_run && m == 4)
			pr.steps = INT_MAX - 1;
		double w[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES];
		double ex[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES];
		double exact[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES] = {{0}};
		pendula_gauss_guess(&pr, h, w, ex, 1);
		for (int i = 0; i < PENDULA_GAUSS_STAGES; ++i) {
			exact[i][0] = motion_rate((m + pendula_gauss_c[i]) * h);
			if (m == 7)
				miss = fmax(miss, fabs(w[i][0] - exact[i][0]));
		}
		pendula_gauss_push(&pr, exact, ex, 1);
	}
	return miss;
}

static double predictor_miss(double h)
{
	return predictor_miss_run(h, 0);
}

/* The same after the step halves (the engine's response to a failed step):
 * the parabola through the last step's stages, at the nodes of a step half
 * as long; its miss is O(h^3), not the O(h) of stages taken at the wrong
 * times. */
static double predictor_miss_halved(double h)
{
	/* (six steps of 2 h, then the guess of the step of h at t = 0.5) */
	double t0 = 0.5 - 12.0 * h, miss = 0.0;
	pendula_predictor pr;
	const double start[PENDULA_MAX_BODIES] = {motion_rate(t0)};
	pendula_predictor_start(&pr, start);
	for (int m = 0; m < 7; ++m) {
		const double hm = m < 6 ? 2.0 * h : h;
		double w[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES];
		double ex[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES];
		double exact[PENDULA_GAUSS_STAGES][PENDULA_MAX_BODIES] = {{0}};
		pendula_gauss_guess(&pr, hm, w, ex, 1);
		for (int i = 0; i < PENDULA_GAUSS_STAGES; ++i) {
			exact[i][0] = motion_rate(t0 + pendula_gauss_c[i] * hm);
			if (m == 6)
				miss = fmax(miss, fabs(w[i][0] - exact[i][0]));
		}
		pendula_gauss_push(&pr, exact, ex, 1);
		t0 += hm;
	}
	return miss;
}

static void test_gauss_predictor(void)
{
	/* the nodes: roots of P_3(2c - 1), 1/2 + (-1, 0, 1) sqrt(3/5) / 2 */
	const long double half_width = sqrtl(3.0L / 5.0L) / 2.0L;
	const long double c[3] = {0.5L - half_width, 0.5L, 0.5L + half_width};
	const long double u[5] = {c[1] - 2, c[2] - 2, c[0] - 1, c[1] - 1, c[2] - 1};
	double worst = 0.0;
	for (int i = 0; i < 3; ++i)
		for (int j = 0; j < 5; ++j) {
			long double l = 1.0L;
			for (int m = 0; m < 5; ++m)
				if (m != j)
					l *= (c[i] - u[m]) / (u[j] - u[m]);
			const double rel = (double)fabsl((pendula_gauss_extrapolate[i][j] - l) / l);
			worst = fmax(worst, rel);
		}
	const double m1 = predictor_miss(0.02), m2 = predictor_miss(0.01);
	const double hm1 = predictor_miss_halved(0.02), hm2 = predictor_miss_halved(0.01);
	printf("\n  weights within %.1e of the Lagrange basis; miss at h = 0.02: %.2e, at 0.01: "
	       "%.2e, ratio %.1f; right after the step halves to 0.02: %.2e, to 0.01: %.2e, "
	       "ratio %.1f",
	       worst, m1, m2, m1 / m2, hm1, hm2, hm1 / hm2);
	CU_ASSERT(worst < 4 * DBL_EPSILON);
	CU_ASSERT(m1 < 1e-9);
	CU_ASSERT(m1 / m2 > 45.0 && m1 / m2 < 90.0);
	CU_ASSERT(hm1 / hm2 > 6.0 && hm1 / hm2 < 11.0); /* O(h^3): 8 per halving */
	/* the same guesses after 2^31 steps (the count of steps saturates) */
	const double long1 = predictor_miss_run(0.02, 1);
	printf("; after 2^31 steps: %.2e", long1);
	CU_ASSERT(long1 == m1);
}

/* The chain's velocities over the run of test_velocity_levels, body-major:
 * the velocity outputs, then their levels. */
enum { LEVEL_FRAMES = 20 * 48000 };

static void render_velocities(pendula_engine *e, float *out, uint32_t max_block, unsigned seed)
{
	srand(seed);
	for (long done = 0; done < LEVEL_FRAMES;) {
		uint32_t n = max_block == 1 ? 1u : (uint32_t)(rand() % (int)max_block);
		if (n > LEVEL_FRAMES - done)
			n = (uint32_t)(LEVEL_FRAMES - done);
		pendula_outputs o = {{NULL}};
		for (int k = 0; k < NL; ++k) {
			o.ch[PENDULA_CH_W + k] = out + (long)k * LEVEL_FRAMES + done;
			o.ch[PENDULA_CH_W_LEVEL + k] = out + (long)(NL + k) * LEVEL_FRAMES + done;
		}
		pendula_engine_run(e, n, &o);
		done += n;
	}
}

/* The velocity levels of six links at the chaos knob's top (energy_target
 * 4, the most a preset can ask; docs/GUIDE.md, "Continuous outputs"), 20 s:
 * in blocks of any size (0 too) bit for bit as frame by frame; wherever
 * omega{k} is inside (-1, 1) the level is v / sqrt(1 + v^2) of it
 * (computed here); within [-1, 1] everywhere and beyond 0.99 at fewer than
 * 5 % of the frames, however often the velocity output pins at +-1
 * (printed). */
static void test_velocity_levels(void)
{
	pendula_params p = chain_params(NL, PENDULA_SHAPE_RODS);
	p.energy_target = 4.0;
	float *a = malloc(sizeof(float) * 2 * NL * LEVEL_FRAMES),
	      *b = malloc(sizeof(float) * 2 * NL * LEVEL_FRAMES);
	pendula_engine *e = pendula_engine_new(48000, &p);
	render_velocities(e, a, 3000, 37);
	pendula_engine_reset(e);
	render_velocities(e, b, 1, 0);
	CU_ASSERT(memcmp(a, b, sizeof(float) * 2 * NL * LEVEL_FRAMES) == 0);
	printf("\n  energy_target 4, frames beyond 0.99 (omega/omega_level):");
	for (int k = 0; k < NL; ++k) {
		const float *w = a + (long)k * LEVEL_FRAMES, *l = a + (long)(NL + k) * LEVEL_FRAMES;
		long pinned = 0, level_pinned = 0, wrong = 0, outside = 0;
		for (long i = 0; i < LEVEL_FRAMES; ++i) {
			pinned += fabsf(w[i]) > 0.99f;
			level_pinned += fabsf(l[i]) > 0.99f;
			outside += !(fabsf(l[i]) <= 1.0f);
			const float want = (float)((double)w[i] / sqrt(1.0 + (double)w[i] * w[i]));
			wrong += fabsf(w[i]) < 1.0f && l[i] != want;
		}
		printf(" %.3f/%.3f", (double)pinned / LEVEL_FRAMES,
		       (double)level_pinned / LEVEL_FRAMES);
		CU_ASSERT(wrong == 0);
		CU_ASSERT(outside == 0);
		CU_ASSERT(level_pinned < LEVEL_FRAMES / 20);
	}
	pendula_engine_free(e);
	free(a);
	free(b);
}

CU_TestInfo chain_engine_tests[] = {
    {"link_shape switched while running", test_shape_switch_continuous},
    {"links added and removed while running", test_links_added},
    {"random settings inside the ranges", test_random_settings},
    {"pose", test_pose},
    {"the Gauss predictor's guesses", test_gauss_predictor},
    {"velocity levels at the chaos knob's top", test_velocity_levels},
    CU_TEST_INFO_NULL,
};
