/* SPDX-License-Identifier: ISC */
/*
 * What the lilv test hosts (test_host.c, test_idisplay.c, test_rates.c,
 * test_atom_io.c and, through daw_host.h, test_presets.c and test_daw.c)
 * add to the host library (host/lv2_host.h, shared with the render tool):
 * CHECK and the port-table look-ups (test_common.h), and running the CUnit
 * registry.
 */
#ifndef PENDULA_LV2_TEST_HOST_H
#define PENDULA_LV2_TEST_HOST_H

#include "lv2_host.h"
#include "test_common.h"

/* Runs the CUnit registry (verbose), cleans it up, prints "PROG: N tests
 * run, F failures"; returns the exit status: 1 if anything failed or nothing
 * ran, else 0. */
int lv2th_run_tests(const char *prog);

#endif
