/* SPDX-License-Identifier: ISC */
/*
 * The plugins as a MOD device sees them.  MOD's rules, reproduced from
 * their public sources and documentation (docs/HOSTS.md, "MOD"):
 *   - mod-ui's plugin reader (utils/utils_lilv.cpp) takes a port as CV only
 *     if it is a mod:CVPort (a plain lv2:CVPort only with a developer
 *     override), its direction from lv2:InputPort / lv2:OutputPort, and
 *     its range from mod:minimum / mod:maximum, else lv2:minimum /
 *     lv2:maximum, else -5..5; a plugin with a port of no known direction
 *     or type is not supported at all;
 *   - the MOD vocabulary (mod:CVPort): a MOD CV port MUST declare its
 *     range, one of -10..0, -5..5 or 0..10, in volts (mod:volts);
 *   - mod-ui lists lv2:minorVersion 0 as experimental, an odd minor or
 *     micro version as testing.
 * Only the -mod plugins have MOD CV outputs; the others, -cv too, have
 * none.  Then the values: every MOD CV output of a -mod plugin stays in
 * its range and is, on MOD's scale, the signal that the audio plugin of
 * the same settings gives at the same frames, for any block sizes, frozen
 * or not, whichever other outputs are connected.  Run by test_host.c for
 * each plugin.
 */
#include "host_fixture.h"

#define MOD_NS "http://moddevices.com/ns/mod#"

static bool port_is(const LilvPlugin *p, const LilvPort *port, const char *uri)
{
	LilvNode *n = lilv_new_uri(world, uri);
	const bool r = lilv_port_is_a(p, port, n);
	lilv_node_free(n);
	return r;
}

/* A number of the port: mod:NAME first, then lv2:NAME, as mod-ui reads. */
static bool port_number(const LilvPlugin *p, const LilvPort *port, const char *name, float *value)
{
	char uri[128];
	snprintf(uri, sizeof uri, MOD_NS "%s", name);
	LilvNode *pred = lilv_new_uri(world, uri);
	LilvNode *val = lilv_port_get(p, port, pred);
	lilv_node_free(pred);
	if (!val) {
		snprintf(uri, sizeof uri, LV2_CORE_PREFIX "%s", name);
		pred = lilv_new_uri(world, uri);
		val = lilv_port_get(p, port, pred);
		lilv_node_free(pred);
	}
	const bool ok = val && (lilv_node_is_float(val) || lilv_node_is_int(val));
	if (ok)
		*value = lilv_node_as_float(val);
	lilv_node_free(val);
	return ok;
}

static bool mod_range(float lo, float hi)
{
	return (lo == -10.0f && hi == 0.0f) || (lo == -5.0f && hi == 5.0f) ||
	       (lo == 0.0f && hi == 10.0f);
}

/* The signal a MOD CV output carries: "<signal>_volts", a signal output
 * of the model (the -mod plugin has no port of its own for it). */
static int signal_of(pendula_variant v, const char *symbol)
{
	const size_t n = strlen(symbol);
	if (n < 7 || strcmp(symbol + n - 6, "_volts"))
		return -1;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if ((pendula_ports[id].models & pendula_variant_model_mask(v)) &&
		    pendula_ports[id].kind == PK_SIGNAL_OUT &&
		    strlen(pendula_ports[id].symbol) == n - 6 &&
		    !strncmp(pendula_ports[id].symbol, symbol, n - 6))
			return id;
	return -1;
}

/* mod-ui's reading of the description; fills the MOD CV outputs' signal and
 * range by port id. */
static int mod_ui_cv_outputs(const LilvPlugin *p, pendula_variant v, int *signal, float *lo,
                             float *hi)
{
	int n_cv = 0;
	bool covered[PENDULA_N_PORT_IDS] = {false};
	for (uint32_t i = 0; i < lilv_plugin_get_num_ports(p); ++i) {
		const LilvPort *port = lilv_plugin_get_port_by_index(p, i);
		const char *sym = lilv_node_as_string(lilv_port_get_symbol(p, port));
		const bool in = port_is(p, port, LV2_CORE__InputPort);
		const bool out = port_is(p, port, LV2_CORE__OutputPort);
		const bool typed =
		    port_is(p, port, LV2_CORE__AudioPort) ||
		    port_is(p, port, LV2_CORE__ControlPort) || port_is(p, port, LV2_CORE__CVPort) ||
		    port_is(p, port, LV2_ATOM__AtomPort) || port_is(p, port, MOD_NS "CVPort");
		CHECK(in != out && typed, "%s: mod-ui cannot read this port's direction or type",
		      sym);
		if (!port_is(p, port, MOD_NS "CVPort"))
			continue; /* (a plain lv2:CVPort: not listed) */
		CHECK(out, "%s: a MOD CV input", sym);
		const int id = pendula_port_id_at(v, i);
		float a = -5.0f, b = 5.0f; /* (mod-ui's fallback) */
		const bool declared =
		    port_number(p, port, "minimum", &a) && port_number(p, port, "maximum", &b);
		CHECK(declared && mod_range(a, b), "%s: range %g..%g is none of MOD's", sym,
		      (double)a, (double)b);
		LilvNode *pred = lilv_new_uri(world, LV2_UNITS__unit);
		LilvNode *unit = lilv_port_get(p, port, pred);
		CHECK(unit && lilv_node_is_uri(unit) &&
		          !strcmp(lilv_node_as_uri(unit), MOD_NS "volts"),
		      "%s: not in mod:volts", sym);
		lilv_node_free(unit);
		lilv_node_free(pred);
		const int s = signal_of(v, sym);
		CHECK(s >= 0 && !covered[s], "%s: no signal output of its own", sym);
		if (s < 0 || id < 0)
			continue;
		covered[s] = true;
		signal[id] = s;
		lo[id] = a;
		hi[id] = b;
		++n_cv;
	}
	/* Every signal output of the model's -cv plugin reaches MOD through its
	 * -mod plugin; none through the others. */
	const pendula_variant vc = pendula_variant_of(pendula_variant_model(v), PENDULA_KIND_CV);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (pendula_port_in_variant(vc, id) && pendula_ports[id].kind == PK_SIGNAL_OUT)
			CHECK(covered[id] == (bool)pendula_variant_is_mod(v),
			      "%s: %s MOD CV output", pendula_ports[id].symbol,
			      covered[id] ? "a" : "no");
	return n_cv;
}

/* mod-ui's stability of the plugin (utils_lilv.cpp). */
static void check_stability(const LilvPlugin *p)
{
	int version[2] = {0, 0};
	static const char *const preds[2] = {LV2_CORE__minorVersion, LV2_CORE__microVersion};
	for (int k = 0; k < 2; ++k) {
		LilvNode *pred = lilv_new_uri(world, preds[k]);
		LilvNodes *vals = lilv_plugin_get_value(p, pred);
		if (vals)
			version[k] = lilv_node_as_int(lilv_nodes_get_first(vals));
		lilv_nodes_free(vals);
		lilv_node_free(pred);
	}
	CHECK(version[0] != 0, "MOD lists version %d.%d as experimental", version[0], version[1]);
	CHECK(version[0] % 2 == 0 && version[1] % 2 == 0, "MOD lists version %d.%d as testing",
	      version[0], version[1]);
}

/* What a MOD CV output must read for a value of its signal: the signal's
 * declared range onto the bipolar volts; the energy (unbounded) over
 * energy_max onto 0..10 V, clipped. */
static float expected_volts(int signal, float slo, float shi, float lo, float hi, float x,
                            float energy_max)
{
	if (pendula_ports[signal].flags & PF_CC_ENERGY) {
		const float e = x / energy_max;
		return e >= 1.0f ? hi : e * hi;
	}
	const float v = x * (hi / fmaxf(fabsf(slo), fabsf(shi)));
	return v < lo ? lo : v > hi ? hi : v;
}

/* The signal's declared range, as the audio plugin's TTL says (read once
 * per port: lilv's lookups are slow under valgrind). */
static void signal_range(pendula_variant va, int signal, float *slo, float *shi)
{
	const LilvPlugin *p = plugins[va];
	const LilvPort *port = lilv_plugin_get_port_by_index(
	    p, (uint32_t)pendula_port_index(va, (pendula_port_id)signal));
	*slo = -1.0f;
	*shi = 1.0f;
	port_number(p, port, "minimum", slo);
	port_number(p, port, "maximum", shi);
}

#define MOD_FRAMES 24000u

typedef struct {
	float *out[PENDULA_N_PORT_IDS]; /* by the MOD CV output's id */
} mod_run;

/* A run of plugin v: blocks of varied sizes (0 too), the last quarter
 * frozen.  A -mod plugin with the MOD CV outputs that pick[] names
 * connected, recorded; the audio plugin with its signals connected, each
 * recorded under its MOD CV output's id. */
static void run_mod(mod_run *r, pendula_variant v, const int *signal, const bool *pick,
                    float energy_max, float energy_target)
{
	static const uint32_t sizes[] = {1000, 0, 37, 4096, 1, 512, 333};
	const bool mod = pendula_variant_is_mod(v);
	Host *h = host_new(v, cur_rate);
	float *buf[PENDULA_N_PORT_IDS] = {NULL};
	host_set(h, P_ENERGY_MAX, energy_max);
	host_set(h, P_ENERGY_TARGET, energy_target);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (signal[id] < 0 || !pick[id])
			continue;
		r->out[id] = lv2th_calloc(MOD_FRAMES, sizeof(float));
		if (!mod) {
			buf[id] = h->buf[signal[id]];
			continue;
		}
		buf[id] = lv2th_calloc(MAX_BLOCK, sizeof(float));
		lilv_instance_connect_port(h->inst, (uint32_t)pendula_port_index(v, id), buf[id]);
	}
	for (uint32_t done = 0, k = 0; done < MOD_FRAMES; ++k) {
		uint32_t n = sizes[k % (sizeof sizes / sizeof sizes[0])];
		if (n > MOD_FRAMES - done)
			n = MOD_FRAMES - done;
		host_set(h, P_FREEZE, done >= MOD_FRAMES / 4 * 3 ? 1.0f : 0.0f);
		host_prepare_atoms(h);
		lilv_instance_run(h->inst, n);
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
			if (buf[id])
				memcpy(r->out[id] + done, buf[id], n * sizeof(float));
		done += n;
	}
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (mod)
			free(buf[id]);
	host_free(h);
}

static void mod_run_free(mod_run *r)
{
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		free(r->out[id]);
}

/* The values: in range, the audio plugin's signal on MOD's scale, the same
 * with only every other MOD CV output connected. */
static void check_values(const int *signal, const float *lo, const float *hi, float energy_max,
                         float energy_target)
{
	const pendula_variant va =
	    pendula_variant_of(pendula_variant_model(cur_variant), PENDULA_KIND_AUDIO);
	bool all[PENDULA_N_PORT_IDS], half[PENDULA_N_PORT_IDS];
	for (int id = 0, k = 0; id < PENDULA_N_PORT_IDS; ++id) {
		all[id] = true;
		half[id] = signal[id] >= 0 && k++ % 2 == 0;
	}
	mod_run a = {{NULL}}, b = {{NULL}}, sig = {{NULL}};
	run_mod(&a, cur_variant, signal, all, energy_max, energy_target);
	run_mod(&b, cur_variant, signal, half, energy_max, energy_target);
	run_mod(&sig, va, signal, all, energy_max, energy_target);
	float swing = 0.0f;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (signal[id] < 0)
			continue;
		const char *sym = pendula_ports[id].symbol;
		float slo, shi;
		signal_range(va, signal[id], &slo, &shi);
		size_t bad = MOD_FRAMES;
		for (size_t i = 0; i < MOD_FRAMES && bad == MOD_FRAMES; ++i) {
			const float v = a.out[id][i];
			const float want = expected_volts(signal[id], slo, shi, lo[id], hi[id],
			                                  sig.out[id][i], energy_max);
			if (!(v >= lo[id] && v <= hi[id]) || fabsf(v - want) > 1e-6f * hi[id])
				bad = i;
			if (pendula_ports[signal[id]].channel >= PENDULA_CH_THETA &&
			    pendula_ports[signal[id]].channel <
			        PENDULA_CH_THETA + PENDULA_MAX_BODIES)
				swing = fmaxf(swing, fabsf(v));
		}
		CHECK(bad == MOD_FRAMES, "%s: frame %zu: %g V for %g (range %g..%g)", sym, bad,
		      bad < MOD_FRAMES ? (double)a.out[id][bad] : 0.0,
		      bad < MOD_FRAMES ? (double)sig.out[id][bad] : 0.0, (double)lo[id],
		      (double)hi[id]);
		if (b.out[id]) {
			const size_t d = first_difference(a.out[id], b.out[id], MOD_FRAMES);
			CHECK(d == MOD_FRAMES, "%s: frame %zu differs with half the outputs", sym,
			      d);
		}
	}
	/* the angles use MOD's scale, not a fifth of it (the angle outputs of
	 * the default, large swing pass ±0.2 of a turn) */
	if (pendula_port_in_variant(cur_variant, P_VOLTS_THETA1))
		CHECK(swing > 1.0f, "angles reach only %g V", (double)swing);
	mod_run_free(&a);
	mod_run_free(&b);
	mod_run_free(&sig);
}

void test_mod_cv(void)
{
	const pendula_variant v = cur_variant;
	const LilvPlugin *p = plugins[v];
	int signal[PENDULA_N_PORT_IDS];
	float lo[PENDULA_N_PORT_IDS], hi[PENDULA_N_PORT_IDS];
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		signal[id] = -1;
	const int n = mod_ui_cv_outputs(p, v, signal, lo, hi);
	check_stability(p);
	if (!pendula_variant_is_mod(v)) {
		CHECK(n == 0, "%d MOD CV outputs in the %s plugin", n, pendula_variant_names[v]);
		return;
	}
	CHECK(n > 0, "mod-ui lists no CV output");
	/* the defaults; then the energy pumped high over the narrowest CC
	 * range, so that the energy's volts sit at the top */
	check_values(signal, lo, hi, pendula_port_default(v, P_ENERGY_MAX),
	             pendula_port_default(v, P_ENERGY_TARGET));
	check_values(signal, lo, hi, 0.01f, 4.0f);
}
