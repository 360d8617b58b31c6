/* SPDX-License-Identifier: ISC */
/*
 * The plumbing the lilv test hosts share (test_host.c, test_idisplay.c and,
 * through daw_host.h, test_presets.c and test_daw.c): the plugin names and
 * URIs, allocation that exits on failure, a urid:map / urid:unmap, loading
 * pendula.lv2 from the build tree by its path, instantiating, connecting the
 * ports and the atom buffers of a block (the CUnit main is cunit_main.h).
 *
 * What a test checks (and any re-derivation of physics or geometry) stays in
 * the test.
 */
#ifndef PENDULA_LV2_TEST_HOST_H
#define PENDULA_LV2_TEST_HOST_H

#include "ports.h"
#include "test_common.h"

#include <lilv/lilv.h>
#include <lv2/core/lv2.h>
#include <lv2/urid/urid.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

extern const char *const pendula_variant_names[PENDULA_N_VARIANTS];
extern const char *const pendula_variant_uris[PENDULA_N_VARIANTS];

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
/* {map, unmap, NULL} */
extern const LV2_Feature *const lv2th_features[];
/* Frees the table (URIDs start again at 1). */
void lv2th_free_uris(void);

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

/* Before a run(): atom_in (unless NULL) an empty atom:Sequence, atom_out an
 * atom:Chunk of out_size bytes of room. */
void lv2th_prepare_atoms(void *atom_in, void *atom_out, uint32_t out_size);

#endif
