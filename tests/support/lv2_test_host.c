/* SPDX-License-Identifier: ISC */
/* Running the CUnit registry of a lilv test host: see lv2_test_host.h. */
#include "lv2_test_host.h"

#include <CUnit/Basic.h>

#include <stdio.h>

int lv2th_run_tests(const char *prog)
{
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	const unsigned failures = CU_get_number_of_failures() + CU_get_number_of_suites_failed();
	const unsigned run = CU_get_number_of_tests_run();
	CU_cleanup_registry();
	printf("\n%s: %u tests run, %u failures\n", prog, run, failures);
	return failures || run == 0 ? 1 : 0;
}
