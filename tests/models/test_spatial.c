/* SPDX-License-Identifier: ISC */
/*
 * Physics tests of the 3-D models, spherical and bead (CUnit): main() runs
 * the tests of each model (test_spherical.c, test_bead.c) and those here,
 * which hold for both: the composed step's work, the engine's outputs,
 * random settings inside the ranges, settings changed while running,
 * restarts, subnormals and poses.
 */
#define _POSIX_C_SOURCE 200809L
#include "cunit_main.h"
#include "spatial.h"
#include "sweep.h"

/* The work a composed step reports (pendula_predictor.work: the
 * trapezoidal rule of the non-conservative power appended to each RATTLE
 * stage) against the change of the energy over the step: the composition
 * makes the pair of its order p, so the per-step defect falls 2^(p+1)-fold
 * when the step halves: 32-fold for the bead (Suzuki's, p = 4), 128-fold
 * for the spherical pendulum (Kahan and Li's, p = 6) until rounding.  A
 * plain trapezoidal rule over the stages would be 2nd order (8-fold), and
 * the engine's energy check (PENDULA_ENERGY_DEFECT) would then take smooth
 * damped steps again for their quadrature error. */
static double work_defect(const pendula_params *p, double h, double seconds, double *moved)
{
	pendula_system sys;
	pendula_state s;
	start_state(p, &sys, &s);
	pendula_predictor pr;
	memset(&pr, 0, sizeof(pr));
	double v[PENDULA_MAX_DOF], worst = 0.0;
	pendula_velocity(&sys, s.q, s.p, v);
	double e0 = pendula_energy(&sys, s.q, v);
	*moved = 0.0;
	for (long i = 0; i < (long)(seconds / h); ++i) {
		pr.work = NAN;
		sys.ops->step(&sys, &s, h, &pr);
		pendula_velocity(&sys, s.q, s.p, v);
		const double e1 = pendula_energy(&sys, s.q, v);
		worst = fmax(worst, fabs(e1 - e0 - pr.work));
		*moved += fabs(pr.work);
		e0 = e1;
	}
	return worst / sys.energy_range;
}

static void check_work_order(const pendula_params *p, double h, int order, const char *what)
{
	double moved;
	const double d1 = work_defect(p, h, 3.0, &moved), d2 = work_defect(p, h / 2, 3.0, &moved),
	             d4 = work_defect(p, h / 4, 3.0, &moved);
	pendula_system sys;
	pendula_system_init(&sys, p);
	printf("\n    %s: max |dE - work| per step %.2e, %.2e, %.2e of the range at h, h/2, h/4 "
	       "(ratios %.1f, %.1f); work moved %.2f ranges",
	       what, d1, d2, d4, d1 / d2, d2 / d4, moved / sys.energy_range);
	CU_ASSERT(moved > 0.5 * sys.energy_range);   /* the forces did work */
	const double expect = ldexp(1.0, order + 1); /* local error h^(order + 1) */
	CU_ASSERT(d1 / d2 > 0.75 * expect && d2 / d4 > 0.75 * expect);
	CU_ASSERT(d1 < 1e-7); /* inside the engine's check at this step */
}

static void test_work_order(void)
{
	pendula_params p = chaotic_spherical_double();
	p.lambda[0] = 0.3;
	p.lambda[1] = 0.2;
	p.sigma[0] = 0.4;
	p.sigma[1] = -0.6;
	force_xyz(&p);
	check_work_order(&p, 1.0 / 128, 6, "spherical N=2, damping, swirl, forcing on x, y, z");
	p = wavy_floor_forced();
	check_work_order(&p, 1.0 / 512, 4, "bead on the wavy floor, drag, forcing");
}

/* ------------------------------------------------------------------------ */
/* Engine level                                                             */

static void test_engine_outputs(void)
{
	/* Outputs: directions are unit vectors, tip within the total length,
	 * bit-identical for any block split, and a frame 0 showing the start. */
	for (int model = PENDULA_MODEL_SPHERICAL; model <= PENDULA_MODEL_BEAD; ++model) {
		pendula_params p;
		pendula_params_default(&p, (pendula_model)model);
		p.pivot_z_amp = 0.05;
		p.pivot_z_freq = 2.0;
		const long frames = 2 * 48000;
		float *a = malloc(sizeof(float) * 8 * frames),
		      *b = malloc(sizeof(float) * 8 * frames);
		const int chans[8] = {PENDULA_CH_TIP_X,  PENDULA_CH_TIP_Y, PENDULA_CH_TIP_Z,
		                      PENDULA_CH_X,      PENDULA_CH_Y,     PENDULA_CH_Z,
		                      PENDULA_CH_ENERGY, PENDULA_CH_THETA};
		for (int run = 0; run < 2; ++run) {
			pendula_engine *e = pendula_engine_new(48000, &p);
			float *out = run ? b : a;
			static float buf[8][4096];
			long done = 0;
			srand(11);
			while (done < frames) {
				uint32_t n = run ? (uint32_t)(rand() % 3000) : 512;
				if (n > frames - done)
					n = (uint32_t)(frames - done);
				pendula_outputs o;
				memset(&o, 0, sizeof(o));
				for (int c = 0; c < 8; ++c)
					o.ch[chans[c]] = buf[c];
				pendula_engine_run(e, n, &o);
				for (uint32_t i = 0; i < n; ++i)
					for (int c = 0; c < 8; ++c)
						out[(done + i) * 8 + c] = buf[c][i];
				done += n;
			}
			pendula_engine_free(e);
		}
		CU_ASSERT(memcmp(a, b, sizeof(float) * 8 * frames) == 0);
		double worst_unit = 0.0, worst_tip = 0.0;
		for (long i = 0; i < frames; ++i) {
			const float *f = a + 8 * i;
			if (model == PENDULA_MODEL_SPHERICAL) {
				worst_unit =
				    fmax(worst_unit,
				         fabs(sqrt(f[3] * f[3] + f[4] * f[4] + f[5] * f[5]) - 1));
				worst_tip =
				    fmax(worst_tip, sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]));
			} else {
				worst_unit =
				    fmax(worst_unit,
				         fabs(sqrt(f[3] * f[3] + f[4] * f[4] + f[5] * f[5]) - 1));
			}
			CU_ASSERT(f[7] == 0.0f); /* no angle outputs */
		}
		printf("\n    %s: max | |x, y, z| - 1 | %.1e, max |tip| %.4f; first frame x %.6f y "
		       "%.6f",
		       model == PENDULA_MODEL_SPHERICAL ? "spherical" : "bead", worst_unit,
		       worst_tip, a[3], a[4]);
		CU_ASSERT(worst_unit < 1e-4); /* cubic interpolation of a unit vector */
		CU_ASSERT(worst_tip <= 1.0 + 1e-5);
		/* frame 0: the initial direction (theta1_init from the downward
		 * vertical, phi1_init azimuth) */
		const double th = p.theta_init[0], ph = p.phi_init[0];
		CU_ASSERT(fabs(a[3] - sin(th) * cos(ph)) < 1e-6);
		CU_ASSERT(fabs(a[4] + cos(th)) < 1e-6);
		CU_ASSERT(fabs(a[5] - sin(th) * sin(ph)) < 1e-6);
		free(a);
		free(b);
	}
}

/* Forcing in one case of three (its amplitudes stay at their defaults,
 * undrawn, in the others). */
static sweep_choice forcing_in_one_of_three(pendula_port_id id, int index)
{
	const bool amplitude = id == P_PIVOT_X_AMP || id == P_PIVOT_Y_AMP || id == P_PIVOT_Z_AMP;
	return index % 3 && amplitude ? SWEEP_KEEP : SWEEP_DRAW;
}

static void test_random_in_range(void)
{
	/* Random settings inside the declared ranges of every port of the two
	 * models: 0.1 s each, outputs finite, no restart, work cap kept. */
	srand(2027);
	int bad = 0, restarts = 0;
	const sweep_spec spec = {
	    .models = 1u << PENDULA_MODEL_SPHERICAL | 1u << PENDULA_MODEL_BEAD,
	    .settings = 200,
	    .source = {sweep_rand_uniform, NULL},
	    .rule = forcing_in_one_of_three,
	};
	for (sweep_iter s = sweep_start(&spec); sweep_next(&s);) {
		const pendula_params p = s.p;
		pendula_engine *e = pendula_engine_new(48000, &p);
		static float buf[8][4800];
		const int chans[8] = {PENDULA_CH_TIP_X,  PENDULA_CH_TIP_Y, PENDULA_CH_TIP_Z,
		                      PENDULA_CH_X,      PENDULA_CH_Y,     PENDULA_CH_Z,
		                      PENDULA_CH_ENERGY, PENDULA_CH_THETA};
		pendula_outputs o;
		memset(&o, 0, sizeof(o));
		for (int k = 0; k < 8; ++k)
			o.ch[chans[k]] = buf[k];
		pendula_engine_run(e, 4800, &o);
		for (int k = 0; k < 8; ++k)
			for (int i = 0; i < 4800; ++i)
				bad += !isfinite(buf[k][i]);
		pendula_stats st;
		pendula_engine_stats(e, &st);
		restarts += (int)st.restarts;
		CU_ASSERT(test_work_within_cap(&st));
		pendula_engine_free(e);
	}
	printf("\n    200 random settings: %d non-finite samples, %d restarts", bad, restarts);
	CU_ASSERT(bad == 0);
	CU_ASSERT(restarts == 0);
}

static void test_settings_change(void)
{
	/* Links added while running start at their initial direction, at
	 * rest relative to the bob they hang from; longer rods keep the
	 * directions; the constraints hold afterwards. */
	pendula_params p = spherical_params(2);
	p.theta_init[0] = 60 * DEG;
	p.theta_init[1] = 30 * DEG;
	p.theta_init[2] = 90 * DEG;
	p.phi_init[2] = 90 * DEG;
	pendula_engine *e = pendula_engine_new(48000, &p);
	pendula_frame f;
	for (int i = 0; i < 12000; ++i)
		pendula_engine_tick(e, &f);
	p.n_bodies = 3;
	p.l[0] = 1.3;
	pendula_engine_set_params(e, &p);
	for (int i = 0; i < 4; ++i)
		pendula_engine_tick(e, &f);
	printf("\n    link 3 right after it appeared: (%.4f, %.4f, %.4f)", f.x[2], f.y[2], f.z[2]);
	CU_ASSERT(fabs(f.x[2]) < 0.01 && fabs(f.y[2]) < 0.01 && fabs(f.z[2] - 1.0) < 0.01);
	for (int i = 0; i < 48000; ++i)
		pendula_engine_tick(e, &f);
	pendula_system sys;
	pendula_system_init(&sys, &p);
	double q[PENDULA_MAX_DOF];
	pendula_frame_coords(&sys, &f, q);
	CU_ASSERT(fabs(sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]) - 1.3) < 1e-5);
	pendula_stats st;
	pendula_engine_stats(e, &st);
	CU_ASSERT(st.restarts == 0);
	pendula_engine_free(e);

	/* the bead's surface switched while running lands on the floor */
	pendula_params b;
	pendula_params_default(&b, PENDULA_MODEL_BEAD);
	e = pendula_engine_new(48000, &b);
	for (int i = 0; i < 5000; ++i)
		pendula_engine_tick(e, &f);
	b.surface = 1;
	pendula_engine_set_params(e, &b);
	for (int i = 0; i < 5000; ++i)
		pendula_engine_tick(e, &f);
	pendula_system_init(&sys, &b);
	pendula_frame_coords(&sys, &f, q);
	CU_ASSERT(f.z[0] == 0.0);
	CU_ASSERT(isfinite(f.energy) && f.energy >= 0.0);
	pendula_engine_free(e);
}

static void test_restart_subnormal_pose(void)
{
	/* Outside every range: a swirl that overflows the state, a gravity that
	 * overflows the bead: the engine restarts, the outputs stay finite. */
	for (int model = PENDULA_MODEL_SPHERICAL; model <= PENDULA_MODEL_BEAD; ++model) {
		pendula_params p;
		pendula_params_default(&p, (pendula_model)model);
		if (model == PENDULA_MODEL_SPHERICAL)
			p.sigma[0] = 1e305;
		else
			p.gravity = 1e305;
		pendula_engine *e = pendula_engine_new(48000, &p);
		static float x[4800], en[4800];
		pendula_outputs o;
		memset(&o, 0, sizeof(o));
		o.ch[PENDULA_CH_X] = x;
		o.ch[PENDULA_CH_ENERGY] = en;
		int finite = 1;
		for (int b = 0; b < 10; ++b) {
			pendula_engine_run(e, 4800, &o);
			for (int i = 0; i < 4800; ++i)
				finite &= isfinite(x[i]) && isfinite(en[i]);
		}
		pendula_stats st;
		pendula_engine_stats(e, &st);
		printf("\n    %s out of range: %llu restarts, outputs finite %d",
		       model == PENDULA_MODEL_SPHERICAL ? "spherical" : "bead",
		       (unsigned long long)st.restarts, finite);
		CU_ASSERT(finite);
		CU_ASSERT(st.restarts > 0);
		pendula_engine_free(e);
	}
	/* A damped pendulum heading for rest: no subnormal ever. */
	pendula_params p = spherical_params(2);
	p.theta_init[0] = 50 * DEG;
	p.phi_init[1] = 40 * DEG;
	p.theta_init[1] = 30 * DEG;
	p.lambda[0] = p.lambda[1] = 5.0;
	p.time_scale = 100.0;
	pendula_engine *e = pendula_engine_new(48000, &p);
	pendula_frame f;
	int subnormal = 0;
	for (long i = 0; i < 1000000; ++i) { /* 2000 simulated seconds */
		pendula_engine_tick(e, &f);
		for (int k = 0; k < 2; ++k)
			subnormal |= fpclassify(f.x[k]) == FP_SUBNORMAL ||
			             fpclassify(f.z[k]) == FP_SUBNORMAL;
		subnormal |= fpclassify(f.tip_x_norm) == FP_SUBNORMAL ||
		             fpclassify(f.tip_z_norm) == FP_SUBNORMAL ||
		             fpclassify(f.energy) == FP_SUBNORMAL;
	}
	printf("\n    damped, after %.0f s: x1 %g, energy %g", f.t, f.x[0], f.energy);
	CU_ASSERT(!subnormal);
	CU_ASSERT(fabs(f.x[0]) < 1e-6 && f.energy < 1e-9);
	pendula_engine_free(e);

	/* Poses: bobs and rods in 3-D; the ellipsoid about the pivot; the
	 * floor's curve with its wave at the given phase. */
	pendula_system sys;
	pendula_state s;
	pendula_pose pose;
	p = spherical_params(3);
	p.theta_init[0] = p.theta_init[1] = p.theta_init[2] = 90 * DEG;
	p.phi_init[2] = 90 * DEG;
	start_state(&p, &sys, &s);
	const pendula_vec3 pivot = {0.1, 0.2, 0.3};
	pendula_pose_at3(&sys, s.q, pivot, 0.0, &pose);
	CU_ASSERT(pose.n_points == 4 && pose.n_rods == 3 &&
	          pose.surface.kind == PENDULA_SURFACE_NONE);
	CU_ASSERT(fabs(pose.point[3].p.z - (0.3 + 1.0)) < 1e-12); /* link 3 along +z */
	CU_ASSERT(fabs(pose.reach - 3.0) < 1e-12);
	pendula_params b = bead_params(1, 3, 2);
	pendula_system_init(&sys, &b);
	pendula_pose_at3(&sys, s.q, pivot, 0.0, &pose);
	CU_ASSERT(pose.surface.kind == PENDULA_SURFACE_ELLIPSOID && pose.surface.axis[1] == 3.0 &&
	          pose.surface.centre.z == 0.3);
	b.surface = 1;
	b.floor_curvature = 0.5;
	b.wave_amp = 0.1;
	b.wave_freq = 1.0;
	b.wave_number = 3.0;
	pendula_system_init(&sys, &b);
	pendula_pose_at3(&sys, s.q, pivot, 0.5 * PENDULA_PI, &pose); /* sin(Omega t) = 1 */
	const pendula_vec3 c = pose.surface.curve[pose.surface.n / 3];
	const double xr = c.x - 0.1;
	CU_ASSERT(pose.surface.kind == PENDULA_SURFACE_CURVE && pose.surface.n > 16);
	CU_ASSERT(fabs(c.y - 0.2 - (0.5 * xr * xr + 0.1 * sin(3.0 * xr))) < 1e-12);
}

static CU_TestInfo spatial_tests[] = {
    {"the composed step reports its work to its order", test_work_order},
    {"engine outputs", test_engine_outputs},
    {"random settings inside the ranges", test_random_in_range},
    {"settings changed while running", test_settings_change},
    {"restart, no subnormals, poses", test_restart_subnormal_pose},
    CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
    {"spherical", NULL, NULL, NULL, NULL, spherical_tests},
    {"bead", NULL, NULL, NULL, NULL, bead_tests},
    {"spatial", NULL, NULL, NULL, NULL, spatial_tests},
    CU_SUITE_INFO_NULL,
};

int main(void)
{
	return test_cunit_main("test_spatial", suites);
}
