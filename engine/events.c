/* SPDX-License-Identifier: ISC */
/*
 * Events (pendula_engine.h): each body's event angle is classified per
 * frame by its sign and by its half (upper: |angle| > pi / 2).  Between two
 * frames the angle moves far less than pi / 2, so a change of sign in the
 * upper half is a crossing of +-pi (a flip), in the lower half a crossing of
 * 0 (a swing).  Only the last frame's classes are kept (two bits per body),
 * so the result does not depend on how blocks split the frames.
 *
 * A crossing counts only if the body has been clear of the dead bands
 * (EVENT_DEADBAND) since its last event: a body at rest sits on a line
 * where round-off flips the sign frame after frame (docs/GUIDE.md,
 * "Events").
 */
#include "engine_internal.h"

#include <math.h>
#include <string.h>

#define EVENT_VALID 0x8000u

/* How far (rad; the front view: in x) a body must have been from the
 * lines it crosses (0 and the top) since its last event for its next
 * crossing to count: a damped body decaying to rest crosses 0 again and
 * again with amplitudes far below hearing, and at rest round-off (1e-17 ..
 * 1e-14) changes its sign frame after frame.  The crossing itself is still
 * taken at the frame where the sign changes, so the events of any motion
 * wider than the band keep their frames. */
#define EVENT_DEADBAND 1e-4

static int event_bodies(const pendula_engine *e)
{
	if (e->sys.ops->velocity_outputs == PENDULA_VEL_POSITION)
		return 1;
	return e->sys.n < PENDULA_MAX_BODIES ? e->sys.n : PENDULA_MAX_BODIES;
}

/* Bit 0: the angle is >= 0; bit 1: it is in the upper half; bit 2: it
 * is clear of the dead bands (EVENT_DEADBAND). */
static unsigned event_class(const pendula_engine *e, int k, double u)
{
	const int rule = e->sys.ops->velocity_outputs;
	if (rule == PENDULA_VEL_ANGLE) {
		const double th = pendula_wrap_angle(qpoly_value(e->qpoly[k], u));
		const double a = fabs(th);
		return (th >= 0.0 ? 1u : 0u) | (a > 0.5 * PENDULA_PI ? 2u : 0u) |
		       (a > EVENT_DEADBAND && a < PENDULA_PI - EVENT_DEADBAND ? 4u : 0u);
	}
	/* the front view: atan2(x, -y) has the sign of x, the upper half y > 0 */
	const double x = fpoly_eval(e->fpoly[PENDULA_CH_X + k], u);
	const double y = fpoly_eval(e->fpoly[PENDULA_CH_Y + k], u);
	/* (a motion without a top, the bead on its floor: swings only) */
	return (x >= 0.0 ? 1u : 0u) | (y > 0.0 && !e->sys.events_no_top ? 2u : 0u) |
	       (fabs(x) > EVENT_DEADBAND ? 4u : 0u);
}

/* |velocity output k| at u (unclamped), for the event's speed. */
static double velocity_at(const pendula_engine *e, int k, double u)
{
	pendula_frame f;
	memset(&f, 0, sizeof(f));
	if (e->sys.ops->velocity_outputs == PENDULA_VEL_ANGLE) {
		f.omega[k] = qpoly_slope(e->qpoly[k], u) / e->h;
	}
	engine_frame_velocities(e, u, &f);
	return fabs((double)f.w[k]);
}

/* Where the motion stands at body k's event, in [0, 1] (docs/GUIDE.md,
 * "Notes in a scale"): the event pins the body's own event angle (0 or
 * +-pi), so a planar model reads the other bodies, (1 + the mean of their
 * sin theta_j) / 2, how far they lean left or right (0.5 with one body);
 * a 3-D model reads the coordinate the front-view crossing leaves free,
 * the depth of link k's direction or of the bead, (1 + z) / 2. */
static double position_at(const pendula_engine *e, int k, double u)
{
	double x;
	if (e->sys.ops->velocity_outputs == PENDULA_VEL_ANGLE) {
		const int n = event_bodies(e);
		double sum = 0.0;
		for (int j = 0; j < n; ++j)
			if (j != k)
				sum += sin(qpoly_value(e->qpoly[j], u));
		x = n > 1 ? sum / (n - 1) : 0.0;
	} else {
		x = fpoly_live(e, PENDULA_CH_Z + k, u);
	}
	const double p = 0.5 * (1.0 + x);
	return p > 0.0 ? (p < 1.0 ? p : 1.0) : 0.0; /* (NaN: 0) */
}

/* Whether no body's class can change for u in [ua, ub] (within one step):
 * then the frames there all have the class of the first, and only the
 * first needs classifying.  Each event coordinate p(u) = sum c_i u^i moves
 * by at most (ub - ua) sum i |c_i| over it (|u| <= 1); if that, plus a
 * margin far above the rounding of the evaluation, stays short of every
 * class boundary (the angle: 0, +-pi/2, +-pi and the dead bands' edges;
 * the front view: x = 0, x = +-EVENT_DEADBAND, y = 0), the class is
 * fixed, and so is whether the body is clear of the bands.  An exact shortcut: the events and the
 * classes kept are the same as frame by frame. */
int engine_events_fixed(const pendula_engine *e, double ua, double ub)
{
	const double span = ub - ua, margin = 1e-9;
	const int n = event_bodies(e);
	if (!(span >= 0.0) || ua < 0.0 || ub > 1.0)
		return 0;
	for (int k = 0; k < n; ++k) {
		if (e->sys.ops->velocity_outputs == PENDULA_VEL_ANGLE) {
			const double *q = e->qpoly[k];
			const double slope = e->qslope[k];
			const double th = fabs(pendula_wrap_angle(qpoly_value(q, ua)));
			/* distance to 0, pi/2 and pi (a NaN th gives NaN: not fixed) */
			const double to_half = fabs(th - 0.5 * PENDULA_PI),
			             to_top = PENDULA_PI - th;
			const double to_band =
			    fmin(fabs(th - EVENT_DEADBAND), fabs(to_top - EVENT_DEADBAND));
			const double near = th < to_half ? th : to_half;
			const double d = fmin(near < to_top ? near : to_top, to_band);
			if (!(d > span * slope + margin))
				return 0;
			continue;
		}
		for (int axis = 0; axis < 2; ++axis) {
			const float *c = e->fpoly[(axis ? PENDULA_CH_Y : PENDULA_CH_X) + k];
			const double slope = fabs((double)c[1]) + 2.0 * fabs((double)c[2]) +
			                     3.0 * fabs((double)c[3]);
			const double v = fabs(fpoly_eval(c, ua));
			const double d = axis ? v : fmin(v, fabs(v - EVENT_DEADBAND));
			if (!(d > span * slope + margin))
				return 0;
		}
	}
	return 1;
}

/* The events of the frame at u (frame index `frame` of this run() call):
 * reported to on_event when it is not NULL.  The classes and the armed
 * bits follow the same whether or not someone listens, so that the events
 * after a tick() are those after a run(). */
void engine_detect_events(pendula_engine *e, double u, uint32_t frame, pendula_event_fn on_event,
                          void *user)
{
	const int n = event_bodies(e);
	unsigned now = EVENT_VALID;
	for (int k = 0; k < n; ++k) {
		const unsigned full = event_class(e, k, u), c = full & 3u, bit = 1u << k;
		now |= c << (2 * k);
		const unsigned was = (e->event_region >> (2 * k)) & 3u;
		/* a change of side, not a jump too large to tell */
		const int crossed =
		    (e->event_region & EVENT_VALID) && ((was ^ c) & 1u) && !((was ^ c) & 2u);
		const int clear = (full & 4u) != 0, armed = clear || (e->event_armed & bit);
		/* A crossing inside the band uses the arming up; one from clear
		 * of it keeps it (as the frames after it, all clear, would
		 * restore it: the same whether or not they are classified). */
		e->event_armed =
		    (unsigned char)(clear || (armed && !crossed) ? e->event_armed | bit
		                                                 : e->event_armed & ~bit);
		if (!crossed || !armed || !on_event)
			continue; /* no crossing, one within the dead band, or no listener */
		pendula_event ev;
		ev.frame = frame;
		ev.body = k;
		if (c & 2u) { /* over the top: from + pi to - pi is increasing */
			ev.kind = PENDULA_EVENT_FLIP;
			ev.dir = (was & 1u) ? 1 : -1;
		} else {
			ev.kind = PENDULA_EVENT_SWING;
			ev.dir = (c & 1u) ? 1 : -1;
		}
		ev.speed = velocity_at(e, k, u);
		ev.position = position_at(e, k, u);
		on_event(user, &ev);
	}
	e->event_region = (uint16_t)now;
}

/* The events of frames [e->idx + i0, e->idx + i1] of the step (block
 * frames done + i): a range whose classes cannot change (events_fixed)
 * needs only its first frame classified; any other is halved, down to
 * EVENT_LEAF frames, which are classified one by one.  The same events
 * and classes as frame by frame, in frame order, for a handful of
 * classifications per step instead of one per frame; at most about
 * 1.25 per frame whatever the motion (a range that is not fixed costs
 * one check). */
#define EVENT_LEAF 8u
void engine_detect_range(pendula_engine *e, uint32_t i0, uint32_t i1, uint32_t done,
                         pendula_event_fn on_event, void *user)
{
	const double ua = e->u0 + (double)(int32_t)(e->idx + i0) * e->du;
	const double ub = e->u0 + (double)(int32_t)(e->idx + i1) * e->du;
	if (engine_events_fixed(e, ua, ub)) {
		engine_detect_events(e, ua, done + i0, on_event, user);
		return;
	}
	if (i1 - i0 < EVENT_LEAF) {
		for (uint32_t i = i0; i <= i1; ++i)
			engine_detect_events(e, e->u0 + (double)(int32_t)(e->idx + i) * e->du,
			                     done + i, on_event, user);
		return;
	}
	const uint32_t mid = i0 + (i1 - i0) / 2; /* depth at most log2(frames per step) */
	engine_detect_range(e, i0, mid, done, on_event, user);
	engine_detect_range(e, mid + 1, i1, done, on_event, user);
}
