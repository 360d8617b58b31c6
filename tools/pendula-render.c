/* SPDX-License-Identifier: ISC */
/*
 * pendula-render: a command-line LV2 host (on lilv) that runs a Pendula
 * plugin offline for a given time and writes what its signal outputs did:
 * a 32-bit float WAV (one channel per signal output), a CSV, and a PNG with
 * one strip per output over time plus the path of the pendulum in the plane.
 *
 * The host part is generic: the ports, their ranges and defaults come from
 * the plugin's Turtle description through lilv, and any plugin with audio or
 * CV outputs can be rendered by its full URI.  Only the short names
 * (double, parallel-cv, ...) and the plane panel know about Pendula; the
 * panel reads its port symbols from the one port table, plugin/ports.h.
 *
 * Exit status: 0 on success, 1 when something fails at run time (a file
 * cannot be written, the plugin cannot be instantiated), 2 for a bad
 * command line (including an unknown plugin, port symbol or preset).
 */
#define _XOPEN_SOURCE 700 /* realpath, M_PI */

#include <cairo.h>
#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/core/lv2.h>
#include <lv2/options/options.h>
#include <lv2/parameters/parameters.h>
#include <lv2/presets/presets.h>
#include <lv2/resize-port/resize-port.h>
#include <lv2/urid/urid.h>
#include <sndfile.h>

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ports.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define PROG       "pendula-render"
#define EXIT_USAGE 2

#define DEFAULT_SECONDS  10.0
#define DEFAULT_RATE     48000L
#define DEFAULT_BLOCK    256L
#define DEFAULT_PNG_W    1200
#define DEFAULT_PNG_H    900
#define MAX_RATE         1536000L
#define MAX_BLOCK        65536L
#define MAX_FRAMES       10000000000.0 /* about 58 hours at 48 kHz */
#define MAX_TRACE_POINTS 200000u
#define MAX_BODIES       4

#define short_names   pendula_variant_names
#define short_uris    pendula_variant_uris
#define N_SHORT_NAMES PENDULA_N_VARIANTS

/* ------------------------------------------------------------------------ */
/* Messages */

static int g_quiet = 0;

#if defined(__GNUC__)
#define PRINTF_LIKE(fmt, first) __attribute__((format(printf, fmt, first)))
#else
#define PRINTF_LIKE(fmt, first)
#endif

static _Noreturn void die_usage(const char *fmt, ...) PRINTF_LIKE(1, 2);
static _Noreturn void die(const char *fmt, ...) PRINTF_LIKE(1, 2);
static void warn(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* "PREFIX" + the message + a newline, on stderr. */
static void vreport(const char *prefix, const char *fmt, va_list args) PRINTF_LIKE(2, 0);

static void vreport(const char *prefix, const char *fmt, va_list args)
{
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, args);
	fputc('\n', stderr);
}

static _Noreturn void die_usage(const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	vreport(PROG ": ", fmt, args);
	va_end(args);
	exit(EXIT_USAGE);
}

static _Noreturn void die(const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	vreport(PROG ": ", fmt, args);
	va_end(args);
	exit(EXIT_FAILURE);
}

static void warn(const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	vreport(PROG ": warning: ", fmt, args);
	va_end(args);
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		die("out of memory");
	return p;
}

static void *xrealloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);
	if (!q)
		die("out of memory");
	return q;
}

static char *xstrdup(const char *s)
{
	char *d = xcalloc(strlen(s) + 1, 1);
	memcpy(d, s, strlen(s) + 1);
	return d;
}

static void usage(FILE *out)
{
	fprintf(out,
	        "Usage: " PROG " [OPTION]... PLUGIN\n"
	        "Render a Pendula LV2 plugin offline to WAV, CSV and/or PNG.\n"
	        "\n"
	        "PLUGIN is a short name (double, double-cv, parallel, parallel-cv) or a full\n"
	        "plugin URI.  Plugins are found on LV2_PATH (e.g. LV2_PATH=build), or in the\n"
	        "bundles given with --bundle.\n"
	        "\n"
	        "Plugin and settings:\n"
	        "  --bundle DIR        load this bundle instead of scanning LV2_PATH (repeatable)\n"
	        "  --set SYMBOL=VALUE  set a control input port (repeatable); applied after\n"
	        "                      the defaults and the preset, in command-line order\n"
	        "  --preset NAME       load a preset, by URI or label\n"
	        "  --list-presets      print the plugin's presets (label and URI) and exit\n"
	        "  --list-ports        print the plugin's ports (symbol, kind, range) and exit\n"
	        "\n"
	        "Rendering:\n"
	        "  --seconds S         length of audio time to render (default %g)\n"
	        "  --rate HZ           sample rate, an integer from 1 to %ld (default %ld)\n"
	        "  --block N           frames per run() call, 1 to %ld (default %ld); the last\n"
	        "                      block is shorter when the length is not a multiple\n"
	        "\n"
	        "Output (at least one of --wav, --csv, --png, --stats):\n"
	        "  --wav FILE          32-bit float WAV, one channel per signal output\n"
	        "  --csv FILE          CSV: time in seconds, then one column per signal output\n"
	        "                      ('-' writes to standard output)\n"
	        "  --csv-every K       write every K-th frame to the CSV (default 1)\n"
	        "  --png FILE          picture: every signal output over time, and the path\n"
	        "                      of the pendulum in the plane\n"
	        "  --png-size WxH      size of the picture in pixels (default %dx%d)\n"
	        "  --stats             print min, max, mean and final value of each output\n"
	        "  -q, --quiet         no progress, no warnings, no summary on stderr\n"
	        "  -h, --help          print this help and exit\n"
	        "\n"
	        "Values outside a port's declared range are accepted with a warning: the\n"
	        "plugin clamps them to the range.  Progress is shown on stderr (when it is a\n"
	        "terminal) once a render takes more than a second.\n"
	        "\n"
	        "Exit status: 0 on success, 1 on a run-time failure, 2 on a bad command line\n"
	        "(bad option or value, unknown plugin, port symbol or preset).\n"
	        "\n"
	        "Example:\n"
	        "  LV2_PATH=build " PROG " double --seconds 20 --set sigma1=0.5 \\\n"
	        "      --wav double.wav --png double.png\n",
	        DEFAULT_SECONDS, MAX_RATE, DEFAULT_RATE, MAX_BLOCK, DEFAULT_BLOCK, DEFAULT_PNG_W,
	        DEFAULT_PNG_H);
}

/* ------------------------------------------------------------------------ */
/* Command line */

typedef struct {
	const char *arg; /* as given, for messages */
	char *symbol;
	double value;
} Setting;

typedef struct {
	const char *plugin;
	const char **bundles;
	size_t n_bundles;
	Setting *sets;
	size_t n_sets;
	const char *preset;
	int list_presets;
	int list_ports;
	double seconds;
	long rate;
	long block;
	const char *wav;
	const char *csv;
	long csv_every;
	const char *png;
	int png_w, png_h;
	int stats;
	int quiet;
	/* which rendering options were given, for the PNG title */
	int seconds_given, rate_given, block_given;
} Options;

/* Parse a whole string as a finite double. */
static int parse_number(const char *s, double *out)
{
	char *end = NULL;
	double v;
	if (!s || !*s)
		return 0;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v))
		return 0;
	*out = v;
	return 1;
}

static long parse_int_option(const char *opt, const char *s, long lo, long hi, const char *what)
{
	double v;
	if (!parse_number(s, &v) || v != floor(v) || v < (double)lo || v > (double)hi)
		die_usage("%s: expected %s (an integer from %ld to %ld), got '%s'", opt, what, lo,
		          hi, s);
	return (long)v;
}

typedef enum {
	OPT_BUNDLE,
	OPT_SET,
	OPT_PRESET,
	OPT_LIST_PRESETS,
	OPT_LIST_PORTS,
	OPT_SECONDS,
	OPT_RATE,
	OPT_BLOCK,
	OPT_WAV,
	OPT_CSV,
	OPT_CSV_EVERY,
	OPT_PNG,
	OPT_PNG_SIZE,
	OPT_STATS,
	OPT_QUIET,
	OPT_HELP,
	OPT_PLUGIN
} OptionId;

typedef struct {
	const char *name;
	OptionId id;
	int has_value;
} OptionSpec;

static const OptionSpec option_specs[] = {
    {"--bundle", OPT_BUNDLE, 1},
    {"--set", OPT_SET, 1},
    {"--preset", OPT_PRESET, 1},
    {"--list-presets", OPT_LIST_PRESETS, 0},
    {"--list-ports", OPT_LIST_PORTS, 0},
    {"--seconds", OPT_SECONDS, 1},
    {"--rate", OPT_RATE, 1},
    {"--block", OPT_BLOCK, 1},
    {"--wav", OPT_WAV, 1},
    {"--csv", OPT_CSV, 1},
    {"--csv-every", OPT_CSV_EVERY, 1},
    {"--png", OPT_PNG, 1},
    {"--png-size", OPT_PNG_SIZE, 1},
    {"--stats", OPT_STATS, 0},
    {"--quiet", OPT_QUIET, 0},
    {"-q", OPT_QUIET, 0},
    {"--help", OPT_HELP, 0},
    {"-h", OPT_HELP, 0},
    {"--plugin", OPT_PLUGIN, 1},
};

/* value itself, unless it is empty: "OPT: expected WHAT, got ''" (usage). */
static const char *non_empty(const char *opt, const char *value, const char *what)
{
	if (!*value)
		die_usage("%s: expected %s, got ''", opt, what);
	return value;
}

static void set_plugin(Options *o, const char *name)
{
	if (o->plugin)
		die_usage("more than one plugin given: '%s' and '%s'", o->plugin, name);
	o->plugin = non_empty("PLUGIN", name, "a short name or URI");
}

static void parse_args(int argc, char **argv, Options *o)
{
	int only_positional = 0;

	memset(o, 0, sizeof(*o));
	o->seconds = DEFAULT_SECONDS;
	o->rate = DEFAULT_RATE;
	o->block = DEFAULT_BLOCK;
	o->csv_every = 1;
	o->png_w = DEFAULT_PNG_W;
	o->png_h = DEFAULT_PNG_H;
	o->bundles = xcalloc((size_t)argc, sizeof(*o->bundles));
	o->sets = xcalloc((size_t)argc, sizeof(*o->sets));

	for (int i = 1; i < argc; ++i) {
		const char *arg = argv[i];
		const OptionSpec *spec = NULL;
		const char *value = NULL;
		char name[64];
		size_t name_len;

		if (only_positional || arg[0] != '-' || strcmp(arg, "-") == 0) {
			set_plugin(o, arg);
			continue;
		}
		if (strcmp(arg, "--") == 0) {
			only_positional = 1;
			continue;
		}
		/* --name=value */
		name_len = strcspn(arg, "=");
		if (name_len >= sizeof(name))
			die_usage("unknown option '%s' (see --help)", arg);
		memcpy(name, arg, name_len);
		name[name_len] = '\0';
		for (size_t k = 0; k < sizeof(option_specs) / sizeof(option_specs[0]); ++k)
			if (strcmp(option_specs[k].name, name) == 0)
				spec = &option_specs[k];
		if (!spec)
			die_usage("unknown option '%s' (see --help)", name);
		if (arg[name_len] == '=') {
			if (!spec->has_value)
				die_usage("%s: takes no value, got '%s'", name, arg + name_len + 1);
			value = arg + name_len + 1;
		} else if (spec->has_value) {
			/* A following option is not taken as the value ("--wav --png x"). */
			if (i + 1 >= argc || strncmp(argv[i + 1], "--", 2) == 0)
				die_usage("%s: missing value", name);
			value = argv[++i];
		}

		switch (spec->id) {
		case OPT_BUNDLE:
			o->bundles[o->n_bundles++] = non_empty(name, value, "a directory");
			break;
		case OPT_SET: {
			const char *eq = strchr(value, '=');
			Setting *s = &o->sets[o->n_sets++];
			if (!eq || eq == value)
				die_usage("--set: expected SYMBOL=VALUE, got '%s'", value);
			s->arg = value;
			s->symbol = xcalloc((size_t)(eq - value) + 1, 1);
			memcpy(s->symbol, value, (size_t)(eq - value));
			if (!parse_number(eq + 1, &s->value))
				die_usage("--set %s: expected a number, got '%s'", s->symbol,
				          eq + 1);
			break;
		}
		case OPT_PRESET:
			o->preset = non_empty(name, value, "a preset URI or label");
			break;
		case OPT_LIST_PRESETS:
			o->list_presets = 1;
			break;
		case OPT_LIST_PORTS:
			o->list_ports = 1;
			break;
		case OPT_SECONDS:
			if (!parse_number(value, &o->seconds) || o->seconds <= 0.0)
				die_usage("--seconds: expected a positive number, got '%s'", value);
			o->seconds_given = 1;
			break;
		case OPT_RATE:
			o->rate =
			    parse_int_option("--rate", value, 1, MAX_RATE, "a sample rate in Hz");
			o->rate_given = 1;
			break;
		case OPT_BLOCK:
			o->block = parse_int_option("--block", value, 1, MAX_BLOCK,
			                            "a block size in frames");
			o->block_given = 1;
			break;
		case OPT_WAV:
			o->wav = non_empty(name, value, "a file name");
			break;
		case OPT_CSV:
			o->csv = non_empty(name, value, "a file name");
			break;
		case OPT_CSV_EVERY:
			o->csv_every =
			    parse_int_option("--csv-every", value, 1, 1000000000L, "a frame count");
			break;
		case OPT_PNG:
			o->png = non_empty(name, value, "a file name");
			break;
		case OPT_PNG_SIZE: {
			int w = 0, h = 0, n = 0;
			if (sscanf(value, "%dx%d%n", &w, &h, &n) != 2 || value[n] != '\0' ||
			    w < 400 || h < 300 || w > 10000 || h > 10000)
				die_usage("--png-size: expected WIDTHxHEIGHT from 400x300 to "
				          "10000x10000, got '%s'",
				          value);
			o->png_w = w;
			o->png_h = h;
			break;
		}
		case OPT_STATS:
			o->stats = 1;
			break;
		case OPT_QUIET:
			o->quiet = 1;
			break;
		case OPT_HELP:
			usage(stdout);
			exit(EXIT_SUCCESS);
		case OPT_PLUGIN:
			set_plugin(o, value);
			break;
		}
	}

	if (!o->plugin)
		die_usage("no plugin given: expected double, double-cv, parallel, parallel-cv or a "
		          "plugin URI (see --help)");
	if (!o->list_presets && !o->list_ports && !o->wav && !o->csv && !o->png && !o->stats)
		die_usage("nothing to do: give --wav, --csv, --png or --stats (see --help)");
	if ((double)o->rate * o->seconds > MAX_FRAMES)
		die_usage("--seconds: %g s at %ld Hz is more than %.0f frames", o->seconds, o->rate,
		          MAX_FRAMES);
	if (llround(o->seconds * (double)o->rate) < 1)
		die_usage("--seconds: %g s is less than one frame at %ld Hz", o->seconds, o->rate);
}

/* ------------------------------------------------------------------------ */
/* URID map */

typedef struct {
	char **uris;
	uint32_t n;
} UridTable;

static LV2_URID urid_map(LV2_URID_Map_Handle handle, const char *uri)
{
	UridTable *t = handle;
	for (uint32_t i = 0; i < t->n; ++i)
		if (strcmp(t->uris[i], uri) == 0)
			return i + 1;
	t->uris = xrealloc(t->uris, (t->n + 1) * sizeof(*t->uris));
	t->uris[t->n++] = xstrdup(uri);
	return t->n;
}

static const char *urid_unmap(LV2_URID_Unmap_Handle handle, LV2_URID urid)
{
	UridTable *t = handle;
	return (urid >= 1 && urid <= t->n) ? t->uris[urid - 1] : NULL;
}

/* ------------------------------------------------------------------------ */
/* Ports */

typedef enum {
	ROLE_CONTROL_IN,
	ROLE_CONTROL_OUT,
	ROLE_SIGNAL_IN,
	ROLE_SIGNAL_OUT,
	ROLE_ATOM_IN,
	ROLE_ATOM_OUT,
	ROLE_OTHER
} PortRole;

typedef struct {
	uint32_t index;
	char *symbol;
	char *name;
	PortRole role;
	int is_cv;
	int optional;
	int integer;
	int has_min, has_max, has_def;
	float min, max, def;
	float value;    /* control ports */
	int value_set;  /* by --set */
	float *buf;     /* signal ports */
	LV2_Atom *atom; /* atom ports */
	uint32_t atom_capacity;
	int signal; /* index among the signal outputs, or -1 */
} Port;

typedef struct {
	LilvWorld *world;
	const LilvPlugin *plugin;
	const char *uri;
	char *plugin_name;
	Port *ports;
	uint32_t n_ports;
	Port **signals; /* signal outputs, in port order */
	uint32_t n_signals;
	UridTable urids;
	LV2_URID_Map map;
	LV2_URID_Unmap unmap;
	char *preset_label;
	int preset_warned;
} Host;

static const char *role_name(const Port *p)
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
		break;
	}
	return "other";
}

static Port *find_port(const Host *h, const char *symbol)
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

static void collect_ports(Host *h)
{
	LilvWorld *w = h->world;
	LilvNode *input = lilv_new_uri(w, LV2_CORE__InputPort);
	LilvNode *output = lilv_new_uri(w, LV2_CORE__OutputPort);
	LilvNode *control = lilv_new_uri(w, LV2_CORE__ControlPort);
	LilvNode *audio = lilv_new_uri(w, LV2_CORE__AudioPort);
	LilvNode *cv = lilv_new_uri(w, LV2_CORE__CVPort);
	LilvNode *atom = lilv_new_uri(w, LV2_ATOM__AtomPort);
	LilvNode *optional = lilv_new_uri(w, LV2_CORE__connectionOptional);
	LilvNode *integer = lilv_new_uri(w, LV2_CORE__integer);
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
		p->signal = -1;
		p->role = ROLE_OTHER;

		if (lilv_port_is_a(h->plugin, lp, control)) {
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
	lilv_node_free(audio);
	lilv_node_free(cv);
	lilv_node_free(atom);
	lilv_node_free(optional);
	lilv_node_free(integer);
	lilv_node_free(min_size);
}

static void list_ports(const Host *h)
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

static const char *resolve_plugin_uri(const char *arg)
{
	for (size_t i = 0; i < N_SHORT_NAMES; ++i)
		if (strcmp(arg, short_names[i]) == 0)
			return short_uris[i];
	if (strchr(arg, ':'))
		return arg;
	die_usage("unknown plugin '%s': expected double, double-cv, parallel, parallel-cv or a "
	          "full plugin URI",
	          arg);
	return NULL;
}

static void load_bundle(LilvWorld *world, const char *dir)
{
	struct stat st;
	char *abs, *path;
	LilvNode *uri;
	size_t len;

	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
		die_usage("--bundle: '%s' is not a directory", dir);
	abs = realpath(dir, NULL);
	if (!abs)
		die_usage("--bundle: cannot resolve '%s': %s", dir, strerror(errno));
	/* A bundle URI must end with a slash. */
	len = strlen(abs);
	path = xcalloc(len + 2, 1);
	memcpy(path, abs, len);
	if (len == 0 || path[len - 1] != '/')
		path[len] = '/';
	free(abs);
	uri = lilv_new_file_uri(world, NULL, path);
	free(path);
	if (!uri)
		die("--bundle: cannot make a URI of '%s'", dir);
	lilv_world_load_bundle(world, uri);
	lilv_node_free(uri);
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

/* lilv_world_load_all(), but without the three error lines lilv 0.24 prints
 * for every entry of an LV2_PATH folder that is no bundle (it tries each one
 * as a bundle): LV2_PATH=build would otherwise bury the output under
 * complaints about build.ninja, meson-logs/ and friends.  Every other
 * message (a broken bundle, a Turtle syntax error) is passed on. */
static void load_all_filtered(LilvWorld *world)
{
	FILE *tmp = tmpfile();
	int saved = -1;
	char line[8192];

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

	if (type == urid_map(&h->urids, LV2_ATOM__Float) && size == sizeof(float))
		v = *(const float *)value;
	else if (type == urid_map(&h->urids, LV2_ATOM__Double) && size == sizeof(double))
		v = *(const double *)value;
	else if (type == urid_map(&h->urids, LV2_ATOM__Int) && size == sizeof(int32_t))
		v = *(const int32_t *)value;
	else if (type == urid_map(&h->urids, LV2_ATOM__Long) && size == sizeof(int64_t))
		v = (double)*(const int64_t *)value;
	else if (type == urid_map(&h->urids, LV2_ATOM__Bool) && size == sizeof(int32_t))
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
static LilvState *apply_preset(Host *h, const char *name)
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

	state = lilv_state_new_from_world(h->world, &h->map, presets[found].uri);
	if (!state)
		die("--preset: cannot load preset <%s>", lilv_node_as_uri(presets[found].uri));
	h->preset_label = xstrdup(presets[found].label ? presets[found].label
	                                               : lilv_node_as_uri(presets[found].uri));
	lilv_state_emit_port_values(state, preset_set_value, h);
	free_presets(presets, n);
	return state;
}

static void print_presets(Host *h)
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

static void apply_settings(Host *h, const Options *o)
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
		if (!g_quiet &&
		    ((p->has_min && s->value < p->min) || (p->has_max && s->value > p->max)))
			warn("--set %s=%g is outside [%g, %g]; the plugin clamps it", s->symbol,
			     s->value, p->min, p->max);
	}
}

/* ------------------------------------------------------------------------ */
/* Plane panel: where the bodies are */

typedef enum { PLANE_NONE, PLANE_DOUBLE, PLANE_PARALLEL } PlaneMode;

typedef struct {
	PlaneMode mode;
	int n_traces;
	int theta_sig[MAX_BODIES]; /* signal index of theta{k}, or -1 */
	int tip_x_sig, tip_y_sig;
	double l1, l2;                                         /* double */
	double c[MAX_BODIES], b[MAX_BODIES], beta[MAX_BODIES]; /* parallel; beta in rad */
	double theta_init[MAX_BODIES];                         /* rad */
	double theta_last[MAX_BODIES];                         /* rad */
	double *tx[MAX_BODIES], *ty[MAX_BODIES];
	size_t n_points, cap_points;
	uint64_t decimation;
	double extent; /* half width of the square view */
} Plane;

static double clamped_value(Host *h, pendula_port_id id, double fallback)
{
	Port *p = find_port(h, pendula_ports[id].symbol);
	double v;
	if (!p || p->role != ROLE_CONTROL_IN)
		return fallback;
	v = p->value;
	if (p->has_min && v < p->min)
		v = p->min;
	if (p->has_max && v > p->max)
		v = p->max;
	return v;
}

static int signal_of(Host *h, pendula_port_id id)
{
	Port *p = find_port(h, pendula_ports[id].symbol);
	return p && p->role == ROLE_SIGNAL_OUT ? p->signal : -1;
}

static void plane_setup(Plane *pl, Host *h, uint64_t total_frames)
{
	static const pendula_port_id thetas[MAX_BODIES] = {P_OUT_THETA1, P_OUT_THETA2, P_OUT_THETA3,
	                                                   P_OUT_THETA4};
	static const pendula_port_id inits[MAX_BODIES] = {P_THETA1_INIT, P_THETA2_INIT,
	                                                  P_THETA3_INIT, P_THETA4_INIT};
	static const pendula_port_id cs[MAX_BODIES] = {P_C1, P_C2, P_C3, P_C4};
	static const pendula_port_id bs[MAX_BODIES] = {P_C1, P_B2, P_B3, P_B4};
	static const pendula_port_id betas[MAX_BODIES] = {P_C1, P_BETA2, P_BETA3, P_BETA4};

	memset(pl, 0, sizeof(*pl));
	for (int k = 0; k < MAX_BODIES; ++k) {
		pl->theta_sig[k] = signal_of(h, thetas[k]);
		pl->theta_init[k] = clamped_value(h, inits[k], 0.0) * M_PI / 180.0;
		pl->theta_last[k] = pl->theta_init[k];
	}
	pl->tip_x_sig = signal_of(h, P_OUT_TIP_X);
	pl->tip_y_sig = signal_of(h, P_OUT_TIP_Y);

	if (pl->tip_x_sig >= 0 && pl->tip_y_sig >= 0) {
		pl->mode = PLANE_DOUBLE;
		pl->n_traces = 1;
		pl->l1 = clamped_value(h, P_L1, 1.0);
		pl->l2 = clamped_value(h, P_L2, 1.0);
		pl->extent = 1.08;
	} else if (pl->theta_sig[0] >= 0 && find_port(h, pendula_ports[P_N_BODIES].symbol) &&
	           find_port(h, pendula_ports[P_C1].symbol)) {
		double reach;
		int n = (int)lrint(clamped_value(h, P_N_BODIES, 1.0));
		pl->mode = PLANE_PARALLEL;
		if (n < 1)
			n = 1;
		if (n > MAX_BODIES)
			n = MAX_BODIES;
		while (n > 1 && pl->theta_sig[n - 1] < 0)
			--n;
		pl->n_traces = n;
		pl->c[0] = clamped_value(h, P_C1, 0.0);
		reach = pl->c[0];
		for (int k = 1; k < n; ++k) {
			pl->c[k] = clamped_value(h, cs[k], 0.0);
			pl->b[k] = clamped_value(h, bs[k], 0.0);
			pl->beta[k] = clamped_value(h, betas[k], 0.0) * M_PI / 180.0;
			if (pl->b[k] + pl->c[k] > reach)
				reach = pl->b[k] + pl->c[k];
		}
		pl->extent = 1.08 * (reach > 1e-3 ? reach : 1e-3);
	} else {
		return;
	}

	pl->decimation = (total_frames + MAX_TRACE_POINTS - 1) / MAX_TRACE_POINTS;
	if (pl->decimation < 1)
		pl->decimation = 1;
	pl->cap_points = (size_t)(total_frames / pl->decimation + 1);
	for (int k = 0; k < pl->n_traces; ++k) {
		pl->tx[k] = xcalloc(pl->cap_points, sizeof(double));
		pl->ty[k] = xcalloc(pl->cap_points, sizeof(double));
	}
}

/* Positions (x, y) of the traced points for angles theta (rad):
 * double: bob 1 and bob 2 (the tip), normalised by l1 + l2;
 * parallel: G1 = c1 (sin θ1, −cos θ1), hinges O_k = b_k (sin(θ1+β_k), −cos(θ1+β_k)),
 * centres G_k = O_k + c_k (sin θ_k, −cos θ_k), in metres. */
static void plane_positions(const Plane *pl, const double *theta, double *gx, double *gy,
                            double *ox, double *oy)
{
	if (pl->mode == PLANE_DOUBLE) {
		double L = pl->l1 + pl->l2;
		gx[0] = pl->l1 / L * sin(theta[0]);
		gy[0] = -pl->l1 / L * cos(theta[0]);
		gx[1] = gx[0] + pl->l2 / L * sin(theta[1]);
		gy[1] = gy[0] - pl->l2 / L * cos(theta[1]);
		return;
	}
	gx[0] = pl->c[0] * sin(theta[0]);
	gy[0] = -pl->c[0] * cos(theta[0]);
	ox[0] = oy[0] = 0.0;
	for (int k = 1; k < pl->n_traces; ++k) {
		ox[k] = pl->b[k] * sin(theta[0] + pl->beta[k]);
		oy[k] = -pl->b[k] * cos(theta[0] + pl->beta[k]);
		gx[k] = ox[k] + pl->c[k] * sin(theta[k]);
		gy[k] = oy[k] - pl->c[k] * cos(theta[k]);
	}
}

static void plane_record(Plane *pl, const float *values)
{
	double theta[MAX_BODIES] = {0}, gx[MAX_BODIES], gy[MAX_BODIES], ox[MAX_BODIES],
	       oy[MAX_BODIES];
	size_t i = pl->n_points;

	for (int k = 0; k < MAX_BODIES; ++k)
		if (pl->theta_sig[k] >= 0)
			theta[k] = M_PI * values[pl->theta_sig[k]];
	if (pl->mode == PLANE_DOUBLE) {
		gx[0] = values[pl->tip_x_sig];
		gy[0] = values[pl->tip_y_sig];
	} else {
		plane_positions(pl, theta, gx, gy, ox, oy);
	}
	if (i >= pl->cap_points)
		return;
	for (int k = 0; k < pl->n_traces; ++k) {
		pl->tx[k][i] = gx[k];
		pl->ty[k][i] = gy[k];
	}
	pl->n_points = i + 1;
}

static void plane_free(Plane *pl)
{
	for (int k = 0; k < MAX_BODIES; ++k) {
		free(pl->tx[k]);
		free(pl->ty[k]);
	}
}

/* ------------------------------------------------------------------------ */
/* Per-output accumulation: stats and the PNG envelope */

typedef struct {
	double min, max, sum, last;
	uint64_t nonfinite;
	float *env_min, *env_max; /* per PNG column */
	uint8_t *env_set;
} Track;

/* ------------------------------------------------------------------------ */
/* PNG */

typedef struct {
	double r, g, b;
} Rgb;

static const Rgb palette[] = {
    {0.122, 0.467, 0.706}, {0.851, 0.373, 0.008}, {0.173, 0.627, 0.173}, {0.839, 0.153, 0.157},
    {0.580, 0.404, 0.741}, {0.549, 0.337, 0.294}, {0.890, 0.467, 0.761}, {0.498, 0.498, 0.498},
    {0.737, 0.741, 0.133}, {0.090, 0.745, 0.812},
};
#define N_PALETTE (sizeof(palette) / sizeof(palette[0]))

typedef struct {
	int w, h;
	double margin, title_h;
	/* strips: one per signal output */
	double strips_x, strips_y, strips_w, strips_h; /* whole strip column */
	double plot_x, plot_w;                         /* data area inside a strip */
	double strip_h, strip_gap, axis_h;
	uint32_t n_cols; /* envelope columns */
	/* plane panel */
	int has_plane;
	double plane_x, plane_y, plane_side;
} Layout;

static void layout_png(Layout *L, const Options *o, uint32_t n_signals, int has_plane,
                       uint64_t total)
{
	double content_h;
	memset(L, 0, sizeof(*L));
	L->w = o->png_w;
	L->h = o->png_h;
	L->margin = 18.0;
	L->title_h = 64.0;
	L->axis_h = 40.0;
	L->strip_gap = 10.0;
	L->has_plane = has_plane;
	content_h = L->h - L->title_h - L->margin;
	L->strips_y = L->title_h;
	L->strips_x = L->margin;
	if (has_plane) {
		L->plane_side = fmin(0.45 * L->w, content_h - 150.0);
		if (L->plane_side < 150.0)
			L->plane_side = fmin(0.45 * L->w, content_h);
		L->plane_x = L->w - L->margin - L->plane_side;
		L->plane_y = L->title_h;
		L->strips_w = L->plane_x - 72.0 - L->strips_x; /* room for the panel's y labels */
	} else {
		L->strips_w = L->w - 2.0 * L->margin;
	}
	L->strips_h = content_h;
	L->plot_x = L->strips_x + 64.0;
	L->plot_w = L->strips_w - 64.0;
	if (n_signals > 0)
		L->strip_h = (content_h - L->axis_h - L->strip_gap * (n_signals - 1)) / n_signals;
	L->n_cols = (uint32_t)fmax(1.0, floor(L->plot_w));
	if ((uint64_t)L->n_cols > total)
		L->n_cols = (uint32_t)total;
}

static void set_rgb(cairo_t *cr, Rgb c, double alpha)
{
	cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
}

/* Draw text with its anchor at (x, y): ax = 0 left, 0.5 centre, 1 right;
 * ay = 0 top, 0.5 middle, 1 baseline. */
static void text_at(cairo_t *cr, double x, double y, double ax, double ay, const char *s)
{
	cairo_text_extents_t te;
	cairo_font_extents_t fe;
	cairo_text_extents(cr, s, &te);
	cairo_font_extents(cr, &fe);
	double baseline = ay >= 1.0   ? y
	                  : ay >= 0.5 ? y + 0.5 * (fe.ascent - fe.descent)
	                              : y + fe.ascent;
	cairo_move_to(cr, x - ax * te.x_advance, baseline);
	cairo_show_text(cr, s);
}

/* Text truncated with an ellipsis to fit max_w. */
static void text_fit(cairo_t *cr, double x, double y, double max_w, const char *s)
{
	cairo_text_extents_t te;
	size_t len = strlen(s);
	char *buf = xcalloc(len + 4, 1);
	memcpy(buf, s, len);
	cairo_text_extents(cr, buf, &te);
	while (te.x_advance > max_w && len > 0) {
		--len;
		while (len > 0 && ((unsigned char)buf[len] & 0xC0) == 0x80)
			--len; /* do not cut a UTF-8 sequence */
		memcpy(buf + len, "\xE2\x80\xA6", 4);
		cairo_text_extents(cr, buf, &te);
	}
	text_at(cr, x, y, 0.0, 0.0, buf);
	free(buf);
}

static double nice_step(double range, int max_ticks)
{
	double raw = range / (max_ticks > 1 ? max_ticks : 1);
	double mag = pow(10.0, floor(log10(raw)));
	double f = raw / mag;
	return (f <= 1.0 ? 1.0 : f <= 2.0 ? 2.0 : f <= 2.5 ? 2.5 : f <= 5.0 ? 5.0 : 10.0) * mag;
}

static void fmt_tick(char *buf, size_t n, double v, double step)
{
	if (fabs(v) < step * 1e-9)
		v = 0.0;
	snprintf(buf, n, "%.*f", step >= 1.0 ? 0 : (int)ceil(-log10(step) - 1e-9), v);
}

static void draw_strip(cairo_t *cr, const Layout *L, const Port *p, const Track *t, int si,
                       uint32_t n_signals, double seconds, const char *time_label, const char *note)
{
	double y0 = L->strips_y + si * (L->strip_h + L->strip_gap);
	double lo = p->has_min ? p->min : t->min, hi = p->has_max ? p->max : t->max;
	int widened = 0;
	char label[256], buf[64];
	Rgb colour = palette[(size_t)si % N_PALETTE];
	double tstep;

	if (!(lo < hi)) {
		lo = isfinite(t->min) ? t->min - 1.0 : -1.0;
		hi = isfinite(t->max) ? t->max + 1.0 : 1.0;
	}
	if (isfinite(t->min) && isfinite(t->max) && (t->min < lo || t->max > hi)) {
		double dlo = fmin(lo, t->min), dhi = fmax(hi, t->max), pad = 0.05 * (dhi - dlo);
		lo = t->min < lo ? dlo - pad : lo;
		hi = t->max > hi ? dhi + pad : hi;
		widened = 1;
	}
#define YMAP(v) (y0 + L->strip_h - ((v)-lo) / (hi - lo) * L->strip_h)

	/* Frame */
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_rectangle(cr, L->plot_x, y0, L->plot_w, L->strip_h);
	cairo_fill(cr);

	/* Time grid */
	tstep = nice_step(seconds, 10);
	cairo_set_line_width(cr, 1.0);
	cairo_set_source_rgb(cr, 0.91, 0.91, 0.90);
	for (double tt = tstep; tt < seconds * (1 - 1e-9); tt += tstep) {
		double x = floor(L->plot_x + tt / seconds * L->plot_w) + 0.5;
		cairo_move_to(cr, x, y0);
		cairo_line_to(cr, x, y0 + L->strip_h);
	}
	cairo_stroke(cr);

	/* Value grid: zero, and the declared range when the data goes beyond it */
	cairo_set_source_rgb(cr, 0.75, 0.75, 0.74);
	if (lo < 0.0 && hi > 0.0) {
		double y = floor(YMAP(0.0)) + 0.5;
		cairo_move_to(cr, L->plot_x, y);
		cairo_line_to(cr, L->plot_x + L->plot_w, y);
		cairo_stroke(cr);
	}
	if (widened) {
		double dash[] = {4.0, 3.0};
		cairo_set_dash(cr, dash, 2, 0.0);
		cairo_set_source_rgb(cr, 0.55, 0.55, 0.55);
		if (p->has_min && p->min > lo) {
			cairo_move_to(cr, L->plot_x, floor(YMAP(p->min)) + 0.5);
			cairo_line_to(cr, L->plot_x + L->plot_w, floor(YMAP(p->min)) + 0.5);
		}
		if (p->has_max && p->max < hi) {
			cairo_move_to(cr, L->plot_x, floor(YMAP(p->max)) + 0.5);
			cairo_line_to(cr, L->plot_x + L->plot_w, floor(YMAP(p->max)) + 0.5);
		}
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0.0);
	}

	/* Data: the min/max envelope of each column as one closed band, so a
	 * slow signal is a line and a fast one a filled band. */
	cairo_save(cr);
	cairo_rectangle(cr, L->plot_x, y0, L->plot_w, L->strip_h);
	cairo_clip(cr);
	{
		int started = 0;
		double colw = L->plot_w / L->n_cols;
		for (uint32_t c = 0; c < L->n_cols; ++c) {
			if (!t->env_set[c])
				continue;
			double x = L->plot_x + (c + 0.5) * colw;
			if (!started)
				cairo_move_to(cr, x, YMAP(t->env_max[c]));
			else
				cairo_line_to(cr, x, YMAP(t->env_max[c]));
			started = 1;
		}
		for (uint32_t c = L->n_cols; c-- > 0;) {
			if (!t->env_set[c])
				continue;
			cairo_line_to(cr, L->plot_x + (c + 0.5) * colw, YMAP(t->env_min[c]));
		}
		if (started) {
			cairo_close_path(cr);
			set_rgb(cr, colour, 0.85);
			cairo_fill_preserve(cr);
			set_rgb(cr, colour, 1.0);
			cairo_set_line_width(cr, 1.5);
			cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
			cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND); /* a lone frame is a dot */
			cairo_stroke(cr);
		}
	}
	cairo_restore(cr);

	/* Border */
	cairo_set_source_rgb(cr, 0.60, 0.60, 0.58);
	cairo_set_line_width(cr, 1.0);
	cairo_rectangle(cr, floor(L->plot_x) + 0.5, floor(y0) + 0.5, floor(L->plot_w),
	                floor(L->strip_h));
	cairo_stroke(cr);

	/* Y labels: the ends of the range, and zero */
	cairo_set_source_rgb(cr, 0.30, 0.30, 0.30);
	cairo_set_font_size(cr, 11.0);
	snprintf(buf, sizeof(buf), "%.3g", hi);
	text_at(cr, L->plot_x - 6.0, y0, 1.0, 0.0, buf);
	snprintf(buf, sizeof(buf), "%.3g", lo);
	text_at(cr, L->plot_x - 6.0, y0 + L->strip_h - 12.0, 1.0, 0.0, buf);
	if (lo < 0.0 && hi > 0.0 && L->strip_h > 60.0)
		text_at(cr, L->plot_x - 6.0, YMAP(0.0), 1.0, 0.5, "0");

	/* Label: symbol and range */
	if (p->has_min && p->has_max)
		snprintf(label, sizeof(label), "%s  [%g, %g]%s", p->symbol, p->min, p->max,
		         p->is_cv ? "  CV" : "");
	else
		snprintf(label, sizeof(label), "%s%s", p->symbol, p->is_cv ? "  CV" : "");
	if (widened) {
		size_t len = strlen(label);
		snprintf(label + len, sizeof(label) - len, "   data [%.3g, %.3g]", t->min, t->max);
	}
	if (note) {
		size_t len = strlen(label);
		snprintf(label + len, sizeof(label) - len, "   %s", note);
	}
	cairo_set_font_size(cr, 12.5);
	{
		cairo_text_extents_t te;
		cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
		                       CAIRO_FONT_WEIGHT_BOLD);
		cairo_text_extents(cr, label, &te);
		cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
		cairo_rectangle(cr, L->plot_x + 4.0, y0 + 3.0, te.x_advance + 8.0, 18.0);
		cairo_fill(cr);
		set_rgb(cr, colour, 1.0);
		text_at(cr, L->plot_x + 8.0, y0 + 5.0, 0.0, 0.0, label);
		cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
		                       CAIRO_FONT_WEIGHT_NORMAL);
	}

	/* Time axis under the last strip */
	if ((uint32_t)si == n_signals - 1) {
		double yb = y0 + L->strip_h;
		cairo_set_source_rgb(cr, 0.30, 0.30, 0.30);
		cairo_set_font_size(cr, 11.0);
		for (double tt = 0.0; tt <= seconds * (1 + 1e-9); tt += tstep) {
			double x = L->plot_x + tt / seconds * L->plot_w;
			fmt_tick(buf, sizeof(buf), tt, tstep);
			cairo_move_to(cr, floor(x) + 0.5, yb);
			cairo_line_to(cr, floor(x) + 0.5, yb + 4.0);
			cairo_stroke(cr);
			text_at(cr, x, yb + 6.0, 0.5, 0.0, buf);
		}
		cairo_set_font_size(cr, 12.0);
		text_at(cr, L->plot_x + L->plot_w / 2.0, yb + 22.0, 0.5, 0.0, time_label);
	}
#undef YMAP
}

/* A bob: a disc filled with colour (final) or white, outlined in grey ink. */
static void draw_bob(cairo_t *cr, double x, double y, double radius, int final, Rgb colour,
                     double ink)
{
	cairo_arc(cr, x, y, radius, 0, 2 * M_PI);
	if (final)
		set_rgb(cr, colour, 1.0);
	else
		cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_fill_preserve(cr);
	cairo_set_source_rgb(cr, ink, ink, ink);
	cairo_set_line_width(cr, 1.2);
	cairo_stroke(cr);
}

static void draw_config(cairo_t *cr, const Plane *pl, const double *theta, double sx, double cx,
                        double cy, int final)
{
	double gx[MAX_BODIES], gy[MAX_BODIES], ox[MAX_BODIES] = {0}, oy[MAX_BODIES] = {0};
	double lw = final ? 2.6 : 1.6;
	double ink = final ? 0.15 : 0.62;
	double dash[] = {5.0, 4.0};
#define PX(x) (cx + (x)*sx)
#define PY(y) (cy - (y)*sx)

	plane_positions(pl, theta, gx, gy, ox, oy);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
	cairo_set_line_width(cr, lw);
	if (!final)
		cairo_set_dash(cr, dash, 2, 0.0);
	cairo_set_source_rgb(cr, ink, ink, ink);
	if (pl->mode == PLANE_DOUBLE) {
		cairo_move_to(cr, PX(0.0), PY(0.0));
		cairo_line_to(cr, PX(gx[0]), PY(gy[0]));
		cairo_line_to(cr, PX(gx[1]), PY(gy[1]));
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0.0);
		for (int k = 0; k < 2; ++k)
			draw_bob(cr, PX(gx[k]), PY(gy[k]), final ? 6.0 : 4.5, final,
			         k == 1 ? palette[4] : palette[0], ink);
	} else {
		/* Body 1: the pivot joined to its centre of mass and to each hinge */
		cairo_move_to(cr, PX(0.0), PY(0.0));
		cairo_line_to(cr, PX(gx[0]), PY(gy[0]));
		for (int k = 1; k < pl->n_traces; ++k) {
			cairo_move_to(cr, PX(0.0), PY(0.0));
			cairo_line_to(cr, PX(ox[k]), PY(oy[k]));
		}
		cairo_stroke(cr);
		/* Bodies 2..N: hinge to centre of mass */
		for (int k = 1; k < pl->n_traces; ++k) {
			if (final)
				set_rgb(cr, palette[k], 1.0);
			cairo_move_to(cr, PX(ox[k]), PY(oy[k]));
			cairo_line_to(cr, PX(gx[k]), PY(gy[k]));
			cairo_stroke(cr);
		}
		cairo_set_dash(cr, NULL, 0, 0.0);
		for (int k = 0; k < pl->n_traces; ++k) {
			draw_bob(cr, PX(gx[k]), PY(gy[k]), final ? 5.5 : 4.0, final, palette[k],
			         ink);
			if (k > 0) {
				cairo_arc(cr, PX(ox[k]), PY(oy[k]), 2.5, 0, 2 * M_PI);
				cairo_fill(cr);
			}
		}
	}
	/* The pivot */
	cairo_arc(cr, PX(0.0), PY(0.0), 4.0, 0, 2 * M_PI);
	cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
	cairo_fill(cr);
#undef PX
#undef PY
}

static void draw_plane(cairo_t *cr, const Layout *L, const Plane *pl)
{
	double x0 = L->plane_x, y0 = L->plane_y, side = L->plane_side;
	double cx = x0 + side / 2.0, cy = y0 + side / 2.0;
	double sx = side / (2.0 * pl->extent);
	double step = nice_step(2.0 * pl->extent, 8);
	char buf[64];

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_rectangle(cr, x0, y0, side, side);
	cairo_fill(cr);

	/* Grid */
	cairo_set_line_width(cr, 1.0);
	for (double v = -floor(pl->extent / step) * step; v <= pl->extent; v += step) {
		double gx = floor(cx + v * sx) + 0.5, gy = floor(cy - v * sx) + 0.5;
		if (fabs(v) < step * 1e-9)
			cairo_set_source_rgb(cr, 0.75, 0.75, 0.74);
		else
			cairo_set_source_rgb(cr, 0.91, 0.91, 0.90);
		cairo_move_to(cr, gx, y0);
		cairo_line_to(cr, gx, y0 + side);
		cairo_move_to(cr, x0, gy);
		cairo_line_to(cr, x0 + side, gy);
		cairo_stroke(cr);
	}
	/* Reach circle(s) */
	{
		double dash[] = {2.0, 3.0};
		cairo_set_dash(cr, dash, 2, 0.0);
		cairo_set_source_rgb(cr, 0.70, 0.70, 0.70);
		cairo_arc(cr, cx, cy, pl->extent / 1.08 * sx, 0, 2 * M_PI);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0.0);
	}

	/* Traces, oldest faintest */
	cairo_save(cr);
	cairo_rectangle(cr, x0, y0, side, side);
	cairo_clip(cr);
	cairo_set_line_width(cr, 1.0);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	for (int k = 0; k < pl->n_traces; ++k) {
		const int chunks = 24;
		size_t n = pl->n_points;
		Rgb colour = pl->mode == PLANE_DOUBLE ? palette[4] : palette[k];
		for (int ch = 0; ch < chunks && n > 1; ++ch) {
			size_t a = n * (size_t)ch / chunks, b = n * (size_t)(ch + 1) / chunks;
			if (b >= n)
				b = n - 1;
			if (b <= a)
				continue;
			cairo_move_to(cr, cx + pl->tx[k][a] * sx, cy - pl->ty[k][a] * sx);
			for (size_t i = a + 1; i <= b; ++i)
				cairo_line_to(cr, cx + pl->tx[k][i] * sx, cy - pl->ty[k][i] * sx);
			set_rgb(cr, colour, 0.12 + 0.68 * (ch + 1) / chunks);
			cairo_stroke(cr);
		}
	}
	cairo_restore(cr);

	/* Start (dashed, grey) and end (solid) configurations */
	draw_config(cr, pl, pl->theta_init, sx, cx, cy, 0);
	draw_config(cr, pl, pl->theta_last, sx, cx, cy, 1);

	/* Border, ticks, labels */
	cairo_set_source_rgb(cr, 0.60, 0.60, 0.58);
	cairo_set_line_width(cr, 1.0);
	cairo_rectangle(cr, floor(x0) + 0.5, floor(y0) + 0.5, floor(side), floor(side));
	cairo_stroke(cr);
	cairo_set_source_rgb(cr, 0.30, 0.30, 0.30);
	cairo_set_font_size(cr, 11.0);
	for (double v = -floor(pl->extent / step) * step; v <= pl->extent; v += step) {
		fmt_tick(buf, sizeof(buf), v, step);
		text_at(cr, cx + v * sx, y0 + side + 4.0, 0.5, 0.0, buf);
		text_at(cr, x0 - 5.0, cy - v * sx, 1.0, 0.5, buf);
	}
	cairo_set_font_size(cr, 12.0);
	text_at(cr, cx, y0 + side + 20.0, 0.5, 0.0,
	        pl->mode == PLANE_DOUBLE ? "x / (l1 + l2)" : "x (m)");
	cairo_save(cr);
	cairo_translate(cr, x0 - 40.0, cy);
	cairo_rotate(cr, -M_PI / 2.0);
	text_at(cr, 0.0, 0.0, 0.5, 0.5, pl->mode == PLANE_DOUBLE ? "y / (l1 + l2)" : "y (m)");
	cairo_restore(cr);

	/* Panel title inside the top-left corner */
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	cairo_set_font_size(cr, 12.5);
	cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
	text_at(cr, x0 + 8.0, y0 + 6.0, 0.0, 0.0,
	        pl->mode == PLANE_DOUBLE ? "Path of the tip (bob 2), relative to the pivot"
	                                 : "Paths of the centres of mass, relative to the pivot");
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);

	/* Legend under the panel */
	{
		double ly = y0 + side + 46.0, lx = x0;
		cairo_set_font_size(cr, 12.0);
		for (int k = 0; k < pl->n_traces; ++k) {
			char name[64];
			Rgb colour = pl->mode == PLANE_DOUBLE ? palette[4] : palette[k];
			if (pl->mode == PLANE_DOUBLE)
				snprintf(name, sizeof(name), "tip (tip_x, tip_y)");
			else
				snprintf(name, sizeof(name), "body %d", k + 1);
			set_rgb(cr, colour, 1.0);
			cairo_set_line_width(cr, 3.0);
			cairo_move_to(cr, lx, ly + 7.0);
			cairo_line_to(cr, lx + 22.0, ly + 7.0);
			cairo_stroke(cr);
			cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
			text_at(cr, lx + 28.0, ly, 0.0, 0.0, name);
			{
				cairo_text_extents_t te;
				cairo_text_extents(cr, name, &te);
				lx += 28.0 + te.x_advance + 22.0;
			}
		}
		ly += 22.0;
		cairo_set_source_rgb(cr, 0.40, 0.40, 0.40);
		cairo_set_font_size(cr, 11.0);
		text_fit(cr, x0, ly, side,
		         "dashed grey: start (theta_init), solid: end of the render; older path "
		         "fainter");
		if (pl->mode == PLANE_PARALLEL) {
			char geo[256];
			size_t len;
			snprintf(geo, sizeof(geo), "N = %d   c1 = %g m", pl->n_traces, pl->c[0]);
			for (int k = 1; k < pl->n_traces; ++k) {
				len = strlen(geo);
				snprintf(geo + len, sizeof(geo) - len,
				         "   b%d = %g m, \xCE\xB2%d = %g\xC2\xB0", k + 1, pl->b[k],
				         k + 1, pl->beta[k] * 180.0 / M_PI);
			}
			text_fit(cr, x0, ly + 16.0, side, geo);
		} else {
			char geo[128];
			snprintf(geo, sizeof(geo), "l1 = %g m   l2 = %g m", pl->l1, pl->l2);
			text_fit(cr, x0, ly + 16.0, side, geo);
		}
	}
}

/* Min, max, mean and final value of each output, under the plane panel. */
static void draw_stats_table(cairo_t *cr, double x, double y, double w, double avail, const Host *h,
                             const Track *tracks, uint64_t total, const Options *o)
{
	const double row = 16.0;
	const double col[5] = {0.0, 0.30, 0.475, 0.65, 0.825};
	const char *head[5] = {"output", "min", "max", "mean", "final"};
	char buf[64];

	if (avail < row * (h->n_signals + 2.5) || h->n_signals == 0)
		return;
	cairo_set_font_size(cr, 11.5);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	cairo_set_source_rgb(cr, 0.30, 0.30, 0.30);
	for (int c = 0; c < 5; ++c)
		text_at(cr, x + col[c] * w + (c ? 0.15 * w : 0.0), y, c ? 1.0 : 0.0, 0.0, head[c]);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_source_rgb(cr, 0.80, 0.80, 0.78);
	cairo_set_line_width(cr, 1.0);
	cairo_move_to(cr, x, floor(y + row) + 0.5);
	cairo_line_to(cr, x + w, floor(y + row) + 0.5);
	cairo_stroke(cr);
	for (uint32_t s = 0; s < h->n_signals; ++s) {
		const Track *t = &tracks[s];
		uint64_t finite = total - t->nonfinite;
		double v[4] = {t->min, t->max, finite ? t->sum / (double)finite : 0.0, t->last};
		double ry = y + row * (s + 1.3);
		set_rgb(cr, palette[s % N_PALETTE], 1.0);
		text_at(cr, x, ry, 0.0, 0.0, h->signals[s]->symbol);
		cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
		for (int c = 1; c < 5; ++c) {
			snprintf(buf, sizeof(buf), "%.4f", fabs(v[c - 1]) < 5e-5 ? 0.0 : v[c - 1]);
			text_at(cr, x + col[c] * w + 0.15 * w, ry, 1.0, 0.0, buf);
		}
	}
	cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
	snprintf(buf, sizeof(buf), "%llu frames, block %ld", (unsigned long long)total, o->block);
	text_at(cr, x, y + row * (h->n_signals + 1.6), 0.0, 0.0, buf);
}

static char *settings_summary(const Host *h, const Options *o)
{
	size_t cap = 256, len = 0;
	char *s = xcalloc(cap, 1);
#define APPEND(...)                                          \
	do {                                                 \
		int need_ = snprintf(NULL, 0, __VA_ARGS__);  \
		if (len + (size_t)need_ + 1 > cap) {         \
			cap = 2 * (len + (size_t)need_ + 1); \
			s = xrealloc(s, cap);                \
		}                                            \
		snprintf(s + len, cap - len, __VA_ARGS__);   \
		len += (size_t)need_;                        \
	} while (0)

	if (h->preset_label)
		APPEND("preset \xE2\x80\x9C%s\xE2\x80\x9D", h->preset_label);
	for (uint32_t i = 0; i < h->n_ports; ++i) {
		const Port *p = &h->ports[i];
		if (p->role != ROLE_CONTROL_IN || (p->has_def && p->value == p->def))
			continue;
		if ((p->has_min && p->value < p->min) || (p->has_max && p->value > p->max))
			APPEND("%s%s = %g (clamped from %g)", len ? "   " : "", p->symbol,
			       p->has_min && p->value < p->min ? p->min : p->max, p->value);
		else
			APPEND("%s%s = %g", len ? "   " : "", p->symbol, p->value);
	}
	if (o->block_given && o->block != DEFAULT_BLOCK)
		APPEND("%sblock %ld", len ? "   " : "", o->block);
	if (len == 0)
		APPEND("all controls at their defaults");
#undef APPEND
	return s;
}

static cairo_status_t write_png_stream(void *closure, const unsigned char *data,
                                       unsigned int length)
{
	return fwrite(data, 1, length, (FILE *)closure) == length ? CAIRO_STATUS_SUCCESS
	                                                          : CAIRO_STATUS_WRITE_ERROR;
}

static int draw_png(FILE *f, const Layout *L, const Host *h, const Options *o, const Track *tracks,
                    const Plane *pl, uint64_t total)
{
	cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, L->w, L->h);
	cairo_t *cr = cairo_create(surface);
	double seconds = (double)total / (double)o->rate;
	char title[512], right[128];
	char *settings;
	cairo_status_t status;

	cairo_set_source_rgb(cr, 0.969, 0.965, 0.953);
	cairo_paint(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);

	/* Title: plugin name, URI; render length and rate; non-default settings */
	snprintf(title, sizeof(title), "%s", h->plugin_name);
	cairo_set_font_size(cr, 20.0);
	cairo_set_source_rgb(cr, 0.13, 0.13, 0.13);
	text_at(cr, L->margin, 12.0, 0.0, 0.0, title);
	{
		cairo_text_extents_t te;
		cairo_text_extents(cr, title, &te);
		cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
		                       CAIRO_FONT_WEIGHT_NORMAL);
		cairo_set_font_size(cr, 12.0);
		cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
		text_at(cr, L->margin + te.x_advance + 12.0, 19.0, 0.0, 0.0, h->uri);
	}
	snprintf(right, sizeof(right), "%g s at %ld Hz", seconds, o->rate);
	cairo_set_font_size(cr, 14.0);
	cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
	text_at(cr, L->w - L->margin, 15.0, 1.0, 0.0, right);

	settings = settings_summary(h, o);
	cairo_set_font_size(cr, 13.0);
	cairo_set_source_rgb(cr, 0.30, 0.30, 0.30);
	text_fit(cr, L->margin, 40.0, L->w - 2.0 * L->margin, settings);
	free(settings);

	{
		char time_label[128] = "time (s)";
		const Port *ts = find_port(h, pendula_ports[P_TIME_SCALE].symbol);
		if (ts && ts->role == ROLE_CONTROL_IN && ts->value != 1.0f)
			snprintf(time_label, sizeof(time_label),
			         "time (s of audio; simulated time = %g \xC3\x97 audio time)",
			         ts->value);
		for (uint32_t s = 0; s < h->n_signals; ++s) {
			/* Angles of bodies beyond n_bodies are 0 by definition: say so */
			char note[64];
			int unused = 0;
			for (int k = pl->n_traces; pl->mode == PLANE_PARALLEL && k < MAX_BODIES;
			     ++k)
				if (pl->theta_sig[k] == (int)s)
					unused = 1;
			snprintf(note, sizeof(note), "(unused: n_bodies = %d)", pl->n_traces);
			draw_strip(cr, L, h->signals[s], &tracks[s], (int)s, h->n_signals, seconds,
			           time_label, unused ? note : NULL);
		}
	}
	if (L->has_plane) {
		draw_plane(cr, L, pl);
		draw_stats_table(cr, L->plane_x, L->plane_y + L->plane_side + 112.0, L->plane_side,
		                 L->h - L->margin - (L->plane_y + L->plane_side + 112.0), h, tracks,
		                 total, o);
	}

	cairo_surface_flush(surface);
	status = cairo_status(cr);
	if (status == CAIRO_STATUS_SUCCESS)
		status = cairo_surface_write_to_png_stream(surface, write_png_stream, f);
	cairo_destroy(cr);
	cairo_surface_destroy(surface);
	return status == CAIRO_STATUS_SUCCESS ? 0 : -1;
}

/* ------------------------------------------------------------------------ */
/* Rendering */

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void check_features(const LilvPlugin *plugin, const char *const *supported)
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

/* Closes an output (flushes it if stdout); err | any error in doing so. */
static int close_output(FILE *f, int err)
{
	if (f != stdout)
		err |= fclose(f);
	else
		err |= fflush(f);
	return err;
}

static FILE *open_output(const char *opt, const char *path)
{
	FILE *f;
	if (strcmp(path, "-") == 0)
		return stdout;
	f = fopen(path, "wb");
	if (!f)
		die("%s: cannot write '%s': %s", opt, path, strerror(errno));
	return f;
}

int main(int argc, char **argv)
{
	Options o;
	Host h;
	LilvNode *uri_node;
	LilvState *state = NULL;
	LilvInstance *instance;
	uint64_t total, done = 0, next_csv = 0;
	Track *tracks;
	Plane plane;
	Layout layout;
	SNDFILE *snd = NULL;
	FILE *csv = NULL, *png = NULL;
	float *frame_values, *interleaved = NULL;
	float *zero_buf;
	int show_progress, progress_shown = 0, last_pct = -1;
	double t_start, t_last = 0.0;
	int status = EXIT_SUCCESS;

	/* Options: block lengths and the sample rate, for plugins that ask. */
	int32_t min_block = 1, max_block, nominal_block, seq_size;
	float rate_f;
	LV2_Options_Option lv2_options[6];
	LV2_Feature map_feature, unmap_feature, options_feature, bounded_feature;
	const LV2_Feature *features[5];
	const char *const supported_features[] = {
	    LV2_URID__map,           LV2_URID__unmap,
	    LV2_OPTIONS__options,    LV2_BUF_SIZE__boundedBlockLength,
	    LV2_CORE__hardRTCapable, LV2_CORE__inPlaceBroken,
	    LV2_CORE__isLive,        NULL};

	parse_args(argc, argv, &o);
	g_quiet = o.quiet;
	total = (uint64_t)llround(o.seconds * (double)o.rate);

	/* World and plugin */
	memset(&h, 0, sizeof(h));
	h.map.handle = &h.urids;
	h.map.map = urid_map;
	h.unmap.handle = &h.urids;
	h.unmap.unmap = urid_unmap;
	h.world = lilv_world_new();
	if (o.n_bundles > 0) {
		for (size_t i = 0; i < o.n_bundles; ++i)
			load_bundle(h.world, o.bundles[i]);
	} else {
		load_all_filtered(h.world);
	}
	h.uri = resolve_plugin_uri(o.plugin);
	uri_node = lilv_new_uri(h.world, h.uri);
	h.plugin = uri_node ? lilv_plugins_get_by_uri(lilv_world_get_all_plugins(h.world), uri_node)
	                    : NULL;
	lilv_node_free(uri_node);
	if (!h.plugin) {
		if (o.n_bundles > 0)
			die_usage("plugin <%s> is not in the bundle(s) given with --bundle", h.uri);
		die_usage("plugin <%s> not found; point LV2_PATH at the folder that holds "
		          "pendula.lv2 (LV2_PATH=%s), or use --bundle",
		          h.uri, getenv("LV2_PATH") ? getenv("LV2_PATH") : "unset");
	}
	{
		LilvNode *name = lilv_plugin_get_name(h.plugin);
		h.plugin_name = xstrdup(name ? lilv_node_as_string(name) : h.uri);
		lilv_node_free(name);
	}
	collect_ports(&h);

	if (o.list_ports || o.list_presets) {
		if (o.list_ports)
			list_ports(&h);
		if (o.list_presets)
			print_presets(&h);
		goto cleanup_world;
	}

	/* Values: defaults (already set), then the preset, then --set */
	if (o.preset)
		state = apply_preset(&h, o.preset);
	apply_settings(&h, &o);

	/* Outputs: open everything before the render, so it fails early */
	if (o.wav) {
		SF_INFO info;
		double bytes = (double)total * h.n_signals * 4.0;
		if (h.n_signals == 0)
			die("--wav: %s has no audio or CV outputs", h.uri);
		memset(&info, 0, sizeof(info));
		info.samplerate = (int)o.rate;
		info.channels = (int)h.n_signals;
		/* Plain WAV up to 4 GiB, RF64 beyond. */
		info.format = (bytes < 4294967295.0 - 65536.0 ? SF_FORMAT_WAV : SF_FORMAT_RF64) |
		              SF_FORMAT_FLOAT;
		snd = sf_open(o.wav, SFM_WRITE, &info);
		if (!snd)
			die("--wav: cannot write '%s': %s", o.wav, sf_strerror(NULL));
		/* The PEAK chunk holds a time stamp: leave it out, so that the
		 * same command writes the same bytes. */
		sf_command(snd, SFC_SET_ADD_PEAK_CHUNK, NULL, SF_FALSE);
		sf_set_string(snd, SF_STR_SOFTWARE, PROG);
		sf_set_string(snd, SF_STR_TITLE, h.uri);
		interleaved = xcalloc((size_t)o.block * h.n_signals, sizeof(float));
	}
	if (o.csv) {
		csv = open_output("--csv", o.csv);
		fputs("time", csv);
		for (uint32_t s = 0; s < h.n_signals; ++s)
			fprintf(csv, ",%s", h.signals[s]->symbol);
		fputc('\n', csv);
	}
	if (o.png)
		png = open_output("--png", o.png);

	/* Accumulators */
	plane_setup(&plane, &h, total);
	layout_png(&layout, &o, h.n_signals, plane.mode != PLANE_NONE, total);
	tracks = xcalloc(h.n_signals, sizeof(*tracks));
	for (uint32_t s = 0; s < h.n_signals; ++s) {
		tracks[s].min = INFINITY;
		tracks[s].max = -INFINITY;
		if (png) {
			tracks[s].env_min = xcalloc(layout.n_cols, sizeof(float));
			tracks[s].env_max = xcalloc(layout.n_cols, sizeof(float));
			tracks[s].env_set = xcalloc(layout.n_cols, 1);
		}
	}
	frame_values = xcalloc(h.n_signals, sizeof(float));

	/* Features */
	max_block = (int32_t)o.block;
	nominal_block = (int32_t)o.block;
	seq_size = 65536;
	rate_f = (float)o.rate;
	{
		LV2_URID atom_int = urid_map(&h.urids, LV2_ATOM__Int);
		LV2_URID atom_float = urid_map(&h.urids, LV2_ATOM__Float);
		LV2_Options_Option opts[6] = {
		    {LV2_OPTIONS_INSTANCE, 0, urid_map(&h.urids, LV2_BUF_SIZE__minBlockLength),
		     sizeof(int32_t), atom_int, &min_block},
		    {LV2_OPTIONS_INSTANCE, 0, urid_map(&h.urids, LV2_BUF_SIZE__maxBlockLength),
		     sizeof(int32_t), atom_int, &max_block},
		    {LV2_OPTIONS_INSTANCE, 0, urid_map(&h.urids, LV2_BUF_SIZE__nominalBlockLength),
		     sizeof(int32_t), atom_int, &nominal_block},
		    {LV2_OPTIONS_INSTANCE, 0, urid_map(&h.urids, LV2_BUF_SIZE__sequenceSize),
		     sizeof(int32_t), atom_int, &seq_size},
		    {LV2_OPTIONS_INSTANCE, 0, urid_map(&h.urids, LV2_PARAMETERS__sampleRate),
		     sizeof(float), atom_float, &rate_f},
		    {LV2_OPTIONS_INSTANCE, 0, 0, 0, 0, NULL},
		};
		memcpy(lv2_options, opts, sizeof(opts));
	}
	map_feature.URI = LV2_URID__map;
	map_feature.data = &h.map;
	unmap_feature.URI = LV2_URID__unmap;
	unmap_feature.data = &h.unmap;
	options_feature.URI = LV2_OPTIONS__options;
	options_feature.data = lv2_options;
	bounded_feature.URI = LV2_BUF_SIZE__boundedBlockLength;
	bounded_feature.data = NULL;
	features[0] = &map_feature;
	features[1] = &unmap_feature;
	features[2] = &options_feature;
	features[3] = &bounded_feature;
	features[4] = NULL;
	check_features(h.plugin, supported_features);

	instance = lilv_plugin_instantiate(h.plugin, (double)o.rate, features);
	if (!instance)
		die("cannot instantiate %s at %ld Hz", h.uri, o.rate);
	if (state && lilv_state_get_num_properties(state) > 0)
		lilv_state_restore(state, instance, NULL, NULL, 0, features);

	/* Connect every port */
	zero_buf = xcalloc((size_t)o.block, sizeof(float));
	for (uint32_t i = 0; i < h.n_ports; ++i) {
		Port *p = &h.ports[i];
		switch (p->role) {
		case ROLE_CONTROL_IN:
		case ROLE_CONTROL_OUT:
			lilv_instance_connect_port(instance, i, &p->value);
			break;
		case ROLE_SIGNAL_IN:
			lilv_instance_connect_port(instance, i, zero_buf);
			break;
		case ROLE_SIGNAL_OUT:
			p->buf = xcalloc((size_t)o.block, sizeof(float));
			lilv_instance_connect_port(instance, i, p->buf);
			break;
		case ROLE_ATOM_IN:
		case ROLE_ATOM_OUT:
			/* 8-byte aligned: calloc is at least that */
			p->atom = xcalloc(1, sizeof(LV2_Atom) + p->atom_capacity);
			lilv_instance_connect_port(instance, i, p->atom);
			break;
		case ROLE_OTHER:
			if (!p->optional)
				die("port '%s' has a type " PROG " cannot connect", p->symbol);
			lilv_instance_connect_port(instance, i, NULL);
			break;
		}
	}

	show_progress = !o.quiet && isatty(STDERR_FILENO);
	t_start = now_seconds();
	lilv_instance_activate(instance);

	while (done < total) {
		uint32_t n =
		    (uint32_t)(total - done < (uint64_t)o.block ? total - done : (uint64_t)o.block);

		for (uint32_t i = 0; i < h.n_ports; ++i) {
			Port *p = &h.ports[i];
			if (p->role == ROLE_ATOM_IN) {
				/* An empty sequence each block */
				LV2_Atom_Sequence *seq = (LV2_Atom_Sequence *)p->atom;
				seq->atom.size = sizeof(LV2_Atom_Sequence_Body);
				seq->atom.type = urid_map(&h.urids, LV2_ATOM__Sequence);
				seq->body.unit = 0;
				seq->body.pad = 0;
			} else if (p->role == ROLE_ATOM_OUT) {
				/* The space the plugin may fill */
				p->atom->size = p->atom_capacity;
				p->atom->type = urid_map(&h.urids, LV2_ATOM__Chunk);
			}
		}

		lilv_instance_run(instance, n);

		for (uint32_t j = 0; j < n; ++j) {
			uint64_t frame = done + j;
			for (uint32_t s = 0; s < h.n_signals; ++s) {
				float v = h.signals[s]->buf[j];
				Track *t = &tracks[s];
				frame_values[s] = v;
				if (interleaved)
					interleaved[(size_t)j * h.n_signals + s] = v;
				if (!isfinite(v)) {
					++t->nonfinite;
					continue;
				}
				if (v < t->min)
					t->min = v;
				if (v > t->max)
					t->max = v;
				t->sum += v;
				t->last = v;
				if (png) {
					uint32_t c = (uint32_t)(frame * layout.n_cols / total);
					if (!t->env_set[c]) {
						t->env_min[c] = t->env_max[c] = v;
						t->env_set[c] = 1;
					} else if (v < t->env_min[c]) {
						t->env_min[c] = v;
					} else if (v > t->env_max[c]) {
						t->env_max[c] = v;
					}
				}
			}
			if (csv && frame == next_csv) {
				fprintf(csv, "%.9g", (double)frame / (double)o.rate);
				for (uint32_t s = 0; s < h.n_signals; ++s)
					fprintf(csv, ",%.9g", (double)frame_values[s]);
				fputc('\n', csv);
				next_csv += (uint64_t)o.csv_every;
			}
			if (plane.mode != PLANE_NONE && frame % plane.decimation == 0)
				plane_record(&plane, frame_values);
		}
		if (snd && sf_writef_float(snd, interleaved, n) != (sf_count_t)n)
			die("--wav: cannot write '%s': %s", o.wav, sf_strerror(snd));
		done += n;

		if (show_progress) {
			double t = now_seconds();
			int pct = (int)(100.0 * (double)done / (double)total);
			if (t - t_start > 1.0 && t - t_last > 0.1 &&
			    (pct != last_pct || t - t_last > 1.0)) {
				double eta = (t - t_start) * (double)(total - done) / (double)done;
				fprintf(stderr, "\r" PROG ": rendering %3d%%, %.0f s left ", pct,
				        eta);
				fflush(stderr);
				t_last = t;
				last_pct = pct;
				progress_shown = 1;
			}
		}
	}
	lilv_instance_deactivate(instance);
	if (progress_shown)
		fprintf(stderr, "\r" PROG ": rendering 100%%, took %.1f s   \n",
		        now_seconds() - t_start);

	/* The final configuration for the plane panel */
	for (int k = 0; k < MAX_BODIES; ++k)
		if (plane.theta_sig[k] >= 0 && isfinite(frame_values[plane.theta_sig[k]]))
			plane.theta_last[k] = M_PI * frame_values[plane.theta_sig[k]];

	for (uint32_t s = 0; s < h.n_signals; ++s)
		if (tracks[s].nonfinite && !o.quiet)
			warn("output '%s' had %llu non-finite samples", h.signals[s]->symbol,
			     (unsigned long long)tracks[s].nonfinite);

	/* Finish the files */
	if (snd) {
		if (sf_close(snd) != 0) {
			fprintf(stderr, PROG ": --wav: cannot write '%s'\n", o.wav);
			status = EXIT_FAILURE;
		} else if (!o.quiet) {
			fprintf(stderr, PROG ": wrote %s (%u channels, %llu frames at %ld Hz)\n",
			        o.wav, h.n_signals, (unsigned long long)total, o.rate);
		}
	}
	if (csv) {
		const int err = close_output(csv, ferror(csv));
		if (err) {
			fprintf(stderr, PROG ": --csv: cannot write '%s'\n", o.csv);
			status = EXIT_FAILURE;
		} else if (!o.quiet && csv != stdout) {
			fprintf(stderr, PROG ": wrote %s\n", o.csv);
		}
	}
	if (png) {
		const int err =
		    close_output(png, draw_png(png, &layout, &h, &o, tracks, &plane, total));
		if (err) {
			fprintf(stderr, PROG ": --png: cannot write '%s'\n", o.png);
			status = EXIT_FAILURE;
		} else if (!o.quiet && png != stdout) {
			fprintf(stderr, PROG ": wrote %s (%dx%d)\n", o.png, o.png_w, o.png_h);
		}
	}
	if (o.stats) {
		printf("%-12s %12s %12s %12s %12s\n", "output", "min", "max", "mean", "final");
		for (uint32_t s = 0; s < h.n_signals; ++s) {
			const Track *t = &tracks[s];
			uint64_t finite = total - t->nonfinite;
			printf("%-12s %12.6g %12.6g %12.6g %12.6g\n", h.signals[s]->symbol, t->min,
			       t->max, finite ? t->sum / (double)finite : 0.0, t->last);
		}
	}

	/* Clean up (so that memcheck sees no leaks) */
	if (png)
		cairo_debug_reset_static_data(); /* cairo's font caches */
	lilv_instance_free(instance);
	for (uint32_t s = 0; s < h.n_signals; ++s) {
		free(tracks[s].env_min);
		free(tracks[s].env_max);
		free(tracks[s].env_set);
	}
	free(tracks);
	free(frame_values);
	free(interleaved);
	free(zero_buf);
	plane_free(&plane);

cleanup_world:
	if (state)
		lilv_state_free(state);
	for (uint32_t i = 0; i < h.n_ports; ++i) {
		free(h.ports[i].symbol);
		free(h.ports[i].name);
		free(h.ports[i].buf);
		free(h.ports[i].atom);
	}
	free(h.ports);
	free(h.signals);
	free(h.plugin_name);
	free(h.preset_label);
	for (uint32_t i = 0; i < h.urids.n; ++i)
		free(h.urids.uris[i]);
	free(h.urids.uris);
	lilv_world_free(h.world);
	for (size_t i = 0; i < o.n_sets; ++i)
		free(o.sets[i].symbol);
	free(o.sets);
	free(o.bundles);
	return status;
}
