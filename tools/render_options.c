/* SPDX-License-Identifier: ISC */
/* pendula-render: messages, --help and the command line (see render.h). */
#include "render.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------------------ */
/* Messages */

int g_quiet = 0;

/* "PREFIX" + the message + a newline, on stderr. */
static void vreport(const char *prefix, const char *fmt, va_list args) PRINTF_LIKE(2, 0);

static void vreport(const char *prefix, const char *fmt, va_list args)
{
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, args);
	fputc('\n', stderr);
}

_Noreturn void die_usage(const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	vreport(PROG ": ", fmt, args);
	va_end(args);
	exit(EXIT_USAGE);
}

_Noreturn void die(const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	vreport(PROG ": ", fmt, args);
	va_end(args);
	exit(EXIT_FAILURE);
}

void warn(const char *fmt, ...)
{
	va_list args;
	va_start(args, fmt);
	vreport(PROG ": warning: ", fmt, args);
	va_end(args);
}

static void usage(FILE *out)
{
	/* the short names, from the registry */
	char short_names[512] = "";
	for (int v = 0; v < PENDULA_N_VARIANTS; ++v) {
		const size_t len = strlen(short_names);
		snprintf(short_names + len, sizeof short_names - len, "%s%s", v ? ", " : "",
		         pendula_variant_names[v]);
	}
	fprintf(out,
	        "Usage: " PROG " [OPTION]... PLUGIN\n"
	        "Render a Pendula LV2 plugin offline to WAV, CSV and/or PNG.\n"
	        "\n"
	        "PLUGIN is a short name (%s) or a full plugin URI.\n"
	        "Plugins are found on LV2_PATH (e.g. LV2_PATH=build), or in the bundles given\n"
	        "with --bundle.\n"
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
	        "  --rate HZ           sample rate, an integer from %ld to %ld (default %ld)\n"
	        "  --block N           frames per run() call, 1 to %ld (default %ld); the last\n"
	        "                      block is shorter when the length is not a multiple\n"
	        "  --drive-wav FILE    feed the drive input from FILE (its first channel,\n"
	        "                      looped; set drive_gain to hear it)\n"
	        "  --drive-kick BPM    feed the drive input a kick drum at BPM\n"
	        "\n"
	        "Output (at least one of --wav, --csv, --png, --stats):\n"
	        "  --wav FILE          32-bit float WAV, one channel per signal output\n"
	        "  --csv FILE          CSV: time in seconds, then one column per signal output\n"
	        "                      ('-' writes to standard output)\n"
	        "  --csv-every K       write every K-th frame to the CSV (default 1)\n"
	        "  --png FILE          picture: every signal output over time, and the paths\n"
	        "                      of the bodies (x-y; and x-z for a 3-D model)\n"
	        "  --png-size WxH      size of the picture in pixels (default %dx%d); at least\n"
	        "                      400x300, and 14 pixels high per output strip\n"
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
	        short_names, DEFAULT_SECONDS, MIN_RATE, MAX_RATE, DEFAULT_RATE, MAX_BLOCK,
	        DEFAULT_BLOCK, DEFAULT_PNG_W, DEFAULT_PNG_H);
}

/* ------------------------------------------------------------------------ */
/* Command line */

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
	OPT_DRIVE_WAV,
	OPT_DRIVE_KICK,
	OPT_PNG,
	OPT_PNG_SIZE,
	OPT_STATS,
	OPT_QUIET,
	OPT_HELP,
	OPT_PLUGIN /* (the last: parse_args counts on it) */
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
    {"--drive-wav", OPT_DRIVE_WAV, 1},
    {"--drive-kick", OPT_DRIVE_KICK, 1},
    {"--png", OPT_PNG, 1},
    {"--png-size", OPT_PNG_SIZE, 1},
    {"--stats", OPT_STATS, 0},
    {"--quiet", OPT_QUIET, 0},
    {"-q", OPT_QUIET, 0},
    {"--help", OPT_HELP, 0},
    {"-h", OPT_HELP, 0},
    {"--plugin", OPT_PLUGIN, 1},
};

/* Whether s is an option's name ("--anything", or a known short option
 * such as "-q"): then it is not taken as the value of the option before it
 * ("--wav --png x", "--wav -q"; a file of that name: --wav=-q or ./-q). */
static int is_option_name(const char *s)
{
	if (strncmp(s, "--", 2) == 0)
		return 1;
	for (size_t k = 0; k < sizeof(option_specs) / sizeof(option_specs[0]); ++k)
		if (strcmp(option_specs[k].name, s) == 0)
			return 1;
	return 0;
}

/* Whether two output paths name one file: the same text, or two names of
 * a file that exists ("-" only matches "-"). */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (strcmp(a, b) == 0)
		return 1;
	if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
		return 0;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

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

static void set_defaults(Options *o, int argc)
{
	memset(o, 0, sizeof(*o));
	o->seconds = DEFAULT_SECONDS;
	o->rate = DEFAULT_RATE;
	o->block = DEFAULT_BLOCK;
	o->csv_every = 1;
	o->png_w = DEFAULT_PNG_W;
	o->png_h = DEFAULT_PNG_H;
	/* (room for every argument to be a --bundle or a --set) */
	o->bundles = xcalloc((size_t)argc, sizeof(*o->bundles));
	o->sets = xcalloc((size_t)argc, sizeof(*o->sets));
}

/* Room for an option's name and its '\0' (a longer one is unknown) */
#define OPTION_NAME_SIZE 64

/* The option argv[*i] names ("--name" or "--name=value"), its name in
 * name and its value in *value (the next argument when it takes one
 * and no "=value" came with it; *i then moves past it). */
static const OptionSpec *split_option(int argc, char **argv, int *i, char name[OPTION_NAME_SIZE],
                                      const char **value)
{
	const char *arg = argv[*i];
	const OptionSpec *spec = NULL;
	const size_t name_len = strcspn(arg, "=");

	if (name_len >= OPTION_NAME_SIZE)
		die_usage("unknown option '%s' (see --help)", arg);
	memcpy(name, arg, name_len);
	name[name_len] = '\0';
	for (size_t k = 0; k < sizeof(option_specs) / sizeof(option_specs[0]); ++k)
		if (strcmp(option_specs[k].name, name) == 0)
			spec = &option_specs[k];
	if (!spec)
		die_usage("unknown option '%s' (see --help)", name);
	*value = NULL;
	if (arg[name_len] == '=') {
		if (!spec->has_value)
			die_usage("%s: takes no value, got '%s'", name, arg + name_len + 1);
		*value = arg + name_len + 1;
	} else if (spec->has_value) {
		if (*i + 1 >= argc || is_option_name(argv[*i + 1]))
			die_usage("%s: missing value", name);
		*value = argv[++*i];
	}
	return spec;
}

/* --set SYMBOL=VALUE */
static void parse_setting(Setting *s, const char *value)
{
	const char *eq = strchr(value, '=');
	if (!eq || eq == value)
		die_usage("--set: expected SYMBOL=VALUE, got '%s'", value);
	s->arg = value;
	s->symbol = xcalloc((size_t)(eq - value) + 1, 1);
	memcpy(s->symbol, value, (size_t)(eq - value));
	if (!parse_number(eq + 1, &s->value))
		die_usage("--set %s: expected a number, got '%s'", s->symbol, eq + 1);
}

/* --png-size WxH */
static void parse_png_size(Options *o, const char *value)
{
	/* digits only (no sign, no space), few enough for an int */
	int w = 0, h = 0, n = 0;
	const size_t wd = strspn(value, "0123456789");
	const size_t hd = value[wd] == 'x' ? strspn(value + wd + 1, "0123456789") : 0;
	if (wd == 0 || wd > 9 || hd == 0 || hd > 9 || value[wd + 1 + hd] != '\0' ||
	    sscanf(value, "%dx%d%n", &w, &h, &n) != 2 || value[n] != '\0' || w < 400 || h < 300 ||
	    w > 10000 || h > 10000)
		die_usage("--png-size: expected WIDTHxHEIGHT from 400x300 to "
		          "10000x10000, got '%s'",
		          value);
	o->png_w = w;
	o->png_h = h;
}

/* One option (named name on the command line) and its value into o. */
static void apply_option(Options *o, OptionId id, const char *name, const char *value)
{
	switch (id) {
	case OPT_BUNDLE:
		o->bundles[o->n_bundles++] = non_empty(name, value, "a directory");
		break;
	case OPT_SET:
		parse_setting(&o->sets[o->n_sets++], value);
		break;
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
		    parse_int_option("--rate", value, MIN_RATE, MAX_RATE, "a sample rate in Hz");
		o->rate_given = 1;
		break;
	case OPT_BLOCK:
		o->block =
		    parse_int_option("--block", value, 1, MAX_BLOCK, "a block size in frames");
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
	case OPT_DRIVE_WAV:
		o->drive_wav = non_empty(name, value, "a file name");
		break;
	case OPT_DRIVE_KICK:
		if (!parse_number(value, &o->drive_kick) || !(o->drive_kick >= 1.0) ||
		    o->drive_kick > 1000.0)
			die_usage("--drive-kick: expected a tempo from 1 to 1000 BPM, got '%s'",
			          value);
		break;
	case OPT_PNG:
		o->png = non_empty(name, value, "a file name");
		break;
	case OPT_PNG_SIZE:
		parse_png_size(o, value);
		break;
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

/* What the options say together: a plugin, something to do, no two
 * outputs into one file, a length of at least one frame and not too many. */
static void check_options(const Options *o)
{
	if (!o->plugin)
		die_usage("no plugin given: expected a short name (%s, ...) or a plugin URI (see "
		          "--help)",
		          pendula_variant_names[0]);
	if (!o->list_presets && !o->list_ports && !o->wav && !o->csv && !o->png && !o->stats)
		die_usage("nothing to do: give --wav, --csv, --png or --stats (see --help)");
	/* Two outputs into one file (or both to stdout) would mix their bytes. */
	const char *out[3] = {o->wav, o->csv, o->png};
	static const char *const opt[3] = {"--wav", "--csv", "--png"};
	for (int i = 0; i < 3; ++i)
		for (int j = i + 1; j < 3; ++j)
			if (out[i] && out[j] && same_file(out[i], out[j]))
				die_usage("%s and %s both write to '%s'", opt[i], opt[j], out[j]);
	if ((double)o->rate * o->seconds > MAX_FRAMES)
		die_usage("--seconds: %g s at %ld Hz is more than %.0f frames", o->seconds, o->rate,
		          MAX_FRAMES);
	if (llround(o->seconds * (double)o->rate) < 1)
		die_usage("--seconds: %g s is less than one frame at %ld Hz", o->seconds, o->rate);
}

void parse_args(int argc, char **argv, Options *o)
{
	int only_positional = 0;
	/* each option's value so far: one that takes a single value and is
	 * given twice is an error, not silently the last one */
	const char *given[OPT_PLUGIN + 1] = {NULL};

	set_defaults(o, argc);
	for (int i = 1; i < argc; ++i) {
		const char *arg = argv[i];
		const OptionSpec *spec;
		const char *value;
		char name[OPTION_NAME_SIZE];

		if (only_positional || arg[0] != '-' || strcmp(arg, "-") == 0) {
			set_plugin(o, arg);
			continue;
		}
		if (strcmp(arg, "--") == 0) {
			only_positional = 1;
			continue;
		}
		spec = split_option(argc, argv, &i, name, &value);
		/* (--bundle and --set repeat; PLUGIN has its own message) */
		if (spec->has_value && spec->id != OPT_BUNDLE && spec->id != OPT_SET &&
		    spec->id != OPT_PLUGIN) {
			if (given[spec->id])
				die_usage("%s given twice ('%s', then '%s')", name, given[spec->id],
				          value);
			given[spec->id] = value;
		}
		apply_option(o, spec->id, name, value);
	}
	check_options(o);
}
