/* SPDX-License-Identifier: ISC */
/*
 * The engine's private header: the audio-rate engine's state (struct
 * pendula_engine), which every file of the engine reads and none outside
 * it, the small evaluations the per-frame paths share (static inline:
 * they are hot), and what each file of the engine offers the others:
 *
 *   instance.c     lifecycle, settings, phase requests, statistics
 *   system.c       the physics API: dispatch to the model (model.h)
 *   step.c         step-size control, the integration step, restart, work cap
 *   feedback.c     the chaos knob's energy feedback force
 *   interpolant.c  the step's interpolants, from its two ends
 *   frame.c        the double-precision frame (last frame, pose)
 *   sampler.c      the outputs of a block (run) and of one frame (tick)
 *   events.c       flip and swing events
 *   motion.c       the motion as bytes (state save, memories)
 *   pluck.c        a kick at the current frame (a MIDI note's pluck)
 *   drive.c        the drive signal: its samples, the pivot acceleration of a step
 *
 * See docs/NUMERICS.md ("How the engine works") for the design in prose.
 *
 * Audio rate: the integrator takes steps of a simulated length h that does
 * not depend on the sample rate (a power-of-two fraction of H_MAX chosen from
 * the stiffness of the current settings and energy), and each audio frame
 * reads a cubic Hermite interpolant of the outputs over the current step
 * (value and time derivative at both ends: C1 in time, 4th-order accurate;
 * an angle model's angles a quintic, interpolant.c).
 */
#ifndef PENDULA_ENGINE_INTERNAL_H
#define PENDULA_ENGINE_INTERNAL_H

#include "model.h"

#include <stdint.h>

/* Coefficients of an angle's interpolant in u (qpoly): a septic Hermite,
 * from value, velocity, acceleration and jerk at both ends. */
#define QPOLY_COEFFS 8
/* Channels with a double-precision cubic (poly): PENDULA_CH_TIP_X on. */
#define N_POLY       (PENDULA_CH_TIP_Z + 1 - PENDULA_CH_TIP_X)
_Static_assert(PENDULA_CH_TIP_Y == PENDULA_CH_TIP_X + 1 &&
                   PENDULA_CH_ENERGY == PENDULA_CH_TIP_X + 2,
               "double-precision channels are consecutive");

/* Work cap: at most MAX_WORK_PER_SECOND work units per second of audio,
 * whatever the sample rate (1500 per frame at 48 kHz, 187.5 at 384 kHz).  A
 * step attempt costs PENDULA_WORK_STEP plus its solver iterations times the
 * model's price of one (pendula_system.work_iteration), so the cap bounds
 * CPU time, not steps: a double-pendulum step at the defaults (14 iterations)
 * costs about 350 units, about 4 such steps per frame at 48 kHz, and a
 * six-link chain's steps about 3 times as much.  Each frame earns its
 * share of the budget; unused budget carries over to later frames, up
 * to PENDULA_BURST_WORK beyond one frame's share.  A step is begun while
 * the credit is positive and paid when its iterations are known (so the
 * credit can dip below zero by one step).  A frame that finds the budget
 * spent reads the end of the current step: simulated time slows down
 * instead of the integrator losing accuracy or stability. */
#define MAX_WORK_PER_SECOND 72000000
/* The pace: besides that budget, a second one, PACE_RATE times as fast,
 * that carries over at most PENDULA_PACE_WORK (pendula_engine.h) beyond one
 * frame's pace; a step is begun only while both are positive, and paid from
 * both.  The budget bounds the work per second of audio and lets unused
 * work carry over (PENDULA_BURST_WORK); the pace bounds how fast the
 * carry-over is spent, so that no run() call spends much more than its own
 * frames' share (docs/NUMERICS.md, "Bounded work").  In integers, like the
 * budget: PACE_RATE is PACE_NUM / PACE_DEN. */
#define PACE_NUM            3
#define PACE_DEN            2
_Static_assert(MAX_WORK_PER_SECOND % PACE_DEN == 0, "the pace per frame is an integer");
#define PACE_PER_FRAME ((int64_t)MAX_WORK_PER_SECOND / PACE_DEN * PACE_NUM)

/* While time stands (du 0: a time_scale of 0 through the engine API; the
 * plugin's is at least 0.01), every frame sits at u0: the frame count
 * within the step stays 0 and a call's frames go in passes of at most
 * this many, so that frame indices stay far below 2^31 (sampler.c). */
#define STILL_FRAMES_PER_PASS 65536u

/* pendula_engine.wrap: how an angle output is wrapped into [-1, 1). */
enum { WRAP_NONE, WRAP_ONCE, WRAP_ANY };

struct pendula_engine {
	double sample_rate;
	/* The latest settings (set_params); in force from the step after
	 * has_pending was set (sys holds what is in force). */
	pendula_params pending;
	/* (the small fields sit together, flags in bytes: the engine stays
	 * about 4 kB) */
	int level; /* h = H_MAX 2^-level */
	unsigned char has_pending, restarting, last_lazy;
	/* The event classes cannot change for the rest of the current step
	 * and event_region holds them: no frame of it needs classifying. */
	unsigned char events_settled;
	unsigned char phase_request[2];
	unsigned char grow_count; /* steps in a row the step rule allowed a longer one */
	unsigned char quiet_run;  /* quiet steps in a row at a raised floor (QUIET_HOLD) */
	/* Angle channels: WRAP_NONE if they stay well inside (-1, 1) over the
	 * whole step (most steps of most angles), WRAP_ONCE if one correction
	 * by 2 suffices, WRAP_ANY if the step spans more than a turn. */
	unsigned char wrap[PENDULA_MAX_BODIES];
	/* Events: where each body's event angle was at the last frame (two
	 * bits per body: positive, upper half; EVENT_VALID: the bits are set).
	 * (Here, after wrap[], it fills what would be padding.) */
	uint16_t event_region;
	/* Rows of fpoly / poly (bit ch) and of qpoly (bit k) that may be
	 * nonzero: the others hold zeros, and interpolant.c and fill_frame_at
	 * skip them (a model fills a few of the channels). */
	uint32_t live;
	uint32_t qlive;
	/* The step level clock_base was taken at (-1: none since the reset);
	 * a short here rather than the step's length as a double beside
	 * clock_base: it fills what would be padding. */
	int16_t clock_level;
	/* Events: bit k, body k has been clear of the dead bands since its
	 * last event (or the start), so that its next crossing counts
	 * (events.c, EVENT_DEADBAND). */
	unsigned char event_armed;
	pendula_system sys;
	pendula_state st; /* state at the end of the current step */
	pendula_predictor pred;
	double qdot[PENDULA_MAX_DOF]; /* velocities at st */
	/* Current step: [t0, t0 + h], read at u in [0, 1]. */
	double h;
	/* Frame i of the step reads the interpolant at u = u0 + i du: a function
	 * of the frame's index within the step only, so the output does not
	 * depend on how blocks split the frames. */
	double u0, du;
	/* Work budget (integers, so that it does not depend on how blocks
	 * split the frames): each frame earns MAX_WORK_PER_SECOND, each work
	 * unit costs credit_unit (the sample rate), the credit holds at most
	 * one frame's share and PENDULA_BURST_WORK units more. */
	int64_t credit, credit_unit;
	/* The pace (PACE_PER_FRAME): the same units, at most one frame's pace
	 * and PENDULA_PACE_WORK units more. */
	int64_t pace;
	/* Lowest level allowed since a solve failed, and good steps since. */
	int floor_level, floor_good;
	uint32_t idx;      /* (here: no padding, the engine stays about 4 kB) */
	uint32_t serial;   /* counts the changes of sys (pendula_engine_settings_serial) */
	double clock_base; /* st.t = clock_base + clock_steps * h (h of clock_level) */
	uint64_t clock_steps;
	double step_phase_x, step_phase_y, step_phase_z; /* forcing phases at the step start */
	/* The drive signal (drive.c): this call's samples (NULL: silence),
	 * the sum and count of the samples since the last step began, and
	 * the mean the steps hold (signal units). */
	const float *drive_in;
	double drive_sum, drive_count, drive_mean;
	/* Hermite interpolant in u of the channels the frames read in double
	 * precision: tip x, y, energy, tip z (the angles use qpoly; the
	 * direction channels are read from fpoly, to keep the engine small). */
	double poly[N_POLY][4];
	float fpoly[PENDULA_N_POLY_CHANNELS]
	           [4]; /* every output channel in output units (angles / pi), for run() */
	/* The angle outputs are quintics in u (value, velocity and acceleration
	 * at both ends): c0..c3 in their fpoly row, c4, c5 here.  (Only the
	 * angle models fill angle rows; the others' rows and these stay 0.) */
	float fhigh[PENDULA_MAX_BODIES][2];
	/* Angles as septic Hermite interpolants (value, velocity,
	 * acceleration and jerk at both ends): the double-precision frames
	 * read theta and omega from these, omega to 7th order in h. */
	double qpoly[PENDULA_MAX_BODIES][QPOLY_COEFFS];
	/* sum_i i |c_i| of each qpoly row: a bound on its slope in u over
	 * the step (events_fixed). */
	double qslope[PENDULA_MAX_BODIES];
	/* The angles' third time derivatives at the step end (angle models;
	 * the septic's end conditions, and the next step's start). */
	double end_jerk[PENDULA_MAX_BODIES];
	/* What a model's measure_jerk measured there for its step rule
	 * (pendula_model_ops.step_bound_at's inv_mass). */
	float inv_mass[PENDULA_MAX_BODIES];
	double end_val[PENDULA_N_CH_ALL], end_der[PENDULA_N_CH_ALL]; /* at the step end */
	double phase_value[2];
	/* The last frame produced.  run() only notes where it was (last_u on the
	 * current step) and pendula_engine_last() evaluates it on demand; it is
	 * written out before the interpolant or the phases change. */
	pendula_frame last;
	double last_u;
	pendula_stats stats;
};

/* Where an interpolant starts: the values, time derivatives and (angles)
 * jerks of every channel at the start of the step (step.c builds it,
 * interpolant.c reads it). */
typedef struct {
	double val[PENDULA_N_CH_ALL], der[PENDULA_N_CH_ALL];
	double jerk[PENDULA_MAX_BODIES];
} step_start;

/* ---- instance.c ---- */
/* Rebases the forcing phases to the requests of pendula_engine_set_phase. */
void engine_apply_phase_requests(pendula_engine *e);

/* ---- step.c ---- */
/* The work credit and pace a new engine starts with. */
int64_t engine_start_credit(const pendula_engine *e);
int64_t engine_start_pace(const pendula_engine *e);
/* Work units paid from the budget and the pace. */
void engine_pay(pendula_engine *e, int64_t work);
/* State = initial, t = 0, and the first step computed, paid from the
 * budget (PENDULA_WORK_RESTART more); without budget or pace left, the
 * motion holds its initial state for a step instead. */
void engine_restart(pendula_engine *e);
/* The steps start again from the state in st at the current frame (a pluck). */
void engine_restart_from_state(pendula_engine *e);
/* The frames' pace in u after a change of h or of the time scale. */
void engine_frame_advance_setup(pendula_engine *e);
/* At the end of the step: the steps that bring the frame back inside one. */
void engine_steps_for_frame(pendula_engine *e);

/* ---- feedback.c ---- */
/* The chaos knob's force over a step: its rate mu, and the kinetic energy
 * at the step's start (on: the knob is on). */
typedef struct {
	double mu, kinetic;
	int on;
} feedback_step;
/* The force for the step that starts at the current state. */
void engine_feedback_begin(const pendula_engine *e, double energy_norm, double power_norm,
                           feedback_step *fb);
/* The force over simulated time tau (a half step, each side of the step). */
void engine_feedback_kick(pendula_engine *e, double mu, double tau);
/* Its power at the step's end, in energy ranges per second. */
double engine_feedback_power_end(const pendula_engine *e, double mu);

/* ---- interpolant.c ---- */
/* The step's interpolants from s to its end (end_val, end_der, end_jerk):
 * energy_slope_end is added to the energy's end slope when feedback is on. */
void engine_build_interpolants(pendula_engine *e, const step_start *s, int feedback,
                               double energy_slope_end);

/* ---- frame.c ---- */
void engine_fill_frame(const pendula_engine *e, pendula_frame *f);
void engine_fill_frame_at(const pendula_engine *e, double u, pendula_frame *f);
/* Writes the lazily noted last frame out before the step changes. */
void engine_materialize_last(pendula_engine *e);
/* The velocity outputs of the frame at u into f->w (reads f->omega). */
void engine_frame_velocities(const pendula_engine *e, double u, pendula_frame *f);

/* ---- events.c ---- */
/* Whether no body's event class can change for u in [ua, ub]. */
int engine_events_fixed(const pendula_engine *e, double ua, double ub);
/* The events of the frame at u (frame index `frame` of this call). */
void engine_detect_events(pendula_engine *e, double u, uint32_t frame, pendula_event_fn on_event,
                          void *user);
/* The events of frames [idx + i0, idx + i1] of the step (block frames done + i). */
void engine_detect_range(pendula_engine *e, uint32_t i0, uint32_t i1, uint32_t done,
                         pendula_event_fn on_event, void *user);

/* ---- drive.c ---- */
/* The samples of frames [from, from + m) of this call into the sum. */
void engine_drive_take(pendula_engine *e, uint32_t from, uint32_t m);
/* Before a step: the drive's pivot acceleration over it; 1 if it changed
 * (the step's start must then be measured again, step.c). */
int engine_drive_begin(pendula_engine *e);
/* A restart: no drive, nothing summed. */
void engine_drive_clear(pendula_engine *e);
/* The model's values and derivatives of every channel at the state (step.c). */
void engine_measure_all(pendula_engine *e, double *val, double *der, double *jerk);
/* An angle model's jerks at the state from its accelerations (step.c). */
void engine_angle_jerk(const pendula_engine *e, const double *accel, double *jerk);

/* ---- shared evaluations (hot: inline) ---- */

/* The current frame's position u in the step. */
static inline double frame_u(const pendula_engine *e)
{
	return e->u0 + (double)(int32_t)e->idx * e->du;
}

/* An angle's interpolant and its derivative in u. */
static inline double qpoly_value(const double *q, double u)
{
	double r = q[QPOLY_COEFFS - 1];
	for (int i = QPOLY_COEFFS - 2; i >= 0; --i)
		r = q[i] + u * r;
	return r;
}

static inline double qpoly_slope(const double *q, double u)
{
	double r = (QPOLY_COEFFS - 1) * q[QPOLY_COEFFS - 1];
	for (int i = QPOLY_COEFFS - 2; i >= 1; --i)
		r = i * q[i] + u * r;
	return r;
}

static inline double poly_eval(const double *c, double u)
{
	return c[0] + u * (c[1] + u * (c[2] + u * c[3]));
}

static inline double fpoly_eval(const float *c, double u)
{
	return c[0] + u * (c[1] + u * (c[2] + u * (double)c[3]));
}

/* The same, +0 for a row of zeros without reading it. */
static inline double fpoly_live(const pendula_engine *e, int ch, double u)
{
	return e->live & ((uint32_t)1 << ch) ? fpoly_eval(e->fpoly[ch], u) : 0.0;
}

/* A velocity output's coefficient (a slope coefficient times speed_ref / h)
 * in single precision, kept within +-1e30 like the coefficients it is made
 * of (output_coef in interpolant.c): a step that failed even at the
 * shortest length has coefficients of 1e30, and times 1/h they overflowed
 * to infinities whose sum at u = 1 was NaN (issue 38). */
static inline float velocity_coef(double x)
{
	return fabs(x) < 1e30 ? (float)x : x > 0.0 ? 1e30f : -1e30f;
}

/* d/du of a cubic, times scale: the quadratic's coefficients. */
static inline void cubic_slope(const float *c, double scale, float *d)
{
	d[0] = velocity_coef(c[1] * scale);
	d[1] = velocity_coef(2.0 * c[2] * scale);
	d[2] = velocity_coef(3.0 * c[3] * scale);
}

/* The output whose quadratic in u is the slope of one interpolant
 * (PENDULA_VEL_POSITION): its coefficients, or 0 if it is not
 * (PENDULA_VEL_DIRECTION: made of two; PENDULA_VEL_ANGLE: write_velocity
 * takes the quartic slope of the angle's quintic). */
static inline int velocity_quadratic(const pendula_engine *e, int k, float *d)
{
	const double inv_h = 1.0 / e->h, ref = e->sys.speed_ref[k];
	switch (e->sys.ops->velocity_outputs) {
	case PENDULA_VEL_POSITION:
		cubic_slope(e->fpoly[k < 3 ? PENDULA_CH_X + PENDULA_MAX_BODIES * k : PENDULA_CH_X],
		            k < 3 ? ref * inv_h : 0.0, d);
		return 1;
	default:
		return 0;
	}
}

/* A budget of m frames' gain up to its cap (the same whatever the blocks:
 * it only grows between steps, and min() commutes with the sum). */
static inline int64_t earn_up_to(int64_t have, uint32_t m, int64_t per_frame, int64_t cap)
{
	const int64_t room = cap - have;
	const int64_t gain = (int64_t)m * per_frame;
	return gain < room ? have + gain : have > cap ? have : cap;
}

/* The budget and the pace of m frames. */
static inline void earn(pendula_engine *e, uint32_t m)
{
	e->credit = earn_up_to(e->credit, m, MAX_WORK_PER_SECOND,
	                       MAX_WORK_PER_SECOND + (int64_t)PENDULA_BURST_WORK * e->credit_unit);
	e->pace = earn_up_to(e->pace, m, PACE_PER_FRAME,
	                     PACE_PER_FRAME + (int64_t)PENDULA_PACE_WORK * e->credit_unit);
}

/* Whether a step may begin: both the budget and the pace are left. */
static inline int can_step(const pendula_engine *e)
{
	return e->credit > 0 && e->pace > 0;
}

/* m frames of the current step done. */
static inline void frames_done(pendula_engine *e, uint32_t m)
{
	if (e->du > 0.0)
		e->idx += m;
}

#endif
