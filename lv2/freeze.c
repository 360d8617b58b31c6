/* SPDX-License-Identifier: ISC */
/*
 * Freeze: the outputs of a block in which simulated time stands still (see
 * freeze.h for the rule and why it is a part of its own).
 */
#include "freeze.h"

void pendula_freeze_hold(pendula_routing *r, void *const *port, uint32_t n_samples)
{
	for (int s = 0; s < r->n_signals; ++s) {
		float *host = (float *)port[r->signal[s]];
		if (r->signal_ch[s] == PENDULA_CH_FLIPS || r->signal_ch[s] == PENDULA_CH_SWINGS)
			r->signal_last[s] = 0.0f; /* a pulse ends */
		if (!host)
			continue;
		for (uint32_t i = 0; i < n_samples; ++i)
			host[i] = r->signal_last[s];
	}
}
