/* SPDX-License-Identifier: ISC */
/*
 * MIDI control-change encoder: see midi_cc.h for the mapping and the rules.
 */
#include "midi_cc.h"

#include <math.h>
#include <stddef.h>
/* The frame scan below has an SSE2 path (the compiler does not vectorise
 * the portable one) and a portable one; PENDULA_CC_PORTABLE selects the
 * portable one on SSE2 machines too, so that the tests run both. */
#if defined(__SSE2__) && !defined(PENDULA_CC_PORTABLE)
#define CC_SCAN_SSE2 1
#include <emmintrin.h>
#endif

#define CC_STATUS            0xB0u
/* The MIDI 1.0 LSB partner of controller cc (0..31) is cc + 32. */
#define CC_LSB_OFFSET        32
#define CC_FIRST_WITHOUT_LSB 32

/* The smallest float not below x (x itself if it is one): for a float v,
 * (double)v >= x exactly when v >= float_ceil(x), and (double)v < x exactly
 * when v < float_ceil(x), so the slices below are kept as floats and the
 * values compared with them float with float. */
static float float_ceil(double x)
{
	float f = (float)x;
	if ((double)f < x)
		f = nextafterf(f, INFINITY);
	return f;
}

/* The output sends its value again at the next chance. */
static void forget(pendula_cc_output *o)
{
	o->last_code = -1;
	o->keep_lo = INFINITY; /* an empty interval: every value is checked */
	o->keep_hi = -INFINITY;
}

/* The values that certainly map to code: the slice of the code, shrunk by a
 * margin far above the rounding error of pendula_cc_code, so that a value
 * inside needs no conversion at all (the common case: a value that moved
 * less than one step).  A value outside, or NaN, goes through
 * pendula_cc_code. */
static void keep_interval(pendula_cc_output *o, int32_t code, double energy_max, double steps)
{
	double lo, hi;
	if (o->map == PENDULA_CC_MAP_ENERGY) {
		lo = code * energy_max / steps;
		hi = (code + 1) * energy_max / steps;
	} else {
		lo = 2.0 * code / steps - 1.0;
		hi = 2.0 * (code + 1) / steps - 1.0;
	}
	const double margin = 1e-9 * (fabs(lo) + fabs(hi) + 1.0);
	o->keep_lo = code == 0 ? -INFINITY : float_ceil(lo + margin);
	o->keep_hi = code == (int32_t)steps - 1 ? INFINITY : float_ceil(hi - margin);
}

void pendula_cc_init(pendula_cc *enc, double sample_rate, int n_outputs)
{
	if (n_outputs < 0)
		n_outputs = 0;
	if (n_outputs > PENDULA_CC_MAX_OUTPUTS)
		n_outputs = PENDULA_CC_MAX_OUTPUTS;
	if (!(sample_rate > 0.0) || !isfinite(sample_rate))
		sample_rate = 48000.0;
	/* 1 ms, rounded up to whole frames: never more than one update per
	 * output per millisecond. */
	const double interval = ceil(sample_rate * 0.001 - 1e-9);
	enc->min_interval = interval < 1.0 ? 1u : interval > 1e9 ? 1000000000u : (uint32_t)interval;
	enc->channel = 0;
	enc->bits14 = false;
	enc->energy_max = 1.0;
	enc->n_outputs = n_outputs;
	for (int i = 0; i < PENDULA_CC_MAX_OUTPUTS; ++i) {
		enc->out[i].cc = -1;
		enc->out[i].map = PENDULA_CC_MAP_ANGLE;
	}
	pendula_cc_reset(enc);
}

void pendula_cc_reset(pendula_cc *enc)
{
	enc->frame = 0;
	for (int i = 0; i < PENDULA_CC_MAX_OUTPUTS; ++i) {
		forget(&enc->out[i]);
		enc->out[i].last_frame = 0;
		enc->out[i].sent = false;
	}
}

void pendula_cc_resend(pendula_cc *enc)
{
	for (int i = 0; i < PENDULA_CC_MAX_OUTPUTS; ++i)
		forget(&enc->out[i]);
}

void pendula_cc_set_output(pendula_cc *enc, int i, int cc, pendula_cc_map map)
{
	if (i < 0 || i >= enc->n_outputs)
		return;
	if (cc < 0 || cc > 127)
		cc = -1;
	pendula_cc_output *o = &enc->out[i];
	if (o->cc != cc || o->map != map)
		forget(o); /* send again; last_frame keeps the rate limit */
	o->cc = cc;
	o->map = map;
}

void pendula_cc_configure(pendula_cc *enc, int channel, bool bits14, double energy_max)
{
	if (channel < 1)
		channel = 1;
	if (channel > 16)
		channel = 16;
	if (!(energy_max > 0.0) || !isfinite(energy_max))
		energy_max = 1.0;
	const uint8_t ch = (uint8_t)(channel - 1);
	const bool changed = ch != enc->channel || bits14 != enc->bits14;
	const bool energy_changed = energy_max != enc->energy_max;
	for (int i = 0; i < enc->n_outputs; ++i)
		if (changed || (energy_changed && enc->out[i].map == PENDULA_CC_MAP_ENERGY))
			forget(&enc->out[i]);
	enc->channel = ch;
	enc->bits14 = bits14;
	enc->energy_max = energy_max;
}

int32_t pendula_cc_code(pendula_cc_map map, double value, double energy_max, bool bits14)
{
	if (value != value)
		return -1;
	double u;
	if (map == PENDULA_CC_MAP_ENERGY)
		u = value / (energy_max > 0.0 ? energy_max : 1.0);
	else
		u = (value + 1.0) * 0.5;
	const double steps = bits14 ? 16384.0 : 128.0;
	const double x = floor(u * steps); /* +-inf clamp below */
	if (!(x > 0.0))
		return 0;
	if (x >= steps - 1.0)
		return (int32_t)steps - 1;
	return (int32_t)x;
}

bool pendula_cc_any_enabled(const pendula_cc *enc)
{
	for (int i = 0; i < enc->n_outputs; ++i)
		if (enc->out[i].cc >= 0)
			return true;
	return false;
}

/* Messages of output i for a value, if it is due; returns how many. */
static unsigned output_frame(pendula_cc *enc, int i, float value, pendula_cc_msg *msgs)
{
	pendula_cc_output *o = &enc->out[i];
	if (o->sent && enc->frame - o->last_frame < enc->min_interval)
		return 0; /* rate limit */
	if (value >= o->keep_lo && value < o->keep_hi)
		return 0; /* same code as last sent */
	const bool pair = enc->bits14 && o->cc < CC_FIRST_WITHOUT_LSB;
	const int32_t code = pendula_cc_code(o->map, value, enc->energy_max, pair);
	if (code == o->last_code) {
		/* A value just outside the shrunk slice that still gives the last
		 * code (0.0, a body at rest, sits exactly on a boundary): the
		 * mapping is monotone, so everything between it and the slice
		 * gives that code too.  Widen the slice, or such a value would
		 * take this path at every frame. */
		if (value < o->keep_lo)
			o->keep_lo = value;
		else if (value >= o->keep_hi)
			o->keep_hi = nextafterf(value, INFINITY);
		return 0;
	}
	if (code < 0)
		return 0;
	keep_interval(o, code, enc->energy_max, pair ? 16384.0 : 128.0);
	o->last_code = code;
	o->last_frame = enc->frame;
	o->sent = true;
	const uint8_t status = (uint8_t)(CC_STATUS | enc->channel);
	if (!pair) {
		msgs[0].bytes[0] = status;
		msgs[0].bytes[1] = (uint8_t)o->cc;
		msgs[0].bytes[2] = (uint8_t)code;
		return 1;
	}
	msgs[0].bytes[0] = status;
	msgs[0].bytes[1] = (uint8_t)o->cc;
	msgs[0].bytes[2] = (uint8_t)(code >> 7);
	msgs[1].bytes[0] = status;
	msgs[1].bytes[1] = (uint8_t)(o->cc + CC_LSB_OFFSET);
	msgs[1].bytes[2] = (uint8_t)(code & 0x7f);
	return 2;
}

unsigned pendula_cc_frame(pendula_cc *enc, const float *values, pendula_cc_msg *msgs)
{
	unsigned n = 0;
	for (int i = 0; i < enc->n_outputs; ++i)
		if (enc->out[i].cc >= 0)
			n += output_frame(enc, i, values[i], msgs + n);
	enc->frame++;
	return n;
}

void pendula_cc_skip(pendula_cc *enc, uint32_t n)
{
	enc->frame += n;
}

/* The first frame >= from (of a chunk whose frame 0 is the absolute frame
 * start) at which output i may send: past its rate limit, and with a value
 * outside [keep_lo, keep_hi) (NaN is outside too).  n if none. */
static uint32_t next_candidate(const pendula_cc_output *o, uint32_t min_interval,
                               const float *signal, uint64_t start, uint32_t from, uint32_t n)
{
	uint32_t f = from;
	if (o->sent) {
		const uint64_t allowed = o->last_frame + min_interval;
		if (allowed >= start + n)
			return n;
		if (allowed > start + f)
			f = (uint32_t)(allowed - start);
	}
	const float lo = o->keep_lo, hi = o->keep_hi;
	/* eight frames at a time while all of them stay inside */
#if defined(CC_SCAN_SSE2)
	const __m128 vlo = _mm_set1_ps(lo), vhi = _mm_set1_ps(hi);
	for (; f + 8 <= n; f += 8) {
		const __m128 a = _mm_loadu_ps(signal + f), b = _mm_loadu_ps(signal + f + 4);
		const __m128 in =
		    _mm_and_ps(_mm_and_ps(_mm_cmpge_ps(a, vlo), _mm_cmplt_ps(a, vhi)),
		               _mm_and_ps(_mm_cmpge_ps(b, vlo), _mm_cmplt_ps(b, vhi)));
		if (_mm_movemask_ps(in) != 0xf)
			break;
	}
#else
	for (; f + 8 <= n; f += 8) {
		int inside = 1;
		for (int j = 0; j < 8; ++j)
			inside &= (signal[f + j] >= lo) & (signal[f + j] < hi);
		if (!inside)
			break;
	}
#endif
	while (f < n && signal[f] >= lo && signal[f] < hi)
		++f;
	return f;
}

void pendula_cc_process(pendula_cc *enc, const float *const *signals, uint32_t n,
                        pendula_cc_emit emit, void *user)
{
	/* The outputs that are on, in output order (the message order). */
	int active[PENDULA_CC_MAX_OUTPUTS];
	int n_active = 0;
	for (int i = 0; i < enc->n_outputs; ++i)
		if (enc->out[i].cc >= 0 && signals[i])
			active[n_active++] = i;
	if (n_active == 0) {
		enc->frame += n;
		return;
	}
	/* Equivalent to visiting every frame and every active output in turn,
	 * but each output jumps straight to its next candidate frame: the first
	 * frame past its rate-limit interval whose value leaves the slice of
	 * the code last sent (a tight scan).  At every other frame the output
	 * could not send anyway.  Same messages, same order, a fraction of the
	 * work. */
	pendula_cc_msg msgs[2];
	const uint64_t start = enc->frame;
	uint32_t cand[PENDULA_CC_MAX_OUTPUTS];
	for (int a = 0; a < n_active; ++a)
		cand[a] = next_candidate(&enc->out[active[a]], enc->min_interval,
		                         signals[active[a]], start, 0, n);
	for (;;) {
		uint32_t f = n;
		for (int a = 0; a < n_active; ++a)
			f = cand[a] < f ? cand[a] : f;
		if (f >= n)
			break;
		enc->frame = start + f;
		for (int a = 0; a < n_active; ++a) {
			if (cand[a] != f)
				continue;
			const int i = active[a];
			const unsigned k = output_frame(enc, i, signals[i][f], msgs);
			for (unsigned m = 0; m < k; ++m)
				if (!emit(user, f, &msgs[m])) {
					forget(&enc->out[i]); /* again at its next chance */
					break;
				}
			cand[a] = next_candidate(&enc->out[i], enc->min_interval, signals[i], start,
			                         f + 1, n);
		}
	}
	enc->frame = start + n;
}
