/* SPDX-License-Identifier: ISC */
/*
 * The motion as bytes (pendula_engine.h, "The motion"): what the engine
 * needs to continue bit for bit — the state, the step in progress and its
 * interpolants, simulated time and forcing phases, the step-size and work
 * bookkeeping, the event regions — without the settings the host owns.
 *
 * The bytes are the engine's own struct with its pointers (the model's
 * operations, the drive's buffer of the call) cleared: a save is a copy, so that a memory store or
 * recall in run() is a bounded copy with no allocation.  They are meant for this build on this
 * machine (the LV2 state says so with its version and sizes, lv2/state.c), and a load checks
 * everything that indexes an array before it trusts the rest.
 */
#include "engine_internal.h"

#include <math.h>
#include <string.h>

unsigned long pendula_motion_bytes(void)
{
	return (unsigned long)sizeof(pendula_engine);
}

void pendula_engine_motion_save(const pendula_engine *e, void *buf)
{
	pendula_engine *m = (pendula_engine *)buf;
	memcpy(m, e, sizeof(*m));
	m->sys.ops = NULL;  /* an address means nothing in another process */
	m->drive_in = NULL; /* (the host's buffer, valid for one call) */
}

pendula_model pendula_motion_model(const void *buf)
{
	const pendula_engine *m = (const pendula_engine *)buf;
	return m->pending.model;
}

/* Whether the integers of a motion that index arrays or count frames are
 * in range (a blob of the right size can still be damaged or forged). */
static int motion_sane(const pendula_engine *m)
{
	return (int)m->pending.model >= 0 && m->pending.model < PENDULA_N_MODELS && m->sys.n >= 0 &&
	       m->sys.n <= PENDULA_MAX_BODIES && m->sys.dof >= 0 && m->sys.dof <= PENDULA_MAX_DOF &&
	       m->level >= 0 && m->level <= 64 && m->floor_level >= 0 && m->floor_level <= 64 &&
	       m->clock_level >= -1 && m->clock_level <= 64 && m->h > 0.0 && isfinite(m->h) &&
	       m->du >= 0.0 && isfinite(m->du) && isfinite(m->u0) && m->sample_rate > 0.0 &&
	       isfinite(m->sample_rate) && m->credit_unit > 0;
}

int pendula_engine_motion_load(pendula_engine *e, const void *buf,
                               const pendula_params *settings_in)
{
	const pendula_engine *m = (const pendula_engine *)buf;
	if (m->pending.model != e->pending.model || !motion_sane(m))
		return 0;
	const pendula_params settings = settings_in ? *settings_in : e->pending;
	const pendula_stats stats = e->stats;
	const pendula_model_ops *ops = e->sys.ops;
	const double rate = e->sample_rate;
	const int64_t credit_unit = e->credit_unit;
	const uint32_t serial = e->serial;

	memcpy(e, m, sizeof(*e));
	e->sys.ops = ops;
	e->drive_in = NULL;
	e->stats = stats;
	e->serial = serial + 1; /* the settings in force may have changed */
	/* The controls belong to the host: the motion goes on under the
	 * settings given (or those last set).  Unchanged settings stay out of the way, so
	 * that a motion loaded under the settings it was saved with continues
	 * bit for bit. */
	if (memcmp(&e->pending, &settings, sizeof(settings)) != 0) {
		e->pending = settings;
		e->has_pending = 1;
	}
	if (rate != e->sample_rate) {
		/* Another sample rate: the same place in the step, at this rate's
		 * pace, and the credit in this rate's units. */
		e->u0 = frame_u(e);
		e->idx = 0;
		e->credit =
		    (int64_t)((double)e->credit * (double)credit_unit / (double)e->credit_unit);
		e->sample_rate = rate;
		e->credit_unit = credit_unit;
		e->du = -1.0; /* (forces the pace to be set again) */
	}
	engine_frame_advance_setup(e);
	return 1;
}
