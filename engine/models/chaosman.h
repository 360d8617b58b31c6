/* SPDX-License-Identifier: ISC */
/*
 * The Chaos Man kernel (note section 3): a body on the pivot with bodies
 * 2..N hinged on it, implemented in chaosman.c.  Its mass matrix is an
 * arrowhead, solved in O(N).  The parallel model (model_parallel.c) is this
 * kernel; the double pendulum (model_double.c) is the kernel with N = 2
 * point masses (I_O1 = m1 l1^2, c1 = b2 = l1, beta2 = 0, c2 = l2, I_G2 = 0,
 * note section 1).
 */
#ifndef PENDULA_CHAOSMAN_H
#define PENDULA_CHAOSMAN_H

#include "model.h"

/*   R11 = I_O1 + sum_k m_k b_k^2,  R1k = a_k C_k,  Rkk = J_k = I_Gk + m_k c_k^2
 *   a_k = m_k b_k c_k,  C_k = cos(th1 + beta_k - thk),  S_k = sin(...)
 *   U   = -g [ |Z| cos(th1 + gamma) + sum_k m_k c_k cos thk ],
 *         Z = m1 c1 + sum_k m_k b_k e^{i beta_k} = |Z| e^{i gamma}      */
/* The note's Chaos Man: body 1 and up to three arms (the double pendulum:
 * two bodies). */
#define CHAOSMAN_MAX_BODIES 4

typedef struct {
	double i_o1;                   /* I_O1 = inertia1 + m1 c1^2 */
	double r11;                    /* I_O1 + sum_k m_k b_k^2 */
	double j[CHAOSMAN_MAX_BODIES]; /* k >= 1: I_Gk + m_k c_k^2 */
	double a[CHAOSMAN_MAX_BODIES]; /* k >= 1: m_k b_k c_k */
	double cos_beta[CHAOSMAN_MAX_BODIES], sin_beta[CHAOSMAN_MAX_BODIES];
	double lever[CHAOSMAN_MAX_BODIES]; /* gravity moment: |Z| for body 1, m_k c_k */
	double lever_cos[CHAOSMAN_MAX_BODIES], lever_sin[CHAOSMAN_MAX_BODIES]; /* e^{i gamma} */
	double lambda[CHAOSMAN_MAX_BODIES], sigma[CHAOSMAN_MAX_BODIES];
	/* The tip (double pendulum): l1 p(th1) + l2 p(th2), divided by l1 + l2 */
	int has_tip;
	double tip_b, tip_c;
	/* Geometry for the pose: hinge -> centre of mass, |O1 O_k| */
	double c[CHAOSMAN_MAX_BODIES], b[CHAOSMAN_MAX_BODIES];
	double h_params;                            /* largest step these settings allow, s */
	double inv_r_diag_max[CHAOSMAN_MAX_BODIES]; /* bound on diag(R^-1) over all angles */
} pendula_chaosman;

/* After a model's derive() has filled n, g, i_o1, r11, j, a, beta, lever[k >= 1], c, b, tip:
 * the rest (gravity lever of body 1 from Z = zr + i zi, damping, torque,
 * forcing, energy range with sum_mc = sum_k>=2 m_k c_k, step bounds). */
void pendula_chaosman_finish(pendula_system *sys, const pendula_params *p, double zr, double zi,
                             double sum_mc);

void pendula_chaosman_initial(const pendula_system *sys, const pendula_params *p, int from,
                              double *q, double *qdot);
void pendula_chaosman_velocity(const pendula_system *sys, const double *q, const double *p,
                               double *qdot);
void pendula_chaosman_momentum(const pendula_system *sys, const double *q, const double *qdot,
                               double *p);
void pendula_chaosman_accel(const pendula_system *sys, const double *q, const double *qdot,
                            double phase_x, double phase_y, double *accel);
double pendula_chaosman_energy(const pendula_system *sys, const double *q, const double *qdot);
double pendula_chaosman_power(const pendula_system *sys, const double *q, const double *qdot,
                              double phase_x, double phase_y);
int pendula_chaosman_step(const pendula_system *sys, pendula_state *s, double h,
                          pendula_predictor *pr);
double pendula_chaosman_step_bound_at(const pendula_system *sys, const pendula_state *s,
                                      const double *qdot, const double *qddot,
                                      const float *inv_mass, double energy_norm);
void pendula_chaosman_canonical(const pendula_system *sys, pendula_state *s, double *shift);
void pendula_chaosman_measure(const pendula_system *sys, const pendula_state *s, double *qdot,
                              double *val, double *der);

/* A pluck's strike (model.h): the double pendulum's bob 2 across its arm,
 * the parallel pendulum's body 1 about the pivot. */
void pendula_chaosman_strike(const pendula_system *sys, const double *q, double *impulse);

/* The ops every Chaos Man model shares; a model fills in derive and pose. */
#define PENDULA_CHAOSMAN_OPS                                                            \
	.initial = pendula_chaosman_initial, .velocity = pendula_chaosman_velocity,     \
	.momentum = pendula_chaosman_momentum, .accel = pendula_chaosman_accel,         \
	.energy = pendula_chaosman_energy, .power = pendula_chaosman_power,             \
	.step = pendula_chaosman_step, .step_bound_at = pendula_chaosman_step_bound_at, \
	.canonical = pendula_chaosman_canonical, .measure = pendula_chaosman_measure,   \
	.strike = pendula_chaosman_strike

#endif
