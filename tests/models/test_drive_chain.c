/* SPDX-License-Identifier: ISC */
/*
 * The drive signal's energy budget for the chain (drive_budget.h; the other
 * models: test_drive.c), with the chain's reference geometry (chain.h):
 * bobs and uniform rods, a sine and noise along each axis.
 */
#include "chain.h"
#include "drive_budget.h"

#define RATE 48000.0

static double chain_energy(const void *ctx, const double *q, const double *qdot)
{
	return ref_energy((const ref_chain *)ctx, q, qdot);
}

static double chain_potential(const void *ctx, const double *q, const double *a)
{
	const ref_chain *r = ctx;
	double x[NL], y[NL], v = 0.0;
	ref_positions(r, q, x, y);
	for (int k = 0; k < r->n; ++k)
		v += r->m[k] * (a[0] * x[k] + a[1] * y[k]);
	return v;
}

static void test_chain_budget(void)
{
	const long frames = 3 * (long)RATE;
	for (int shape = 0; shape < 2; ++shape) {
		pendula_params p = chain_params(3, shape);
		for (int k = 0; k < PENDULA_MAX_BODIES; ++k)
			p.lambda[k] = p.sigma[k] = 0.0;
		p.pivot_x_amp = p.pivot_y_amp = 0.0;
		p.energy_target = -1.0;
		p.theta_init[0] = 1.0;
		p.theta_init[1] = -0.5;
		const ref_chain r = ref_from_params(&p);
		const drive_ref ref = {chain_energy, chain_potential, &r};
		for (int kind = 0; kind < 2; ++kind)
			for (int axis = 0; axis < 2; ++axis) {
				float *s = drive_signal(kind, frames, RATE);
				p.drive_axis = axis;
				p.drive_gain = kind == 0 ? 0.5 : 4.0;
				drive_budget_result res;
				drive_budget(&p, RATE, s, frames, &ref, &res);
				printf("\n    chain of 3 %s, %s along %d: |work| up to %.4f J, max "
				       "|dE - "
				       "work| %.2e J (%.1e relative), %ld changes, sampling off by "
				       "%.1e",
				       shape ? "rods" : "bobs", kind ? "noise" : "sine", axis,
				       res.max_work, res.max_dev, res.max_dev / res.max_work,
				       res.changes, res.sampling);
				CHECK(res.max_work > 0.01, "chain: the drive did no work");
				CHECK(res.max_dev < 1e-6 * res.max_work,
				      "chain: the energy does not add up");
				CHECK(res.sampling == 0.0,
				      "chain: the held drive is not the rule's");
				CHECK(res.changes > 100, "chain: the drive hardly changed");
				free(s);
			}
	}
}

int main(void)
{
	if (CU_initialize_registry() != CUE_SUCCESS)
		return 1;
	CU_pSuite s = CU_add_suite("drive_chain", NULL, NULL);
	CU_add_test(s, "chain: energy budget with the drive's work", test_chain_budget);
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	const unsigned failed = CU_get_number_of_failures();
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
