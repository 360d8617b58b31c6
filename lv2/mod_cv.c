/* SPDX-License-Identifier: ISC */
/*
 * MOD CV outputs: the volts of each signal (see mod_cv.h).
 */
#include "mod_cv.h"

#include <math.h>

void pendula_mod_cv_init(pendula_mod_cv *m, pendula_variant v)
{
	m->n = 0;
	for (int i = 0; i < PENDULA_N_PORT_IDS; ++i)
		m->twin[i] = -1;
	for (int i = 0; i < PENDULA_N_PORT_IDS && m->n < PENDULA_MAX_MOD_CV; ++i) {
		const pendula_port_info *info = &pendula_ports[i];
		if (info->kind != PK_MOD_CV_OUT || !pendula_port_in_variant(v, i))
			continue;
		const int k = m->n++;
		m->volts[k] = (pendula_port_id)i;
		m->signal[k] = (pendula_port_id)info->related;
		pendula_port_range(v, (pendula_port_id)i, &m->lo[k], &m->hi[k]);
		/* A bipolar signal's range onto the bipolar volts; the energy,
		 * unbounded, over its CC range (energy_max) onto 0..10 V. */
		float slo, shi;
		pendula_port_range(v, m->signal[k], &slo, &shi);
		const float span = fmaxf(fabsf(slo), fabsf(shi));
		m->scale[k] =
		    pendula_ports[info->related].flags & PF_CC_ENERGY ? 0.0f : m->hi[k] / span;
		m->twin[info->related] = (int16_t)i;
	}
}

void *pendula_mod_cv_signal_buffer(const pendula_mod_cv *m, void *const *host, pendula_port_id id)
{
	if (host[id] || m->twin[id] < 0)
		return host[id];
	return host[m->twin[id]];
}

void pendula_mod_cv_write(const pendula_mod_cv *m, void *const *port, float energy_max, uint32_t n)
{
	for (int k = 0; k < m->n; ++k) {
		float *out = (float *)port[m->volts[k]];
		const float *in = (const float *)port[m->signal[k]];
		if (!out || !in)
			continue;
		const float lo = m->lo[k], hi = m->hi[k];
		const float scale = m->scale[k] > 0.0f ? m->scale[k] : hi / energy_max;
		/* (in may be out: the signal routed into the volts buffer) */
		for (uint32_t i = 0; i < n; ++i) {
			float x = in[i] * scale;
			x = x < lo ? lo : x > hi ? hi : x;
			/* a tiny energy over energy_max stays a normal float or 0 */
			out[i] = fabsf(x) < 1e-30f ? 0.0f : x;
		}
	}
}
