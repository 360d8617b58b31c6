/* SPDX-License-Identifier: ISC */
/*
 * The plugins' description (TTL) against the port table (contract/ports.h):
 * indices, symbols, names, classes, ranges, defaults, units, properties,
 * scale points, atom ports.
 * Run by test_host.c for each plugin and rate (host_fixture.h).
 */
#include "host_fixture.h"

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

/* Unit symbols docs/PORTS.md and hosts show (an independent copy). */
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
	case PU_G:
		return "g";
	case PU_HALF_TURN:
		return "π rad";
	case PU_CC:
		return "CC";
	case PU_CHANNEL:
		return "ch";
	case PU_BODIES:
		return "bodies";
	case PU_LINKS:
		return "links";
	case PU_SLOT:
		return "slot";
	case PU_CHOICE:
	case PU_SWITCH:
		return "";
	default:
		break;
	}
	*custom = false;
	switch (u) {
	case PU_COEF:
	case PU_NORM:
		return LV2_UNITS__coef;
	case PU_NOTE:
		return LV2_UNITS__midiNote;
	case PU_SEMITONE:
		return LV2_UNITS__semitone12TET;
	case PU_VOLT:
		return "http://moddevices.com/ns/mod#volts";
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

	const bool input =
	    info->kind == PK_CONTROL_IN || info->kind == PK_ATOM_IN || info->kind == PK_SIGNAL_IN;
	CHECK(port_is(p, port, LV2_CORE__InputPort) == input, "port %s: input/output", sym);
	CHECK(port_is(p, port, LV2_CORE__OutputPort) == !input, "port %s: output/input", sym);
	const bool cv = pendula_variant_is_cv(v);
	const bool control = info->kind == PK_CONTROL_IN || info->kind == PK_CONTROL_OUT;
	const bool mod_cv = info->kind == PK_MOD_CV_OUT;
	const bool signal = info->kind == PK_SIGNAL_OUT || info->kind == PK_SIGNAL_IN;
	const bool atom = info->kind == PK_ATOM_IN || info->kind == PK_ATOM_OUT;
	CHECK(mod_cv == pendula_variant_is_mod(v) || info->kind != PK_MOD_CV_OUT,
	      "port %s: a MOD CV port outside a -mod plugin", sym);
	CHECK(!pendula_variant_is_mod(v) || info->kind != PK_SIGNAL_OUT,
	      "port %s: a plain signal output in a -mod plugin", sym);
	CHECK(port_is(p, port, LV2_CORE__ControlPort) == control, "port %s: ControlPort", sym);
	CHECK(port_is(p, port, LV2_CORE__AudioPort) == (signal && !cv), "port %s: AudioPort", sym);
	CHECK(port_is(p, port, LV2_CORE__CVPort) == ((signal && cv) || mod_cv), "port %s: CVPort",
	      sym);
	CHECK(port_is(p, port, "http://moddevices.com/ns/mod#CVPort") == mod_cv,
	      "port %s: mod:CVPort", sym);
	CHECK(port_is(p, port, LV2_ATOM__AtomPort) == atom, "port %s: AtomPort", sym);
	CHECK(port_has(p, port, LV2_CORE__connectionOptional) ==
	          ((signal && cv) || atom || info->kind == PK_SIGNAL_IN || mod_cv),
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
	/* A CV input has a default, like a control (lv2lint's rule). */
	if (info->kind == PK_CONTROL_IN || (info->kind == PK_SIGNAL_IN && cv)) {
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
	/* every control and signal port says its unit (lv2lint's note) */
	CHECK(info->unit != PU_NONE, "port %s: no unit in the table", sym);
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

/* Carla's rack and internal patchbay skip, silently, a plugin with more
 * than 32 CV ports in or out or 64 audio ports (its graph's buffers,
 * docs/HOSTS.md, "Carla"): every plugin stays within them, counted in the
 * TTL as a host reads it. */
static void check_port_counts(const LilvPlugin *p)
{
	LilvNode *in = uri_node(LV2_CORE__InputPort), *out = uri_node(LV2_CORE__OutputPort);
	LilvNode *cv = uri_node(LV2_CORE__CVPort), *audio = uri_node(LV2_CORE__AudioPort);
	const uint32_t n_cv_in = lilv_plugin_get_num_ports_of_class(p, cv, in, NULL);
	const uint32_t n_cv_out = lilv_plugin_get_num_ports_of_class(p, cv, out, NULL);
	const uint32_t n_audio_in = lilv_plugin_get_num_ports_of_class(p, audio, in, NULL);
	const uint32_t n_audio_out = lilv_plugin_get_num_ports_of_class(p, audio, out, NULL);
	printf("\n      %u/%u CV, %u/%u audio ports in/out", n_cv_in, n_cv_out, n_audio_in,
	       n_audio_out);
	CHECK(n_cv_in <= PENDULA_MAX_CV_PORTS && n_cv_out <= PENDULA_MAX_CV_PORTS,
	      "%u CV inputs, %u CV outputs: Carla's rack skips the plugin over %d", n_cv_in,
	      n_cv_out, PENDULA_MAX_CV_PORTS);
	CHECK(n_audio_in <= PENDULA_MAX_AUDIO_PORTS && n_audio_out <= PENDULA_MAX_AUDIO_PORTS,
	      "%u audio inputs, %u audio outputs: Carla's rack skips the plugin over %d",
	      n_audio_in, n_audio_out, PENDULA_MAX_AUDIO_PORTS);
	/* Carla's limits themselves, so that a larger constant cannot pass */
	_Static_assert(PENDULA_MAX_CV_PORTS == 32 && PENDULA_MAX_AUDIO_PORTS == 64,
	               "Carla's MAX_GRAPH_CV_IO and MAX_GRAPH_AUDIO_IO");
	lilv_node_free(in);
	lilv_node_free(out);
	lilv_node_free(cv);
	lilv_node_free(audio);
}

void test_ports(void)
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
	/* the -midi plugins: a MIDI plugin only, which Ardour lists under
	 * "MIDI" and places as a MIDI effect (docs/HOSTS.md) */
	const bool midi = pendula_variant_is_midi(v);
	LilvNode *osc = uri_node(LV2_CORE__OscillatorPlugin);
	LilvNode *midi_class = uri_node(LV2_CORE_PREFIX "MIDIPlugin");
	LilvNodes *types = lilv_plugin_get_value(p, type_pred);
	CHECK(types && lilv_nodes_contains(types, osc) == !midi, "%s lv2:OscillatorPlugin",
	      midi ? "an" : "not an");
	CHECK(types && lilv_nodes_contains(types, midi_class) == midi, "%s lv2:MIDIPlugin",
	      midi ? "not an" : "an");
	lilv_nodes_free(types);
	lilv_node_free(osc);
	lilv_node_free(midi_class);
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

	/* A stable version by LV2's rule, which MOD and lv2lint apply: minor
	 * even and not 0 (MOD lists 0 as experimental), micro even. */
	static const char *const version_preds[2] = {LV2_CORE__minorVersion,
	                                             LV2_CORE__microVersion};
	for (int k = 0; k < 2; ++k) {
		LilvNode *vpred = uri_node(version_preds[k]);
		LilvNodes *vals = lilv_plugin_get_value(p, vpred);
		const LilvNode *val = vals ? lilv_nodes_get_first(vals) : NULL;
		const int want = k == 0 ? PENDULA_LV2_MINOR_VERSION : PENDULA_LV2_MICRO_VERSION;
		CHECK(val && lilv_node_is_int(val) && lilv_node_as_int(val) == want, "%s is not %d",
		      version_preds[k], want);
		CHECK(want % 2 == 0 && (k == 1 || want > 0), "%s %d: not a stable version",
		      version_preds[k], want);
		lilv_nodes_free(vals);
		lilv_node_free(vpred);
	}

	for (uint32_t i = 0; i < lilv_plugin_get_num_ports(p) && i < pendula_port_count(v); ++i)
		check_port(p, v, i);
	check_port_counts(p);

	/* Symbols are unique within the plugin and valid C identifiers (LV2
	 * requires it).  Two rows of the table may share a symbol if no plugin
	 * has both (x1: the spherical pendulum's row, and the planar models'
	 * row added after it, with the same meaning). */
	for (int a = 0; a < PENDULA_N_PORT_IDS; ++a) {
		const char *s = pendula_ports[a].symbol;
		bool ok =
		    (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_';
		for (const char *c = s; *c; ++c)
			ok = ok && ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			            (*c >= '0' && *c <= '9') || *c == '_');
		CHECK(ok, "symbol '%s' is not an identifier", s);
		for (int b = a + 1; b < PENDULA_N_PORT_IDS; ++b)
			CHECK(!pendula_port_in_variant(v, a) || !pendula_port_in_variant(v, b) ||
			          strcmp(s, pendula_ports[b].symbol),
			      "symbol '%s' twice", s);
	}
}
