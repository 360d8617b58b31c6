/* SPDX-License-Identifier: ISC */
/*
 * A test host on lilv: loads pendula.lv2 from the build tree, checks its
 * description against the port table (contract/ports.h), then instantiates each
 * plugin at 44.1, 48 and 96 kHz and checks physics and host-facing behaviour
 * through the outputs only:
 *
 *   ports          TTL vs ports.h: indices, symbols, names, classes, ranges,
 *                  defaults, units, properties, scale points, atom ports
 *   first_frame    frame 0 shows the initial angles (degrees -> theta/pi)
 *   small_osc      normal-mode frequency from theta1 vs the linearised value
 *   energy         constant within 1e-5 relative when lambda = sigma = 0, no
 *                  forcing; non-increasing and falling with damping
 *   blocks         bit-identical outputs for fixed and random block sizes
 *                  (0-frame blocks too), direct buffers, late connection
 *   bad_input      NaN, +-inf, +-1e30 on every control: finite outputs,
 *                  bit-identical to the clamped value / the default
 *   reset          a rising edge reproduces the run after activate() exactly
 *   null_outputs   signal outputs unconnected (NULL): control outputs the same
 *   controls_out   control outputs = last frame of each signal; pivot in m;
 *                  bodies beyond N output 0
 *   midi           incoming MIDI comes out unchanged, in order, same frames
 *   midi_wiring    every output sent as CC: the MIDI output is the same event
 *                  for event with separate signal buffers, one buffer shared
 *                  by every signal output, and (CV) NULL signal outputs
 *
 * usage: test_host BUNDLE_DIR [--plugin double|double-cv|parallel|parallel-cv]
 *                             [--rate HZ] [--quick]
 * --quick (for valgrind): 48 kHz only, shorter runs, no
 * small_oscillation / energy_is_physical (long runs, no new code path).
 */
#include "cunit_main.h"
#include "lv2_test_host.h"
#include "ports.h"

#include <CUnit/Basic.h>
#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/atom/forge.h>
#include <lv2/atom/util.h>
#include <lv2/core/lv2.h>
#include <lv2/midi/midi.h>
#include <lv2/port-props/port-props.h>
#include <lv2/resize-port/resize-port.h>
#include <lv2/time/time.h>
#include <lv2/units/units.h>
#include <lv2/urid/urid.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI            3.14159265358979323846
#define MAX_BLOCK     4096u
#define ATOM_CAPACITY 16384u

static struct {
	const char *bundle;
	int variant; /* -1: all */
	double rate; /* 0: all */
	bool quick;
} opt = {NULL, -1, 0.0, false};

/* Current suite's plugin and sample rate. */
static pendula_variant cur_variant;
static double cur_rate;

static LilvWorld *world;
static const LilvPlugin *plugins[PENDULA_N_VARIANTS];

/* ---------------------------------------------------------------------- */
/* A host instance                                                         */

typedef struct {
	pendula_variant v;
	double rate;
	LilvInstance *inst;
	/* control inputs and outputs, by global id */
	float control[PENDULA_N_PORT_IDS];
	/* signal output buffers, by global id */
	float *buf[PENDULA_N_PORT_IDS];
	bool has[PENDULA_N_PORT_IDS];
	bool null_signals;   /* leave the signal outputs unconnected */
	bool shared_signals; /* connect every signal output to one buffer */
	float *shared;
	bool null_atoms;       /* leave the atom ports unconnected */
	bool keep_input;       /* the test filled atom_in itself */
	uint32_t out_capacity; /* atom.size given to the MIDI output; 0: all of atom_out */
	uint64_t atom_in[ATOM_CAPACITY / 8];
	uint64_t atom_out[ATOM_CAPACITY / 8];
} Host;

static LV2_URID urid_sequence, urid_midi;

static void host_prepare_atoms(Host *h)
{
	lv2th_prepare_atoms(h->keep_input ? NULL : h->atom_in, h->atom_out,
	                    h->out_capacity ? h->out_capacity : ATOM_CAPACITY - sizeof(LV2_Atom));
}

static void host_connect(Host *h)
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
static Host *host_new_ex(pendula_variant v, double rate, bool null_signals, bool late)
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

static Host *host_new(pendula_variant v, double rate)
{
	return host_new_ex(v, rate, false, false);
}

static void host_free(Host *h)
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
static void host_restart(Host *h)
{
	test_control_defaults(h->v, h->control);
	lilv_instance_deactivate(h->inst);
	lilv_instance_activate(h->inst);
}

static void host_set(Host *h, pendula_port_id id, float value)
{
	if (h->has[id])
		h->control[id] = value;
}

/* ---------------------------------------------------------------------- */
/* Recordings                                                              */

typedef struct {
	size_t n, cap;                  /* frames */
	float *sig[PENDULA_N_PORT_IDS]; /* signal outputs */
	size_t n_blocks, cap_blocks;
	size_t *block_end;              /* frames recorded after each block */
	float *ctl[PENDULA_N_PORT_IDS]; /* control outputs after each block */
} Rec;

static void rec_reserve(Rec *r, pendula_variant v, size_t frames)
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

static void rec_free(Rec *r)
{
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		free(r->sig[id]);
		free(r->ctl[id]);
	}
	free(r->block_end);
	memset(r, 0, sizeof(*r));
}

/* Block sizes: fixed, or pseudo-random (with 0-frame blocks when zeros). */
typedef struct {
	uint32_t fixed; /* 0: random */
	uint32_t state;
	bool zeros;
	bool direct; /* connect the outputs straight into the recording */
} Blocking;

static uint32_t next_block(Blocking *b, uint32_t left)
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
static void host_render(Host *h, Rec *rec, uint32_t frames, Blocking *b)
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
static size_t first_difference(const float *a, const float *b, size_t n)
{
	if (!memcmp(a, b, n * sizeof(float)))
		return n;
	for (size_t i = 0; i < n; ++i)
		if (memcmp(&a[i], &b[i], sizeof(float)))
			return i;
	return n;
}

/* Every signal output of two recordings bit-identical over [from, from + n). */
static bool same_signals(const Rec *a, const Rec *b, size_t from_a, size_t from_b, size_t n,
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

static bool all_finite(const Rec *r, const char **bad_symbol)
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

static bool has_port(pendula_port_id id)
{
	return pendula_port_index(cur_variant, id) >= 0;
}

/* The variant's control that sets the number of bodies or links (the port
 * filling pendula_params.n_bodies), or P_NONE for a fixed number. */
static int count_port(void)
{
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (has_port((pendula_port_id)id) && pendula_ports[id].kind == PK_CONTROL_IN &&
		    pendula_ports[id].param == (int)offsetof(pendula_params, n_bodies))
			return id;
	return P_NONE;
}

/* Bodies or links in the variant's default settings. */
static int default_count(void)
{
	const int id = count_port();
	return id == P_NONE
	           ? (int)pendula_model_port_default(pendula_variant_model(cur_variant), P_N_BODIES)
	           : (int)pendula_port_default(cur_variant, (pendula_port_id)id);
}

/* The signal output of engine channel ch, or P_NONE. */
static int output_of_channel(int ch)
{
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (has_port((pendula_port_id)id) && pendula_ports[id].kind == PK_SIGNAL_OUT &&
		    pendula_ports[id].channel == ch)
			return id;
	return P_NONE;
}

/* The signal output of angle k (0-based), or P_NONE. */
static int angle_output(int k)
{
	return output_of_channel(PENDULA_CH_THETA + k);
}

static int field_offset(size_t array, int k)
{
	return (int)(array + (size_t)k * sizeof(double));
}

/* The port filling a double field of pendula_params at the given offset in
 * the variant (e.g. PP(l[2])), or P_NONE. */
static int port_of_field(int offset)
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
static int chain_defaults(double *m, double *l, double *c, double *ig)
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
		/* bobs: the mass at the end; rods: uniform (README.md) */
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
static pendula_port_id motion_output(void)
{
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (has_port((pendula_port_id)id) && pendula_ports[id].kind == PK_SIGNAL_OUT &&
		    !(pendula_ports[id].flags & PF_CC_ENERGY))
			return (pendula_port_id)id;
	return P_OUT_ENERGY;
}

/* A control's value in the host h, or the plugin's default if it lacks
 * the port. */
static double control_or_default(const Host *h, pendula_port_id id)
{
	return h->has[id] ? h->control[id] : pendula_port_default(h->v, id);
}

static const pendula_port_id theta_init_port[6] = {P_THETA1_INIT, P_THETA2_INIT, P_THETA3_INIT,
                                                   P_THETA4_INIT, P_THETA5_INIT, P_THETA6_INIT};
/* (azimuths: the 3-D models have at most four links) */
static const int phi_init_port[6] = {P_PHI1_INIT, P_PHI2_INIT, P_PHI3_INIT,
                                     P_PHI4_INIT, P_NONE,      P_NONE};
static const pendula_port_id length_port[6] = {P_L1, P_L2, P_L3, P_L4, P_L5, P_L6};

/* Direction of body k at its initial angles (README.md): (sin th cos ph,
 * -cos th, sin th sin ph), ph = 0 in the planar models. */
static void initial_direction(const Host *h, int k, double *u)
{
	const double th = control_or_default(h, theta_init_port[k]) * PI / 180.0;
	const int phi = phi_init_port[k];
	const double ph = phi != P_NONE && h->has[phi] ? h->control[phi] * PI / 180.0 : 0.0;
	u[0] = sin(th) * cos(ph);
	u[1] = -cos(th);
	u[2] = sin(th) * sin(ph);
}

/* Bodies N: the body-count port's value, or the model's fixed setting. */
static int body_count(const Host *h)
{
	if (h->has[P_N_LINKS])
		return (int)h->control[P_N_LINKS];
	if (h->has[P_N_BODIES])
		return (int)h->control[P_N_BODIES];
	return (int)pendula_port_default(h->v, P_N_BODIES);
}

static uint32_t seconds(double s)
{
	return (uint32_t)lrint(s * cur_rate);
}

/* ---------------------------------------------------------------------- */
/* ports: the TTL against ports.h                                          */

static LilvNode *uri_node(const char *uri)
{
	return lilv_new_uri(world, uri);
}

static bool port_is(const LilvPlugin *p, const LilvPort *port, const char *class_uri)
{
	LilvNode *n = uri_node(class_uri);
	const bool r = lilv_port_is_a(p, port, n);
	lilv_node_free(n);
	return r;
}

static bool port_has(const LilvPlugin *p, const LilvPort *port, const char *prop_uri)
{
	LilvNode *n = uri_node(prop_uri);
	const bool r = lilv_port_has_property(p, port, n);
	lilv_node_free(n);
	return r;
}

/* String value of a port property, or NULL (caller frees). */
static char *port_string(const LilvPlugin *p, const LilvPort *port, const char *pred_uri)
{
	LilvNode *pred = uri_node(pred_uri);
	LilvNode *val = lilv_port_get(p, port, pred);
	char *s = NULL;
	if (val && lilv_node_is_string(val))
		s = lv2th_strdup(lilv_node_as_string(val));
	lilv_node_free(val);
	lilv_node_free(pred);
	return s;
}

static bool port_supports(const LilvPlugin *p, const LilvPort *port, const char *uri)
{
	LilvNode *pred = uri_node(LV2_ATOM__supports);
	LilvNode *val = uri_node(uri);
	const bool r = lilv_port_supports_event(p, port, val);
	lilv_node_free(val);
	lilv_node_free(pred);
	return r;
}

/* Unit symbols the README and hosts show (an independent copy). */
static const char *expected_unit(pendula_unit u, bool *custom)
{
	*custom = true;
	switch (u) {
	case PU_NONE:
		return NULL;
	case PU_MS2:
		return "m/s²";
	case PU_KG:
		return "kg";
	case PU_KGM2:
		return "kg·m²";
	case PU_NMS:
		return "N·m·s";
	case PU_NM:
		return "N·m";
	case PU_PER_M:
		return "1/m";
	case PU_RAD_PER_M:
		return "rad/m";
	default:
		break;
	}
	*custom = false;
	switch (u) {
	case PU_COEF:
		return LV2_UNITS__coef;
	case PU_M:
		return LV2_UNITS__m;
	case PU_HZ:
		return LV2_UNITS__hz;
	case PU_DEGREE:
		return LV2_UNITS__degree;
	case PU_MS:
		return LV2_UNITS__ms;
	default:
		return NULL;
	}
}

static void check_unit(const LilvPlugin *p, const LilvPort *port, const pendula_port_info *info)
{
	bool custom;
	const char *want = expected_unit(info->unit, &custom);
	LilvNode *pred = uri_node(LV2_UNITS__unit);
	LilvNode *unit = lilv_port_get(p, port, pred);
	if (!want) {
		CHECK(unit == NULL, "%s: unexpected units:unit", info->symbol);
	} else if (!custom) {
		CHECK(unit && lilv_node_is_uri(unit) && !strcmp(lilv_node_as_uri(unit), want),
		      "%s: units:unit is not <%s>", info->symbol, want);
	} else {
		CHECK(unit && lilv_node_is_blank(unit), "%s: no custom unit", info->symbol);
		if (unit) {
			LilvNode *sym_pred = uri_node(LV2_UNITS__symbol);
			LilvNode *render_pred = uri_node(LV2_UNITS__render);
			LilvNode *sym = lilv_world_get(world, unit, sym_pred, NULL);
			LilvNode *render = lilv_world_get(world, unit, render_pred, NULL);
			CHECK(sym && !strcmp(lilv_node_as_string(sym), want),
			      "%s: unit symbol '%s', want '%s'", info->symbol,
			      sym ? lilv_node_as_string(sym) : "(none)", want);
			CHECK(render && strstr(lilv_node_as_string(render), "%f"),
			      "%s: unit has no units:render with %%f", info->symbol);
			lilv_node_free(sym);
			lilv_node_free(render);
			lilv_node_free(sym_pred);
			lilv_node_free(render_pred);
		}
	}
	lilv_node_free(unit);
	lilv_node_free(pred);
}

static void check_port(const LilvPlugin *p, pendula_variant v, uint32_t index)
{
	const int id = pendula_port_id_at(v, index);
	const pendula_port_info *info = &pendula_ports[id];
	const LilvPort *port = lilv_plugin_get_port_by_index(p, index);
	CHECK(port != NULL, "port %u missing", index);
	if (!port)
		return;
	const char *sym = lilv_node_as_string(lilv_port_get_symbol(p, port));
	CHECK(!strcmp(sym, info->symbol), "port %u: symbol %s, table says %s", index, sym,
	      info->symbol);
	CHECK(lilv_port_get_index(p, port) == index, "port %s: index", sym);

	LilvNode *name = lilv_port_get_name(p, port);
	CHECK(name && !strcmp(lilv_node_as_string(name), info->name), "port %s: name", sym);
	lilv_node_free(name);
	char *comment = port_string(p, port, LILV_NS_RDFS "comment");
	CHECK(comment && !strcmp(comment, info->doc), "port %s: rdfs:comment", sym);
	free(comment);

	const bool input = info->kind == PK_CONTROL_IN || info->kind == PK_ATOM_IN;
	CHECK(port_is(p, port, LV2_CORE__InputPort) == input, "port %s: input/output", sym);
	CHECK(port_is(p, port, LV2_CORE__OutputPort) == !input, "port %s: output/input", sym);
	const bool cv = pendula_variant_is_cv(v);
	const bool control = info->kind == PK_CONTROL_IN || info->kind == PK_CONTROL_OUT;
	const bool signal = info->kind == PK_SIGNAL_OUT;
	const bool atom = info->kind == PK_ATOM_IN || info->kind == PK_ATOM_OUT;
	CHECK(port_is(p, port, LV2_CORE__ControlPort) == control, "port %s: ControlPort", sym);
	CHECK(port_is(p, port, LV2_CORE__AudioPort) == (signal && !cv), "port %s: AudioPort", sym);
	CHECK(port_is(p, port, LV2_CORE__CVPort) == (signal && cv), "port %s: CVPort", sym);
	CHECK(port_is(p, port, LV2_ATOM__AtomPort) == atom, "port %s: AtomPort", sym);
	CHECK(port_has(p, port, LV2_CORE__connectionOptional) == ((signal && cv) || atom),
	      "port %s: connectionOptional", sym);

	if (atom) {
		LilvNode *pred = uri_node(LV2_ATOM__bufferType);
		LilvNode *bt = lilv_port_get(p, port, pred);
		CHECK(bt && !strcmp(lilv_node_as_uri(bt), LV2_ATOM__Sequence),
		      "port %s: bufferType", sym);
		lilv_node_free(bt);
		lilv_node_free(pred);
		CHECK(port_supports(p, port, LV2_MIDI__MidiEvent), "port %s: supports MIDI", sym);
		if (info->kind == PK_ATOM_IN) {
			CHECK(port_supports(p, port, LV2_TIME__Position),
			      "port %s: supports time:Position", sym);
			LilvNode *dpred = uri_node(LV2_CORE__designation);
			LilvNode *d = lilv_port_get(p, port, dpred);
			CHECK(d && !strcmp(lilv_node_as_uri(d), LV2_CORE__control),
			      "port %s: designation lv2:control", sym);
			lilv_node_free(d);
			lilv_node_free(dpred);
		} else {
			LilvNode *spred = uri_node(LV2_RESIZE_PORT__minimumSize);
			LilvNode *s = lilv_port_get(p, port, spred);
			CHECK(s && lilv_node_as_int(s) >= 4096, "port %s: rsz:minimumSize", sym);
			lilv_node_free(s);
			lilv_node_free(spred);
		}
		return;
	}

	LilvNode *def = NULL, *min = NULL, *max = NULL;
	lilv_port_get_range(p, port, &def, &min, &max);
	float lo, hi;
	pendula_port_range(v, (pendula_port_id)id, &lo, &hi);
	CHECK(min && lilv_node_as_float(min) == lo, "port %s: minimum %g, table %g", sym,
	      min ? (double)lilv_node_as_float(min) : NAN, (double)lo);
	CHECK(max && lilv_node_as_float(max) == hi, "port %s: maximum %g, table %g", sym,
	      max ? (double)lilv_node_as_float(max) : NAN, (double)hi);
	if (info->kind == PK_CONTROL_IN) {
		const float want = pendula_port_default(v, (pendula_port_id)id);
		CHECK(def && lilv_node_as_float(def) == want, "port %s: default %g, table %g", sym,
		      def ? (double)lilv_node_as_float(def) : NAN, (double)want);
		CHECK(want >= lo && want <= hi, "port %s: default outside range", sym);
	} else {
		CHECK(def == NULL, "port %s: an output with a default", sym);
	}
	lilv_node_free(def);
	lilv_node_free(min);
	lilv_node_free(max);

	CHECK(port_has(p, port, LV2_CORE__integer) == !!(info->flags & PF_INTEGER),
	      "port %s: integer", sym);
	CHECK(port_has(p, port, LV2_CORE__toggled) == !!(info->flags & PF_TOGGLED),
	      "port %s: toggled", sym);
	CHECK(port_has(p, port, LV2_PORT_PROPS__trigger) == !!(info->flags & PF_TRIGGER),
	      "port %s: trigger", sym);
	CHECK(port_has(p, port, LV2_PORT_PROPS__logarithmic) == !!(info->flags & PF_LOG),
	      "port %s: logarithmic", sym);
	CHECK(port_has(p, port, LV2_CORE__enumeration) == !!(info->flags & PF_ENUM),
	      "port %s: enumeration", sym);
	check_unit(p, port, info);

	LilvScalePoints *points = lilv_port_get_scale_points(p, port);
	if (info->flags & PF_ENUM) {
		/* one scale point per value of the range, labelled as the table says */
		const unsigned want = (unsigned)lrintf(info->max - info->min) + 1u;
		CHECK(points && lilv_scale_points_size(points) == want,
		      "port %s: %u scale points, want %u", sym,
		      points ? lilv_scale_points_size(points) : 0, want);
		LILV_FOREACH(scale_points, i, points)
		{
			const LilvScalePoint *sp = lilv_scale_points_get(points, i);
			const int value = lilv_node_as_int(lilv_scale_point_get_value(sp));
			const char *label = lilv_node_as_string(lilv_scale_point_get_label(sp));
			const char *table = pendula_enum_label((pendula_port_id)id, value);
			CHECK(value >= info->min && value <= info->max && table &&
			          !strcmp(label, table),
			      "port %s: scale point %d '%s'", sym, value, label);
		}
	} else {
		CHECK(points == NULL, "port %s: unexpected scale points", sym);
	}
	lilv_scale_points_free(points);
}

static void test_ports(void)
{
	const pendula_variant v = cur_variant;
	const LilvPlugin *p = plugins[v];

	CHECK(lilv_plugin_verify(p), "lilv_plugin_verify failed");
	CHECK(lilv_plugin_get_num_ports(p) == pendula_port_count(v),
	      "%u ports in the TTL, %u in the table", lilv_plugin_get_num_ports(p),
	      pendula_port_count(v));

	LilvNode *name = lilv_plugin_get_name(p);
	CHECK(name && strstr(lilv_node_as_string(name), "Pendula"), "doap:name");
	lilv_node_free(name);
	LilvNode *author = lilv_plugin_get_author_name(p);
	CHECK(author != NULL, "no maintainer name (doap:maintainer)");
	lilv_node_free(author);

	/* (lilv_plugin_get_class() needs the LV2 core spec loaded; read the
	 * types directly) */
	LilvNode *type_pred = uri_node(LILV_NS_RDF "type");
	LilvNode *osc = uri_node(LV2_CORE__OscillatorPlugin);
	LilvNodes *types = lilv_plugin_get_value(p, type_pred);
	CHECK(types && lilv_nodes_contains(types, osc), "not an lv2:OscillatorPlugin");
	lilv_nodes_free(types);
	lilv_node_free(osc);
	lilv_node_free(type_pred);

	LilvNodes *req = lilv_plugin_get_required_features(p);
	CHECK(lilv_nodes_size(req) == 1, "%u required features", lilv_nodes_size(req));
	LilvNode *map_node = uri_node(LV2_URID__map);
	CHECK(lilv_nodes_contains(req, map_node), "urid:map not required");
	lilv_node_free(map_node);
	lilv_nodes_free(req);
	LilvNode *rt = uri_node(LV2_CORE__hardRTCapable);
	CHECK(lilv_plugin_has_feature(p, rt), "not hardRTCapable");
	lilv_node_free(rt);

	LilvNode *lic_pred = uri_node("http://usefulinc.com/ns/doap#license");
	LilvNodes *lic = lilv_plugin_get_value(p, lic_pred);
	CHECK(lic && lilv_nodes_size(lic) == 1 &&
	          !strcmp(lilv_node_as_uri(lilv_nodes_get_first(lic)),
	                  "http://opensource.org/licenses/isc"),
	      "doap:license");
	lilv_nodes_free(lic);
	lilv_node_free(lic_pred);

	for (uint32_t i = 0; i < lilv_plugin_get_num_ports(p) && i < pendula_port_count(v); ++i)
		check_port(p, v, i);

	/* Symbols are unique within the plugin and valid C identifiers (LV2
	 * requires it).  Two rows of the table may share a symbol if no plugin
	 * has both (x1: the spherical pendulum's row, and the planar models'
	 * row added after it, with the same meaning). */
	const unsigned mask = pendula_variant_model_mask(v);
	for (int a = 0; a < PENDULA_N_PORT_IDS; ++a) {
		const char *s = pendula_ports[a].symbol;
		bool ok =
		    (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_';
		for (const char *c = s; *c; ++c)
			ok = ok && ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			            (*c >= '0' && *c <= '9') || *c == '_');
		CHECK(ok, "symbol '%s' is not an identifier", s);
		for (int b = a + 1; b < PENDULA_N_PORT_IDS; ++b)
			CHECK(!(pendula_ports[a].models & pendula_ports[b].models & mask) ||
			          strcmp(s, pendula_ports[b].symbol),
			      "symbol '%s' twice", s);
	}
}

/* ---------------------------------------------------------------------- */
/* first frame                                                             */

/* Frame 0 against the initial state, for every signal output through its
 * channel (ports.h): angle k -> theta_k / pi; direction x{k}, y{k}, z{k}
 * (and the bead's scaled position, the same formula on the ellipsoid) ->
 * (sin th cos ph, -cos th, sin th sin ph); tip -> sum l_k u_k / sum l_k. */
static void test_first_frame(void)
{
	Host *h = host_new(cur_variant, cur_rate);
	host_set(h, P_THETA1_INIT, 37.5f);
	host_set(h, P_THETA2_INIT, -150.0f);
	host_set(h, P_PHI1_INIT, 20.0f);
	host_set(h, P_PHI2_INIT, -70.0f);
	Rec r = {0};
	Blocking one = {1, 1, false, false};
	host_render(h, &r, 1, &one);

	double tip[3] = {0, 0, 0}, total = 0.0;
	const bool lengths = h->has[P_L1];
	for (int k = 0; k < body_count(h) && k < 6 && lengths; ++k) {
		double u[3];
		initial_direction(h, k, u);
		const double l = control_or_default(h, length_port[k]);
		for (int i = 0; i < 3; ++i)
			tip[i] += l * u[i];
		total += l;
	}
	int checked = 0;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (!h->has[id] || pendula_ports[id].kind != PK_SIGNAL_OUT)
			continue;
		const int ch = pendula_ports[id].channel;
		double want = NAN;
		if (ch >= PENDULA_CH_THETA && ch < PENDULA_CH_THETA + 2) {
			want =
			    control_or_default(h, theta_init_port[ch - PENDULA_CH_THETA]) / 180.0;
		} else if (ch == PENDULA_CH_X || ch == PENDULA_CH_Y || ch == PENDULA_CH_Z) {
			double u[3];
			initial_direction(h, 0, u);
			want = u[ch == PENDULA_CH_X ? 0 : ch == PENDULA_CH_Y ? 1 : 2];
		} else if ((ch == PENDULA_CH_TIP_X || ch == PENDULA_CH_TIP_Y ||
		            ch == PENDULA_CH_TIP_Z) &&
		           lengths) {
			want = tip[ch == PENDULA_CH_TIP_X   ? 0
			           : ch == PENDULA_CH_TIP_Y ? 1
			                                    : 2] /
			       total;
		}
		if (isnan(want))
			continue;
		++checked;
		CHECK(fabs(r.sig[id][0] - want) < 1e-6, "%s[0] = %.9g, want %.9g",
		      pendula_ports[id].symbol, (double)r.sig[id][0], want);
	}
	CHECK(checked >= 2, "only %d outputs checked at frame 0", checked);
	CHECK(r.sig[P_OUT_ENERGY][0] > 0.0f, "energy[0] = %g", (double)r.sig[P_OUT_ENERGY][0]);
	rec_free(&r);
	host_free(h);
}

/* ---------------------------------------------------------------------- */
/* small oscillations                                                      */

/* Frequency (Hz of audio time) of x from its upward zero crossings. */
static double crossing_frequency(const float *x, size_t n, double rate, int *crossings)
{
	double first = -1.0, last = -1.0;
	int count = 0;
	for (size_t i = 1; i < n; ++i) {
		if (x[i - 1] < 0.0f && x[i] >= 0.0f) {
			const double frac = (double)x[i - 1] / ((double)x[i - 1] - (double)x[i]);
			const double t = ((double)(i - 1) + frac) / rate;
			if (count == 0)
				first = t;
			last = t;
			++count;
		}
	}
	*crossings = count;
	return count >= 2 ? (count - 1) / (last - first) : 0.0;
}

/* One normal mode: inits theta1, theta2 (degrees), expected omega (rad/s of
 * simulated time); checks theta1's frequency. */
static void check_mode_on(const char *label, Host *h, pendula_port_id out, double omega,
                          double time_scale, double sim_seconds)
{
	Rec r = {0};
	const uint32_t frames = seconds(sim_seconds / time_scale);
	host_render(h, &r, frames, NULL);
	int crossings;
	const double f = crossing_frequency(r.sig[out], r.n, cur_rate, &crossings);
	const double want = omega / (2.0 * PI) * time_scale;
	const double rel = fabs(f - want) / want;
	printf("\n    %s @%g Hz: f = %.6f Hz, linearised %.6f Hz, rel. error %.2e (%d crossings)",
	       label, cur_rate, f, want, rel, crossings);
	CHECK(crossings >= 4, "%s: only %d zero crossings", label, crossings);
	CHECK(rel < 2e-3, "%s: frequency %.6f Hz, linearised %.6f Hz (rel. error %.2e)", label, f,
	      want, rel);
	/* A pure mode: theta1 keeps its amplitude (the other mode would beat). */
	float peak_first = 0.0f, peak_last = 0.0f;
	for (size_t i = 0; i < r.n / 4; ++i)
		peak_first = fmaxf(peak_first, fabsf(r.sig[out][i]));
	for (size_t i = r.n - r.n / 4; i < r.n; ++i)
		peak_last = fmaxf(peak_last, fabsf(r.sig[out][i]));
	CHECK(fabsf(peak_last - peak_first) < 0.02f * peak_first,
	      "%s: amplitude %g -> %g (not a pure, undamped mode)", label, (double)peak_first,
	      (double)peak_last);
	rec_free(&r);
}

static void check_mode(const char *label, Host *h, double omega, double time_scale,
                       double sim_seconds)
{
	check_mode_on(label, h, P_OUT_THETA1, omega, time_scale, sim_seconds);
}

static void test_small_oscillation(void)
{
	const double g = 100.0;
	const double amp = 1.0; /* degrees */
	const double sim = opt.quick ? 1.0 : 2.0;
	if (has_port(P_OUT_X1)) {
		/* spherical, N = 2 bobs m, rods l in the plane phi = 0 (the
		 * double pendulum's modes, on x1 = sin th1), and in the plane
		 * phi = 90 degrees (the same, degenerate, on z1) */
		const double l = 0.1;
		for (int mode = 0; mode < 4; ++mode) {
			const double sign = mode % 2 ? -1.0 : 1.0;
			const bool side = mode >= 2;
			Host *h = host_new(cur_variant, cur_rate);
			host_set(h, P_N_LINKS, 2.0f);
			host_set(h, P_GRAVITY, (float)g);
			host_set(h, P_L1, (float)l);
			host_set(h, P_L2, (float)l);
			host_set(h, P_M1, 1.0f);
			host_set(h, P_M2, 1.0f);
			host_set(h, P_THETA1_INIT, (float)amp);
			host_set(h, P_THETA2_INIT, (float)(sign * sqrt(2.0) * amp));
			host_set(h, P_PHI1_INIT, side ? 90.0f : 0.0f);
			host_set(h, P_PHI2_INIT, side ? 90.0f : 0.0f);
			check_mode_on(mode % 2 ? "spherical fast mode" : "spherical slow mode", h,
			              side ? P_OUT_Z1 : P_OUT_X1,
			              sqrt((2.0 - sign * sqrt(2.0)) * g / l), 1.0, sim);
			host_free(h);
		}
		return;
	}
	if (has_port(P_OUT_X)) {
		/* the bead at the bottom of the ellipsoid: omega^2 = g b / a^2
		 * along x, g b / c^2 along z */
		const double a = 0.5, b = 1.0, c = 0.8;
		for (int axis = 0; axis < 2; ++axis) {
			Host *h = host_new(cur_variant, cur_rate);
			host_set(h, P_SURFACE, 0.0f);
			host_set(h, P_GRAVITY, (float)g);
			host_set(h, P_AXIS_X, (float)a);
			host_set(h, P_AXIS_Y, (float)b);
			host_set(h, P_AXIS_Z, (float)c);
			host_set(h, P_THETA1_INIT, (float)amp);
			host_set(h, P_PHI1_INIT, axis ? 90.0f : 0.0f);
			host_set(h, P_SPIN_INIT, 0.0f);
			const double semi = axis ? c : a;
			check_mode_on(axis ? "bead along z" : "bead along x", h,
			              axis ? P_OUT_Z : P_OUT_X, sqrt(g * b / (semi * semi)), 1.0,
			              sim);
			host_free(h);
		}
		return;
	}
	if (has_port(P_L1)) {
		/* Two bobs (the double pendulum; the chain with n_links = 2 and
		 * link_shape = bobs), m1 = m2, l1 = l2 = l: omega^2 = (2 -+ sqrt 2)
		 * g / l, theta2 / theta1 = +-sqrt 2 (the linearised equations). */
		const double l = 0.1;
		for (int mode = 0; mode < 2; ++mode) {
			const double sign = mode ? -1.0 : 1.0;
			Host *h = host_new(cur_variant, cur_rate);
			if (count_port() != P_NONE)
				host_set(h, (pendula_port_id)count_port(), 2.0f);
			host_set(h, P_LINK_SHAPE, 0.0f);
			host_set(h, P_GRAVITY, (float)g);
			host_set(h, P_L1, (float)l);
			host_set(h, P_L2, (float)l);
			host_set(h, P_M1, 1.0f);
			host_set(h, P_M2, 1.0f);
			host_set(h, P_THETA1_INIT, (float)amp);
			host_set(h, P_THETA2_INIT, (float)(sign * sqrt(2.0) * amp));
			check_mode(mode ? "two bobs, fast mode" : "two bobs, slow mode", h,
			           sqrt((2.0 - sign * sqrt(2.0)) * g / l), 1.0, sim);
			host_free(h);
		}
		return;
	}
	/* Parallel, N = 1: a physical pendulum, omega^2 = m g c / (I_G + m c^2),
	 * run at time_scale 0.5. */
	{
		const double m = 1.0, c = 0.2, ig = 0.02, ts = 0.5;
		Host *h = host_new(cur_variant, cur_rate);
		host_set(h, P_N_BODIES, 1.0f);
		host_set(h, P_GRAVITY, (float)g);
		host_set(h, P_TIME_SCALE, (float)ts);
		host_set(h, P_M1, (float)m);
		host_set(h, P_C1, (float)c);
		host_set(h, P_INERTIA1, (float)ig);
		host_set(h, P_THETA1_INIT, (float)amp);
		check_mode("parallel N=1", h, sqrt(m * g * c / (ig + m * c * c)), ts, sim * 2.0);
		host_free(h);
	}
	/* Parallel, N = 2, beta2 = 0 (equilibrium at theta = 0): R(0) and K
	 * from the note's equations, det(K - w^2 R) = 0, both modes, at time_scale 2. */
	{
		const double m1 = 1.0, c1 = 0.2, i1 = 0.02, m2 = 0.25, b2 = 0.3, c2 = 0.25,
		             i2 = 0.005, ts = 2.0;
		const double r11 = i1 + m1 * c1 * c1 + m2 * b2 * b2, r12 = m2 * b2 * c2,
		             r22 = i2 + m2 * c2 * c2;
		const double k11 = g * (m1 * c1 + m2 * b2), k22 = g * m2 * c2;
		const double qa = r11 * r22 - r12 * r12, qb = -(k11 * r22 + k22 * r11),
		             qc = k11 * k22;
		const double disc = sqrt(qb * qb - 4.0 * qa * qc);
		const double lambda[2] = {(-qb - disc) / (2.0 * qa), (-qb + disc) / (2.0 * qa)};
		for (int mode = 0; mode < 2; ++mode) {
			/* (K11 - l R11) x1 = l R12 x2 */
			const double ratio = (k11 - lambda[mode] * r11) / (lambda[mode] * r12);
			double a1 = amp, a2 = amp * ratio;
			if (fabs(a2) > amp) {
				a1 = amp / fabs(ratio);
				a2 = amp * (ratio > 0 ? 1.0 : -1.0);
			}
			Host *h = host_new(cur_variant, cur_rate);
			host_set(h, P_N_BODIES, 2.0f);
			host_set(h, P_GRAVITY, (float)g);
			host_set(h, P_TIME_SCALE, (float)ts);
			host_set(h, P_M1, (float)m1);
			host_set(h, P_C1, (float)c1);
			host_set(h, P_INERTIA1, (float)i1);
			host_set(h, P_M2, (float)m2);
			host_set(h, P_B2, (float)b2);
			host_set(h, P_BETA2, 0.0f);
			host_set(h, P_C2, (float)c2);
			host_set(h, P_INERTIA2, (float)i2);
			host_set(h, P_THETA1_INIT, (float)a1);
			host_set(h, P_THETA2_INIT, (float)a2);
			check_mode(mode ? "parallel N=2 fast mode" : "parallel N=2 slow mode", h,
			           sqrt(lambda[mode]), ts, sim * 4.0);
			host_free(h);
		}
	}
}

/* ---------------------------------------------------------------------- */
/* energy                                                                  */

static void test_energy_conserved(void)
{
	Host *h = host_new(cur_variant, cur_rate);
	Rec r = {0};
	host_render(h, &r, seconds(opt.quick ? 0.5 : 3.0), NULL);
	const float *e = r.sig[P_OUT_ENERGY];
	double worst = 0.0;
	size_t at = 0;
	for (size_t i = 0; i < r.n; ++i) {
		const double d = fabs((double)e[i] - e[0]);
		if (d > worst) {
			worst = d;
			at = i;
		}
	}
	const double rel = worst / e[0];
	printf("\n    energy %.6f, max rel. drift %.2e (frame %zu) over %zu frames", (double)e[0],
	       rel, at, r.n);
	CHECK(e[0] > 0.05f, "energy %g: the default start should be well above rest", (double)e[0]);
	CHECK(rel <= 1e-5, "energy drift %.3e relative (frame %zu: %.9g vs %.9g)", rel, at,
	      (double)e[at], (double)e[0]);
	/* and the motion is not trivial: some output other than the energy
	 * moves (the one that moves most) */
	float lo = 1.0f, hi = -1.0f;
	pendula_port_id motion = motion_output();
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (!r.sig[id] || (pendula_ports[id].flags & PF_CC_ENERGY))
			continue;
		float l = 1e30f, u = -1e30f;
		for (size_t i = 0; i < r.n; ++i) {
			l = fminf(l, r.sig[id][i]);
			u = fmaxf(u, r.sig[id][i]);
		}
		if (u - l > hi - lo) {
			lo = l;
			hi = u;
			motion = (pendula_port_id)id;
		}
	}
	CHECK(hi - lo > 0.1f, "%s hardly moves (%g..%g)", pendula_ports[motion].symbol, (double)lo,
	      (double)hi);
	rec_free(&r);
	host_free(h);
}

/* The energy output against E = T + U computed here from the angle outputs
 * (angular velocities by finite differences) with the default settings,
 * normalised as README.md says: checks that `energy` is the physical energy. */
static double unwrap_angle(const float *x, size_t i, double ref)
{
	double a = (double)x[i] * PI;
	while (a - ref > PI)
		a -= 2.0 * PI;
	while (a - ref < -PI)
		a += 2.0 * PI;
	return a;
}

/* Velocity of an output x at frame i by a 5-point central difference. */
static double output_rate(const float *x, size_t i, double dt)
{
	const size_t d = 8;
	return ((double)x[i - 2 * d] - 8.0 * x[i - d] + 8.0 * x[i + d] - x[i + 2 * d]) /
	       (12.0 * (double)d * dt);
}

/* The 3-D models: positions from the outputs (spherical: bob 1 = l1 (x1,
 * y1, z1), bob 2 = tip (l1 + l2), the default N = 2; bead: (x a, y b, z c)
 * on the default ellipsoid), velocities by finite differences,
 * E = sum m/2 |v|^2 + m g y, normalised as README.md says. */
static double energy_from_positions(const Rec *r, size_t i, double dt)
{
	const pendula_variant v = cur_variant;
	const double g = pendula_port_default(v, P_GRAVITY);
	if (has_port(P_OUT_X1)) {
		const double m1 = pendula_port_default(v, P_M1), m2 = pendula_port_default(v, P_M2);
		const double l1 = pendula_port_default(v, P_L1), l2 = pendula_port_default(v, P_L2);
		const pendula_port_id b1[3] = {P_OUT_X1, P_OUT_Y1, P_OUT_Z1},
		                      b2[3] = {P_OUT_TIP_X, P_OUT_TIP_Y, P_OUT_TIP_Z};
		double t = 0.0, y1 = r->sig[P_OUT_Y1][i] * l1,
		       y2 = r->sig[P_OUT_TIP_Y][i] * (l1 + l2);
		for (int c = 0; c < 3; ++c) {
			const double v1 = output_rate(r->sig[b1[c]], i, dt) * l1;
			const double v2 = output_rate(r->sig[b2[c]], i, dt) * (l1 + l2);
			t += 0.5 * m1 * v1 * v1 + 0.5 * m2 * v2 * v2;
		}
		const double u = g * (m1 * y1 + m2 * y2), u_min = -g * ((m1 + m2) * l1 + m2 * l2);
		return (t + u - u_min) / (2.0 * g * ((m1 + m2) * l1 + m2 * l2));
	}
	const double m = pendula_port_default(v, P_M1);
	const double ax[3] = {pendula_port_default(v, P_AXIS_X), pendula_port_default(v, P_AXIS_Y),
	                      pendula_port_default(v, P_AXIS_Z)};
	const pendula_port_id out[3] = {P_OUT_X, P_OUT_Y, P_OUT_Z};
	double t = 0.0;
	for (int c = 0; c < 3; ++c) {
		const double vc = output_rate(r->sig[out[c]], i, dt) * ax[c];
		t += 0.5 * m * vc * vc;
	}
	const double u = m * g * r->sig[P_OUT_Y][i] * ax[1];
	return (t + u + m * g * ax[1]) / (2.0 * m * g * ax[1]);
}

static double energy_from_angles(const Rec *r, size_t i, double dt)
{
	const pendula_variant v = cur_variant;
	if (!has_port(P_OUT_THETA1))
		return energy_from_positions(r, i, dt);
	const size_t d = 8;
	const double g = pendula_port_default(v, P_GRAVITY);
	const int n = default_count();
	double th[6] = {0}, w[6] = {0};
	for (int k = 0; k < n; ++k) {
		const float *x = r->sig[angle_output(k)];
		th[k] = (double)x[i] * PI;
		const double m2 = unwrap_angle(x, i - 2 * d, th[k]),
		             m1 = unwrap_angle(x, i - d, th[k]), p1 = unwrap_angle(x, i + d, th[k]),
		             p2 = unwrap_angle(x, i + 2 * d, th[k]);
		w[k] = (m2 - 8.0 * m1 + 8.0 * p1 - p2) / (12.0 * (double)d * dt);
	}
	if (has_port(P_L1)) {
		/* links in series from the positions of README.md: centre of
		 * mass of link k at sum_{j<k} l_j p(th_j) + c_k p(th_k) */
		double m[6], l[6], c[6], ig[6], t = 0.0, u = 0.0, u_min = 0.0;
		chain_defaults(m, l, c, ig);
		double vx = 0.0, vy = 0.0, below = 0.0;
		for (int k = 0; k < n; ++k) {
			const double gx = vx + c[k] * w[k] * cos(th[k]),
			             gy = vy + c[k] * w[k] * sin(th[k]);
			t += 0.5 * m[k] * (gx * gx + gy * gy) + 0.5 * ig[k] * w[k] * w[k];
			vx += l[k] * w[k] * cos(th[k]);
			vy += l[k] * w[k] * sin(th[k]);
		}
		double y = 0.0;
		for (int k = 0; k < n; ++k) {
			u += m[k] * g * (y - c[k] * cos(th[k]));
			y -= l[k] * cos(th[k]);
		}
		/* U_max - U_min = 2 g sum_k (m_k c_k + (sum_{j>k} m_j) l_k) */
		for (int k = n - 1; k >= 0; --k) {
			u_min -= g * (m[k] * c[k] + below * l[k]);
			below += m[k];
		}
		return (t + u - u_min) / (-2.0 * u_min);
	}
	const pendula_port_id mp[4] = {P_M1, P_M2, P_M3, P_M4}, cp[4] = {P_C1, P_C2, P_C3, P_C4},
	                      ip[4] = {P_INERTIA1, P_INERTIA2, P_INERTIA3, P_INERTIA4},
	                      bp[4] = {P_B2, P_B2, P_B3, P_B4},
	                      betap[4] = {P_BETA2, P_BETA2, P_BETA3, P_BETA4};
	double m[4], c[4], in[4], b[4], beta[4];
	for (int k = 0; k < 4; ++k) {
		m[k] = pendula_port_default(v, mp[k]);
		c[k] = pendula_port_default(v, cp[k]);
		in[k] = pendula_port_default(v, ip[k]);
		b[k] = pendula_port_default(v, bp[k]);
		beta[k] = pendula_port_default(v, betap[k]) * PI / 180.0;
	}
	/* R11 = I_O1 + sum m_k b_k^2, R1k = m_k b_k c_k cos(th1 + beta_k - thk),
	 * Rkk = I_Gk + m_k c_k^2 (the note's section 3, model B) */
	double t = 0.5 * (in[0] + m[0] * c[0] * c[0]) * w[0] * w[0];
	double u = -g * m[0] * c[0] * cos(th[0]);
	double zx = m[0] * c[0], zy = 0.0, sum_mc = 0.0;
	for (int k = 1; k < n; ++k) {
		t += 0.5 * m[k] * b[k] * b[k] * w[0] * w[0] +
		     m[k] * b[k] * c[k] * cos(th[0] + beta[k] - th[k]) * w[0] * w[k] +
		     0.5 * (in[k] + m[k] * c[k] * c[k]) * w[k] * w[k];
		u -= g * m[k] * (b[k] * cos(th[0] + beta[k]) + c[k] * cos(th[k]));
		zx += m[k] * b[k] * cos(beta[k]);
		zy += m[k] * b[k] * sin(beta[k]);
		sum_mc += m[k] * c[k];
	}
	const double lever = sqrt(zx * zx + zy * zy);
	const double u_min = -g * (lever + sum_mc);
	return (t + u - u_min) / (2.0 * g * (lever + sum_mc));
}

static void test_energy_is_physical(void)
{
	Host *h = host_new(cur_variant, cur_rate);
	Rec r = {0};
	host_render(h, &r, seconds(opt.quick ? 0.3 : 1.0), NULL);
	const double dt = 1.0 / cur_rate; /* time_scale 1 */
	double worst = 0.0;
	size_t worst_at = 0, points = 0;
	for (size_t i = 64; i + 64 < r.n; i += r.n / 97) {
		const double e = energy_from_angles(&r, i, dt);
		const double err = fabs(e - r.sig[P_OUT_ENERGY][i]) / r.sig[P_OUT_ENERGY][i];
		++points;
		if (err > worst) {
			worst = err;
			worst_at = i;
		}
	}
	printf("\n    energy output vs E from the angles: max rel. difference %.2e (%zu points)",
	       worst, points);
	CHECK(points > 50, "only %zu points", points);
	CHECK(worst < 2e-3, "energy output %.6f, energy from the angles %.6f (frame %zu)",
	      (double)r.sig[P_OUT_ENERGY][worst_at], energy_from_angles(&r, worst_at, dt),
	      worst_at);
	rec_free(&r);
	host_free(h);
}

static void test_energy_damped(void)
{
	Host *h = host_new(cur_variant, cur_rate);
	for (int k = 0; k < 6; ++k) {
		const int id = port_of_field(field_offset(offsetof(pendula_params, lambda), k));
		if (id != P_NONE) /* links in series (double, chain) or arms on a body */
			host_set(h, (pendula_port_id)id,
			         has_port(P_INERTIA1) && !has_port(P_L1) ? 0.05f : 0.5f);
	}
	Rec r = {0};
	host_render(h, &r, seconds(opt.quick ? 1.0 : 2.0), NULL);
	const float *e = r.sig[P_OUT_ENERGY];
	size_t rises = 0, worst_at = 0;
	double worst = 0.0;
	for (size_t i = 1; i < r.n; ++i) {
		const double d = (double)e[i] - e[i - 1];
		if (d > 1e-6 * e[0]) {
			++rises;
			if (d > worst) {
				worst = d;
				worst_at = i;
			}
		}
	}
	printf("\n    damped energy %.6f -> %.6f", (double)e[0], (double)e[r.n - 1]);
	CHECK(rises == 0, "energy rose %zu times with damping (worst +%.3g at frame %zu)", rises,
	      worst, worst_at);
	CHECK(e[r.n - 1] < 0.9f * e[0], "energy %g -> %g: damping does not act", (double)e[0],
	      (double)e[r.n - 1]);
	CHECK(e[r.n - 1] >= 0.0f, "energy below 0: %g", (double)e[r.n - 1]);
	rec_free(&r);
	host_free(h);
}

/* ---------------------------------------------------------------------- */
/* block sizes                                                             */

/* A scenario with control changes (smoothed and not) and a reset at fixed
 * frames; blocks never straddle those frames. */
static void render_scenario(Host *h, Rec *r, Blocking *b)
{
	const uint32_t f1 = 12345, f2 = 30011, f3 = 30500, total = opt.quick ? 32000 : 40000;
	host_render(h, r, f1, b);
	host_set(h, P_GRAVITY, 20.0f);
	host_set(h, P_M2, 2.0f);
	host_set(h, P_LAMBDA1, 0.1f);
	host_set(h, P_SIGMA2, 0.3f);
	host_set(h, P_PIVOT_X_AMP, 0.05f);
	host_set(h, P_PIVOT_X_FREQ, 3.0f);
	if (count_port() != P_NONE)
		host_set(h, (pendula_port_id)count_port(), 4.0f);
	host_set(h, P_SURFACE, 1.0f); /* the bead moves to the floor */
	host_set(h, P_PIVOT_Z_AMP, 0.05f);
	host_set(h, P_PIVOT_Z_FREQ, 2.0f);
	host_set(h, P_THETA1_INIT, 10.0f);
	host_render(h, r, f2 - f1, b);
	host_set(h, P_RESET, 1.0f);
	host_set(h, P_TIME_SCALE, 1.5f);
	host_render(h, r, f3 - f2, b);
	host_set(h, P_RESET, 0.0f);
	host_render(h, r, total - f3, b);
}

static void test_block_sizes(void)
{
	Host *h = host_new(cur_variant, cur_rate);
	Rec ref = {0};
	Blocking whole = {MAX_BLOCK, 1, false, false};
	render_scenario(h, &ref, &whole);
	host_free(h);

	const struct {
		const char *label;
		Blocking b;
		bool late;
	} runs[] = {
	    {"1 frame", {1, 1, false, false}, false},
	    {"32 frames", {32, 1, false, false}, false},
	    {"33 frames", {33, 1, false, false}, false},
	    {"1000 frames", {1000, 1, false, false}, false},
	    {"random", {0, 12345, false, false}, false},
	    {"random with 0-frame blocks", {0, 777, true, false}, false},
	    {"random, 0-frame blocks, buffers moved per block", {0, 4242, true, true}, false},
	    {"random, connected after activate()", {0, 99, true, false}, true},
	};
	const size_t n_runs = opt.quick ? 3 : sizeof runs / sizeof runs[0];
	for (size_t i = 0; i < n_runs; ++i) {
		const size_t k = opt.quick ? (i == 0 ? 2 : i == 1 ? 5 : 6) : i;
		Host *hb = host_new_ex(cur_variant, cur_rate, false, runs[k].late);
		Rec r = {0};
		Blocking b = runs[k].b;
		render_scenario(hb, &r, &b);
		CHECK(r.n == ref.n, "%s: %zu frames", runs[k].label, r.n);
		CHECK(same_signals(&ref, &r, 0, 0, r.n < ref.n ? r.n : ref.n, runs[k].label),
		      "%s: outputs differ from one-block processing", runs[k].label);
		const char *bad = NULL;
		CHECK(all_finite(&r, &bad), "%s: %s not finite", runs[k].label, bad);
		rec_free(&r);
		host_free(hb);
	}
	/* The scenario did something: the control changes altered the motion. */
	Host *hq = host_new(cur_variant, cur_rate);
	Rec quiet = {0};
	host_render(hq, &quiet, (uint32_t)ref.n, NULL);
	const pendula_port_id motion = motion_output();
	size_t d = first_difference(ref.sig[motion], quiet.sig[motion], ref.n);
	/* not before the change, and within 10 ms (a chunk plus an engine step) */
	const size_t soon = 12345 + 32 + (size_t)(0.010 * cur_rate);
	CHECK(d >= 12345 && d < soon, "control changes at frame 12345: first difference at %zu", d);
	rec_free(&quiet);
	host_free(hq);
	rec_free(&ref);
}

/* ---------------------------------------------------------------------- */
/* bad input                                                               */

static void render_bad(Host *h, Rec *r, pendula_port_id id, float value)
{
	const uint32_t a = opt.quick ? 128 : 512, b = opt.quick ? 256 : 2048;
	Blocking blocks = {opt.quick ? 64 : 256, 1, false, false};
	host_set(h, id, value);
	host_render(h, r, a, &blocks);
	host_set(h, id, pendula_port_default(h->v, id));
	host_render(h, r, a, &blocks);
	host_set(h, id, value);
	host_render(h, r, b - 2 * a, &blocks);
}

static void test_bad_input(void)
{
	const float bad[] = {NAN, INFINITY, -INFINITY, 1e30f, -1e30f};
	const size_t n_bad = sizeof bad / sizeof bad[0];
	size_t n_ports_checked = 0;

	/* One instance, re-activated for every run. */
	Host *h = host_new(cur_variant, cur_rate);
	Rec ref_default = {0};
	render_bad(h, &ref_default, P_TIME_SCALE, pendula_port_default(cur_variant, P_TIME_SCALE));

	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (pendula_port_index(cur_variant, (pendula_port_id)id) < 0 ||
		    pendula_ports[id].kind != PK_CONTROL_IN)
			continue;
		const pendula_port_info *info = &pendula_ports[id];
		Rec ref_min = {0}, ref_max = {0};
		host_restart(h);
		render_bad(h, &ref_min, (pendula_port_id)id, info->min);
		host_restart(h);
		render_bad(h, &ref_max, (pendula_port_id)id, info->max);
		const char *sym = NULL;
		CHECK(all_finite(&ref_min, &sym), "%s = min: %s not finite", info->symbol, sym);
		CHECK(all_finite(&ref_max, &sym), "%s = max: %s not finite", info->symbol, sym);

		for (size_t j = 0; j < n_bad; ++j) {
			Rec r = {0};
			host_restart(h);
			render_bad(h, &r, (pendula_port_id)id, bad[j]);
			const Rec *want = isnan(bad[j]) ? &ref_default
			                  : bad[j] > 0  ? &ref_max
			                                : &ref_min;
			char what[128];
			snprintf(what, sizeof what, "%s = %g", info->symbol, (double)bad[j]);
			CHECK(all_finite(&r, &sym), "%s: %s not finite", what, sym);
			CHECK(same_signals(want, &r, 0, 0, r.n, what),
			      "%s: outputs differ from those of the %s", what,
			      isnan(bad[j]) ? "default" : "clamped value");
			rec_free(&r);
		}
		rec_free(&ref_min);
		rec_free(&ref_max);
		++n_ports_checked;
	}
	CHECK(n_ports_checked > 20, "only %zu control ports", n_ports_checked);
	rec_free(&ref_default);
	host_free(h);
}

/* ---------------------------------------------------------------------- */
/* reset                                                                   */

/* freeze: the outputs hold the last frame's values while it is on, and on
 * release the motion resumes where it stopped: the render frozen for N
 * frames equals the unfrozen one N frames later, bit for bit, whatever the
 * blocks. */
static void test_freeze(void)
{
	const uint32_t before = seconds(opt.quick ? 0.1 : 0.3) + 13, frozen = 5003;
	const uint32_t after = seconds(opt.quick ? 0.1 : 0.5);
	Host *h = host_new(cur_variant, cur_rate);
	Rec ref = {0}, rec = {0};
	Blocking b37 = {37, 1, false, false};
	host_render(h, &ref, before + after, &b37);
	host_restart(h);
	Blocking random = {0, 4242, true, false};
	host_render(h, &rec, before, &random);
	host_set(h, P_FREEZE, 1.0f);
	h->control[P_CTL_TIME_RATIO] = NAN; /* (what a host may leave there) */
	host_render(h, &rec, frozen, &random);
	const float ratio_frozen = h->control[P_CTL_TIME_RATIO];
	host_set(h, P_FREEZE, 0.0f);
	host_render(h, &rec, after, &random);
	CHECK(same_signals(&ref, &rec, 0, 0, before, "before the freeze"),
	      "the frames before the freeze differ");
	bool held = true;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (!rec.sig[id])
			continue;
		for (uint32_t i = 0; i < frozen; ++i)
			held &= !memcmp(&rec.sig[id][before + i], &rec.sig[id][before - 1],
			                sizeof(float));
	}
	CHECK(held, "an output moved while frozen");
	CHECK(!has_port(P_CTL_TIME_RATIO) || ratio_frozen == 1.0f,
	      "time_ratio %g while frozen (1: time stands by request)", (double)ratio_frozen);
	CHECK(same_signals(&ref, &rec, before, before + frozen, after, "after the freeze"),
	      "the motion did not resume where it stopped");
	rec_free(&ref);
	rec_free(&rec);
	host_free(h);
}

/* A whole-number control just below a half (the largest float below
 * k + 0.5) is k, as rounding says: in float, 0.49999997 + 0.5 is 1, so a
 * floorf(v + 0.5f) took the bead to its floor and a chain to a link more. */
static void test_whole_numbers(void)
{
	pendula_port_id id = P_SURFACE;
	float k = 0.0f;
	if (has_port(P_N_LINKS))
		id = P_N_LINKS, k = 2.0f;
	else if (has_port(P_N_BODIES))
		id = P_N_BODIES, k = 2.0f;
	if (!has_port(id)) {
		printf("\n    no whole-number setting of the motion here");
		return;
	}
	const uint32_t len = seconds(0.2);
	Rec a = {0}, b = {0};
	Host *h = host_new(cur_variant, cur_rate);
	host_set(h, id, k);
	host_render(h, &a, len, NULL);
	host_restart(h);
	const float below = nextafterf(k + 0.5f, 0.0f);
	host_set(h, id, below);
	host_render(h, &b, len, NULL);
	printf("\n    %s = %.9g runs as %s = %g", pendula_ports[id].symbol, (double)below,
	       pendula_ports[id].symbol, (double)k);
	CHECK(same_signals(&a, &b, 0, 0, len, "just below a half"), "%s = %.9g does not run as %g",
	      pendula_ports[id].symbol, (double)below, (double)k);
	rec_free(&a);
	rec_free(&b);
	host_free(h);
}

/* Bodies that come or go while running: at every frame each body's
 * outputs tell one story.  Either the body is there (its direction a unit
 * vector; x = sin theta, y = -cos theta where it has an angle) or it is
 * not (angle, direction and rate all 0, README.md).  The glue used to
 * silence the angle of a body taken away at once, while its direction and
 * rate went on until the change took effect at the end of the engine's
 * step (up to 10 ms): 0 for the angle beside a direction of length 1. */
static void test_bodies_change(void)
{
	const int count = count_port();
	if (count == P_NONE || output_of_channel(PENDULA_CH_X) == P_NONE) {
		printf("\n    no number of bodies to change here");
		return;
	}
	float lo, hi;
	pendula_port_range(cur_variant, (pendula_port_id)count, &lo, &hi);
	const int most = (int)lrintf(hi);
	Host *h = host_new(cur_variant, cur_rate);
	Rec r = {0};
	Blocking small = {64, 1, false, false};
	host_set(h, (pendula_port_id)count, (float)most);
	host_render(h, &r, seconds(0.1), &small);
	host_set(h, (pendula_port_id)count, 1.0f); /* bodies go */
	host_render(h, &r, seconds(0.1), &small);
	host_set(h, (pendula_port_id)count, (float)most); /* and come back */
	host_render(h, &r, seconds(0.1), &small);
	long live = 0, silent = 0, torn = 0;
	size_t first_torn = 0;
	int torn_body = 0;
	for (int k = 0; k < most; ++k) {
		const int th = angle_output(k), wo = output_of_channel(PENDULA_CH_W + k);
		const int dir[3] = {output_of_channel(PENDULA_CH_X + k),
		                    output_of_channel(PENDULA_CH_Y + k),
		                    output_of_channel(PENDULA_CH_Z + k)};
		CHECK(dir[0] != P_NONE && dir[1] != P_NONE && wo != P_NONE,
		      "body %d has no direction or rate output", k + 1);
		if (dir[0] == P_NONE || dir[1] == P_NONE || wo == P_NONE)
			continue;
		for (size_t i = 0; i < r.n; ++i) {
			double u[3] = {0.0, 0.0, 0.0}, len2 = 0.0;
			bool zero = r.sig[wo][i] == 0.0f && (th == P_NONE || r.sig[th][i] == 0.0f);
			for (int c = 0; c < 3; ++c)
				if (dir[c] != P_NONE) {
					u[c] = r.sig[dir[c]][i];
					len2 += u[c] * u[c];
					zero = zero && u[c] == 0.0;
				}
			bool there = fabs(len2 - 1.0) < 1e-3;
			if (th != P_NONE) {
				const double a = PI * r.sig[th][i];
				there = there && fabs(u[0] - sin(a)) < 1e-3 &&
				        fabs(u[1] + cos(a)) < 1e-3;
			}
			if (zero)
				++silent;
			else if (there)
				++live;
			else if (torn++ == 0)
				first_torn = i, torn_body = k + 1;
		}
	}
	printf("\n    %s %d -> 1 -> %d: %ld body-frames there, %ld absent, %ld torn",
	       pendula_ports[count].symbol, most, most, live, silent, torn);
	CHECK(torn == 0, "%ld body-frames whose outputs disagree (first: body %d at frame %zu)",
	      torn, torn_body, first_torn);
	CHECK(silent > 0 && live > 0, "bodies were not both there and absent");
	rec_free(&r);
	host_free(h);
}

static void test_reset(void)
{
	const uint32_t len = seconds(opt.quick ? 0.2 : 1.0);
	Host *h = host_new(cur_variant, cur_rate);
	Rec first = {0}, after = {0};
	host_render(h, &first, len, NULL);
	host_render(h, NULL, seconds(0.3) + 7, NULL);

	/* rising edge, then held high across many random blocks: one restart */
	host_set(h, P_RESET, 1.0f);
	Blocking random = {0, 31337, true, false};
	host_render(h, &after, len, &random);
	CHECK(same_signals(&first, &after, 0, 0, len, "reset"),
	      "the second after a reset differs from the second after activate()");

	/* falling, then rising again (with a mid-chunk offset): a second restart */
	host_set(h, P_RESET, 0.0f);
	host_render(h, NULL, 1001, NULL);
	host_set(h, P_RESET, 0.75f);
	Rec again = {0};
	host_render(h, &again, len / 2, NULL);
	CHECK(same_signals(&first, &again, 0, 0, len / 2, "second reset"),
	      "a second rising edge does not restart");
	host_free(h);

	/* Reset while a smoother is still moving: the restart uses the new
	 * settings at once, as a fresh instance would. */
	h = host_new(cur_variant, cur_rate);
	host_render(h, NULL, 5000, NULL);
	host_set(h, P_GRAVITY, 30.0f);
	host_set(h, P_SIGMA1, 0.5f);
	host_render(h, NULL, 100, NULL);
	host_set(h, P_RESET, 1.0f);
	Rec ramp = {0}, fresh = {0};
	host_render(h, &ramp, len / 2, NULL);
	host_free(h);
	h = host_new(cur_variant, cur_rate);
	host_set(h, P_GRAVITY, 30.0f);
	host_set(h, P_SIGMA1, 0.5f);
	host_render(h, &fresh, len / 2, NULL);
	CHECK(same_signals(&fresh, &ramp, 0, 0, len / 2, "reset during smoothing"),
	      "a reset during a parameter ramp differs from a fresh start");
	host_free(h);

	/* deactivate() + activate(): t = 0 again, the same run */
	h = host_new(cur_variant, cur_rate);
	host_set(h, P_GRAVITY, 50.0f);
	host_render(h, NULL, 3000, NULL);
	host_set(h, P_GRAVITY, pendula_port_default(cur_variant, P_GRAVITY));
	lilv_instance_deactivate(h->inst);
	lilv_instance_activate(h->inst);
	Rec reactivated = {0};
	host_render(h, &reactivated, len, &random);
	CHECK(same_signals(&first, &reactivated, 0, 0, len, "re-activated"),
	      "the run after a second activate() differs from the first");
	rec_free(&reactivated);
	host_free(h);

	/* Held high from the first block: that block restarts (previous = 0),
	 * which is the activate() state anyway. */
	h = host_new(cur_variant, cur_rate);
	host_set(h, P_RESET, 1.0f);
	Rec held = {0};
	host_render(h, &held, len, &random);
	CHECK(same_signals(&first, &held, 0, 0, len, "reset held from the start"),
	      "reset high from the first block changes the run");
	host_free(h);

	rec_free(&first);
	rec_free(&after);
	rec_free(&again);
	rec_free(&ramp);
	rec_free(&fresh);
	rec_free(&held);
}

/* ---------------------------------------------------------------------- */
/* NULL outputs, control outputs                                           */

/* The control outputs with the signal outputs wired as `how`: 0 each its
 * own buffer, 1 unconnected (their values then come from the engine's
 * last-frame values, pendula_engine_run_events_last), 2 one buffer shared
 * by all (only the last in table order is written there).  The chaos knob
 * keeps the arms flipping, so the pulse outputs' mirrors see pulses. */
static void render_wired(int how, Rec *r, uint32_t len)
{
	/* blocks shorter than a pulse (1 ms): every pulse holds a block end */
	Blocking b = {37, 0, false, false};
	Host *h = host_new_ex(cur_variant, cur_rate, how == 1, how == 2);
	if (how == 2) {
		h->shared_signals = true;
		host_connect(h);
	}
	host_set(h, P_PIVOT_Y_AMP, 0.1f);
	host_set(h, P_PIVOT_Y_FREQ, 5.0f);
	host_set(h, P_ENERGY_TARGET, 1.5f);
	host_render(h, r, len, &b);
	host_free(h);
}

static void test_null_outputs(void)
{
	const uint32_t len = seconds(opt.quick ? 0.5 : 3.0);
	Rec con = {0}, nul = {0}, shr = {0};
	render_wired(0, &con, len);
	render_wired(1, &nul, len);
	render_wired(2, &shr, len);

	CHECK(con.n_blocks == nul.n_blocks && con.n_blocks == shr.n_blocks, "block counts differ");
	const char *sym = NULL;
	CHECK(all_finite(&nul, &sym), "unconnected outputs: %s not finite", sym);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (!con.ctl[id])
			continue;
		size_t d = first_difference(con.ctl[id], nul.ctl[id], con.n_blocks);
		CHECK(d == con.n_blocks, "%s differs with unconnected signal outputs (block %zu)",
		      pendula_ports[id].symbol, d);
		d = first_difference(con.ctl[id], shr.ctl[id], con.n_blocks);
		CHECK(d == con.n_blocks, "%s differs with one shared signal buffer (block %zu)",
		      pendula_ports[id].symbol, d);
	}
	size_t lit = 0; /* blocks whose last frame lies in a pulse */
	for (size_t blk = 0; blk < con.n_blocks; ++blk)
		lit += con.ctl[P_CTL_FLIPS][blk] != 0.0f || con.ctl[P_CTL_SWINGS][blk] != 0.0f;
	printf("\n    %zu blocks, %zu end inside a pulse; control outputs equal for own, no and "
	       "one shared buffer",
	       con.n_blocks, lit);
	/* (the quick run, under valgrind, is too short to be sure of one) */
	CHECK(opt.quick || lit > 0, "no block ends inside a pulse: the pulse mirrors go untested");
	Host *h;

	/* control inputs unconnected: each reads its default, so the outputs
	 * are those of every control connected at its default */
	Rec at_default = {0}, no_controls = {0};
	h = host_new(cur_variant, cur_rate);
	host_render(h, &at_default, 4096, NULL);
	host_free(h);
	h = host_new(cur_variant, cur_rate);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (h->has[id] && pendula_ports[id].kind == PK_CONTROL_IN)
			lilv_instance_connect_port(
			    h->inst, (uint32_t)pendula_port_index(cur_variant, (pendula_port_id)id),
			    NULL);
	host_render(h, &no_controls, 4096, NULL);
	host_free(h);
	CHECK(same_signals(&at_default, &no_controls, 0, 0, at_default.n,
	                   "control inputs unconnected"),
	      "outputs with the control inputs unconnected differ from the defaults");

	/* atom ports unconnected too (connectionOptional) */
	h = host_new_ex(cur_variant, cur_rate, true, true);
	h->null_atoms = true;
	host_connect(h);
	Rec none = {0};
	host_render(h, &none, 4096, NULL);
	CHECK(all_finite(&none, &sym), "no ports connected: %s not finite", sym);
	host_free(h);

	rec_free(&con);
	rec_free(&nul);
	rec_free(&shr);
	rec_free(&at_default);
	rec_free(&no_controls);
	rec_free(&none);
}

static void test_control_outputs(void)
{
	const uint32_t len = seconds(opt.quick ? 0.25 : 0.5);
	const double ax = 0.1, fx = 2.0, ts = 1.25;
	Host *h = host_new(cur_variant, cur_rate);
	host_set(h, P_PIVOT_X_AMP, (float)ax);
	host_set(h, P_PIVOT_X_FREQ, (float)fx);
	host_set(h, P_TIME_SCALE, (float)ts);
	const int count = count_port();
	if (count != P_NONE)
		host_set(h, (pendula_port_id)count, 2.0f);
	Rec r = {0};
	Blocking b = {0, 5150, true, false};
	host_render(h, &r, len, &b);

	/* every signal output and its control mirror (the port table's
	 * related column) */
	pendula_port_id sig[PENDULA_N_PORT_IDS], ctl[PENDULA_N_PORT_IDS];
	size_t n_sig = 0;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (h->has[id] && pendula_ports[id].kind == PK_SIGNAL_OUT &&
		    pendula_ports[id].related != P_NONE && h->has[pendula_ports[id].related]) {
			sig[n_sig] = (pendula_port_id)id;
			ctl[n_sig++] = (pendula_port_id)pendula_ports[id].related;
		}
	CHECK(n_sig >= 3, "only %zu signal outputs with a control mirror", n_sig);
	size_t mismatches = 0, pivot_bad = 0, checked = 0;
	double worst_pivot = 0.0;
	for (size_t blk = 0; blk < r.n_blocks; ++blk) {
		const size_t end = r.block_end[blk];
		if (end == 0 || (blk > 0 && r.block_end[blk - 1] == end))
			continue; /* no frame in this block */
		++checked;
		for (size_t s = 0; s < n_sig; ++s) {
			if (!r.sig[sig[s]])
				continue;
			if (memcmp(&r.sig[sig[s]][end - 1], &r.ctl[ctl[s]][blk], sizeof(float))) {
				if (mismatches++ < 5)
					printf("\n    block %zu: %s = %.9g, last %s = %.9g", blk,
					       pendula_ports[ctl[s]].symbol,
					       (double)r.ctl[ctl[s]][blk],
					       pendula_ports[sig[s]].symbol,
					       (double)r.sig[sig[s]][end - 1]);
			}
		}
		/* pivot x = ax sin(2 pi fx t), t = (end - 1) ts / rate */
		const double t = (double)(end - 1) * ts / cur_rate;
		const double want = ax * sin(2.0 * PI * fx * t);
		const double err = fabs(r.ctl[P_CTL_PIVOT_X][blk] - want);
		worst_pivot = fmax(worst_pivot, err);
		if (err > 1e-5)
			++pivot_bad;
		if (fabs(r.ctl[P_CTL_PIVOT_Y][blk]) > 1e-7)
			++pivot_bad;
		if (r.ctl[P_CTL_PIVOT_Z] && fabs(r.ctl[P_CTL_PIVOT_Z][blk]) > 1e-7)
			++pivot_bad;
	}
	printf("\n    %zu blocks checked, pivot_x_ctl max error %.2e m", checked, worst_pivot);
	CHECK(checked > 10, "only %zu blocks", checked);
	CHECK(mismatches == 0, "%zu control outputs differ from the last frame", mismatches);
	CHECK(pivot_bad == 0, "pivot_x_ctl/pivot_y_ctl wrong in %zu blocks (max error %.2e)",
	      pivot_bad, worst_pivot);
	/* The engine keeps up with these settings: time_ratio is exactly 1. */
	size_t slowed = 0;
	for (size_t blk = 0; blk < r.n_blocks; ++blk)
		slowed += r.ctl[P_CTL_TIME_RATIO][blk] != 1.0f;
	CHECK(slowed == 0, "time_ratio below 1 in %zu blocks of an easy setting", slowed);

	if (count != P_NONE && angle_output(0) != P_NONE) {
		/* N = 2: the angles of bodies 3.. are 0 (models with angle
		 * outputs; the 3-D ones check theirs in test_spatial) */
		float lo, hi;
		pendula_port_range(cur_variant, (pendula_port_id)count, &lo, &hi);
		const int n_max = (int)lrintf(hi);
		bool zero = true;
		for (int k = 2; k < n_max; ++k)
			for (size_t i = 0; i < r.n; ++i)
				zero = zero && r.sig[angle_output(k)][i] == 0.0f;
		CHECK(zero, "angles beyond 2 not 0 with %s = 2", pendula_ports[count].symbol);
		bool moving = false;
		for (size_t i = 0; i < r.n; ++i)
			moving = moving || r.sig[P_OUT_THETA2][i] != r.sig[P_OUT_THETA2][0];
		CHECK(moving, "theta2 does not move with %s = 2", pendula_ports[count].symbol);
		/* N grows to its maximum while running: the last body comes in,
		 * then goes away */
		const int last = angle_output(n_max - 1);
		host_set(h, (pendula_port_id)count, (float)n_max);
		Rec more = {0};
		host_render(h, &more, 2048, NULL);
		bool nonzero = false;
		for (size_t i = 64; i < more.n; ++i)
			nonzero = nonzero || more.sig[last][i] != 0.0f;
		CHECK(nonzero, "%s stays 0 after %s = %d", pendula_ports[last].symbol,
		      pendula_ports[count].symbol, n_max);
		host_set(h, (pendula_port_id)count, 1.0f);
		Rec fewer = {0};
		host_render(h, &fewer, 2048, NULL);
		zero = true;
		for (int k = 1; k < n_max; ++k)
			for (size_t i = 0; i < fewer.n; ++i)
				zero = zero && fewer.sig[angle_output(k)][i] == 0.0f;
		CHECK(zero, "angles 2.. not 0 right after %s = 1", pendula_ports[count].symbol);
		rec_free(&more);
		rec_free(&fewer);
	}
	rec_free(&r);
	host_free(h);
}

/* time_ratio against a clock read from the motion: a slow y forcing, whose
 * pivot position pivot_y_ctl = Ay cos(2 pi fy t) gives the simulated time t
 * at the end of each block, while a fast x forcing (200 Hz at time_scale
 * 100: 20 kHz of simulated forcing per second of audio, with a pivot moving
 * 0.1 mm) asks for more steps than the work cap allows.  The simulated time
 * the outputs show must be the sum over the blocks of time_ratio x
 * time_scale x block length, and below time_scale x audio time (the cap
 * really slowed the motion: the test means something). */
static void test_time_ratio(void)
{
	const double ts = 100.0, ay = 1e-3, fy = 0.04;
	Host *h = host_new(cur_variant, cur_rate);
	host_set(h, P_TIME_SCALE, (float)ts);
	host_set(h, P_PIVOT_X_AMP, 1e-4f);
	host_set(h, P_PIVOT_X_FREQ, 200.0f);
	host_set(h, P_PIVOT_Y_AMP, (float)ay);
	host_set(h, P_PIVOT_Y_FREQ, (float)fy);
	Rec r = {0};
	Blocking b = {0, 4711, true, false};
	/* at most a quarter turn of the clock: 6.25 simulated s */
	host_render(h, &r, (uint32_t)(6.25 / ts * cur_rate), &b);
	double t_ratio = 0.0, worst = 0.0, slowest = 1.0;
	size_t prev = 0, out_of_range = 0;
	for (size_t blk = 0; blk < r.n_blocks; ++blk) {
		const size_t end = r.block_end[blk];
		const float ratio = r.ctl[P_CTL_TIME_RATIO][blk];
		out_of_range += !(ratio >= 0.0f && ratio <= 1.0f);
		t_ratio += (double)ratio * ts * (double)(end - prev) / cur_rate;
		prev = end;
		if (end == 0)
			continue;
		slowest = fmin(slowest, ratio);
		/* (the control outputs show the block's last frame: at most
		 * one frame's time_scale / rate before the block's end) */
		const double c = r.ctl[P_CTL_PIVOT_Y][blk] / ay;
		const double t_clock = acos(fmax(-1.0, fmin(1.0, c))) / (2.0 * PI * fy);
		if (t_ratio > 0.5) /* acos is well conditioned away from t = 0 */
			worst = fmax(worst, fabs(t_clock - t_ratio));
	}
	const double asked = ts * (double)r.n / cur_rate;
	printf("\n    simulated %.3f s of %.3f s asked, slowest block %.3f, worst error %.2e s",
	       t_ratio, asked, slowest, worst);
	CHECK(out_of_range == 0, "time_ratio outside [0, 1] in %zu blocks", out_of_range);
	CHECK(t_ratio < 0.9 * asked, "the work cap did not slow this setting (%.3f of %.3f s)",
	      t_ratio, asked);
	CHECK(worst < 1.2 * ts / cur_rate,
	      "time_ratio disagrees with the simulated clock by %.2e s", worst);
	rec_free(&r);
	host_free(h);
}

/* ---------------------------------------------------------------------- */
/* MIDI through                                                            */

typedef struct {
	int64_t frames;
	uint8_t bytes[3];
	uint32_t size;
} midi_ev;

static void test_midi_through(void)
{
	Host *h = host_new(cur_variant, cur_rate);
	const uint32_t n = 256;
	const midi_ev in[] = {
	    {0, {0x90, 60, 100}, 3}, {17, {0xB3, 7, 64}, 3},  {17, {0xC0, 5, 0}, 2},
	    {200, {0xE0, 0, 64}, 3}, {255, {0x80, 60, 0}, 3},
	};
	const size_t n_in = sizeof in / sizeof in[0];

	LV2_Atom_Forge forge;
	lv2_atom_forge_init(&forge, &lv2th_map);
	lv2_atom_forge_set_buffer(&forge, (uint8_t *)h->atom_in, sizeof h->atom_in);
	LV2_Atom_Forge_Frame seq_frame, obj_frame;
	lv2_atom_forge_sequence_head(&forge, &seq_frame, 0);
	for (size_t i = 0; i < n_in; ++i) {
		if (i == 1) {
			/* a time:Position between MIDI events: not MIDI, not passed on */
			lv2_atom_forge_frame_time(&forge, 5);
			lv2_atom_forge_object(&forge, &obj_frame, 0,
			                      lv2th_map_uri(NULL, LV2_TIME__Position));
			lv2_atom_forge_key(&forge, lv2th_map_uri(NULL, LV2_TIME__beatsPerMinute));
			lv2_atom_forge_float(&forge, 120.0f);
			lv2_atom_forge_key(&forge, lv2th_map_uri(NULL, LV2_TIME__speed));
			lv2_atom_forge_float(&forge, 1.0f);
			lv2_atom_forge_pop(&forge, &obj_frame);
		}
		lv2_atom_forge_frame_time(&forge, in[i].frames);
		lv2_atom_forge_atom(&forge, in[i].size, urid_midi);
		lv2_atom_forge_write(&forge, in[i].bytes, in[i].size);
	}
	lv2_atom_forge_pop(&forge, &seq_frame);
	h->keep_input = true;

	host_render(h, NULL, n, NULL);

	const LV2_Atom_Sequence *out = (const LV2_Atom_Sequence *)h->atom_out;
	CHECK(out->atom.type == urid_sequence, "MIDI output is not an atom:Sequence (type %u)",
	      out->atom.type);
	CHECK(out->atom.size >= sizeof(LV2_Atom_Sequence_Body) &&
	          out->atom.size <= ATOM_CAPACITY - sizeof(LV2_Atom),
	      "MIDI output size %u", out->atom.size);
	size_t matched = 0, non_midi = 0, events = 0;
	int64_t last_frame = -1;
	bool ordered = true;
	if (out->atom.type == urid_sequence) {
		LV2_ATOM_SEQUENCE_FOREACH(out, ev)
		{
			++events;
			if (ev->time.frames < last_frame || ev->time.frames >= n)
				ordered = false;
			last_frame = ev->time.frames;
			if (ev->body.type != urid_midi) {
				++non_midi;
				continue;
			}
			const uint8_t *bytes = (const uint8_t *)LV2_ATOM_BODY_CONST(&ev->body);
			if (matched < n_in && ev->time.frames == in[matched].frames &&
			    ev->body.size == in[matched].size &&
			    !memcmp(bytes, in[matched].bytes, in[matched].size))
				++matched;
		}
	}
	printf("\n    %zu events out, %zu of %zu MIDI inputs found in order", events, matched,
	       n_in);
	CHECK(matched == n_in, "only %zu of %zu input MIDI events came out unchanged", matched,
	      n_in);
	CHECK(non_midi == 0, "%zu non-MIDI events on the MIDI output", non_midi);
	CHECK(ordered, "MIDI output events out of order or outside the block");

	/* next block: empty input, a valid (possibly empty) sequence out */
	h->keep_input = false;
	host_render(h, NULL, 64, NULL);
	CHECK(out->atom.type == urid_sequence && out->atom.size >= sizeof(LV2_Atom_Sequence_Body),
	      "MIDI output of an empty block is not a sequence");
	/* and a 0-frame block */
	host_render(h, NULL, 0, NULL);
	CHECK(out->atom.type == urid_sequence, "MIDI output of a 0-frame block is not a sequence");
	host_free(h);
}

/* ---------------------------------------------------------------------- */
/* MIDI output under other wirings of the signal outputs                   */

typedef struct {
	size_t n, cap;
	midi_ev *ev;    /* frames absolute */
	size_t outside; /* events not within their run()'s frames [0, n) */
} midi_log;

/* Appends the events of the MIDI output after a run() of n frames whose
 * first frame is frame `done` of the render. */
static void log_midi_out(const Host *h, midi_log *log, uint32_t done, uint32_t n)
{
	const LV2_Atom_Sequence *out = (const LV2_Atom_Sequence *)h->atom_out;
	if (out->atom.type != urid_sequence)
		return;
	LV2_ATOM_SEQUENCE_FOREACH(out, ev)
	{
		if (log->n == log->cap) {
			log->cap = log->cap ? 2 * log->cap : 4096;
			log->ev = lv2th_realloc(log->ev, log->cap * sizeof(midi_ev));
		}
		midi_ev *m = &log->ev[log->n++];
		memset(m, 0, sizeof(*m));
		log->outside += ev->time.frames < 0 || ev->time.frames >= (int64_t)n;
		m->frames = (int64_t)done + ev->time.frames;
		m->size = ev->body.size;
		memcpy(m->bytes, LV2_ATOM_BODY_CONST(&ev->body),
		       ev->body.size < 3 ? ev->body.size : 3);
	}
}

/* Runs `frames` frames in random blocks (0-frame ones too), changing the
 * controls at fixed frames, and logs every event of the MIDI output. */
static void render_midi(Host *h, uint32_t frames, midi_log *log)
{
	Blocking b = {0, 8086, true, false};
	uint32_t done = 0;
	bool changed = false;
	while (done < frames) {
		const uint32_t n = next_block(&b, frames - done);
		if (!changed && done >= frames / 2) {
			host_set(h, P_SIGMA1, 2.0f);
			host_set(h, P_PIVOT_X_AMP, 0.2f);
			host_set(h, P_PIVOT_X_FREQ, 4.0f);
			changed = true;
		}
		host_prepare_atoms(h);
		lilv_instance_run(h->inst, n);
		log_midi_out(h, log, done, n);
		done += n;
	}
}

static Host *host_all_cc(bool shared, bool null_signals)
{
	Host *h = host_new_ex(cur_variant, cur_rate, null_signals, false);
	h->shared_signals = shared; /* connected again below */
	int cc = 20;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (h->has[id] && pendula_ports[id].kind == PK_CONTROL_IN &&
		    pendula_ports[id].related != P_NONE)
			h->control[id] = (float)cc++; /* every output sent, on its own CC */
	h->control[P_CC_14BIT] = 1.0f;
	host_connect(h);
	return h;
}

/* The MIDI output (control changes and events alike) is the same event for
 * event whether the signal outputs have their own buffers, all share one
 * buffer, or (CV outputs, connectionOptional) are not connected. */
static void test_midi_wiring(void)
{
	const uint32_t len = seconds(opt.quick ? 0.2 : 1.0);
	midi_log ref = {0}, shared = {0}, null_log = {0};
	Host *h = host_all_cc(false, false);
	render_midi(h, len, &ref);
	host_free(h);
	h = host_all_cc(true, false);
	render_midi(h, len, &shared);
	host_free(h);
	printf("\n    %zu MIDI events with separate buffers, %zu with one shared buffer", ref.n,
	       shared.n);
	CHECK(ref.n > 100, "only %zu MIDI events", ref.n);
	CHECK(ref.outside == 0 && shared.outside == 0, "%zu, %zu MIDI events outside their block",
	      ref.outside, shared.outside);
	size_t i = 0;
	while (i < ref.n && i < shared.n && !memcmp(&ref.ev[i], &shared.ev[i], sizeof(midi_ev)))
		++i;
	CHECK(i == ref.n && i == shared.n,
	      "shared signal buffer: MIDI differs from event %zu on (%zu vs %zu events)", i, ref.n,
	      shared.n);
	if (pendula_variant_is_cv(cur_variant)) {
		h = host_all_cc(false, true);
		render_midi(h, len, &null_log);
		host_free(h);
		printf(", %zu with NULL CV outputs", null_log.n);
		i = 0;
		while (i < ref.n && i < null_log.n &&
		       !memcmp(&ref.ev[i], &null_log.ev[i], sizeof(midi_ev)))
			++i;
		CHECK(i == ref.n && i == null_log.n,
		      "NULL CV outputs: MIDI differs from event %zu on (%zu vs %zu events)", i,
		      ref.n, null_log.n);
	}
	free(ref.ev);
	free(shared.ev);
	free(null_log.ev);
}

/* ---------------------------------------------------------------------- */
/* Events: flips and swings as pulses and as notes                         */

/* Renders with the chaos knob at 1.2 and flip / swing notes on, in blocks
 * (random: block 0; a block also ends at frame split if it is not 0),
 * logging the MIDI output and recording the signals. */
static void render_events(Host *h, uint32_t frames, uint32_t block, uint32_t split, midi_log *log,
                          Rec *rec)
{
	host_set(h, P_ENERGY_TARGET, 1.2f);
	host_set(h, P_ENERGY_RATE, 2.0f);
	host_set(h, P_NOTE_FLIP, 60.0f);
	host_set(h, P_NOTE_SWING, 72.0f);
	host_set(h, P_NOTE_LENGTH, 30.0f);
	Blocking b = {block, 777, block == 0, false};
	uint32_t done = 0;
	rec_reserve(rec, h->v, frames);
	while (done < frames) {
		uint32_t n = next_block(&b, frames - done);
		if (done < split && n > split - done)
			n = split - done;
		host_prepare_atoms(h);
		lilv_instance_run(h->inst, n);
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
			if (rec->sig[id])
				memcpy(rec->sig[id] + rec->n, h->buf[id], n * sizeof(float));
		rec->n += n;
		log_midi_out(h, log, done, n);
		done += n;
	}
}

/* Every flip played as a note: its note-on lies on a frame of a flips
 * pulse, and there are as many of each (but for pulses of the same sign
 * closer than 1 ms, which merge); every note-on has its
 * note-off (a note played again ends first); the MIDI and the pulses are
 * the same for any block split. */
static void test_events(void)
{
	const uint32_t len = seconds(opt.quick ? 3.0 : 20.0);
	Host *h = host_new(cur_variant, cur_rate);
	midi_log log = {0}, log2 = {0}, log3 = {0};
	Rec rec = {0}, rec2 = {0}, rec3 = {0};
	render_events(h, len, 0, 0, &log, &rec);
	host_free(h);
	h = host_new(cur_variant, cur_rate);
	render_events(h, len, 256, 0, &log2, &rec2);
	host_free(h);
	/* once more, a block ending where the first note ends: its note-off is
	 * due at the first frame after that block */
	uint32_t split = 0;
	for (size_t i = 0; i < log.n && !split; ++i)
		if (log.ev[i].size == 3 && (log.ev[i].bytes[0] & 0xf0) == 0x90)
			split =
			    (uint32_t)log.ev[i].frames + (uint32_t)floor(0.030 * cur_rate + 0.5);
	h = host_new(cur_variant, cur_rate);
	render_events(h, len, 256, split, &log3, &rec3);
	host_free(h);

	const float *flips = rec.sig[P_OUT_FLIPS], *swings = rec.sig[P_OUT_SWINGS];
	long onsets[2] = {0, 0}, ons[2] = {0, 0}, unmatched = 0, unpaired = 0;
	int sounding[128] = {0};
	for (size_t i = 0; i < log.n; ++i) {
		const midi_ev *m = &log.ev[i];
		const int status = m->bytes[0] & 0xf0, note = m->bytes[1];
		if (m->size != 3 || (status != 0x90 && status != 0x80))
			continue;
		if (status == 0x80) {
			unpaired += !sounding[note];
			sounding[note] = 0;
			continue;
		}
		unpaired += sounding[note]; /* a note-on while it sounds */
		sounding[note] = 1;
		const int kind = note >= 72 ? 1 : 0;
		ons[kind]++;
		const float *pulse = kind ? swings : flips;
		const int64_t f = m->frames;
		/* (a pulse still on from an event of another body less than 1 ms
		 * before, with the same sign, just goes on) */
		unmatched += pulse[f] == 0.0f;
	}
	for (int kind = 0; kind < 2; ++kind) {
		const float *pulse = kind ? swings : flips;
		for (size_t i = 0; i < rec.n; ++i)
			onsets[kind] += pulse[i] != 0.0f && (i == 0 || pulse[i - 1] == 0.0f ||
			                                     pulse[i - 1] != pulse[i]);
	}
	printf("\n    %ld flips, %ld swings played; pulses: %ld, %ld", ons[0], ons[1], onsets[0],
	       onsets[1]);
	CHECK(ons[0] > 0 && ons[1] > 0, "no flip or no swing in %u frames", len);
	CHECK(unmatched == 0, "%ld note-ons off their pulse", unmatched);
	CHECK(unpaired == 0, "%ld note-ons or note-offs without their pair", unpaired);
	/* (a note-off due at the first frame after a block is the next
	 * block's, never at frame n of a run() of n frames) */
	CHECK(log.outside == 0 && log2.outside == 0 && log3.outside == 0,
	      "%zu, %zu, %zu MIDI events outside their block", log.outside, log2.outside,
	      log3.outside);
	/* pulses of the same sign closer than 1 ms merge (rare) */
	CHECK(labs(onsets[0] - ons[0]) <= ons[0] / 50 && labs(onsets[1] - ons[1]) <= ons[1] / 50,
	      "pulse onsets %ld, %ld vs notes %ld, %ld", onsets[0], onsets[1], ons[0], ons[1]);
	size_t i = 0;
	while (i < log.n && i < log2.n && !memcmp(&log.ev[i], &log2.ev[i], sizeof(midi_ev)))
		++i;
	CHECK(i == log.n && i == log2.n, "the MIDI differs with the block split from event %zu", i);
	i = 0;
	while (i < log.n && i < log3.n && !memcmp(&log.ev[i], &log3.ev[i], sizeof(midi_ev)))
		++i;
	CHECK(split > 0 && i == log.n && i == log3.n,
	      "a block ending where a note ends (frame %u): the MIDI differs from event %zu", split,
	      i);
	CHECK(same_signals(&rec, &rec2, 0, 0, len, "events"), "the outputs differ with the blocks");
	free(log.ev);
	free(log2.ev);
	free(log3.ev);
	rec_free(&rec);
	rec_free(&rec2);
	rec_free(&rec3);
}

/* ---------------------------------------------------------------------- */
/* Suites                                                                  */

static const double all_rates[] = {44100.0, 48000.0, 96000.0};

typedef struct {
	pendula_variant v;
	double rate;
	char name[64];
} suite_info;

static suite_info suites[PENDULA_N_VARIANTS * 4];
static size_t n_suites;
static size_t next_suite;

/* CUnit suite init functions take no argument: suites are registered and
 * run in order, so each init takes the next entry. */
static int suite_init(void)
{
	const suite_info *s = &suites[next_suite++];
	cur_variant = s->v;
	cur_rate = s->rate;
	return 0;
}

static CU_TestInfo ttl_tests[] = {
    {"ports", test_ports},
    CU_TEST_INFO_NULL,
};

/* The chaos knob at 1.2 and flip / swing notes on, notes `length` ms long. */
static void notes_on_chaos(Host *h, float length)
{
	host_set(h, P_ENERGY_TARGET, 1.2f);
	host_set(h, P_ENERGY_RATE, 2.0f);
	host_set(h, P_NOTE_FLIP, 60.0f);
	host_set(h, P_NOTE_SWING, 72.0f);
	host_set(h, P_NOTE_LENGTH, length);
}

/* The notes of a MIDI log, as a receiver plays them. */
typedef struct {
	long ons[2];     /* note-ons of the events before / from `first` */
	long offs;       /* note-offs */
	long orphans;    /* note-offs without a sounding note */
	long retriggers; /* note-ons of a note that sounds (on its channel) */
	long stuck;      /* notes left sounding at the end */
} note_tally;

static note_tally tally_notes(const midi_log *log, size_t first)
{
	note_tally t = {{0, 0}, 0, 0, 0, 0};
	static int sounding[16][128];
	memset(sounding, 0, sizeof(sounding));
	for (size_t i = 0; i < log->n; ++i) {
		const midi_ev *m = &log->ev[i];
		const int status = m->bytes[0] & 0xf0, ch = m->bytes[0] & 15, note = m->bytes[1];
		if (m->size != 3 || (status != 0x90 && status != 0x80))
			continue;
		if (status == 0x80) {
			t.offs++;
			t.orphans += !sounding[ch][note];
			sounding[ch][note] = 0;
		} else {
			t.retriggers += sounding[ch][note];
			sounding[ch][note] = 1;
			t.ons[i >= first]++;
		}
	}
	for (int ch = 0; ch < 16; ++ch)
		for (int note = 0; note < 128; ++note)
			t.stuck += sounding[ch][note];
	return t;
}

/* midi_channel changed while notes sound (a note length of 2 s, so that
 * some always do): each note-off goes out on its note-on's channel, and
 * a freeze at the end ends every note; no note-on is left without its
 * note-off, and no note-off comes without its note-on. */
static void test_notes_channel_change(void)
{
	const uint32_t len = seconds(opt.quick ? 2.0 : 6.0) / 256 * 256;
	Host *h = host_new(cur_variant, cur_rate);
	midi_log log = {0};
	notes_on_chaos(h, 2000.0f);
	size_t first = 0;
	uint32_t done = 0;
	while (done < 2 * len + 256) {
		if (done == len) { /* the second half on channel 2 */
			host_set(h, P_MIDI_CHANNEL, 2.0f);
			first = log.n;
		}
		if (done == 2 * len) /* a freeze ends the notes */
			host_set(h, P_FREEZE, 1.0f);
		host_prepare_atoms(h);
		lilv_instance_run(h->inst, 256);
		log_midi_out(h, &log, done, 256);
		done += 256;
	}
	host_free(h);
	const note_tally t = tally_notes(&log, first);
	printf(
	    "\n    %ld notes on channel 1, %ld on channel 2; left sounding %ld, note-offs without "
	    "their note-on %ld",
	    t.ons[0], t.ons[1], t.stuck, t.orphans);
	CHECK(t.ons[0] > 0 && t.ons[1] > 0, "notes %ld, %ld", t.ons[0], t.ons[1]);
	CHECK(t.stuck == 0 && t.orphans == 0 && t.retriggers == 0,
	      "%ld notes stuck, %ld note-offs without a note-on, %ld note-ons while sounding",
	      t.stuck, t.orphans, t.retriggers);
	CHECK(log.outside == 0, "%zu MIDI events outside their block", log.outside);
	free(log.ev);
}

/* Input MIDI for a block: k program changes (channel 6) at spread frames. */
static void input_program_changes(Host *h, uint32_t k, uint32_t n)
{
	LV2_Atom_Forge forge;
	lv2_atom_forge_init(&forge, &lv2th_map);
	lv2_atom_forge_set_buffer(&forge, (uint8_t *)h->atom_in, sizeof h->atom_in);
	LV2_Atom_Forge_Frame seq_frame;
	lv2_atom_forge_sequence_head(&forge, &seq_frame, 0);
	for (uint32_t i = 0; i < k; ++i) {
		const uint8_t pc[2] = {0xC5, (uint8_t)(i & 127)};
		lv2_atom_forge_frame_time(&forge, (int64_t)(i * n / (k + 1)));
		lv2_atom_forge_atom(&forge, 2, urid_midi);
		lv2_atom_forge_write(&forge, pc, 2);
	}
	lv2_atom_forge_pop(&forge, &seq_frame);
	h->keep_input = true;
}

/* A MIDI output with room for a few events per block, under the traffic of
 * every output sent as a 14-bit CC, flips and swings played as short notes
 * and input MIDI taking a random part of the room (all of it at times),
 * then a freeze: what does not fit is dropped, but the input all comes
 * through, no note is left sounding, no note-off comes without its note-on
 * and no note-on comes for a note that sounds (a note-off that finds no
 * room goes out later; the note's next note-on waits for it). */
static void notes_small_output(uint32_t room, long *ons, long *dropped)
{
	const uint32_t len = seconds(opt.quick ? 2.0 : 6.0) / 256 * 256;
	Host *h = host_all_cc(false, false);
	h->out_capacity = (uint32_t)(sizeof(LV2_Atom_Sequence) + room * 24);
	midi_log log = {0};
	notes_on_chaos(h, 5.0f);
	host_set(h, P_TIME_SCALE, 4.0f); /* more notes */
	uint32_t done = 0, seed = 4711;
	size_t full = 0;
	long pcs_in = 0, pcs_out = 0;
	while (done < len + 8 * 256) {
		if (done == len) /* a freeze ends the notes */
			host_set(h, P_FREEZE, 1.0f);
		seed = seed * 1664525u + 1013904223u;
		const uint32_t k = (seed >> 16) % 3 ? 0 : (seed >> 20) % (room + 1);
		input_program_changes(h, k, 256);
		pcs_in += k;
		host_prepare_atoms(h);
		lilv_instance_run(h->inst, 256);
		const size_t before = log.n;
		log_midi_out(h, &log, done, 256);
		full += log.n - before == room;
		done += 256;
	}
	host_free(h);
	long ccs = 0;
	for (size_t i = 0; i < log.n; ++i) {
		const midi_ev *m = &log.ev[i];
		ccs += m->size == 3 && (m->bytes[0] & 0xf0) == 0xB0;
		pcs_out += m->size == 2 && m->bytes[0] == 0xC5;
	}
	const note_tally t = tally_notes(&log, log.n);
	*ons = t.ons[0];
	*dropped = (long)full;
	printf("\n    room for %u events: %zu blocks full; %ld of %ld input events, %ld note-ons, "
	       "%ld note-offs, %ld CCs; left sounding %ld, note-offs without their note-on %ld, "
	       "note-ons while sounding %ld",
	       room, full, pcs_out, pcs_in, *ons, t.offs, ccs, t.stuck, t.orphans, t.retriggers);
	CHECK(pcs_out == pcs_in, "room %u: %ld of %ld input events came through", room, pcs_out,
	      pcs_in);
	CHECK(t.stuck == 0 && t.orphans == 0 && t.retriggers == 0,
	      "room %u: %ld notes stuck, %ld note-offs without a note-on, %ld note-ons while "
	      "sounding",
	      room, t.stuck, t.orphans, t.retriggers);
	CHECK(log.outside == 0, "%zu MIDI events outside their block", log.outside);
	free(log.ev);
}

static void test_notes_small_output(void)
{
	static const uint32_t rooms[] = {4, 8, 16, 32};
	long ons_total = 0;
	for (size_t i = 0; i < sizeof(rooms) / sizeof(rooms[0]); ++i) {
		long ons, full;
		notes_small_output(rooms[i], &ons, &full);
		ons_total += ons;
		CHECK(full > 100, "room %u: only %ld blocks full", rooms[i], full);
	}
	CHECK(ons_total > 0, "no note played");
}

static CU_TestInfo rate_tests[] = {
    {"first_frame", test_first_frame},
    {"small_oscillation", test_small_oscillation},
    {"energy_is_physical", test_energy_is_physical},
    {"energy_conserved", test_energy_conserved},
    {"energy_damped", test_energy_damped},
    {"block_sizes", test_block_sizes},
    {"reset", test_reset},
    {"freeze", test_freeze},
    {"events", test_events},
    {"notes_channel_change", test_notes_channel_change},
    {"notes_small_output", test_notes_small_output},
    {"whole_numbers", test_whole_numbers},
    {"bodies_change", test_bodies_change},
    {"null_outputs", test_null_outputs},
    {"control_outputs", test_control_outputs},
    {"time_ratio", test_time_ratio},
    {"midi_through", test_midi_through},
    {"midi_wiring", test_midi_wiring},
    {"bad_input", test_bad_input},
    CU_TEST_INFO_NULL,
};

/* --quick: rate_tests without the long runs that add no code path for
 * valgrind to check (filled in by main()). */
static CU_TestInfo quick_rate_tests[sizeof rate_tests / sizeof rate_tests[0]];

static bool is_long_run(CU_TestFunc test)
{
	return test == test_small_oscillation || test == test_energy_is_physical;
}

/* The CUnit table of suites[], in the same order, and its end mark. */
static CU_SuiteInfo cu_suites[PENDULA_N_VARIANTS * 4 + 1];

static void add_suite(const suite_info *s, CU_TestInfo *tests)
{
	cu_suites[s - suites] = (CU_SuiteInfo){s->name, suite_init, NULL, NULL, NULL, tests};
}

static int usage(const char *msg)
{
	fprintf(stderr,
	        "test_host: %s\nusage: test_host BUNDLE_DIR [--plugin NAME] [--rate HZ] "
	        "[--quick]\n",
	        msg);
	return 2;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; ++i) {
		if (!strcmp(argv[i], "--quick")) {
			opt.quick = true;
		} else if (!strcmp(argv[i], "--plugin") && i + 1 < argc) {
			const char *name = argv[++i];
			opt.variant = -2;
			for (int v = 0; v < PENDULA_N_VARIANTS; ++v)
				if (!strcmp(name, pendula_variant_names[v]))
					opt.variant = v;
			if (opt.variant == -2)
				return usage("--plugin: unknown plugin name");
		} else if (!strcmp(argv[i], "--rate") && i + 1 < argc) {
			char *end;
			opt.rate = strtod(argv[++i], &end);
			if (*end || !(opt.rate >= 1000.0 && opt.rate <= 768000.0))
				return usage("--rate: not a sample rate in 1000..768000");
		} else if (argv[i][0] != '-' && !opt.bundle) {
			opt.bundle = argv[i];
		} else {
			return usage("bad argument");
		}
	}
	if (!opt.bundle)
		return usage("missing BUNDLE_DIR");

	urid_sequence = lv2th_map_uri(NULL, LV2_ATOM__Sequence);
	urid_midi = lv2th_map_uri(NULL, LV2_MIDI__MidiEvent);

	/* Load our bundle only, by its path: the test does not depend on what
	 * is installed. */
	if (!lv2th_world_load("test_host", opt.bundle, &world, plugins)) {
		lv2th_free_uris();
		return 1;
	}

	size_t n_quick = 0;
	for (const CU_TestInfo *t = rate_tests; t->pName; ++t)
		if (!is_long_run(t->pTestFunc))
			quick_rate_tests[n_quick++] = *t;
	for (int v = 0; v < PENDULA_N_VARIANTS; ++v) {
		if (opt.variant >= 0 && opt.variant != v)
			continue;
		suite_info *s = &suites[n_suites++];
		s->v = (pendula_variant)v;
		s->rate = 48000.0;
		snprintf(s->name, sizeof s->name, "%s ttl", pendula_variant_names[v]);
		add_suite(s, ttl_tests);
		for (size_t r = 0; r < sizeof all_rates / sizeof all_rates[0]; ++r) {
			const double rate = opt.rate > 0.0 ? opt.rate : all_rates[r];
			if (opt.rate > 0.0 && r > 0)
				break;
			if (opt.quick && opt.rate <= 0.0 && rate != 48000.0)
				continue;
			s = &suites[n_suites++];
			s->v = (pendula_variant)v;
			s->rate = rate;
			snprintf(s->name, sizeof s->name, "%s @%g Hz", pendula_variant_names[v],
			         rate);
			add_suite(s, opt.quick ? quick_rate_tests : rate_tests);
		}
	}
	const int status = test_cunit_main("test_host", cu_suites);
	lilv_world_free(world);
	lv2th_free_uris();
	return status;
}
