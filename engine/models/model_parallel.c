/* SPDX-License-Identifier: ISC */
/*
 * The parallel multiple rigid pendulum, "Chaos Man" (note section 3): body 1
 * on the pivot and up to three arms hinged on it.  Its physics and its
 * integrator are the Chaos Man kernel (chaosman.c); only the constants and
 * the picture are this file's own.
 */
#include "chaosman.h"

#include <math.h>
#include <string.h>

#define CM(sys) PENDULA_MODEL_PART_CONST(pendula_chaosman, sys)

/* ------------------------------------------------------------------------ */
/* Settings                                                                 */

static void parallel_derive(pendula_system *sys, const pendula_params *p)
{
	pendula_chaosman *cm = PENDULA_MODEL_PART(pendula_chaosman, sys);
	int n = p->n_bodies;
	if (n < 1)
		n = 1;
	if (n > 4) /* the note's Chaos Man: body 1 and up to three arms */
		n = 4;
	sys->n = n;
	const double m1 = pendula_positive(p->m[0], 1e-9);
	const double c1 = pendula_nonneg(p->c[0]);
	cm->i_o1 = pendula_positive(p->inertia[0], 1e-12) + m1 * c1 * c1;
	cm->r11 = cm->i_o1;
	cm->c[0] = c1;
	double zr = m1 * c1, zi = 0.0; /* Z = m1 c1 + sum m_k b_k e^{i beta_k} */
	double sum_mc = 0.0;
	for (int k = 1; k < n; ++k) {
		const double mk = pendula_positive(p->m[k], 1e-9);
		const double bk = pendula_nonneg(p->b[k]);
		const double ck = pendula_nonneg(p->c[k]);
		const double beta = pendula_finite_or(p->beta[k], 0.0);
		cm->r11 += mk * bk * bk;
		cm->j[k] = pendula_positive(p->inertia[k], 1e-12) + mk * ck * ck;
		cm->a[k] = mk * bk * ck;
		cm->cos_beta[k] = cos(beta);
		cm->sin_beta[k] = sin(beta);
		zr += mk * bk * cm->cos_beta[k];
		zi += mk * bk * cm->sin_beta[k];
		cm->lever[k] = mk * ck;
		sum_mc += mk * ck;
		cm->b[k] = bk;
		cm->c[k] = ck;
	}
	cm->has_tip = 0;
	sys->tip_length = 0.0;
	pendula_chaosman_finish(sys, p, zr, zi, sum_mc);
}

/* ------------------------------------------------------------------------ */
/* Pose: body 1 as a hull through the pivot, its centre of mass and the      */
/* hinges; the arms as bars from their hinges, twice c_k long.              */

static pendula_vec3 along(pendula_vec3 from, double len, double th)
{
	pendula_vec3 v = {from.x + len * sin(th), from.y - len * cos(th), 0.0};
	return v;
}

static int add_point(pendula_pose *pose, pendula_vec3 p, pendula_point_kind kind, int body)
{
	const int i = pose->n_points++;
	pose->point[i].p = p;
	pose->point[i].kind = kind;
	pose->point[i].body = body;
	return i;
}

static void parallel_pose(const pendula_system *sys, const double *q, pendula_vec3 pivot3,
                          double wave_phase, pendula_pose *pose)
{
	(void)wave_phase;
	const pendula_chaosman *cm = CM(sys);
	memset(pose, 0, sizeof(*pose));
	const pendula_vec3 pivot = {pivot3.x, pivot3.y, 0.0}; /* a planar picture: z = 0 */
	const int o1 = add_point(pose, pivot, PENDULA_POINT_PIVOT, -1);
	const double th1 = pendula_finite_or(q[0], 0.0);
	const int g1 = add_point(pose, along(pivot, cm->c[0], th1), PENDULA_POINT_BOB, 0);
	pendula_pose_hull *hull = &pose->hull[pose->n_hulls++];
	hull->body = 0;
	hull->pt[hull->n++] = o1;
	hull->pt[hull->n++] = g1;
	pose->handle[0].hinge = o1;
	pose->handle[0].handle = g1;
	pose->n_handles = sys->n;
	double reach = cm->c[0];
	for (int k = 1; k < sys->n; ++k) {
		const double thk = pendula_finite_or(q[k], 0.0);
		const double beta = atan2(cm->sin_beta[k], cm->cos_beta[k]);
		const pendula_vec3 ok = along(pivot, cm->b[k], th1 + beta);
		const int hinge = add_point(pose, ok, PENDULA_POINT_HINGE, 0);
		const int end =
		    add_point(pose, along(ok, 2.0 * cm->c[k], thk), PENDULA_POINT_END, k);
		const int com = add_point(pose, along(ok, cm->c[k], thk), PENDULA_POINT_BOB, k);
		hull->pt[hull->n++] = hinge;
		pendula_pose_rod *rod = &pose->rod[pose->n_rods++];
		rod->a = hinge;
		rod->b = end;
		rod->kind = PENDULA_ROD_BAR;
		rod->body = k;
		pose->handle[k].hinge = hinge;
		pose->handle[k].handle = com;
		if (pose->n_tips < PENDULA_POSE_MAX_TIPS)
			pose->tip[pose->n_tips++] = com;
		if (k == 1)
			pose->marker = com;
		reach = fmax(reach, cm->b[k] + 2.0 * cm->c[k]);
	}
	if (sys->n == 1) {
		pose->marker = g1;
		pose->tip[pose->n_tips++] = g1;
	}
	pose->reach = reach;
	pose->pivot_excursion.x = sys->force.amp_x;
	pose->pivot_excursion.y = sys->force.amp_y;
}

const pendula_model_ops pendula_model_parallel = {
    PENDULA_CHAOSMAN_OPS,
    .derive = parallel_derive,
    .pose = parallel_pose,
};
