/* SPDX-License-Identifier: ISC */
/*
 * The double pendulum (note section 1): point masses m1, m2 on massless rods
 * l1, l2.  With C = cos(th1 - th2):
 *
 *   R = | (m1+m2) l1^2   m2 l1 l2 C |     U = -(m1+m2) g l1 cos th1 - m2 g l2 cos th2
 *       | m2 l1 l2 C     m2 l2^2    |
 *
 * which is the Chaos Man kernel (chaosman.h) with N = 2 point masses:
 * I_O1 = m1 l1^2, b2 = l1, beta2 = 0, c2 = l2, I_G2 = 0.  Only the constants
 * and the picture are this file's own.
 */
#include "chaosman.h"

#include <math.h>
#include <string.h>

static void double_derive(pendula_system *sys, const pendula_params *p)
{
	pendula_chaosman *cm = PENDULA_MODEL_PART(pendula_chaosman, sys);
	const double m1 = pendula_positive(p->m[0], 1e-9), m2 = pendula_positive(p->m[1], 1e-9);
	const double l1 = pendula_positive(p->l[0], 1e-9), l2 = pendula_positive(p->l[1], 1e-9);
	sys->n = 2;
	cm->i_o1 = m1 * l1 * l1;
	cm->r11 = cm->i_o1 + m2 * l1 * l1;
	cm->j[1] = m2 * l2 * l2;
	cm->a[1] = m2 * l1 * l2;
	cm->cos_beta[1] = 1.0;
	cm->sin_beta[1] = 0.0;
	cm->lever[1] = m2 * l2;
	cm->c[0] = l1;
	cm->b[1] = l1;
	cm->c[1] = l2;
	cm->has_tip = 1;
	cm->tip_b = l1;
	cm->tip_c = l2;
	/* The tip outputs are bob 2 divided by l1 + l2. */
	sys->tip_length = l1 + l2;
	/* Z = (m1 + m2) l1: both masses hang below body 1's pivot at l1. */
	pendula_chaosman_finish(sys, p, (m1 + m2) * l1, 0.0, m2 * l2);
}

/* Two thin rods and two bobs; bob 2 is the marker and leaves the trail. */
static void double_pose(const pendula_system *sys, const double *q, pendula_vec3 pivot,
                        double wave_phase, pendula_pose *pose)
{
	(void)wave_phase;
	const double pivot_x = pivot.x, pivot_y = pivot.y; /* a planar picture: z = 0 */
	const pendula_chaosman *cm = PENDULA_MODEL_PART_CONST(pendula_chaosman, sys);
	memset(pose, 0, sizeof(*pose));
	const double th1 = pendula_finite_or(q[0], 0.0), th2 = pendula_finite_or(q[1], 0.0);
	const double l1 = cm->tip_b, l2 = cm->tip_c;
	pendula_pose_point *pt = pose->point;
	pt[0].p = (pendula_vec3){pivot_x, pivot_y, 0.0};
	pt[0].kind = PENDULA_POINT_PIVOT;
	pt[0].body = -1;
	pt[1].p = (pendula_vec3){pivot_x + l1 * sin(th1), pivot_y - l1 * cos(th1), 0.0};
	pt[1].kind = PENDULA_POINT_BOB;
	pt[1].body = 0;
	pt[2].p = (pendula_vec3){pt[1].p.x + l2 * sin(th2), pt[1].p.y - l2 * cos(th2), 0.0};
	pt[2].kind = PENDULA_POINT_BOB;
	pt[2].body = 1;
	pose->n_points = 3;
	for (int k = 0; k < 2; ++k) {
		pose->rod[k] = (pendula_pose_rod){k, k + 1, PENDULA_ROD_THIN, k};
		pose->handle[k] = (pendula_pose_handle){k, k + 1, 0.0};
	}
	pose->n_rods = 2;
	pose->n_handles = 2;
	pose->marker = 2;
	pose->n_tips = 1;
	pose->tip[0] = 2;
	pose->reach = l1 + l2;
	pose->pivot_excursion.x = sys->force.amp_x;
	pose->pivot_excursion.y = sys->force.amp_y;
}

const pendula_model_ops pendula_model_double = {
    PENDULA_CHAOSMAN_OPS,
    .derive = double_derive,
    .pose = double_pose,
};
