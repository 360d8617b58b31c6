/* SPDX-License-Identifier: ISC */
/* pendula-render: main, the render loop (see render.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "render.h"

#include <lv2/buf-size/buf-size.h>
#include <lv2/core/lv2.h>
#include <lv2/options/options.h>
#include <lv2/urid/urid.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Everything one render holds, from the command line to the files; main()
 * goes through it in phases, each a function below. */
typedef struct {
	Options o;
	Host h;
	LilvState *state; /* the preset's, or NULL */
	uint64_t total;   /* frames to render */
	/* the outputs asked for (NULL: not asked for) */
	SNDFILE *snd;
	FILE *csv, *png;
	float *interleaved; /* a block of WAV frames */
	/* what the PNG and --stats need */
	Track *tracks;
	Plane plane;
	Layout layout;
	float *frame_values; /* the signal outputs at one frame */
	/* the plugin, and what it reads while it lives */
	lv2th_options options;
	const LV2_Feature *features[5];
	LilvInstance *instance;
	float *zero_buf; /* the signal inputs */
	Drive drive;     /* the drive input's signal, if given */
	Port *drive_port;
} Render;

/* Progress on stderr (when it is a terminal), once a render takes more
 * than a second. */
typedef struct {
	int show, shown, last_pct;
	double t_start, t_last;
} Progress;

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* World and plugin: the bundles given, or LV2_PATH; the plugin's name and
 * ports. */
static void load_plugin(Render *r)
{
	Host *h = &r->h;
	LilvNode *uri_node;

	h->world = lilv_world_new();
	if (r->o.n_bundles > 0) {
		for (size_t i = 0; i < r->o.n_bundles; ++i)
			load_bundle(h->world, r->o.bundles[i]);
	} else {
		load_all_filtered(h->world);
	}
	h->uri = resolve_plugin_uri(r->o.plugin);
	uri_node = lilv_new_uri(h->world, h->uri);
	h->plugin = uri_node
	                ? lilv_plugins_get_by_uri(lilv_world_get_all_plugins(h->world), uri_node)
	                : NULL;
	lilv_node_free(uri_node);
	if (!h->plugin) {
		if (r->o.n_bundles > 0)
			die_usage("plugin <%s> is not in the bundle(s) given with --bundle",
			          h->uri);
		die_usage("plugin <%s> not found; point LV2_PATH at the folder that holds "
		          "pendula.lv2 (LV2_PATH=%s), or use --bundle",
		          h->uri, getenv("LV2_PATH") ? getenv("LV2_PATH") : "unset");
	}
	{
		LilvNode *name = lilv_plugin_get_name(h->plugin);
		h->plugin_name = xstrdup(name ? lilv_node_as_string(name) : h->uri);
		lilv_node_free(name);
	}
	collect_ports(h);
}

/* The output files, opened before the render so that it fails early, and
 * the accumulators for the PNG and --stats. */
static void open_outputs(Render *r)
{
	const Options *o = &r->o;
	Host *h = &r->h;

	/* A -midi plugin has no signal to render, a -mod plugin only MOD CV
	 * outputs, which are not rendered; their other outputs are those of
	 * the audio plugin of the model, and a -mod plugin's volts that
	 * plugin's signals on MOD's scale (docs/PORTS.md). */
	if (h->n_signals == 0) {
		const size_t n = strlen(o->plugin), suffix = strlen("-midi");
		const int midi = n > suffix && !strcmp(o->plugin + n - suffix, "-midi");
		const int mod = n > suffix - 1 && !strcmp(o->plugin + n - (suffix - 1), "-mod");
		const size_t keep = midi ? n - suffix : mod ? n - (suffix - 1) : 0;
		die_usage("%s has no audio or CV outputs to render%s%.*s%s", o->plugin,
		          midi  ? "; its MIDI and control outputs are those of the same motion: "
		                  "render "
		          : mod ? "; its MOD CV outputs are the same motion's signals in volts: "
		                  "render "
		                : "",
		          (int)keep, o->plugin, midi || mod ? " instead" : "");
	}
	if (o->wav) {
		r->snd = wav_open(o, h);
		r->interleaved = xcalloc((size_t)o->block * h->n_signals, sizeof(float));
	}
	if (o->csv)
		r->csv = csv_open(o, h);
	if (o->png)
		r->png = open_output("--png", o->png);

	plane_setup(&r->plane, h, r->total);
	layout_png(&r->layout, o, h->n_signals, r->plane.active, r->total);
	r->tracks = tracks_new(h->n_signals, r->png ? r->layout.n_cols : 0);
	r->frame_values = xcalloc(h->n_signals, sizeof(float));
}

/* The features the host gives, the instance, and the preset's state. */
static void instantiate(Render *r)
{
	static const char *const supported_features[] = {
	    LV2_URID__map,           LV2_URID__unmap,
	    LV2_OPTIONS__options,    LV2_BUF_SIZE__boundedBlockLength,
	    LV2_CORE__hardRTCapable, LV2_CORE__inPlaceBroken,
	    LV2_CORE__isLive,        NULL};

	lv2th_options_init(&r->options, (double)r->o.rate, (int32_t)r->o.block, 65536);
	r->features[0] = &lv2th_map_feature;
	r->features[1] = &lv2th_unmap_feature;
	r->features[2] = &r->options.options_feature;
	r->features[3] = &r->options.bounded_feature;
	r->features[4] = NULL;
	check_features(r->h.plugin, supported_features);

	r->instance = lilv_plugin_instantiate(r->h.plugin, (double)r->o.rate, r->features);
	if (!r->instance)
		die("cannot instantiate %s at %ld Hz", r->h.uri, r->o.rate);
	if (r->state && lilv_state_get_num_properties(r->state) > 0)
		lilv_state_restore(r->state, r->instance, NULL, NULL, 0, r->features);
}

/* Every port to its buffer: controls to their values, signal inputs to
 * silence, signal outputs and atom ports to buffers of their own. */
static void connect_ports(Render *r)
{
	const size_t block = (size_t)r->o.block;

	r->zero_buf = xcalloc(block, sizeof(float));
	for (uint32_t i = 0; i < r->h.n_ports; ++i) {
		Port *p = &r->h.ports[i];
		switch (p->role) {
		case ROLE_CONTROL_IN:
		case ROLE_CONTROL_OUT:
			lilv_instance_connect_port(r->instance, i, &p->value);
			break;
		case ROLE_SIGNAL_IN:
			lilv_instance_connect_port(r->instance, i, r->zero_buf);
			break;
		case ROLE_SIGNAL_OUT:
			p->buf = xcalloc(block, sizeof(float));
			lilv_instance_connect_port(r->instance, i, p->buf);
			break;
		case ROLE_ATOM_IN:
		case ROLE_ATOM_OUT:
			/* 8-byte aligned: calloc is at least that */
			p->atom = xcalloc(1, sizeof(LV2_Atom) + p->atom_capacity);
			lilv_instance_connect_port(r->instance, i, p->atom);
			break;
		case ROLE_OTHER:
			if (!p->optional)
				die("port '%s' has a type " PROG " cannot connect", p->symbol);
			lilv_instance_connect_port(r->instance, i, NULL);
			break;
		}
	}
}

/* n frames from frame done on: the plugin's run(), then each frame into
 * the accumulators and the files. */
static void render_block(Render *r, uint64_t done, uint32_t n, uint64_t *next_csv)
{
	const Host *h = &r->h;

	/* An empty sequence in, the space the plugin may fill out */
	for (uint32_t i = 0; i < h->n_ports; ++i) {
		Port *p = &h->ports[i];
		if (p->role == ROLE_ATOM_IN)
			lv2th_prepare_atoms(p->atom, NULL, 0);
		else if (p->role == ROLE_ATOM_OUT)
			lv2th_prepare_atoms(NULL, p->atom, p->atom_capacity);
	}

	float *drive = drive_block(&r->drive, n);
	if (drive && r->drive_port)
		lilv_instance_connect_port(r->instance, r->drive_port->index, drive);
	lilv_instance_run(r->instance, n);

	for (uint32_t j = 0; j < n; ++j) {
		uint64_t frame = done + j;
		const uint32_t col = r->png ? (uint32_t)(frame * r->layout.n_cols / r->total) : 0;
		for (uint32_t s = 0; s < h->n_signals; ++s) {
			float v = h->signals[s]->buf[j];
			r->frame_values[s] = v;
			if (r->interleaved)
				r->interleaved[(size_t)j * h->n_signals + s] = v;
			track_add(&r->tracks[s], v, col);
		}
		if (r->csv && frame == *next_csv) {
			csv_write(r->csv, frame, r->o.rate, r->frame_values, h->n_signals);
			*next_csv += (uint64_t)r->o.csv_every;
		}
		plane_record(&r->plane, frame, r->frame_values);
	}
	if (r->snd && sf_writef_float(r->snd, r->interleaved, n) != (sf_count_t)n)
		die("--wav: cannot write '%s': %s", r->o.wav, sf_strerror(r->snd));
	/* (a full disk or a size limit: stop now, not after the render) */
	if (r->csv && ferror(r->csv))
		die("--csv: cannot write '%s': %s", r->o.csv, strerror(errno));
}

static void progress_update(Progress *pr, uint64_t done, uint64_t total)
{
	double t = now_seconds();
	int pct = (int)(100.0 * (double)done / (double)total);
	if (t - pr->t_start > 1.0 && t - pr->t_last > 0.1 &&
	    (pct != pr->last_pct || t - pr->t_last > 1.0)) {
		double eta = (t - pr->t_start) * (double)(total - done) / (double)done;
		fprintf(stderr, "\r" PROG ": rendering %3d%%, %.0f s left ", pct, eta);
		fflush(stderr);
		pr->t_last = t;
		pr->last_pct = pct;
		pr->shown = 1;
	}
}

/* The whole render, block by block; then the end pose for the plane view
 * and a warning for each output that was not finite throughout. */
static void render(Render *r)
{
	uint64_t done = 0, next_csv = 0;
	Progress pr = {0, 0, -1, 0.0, 0.0};

	pr.show = !r->o.quiet && isatty(STDERR_FILENO);
	pr.t_start = now_seconds();
	lilv_instance_activate(r->instance);

	while (done < r->total) {
		const uint64_t block = (uint64_t)r->o.block;
		uint32_t n = (uint32_t)(r->total - done < block ? r->total - done : block);
		render_block(r, done, n, &next_csv);
		done += n;
		if (pr.show)
			progress_update(&pr, done, r->total);
	}
	lilv_instance_deactivate(r->instance);
	if (pr.shown)
		fprintf(stderr, "\r" PROG ": rendering 100%%, took %.1f s   \n",
		        now_seconds() - pr.t_start);

	/* The final configuration for the plane view */
	plane_finish(&r->plane, r->frame_values);

	for (uint32_t s = 0; s < r->h.n_signals; ++s)
		if (r->tracks[s].nonfinite && !r->o.quiet)
			warn("output '%s' had %llu non-finite samples", r->h.signals[s]->symbol,
			     (unsigned long long)r->tracks[s].nonfinite);
}

/* Closes the files (the PNG drawn first), and moves them to their names
 * only when all went well; then --stats.  The exit status. */
static int finish_outputs(Render *r)
{
	const Options *o = &r->o;
	int status = EXIT_SUCCESS;

	if (r->snd) {
		if (sf_close(r->snd) != 0) {
			fprintf(stderr, PROG ": --wav: cannot write '%s'\n", o->wav);
			status = EXIT_FAILURE;
		} else if (!o->quiet) {
			fprintf(stderr, PROG ": wrote %s (%u channels, %llu frames at %ld Hz)\n",
			        o->wav, r->h.n_signals, (unsigned long long)r->total, o->rate);
		}
	}
	if (r->csv) {
		errno = 0;
		const int err = close_output(r->csv, ferror(r->csv));
		if (err) {
			fprintf(stderr, PROG ": --csv: cannot write '%s': %s\n", o->csv,
			        errno ? strerror(errno) : "write error");
			status = EXIT_FAILURE;
		} else if (!o->quiet && r->csv != stdout) {
			fprintf(stderr, PROG ": wrote %s\n", o->csv);
		}
	}
	if (r->png) {
		const int err = close_output(
		    r->png, draw_png(r->png, &r->layout, &r->h, o, r->tracks, &r->plane, r->total));
		if (err) {
			fprintf(stderr, PROG ": --png: cannot write '%s'\n", o->png);
			status = EXIT_FAILURE;
		} else if (!o->quiet && r->png != stdout) {
			fprintf(stderr, PROG ": wrote %s (%dx%d)\n", o->png, o->png_w, o->png_h);
		}
	}
	/* the files under their names only when everything went well */
	if (status == EXIT_SUCCESS)
		status = outputs_commit() ? EXIT_FAILURE : EXIT_SUCCESS;
	else
		outputs_discard();
	/* (on stderr when the CSV or the PNG goes to stdout) */
	if (o->stats)
		tracks_print(r->csv == stdout || r->png == stdout ? stderr : stdout, &r->h,
		             r->tracks, r->total);
	return status;
}

/* What the render allocated (so that memcheck sees no leaks). */
static void free_render(Render *r)
{
	if (r->png)
		cairo_debug_reset_static_data(); /* cairo's font caches */
	lilv_instance_free(r->instance);
	tracks_free(r->tracks, r->h.n_signals);
	free(r->frame_values);
	free(r->interleaved);
	free(r->zero_buf);
	plane_free(&r->plane);
}

/* The preset, the ports, the world and the command line. */
static void free_world(Render *r)
{
	Host *h = &r->h;

	if (r->state)
		lilv_state_free(r->state);
	for (uint32_t i = 0; i < h->n_ports; ++i) {
		free(h->ports[i].symbol);
		free(h->ports[i].name);
		free(h->ports[i].buf);
		free(h->ports[i].atom);
	}
	free(h->ports);
	free(h->signals);
	free(h->plugin_name);
	free(h->preset_label);
	lv2th_free_uris();
	lilv_world_free(h->world);
	for (size_t i = 0; i < r->o.n_sets; ++i)
		free(r->o.sets[i].symbol);
	free(r->o.sets);
	free(r->o.bundles);
}

int main(int argc, char **argv)
{
	Render r;
	int status = EXIT_SUCCESS;

	outputs_init();
	memset(&r, 0, sizeof(r));
	parse_args(argc, argv, &r.o);
	g_quiet = r.o.quiet;
	r.total = (uint64_t)llround(r.o.seconds * (double)r.o.rate);
	load_plugin(&r);

	/* Values: defaults (already set), then the preset, then --set (checked
	 * when only listing too: a bad symbol is an error there as well) */
	if (r.o.preset)
		r.state = apply_preset(&r.h, r.o.preset);
	apply_settings(&r.h, &r.o);

	if (r.o.list_ports || r.o.list_presets) {
		if (r.o.list_ports)
			list_ports(&r.h);
		if (r.o.list_presets)
			print_presets(&r.h);
	} else {
		open_outputs(&r);
		instantiate(&r);
		connect_ports(&r);
		drive_open(&r.drive, &r.o);
		r.drive_port = find_port(&r.h, "drive");
		if (r.drive.buf && (!r.drive_port || r.drive_port->role != ROLE_SIGNAL_IN))
			die("%s has no drive input", r.h.uri);
		render(&r);
		status = finish_outputs(&r);
		drive_close(&r.drive);
		free_render(&r);
	}
	free_world(&r);
	return status;
}
