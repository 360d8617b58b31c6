/* SPDX-License-Identifier: ISC */
/*
 * The main() of every CUnit test program: test_cunit_main() registers a
 * table of suites (CUnit's own CU_SuiteInfo, ended by CU_SUITE_INFO_NULL),
 * runs them verbosely, prints CUnit's run summary and one line of its own,
 * and returns the exit status for meson.
 *
 * The run fails (status 1) when
 *   - the registry cannot be set up or a suite or test cannot be registered
 *     (a duplicate name, no memory): a test that is not registered would
 *     otherwise just not run;
 *   - no test ran;
 *   - a registered test did not run (its suite's init failed, or it was
 *     made inactive);
 *   - a suite's init or cleanup function failed;
 *   - a test failed (any assertion).
 * A green run therefore means that every registered test ran and passed.
 *
 * Header-only (static inline), like test_common.h: each test program
 * includes it once, from the file that holds main().
 */
#ifndef PENDULA_CUNIT_MAIN_H
#define PENDULA_CUNIT_MAIN_H

#include <CUnit/Basic.h>
#include <stdio.h>

static inline int test_cunit_main(const char *prog, CU_SuiteInfo *suites)
{
	if (CU_initialize_registry() != CUE_SUCCESS) {
		printf("%s: FAIL: cannot set up the CUnit registry: %s\n", prog,
		       CU_get_error_msg());
		return 1;
	}
	if (CU_register_suites(suites) != CUE_SUCCESS) {
		printf("%s: FAIL: cannot register the tests: %s\n", prog, CU_get_error_msg());
		CU_cleanup_registry();
		return 1;
	}
	const unsigned registered = CU_get_registry()->uiNumberOfTests;

	CU_basic_set_mode(CU_BRM_VERBOSE);
	const CU_ErrorCode run_status = CU_basic_run_tests();
	const unsigned ran = CU_get_number_of_tests_run();
	const unsigned tests_failed = CU_get_number_of_tests_failed();
	const unsigned asserts_failed = CU_get_number_of_failures();
	/* counts both init and cleanup failures */
	const unsigned suites_failed = CU_get_number_of_suites_failed();
	CU_cleanup_registry();

	printf("\n%s: %u of %u tests ran, %u failed, %u failed assertions, %u suite init/cleanup "
	       "failures\n",
	       prog, ran, registered, tests_failed, asserts_failed, suites_failed);
	const char *why = NULL;
	if (ran == 0)
		why = "no test ran";
	else if (suites_failed)
		why = "a suite's init or cleanup failed";
	else if (ran != registered)
		why = "some registered tests did not run";
	else if (tests_failed || asserts_failed)
		why = "tests failed";
	else if (run_status != CUE_SUCCESS)
		why = "CUnit reported an error";
	if (why) {
		printf("%s: FAIL: %s\n", prog, why);
		return 1;
	}
	return 0;
}

#endif
