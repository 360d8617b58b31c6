/* SPDX-License-Identifier: ISC */
/*
 * What the tests of the angle models (the double pendulum and the Chaos Man)
 * share: the reference model, written from the note's equations
 * independently of the engine (positions-based potential, mass matrix from
 * the note's formulas, finite differences, support/ref_lagrange.h), and the
 * settings the tests start from; and the tables of the files that
 * test_engine.c (main) runs.
 */
#ifndef PENDULA_TEST_ANGLE_MODELS_H
#define PENDULA_TEST_ANGLE_MODELS_H

#include "pendula_engine.h"
#include "ports.h"
#include "test_common.h"

#include <CUnit/Basic.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI      3.14159265358979323846
#define DEG     (PI / 180.0)
#define NB      4 /* the Chaos Man: body 1 and up to three arms */
#define REF_DIM NB
#include "ref_numerics.h"

extern CU_TestInfo angle_physics_tests[]; /* test_angle_physics.c */
extern CU_TestInfo integrator_tests[];    /* test_integrator.c */
extern CU_TestInfo engine_limits_tests[]; /* test_engine_limits.c */

/* ------------------------------------------------------------------------ */
/* Reference model, written from the note's equations independently of the engine. */

typedef struct {
	int n;
	double g;
	double m[NB], c[NB], ig[NB], b[NB], beta[NB]; /* body 1: c = c1, ig = I_G1 */
	double lambda[NB], sigma[NB];
	double dx, wx, dy, wy; /* pivot: amplitude, angular frequency */
} ref_model;

static inline ref_model ref_from_params(const pendula_params *p)
{
	ref_model r;
	memset(&r, 0, sizeof(r));
	r.g = p->gravity;
	if (p->model == PENDULA_MODEL_DOUBLE) {
		r.n = 2;
		r.m[0] = p->m[0];
		r.c[0] = p->l[0];
		r.m[1] = p->m[1];
		r.b[1] = p->l[0];
		r.c[1] = p->l[1];
	} else {
		r.n = p->n_bodies;
		for (int k = 0; k < r.n; ++k) {
			r.m[k] = p->m[k];
			r.c[k] = p->c[k];
			r.ig[k] = p->inertia[k];
			r.b[k] = p->b[k];
			r.beta[k] = p->beta[k];
		}
	}
	for (int k = 0; k < r.n; ++k) {
		r.lambda[k] = p->lambda[k];
		r.sigma[k] = p->sigma[k];
	}
	r.dx = p->pivot_x_amp;
	r.wx = 2 * PI * p->pivot_x_freq;
	r.dy = p->pivot_y_amp;
	r.wy = 2 * PI * p->pivot_y_freq;
	return r;
}

/* Centres of mass relative to the pivot, from the geometry of docs/MODELS.md. */
static inline void ref_positions(const ref_model *r, const double *th, double *x, double *y)
{
	x[0] = r->c[0] * sin(th[0]);
	y[0] = -r->c[0] * cos(th[0]);
	for (int k = 1; k < r->n; ++k) {
		const double ox = r->b[k] * sin(th[0] + r->beta[k]);
		const double oy = -r->b[k] * cos(th[0] + r->beta[k]);
		x[k] = ox + r->c[k] * sin(th[k]);
		y[k] = oy - r->c[k] * cos(th[k]);
	}
}

/* Potential in a uniform field: gravity -g y plus the pseudo-force -m Gamma''. */
static inline double ref_potential(const ref_model *r, const double *th, double acc_x, double acc_y)
{
	double x[NB], y[NB], u = 0.0;
	ref_positions(r, th, x, y);
	for (int k = 0; k < r->n; ++k)
		u += r->m[k] * ((r->g + acc_y) * y[k] + acc_x * x[k]);
	return u;
}

/* Mass matrix of the note's section 3 (model B). */
static inline void ref_mass_matrix(const ref_model *r, const double *th, double R[NB][NB])
{
	memset(R, 0, sizeof(double) * NB * NB);
	R[0][0] = r->ig[0] + r->m[0] * r->c[0] * r->c[0];
	for (int k = 1; k < r->n; ++k) {
		R[0][0] += r->m[k] * r->b[k] * r->b[k];
		R[0][k] = R[k][0] = r->m[k] * r->b[k] * r->c[k] * cos(th[0] + r->beta[k] - th[k]);
		R[k][k] = r->ig[k] + r->m[k] * r->c[k] * r->c[k];
	}
}

#define REF_MODEL ref_model
#include "ref_lagrange.h"

/* Generalised force of the forcing: Q = -dV/dth, V = sum m (G''x x + G''y y),
 * with the Jacobian of the centres of mass taken analytically from the
 * geometry (finite differences would cap the accuracy of the energy budget
 * when the pivot shakes at 1 kHz and the power swings by kilowatts). */
static inline void ref_forcing_q(const ref_model *r, const double *th, double t, double *q)
{
	double ax, ay;
	pivot_accel(r, t, &ax, &ay);
	for (int i = 0; i < r->n; ++i)
		q[i] = 0.0;
	/* body 1: (c1 sin th1, -c1 cos th1) */
	q[0] -= r->m[0] * r->c[0] * (ax * cos(th[0]) + ay * sin(th[0]));
	for (int k = 1; k < r->n; ++k) {
		/* hinge b_k (sin(th1 + beta_k), -cos(...)) moves with th1; the
		 * centre c_k (sin th_k, -cos th_k) with th_k */
		const double a = th[0] + r->beta[k];
		q[0] -= r->m[k] * r->b[k] * (ax * cos(a) + ay * sin(a));
		q[k] -= r->m[k] * r->c[k] * (ax * cos(th[k]) + ay * sin(th[k]));
	}
}

/* Equilibrium (minimum of U) by Newton's method on the finite-difference
 * gradient, from the given start. */
static inline void ref_equilibrium(const ref_model *r, double *th)
{
	for (int it = 0; it < 50; ++it) {
		double grad[NB] = {0}, K[NB][NB], step[NB];
		const double e = 1e-6;
		for (int i = 0; i < r->n; ++i) {
			double tp[NB], tm[NB];
			memcpy(tp, th, sizeof(tp));
			memcpy(tm, th, sizeof(tm));
			tp[i] += e;
			tm[i] -= e;
			grad[i] =
			    (ref_potential(r, tp, 0, 0) - ref_potential(r, tm, 0, 0)) / (2 * e);
		}
		ref_hessian(r, th, K);
		solve(r->n, K, grad, step);
		for (int i = 0; i < r->n; ++i)
			th[i] -= step[i];
	}
}

/* Settings the tests start from */

static inline pendula_params double_params(double m1, double m2, double l1, double l2)
{
	pendula_params p;
	pendula_params_default(&p, PENDULA_MODEL_DOUBLE);
	p.m[0] = m1;
	p.m[1] = m2;
	p.l[0] = l1;
	p.l[1] = l2;
	return p;
}

static inline pendula_params parallel_params(int n)
{
	pendula_params p;
	pendula_params_default(&p, PENDULA_MODEL_PARALLEL);
	p.n_bodies = n;
	return p;
}

#endif
