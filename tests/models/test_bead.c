/* SPDX-License-Identifier: ISC */
/*
 * Physics of the bead on a surface (CUnit, run by test_spatial.c).
 *
 * Every reference is computed here: the small oscillations of a bead on
 * the ellipsoid (omega^2 = g b / a^2 ...), and for the wavy floor an RK4 of
 * the equation of motion reduced to x by Lagrange's method, with the
 * constraint's power from it.
 */
#define _POSIX_C_SOURCE 200809L
#include "spatial.h"

/* ------------------------------------------------------------------------ */
/* Bead                                                                     */

static double bead_omega(pendula_params p, int coord, double period_guess)
{
	pendula_system sys;
	pendula_state s;
	start_state(&p, &sys, &s);
	const double h = period_guess / 512;
	const int count = 512 * 20;
	double *x = malloc(sizeof(double) * count);
	for (int i = 0; i < count; ++i) {
		x[i] = s.q[coord];
		pendula_step(&sys, &s, h);
	}
	const double w = zero_cross_omega(x, count, h);
	free(x);
	return w;
}

static void test_bead_ellipsoid(void)
{
	const double a = 1.0, b = 3.0, c = 2.0, g = 9.81;
	pendula_params p = bead_params(a, b, c);
	p.theta_init[0] = 1e-3;
	p.phi_init[0] = 0.0;
	const double wx = bead_omega(p, 0, 2 * PI / sqrt(g * b / (a * a)));
	p.phi_init[0] = 90 * DEG;
	const double wz = bead_omega(p, 2, 2 * PI / sqrt(g * b / (c * c)));
	printf("\n    omega_x^2 %.6f (g b / a^2 = %.6f), omega_z^2 %.6f (g b / c^2 = %.6f)",
	       wx * wx, g * b / (a * a), wz * wz, g * b / (c * c));
	CU_ASSERT(fabs(wx * wx / (g * b / (a * a)) - 1) < 1e-5);
	CU_ASSERT(fabs(wz * wz / (g * b / (c * c)) - 1) < 1e-5);

	/* a = b = c: the spherical pendulum */
	pendula_params ps = bead_params(0.8, 0.8, 0.8), pp = spherical_params(1);
	ps.theta_init[0] = pp.theta_init[0] = 100 * DEG;
	ps.phi_init[0] = pp.phi_init[0] = 20 * DEG;
	ps.spin_init = pp.spin_init = 0.3;
	pp.l[0] = 0.8;
	pendula_system sb, ss;
	pendula_state xb, xs;
	start_state(&ps, &sb, &xb);
	start_state(&pp, &ss, &xs);
	double worst = 0.0;
	for (int i = 0; i < 3 * 2048; ++i) {
		pendula_step(&sb, &xb, 1.0 / 2048);
		pendula_step(&ss, &xs, 1.0 / 2048);
		for (int k = 0; k < 3; ++k)
			worst = fmax(worst, fabs(xb.q[k] - xs.q[k]));
	}
	printf(
	    "\n    sphere a = b = c = 0.8 vs spherical pendulum l = 0.8: max |dr| %.1e m over 3 s",
	    worst);
	CU_ASSERT(worst < 1e-10);

	/* a = c: L_y conserved (and E); a != c: L_y is not */
	for (int round = 0; round < 2; ++round) {
		pendula_params pl = bead_params(1.2, 0.7, round ? 1.8 : 1.2);
		pl.theta_init[0] = 110 * DEG;
		pl.phi_init[0] = 30 * DEG;
		pl.spin_init = 0.4;
		pendula_system sys;
		pendula_state s;
		start_state(&pl, &sys, &s);
		double v[3];
		pendula_velocity(&sys, s.q, s.p, v);
		const double L0 = s.q[2] * v[0] - s.q[0] * v[2];
		const double E0 = pendula_energy(&sys, s.q, v);
		double lw = 0.0, ew = 0.0;
		for (int i = 0; i < 100000; ++i) {
			pendula_step(&sys, &s, 1.0 / 1024);
			pendula_velocity(&sys, s.q, s.p, v);
			lw = fmax(lw, fabs(s.q[2] * v[0] - s.q[0] * v[2] - L0));
			ew = fmax(ew, fabs(pendula_energy(&sys, s.q, v) - E0));
		}
		printf("\n    a %s c: L_y %.4f changes by %.1e, E by %.1e J over 98 s",
		       round ? "!=" : "=", L0, lw, ew);
		if (round) {
			CU_ASSERT(lw > 1e-2 * fabs(L0));
		} else {
			CU_ASSERT(lw < 1e-9 * fabs(L0));
		}
		CU_ASSERT(ew < 1e-8 * fabs(E0) + 1e-9);
	}
}

static void test_bead_source_example(void)
{
	/* The constrained-Lagrange note's example: a = 1, b = 3, c = 2, from
	 * rest at (sqrt 6 / 4, 3/2, sqrt 6 / 2) (on the ellipsoid: 3/8 + 1/4 +
	 * 3/8 = 1).  Its energy is constant; potential and kinetic energy trade
	 * back and forth: the bead falls, and climbs back up, again and again. */
	pendula_params p = bead_params(1, 3, 2);
	p.theta_init[0] = 120 * DEG;
	p.phi_init[0] = 45 * DEG;
	pendula_system sys;
	pendula_state s;
	start_state(&p, &sys, &s);
	CU_ASSERT(fabs(s.q[0] - sqrt(6.0) / 4) < 1e-12);
	CU_ASSERT(fabs(s.q[1] - 1.5) < 1e-12);
	CU_ASSERT(fabs(s.q[2] - sqrt(6.0) / 2) < 1e-12);
	double v[3];
	pendula_velocity(&sys, s.q, s.p, v);
	const double E0 = pendula_energy(&sys, s.q, v);
	double ew = 0.0;
	int climbs = 0, below = 0;
	double lowest = 1e9, highest_late = -1e9;
	for (int i = 0; i < 60 * 1024; ++i) {
		pendula_step(&sys, &s, 1.0 / 1024);
		pendula_velocity(&sys, s.q, s.p, v);
		ew = fmax(ew, fabs(pendula_energy(&sys, s.q, v) - E0));
		lowest = fmin(lowest, s.q[1]);
		if (s.q[1] < -2.0)
			below = 1;
		if (below && s.q[1] > 0.0) {
			++climbs;
			below = 0;
		}
		if (i > 30 * 1024)
			highest_late = fmax(highest_late, s.q[1]);
	}
	printf("\n    E = %.6f J constant to %.1e J; lowest y %.3f m; %d climbs back above the "
	       "centre in 60 s; highest y after 30 s %.3f m",
	       E0, ew, lowest, climbs, highest_late);
	CU_ASSERT(ew < 1e-7 * fabs(E0));
	CU_ASSERT(climbs >= 5);
	CU_ASSERT(highest_late <= 1.5 + 1e-9); /* never above where it started at rest */
	CU_ASSERT(highest_late > 0.0);
}

/* The floor y = f(x, t) = d x^2 + A sin(W t) sin(k x), reduced to x by
 * Lagrange's method (L = m/2 (x'^2 + (f_x x' + f_t)^2) - m g f, drag
 * -lambda v):
 *   m (1 + f_x^2) x'' = -m f_x (f_xx x'^2 + 2 f_xt x' + f_tt) - m g f_x
 *                       - lambda (x' + f_x (f_x x' + f_t)) */
typedef struct {
	double m, g, d, A, W, k, lambda;
} floor_ref;

static void floor_derivs(const floor_ref *r, double x, double t, double *f, double *fx, double *fxx,
                         double *ft, double *fxt, double *ftt)
{
	const double sw = sin(r->W * t), cw = cos(r->W * t), skx = sin(r->k * x),
	             ckx = cos(r->k * x);
	*f = r->d * x * x + r->A * sw * skx;
	*fx = 2 * r->d * x + r->A * sw * r->k * ckx;
	*fxx = 2 * r->d - r->A * sw * r->k * r->k * skx;
	*ft = r->A * r->W * cw * skx;
	*fxt = r->A * r->W * cw * r->k * ckx;
	*ftt = -r->A * r->W * r->W * sw * skx;
}

static double floor_xdd(const floor_ref *r, double x, double xd, double t)
{
	double f, fx, fxx, ft, fxt, ftt;
	floor_derivs(r, x, t, &f, &fx, &fxx, &ft, &fxt, &ftt);
	const double rhs = -r->m * fx * (fxx * xd * xd + 2 * fxt * xd + ftt) - r->m * r->g * fx -
	                   r->lambda * (xd + fx * (fx * xd + ft));
	return rhs / (r->m * (1 + fx * fx));
}

/* Power of the floor's normal force on the bead: N = m a - F_applied. */
static double floor_power(const floor_ref *r, double x, double xd, double t, double *drag_power)
{
	double f, fx, fxx, ft, fxt, ftt;
	floor_derivs(r, x, t, &f, &fx, &fxx, &ft, &fxt, &ftt);
	const double xdd = floor_xdd(r, x, xd, t);
	const double yd = fx * xd + ft;
	const double ydd = fxx * xd * xd + 2 * fxt * xd + ftt + fx * xdd;
	const double nx = r->m * xdd + r->lambda * xd;
	const double ny = r->m * ydd + r->m * r->g + r->lambda * yd;
	*drag_power = -r->lambda * (xd * xd + yd * yd);
	return nx * xd + ny * yd;
}

static void test_bead_floor(void)
{
	/* Wave off: omega^2 = 2 d g. */
	pendula_params p = bead_params(1, 1, 1);
	p.surface = 1;
	p.floor_curvature = 0.8;
	p.wave_amp = 0.0;
	p.floor_x_init = 1e-3;
	pendula_system sys;
	pendula_system_init(&sys, &p);
	pendula_state s;
	memset(&s, 0, sizeof(s));
	s.q[0] = 1e-3;
	s.q[1] = 0.8e-6;
	const double w_ref = sqrt(2 * 0.8 * 9.81), h0 = 2 * PI / w_ref / 512;
	double *x = malloc(sizeof(double) * 512 * 20);
	for (int i = 0; i < 512 * 20; ++i) {
		x[i] = s.q[0];
		pendula_step(&sys, &s, h0);
	}
	const double w = zero_cross_omega(x, 512 * 20, h0);
	free(x);
	printf("\n    floor, no wave: omega^2 %.6f, 2 d g %.6f", w * w, w_ref * w_ref);
	CU_ASSERT(fabs(w * w / (w_ref * w_ref) - 1) < 1e-5);

	/* Wave on, drag: the trajectory against an RK4 of the reduced
	 * equation, and the energy budget E(T) - E(0) = integral of (work of
	 * the moving floor - drag). */
	const floor_ref r = {0.7, 9.81, 0.5, 0.15, 2 * PI * 1.3, 4.0, 0.3};
	p.m[0] = r.m;
	p.floor_curvature = r.d;
	p.wave_amp = r.A;
	p.wave_freq = r.W / (2 * PI);
	p.wave_number = r.k;
	p.lambda[0] = r.lambda;
	p.floor_x_init = 1.1;
	pendula_system_init(&sys, &p);
	/* the engine's own start (x' = 0, y' from the moving floor), via a frame */
	pendula_engine *e = pendula_engine_new(48000, &p);
	pendula_frame fr;
	pendula_engine_tick(e, &fr);
	pendula_engine_free(e);
	CU_ASSERT(fabs(fr.x[0] * p.axis[0] - 1.1) < 1e-6);
	/* ... with x' = 0 and y' = dfloor/dt: the x channel starts flat */
	pendula_engine *e2 = pendula_engine_new(48000, &p);
	pendula_frame f1, f2;
	pendula_engine_tick(e2, &f1);
	pendula_engine_tick(e2, &f2);
	pendula_engine_free(e2);
	CU_ASSERT(fabs(f2.x[0] - f1.x[0]) < 1e-7); /* x' dt would be ~1e-5 */
	memset(&s, 0, sizeof(s));
	double v[3] = {0, 0, 0}, f0, fx0, fxx0, ft0, fxt0, ftt0;
	floor_derivs(&r, 1.1, 0.0, &f0, &fx0, &fxx0, &ft0, &fxt0, &ftt0);
	s.q[0] = 1.1;
	s.q[1] = f0;
	v[1] = ft0;
	pendula_momentum(&sys, s.q, v, s.p);
	const double h = 1.0 / 4096, T = 5.0;
	const int steps = (int)(T / h);
	double xr = 1.1, vr = 0.0, t = 0.0, worst = 0.0;
	double work = 0.0, drag = 0.0, pc_prev = 0.0, pd_prev = 0.0;
	pc_prev = floor_power(&r, xr, vr, 0.0, &pd_prev);
	const double E0 = pendula_energy(&sys, s.q, v);
	double abs_work = 0.0;
	for (int i = 0; i < steps; ++i) {
		pendula_step(&sys, &s, h);
		/* RK4 of (x, x') with 8 substeps */
		for (int j = 0; j < 8; ++j) {
			const double dt = h / 8;
			const double k1x = vr, k1v = floor_xdd(&r, xr, vr, t);
			const double k2x = vr + 0.5 * dt * k1v,
			             k2v = floor_xdd(&r, xr + 0.5 * dt * k1x, k2x, t + 0.5 * dt);
			const double k3x = vr + 0.5 * dt * k2v,
			             k3v = floor_xdd(&r, xr + 0.5 * dt * k2x, k3x, t + 0.5 * dt);
			const double k4x = vr + dt * k3v,
			             k4v = floor_xdd(&r, xr + dt * k3x, k4x, t + dt);
			xr += dt / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
			vr += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
			t += dt;
		}
		worst = fmax(worst, fabs(s.q[0] - xr));
		double pd;
		const double pc = floor_power(&r, xr, vr, t, &pd);
		work += 0.5 * h * (pc + pc_prev); /* trapezoid: error O(h^2) */
		drag += 0.5 * h * (pd + pd_prev);
		abs_work += 0.5 * h * (fabs(pc) + fabs(pd));
		pc_prev = pc;
		pd_prev = pd;
	}
	pendula_velocity(&sys, s.q, s.p, v);
	const double E1 = pendula_energy(&sys, s.q, v);
	const double budget = E1 - E0 - (work + drag);
	printf("\n    wavy floor with drag, 5 s: |x - x_RK4| %.1e m; E %.6f -> %.6f J, floor work "
	       "%.6f J, drag %.6f J, budget error %.1e J (of %.2f J moved)",
	       worst, E0, E1, work, drag, budget, abs_work);
	CU_ASSERT(worst < 1e-8);
	CU_ASSERT(fabs(budget) < 1e-6 * abs_work);
	CU_ASSERT(fabs(work) > 0.01); /* the floor did work */
}

/* The largest change of the y output from one frame to the next over
 * `frames` frames (blocks of 64), the wave's frequency set to `freq` first
 * if it is not negative. */
static double largest_y_jump(pendula_engine *e, pendula_params *b, double freq, long frames)
{
	if (freq >= 0.0) {
		b->wave_freq = freq;
		pendula_engine_set_params(e, b);
	}
	float y[64], energy[64];
	pendula_outputs out;
	memset(&out, 0, sizeof(out));
	out.ch[PENDULA_CH_Y] = y;
	out.ch[PENDULA_CH_ENERGY] = energy;
	double jump = 0.0;
	float last = NAN;
	for (long i = 0; i < frames / 64; ++i) {
		pendula_engine_run(e, 64, &out);
		for (int j = 0; j < 64; ++j) {
			if (last == last)
				jump = fmax(jump, fabs((double)y[j] - (double)last));
			last = y[j];
		}
	}
	return jump;
}

static void test_wave_frequency_change(void)
{
	/* The wavy floor's wave keeps its phase when its frequency changes,
	 * as the pivot's forcing does: a knob or an automation of wave_freq
	 * changes the pace of the wave, and the floor under the bead does not
	 * jump, however long the plugin has run.  (The floor's sin(Omega t)
	 * from the simulated time moved by 2 pi Delta f t at a change: after
	 * 600 s of simulated time, 1 -> 1.013 Hz turned the wave by 49 rad.)
	 * 60 s of audio at time_scale 10, then the change; its frames against
	 * the 0.5 s before it. */
	pendula_params b;
	pendula_params_default(&b, PENDULA_MODEL_BEAD);
	b.surface = 1;
	b.time_scale = 10.0;
	b.wave_freq = 1.0;
	pendula_engine *e = pendula_engine_new(48000, &b);
	largest_y_jump(e, &b, -1.0, 48000L * 60 - 24000);
	const double before = largest_y_jump(e, &b, -1.0, 24000);
	const double after = largest_y_jump(e, &b, 1.013, 24000);
	/* and back, and to a standstill (the wave stops where it is) */
	const double back = largest_y_jump(e, &b, 1.0, 24000);
	const double stop = largest_y_jump(e, &b, 0.0, 24000);
	pendula_stats st;
	pendula_engine_stats(e, &st);
	printf("\n    largest y step per frame after 60 s: %.2e; after 1 -> 1.013 Hz %.2e, back to "
	       "1 Hz "
	       "%.2e, to 0 Hz %.2e (steps taken again: %llu)",
	       before, after, back, stop, (unsigned long long)st.retries);
	CU_ASSERT(before > 0.0 && before < 1e-3);
	CU_ASSERT(after < 2.0 * before && back < 2.0 * before && stop < 2.0 * before);
	CU_ASSERT(st.restarts == 0);
	pendula_engine_free(e);
}

CU_TestInfo bead_tests[] = {
    {"bead on the ellipsoid", test_bead_ellipsoid},
    {"bead: the source's example", test_bead_source_example},
    {"bead on the wavy floor", test_bead_floor},
    {"the floor's wave keeps its phase when its frequency changes", test_wave_frequency_change},
    CU_TEST_INFO_NULL,
};
