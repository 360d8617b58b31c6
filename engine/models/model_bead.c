/* SPDX-License-Identifier: ISC */
/*
 * A bead of mass m on a smooth surface (held on both sides), gravity -g y,
 * drag -lambda (v - Gamma'), the whole surface shaken by the pivot forcing
 * Gamma(t) (the constrained-Lagrange and moving-constraint notes):
 *
 * - surface 0, the ellipsoid g = (x^2/a^2 + y^2/b^2 + z^2/c^2 - 1) / 2 = 0
 *   about Gamma (the constrained-Lagrange note's example: a = 1, b = 3,
 *   c = 2, with b vertical);
 * - surface 1, the wavy floor of the moving-constraint note,
 *   g = y - d x^2 - A sin(Omega t) sin(k x) = 0 in the plane z = 0: a
 *   time-dependent constraint, which does work on the bead (the bead moves
 *   in that plane; the z forcing does not act on it).  Omega t is the
 *   wave's phase pendula_state.phase_w, advanced with the steps at
 *   Omega = pendula_forcing.omega_w: a change of the wave's frequency
 *   changes its pace, not its phase (as for the pivot's forcing).
 *
 * State: q = r relative to Gamma (the forcing is the effective gravity of
 * model.h), p = m v.  Integrator: Suzuki's 4th-order composition of RATTLE
 * (scheme_rattle.h) with the time-dependent constraint g(q1, t1) = 0 and
 * G v1 + dg/dt = 0.  On the ellipsoid SHAKE has a closed form (g is
 * quadratic along the correction), on the floor it is a scalar Newton
 * solve.
 *
 * The API's accel() and power() have no wave phase argument: for the floor
 * they take the wave at phase 0.  The engine's energy derivative uses the
 * state's phase.
 */
#include "scheme_rattle.h"

#include <math.h>
#include <string.h>

#define MAX_ITERATIONS 12
#define CONSTRAINT_TOL 1e-14 /* |g| relative to the surface's size */
#define KAPPA_STATE    0.04  /* bead_step_bound_at: turn of the velocity per step */

enum {
	SURFACE_ELLIPSOID = PENDULA_SURFACE_KIND_ELLIPSOID,
	SURFACE_FLOOR = PENDULA_SURFACE_KIND_FLOOR
};

typedef struct {
	int surface;
	double m, inv_m, mass3[3], inv_m3[3];
	double axis[3], w[3];    /* ellipsoid: semi-axes, 1 / axis^2 */
	double drag;             /* lambda1, N s/m */
	double d, amp, omega, k; /* floor: y = d x^2 + amp sin(phase) sin(k x), phase' = omega */
	double half_width;       /* floor: axis_x */
	double size;             /* length scale of the surface (tolerances) */
	double curvature;        /* bound on the surface's curvature, 1/m */
	double h_params;
	double g_max;     /* bound on the effective gravity, m/s^2 */
	double w_max;     /* ellipsoid: max(w) */
	int conservative; /* no drag, forcing or moving floor: every step's work is 0 */
} bead_model;

_Static_assert(sizeof(bead_model) <= PENDULA_SYSTEM_BYTES, "model constants fit");

#define BM(sys) PENDULA_MODEL_PART_CONST(bead_model, sys)

static inline double dot3(const double *a, const double *b)
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* ------------------------------------------------------------------------ */
/* Settings                                                                 */

/* The velocity outputs vx, vy, vz = velocity / v_ref with v_ref = sqrt(2 D
 * / m), the bead's speed if the whole energy range D were kinetic.  The
 * engine takes them from the slopes of the position channels, which are
 * the position times a scale per axis (bead_measure): speed_ref undoes it. */
static void bead_speed_refs(pendula_system *sys, const bead_model *bm)
{
	const double v_ref = sqrt(2.0 * sys->energy_range * bm->inv_m);
	double extent[3]; /* 1 / the scale of each position channel (0: none) */
	if (bm->surface == SURFACE_ELLIPSOID) {
		for (int i = 0; i < 3; ++i)
			extent[i] = bm->axis[i];
	} else {
		extent[0] = bm->half_width;
		extent[1] = bm->d * bm->half_width * bm->half_width;
		extent[2] = 0.0;
	}
	for (int i = 0; i < PENDULA_MAX_BODIES; ++i)
		sys->speed_ref[i] = i < 3 && v_ref > 0.0 ? (float)(extent[i] / v_ref) : 0.0f;
}

static void bead_derive(pendula_system *sys, const pendula_params *p)
{
	bead_model *bm = PENDULA_MODEL_PART(bead_model, sys);
	sys->n = 1;
	sys->dof = 3;
	sys->min_level = PENDULA_LEVEL_SUZUKI;
	/* Work per iteration (a double-pendulum iteration = 16; docs/NUMERICS.md,
	 * "Bounded work"), fitted to CPU time (docs/BENCHMARKS.md, "Why the
	 * constants are what they are"). */
	sys->work_iteration = 17;
	bm->surface = p->surface == SURFACE_FLOOR ? SURFACE_FLOOR : SURFACE_ELLIPSOID;
	sys->events_no_top = bm->surface == SURFACE_FLOOR; /* swings only, at x = 0 */
	bm->m = pendula_positive(p->m[0], 1e-9);
	bm->inv_m = 1.0 / bm->m;
	for (int i = 0; i < 3; ++i) {
		bm->mass3[i] = bm->m;
		bm->inv_m3[i] = bm->inv_m;
		bm->axis[i] = pendula_positive(p->axis[i], 1e-6);
		bm->w[i] = 1.0 / (bm->axis[i] * bm->axis[i]);
	}
	bm->drag = pendula_nonneg(p->lambda[0]);
	bm->d = pendula_nonneg(p->floor_curvature);
	bm->amp = pendula_nonneg(p->wave_amp);
	bm->omega = PENDULA_TWO_PI * pendula_nonneg(p->wave_freq);
	bm->k = pendula_nonneg(p->wave_number);
	bm->half_width = bm->axis[0];
	bm->conservative = bm->drag == 0.0 && !sys->force.forced &&
	                   !(bm->surface == SURFACE_FLOOR && bm->amp > 0.0);
	const double g = sys->g;
	pendula_forcing *f = &sys->force;
	double rate_extra = 0.0;
	if (bm->surface == SURFACE_ELLIPSOID) {
		const double amax = fmax(bm->axis[0], fmax(bm->axis[1], bm->axis[2]));
		const double amin = fmin(bm->axis[0], fmin(bm->axis[1], bm->axis[2]));
		bm->curvature = amax / (amin * amin);
		bm->size = amax;
		/* U from -m g b (bottom) to +m g b (top) */
		sys->energy_min = -bm->m * g * bm->axis[1];
		sys->energy_range = 2.0 * bm->m * g * bm->axis[1];
	} else {
		/* the bead stays in z = 0: no z forcing */
		f->amp_z = f->accel_z = 0.0;
		f->forced = f->accel_x > 0.0 || f->accel_y > 0.0;
		bm->curvature = 2.0 * bm->d + bm->amp * bm->k * bm->k;
		bm->size = bm->half_width;
		/* U = m g y >= -m g A: the floor can dip below 0 by the wave's
		 * amplitude; the range is m g d axis_x^2 (docs/MODELS.md) */
		sys->energy_min = -bm->m * g * bm->amp;
		sys->energy_range = bm->m * g * bm->d * bm->half_width * bm->half_width;
		rate_extra = bm->omega; /* the wave moves the floor */
		f->omega_w = bm->omega;
	}
	if (!(sys->energy_range > 1e-6))
		sys->energy_range = 1e-6;
	sys->tip_length = 0.0;
	bead_speed_refs(sys, bm);

	const double g_max = sqrt((g + f->accel_y) * (g + f->accel_y) + f->accel_x * f->accel_x +
	                          f->accel_z * f->accel_z);
	bm->g_max = g_max;
	bm->w_max = fmax(bm->w[0], fmax(bm->w[1], bm->w[2]));
	double h = pendula_settings_step(sys, sqrt(g_max * bm->curvature), PENDULA_KAPPA_SLOW,
	                                 bm->drag * bm->inv_m);
	/* the moving floor: its wave sets a rate too */
	if (bm->amp > 0.0 && rate_extra * h > PENDULA_KAPPA_FORCE)
		h = PENDULA_KAPPA_FORCE / rate_extra;
	bm->h_params = h;
}

/* sin and cos of the floor wave's phase (0 and 1 without a wave). */
static inline void wave_sincos(const bead_model *bm, double phase, double *sw, double *cw)
{
	*sw = 0.0;
	*cw = 1.0;
	if (bm->amp > 0.0) {
		*sw = sin(phase);
		*cw = cos(phase);
	}
}

/* The floor's height, slope and time derivative at x, with its wave at a
 * phase of sine sw and cosine cw. */
static inline double floor_at(const bead_model *bm, double x, double sw, double cw, double *slope,
                              double *rate)
{
	double skx, ckx;
	pendula_sincos(bm->k * x, &skx, &ckx);
	if (slope)
		*slope = 2.0 * bm->d * x + bm->amp * sw * bm->k * ckx;
	if (rate)
		*rate = bm->amp * bm->omega * cw * skx;
	return bm->d * x * x + bm->amp * sw * skx;
}

/* The same with its wave at phase (rad). */
static inline double floor_y(const bead_model *bm, double x, double phase, double *slope,
                             double *rate)
{
	double sw, cw;
	wave_sincos(bm, phase, &sw, &cw);
	return floor_at(bm, x, sw, cw, slope, rate);
}

/* Surface normal (gradient of g) at r, the floor's wave at phase, and dg/dt. */
static inline void normal_at(const bead_model *bm, const double *r, double phase, double *n,
                             double *g_t)
{
	if (bm->surface == SURFACE_ELLIPSOID) {
		for (int i = 0; i < 3; ++i)
			n[i] = bm->w[i] * r[i];
		*g_t = 0.0;
		return;
	}
	double slope, rate;
	floor_y(bm, r[0], phase, &slope, &rate);
	n[0] = -slope;
	n[1] = 1.0;
	n[2] = 0.0;
	*g_t = -rate;
}

/* Puts r, v on the surface (the floor's wave at phase): the ellipsoid scales
 * r in its own coordinates and the velocity loses its normal part; the
 * floor keeps x and x', and y, y' follow the floor. */
static void bead_adapt(const pendula_system *sys, int from, double *q, double *qdot, double phase)
{
	(void)from;
	const bead_model *bm = BM(sys);
	for (int i = 0; i < 3; ++i) {
		if (!isfinite(q[i]))
			q[i] = 0.0;
		if (!isfinite(qdot[i]))
			qdot[i] = 0.0;
	}
	if (bm->surface == SURFACE_ELLIPSOID) {
		double s = 0.0;
		for (int i = 0; i < 3; ++i)
			s += bm->w[i] * q[i] * q[i];
		if (!(s > 0.0)) {
			q[0] = q[2] = 0.0;
			q[1] = -bm->axis[1];
		} else {
			s = 1.0 / sqrt(s);
			for (int i = 0; i < 3; ++i)
				q[i] *= s;
		}
	} else {
		/* the floor keeps x and x' (docs/MODELS.md: the bead starts with
		 * x' = 0, y' follows the moving floor) */
		double slope, rate;
		q[1] = floor_y(bm, q[0], phase, &slope, &rate);
		q[2] = 0.0;
		qdot[1] = slope * qdot[0] + rate;
		qdot[2] = 0.0;
		return;
	}
	double n[3], g_t;
	normal_at(bm, q, phase, n, &g_t);
	const double c = (dot3(n, qdot) + g_t) / dot3(n, n);
	for (int i = 0; i < 3; ++i)
		qdot[i] -= c * n[i];
}

static void bead_initial(const pendula_system *sys, const pendula_params *p, int from, double *q,
                         double *qdot)
{
	const bead_model *bm = BM(sys);
	if (from > 0)
		return;
	if (bm->surface == SURFACE_ELLIPSOID) {
		const double th = pendula_finite_or(p->theta_init[0], 0.0);
		const double ph = pendula_finite_or(p->phi_init[0], 0.0);
		q[0] = bm->axis[0] * sin(th) * cos(ph);
		q[1] = -bm->axis[1] * cos(th);
		q[2] = bm->axis[2] * sin(th) * sin(ph);
		/* 2 pi spin_init y x r, projected onto the surface by adapt() */
		const double w = PENDULA_TWO_PI * pendula_finite_or(p->spin_init, 0.0);
		qdot[0] = w * q[2];
		qdot[1] = 0.0;
		qdot[2] = -w * q[0];
	} else {
		q[0] = pendula_finite_or(p->floor_x_init, 0.0);
		q[1] = q[2] = 0.0;
		qdot[0] = qdot[1] = qdot[2] = 0.0; /* x' = 0; y' from the moving floor */
	}
	bead_adapt(sys, 0, q, qdot, 0.0);
}

/* ------------------------------------------------------------------------ */
/* Forces and the RATTLE parts                                              */

static inline __attribute__((always_inline)) void
rattle_force(const pendula_system *sys, const double *q, const pendula_state *s, double *f)
{
	(void)q;
	const bead_model *bm = BM(sys);
	double g3[3];
	pendula_effective_gravity_at(sys, s, g3);
	for (int i = 0; i < 3; ++i)
		f[i] = bm->m * g3[i];
	if (bm->surface == SURFACE_FLOOR)
		f[2] = 0.0;
}

static inline __attribute__((always_inline)) void
rattle_damp(const pendula_system *sys, const double *q, const double *v, double *f)
{
	(void)q;
	const double c = BM(sys)->drag;
	for (int i = 0; i < 3; ++i)
		f[i] -= c * v[i];
}

static inline __attribute__((always_inline)) int rattle_shake(const pendula_system *sys,
                                                              const double *q0, const double *qt,
                                                              const pendula_state *s1, double h,
                                                              double *tau, double *dq)
{
	const bead_model *bm = BM(sys);
	const double scale = 0.5 * h * h;
	double n0[3], g_t;
	/* (the wave's phase where the step started) */
	normal_at(bm, q0, s1->phase_w - sys->force.omega_w * h, n0, &g_t);
	double alpha; /* dq = -alpha n0, alpha = Lambda / m */
	int it = 1;
	if (bm->surface == SURFACE_ELLIPSOID) {
		/* sum w (qt - alpha n0)^2 = 1: A alpha^2 - 2 B alpha + C = 0 */
		double A = 0.0, B = 0.0, C = -1.0;
		for (int i = 0; i < 3; ++i) {
			A += bm->w[i] * n0[i] * n0[i];
			B += bm->w[i] * qt[i] * n0[i];
			C += bm->w[i] * qt[i] * qt[i];
		}
		const double disc = B * B - A * C;
		if (disc >= 0.0 && B > 0.0)
			alpha = C / (B + sqrt(disc)); /* the root near 0, without cancellation */
		else
			alpha = B / A; /* (only for absurd steps) the nearest point */
	} else {
		/* scalar Newton on G(alpha) = y - floor(x) at the step's end
		 * (the wave's phase there is the same for every iteration) */
		alpha = bm->inv_m * scale * tau[0];
		const double tol = CONSTRAINT_TOL * (bm->size + fabs(qt[1]));
		double sw, cw;
		wave_sincos(bm, s1->phase_w, &sw, &cw);
		for (it = 1;; ++it) {
			const double x = qt[0] - alpha * n0[0], y = qt[1] - alpha * n0[1];
			double slope;
			const double G = y - floor_at(bm, x, sw, cw, &slope, NULL);
			if (!(fabs(G) > tol) || it >= MAX_ITERATIONS)
				break;
			const double dG = -n0[1] + slope * n0[0];
			alpha -= G / dG;
		}
	}
	for (int i = 0; i < 3; ++i)
		dq[i] = -alpha * n0[i];
	tau[0] = alpha * bm->m / scale;
	return it;
}

/* (m + h/2 lambda) v1 = pt - nu n1, n1 . v1 + g_t = 0. */
static inline __attribute__((always_inline)) void rattle_project(const pendula_system *sys,
                                                                 const double *q1, const double *pt,
                                                                 double h, const pendula_state *s1,
                                                                 double *p1)
{
	const bead_model *bm = BM(sys);
	double n[3], g_t;
	normal_at(bm, q1, s1->phase_w, n, &g_t);
	const double meff = bm->m + 0.5 * h * bm->drag;
	const double nu = (dot3(n, pt) + g_t * meff) / dot3(n, n);
	const double f = bm->m / meff;
	for (int i = 0; i < 3; ++i)
		p1[i] = (pt[i] - nu * n[i]) * f;
}

static int bead_step_base(const pendula_system *sys, pendula_state *s, double h,
                          pendula_predictor *pr)
{
	const bead_model *bm = BM(sys);
	return pendula_rattle_step(sys, s, h, pr, 3, bm->mass3, bm->inv_m3, bm->drag > 0.0,
	                           rattle_force, rattle_damp, rattle_shake, rattle_project);
}

static int base_for_suzuki(const pendula_system *sys, pendula_state *s, double h,
                           pendula_predictor *pr, const int n)
{
	(void)n;
	return bead_step_base(sys, s, h, pr);
}

static double state_power(const pendula_system *sys, const pendula_state *s, const double *force);

static int bead_step(const pendula_system *sys, pendula_state *s, double h, pendula_predictor *pr)
{
	return pendula_compose_suzuki(sys, s, h, pr, 1, base_for_suzuki,
	                              BM(sys)->conservative && !sys->force.driven ? NULL
	                                                                          : state_power);
}

/* ------------------------------------------------------------------------ */
/* Physics at one state                                                     */

static void bead_velocity(const pendula_system *sys, const double *q, const double *p, double *qdot)
{
	(void)q;
	for (int i = 0; i < 3; ++i)
		qdot[i] = p[i] * BM(sys)->inv_m;
}

static void bead_momentum(const pendula_system *sys, const double *q, const double *qdot, double *p)
{
	(void)q;
	for (int i = 0; i < 3; ++i)
		p[i] = qdot[i] * BM(sys)->m;
}

/* Forces without the constraint (gravity included or not) and the normal
 * force multiplier mu (m a = F - mu n) from g'' = 0:
 *   n . a + v^T H v + 2 grad(g_t) . v + g_tt = 0. */
static double constraint_multiplier(const bead_model *bm, const double *q, const double *v,
                                    double phase, const double *f, double *n)
{
	double g_t, q2;
	normal_at(bm, q, phase, n, &g_t);
	if (bm->surface == SURFACE_ELLIPSOID) {
		q2 = bm->w[0] * v[0] * v[0] + bm->w[1] * v[1] * v[1] + bm->w[2] * v[2] * v[2];
	} else {
		double sw, cw;
		wave_sincos(bm, phase, &sw, &cw);
		const double skx = sin(bm->k * q[0]), ckx = cos(bm->k * q[0]);
		const double gxx = -2.0 * bm->d + bm->amp * sw * bm->k * bm->k * skx;
		const double gxt = -bm->amp * bm->omega * cw * bm->k * ckx;
		const double gtt = bm->amp * bm->omega * bm->omega * sw * skx;
		q2 = gxx * v[0] * v[0] + 2.0 * gxt * v[0] + gtt;
	}
	return (dot3(n, f) * bm->inv_m + q2) * bm->m / dot3(n, n);
}

static void all_forces(const pendula_system *sys, const double *v, const double *g3, double *f)
{
	const bead_model *bm = BM(sys);
	for (int i = 0; i < 3; ++i)
		f[i] = bm->m * g3[i] - bm->drag * v[i];
	if (bm->surface == SURFACE_FLOOR)
		f[2] = 0.0;
}

static void bead_accel(const pendula_system *sys, const double *q, const double *qdot,
                       double phase_x, double phase_y, double *accel)
{
	const bead_model *bm = BM(sys);
	double g3[3], f[3], n[3];
	pendula_effective_gravity3(sys, phase_x, phase_y, 0.0, g3);
	all_forces(sys, qdot, g3, f);
	const double mu = constraint_multiplier(bm, q, qdot, 0.0, f, n);
	for (int i = 0; i < 3; ++i)
		accel[i] = (f[i] - mu * n[i]) * bm->inv_m;
}

static double bead_energy(const pendula_system *sys, const double *q, const double *qdot)
{
	const bead_model *bm = BM(sys);
	return bm->m * (0.5 * dot3(qdot, qdot) + sys->g * q[1]);
}

/* dE/dt: drag, the pivot's pseudo-force, and the work of the moving floor
 * (its normal force -mu n on the bead, whose power is mu g_t); from the
 * effective gravity g3 (power_at) or from the forces rattle_force computed
 * from it (power_from, the same up to rounding). */
static double floor_power(const pendula_system *sys, const double *q, const double *v,
                          const double *f, double phase)
{
	const bead_model *bm = BM(sys);
	double n[3], g_t;
	const double mu = constraint_multiplier(bm, q, v, phase, f, n);
	normal_at(bm, q, phase, n, &g_t);
	return mu * g_t;
}

static double power_at(const pendula_system *sys, const double *q, const double *v,
                       const double *g3, double phase)
{
	const bead_model *bm = BM(sys);
	double f[3];
	all_forces(sys, v, g3, f);
	double pw = -bm->drag * dot3(v, v);
	const double g_force[3] = {g3[0], g3[1] + sys->g,
	                           bm->surface == SURFACE_FLOOR ? 0.0 : g3[2]};
	pw += bm->m * dot3(g_force, v);
	if (bm->surface == SURFACE_FLOOR && bm->amp > 0.0)
		pw += floor_power(sys, q, v, f, phase);
	return pw;
}

static double power_from(const pendula_system *sys, const double *q, const double *v,
                         const double *force, double phase)
{
	const bead_model *bm = BM(sys);
	double pw = -bm->drag * dot3(v, v);
	/* (gravity's pull taken out again) */
	const double g_force[3] = {force[0], force[1] + bm->m * sys->g, force[2]};
	pw += dot3(g_force, v);
	if (bm->surface == SURFACE_FLOOR && bm->amp > 0.0) {
		double f[3];
		for (int i = 0; i < 3; ++i)
			f[i] = force[i] - bm->drag * v[i];
		f[2] = 0.0;
		pw += floor_power(sys, q, v, f, phase);
	}
	return pw;
}

/* The power at a state, at its time (the work the composed step reports):
 * v = p / m; from the forces a stage computed at s (force) when there are
 * any. */
static double state_power(const pendula_system *sys, const pendula_state *s, const double *force)
{
	const bead_model *bm = BM(sys);
	double g3[3], v[3];
	for (int i = 0; i < 3; ++i)
		v[i] = s->p[i] * bm->inv_m;
	if (force)
		return power_from(sys, s->q, v, force, s->phase_w);
	pendula_effective_gravity_at(sys, s, g3);
	return power_at(sys, s->q, v, g3, s->phase_w);
}

static double bead_power(const pendula_system *sys, const double *q, const double *qdot,
                         double phase_x, double phase_y)
{
	double g3[3];
	pendula_effective_gravity3(sys, phase_x, phase_y, 0.0, g3);
	return power_at(sys, q, qdot, g3, 0.0);
}

static double bead_step_bound(const pendula_system *sys, double energy_norm)
{
	const bead_model *bm = BM(sys);
	/* T = E - U <= E - U_min = energy_norm * range (energy_min is U_min on
	 * the ellipsoid, a lower bound of U on the floor) */
	double t_max = energy_norm * sys->energy_range;
	if (!(t_max > 0.0))
		t_max = 0.0;
	const double rate = sqrt(2.0 * t_max * bm->inv_m) * bm->curvature;
	double h = bm->h_params;
	if (rate * h > PENDULA_KAPPA_SLOW)
		h = PENDULA_KAPPA_SLOW / rate;
	return h;
}

/* The rate rule of bead_step_bound (speed times curvature: the turn of the
 * velocity per step) applied to the actual motion on the ellipsoid instead
 * of the worst case its energy allows: the largest normal curvature at the
 * bead's point over every direction it may be moving in, kappa = max(w) /
 * |W r| (W = diag(1/axis^2), W r the normal; the normal curvature along v
 * is (sum w_i v_i^2) / (|v|^2 |W r|)), times the speed the bead can reach
 * within the step, |v| + g_max h (only gravity and the pivot's
 * pseudo-force speed it up; drag slows it):
 *   kappa (|v| + g_max h) h <= KAPPA_STATE.
 * At the end of the shortest axis at full speed this is the energy bound;
 * elsewhere the step can be longer.  (The curvature along v alone would
 * let the step grow more, but the velocity turns into the sharp direction
 * within a few steps, and the energy spread grows.)  KAPPA_STATE is below
 * the energy bound's PENDULA_KAPPA_SLOW: it keeps the energy spread a factor
 * 10 below the 1e-6 the engine promises, for far fewer steps than the
 * energy bound alone (docs/BENCHMARKS.md, "Why the constants are what they
 * are").  The engine chooses the step again
 * before every step (shrinking at once); the energy bound stays a floor.
 * The moving floor keeps the energy bound. */
static double bead_step_bound_at(const pendula_system *sys, const pendula_state *s,
                                 const double *qdot, const double *qddot, const float *inv_mass,
                                 double energy_norm)
{
	(void)qddot; /* (an angle model's; the bead has none) */
	(void)inv_mass;
	const bead_model *bm = BM(sys);
	const double h_energy = bead_step_bound(sys, energy_norm);
	if (bm->surface != SURFACE_ELLIPSOID || !(h_energy < bm->h_params))
		return h_energy;
	double v2 = 0.0, n2 = 0.0;
	for (int i = 0; i < 3; ++i) {
		const double n = bm->w[i] * s->q[i];
		v2 += qdot[i] * qdot[i];
		n2 += n * n;
	}
	if (!(n2 > 0.0))
		return h_energy;
	const double kappa = bm->w_max / sqrt(n2), speed = sqrt(v2);
	/* kappa g h^2 + kappa |v| h = KAPPA_STATE */
	const double h_state =
	    pendula_state_step(kappa * speed, kappa * bm->g_max, KAPPA_STATE, h_energy);
	/* h_params at the scheme's longest step is no rate
	 * of the settings: the engine only lengthens its step again for a
	 * bound beyond it (with a margin), so that one does not cap h_state */
	return bm->h_params < pendula_scheme_h_max(sys) ? fmin(h_state, bm->h_params) : h_state;
}

static void bead_canonical(const pendula_system *sys, pendula_state *s, double *shift)
{
	(void)sys;
	(void)shift;
	for (int i = 0; i < 3; ++i) {
		s->q[i] = pendula_flush(s->q[i]);
		s->p[i] = pendula_flush(s->p[i]);
	}
}

static void bead_measure(const pendula_system *sys, const pendula_state *s, double *qdot,
                         double *val, double *der)
{
	const bead_model *bm = BM(sys);
	bead_velocity(sys, s->q, s->p, qdot);
	double scale[3];
	if (bm->surface == SURFACE_ELLIPSOID) {
		for (int i = 0; i < 3; ++i)
			scale[i] = 1.0 / bm->axis[i];
	} else {
		scale[0] = 1.0 / bm->half_width;
		scale[1] = bm->d > 0.0 ? 1.0 / (bm->d * bm->half_width * bm->half_width) : 0.0;
		scale[2] = 0.0;
	}
	val[PENDULA_CH_X] = s->q[0] * scale[0];
	val[PENDULA_CH_Y] = s->q[1] * scale[1];
	val[PENDULA_CH_Z] = s->q[2] * scale[2];
	der[PENDULA_CH_X] = qdot[0] * scale[0];
	der[PENDULA_CH_Y] = qdot[1] * scale[1];
	der[PENDULA_CH_Z] = qdot[2] * scale[2];
	double g3[3];
	pendula_effective_gravity_at(sys, s, g3);
	val[PENDULA_CH_ENERGY] = pendula_energy_normalised(sys, bead_energy(sys, s->q, qdot));
	der[PENDULA_CH_ENERGY] = power_at(sys, s->q, qdot, g3, s->phase_w) / sys->energy_range;
}

static void bead_fresh(const pendula_system *sys, const pendula_state *s, double *qdot, double *val,
                       double *der)
{
	bead_measure(sys, s, qdot, val, der);
}

static void bead_coords(const pendula_system *sys, const pendula_frame *f, double *q)
{
	const bead_model *bm = BM(sys);
	if (bm->surface == SURFACE_ELLIPSOID) {
		q[0] = f->x[0] * bm->axis[0];
		q[1] = f->y[0] * bm->axis[1];
		q[2] = f->z[0] * bm->axis[2];
	} else {
		q[0] = f->x[0] * bm->half_width;
		/* the wave's phase unknown (a frame rebuilt from the outputs):
		 * the y output, unless it is clamped */
		q[1] = isfinite(f->wave_phase) ? floor_y(bm, q[0], f->wave_phase, NULL, NULL)
		       : fabs(f->y[0]) < 1.0   ? f->y[0] * bm->d * bm->half_width * bm->half_width
		                               : floor_y(bm, q[0], 0.0, NULL, NULL);
		q[2] = 0.0;
	}
}

/* A phase of the wave at which the floor passes through the bead at q (for
 * a pose whose phase is unknown): sin(phase) from y = d x^2 + amp sin(phase)
 * sin(k x); the floor's curve depends on sin(phase) alone. */
static double floor_phase_through(const bead_model *bm, const double *q)
{
	const double x = pendula_finite_or(q[0], 0.0), skx = sin(bm->k * x);
	if (!(bm->amp > 0.0 && fabs(skx) > 1e-3))
		return 0.0;
	const double sw = (pendula_finite_or(q[1], 0.0) - bm->d * x * x) / (bm->amp * skx);
	return asin(sw < -1.0 ? -1.0 : sw > 1.0 ? 1.0 : sw);
}

/* The surface (the ellipsoid about the pivot, or the floor's curve with its
 * wave at phase; phase not finite: at a phase where the floor passes
 * through the bead), the centre and the bead. */
static void bead_pose(const pendula_system *sys, const double *q, pendula_vec3 pivot, double phase,
                      pendula_pose *pose)
{
	const bead_model *bm = BM(sys);
	memset(pose, 0, sizeof(*pose));
	pose->point[0].p = pivot;
	pose->point[0].kind = PENDULA_POINT_PIVOT;
	pose->point[0].body = -1;
	pose->point[1].p.x = pivot.x + pendula_finite_or(q[0], 0.0);
	pose->point[1].p.y = pivot.y + pendula_finite_or(q[1], 0.0);
	pose->point[1].p.z = pivot.z + pendula_finite_or(q[2], 0.0);
	pose->point[1].kind = PENDULA_POINT_BOB;
	pose->point[1].body = 0;
	pose->n_points = 2;
	pose->marker = 1;
	pose->n_tips = 1;
	pose->tip[0] = 1;
	pendula_pose_surface *sf = &pose->surface;
	sf->centre = pivot;
	if (bm->surface == SURFACE_ELLIPSOID) {
		sf->kind = PENDULA_SURFACE_ELLIPSOID;
		for (int i = 0; i < 3; ++i)
			sf->axis[i] = bm->axis[i];
		/* theta1_init: the bead's angle from the lowest point, seen
		 * from the centre */
		pose->handle[0] = (pendula_pose_handle){0, 1, 0.0};
		pose->n_handles = 1;
		pose->reach = fmax(bm->axis[0], fmax(bm->axis[1], bm->axis[2]));
		pose->three_d = 1;
	} else {
		if (!isfinite(phase))
			phase = floor_phase_through(bm, q);
		sf->kind = PENDULA_SURFACE_CURVE;
		sf->n = PENDULA_POSE_CURVE_PTS;
		const double x0 = 1.25 * bm->half_width;
		for (int i = 0; i < sf->n; ++i) {
			const double x = -x0 + 2.0 * x0 * i / (sf->n - 1);
			sf->curve[i].x = pivot.x + x;
			sf->curve[i].y = pivot.y + floor_y(bm, x, phase, NULL, NULL);
			sf->curve[i].z = pivot.z;
		}
		sf->axis[0] = x0;
		sf->axis[1] = bm->d * x0 * x0 + bm->amp;
		pose->reach = hypot(x0, bm->d * x0 * x0 + bm->amp);
	}
	pose->pivot_excursion.x = sys->force.amp_x;
	pose->pivot_excursion.y = sys->force.amp_y;
	pose->pivot_excursion.z = sys->force.amp_z;
}

/* A pluck strikes the bead horizontally, half along x and half along z,
 * and adapt keeps the part along the surface (on the floor, which has no
 * z: along x and the floor's slope).  From the bottom of the ellipsoid the
 * bead then moves along x and z at once. */
static void bead_strike(const pendula_system *sys, const double *q, double *impulse)
{
	(void)q;
	memset(impulse, 0, sizeof(double) * (size_t)sys->dof);
	impulse[0] = 1.0;
	impulse[2] = 1.0;
}

const pendula_model_ops pendula_model_bead = {
    .derive = bead_derive,
    .initial = bead_initial,
    .velocity = bead_velocity,
    .momentum = bead_momentum,
    .accel = bead_accel,
    .energy = bead_energy,
    .power = bead_power,
    .step = bead_step,
    .step_base = bead_step_base,
    .step_bound_at = bead_step_bound_at,
    .canonical = bead_canonical,
    .measure = bead_measure,
    .adapt = bead_adapt,
    .fresh = bead_fresh,
    .pose = bead_pose,
    .coords = bead_coords,
    .strike = bead_strike,
    .velocity_outputs = PENDULA_VEL_POSITION,
};
