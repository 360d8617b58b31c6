/* SPDX-License-Identifier: ISC */
/* The plumbing the lilv test hosts share: see lv2_test_host.h. */
#include "lv2_test_host.h"

#include <lv2/atom/atom.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static const LV2_Feature unmap_feature = {LV2_URID__unmap, &lv2th_unmap};
const LV2_Feature *const lv2th_features[] = {&lv2th_map_feature, &unmap_feature, NULL};

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
/* World, instances, ports                                                 */

static const char *prefix_sep(const char *prog)
{
	return prog ? ": " : "";
}

bool lv2th_world_load(const char *prog, const char *bundle, LilvWorld **world,
                      const LilvPlugin *plugins[PENDULA_N_VARIANTS])
{
	LilvWorld *w = lilv_world_new();
	char path[4096];
	const size_t len = strlen(bundle);
	snprintf(path, sizeof path, "%s%s", bundle, len && bundle[len - 1] == '/' ? "" : "/");
	LilvNode *bundle_uri = lilv_new_file_uri(w, NULL, path);
	lilv_world_load_bundle(w, bundle_uri);
	lilv_node_free(bundle_uri);
	const LilvPlugins *all = lilv_world_get_all_plugins(w);
	for (int v = 0; v < PENDULA_N_VARIANTS; ++v) {
		LilvNode *uri = lilv_new_uri(w, pendula_variant_uris[v]);
		plugins[v] = lilv_plugins_get_by_uri(all, uri);
		lilv_node_free(uri);
		if (!plugins[v]) {
			fprintf(stderr, "%s%s%s not found in %s\n", prog ? prog : "",
			        prefix_sep(prog), pendula_variant_uris[v], path);
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
	LV2_Atom *out = (LV2_Atom *)atom_out;
	out->type = urid_chunk;
	out->size = out_size;
}
