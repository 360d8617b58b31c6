/* SPDX-License-Identifier: ISC */
/*
 * The integration step of the audio-rate engine: the step-size control
 * (a level, h = H_MAX 2^-level, from the model's step rule with hysteresis
 * and a floor after failures), new settings taking effect between steps,
 * the step itself with its retries at half the length (a failed solve, a
 * state no longer finite, an energy that does not add up), the work it
 * costs, and the restart.  Each step ends with its interpolants built
 * (interpolant.c).  The engine's state: engine_internal.h.
 */
#include "engine_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Smallest step level: H_MAX 2^-J_MAX (about 1.8e-15 s). */
#define J_MAX 42

/* Hysteresis before a step is allowed to grow again: at once when the
 * step rule allows GROW_MARGIN times the longer step, or when it has
 * allowed the longer step for GROW_HOLD steps in a row.  The margin alone
 * kept a setting whose step the settings' ceiling sets (a constant step
 * bound, within 1.5 of the level above it) at half its step for good after
 * a single shorter step; the hold lets it grow back, and saves work in
 * every model (docs/BENCHMARKS.md, "Why the constants are what they are"). */
#define GROW_MARGIN 1.5
#define GROW_HOLD   16
_Static_assert(GROW_HOLD <= 255, "pendula_engine.grow_count is a byte");
/* New settings take effect with the next step: a step spans at most this
 * much audio time (s), time_scale x this of simulated time, so a knob acts
 * within about 10 ms at any time scale (at time_scale 0.01 a step of 1/128
 * s would last 0.78 s of audio).  At time_scale 1 the longest step, 1/128
 * s, fits; slower time scales take shorter steps, which costs little, as
 * they need few per second of audio.  In audio seconds, not frames: the
 * trajectory does not depend on the sample rate. */
#define MAX_STEP_AUDIO        (1.0 / 96.0)
/* (The work cap, MAX_WORK_PER_SECOND: engine_internal.h.) */
/* A step whose energy change differs from the work its model reports
 * (pendula_predictor.work) by more than this fraction of the energy range
 * (or of the energy, for a motion spun beyond the range, whose own rounding
 * would otherwise exceed it) is taken again at half the length.  A smooth
 * motion stays one to two orders of magnitude below.  A motion the step
 * rules cannot see coming does not: a light bob between a heavy one and
 * the pivot snaps through the straight knee within a few steps, and steps
 * that span the snap jump by orders of magnitude more (docs/NUMERICS.md,
 * "The energy must add up"; the figures: docs/BENCHMARKS.md, "Why the
 * constants are what they are"). */
#define PENDULA_ENERGY_DEFECT 1e-7
/* PENDULA_BURST_WORK (pendula_engine.h, where the tests' work bound reads
 * it): budget carried over beyond one frame's share (32 frames' share at
 * 48 kHz), and the credit a reset starts with (start_credit).
 * A light bob's knee snap needs a burst of short steps within a few frames
 * (the energy check takes the long ones again), more than a small
 * carry-over covers.  After frames that left budget unused, a block may so
 * spend up to this much beyond its own share; a setting that uses its whole
 * share never has the burst (docs/BENCHMARKS.md, "Why the constants are
 * what they are"). */
/* A step level raised because a step failed (its solve, or the energy
 * check) is kept for this many good steps before it may relax by one
 * level.  Most failures are short events (a light bob's knee snap), after
 * which a long hold only spends budget on needlessly short steps (and
 * brings settings to the work cap: docs/BENCHMARKS.md, "Why the constants
 * are what they are").  A lasting stiffness pays one failed attempt per
 * hold. */
#define FLOOR_HOLD            32
/* ... or sooner, after QUIET_HOLD steps in a row whose energy defect (see
 * PENDULA_ENERGY_DEFECT) was at most QUIET_DEFECT: a step twice as long
 * has a defect at most 2^(p+1) = 128 times larger for the schemes here
 * (order p <= 6), so it would still pass the check 32 times over.  A knee
 * snap's failures push the floor five to seven levels down, where the
 * defects are far below that, and holding each of those levels for
 * FLOOR_HOLD steps (each as dear as a long one) used up the budget's
 * carry-over.  The free motion spreads its energy alike, and the frames
 * between steps through a knee snap err less at worst (the figures, and
 * the thresholds and runs tried: docs/BENCHMARKS.md, "Why the constants are
 * what they are"). */
#define QUIET_DEFECT          (PENDULA_ENERGY_DEFECT / 4096.0)
#define QUIET_HOLD            4
_Static_assert(QUIET_HOLD <= 255, "pendula_engine.quiet_run is a byte");

/* Step level for the current settings and energy, with hysteresis. */
static int choose_level(pendula_engine *e, double energy_norm, const double *qddot)
{
	double h_need = e->sys.ops->step_bound_at(
	    &e->sys, &e->st, e->qdot, qddot, qddot && e->sys.ops->measure_jerk ? e->inv_mass : NULL,
	    energy_norm);
	if (!(h_need > 0.0)) /* NaN or an infinite speed */
		return J_MAX;
	const double ts = pendula_finite_or(e->pending.time_scale, 1.0);
	if (ts > 0.0 && h_need > ts * MAX_STEP_AUDIO)
		h_need = ts * MAX_STEP_AUDIO;
	int need = 0, relaxed = 0;
	double h = PENDULA_H_MAX;
	while (need < J_MAX && h > h_need) {
		++need;
		h *= 0.5;
	}
	h = PENDULA_H_MAX * GROW_MARGIN;
	while (relaxed < J_MAX && h > h_need) {
		++relaxed;
		h *= 0.5;
	}
	/* never longer than the model's scheme allows, nor than a failed
	 * solve left as the floor */
	const int floor = e->floor_level > e->sys.min_level ? e->floor_level : e->sys.min_level;
	if (need < floor)
		need = floor;
	if (relaxed < floor)
		relaxed = floor;
	if (need > e->level) {
		e->grow_count = 0;
		return need; /* shrink at once */
	}
	if (relaxed < e->level) {
		e->grow_count = 0;
		return relaxed; /* grow at once with a margin */
	}
	if (need < e->level) {
		if (++e->grow_count >= GROW_HOLD) {
			e->grow_count = 0;
			return need; /* or when the longer step held */
		}
	} else
		e->grow_count = 0;
	return e->level;
}

static void apply_pending(pendula_engine *e)
{
	if (!e->has_pending)
		return;
	e->has_pending = 0;
	e->serial++;
	const int old_n = e->sys.n;
	pendula_system_init(&e->sys, &e->pending);
	/* Bodies added while running start at their initial angle, at rest. */
	if (e->sys.n > old_n)
		e->sys.ops->initial(&e->sys, &e->pending, old_n, e->st.q, e->qdot);
	for (int k = e->sys.dof; k < PENDULA_MAX_DOF; ++k)
		e->st.q[k] = e->qdot[k] = e->st.p[k] = 0.0;
	if (e->sys.ops->adapt)
		e->sys.ops->adapt(&e->sys, old_n < e->sys.n ? old_n : e->sys.n, e->st.q, e->qdot,
		                  e->st.phase_w);
	/* Keep the coordinates and velocities continuous: p follows the new
	 * mass matrix. */
	e->sys.ops->momentum(&e->sys, e->st.q, e->qdot, e->st.p);
	pendula_predictor_start(&e->pred, e->qdot);
}

void engine_frame_advance_setup(pendula_engine *e)
{
	const double ts = pendula_finite_or(e->pending.time_scale, 1.0);
	const double du = (ts > 0.0 ? ts : 0.0) / e->sample_rate / e->h;
	if (du != e->du) {
		/* keep the current position, change the pace from here on */
		e->u0 = e->u0 + (double)e->idx * e->du;
		e->idx = 0;
		e->du = du;
	}
}

/* An angle model's directions x{k} = sin theta_k, y{k} = -cos theta_k
 * (PENDULA_CH_X, _Y + k), from its angle channels. */
static void angle_directions(const pendula_system *sys, double *val, double *der)
{
	for (int k = 0; k < sys->n && k < PENDULA_MAX_BODIES; ++k) {
		const double th = val[PENDULA_CH_THETA + k], w = der[PENDULA_CH_THETA + k];
		double sn, cs;
		pendula_sincos(th, &sn, &cs);
		val[PENDULA_CH_X + k] = sn;
		der[PENDULA_CH_X + k] = cs * w;
		val[PENDULA_CH_Y + k] = -cs;
		der[PENDULA_CH_Y + k] = sn * w;
	}
}

/* The model's values and derivatives of every channel at the state (the
 * channels it lacks are 0); the angles' jerk too when the model measures
 * it (else angle_jerk computes it), with what its step rule reads there
 * (inv_mass). */
void engine_measure_all(pendula_engine *e, double *val, double *der, double *jerk)
{
	memset(val, 0, sizeof(double) * PENDULA_N_CH_ALL);
	memset(der, 0, sizeof(double) * PENDULA_N_CH_ALL);
	if (e->sys.ops->measure_jerk)
		e->sys.ops->measure_jerk(&e->sys, &e->st, e->qdot, val, der, jerk, e->inv_mass);
	else
		e->sys.ops->measure(&e->sys, &e->st, e->qdot, val, der);
	if (e->sys.ops->velocity_outputs == PENDULA_VEL_ANGLE)
		angle_directions(&e->sys, val, der);
}

/* Whether every value of the two channel arrays is finite.  A double is
 * not finite when its exponent bits are all ones; adding one to the
 * exponent field then carries into the sign bit (and only then): integer
 * ANDs, adds and ORs without a branch, which the compiler vectorises. */
static int all_finite(const double *a, const double *b)
{
	const uint64_t exponent = (uint64_t)0x7ff << 52, one = (uint64_t)1 << 52;
	uint64_t carry = 0;
	for (int ch = 0; ch < PENDULA_N_CH_ALL; ++ch) {
		uint64_t x, y;
		memcpy(&x, &a[ch], sizeof(x));
		memcpy(&y, &b[ch], sizeof(y));
		carry |= ((x & exponent) + one) | ((y & exponent) + one);
	}
	return !(carry >> 63);
}

/* The angles' jerks at the state st (velocities e->qdot, accelerations
 * accel) of an angle model: the time derivative of the model's
 * accelerations along the motion, by a central difference over +-eps
 * (simulated s) of the state moved along (qdot, accel) and of the forcing
 * phases.  Its error, (eps omega)^2 / 6 of the jerk, and its rounding, 1e-16
 * |accel| / eps, are far below what the septic interpolant needs of it.
 * A model with measure_jerk has already put its exact jerk there
 * (engine_measure_all): only the channels past n are cleared and a non-finite
 * value zeroed, as the difference's result is.  Other models: zeros (their
 * angle rows are unused). */
void engine_angle_jerk(const pendula_engine *e, const double *accel, double *jerk)
{
	const pendula_system *sys = &e->sys;
	if (sys->ops->measure_jerk && sys->ops->velocity_outputs == PENDULA_VEL_ANGLE) {
		/* measured with the state (engine_measure_all) */
		for (int k = 0; k < PENDULA_MAX_BODIES; ++k)
			jerk[k] = k < sys->n && isfinite(jerk[k]) ? jerk[k] : 0.0;
		return;
	}
	memset(jerk, 0, sizeof(double) * PENDULA_MAX_BODIES);
	if (sys->ops->velocity_outputs != PENDULA_VEL_ANGLE)
		return;
	const double eps = 0x1p-17;
	const int n = sys->n;
	double qa[PENDULA_MAX_DOF] = {0}, wa[PENDULA_MAX_DOF] = {0};
	double qb[PENDULA_MAX_DOF] = {0}, wb[PENDULA_MAX_DOF] = {0};
	double aa[PENDULA_MAX_DOF] = {0}, ab[PENDULA_MAX_DOF] = {0};
	for (int k = 0; k < n; ++k) {
		qa[k] = e->st.q[k] + eps * e->qdot[k];
		wa[k] = e->qdot[k] + eps * accel[k];
		qb[k] = e->st.q[k] - eps * e->qdot[k];
		wb[k] = e->qdot[k] - eps * accel[k];
	}
	const double dx = eps * sys->force.omega_x, dy = eps * sys->force.omega_y;
	sys->ops->accel(sys, qa, wa, e->st.phase_x + dx, e->st.phase_y + dy, aa);
	sys->ops->accel(sys, qb, wb, e->st.phase_x - dx, e->st.phase_y - dy, ab);
	for (int k = 0; k < n; ++k) {
		const double j = (aa[k] - ab[k]) * (0.5 / eps);
		jerk[k] = isfinite(j) ? j : 0.0;
	}
}

/* Bodies came or went: the channels that depend on which bodies there are
 * (the directions of those that came or went, the tip, the energy and its
 * range) start from the state as the model measures it now; blended over
 * the step from the old system's, a new body's direction was no unit
 * vector for 10 ms and a one-link chain's tip was not its link's end.
 * (engine_measure_all's inv_mass is the step rule's, of the end of the last step:
 * kept.) */
static void start_changed_bodies(pendula_engine *e, step_start *s, int n_before)
{
	const int n = e->sys.n;
	double val[PENDULA_N_CH_ALL], der[PENDULA_N_CH_ALL], jerk[PENDULA_MAX_BODIES];
	float inv_mass[PENDULA_MAX_BODIES];
	memcpy(inv_mass, e->inv_mass, sizeof(inv_mass));
	engine_measure_all(e, val, der, jerk);
	memcpy(e->inv_mass, inv_mass, sizeof(inv_mass));
	const int lo = n < n_before ? n : n_before, hi = n < n_before ? n_before : n;
	for (int k = lo; k < hi && k < PENDULA_MAX_BODIES; ++k)
		for (int c = PENDULA_CH_X + k; c < PENDULA_CH_W; c += PENDULA_MAX_BODIES) {
			s->val[c] = val[c];
			s->der[c] = der[c];
		}
	static const int whole[] = {PENDULA_CH_TIP_X, PENDULA_CH_TIP_Y, PENDULA_CH_TIP_Z,
	                            PENDULA_CH_ENERGY};
	for (size_t i = 0; i < sizeof(whole) / sizeof(whole[0]); ++i) {
		s->val[whole[i]] = val[whole[i]];
		s->der[whole[i]] = der[whole[i]];
	}
}

/* New settings, between steps (has_pending): where the channels start.  The
 * model says where every channel starts (fresh); else the angle channels
 * start afresh at the state, and so do those of bodies that came or went. */
static void start_fresh_channels(pendula_engine *e, step_start *s, int n_before)
{
	if (e->sys.ops->fresh) {
		memset(s->val, 0, sizeof(s->val));
		memset(s->der, 0, sizeof(s->der));
		e->sys.ops->fresh(&e->sys, &e->st, e->qdot, s->val, s->der);
		return;
	}
	const int n = e->sys.n;
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		s->val[PENDULA_CH_THETA + k] = k < n ? e->st.q[k] : 0.0;
		s->der[PENDULA_CH_THETA + k] = k < n ? e->qdot[k] : 0.0;
		s->val[PENDULA_CH_OMEGA + k] = k < n ? e->qdot[k] : 0.0;
		s->der[PENDULA_CH_OMEGA + k] = 0.0;
		s->jerk[k] = 0.0;
	}
	if (n != n_before)
		start_changed_bodies(e, s, n_before);
}

/* The step's length for the state at the start of the step (energy_now, and
 * qddot if known), and the forcing phases there. */
static void begin_step(pendula_engine *e, double energy_now, const double *qddot)
{
	const int level = choose_level(e, energy_now, qddot);
	if (level != e->level) {
		e->level = level;
		e->h = PENDULA_H_MAX * ldexp(1.0, -level);
	}
	e->step_phase_x = e->st.phase_x;
	e->step_phase_y = e->st.phase_y;
	e->step_phase_z = e->st.phase_z;
}

/* The energy must add up: its change over the attempt just taken is the
 * work the model says the non-conservative forces did.  Sets pred.failed
 * if it does not; returns whether the defect was quiet (QUIET_DEFECT). */
static int energy_defect_check(pendula_engine *e, double energy_now)
{
	const double defect =
	    e->end_val[PENDULA_CH_ENERGY] - energy_now - e->pred.work / e->sys.energy_range;
	/* relative to the range, or to the energy itself once the motion is
	 * spun far beyond it (where the energy's own rounding would exceed the
	 * budget) */
	const double scale = fmax(1.0, fmax(fabs(energy_now), fabs(e->end_val[PENDULA_CH_ENERGY])));
	if (!(fabs(defect) <= PENDULA_ENERGY_DEFECT * scale))
		e->pred.failed = 1;
	return !e->pred.failed && fabs(defect) <= QUIET_DEFECT * scale;
}

/* One attempt at the step from the current state (the feedback's half kicks
 * around the model's step), paid from the credit, and its end measured.
 * Returns whether the end is finite; *quiet: whether the energy check
 * passed quietly (the feedback's kicks come on top of the model's work:
 * not checked then). */
static int attempt_step(pendula_engine *e, double energy_now, const feedback_step *fb,
                        uint64_t *call_work, int *quiet)
{
	/* Simulated time as t_base + k h (k steps of the current size since
	 * t_base): one rounding instead of one per stage, so t stays exact
	 * enough to phase a 1 kHz forcing after hours (a sum of stage lengths
	 * drifts by about 1e-9 s per million stages). */
	if (e->level != e->clock_level) {
		e->clock_base = e->st.t;
		e->clock_steps = 0;
		e->clock_level = e->level;
	}
	e->pred.failed = 0;
	e->pred.work = NAN;
	*quiet = 0;
	if (fb->on)
		engine_feedback_kick(e, fb->mu, 0.5 * e->h);
	const int it = e->sys.ops->step(&e->sys, &e->st, e->h, &e->pred);
	e->stats.iterations += (uint64_t)it;
	const int64_t work = PENDULA_WORK_STEP + (int64_t)it * e->sys.work_iteration;
	engine_pay(e, work);
	*call_work += (uint64_t)work;
	e->st.t = e->clock_base + (double)(++e->clock_steps) * e->h;
	if (fb->on)
		engine_feedback_kick(e, fb->mu, 0.5 * e->h);
	/* A damped motion decays towards zero; keep it out of the subnormal
	 * range, where arithmetic is slow. */
	for (int k = 0; k < e->sys.dof; ++k) {
		e->st.q[k] = pendula_flush(e->st.q[k]);
		e->st.p[k] = pendula_flush(e->st.p[k]);
	}
	engine_measure_all(e, e->end_val, e->end_der, e->end_jerk);
	const int finite = all_finite(e->end_val, e->end_der);
	if (finite && !fb->on && e->pred.work == e->pred.work)
		*quiet = energy_defect_check(e, energy_now);
	return finite;
}

/* A step whose solve fails (the dynamics outrun the step: stiff settings, a
 * light body spun up by a torque), whose end is not finite or whose energy
 * does not add up is taken again from the same state at half the length,
 * and the smaller step is kept for a while (floor_level).  Each attempt
 * costs budget.  Returns whether the step's end is finite; *quiet as
 * attempt_step's. */
static int step_with_retries(pendula_engine *e, double energy_now, const feedback_step *fb,
                             int *quiet)
{
	double qdot0[PENDULA_MAX_DOF];
	if (fb->on)
		memcpy(qdot0, e->qdot, sizeof(qdot0));
	const pendula_state st0 = e->st;
	const pendula_predictor pred0 = e->pred;
	uint64_t call_work = 0;
	int finite;
	for (;;) {
		finite = attempt_step(e, energy_now, fb, &call_work, quiet);
		if ((finite && !e->pred.failed) || e->level >= J_MAX)
			break; /* done, or no smaller step to try */
		e->stats.retries++;
		e->st = st0;
		e->pred = pred0;
		if (fb->on)
			memcpy(e->qdot, qdot0, sizeof(qdot0));
		e->level++;
		e->h = PENDULA_H_MAX * ldexp(1.0, -e->level);
		e->floor_level = e->level;
		e->floor_good = 0;
		e->quiet_run = 0;
	}
	e->stats.steps++;
	if (call_work > e->stats.max_call_work)
		e->stats.max_call_work = call_work;
	return finite;
}

/* A raised floor relaxes by one level after FLOOR_HOLD good steps, or
 * QUIET_HOLD quiet ones in a row. */
static void relax_floor(pendula_engine *e, int quiet)
{
	if (e->floor_level > 0) {
		e->quiet_run = quiet ? (unsigned char)(e->quiet_run + 1) : 0;
		if (++e->floor_good >= FLOOR_HOLD || e->quiet_run >= QUIET_HOLD) {
			e->floor_level--;
			e->floor_good = 0;
			e->quiet_run = 0;
		}
	}
}

/* Last resort (docs/MODELS.md): a state that is no longer finite restarts from
 * the initial state; returns 1 if it did (the step is then taken).  If even
 * the initial state fails (cannot happen with settings in range), the
 * motion hangs at rest, its outputs zero. */
static int recover_not_finite(pendula_engine *e, step_start *s)
{
	e->stats.restarts++;
	if (!e->restarting) {
		/* no more work this frame: the first step waits for budget */
		if (e->credit > 0)
			e->credit = 0;
		engine_restart(e);
		return 1;
	}
	memset(&e->st, 0, sizeof(e->st));
	memset(e->qdot, 0, sizeof(e->qdot));
	memset(e->end_val, 0, sizeof(e->end_val));
	memset(e->end_der, 0, sizeof(e->end_der));
	memset(e->end_jerk, 0, sizeof(e->end_jerk));
	memset(s->val, 0, sizeof(s->val));
	memset(s->der, 0, sizeof(s->der));
	memset(s->jerk, 0, sizeof(s->jerk));
	return 0;
}

/* The start's derivatives at the state under the new drive (its values are
 * kept: the state has not moved): the accelerations, the energy's slope
 * and the angles' jerks change with the pivot's acceleration. */
static void drive_restart_slopes(pendula_engine *e, step_start *s)
{
	double val[PENDULA_N_CH_ALL], der[PENDULA_N_CH_ALL], jerk[PENDULA_MAX_BODIES];
	memset(jerk, 0, sizeof(jerk));
	engine_measure_all(e, val, der, jerk);
	engine_angle_jerk(e, der + PENDULA_CH_OMEGA, jerk);
	memcpy(s->der, der, sizeof(s->der));
	memcpy(s->jerk, jerk, sizeof(s->jerk));
}

/* Takes the next integration step: the step that ends at st begins the
 * new one; the interpolant runs from the old end values to the new ones. */
static void next_step(pendula_engine *e)
{
	step_start s;
	engine_materialize_last(e);
	e->events_settled = 0; /* a new interpolant */
	/* The new step starts where the last one ended (wrapped angles). */
	e->sys.ops->canonical(&e->sys, &e->st, e->end_val);
	memcpy(s.val, e->end_val, sizeof(s.val));
	memcpy(s.der, e->end_der, sizeof(s.der));
	memcpy(s.jerk, e->end_jerk, sizeof(s.jerk));

	const int had_pending = e->has_pending, n_before = e->sys.n;
	apply_pending(e);
	if (had_pending) {
		engine_pay(e, PENDULA_WORK_SETTINGS);
		start_fresh_channels(e, &s, n_before);
	}
	if (engine_drive_begin(e))
		drive_restart_slopes(e, &s);

	double energy_now = s.val[PENDULA_CH_ENERGY];
	if (had_pending)
		energy_now =
		    pendula_energy_normalised(&e->sys, pendula_energy(&e->sys, e->st.q, e->qdot));
	/* An angle model's accelerations at the state: measured at the end of
	 * the last step (the same formula at the same state before the angles
	 * were wrapped), unless new settings came in. */
	const double *qddot = !had_pending && e->sys.ops->velocity_outputs == PENDULA_VEL_ANGLE
	                          ? s.der + PENDULA_CH_OMEGA
	                          : NULL;
	begin_step(e, energy_now, qddot);

	feedback_step fb;
	engine_feedback_begin(e, energy_now, s.der[PENDULA_CH_ENERGY], &fb);
	if (fb.on) /* the energy interpolant's slope: the power of every force */
		s.der[PENDULA_CH_ENERGY] += 2.0 * fb.mu * fb.kinetic / e->sys.energy_range;
	int quiet = 0;
	const int finite = step_with_retries(e, energy_now, &fb, &quiet);
	relax_floor(e, quiet);
	if (!finite && recover_not_finite(e, &s))
		return;
	engine_angle_jerk(e, e->end_der + PENDULA_CH_OMEGA, e->end_jerk);
	double energy_slope_end = 0.0;
	if (fb.on) /* the feedback's power at the end, for the interpolant only */
		energy_slope_end += engine_feedback_power_end(e, fb.mu);
	engine_build_interpolants(e, &s, fb.on, energy_slope_end);
	engine_frame_advance_setup(e);
}

void engine_pay(pendula_engine *e, int64_t work)
{
	e->credit -= work * e->credit_unit;
	e->pace -= work * e->credit_unit;
	e->stats.work += (uint64_t)work;
}

/* The work credit a new engine starts with: the carry-over a run earns in idle
 * frames (PENDULA_BURST_WORK), since a fresh start has spent nothing.  The
 * first steps are often the dearest (the step level settles from the longest
 * step down); with no credit a musical setting can be capped at its first
 * frame and never again (docs/BENCHMARKS.md, "Why the constants are what
 * they are").  A reset keeps what is left of it, up to that much: restarts
 * are paid from the budget like steps, so that a restart in every block
 * costs no more than the budget allows. */
int64_t engine_start_credit(const pendula_engine *e)
{
	return (int64_t)PENDULA_BURST_WORK * e->credit_unit;
}

/* The pace a new engine starts with: its whole carry-over. */
int64_t engine_start_pace(const pendula_engine *e)
{
	return (int64_t)PENDULA_PACE_WORK * e->credit_unit;
}

/* A restart without budget or pace left for its first step: the initial
 * state held for one step of the chosen length (simulated time stands, and
 * time_ratio shows it); the next step starts from it when there is budget. */
static void hold_step(pendula_engine *e)
{
	step_start s;
	engine_materialize_last(e);
	e->events_settled = 0;
	e->step_phase_x = e->st.phase_x;
	e->step_phase_y = e->st.phase_y;
	e->step_phase_z = e->st.phase_z;
	memcpy(s.val, e->end_val, sizeof(s.val));
	memset(s.der, 0, sizeof(s.der));
	memset(s.jerk, 0, sizeof(s.jerk));
	memset(e->end_der, 0, sizeof(e->end_der));
	memset(e->end_jerk, 0, sizeof(e->end_jerk));
	engine_build_interpolants(e, &s, 0, 0.0);
	engine_frame_advance_setup(e);
	e->stats.lost_time += e->h;
}

/* State = initial, t = 0, and the first step computed, paid from credit. */
void engine_restart(pendula_engine *e)
{
	apply_pending(e);
	engine_pay(e, PENDULA_WORK_RESTART + PENDULA_RESTART_ITERATIONS * e->sys.work_iteration);
	memset(&e->st, 0, sizeof(e->st));
	memset(e->qdot, 0, sizeof(e->qdot));
	e->clock_base = 0.0;
	e->clock_steps = 0;
	e->clock_level = -1;
	e->sys.ops->initial(&e->sys, &e->pending, 0, e->st.q, e->qdot);
	if (e->sys.ops->adapt)
		e->sys.ops->adapt(&e->sys, 0, e->st.q, e->qdot, e->st.phase_w);
	e->sys.ops->momentum(&e->sys, e->st.q, e->qdot, e->st.p);
	pendula_predictor_start(&e->pred, e->qdot);
	e->level = 0;
	e->floor_level = 0;
	e->floor_good = 0;
	e->quiet_run = 0;
	e->grow_count = 0;
	e->h = PENDULA_H_MAX;
	engine_drive_clear(e);
	engine_measure_all(e, e->end_val, e->end_der, e->end_jerk);
	engine_angle_jerk(e, e->end_der + PENDULA_CH_OMEGA, e->end_jerk);
	e->level = choose_level(e, e->end_val[PENDULA_CH_ENERGY], NULL);
	e->h = PENDULA_H_MAX * ldexp(1.0, -e->level);
	e->u0 = 0.0;
	e->idx = 0;
	e->phase_request[0] = e->phase_request[1] = 0;
	e->event_region = 0;
	e->event_armed = 0;
	e->restarting = 1;
	if (can_step(e))
		next_step(e);
	else
		hold_step(e);
	e->restarting = 0;
	e->u0 = 0.0;
	e->idx = 0;
}

/* The state in st (velocities qdot; simulated time and phases its own) is
 * the motion from the current frame on: the steps start again from it, as
 * after a reset but with the step level, its floor and the credit kept
 * (the first step is paid from the credit like any other), and the frame
 * that comes next shows it (u = 0).  The caller has written the last frame
 * out (engine_materialize_last) before changing st. */
void engine_restart_from_state(pendula_engine *e)
{
	e->sys.ops->momentum(&e->sys, e->st.q, e->qdot, e->st.p);
	pendula_predictor_start(&e->pred, e->qdot);
	e->clock_level = -1; /* the step clock starts again at st.t */
	engine_measure_all(e, e->end_val, e->end_der, e->end_jerk);
	engine_angle_jerk(e, e->end_der + PENDULA_CH_OMEGA, e->end_jerk);
	e->u0 = 0.0;
	e->idx = 0;
	next_step(e);
	e->u0 = 0.0;
	e->idx = 0;
}

/* Called when the current frame position has reached the end of the step:
 * takes the steps that bring it back inside one (at most the work cap). */
void engine_steps_for_frame(pendula_engine *e)
{
	double u = frame_u(e);
	int steps = 0;
	while (u >= 1.0) {
		if (!can_step(e)) {
			/* Work cap reached: simulated time slows down for this
			 * frame rather than the integrator losing accuracy or
			 * stability. */
			e->stats.lost_time += (u - (1.0 - DBL_EPSILON)) * e->h;
			u = 1.0 - DBL_EPSILON; /* read the end of this step */
			e->stats.capped_frames++;
			break;
		}
		const double rest = (u - 1.0) * e->h; /* simulated seconds */
		next_step(e);
		/* A frame that lands on the step's end lands a rounding
		 * residue (~1e-15) past it; below the single-precision grid
		 * of u (2^-24) it is the boundary itself.  run()'s polynomials
		 * at such a u would take subnormal products (issue 38). */
		u = rest / e->h;
		u = u < 0x1p-24 ? 0.0 : u;
		++steps;
	}
	if (steps > 0 || u != frame_u(e)) {
		e->u0 = u;
		e->idx = 0;
	}
}
