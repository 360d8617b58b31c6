/* SPDX-License-Identifier: ISC */
/* The lilv host library of the render tool and the tests: see lv2_host.h. */
#define _XOPEN_SOURCE 700 /* realpath */

#include "lv2_host.h"

#include <lv2/atom/atom.h>
#include <lv2/buf-size/buf-size.h>
#include <lv2/parameters/parameters.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void out_of_memory(void)
{
	fprintf(stderr, "lv2 test host: out of memory\n");
	exit(2);
}

void *lv2th_calloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		out_of_memory();
	return p;
}

void *lv2th_realloc(void *p, size_t size)
{
	void *q = realloc(p, size ? size : 1);
	if (!q)
		out_of_memory();
	return q;
}

char *lv2th_strdup(const char *s)
{
	const size_t len = strlen(s) + 1;
	char *d = (char *)lv2th_calloc(len, 1);
	memcpy(d, s, len);
	return d;
}

/* ---------------------------------------------------------------------- */
/* urid:map                                                                */

static char **uri_table;
static uint32_t n_uris, cap_uris;
/* URIDs prepare_atoms() needs, mapped on first use (0: not yet) */
static LV2_URID urid_sequence, urid_chunk;

LV2_URID lv2th_map_uri(LV2_URID_Map_Handle handle, const char *uri)
{
	(void)handle;
	for (uint32_t i = 0; i < n_uris; ++i)
		if (!strcmp(uri_table[i], uri))
			return i + 1;
	if (n_uris == cap_uris) {
		cap_uris = cap_uris ? 2 * cap_uris : 64;
		uri_table = (char **)lv2th_realloc(uri_table, cap_uris * sizeof(char *));
	}
	uri_table[n_uris] = lv2th_strdup(uri);
	return ++n_uris;
}

const char *lv2th_unmap_uri(LV2_URID_Unmap_Handle handle, LV2_URID urid)
{
	(void)handle;
	return urid >= 1 && urid <= n_uris ? uri_table[urid - 1] : NULL;
}

LV2_URID_Map lv2th_map = {NULL, lv2th_map_uri};
LV2_URID_Unmap lv2th_unmap = {NULL, lv2th_unmap_uri};
const LV2_Feature lv2th_map_feature = {LV2_URID__map, &lv2th_map};
const LV2_Feature lv2th_unmap_feature = {LV2_URID__unmap, &lv2th_unmap};
const LV2_Feature *const lv2th_features[] = {&lv2th_map_feature, &lv2th_unmap_feature, NULL};

void lv2th_free_uris(void)
{
	for (uint32_t i = 0; i < n_uris; ++i)
		free(uri_table[i]);
	free(uri_table);
	uri_table = NULL;
	n_uris = cap_uris = 0;
	urid_sequence = urid_chunk = 0;
}

/* ---------------------------------------------------------------------- */
/* Options                                                                 */

void lv2th_options_init(lv2th_options *o, double rate, int32_t block, int32_t seq_size)
{
	const LV2_URID atom_int = lv2th_map_uri(NULL, LV2_ATOM__Int);
	const LV2_URID atom_float = lv2th_map_uri(NULL, LV2_ATOM__Float);
	memset(o, 0, sizeof *o);
	o->min_block = 1;
	o->max_block = block;
	o->nominal_block = block;
	o->seq_size = seq_size;
	o->rate = (float)rate;
	const LV2_Options_Option opts[6] = {
	    {LV2_OPTIONS_INSTANCE, 0, lv2th_map_uri(NULL, LV2_BUF_SIZE__minBlockLength),
	     sizeof(int32_t), atom_int, &o->min_block},
	    {LV2_OPTIONS_INSTANCE, 0, lv2th_map_uri(NULL, LV2_BUF_SIZE__maxBlockLength),
	     sizeof(int32_t), atom_int, &o->max_block},
	    {LV2_OPTIONS_INSTANCE, 0, lv2th_map_uri(NULL, LV2_BUF_SIZE__nominalBlockLength),
	     sizeof(int32_t), atom_int, &o->nominal_block},
	    {LV2_OPTIONS_INSTANCE, 0, lv2th_map_uri(NULL, LV2_BUF_SIZE__sequenceSize),
	     sizeof(int32_t), atom_int, &o->seq_size},
	    {LV2_OPTIONS_INSTANCE, 0, lv2th_map_uri(NULL, LV2_PARAMETERS__sampleRate),
	     sizeof(float), atom_float, &o->rate},
	    {LV2_OPTIONS_INSTANCE, 0, 0, 0, 0, NULL},
	};
	memcpy(o->opt, opts, sizeof opts);
	o->options_feature.URI = LV2_OPTIONS__options;
	o->options_feature.data = o->opt;
	o->bounded_feature.URI = LV2_BUF_SIZE__boundedBlockLength;
	o->bounded_feature.data = NULL;
}

/* ---------------------------------------------------------------------- */
/* Bundles and LV2_PATH                                                    */

bool lv2th_load_bundle(LilvWorld *world, const char *dir, char *err, size_t err_size)
{
	struct stat st;
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(err, err_size, "'%s' is not a directory", dir);
		return false;
	}
	char *abs = realpath(dir, NULL);
	if (!abs) {
		snprintf(err, err_size, "cannot resolve '%s': %s", dir, strerror(errno));
		return false;
	}
	/* A bundle URI must end with a slash. */
	const size_t len = strlen(abs);
	char *path = (char *)lv2th_calloc(len + 2, 1);
	memcpy(path, abs, len);
	if (len == 0 || path[len - 1] != '/')
		path[len] = '/';
	free(abs);
	LilvNode *uri = lilv_new_file_uri(world, NULL, path);
	free(path);
	if (!uri) {
		snprintf(err, err_size, "cannot make a URI of '%s'", dir);
		return false;
	}
	lilv_world_load_bundle(world, uri);
	lilv_node_free(uri);
	return true;
}

void lv2th_absolute_lv2_path(LilvWorld *world)
{
	const char *env = getenv("LV2_PATH");
	if (!env)
		return;
	char *out = (char *)lv2th_calloc(1, 1);
	size_t len = 0;
	for (const char *p = env; *p;) {
		const size_t n = strcspn(p, ":");
		char *entry = (char *)lv2th_calloc(n + 1, 1);
		memcpy(entry, p, n);
		char *abs = n ? realpath(entry, NULL) : NULL;
		if (abs) {
			const size_t an = strlen(abs);
			out = (char *)lv2th_realloc(out, len + an + 2);
			if (len)
				out[len++] = ':';
			memcpy(out + len, abs, an + 1);
			len += an;
			free(abs);
		}
		free(entry);
		p += n;
		if (*p == ':')
			++p;
	}
	LilvNode *value = lilv_new_string(world, out);
	lilv_world_set_option(world, LILV_OPTION_LV2_PATH, value);
	lilv_node_free(value);
	free(out);
}

/* ---------------------------------------------------------------------- */
/* World, instances, ports                                                 */

static const char *prefix_sep(const char *prog)
{
	return prog ? ": " : "";
}

bool lv2th_world_load(const char *prog, const char *bundle, LilvWorld **world,
                      const LilvPlugin *plugins[PENDULA_N_VARIANTS])
{
	LilvWorld *w = lilv_world_new();
	char err[4200];
	if (!lv2th_load_bundle(w, bundle, err, sizeof err)) {
		fprintf(stderr, "%s%s%s\n", prog ? prog : "", prefix_sep(prog), err);
		lilv_world_free(w);
		*world = NULL;
		return false;
	}
	const LilvPlugins *all = lilv_world_get_all_plugins(w);
	for (int v = 0; v < PENDULA_N_VARIANTS; ++v) {
		LilvNode *uri = lilv_new_uri(w, pendula_variant_uris[v]);
		plugins[v] = lilv_plugins_get_by_uri(all, uri);
		lilv_node_free(uri);
		if (!plugins[v]) {
			fprintf(stderr, "%s%s%s not found in %s\n", prog ? prog : "",
			        prefix_sep(prog), pendula_variant_uris[v], bundle);
			lilv_world_free(w);
			*world = NULL;
			return false;
		}
	}
	*world = w;
	return true;
}

LilvInstance *lv2th_instantiate(const char *prog, const LilvPlugin *plugin, pendula_variant v,
                                double rate, const LV2_Feature *const *features)
{
	LilvInstance *inst = lilv_plugin_instantiate(plugin, rate, features);
	if (!inst) {
		fprintf(stderr, "%s%scannot instantiate %s\n", prog ? prog : "", prefix_sep(prog),
		        pendula_variant_uris[v]);
		exit(2);
	}
	return inst;
}

void lv2th_connect(LilvInstance *inst, pendula_variant v, float *control, float *const *signal,
                   void *atom_in, void *atom_out)
{
	const uint32_t n = pendula_port_count(v);
	for (uint32_t i = 0; i < n; ++i) {
		const int id = pendula_port_id_at(v, i);
		void *data = NULL;
		switch (pendula_ports[id].kind) {
		case PK_CONTROL_IN:
		case PK_CONTROL_OUT:
			data = &control[id];
			break;
		case PK_SIGNAL_OUT:
		case PK_SIGNAL_IN:
		case PK_MOD_CV_OUT: /* (optional: NULL unless the caller has a buffer) */
			data = signal ? signal[id] : NULL;
			break;
		case PK_ATOM_IN:
			data = atom_in;
			break;
		case PK_ATOM_OUT:
			data = atom_out;
			break;
		}
		lilv_instance_connect_port(inst, i, data);
	}
}

void lv2th_prepare_atoms(void *atom_in, void *atom_out, uint32_t out_size)
{
	if (!urid_sequence) {
		urid_sequence = lv2th_map_uri(NULL, LV2_ATOM__Sequence);
		urid_chunk = lv2th_map_uri(NULL, LV2_ATOM__Chunk);
	}
	if (atom_in) {
		LV2_Atom_Sequence *in = (LV2_Atom_Sequence *)atom_in;
		in->atom.type = urid_sequence;
		in->atom.size = sizeof(LV2_Atom_Sequence_Body);
		in->body.unit = 0;
		in->body.pad = 0;
	}
	if (atom_out) {
		LV2_Atom *out = (LV2_Atom *)atom_out;
		out->type = urid_chunk;
		out->size = out_size;
	}
}
