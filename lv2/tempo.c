/* SPDX-License-Identifier: ISC */
/*
 * Tempo follower: see tempo.h.
 */
#include "tempo.h"

#include <math.h>

#define TWO_PI 6.28318530717958647692

void pendula_tempo_init(pendula_tempo *t, double sample_rate)
{
	if (!(sample_rate > 0.0) || !isfinite(sample_rate))
		sample_rate = 48000.0;
	t->sample_rate = sample_rate;
	t->bpm = 0.0;
	t->beats_per_bar = 4.0;
	t->beat_unit = 4.0;
	t->speed = 0.0;
	t->position_known = false;
	t->anchor_beats = 0.0;
	t->elapsed = 0;
	t->host_frame = 0;
	t->started = false;
}

/* Beats (of beat_unit) per frame at the current tempo and speed. */
static double beats_per_frame(const pendula_tempo *t)
{
	return t->speed * t->bpm / (60.0 * t->sample_rate);
}

double pendula_tempo_beats(const pendula_tempo *t)
{
	return t->anchor_beats + (double)t->elapsed * beats_per_frame(t);
}

double pendula_tempo_quarters(const pendula_tempo *t)
{
	return pendula_tempo_beats(t) * 4.0 / t->beat_unit;
}

double pendula_tempo_quarters_ahead(const pendula_tempo *t, uint32_t ahead)
{
	return (t->anchor_beats + (double)(t->elapsed + ahead) * beats_per_frame(t)) * 4.0 /
	       t->beat_unit;
}

double pendula_tempo_quarters_per_frame(const pendula_tempo *t)
{
	return beats_per_frame(t) * 4.0 / t->beat_unit;
}

int64_t pendula_tempo_host_frame(const pendula_tempo *t)
{
	/* Saturates instead of overflowing: the host may send any time:frame,
	 * and a run may be long. */
	const double d = t->speed * (double)t->elapsed;
	if (d != d)
		return t->host_frame;
	if (!(fabs(d) < 9e18))
		return d > 0.0 ? INT64_MAX : INT64_MIN;
	const int64_t k = (int64_t)llround(d);
	if (k > 0 && t->host_frame > INT64_MAX - k)
		return INT64_MAX;
	if (k < 0 && t->host_frame < INT64_MIN - k)
		return INT64_MIN;
	return t->host_frame + k;
}

static bool usable(double x, double lo, double hi)
{
	return x >= lo && x <= hi; /* false for NaN */
}

void pendula_tempo_position(pendula_tempo *t, const pendula_position *p)
{
	/* Where the song is now, before anything changes. */
	const double beats_now = pendula_tempo_beats(t);
	const int64_t host_frame_now = pendula_tempo_host_frame(t);
	const double old_speed = t->speed;
	const double old_bpm = t->bpm;
	const double old_beats_per_bar = t->beats_per_bar;
	const double old_beat_unit = t->beat_unit;

	if ((p->fields & PENDULA_POS_BPM) && usable(p->bpm, 1e-3, 1e6))
		t->bpm = p->bpm;
	if ((p->fields & PENDULA_POS_BEATS_PER_BAR) && usable(p->beats_per_bar, 1e-3, 1e6))
		t->beats_per_bar = p->beats_per_bar;
	if ((p->fields & PENDULA_POS_BEAT_UNIT) && usable(p->beat_unit, 1e-3, 1e6))
		t->beat_unit = p->beat_unit;
	if ((p->fields & PENDULA_POS_SPEED) && usable(p->speed, -1e6, 1e6))
		t->speed = p->speed;

	double beats = beats_now;
	const bool same_pace = t->bpm == old_bpm && t->speed == old_speed && t->speed > 0.0 &&
	                       t->beats_per_bar == old_beats_per_bar &&
	                       t->beat_unit == old_beat_unit;
	const bool has_bar = (p->fields & PENDULA_POS_BAR) && usable(p->bar, -1e12, 1e12);
	const bool has_beat = (p->fields & PENDULA_POS_BAR_BEAT) && usable(p->bar_beat, -1e6, 1e6);
	if (has_bar || has_beat) {
		/* A missing bar is the bar the song is in now; a missing beat is
		 * the start of the bar. */
		const double bar =
		    has_bar ? floor(p->bar + 0.5) : floor(beats_now / t->beats_per_bar);
		beats = bar * t->beats_per_bar + (has_beat ? p->bar_beat : 0.0);
		/* A host that reports the song position every block rounds it
		 * (Ardour 7 to its tick, 1/1920 beat: up to 6 frames at 120 bpm).
		 * A report that agrees with where the follower already is, at the
		 * same pace and frame, confirms it: keeping the follower's own count
		 * keeps note_grid's lines and the forcing's phase free of the
		 * host's rounding (docs/GUIDE.md, "Notes in a scale"). */
		const bool same_frame =
		    !(p->fields & PENDULA_POS_FRAME) || p->frame == host_frame_now;
		if (t->position_known && same_pace && same_frame &&
		    fabs(beats - beats_now) <= PENDULA_TEMPO_CONFIRM_BEATS)
			return;
		t->position_known = true;
	}
	t->anchor_beats = beats;
	t->host_frame = (p->fields & PENDULA_POS_FRAME) ? p->frame : host_frame_now;
	t->elapsed = 0;

	/* a start: from stopped to rolling forward (pendula_tempo_rolling);
	 * playing backwards (time:speed < 0, a shuttle) is not one */
	if (old_speed == 0.0 && t->speed > 0.0)
		t->started = true;
}

void pendula_tempo_advance(pendula_tempo *t, uint32_t n)
{
	t->elapsed += n;
}

bool pendula_tempo_known(const pendula_tempo *t)
{
	return t->bpm > 0.0;
}

bool pendula_tempo_locked(const pendula_tempo *t)
{
	return t->bpm > 0.0 && t->position_known;
}

bool pendula_tempo_rolling(const pendula_tempo *t)
{
	return t->speed > 0.0;
}

double pendula_tempo_quarters_per_second(const pendula_tempo *t)
{
	return t->bpm / 60.0 * 4.0 / t->beat_unit;
}

bool pendula_tempo_take_start(pendula_tempo *t)
{
	const bool s = t->started;
	t->started = false;
	return s;
}

double pendula_tempo_sync_freq(const pendula_tempo *t, double period_quarters)
{
	if (!(period_quarters > 0.0) || !pendula_tempo_known(t))
		return 0.0;
	const double speed = t->speed > 0.0 ? t->speed : 1.0;
	return speed * pendula_tempo_quarters_per_second(t) / period_quarters;
}

double pendula_tempo_sync_phase(const pendula_tempo *t, double period_quarters)
{
	if (!(period_quarters > 0.0))
		return 0.0;
	const double cycles = pendula_tempo_quarters(t) / period_quarters;
	double frac = cycles - floor(cycles);
	if (!(frac >= 0.0 && frac < 1.0)) /* rounding at 1, or a non-finite position */
		frac = 0.0;
	return TWO_PI * frac;
}
