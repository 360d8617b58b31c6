/* SPDX-License-Identifier: ISC */
/*
 * Tempo sync of one plugin instance: the host's transport (the tempo
 * follower of tempo.h, fed with the time:Position events the glue parses)
 * and, for each forcing axis whose pivot_*_sync chooses a note value, the
 * frequency and phase that follow it.
 *
 * Why a part of its own: the sync touches the engine's settings at two
 * moments (the frequency, when it changes; the phase, on the chunk grid and
 * after every time:Position) and must give the same result whatever the
 * host's block sizes; keeping the follower, the synced frequencies and the
 * pending position together keeps those rules in one place.  Plain C: the
 * atoms are parsed by the glue.
 */
#ifndef PENDULA_LV2_TEMPO_SYNC_H
#define PENDULA_LV2_TEMPO_SYNC_H

#include "pendula_engine.h"
#include "ports.h"
#include "tempo.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct {
	pendula_tempo tempo; /* host transport, at the next frame to render */
	bool position_event; /* a time:Position arrived since the last phase lock */
	double sync_hz[2];   /* tempo-synced forcing (x, y), Hz of audio time; 0: free */
} pendula_tempo_sync;

/* instantiate() and activate(): transport unknown (stopped), no sync. */
void pendula_tempo_sync_init(pendula_tempo_sync *s, double sample_rate);
/* A time:Position at the current frame. */
void pendula_tempo_sync_position(pendula_tempo_sync *s, const pendula_position *pos);
/* Whether the transport started rolling since the last call. */
static inline bool pendula_tempo_sync_take_start(pendula_tempo_sync *s)
{
	return pendula_tempo_take_start(&s->tempo);
}
/* n frames of audio pass. */
static inline void pendula_tempo_sync_advance(pendula_tempo_sync *s, uint32_t n)
{
	pendula_tempo_advance(&s->tempo, n);
}
/* Whether some axis is synced (control: the clamped controls by port id). */
static inline bool pendula_tempo_sync_on(const float *control)
{
	return control[P_PIVOT_X_SYNC] > 0.0f || control[P_PIVOT_Y_SYNC] > 0.0f;
}
/* Tempo-synced frequency of each axis from the current tempo; true if one
 * changed (the engine's settings must be given again). */
bool pendula_tempo_sync_update(pendula_tempo_sync *s, const float *control);
/* The engine settings of the synced axes. */
void pendula_tempo_sync_params(const pendula_tempo_sync *s, pendula_params *p);
/* The phase lock, due at a chunk-grid boundary (grid) or after a
 * time:Position; time_scale as last given to the engine. */
void pendula_tempo_sync_lock(pendula_tempo_sync *s, pendula_engine *engine, const float *control,
                             double time_scale, bool grid);

#endif
