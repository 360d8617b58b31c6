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

/* Rendering */

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
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
	lv2th_options options;
	const LV2_Feature *features[5];
	const char *const supported_features[] = {
	    LV2_URID__map,           LV2_URID__unmap,
	    LV2_OPTIONS__options,    LV2_BUF_SIZE__boundedBlockLength,
	    LV2_CORE__hardRTCapable, LV2_CORE__inPlaceBroken,
	    LV2_CORE__isLive,        NULL};

	outputs_init();
	parse_args(argc, argv, &o);
	g_quiet = o.quiet;
	total = (uint64_t)llround(o.seconds * (double)o.rate);

	/* World and plugin */
	memset(&h, 0, sizeof(h));
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

	/* Values: defaults (already set), then the preset, then --set (checked
	 * when only listing too: a bad symbol is an error there as well) */
	if (o.preset)
		state = apply_preset(&h, o.preset);
	apply_settings(&h, &o);

	if (o.list_ports || o.list_presets) {
		if (o.list_ports)
			list_ports(&h);
		if (o.list_presets)
			print_presets(&h);
		goto cleanup_world;
	}

	/* Outputs: open everything before the render, so it fails early */
	if (o.wav) {
		snd = wav_open(&o, &h);
		interleaved = xcalloc((size_t)o.block * h.n_signals, sizeof(float));
	}
	if (o.csv)
		csv = csv_open(&o, &h);
	if (o.png)
		png = open_output("--png", o.png);

	/* Accumulators */
	plane_setup(&plane, &h, total);
	layout_png(&layout, &o, h.n_signals, plane.active, total);
	tracks = tracks_new(h.n_signals, png ? layout.n_cols : 0);
	frame_values = xcalloc(h.n_signals, sizeof(float));

	/* Features */
	lv2th_options_init(&options, (double)o.rate, (int32_t)o.block, 65536);
	features[0] = &lv2th_map_feature;
	features[1] = &lv2th_unmap_feature;
	features[2] = &options.options_feature;
	features[3] = &options.bounded_feature;
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

		/* An empty sequence in, the space the plugin may fill out */
		for (uint32_t i = 0; i < h.n_ports; ++i) {
			Port *p = &h.ports[i];
			if (p->role == ROLE_ATOM_IN)
				lv2th_prepare_atoms(p->atom, NULL, 0);
			else if (p->role == ROLE_ATOM_OUT)
				lv2th_prepare_atoms(NULL, p->atom, p->atom_capacity);
		}

		lilv_instance_run(instance, n);

		for (uint32_t j = 0; j < n; ++j) {
			uint64_t frame = done + j;
			const uint32_t col = png ? (uint32_t)(frame * layout.n_cols / total) : 0;
			for (uint32_t s = 0; s < h.n_signals; ++s) {
				float v = h.signals[s]->buf[j];
				frame_values[s] = v;
				if (interleaved)
					interleaved[(size_t)j * h.n_signals + s] = v;
				track_add(&tracks[s], v, col);
			}
			if (csv && frame == next_csv) {
				csv_write(csv, frame, o.rate, frame_values, h.n_signals);
				next_csv += (uint64_t)o.csv_every;
			}
			plane_record(&plane, frame, frame_values);
		}
		if (snd && sf_writef_float(snd, interleaved, n) != (sf_count_t)n)
			die("--wav: cannot write '%s': %s", o.wav, sf_strerror(snd));
		/* (a full disk or a size limit: stop now, not after the render) */
		if (csv && ferror(csv))
			die("--csv: cannot write '%s': %s", o.csv, strerror(errno));
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

	/* The final configuration for the plane view */
	plane_finish(&plane, frame_values);

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
		errno = 0;
		const int err = close_output(csv, ferror(csv));
		if (err) {
			fprintf(stderr, PROG ": --csv: cannot write '%s': %s\n", o.csv,
			        errno ? strerror(errno) : "write error");
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
	/* the files under their names only when everything went well */
	if (status == EXIT_SUCCESS)
		status = outputs_commit() ? EXIT_FAILURE : EXIT_SUCCESS;
	else
		outputs_discard();
	/* (on stderr when the CSV or the PNG goes to stdout) */
	if (o.stats)
		tracks_print(csv == stdout || png == stdout ? stderr : stdout, &h, tracks, total);

	/* Clean up (so that memcheck sees no leaks) */
	if (png)
		cairo_debug_reset_static_data(); /* cairo's font caches */
	lilv_instance_free(instance);
	tracks_free(tracks, h.n_signals);
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
	lv2th_free_uris();
	lilv_world_free(h.world);
	for (size_t i = 0; i < o.n_sets; ++i)
		free(o.sets[i].symbol);
	free(o.sets);
	free(o.bundles);
	return status;
}
