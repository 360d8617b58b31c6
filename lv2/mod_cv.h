/* SPDX-License-Identifier: ISC */
/*
 * The MOD CV outputs of a -mod plugin (PK_MOD_CV_OUT, contract/ports.h):
 * each is one signal output in volts on one of MOD's CV ranges, because a
 * MOD device lists only mod:CVPort outputs and reads them in volts, and a
 * released output keeps its scale (docs/HOSTS.md, "MOD").  This part
 * owns the twin table and writes the volts from the signal's own buffer
 * after the block; the signal is routed as usual, into the volts buffer
 * (a -mod plugin has no port of the signal itself).  Plain C.
 */
#ifndef PENDULA_MOD_CV_H
#define PENDULA_MOD_CV_H

#include "ports.h"

#include <stdint.h>

#define PENDULA_MAX_MOD_CV 48

typedef struct {
	int n;
	pendula_port_id volts[PENDULA_MAX_MOD_CV];  /* the MOD CV output */
	pendula_port_id signal[PENDULA_MAX_MOD_CV]; /* the signal it carries */
	float scale[PENDULA_MAX_MOD_CV];            /* volts per signal unit (0: energy) */
	float lo[PENDULA_MAX_MOD_CV], hi[PENDULA_MAX_MOD_CV]; /* its range */
	int16_t twin[PENDULA_N_PORT_IDS];                     /* signal -> its volts port, or -1 */
} pendula_mod_cv;

void pendula_mod_cv_init(pendula_mod_cv *m, pendula_variant v);

/* The buffer the routing writes signal id into: the host's own, else that
 * of its MOD CV output (NULL when neither is connected).  host: the
 * host's buffers by port id. */
void *pendula_mod_cv_signal_buffer(const pendula_mod_cv *m, void *const *host, pendula_port_id id);

/* Writes the block's volts from the signals' buffers (port: the buffers
 * the routing wrote, by id), clamped to each output's range.  energy_max:
 * the energy at the top of the energy output's range (its CC range). */
void pendula_mod_cv_write(const pendula_mod_cv *m, void *const *port, float energy_max, uint32_t n);

#endif
