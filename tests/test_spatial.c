/* SPDX-License-Identifier: ISC */
/*
 * Physics tests of the 3-D models, spherical and bead (CUnit).
 *
 * Every reference is computed here: the conical pendulum's circle and
 * period, the apsidal angle of the spherical pendulum from a quadrature of
 * its integrals of motion, the double pendulum (the planar model), the
 * normal modes eig(R(0)^-1 K) of a chain of bobs with a Jacobi
 * eigen-solver, the small oscillations of a bead (omega^2 = g b / a^2 ...),
 * and for the wavy floor an RK4 of the equation of motion reduced to x by
 * Lagrange's method, with the constraint's power from it.
 */
#define _POSIX_C_SOURCE 200809L
#include "model.h"          /* pendula_predictor.work, the model's step */
#include "scheme_compose.h" /* PENDULA_KAHAN_LI_STAGES */
#include "pendula_engine.h"
#include "test_common.h"
#include "ports.h"

#include <CUnit/Basic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI  3.14159265358979323846
#define DEG (PI / 180.0)

#define REF_DIM 4
#include "ref_numerics.h"

static double dot3(const double *a, const double *b)
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static pendula_params spherical_params(int n)
{
	pendula_params p;
	pendula_params_default(&p, PENDULA_MODEL_SPHERICAL);
	p.n_bodies = n;
	for (int k = 0; k < 4; ++k) {
		p.m[k] = 1.0;
		p.l[k] = 1.0;
		p.lambda[k] = p.sigma[k] = 0.0;
		p.phi_init[k] = 0.0;
	}
	p.gravity = 9.81;
	p.spin_init = 0.0;
	return p;
}

/* A chaotic 3-D double pendulum: out of the plane, spinning. */
static pendula_params chaotic_spherical_double(void)
{
	pendula_params p = spherical_params(2);
	p.theta_init[0] = 120 * DEG;
	p.theta_init[1] = -60 * DEG;
	p.phi_init[1] = 90 * DEG;
	p.spin_init = 0.3;
	return p;
}

/* Pivot forcing on all three axes, at three frequencies. */
static void force_xyz(pendula_params *p)
{
	p->pivot_x_amp = 0.05;
	p->pivot_x_freq = 3;
	p->pivot_y_amp = 0.02;
	p->pivot_y_freq = 11;
	p->pivot_z_amp = 0.03;
	p->pivot_z_freq = 5;
}

static pendula_params bead_params(double a, double b, double c)
{
	pendula_params p;
	pendula_params_default(&p, PENDULA_MODEL_BEAD);
	p.axis[0] = a;
	p.axis[1] = b;
	p.axis[2] = c;
	p.m[0] = 1.0;
	p.lambda[0] = 0.0;
	p.gravity = 9.81;
	p.spin_init = 0.0;
	p.surface = 0;
	return p;
}

/* The bead on a moving floor with drag and pivot forcing: every
 * non-conservative effect the bead has. */
static pendula_params wavy_floor_forced(void)
{
	pendula_params b = bead_params(1, 1, 1);
	b.surface = 1;
	b.floor_curvature = 0.5;
	b.wave_amp = 0.1;
	b.wave_freq = 2.0;
	b.wave_number = 5.0;
	b.lambda[0] = 0.2;
	b.floor_x_init = 0.9;
	b.pivot_x_amp = 0.05;
	b.pivot_x_freq = 1.5;
	return b;
}

/* The state the engine starts from, through the public API only: the frame
 * coordinates of a fresh engine are its initial positions; velocities are
 * built here from the README's rule (spin about the vertical). */
static void start_state(const pendula_params *p, pendula_system *sys, pendula_state *s)
{
	pendula_system_init(sys, p);
	memset(s, 0, sizeof(*s));
	pendula_engine *e = pendula_engine_new(48000, p);
	pendula_frame f;
	pendula_engine_tick(e, &f);
	pendula_frame_coords(sys, &f, s->q);
	pendula_engine_free(e);
	/* frames keep the directions in single precision: rebuild exactly */
	double v[PENDULA_MAX_DOF] = {0};
	const double w = 2 * PI * p->spin_init;
	if (p->model == PENDULA_MODEL_SPHERICAL) {
		double r[3] = {0, 0, 0};
		for (int k = 0; k < sys->n; ++k) {
			const double th = p->theta_init[k], ph = p->phi_init[k];
			r[0] += p->l[k] * sin(th) * cos(ph);
			r[1] -= p->l[k] * cos(th);
			r[2] += p->l[k] * sin(th) * sin(ph);
			memcpy(s->q + 3 * k, r, sizeof(r));
			v[3 * k + 0] = w * r[2];
			v[3 * k + 2] = -w * r[0];
		}
	} else if (p->surface == 1) { /* the floor: x' = 0, y' = df/dt (t = 0) */
		const double x = p->floor_x_init;
		s->q[0] = x;
		s->q[1] = p->floor_curvature * x * x;
		v[1] = p->wave_amp * 2 * PI * p->wave_freq * sin(p->wave_number * x);
	} else {
		const double th = p->theta_init[0], ph = p->phi_init[0];
		s->q[0] = p->axis[0] * sin(th) * cos(ph);
		s->q[1] = -p->axis[1] * cos(th);
		s->q[2] = p->axis[2] * sin(th) * sin(ph);
		double vv[3] = {w * s->q[2], 0.0, -w * s->q[0]};
		const double n[3] = {s->q[0] / (p->axis[0] * p->axis[0]),
		                     s->q[1] / (p->axis[1] * p->axis[1]),
		                     s->q[2] / (p->axis[2] * p->axis[2])};
		const double c = dot3(n, vv) / dot3(n, n);
		for (int i = 0; i < 3; ++i)
			v[i] = vv[i] - c * n[i];
	}
	pendula_momentum(sys, s->q, v, s->p);
}

/* ------------------------------------------------------------------------ */
/* Spherical pendulum, N = 1                                                */

static void test_conical(void)
{
	/* On the steady circle at polar angle alpha the bob turns at
	 * w = sqrt(g / (l cos alpha)): alpha stays put, period 2 pi / w. */
	const double alpha = 50 * DEG, l = 0.7, g = 9.81;
	const double w = sqrt(g / (l * cos(alpha)));
	pendula_params p = spherical_params(1);
	p.l[0] = l;
	p.theta_init[0] = alpha;
	p.spin_init = -w / (2 * PI); /* y x r: -w turns x toward +z */
	pendula_system sys;
	pendula_state s;
	start_state(&p, &sys, &s);
	const double period = 2 * PI / w;
	const int per_period = 512;
	const double h = period / per_period;
	double worst = 0.0, az_end = 0.0;
	for (int i = 0; i < 100 * per_period; ++i) {
		pendula_step(&sys, &s, h);
		const double r = hypot(s.q[0], s.q[2]);
		worst = fmax(worst, fabs(atan2(r, -s.q[1]) - alpha));
	}
	az_end = atan2(s.q[2], s.q[0]); /* back at azimuth 0 after 100 periods */
	printf("\n    alpha %.1f deg, 100 periods: max |polar - alpha| %.2e rad, azimuth %.2e rad",
	       alpha / DEG, worst, az_end);
	CU_ASSERT(worst < 1e-6);
	CU_ASSERT(fabs(az_end) < 1e-6);
	/* and the sign convention: positive spin_init turns +x toward -z */
	CU_ASSERT(s.q[0] > 0.0);
}

/* The spherical pendulum's apsidal angle from its integrals: with
 * u = cos(polar angle), e = E / (m l^2), c = L_y / (m l^2), gamma = g / l,
 *   u'^2 = f(u) = (1 - u^2)(2 e + 2 gamma u) - c^2 = 2 gamma (u - u0)(u - u1)(u2 - u),
 *   phi' = c / (1 - u^2),
 * with u0 < -1 < u1 <= u <= u2 < 1 (f(+-1) = -c^2 < 0, f -> +inf as u -> -inf).
 * u = u1 + (u2 - u1) sin^2 psi removes the endpoint singularities:
 * dt = 2 dpsi / sqrt(2 gamma (u - u0)). */
static void apsides_reference(double e, double c, double gamma, double u_start, double *t_half,
                              double *phi_half)
{
	/* f(u) = -2 gamma u^3 - 2 e u^2 + 2 gamma u + 2 e - c^2, with the root
	 * u_start (a turning point): f = (u - u_start) q(u) */
	const double a3 = -2 * gamma, a2 = -2 * e, a1 = 2 * gamma;
	/* synthetic division */
	const double b2 = a3, b1 = a2 + b2 * u_start, b0 = a1 + b1 * u_start;
	const double disc = sqrt(b1 * b1 - 4 * b2 * b0);
	double r1 = (-b1 + disc) / (2 * b2), r2 = (-b1 - disc) / (2 * b2);
	double roots[3] = {u_start, r1, r2};
	/* sort */
	for (int i = 0; i < 3; ++i)
		for (int j = i + 1; j < 3; ++j)
			if (roots[j] < roots[i]) {
				const double t = roots[i];
				roots[i] = roots[j];
				roots[j] = t;
			}
	const double u0 = roots[0], u1 = roots[1], u2 = roots[2];
	const int n = 4000; /* Simpson */
	double st = 0.0, sp = 0.0;
	for (int i = 0; i <= n; ++i) {
		const double psi = 0.5 * PI * i / n;
		const double u = u1 + (u2 - u1) * sin(psi) * sin(psi);
		const double dt = 2.0 / sqrt(2 * gamma * (u - u0));
		const double wgt = (i == 0 || i == n) ? 1 : (i % 2 ? 4 : 2);
		st += wgt * dt;
		sp += wgt * dt * c / (1 - u * u);
	}
	*t_half = st * (0.5 * PI / n) / 3.0;
	*phi_half = fabs(sp * (0.5 * PI / n) / 3.0);
}

static void test_apsides(void)
{
	const double l = 1.0, g = 9.81, m = 1.0, th0 = 70 * DEG;
	const double w_conical = sqrt(g / (l * cos(th0)));
	pendula_params p = spherical_params(1);
	p.l[0] = l;
	p.m[0] = m;
	p.theta_init[0] = th0;
	p.spin_init = 0.45 * w_conical / (2 * PI);
	pendula_system sys;
	pendula_state s;
	start_state(&p, &sys, &s);
	double v[3];
	pendula_velocity(&sys, s.q, s.p, v);
	const double E = 0.5 * m * dot3(v, v) + m * g * s.q[1];
	const double Ly = m * (s.q[2] * v[0] - s.q[0] * v[2]);
	double t_half, phi_half;
	apsides_reference(E / (m * l * l), Ly / (m * l * l), g / l, -s.q[1] / l, &t_half,
	                  &phi_half);
	/* simulate: turning points of u = -y / l from the sign of y' */
	const double h = 1.0 / 2048;
	double prev_vy = 0.0, prev_t = 0.0, prev_az = 0.0, az_unwrapped = 0.0;
	double last_az = atan2(-s.q[2], s.q[0]);
	double t_turn[64], az_turn[64];
	int turns = 0;
	double t = 0.0;
	prev_az = last_az;
	for (int i = 0; i < 200000 && turns < 41; ++i) {
		pendula_step(&sys, &s, h);
		t += h;
		pendula_velocity(&sys, s.q, s.p, v);
		double az = atan2(-s.q[2], s.q[0]);
		double d = az - last_az;
		d -= 2 * PI * floor(d / (2 * PI) + 0.5);
		az_unwrapped += d;
		last_az = az;
		if (i > 0 && (prev_vy < 0) != (v[1] < 0)) {
			const double frac = prev_vy / (prev_vy - v[1]);
			t_turn[turns] = prev_t + frac * h;
			az_turn[turns] = prev_az + frac * (az_unwrapped - prev_az);
			++turns;
		}
		prev_vy = v[1];
		prev_t = t;
		prev_az = az_unwrapped;
	}
	CU_ASSERT_FATAL(turns >= 41);
	const double t_sim = (t_turn[40] - t_turn[0]) / 40,
	             phi_sim = fabs(az_turn[40] - az_turn[0]) / 40;
	printf("\n    half radial period %.9f s (quadrature %.9f), apsidal angle %.9f rad "
	       "(quadrature %.9f)",
	       t_sim, t_half, phi_sim, phi_half);
	CU_ASSERT(fabs(t_sim - t_half) < 1e-7);
	CU_ASSERT(fabs(phi_sim - phi_half) < 1e-7);
}

/* ------------------------------------------------------------------------ */
/* Spherical in the plane = the double pendulum                             */

static void test_planar_double(void)
{
	pendula_params ps = spherical_params(2), pd;
	pendula_params_default(&pd, PENDULA_MODEL_DOUBLE);
	ps.m[0] = pd.m[0] = 1.0;
	ps.m[1] = pd.m[1] = 0.6;
	ps.l[0] = pd.l[0] = 1.0;
	ps.l[1] = pd.l[1] = 0.8;
	ps.theta_init[0] = pd.theta_init[0] = 2.0;
	ps.theta_init[1] = pd.theta_init[1] = 2.0;
	pd.lambda[0] = pd.lambda[1] = pd.sigma[0] = pd.sigma[1] = 0.0;
	pd.gravity = ps.gravity;
	pendula_system ss, sd;
	pendula_state xs, xd;
	start_state(&ps, &ss, &xs);
	pendula_system_init(&sd, &pd);
	memset(&xd, 0, sizeof(xd));
	xd.q[0] = xd.q[1] = 2.0;
	const double h = 1.0 / 8192;
	double worst = 0.0, worst_z = 0.0;
	for (int i = 0; i < 3 * 8192; ++i) {
		pendula_step(&ss, &xs, h);
		pendula_step(&sd, &xd, h);
		double prev[3] = {0, 0, 0};
		for (int k = 0; k < 2; ++k) {
			const double dx = xs.q[3 * k] - prev[0], dy = xs.q[3 * k + 1] - prev[1];
			prev[0] = xs.q[3 * k];
			prev[1] = xs.q[3 * k + 1];
			double d = atan2(dx, -dy) - xd.q[k];
			d -= 2 * PI * floor(d / (2 * PI) + 0.5);
			worst = fmax(worst, fabs(d));
			worst_z = fmax(worst_z, fabs(xs.q[3 * k + 2]));
		}
	}
	printf("\n    3 s chaotic (theta = 2, 2): max angle difference %.2e rad, max |z| %.1e m",
	       worst, worst_z);
	CU_ASSERT(worst < 1e-9);
	CU_ASSERT(worst_z == 0.0);
}

/* Angular frequency of x(t) from its upward zero crossings
 * (tests/ref_numerics.h). */
static double zero_cross_omega(const double *x, int count, double dt)
{
	crossings c = {0};
	for (int i = 0; i < count; ++i)
		crossings_add(&c, i * dt, x[i]);
	return 2 * PI * crossings_freq(&c);
}

static void test_spherical_modes(void)
{
	/* Three bobs of masses 1, 0.5, 0.8 on rods 1, 0.7, 0.5: R(0)_ij =
	 * (sum_{k >= max(i,j)} m_k) l_i l_j, K = diag(g (sum_{k >= i} m_k) l_i).
	 * omega^2 = eig(R^-1 K) = eig(L^-1 K L^-T) with R = L L^T; each mode is
	 * a degenerate pair in 3-D (any azimuth), so it is started at azimuth
	 * 30 degrees and at 90 degrees. */
	const int n = 3;
	const double m[3] = {1.0, 0.5, 0.8}, l[3] = {1.0, 0.7, 0.5}, g = 9.81;
	double R[4][4] = {{0}}, K[4][4] = {{0}};
	for (int i = 0; i < n; ++i)
		for (int j = 0; j < n; ++j) {
			double below = 0.0;
			for (int k = i > j ? i : j; k < n; ++k)
				below += m[k];
			R[i][j] = below * l[i] * l[j];
			if (i == j)
				K[i][i] = g * below * l[i];
		}
	/* omega^2 and the mode shapes: K v = omega^2 R v (tests/ref_numerics.h) */
	double w2[4], V[4][4];
	gen_eigen(n, R, K, w2, V);
	double worst = 0.0;
	for (int mode = 0; mode < n; ++mode)
		for (int az = 0; az < 2; ++az) {
			const double vshape[3] = {V[0][mode], V[1][mode], V[2][mode]};
			double big = fmax(fabs(vshape[0]), fmax(fabs(vshape[1]), fabs(vshape[2])));
			pendula_params p = spherical_params(n);
			p.gravity = g;
			for (int k = 0; k < n; ++k) {
				p.m[k] = m[k];
				p.l[k] = l[k];
				p.theta_init[k] = 1e-3 * vshape[k] / big;
				p.phi_init[k] = az ? 90 * DEG : 30 * DEG;
			}
			pendula_system sys;
			pendula_state s;
			start_state(&p, &sys, &s);
			const double period = 2 * PI / sqrt(w2[mode]);
			const double h = period / 256;
			const int count = 256 * 20;
			double *x = malloc(sizeof(double) * count);
			for (int i = 0; i < count; ++i) {
				/* bob 1's displacement along the azimuth */
				x[i] = s.q[0] * cos(p.phi_init[0]) + s.q[2] * sin(p.phi_init[0]);
				pendula_step(&sys, &s, h);
			}
			const double w = zero_cross_omega(x, count, h);
			free(x);
			const double rel = fabs(w * w - w2[mode]) / w2[mode];
			printf("\n    mode %d azimuth %s: omega^2 %.6f, eig(R^-1 K) %.6f, rel %.1e",
			       mode, az ? "90" : "30", w * w, w2[mode], rel);
			worst = fmax(worst, rel);
		}
	CU_ASSERT(worst < 1e-5);
}

/* ------------------------------------------------------------------------ */
/* Conservation, constraints, reversibility, symplecticity                  */

/* |r_k - r_{k-1}| / l_k - 1 and the relative velocity along each link. */
static double constraint_error(const pendula_system *sys, const pendula_params *p,
                               const pendula_state *s)
{
	double v[PENDULA_MAX_DOF], worst = 0.0, prev[3] = {0, 0, 0}, pv[3] = {0, 0, 0};
	pendula_velocity(sys, s->q, s->p, v);
	for (int k = 0; k < sys->n; ++k) {
		double d[3], w[3];
		for (int i = 0; i < 3; ++i) {
			d[i] = s->q[3 * k + i] - prev[i];
			w[i] = v[3 * k + i] - pv[i];
			prev[i] = s->q[3 * k + i];
			pv[i] = v[3 * k + i];
		}
		const double len = sqrt(dot3(d, d));
		worst = fmax(worst, fabs(len / p->l[k] - 1.0));
		worst = fmax(worst, fabs(dot3(d, w)) / (len * (sqrt(dot3(w, w)) + 1.0)));
	}
	return worst;
}

static double vertical_momentum(const pendula_system *sys, const pendula_params *p,
                                const pendula_state *s)
{
	double v[PENDULA_MAX_DOF], L = 0.0;
	pendula_velocity(sys, s->q, s->p, v);
	for (int k = 0; k < sys->n; ++k)
		L += p->m[k] * (s->q[3 * k + 2] * v[3 * k] - s->q[3 * k] * v[3 * k + 2]);
	return L;
}

static void test_spherical_conservation(void)
{
	/* The energy output over 10^7 frames (208 s at 48 kHz) and L_y over
	 * the same time at the engine's step. */
	pendula_params p = chaotic_spherical_double();
	pendula_engine *e = pendula_engine_new(48000, &p);
	static float en[4800];
	pendula_outputs o;
	memset(&o, 0, sizeof(o));
	o.ch[PENDULA_CH_ENERGY] = en;
	float lo = 1e30f, hi = -1e30f;
	for (int b = 0; b < 10000000 / 4800 + 1; ++b) {
		pendula_engine_run(e, 4800, &o);
		for (int i = 0; i < 4800; ++i) {
			lo = fminf(lo, en[i]);
			hi = fmaxf(hi, en[i]);
		}
	}
	pendula_stats st;
	pendula_engine_stats(e, &st);
	pendula_engine_free(e);
	const double spread = (hi - lo) / hi;
	pendula_system sys;
	pendula_state s;
	start_state(&p, &sys, &s);
	const double L0 = vertical_momentum(&sys, &p, &s);
	double lworst = 0.0, cworst = 0.0, zmax = 0.0, eworst = 0.0, v[PENDULA_MAX_DOF];
	pendula_velocity(&sys, s.q, s.p, v);
	const double E0 = pendula_energy(&sys, s.q, v);
	for (int i = 0; i < 208 * 512; ++i) {
		pendula_step(&sys, &s, st.step_size);
		pendula_velocity(&sys, s.q, s.p, v);
		eworst = fmax(eworst, fabs(pendula_energy(&sys, s.q, v) - E0));
		lworst = fmax(lworst, fabs(vertical_momentum(&sys, &p, &s) - L0));
		cworst = fmax(cworst, constraint_error(&sys, &p, &s));
		zmax = fmax(zmax, fabs(s.q[5]));
	}
	printf(
	    "\n    energy output spread %.2e over 10^7 frames (step %.2e s); in double: E %.4f J "
	    "changes by %.1e (%.1e of the range); L_y %.4f, max change %.2e; constraints %.1e; "
	    "max |z2| %.2f m",
	    spread, st.step_size, E0, eworst, eworst / sys.energy_range, L0, lworst, cworst, zmax);
	CU_ASSERT(spread < 1e-6);
	CU_ASSERT(eworst < 1e-6 * sys.energy_range);
	CU_ASSERT(lworst < 1e-6 * fabs(L0));
	CU_ASSERT(cworst < 1e-12);
	CU_ASSERT(zmax > 0.5); /* it does move in 3-D */
}

static void test_constraints_forced_damped(void)
{
	/* N = 4 with dampers, swirls and 3-axis forcing; and the bead on the
	 * floor with a wave and drag: the constraints hold at every step. */
	pendula_params p = spherical_params(4);
	const double th[4] = {100, -40, 170, 60}, ph[4] = {0, 50, -120, 200};
	for (int k = 0; k < 4; ++k) {
		p.theta_init[k] = th[k] * DEG;
		p.phi_init[k] = ph[k] * DEG;
		p.lambda[k] = 0.05 * (k + 1);
		p.sigma[k] = 0.3 - 0.2 * k;
		p.l[k] = 0.3 + 0.2 * k;
		p.m[k] = 1.0 / (k + 1);
	}
	force_xyz(&p);
	p.spin_init = 0.2;
	pendula_system sys;
	pendula_system_init(&sys, &p);
	pendula_engine *e = pendula_engine_new(48000, &p);
	pendula_frame f;
	for (int i = 0; i < 10; ++i)
		pendula_engine_tick(e, &f);
	pendula_engine_free(e);
	pendula_state s;
	start_state(&p, &sys, &s);
	double worst = 0.0;
	for (int i = 0; i < 20000; ++i) {
		pendula_step(&sys, &s, 1.0 / 2048);
		worst = fmax(worst, constraint_error(&sys, &p, &s));
	}
	printf("\n    spherical N=4, damped, swirled, forced: constraint error %.1e", worst);
	CU_ASSERT(worst < 1e-12);

	pendula_params b = wavy_floor_forced();
	pendula_system bs;
	pendula_system_init(&bs, &b);
	pendula_state x;
	memset(&x, 0, sizeof(x));
	double v[3] = {0, 0, 0};
	x.q[0] = 0.9;
	x.q[1] = 0.5 * 0.81;
	v[1] = 0.1 * 2 * PI * 2.0 * sin(5.0 * 0.9); /* y' = A Omega sin(k x) at t = 0 */
	pendula_momentum(&bs, x.q, v, x.p);
	double fworst = 0.0, vworst = 0.0, pworst = 0.0;
	for (int i = 0; i < 20000; ++i) {
		pendula_step(&bs, &x, 1.0 / 2048);
		/* the floor with its wave at the state's phase (Omega t, carried
		 * by the steps), which follows the time */
		const double w = 2 * PI * 2.0, wave = x.phase_w;
		pworst = fmax(pworst, fabs(remainder(wave - w * x.t, 2 * PI)));
		const double y = 0.5 * x.q[0] * x.q[0] + 0.1 * sin(wave) * sin(5.0 * x.q[0]);
		fworst = fmax(fworst, fabs(x.q[1] - y));
		pendula_velocity(&bs, x.q, x.p, v);
		const double slope = x.q[0] + 0.1 * sin(wave) * 5.0 * cos(5.0 * x.q[0]);
		const double ydot = slope * v[0] + 0.1 * w * cos(wave) * sin(5.0 * x.q[0]);
		vworst = fmax(vworst, fabs(v[1] - ydot));
	}
	printf("\n    bead on the moving floor: |y - floor| %.1e m, |y' - d floor/dt| %.1e m/s; "
	       "the wave's phase within %.1e rad of Omega t",
	       fworst, vworst, pworst);
	CU_ASSERT(fworst < 1e-12);
	CU_ASSERT(vworst < 1e-12);
	CU_ASSERT(pworst < 1e-8);
}

static void test_reversible_symplectic(void)
{
	/* Time reversibility: 200 steps forward and back. */
	pendula_params p = spherical_params(3);
	p.theta_init[0] = 100 * DEG;
	p.theta_init[1] = 150 * DEG;
	p.theta_init[2] = -30 * DEG;
	p.phi_init[1] = 60 * DEG;
	p.phi_init[2] = -100 * DEG;
	p.spin_init = 0.4;
	pendula_system sys;
	pendula_state s0, s;
	start_state(&p, &sys, &s0);
	s = s0;
	for (int i = 0; i < 200; ++i)
		pendula_step(&sys, &s, 1.0 / 512);
	for (int i = 0; i < 200; ++i)
		pendula_step(&sys, &s, -1.0 / 512);
	double worst = 0.0;
	for (int i = 0; i < sys.dof; ++i)
		worst = fmax(worst, fmax(fabs(s.q[i] - s0.q[i]), fabs(s.p[i] - s0.p[i])));
	printf("\n    200 steps forward and back: max deviation %.1e", worst);
	CU_ASSERT(worst < 1e-11);

	/* Symplecticity on the constraint manifold, N = 2: tangent vectors
	 * xi = (dq, dp) of curves that stay on the manifold (positions
	 * rescaled link by link, velocities with their components along the
	 * links removed); omega(D psi xi, D psi eta) = omega(xi, eta) with
	 * omega = sum dq ^ dp. */
	pendula_params p2 = spherical_params(2);
	p2.theta_init[0] = 100 * DEG;
	p2.theta_init[1] = 150 * DEG;
	p2.phi_init[1] = 60 * DEG;
	p2.spin_init = 0.4;
	start_state(&p2, &sys, &s0);
	double dirs[4][12];
	srand(5);
	for (int a = 0; a < 4; ++a)
		for (int i = 0; i < 12; ++i)
			dirs[a][i] = rand() / (double)RAND_MAX - 0.5;
	const double eps = 1e-6;
	double tq[4][2][6], tp[4][2][6]; /* [dir][before/after][coord] */
	for (int a = 0; a < 4; ++a) {
		double q[2][6], pp[2][6], q1[2][6], p1[2][6];
		for (int sign = 0; sign < 2; ++sign) {
			const double e = sign ? -eps : eps;
			/* a curve on the manifold */
			pendula_state x = s0;
			double v[6];
			pendula_velocity(&sys, x.q, x.p, v);
			double prev[3] = {0, 0, 0}, prev_new[3] = {0, 0, 0};
			double pv[3] = {0, 0, 0}, pv_new[3] = {0, 0, 0};
			for (int k = 0; k < 2; ++k) {
				double d[3], w[3];
				for (int i = 0; i < 3; ++i) {
					d[i] = x.q[3 * k + i] - prev[i] + e * dirs[a][3 * k + i];
					w[i] = v[3 * k + i] - pv[i] + e * dirs[a][6 + 3 * k + i];
					prev[i] = x.q[3 * k + i];
					pv[i] = v[3 * k + i];
				}
				const double len = sqrt(dot3(d, d));
				for (int i = 0; i < 3; ++i)
					d[i] *= p2.l[k] / len;
				const double c = dot3(d, w) / dot3(d, d);
				for (int i = 0; i < 3; ++i) {
					w[i] -= c * d[i];
					x.q[3 * k + i] = prev_new[i] + d[i];
					v[3 * k + i] = pv_new[i] + w[i];
					prev_new[i] = x.q[3 * k + i];
					pv_new[i] = v[3 * k + i];
				}
			}
			pendula_momentum(&sys, x.q, v, x.p);
			memcpy(q[sign], x.q, sizeof(q[sign]));
			memcpy(pp[sign], x.p, sizeof(pp[sign]));
			for (int i = 0; i < 10; ++i)
				pendula_step(&sys, &x, 1.0 / 256);
			memcpy(q1[sign], x.q, sizeof(q1[sign]));
			memcpy(p1[sign], x.p, sizeof(p1[sign]));
		}
		for (int i = 0; i < 6; ++i) {
			tq[a][0][i] = (q[0][i] - q[1][i]) / (2 * eps);
			tp[a][0][i] = (pp[0][i] - pp[1][i]) / (2 * eps);
			tq[a][1][i] = (q1[0][i] - q1[1][i]) / (2 * eps);
			tp[a][1][i] = (p1[0][i] - p1[1][i]) / (2 * eps);
		}
	}
	double defect = 0.0, scale = 0.0;
	for (int a = 0; a < 4; ++a)
		for (int b = a + 1; b < 4; ++b) {
			double w0 = 0.0, w1 = 0.0;
			for (int i = 0; i < 6; ++i) {
				w0 += tq[a][0][i] * tp[b][0][i] - tp[a][0][i] * tq[b][0][i];
				w1 += tq[a][1][i] * tp[b][1][i] - tp[a][1][i] * tq[b][1][i];
			}
			defect = fmax(defect, fabs(w1 - w0));
			scale = fmax(scale, fabs(w0));
		}
	printf("\n    omega(D psi xi, D psi eta) - omega(xi, eta): max %.1e (omega up to %.2f)",
	       defect, scale);
	CU_ASSERT(scale > 0.1);
	CU_ASSERT(defect < 1e-7 * scale);
}

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

/* Two bobs (musical settings of bench_cap, to full precision): masses,
 * lengths, polar angles, and the second link's azimuth. */
static pendula_params two_bobs(double m0, double m1, double l0, double l1, double th0, double th1,
                               double phi1)
{
	pendula_params p = spherical_params(2);
	p.m[0] = m0;
	p.m[1] = m1;
	p.l[0] = l0;
	p.l[1] = l1;
	p.theta_init[0] = th0;
	p.theta_init[1] = th1;
	p.phi_init[1] = phi1;
	return p;
}

/* A 15 g bob on a 4 cm rod under a 54 kg one on 3.7 m, at 8.6 times real
 * time (one of bench_cap's musical settings, without its damping and
 * forcing): the light link whips round at a thousand times the heavy one's
 * rate.  Before the RATTLE models reported their work to the energy check
 * the run held its energy to 2e-8 of the range for 1.4 s, jumped by 3e-3
 * at 2.1 s and ran away (restarting) at 3.05 s, with no failed solve to
 * warn the engine; with the check it stays within 3.2e-5. */
static void test_light_bob_energy(void)
{
	pendula_params p =
	    two_bobs(0.014665303428787769, 54.384495214155322, 0.039885106772772939,
	             3.6919239969540731, -0.1120906799225537, -2.8258851171933195, 90 * DEG);
	p.time_scale = 8.6428032900603498;
	p.gravity = 7.3149269024312256;
	pendula_engine *e = pendula_engine_new(48000, &p);
	pendula_frame f;
	double lo = 1e300, hi = -1e300;
	for (long i = 0; i < 4 * 48000; ++i) {
		pendula_engine_tick(e, &f);
		lo = fmin(lo, f.energy);
		hi = fmax(hi, f.energy);
	}
	pendula_stats st;
	pendula_engine_stats(e, &st);
	pendula_engine_free(e);
	printf("\n    light bob, heavy bob, 4 s: energy spread %.2e of the range, %llu steps taken "
	       "again, %llu restarts, simulated %.2f s",
	       hi - lo, (unsigned long long)st.retries, (unsigned long long)st.restarts, f.t);
	CU_ASSERT(st.retries > 0); /* the case really needs the check */
	CU_ASSERT(st.restarts == 0);
	CU_ASSERT(hi - lo < 1e-4);
}

/* A 13 mm link hanging 9.3 m from the pivot (from one of bench_cap's
 * musical settings): its length is known only to about 1e-13 of itself,
 * since the positions are rounded to 1e-15 m.  SHAKE stops there (a
 * 1e-14 tolerance had every stage spend all its iterations on rounding
 * noise) and the links keep their lengths to that rounding. */
static void test_short_link_far_out(void)
{
	pendula_params p =
	    two_bobs(0.29183871391135935, 0.014005502074234144, 9.2711257332654018,
	             0.012911481326799102, -0.43499967003654527, -1.9607588244274206, 135 * DEG);
	pendula_system sys;
	pendula_state s;
	start_state(&p, &sys, &s);
	long iterations = 0;
	double worst = 0.0;
	const int steps = 4000;
	for (int i = 0; i < steps; ++i) {
		iterations += pendula_step(&sys, &s, 1.0 / 16384);
		worst = fmax(worst, constraint_error(&sys, &p, &s));
	}
	/* (the spherical pendulum's step: Kahan and Li's composition) */
	const double per_stage = (double)iterations / ((double)PENDULA_KAHAN_LI_STAGES * steps);
	printf(
	    "\n    13 mm link 9.3 m out: %.2f iterations per RATTLE stage, constraint error %.1e",
	    per_stage, worst);
	CU_ASSERT(per_stage < 4.0);
	CU_ASSERT(worst < 1e-11);
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

static void test_random_in_range(void)
{
	/* Random settings inside the declared ranges of every port of the two
	 * models: 0.1 s each, outputs finite, no restart, work cap kept. */
	srand(2027);
	int bad = 0, restarts = 0;
	for (int c = 0; c < 200; ++c) {
		const pendula_model model = c % 2 ? PENDULA_MODEL_BEAD : PENDULA_MODEL_SPHERICAL;
		pendula_params p;
		pendula_params_default(&p, model);
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
			const pendula_port_info *info = &pendula_ports[id];
			if (!(info->models & (1u << model)) || info->kind != PK_CONTROL_IN ||
			    info->param == PP_NONE)
				continue;
			if (c % 3 &&
			    (id == P_PIVOT_X_AMP || id == P_PIVOT_Y_AMP || id == P_PIVOT_Z_AMP))
				continue;
			const double u = rand() / (double)RAND_MAX;
			double v = (info->flags & PF_LOG) && info->min > 0
			               ? info->min * pow(info->max / info->min, u)
			               : info->min + (info->max - info->min) * u;
			if (info->flags & PF_INTEGER)
				v = floor(v + 0.5);
			pendula_param_set(&p, (pendula_port_id)id, v);
		}
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

int main(void)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	CU_pSuite s = CU_add_suite("spatial", NULL, NULL);
	CU_add_test(s, "conical pendulum", test_conical);
	CU_add_test(s, "apsidal angle vs quadrature", test_apsides);
	CU_add_test(s, "planar spherical = double pendulum", test_planar_double);
	CU_add_test(s, "normal modes, degenerate pairs", test_spherical_modes);
	CU_add_test(s, "E and L_y conserved, constraints", test_spherical_conservation);
	CU_add_test(s, "constraints with damping, swirl, forcing, moving floor",
	            test_constraints_forced_damped);
	CU_add_test(s, "reversible, symplectic on the manifold", test_reversible_symplectic);
	CU_add_test(s, "bead on the ellipsoid", test_bead_ellipsoid);
	CU_add_test(s, "bead: the source's example", test_bead_source_example);
	CU_add_test(s, "bead on the wavy floor", test_bead_floor);
	CU_add_test(s, "the composed step reports its work to its order", test_work_order);
	CU_add_test(s, "a light bob under a heavy one keeps its energy", test_light_bob_energy);
	CU_add_test(s, "a short link far out: SHAKE stops at rounding", test_short_link_far_out);
	CU_add_test(s, "engine outputs", test_engine_outputs);
	CU_add_test(s, "random settings inside the ranges", test_random_in_range);
	CU_add_test(s, "settings changed while running", test_settings_change);
	CU_add_test(s, "the floor's wave keeps its phase when its frequency changes",
	            test_wave_frequency_change);
	CU_add_test(s, "restart, no subnormals, poses", test_restart_subnormal_pose);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	const unsigned failed = CU_get_number_of_failures();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
