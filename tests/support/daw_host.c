/* SPDX-License-Identifier: ISC */
/* The state of the DAW tests' host (daw_host.h): one copy per program, so
 * that every file of a test program sees the world it loaded. */
#include "daw_host.h"

LilvWorld *daw_world;
const LilvPlugin *daw_plugins[PENDULA_N_VARIANTS];
LV2_URID daw_urid_sequence, daw_urid_midi, daw_urid_position, daw_urid_bar, daw_urid_bar_beat,
    daw_urid_bpb, daw_urid_unit, daw_urid_bpm, daw_urid_speed, daw_urid_frame;
