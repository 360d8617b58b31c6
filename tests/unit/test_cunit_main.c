/* SPDX-License-Identifier: ISC */
/*
 * Checks the shared CUnit main (cunit_main.h): one table that passes, and
 * tables made to fail, one for each reason cunit_main.h lists (CUnit 2.1
 * accepts two suites of the same name, so that is no case).  Runs them
 * one after the other (the helper leaves the registry cleaned up) and fails
 * when a status is not the expected one.
 */
#include "cunit_main.h"

static void test_passes(void)
{
	CU_ASSERT(1 + 1 == 2);
}

static void test_fails(void)
{
	CU_ASSERT(1 + 1 == 3);
}

static int init_fails(void)
{
	return 1;
}

static int cleanup_fails(void)
{
	return 1;
}

static CU_TestInfo passing[] = {{"passes", test_passes}, CU_TEST_INFO_NULL};
static CU_TestInfo failing[] = {{"passes", test_passes}, {"fails", test_fails}, CU_TEST_INFO_NULL};
static CU_TestInfo none[] = {CU_TEST_INFO_NULL};
static CU_TestInfo duplicate[] = {
    {"passes", test_passes}, {"passes", test_passes}, CU_TEST_INFO_NULL};

typedef struct {
	const char *name;
	int expected_status;
	CU_SuiteInfo suites[3];
} scenario;

static scenario scenarios[] = {
    {"pass", 0, {{"ok", NULL, NULL, NULL, NULL, passing}, CU_SUITE_INFO_NULL}},
    {"no-suites", 1, {CU_SUITE_INFO_NULL}},
    {"no-tests", 1, {{"empty", NULL, NULL, NULL, NULL, none}, CU_SUITE_INFO_NULL}},
    {"assert-fails", 1, {{"failing", NULL, NULL, NULL, NULL, failing}, CU_SUITE_INFO_NULL}},
    {"init-fails",
     1,
     {{"ok", NULL, NULL, NULL, NULL, passing},
      {"init fails", init_fails, NULL, NULL, NULL, passing},
      CU_SUITE_INFO_NULL}},
    {"cleanup-fails",
     1,
     {{"cleanup fails", NULL, cleanup_fails, NULL, NULL, passing}, CU_SUITE_INFO_NULL}},
    {"duplicate-test", 1, {{"duplicate", NULL, NULL, NULL, NULL, duplicate}, CU_SUITE_INFO_NULL}},
};

int main(void)
{
	int wrong = 0;
	for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; ++i) {
		printf("\n=== case %s: expected status %d\n", scenarios[i].name,
		       scenarios[i].expected_status);
		const int status = test_cunit_main(scenarios[i].name, scenarios[i].suites);
		if (status != scenarios[i].expected_status) {
			printf("=== case %s: WRONG: status %d\n", scenarios[i].name, status);
			++wrong;
		}
	}
	printf("\ntest_cunit_main: %d of %zu cases gave the wrong status\n", wrong,
	       sizeof scenarios / sizeof scenarios[0]);
	return wrong ? 1 : 0;
}
