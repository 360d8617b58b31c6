/* SPDX-License-Identifier: ISC */
/*
 * The generic audio-rate engine (pendula_engine.h): its lifecycle, new
 * settings and phase requests, and its statistics.  It knows no model:
 * everything model-specific goes through the interface of model.h.  The
 * engine's state and the map of its files: engine_internal.h.
 */
#include "engine_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

pendula_engine *pendula_engine_new(double sample_rate, const pendula_params *p)
{
	pendula_engine *e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->sample_rate = sample_rate > 0.0 && isfinite(sample_rate) ? sample_rate : 48000.0;
	/* Budget in units of 1 / (work units per second x frames per second):
	 * a frame earns MAX_WORK_PER_SECOND, a work unit costs the sample
	 * rate. */
	const double rate = fmin(fmax(floor(e->sample_rate + 0.5), 1.0), 1e9);
	e->credit_unit = (int64_t)rate;
	e->pending = *p;
	e->has_pending = 1;
	pendula_system_init(&e->sys, p); /* so that the model is known */
	e->sys.n = 0;                    /* every body "appears" at the reset */
	e->sys.dof = 0;
	e->credit = engine_start_credit(e);
	e->pace = engine_start_pace(e);
	engine_restart(e);
	memset(&e->stats, 0, sizeof(e->stats));
	engine_fill_frame(e, &e->last);
	return e;
}

unsigned long pendula_engine_size(void)
{
	return (unsigned long)sizeof(pendula_engine);
}

void pendula_engine_free(pendula_engine *e)
{
	free(e);
}

void pendula_engine_set_params(pendula_engine *e, const pendula_params *p)
{
	e->pending = *p;
	e->has_pending = 1;
	/* The time scale only sets how fast the frames read the motion: it acts
	 * at once (engine_frame_advance_setup reads it from pending). */
	engine_frame_advance_setup(e);
}

void pendula_engine_reset(pendula_engine *e)
{
	e->has_pending = 1; /* pending is always the latest settings */
	pendula_system fresh;
	pendula_system_init(&fresh, &e->pending);
	if (fresh.ops != e->sys.ops) { /* another model: every body appears */
		e->sys.n = 0;
		e->sys.dof = 0;
	}
	/* what is left of the budget, up to what a new engine has: a reset
	 * in every block must not refill it */
	const int64_t credit = engine_start_credit(e), pace = engine_start_pace(e);
	e->credit = e->credit < credit ? e->credit : credit;
	e->pace = e->pace < pace ? e->pace : pace;
	engine_restart(e);
	engine_fill_frame(e, &e->last);
	e->last_lazy = 0;
}

void pendula_engine_set_phase(pendula_engine *e, int axis, double phase)
{
	if (axis < 0 || axis > 1 || !isfinite(phase))
		return;
	e->phase_request[axis] = 1;
	e->phase_value[axis] = phase;
}

const pendula_system *pendula_engine_system(const pendula_engine *e)
{
	return &e->sys;
}

void pendula_engine_state(const pendula_engine *e, pendula_state *s)
{
	*s = e->st;
}

/* Rebase the forcing phase so that it equals the request at the current
 * frame: the current step is left as it is, the next ones follow. */
void engine_apply_phase_requests(pendula_engine *e)
{
	engine_materialize_last(e);
	const double u = frame_u(e);
	const double tau_end = (1.0 - u) * e->h; /* from now to the step end */
	const pendula_forcing *f = &e->sys.force;
	if (e->phase_request[0]) {
		e->st.phase_x = pendula_wrap_phase(e->phase_value[0] + f->omega_x * tau_end);
		e->step_phase_x = pendula_wrap_phase(e->phase_value[0] - f->omega_x * u * e->h);
		e->phase_request[0] = 0;
	}
	if (e->phase_request[1]) {
		e->st.phase_y = pendula_wrap_phase(e->phase_value[1] + f->omega_y * tau_end);
		e->step_phase_y = pendula_wrap_phase(e->phase_value[1] - f->omega_y * u * e->h);
		e->phase_request[1] = 0;
	}
}

double pendula_engine_lost_time(const pendula_engine *e)
{
	return e->stats.lost_time;
}

uint32_t pendula_engine_settings_serial(const pendula_engine *e)
{
	return e->serial;
}

void pendula_engine_stats(const pendula_engine *e, pendula_stats *st)
{
	*st = e->stats;
	st->step_size = e->h;
	st->max_work_per_frame = (double)MAX_WORK_PER_SECOND / (double)e->credit_unit;
}
