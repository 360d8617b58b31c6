/* SPDX-License-Identifier: ISC */
/*
 * The drawing's scene as a host sees it, from port values indexed by global
 * port id: the control inputs (geometry) and the control outputs (angles,
 * pivot, energy).  Shared by the UI test probe and the inline-display test;
 * the UI keeps its own mapping, so a mistake there is not copied here.
 */
#ifndef PENDULA_TEST_SCENE_FROM_PORTS_H
#define PENDULA_TEST_SCENE_FROM_PORTS_H

#include "draw.h"
#include "ports.h"

#include <math.h>
#include <string.h>

static inline void test_scene_from_ports(pendula_variant variant, const float *v, pendula_scene *s)
{
	static const double pi = 3.14159265358979323846;
	static const pendula_port_id mass[4] = {P_M1, P_M2, P_M3, P_M4};
	static const pendula_port_id com[4] = {P_C1, P_C2, P_C3, P_C4};
	static const pendula_port_id hinge[4] = {P_B2, P_B2, P_B3, P_B4};
	static const pendula_port_id hinge_angle[4] = {P_BETA2, P_BETA2, P_BETA3, P_BETA4};
	static const pendula_port_id theta[4] = {P_CTL_THETA1, P_CTL_THETA2, P_CTL_THETA3,
	                                         P_CTL_THETA4};
	memset(s, 0, sizeof *s);
	s->parallel = pendula_variant_model(variant) == PENDULA_MODEL_PARALLEL;
	s->n_bodies = s->parallel ? (int)lrintf(v[P_N_BODIES]) : 2;
	s->l[0] = v[P_L1];
	s->l[1] = v[P_L2];
	for (int k = 0; k < 4; ++k) {
		s->m[k] = v[mass[k]];
		s->c[k] = v[com[k]];
		if (k > 0) {
			s->b[k] = v[hinge[k]];
			s->beta[k] = v[hinge_angle[k]] * (pi / 180.0);
		}
		s->theta[k] = v[theta[k]] * pi;
	}
	s->pivot_x_amp = v[P_PIVOT_X_AMP];
	s->pivot_y_amp = v[P_PIVOT_Y_AMP];
	s->pivot_x = v[P_CTL_PIVOT_X];
	s->pivot_y = v[P_CTL_PIVOT_Y];
	s->energy = v[P_CTL_ENERGY];
}

#endif
