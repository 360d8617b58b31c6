/* SPDX-License-Identifier: ISC */
/*
 * Unit tests of the tempo follower (lv2/tempo.c), plain C without LV2; run
 * by test_midi_tempo.c:
 *
 *   tempo_position  song position from bar/barBeat, advancing between
 *                   messages, beat units, host frame
 *   tempo_changes   tempo change keeps the position continuous; relocation;
 *                   stop freezes it; bad values ignored; split invariance
 *   tempo_start     "started" latches on speed 0 -> non-zero only
 *   tempo_sync      sync frequency and phase for note values and meters
 *   tempo_host_frame_limits  the host frame saturates, never wraps, at the
 *                   ends of the int64 range after a long run
 *   tempo_ahead     the song position frames ahead equals the one read after
 *                   advancing there; quarters per frame from the tempo
 *   tempo_confirm   a host's rounded report of where the song already is
 *                   (Ardour 7: to a tick, 1/1920 beat) leaves the count
 *                   exact; a relocation, a jump of frame or tempo does not
 */
#include "midi_tempo.h"
#include "ports.h"
#include "tempo.h"
#include "test_common.h"

#include <CUnit/Basic.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define PI 3.14159265358979323846

/* ---------------------------------------------------------------------- */
/* Tempo follower                                                          */

static pendula_position pos_full(double bar, double beat, double bpb, double unit, double bpm,
                                 double speed)
{
	pendula_position p;
	memset(&p, 0, sizeof p);
	p.fields = PENDULA_POS_BAR | PENDULA_POS_BAR_BEAT | PENDULA_POS_BEATS_PER_BAR |
	           PENDULA_POS_BEAT_UNIT | PENDULA_POS_BPM | PENDULA_POS_SPEED;
	p.bar = bar;
	p.bar_beat = beat;
	p.beats_per_bar = bpb;
	p.beat_unit = unit;
	p.bpm = bpm;
	p.speed = speed;
	return p;
}

static bool near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

static void test_tempo_position(void)
{
	pendula_tempo t;
	pendula_tempo_init(&t, 48000.0);
	CHECK(!pendula_tempo_known(&t) && !pendula_tempo_locked(&t) && !pendula_tempo_rolling(&t),
	      "a fresh follower knows nothing and is stopped");
	CHECK(pendula_tempo_sync_freq(&t, 1.0) == 0.0, "sync frequency without a tempo");

	pendula_position p = pos_full(2, 1.5, 4, 4, 120, 1);
	p.fields |= PENDULA_POS_FRAME;
	p.frame = 1000000;
	pendula_tempo_position(&t, &p);
	CHECK(pendula_tempo_locked(&t) && pendula_tempo_rolling(&t), "known and rolling");
	CHECK(near(pendula_tempo_beats(&t), 9.5, 1e-12), "bar 2 beat 1.5 in 4/4 -> %g beats",
	      pendula_tempo_beats(&t));
	pendula_tempo_advance(&t, 24000); /* 0.5 s at 120 bpm = 1 beat */
	CHECK(near(pendula_tempo_beats(&t), 10.5, 1e-12), "after 0.5 s: %g beats (want 10.5)",
	      pendula_tempo_beats(&t));
	CHECK(pendula_tempo_host_frame(&t) == 1024000, "host frame %lld",
	      (long long)pendula_tempo_host_frame(&t));
	/* 10 minutes later, by many small advances */
	for (int i = 0; i < 600 * 48000 / 256; ++i)
		pendula_tempo_advance(&t, 256);
	CHECK(near(pendula_tempo_beats(&t), 10.5 + 1200.0, 1e-9), "after 10 min: %.12g beats",
	      pendula_tempo_beats(&t));

	/* 6/8 at 120 (eighths): quarters = beats / 2 */
	pendula_tempo_init(&t, 44100.0);
	p = pos_full(1, 3, 6, 8, 120, 1);
	pendula_tempo_position(&t, &p);
	CHECK(near(pendula_tempo_beats(&t), 9.0, 1e-12) &&
	          near(pendula_tempo_quarters(&t), 4.5, 1e-12),
	      "6/8: %g beats, %g quarters", pendula_tempo_beats(&t), pendula_tempo_quarters(&t));
	CHECK(near(pendula_tempo_quarters_per_second(&t), 1.0, 1e-12),
	      "120 eighths per minute = 1 quarter per second, got %g",
	      pendula_tempo_quarters_per_second(&t));
	pendula_tempo_advance(&t, 44100);
	CHECK(near(pendula_tempo_quarters(&t), 5.5, 1e-12), "6/8 after 1 s: %g quarters",
	      pendula_tempo_quarters(&t));

	/* barBeat alone keeps the current bar */
	pendula_position q;
	memset(&q, 0, sizeof q);
	q.fields = PENDULA_POS_BAR_BEAT;
	q.bar_beat = 0.5;
	pendula_tempo_position(&t, &q); /* song at 11 beats = bar 1 (6 beats/bar) */
	CHECK(near(pendula_tempo_beats(&t), 6.5, 1e-12), "barBeat only: %g beats (want 6.5)",
	      pendula_tempo_beats(&t));
}

static void test_tempo_changes(void)
{
	pendula_tempo t;
	pendula_tempo_init(&t, 48000.0);
	pendula_position p = pos_full(0, 0, 4, 4, 120, 1);
	pendula_tempo_position(&t, &p);
	pendula_tempo_advance(&t, 48000); /* 2 beats */

	/* tempo change only: the position carries on, then goes at 90 bpm */
	pendula_position q;
	memset(&q, 0, sizeof q);
	q.fields = PENDULA_POS_BPM;
	q.bpm = 90;
	pendula_tempo_position(&t, &q);
	CHECK(near(pendula_tempo_beats(&t), 2.0, 1e-12), "tempo change moved the position to %g",
	      pendula_tempo_beats(&t));
	pendula_tempo_advance(&t, 48000); /* 1.5 beats */
	CHECK(near(pendula_tempo_beats(&t), 3.5, 1e-12), "at 90 bpm after 1 s: %g (want 3.5)",
	      pendula_tempo_beats(&t));

	/* relocation */
	p = pos_full(16, 2, 4, 4, 90, 1);
	pendula_tempo_position(&t, &p);
	CHECK(near(pendula_tempo_beats(&t), 66.0, 1e-12), "relocation to bar 16 beat 2: %g",
	      pendula_tempo_beats(&t));

	/* stop: frozen; the sync frequency stays the nominal one */
	memset(&q, 0, sizeof q);
	q.fields = PENDULA_POS_SPEED;
	q.speed = 0;
	pendula_tempo_position(&t, &q);
	pendula_tempo_advance(&t, 96000);
	CHECK(near(pendula_tempo_beats(&t), 66.0, 1e-12) && !pendula_tempo_rolling(&t),
	      "stopped transport moved to %g", pendula_tempo_beats(&t));
	CHECK(near(pendula_tempo_sync_freq(&t, 1.0), 1.5, 1e-12),
	      "stopped: quarter-note sync at 90 bpm %g Hz (want nominal 1.5)",
	      pendula_tempo_sync_freq(&t, 1.0));

	/* half speed */
	q.speed = 0.5;
	pendula_tempo_position(&t, &q);
	pendula_tempo_advance(&t, 48000);
	CHECK(near(pendula_tempo_beats(&t), 66.75, 1e-12), "half speed: %g (want 66.75)",
	      pendula_tempo_beats(&t));
	CHECK(near(pendula_tempo_sync_freq(&t, 1.0), 0.75, 1e-12), "half speed sync %g Hz",
	      pendula_tempo_sync_freq(&t, 1.0));

	/* bad values are ignored */
	q.fields =
	    PENDULA_POS_BPM | PENDULA_POS_BEAT_UNIT | PENDULA_POS_BEATS_PER_BAR | PENDULA_POS_BAR;
	q.bpm = -5;
	q.beat_unit = 0;
	q.beats_per_bar = NAN;
	q.bar = NAN;
	const double before = pendula_tempo_beats(&t);
	pendula_tempo_position(&t, &q);
	CHECK(t.bpm == 90 && t.beat_unit == 4 && t.beats_per_bar == 4 &&
	          near(pendula_tempo_beats(&t), before, 1e-12),
	      "bad values changed the follower: bpm %g unit %g bpb %g beats %g", t.bpm, t.beat_unit,
	      t.beats_per_bar, pendula_tempo_beats(&t));

	/* split invariance: the position after N frames does not depend on
	 * how they were advanced */
	pendula_tempo a, b;
	pendula_tempo_init(&a, 44100.0);
	p = pos_full(3, 1.25, 7, 8, 133.7, 1);
	pendula_tempo_position(&a, &p);
	b = a;
	pendula_tempo_advance(&a, 1234567);
	uint32_t left = 1234567;
	while (left) {
		uint32_t k = 1 + midi_tempo_rng() % 700;
		if (k > left)
			k = left;
		pendula_tempo_advance(&b, k);
		left -= k;
	}
	CHECK(pendula_tempo_beats(&a) == pendula_tempo_beats(&b),
	      "split advance differs: %.17g vs %.17g", pendula_tempo_beats(&a),
	      pendula_tempo_beats(&b));
}

/* The host transport frame never wraps: a time:frame near either end of
 * the int64 range, then a long run, saturates. */
static void test_tempo_host_frame_limits(void)
{
	pendula_tempo t;
	pendula_tempo_init(&t, 1536000.0);
	pendula_position p;
	memset(&p, 0, sizeof p);
	p.fields = PENDULA_POS_FRAME | PENDULA_POS_SPEED | PENDULA_POS_BPM;
	p.bpm = 120.0;
	p.speed = 1.0;
	p.frame = INT64_MAX - 1000;
	pendula_tempo_position(&t, &p);
	for (int i = 0; i < 10; ++i)
		pendula_tempo_advance(&t, 4000000000u);
	const int64_t up = pendula_tempo_host_frame(&t);
	p.speed = -1.0;
	p.frame = INT64_MIN + 1000;
	pendula_tempo_position(&t, &p);
	for (int i = 0; i < 10; ++i)
		pendula_tempo_advance(&t, 4000000000u);
	const int64_t down = pendula_tempo_host_frame(&t);
	printf("\n    host frame after 4e10 frames: %lld (forward), %lld (backward)", (long long)up,
	       (long long)down);
	CHECK(up == INT64_MAX, "forward from INT64_MAX - 1000 gave %lld", (long long)up);
	CHECK(down == INT64_MIN, "backward from INT64_MIN + 1000 gave %lld", (long long)down);
	CHECK(t.elapsed == 40000000000ull, "elapsed frames wrapped: %llu",
	      (unsigned long long)t.elapsed);
}

static void test_tempo_start(void)
{
	pendula_tempo t;
	pendula_tempo_init(&t, 48000.0);
	pendula_position p = pos_full(0, 0, 4, 4, 120, 0);
	pendula_tempo_position(&t, &p);
	CHECK(!pendula_tempo_take_start(&t), "stopped position counted as a start");
	p.speed = 1;
	pendula_tempo_position(&t, &p);
	CHECK(pendula_tempo_take_start(&t), "speed 0 -> 1 not seen as a start");
	CHECK(!pendula_tempo_take_start(&t), "a start reported twice");
	pendula_tempo_position(&t, &p); /* still rolling: a relocation, not a start */
	CHECK(!pendula_tempo_take_start(&t), "a position while rolling counted as a start");
	p.speed = 0;
	pendula_tempo_position(&t, &p);
	CHECK(!pendula_tempo_take_start(&t), "a stop counted as a start");
	p.speed = 1;
	pendula_tempo_position(&t, &p);
	CHECK(pendula_tempo_take_start(&t), "second start not seen");
	/* playing backwards (a shuttle) is not a start, nor rolling */
	p.speed = 0;
	pendula_tempo_position(&t, &p);
	p.speed = -1;
	pendula_tempo_position(&t, &p);
	CHECK(!pendula_tempo_take_start(&t) && !pendula_tempo_rolling(&t),
	      "speed 0 -> -1 counted as a start");
	p.speed = 0;
	pendula_tempo_position(&t, &p);
	p.speed = 1;
	pendula_tempo_position(&t, &p);
	CHECK(pendula_tempo_take_start(&t), "a start after playing backwards not seen");

	/* a message without speed does not change the state */
	pendula_position q;
	memset(&q, 0, sizeof q);
	q.fields = PENDULA_POS_BPM;
	q.bpm = 100;
	pendula_tempo_position(&t, &q);
	CHECK(!pendula_tempo_take_start(&t) && pendula_tempo_rolling(&t),
	      "a tempo change touched the transport state");

	/* first rolling position after init is a start (activate while stopped
	 * counts as stopped) */
	pendula_tempo_init(&t, 48000.0);
	p.speed = 1;
	pendula_tempo_position(&t, &p);
	CHECK(pendula_tempo_take_start(&t), "first rolling position not a start");
}

static void test_tempo_sync(void)
{
	pendula_tempo t;
	pendula_tempo_init(&t, 48000.0);
	pendula_position p = pos_full(0, 0, 4, 4, 120, 1);
	pendula_tempo_position(&t, &p);

	/* frequencies: 120 bpm = 2 quarters per second */
	struct {
		const char *label;
		double hz;
	} want[] = {
	    {"1/32", 16.0}, {"1/16 triplet", 12.0}, {"1/16", 8.0},  {"1/8 dotted", 8.0 / 3.0},
	    {"1/4", 2.0},   {"1/4 triplet", 3.0},   {"1 bar", 0.5}, {"8 bars", 1.0 / 16.0},
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; ++i) {
		double beats = -1;
		for (size_t k = 1; k < PENDULA_N_SYNC_NOTES; ++k)
			if (!strcmp(pendula_sync_notes[k].label, want[i].label))
				beats = pendula_sync_notes[k].beats;
		CHECK(beats > 0, "no sync note %s", want[i].label);
		const double hz = pendula_tempo_sync_freq(&t, beats);
		CHECK(near(hz, want[i].hz, 1e-12), "%s at 120 bpm: %g Hz (want %g)", want[i].label,
		      hz, want[i].hz);
	}

	/* phase: 2 pi frac(quarters / period), from the song start */
	pendula_tempo_advance(&t, 36000); /* 1.5 quarters */
	CHECK(near(pendula_tempo_sync_phase(&t, 1.0), PI, 1e-9), "1/4 phase at 1.5 q: %g",
	      pendula_tempo_sync_phase(&t, 1.0));
	CHECK(near(pendula_tempo_sync_phase(&t, 4.0), 2 * PI * 1.5 / 4, 1e-9),
	      "1 bar phase at 1.5 q: %g", pendula_tempo_sync_phase(&t, 4.0));
	/* bar 5, beat 0: one-bar and shorter periods at phase 0; 2 bars at pi
	 * (bar 5 is odd); 3 bars: 20 quarters / 12 -> frac 2/3 */
	p = pos_full(5, 0, 4, 4, 120, 1);
	pendula_tempo_position(&t, &p);
	CHECK(near(pendula_tempo_sync_phase(&t, 4.0), 0, 1e-12) &&
	          near(pendula_tempo_sync_phase(&t, 0.5), 0, 1e-12),
	      "bar line not at phase 0");
	CHECK(near(pendula_tempo_sync_phase(&t, 8.0), PI, 1e-12), "2 bars at bar 5: %g",
	      pendula_tempo_sync_phase(&t, 8.0));
	CHECK(near(pendula_tempo_sync_phase(&t, 12.0), 2 * PI * 2.0 / 3.0, 1e-12),
	      "3 bars at bar 5: %g", pendula_tempo_sync_phase(&t, 12.0));
	/* the phase stays in [0, 2 pi) for negative positions (count-in) */
	p = pos_full(-1, 1, 4, 4, 120, 1);
	pendula_tempo_position(&t, &p);
	const double ph = pendula_tempo_sync_phase(&t, 4.0);
	CHECK(ph >= 0 && ph < 2 * PI && near(ph, 2 * PI * 0.25, 1e-12),
	      "phase at bar -1 beat 1: %g", ph);
	/* 6/8: a dotted half (3 quarters) is one bar */
	p = pos_full(7, 0, 6, 8, 180, 1);
	pendula_tempo_position(&t, &p);
	CHECK(near(pendula_tempo_sync_phase(&t, 3.0), 0, 1e-12), "6/8 bar line phase %g",
	      pendula_tempo_sync_phase(&t, 3.0));
	CHECK(near(pendula_tempo_sync_freq(&t, 3.0), 0.5, 1e-12),
	      "6/8 at 180 eighths/min: one bar = 2 s, got %g Hz", pendula_tempo_sync_freq(&t, 3.0));
}

/* The song position some frames ahead (note_grid's lines) is what the
 * follower reads once it has advanced that far, bit for bit, and the
 * quarters per frame are the tempo's: 120 bpm at 48 kHz is 1/24000, in 6/8
 * (eighth beats) half that. */
static void test_tempo_ahead(void)
{
	pendula_tempo t;
	pendula_tempo_init(&t, 48000.0);
	CHECK(pendula_tempo_quarters_per_frame(&t) == 0.0, "no tempo: %g quarters per frame",
	      pendula_tempo_quarters_per_frame(&t));
	pendula_position p = pos_full(3, 0.25, 4, 4, 120, 1);
	pendula_tempo_position(&t, &p);
	CHECK(near(pendula_tempo_quarters_per_frame(&t), 1.0 / 24000.0, 1e-18),
	      "120 bpm: %.17g quarters per frame", pendula_tempo_quarters_per_frame(&t));
	pendula_tempo_advance(&t, 777);
	const double ahead = pendula_tempo_quarters_ahead(&t, 24000 + 5);
	CHECK(near(ahead, 12.25 + (777.0 + 24005.0) / 24000.0, 1e-12), "ahead: %.15g", ahead);
	for (int i = 0; i < 5; ++i)
		pendula_tempo_advance(&t, (uint32_t)(i == 4 ? 24005 - 4 * 4801 : 4801));
	CHECK(pendula_tempo_quarters(&t) == ahead, "advanced: %.17g, read ahead: %.17g",
	      pendula_tempo_quarters(&t), ahead);
	p = pos_full(0, 0, 6, 8, 120, 1);
	pendula_tempo_position(&t, &p);
	CHECK(near(pendula_tempo_quarters_per_frame(&t), 1.0 / 48000.0, 1e-18),
	      "6/8 at 120 eighths: %.17g quarters per frame", pendula_tempo_quarters_per_frame(&t));
}

/* Reports every 256 frames at 120 bpm, each rounded to a tick (1/1920 beat)
 * as Ardour 7 sends them: the song position stays the exact count of frames
 * (0.5 beats per 12 000 frames); a report off by more than the confirming
 * band, at another frame or at another tempo, re-anchors as before. */
static void test_tempo_confirm(void)
{
	pendula_tempo t;
	pendula_tempo_init(&t, 48000.0);
	pendula_position p = pos_full(0, 0, 4, 4, 120, 1);
	p.fields |= PENDULA_POS_FRAME;
	p.frame = 0;
	pendula_tempo_position(&t, &p);
	double worst = 0.0;
	int rounded = 0;
	for (int k = 1; k <= 1000; ++k) {
		pendula_tempo_advance(&t, 256);
		const double exact = 256.0 * k * 120.0 / (60.0 * 48000.0);
		const double ticked = floor(exact * 1920.0 + 0.5) / 1920.0;
		rounded += ticked != exact;
		pendula_position q = pos_full(floor(ticked / 4.0), fmod(ticked, 4.0), 4, 4, 120, 1);
		q.fields |= PENDULA_POS_FRAME;
		q.frame = 256 * k;
		pendula_tempo_position(&t, &q);
		const double e = fabs(pendula_tempo_beats(&t) - exact);
		worst = e > worst ? e : worst;
	}
	CHECK(rounded > 500, "the reports were rounded (%d of 1000)", rounded);
	CHECK(worst <= 1e-9, "rounded reports moved the song position by %g beats", worst);

	/* a relocation by a hundredth of a beat is taken */
	pendula_position r = pos_full(10, 0.01, 4, 4, 120, 1);
	r.fields |= PENDULA_POS_FRAME;
	r.frame = 256000;
	pendula_tempo_position(&t, &r);
	CHECK(near(pendula_tempo_beats(&t), 40.01, 1e-12), "a relocation gave %g beats",
	      pendula_tempo_beats(&t));
	/* the same song position reported at a jumped frame re-anchors there */
	pendula_tempo_advance(&t, 100);
	const double here = pendula_tempo_beats(&t);
	pendula_position f = pos_full(10, here - 40.0 + 1e-4, 4, 4, 120, 1);
	f.fields |= PENDULA_POS_FRAME;
	f.frame = 999999;
	pendula_tempo_position(&t, &f);
	CHECK(pendula_tempo_host_frame(&t) == 999999 &&
	          near(pendula_tempo_beats(&t), here + 1e-4, 1e-12),
	      "a frame jump kept the old count (frame %lld)",
	      (long long)pendula_tempo_host_frame(&t));
	/* and a tempo change re-anchors at the reported position */
	pendula_position g = pos_full(10, here - 40.0 + 2e-4, 4, 4, 90, 1);
	pendula_tempo_position(&t, &g);
	CHECK(near(pendula_tempo_beats(&t), here + 2e-4, 1e-12), "a tempo change gave %g beats",
	      pendula_tempo_beats(&t));
}

CU_TestInfo tempo_tests[] = {
    {"tempo_confirm", test_tempo_confirm},
    {"tempo_ahead", test_tempo_ahead},
    {"tempo_position", test_tempo_position},
    {"tempo_changes", test_tempo_changes},
    {"tempo_start", test_tempo_start},
    {"tempo_sync", test_tempo_sync},
    {"tempo_host_frame_limits", test_tempo_host_frame_limits},
    CU_TEST_INFO_NULL,
};
