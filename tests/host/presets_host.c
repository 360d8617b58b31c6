/* SPDX-License-Identifier: ISC */
/*
 * The presets' host (presets.h): the library as lilv lists it, a preset
 * loaded as jalv loads one (before activate() or, in the suite "claims at
 * run time", into a running instance), and the statistics of a run that
 * the claims compare with what each preset's description says.
 */
#include "presets.h"

static const char *preset_base = "https://pendula.invalid/plugins/pendula/presets#";

/* ---------------------------------------------------------------------- */
/* The library                                                             */

preset_info presets[MAX_PRESETS];
size_t n_presets;

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

void collect_presets(void)
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

const preset_info *find_preset(const char *slug)
{
	for (size_t i = 0; i < n_presets; ++i)
		if (!strcmp(presets[i].slug, slug))
			return &presets[i];
	return NULL;
}

/* ---------------------------------------------------------------------- */
/* Loading a preset into a host                                            */

static LV2_URID urid_float, urid_double, urid_int, urid_long, urid_bool;

void presets_map_urids(void)
{
	daw_map_urids();
	urid_float = lv2th_map_uri(NULL, LV2_ATOM__Float);
	urid_double = lv2th_map_uri(NULL, LV2_ATOM__Double);
	urid_int = lv2th_map_uri(NULL, LV2_ATOM__Int);
	urid_long = lv2th_map_uri(NULL, LV2_ATOM__Long);
	urid_bool = lv2th_map_uri(NULL, LV2_ATOM__Bool);
}

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
DawHost *host_with_preset(pendula_variant v, const preset_info *p, restore_ctx *ctx)
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
bool at_run_time;

/* The preset restored into a running instance: activated with other
 * initial angles (no preset uses 45.5 degrees) or at the defaults, run for
 * 1.3 s in random blocks, then the preset restored through lilv.  The frame
 * counter of the test host starts again at 0 there. */
DawHost *host_running_with_preset_from(pendula_variant v, const preset_info *p, restore_ctx *ctx,
                                       bool other_start)
{
	DawHost *h = daw_host_new(v, RATE, false);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (other_start && h->has[id] && (pendula_ports[id].flags & PF_INITIAL))
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

DawHost *host_running_with_preset(pendula_variant v, const preset_info *p, restore_ctx *ctx)
{
	return host_running_with_preset_from(v, p, ctx, true);
}

/* The claims' hosts are activated through start(): at run time they are. */
void start(DawHost *h)
{
	if (!at_run_time)
		daw_activate(h);
}

DawHost *load(pendula_variant v, const char *slug)
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
DawHost *load_activated(pendula_variant v, const char *slug)
{
	DawHost *h = load(v, slug);
	if (h)
		start(h);
	return h;
}

/* ---------------------------------------------------------------------- */
/* Streaming statistics of a run                                           */

const pendula_port_id theta_port[6] = {P_OUT_THETA1, P_OUT_THETA2, P_OUT_THETA3,
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
void render_stats(DawHost *h, double seconds, double from, run_stats *s)
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
double double_flip_energy(const DawHost *h)
{
	const double m1 = h->control[P_M1], m2 = h->control[P_M2];
	const double l1 = h->control[P_L1], l2 = h->control[P_L2];
	const double den = (m1 + m2) * l1 + m2 * l2;
	const double arm2 = m2 * l2 / den, arm1 = (m1 + m2) * l1 / den;
	return arm2 < arm1 ? arm2 : arm1;
}

/* I_O1 of body 1 (parallel model). */
double inertia_o1(const DawHost *h)
{
	return h->control[P_INERTIA1] + h->control[P_M1] * h->control[P_C1] * h->control[P_C1];
}

/* Two hosts: the preset, and the preset with theta1_init moved by 1e-4 deg. */
double preset_divergence_on(pendula_variant v, const char *slug, double seconds)
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
