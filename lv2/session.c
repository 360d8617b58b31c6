/* SPDX-License-Identifier: ISC */
/*
 * The saved state's glue part (docs/GUIDE.md, "Sessions and memories"):
 * what the instance keeps between blocks that shapes its outputs, packed
 * with the engine's motion and the memories into one blob (state.h) by the
 * host's save(), and checked and put back by restore().  Both run outside
 * run(): they may allocate and log.
 */
#include "instance.h"
#include "state.h"

#include <lv2/log/log.h>

#include <stdlib.h>
#include <string.h>

/* What the glue keeps between blocks that shapes the outputs: the controls
 * as last read and their smoothers (so that the restored control values
 * are not taken for changes that restart the motion), the chunk grid, the
 * notes, the CC encoder, the transport.  The parts' pointers into host
 * buffers are not in it. */
typedef struct {
	pendula_params params;
	float control[PENDULA_N_PORT_IDS];
	double smoothed[PENDULA_N_PORT_IDS];
	float stepped_last[PENDULA_N_PORT_IDS];
	float signal_last[PENDULA_MAX_SIGNALS], last_value[PENDULA_MAX_SIGNALS];
	float prev_reset, prev_store, prev_recall, prev_freeze;
	uint32_t chunk_phase;
	int bodies;
	uint8_t changed, smoothing, params_dirty, restart_pending;
	uint8_t cc_live; /* (going live sends every CC again) */
	double pluck_pending;
	pendula_notes notes;
	pendula_cc cc;
	pendula_tempo_sync sync;
} glue_motion;

static void glue_save(const Pendula *self, glue_motion *g)
{
	memset(g, 0, sizeof(*g));
	g->params = self->params;
	memcpy(g->control, self->ctl.control, sizeof(g->control));
	memcpy(g->smoothed, self->ctl.smoothed, sizeof(g->smoothed));
	memcpy(g->stepped_last, self->ctl.stepped_last, sizeof(g->stepped_last));
	memcpy(g->signal_last, self->route.signal_last, sizeof(g->signal_last));
	memcpy(g->last_value, self->route.last_value, sizeof(g->last_value));
	g->prev_reset = self->prev_reset;
	g->prev_store = self->prev_store;
	g->prev_recall = self->prev_recall;
	g->prev_freeze = self->prev_freeze;
	g->chunk_phase = self->chunk_phase;
	g->bodies = self->route.bodies;
	g->changed = self->ctl.changed;
	g->smoothing = self->ctl.smoothing;
	g->params_dirty = self->params_dirty;
	g->restart_pending = self->restart_pending;
	g->cc_live = self->route.cc_live;
	g->pluck_pending = self->pluck_pending;
	g->notes = self->notes;
	g->cc = self->cc;
	g->sync = self->sync;
}

static void glue_load(Pendula *self, const glue_motion *g)
{
	self->params = g->params;
	memcpy(self->ctl.control, g->control, sizeof(g->control));
	memcpy(self->ctl.smoothed, g->smoothed, sizeof(g->smoothed));
	memcpy(self->ctl.stepped_last, g->stepped_last, sizeof(g->stepped_last));
	/* every input is read again and compared by value with control[] */
	for (uint32_t i = 0; i < self->ctl.n_control_in; ++i)
		self->ctl.control_bits[i] = 0x7fc0beefu;
	memcpy(self->route.signal_last, g->signal_last, sizeof(g->signal_last));
	memcpy(self->route.last_value, g->last_value, sizeof(g->last_value));
	self->prev_reset = g->prev_reset;
	self->prev_store = g->prev_store;
	self->prev_recall = g->prev_recall;
	self->prev_freeze = g->prev_freeze;
	self->chunk_phase = g->chunk_phase % PENDULA_CHUNK;
	self->route.bodies = g->bodies;
	self->ctl.changed = g->changed;
	self->ctl.smoothing = g->smoothing;
	self->params_dirty = g->params_dirty;
	self->restart_pending = g->restart_pending;
	float *pulse_buf[2] = {self->notes.pulse_buf[0], self->notes.pulse_buf[1]};
	self->notes = g->notes;
	self->notes.sample_rate = self->sample_rate;
	self->notes.pulse_buf[0] = pulse_buf[0];
	self->notes.pulse_buf[1] = pulse_buf[1];
	self->cc = g->cc;
	self->sync = g->sync;
	self->sync.tempo.sample_rate = self->sample_rate;
	self->cc_dirty = true;
	pendula_routing_ports_changed(&self->route);
	self->route.cc_live = g->cc_live;
	self->pluck_pending = g->pluck_pending;
}

LV2_State_Status pendula_session_save(LV2_Handle instance, LV2_State_Store_Function store,
                                      LV2_State_Handle handle, uint32_t flags,
                                      const LV2_Feature *const *features)
{
	(void)flags;
	(void)features;
	Pendula *self = (Pendula *)instance;
	const pendula_memory *mem = &self->mem;
	glue_motion *glue = malloc(sizeof(glue_motion));
	uint8_t *glide = malloc(mem->motion_bytes);
	if (!glue || !glide) {
		free(glue);
		free(glide);
		return LV2_STATE_ERR_NO_SPACE;
	}
	glue_save(self, glue);
	pendula_state_parts parts = {.glue = glue, .glue_bytes = sizeof(*glue), .glide = glide};
	pendula_engine_motion_save(self->engine, mem->scratch);
	parts.engine = mem->scratch;
	parts.memory_valid = mem->valid;
	for (int k = 0; k < PENDULA_MEMORY_SLOTS; ++k)
		parts.memory[k] = mem->slot[k];
	pendula_memory_glide_save(mem, glide, &parts.glide_len, &parts.glide_done);
	uint32_t size = 0;
	void *blob = pendula_state_pack(pendula_variant_model(self->variant), &parts, &size);
	LV2_State_Status status = LV2_STATE_ERR_NO_SPACE;
	if (blob)
		status = store(handle, self->uris.state_motion, blob, size, self->uris.atom_Chunk,
		               LV2_STATE_IS_POD);
	free(blob);
	free(glue);
	free(glide);
	return status;
}

/* A restored state replaces the motion, the glue's state and the memories
 * only if all of it is good: otherwise the plugin goes on as it was and
 * the log says why. */
LV2_State_Status pendula_session_restore(LV2_Handle instance, LV2_State_Retrieve_Function retrieve,
                                         LV2_State_Handle handle, uint32_t flags,
                                         const LV2_Feature *const *features)
{
	(void)flags;
	(void)features;
	Pendula *self = (Pendula *)instance;
	pendula_memory *mem = &self->mem;
	size_t size = 0;
	uint32_t type = 0, vflags = 0;
	const void *blob = retrieve(handle, self->uris.state_motion, &size, &type, &vflags);
	if (!blob)
		return LV2_STATE_SUCCESS; /* nothing saved: a fresh start */
	const pendula_model model = pendula_variant_model(self->variant);
	pendula_state_parts parts;
	const char *why = type != self->uris.atom_Chunk ? "the saved state is not a chunk"
	                  : size > UINT32_MAX           ? "the saved state is too large"
	                                      : pendula_state_unpack(blob, (uint32_t)size, model,
	                                                             sizeof(glue_motion), &parts);
	/* (copies: the blob need not be aligned for the structs it holds) */
	glue_motion *glue = why ? NULL : malloc(sizeof(glue_motion));
	uint8_t *glide = why ? NULL : malloc(mem->motion_bytes);
	if (!why && (!glue || !glide))
		why = "out of memory";
	if (!why) {
		memcpy(glue, parts.glue, sizeof(*glue));
		memcpy(mem->scratch, parts.engine, mem->motion_bytes);
		if (!pendula_engine_motion_load(self->engine, mem->scratch, &glue->params))
			why = "the saved motion is not sane";
	}
	if (why) {
		lv2_log_error(&self->logger, "pendula: state not restored: %s\n", why);
		free(glue);
		free(glide);
		return LV2_STATE_ERR_BAD_TYPE;
	}
	glue_load(self, glue);
	pendula_routing_last_from_engine(&self->route, self->engine);
	mem->valid = 0;
	for (int k = 0; k < PENDULA_MEMORY_SLOTS; ++k)
		if (parts.memory_valid & (1u << k)) {
			memcpy(mem->slot[k], parts.memory[k], mem->motion_bytes);
			if (pendula_motion_model(mem->slot[k]) == model)
				mem->valid |= (uint8_t)(1u << k);
		}
	memcpy(glide, parts.glide, mem->motion_bytes);
	pendula_memory_glide_load(mem, glide, parts.glide_len, parts.glide_done, &self->params);
	free(glue);
	free(glide);
	self->restored = true;
	return LV2_STATE_SUCCESS;
}
