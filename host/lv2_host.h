/* SPDX-License-Identifier: ISC */
/*
 * The small lilv host library the render tool (tools/) and the lilv test
 * hosts (tests/) share: allocation that exits on failure, a urid:map /
 * urid:unmap, the buf-size and sample-rate options, loading a bundle by its
 * path or LV2_PATH made absolute, instantiating, connecting a plugin's ports
 * by the port table, and the atom buffers of a block.
 *
 * What a test checks and what the render tool writes stay with them.
 */
#ifndef PENDULA_LV2_HOST_H
#define PENDULA_LV2_HOST_H

#include "ports.h"

#include <lilv/lilv.h>
#include <lv2/core/lv2.h>
#include <lv2/options/options.h>
#include <lv2/urid/urid.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* calloc / realloc / strdup; "out of memory" and exit(2) on failure.
 * lv2th_calloc(0, x) and lv2th_calloc(x, 0) allocate one byte. */
void *lv2th_calloc(size_t n, size_t size);
void *lv2th_realloc(void *p, size_t size);
char *lv2th_strdup(const char *s);

/* urid:map and urid:unmap: URIDs 1, 2, ... in the order of first use. */
LV2_URID lv2th_map_uri(LV2_URID_Map_Handle handle, const char *uri);
const char *lv2th_unmap_uri(LV2_URID_Unmap_Handle handle, LV2_URID urid);
extern LV2_URID_Map lv2th_map;
extern LV2_URID_Unmap lv2th_unmap;
extern const LV2_Feature lv2th_map_feature;
extern const LV2_Feature lv2th_unmap_feature;
/* {map, unmap, NULL} */
extern const LV2_Feature *const lv2th_features[];
/* Frees the table (URIDs start again at 1). */
void lv2th_free_uris(void);

/* The options a host gives (block lengths, sequence size, sample rate) and
 * the features that carry them: options_feature (LV2_OPTIONS__options) and
 * bounded_feature (boundedBlockLength).  Keep the struct where it is while
 * a plugin may read it. */
typedef struct {
	int32_t min_block, max_block, nominal_block, seq_size;
	float rate;
	LV2_Options_Option opt[6];
	LV2_Feature options_feature, bounded_feature;
} lv2th_options;
void lv2th_options_init(lv2th_options *o, double rate, int32_t block, int32_t seq_size);

/* Loads the bundle in the folder dir (any path: made absolute, with the
 * trailing slash a bundle URI needs).  false with a message in err when dir
 * is no folder or cannot be resolved. */
bool lv2th_load_bundle(LilvWorld *world, const char *dir, char *err, size_t err_size);

/* Gives the world LV2_PATH with every entry made absolute (lilv 0.24
 * crashes in lilv_world_load_all() on a relative one); entries that do not
 * exist are left out.  Nothing when LV2_PATH is unset.  Call before
 * lilv_world_load_all(). */
void lv2th_absolute_lv2_path(LilvWorld *world);

/* A new world with the bundle at its path loaded (the test does not depend
 * on what is installed), and each plugin of it in plugins[].  If a plugin is
 * missing: "PROG: URI not found in PATH" (no "PROG: " if prog is NULL), the
 * world freed, *world NULL, false. */
bool lv2th_world_load(const char *prog, const char *bundle, LilvWorld **world,
                      const LilvPlugin *plugins[PENDULA_N_VARIANTS]);

/* lilv_plugin_instantiate(); on failure "PROG: cannot instantiate URI" (no
 * "PROG: " if prog is NULL) and exit(2). */
LilvInstance *lv2th_instantiate(const char *prog, const LilvPlugin *plugin, pendula_variant v,
                                double rate, const LV2_Feature *const *features);

/* Connects every port of variant v: control ports to control[id], signal
 * outputs to signal[id] (all NULL if signal is NULL), the atom ports to
 * atom_in / atom_out (NULL: unconnected). */
void lv2th_connect(LilvInstance *inst, pendula_variant v, float *control, float *const *signal,
                   void *atom_in, void *atom_out);

/* Before a run(): atom_in (unless NULL) an empty atom:Sequence, atom_out
 * (unless NULL) an atom:Chunk of out_size bytes of room. */
void lv2th_prepare_atoms(void *atom_in, void *atom_out, uint32_t out_size);

#endif
