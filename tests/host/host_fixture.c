/* SPDX-License-Identifier: ISC */
/*
 * The test host's plumbing (host_fixture.h): options and the current
 * suite's plugin and rate, a host instance, recordings of its outputs, runs
 * in fixed or pseudo-random blocks, comparisons, and look-ups in the port
 * table that the tests of test_host share.
 */
#include "host_fixture.h"

host_options opt = {NULL, -1, 0.0, false, false};
pendula_variant cur_variant;
double cur_rate;
LilvWorld *world;
const LilvPlugin *plugins[PENDULA_N_VARIANTS];

/* ---------------------------------------------------------------------- */
/* A host instance                                                         */

LV2_URID urid_sequence, urid_midi;

void host_prepare_atoms(Host *h)
{
	lv2th_prepare_atoms(h->keep_input ? NULL : h->atom_in, h->atom_out,
	                    h->out_capacity ? h->out_capacity : ATOM_CAPACITY - sizeof(LV2_Atom));
}

void host_connect(Host *h)
{
	float *shared[PENDULA_N_PORT_IDS];
	if (h->shared_signals) {
		if (!h->shared)
			h->shared = lv2th_calloc(MAX_BLOCK, sizeof(float));
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
			shared[id] = h->shared;
	}
	lv2th_connect(h->inst, h->v, h->control,
	              h->null_signals     ? NULL
	              : h->shared_signals ? shared
	                                  : h->buf,
	              h->null_atoms ? NULL : h->atom_in, h->null_atoms ? NULL : h->atom_out);
}

/* Instantiates and activates; connects before activate() unless late. */
Host *host_new_ex(pendula_variant v, double rate, bool null_signals, bool late)
{
	Host *h = lv2th_calloc(1, sizeof(Host));
	h->v = v;
	h->rate = rate;
	h->null_signals = null_signals;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		h->has[id] = pendula_port_index(v, (pendula_port_id)id) >= 0;
		if (h->has[id] && pendula_ports[id].kind == PK_SIGNAL_OUT)
			h->buf[id] = lv2th_calloc(MAX_BLOCK, sizeof(float));
	}
	test_control_defaults(v, h->control);
	h->inst = lv2th_instantiate("test_host", plugins[v], v, rate, lv2th_features);
	host_prepare_atoms(h);
	if (!late)
		host_connect(h);
	lilv_instance_activate(h->inst);
	if (late)
		host_connect(h);
	return h;
}

Host *host_new(pendula_variant v, double rate)
{
	return host_new_ex(v, rate, false, false);
}

void host_free(Host *h)
{
	if (!h)
		return;
	lilv_instance_deactivate(h->inst);
	lilv_instance_free(h->inst);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		free(h->buf[id]);
	free(h->shared);
	free(h);
}

/* All controls back to their defaults, deactivate() + activate(): the
 * state of a fresh instance (test_reset checks that), without the cost of
 * loading the plugin again. */
void host_restart(Host *h)
{
	test_control_defaults(h->v, h->control);
	lilv_instance_deactivate(h->inst);
	lilv_instance_activate(h->inst);
}

void host_set(Host *h, pendula_port_id id, float value)
{
	if (h->has[id])
		h->control[id] = value;
}

/* ---------------------------------------------------------------------- */
/* Recordings                                                              */

void rec_reserve(Rec *r, pendula_variant v, size_t frames)
{
	if (frames <= r->cap)
		return;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (pendula_port_index(v, (pendula_port_id)id) < 0 ||
		    pendula_ports[id].kind != PK_SIGNAL_OUT)
			continue;
		r->sig[id] = lv2th_realloc(r->sig[id], frames * sizeof(float));
	}
	r->cap = frames;
}

static void rec_block(Rec *r, const Host *h)
{
	if (r->n_blocks == r->cap_blocks) {
		r->cap_blocks = r->cap_blocks ? 2 * r->cap_blocks : 256;
		r->block_end = lv2th_realloc(r->block_end, r->cap_blocks * sizeof(size_t));
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
			if (!h->has[id] || pendula_ports[id].kind != PK_CONTROL_OUT)
				continue;
			r->ctl[id] = lv2th_realloc(r->ctl[id], r->cap_blocks * sizeof(float));
		}
	}
	r->block_end[r->n_blocks] = r->n;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (r->ctl[id])
			r->ctl[id][r->n_blocks] = h->control[id];
	r->n_blocks++;
}

void rec_free(Rec *r)
{
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		free(r->sig[id]);
		free(r->ctl[id]);
	}
	free(r->block_end);
	memset(r, 0, sizeof(*r));
}

uint32_t next_block(Blocking *b, uint32_t left)
{
	uint32_t n;
	if (b->fixed) {
		n = b->fixed;
	} else {
		b->state ^= b->state << 13;
		b->state ^= b->state >> 17;
		b->state ^= b->state << 5;
		n = (b->zeros && b->state % 5 == 0) ? 0 : 1 + (b->state >> 8) % 1500;
	}
	if (n > left)
		n = left;
	return n > MAX_BLOCK ? MAX_BLOCK : n;
}

/* Runs `frames` frames in blocks, appending to rec (if not NULL). */
void host_render(Host *h, Rec *rec, uint32_t frames, Blocking *b)
{
	Blocking fixed = {MAX_BLOCK, 1, false, false};
	if (!b)
		b = &fixed;
	if (rec && !h->null_signals)
		rec_reserve(rec, h->v, rec->n + frames);
	uint32_t done = 0;
	bool first = true;
	while (done < frames || first) {
		const uint32_t n = next_block(b, frames - done);
		first = false;
		if (b->direct && rec && !h->null_signals) {
			for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
				if (rec->sig[id])
					lilv_instance_connect_port(
					    h->inst,
					    (uint32_t)pendula_port_index(h->v, (pendula_port_id)id),
					    rec->sig[id] + rec->n);
		}
		host_prepare_atoms(h);
		lilv_instance_run(h->inst, n);
		if (rec) {
			if (!b->direct && !h->null_signals)
				for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
					if (rec->sig[id])
						memcpy(rec->sig[id] + rec->n, h->buf[id],
						       n * sizeof(float));
			rec->n += n;
			rec_block(rec, h);
		}
		done += n;
	}
	if (b->direct && rec && !h->null_signals)
		host_connect(h); /* back to the host's own buffers */
}

/* Index of the first bitwise difference, or n. */
size_t first_difference(const float *a, const float *b, size_t n)
{
	if (!memcmp(a, b, n * sizeof(float)))
		return n;
	for (size_t i = 0; i < n; ++i)
		if (memcmp(&a[i], &b[i], sizeof(float)))
			return i;
	return n;
}

/* Every signal output of two recordings bit-identical over [from, from + n). */
bool same_signals(const Rec *a, const Rec *b, size_t from_a, size_t from_b, size_t n,
                  const char *what)
{
	bool same = true;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (!a->sig[id] || !b->sig[id])
			continue;
		const size_t i = first_difference(a->sig[id] + from_a, b->sig[id] + from_b, n);
		if (i < n) {
			printf("\n    %s: %s differs at frame %zu (%.9g vs %.9g)\n", what,
			       pendula_ports[id].symbol, i, (double)a->sig[id][from_a + i],
			       (double)b->sig[id][from_b + i]);
			same = false;
		}
	}
	return same;
}

bool all_finite(const Rec *r, const char **bad_symbol)
{
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (r->sig[id])
			for (size_t i = 0; i < r->n; ++i)
				if (!isfinite(r->sig[id][i])) {
					*bad_symbol = pendula_ports[id].symbol;
					return false;
				}
		if (r->ctl[id])
			for (size_t i = 0; i < r->n_blocks; ++i)
				if (!isfinite(r->ctl[id][i])) {
					*bad_symbol = pendula_ports[id].symbol;
					return false;
				}
	}
	return true;
}

bool has_port(pendula_port_id id)
{
	return pendula_port_index(cur_variant, id) >= 0;
}

/* The variant's control that sets the number of bodies or links (the port
 * filling pendula_params.n_bodies), or P_NONE for a fixed number. */
int count_port(void)
{
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (has_port((pendula_port_id)id) && pendula_ports[id].kind == PK_CONTROL_IN &&
		    pendula_ports[id].param == (int)offsetof(pendula_params, n_bodies))
			return id;
	return P_NONE;
}

/* Bodies or links in the variant's default settings. */
int default_count(void)
{
	const int id = count_port();
	return id == P_NONE
	           ? (int)pendula_model_port_default(pendula_variant_model(cur_variant), P_N_BODIES)
	           : (int)pendula_port_default(cur_variant, (pendula_port_id)id);
}

/* The signal output of engine channel ch, or P_NONE. */
int output_of_channel(int ch)
{
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (has_port((pendula_port_id)id) && pendula_ports[id].kind == PK_SIGNAL_OUT &&
		    pendula_ports[id].channel == ch)
			return id;
	return P_NONE;
}

/* The signal output of angle k (0-based), or P_NONE. */
int angle_output(int k)
{
	return output_of_channel(PENDULA_CH_THETA + k);
}

int field_offset(size_t array, int k)
{
	return (int)(array + (size_t)k * sizeof(double));
}

/* The port filling a double field of pendula_params at the given offset in
 * the variant (e.g. PP(l[2])), or P_NONE. */
int port_of_field(int offset)
{
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (has_port((pendula_port_id)id) && pendula_ports[id].kind == PK_CONTROL_IN &&
		    pendula_ports[id].param == offset)
			return id;
	return P_NONE;
}

/* A chain of links from their hinges (double, chain): the default settings
 * as link masses, lengths, centres of mass and inertias, from the port
 * table (the double pendulum: bobs). */
int chain_defaults(double *m, double *l, double *c, double *ig)
{
	const pendula_variant v = cur_variant;
	const int n = default_count();
	const int shape = has_port(P_LINK_SHAPE) ? (int)pendula_port_default(v, P_LINK_SHAPE) : 0;
	for (int k = 0; k < n; ++k) {
		const int mp = port_of_field(field_offset(offsetof(pendula_params, m), k));
		const int lp = port_of_field(field_offset(offsetof(pendula_params, l), k));
		const int cp = port_of_field(field_offset(offsetof(pendula_params, c), k));
		const int ip = port_of_field(field_offset(offsetof(pendula_params, inertia), k));
		m[k] = pendula_port_default(v, (pendula_port_id)mp);
		l[k] = pendula_port_default(v, (pendula_port_id)lp);
		/* bobs: the mass at the end; rods: uniform (docs/MODELS.md) */
		c[k] = shape == 0   ? l[k]
		       : shape == 1 ? 0.5 * l[k]
		                    : pendula_port_default(v, (pendula_port_id)cp);
		ig[k] = shape == 0   ? 0.0
		        : shape == 1 ? m[k] * l[k] * l[k] / 12.0
		                     : pendula_port_default(v, (pendula_port_id)ip);
	}
	return n;
}

/* The first signal output (table order) that is not the energy: the one
 * the tests watch for "the motion" (theta1, tip_x, x). */
pendula_port_id motion_output(void)
{
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (has_port((pendula_port_id)id) && pendula_ports[id].kind == PK_SIGNAL_OUT &&
		    !(pendula_ports[id].flags & PF_CC_ENERGY))
			return (pendula_port_id)id;
	return P_OUT_ENERGY;
}

/* A control's value in the host h, or the plugin's default if it lacks
 * the port. */
double control_or_default(const Host *h, pendula_port_id id)
{
	return h->has[id] ? h->control[id] : pendula_port_default(h->v, id);
}

const pendula_port_id theta_init_port[6] = {P_THETA1_INIT, P_THETA2_INIT, P_THETA3_INIT,
                                            P_THETA4_INIT, P_THETA5_INIT, P_THETA6_INIT};
/* (azimuths: the 3-D models have at most four links) */
static const int phi_init_port[6] = {P_PHI1_INIT, P_PHI2_INIT, P_PHI3_INIT,
                                     P_PHI4_INIT, P_NONE,      P_NONE};
const pendula_port_id length_port[6] = {P_L1, P_L2, P_L3, P_L4, P_L5, P_L6};

/* Direction of body k at its initial angles (docs/MODELS.md): (sin th cos ph,
 * -cos th, sin th sin ph), ph = 0 in the planar models. */
void initial_direction(const Host *h, int k, double *u)
{
	const double th = control_or_default(h, theta_init_port[k]) * PI / 180.0;
	const int phi = phi_init_port[k];
	const double ph = phi != P_NONE && h->has[phi] ? h->control[phi] * PI / 180.0 : 0.0;
	u[0] = sin(th) * cos(ph);
	u[1] = -cos(th);
	u[2] = sin(th) * sin(ph);
}

/* Bodies N: the body-count port's value, or the model's fixed setting. */
int body_count(const Host *h)
{
	if (h->has[P_N_LINKS])
		return (int)h->control[P_N_LINKS];
	if (h->has[P_N_BODIES])
		return (int)h->control[P_N_BODIES];
	return (int)pendula_port_default(h->v, P_N_BODIES);
}

uint32_t seconds(double s)
{
	return (uint32_t)lrint(s * cur_rate);
}
