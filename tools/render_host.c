/* SPDX-License-Identifier: ISC */
/* pendula-render: the plugin's ports, LV2_PATH and bundles, presets (see
 * render.h). */
#define _XOPEN_SOURCE 700 /* realpath */

#include "render.h"

#include <lv2/core/lv2.h>
#include <lv2/presets/presets.h>
#include <lv2/resize-port/resize-port.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

const char *role_name(const Port *p)
{
	switch (p->role) {
	case ROLE_CONTROL_IN:
		return "control-in";
	case ROLE_CONTROL_OUT:
		return "control-out";
	case ROLE_SIGNAL_IN:
		return p->is_cv ? "cv-in" : "audio-in";
	case ROLE_SIGNAL_OUT:
		return p->is_cv ? "cv-out" : "audio-out";
	case ROLE_ATOM_IN:
		return "atom-in";
	case ROLE_ATOM_OUT:
		return "atom-out";
	case ROLE_OTHER:
		if (p->is_mod_cv)
			return "mod-cv-out";
		break;
	}
	return "other";
}

Port *find_port(const Host *h, const char *symbol)
{
	for (uint32_t i = 0; i < h->n_ports; ++i)
		if (strcmp(h->ports[i].symbol, symbol) == 0)
			return &h->ports[i];
	return NULL;
}

static float node_float(const LilvNode *n, int *ok)
{
	*ok = n && (lilv_node_is_float(n) || lilv_node_is_int(n));
	return *ok ? lilv_node_as_float(n) : 0.0f;
}

void collect_ports(Host *h)
{
	LilvWorld *w = h->world;
	LilvNode *input = lilv_new_uri(w, LV2_CORE__InputPort);
	LilvNode *output = lilv_new_uri(w, LV2_CORE__OutputPort);
	LilvNode *control = lilv_new_uri(w, LV2_CORE__ControlPort);
	LilvNode *audio = lilv_new_uri(w, LV2_CORE__AudioPort);
	LilvNode *cv = lilv_new_uri(w, LV2_CORE__CVPort);
	LilvNode *mod_cv = lilv_new_uri(w, "http://moddevices.com/ns/mod#CVPort");
	LilvNode *atom = lilv_new_uri(w, LV2_ATOM__AtomPort);
	LilvNode *optional = lilv_new_uri(w, LV2_CORE__connectionOptional);
	LilvNode *integer = lilv_new_uri(w, LV2_CORE__integer);
	LilvNode *toggled = lilv_new_uri(w, LV2_CORE__toggled);
	LilvNode *min_size = lilv_new_uri(w, LV2_RESIZE_PORT__minimumSize);

	h->n_ports = lilv_plugin_get_num_ports(h->plugin);
	h->ports = xcalloc(h->n_ports, sizeof(*h->ports));
	h->signals = xcalloc(h->n_ports, sizeof(*h->signals));

	for (uint32_t i = 0; i < h->n_ports; ++i) {
		const LilvPort *lp = lilv_plugin_get_port_by_index(h->plugin, i);
		Port *p = &h->ports[i];
		LilvNode *name = lilv_port_get_name(h->plugin, lp);
		LilvNode *def = NULL, *min = NULL, *max = NULL;
		int is_in = lilv_port_is_a(h->plugin, lp, input);
		int is_out = lilv_port_is_a(h->plugin, lp, output);

		p->index = i;
		p->symbol = xstrdup(lilv_node_as_string(lilv_port_get_symbol(h->plugin, lp)));
		p->name = xstrdup(name ? lilv_node_as_string(name) : p->symbol);
		lilv_node_free(name);
		p->optional = lilv_port_has_property(h->plugin, lp, optional);
		p->integer = lilv_port_has_property(h->plugin, lp, integer);
		p->toggled = lilv_port_has_property(h->plugin, lp, toggled);
		p->signal = -1;
		p->role = ROLE_OTHER;

		if (lilv_port_is_a(h->plugin, lp, mod_cv)) {
			/* a signal again, in MOD's volts (docs/HOSTS.md, "MOD"): not
			 * rendered, left unconnected (it is optional) */
			p->is_mod_cv = 1;
		} else if (lilv_port_is_a(h->plugin, lp, control)) {
			p->role = is_in ? ROLE_CONTROL_IN : is_out ? ROLE_CONTROL_OUT : ROLE_OTHER;
		} else if (lilv_port_is_a(h->plugin, lp, audio) ||
		           lilv_port_is_a(h->plugin, lp, cv)) {
			p->is_cv = lilv_port_is_a(h->plugin, lp, cv);
			p->role = is_in ? ROLE_SIGNAL_IN : is_out ? ROLE_SIGNAL_OUT : ROLE_OTHER;
		} else if (lilv_port_is_a(h->plugin, lp, atom)) {
			LilvNodes *sizes = lilv_port_get_value(h->plugin, lp, min_size);
			const LilvNode *sz = sizes ? lilv_nodes_get_first(sizes) : NULL;
			p->role = is_in ? ROLE_ATOM_IN : is_out ? ROLE_ATOM_OUT : ROLE_OTHER;
			p->atom_capacity = 65536;
			if (sz && lilv_node_is_int(sz) && lilv_node_as_int(sz) > 65536)
				p->atom_capacity = (uint32_t)lilv_node_as_int(sz);
			lilv_nodes_free(sizes);
		}

		lilv_port_get_range(h->plugin, lp, &def, &min, &max);
		p->def = node_float(def, &p->has_def);
		p->min = node_float(min, &p->has_min);
		p->max = node_float(max, &p->has_max);
		lilv_node_free(def);
		lilv_node_free(min);
		lilv_node_free(max);
		/* No default: the minimum, else 0 (what most hosts do). */
		p->value = p->has_def ? p->def : p->has_min ? p->min : 0.0f;

		if (p->role == ROLE_SIGNAL_OUT) {
			p->signal = (int)h->n_signals;
			h->signals[h->n_signals++] = p;
		}
	}

	lilv_node_free(input);
	lilv_node_free(output);
	lilv_node_free(control);
	lilv_node_free(mod_cv);
	lilv_node_free(audio);
	lilv_node_free(cv);
	lilv_node_free(atom);
	lilv_node_free(optional);
	lilv_node_free(integer);
	lilv_node_free(toggled);
	lilv_node_free(min_size);
}

void list_ports(const Host *h)
{
	printf("%-5s %-16s %-11s %10s %10s %10s  %s\n", "index", "symbol", "kind", "min", "max",
	       "default", "name");
	for (uint32_t i = 0; i < h->n_ports; ++i) {
		const Port *p = &h->ports[i];
		char mn[32] = "-", mx[32] = "-", df[32] = "-";
		if (p->has_min)
			snprintf(mn, sizeof(mn), "%g", p->min);
		if (p->has_max)
			snprintf(mx, sizeof(mx), "%g", p->max);
		if (p->has_def)
			snprintf(df, sizeof(df), "%g", p->def);
		printf("%-5u %-16s %-11s %10s %10s %10s  %s\n", p->index, p->symbol, role_name(p),
		       mn, mx, df, p->name);
	}
}

/* ------------------------------------------------------------------------ */
/* Plugin and presets */

/* Plugin and presets */

const char *resolve_plugin_uri(const char *arg)
{
	for (size_t i = 0; i < PENDULA_N_VARIANTS; ++i)
		if (strcmp(arg, pendula_variant_names[i]) == 0)
			return pendula_variant_uris[i];
	if (strchr(arg, ':'))
		return arg;
	die_usage("unknown plugin '%s': expected a short name (see --help) or a full plugin URI",
	          arg);
	return NULL;
}

void load_bundle(LilvWorld *world, const char *dir)
{
	char err[4200];
	if (!lv2th_load_bundle(world, dir, err, sizeof err))
		die_usage("--bundle: %s", err);
}

/* Is the text before "/manifest.ttl" at `end` in `line` the path (or file
 * URI) of something that is no bundle: a plain file, or a folder without a
 * manifest.ttl whose name does not end in ".lv2"? */
static int names_non_bundle(const char *line, const char *end)
{
	const char *start = end;
	char path[4096];
	struct stat st;
	size_t len;

	while (start > line && start[-1] != ' ' && start[-1] != '`' && start[-1] != '\'')
		--start;
	if (strncmp(start, "file://", 7) == 0)
		start += 7;
	len = (size_t)(end - start);
	if (len == 0 || len >= sizeof(path) || start[0] != '/')
		return 0;
	memcpy(path, start, len);
	path[len] = '\0';
	if (stat(path, &st) != 0)
		return 0;
	if (!S_ISDIR(st.st_mode))
		return 1;
	if (len >= 4 && strcmp(path + len - 4, ".lv2") == 0)
		return 0;
	if (len + sizeof("/manifest.ttl") > sizeof(path))
		return 0;
	memcpy(path + len, "/manifest.ttl", sizeof("/manifest.ttl"));
	return stat(path, &st) != 0;
}

/* lilv_world_load_all() over LV2_PATH made absolute (lilv 0.24 crashes on a
 * relative entry), without the three error lines lilv 0.24 prints
 * for every entry of an LV2_PATH folder that is no bundle (it tries each one
 * as a bundle): LV2_PATH=build would otherwise bury the output under
 * complaints about build.ninja, meson-logs/ and friends.  Every other
 * message (a broken bundle, a Turtle syntax error) is passed on. */
void load_all_filtered(LilvWorld *world)
{
	FILE *tmp = tmpfile();
	int saved = -1;
	char line[8192];

	lv2th_absolute_lv2_path(world);
	fflush(stderr);
	if (tmp)
		saved = dup(STDERR_FILENO);
	if (saved < 0 || dup2(fileno(tmp), STDERR_FILENO) < 0) {
		if (saved >= 0)
			close(saved);
		if (tmp)
			fclose(tmp);
		lilv_world_load_all(world);
		return;
	}
	lilv_world_load_all(world);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(tmp);
	while (fgets(line, sizeof(line), tmp)) {
		const char *m = strstr(line, "/manifest.ttl");
		if (m && names_non_bundle(line, m))
			continue;
		fputs(line, stderr);
	}
	fclose(tmp);
}

typedef struct {
	LilvNode *uri;
	char *label; /* may be NULL */
} Preset;

static Preset *get_presets(Host *h, size_t *n_out)
{
	LilvNode *pset = lilv_new_uri(h->world, LV2_PRESETS__Preset);
	LilvNode *label_pred = lilv_new_uri(h->world, LILV_NS_RDFS "label");
	LilvNodes *related = lilv_plugin_get_related(h->plugin, pset);
	Preset *presets = xcalloc(related ? lilv_nodes_size(related) : 0, sizeof(*presets));
	size_t n = 0;

	LILV_FOREACH(nodes, i, related)
	{
		const LilvNode *node = lilv_nodes_get(related, i);
		LilvNode *label;
		lilv_world_load_resource(h->world, node);
		label = lilv_world_get(h->world, node, label_pred, NULL);
		presets[n].uri = lilv_node_duplicate(node);
		presets[n].label = label ? xstrdup(lilv_node_as_string(label)) : NULL;
		lilv_node_free(label);
		++n;
	}
	lilv_nodes_free(related);
	lilv_node_free(label_pred);
	lilv_node_free(pset);
	*n_out = n;
	return presets;
}

static void free_presets(Preset *presets, size_t n)
{
	for (size_t i = 0; i < n; ++i) {
		lilv_node_free(presets[i].uri);
		free(presets[i].label);
	}
	free(presets);
}

static void preset_set_value(const char *symbol, void *user_data, const void *value, uint32_t size,
                             uint32_t type)
{
	Host *h = user_data;
	Port *p = find_port(h, symbol);
	double v;

	if (type == lv2th_map_uri(NULL, LV2_ATOM__Float) && size == sizeof(float))
		v = *(const float *)value;
	else if (type == lv2th_map_uri(NULL, LV2_ATOM__Double) && size == sizeof(double))
		v = *(const double *)value;
	else if (type == lv2th_map_uri(NULL, LV2_ATOM__Int) && size == sizeof(int32_t))
		v = *(const int32_t *)value;
	else if (type == lv2th_map_uri(NULL, LV2_ATOM__Long) && size == sizeof(int64_t))
		v = (double)*(const int64_t *)value;
	else if (type == lv2th_map_uri(NULL, LV2_ATOM__Bool) && size == sizeof(int32_t))
		v = *(const int32_t *)value != 0;
	else {
		if (!g_quiet)
			warn("preset '%s': port '%s' has a value of an unsupported type; ignored",
			     h->preset_label, symbol);
		return;
	}
	if (!p || p->role != ROLE_CONTROL_IN) {
		if (!g_quiet)
			warn("preset '%s': '%s' is not a control input of this plugin; ignored",
			     h->preset_label, symbol);
		return;
	}
	p->value = (float)v;
}

/* Find a preset by URI, exact label, or label ignoring case; load its port
 * values into the ports.  Returns the state (for properties), or exits. */
LilvState *apply_preset(Host *h, const char *name)
{
	size_t n = 0, found = SIZE_MAX;
	Preset *presets = get_presets(h, &n);
	LilvState *state;

	for (size_t i = 0; i < n && found == SIZE_MAX; ++i)
		if (strcmp(lilv_node_as_uri(presets[i].uri), name) == 0)
			found = i;
	for (int pass = 0; pass < 2 && found == SIZE_MAX; ++pass) {
		size_t matches = 0;
		for (size_t i = 0; i < n; ++i)
			if (presets[i].label &&
			    (pass == 0 ? strcmp(presets[i].label, name) == 0
			               : strcasecmp(presets[i].label, name) == 0)) {
				if (matches++ == 0)
					found = i;
			}
		if (matches > 1)
			die_usage(
			    "--preset: '%s' names %zu presets; give its URI (see --list-presets)",
			    name, matches);
	}
	if (found == SIZE_MAX)
		die_usage("--preset: no preset '%s' for %s (see --list-presets)", name, h->uri);

	state = lilv_state_new_from_world(h->world, &lv2th_map, presets[found].uri);
	if (!state)
		die("--preset: cannot load preset <%s>", lilv_node_as_uri(presets[found].uri));
	h->preset_label = xstrdup(presets[found].label ? presets[found].label
	                                               : lilv_node_as_uri(presets[found].uri));
	lilv_state_emit_port_values(state, preset_set_value, h);
	free_presets(presets, n);
	return state;
}

void print_presets(Host *h)
{
	size_t n = 0;
	Preset *presets = get_presets(h, &n);
	if (n == 0 && !g_quiet)
		fprintf(stderr, PROG ": %s has no presets\n", h->uri);
	for (size_t i = 0; i < n; ++i)
		printf("%-24s %s\n", presets[i].label ? presets[i].label : "(no label)",
		       lilv_node_as_uri(presets[i].uri));
	free_presets(presets, n);
}

void apply_settings(Host *h, const Options *o)
{
	for (size_t i = 0; i < o->n_sets; ++i) {
		const Setting *s = &o->sets[i];
		Port *p = find_port(h, s->symbol);
		if (!p)
			die_usage("--set: unknown port symbol '%s' for %s (see --list-ports)",
			          s->symbol, h->uri);
		if (p->role != ROLE_CONTROL_IN)
			die_usage("--set: '%s' is not a control input (it is %s)", s->symbol,
			          role_name(p));
		if (fabs(s->value) > 3.4e38)
			die_usage("--set %s: %s is out of single-precision range", s->symbol,
			          s->arg);
		p->value = (float)s->value;
		p->value_set = 1;
		/* (the float the plugin gets against the port's float bounds:
		 * 0.1 is not below a minimum of 0.1) */
		if (!g_quiet &&
		    ((p->has_min && p->value < p->min) || (p->has_max && p->value > p->max)))
			warn("--set %s is outside [%g, %g]; the plugin clamps it", s->arg, p->min,
			     p->max);
		/* A whole-number port takes the nearest whole number (a switch:
		 * on from 0.5), as the plugin does; the picture and its title
		 * then show the setting the plugin ran. */
		const float whole =
		    p->toggled || p->integer ? pendula_whole_value(p->value, p->toggled) : p->value;
		if (whole != p->value) {
			if (!g_quiet)
				warn("--set %s: the port takes whole numbers; the plugin uses %g",
				     s->arg, whole);
			p->value = whole;
		}
	}
}

void check_features(const LilvPlugin *plugin, const char *const *supported)
{
	LilvNodes *required = lilv_plugin_get_required_features(plugin);
	LILV_FOREACH(nodes, i, required)
	{
		const char *uri = lilv_node_as_uri(lilv_nodes_get(required, i));
		int ok = 0;
		for (const char *const *s = supported; *s; ++s)
			if (strcmp(uri, *s) == 0)
				ok = 1;
		if (!ok)
			die("the plugin requires feature <%s>, which " PROG " does not provide",
			    uri);
	}
	lilv_nodes_free(required);
}
