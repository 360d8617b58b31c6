/* SPDX-License-Identifier: ISC */
/*
 * Unit tests of the MIDI CC encoder (lv2/midi_cc.c), plain C without LV2;
 * run by test_midi_tempo.c:
 *
 *   cc_mapping      docs/HOSTS.md mapping: ends, centre, clipping, NaN, monotone,
 *                   14-bit MSB = 7-bit code
 *   cc_on_change    a constant sends once; a change is sent at its frame
 *   cc_rate_limit   <= 1 update per output per ms at 44.1/48/96 kHz, and each
 *                   message carries the value of its own frame
 *   cc_14bit        MSB/LSB pairs on cc and cc + 32; 7-bit above cc 31
 *   cc_config       channel in the status byte, off outputs, re-send after a
 *                   controller change (still rate-limited), reset
 *   cc_split        same messages at the same absolute frames whatever the
 *                   split into calls (frame-by-frame, random spans)
 *   cc_naive        the same updates as a naive per-frame encoder, with
 *                   values on and next to every code boundary, NaN, huge
 *   cc_lost         messages lost on the way (a host's buffer too small):
 *                   the receiver still ends on the last values
 */
#include "midi_cc.h"
#include "midi_tempo.h"
#include "ports.h"
#include "test_common.h"

#include <CUnit/Basic.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define PI 3.14159265358979323846

/* ---------------------------------------------------------------------- */
/* Recording of encoder output                                             */

#define MAX_EVENTS 200000

typedef struct {
	uint64_t frame; /* absolute */
	uint8_t bytes[3];
} cc_event;

typedef struct {
	cc_event ev[MAX_EVENTS];
	size_t n;
	uint64_t base; /* absolute frame of the current span */
} cc_log;

static cc_log log_a, log_b;

static bool log_emit(void *user, uint32_t frame, const pendula_cc_msg *msg)
{
	cc_log *l = (cc_log *)user;
	if (l->n < MAX_EVENTS) {
		l->ev[l->n].frame = l->base + frame;
		memcpy(l->ev[l->n].bytes, msg->bytes, 3);
		l->n++;
	}
	return true;
}

/* Runs the encoder over n frames of signals in one call. */
static void encode_all(pendula_cc *enc, const float *const *signals, uint32_t n, cc_log *l)
{
	l->n = 0;
	l->base = enc->frame;
	pendula_cc_process(enc, signals, n, log_emit, l);
}

static double value_of_code(int32_t code, bool bits14)
{
	/* centre of the code's slice of [-1, 1) */
	const double steps = bits14 ? 16384.0 : 128.0;
	return (code + 0.5) / steps * 2.0 - 1.0;
}

/* ---------------------------------------------------------------------- */
/* CC encoder                                                              */

static void test_cc_mapping(void)
{
	const pendula_cc_map A = PENDULA_CC_MAP_ANGLE, T = PENDULA_CC_MAP_TIP,
	                     E = PENDULA_CC_MAP_ENERGY;
	CHECK(pendula_cc_code(A, -1.0, 1, false) == 0, "angle -1 -> %d",
	      pendula_cc_code(A, -1.0, 1, false));
	CHECK(pendula_cc_code(A, 0.0, 1, false) == 64, "angle 0 -> %d",
	      pendula_cc_code(A, 0.0, 1, false));
	CHECK(pendula_cc_code(A, -0.5, 1, false) == 32, "angle -0.5 -> %d",
	      pendula_cc_code(A, -0.5, 1, false));
	CHECK(pendula_cc_code(A, nextafterf(1.0f, 0.0f), 1, false) == 127,
	      "angle just below 1 -> %d", pendula_cc_code(A, nextafterf(1.0f, 0.0f), 1, false));
	CHECK(pendula_cc_code(A, -1.0, 1, true) == 0, "14-bit angle -1");
	CHECK(pendula_cc_code(A, 0.0, 1, true) == 8192, "14-bit angle 0 -> %d",
	      pendula_cc_code(A, 0.0, 1, true));
	CHECK(pendula_cc_code(A, nextafterf(1.0f, 0.0f), 1, true) == 16383,
	      "14-bit angle just below 1 -> %d",
	      pendula_cc_code(A, nextafterf(1.0f, 0.0f), 1, true));
	CHECK(pendula_cc_code(T, 1.0, 1, false) == 127, "tip 1 -> %d",
	      pendula_cc_code(T, 1.0, 1, false));
	CHECK(pendula_cc_code(T, -1.0, 1, false) == 0, "tip -1");
	CHECK(pendula_cc_code(T, 1.0, 1, true) == 16383, "14-bit tip 1");
	CHECK(pendula_cc_code(T, 5.0, 1, false) == 127 && pendula_cc_code(T, -5.0, 1, false) == 0,
	      "tip out of range not clipped");
	CHECK(pendula_cc_code(E, 0.0, 2.0, false) == 0, "energy 0");
	CHECK(pendula_cc_code(E, 2.0, 2.0, false) == 127, "energy = energy_max -> %d",
	      pendula_cc_code(E, 2.0, 2.0, false));
	CHECK(pendula_cc_code(E, 1.0, 2.0, false) == 64, "energy = energy_max / 2 -> %d",
	      pendula_cc_code(E, 1.0, 2.0, false));
	CHECK(pendula_cc_code(E, 0.25, 2.0, false) == 16, "energy 0.25 of 2 -> %d",
	      pendula_cc_code(E, 0.25, 2.0, false));
	CHECK(pendula_cc_code(E, 7.0, 2.0, false) == 127, "energy above the range not clipped");
	CHECK(pendula_cc_code(E, -0.1, 2.0, false) == 0, "negative energy not clipped");
	CHECK(pendula_cc_code(E, 1e300, 2.0, true) == 16383, "huge energy, 14-bit");
	CHECK(pendula_cc_code(E, INFINITY, 1.0, false) == 127, "+inf");
	CHECK(pendula_cc_code(A, -INFINITY, 1.0, false) == 0, "-inf");
	CHECK(pendula_cc_code(A, NAN, 1.0, false) == -1, "NaN must not map to a code");

	/* Linear and monotone over a fine sweep, MSB = 7-bit code, and every
	 * 7-bit code covers an equal width (each appears 2^k times). */
	int32_t prev7 = -1, prev14 = -1;
	bool monotone = true, msb_ok = true, linear_ok = true;
	unsigned count7[128] = {0};
	const int n = 1 << 16;
	for (int i = 0; i < n; ++i) {
		const double x = -1.0 + 2.0 * i / n;
		const int32_t c7 = pendula_cc_code(A, x, 1, false);
		const int32_t c14 = pendula_cc_code(A, x, 1, true);
		if (c7 < prev7 || c14 < prev14)
			monotone = false;
		if ((c14 >> 7) != c7)
			msb_ok = false;
		if (fabs(value_of_code(c14, true) - x) > 1.0 / 16384.0 + 1e-12)
			linear_ok = false;
		count7[c7]++;
		prev7 = c7;
		prev14 = c14;
	}
	bool equal = true;
	for (int c = 0; c < 128; ++c)
		if (count7[c] != (unsigned)n / 128)
			equal = false;
	CHECK(monotone, "mapping not monotone");
	CHECK(msb_ok, "14-bit MSB differs from the 7-bit code");
	CHECK(linear_ok, "14-bit code more than one step from the value");
	CHECK(equal, "7-bit codes do not cover equal slices of [-1, 1)");
}

static void test_cc_on_change(void)
{
	pendula_cc enc;
	pendula_cc_init(&enc, 48000.0, 2);
	pendula_cc_set_output(&enc, 0, 1, PENDULA_CC_MAP_ANGLE);
	pendula_cc_set_output(&enc, 1, 2, PENDULA_CC_MAP_ANGLE);
	static float a[10000], b[10000];
	for (int i = 0; i < 10000; ++i) {
		a[i] = 0.25f;                   /* constant */
		b[i] = i < 5000 ? -0.5f : 0.5f; /* one step at frame 5000 */
	}
	const float *sig[2] = {a, b};
	encode_all(&enc, sig, 10000, &log_a);
	size_t on1 = 0, on2 = 0;
	bool ok_values = true;
	for (size_t i = 0; i < log_a.n; ++i) {
		const cc_event *e = &log_a.ev[i];
		if (e->bytes[1] == 1) {
			++on1;
			if (e->frame != 0 || e->bytes[2] != 80) /* (0.25+1)/2*128 = 80 */
				ok_values = false;
		} else if (e->bytes[1] == 2) {
			++on2;
			const uint8_t want = e->frame < 5000 ? 32 : 96;
			if (e->bytes[2] != want || (e->frame != 0 && e->frame != 5000))
				ok_values = false;
		}
	}
	CHECK(on1 == 1, "constant output sent %zu times (want once)", on1);
	CHECK(on2 == 2, "step output sent %zu times (want 2: start, step)", on2);
	CHECK(ok_values, "wrong value or frame of an on-change message");
	CHECK(log_a.n == 3, "%zu messages in all (want 3)", log_a.n);
}

static void check_rate(double rate, bool bits14)
{
	pendula_cc enc;
	pendula_cc_init(&enc, rate, 3);
	pendula_cc_configure(&enc, 1, bits14, 1.0);
	pendula_cc_set_output(&enc, 0, 10, PENDULA_CC_MAP_ANGLE);
	pendula_cc_set_output(&enc, 1, 11, PENDULA_CC_MAP_TIP);
	pendula_cc_set_output(&enc, 2, 12, PENDULA_CC_MAP_ENERGY);
	const uint32_t n = (uint32_t)(rate * 2.0); /* 2 s */
	static float s0[200000], s1[200000], s2[200000];
	for (uint32_t i = 0; i < n; ++i) {
		/* fast signals: every frame changes the code of a 14-bit output */
		s0[i] = (float)(2.0 * fmod(i * 37.0 / rate, 1.0) - 1.0);
		s1[i] = (float)sin(2 * PI * 13.0 * i / rate);
		s2[i] = (float)(0.5 + 0.5 * sin(2 * PI * 7.0 * i / rate));
	}
	const float *sig[3] = {s0, s1, s2};
	encode_all(&enc, sig, n, &log_a);

	const double interval = rate * 0.001; /* frames per ms */
	uint64_t last[3] = {0, 0, 0};
	bool seen[3] = {false, false, false};
	size_t updates[3] = {0, 0, 0};
	double min_gap = 1e30;
	bool values_ok = true, pair_ok = true;
	for (size_t i = 0; i < log_a.n; ++i) {
		const cc_event *e = &log_a.ev[i];
		const int cc = e->bytes[1];
		if (cc >= 42) /* LSB of a pair: must follow its MSB at the same frame */
		{
			if (i == 0 || log_a.ev[i - 1].bytes[1] != cc - 32 ||
			    log_a.ev[i - 1].frame != e->frame)
				pair_ok = false;
			continue;
		}
		const int k = cc - 10;
		if (k < 0 || k > 2) {
			values_ok = false;
			continue;
		}
		if (seen[k] && (double)(e->frame - last[k]) < min_gap)
			min_gap = (double)(e->frame - last[k]);
		seen[k] = true;
		last[k] = e->frame;
		updates[k]++;
		const pendula_cc_map map = k == 0   ? PENDULA_CC_MAP_ANGLE
		                           : k == 1 ? PENDULA_CC_MAP_TIP
		                                    : PENDULA_CC_MAP_ENERGY;
		int32_t code = pendula_cc_code(map, sig[k][e->frame], 1.0, bits14);
		int32_t got = e->bytes[2];
		if (bits14) {
			if (i + 1 >= log_a.n || log_a.ev[i + 1].bytes[1] != cc + 32)
				pair_ok = false;
			else
				got = (got << 7) | log_a.ev[i + 1].bytes[2];
		}
		if (got != code)
			values_ok = false;
	}
	const double max_updates = 2000.0 + 1.0; /* 2 s at 1 per ms */
	printf("\n    %g Hz%s: %zu/%zu/%zu updates in 2 s, smallest gap %g frames (1 ms = %g)",
	       rate, bits14 ? " 14-bit" : "", updates[0], updates[1], updates[2], min_gap,
	       interval);
	CHECK(min_gap >= interval, "%g Hz: two updates of one output %g frames apart (< 1 ms)",
	      rate, min_gap);
	for (int k = 0; k < 3; ++k) {
		CHECK(updates[k] <= max_updates, "%g Hz: output %d sent %zu times in 2 s", rate, k,
		      updates[k]);
		/* the fast sawtooth changes code at every frame: the limit is the
		 * only brake, so it must reach nearly 1 per ms */
		if (k == 0)
			CHECK(updates[k] >= 0.9 * max_updates,
			      "%g Hz: fast output sent only %zu times", rate, updates[k]);
	}
	CHECK(values_ok, "%g Hz: a message does not carry the value of its own frame", rate);
	CHECK(pair_ok, "%g Hz: 14-bit MSB/LSB pairing broken", rate);
}

static void test_cc_rate_limit(void)
{
	check_rate(44100.0, false);
	check_rate(48000.0, false);
	check_rate(96000.0, false);
	check_rate(48000.0, true);
	check_rate(96000.0, true);
}

static void test_cc_14bit(void)
{
	pendula_cc enc;
	pendula_cc_init(&enc, 48000.0, 2);
	pendula_cc_configure(&enc, 3, true, 1.0);
	pendula_cc_set_output(&enc, 0, 7, PENDULA_CC_MAP_ANGLE); /* pair: 7 + 39 */
	pendula_cc_set_output(&enc, 1, 74, PENDULA_CC_MAP_TIP);  /* no LSB partner: 7-bit */
	pendula_cc_msg m[PENDULA_CC_MAX_MSGS];
	const float v[2] = {0.3f, -0.3f};
	const unsigned k = pendula_cc_frame(&enc, v, m);
	CHECK(k == 3, "%u messages (want MSB, LSB, and one 7-bit)", k);
	if (k != 3)
		return;
	const int32_t code = pendula_cc_code(PENDULA_CC_MAP_ANGLE, 0.3f, 1.0, true);
	CHECK(m[0].bytes[0] == 0xB2 && m[0].bytes[1] == 7 && m[0].bytes[2] == (code >> 7),
	      "MSB message %02x %02x %02x", m[0].bytes[0], m[0].bytes[1], m[0].bytes[2]);
	CHECK(m[1].bytes[0] == 0xB2 && m[1].bytes[1] == 39 && m[1].bytes[2] == (code & 127),
	      "LSB message %02x %02x %02x", m[1].bytes[0], m[1].bytes[1], m[1].bytes[2]);
	CHECK(m[2].bytes[1] == 74 &&
	          m[2].bytes[2] == pendula_cc_code(PENDULA_CC_MAP_TIP, -0.3f, 1.0, false),
	      "cc 74 in 14-bit mode: %02x %02x", m[2].bytes[1], m[2].bytes[2]);
	for (unsigned i = 0; i < k; ++i)
		CHECK(m[i].bytes[2] < 128 && m[i].bytes[1] < 128, "data byte >= 128");

	/* A change in the LSB only is a change: the pair goes out again. */
	float v2[2] = {0.3f, -0.3f};
	for (int i = 0; i < 48; ++i)
		pendula_cc_frame(&enc, v2, m);
	v2[0] = (float)(value_of_code(code + 1, true));
	const unsigned k2 = pendula_cc_frame(&enc, v2, m);
	CHECK(k2 == 2 && m[1].bytes[2] == ((code + 1) & 127), "an LSB-only change sent %u messages",
	      k2);
}

static void test_cc_config(void)
{
	pendula_cc enc;
	pendula_cc_init(&enc, 48000.0, 3);
	pendula_cc_configure(&enc, 16, false, 1.0);
	pendula_cc_set_output(&enc, 0, 20, PENDULA_CC_MAP_ANGLE);
	pendula_cc_set_output(&enc, 1, -1, PENDULA_CC_MAP_ANGLE);  /* off */
	pendula_cc_set_output(&enc, 2, 200, PENDULA_CC_MAP_ANGLE); /* invalid: off */
	CHECK(pendula_cc_any_enabled(&enc), "an output is on");
	pendula_cc_msg m[PENDULA_CC_MAX_MSGS];
	const float v[3] = {0.0f, 0.5f, 0.5f};
	unsigned k = pendula_cc_frame(&enc, v, m);
	CHECK(k == 1 && m[0].bytes[0] == 0xBF && m[0].bytes[1] == 20 && m[0].bytes[2] == 64,
	      "channel 16 / off outputs: %u messages, first %02x %02x %02x", k, m[0].bytes[0],
	      m[0].bytes[1], m[0].bytes[2]);

	/* Controller change: re-sent on the new number, but not before 1 ms. */
	pendula_cc_set_output(&enc, 0, 21, PENDULA_CC_MAP_ANGLE);
	unsigned first = 0;
	for (unsigned f = 1; f < 100 && !first; ++f)
		if (pendula_cc_frame(&enc, v, m) && m[0].bytes[1] == 21)
			first = f;
	CHECK(first == 48, "after a controller change the value went out at frame %u (want 48)",
	      first);

	/* Reset: sent at once even though the value did not change. */
	pendula_cc_reset(&enc);
	k = pendula_cc_frame(&enc, v, m);
	CHECK(k == 1 && m[0].bytes[1] == 21, "after a reset: %u messages", k);

	/* energy_max change re-sends the energy output only */
	pendula_cc_init(&enc, 48000.0, 2);
	pendula_cc_set_output(&enc, 0, 1, PENDULA_CC_MAP_ANGLE);
	pendula_cc_set_output(&enc, 1, 2, PENDULA_CC_MAP_ENERGY);
	const float w[2] = {0.0f, 0.5f};
	pendula_cc_frame(&enc, w, m);
	pendula_cc_skip(&enc, 100);
	pendula_cc_configure(&enc, 1, false, 0.5);
	k = pendula_cc_frame(&enc, w, m);
	CHECK(k == 1 && m[0].bytes[1] == 2 && m[0].bytes[2] == 127,
	      "energy_max change: %u messages, cc %d value %d", k, m[0].bytes[1], m[0].bytes[2]);

	pendula_cc_init(&enc, 48000.0, 2);
	CHECK(!pendula_cc_any_enabled(&enc), "outputs on after init");
	/* NULL signal: nothing */
	pendula_cc_set_output(&enc, 0, 1, PENDULA_CC_MAP_ANGLE);
	const float *sig[2] = {NULL, NULL};
	encode_all(&enc, sig, 100, &log_a);
	CHECK(log_a.n == 0 && enc.frame == 100, "NULL signal: %zu messages, frame %llu", log_a.n,
	      (unsigned long long)enc.frame);
}

static void test_cc_split(void)
{
	const uint32_t n = 48000;
	static float s[4][48000];
	for (uint32_t i = 0; i < n; ++i) {
		s[0][i] = (float)(2.0 * fmod(i * 3.3 / 48000.0, 1.0) - 1.0);
		s[1][i] = (float)sin(i * 0.001);
		s[2][i] = (float)(i % 5000 < 2500 ? 0.1 : 0.9);
		s[3][i] = (float)(0.3 + 0.3 * sin(i * 0.0003));
	}
	const pendula_cc_map maps[4] = {PENDULA_CC_MAP_ANGLE, PENDULA_CC_MAP_TIP,
	                                PENDULA_CC_MAP_ANGLE, PENDULA_CC_MAP_ENERGY};
	for (int bits = 0; bits < 2; ++bits) {
		pendula_cc a, b;
		pendula_cc_init(&a, 48000.0, 4);
		pendula_cc_init(&b, 48000.0, 4);
		pendula_cc_configure(&a, 5, bits, 0.7);
		pendula_cc_configure(&b, 5, bits, 0.7);
		for (int i = 0; i < 4; ++i) {
			pendula_cc_set_output(&a, i, i + 1, maps[i]);
			pendula_cc_set_output(&b, i, i + 1, maps[i]);
		}
		const float *sig[4] = {s[0], s[1], s[2], s[3]};
		encode_all(&a, sig, n, &log_a);

		/* b: random spans, some frame by frame through pendula_cc_frame */
		log_b.n = 0;
		uint32_t pos = 0;
		while (pos < n) {
			uint32_t len = 1 + midi_tempo_rng() % 300;
			if (len > n - pos)
				len = n - pos;
			if (midi_tempo_rng() % 4 == 0) {
				for (uint32_t f = 0; f < len; ++f) {
					pendula_cc_msg m[PENDULA_CC_MAX_MSGS];
					const float v[4] = {s[0][pos + f], s[1][pos + f],
					                    s[2][pos + f], s[3][pos + f]};
					const uint64_t fr = b.frame;
					const unsigned k = pendula_cc_frame(&b, v, m);
					for (unsigned j = 0; j < k && log_b.n < MAX_EVENTS; ++j) {
						log_b.ev[log_b.n].frame = fr;
						memcpy(log_b.ev[log_b.n].bytes, m[j].bytes, 3);
						log_b.n++;
					}
				}
			} else {
				const float *sp[4] = {s[0] + pos, s[1] + pos, s[2] + pos,
				                      s[3] + pos};
				log_b.base = b.frame;
				pendula_cc_process(&b, sp, len, log_emit, &log_b);
			}
			pos += len;
		}
		bool same = log_a.n == log_b.n;
		for (size_t i = 0; same && i < log_a.n; ++i)
			same = log_a.ev[i].frame == log_b.ev[i].frame &&
			       !memcmp(log_a.ev[i].bytes, log_b.ev[i].bytes, 3);
		printf("\n    %s: %zu messages in one call, %zu split", bits ? "14-bit" : "7-bit",
		       log_a.n, log_b.n);
		CHECK(same, "split into calls changes the messages (%zu vs %zu)", log_a.n, log_b.n);
		CHECK(log_a.n > 100, "too few messages (%zu) for the test to mean anything",
		      log_a.n);
	}
}

/* A receiver behind a MIDI output that drops messages (a host's buffer too
 * small for a block's traffic): its value of each controller, a 14-bit
 * MSB clearing the LSB as many synths do. */
typedef struct {
	uint64_t base;               /* absolute frame of the current span */
	uint64_t drop_from, drop_to; /* every message of these frames is lost */
	uint32_t seed;               /* and one in three before drop_to */
	int value[128];              /* -1: nothing received */
	size_t sent, lost;
} lossy_rx;

static bool lossy_emit(void *user, uint32_t frame, const pendula_cc_msg *msg)
{
	lossy_rx *rx = (lossy_rx *)user;
	const uint64_t at = rx->base + frame;
	rx->seed = rx->seed * 1664525u + 1013904223u;
	if (at < rx->drop_to && (at >= rx->drop_from || (rx->seed >> 16) % 3 == 0)) {
		rx->lost++;
		return false;
	}
	rx->sent++;
	const int cc = msg->bytes[1], v = msg->bytes[2];
	if (cc < 32) /* an MSB of a 14-bit pair (or a 7-bit value) */
		rx->value[cc] = v, rx->value[cc + 32] = 0;
	else
		rx->value[cc] = v;
	return true;
}

/* Messages lost on the way: the encoder sends the update again at its next
 * chance, so that the receiver ends with the code of each signal's final
 * value, even when the update that carried the last change was lost (here
 * every message of the first millisecond after it). */
static void test_cc_lost(void)
{
	enum { N = 48000, HOLD = 38400, QUIET = 43200 };
	static float s[4][N];
	for (uint32_t i = 0; i < N; ++i) {
		const uint32_t t = i < HOLD ? i : HOLD;
		s[0][i] = (float)(2.0 * fmod(t * 3.3 / 48000.0, 1.0) - 1.0);
		s[1][i] = (float)sin(t * 0.001);
		s[2][i] = (float)(0.5 * sin(t * 0.0007));
		s[3][i] = (float)(0.3 + 0.3 * sin(t * 0.0003));
	}
	const pendula_cc_map maps[4] = {PENDULA_CC_MAP_ANGLE, PENDULA_CC_MAP_TIP,
	                                PENDULA_CC_MAP_ANGLE, PENDULA_CC_MAP_ENERGY};
	const int ccs[4] = {1, 2, 74, 3}; /* 74: 7-bit even in 14-bit mode */
	for (int bits = 0; bits < 2; ++bits) {
		pendula_cc enc;
		pendula_cc_init(&enc, 48000.0, 4);
		pendula_cc_configure(&enc, 1, bits, 0.7);
		for (int i = 0; i < 4; ++i)
			pendula_cc_set_output(&enc, i, ccs[i], maps[i]);
		lossy_rx rx;
		memset(&rx, 0, sizeof(rx));
		rx.drop_from = HOLD;
		rx.drop_to = QUIET;
		rx.seed = 12345u;
		for (int c = 0; c < 128; ++c)
			rx.value[c] = -1;
		uint32_t pos = 0;
		while (pos < N) {
			uint32_t len = 1 + midi_tempo_rng() % 300;
			if (len > N - pos)
				len = N - pos;
			const float *sp[4] = {s[0] + pos, s[1] + pos, s[2] + pos, s[3] + pos};
			rx.base = enc.frame;
			pendula_cc_process(&enc, sp, len, lossy_emit, &rx);
			pos += len;
		}
		int wrong = 0;
		for (int i = 0; i < 4; ++i) {
			const bool pair = bits && ccs[i] < 32;
			const int32_t want = pendula_cc_code(maps[i], s[i][N - 1], 0.7, pair);
			const int got = pair ? (rx.value[ccs[i]] < 0
			                            ? -1
			                            : rx.value[ccs[i]] << 7 | rx.value[ccs[i] + 32])
			                     : rx.value[ccs[i]];
			if (got != want) {
				printf(
				    "\n    cc %d: the receiver holds %d, the signal's code is %d",
				    ccs[i], got, (int)want);
				wrong++;
			}
		}
		printf(
		    "\n    %s: %zu messages out, %zu lost; receiver wrong on %d of 4 controllers",
		    bits ? "14-bit" : "7-bit", rx.sent, rx.lost, wrong);
		CHECK(rx.lost > 100 && rx.sent > 100, "lost %zu, sent %zu", rx.lost, rx.sent);
		CHECK(wrong == 0, "%d controllers left with a stale value", wrong);
	}
}

/* The encoder against a naive one written from docs/HOSTS.md's rule alone: at
 * each frame past an output's rate limit, send when the code of the value
 * (pendula_cc_code) differs from the last code sent.  The signals sit on
 * and next to the code boundaries (the nearest floats on both sides), and
 * include NaN and values far outside the range, which is where the
 * encoder's shortcuts (a kept slice per code, compared in single precision,
 * eight frames at a time) could go wrong. */
static void test_cc_naive(void)
{
	const uint32_t n = 40000;
	static float s[3][40000];
	const pendula_cc_map maps[3] = {PENDULA_CC_MAP_ANGLE, PENDULA_CC_MAP_TIP,
	                                PENDULA_CC_MAP_ENERGY};
	const double energy_max = 0.7;
	for (int bits = 0; bits < 2; ++bits) {
		const double steps = bits ? 16384.0 : 128.0;
		for (int o = 0; o < 3; ++o) {
			/* held values that wander from code to code, each on a
			 * boundary or one float away from it */
			int32_t code = (int32_t)(steps / 2);
			for (uint32_t i = 0; i < n;) {
				uint32_t len = 1 + midi_tempo_rng() % 200;
				code += (int32_t)(midi_tempo_rng() % 3) - 1;
				code = code < 1                    ? 1
				       : code > (int32_t)steps - 1 ? (int32_t)steps - 1
				                                   : code;
				const double edge = maps[o] == PENDULA_CC_MAP_ENERGY
				                        ? code * energy_max / steps
				                        : 2.0 * code / steps - 1.0;
				float v = (float)edge;
				switch (midi_tempo_rng() % 8) {
				case 0:
					v = nextafterf(v, INFINITY);
					break;
				case 1:
				case 2:
					v = nextafterf(v, -INFINITY);
					break;
				case 3:
					v = NAN, len = 1;
					break;
				case 4:
					v = midi_tempo_rng() % 2 ? 1e30f : -1e30f, len = 1;
					break;
				default:
					break;
				}
				for (uint32_t f = 0; f < len && i < n; ++f)
					s[o][i++] = v;
			}
		}
		pendula_cc enc;
		pendula_cc_init(&enc, 48000.0, 3);
		pendula_cc_configure(&enc, 0, bits, energy_max);
		for (int o = 0; o < 3; ++o)
			pendula_cc_set_output(&enc, o, o + 1, maps[o]);
		const float *sig[3] = {s[0], s[1], s[2]};
		encode_all(&enc, sig, n, &log_a);

		/* the naive encoder: (frame, controller, code) of each update */
		log_b.n = 0;
		int32_t last[3] = {-1, -1, -1};
		int64_t last_frame[3] = {0, 0, 0};
		const int64_t interval = (int64_t)enc.min_interval;
		for (uint32_t f = 0; f < n; ++f)
			for (int o = 0; o < 3; ++o) {
				if (last[o] >= 0 && (int64_t)f - last_frame[o] < interval)
					continue;
				const int32_t code =
				    pendula_cc_code(maps[o], s[o][f], energy_max, bits);
				if (code < 0 || code == last[o])
					continue;
				last[o] = code;
				last_frame[o] = f;
				if (log_b.n < MAX_EVENTS) {
					log_b.ev[log_b.n].frame = f;
					log_b.ev[log_b.n].bytes[0] = (uint8_t)(o + 1);
					log_b.ev[log_b.n].bytes[1] = (uint8_t)(code >> 7);
					log_b.ev[log_b.n].bytes[2] = (uint8_t)(code & 0x7f);
					log_b.n++;
				}
			}
		/* the encoder's messages as (frame, controller, code) */
		size_t m = 0;
		bool same = true;
		for (size_t i = 0; i < log_a.n && same; ++i) {
			const cc_event *e = &log_a.ev[i];
			if (e->bytes[1] > 3)
				continue; /* an LSB, read with its MSB */
			int32_t code = e->bytes[2];
			if (bits) {
				same =
				    i + 1 < log_a.n && log_a.ev[i + 1].bytes[1] == e->bytes[1] + 32;
				code = same ? (code << 7) | log_a.ev[i + 1].bytes[2] : -1;
			}
			const cc_event *r = m < log_b.n ? &log_b.ev[m] : NULL;
			same = same && r && r->frame == e->frame && r->bytes[0] == e->bytes[1] &&
			       ((int32_t)r->bytes[1] << 7 | r->bytes[2]) == code;
			++m;
		}
		same = same && m == log_b.n;
		printf("\n    %s: %zu updates, naive encoder %zu", bits ? "14-bit" : "7-bit", m,
		       log_b.n);
		CHECK(same, "the encoder and the naive rule disagree (at update %zu of %zu)", m,
		      log_b.n);
		CHECK(log_b.n > 500, "too few updates (%zu) for the test to mean anything",
		      log_b.n);
	}
}

CU_TestInfo cc_tests[] = {
    {"cc_mapping", test_cc_mapping},
    {"cc_on_change", test_cc_on_change},
    {"cc_rate_limit", test_cc_rate_limit},
    {"cc_14bit", test_cc_14bit},
    {"cc_config", test_cc_config},
    {"cc_split", test_cc_split},
    {"cc_naive", test_cc_naive},
    {"cc_lost", test_cc_lost},
    CU_TEST_INFO_NULL,
};
