/* SPDX-License-Identifier: ISC */
/*
 * pendula-render: a command-line LV2 host (on lilv) that runs a Pendula
 * plugin offline for a given time and writes what its signal outputs did:
 * a 32-bit float WAV (one channel per signal output), a CSV, and a PNG with
 * one strip per output over time plus the path of the bodies (the plane
 * view: the model's own pose, drawn by the drawing module).
 *
 * The host part is generic: the ports, their ranges and defaults come from
 * the plugin's Turtle description through lilv, and any plugin with audio or
 * CV outputs can be rendered by its full URI.  Only the short names and the
 * plane view know about Pendula, through the port table (contract/ports.h) and
 * the models' poses.
 *
 *   pendula-render.c     main: the render loop
 *   render_options.c     messages, --help, the command line
 *   render_host.c        the plugin's ports, LV2_PATH and bundles, presets
 *   render_accumulate.c  per-output statistics and the PNG envelopes
 *   render_files.c       WAV and CSV output
 *   render_png.c         the PNG page: title, strips, statistics
 *   render_plane.c       the plane view: the bodies' paths, start and end
 *
 * Exit status: 0 on success, 1 when something fails at run time (a file
 * cannot be written, the plugin cannot be instantiated), 2 for a bad
 * command line (including an unknown plugin, port symbol or preset).
 */
#ifndef PENDULA_RENDER_H
#define PENDULA_RENDER_H

#include "lv2_host.h"
#include "pendula_draw.h"
#include "pendula_engine.h"
#include "ports.h"

#include <cairo.h>
#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <sndfile.h>

#include <stdint.h>
#include <stdio.h>

#define PROG       "pendula-render"
#define EXIT_USAGE 2

#define DEFAULT_SECONDS  10.0
#define DEFAULT_RATE     48000L
#define DEFAULT_BLOCK    256L
#define DEFAULT_PNG_W    1200
#define DEFAULT_PNG_H    900
#define MIN_RATE         1000L /* the plugins accept 1 kHz .. 1.536 MHz */
#define MAX_RATE         1536000L
#define MAX_BLOCK        65536L
#define MAX_FRAMES       10000000000.0 /* about 58 hours at 48 kHz */
#define MAX_TRACE_POINTS 200000u

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define xcalloc  lv2th_calloc
#define xrealloc lv2th_realloc
#define xstrdup  lv2th_strdup

/* ---- messages (render_options.c) ---- */

extern int g_quiet;

#if defined(__GNUC__)
#define PRINTF_LIKE(fmt, first) __attribute__((format(printf, fmt, first)))
#else
#define PRINTF_LIKE(fmt, first)
#endif

_Noreturn void die_usage(const char *fmt, ...) PRINTF_LIKE(1, 2);
_Noreturn void die(const char *fmt, ...) PRINTF_LIKE(1, 2);
void warn(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* ---- command line (render_options.c) ---- */

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
	const char *drive_wav; /* the drive input: a WAV's first channel, looped */
	double drive_kick;     /* or a kick drum at this tempo (BPM; 0: none) */
	/* which rendering options were given, for the PNG title */
	int seconds_given, rate_given, block_given;
} Options;

void parse_args(int argc, char **argv, Options *o);

/* ---- the plugin and its ports (render_host.c) ---- */

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
	int is_mod_cv; /* a MOD CV output: not rendered (ROLE_OTHER) */
	int optional;
	int integer, toggled; /* lv2:integer (enumerations too), lv2:toggled */
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
	char *preset_label;
	int preset_warned;
} Host;

const char *role_name(const Port *p);
Port *find_port(const Host *h, const char *symbol);
void collect_ports(Host *h);
void list_ports(const Host *h);
const char *resolve_plugin_uri(const char *arg);
/* --bundle DIR (a usage error if it is no folder) */
void load_bundle(LilvWorld *world, const char *dir);
/* Every bundle on LV2_PATH (made absolute) */
void load_all_filtered(LilvWorld *world);
LilvState *apply_preset(Host *h, const char *name);
void print_presets(Host *h);
void apply_settings(Host *h, const Options *o);
void check_features(const LilvPlugin *plugin, const char *const *supported);

/* ---- per-output accumulation (render_accumulate.c) ---- */

typedef struct {
	double min, max, sum, last;
	uint64_t nonfinite;
	float *env_min, *env_max; /* per PNG column */
	uint8_t *env_set;
} Track;

/* n_cols: PNG envelope columns (0: no PNG). */
Track *tracks_new(uint32_t n, uint32_t n_cols);
/* One frame of value v of a track; col: its PNG column. */
void track_add(Track *t, float v, uint32_t col);
void tracks_print(FILE *f, const Host *h, const Track *tracks, uint64_t total);
void tracks_free(Track *tracks, uint32_t n);

/* ---- the drive input's signal (render_drive.c) ---- */

typedef struct {
	SNDFILE *snd;
	int channels;
	float *frames; /* a block of the file's frames */
	float *buf;    /* a block of the signal (NULL: no drive given) */
	double kick_bpm;
	long rate;
	uint64_t pos;
} Drive;

void drive_open(Drive *d, const Options *o);
/* The next n samples (n at most the block), or NULL without a drive. */
float *drive_block(Drive *d, uint32_t n);
void drive_close(Drive *d);

/* ---- WAV and CSV (render_files.c) ---- */

SNDFILE *wav_open(const Options *o, const Host *h);
FILE *csv_open(const Options *o, const Host *h);
void csv_write(FILE *csv, uint64_t frame, long rate, const float *values, uint32_t n);
/* Output files: their temporaries removed at exit and on SIGINT, SIGTERM
 * and SIGHUP (called first thing, so that a signal never finds the tool
 * between a default disposition and its temporaries). */
void outputs_init(void);
/* An output file ("-": stdout), written under a temporary name until
 * outputs_commit(). */
FILE *open_output(const char *opt, const char *path);
/* Closes an output (flushes it if stdout); err | any error in doing so. */
int close_output(FILE *f, int err);
/* The outputs to their names, after a render that succeeded; 1 if one
 * could not be moved there (said on stderr).  Otherwise outputs_discard()
 * (or exit) removes them, leaving what was there. */
int outputs_commit(void);
void outputs_discard(void);

/* ---- the plane view (render_plane.c) ---- */

typedef struct {
	int active;  /* a Pendula plugin: its model gives the pose */
	int three_d; /* two projections: x-y and x-z */
	pendula_system sys;
	int variant;
	int port_sig[PENDULA_N_PORT_IDS]; /* signal index of a signal output port, or -1 */
	double q_init[PENDULA_MAX_DOF], q_last[PENDULA_MAX_DOF];
	int n_tips;
	pendula_vec3 *path[PENDULA_POSE_MAX_TIPS];
	size_t n_points, cap_points;
	uint64_t decimation;
} Plane;

void plane_setup(Plane *pl, Host *h, uint64_t total_frames);
/* One frame of the signal outputs (every decimation-th frame is kept). */
void plane_record(Plane *pl, uint64_t frame, const float *values);
/* The last frame: the end pose. */
void plane_finish(Plane *pl, const float *values);
/* Whether signal s is the angle of a body the model does not have. */
int plane_unused_signal(const Plane *pl, uint32_t s);
int plane_n_bodies(const Plane *pl);
void plane_free(Plane *pl);

/* ---- the PNG page (render_png.c) ---- */

typedef struct {
	double r, g, b;
} Rgb;

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

void layout_png(Layout *L, const Options *o, uint32_t n_signals, int has_plane, uint64_t total);
int draw_png(FILE *f, const Layout *L, const Host *h, const Options *o, const Track *tracks,
             const Plane *pl, uint64_t total);
/* Text and ticks (render_text.c), shared by the page and the plane view */
void text_at(cairo_t *cr, double x, double y, double ax, double ay, const char *s);
void text_fit(cairo_t *cr, double x, double y, double max_w, const char *s);
double nice_step(double range, int max_ticks);
void fmt_tick(char *buf, size_t n, double v, double step);
/* The plane view in the layout's panel. */
void draw_plane(cairo_t *cr, const Layout *L, const Plane *pl);

#endif
