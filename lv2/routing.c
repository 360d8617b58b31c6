/* SPDX-License-Identifier: ISC */
/*
 * Output routing of one plugin instance: the signal outputs, where the engine
 * writes them, their scratch, their last values and the control outputs
 * that mirror them (see routing.h for what this part owns and why).
 */
#include "routing.h"

#include <string.h>

static bool is_angle_channel(int ch)
{
	return ch >= PENDULA_CH_THETA && ch < PENDULA_CH_THETA + PENDULA_MAX_BODIES;
}

/* docs/MODELS.md: bodies beyond N output 0: every output of a body (its
 * angle, direction and rate) from the block in which N drops, although
 * the engine runs the old bodies to the end of its step (up to 10 ms;
 * silencing the angles alone tore a body that long: an angle of 0 beside
 * a direction of length 1). */
static bool is_silent_body(const pendula_routing *r, int s)
{
	return r->signal_body[s] > r->bodies;
}

/* Every signal of the model, whether or not the variant has its port: a
 * -midi plugin has none, yet its control outputs mirror them and its CCs
 * send them (an absent port is an unconnected one, docs/PORTS.md). */
static bool is_model_signal(pendula_variant v, int i)
{
	return pendula_ports[i].kind == PK_SIGNAL_OUT &&
	       (pendula_ports[i].models & pendula_variant_model_mask(v));
}

uint32_t pendula_routing_pool_floats(pendula_variant v)
{
	uint32_t n = 0;
	for (int i = 0; i < PENDULA_N_PORT_IDS && n < PENDULA_MAX_SIGNALS; ++i)
		n += is_model_signal(v, i);
	return n * PENDULA_CHUNK;
}

void pendula_routing_init(pendula_routing *r, pendula_variant v, float *pool)
{
	r->scratch_pool = pool;
	for (int i = 0; i < PENDULA_N_PORT_IDS && r->n_signals < PENDULA_MAX_SIGNALS; ++i) {
		const pendula_port_id id = (pendula_port_id)i;
		const pendula_port_info *info = &pendula_ports[id];
		if (!is_model_signal(v, i))
			continue;
		const int s = r->n_signals++;
		r->signal[s] = id;
		r->signal_ch[s] = info->channel;
		r->signal_body[s] = pendula_symbol_body(info->symbol);
		r->signal_mirror[s] =
		    info->related != P_NONE &&
		            pendula_port_index(v, (pendula_port_id)info->related) >= 0
		        ? info->related
		        : P_NONE;
		r->signal_map[s] = (info->flags & PF_CC_ENERGY)      ? PENDULA_CC_MAP_ENERGY
		                   : is_angle_channel(info->channel) ? PENDULA_CC_MAP_ANGLE
		                                                     : PENDULA_CC_MAP_TIP;
		r->signal_cc[s] = P_NONE;
	}
	/* The CC port of each signal: the control input related to it. */
	for (int i = 0; i < PENDULA_N_PORT_IDS; ++i) {
		const pendula_port_info *info = &pendula_ports[i];
		if (info->kind != PK_CONTROL_IN || info->related == P_NONE ||
		    pendula_port_index(v, (pendula_port_id)i) < 0)
			continue;
		for (int s = 0; s < r->n_signals; ++s)
			if (r->signal[s] == (pendula_port_id)info->related)
				r->signal_cc[s] = i;
	}
	r->route_stale = true;
	r->mirrors_stale = true;
}

void pendula_routing_ports_changed(pendula_routing *r)
{
	r->route_stale = true;
	r->mirrors_stale = true;
}

void pendula_routing_cc_changed(pendula_routing *r)
{
	r->route_stale = true;
}

void pendula_routing_last_from_engine(pendula_routing *r, const pendula_engine *engine)
{
	pendula_frame f;
	pendula_engine_last(engine, &f);
	for (int s = 0; s < r->n_signals; ++s) {
		const int ch = r->signal_ch[s];
		const double x = pendula_frame_channel(&f, ch);
		float v = 0.0f;
		if (is_silent_body(r, s))
			v = 0.0f;
		else if (is_angle_channel(ch))
			v = (float)x;
		else if (ch == PENDULA_CH_ENERGY)
			v = pendula_energy_output(x);
		else if (ch == PENDULA_CH_ENERGY_LEVEL ||
		         (ch >= PENDULA_CH_W_LEVEL && ch < PENDULA_CH_W_LEVEL + PENDULA_MAX_BODIES))
			v = (float)x; /* (already the output's float) */
		else
			v = pendula_tip_output(x);
		r->signal_last[s] = v;
	}
}

/* Whether the ranges [a, a + n) and [b, b + n) of floats overlap. */
static bool buffers_overlap(const float *a, const float *b, uint32_t n)
{
	const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b, len = (uintptr_t)n * sizeof(float);
	return x < y + len && y < x + len;
}

/* Whether the outputs need the engine's events (a flips or swings output,
 * its control mirror or its CC). */
static bool events_routed(const pendula_routing *r, void *const *port, const pendula_cc *cc)
{
	bool on = false;
	for (int s = 0; s < r->n_signals; ++s) {
		const int ch = r->signal_ch[s];
		if (ch != PENDULA_CH_FLIPS && ch != PENDULA_CH_SWINGS)
			continue;
		on |= port[r->signal[s]] != NULL;
		on |= r->signal_mirror[s] != P_NONE && port[r->signal_mirror[s]] != NULL;
		on |= r->cc_live && cc->out[s].cc >= 0;
	}
	return on;
}

/* The lists of the direct route (see plan_write in pendula_routing). */
static void plan_build(pendula_routing *r)
{
	r->plan_n_write = r->plan_n_last = r->plan_n_silent = 0;
	for (int s = 0; s < r->n_signals; ++s) {
		if (is_silent_body(r, s))
			r->plan_silent[r->plan_n_silent++] = (unsigned char)s;
		else if (r->route_host[s] || r->route_scratch[s])
			r->plan_write[r->plan_n_write++] = (unsigned char)s;
		else if (r->route_last[s])
			r->plan_last[r->plan_n_last++] = (unsigned char)s;
	}
	r->plan_bodies = r->bodies;
}

/* The signals that need scratch share the pool. */
static void scratch_share(pendula_routing *r)
{
	int spans = 0;
	for (int s = 0; s < r->n_signals; ++s)
		spans += r->route_copy || r->route_scratch[s];
	r->route_any_scratch = spans > 0;
	const uint32_t pool = (uint32_t)r->n_signals * PENDULA_CHUNK;
	r->scratch_frames =
	    spans > 0 ? pool / (uint32_t)spans / PENDULA_CHUNK * PENDULA_CHUNK : pool;
	float *next = r->scratch_pool;
	for (int s = 0; s < r->n_signals; ++s) {
		r->chunk_signal[s] = next;
		if (r->route_copy || r->route_scratch[s])
			next += r->scratch_frames;
	}
}

void pendula_routing_route(pendula_routing *r, void *const *port, pendula_cc *cc, bool cc_any,
                           uint32_t n_samples)
{
	const bool cc_live = cc_any && port[P_MIDI_OUT] != NULL;
	if (!r->route_stale && cc_live == r->cc_live && r->routed_block == n_samples)
		return;
	if (cc_live && !r->cc_live)
		pendula_cc_resend(cc); /* the receiver may have missed them */
	r->cc_live = cc_live;
	r->route_stale = false;
	r->routed_block = n_samples;
	r->route_copy = false;
	for (int s = 0; s < r->n_signals; ++s) {
		float *host = (float *)port[r->signal[s]];
		bool shadowed = false;
		for (int t = 0; host && t < r->n_signals; ++t) {
			const float *other = (const float *)port[r->signal[t]];
			if (t == s || !other || !buffers_overlap(host, other, n_samples))
				continue;
			if (other != host)
				r->route_copy = true;
			else if (t > s)
				shadowed = true; /* a later output overwrites this buffer */
		}
		/* In place (no lv2:inPlaceBroken): the drive input in an
		 * output's buffer would be overwritten before the engine reads
		 * it; the copy route writes each span only after the engine ran
		 * it, so the drive's frames are read first. */
		if (host && port[P_DRIVE] &&
		    buffers_overlap(host, (const float *)port[P_DRIVE], n_samples))
			r->route_copy = true;
		r->route_host[s] = shadowed ? NULL : host;
		const bool cc_on = cc_live && cc->out[s].cc >= 0;
		r->route_scratch[s] = cc_on && !r->route_host[s];
		r->route_last[s] = !r->route_host[s] && r->signal_mirror[s] != P_NONE &&
		                   port[r->signal_mirror[s]] != NULL;
	}
	scratch_share(r);
	r->route_events = events_routed(r, port, cc);
	plan_build(r);
}

pendula_outputs *pendula_routing_span_begin(pendula_routing *r, uint32_t offset, bool last,
                                            const pendula_outputs **last_out)
{
	pendula_outputs *out = &r->span_out;
	*last_out = NULL;
	if (r->route_copy) {
		for (int s = 0; s < r->n_signals; ++s)
			out->ch[r->signal_ch[s]] = r->chunk_signal[s];
		return out;
	}
	if (r->plan_bodies != r->bodies)
		plan_build(r); /* bodies came or went within the block */
	for (int j = 0; j < r->plan_n_write; ++j) {
		const int s = r->plan_write[j];
		out->ch[r->signal_ch[s]] =
		    r->route_host[s] ? r->route_host[s] + offset : r->chunk_signal[s];
	}
	if (last && r->plan_n_last > 0) {
		/* values at the block's last frame only (route_last) */
		for (int j = 0; j < r->plan_n_last; ++j) {
			const int s = r->plan_last[j];
			r->span_last.ch[r->signal_ch[s]] = &r->last_value[s];
		}
		*last_out = &r->span_last;
	}
	return out;
}

/* span_end of route_copy: every signal from scratch, in table order. */
static void span_end_copy(pendula_routing *r, void *const *port, uint32_t offset, uint32_t n)
{
	for (int s = 0; s < r->n_signals; ++s) {
		r->span_out.ch[r->signal_ch[s]] = NULL;
		float *values = r->chunk_signal[s];
		if (is_silent_body(r, s))
			memset(values, 0, n * sizeof(float));
		r->signal_last[s] = values[n - 1];
		float *host = (float *)port[r->signal[s]];
		if (host)
			memcpy(host + offset, values, n * sizeof(float));
	}
}

void pendula_routing_span_end(pendula_routing *r, void *const *port, uint32_t offset, uint32_t n,
                              bool last, const float held[2])
{
	if (r->route_copy) {
		span_end_copy(r, port, offset, n);
		return;
	}
	const bool any_last = last && r->plan_n_last > 0;
	for (int j = 0; j < r->plan_n_write; ++j)
		r->span_out.ch[r->signal_ch[r->plan_write[j]]] = NULL;
	for (int j = 0; any_last && j < r->plan_n_last; ++j)
		r->span_last.ch[r->signal_ch[r->plan_last[j]]] = NULL;
	/* The last values are read at the end of the block only; before it,
	 * only the outputs of absent bodies need work (zeros). */
	for (int j = 0; j < r->plan_n_silent; ++j) {
		const int s = r->plan_silent[j];
		if (r->route_host[s])
			memset(r->route_host[s] + offset, 0, n * sizeof(float));
		if (r->route_scratch[s])
			memset(r->chunk_signal[s], 0, n * sizeof(float));
		r->signal_last[s] = 0.0f;
	}
	if (!last)
		return;
	for (int j = 0; j < r->plan_n_write; ++j) {
		const int s = r->plan_write[j];
		r->signal_last[s] =
		    r->route_host[s] ? r->route_host[s][offset + n - 1] : r->chunk_signal[s][n - 1];
	}
	for (int j = 0; j < r->plan_n_last; ++j) {
		const int s = r->plan_last[j];
		const int ch = r->signal_ch[s];
		r->signal_last[s] = ch == PENDULA_CH_FLIPS    ? held[0]
		                    : ch == PENDULA_CH_SWINGS ? held[1]
		                                              : r->last_value[s];
	}
}

void pendula_routing_values(const pendula_routing *r, uint32_t offset,
                            const float *signals[PENDULA_MAX_SIGNALS])
{
	for (int s = 0; s < r->n_signals; ++s)
		signals[s] = r->route_copy || r->route_scratch[s] ? r->chunk_signal[s]
		             : r->route_host[s]                   ? r->route_host[s] + offset
		                                                  : NULL;
}

static void write_control_output(void *const *port, pendula_port_id id, float v)
{
	float *p = (float *)port[id];
	if (p)
		*p = v;
}

void pendula_routing_write_controls(pendula_routing *r, void *const *port,
                                    const pendula_engine *engine)
{
	if (r->mirrors_stale) {
		r->n_mirrors = 0;
		for (int s = 0; s < r->n_signals; ++s) {
			float *buf = r->signal_mirror[s] != P_NONE
			                 ? (float *)port[r->signal_mirror[s]]
			                 : NULL;
			if (!buf)
				continue;
			r->mirror_signal[r->n_mirrors] = (unsigned char)s;
			r->mirror_buf[r->n_mirrors++] = buf;
		}
		r->mirrors_stale = false;
	}
	for (int i = 0; i < r->n_mirrors; ++i)
		*r->mirror_buf[i] = r->signal_last[r->mirror_signal[i]];
	if (!port[P_CTL_PIVOT_X] && !port[P_CTL_PIVOT_Y] && !port[P_CTL_PIVOT_Z])
		return;
	double x, y, z;
	pendula_engine_last_pivot(engine, &x, &y, &z);
	write_control_output(port, P_CTL_PIVOT_X, pendula_flush_output((float)x));
	write_control_output(port, P_CTL_PIVOT_Y, pendula_flush_output((float)y));
	write_control_output(port, P_CTL_PIVOT_Z, pendula_flush_output((float)z));
}
