/* SPDX-License-Identifier: ISC */
/*
 * What the tests of the chain model (series multiple pendulum) share: the
 * reference model and the helpers of its normal modes; and the tables of
 * the files test_chain.c (main) runs.
 *
 * Ground truth never comes from the engine: the reference below builds the
 * kinetic energy from the positions of docs/MODELS.md (centre of mass G_i of link
 * i = sum_{j<i} l_j p(th_j) + c_i p(th_i), p(th) = (sin th, -cos th)) with
 * the Jacobian dG_i/dth_j written from that geometry, the potential from the
 * positions, the equations of motion by finite differences of R and U
 * (support/ref_lagrange.h, shared with test_engine), the normal modes by a
 * Jacobi eigen-solver.
 */
#ifndef PENDULA_TEST_CHAIN_H
#define PENDULA_TEST_CHAIN_H

#include "model.h" /* the model's jerk */
#include "pendula_engine.h"
#include "ports.h"
#include "test_common.h"

#include <CUnit/Basic.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI      3.14159265358979323846
#define DEG     (PI / 180.0)
#define NL      6 /* links at most */
#define REF_DIM NL
#include "ref_numerics.h"

extern CU_TestInfo chain_dynamics_tests[]; /* test_chain_dynamics.c */
extern CU_TestInfo chain_engine_tests[];   /* test_chain_engine.c */

/* ------------------------------------------------------------------------ */
/* Reference model                                                          */

typedef struct {
	int n;
	double g;
	double m[NL], l[NL], c[NL], ig[NL]; /* ig: inertia about the centre of mass */
	double lambda[NL], sigma[NL];
	double dx, wx, dy, wy;
} ref_chain;

static inline ref_chain ref_from_params(const pendula_params *p)
{
	ref_chain r;
	memset(&r, 0, sizeof(r));
	r.n = p->n_bodies;
	r.g = p->gravity;
	for (int k = 0; k < r.n; ++k) {
		r.m[k] = p->m[k];
		r.l[k] = p->l[k];
		switch (p->shape) {
		case 0: /* bobs: a point mass at the end of a massless rod */
			r.c[k] = p->l[k];
			r.ig[k] = 0.0;
			break;
		case 1: /* a uniform rod: centre halfway, m l^2 / 12 about it */
			r.c[k] = 0.5 * p->l[k];
			r.ig[k] = p->m[k] * p->l[k] * p->l[k] / 12.0;
			break;
		default:
			r.c[k] = p->c[k];
			r.ig[k] = p->inertia[k];
			break;
		}
		r.lambda[k] = p->lambda[k];
		r.sigma[k] = p->sigma[k];
	}
	r.dx = p->pivot_x_amp;
	r.wx = 2 * PI * p->pivot_x_freq;
	r.dy = p->pivot_y_amp;
	r.wy = 2 * PI * p->pivot_y_freq;
	return r;
}

static inline void ref_positions(const ref_chain *r, const double *th, double *x, double *y)
{
	double ox = 0.0, oy = 0.0;
	for (int i = 0; i < r->n; ++i) {
		x[i] = ox + r->c[i] * sin(th[i]);
		y[i] = oy - r->c[i] * cos(th[i]);
		ox += r->l[i] * sin(th[i]);
		oy -= r->l[i] * cos(th[i]);
	}
}

/* dG_i/dth_j = l_j p'(th_j) for j < i, c_i p'(th_i) for j = i, 0 beyond. */
static inline void ref_jacobian(const ref_chain *r, const double *th, double jx[NL][NL],
                                double jy[NL][NL])
{
	for (int i = 0; i < r->n; ++i)
		for (int j = 0; j < r->n; ++j) {
			const double arm = j < i ? r->l[j] : j == i ? r->c[i] : 0.0;
			jx[i][j] = arm * cos(th[j]);
			jy[i][j] = arm * sin(th[j]);
		}
}

/* T = 1/2 sum_i (m_i |G_i'|^2 + I_i th_i'^2) = 1/2 w^T R w */
static inline void ref_mass_matrix(const ref_chain *r, const double *th, double R[NL][NL])
{
	double jx[NL][NL], jy[NL][NL];
	ref_jacobian(r, th, jx, jy);
	for (int a = 0; a < r->n; ++a)
		for (int b = 0; b < r->n; ++b) {
			double s = a == b ? r->ig[a] : 0.0;
			for (int i = 0; i < r->n; ++i)
				s += r->m[i] * (jx[i][a] * jx[i][b] + jy[i][a] * jy[i][b]);
			R[a][b] = s;
		}
}

/* Potential in the field of gravity plus the pseudo-force -m Gamma''. */
static inline double ref_potential(const ref_chain *r, const double *th, double acc_x, double acc_y)
{
	double x[NL], y[NL], u = 0.0;
	ref_positions(r, th, x, y);
	for (int i = 0; i < r->n; ++i)
		u += r->m[i] * ((r->g + acc_y) * y[i] + acc_x * x[i]);
	return u;
}

#define REF_MODEL ref_chain
#include "ref_lagrange.h"

/* Q_j = -sum_i m_i Gamma'' . dG_i/dth_j */
static inline void ref_forcing_q(const ref_chain *r, const double *th, double t, double *q)
{
	double ax, ay, jx[NL][NL], jy[NL][NL];
	pivot_accel(r, t, &ax, &ay);
	ref_jacobian(r, th, jx, jy);
	for (int j = 0; j < r->n; ++j) {
		q[j] = 0.0;
		for (int i = 0; i < r->n; ++i)
			q[j] -= r->m[i] * (ax * jx[i][j] + ay * jy[i][j]);
	}
}

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

static inline pendula_params chain_params(int n, int shape)
{
	pendula_params p;
	pendula_params_default(&p, PENDULA_MODEL_CHAIN);
	p.n_bodies = n;
	p.shape = shape;
	return p;
}

/* Normal-mode angular frequencies^2 of the reference at th = 0. */
static inline void ref_modes(const pendula_params *p, double *w2, double V[NL][NL])
{
	const ref_chain r = ref_from_params(p);
	double th0[NL] = {0}, R[NL][NL], K[NL][NL];
	ref_mass_matrix(&r, th0, R);
	ref_hessian(&r, th0, K);
	gen_eigen(r.n, R, K, w2, V);
}

/* Starts the engine in mode m (amplitude 1e-3 rad on the link that moves
 * most) and measures the frequency from that link's angle over 40 periods. */
static inline double measure_mode(pendula_params p, int n, double w2, const double *v)
{
	int big = 0;
	for (int i = 1; i < n; ++i)
		if (fabs(v[i]) > fabs(v[big]))
			big = i;
	const double amp = 1e-3 / fabs(v[big]);
	for (int i = 0; i < n; ++i)
		p.theta_init[i] = amp * v[i];
	const double f_expect = sqrt(w2) / (2 * PI), sr = 48000.0;
	pendula_engine *e = pendula_engine_new(sr, &p);
	crossings c = {0};
	const long frames = (long)(sr * 40.0 / f_expect);
	for (long i = 0; i < frames; ++i) {
		pendula_frame f;
		pendula_engine_tick(e, &f);
		crossings_add(&c, f.t, f.theta[big]);
	}
	pendula_engine_free(e);
	return crossings_freq(&c);
}

static inline double check_modes(const pendula_params *p, const char *what, double *f_meas)
{
	double w2[NL], V[NL][NL], worst = 0.0;
	ref_modes(p, w2, V);
	for (int m = 0; m < p->n_bodies; ++m) {
		double v[NL];
		for (int i = 0; i < p->n_bodies; ++i)
			v[i] = V[i][m];
		const double f = measure_mode(*p, p->n_bodies, w2[m], v);
		const double want = sqrt(w2[m]) / (2 * PI);
		const double rel = fabs(f / want - 1.0);
		printf("\n  %s mode %d: R(0)^-1 K gives %.6f Hz, measured %.6f Hz, rel. error %.2e",
		       what, m + 1, want, f, rel);
		CU_ASSERT(rel < 1e-4);
		worst = fmax(worst, rel);
		if (f_meas)
			f_meas[m] = f;
	}
	return worst;
}

#endif
