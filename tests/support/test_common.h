/* SPDX-License-Identifier: ISC */
/*
 * What the test programs share that needs neither lilv nor an LV2 host:
 * CHECK (a CUnit assertion with a formatted message) and look-ups in the
 * port table (contract/ports.h).  Header-only (static inline); the lilv host
 * plumbing is in lv2_test_host.h, which includes this.
 */
#ifndef PENDULA_TEST_COMMON_H
#define PENDULA_TEST_COMMON_H

#include "ports.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Assertion with a formatted message (CUnit copies the text).  The file that
 * uses it includes <CUnit/Basic.h>. */
#define CHECK(cond, ...)                                                                     \
	do {                                                                                 \
		char check_msg_[600];                                                        \
		const bool check_ok_ = (cond);                                               \
		if (!check_ok_) {                                                            \
			snprintf(check_msg_, sizeof check_msg_, __VA_ARGS__);                \
			printf("\n    FAILED: %s\n", check_msg_);                            \
		}                                                                            \
		CU_assertImplementation(check_ok_, __LINE__, check_ok_ ? #cond : check_msg_, \
		                        __FILE__, "", CU_FALSE);                             \
	} while (0)

/* Global id of the port of variant v with this symbol, or -1. */
static inline int test_port_by_symbol(pendula_variant v, const char *symbol)
{
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (pendula_port_index(v, (pendula_port_id)id) >= 0 &&
		    !strcmp(pendula_ports[id].symbol, symbol))
			return id;
	return -1;
}

/* Every control input of the table at its default for variant v, every
 * other entry 0. */
static inline void test_control_defaults(pendula_variant v, float control[PENDULA_N_PORT_IDS])
{
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		control[id] = pendula_ports[id].kind == PK_CONTROL_IN
		                  ? pendula_port_default(v, (pendula_port_id)id)
		                  : 0.0f;
}

/* Whether the engine's work since its reset stayed within the work cap: the
 * frames' share of the budget, the credit the reset started with, plus at
 * most one step's work, because a step is begun while the credit is
 * positive and paid once its iterations are known (engine/step.c). */
static inline bool test_work_within_cap(const pendula_stats *st)
{
	return (double)st->work <= st->max_work_per_frame * (double)st->frames +
	                               PENDULA_BURST_WORK + (double)st->max_call_work;
}

#endif
