/* SPDX-License-Identifier: ISC */
/* What the tests of test_midi_cc.c and test_tempo.c share with
 * test_midi_tempo.c (main), which runs their tables. */
#ifndef PENDULA_TEST_MIDI_TEMPO_H
#define PENDULA_TEST_MIDI_TEMPO_H

#include <CUnit/Basic.h>
#include <stdint.h>

extern CU_TestInfo cc_tests[];    /* test_midi_cc.c */
extern CU_TestInfo tempo_tests[]; /* test_tempo.c */

/* A small deterministic generator (tests must repeat): one sequence for the
 * whole program, drawn by the tests in the order they run. */
uint32_t midi_tempo_rng(void);

#endif
