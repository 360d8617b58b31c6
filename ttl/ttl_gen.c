/* SPDX-License-Identifier: ISC */
/*
 * ttl_gen: the bundle description, generated from the one port table
 * (contract/ports.h), so the TTL cannot drift from the code.
 *
 *   ttl_gen --outdir DIR --binary pendula.so [-- FRAGMENT.ttl...]
 *       writes DIR/manifest.ttl and DIR/pendula.ttl.  Each FRAGMENT is
 *       appended verbatim to manifest.ttl (presets, UI); a fragment is a
 *       self-contained piece of Turtle with its own @prefix lines.
 *   ttl_gen --markdown
 *       prints the port reference docs/PORTS.md, the whole file, on stdout.
 *
 * Runs at build time on the build machine; plain C99, no LV2 header (the
 * URIs below are the public vocabulary of LV2).
 */
#include "ports.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAINTAINER          "The Pendula team"
/* The project has no public web site or mailbox yet: its addresses are under
 * the project's own reserved .invalid domain (RFC 2606), like its URIs, so
 * hosts and checkers see where they go and nobody is misled. */
#define MAINTAINER_MBOX     "mailto:team@pendula.invalid"
#define MAINTAINER_HOMEPAGE "https://pendula.invalid/"
#define LICENSE             "http://opensource.org/licenses/isc"
#define PROJECT_URI         PENDULA_URI_BASE "project"

/* MOD devices' short names (the MOD LV2 vocabulary says at most 11 and 16
 * characters). */
#define MOD_BRAND     "Pendula"
#define MOD_BRAND_MAX 11
#define MOD_LABEL_MAX 16
_Static_assert(sizeof MOD_BRAND - 1 <= MOD_BRAND_MAX, "mod:brand fits");

static const char *prefixes = "@prefix atom:   <http://lv2plug.in/ns/ext/atom#> .\n"
                              "@prefix doap:   <http://usefulinc.com/ns/doap#> .\n"
                              "@prefix foaf:   <http://xmlns.com/foaf/0.1/> .\n"
                              "@prefix log:    <http://lv2plug.in/ns/ext/log#> .\n"
                              "@prefix lv2:    <http://lv2plug.in/ns/lv2core#> .\n"
                              "@prefix midi:   <http://lv2plug.in/ns/ext/midi#> .\n"
                              "@prefix mod:    <http://moddevices.com/ns/mod#> .\n"
                              "@prefix pg:     <http://lv2plug.in/ns/ext/port-groups#> .\n"
                              "@prefix pprops: <http://lv2plug.in/ns/ext/port-props#> .\n"
                              "@prefix rdf:    <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .\n"
                              "@prefix rdfs:   <http://www.w3.org/2000/01/rdf-schema#> .\n"
                              "@prefix rsz:    <http://lv2plug.in/ns/ext/resize-port#> .\n"
                              "@prefix state:  <http://lv2plug.in/ns/ext/state#> .\n"
                              "@prefix time:   <http://lv2plug.in/ns/ext/time#> .\n"
                              "@prefix units:  <http://lv2plug.in/ns/extensions/units#> .\n"
                              "@prefix urid:   <http://lv2plug.in/ns/ext/urid#> .\n";

/* Capacity asked for the MIDI output (bytes): room for a few hundred events. */
#define MIDI_OUT_MIN_SIZE 8192

static int failed;

static void fail(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("ttl_gen: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	failed = 1;
}

/* Nearest integer (no libm: this tool is built for the build machine). */
static long nearest(float v)
{
	return (long)(v < 0.0f ? v - 0.5f : v + 0.5f);
}

/* Shortest decimal literal that reads back as the same float (Turtle
 * xsd:decimal: always with a '.').  Integers print as xsd:integer. */
static const char *number(char *buf, size_t size, float v, int integer)
{
	if (integer) {
		snprintf(buf, size, "%ld", nearest(v));
		return buf;
	}
	for (int digits = 1; digits <= 30; ++digits) {
		snprintf(buf, size, "%.*f", digits, (double)v);
		if (strtof(buf, NULL) == v)
			break;
	}
	/* drop trailing zeros, keep one digit after the point */
	size_t n = strlen(buf);
	while (n > 2 && buf[n - 1] == '0' && buf[n - 2] != '.')
		buf[--n] = '\0';
	return buf;
}

/* Turtle string literal body: escape quotes and backslashes. */
static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; ++s) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static int is_integer_port(const pendula_port_info *p)
{
	return (p->flags & (PF_INTEGER | PF_TOGGLED | PF_ENUM)) != 0;
}

static void write_unit(FILE *f, pendula_unit unit)
{
	const pendula_unit_info *u = &pendula_units[unit];
	if (unit == PU_NONE)
		return;
	if (u->uri) {
		fprintf(f, " ;\n\t\tunits:unit %s%s", strchr(u->uri, ':') ? "" : "units:", u->uri);
		return;
	}
	fputs(" ;\n\t\tunits:unit [\n\t\t\ta units:Unit ;\n\t\t\trdfs:label ", f);
	put_string(f, u->label);
	fputs(" ;\n\t\t\tunits:symbol ", f);
	put_string(f, u->symbol);
	fprintf(f, " ;\n\t\t\tunits:render \"%%f %s\"\n\t\t]", u->symbol);
}

/* The port's classes (rdf:type). */
static void write_port_class(FILE *f, pendula_port_kind kind, int cv)
{
	switch (kind) {
	case PK_CONTROL_IN:
		fputs("lv2:InputPort, lv2:ControlPort", f);
		break;
	case PK_CONTROL_OUT:
		fputs("lv2:OutputPort, lv2:ControlPort", f);
		break;
	case PK_SIGNAL_OUT:
		fputs(cv ? "lv2:OutputPort, lv2:CVPort" : "lv2:OutputPort, lv2:AudioPort", f);
		break;
	case PK_SIGNAL_IN:
		fputs(cv ? "lv2:InputPort, lv2:CVPort" : "lv2:InputPort, lv2:AudioPort", f);
		break;
	case PK_ATOM_IN:
		fputs("lv2:InputPort, atom:AtomPort", f);
		break;
	case PK_ATOM_OUT:
		fputs("lv2:OutputPort, atom:AtomPort", f);
		break;
	case PK_MOD_CV_OUT: /* (-mod only) */
		fputs("lv2:OutputPort, lv2:CVPort, mod:CVPort", f);
		break;
	}
}

static void write_port(FILE *f, pendula_variant v, pendula_port_id id, int index)
{
	const pendula_port_info *p = &pendula_ports[id];
	const int cv = pendula_variant_is_cv(v);
	char num[64];
	int n_props = 0;

	fputs("\t[\n\t\ta ", f);
	write_port_class(f, p->kind, cv);
	fprintf(f, " ;\n\t\tlv2:index %d ;\n\t\tlv2:symbol \"%s\" ;\n\t\tlv2:name ", index,
	        p->symbol);
	put_string(f, p->name);
	fputs(" ;\n\t\trdfs:comment ", f);
	put_string(f, p->doc);
	const pendula_group group = pendula_port_group(id);
	fprintf(f, " ;\n\t\tpg:group <" PENDULA_GROUP_URI_FORMAT ">", (int)group,
	        pendula_groups[group].symbol);

	if (p->kind == PK_ATOM_IN) {
		fputs(" ;\n\t\tatom:bufferType atom:Sequence ;\n"
		      "\t\tatom:supports time:Position, midi:MidiEvent ;\n"
		      "\t\tlv2:designation lv2:control ;\n"
		      "\t\tlv2:portProperty lv2:connectionOptional\n\t]",
		      f);
		return;
	}
	if (p->kind == PK_ATOM_OUT) {
		fprintf(f,
		        " ;\n\t\tatom:bufferType atom:Sequence ;\n"
		        "\t\tatom:supports midi:MidiEvent ;\n"
		        "\t\trsz:minimumSize %d ;\n"
		        "\t\tlv2:portProperty lv2:connectionOptional\n\t]",
		        MIDI_OUT_MIN_SIZE);
		return;
	}

	const int integer = is_integer_port(p);
	/* A CV input is read like a control (lv2lint warns without a default);
	 * an audio input's default would mean nothing. */
	if (p->kind == PK_CONTROL_IN || (p->kind == PK_SIGNAL_IN && cv))
		fprintf(f, " ;\n\t\tlv2:default %s",
		        number(num, sizeof num, pendula_port_default(v, id), integer));
	float lo, hi;
	pendula_port_range(v, id, &lo, &hi);
	fprintf(f, " ;\n\t\tlv2:minimum %s", number(num, sizeof num, lo, integer));
	fprintf(f, " ;\n\t\tlv2:maximum %s", number(num, sizeof num, hi, integer));
	write_unit(f, p->unit);

	static const struct {
		unsigned flag;
		const char *uri;
	} props[] = {
	    {PF_INTEGER, "lv2:integer"},    {PF_TOGGLED, "lv2:toggled"},
	    {PF_TRIGGER, "pprops:trigger"}, {PF_LOG, "pprops:logarithmic"},
	    {PF_ENUM, "lv2:enumeration"},
	};
	for (size_t i = 0; i < sizeof props / sizeof props[0]; ++i)
		if (p->flags & props[i].flag)
			fprintf(f, "%s%s", n_props++ ? ", " : " ;\n\t\tlv2:portProperty ",
			        props[i].uri);
	/* (the drive input is optional in both signal variants: unconnected is silence) */
	if ((p->kind == PK_SIGNAL_OUT && cv) || p->kind == PK_SIGNAL_IN || p->kind == PK_MOD_CV_OUT)
		fprintf(f, "%slv2:connectionOptional",
		        n_props++ ? ", " : " ;\n\t\tlv2:portProperty ");

	if (p->flags & PF_ENUM) {
		const long lo = nearest(p->min), hi = nearest(p->max);
		if (pendula_enum_label(id, lo - 1) || pendula_enum_label(id, hi + 1))
			fail("port %s: scale points beyond the range %ld..%ld", p->symbol, lo, hi);
		fputs(" ;\n\t\tlv2:scalePoint", f);
		for (long i = lo; i <= hi; ++i) {
			const char *label = pendula_enum_label(id, i);
			if (!label) {
				fail("port %s: no scale point for %ld", p->symbol, i);
				continue;
			}
			fprintf(f, "%s[ rdfs:label ", i > lo ? ",\n\t\t\t" : " ");
			put_string(f, label);
			fprintf(f, " ; rdf:value %ld ]", i);
		}
	}
	fputs("\n\t]", f);
}

/* The suffix of a variant's names: "", " CV", " MIDI" or " MOD". */
static const char *name_suffix(pendula_variant v)
{
	static const char *const suffix[] = {[PENDULA_KIND_AUDIO] = "",
	                                     [PENDULA_KIND_CV] = " CV",
	                                     [PENDULA_KIND_MIDI] = " MIDI",
	                                     [PENDULA_KIND_MOD] = " MOD"};
	return suffix[pendula_variant_kind_of(v)];
}

/* MOD's label of a plugin (mod:label): the model's name without a trailing
 * " Pendulum" (the brand says it), or its slug when that is still too long,
 * plus " CV", " MIDI" or " MOD" for those variants. */
static void mod_label(char *buf, size_t size, pendula_variant v)
{
	const pendula_model_info *m = &pendula_model_infos[pendula_variant_model(v)];
	const char *suffix = name_suffix(v);
	static const char drop[] = " Pendulum";
	const size_t n = strlen(m->name), n_drop = sizeof drop - 1;
	int keep = (int)n;
	if (n > n_drop && !strcmp(m->name + n - n_drop, drop))
		keep -= (int)n_drop;
	snprintf(buf, size, "%.*s%s", keep, m->name, suffix);
	if (strlen(buf) > MOD_LABEL_MAX) {
		snprintf(buf, size, "%s%s", m->slug, suffix);
		buf[0] = (char)toupper((unsigned char)buf[0]);
	}
	if (strlen(buf) > MOD_LABEL_MAX)
		fail("plugin %s: mod:label '%s' is longer than %d characters",
		     pendula_variant_names[v], buf, MOD_LABEL_MAX);
}

/* The port groups (shared by the plugins, as the port-groups spec allows):
 * the ones some port of some plugin is in. */
static void write_groups(FILE *f)
{
	int used[PENDULA_N_GROUPS] = {0};
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		const pendula_group g = pendula_port_group((pendula_port_id)id);
		const pendula_port_kind k = pendula_ports[id].kind;
		const int output = k == PK_CONTROL_OUT || k == PK_SIGNAL_OUT || k == PK_ATOM_OUT ||
		                   k == PK_MOD_CV_OUT;
		if ((int)g < 0 || g >= PENDULA_N_GROUPS) {
			fail("port %s: no group", pendula_ports[id].symbol);
			continue;
		}
		if (output != pendula_groups[g].output)
			fail("port %s: an %s in the %s group %s", pendula_ports[id].symbol,
			     output ? "output" : "input",
			     pendula_groups[g].output ? "output" : "input",
			     pendula_groups[g].symbol);
		used[g] = 1;
	}
	for (int g = 0; g < PENDULA_N_GROUPS; ++g) {
		if (!used[g])
			continue;
		fprintf(f,
		        "\n<" PENDULA_GROUP_URI_FORMAT
		        ">\n\ta %s ;\n\tlv2:symbol \"%s\" ;\n\tlv2:name ",
		        g, pendula_groups[g].symbol,
		        pendula_groups[g].output ? "pg:OutputGroup" : "pg:InputGroup",
		        pendula_groups[g].symbol);
		put_string(f, pendula_groups[g].name);
		fputs(" ;\n\trdfs:label ", f);
		put_string(f, pendula_groups[g].name);
		fputs(" .\n", f);
	}
}

/* The plugin's name and comment, from the model registry. */
static void write_plugin(FILE *f, pendula_variant v)
{
	const pendula_model_info *m = &pendula_model_infos[pendula_variant_model(v)];
	const int cv = pendula_variant_is_cv(v), midi = pendula_variant_is_midi(v);
	const int mod = pendula_variant_is_mod(v);
	char name[256], text[512];
	snprintf(name, sizeof name, "Pendula %s%s", m->name, name_suffix(v));
	/* MOD lists a plugin under its mod: class when it has one: the CV
	 * and -mod variants under Control Voltage, with the modulators; other hosts do
	 * not know the class and use lv2:OscillatorPlugin.  The -midi plugins
	 * are lv2:MIDIPlugin alone (one class, so that a host that shows one
	 * shows this one): Ardour lists them under "MIDI" (docs/HOSTS.md). */
	fprintf(f, "\n<%s>\n\ta lv2:Plugin, %s ;\n\tdoap:name ", pendula_variant_uris[v],
	        midi        ? "lv2:MIDIPlugin"
	        : cv || mod ? "lv2:OscillatorPlugin, mod:ControlVoltagePlugin"
	                    : "lv2:OscillatorPlugin");
	put_string(f, name);
	if (midi)
		snprintf(text, sizeof text, "%s at audio rate: its motion as MIDI and controls",
		         m->name);
	else
		snprintf(text, sizeof text, "%s at audio rate: its motion as %s signals and MIDI",
		         m->name,
		         cv    ? "CV"
		         : mod ? "MOD CV"
		               : "audio");
	fputs(" ;\n\tdoap:shortdesc ", f);
	put_string(f, text);
	mod_label(text, sizeof text, v);
	fputs(" ;\n\tmod:brand ", f);
	put_string(f, MOD_BRAND);
	fputs(" ;\n\tmod:label ", f);
	put_string(f, text);
	fputs(" ;\n\trdfs:comment ", f);
	if (pendula_variant_is_cv(v)) {
		char comment[1024];
		snprintf(comment, sizeof comment,
		         "%s This variant has CV outputs (each optional) instead of audio outputs, "
		         "for hosts that route CV to parameters.",
		         m->description);
		put_string(f, comment);
	} else if (mod) {
		char comment[1024];
		snprintf(comment, sizeof comment,
		         "%s This variant is for MOD devices: its outputs are MOD CV ports in "
		         "volts, and its drive input is an audio port.",
		         m->description);
		put_string(f, comment);
	} else if (midi) {
		char comment[1024];
		snprintf(comment, sizeof comment,
		         "%s This variant has no audio or CV port: its motion goes out as MIDI "
		         "(control changes and notes) and control outputs, for a MIDI track "
		         "before a synth.",
		         m->description);
		put_string(f, comment);
	} else {
		put_string(f, m->description);
	}
	/* The maintainer sits on the project: doap:maintainer has the domain
	 * doap:Project (sord_validate checks it); lilv looks there too.
	 * lv2:isLive: a live modulator, following the host's transport and
	 * tempo and (with MIDI) playing along: a host must run it in time, not
	 * render it ahead or cache its output. */
	/* The motion and the memories are saved with the session (lv2/state.h). */
	fputs(" ;\n\tlv2:extensionData state:interface", f);
	fprintf(f,
	        " ;\n\tdoap:license <" LICENSE "> ;\n"
	        "\tlv2:project <" PROJECT_URI "> ;\n"
	        "\tlv2:minorVersion %d ;\n\tlv2:microVersion %d ;\n"
	        "\tlv2:requiredFeature urid:map ;\n"
	        "\tlv2:optionalFeature lv2:hardRTCapable, lv2:isLive, log:log ;\n"
	        "\tlv2:port\n",
	        PENDULA_LV2_MINOR_VERSION, PENDULA_LV2_MICRO_VERSION);

	int index = 0;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (!pendula_port_in_variant(v, id))
			continue;
		if (pendula_port_index(v, (pendula_port_id)id) != index)
			fail("port %s: index mismatch", pendula_ports[id].symbol);
		if (index)
			fputs(" ,\n", f);
		write_port(f, v, (pendula_port_id)id, index);
		++index;
	}
	if ((uint32_t)index != pendula_port_count(v))
		fail("variant %d: %d ports written, table says %u", (int)v, index,
		     pendula_port_count(v));
	fputs(" .\n", f);
}

static FILE *open_out(const char *dir, const char *name, char *path, size_t size)
{
	snprintf(path, size, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		fail("cannot write %s: %s", path, strerror(errno));
	return f;
}

static int close_out(FILE *f, const char *path)
{
	int bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		fail("error writing %s", path);
		return 1;
	}
	return 0;
}

static int append_file(FILE *out, const char *path)
{
	FILE *in = fopen(path, "r");
	char buf[4096];
	size_t n;
	if (!in) {
		fail("cannot read manifest fragment %s: %s", path, strerror(errno));
		return 1;
	}
	fprintf(out, "\n# ---- from %s ----\n", path);
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	return 0;
}

static int write_bundle(const char *dir, const char *binary, int n_extra, char **extra)
{
	char path[4096];
	FILE *f = open_out(dir, "pendula.ttl", path, sizeof path);
	if (!f)
		return 1;
	fputs("# Generated by ttl/ttl_gen.c from contract/ports.h.  Do not edit.\n", f);
	fputs(prefixes, f);
	fputs("\n<" PROJECT_URI ">\n\ta doap:Project ;\n\tdoap:name \"Pendula\" ;\n"
	      "\tdoap:license <" LICENSE "> ;\n"
	      "\tdoap:maintainer [\n\t\ta foaf:Person ;\n\t\tfoaf:name \"" MAINTAINER "\" ;\n"
	      "\t\tfoaf:mbox <" MAINTAINER_MBOX "> ;\n\t\tfoaf:homepage <" MAINTAINER_HOMEPAGE
	      ">\n\t] .\n",
	      f);
	write_groups(f);
	for (int v = 0; v < PENDULA_N_VARIANTS; ++v)
		write_plugin(f, v);
	if (close_out(f, path))
		return 1;

	f = open_out(dir, "manifest.ttl", path, sizeof path);
	if (!f)
		return 1;
	fputs("# Generated by ttl/ttl_gen.c from contract/ports.h (fragments appended\n"
	      "# verbatim at the end).  Do not edit.\n",
	      f);
	fputs("@prefix lv2:  <http://lv2plug.in/ns/lv2core#> .\n"
	      "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n",
	      f);
	for (int v = 0; v < PENDULA_N_VARIANTS; ++v)
		fprintf(f,
		        "\n<%s>\n\ta lv2:Plugin ;\n\tlv2:binary <%s> ;\n\trdfs:seeAlso "
		        "<pendula.ttl> .\n",
		        pendula_variant_uris[v], binary);
	for (int i = 0; i < n_extra; ++i)
		append_file(f, extra[i]);
	close_out(f, path);
	return failed;
}

/* ---- The port reference, docs/PORTS.md ---- */

static const char *kind_text(pendula_port_kind k)
{
	switch (k) {
	case PK_CONTROL_IN:
		return "control in";
	case PK_CONTROL_OUT:
		return "control out";
	case PK_SIGNAL_OUT:
		return "audio out (CV in -cv)";
	case PK_SIGNAL_IN:
		return "audio in (CV in -cv)";
	case PK_ATOM_IN:
		return "atom in: MIDI, time:Position";
	case PK_ATOM_OUT:
		return "atom out: MIDI";
	case PK_MOD_CV_OUT:
		return "MOD CV out (-mod only)";
	}
	return "?";
}

/* One table per model: the ports of its four plugins, in index order. */
static void write_markdown_model(FILE *f, pendula_model model)
{
	char a[64];
	pendula_variant kinds[4];
	for (int k = 0; k < 4; ++k)
		kinds[k] = pendula_variant_of(model, (pendula_variant_kind)k);
	const pendula_variant v = kinds[PENDULA_KIND_AUDIO];
	const unsigned mask = 1u << model;
	fprintf(f, "\n## `%s`, `%s`, `%s` and `%s`\n\n", pendula_variant_names[v],
	        pendula_variant_names[kinds[PENDULA_KIND_CV]],
	        pendula_variant_names[kinds[PENDULA_KIND_MIDI]],
	        pendula_variant_names[kinds[PENDULA_KIND_MOD]]);
	fputs("| # | # `-cv` | # `-midi` | # `-mod` | symbol | kind | min | max | default | unit | "
	      "description |\n"
	      "|---:|---:|---:|---:|---|---|---:|---:|---|---|---|\n",
	      f);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		const pendula_port_info *p = &pendula_ports[id];
		if (!(p->models & mask))
			continue;
		const int integer = is_integer_port(p);
		const int is_atom = p->kind == PK_ATOM_IN || p->kind == PK_ATOM_OUT;
		/* (an empty cell: that plugin lacks the port) */
		for (int k = 0; k < 4; ++k) {
			const int index = pendula_port_index(kinds[k], (pendula_port_id)id);
			fputs(k ? " | " : "| ", f);
			if (index >= 0)
				fprintf(f, "%d", index);
		}
		fprintf(f, " | `%s` | %s", p->symbol, kind_text(p->kind));
		if (p->flags & PF_INTEGER)
			fputs(", integer", f);
		if (p->flags & PF_TOGGLED)
			fputs(", toggle", f);
		if (p->flags & PF_TRIGGER)
			fputs(", trigger", f);
		if (p->flags & PF_LOG)
			fputs(", log", f);
		if (p->flags & PF_ENUM)
			fputs(", enum", f);
		if (is_atom) {
			fputs(" | | | ", f);
		} else {
			float lo, hi;
			pendula_port_range(v, (pendula_port_id)id, &lo, &hi);
			fprintf(f, " | %s ", number(a, sizeof a, lo, integer));
			fprintf(f, "| %s | ", number(a, sizeof a, hi, integer));
			if (p->kind == PK_CONTROL_IN) /* outputs have no default */
				fputs(number(a, sizeof a,
				             pendula_port_default(v, (pendula_port_id)id), integer),
				      f);
		}
		fprintf(f, " | %s | %s", pendula_units[p->unit].symbol, p->doc);
		if (p->flags & PF_ENUM) {
			fputs(": ", f);
			for (long i = nearest(p->min); i <= nearest(p->max); ++i)
				if (pendula_enum_label((pendula_port_id)id, i))
					fprintf(f, "%s%ld = %s", i > nearest(p->min) ? ", " : "", i,
					        pendula_enum_label((pendula_port_id)id, i));
		}
		fputs(" |\n", f);
	}
}

/* The whole of docs/PORTS.md: generated, so that it cannot drift from the
 * table; the prose around the tables is here for the same reason. */
static void write_markdown(FILE *f)
{
	fputs("# Ports\n"
	      "\n"
	      "<!-- Generated from contract/ports.h by ttl/ttl_gen --markdown: do not\n"
	      "     edit.  Regenerate with: meson compile -C build update-ports-doc -->\n"
	      "\n"
	      "Every port of every Pendula plugin, generated from `contract/ports.h` by\n"
	      "`ttl/ttl_gen --markdown` (the same table generates the Turtle);\n"
	      "`meson compile -C build update-ports-doc` rewrites this file and the\n"
	      "`ports_doc` test checks it.  Port symbols are the plugins' public\n"
	      "contract: once released, a symbol never changes meaning.  Indices are\n"
	      "the `lv2:index` in each of a model's four plugins, one column each;\n"
	      "an empty cell: that plugin lacks the port.  The audio and `-cv`\n"
	      "plugins have the same ports, audio or CV, except that `chain-cv`\n"
	      "leaves out the `omega{k}_level` signals, so that no plugin has more\n"
	      "than 32 CV ports (Carla's rack and patchbay skip such a plugin,\n"
	      "[HOSTS.md](HOSTS.md)): its control copies and CCs carry them, and\n"
	      "the audio plugin's audio ports.  The `-midi` plugins have every\n"
	      "port but the audio and CV ones (no signal output, no `drive` input).\n"
	      "The `-mod` plugins, for MOD devices, have the `-midi` plugin's ports,\n"
	      "the `drive` input as an audio port, and each signal output only as\n"
	      "its MOD CV output `*_volts` (`chain-mod` without the velocity levels,\n"
	      "for the same limit).  Their control outputs and CCs carry the same\n"
	      "values as the other plugins'; `drive_gain` and `drive_axis` do\n"
	      "nothing in `-midi` (no drive input), and stay so that the four have\n"
	      "the same control inputs and a preset can apply to any of them.\n"
	      "\n"
	      "What the ports mean: [MODELS.md](MODELS.md) (conventions, units, the\n"
	      "contract in detail), [GUIDE.md](GUIDE.md) (the chaos knob, continuous\n"
	      "outputs, events, freeze), [HOSTS.md](HOSTS.md) (the MIDI and tempo\n"
	      "ports, sections in generic UIs).\n",
	      f);
	for (int m = 0; m < PENDULA_N_MODELS; ++m)
		write_markdown_model(f, (pendula_model)m);
}

static int usage(const char *msg)
{
	fprintf(stderr,
	        "ttl_gen: %s\n"
	        "usage: ttl_gen --outdir DIR --binary FILE [-- MANIFEST_FRAGMENT...]\n"
	        "       ttl_gen --markdown\n",
	        msg);
	return 2;
}

int main(int argc, char **argv)
{
	const char *outdir = NULL, *binary = NULL;
	int markdown = 0, i;

	for (i = 1; i < argc; ++i) {
		if (!strcmp(argv[i], "--markdown")) {
			markdown = 1;
		} else if (!strcmp(argv[i], "--outdir") && i + 1 < argc) {
			outdir = argv[++i];
		} else if (!strcmp(argv[i], "--binary") && i + 1 < argc) {
			binary = argv[++i];
		} else if (!strcmp(argv[i], "--")) {
			++i;
			break;
		} else {
			char msg[256];
			snprintf(msg, sizeof msg, "bad argument '%s'", argv[i]);
			return usage(msg);
		}
	}
	if (pendula_max_signal_outputs() != PENDULA_MAX_SIGNAL_OUTPUTS) {
		fprintf(stderr,
		        "ttl_gen: the largest plugin has %d signal outputs, "
		        "PENDULA_MAX_SIGNAL_OUTPUTS (contract/ports.h) says %d\n",
		        pendula_max_signal_outputs(), PENDULA_MAX_SIGNAL_OUTPUTS);
		return 1;
	}
	if (markdown) {
		if (outdir || binary || i < argc)
			return usage("--markdown takes no other argument");
		write_markdown(stdout);
		return (fflush(stdout) != 0 || failed) ? 1 : 0;
	}
	if (!outdir)
		return usage("missing --outdir");
	if (!binary)
		return usage("missing --binary");
	return write_bundle(outdir, binary, argc - i, argv + i) ? 1 : 0;
}
