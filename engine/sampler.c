/* SPDX-License-Identifier: ISC */
/*
 * The sampler: the single-precision outputs of a block (pendula_engine_run
 * and its variants), channel by channel over the frames of each step, from
 * the step's interpolants (interpolant.c), with the steps taken between
 * them (step.c) and the events detected on the way (events.c).  This is the
 * per-frame path: its loops run several frames per SIMD instruction.  The
 * one-frame entry point, pendula_engine_tick, lives here too: it drives the
 * same steps and events frame by frame.
 */
#include "engine_internal.h"

#include <math.h>
#include <string.h>

/* The output loops (write_velocity and those after pendula_engine_tick)
 * run 8 frames per instruction where the CPU has AVX2, 4 with the baseline
 * SSE2 (pmath.h, PENDULA_SIMD_CLONES): the output bits do not depend on
 * the path. */
#define PENDULA_OUTPUT_CLONES PENDULA_SIMD_CLONES

/* The per-sample expressions of the output writers: their loops and
 * write_one (one frame) use the same ones, so that a frame's value has the
 * same bits either way (single precision, no contraction). */
static inline float clamp_output(float v, float lo, float hi)
{
	v = v < lo ? lo : v;
	v = v > hi ? hi : v;
	return pendula_flush_output(v);
}

/* A range to clamp to, read as values the compiler cannot fold: with
 * constants for lo and hi, gcc turns clamp_output into blends of several
 * comparisons per sample, where for values it uses one min and one max
 * (the results are the same). */
typedef struct {
	float lo, hi;
} out_range;

static inline out_range range_unfolded(float lo, float hi)
{
	volatile float r[2] = {lo, hi};
	const out_range range = {r[0], r[1]};
	return range;
}

static inline float frame_u_float(float u0, float du, int32_t i)
{
	return u0 + (float)i * du;
}

static inline float cubic_at(const float *c, float u)
{
	return c[0] + u * (c[1] + u * (c[2] + u * c[3]));
}

/* c0..c3 in c, c4 and c5 in hi (an angle row and its fhigh) */
static inline float quintic_at(const float *c, const float *hi, float u)
{
	return c[0] + u * (c[1] + u * (c[2] + u * (c[3] + u * (hi[0] + u * hi[1]))));
}

static inline float quartic_at(const float *q, float u)
{
	return q[0] + u * (q[1] + u * (q[2] + u * (q[3] + u * q[4])));
}

static inline float quadratic_at(const float *d, float u)
{
	return d[0] + u * (d[1] + u * d[2]);
}

/* A direction's component, which a step that failed even at the shortest
 * length leaves far from the unit circle: bounded, so that the products of
 * turn_rate_at stay finite and their difference is no NaN (issue 38). */
static inline float direction_bounded(float v, out_range bound)
{
	v = v < bound.lo ? bound.lo : v;
	return v > bound.hi ? bound.hi : v;
}

/* The bound of direction_bounded, [-2, 2]. */
static inline out_range direction_bound(void)
{
	return range_unfolded(-2.0f, 2.0f);
}

/* v, or 0 if |v| < 2^-120, decided on its bits: an integer comparison
 * takes no floating-point operand, so a subnormal v raises nothing. */
static inline float flush_product(float v)
{
	uint32_t bits;
	memcpy(&bits, &v, sizeof bits);
	return (bits & 0x7fffffffu) < 0x03800000u ? 0.0f : v;
}

/* a b rounded to single precision as a float product would be (the
 * double product of two floats is exact), or 0 below 2^-120: without a
 * subnormal result. */
static inline float product_flushed(float a, float b)
{
	const double p = (double)a * (double)b;
	/* the flush on the bits: a select the compiler may not move after
	 * the conversion, which would then see the tiny value */
	uint64_t bits;
	memcpy(&bits, &p, sizeof bits);
	bits &= (bits & 0x7fffffffffffffffu) < 0x3870000000000000u ? 0u : ~(uint64_t)0;
	double q;
	memcpy(&q, &bits, sizeof q);
	return (float)q;
}

/* The rate of turn of direction (x, y): (x y' - y x') scale, of bounded
 * components (a failed step's are not).  A link that
 * is nearly still has one of x, y and the other's slope near zero: their
 * product may be subnormal (issue 38).  Products and difference below
 * 2^-120 are 0 before they are used, which changes a result only where
 * it is below 2^-95 scale, far below the output's flush to zero. */
static inline float turn_rate_at(const float *x, const float *y, const float *dx, const float *dy,
                                 float scale, out_range bound, float u)
{
	const float xv = direction_bounded(cubic_at(x, u), bound),
	            yv = direction_bounded(cubic_at(y, u), bound);
	const float xd = quadratic_at(dx, u), yd = quadratic_at(dy, u);
	return flush_product(product_flushed(xv, yd) - product_flushed(yv, xd)) * scale;
}

/* Velocity output k of an angle model: the slope of the angle's quintic
 * (in units of pi), as a quartic q in u. */
static void angle_rate_quartic(const pendula_engine *e, int k, float *q)
{
	const float *c = e->fpoly[PENDULA_CH_THETA + k], *hi = e->fhigh[k];
	const double scale = PENDULA_PI * e->sys.speed_ref[k] / e->h;
	q[0] = velocity_coef(c[1] * scale);
	q[1] = velocity_coef(2.0 * c[2] * scale);
	q[2] = velocity_coef(3.0 * c[3] * scale);
	q[3] = velocity_coef(4.0 * hi[0] * scale);
	q[4] = velocity_coef(5.0 * hi[1] * scale);
}

static inline double abs_sum(const float *c, int n)
{
	double s = 0.0;
	for (int i = 0; i < n; ++i)
		s += fabs((double)c[i]);
	return s;
}

/* Velocity output k of a direction model: the slopes of its direction's
 * rows, and the scale of turn_rate_at.  A link that hangs (nearly) still
 * has x, y and their slopes near 0, and their products would be
 * subnormal (issue 38): when the step's bound on the rate is below what
 * the output flushes to zero anyway (half of it, for the single-precision
 * rounding), slopes and scale are 0, which writes the same zeros. */
static float turn_rate_slopes(const pendula_engine *e, int k, float *dx, float *dy)
{
	const float *x = e->fpoly[PENDULA_CH_X + k], *y = e->fpoly[PENDULA_CH_Y + k];
	cubic_slope(x, 1.0, dx);
	cubic_slope(y, 1.0, dy);
	const double scale = e->sys.speed_ref[k] / e->h;
	const double bound =
	    (abs_sum(x, 4) * abs_sum(dy, 3) + abs_sum(y, 4) * abs_sum(dx, 3)) * fabs(scale);
	if (!(bound < 0.5 * (double)PENDULA_OUTPUT_FLUSH))
		return (float)scale;
	for (int i = 0; i < 3; ++i)
		dx[i] = dy[i] = 0.0f;
	return 0.0f;
}

/* Frames [idx, idx + m) of velocity output k, clamped to [-lim, lim]
 * (1, or PENDULA_VELOCITY_LEVEL_LIM for its level). */
PENDULA_OUTPUT_CLONES static void write_velocity(const pendula_engine *e, int k,
                                                 float *restrict out, const float *restrict u,
                                                 int32_t m, float lim)
{
	float d[5];
	const out_range r = range_unfolded(-lim, lim);
	if (e->sys.ops->velocity_outputs == PENDULA_VEL_ANGLE) {
		angle_rate_quartic(e, k, d);
		for (int32_t i = 0; i < m; ++i)
			out[i] = clamp_output(quartic_at(d, u[i]), r.lo, r.hi);
		return;
	}
	if (velocity_quadratic(e, k, d)) {
		for (int32_t i = 0; i < m; ++i)
			out[i] = clamp_output(quadratic_at(d, u[i]), r.lo, r.hi);
		return;
	}
	const float *x = e->fpoly[PENDULA_CH_X + k], *y = e->fpoly[PENDULA_CH_Y + k];
	float dx[3], dy[3];
	const float scale = turn_rate_slopes(e, k, dx, dy);
	const out_range bound = direction_bound();
	for (int32_t i = 0; i < m; ++i)
		out[i] = clamp_output(turn_rate_at(x, y, dx, dy, scale, bound, u[i]), r.lo, r.hi);
}

/* Velocity values (clamped to [-PENDULA_VELOCITY_LEVEL_LIM,
 * PENDULA_VELOCITY_LEVEL_LIM]) to their levels, in place. */
PENDULA_OUTPUT_CLONES static void velocity_levels(float *restrict out, int32_t m)
{
	for (int32_t i = 0; i < m; ++i)
		out[i] = pendula_velocity_level_of(out[i]);
}

/* theta / pi wrapped to [-1, 1), as the angle outputs want it, from the
 * interpolant already in units of pi.  Within a step an angle usually moves
 * by far less than pi (the step size keeps h |w| small) and the step starts
 * wrapped, so one conditional correction suffices; the loop stays
 * branch-free and vectorisable. */
static inline float angle_out(float v)
{
	v = v < -1.0f ? v + 2.0f : v;
	v = v >= 1.0f ? v - 2.0f : v; /* docs/MODELS.md: a value that rounds to 1 is -1 */
	return pendula_flush_output(v);
}

/* The same for a step that spans more than a turn (a state the step size
 * cannot follow, e.g. at the work cap). */
static inline float angle_out_any(float v)
{
	v -= 2.0f * floorf((v + 1.0f) * 0.5f);
	v = v < 1.0f && v >= -1.0f ? v : -1.0f;
	return pendula_flush_output(v);
}

/* Frames left in the current step from the current one, at most limit. */
static inline uint32_t frames_in_step(const pendula_engine *e, uint32_t limit)
{
	if (!(e->du > 0.0))
		return limit < STILL_FRAMES_PER_PASS ? limit : STILL_FRAMES_PER_PASS;
	uint32_t m = 0;
	/* first estimate, then exact by the frame_u rule */
	double est = (1.0 - e->u0) / e->du - (double)e->idx;
	if (est > 1.0)
		m = est >= (double)limit ? limit : (uint32_t)est - 1u;
	while (m > 0 && e->u0 + (double)(e->idx + m - 1) * e->du >= 1.0)
		--m;
	while (m < limit && e->u0 + (double)(e->idx + m) * e->du < 1.0)
		++m;
	return m;
}

/* Frame indices within a step stay far below 2^31 (a step lasts at most
 * MAX_STEP_AUDIO seconds of audio; while time stands the index stays 0 and
 * a pass is at most STILL_FRAMES_PER_PASS frames), so int32 arithmetic is
 * exact.
 * The outputs are single precision: evaluating the interpolant in single
 * precision costs at most an ulp or two of the output and runs four frames
 * per SIMD instruction.
 *
 * An angle output: its quintic in u (c0..c3, then c4, c5 in hi), wrapped
 * into [-1, 1) as e->wrap says (WRAP_NONE: it stays inside). */
PENDULA_OUTPUT_CLONES static void write_quintic(float *restrict out, const float *restrict c,
                                                const float *restrict hi, int wrap,
                                                const float *restrict u, int32_t m)
{
	const float q[4] = {c[0], c[1], c[2], c[3]}, q45[2] = {hi[0], hi[1]};
	if (wrap == WRAP_ONCE) {
		for (int32_t i = 0; i < m; ++i)
			out[i] = angle_out(quintic_at(q, q45, u[i]));
	} else if (wrap == WRAP_ANY) {
		for (int32_t i = 0; i < m; ++i)
			out[i] = angle_out_any(quintic_at(q, q45, u[i]));
	} else {
		/* WRAP_NONE: interpolant.c chose it because c0 -+ (|c1| + ...
		 * + |c5|) stays inside (-1 + 1e-5, 1 - 1e-5) (|u| <= 1), a
		 * margin far above the rounding of this evaluation: no value
		 * can leave (-1, 1), and a clamp (which cost as much as the
		 * quintic) would change nothing. */
		for (int32_t i = 0; i < m; ++i)
			out[i] = pendula_flush_output(quintic_at(q, q45, u[i]));
	}
}

/* Any other channel, clamped to its range [lo, hi] (a cubic through two
 * values in range can overshoot it). */
PENDULA_OUTPUT_CLONES static void write_plain(float *restrict out, const float *restrict c,
                                              const float *restrict u, int32_t m, float lo,
                                              float hi)
{
	const float q[4] = {c[0], c[1], c[2], c[3]};
	for (int32_t i = 0; i < m; ++i)
		out[i] = clamp_output(cubic_at(q, u[i]), lo, hi);
}

/* The energy level of the energy channel's interpolant, clamped as
 * write_plain clamps the energy. */
PENDULA_OUTPUT_CLONES static void write_energy_level(float *restrict out, const float *restrict c,
                                                     const float *restrict u, int32_t m)
{
	const float q[4] = {c[0], c[1], c[2], c[3]};
	const out_range r = range_unfolded(0.0f, PENDULA_ENERGY_OUTPUT_MAX);
	for (int32_t i = 0; i < m; ++i)
		out[i] = pendula_energy_level_of(clamp_output(cubic_at(q, u[i]), r.lo, r.hi));
}

/* u of frames [idx, idx + m) of the step, once for every channel. */
PENDULA_OUTPUT_CLONES static void frame_us(float *restrict u, float u0, float du, int32_t idx,
                                           int32_t m)
{
	for (int32_t i = 0; i < m; ++i)
		u[i] = frame_u_float(u0, du, idx + i);
}

/* The channels of an outputs struct that have a buffer, in the order they
 * are written: the velocity outputs, the interpolated ones, the energy
 * level, the velocity levels (outputs may share a buffer: the last written
 * wins). */
typedef struct {
	int n;
	unsigned char ch[2 * PENDULA_MAX_BODIES + PENDULA_N_POLY_CHANNELS + 1];
} span_list;

/* (Without branches: which pointers are set differs from call to call and
 * channel to channel, and mispredicted branches here cost more than the
 * whole scan.  Each slot is written before the count passes it.) */
static void span_list_of(const pendula_outputs *out, span_list *list)
{
	int n = 0;
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		list->ch[n] = (unsigned char)(PENDULA_CH_W + k);
		n += out->ch[PENDULA_CH_W + k] != NULL;
	}
	for (int ch = 0; ch < PENDULA_N_POLY_CHANNELS; ++ch) {
		list->ch[n] = (unsigned char)ch;
		n += out->ch[ch] != NULL;
	}
	list->ch[n] = (unsigned char)PENDULA_CH_ENERGY_LEVEL;
	n += out->ch[PENDULA_CH_ENERGY_LEVEL] != NULL;
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		list->ch[n] = (unsigned char)(PENDULA_CH_W_LEVEL + k);
		n += out->ch[PENDULA_CH_W_LEVEL + k] != NULL;
	}
	list->n = n;
}

/* The range a channel without wrapping is clamped to (docs/MODELS.md): the
 * energy [0, PENDULA_ENERGY_OUTPUT_MAX], every other [-1, 1]. */
static inline float plain_lo(int ch)
{
	return ch == PENDULA_CH_ENERGY ? 0.0f : -1.0f;
}

static inline float plain_hi(int ch)
{
	return ch == PENDULA_CH_ENERGY ? PENDULA_ENERGY_OUTPUT_MAX : 1.0f;
}

/* One frame at u into the buffers of out listed in list (at offset `done`):
 * the writers' per-sample expressions without their loops and their SIMD
 * dispatch (the last values of outputs written nowhere else, a handful per
 * run() call). */
static void write_one(const pendula_engine *e, const pendula_outputs *out, const span_list *list,
                      uint32_t done, float u)
{
	for (int i = 0; i < list->n; ++i) {
		const int ch = list->ch[i];
		float *buf = out->ch[ch] + done;
		if (ch == PENDULA_CH_ENERGY_LEVEL) {
			const float *c = e->fpoly[PENDULA_CH_ENERGY];
			*buf = pendula_energy_level_of(clamp_output(cubic_at(c, u),
			                                            plain_lo(PENDULA_CH_ENERGY),
			                                            plain_hi(PENDULA_CH_ENERGY)));
			continue;
		}
		if (ch >= PENDULA_CH_W) {
			/* (the pulses are never listed) */
			const int level = ch >= PENDULA_CH_W_LEVEL;
			const int k = ch - (level ? PENDULA_CH_W_LEVEL : PENDULA_CH_W);
			float d[5], v;
			if (e->sys.ops->velocity_outputs == PENDULA_VEL_ANGLE) {
				angle_rate_quartic(e, k, d);
				v = quartic_at(d, u);
			} else if (velocity_quadratic(e, k, d)) {
				v = quadratic_at(d, u);
			} else {
				float dx[3], dy[3];
				const float scale = turn_rate_slopes(e, k, dx, dy);
				v = turn_rate_at(e->fpoly[PENDULA_CH_X + k],
				                 e->fpoly[PENDULA_CH_Y + k], dx, dy, scale,
				                 direction_bound(), u);
			}
			*buf =
			    level ? pendula_velocity_level_of(clamp_output(
			                v, -PENDULA_VELOCITY_LEVEL_LIM, PENDULA_VELOCITY_LEVEL_LIM))
			          : clamp_output(v, -1.0f, 1.0f);
			continue;
		}
		const int k = ch - PENDULA_CH_THETA;
		if (k >= 0 && k < PENDULA_MAX_BODIES) {
			const float v = quintic_at(e->fpoly[ch], e->fhigh[k], u);
			*buf = e->wrap[k] == WRAP_ONCE  ? angle_out(v)
			       : e->wrap[k] == WRAP_ANY ? angle_out_any(v)
			                                : pendula_flush_output(v);
		} else {
			*buf = clamp_output(cubic_at(e->fpoly[ch], u), plain_lo(ch), plain_hi(ch));
		}
	}
}

/* Frames a span's channels are written in at a time. */
#define SPAN_TILE 256

/* Frames [idx, idx + m) of the step into the buffers of out listed in list
 * (at offset `done`).  m = 1 gives the value of one frame bit for bit as the
 * span would: a frame's value depends only on its index in the step. */
static void write_span(const pendula_engine *e, const pendula_outputs *out, const span_list *list,
                       uint32_t done, int32_t idx, int32_t m)
{
	const float u0 = (float)e->u0, du = (float)e->du;
	if (m == 1) {
		write_one(e, out, list, done, frame_u_float(u0, du, idx));
		return;
	}
	/* Tile by tile: each frame's u once for every channel, and the tile's
	 * u and outputs stay in the first-level cache.  Outputs sharing a
	 * buffer still end with the last channel's value at every frame. */
	float u[SPAN_TILE];
	for (int32_t t = 0; t < m; t += SPAN_TILE) {
		const int32_t n = m - t < SPAN_TILE ? m - t : SPAN_TILE;
		frame_us(u, u0, du, idx + t, n);
		for (int i = 0; i < list->n; ++i) {
			const int ch = list->ch[i];
			float *buf = out->ch[ch] + done + (uint32_t)t;
			if (ch == PENDULA_CH_ENERGY_LEVEL) {
				write_energy_level(buf, e->fpoly[PENDULA_CH_ENERGY], u, n);
				continue;
			}
			if (ch >= PENDULA_CH_W_LEVEL) {
				write_velocity(e, ch - PENDULA_CH_W_LEVEL, buf, u, n,
				               PENDULA_VELOCITY_LEVEL_LIM);
				velocity_levels(buf, n);
				continue;
			}
			if (ch >= PENDULA_CH_W) {
				write_velocity(e, ch - PENDULA_CH_W, buf, u, n, 1.0f);
				continue;
			}
			const int k = ch - PENDULA_CH_THETA;
			if (k >= 0 && k < PENDULA_MAX_BODIES)
				write_quintic(buf, e->fpoly[ch], e->fhigh[k], e->wrap[k], u, n);
			else
				write_plain(buf, e->fpoly[ch], u, n, plain_lo(ch), plain_hi(ch));
		}
	}
}

/* One frame in double precision, for the tests, the UI and the tools: the
 * frame, its events (for their bookkeeping only), then the steps it uses
 * up. */
void pendula_engine_tick(pendula_engine *e, pendula_frame *f)
{
	if (e->phase_request[0] || e->phase_request[1])
		engine_apply_phase_requests(e);
	engine_fill_frame(e, f);
	engine_detect_events(e, frame_u(e), 0, NULL, NULL);
	e->last = *f;
	e->last_lazy = 0;
	engine_drive_take(e, 0, 1);
	e->drive_in = NULL; /* (valid for one call) */
	frames_done(e, 1);
	e->stats.frames++;
	earn(e, 1);
	if (frame_u(e) >= 1.0)
		engine_steps_for_frame(e);
}

void pendula_engine_run(pendula_engine *e, uint32_t n_frames, const pendula_outputs *out)
{
	pendula_engine_run_events_last(e, n_frames, out, NULL, NULL, NULL);
}

void pendula_engine_run_events(pendula_engine *e, uint32_t n_frames, const pendula_outputs *out,
                               pendula_event_fn on_event, void *user)
{
	pendula_engine_run_events_last(e, n_frames, out, NULL, on_event, user);
}

void pendula_engine_run_events_last(pendula_engine *e, uint32_t n_frames,
                                    const pendula_outputs *out, const pendula_outputs *last,
                                    pendula_event_fn on_event, void *user)
{
	if (n_frames == 0) {
		e->drive_in = NULL;
		return;
	}
	if (e->phase_request[0] || e->phase_request[1])
		engine_apply_phase_requests(e);
	if (!on_event) {
		e->event_region = 0; /* not followed: start afresh when asked */
		e->event_armed = 0;
		e->events_settled = 0;
	}
	/* This call's last frame replaces the one noted before: the steps
	 * taken before it need not evaluate that one (materialize_last). */
	e->last_lazy = 0;
	span_list list, last_list;
	span_list_of(out, &list);
	last_list.n = 0;
	if (last)
		span_list_of(last, &last_list);
	uint32_t done = 0;
	while (done < n_frames) {
		const uint32_t m = frames_in_step(e, n_frames - done);
		if (m > 0) {
			/* Channel by channel over the frames of this step. */
			const int32_t idx = (int32_t)e->idx, mm = (int32_t)m;
			if (on_event && !e->events_settled) {
				/* If no class can change from this frame to the step's
				 * end, only this frame can hold an event (against the
				 * frame before it), and the rest of the step none. */
				const double ua = e->u0 + (double)idx * e->du;
				if (engine_events_fixed(e, ua, 1.0)) {
					engine_detect_events(e, ua, done, on_event, user);
					e->events_settled = 1;
				} else {
					engine_detect_range(e, 0, m - 1, done, on_event, user);
				}
			}
			write_span(e, out, &list, done, idx, mm);
			/* their drive samples, for the steps that follow them */
			engine_drive_take(e, done, m);
			done += m;
			frames_done(e, m);
			e->stats.frames += m;
			earn(e, m);
			if (done == n_frames) {
				if (last) /* the last frame's values, where asked */
					write_span(e, last, &last_list, 0, idx + mm - 1, 1);
				/* The last frame of the block, for control outputs:
				 * evaluated only if someone asks (see last_lazy). */
				e->last_u = e->u0 + (double)(int32_t)(e->idx - 1) * e->du;
				e->last_lazy = 1;
			}
		}
		if (frame_u(e) >= 1.0)
			engine_steps_for_frame(e);
	}
	e->drive_in = NULL; /* (valid for one call) */
}
