/* SPDX-License-Identifier: ISC */
/*
 * Unit tests of the MIDI CC encoder (test_midi_cc.c) and the tempo follower
 * (test_tempo.c), both plain C without LV2, as one program: built twice by
 * meson, with the encoder's SSE2 frame scan and with its portable one.
 */
#include "cunit_main.h"
#include "midi_tempo.h"

static uint32_t rng_state = 12345u;

uint32_t midi_tempo_rng(void)
{
	rng_state = rng_state * 1664525u + 1013904223u;
	return rng_state >> 8;
}

static CU_SuiteInfo suites[] = {
    {"midi_cc", NULL, NULL, NULL, NULL, cc_tests},
    {"tempo", NULL, NULL, NULL, NULL, tempo_tests},
    CU_SUITE_INFO_NULL,
};

int main(void)
{
	return test_cunit_main("test_midi_tempo", suites);
}
