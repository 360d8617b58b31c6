/* SPDX-License-Identifier: ISC */
/*
 * Tempo sync of one plugin instance: frequency and phase of the synced
 * forcing axes from the host's transport (see tempo_sync.h for what this
 * part owns and why).
 */
#include "tempo_sync.h"

static const pendula_port_id sync_port[2] = {P_PIVOT_X_SYNC, P_PIVOT_Y_SYNC};

void pendula_tempo_sync_init(pendula_tempo_sync *s, double sample_rate)
{
	pendula_tempo_init(&s->tempo, sample_rate);
	s->position_event = false;
	s->sync_hz[0] = s->sync_hz[1] = 0.0;
}

void pendula_tempo_sync_position(pendula_tempo_sync *s, const pendula_position *pos)
{
	pendula_tempo_position(&s->tempo, pos);
	s->position_event = true;
}

/* Tempo-synced frequency of each axis, in Hz of audio time (0: free, the
 * pivot_*_freq control applies; also while no tempo is known). */
bool pendula_tempo_sync_update(pendula_tempo_sync *s, const float *control)
{
	bool changed = false;
	for (int axis = 0; axis < 2; ++axis) {
		const int note = (int)control[sync_port[axis]];
		double hz = 0.0;
		if (note > 0 && note < (int)PENDULA_N_SYNC_NOTES)
			hz = pendula_tempo_sync_freq(&s->tempo, pendula_sync_notes[note].beats);
		if (hz != s->sync_hz[axis]) {
			s->sync_hz[axis] = hz;
			changed = true;
		}
	}
	return changed;
}

/* A synced axis runs at the tempo's frequency.  The engine counts simulated
 * time, time_scale x audio time, so the simulated frequency is the audio one
 * divided by time_scale; clamped to the range of pivot_*_freq. */
void pendula_tempo_sync_params(const pendula_tempo_sync *s, pendula_params *p)
{
	const float max_hz = pendula_ports[P_PIVOT_X_FREQ].max;
	for (int axis = 0; axis < 2; ++axis) {
		if (!(s->sync_hz[axis] > 0.0))
			continue;
		double f = s->sync_hz[axis] / p->time_scale;
		if (f > max_hz)
			f = max_hz;
		if (axis == 0)
			p->pivot_x_freq = f;
		else
			p->pivot_y_freq = f;
	}
}

/* Phase lock: while the transport rolls, a synced axis has the phase of the
 * song position, 2 pi frac(quarters / period) (Gamma_x = Delta_x sin, Gamma_y
 * = Delta_y cos of it).  Set at every chunk-grid boundary and after every
 * time:Position (relocation, tempo change), so frames the frequency already
 * agrees with get a correction of rounding size only, and the result does not
 * depend on the host's block sizes. */
void pendula_tempo_sync_lock(pendula_tempo_sync *s, pendula_engine *engine, const float *control,
                             double time_scale, bool grid)
{
	const bool due = grid || s->position_event;
	s->position_event = false;
	if (!due || !pendula_tempo_locked(&s->tempo) || !pendula_tempo_rolling(&s->tempo))
		return;
	const double max_hz = pendula_ports[P_PIVOT_X_FREQ].max;
	for (int axis = 0; axis < 2; ++axis) {
		const int note = (int)control[sync_port[axis]];
		if (!(s->sync_hz[axis] > 0.0) || note <= 0 || note >= (int)PENDULA_N_SYNC_NOTES)
			continue;
		if (s->sync_hz[axis] / time_scale > max_hz)
			continue; /* clamped: the forcing cannot follow this tempo */
		pendula_engine_set_phase(
		    engine, axis,
		    pendula_tempo_sync_phase(&s->tempo, pendula_sync_notes[note].beats));
	}
}
