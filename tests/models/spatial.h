/* SPDX-License-Identifier: ISC */
/*
 * What the tests of the 3-D models (spherical, bead) share: settings of
 * each model, the state an engine starts from, the error of the rods'
 * constraints; and the tables of test_spherical.c and test_bead.c, which
 * test_spatial.c (main) runs with its own engine-level tests as one suite.
 */
#ifndef PENDULA_TEST_SPATIAL_H
#define PENDULA_TEST_SPATIAL_H

#include "model.h" /* pendula_predictor.work, the model's step */
#include "pendula_engine.h"
#include "ports.h"
#include "test_common.h"

#include <CUnit/Basic.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI  3.14159265358979323846
#define DEG (PI / 180.0)

#define REF_DIM 4
#include "ref_numerics.h"

extern CU_TestInfo spherical_tests[]; /* test_spherical.c */
extern CU_TestInfo bead_tests[];      /* test_bead.c */

static inline double dot3(const double *a, const double *b)
{
	return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline pendula_params spherical_params(int n)
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
static inline pendula_params chaotic_spherical_double(void)
{
	pendula_params p = spherical_params(2);
	p.theta_init[0] = 120 * DEG;
	p.theta_init[1] = -60 * DEG;
	p.phi_init[1] = 90 * DEG;
	p.spin_init = 0.3;
	return p;
}

/* Pivot forcing on all three axes, at three frequencies. */
static inline void force_xyz(pendula_params *p)
{
	p->pivot_x_amp = 0.05;
	p->pivot_x_freq = 3;
	p->pivot_y_amp = 0.02;
	p->pivot_y_freq = 11;
	p->pivot_z_amp = 0.03;
	p->pivot_z_freq = 5;
}

static inline pendula_params bead_params(double a, double b, double c)
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
static inline pendula_params wavy_floor_forced(void)
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
 * built here from docs/MODELS.md's rule (spin about the vertical). */
static inline void start_state(const pendula_params *p, pendula_system *sys, pendula_state *s)
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

/* |r_k - r_{k-1}| / l_k - 1 and the relative velocity along each link. */
static inline double constraint_error(const pendula_system *sys, const pendula_params *p,
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

/* Angular frequency of x(t) from its upward zero crossings
 * (support/ref_numerics.h). */
static inline double zero_cross_omega(const double *x, int count, double dt)
{
	crossings c = {0};
	for (int i = 0; i < count; ++i)
		crossings_add(&c, i * dt, x[i]);
	return 2 * PI * crossings_freq(&c);
}

#endif
