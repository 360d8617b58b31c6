/* SPDX-License-Identifier: ISC */
/*
 * Tempo follower: the host's transport as seen through time:Position
 * (LV2 time extension), kept running between position messages.  Plain C99,
 * no LV2 header: the LV2 glue parses the atoms into a pendula_position and
 * hands it over at the event's frame; the unit tests drive it directly.
 *
 * Hosts send time:Position only when something changes (start, stop,
 * relocation, tempo or meter change), so between messages the follower
 * advances the song position itself: beats per frame = speed x bpm / 60 / rate.
 * The position is kept as an anchor (the song position of the last message)
 * plus the frames counted since, so it does not drift and does not depend on
 * how the frames are split into calls.
 *
 * Units: time:beatsPerMinute and time:barBeat count beats of the note value
 * time:beatUnit (4 = quarter, 8 = eighth); tempo sync wants quarter notes,
 * so quarters = beats x 4 / beatUnit.  The song position in beats is
 * bar x beatsPerBar + barBeat (time:bar counts from 0), i.e. counted from the
 * song start in the current meter: a forcing whose period divides the bar is
 * therefore locked to the bar line, and a longer one (2 bars, dotted values)
 * to the song start, so that a relocation re-phases it the same way every time.
 */
#ifndef PENDULA_TEMPO_H
#define PENDULA_TEMPO_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Which fields of a pendula_position the message carried. */
enum {
	PENDULA_POS_BAR = 1u << 0,
	PENDULA_POS_BAR_BEAT = 1u << 1,
	PENDULA_POS_BEATS_PER_BAR = 1u << 2,
	PENDULA_POS_BEAT_UNIT = 1u << 3,
	PENDULA_POS_BPM = 1u << 4,
	PENDULA_POS_SPEED = 1u << 5,
	PENDULA_POS_FRAME = 1u << 6
};

/* One time:Position message. */
/* A reported song position within this many beats of the follower's own
 * count, at the same tempo, speed and frame, confirms it (tempo.c). */
#define PENDULA_TEMPO_CONFIRM_BEATS 1e-3

typedef struct {
	unsigned fields;      /* PENDULA_POS_* */
	double bar;           /* time:bar, from 0 */
	double bar_beat;      /* time:barBeat, beats into the bar */
	double beats_per_bar; /* time:beatsPerBar */
	double beat_unit;     /* time:beatUnit (4: quarter note) */
	double bpm;           /* time:beatsPerMinute */
	double speed;         /* time:speed (0 stopped, 1 rolling) */
	int64_t frame;        /* time:frame, the host's transport frame */
} pendula_position;

typedef struct {
	double sample_rate;
	double bpm;           /* 0 until known */
	double beats_per_bar; /* 4 until known */
	double beat_unit;     /* 4 until known */
	double speed;         /* 0 (stopped) until known */
	bool position_known;  /* a bar or barBeat has arrived */
	double anchor_beats;  /* song position (beats) at the last message */
	uint64_t elapsed;     /* frames since the last message */
	int64_t host_frame;   /* time:frame at the last message (0 unless sent) */
	bool started;         /* the transport started rolling (latched) */
} pendula_tempo;

/* Nothing known, transport stopped. */
void pendula_tempo_init(pendula_tempo *t, double sample_rate);
/* A position message at the current frame.  Absent fields keep their
 * values; the song position carries on from where it was unless bar or
 * barBeat is given.  Values out of their sense (bpm <= 0, NaN...) are
 * ignored.  A change of speed from 0 to non-zero latches "started". */
void pendula_tempo_position(pendula_tempo *t, const pendula_position *p);
/* n frames of audio pass. */
void pendula_tempo_advance(pendula_tempo *t, uint32_t n);

/* Tempo known (a positive bpm has arrived). */
bool pendula_tempo_known(const pendula_tempo *t);
/* Tempo and song position known: a phase lock is possible. */
bool pendula_tempo_locked(const pendula_tempo *t);
/* Transport moving forward (speed > 0). */
bool pendula_tempo_rolling(const pendula_tempo *t);
/* Song position at the current frame, in beats of beat_unit, and in quarter
 * notes; extrapolated from the last message. */
double pendula_tempo_beats(const pendula_tempo *t);
double pendula_tempo_quarters(const pendula_tempo *t);
/* The same `ahead` frames after the current frame (computed as the
 * follower would there, so the same whatever the calls that lead to it). */
double pendula_tempo_quarters_ahead(const pendula_tempo *t, uint32_t ahead);
/* Quarter notes per frame at the current tempo and speed (0 if unknown or
 * stopped). */
double pendula_tempo_quarters_per_frame(const pendula_tempo *t);
/* Host transport frame at the current frame (time:frame + speed x elapsed). */
int64_t pendula_tempo_host_frame(const pendula_tempo *t);
/* Quarter notes per second of audio at the nominal tempo (speed 1); 0 if
 * unknown. */
double pendula_tempo_quarters_per_second(const pendula_tempo *t);
/* Returns true once after the transport started rolling, and clears it. */
bool pendula_tempo_take_start(pendula_tempo *t);

/* Tempo sync of a periodic forcing whose period is period_quarters quarter
 * notes (pendula_sync_notes[].beats):
 *   frequency, in Hz of audio time: the tempo's, times the speed while
 *   rolling forward (at the nominal tempo otherwise); 0 if unknown;
 *   phase, rad in [0, 2 pi): 2 pi frac(quarters / period_quarters), i.e. 0
 *   at the song start and, for a period dividing the bar, at every bar line. */
double pendula_tempo_sync_freq(const pendula_tempo *t, double period_quarters);
double pendula_tempo_sync_phase(const pendula_tempo *t, double period_quarters);

#ifdef __cplusplus
}
#endif
#endif
