/* SPDX-License-Identifier: ISC */
/*
 * The engine at the edges: stiff and extreme settings, random settings
 * inside the declared ranges, a state that overflows (restart), no
 * subnormals, the work cap and the carry-over a reset starts with, time
 * standing still for 2^31 frames.  Run by test_engine.c.
 */
#define _POSIX_C_SOURCE 200809L
#include "angle_models.h"
#include "sweep.h"
#include "test_rng.h"

/* The random draws of the tests below; each test seeds it first. */
static test_rng rng;

static void test_stiff_and_extreme(void)
{
	/* Settings at the edges of the declared ranges: finite, bounded work,
	 * still moving where it should. */
	struct {
		const char *what;
		int model;
		double time_scale, m1, l1, lambda, sigma, dy, fy;
		int expect_motion;
	} cases[] = {
	    {"light body, heavy damping", 1, 1, 0.01, 0.01, 100, 0, 0, 0, 0},
	    {"forcing 1 kHz, 10 m, time scale 100", 0, 100, 1, 1, 0, 0, 10, 1000, 1},
	    {"tiny rods, strong torque, time scale 100", 0, 100, 0.01, 0.01, 0, 100, 0, 0, 1},
	    {"heavy damping, time scale 100", 0, 100, 0.01, 0.01, 100, 0, 0, 0, 0},
	};
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); ++c) {
		pendula_params p;
		pendula_params_default(&p, (pendula_model)cases[c].model);
		p.time_scale = cases[c].time_scale;
		p.m[0] = cases[c].m1;
		p.l[0] = cases[c].l1;
		p.c[0] = cases[c].l1;
		p.inertia[0] = 1e-6;
		p.inertia[1] = 1e-6;
		for (int k = 0; k < NB; ++k) {
			p.lambda[k] = cases[c].lambda;
			p.sigma[k] = cases[c].sigma;
		}
		p.pivot_y_amp = cases[c].dy;
		p.pivot_y_freq = cases[c].fy;
		pendula_engine *e = pendula_engine_new(48000, &p);
		float th[2][4800], en[4800];
		pendula_outputs o = {{[PENDULA_CH_THETA] = th[0],
		                      [PENDULA_CH_THETA + 1] = th[1],
		                      [PENDULA_CH_ENERGY] = en}};
		int finite = 1;
		double lo = 1e9, hi = -1e9;
		for (int b = 0; b < 20; ++b) {
			pendula_engine_run(e, 4800, &o);
			for (int i = 0; i < 4800; ++i) {
				finite &=
				    isfinite(th[0][i]) && isfinite(th[1][i]) && isfinite(en[i]);
				finite &= th[0][i] >= -1.0f && th[0][i] < 1.0f;
				lo = fmin(lo, th[0][i]);
				hi = fmax(hi, th[0][i]);
			}
		}
		pendula_stats st;
		pendula_engine_stats(e, &st);
		printf("  %s: %.2f steps/frame, %.2f stage evaluations/step, %llu capped frames, "
		       "%llu restarts, theta1 range %.3f\n",
		       cases[c].what, (double)st.steps / st.frames,
		       (double)st.iterations / (double)st.steps,
		       (unsigned long long)st.capped_frames, (unsigned long long)st.restarts,
		       hi - lo);
		CU_ASSERT(finite);
		/* 72e6 work units per second of audio: 1500 per frame at 48 kHz */
		CU_ASSERT(st.max_work_per_frame == 1500.0);
		CU_ASSERT(test_work_within_cap(&st));
		CU_ASSERT(st.restarts == 0);
		if (cases[c].expect_motion)
			CU_ASSERT(hi - lo > 0.01);
		pendula_engine_free(e);
	}
}

/* A value of port id drawn inside its declared range (log-uniform for
 * logarithmic ports), as a host may send it.  (The draws are not
 * sweep_draw's: the fields are drawn in an order of their own, so the
 * sweep below keeps its loop.) */
static double random_in_port_range(pendula_port_id id)
{
	return sweep_port_value(id, test_rng_uniform(&rng));
}

static void test_random_settings_in_range(void)
{
	/* docs/MODELS.md: every combination of values inside the declared ranges runs
	 * stably.  200 random settings of both models, 0.1 s each at 48 kHz:
	 * outputs finite and in range, no restart, the work cap respected. */
	rng = test_rng_seeded(2026);
	int bad = 0, restarts = 0, capped_cases = 0;
	for (int c = 0; c < 200; ++c) {
		const pendula_model model = (pendula_model)(c % 2);
		pendula_params p;
		pendula_params_default(&p, model);
		static const pendula_port_id m_ids[NB] = {P_M1, P_M2, P_M3, P_M4};
		static const pendula_port_id c_ids[NB] = {P_C1, P_C2, P_C3, P_C4};
		static const pendula_port_id i_ids[NB] = {P_INERTIA1, P_INERTIA2, P_INERTIA3,
		                                          P_INERTIA4};
		static const pendula_port_id b_ids[NB] = {P_B2, P_B2, P_B3, P_B4};
		static const pendula_port_id beta_ids[NB] = {P_BETA2, P_BETA2, P_BETA3, P_BETA4};
		static const pendula_port_id l_ids[NB] = {P_LAMBDA1, P_LAMBDA2, P_LAMBDA3,
		                                          P_LAMBDA4};
		static const pendula_port_id s_ids[NB] = {P_SIGMA1, P_SIGMA2, P_SIGMA3, P_SIGMA4};
		static const pendula_port_id t_ids[NB] = {P_THETA1_INIT, P_THETA2_INIT,
		                                          P_THETA3_INIT, P_THETA4_INIT};
		p.time_scale = random_in_port_range(P_TIME_SCALE);
		p.gravity = random_in_port_range(P_GRAVITY);
		p.n_bodies = 1 + (int)test_rng_below(&rng, NB);
		for (int k = 0; k < NB; ++k) {
			p.m[k] = random_in_port_range(m_ids[k]);
			p.c[k] = random_in_port_range(c_ids[k]);
			p.inertia[k] = random_in_port_range(i_ids[k]);
			p.b[k] = random_in_port_range(b_ids[k]);
			p.beta[k] = random_in_port_range(beta_ids[k]) * DEG;
			/* half the cases undamped, torque-free: the hardest for energy */
			p.lambda[k] = c % 4 < 2 ? random_in_port_range(l_ids[k]) : 0.0;
			p.sigma[k] = c % 4 < 2 ? random_in_port_range(s_ids[k]) : 0.0;
			p.theta_init[k] = random_in_port_range(t_ids[k]) * DEG;
		}
		p.l[0] = random_in_port_range(P_L1);
		p.l[1] = random_in_port_range(P_L2);
		if (c % 3 == 0) {
			p.pivot_x_amp = random_in_port_range(P_PIVOT_X_AMP);
			p.pivot_x_freq = random_in_port_range(P_PIVOT_X_FREQ);
			p.pivot_y_amp = random_in_port_range(P_PIVOT_Y_AMP);
			p.pivot_y_freq = random_in_port_range(P_PIVOT_Y_FREQ);
		}
		pendula_engine *e = pendula_engine_new(48000, &p);
		float th[NB][4800], tx[4800], ty[4800], en[4800];
		pendula_outputs o = {{[PENDULA_CH_THETA] = th[0],
		                      [PENDULA_CH_THETA + 1] = th[1],
		                      [PENDULA_CH_THETA + 2] = th[2],
		                      [PENDULA_CH_THETA + 3] = th[3],
		                      [PENDULA_CH_TIP_X] = tx,
		                      [PENDULA_CH_TIP_Y] = ty,
		                      [PENDULA_CH_ENERGY] = en}};
		pendula_engine_run(e, 4800, &o);
		for (int i = 0; i < 4800; ++i) {
			for (int k = 0; k < NB; ++k)
				bad += !(th[k][i] >= -1.0f && th[k][i] < 1.0f);
			bad += !isfinite(tx[i]) || !isfinite(ty[i]) || !isfinite(en[i]);
		}
		pendula_stats st;
		pendula_engine_stats(e, &st);
		restarts += (int)st.restarts;
		capped_cases += st.capped_frames > 0;
		CU_ASSERT(test_work_within_cap(&st));
		pendula_engine_free(e);
	}
	printf("  200 random settings: %d bad samples, %d restarts, %d cases at the work cap\n",
	       bad, restarts, capped_cases);
	CU_ASSERT(bad == 0);
	CU_ASSERT(restarts == 0);
}

static void test_non_finite_restarts(void)
{
	/* Outside every declared range: a torque that overflows the state.  The
	 * engine restarts from the initial state and the outputs stay finite. */
	pendula_params p = double_params(1, 1, 1, 1);
	p.sigma[0] = 1e305;
	pendula_engine *e = pendula_engine_new(48000, &p);
	float th[4800], en[4800];
	pendula_outputs o = {{[PENDULA_CH_THETA] = th, [PENDULA_CH_ENERGY] = en}};
	int finite = 1;
	for (int b = 0; b < 20; ++b) {
		pendula_engine_run(e, 4800, &o);
		for (int i = 0; i < 4800; ++i)
			finite &= isfinite(th[i]) && isfinite(en[i]);
	}
	pendula_stats st;
	pendula_engine_stats(e, &st);
	printf("  restarts: %llu\n", (unsigned long long)st.restarts);
	CU_ASSERT(finite);
	CU_ASSERT(st.restarts > 0);
	pendula_engine_free(e);
}

static void test_no_subnormals(void)
{
	/* A damped pendulum heading for rest for a long simulated time. */
	pendula_params p = double_params(1, 1, 1, 1);
	p.lambda[0] = p.lambda[1] = 5.0;
	p.time_scale = 100.0;
	pendula_engine *e = pendula_engine_new(48000, &p);
	int subnormal = 0;
	pendula_frame f;
	for (long i = 0; i < 2000000; ++i) { /* 4000 simulated seconds */
		pendula_engine_tick(e, &f);
		for (int k = 0; k < 2; ++k)
			subnormal |= fpclassify(f.theta[k]) == FP_SUBNORMAL ||
			             fpclassify(f.omega[k]) == FP_SUBNORMAL;
		subnormal |= fpclassify(f.energy) == FP_SUBNORMAL;
	}
	printf("  after %.0f s: theta1 = %g, omega1 = %g, energy = %g\n", f.t, f.theta[0],
	       f.omega[0], f.energy);
	CU_ASSERT(!subnormal);
	CU_ASSERT(fabs(f.theta[0]) < 1e-6); /* it did come to rest */
	pendula_engine_free(e);
}

/* The work cap prices every model's iterations (a model that forgot to
 * would step for free), dearer with more bodies; and at the cap each model
 * spends the same budget per frame, so a model with dear steps takes fewer
 * of them instead of more CPU time. */
static void test_work_cap(void)
{
	for (int m = 0; m < PENDULA_N_MODELS; ++m) {
		int last = 0;
		for (int n = 1; n <= PENDULA_MAX_BODIES; ++n) {
			pendula_params p;
			pendula_params_default(&p, (pendula_model)m);
			p.n_bodies = n;
			pendula_system sys;
			pendula_system_init(&sys, &p);
			CU_ASSERT(sys.work_iteration > 0);
			CU_ASSERT(sys.work_iteration >= last);
			last = sys.work_iteration;
		}
	}
	double steps_per_frame[2];
	for (int c = 0; c < 2; ++c) {
		pendula_params p;
		pendula_params_default(&p, c ? PENDULA_MODEL_CHAIN : PENDULA_MODEL_DOUBLE);
		p.n_bodies = c ? 6 : 2;
		p.time_scale = 100.0;
		p.pivot_y_amp = 10.0;
		p.pivot_y_freq = 1000.0;
		pendula_engine *e = pendula_engine_new(48000.0, &p);
		static float buf[256];
		pendula_outputs o;
		memset(&o, 0, sizeof(o));
		o.ch[PENDULA_CH_ENERGY] = buf;
		for (int b = 0; b < 375; ++b) /* 2 s */
			pendula_engine_run(e, 256, &o);
		pendula_stats st;
		pendula_engine_stats(e, &st);
		const double per_frame = (double)st.work / (double)st.frames;
		/* step attempts: a step taken again (a solve that failed, an
		 * energy that did not add up) costs work too */
		steps_per_frame[c] = (double)(st.steps + st.retries) / (double)st.frames;
		printf("  %s at the cap: %.1f work units per frame (budget %.0f), %.2f step "
		       "attempts per frame (%.2f taken again), %llu of %llu frames capped\n",
		       c ? "chain, 6 links" : "double", per_frame, st.max_work_per_frame,
		       steps_per_frame[c], (double)st.retries / (double)st.frames,
		       (unsigned long long)st.capped_frames, (unsigned long long)st.frames);
		CU_ASSERT(st.capped_frames > st.frames / 2);
		CU_ASSERT(test_work_within_cap(&st));
		CU_ASSERT(per_frame >= 0.95 * st.max_work_per_frame); /* the budget is used */
		pendula_engine_free(e);
	}
	/* the same budget buys fewer of the chain's dearer steps (the work per
	 * attempt: about 400 units against 200) */
	CU_ASSERT(steps_per_frame[1] < steps_per_frame[0] / 1.5);
}

/* A reset starts with the budget's carry-over (engine/step.c, engine_start_credit):
 * the first steps are often the dearest, as the step level settles.  One
 * of bench_cap's musical chains (a 1 cm link of 12 g under 1.4 kg on
 * 6.4 m, time_scale 8.5, forced on both axes) had its first frame capped
 * when a reset started with no credit, and no other frame; a reset in the
 * middle of the run starts the same way. */
static void test_start_credit(void)
{
	pendula_params p;
	pendula_params_default(&p, PENDULA_MODEL_CHAIN);
	p.n_bodies = 4;
	p.time_scale = 8.5320434852929203;
	p.gravity = 14.001248082913543;
	const double m[4] = {0.012313894289333339, 0.016414165435630321, 0.19029864314861125,
	                     1.373810129845727};
	const double l[4] = {0.010259212882627442, 0.037913272152986593, 0.10584531139752797,
	                     6.4494513526481958};
	const double th[4] = {1.8381674000899237, 1.7894753996177155, -2.0228415505654627,
	                      2.9764804218756269};
	const double lam[4] = {0.00073165372276216899, 0.0080657395865206486, 0.0,
	                       5.8173525284150864};
	for (int k = 0; k < 4; ++k) {
		p.m[k] = m[k];
		p.l[k] = l[k];
		p.theta_init[k] = th[k];
		p.lambda[k] = lam[k];
		p.sigma[k] = 0.0;
	}
	p.sigma[1] = -0.15135359817847077;
	p.pivot_x_amp = 0.015298271180509922;
	p.pivot_x_freq = 11.143017624916908;
	p.pivot_y_amp = 0.0042056402990170005;
	p.pivot_y_freq = 12.775636021537364;
	pendula_engine *e = pendula_engine_new(48000.0, &p);
	static float buf[2][256];
	pendula_outputs o;
	memset(&o, 0, sizeof(o));
	uint64_t capped[2];
	for (int run = 0; run < 2; ++run) {
		o.ch[PENDULA_CH_ENERGY] = buf[run];
		pendula_engine_run(e, 256, &o);
		pendula_stats st;
		pendula_engine_stats(e, &st);
		capped[run] = st.capped_frames;
		CU_ASSERT(test_work_within_cap(&st));
		pendula_engine_reset(e);
	}
	printf("  a dear start: %llu frames capped in the first block, %llu after a reset\n",
	       (unsigned long long)capped[0], (unsigned long long)(capped[1] - capped[0]));
	CU_ASSERT(capped[1] == 0);
	CU_ASSERT(memcmp(buf[0], buf[1], sizeof(buf[0])) == 0);
	pendula_engine_free(e);
}

/* Time standing still (time_scale 0, which the engine API allows; the
 * plugin's is at least 0.01) for more than 2^31 frames, in calls that do
 * not divide 2^31: every frame holds the state, and when time runs again
 * the motion is the one of an engine that stood still for a single block.
 * The frame count within a step used to grow with every frame and to
 * overflow the output writers' int32 arithmetic (undefined behaviour; the
 * engine_ubsan test, this file built with -fsanitize=undefined, aborted
 * here). */
static void test_time_stands_still(void)
{
	pendula_params p;
	pendula_params_default(&p, PENDULA_MODEL_DOUBLE);
	p.time_scale = 0.0;
	pendula_engine *a = pendula_engine_new(48000.0, &p);
	pendula_engine *b = pendula_engine_new(48000.0, &p);
	enum { BLOCK = 1000003 }; /* a prime: no call ends at 2^31 */
	static float out_a[BLOCK], out_b[BLOCK];
	pendula_outputs none, oa, ob;
	memset(&none, 0, sizeof(none));
	memset(&oa, 0, sizeof(oa));
	memset(&ob, 0, sizeof(ob));
	oa.ch[PENDULA_CH_THETA] = out_a;
	ob.ch[PENDULA_CH_THETA] = out_b;
	const uint32_t block = BLOCK;
	uint64_t frames = 0;
	while (frames < (1ull << 31) - 3 * (uint64_t)block) {
		pendula_engine_run(a, block, &none);
		frames += block;
	}
	pendula_engine_run(b, 4096, &ob);
	const float held = out_b[0];
	bool still = true;
	for (int i = 0; i < 8; ++i) { /* across 2^31 frames, written */
		pendula_engine_run(a, block, &oa);
		frames += block;
		for (uint32_t f = 0; f < block; ++f)
			still &= out_a[f] == held;
	}
	pendula_frame fa, fb;
	pendula_engine_tick(a, &fa);
	pendula_engine_tick(b, &fb);
	printf("  %.3g frames with time standing: t = %g, theta1 held at %g: %s\n", (double)frames,
	       fa.t, (double)held, still ? "yes" : "no");
	CU_ASSERT(still);
	CU_ASSERT(fa.t == 0.0 && fb.t == 0.0);
	/* time runs again */
	p.time_scale = 1.0;
	pendula_engine_set_params(a, &p);
	pendula_engine_set_params(b, &p);
	bool same = true;
	for (int i = 0; i < 12; ++i) {
		pendula_engine_run(a, 4096, &oa);
		pendula_engine_run(b, 4096, &ob);
		same &= memcmp(out_a, out_b, 4096 * sizeof(float)) == 0;
	}
	pendula_engine_tick(a, &fa);
	pendula_engine_tick(b, &fb);
	printf("  then 1 s at time_scale 1: t = %.6f, the same frames as after one block: %s\n",
	       fa.t, same ? "yes" : "no");
	CU_ASSERT(same);
	CU_ASSERT(fa.t == fb.t && fa.t > 1.0);
	pendula_engine_free(a);
	pendula_engine_free(b);
}

/* What one host call may spend (engine/engine_internal.h, the pace): a
 * reset, new settings and m frames spend at most m + 1 frames' pace, the
 * pace's carry-over, the reset's price (an iteration costs at most 255
 * units: a byte), and two steps begun on the last
 * of the pace (with their retries and the settings' price). */
static double call_bound(const pendula_stats *st, uint32_t m)
{
	return (m + 1.0) * 1.5 * st->max_work_per_frame + PENDULA_PACE_WORK + PENDULA_WORK_RESTART +
	       PENDULA_RESTART_ITERATIONS * 255.0 +
	       2.0 * (PENDULA_WORK_SETTINGS + (double)st->max_call_work);
}

/* No single call spends the carried-over budget at once, and restarts are
 * paid from it: every model under hostile hosts (random in-range settings
 * every block, structural settings every block, a reset every block), in
 * random blocks of 1 to 512 frames, counted in work units (the engine's
 * own account, pendula_stats.work, which the test checks against the
 * pace's bound per call and the budget's over the run). */
static void test_work_per_call(void)
{
	rng = test_rng_seeded(38);
	const sweep_spec spec = {
	    .models = ~0u, .source = {sweep_rng_uniform, &rng}, .as_float = true};
	static float buf[512];
	pendula_outputs o;
	memset(&o, 0, sizeof(o));
	o.ch[PENDULA_CH_THETA] = buf;
	o.ch[PENDULA_CH_ENERGY] = buf;
	/* a block's worth: the carry-over a call may spend fits 16 frames */
	CU_ASSERT(PENDULA_PACE_WORK <= 16 * 1500);
	for (int m = 0; m < PENDULA_N_MODELS; ++m) {
		for (int mode = 0; mode < 3; ++mode) {
			pendula_params p;
			pendula_params_default(&p, (pendula_model)m);
			p.time_scale = 100.0; /* dear steps, and many of them */
			pendula_engine *e = pendula_engine_new(48000.0, &p);
			double worst = 0.0;
			int over = 0;
			for (int b = 0; b < 400; ++b) {
				const uint32_t n = 1u + (uint32_t)(test_rng_uniform(&rng) * 512.0);
				pendula_stats before, after;
				pendula_engine_stats(e, &before);
				if (mode == 0) { /* every setting */
					sweep_draw(&spec, (pendula_model)m, b, &p);
				} else if (mode == 1) { /* structure */
					p.n_bodies = 1 + b % PENDULA_MAX_BODIES;
					p.shape = b % 3;
					p.surface = b % 2;
				}
				pendula_engine_set_params(e, &p);
				if (mode == 2) { /* a new start every block */
					p.theta_init[0] = 0.1 * (b % 31);
					pendula_engine_set_params(e, &p);
					pendula_engine_reset(e);
				}
				pendula_engine_run(e, n, &o);
				pendula_engine_stats(e, &after);
				const double spent = (double)(after.work - before.work);
				worst = fmax(worst, spent / call_bound(&after, n));
				over += spent > call_bound(&after, n);
			}
			pendula_stats st;
			pendula_engine_stats(e, &st);
			printf("  %s, %s: the dearest call spent %.2f of its bound, "
			       "%llu frames capped\n",
			       pendula_variant_names[2 * m],
			       mode == 0   ? "every setting every block"
			       : mode == 1 ? "structure every block"
			                   : "a reset every block",
			       worst, (unsigned long long)st.capped_frames);
			CU_ASSERT(over == 0);
			CU_ASSERT(test_work_within_cap(&st));
			pendula_engine_free(e);
		}
	}
}

/* A reset in every frame costs the budget: the work of a restart storm
 * stays within what the frames earn (a reset does not refill the credit),
 * and the motion stays finite. */
static void test_restart_storm(void)
{
	pendula_params p;
	pendula_params_default(&p, PENDULA_MODEL_CHAIN);
	p.n_bodies = 6;
	p.time_scale = 100.0;
	pendula_engine *e = pendula_engine_new(48000.0, &p);
	static float buf[1];
	pendula_outputs o;
	memset(&o, 0, sizeof(o));
	o.ch[PENDULA_CH_ENERGY] = buf;
	int finite = 1;
	for (int i = 0; i < 4800; ++i) {
		p.theta_init[0] = (i % 7) * 0.3;
		pendula_engine_set_params(e, &p);
		pendula_engine_reset(e);
		pendula_engine_run(e, 1, &o);
		finite &= isfinite(buf[0]);
	}
	pendula_stats st;
	pendula_engine_stats(e, &st);
	printf("  a reset every frame: %.0f work units per frame (budget %.0f)\n",
	       (double)st.work / (double)st.frames, st.max_work_per_frame);
	CU_ASSERT(finite);
	CU_ASSERT(test_work_within_cap(&st));
	CU_ASSERT((double)st.work / (double)st.frames <= 1.05 * st.max_work_per_frame);
	pendula_engine_free(e);
}

CU_TestInfo engine_limits_tests[] = {
    {"stiff and extreme settings", test_stiff_and_extreme},
    {"random settings inside the ranges", test_random_settings_in_range},
    {"non-finite state restarts", test_non_finite_restarts},
    {"no subnormals", test_no_subnormals},
    {"work cap", test_work_cap},
    {"a reset starts with the carry-over", test_start_credit},
    {"no call spends the carry-over at once", test_work_per_call},
    {"restarts are paid from the budget", test_restart_storm},
    {"time standing still for 2^31 frames", test_time_stands_still},
    CU_TEST_INFO_NULL,
};
