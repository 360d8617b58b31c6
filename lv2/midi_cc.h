/* SPDX-License-Identifier: ISC */
/*
 * MIDI control-change encoder for the signal outputs (docs/HOSTS.md, "MIDI and
 * tempo ports").
 * Plain C99, no LV2 header: the LV2 glue feeds it the values of each frame
 * and writes the messages it returns into the MIDI output; the unit tests
 * (tests/unit/test_midi_tempo.c) drive it directly.
 *
 * Mapping (one rule for all outputs): the value is normalised to u in [0, 1]
 *   angle   u = (x + 1) / 2      x in [-1, 1)   (wrapped angle / pi)
 *   tip     u = (x + 1) / 2      x in [-1, 1]
 *   energy  u = x / energy_max   x in [0, energy_max], clipped
 * and the code is floor(u N) clamped to 0..N-1, N = 128 (7-bit) or 16384
 * (14-bit).  Every code covers an equal slice of the range; the centre of an
 * angle or tip (x = 0, hanging straight down) is code 64 (8192), the MIDI
 * convention for "centre"; and the MSB of a 14-bit code equals the 7-bit code.
 *
 * 14-bit: MSB on controller cc, LSB on cc + 32, sent as a pair at the same
 * frame (MSB first: many receivers clear the LSB on an MSB).  Only
 * controllers 0..31 have an LSB partner (MIDI 1.0); an output on a
 * controller >= 32 is sent 7-bit even in 14-bit mode.
 *
 * Traffic: an output is sent only when its code differs from the last code
 * sent on it, and at most once per min_interval frames (ceil(1 ms x rate)):
 * one update (one message, or one MSB/LSB pair) per output per millisecond at
 * most.  A change held back by the rate limit goes out at the first frame
 * the limit allows, with the value of that frame, so every message carries
 * exactly the value of the signal output at its own frame.
 *
 * Deterministic: the state is a frame counter and, per output, the last code
 * and frame sent; the messages do not depend on how the frames are split into
 * calls.  After pendula_cc_reset() every enabled output is sent at its first
 * frame (a synth gets the initial value at a transport start).
 */
#ifndef PENDULA_MIDI_CC_H
#define PENDULA_MIDI_CC_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One slot per signal output of the largest plugin: lv2/routing.h asserts
 * it equals PENDULA_MAX_SIGNAL_OUTPUTS (contract/ports.h), which the build
 * checks against the port table. */
#define PENDULA_CC_MAX_OUTPUTS 36
/* Messages one frame can produce: an MSB/LSB pair per output. */
#define PENDULA_CC_MAX_MSGS    (2 * PENDULA_CC_MAX_OUTPUTS)

typedef enum {
	PENDULA_CC_MAP_ANGLE, /* [-1, 1)  -> full range */
	PENDULA_CC_MAP_TIP,   /* [-1, 1]  -> full range */
	PENDULA_CC_MAP_ENERGY /* [0, energy_max] -> full range, clipped */
} pendula_cc_map;

typedef struct {
	uint8_t bytes[3]; /* status 0xB0 | channel, controller, value */
} pendula_cc_msg;

typedef struct {
	int cc; /* controller 0..127; -1: not sent */
	pendula_cc_map map;
	int32_t last_code;      /* last code sent; -1: none since the last reset/change */
	uint64_t last_frame;    /* frame counter at the last send */
	bool sent;              /* sent since the last reset (the rate limit applies) */
	float keep_lo, keep_hi; /* values in [keep_lo, keep_hi) surely give last_code */
} pendula_cc_output;

typedef struct {
	uint32_t min_interval; /* frames between two updates of one output (>= 1) */
	uint8_t channel;       /* 0..15 (MIDI channel 1..16) */
	bool bits14;
	double energy_max;
	uint64_t frame; /* frames since the last reset */
	int n_outputs;
	pendula_cc_output out[PENDULA_CC_MAX_OUTPUTS];
} pendula_cc;

/* n_outputs outputs (at most PENDULA_CC_MAX_OUTPUTS), all off, channel 1,
 * 7-bit, energy_max 1. */
void pendula_cc_init(pendula_cc *enc, double sample_rate, int n_outputs);
/* Frame counter to 0, every output forgets what it sent. */
void pendula_cc_reset(pendula_cc *enc);
/* Every output sends its value again at the next chance (the rate limit
 * still applies): e.g. when the MIDI output gets connected. */
void pendula_cc_resend(pendula_cc *enc);
/* Controller number (-1 or out of 0..127: off) and mapping of output i.  A
 * change of controller makes the output send its value again. */
void pendula_cc_set_output(pendula_cc *enc, int i, int cc, pendula_cc_map map);
/* Channel 1..16 (clamped), 14-bit mode, energy range (> 0; otherwise 1).  A
 * change makes every output send its value again (the codes mean something
 * else now). */
void pendula_cc_configure(pendula_cc *enc, int channel, bool bits14, double energy_max);

/* The code of a value: 0..127, or 0..16383 when bits14; -1 for NaN. */
int32_t pendula_cc_code(pendula_cc_map map, double value, double energy_max, bool bits14);

/* Whether any output is on (if not, pendula_cc_skip() is all a frame needs). */
bool pendula_cc_any_enabled(const pendula_cc *enc);

/* One frame: values[i] is output i's value at this frame (ignored for an
 * output that is off).  Writes the frame's messages to msgs, in output
 * order (MSB before LSB), and returns how many (<= PENDULA_CC_MAX_MSGS).
 * Advances the frame counter by one. */
unsigned pendula_cc_frame(pendula_cc *enc, const float *values, pendula_cc_msg *msgs);

/* n frames in which nothing is sent (the counter moves on). */
void pendula_cc_skip(pendula_cc *enc, uint32_t n);

/* A span of frames: signals[i] points at output i's n values (NULL: the
 * output is treated as off).  Calls emit(user, frame, msg) for each message,
 * frame = offset inside the span (0..n-1), in time order.  Equivalent to n
 * calls of pendula_cc_frame() when every message goes out.
 *
 * emit returns whether the message went out (a host's MIDI buffer may be
 * full).  An update that did not go out whole (a 14-bit pair's LSB is not
 * sent after a lost MSB) is sent again at the output's next chance, at
 * least min_interval frames later, with the value of that frame: the
 * receiver always ends up with the code of the signal. */
typedef bool (*pendula_cc_emit)(void *user, uint32_t frame, const pendula_cc_msg *msg);
void pendula_cc_process(pendula_cc *enc, const float *const *signals, uint32_t n,
                        pendula_cc_emit emit, void *user);

#ifdef __cplusplus
}
#endif
#endif
