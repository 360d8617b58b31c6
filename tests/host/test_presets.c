/* SPDX-License-Identifier: ISC */
/*
 * The preset library (presets/) through lilv, as jalv loads a preset:
 * lilv_plugin_get_related(pset:Preset) lists them from the bundle manifest,
 * lilv_world_load_resource() reads each file, lilv_state_new_from_world()
 * and lilv_state_restore() with a set-port-value callback set the ports.
 * Then each preset is rendered at 48 kHz and checked against the behaviour its
 * description claims; the thresholds are derived from the preset's own
 * parameters, as read back from the state:
 *
 *   library        >= 10 presets; label, one-line comment, appliesTo both
 *                  variants of one model; known symbols, values in range;
 *                  every preset has a check here and every check a preset
 *   gentle-sway    regular: energy below the least flip energy
 *                  min(m2 l2, (m1+m2) l1) / ((m1+m2) l1 + m2 l2), |theta| < pi,
 *                  and a 1e-4 degree change of theta1_init stays < 1e-3 rad
 *   edge-of-chaos  the same energy bound, yet the 1e-4 degree change grows
 *                  beyond 0.3 rad (chaos without flips)
 *   full-chaos     both arms flip (>= 3 times each in 60 s), diverges
 *   slow-envelope  energy never rises, falls by > 1000 in 20 s, and its tail
 *                  decays at the small-amplitude rate lambda1 / I_O1
 *   kapitza        within 0.5 rad of upright for 60 s; the parameters are above
 *                  Delta_y^2 Omega_y^2 > 2 g I_O1 / (m1 c1), and at 0.6 times the
 *                  threshold amplitude the rod falls
 *   parametric     Omega_y = 2 omega0 from the parameters; a 2 degree swing
 *                  grows >= 5x in 10 s, and does not when detuned by 30 %
 *   chaos-man-four 4 bodies, all four move over > 1.5 rad, flips happen
 *   tempo-drive    with time:Position, pivot_x_ctl follows the half-note phase
 *                  at 120 and then 100 bpm, and the motion settles into a
 *                  swing that repeats every half note
 *   oscillator     time_scale 100, most of tip_x's variance above 20 Hz,
 *                  arm 1 flips > 20 times per second
 *   windmill       turns one way only, at a rate below sigma1 / (2 pi lambda1)
 *                  and above 0.7 of it
 *   conical-orbit  its spin is the steady circle's, sqrt(g / (l cos alpha)); the
 *                  bob stays at alpha (y1 = -cos alpha) and x1 turns at spin_init
 *   chaotic-3d     leaves the plane (|z1| > 0.5), and a 1e-4 degree change of
 *                  theta1_init moves the tip by > 0.3 of the length within 60 s
 *   ellipsoid-ex.  the note's start point on the ellipsoid; energy constant, the
 *                  bead never above its start, back above the centre >= 5 times
 *   shaken-floor   with the wave, the energy over 20..30 s reaches 10 times
 *                  what drag alone leaves (run without the wave), which decays
 *                  at least as fast as exp(-lambda t / m) predicts (x 3)
 *   cv variants    the -cv variant of each preset's model gives bit-identical
 *                  outputs
 *   chaos-knob     energy within 2 % of 0.25 over 10..40 s despite damping,
 *                  below the flip level: no flips, swings
 *   flip-sequencer energy within 2 % of 1.2; more than 20 flips and 20 swings
 *                  in 30 s
 *   freeze-and-release  frozen: the outputs stand still; released: moves,
 *                  energy within 2 % of 0.9
 *   chain-knob, spherical-swings, bead-knob  energy within 2 % of the target;
 *                  the continuous outputs within -1..1, moving, no step above
 *                  0.01 between frames (spherical: more than 10 swings)
 *   slow-envelope tail  no subnormal or negative output up to 215 s
 *   at run time    every claim again, with the preset restored through lilv
 *                  into an instance that has been running for 1.3 s (as
 *                  Ardour loads a preset): a change of theta*_init restarts
 *                  the motion from the preset's own start
 *
 * usage: test_presets BUNDLE_DIR
 */
#include "cunit_main.h"
#include "daw_host.h"

#include <lv2/presets/presets.h>

#define RATE      48000.0
#define BLOCK     1024u
#define G_DEFAULT 9.81

static const char *preset_base = "https://pendula.invalid/plugins/pendula/presets#";

/* ---------------------------------------------------------------------- */
/* The library                                                             */

#define MAX_PRESETS 64

typedef struct {
	LilvNode *uri;
	char slug[128];
	char label[256];
	char comment[512];
	bool applies[PENDULA_N_VARIANTS];
} preset_info;

static preset_info presets[MAX_PRESETS];
static size_t n_presets;

static char *node_string(const LilvNode *subject, const char *predicate_uri)
{
	LilvNode *pred = lilv_new_uri(daw_world, predicate_uri);
	LilvNode *value = lilv_world_get(daw_world, subject, pred, NULL);
	char *s = NULL;
	if (value && lilv_node_is_string(value))
		s = lv2th_strdup(lilv_node_as_string(value));
	lilv_node_free(value);
	lilv_node_free(pred);
	return s;
}

static void collect_presets(void)
{
	LilvNode *pset = lilv_new_uri(daw_world, LV2_PRESETS__Preset);
	for (int v = 0; v < PENDULA_N_VARIANTS; ++v) {
		LilvNodes *related = lilv_plugin_get_related(daw_plugins[v], pset);
		LILV_FOREACH(nodes, i, related)
		{
			const LilvNode *node = lilv_nodes_get(related, i);
			size_t k = 0;
			while (k < n_presets && !lilv_node_equals(presets[k].uri, node))
				++k;
			if (k == n_presets) {
				if (n_presets == MAX_PRESETS)
					break;
				preset_info *p = &presets[n_presets++];
				p->uri = lilv_node_duplicate(node);
				const char *uri = lilv_node_as_uri(node);
				const size_t base_len = strlen(preset_base);
				snprintf(p->slug, sizeof p->slug, "%s",
				         strncmp(uri, preset_base, base_len) ? uri
				                                             : uri + base_len);
				/* as jalv does: the preset's own file */
				lilv_world_load_resource(daw_world, node);
				char *label = node_string(node, LILV_NS_RDFS "label");
				char *comment = node_string(node, LILV_NS_RDFS "comment");
				snprintf(p->label, sizeof p->label, "%s", label ? label : "");
				snprintf(p->comment, sizeof p->comment, "%s",
				         comment ? comment : "");
				free(label);
				free(comment);
			}
			presets[k].applies[v] = true;
		}
		lilv_nodes_free(related);
	}
	lilv_node_free(pset);
}

static const preset_info *find_preset(const char *slug)
{
	for (size_t i = 0; i < n_presets; ++i)
		if (!strcmp(presets[i].slug, slug))
			return &presets[i];
	return NULL;
}

/* ---------------------------------------------------------------------- */
/* Loading a preset into a host                                            */

typedef struct {
	DawHost *h;
	unsigned n_values, unknown, out_of_range, bad_type;
	char first_problem[200];
	unsigned char set[PENDULA_N_PORT_IDS]; /* the ports the preset sets */
} restore_ctx;

static LV2_URID urid_float, urid_double, urid_int, urid_long, urid_bool;

/* The set-port-value callback of lilv_state_restore (what jalv does). */
static void set_port_value(const char *symbol, void *user_data, const void *value, uint32_t size,
                           uint32_t type)
{
	restore_ctx *ctx = (restore_ctx *)user_data;
	double x;
	if (type == urid_float && size == sizeof(float))
		x = *(const float *)value;
	else if (type == urid_double && size == sizeof(double))
		x = *(const double *)value;
	else if (type == urid_int && size == sizeof(int32_t))
		x = *(const int32_t *)value;
	else if (type == urid_long && size == sizeof(int64_t))
		x = (double)*(const int64_t *)value;
	else if (type == urid_bool && size == sizeof(int32_t))
		x = *(const int32_t *)value ? 1.0 : 0.0;
	else {
		ctx->bad_type++;
		snprintf(ctx->first_problem, sizeof ctx->first_problem, "%s: value type %u", symbol,
		         type);
		return;
	}
	const int id = test_port_by_symbol(ctx->h->v, symbol);
	if (id < 0 || pendula_ports[id].kind != PK_CONTROL_IN) {
		ctx->unknown++;
		snprintf(ctx->first_problem, sizeof ctx->first_problem, "unknown port %s", symbol);
		return;
	}
	if (!(x >= pendula_ports[id].min && x <= pendula_ports[id].max)) {
		ctx->out_of_range++;
		snprintf(ctx->first_problem, sizeof ctx->first_problem, "%s = %g out of [%g, %g]",
		         symbol, x, (double)pendula_ports[id].min, (double)pendula_ports[id].max);
	}
	ctx->h->control[id] = (float)x;
	ctx->set[id] = 1;
	ctx->n_values++;
}

/* A host of variant v with the preset restored (not yet activated). */
static DawHost *host_with_preset(pendula_variant v, const preset_info *p, restore_ctx *ctx)
{
	DawHost *h = daw_host_new(v, RATE, false);
	memset(ctx, 0, sizeof(*ctx));
	ctx->h = h;
	LilvState *state = lilv_state_new_from_world(daw_world, &lv2th_map, p->uri);
	CHECK(state != NULL, "%s: lilv_state_new_from_world failed", p->slug);
	if (state) {
		lilv_state_restore(state, h->inst, set_port_value, ctx, 0, NULL);
		lilv_state_free(state);
	}
	return h;
}

/* Suite "claims at run time": each preset is loaded into an instance that
 * has been running for a while (as Ardour or Carla load a preset), instead
 * of before activate(). */
static bool at_run_time;

/* The preset restored into a running instance: activated with other
 * initial angles (no preset uses 45.5 degrees), run for 1.3 s in random
 * blocks, then the preset restored through lilv.  The frame counter of the
 * test host starts again at 0 there. */
static DawHost *host_running_with_preset(pendula_variant v, const preset_info *p, restore_ctx *ctx)
{
	DawHost *h = daw_host_new(v, RATE, false);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (h->has[id] && (pendula_ports[id].flags & PF_INITIAL))
			h->control[id] = 45.5f;
	daw_activate(h);
	uint32_t seed = 4711;
	daw_render(h, (int64_t)(1.3 * RATE) + 17, 0, &seed);
	memset(ctx, 0, sizeof(*ctx));
	ctx->h = h;
	LilvState *state = lilv_state_new_from_world(daw_world, &lv2th_map, p->uri);
	CHECK(state != NULL, "%s: lilv_state_new_from_world failed", p->slug);
	if (state) {
		lilv_state_restore(state, h->inst, set_port_value, ctx, 0, NULL);
		lilv_state_free(state);
	}
	h->frames = 0;
	return h;
}

/* The claims' hosts are activated through start(): at run time they are. */
static void start(DawHost *h)
{
	if (!at_run_time)
		daw_activate(h);
}

static DawHost *load(pendula_variant v, const char *slug)
{
	const preset_info *p = find_preset(slug);
	CHECK(p != NULL, "preset %s not in the bundle", slug);
	if (!p)
		return NULL;
	restore_ctx ctx;
	DawHost *h =
	    at_run_time ? host_running_with_preset(v, p, &ctx) : host_with_preset(v, p, &ctx);
	CHECK(ctx.n_values > 0 && !ctx.unknown && !ctx.bad_type,
	      "%s: %u values, %u unknown, %u of a bad type (%s)", slug, ctx.n_values, ctx.unknown,
	      ctx.bad_type, ctx.first_problem);
	/* A preset sets the whole motion: every physical setting and initial
	 * condition, the chaos knob and freeze, so that what it does does not
	 * depend on the preset loaded before it (a host sets only the ports a
	 * preset names). */
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		const unsigned motion = PF_SMOOTH | PF_INITIAL;
		if (!h->has[id] || pendula_ports[id].kind != PK_CONTROL_IN)
			continue;
		if ((pendula_ports[id].flags & motion) || id == P_FREEZE || id == P_ENERGY_TARGET ||
		    id == P_ENERGY_RATE)
			CHECK(ctx.set[id], "%s does not set %s", slug, pendula_ports[id].symbol);
	}
	return h;
}

/* load(), then activated (NULL if the preset did not load). */
static DawHost *load_activated(pendula_variant v, const char *slug)
{
	DawHost *h = load(v, slug);
	if (h)
		start(h);
	return h;
}

/* ---------------------------------------------------------------------- */
/* Streaming statistics of a run                                           */

typedef struct {
	int64_t frames;
	int n_theta;
	double min[6], max[6]; /* theta outputs, units of pi */
	int flips[6];          /* wrap jumps (|step| > 1 unit) */
	int flips_up[6];       /* +1 -> -1: positive rotation */
	float prev[6];
	double dev_upright[6]; /* max |wrap(pi theta_k - pi)|, rad */
	double e_first, e_min, e_max, e_last;
	double max_dev_upright; /* max |wrap(pi theta1 - pi)|, rad */
	bool finite;
} run_stats;

static const pendula_port_id theta_port[6] = {P_OUT_THETA1, P_OUT_THETA2, P_OUT_THETA3,
                                              P_OUT_THETA4, P_OUT_THETA5, P_OUT_THETA6};

/* Angle outputs of the host's plugin (theta1.. in the port table). */
static int n_angles(const DawHost *h)
{
	int n = 0;
	while (n < 6 && pendula_port_index(h->v, theta_port[n]) >= 0)
		++n;
	return n;
}

static void stats_init(run_stats *s, const DawHost *h)
{
	memset(s, 0, sizeof(*s));
	s->n_theta = n_angles(h);
	for (int k = 0; k < 6; ++k) {
		s->min[k] = 1e30;
		s->max[k] = -1e30;
	}
	s->e_min = 1e30;
	s->e_max = -1e30;
	s->finite = true;
}

static void stats_block(run_stats *s, const DawHost *h, uint32_t n)
{
	for (uint32_t i = 0; i < n; ++i) {
		const int64_t f = s->frames + i;
		for (int k = 0; k < s->n_theta; ++k) {
			const float x = h->buf[theta_port[k]][i];
			if (!isfinite(x))
				s->finite = false;
			if (x < s->min[k])
				s->min[k] = x;
			if (x > s->max[k])
				s->max[k] = x;
			if (f > 0 && fabsf(x - s->prev[k]) > 1.0f) {
				s->flips[k]++;
				if (s->prev[k] > 0.0f)
					s->flips_up[k]++;
			}
			s->prev[k] = x;
			const double dev_k = fabs(daw_wrap(DAW_PI * x - DAW_PI));
			if (dev_k > s->dev_upright[k])
				s->dev_upright[k] = dev_k;
		}
		const double e = h->buf[P_OUT_ENERGY][i];
		if (!isfinite(e))
			s->finite = false;
		if (f == 0)
			s->e_first = e;
		if (e < s->e_min)
			s->e_min = e;
		if (e > s->e_max)
			s->e_max = e;
		s->e_last = e;
		const double dev = fabs(daw_wrap(DAW_PI * h->buf[P_OUT_THETA1][i] - DAW_PI));
		if (dev > s->max_dev_upright)
			s->max_dev_upright = dev;
	}
	s->frames += n;
}

/* Runs h for `seconds`, gathering statistics from second `from` on (the
 * frames before are run but not counted). */
static void render_stats(DawHost *h, double seconds, double from, run_stats *s)
{
	stats_init(s, h);
	int64_t left = (int64_t)(seconds * RATE);
	int64_t skip = (int64_t)(from * RATE);
	while (left > 0) {
		uint32_t n = left < BLOCK ? (uint32_t)left : BLOCK;
		if (skip > 0 && (int64_t)n > skip)
			n = (uint32_t)skip;
		daw_run(h, n);
		if (skip > 0)
			skip -= n;
		else
			stats_block(s, h, n);
		left -= n;
	}
}

/* Largest angle distance sqrt(sum_k wrap(pi (a_k - b_k))^2) between two hosts
 * run in lockstep. */
static double divergence(DawHost *a, DawHost *b, double seconds)
{
	const int n_theta = n_angles(a);
	double worst = 0.0;
	int64_t left = (int64_t)(seconds * RATE);
	while (left > 0) {
		const uint32_t n = left < BLOCK ? (uint32_t)left : BLOCK;
		daw_run(a, n);
		daw_run(b, n);
		for (uint32_t i = 0; i < n; ++i) {
			double d2 = 0.0;
			for (int k = 0; k < n_theta; ++k) {
				const double d =
				    daw_wrap(DAW_PI * ((double)a->buf[theta_port[k]][i] -
				                       (double)b->buf[theta_port[k]][i]));
				d2 += d * d;
			}
			if (d2 > worst * worst)
				worst = sqrt(d2);
		}
		left -= n;
	}
	return worst;
}

/* Normalised energy that flipping an arm of the double pendulum needs at the
 * least: arm 2 upright with arm 1 down costs 2 m2 g l2, arm 1 upright with
 * arm 2 down 2 (m1 + m2) g l1, out of D = 2 g ((m1 + m2) l1 + m2 l2). */
static double double_flip_energy(const DawHost *h)
{
	const double m1 = h->control[P_M1], m2 = h->control[P_M2];
	const double l1 = h->control[P_L1], l2 = h->control[P_L2];
	const double den = (m1 + m2) * l1 + m2 * l2;
	const double arm2 = m2 * l2 / den, arm1 = (m1 + m2) * l1 / den;
	return arm2 < arm1 ? arm2 : arm1;
}

/* I_O1 of body 1 (parallel model). */
static double inertia_o1(const DawHost *h)
{
	return h->control[P_INERTIA1] + h->control[P_M1] * h->control[P_C1] * h->control[P_C1];
}

/* ---------------------------------------------------------------------- */
/* Claims                                                                  */

/* Two hosts: the preset, and the preset with theta1_init moved by 1e-4 deg. */
static double preset_divergence_on(pendula_variant v, const char *slug, double seconds)
{
	DawHost *a = load(v, slug);
	DawHost *b = load(v, slug);
	if (!a || !b) {
		daw_host_free(a);
		daw_host_free(b);
		return -1.0;
	}
	b->control[P_THETA1_INIT] += 1e-4f;
	start(a);
	start(b);
	const double d = divergence(a, b, seconds);
	daw_host_free(a);
	daw_host_free(b);
	return d;
}

static double preset_divergence(const char *slug, double seconds)
{
	return preset_divergence_on(PENDULA_VARIANT_DOUBLE, slug, seconds);
}

/* The preset on the double pendulum run for `seconds`: its statistics and
 * its flip energy; false if it did not load. */
static bool run_double_preset(const char *slug, double seconds, double *flip, run_stats *s)
{
	DawHost *h = load_activated(PENDULA_VARIANT_DOUBLE, slug);
	if (!h)
		return false;
	*flip = double_flip_energy(h);
	render_stats(h, seconds, 0.0, s);
	daw_host_free(h);
	return true;
}

static void check_gentle_sway(void)
{
	double flip;
	run_stats s;
	if (!run_double_preset("gentle-sway", 120.0, &flip, &s))
		return;
	printf("\n    flip energy %.4f; energy %.4f..%.4f; |theta| max %.3f / %.3f pi; flips %d/%d",
	       flip, s.e_min, s.e_max, fmax(-s.min[0], s.max[0]), fmax(-s.min[1], s.max[1]),
	       s.flips[0], s.flips[1]);
	CHECK(s.finite, "non-finite output");
	CHECK(s.e_max < flip, "energy %.4f reaches the flip energy %.4f", s.e_max, flip);
	CHECK(s.flips[0] == 0 && s.flips[1] == 0, "an arm flipped (%d, %d)", s.flips[0],
	      s.flips[1]);
	for (int k = 0; k < 2; ++k)
		CHECK(s.max[k] < 0.9 && s.min[k] > -0.9, "|theta%d| reached %.3f pi", k + 1,
		      fmax(-s.min[k], s.max[k]));
	const double d = preset_divergence("gentle-sway", 90.0);
	printf("; 1e-4 deg apart -> %.3g rad after 90 s", d);
	CHECK(d >= 0.0 && d < 1e-3, "regular motion diverged to %.3g rad", d);
}

static void check_edge_of_chaos(void)
{
	double flip;
	run_stats s;
	if (!run_double_preset("edge-of-chaos", 120.0, &flip, &s))
		return;
	printf("\n    flip energy %.4f; energy %.4f..%.4f; flips %d/%d", flip, s.e_min, s.e_max,
	       s.flips[0], s.flips[1]);
	CHECK(s.finite, "non-finite output");
	CHECK(s.e_max < flip, "energy %.4f reaches the flip energy %.4f", s.e_max, flip);
	CHECK(s.e_max > 0.8 * flip, "energy %.4f is not near the flip energy %.4f", s.e_max, flip);
	CHECK(s.flips[0] == 0 && s.flips[1] == 0, "an arm flipped (%d, %d)", s.flips[0],
	      s.flips[1]);
	const double d = preset_divergence("edge-of-chaos", 90.0);
	printf("; 1e-4 deg apart -> %.3g rad within 90 s", d);
	CHECK(d > 0.3, "no sensitive dependence: 1e-4 deg grew only to %.3g rad", d);
}

static void check_full_chaos(void)
{
	double flip;
	run_stats s;
	if (!run_double_preset("full-chaos", 60.0, &flip, &s))
		return;
	printf("\n    flip energy %.4f; energy %.4f; flips in 60 s: %d / %d", flip, s.e_first,
	       s.flips[0], s.flips[1]);
	CHECK(s.finite, "non-finite output");
	CHECK(s.e_first > flip, "energy %.4f below the flip energy %.4f", s.e_first, flip);
	CHECK(s.flips[0] >= 3 && s.flips[1] >= 3, "too few flips: %d, %d", s.flips[0], s.flips[1]);
	const double d = preset_divergence("full-chaos", 30.0);
	printf("; 1e-4 deg apart -> %.3g rad within 30 s", d);
	CHECK(d > 1.0, "1e-4 deg grew only to %.3g rad", d);
}

static void check_slow_envelope(void)
{
	DawHost *h = load(PENDULA_VARIANT_PARALLEL, "slow-envelope");
	if (!h)
		return;
	h->record_midi = true;
	start(h);
	const double rate = h->control[P_LAMBDA1] / inertia_o1(h); /* 1/s, small amplitude */
	CHECK(h->control[P_N_BODIES] == 1 && h->control[P_PIVOT_X_AMP] == 0 &&
	          h->control[P_PIVOT_Y_AMP] == 0 && h->control[P_SIGMA1] == 0,
	      "not a free damped single body");
	double e_at[21] = {0};
	double e0 = -1, running_min = 1e30, worst_rise = 0.0;
	for (int64_t f = 0; f < (int64_t)(20 * RATE) + 1;) {
		daw_run(h, BLOCK);
		for (uint32_t i = 0; i < BLOCK; ++i, ++f) {
			const double e = h->buf[P_OUT_ENERGY][i];
			if (f == 0)
				e0 = e;
			if (f % (int64_t)RATE == 0 && f / (int64_t)RATE <= 20)
				e_at[f / (int64_t)RATE] = e;
			if (e - running_min > worst_rise)
				worst_rise = e - running_min;
			if (e < running_min)
				running_min = e;
		}
	}
	const double tail = e_at[19] / e_at[14], tail_pred = exp(-5.0 * rate);
	printf("\n    lambda1 / I_O1 = %.4f/s; E(0) %.4f, E(10 s) %.4g, E(20 s) %.4g; "
	       "E(19)/E(14) %.4f (predicted %.4f); largest rise %.2g",
	       rate, e0, e_at[10], e_at[20], tail, tail_pred, worst_rise);
	CHECK(worst_rise <= 1e-5 * e0, "energy rose by %.3g (damping only: dE/dt <= 0)",
	      worst_rise);
	CHECK(e_at[20] < e0 / 1000.0, "energy fell only by %.3g in 20 s", e0 / e_at[20]);
	CHECK(e_at[10] > e0 / 1000.0, "energy gone within 10 s: not a slow envelope");
	CHECK(tail > 0.6 * tail_pred && tail < 1.5 * tail_pred,
	      "tail decay %.4f per 5 s, small-amplitude theory %.4f", tail, tail_pred);
	/* the description says: sent on CC 1 */
	size_t cc1 = 0, cc_other = 0;
	int last = 128;
	bool falling = true;
	for (size_t i = 0; i < h->n_midi; ++i) {
		const daw_midi *m = &h->midi[i];
		if ((m->bytes[0] & 0xF0) != 0xB0)
			continue;
		if (m->bytes[1] == 1) {
			++cc1;
			if (m->bytes[2] > last)
				falling = false;
			last = m->bytes[2];
		} else {
			++cc_other;
		}
	}
	printf("; CC1 messages %zu, others %zu", cc1, cc_other);
	CHECK(cc1 > 20 && falling, "energy not sent as a falling CC 1 (%zu messages)", cc1);
	CHECK(cc_other <= 1, "%zu other control changes (theta2 beyond N may send once)", cc_other);
	daw_host_free(h);
}

/* The envelope's tail, far below anything audible: energy >= 0 and no
 * subnormal output up to 215 s (1.8 million subnormal energy samples
 * between 120 and 215 s before the sampler flushed them). */
static void check_slow_envelope_tail(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_PARALLEL, "slow-envelope");
	if (!h)
		return;
	size_t bad = 0, zero = 0;
	double first_bad = -1.0;
	for (int64_t f = 0; f < (int64_t)(215 * RATE); f += BLOCK) {
		daw_run(h, BLOCK);
		for (uint32_t i = 0; i < BLOCK; ++i)
			for (int k = 0; k < PENDULA_N_PORT_IDS; ++k) {
				if (!h->buf[k])
					continue;
				const float x = h->buf[k][i];
				if (!isfinite(x) || fpclassify(x) == FP_SUBNORMAL ||
				    (k == P_OUT_ENERGY && x < 0.0f)) {
					if (bad++ == 0)
						first_bad = (double)(f + i) / RATE;
				}
				zero += k == P_OUT_ENERGY && x == 0.0f;
			}
	}
	printf("\n    %zu bad samples (first at %.2f s); energy exactly 0 in %zu frames", bad,
	       first_bad, zero);
	CHECK(bad == 0, "%zu subnormal, negative-energy or non-finite samples, first at %.2f s",
	      bad, first_bad);
	daw_host_free(h);
}

static void check_kapitza(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_PARALLEL, "kapitza-upright");
	if (!h)
		return;
	const double g = h->control[P_GRAVITY], m1 = h->control[P_M1], c1 = h->control[P_C1];
	const double omega = 2.0 * DAW_PI * h->control[P_PIVOT_Y_FREQ];
	const double omega0 = sqrt(m1 * g * c1 / inertia_o1(h));
	const double threshold = 2.0 * g * inertia_o1(h) / (m1 * c1); /* Delta^2 Omega^2 */
	const double amp = h->control[P_PIVOT_Y_AMP];
	const double amp_threshold = sqrt(threshold) / omega;
	const double ratio = amp * amp * omega * omega / threshold;
	CHECK(h->control[P_N_BODIES] == 1, "Kapitza's formula is for one body (n_bodies %g)",
	      (double)h->control[P_N_BODIES]);
	CHECK(ratio > 1.0, "Delta^2 Omega^2 = %.3g below the threshold %.3g", ratio * threshold,
	      threshold);
	CHECK(omega > 10.0 * omega0, "forcing %.3g rad/s not fast against omega0 %.3g", omega,
	      omega0);
	run_stats s;
	render_stats(h, 60.0, 0.0, &s);
	printf("\n    threshold %.3f m^2/s^2, preset %.2f times it (amplitude %.4f m, threshold "
	       "%.4f m); max distance from upright over 60 s %.3f rad",
	       threshold, ratio, amp, amp_threshold, s.max_dev_upright);
	CHECK(s.finite, "non-finite output");
	CHECK(s.max_dev_upright < 0.5, "left upright by %.3f rad", s.max_dev_upright);
	daw_host_free(h);

	/* Below the threshold the same rod falls. */
	h = load(PENDULA_VARIANT_PARALLEL, "kapitza-upright");
	if (!h)
		return;
	h->control[P_PIVOT_Y_AMP] = (float)(0.6 * amp_threshold);
	start(h);
	render_stats(h, 60.0, 0.0, &s);
	printf("; at 0.6 x threshold amplitude: %.3f rad", s.max_dev_upright);
	CHECK(s.max_dev_upright > 1.0, "below the threshold it stayed up (%.3f rad)",
	      s.max_dev_upright);
	daw_host_free(h);
}

/* Largest |theta1| (rad) in [from, to) seconds, running h from its start. */
static void swing_windows(DawHost *h, double *first_second, double *at_10s)
{
	*first_second = *at_10s = 0.0;
	for (int64_t f = 0; f < (int64_t)(11 * RATE);) {
		daw_run(h, BLOCK);
		for (uint32_t i = 0; i < BLOCK; ++i, ++f) {
			const double a = fabs(DAW_PI * h->buf[P_OUT_THETA1][i]);
			if (f < (int64_t)RATE && a > *first_second)
				*first_second = a;
			if (f >= (int64_t)(9 * RATE) && f < (int64_t)(11 * RATE) && a > *at_10s)
				*at_10s = a;
		}
	}
}

static void check_parametric(void)
{
	DawHost *h = load(PENDULA_VARIANT_PARALLEL, "parametric-swell");
	if (!h)
		return;
	const double g = h->control[P_GRAVITY], m1 = h->control[P_M1], c1 = h->control[P_C1];
	const double omega0 = sqrt(m1 * g * c1 / inertia_o1(h));
	const double omega_y = 2.0 * DAW_PI * h->control[P_PIVOT_Y_FREQ];
	const double h_mathieu = h->control[P_PIVOT_Y_AMP] * omega_y * omega_y / g;
	CHECK(h->control[P_N_BODIES] == 1, "one body expected");
	CHECK(fabs(omega_y / (2.0 * omega0) - 1.0) < 0.005,
	      "Omega_y = %.4f rad/s is not 2 omega0 = %.4f", omega_y, 2.0 * omega0);
	start(h);
	double a0, a10;
	swing_windows(h, &a0, &a10);
	printf("\n    omega0 %.4f rad/s, Omega_y %.4f, h = %.3f (growth exp(%.3f t)); "
	       "|theta1| %.2f deg in the first second, %.2f deg at 10 s",
	       omega0, omega_y, h_mathieu, h_mathieu * omega0 / 4.0, a0 * 180 / DAW_PI,
	       a10 * 180 / DAW_PI);
	CHECK(a0 < 0.1, "not a small start (%.3f rad)", a0);
	CHECK(a10 > 5.0 * a0, "the swing grew only %.2f times in 10 s", a10 / a0);
	daw_host_free(h);

	/* detuned by 30 %: outside the resonance tongue, no growth */
	h = load(PENDULA_VARIANT_PARALLEL, "parametric-swell");
	if (!h)
		return;
	h->control[P_PIVOT_Y_FREQ] *= 1.3f;
	start(h);
	swing_windows(h, &a0, &a10);
	printf("; detuned 1.3x: %.2f -> %.2f deg", a0 * 180 / DAW_PI, a10 * 180 / DAW_PI);
	CHECK(a10 < 2.0 * a0, "detuned forcing also grew the swing (%.2f times)", a10 / a0);
	daw_host_free(h);
}

static void check_chaos_man_four(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_PARALLEL, "chaos-man-four");
	if (!h)
		return;
	CHECK(h->control[P_N_BODIES] == 4, "n_bodies %g, not 4", (double)h->control[P_N_BODIES]);
	run_stats s;
	render_stats(h, 60.0, 0.0, &s);
	int total_flips = 0;
	printf("\n    ranges over 60 s:");
	for (int k = 0; k < 4; ++k) {
		const double range = DAW_PI * (s.max[k] - s.min[k]);
		printf(" %.2f", range);
		CHECK(range > 1.5, "body %d moves over %.3f rad only", k + 1, range);
		total_flips += s.flips[k];
	}
	printf(" rad; flips %d/%d/%d/%d", s.flips[0], s.flips[1], s.flips[2], s.flips[3]);
	CHECK(s.finite, "non-finite output");
	CHECK(total_flips >= 3, "only %d flips in all: not tumbling", total_flips);
	daw_host_free(h);
}

/* Song position in quarter notes at absolute frame f, for a transport that
 * started at frame 0 at bar 0 beat 0 with tempo bpm0 and changed to bpm1 at
 * frame f1. */
static double quarters_at(int64_t f, double bpm0, int64_t f1, double bpm1)
{
	if (f < f1)
		return (double)f * bpm0 / 60.0 / RATE;
	return (double)f1 * bpm0 / 60.0 / RATE + (double)(f - f1) * bpm1 / 60.0 / RATE;
}

static void check_tempo_drive(void)
{
	DawHost *h = load(PENDULA_VARIANT_DOUBLE, "tempo-drive");
	if (!h)
		return;
	h->recording = true;
	start(h);
	const int note = (int)h->control[P_PIVOT_X_SYNC];
	CHECK(note > 0 && note < (int)PENDULA_N_SYNC_NOTES, "pivot_x_sync %d is not a note value",
	      note);
	if (!(note > 0 && note < (int)PENDULA_N_SYNC_NOTES)) {
		daw_host_free(h);
		return;
	}
	const double period_q = pendula_sync_notes[note].beats;
	const double amp = h->control[P_PIVOT_X_AMP];
	const double bpm0 = 120.0, bpm1 = 100.0;
	const int64_t f1 = (int64_t)(40 * RATE), end = (int64_t)(80 * RATE);

	daw_in_position(h, 0, 0, 0, 4, 4, bpm0, 1);
	double worst_pivot = 0.0;
	bool changed = false;
	while (h->frames < end) {
		if (!changed && h->frames >= f1) {
			const double q = quarters_at(h->frames, bpm0, f1, bpm1);
			daw_in_position(h, 0, floor(q / 4), q - 4 * floor(q / 4), 4, 4, bpm1, 1);
			changed = true;
		}
		daw_run(h, BLOCK);
		const int64_t last = h->frames - 1;
		const double q = quarters_at(last, bpm0, f1, bpm1);
		const double want = amp * sin(2.0 * DAW_PI * (q / period_q - floor(q / period_q)));
		const double err = fabs(h->ctl[P_CTL_PIVOT_X][h->n_blocks - 1] - want);
		if (err > worst_pivot)
			worst_pivot = err;
	}
	/* periodic response: theta(t + T) = theta(t) once settled */
	double worst_repeat[2] = {0, 0}, amplitude[2] = {0, 0};
	const double bpms[2] = {bpm0, bpm1};
	const int64_t settle[2] = {(int64_t)(30 * RATE), f1 + (int64_t)(30 * RATE)};
	for (int w = 0; w < 2; ++w) {
		const int64_t T = (int64_t)llround(period_q * 60.0 / bpms[w] * RATE);
		for (int64_t f = settle[w]; f < settle[w] + T; ++f)
			for (int k = 0; k < 2; ++k) {
				const float *th = daw_signal(h, theta_port[k]);
				const double d = fabs(DAW_PI * (th[f + T] - th[f]));
				if (d > worst_repeat[w])
					worst_repeat[w] = d;
				if (k == 0 && fabs(DAW_PI * th[f]) > amplitude[w])
					amplitude[w] = fabs(DAW_PI * th[f]);
			}
	}
	printf("\n    %s (%.3g quarters): pivot_x_ctl vs song phase, worst %.2g m; "
	       "theta repeats every period to %.2g rad at 120 bpm (theta1 amplitude %.2f), "
	       "%.2g rad at 100 bpm (%.2f)",
	       pendula_sync_notes[note].label, period_q, worst_pivot, worst_repeat[0], amplitude[0],
	       worst_repeat[1], amplitude[1]);
	CHECK(worst_pivot < 1e-3 * amp + 1e-6, "forcing off the tempo phase by %.3g m",
	      worst_pivot);
	CHECK(worst_repeat[0] < 0.01 && worst_repeat[1] < 0.01,
	      "motion not locked to the period (%.3g, %.3g rad)", worst_repeat[0], worst_repeat[1]);
	CHECK(amplitude[0] > 0.1 && amplitude[1] > 0.1, "no real swing (%.3f, %.3f rad)",
	      amplitude[0], amplitude[1]);
	daw_host_free(h);
}

static void check_oscillator(void)
{
	DawHost *h = load(PENDULA_VARIANT_DOUBLE, "chaotic-oscillator");
	if (!h)
		return;
	h->recording = true;
	start(h);
	CHECK(h->control[P_TIME_SCALE] >= 50, "time_scale %g is not audio rate",
	      (double)h->control[P_TIME_SCALE]);
	daw_render(h, (int64_t)(2 * RATE), BLOCK, NULL);
	const float *x = daw_signal(h, P_OUT_TIP_X);
	const size_t n = h->rec_n, from = (size_t)(0.1 * RATE);
	double mean = 0.0;
	for (size_t i = from; i < n; ++i)
		mean += x[i];
	mean /= (double)(n - from);
	/* one-pole low-pass at 20 Hz; high = x - low */
	const double a = exp(-2.0 * DAW_PI * 20.0 / RATE);
	double low = x[0], var = 0.0, var_high = 0.0;
	for (size_t i = 0; i < n; ++i) {
		low = a * low + (1.0 - a) * x[i];
		if (i >= from) {
			var += (x[i] - mean) * (x[i] - mean);
			var_high += (x[i] - low) * (x[i] - low);
		}
	}
	int flips = 0;
	const float *th = daw_signal(h, P_OUT_THETA1);
	for (size_t i = 1; i < n; ++i)
		if (fabsf(th[i] - th[i - 1]) > 1.0f)
			++flips;
	printf("\n    tip_x: %.0f %% of the variance above 20 Hz; arm 1 flips %.0f times/s",
	       100.0 * var_high / var, flips / 2.0);
	CHECK(var_high > 0.5 * var, "only %.0f %% of the variance above 20 Hz",
	      100.0 * var_high / var);
	CHECK(flips / 2.0 > 20.0, "arm 1 flips %.1f times per second only", flips / 2.0);
	daw_host_free(h);
}

static void check_windmill(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_PARALLEL, "windmill-ramp");
	if (!h)
		return;
	const double sigma = h->control[P_SIGMA1], lambda = h->control[P_LAMBDA1];
	const double g = h->control[P_GRAVITY], m1 = h->control[P_M1], c1 = h->control[P_C1];
	const double bound = sigma / (2.0 * DAW_PI * lambda); /* turns per second, at most */
	CHECK(sigma > m1 * g * c1, "torque %.3g cannot overcome gravity %.3g", sigma, m1 * g * c1);
	run_stats s;
	render_stats(h, 35.0, 5.0, &s);
	const double turns = s.flips_up[0] / 30.0;
	printf("\n    %.3f turns/s (bound sigma1 / (2 pi lambda1) = %.3f); backward flips %d",
	       turns, bound, s.flips[0] - s.flips_up[0]);
	CHECK(s.flips[0] == s.flips_up[0], "turned backwards %d times", s.flips[0] - s.flips_up[0]);
	CHECK(turns <= 1.01 * bound && turns >= 0.7 * bound, "%.3f turns/s, bound %.3f", turns,
	      bound);
	daw_host_free(h);
}

/* ---------------------------------------------------------------------- */
/* The chain's presets                                                     */

/* Links of the chain's preset in h: masses, lengths, centres of mass by the
 * link_shape rule of README.md; returns N.  mu_k = m_k c_k + (sum_{j>k} m_j)
 * l_k, the normalisation D = 2 g sum mu_k. */
static int chain_links(const DawHost *h, double *m, double *l, double *c, double *mu)
{
	static const pendula_port_id mp[6] = {P_M1, P_M2, P_M3, P_M4, P_M5, P_M6};
	static const pendula_port_id lp[6] = {P_L1, P_L2, P_L3, P_L4, P_L5, P_L6};
	static const pendula_port_id cp[6] = {P_C1, P_C2, P_C3, P_C4, P_C5, P_C6};
	const int n = (int)h->control[P_N_LINKS], shape = (int)h->control[P_LINK_SHAPE];
	for (int k = 0; k < n; ++k) {
		m[k] = h->control[mp[k]];
		l[k] = h->control[lp[k]];
		c[k] = shape == 0 ? l[k] : shape == 1 ? 0.5 * l[k] : h->control[cp[k]];
	}
	double below = 0.0;
	for (int k = n - 1; k >= 0; --k) {
		mu[k] = m[k] * c[k] + below * l[k];
		below += m[k];
	}
	return n;
}

static void check_triple_rod_chaos(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_CHAIN, "triple-rod-chaos");
	if (!h)
		return;
	CHECK(h->control[P_N_LINKS] == 3 && h->control[P_LINK_SHAPE] == 1,
	      "not three uniform rods (n_links %g, link_shape %g)", (double)h->control[P_N_LINKS],
	      (double)h->control[P_LINK_SHAPE]);
	run_stats s;
	render_stats(h, 60.0, 0.0, &s);
	printf("\n    energy %.4f; flips in 60 s: %d / %d / %d", s.e_first, s.flips[0], s.flips[1],
	       s.flips[2]);
	CHECK(s.finite, "non-finite output");
	for (int k = 0; k < 3; ++k)
		CHECK(s.flips[k] >= 3, "link %d flipped %d times only", k + 1, s.flips[k]);
	daw_host_free(h);
	const double d = preset_divergence_on(PENDULA_VARIANT_CHAIN, "triple-rod-chaos", 30.0);
	printf("; 1e-4 deg apart -> %.3g rad within 30 s", d);
	CHECK(d > 1.0, "1e-4 deg grew only to %.3g rad", d);
}

static void check_six_bob_whip(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_CHAIN, "six-bob-whip");
	if (!h)
		return;
	double m[6], l[6], c[6], mu[6], sum = 0.0;
	const int n = chain_links(h, m, l, c, mu);
	CHECK(n == 6, "n_links %d", n);
	for (int k = 0; k < n; ++k)
		sum += mu[k];
	/* Link 1 upright with the rest hanging: U - U_min = 2 g mu_1, i.e. a
	 * normalised energy of mu_1 / sum mu: link 1 can never go over. */
	const double flip1 = mu[0] / sum;
	run_stats s;
	render_stats(h, 30.0, 0.0, &s);
	printf("\n    energy %.4f, link 1 needs %.4f to flip; flips in 30 s:", s.e_first, flip1);
	for (int k = 0; k < n; ++k)
		printf(" %d", s.flips[k]);
	CHECK(s.finite, "non-finite output");
	CHECK(s.e_first < flip1, "energy %.4f enough for link 1 to flip (%.4f)", s.e_first, flip1);
	CHECK(s.flips[0] == 0, "link 1 flipped %d times", s.flips[0]);
	CHECK(s.flips[5] >= 20, "the tip link flipped only %d times", s.flips[5]);
	daw_host_free(h);
}

static void check_chain_envelope(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_CHAIN, "chain-envelope");
	if (!h)
		return;
	double e_prev = -1.0, worst_rise = 0.0, e0 = 0.0;
	int64_t left = (int64_t)(20.0 * RATE);
	bool finite = true;
	while (left > 0) {
		const uint32_t n = left < BLOCK ? (uint32_t)left : BLOCK;
		daw_run(h, n);
		for (uint32_t i = 0; i < n; ++i) {
			const double e = h->buf[P_OUT_ENERGY][i];
			finite = finite && isfinite(e);
			if (e_prev < 0.0)
				e0 = e;
			else
				worst_rise = fmax(worst_rise, e - e_prev);
			e_prev = e;
		}
		left -= n;
	}
	printf("\n    energy %.4f -> %.5f in 20 s (%.0f times less), largest rise %.2e", e0, e_prev,
	       e0 / e_prev, worst_rise);
	CHECK(finite, "non-finite output");
	CHECK(worst_rise <= 1e-6 * e0, "energy rose by %.3g", worst_rise);
	CHECK(e_prev < e0 / 30.0, "energy fell only from %.4f to %.4f", e0, e_prev);
	daw_host_free(h);
}

static void check_balanced_chain(void)
{
	DawHost *h = load(PENDULA_VARIANT_CHAIN, "balanced-chain");
	if (!h)
		return;
	double m[6], l[6], c[6], mu[6];
	const int n = chain_links(h, m, l, c, mu);
	CHECK(n == 2 && h->control[P_LINK_SHAPE] == 1, "not two uniform rods");
	/* Linearised about upright, R(0) phi'' = (g - Dy W^2 cos W t) diag(mu) phi:
	 * modes q'' = nu (g - Dy W^2 cos W t) q with nu the eigenvalues of
	 * R(0)^-1 diag(mu).  Kapitza's average holds each one up if
	 * nu Dy^2 W^2 / 2 > g. */
	const double ig0 = m[0] * l[0] * l[0] / 12.0, ig1 = m[1] * l[1] * l[1] / 12.0;
	const double r11 = ig0 + m[0] * c[0] * c[0] + m[1] * l[0] * l[0],
	             r22 = ig1 + m[1] * c[1] * c[1];
	const double r12 = l[0] * mu[1];
	/* det(diag(mu) - nu R) = 0 */
	const double qa = r11 * r22 - r12 * r12, qb = -(mu[0] * r22 + mu[1] * r11),
	             qc = mu[0] * mu[1];
	const double nu_min = (-qb - sqrt(qb * qb - 4 * qa * qc)) / (2 * qa);
	const double g = h->control[P_GRAVITY], dy = h->control[P_PIVOT_Y_AMP];
	const double omega = 2.0 * DAW_PI * h->control[P_PIVOT_Y_FREQ];
	const double omega_min = sqrt(2.0 * g / (nu_min * dy * dy));
	daw_activate(h);
	run_stats s;
	render_stats(h, 60.0, 0.0, &s);
	const double up = fmax(s.dev_upright[0], s.dev_upright[1]);
	printf("\n    Kapitza threshold %.1f Hz, preset %.1f Hz; max distance from upright over "
	       "60 s %.3f rad",
	       omega_min / (2 * DAW_PI), omega / (2 * DAW_PI), up);
	CHECK(omega > 1.2 * omega_min, "forcing %.1f Hz not above the threshold %.1f Hz",
	      omega / (2 * DAW_PI), omega_min / (2 * DAW_PI));
	CHECK(s.finite, "non-finite output");
	CHECK(up < 0.5, "left upright by %.3f rad", up);
	daw_host_free(h);
	/* At 60 % of the frequency (below the threshold) it falls. */
	h = load(PENDULA_VARIANT_CHAIN, "balanced-chain");
	if (!h)
		return;
	h->control[P_PIVOT_Y_FREQ] *= 0.6f;
	daw_activate(h);
	render_stats(h, 20.0, 0.0, &s);
	printf("; at 60 %%: %.3f rad", fmax(s.dev_upright[0], s.dev_upright[1]));
	CHECK(fmax(s.dev_upright[0], s.dev_upright[1]) > 1.0, "stayed up below the threshold");
	daw_host_free(h);
}

/* ---------------------------------------------------------------------- */
/* The 3-D plugins                                                         */

/* Runs h for `seconds` in blocks; per output port, min and max over the
 * frames from second `from` on. */
static void run_range(DawHost *h, double seconds, double from, const pendula_port_id *ids, int n,
                      double *lo, double *hi)
{
	for (int k = 0; k < n; ++k) {
		lo[k] = 1e30;
		hi[k] = -1e30;
	}
	const int64_t total = (int64_t)(seconds * RATE), skip = (int64_t)(from * RATE);
	for (int64_t f = 0; f < total; f += BLOCK) {
		daw_run(h, BLOCK);
		if (f < skip)
			continue;
		for (uint32_t i = 0; i < BLOCK; ++i)
			for (int k = 0; k < n; ++k) {
				const double x = h->buf[ids[k]][i];
				lo[k] = x < lo[k] ? x : lo[k];
				hi[k] = x > hi[k] ? x : hi[k];
			}
	}
}

static void check_conical_orbit(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_SPHERICAL, "conical-orbit");
	if (!h)
		return;
	const double g = h->control[P_GRAVITY], l = h->control[P_L1];
	const double alpha = h->control[P_THETA1_INIT] * DAW_PI / 180.0;
	const double w = 2.0 * DAW_PI * h->control[P_SPIN_INIT];
	const double steady = w * w * l * cos(alpha) / g;
	CHECK(h->control[P_N_LINKS] == 1, "one link expected");
	CHECK(fabs(steady - 1.0) < 1e-5,
	      "spin_init is not the steady circle's (w^2 l cos a / g = %.7f)", steady);
	/* 60 s: y1 stays at -cos alpha, x1's frequency is the spin */
	double y_lo = 1e30, y_hi = -1e30, e_lo = 1e30, e_hi = -1e30, first = -1, last = -1;
	int crossings = 0;
	float prev = 0.0f;
	for (int64_t f = 0; f < (int64_t)(60 * RATE); f += BLOCK) {
		daw_run(h, BLOCK);
		for (uint32_t i = 0; i < BLOCK; ++i) {
			const float x = h->buf[P_OUT_X1][i], y = h->buf[P_OUT_Y1][i];
			const double e = h->buf[P_OUT_ENERGY][i];
			y_lo = fmin(y_lo, y);
			y_hi = fmax(y_hi, y);
			e_lo = fmin(e_lo, e);
			e_hi = fmax(e_hi, e);
			if (f + i > 0 && prev < 0.0f && x >= 0.0f) {
				const double t = ((double)(f + i) - 1.0 + prev / (prev - x)) / RATE;
				if (crossings == 0)
					first = t;
				last = t;
				++crossings;
			}
			prev = x;
		}
	}
	const double freq = (crossings - 1) / (last - first);
	printf("\n    y1 %.6f..%.6f (-cos alpha = %.6f); x1 at %.6f Hz (spin %.6f Hz); energy "
	       "%.7f..%.7f",
	       y_lo, y_hi, -cos(alpha), freq, w / (2 * DAW_PI), e_lo, e_hi);
	CHECK(fabs(y_lo + cos(alpha)) < 1e-4 && fabs(y_hi + cos(alpha)) < 1e-4,
	      "the bob leaves its cone: y1 %.6f..%.6f", y_lo, y_hi);
	CHECK(fabs(freq / (w / (2 * DAW_PI)) - 1.0) < 1e-4, "x1 at %.6f Hz, spin %.6f Hz", freq,
	      w / (2 * DAW_PI));
	CHECK(e_hi - e_lo < 1e-5 * e_hi, "energy not constant: %.7f..%.7f", e_lo, e_hi);
	daw_host_free(h);
}

static void check_chaotic_3d_double(void)
{
	DawHost *a = load(PENDULA_VARIANT_SPHERICAL, "chaotic-3d-double");
	DawHost *b = load(PENDULA_VARIANT_SPHERICAL, "chaotic-3d-double");
	if (!a || !b) {
		daw_host_free(a);
		daw_host_free(b);
		return;
	}
	b->control[P_THETA1_INIT] += 1e-4f;
	daw_activate(a);
	daw_activate(b);
	double worst = 0.0, z_lo = 1e30, z_hi = -1e30;
	for (int64_t f = 0; f < (int64_t)(60 * RATE); f += BLOCK) {
		daw_run(a, BLOCK);
		daw_run(b, BLOCK);
		for (uint32_t i = 0; i < BLOCK; ++i) {
			double d2 = 0.0;
			const pendula_port_id tip[3] = {P_OUT_TIP_X, P_OUT_TIP_Y, P_OUT_TIP_Z};
			for (int c = 0; c < 3; ++c) {
				const double d = (double)a->buf[tip[c]][i] - b->buf[tip[c]][i];
				d2 += d * d;
			}
			worst = fmax(worst, sqrt(d2));
			z_lo = fmin(z_lo, a->buf[P_OUT_Z1][i]);
			z_hi = fmax(z_hi, a->buf[P_OUT_Z1][i]);
		}
	}
	printf("\n    z1 %.3f..%.3f; 1e-4 deg apart -> tips %.3f (of the length) apart within 60 s",
	       z_lo, z_hi, worst);
	CHECK(z_hi - z_lo > 0.5, "it stays near a plane (z1 %.3f..%.3f)", z_lo, z_hi);
	CHECK(worst > 0.3, "no sensitive dependence: %.3g", worst);
	daw_host_free(a);
	daw_host_free(b);
}

static void check_ellipsoid_example(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_BEAD, "ellipsoid-example");
	if (!h)
		return;
	const double a = h->control[P_AXIS_X], b = h->control[P_AXIS_Y], c = h->control[P_AXIS_Z];
	const double th = h->control[P_THETA1_INIT] * DAW_PI / 180.0;
	const double ph = h->control[P_PHI1_INIT] * DAW_PI / 180.0;
	/* the start point is the note's (sqrt 6 / 4, 3/2, sqrt 6 / 2) */
	const double x0 = a * sin(th) * cos(ph), y0 = -b * cos(th), z0 = c * sin(th) * sin(ph);
	CHECK(fabs(x0 - sqrt(6.0) / 4) < 1e-5 && fabs(y0 - 1.5) < 1e-5 &&
	          fabs(z0 - sqrt(6.0) / 2) < 1e-5,
	      "start (%.5f, %.5f, %.5f) is not the note's", x0, y0, z0);
	CHECK(h->control[P_SPIN_INIT] == 0 && h->control[P_LAMBDA1] == 0 &&
	          h->control[P_SURFACE] == 0,
	      "not at rest on the ellipsoid without drag");
	double y_max = -1e30, e_lo = 1e30, e_hi = -1e30;
	int climbs = 0;
	bool low = false;
	for (int64_t f = 0; f < (int64_t)(60 * RATE); f += BLOCK) {
		daw_run(h, BLOCK);
		for (uint32_t i = 0; i < BLOCK; ++i) {
			const double y = h->buf[P_OUT_Y][i], e = h->buf[P_OUT_ENERGY][i];
			y_max = fmax(y_max, y);
			e_lo = fmin(e_lo, e);
			e_hi = fmax(e_hi, e);
			if (y < -0.6)
				low = true;
			if (low && y > 0.0) {
				++climbs;
				low = false;
			}
		}
	}
	printf("\n    energy %.7f..%.7f; highest y %.6f (start %.6f); %d climbs back above the "
	       "centre in 60 s",
	       e_lo, e_hi, y_max, y0 / b, climbs);
	CHECK(e_hi - e_lo < 1e-5 * e_hi, "energy not constant");
	CHECK(y_max <= y0 / b + 1e-4, "the bead got above its start (%.6f)", y_max);
	CHECK(climbs >= 5, "only %d climbs", climbs);
	daw_host_free(h);
}

static void check_shaken_floor(void)
{
	DawHost *on = load_activated(PENDULA_VARIANT_BEAD, "shaken-floor");
	DawHost *off = load(PENDULA_VARIANT_BEAD, "shaken-floor");
	if (!on || !off) {
		daw_host_free(on);
		daw_host_free(off);
		return;
	}
	CHECK(on->control[P_SURFACE] == 1 && on->control[P_WAVE_AMP] > 0 &&
	          on->control[P_LAMBDA1] > 0,
	      "not a moving floor with drag");
	off->control[P_WAVE_AMP] = 0.0f;
	daw_activate(off);
	const double rate = on->control[P_LAMBDA1] / on->control[P_M1];
	const pendula_port_id ids[2] = {P_OUT_ENERGY, P_OUT_X};
	double lo_on[2], hi_on[2], lo_off[2], hi_off[2];
	daw_run(off, 1);
	const double e0 = off->buf[P_OUT_ENERGY][0];
	run_range(on, 30.0, 20.0, ids, 2, lo_on, hi_on);
	run_range(off, 30.0, 29.0, ids, 2, lo_off, hi_off);
	printf("\n    energy over 20..30 s with the wave %.4f..%.4f, without %.2e at 30 s "
	       "(start %.4f, exp(-lambda t / m) gives %.2e); x %.3f..%.3f",
	       lo_on[0], hi_on[0], hi_off[0], e0, e0 * exp(-30.0 * rate), lo_on[1], hi_on[1]);
	CHECK(hi_off[0] < 3.0 * e0 * exp(-30.0 * rate), "drag alone: energy %.3g at 30 s",
	      hi_off[0]);
	CHECK(hi_on[0] > 10.0 * hi_off[0], "the wave does not keep the motion up (%.3g vs %.3g)",
	      hi_on[0], hi_off[0]);
	CHECK(hi_on[1] - lo_on[1] > 0.2, "the bead hardly moves (x %.3f..%.3f)", lo_on[1],
	      hi_on[1]);
	daw_host_free(on);
	daw_host_free(off);
}

typedef struct {
	const char *slug;
	pendula_model model; /* the model whose two plugins the preset is for */
	void (*check)(void);
} claim;

/* ---------------------------------------------------------------------- */
/* The chaos knob, events, continuous outputs, freeze                       */

typedef struct {
	double e_lo, e_hi;       /* energy from `from` on */
	long onsets[2];          /* flips, swings pulse onsets */
	double w_lo, w_hi, jump; /* the continuous outputs given: range, largest step */
	double theta_span;       /* theta1 or x1: max - min */
} knob_stats;

/* Runs h for `seconds`, the energy and pulses counted from second `from` on,
 * the continuous outputs `ids` throughout. */
static void run_knob(DawHost *h, double seconds, double from, const pendula_port_id *ids, int n_ids,
                     knob_stats *k)
{
	k->e_lo = k->w_lo = 1e30;
	k->e_hi = k->w_hi = -1e30;
	k->onsets[0] = k->onsets[1] = 0;
	k->jump = 0.0;
	double t_lo = 1e30, t_hi = -1e30;
	float prev[2] = {0, 0}, prev_w[8] = {0};
	const pendula_port_id motion = pendula_port_index(h->v, P_OUT_THETA1) >= 0 ? P_OUT_THETA1
	                               : pendula_port_index(h->v, P_OUT_X1) >= 0   ? P_OUT_X1
	                                                                           : P_OUT_X;
	const pendula_port_id pulse[2] = {P_OUT_FLIPS, P_OUT_SWINGS};
	for (int64_t f = 0; f < (int64_t)(seconds * RATE); f += BLOCK) {
		daw_run(h, BLOCK);
		for (uint32_t i = 0; i < BLOCK; ++i) {
			const bool counted = (double)(f + i) >= from * RATE;
			const double e = h->buf[P_OUT_ENERGY][i];
			if (counted) {
				k->e_lo = fmin(k->e_lo, e);
				k->e_hi = fmax(k->e_hi, e);
			}
			for (int j = 0; j < 2; ++j) {
				const float v = h->buf[pulse[j]][i];
				if (counted && v != 0.0f && v != prev[j])
					k->onsets[j]++;
				prev[j] = v;
			}
			for (int j = 0; j < n_ids && j < 8; ++j) {
				const float w = h->buf[ids[j]][i];
				k->w_lo = fmin(k->w_lo, w);
				k->w_hi = fmax(k->w_hi, w);
				if (f + i > 0)
					k->jump = fmax(k->jump, fabs(w - prev_w[j]));
				prev_w[j] = w;
			}
			t_lo = fmin(t_lo, h->buf[motion][i]);
			t_hi = fmax(t_hi, h->buf[motion][i]);
		}
	}
	k->theta_span = t_hi - t_lo;
}

static void check_energy_held(const char *slug, const DawHost *h, const knob_stats *k)
{
	const double target = h->control[P_ENERGY_TARGET];
	printf("\n    %s: energy %.4f..%.4f (target %.3f); flips %ld, swings %ld", slug, k->e_lo,
	       k->e_hi, target, k->onsets[0], k->onsets[1]);
	CHECK(k->e_lo >= 0.98 * target && k->e_hi <= 1.02 * target,
	      "%s: energy %.4f..%.4f, not within 2 %% of %.3f", slug, k->e_lo, k->e_hi, target);
}

static void check_chaos_knob(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_DOUBLE, "chaos-knob");
	if (!h)
		return;
	knob_stats k;
	run_knob(h, 40.0, 10.0, NULL, 0, &k);
	check_energy_held("chaos-knob", h, &k);
	CHECK(h->control[P_LAMBDA1] > 0.0f, "the preset should be damped");
	CHECK(k.e_hi < double_flip_energy(h), "energy %.4f above the flip level %.4f", k.e_hi,
	      double_flip_energy(h));
	CHECK(k.onsets[0] == 0 && k.onsets[1] > 10, "%ld flips, %ld swings", k.onsets[0],
	      k.onsets[1]);
	daw_host_free(h);
}

static void check_flip_sequencer(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_DOUBLE, "flip-sequencer");
	if (!h)
		return;
	knob_stats k;
	run_knob(h, 40.0, 10.0, NULL, 0, &k);
	check_energy_held("flip-sequencer", h, &k);
	CHECK(k.onsets[0] > 20 && k.onsets[1] > 20, "%ld flips, %ld swings in 30 s", k.onsets[0],
	      k.onsets[1]);
	CHECK(h->control[P_NOTE_FLIP] >= 0.0f && h->control[P_NOTE_SWING] >= 0.0f,
	      "the notes are off");
	daw_host_free(h);
}

static void check_freeze_and_release(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_PARALLEL, "freeze-and-release");
	if (!h)
		return;
	knob_stats k;
	run_knob(h, 1.0, 0.0, NULL, 0, &k);
	printf("\n    frozen: theta1 moves by %g, energy %.4f..%.4f", k.theta_span, k.e_lo, k.e_hi);
	CHECK(k.theta_span == 0.0 && k.e_lo == k.e_hi, "the outputs move while frozen");
	daw_set(h, P_FREEZE, 0.0f);
	run_knob(h, 30.0, 10.0, NULL, 0, &k);
	check_energy_held("freeze-and-release (released)", h, &k);
	CHECK(k.theta_span > 0.2, "theta1 hardly moves after the release (%g)", k.theta_span);
	daw_host_free(h);
}

static void check_chain_knob(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_CHAIN, "chain-knob");
	if (!h)
		return;
	const pendula_port_id ids[6] = {P_OUT_OMEGA1, P_OUT_OMEGA2, P_OUT_OMEGA3,
	                                P_OUT_X1P,    P_OUT_Y2,     P_OUT_X3};
	knob_stats k;
	run_knob(h, 30.0, 10.0, ids, 6, &k);
	check_energy_held("chain-knob", h, &k);
	printf("; omega, x, y outputs %.3f..%.3f, largest step %.2e", k.w_lo, k.w_hi, k.jump);
	CHECK(k.w_lo >= -1.0 && k.w_hi <= 1.0 && k.w_hi - k.w_lo > 0.5,
	      "continuous outputs %.3f..%.3f", k.w_lo, k.w_hi);
	CHECK(k.jump < 0.01, "a continuous output jumps by %g", k.jump);
	daw_host_free(h);
}

static void check_spherical_swings(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_SPHERICAL, "spherical-swings");
	if (!h)
		return;
	const pendula_port_id ids[2] = {P_OUT_OMEGA1, P_OUT_OMEGA2};
	knob_stats k;
	run_knob(h, 30.0, 10.0, ids, 2, &k);
	check_energy_held("spherical-swings", h, &k);
	CHECK(k.onsets[1] > 10, "only %ld swings in 20 s", k.onsets[1]);
	CHECK(k.jump < 0.01 && k.w_hi - k.w_lo > 0.2, "omega %.3f..%.3f, step %g", k.w_lo, k.w_hi,
	      k.jump);
	daw_host_free(h);
}

static void check_bead_knob(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_BEAD, "bead-knob");
	if (!h)
		return;
	const pendula_port_id ids[3] = {P_OUT_VX, P_OUT_VY, P_OUT_VZ};
	knob_stats k;
	run_knob(h, 30.0, 10.0, ids, 3, &k);
	check_energy_held("bead-knob", h, &k);
	CHECK(h->control[P_LAMBDA1] > 0.0f, "the preset should have drag");
	CHECK(k.w_lo >= -1.0 && k.w_hi <= 1.0 && k.w_hi - k.w_lo > 0.2 && k.jump < 0.01,
	      "velocity outputs %.3f..%.3f, step %g", k.w_lo, k.w_hi, k.jump);
	daw_host_free(h);
}

static const claim claims[] = {
    {"chaos-knob", PENDULA_MODEL_DOUBLE, check_chaos_knob},
    {"flip-sequencer", PENDULA_MODEL_DOUBLE, check_flip_sequencer},
    {"freeze-and-release", PENDULA_MODEL_PARALLEL, check_freeze_and_release},
    {"chain-knob", PENDULA_MODEL_CHAIN, check_chain_knob},
    {"spherical-swings", PENDULA_MODEL_SPHERICAL, check_spherical_swings},
    {"bead-knob", PENDULA_MODEL_BEAD, check_bead_knob},
    {"gentle-sway", PENDULA_MODEL_DOUBLE, check_gentle_sway},
    {"edge-of-chaos", PENDULA_MODEL_DOUBLE, check_edge_of_chaos},
    {"full-chaos", PENDULA_MODEL_DOUBLE, check_full_chaos},
    {"slow-envelope", PENDULA_MODEL_PARALLEL, check_slow_envelope},
    {"kapitza-upright", PENDULA_MODEL_PARALLEL, check_kapitza},
    {"parametric-swell", PENDULA_MODEL_PARALLEL, check_parametric},
    {"chaos-man-four", PENDULA_MODEL_PARALLEL, check_chaos_man_four},
    {"tempo-drive", PENDULA_MODEL_DOUBLE, check_tempo_drive},
    {"chaotic-oscillator", PENDULA_MODEL_DOUBLE, check_oscillator},
    {"windmill-ramp", PENDULA_MODEL_PARALLEL, check_windmill},
    {"triple-rod-chaos", PENDULA_MODEL_CHAIN, check_triple_rod_chaos},
    {"six-bob-whip", PENDULA_MODEL_CHAIN, check_six_bob_whip},
    {"chain-envelope", PENDULA_MODEL_CHAIN, check_chain_envelope},
    {"balanced-chain", PENDULA_MODEL_CHAIN, check_balanced_chain},
    {"conical-orbit", PENDULA_MODEL_SPHERICAL, check_conical_orbit},
    {"chaotic-3d-double", PENDULA_MODEL_SPHERICAL, check_chaotic_3d_double},
    {"ellipsoid-example", PENDULA_MODEL_BEAD, check_ellipsoid_example},
    {"shaken-floor", PENDULA_MODEL_BEAD, check_shaken_floor},
};
#define N_CLAIMS (sizeof claims / sizeof claims[0])

/* ---------------------------------------------------------------------- */
/* Library-wide checks                                                     */

static void test_library(void)
{
	printf("\n    %zu presets:", n_presets);
	CHECK(n_presets >= 14, "only %zu presets", n_presets);
	for (size_t i = 0; i < n_presets; ++i) {
		const preset_info *p = &presets[i];
		printf("\n      %-20s %s", p->slug, p->label);
		CHECK(p->label[0] != '\0', "%s: no rdfs:label", p->slug);
		CHECK(p->comment[0] != '\0', "%s: no rdfs:comment", p->slug);
		CHECK(!strchr(p->comment, '\n') && strlen(p->comment) < 200,
		      "%s: the description is not one line", p->slug);
		int models = 0, model = -1;
		for (int m = 0; m < PENDULA_N_MODELS; ++m)
			if (p->applies[2 * m] && p->applies[2 * m + 1]) {
				++models;
				model = m;
			}
		CHECK(models == 1, "%s: should apply to both variants of one model", p->slug);
		bool has_claim = false;
		for (size_t c = 0; c < N_CLAIMS; ++c)
			if (!strcmp(claims[c].slug, p->slug)) {
				has_claim = true;
				CHECK((int)claims[c].model == model,
				      "%s: applies to the wrong model", p->slug);
			}
		CHECK(has_claim, "%s: no check of its claim in test_presets.c", p->slug);

		/* every variant it applies to: loads, known ports, in range */
		for (int v = 0; v < PENDULA_N_VARIANTS; ++v) {
			if (!p->applies[v])
				continue;
			restore_ctx ctx;
			DawHost *h = host_with_preset((pendula_variant)v, p, &ctx);
			CHECK(ctx.n_values >= 10 && !ctx.unknown && !ctx.out_of_range &&
			          !ctx.bad_type,
			      "%s on %s: %u values, %u unknown, %u out of range, %u bad type (%s)",
			      p->slug, pendula_variant_names[v], ctx.n_values, ctx.unknown,
			      ctx.out_of_range, ctx.bad_type, ctx.first_problem);
			daw_host_free(h);
		}
	}
	for (size_t c = 0; c < N_CLAIMS; ++c)
		CHECK(find_preset(claims[c].slug) != NULL, "preset %s missing from the bundle",
		      claims[c].slug);
}

/* The -cv variant gives the same signals as the audio variant. */
static void test_cv_variants(void)
{
	for (size_t i = 0; i < n_presets; ++i) {
		const preset_info *p = &presets[i];
		int va = -1;
		for (int v = 0; v < PENDULA_N_VARIANTS && va < 0; v += 2)
			if (p->applies[v])
				va = v;
		if (va < 0 || !p->applies[va + 1])
			continue;
		const pendula_variant vc = (pendula_variant)(va + 1);
		restore_ctx ca, cc;
		DawHost *a = host_with_preset((pendula_variant)va, p, &ca);
		DawHost *c = host_with_preset(vc, p, &cc);
		a->recording = c->recording = true;
		daw_activate(a);
		daw_activate(c);
		daw_render(a, (int64_t)RATE, BLOCK, NULL);
		daw_render(c, (int64_t)RATE, BLOCK, NULL);
		bool same = true, finite = true;
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
			if (!a->rec[id] || !c->rec[id])
				continue;
			if (memcmp(a->rec[id], c->rec[id], a->rec_n * sizeof(float)))
				same = false;
			for (size_t f = 0; f < a->rec_n; ++f)
				if (!isfinite(a->rec[id][f]))
					finite = false;
		}
		CHECK(same, "%s: %s and %s differ", p->slug,
		      pendula_variant_names[(pendula_variant)va], pendula_variant_names[vc]);
		CHECK(finite, "%s: non-finite output", p->slug);
		daw_host_free(a);
		daw_host_free(c);
	}
}

static int suite_at_run_time(void)
{
	at_run_time = true;
	return 0;
}

static CU_TestInfo library_tests[] = {
    {"library", test_library},
    {"cv_variants", test_cv_variants},
    CU_TEST_INFO_NULL,
};

/* one test per claim (and the slow-envelope tail), filled in by main(); the
 * last entry stays the end mark */
static CU_TestInfo claim_tests[N_CLAIMS + 2];
/* the same claims, each checked after the preset is loaded into an instance
 * that is already running (as a host does) */
static CU_TestInfo run_time_tests[N_CLAIMS + 1];

static CU_SuiteInfo suites[] = {
    {"library", NULL, NULL, NULL, NULL, library_tests},
    {"claims", NULL, NULL, NULL, NULL, claim_tests},
    {"claims at run time", suite_at_run_time, NULL, NULL, NULL, run_time_tests},
    CU_SUITE_INFO_NULL,
};

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_presets BUNDLE_DIR\n");
		return 2;
	}
	daw_map_urids();
	urid_float = lv2th_map_uri(NULL, LV2_ATOM__Float);
	urid_double = lv2th_map_uri(NULL, LV2_ATOM__Double);
	urid_int = lv2th_map_uri(NULL, LV2_ATOM__Int);
	urid_long = lv2th_map_uri(NULL, LV2_ATOM__Long);
	urid_bool = lv2th_map_uri(NULL, LV2_ATOM__Bool);
	if (!daw_world_load(argv[1])) {
		daw_world_free();
		return 1;
	}
	collect_presets();

	for (size_t c = 0; c < N_CLAIMS; ++c)
		claim_tests[c] = (CU_TestInfo){claims[c].slug, claims[c].check};
	claim_tests[N_CLAIMS] = (CU_TestInfo){"slow-envelope tail", check_slow_envelope_tail};
	for (size_t c = 0; c < N_CLAIMS; ++c)
		run_time_tests[c] = (CU_TestInfo){claims[c].slug, claims[c].check};
	const int status = test_cunit_main("test_presets", suites);
	for (size_t i = 0; i < n_presets; ++i)
		lilv_node_free(presets[i].uri);
	daw_world_free();
	return status;
}
