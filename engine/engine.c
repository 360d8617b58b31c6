/* SPDX-License-Identifier: ISC */
/*
 * The generic audio-rate engine: step-size control, work cap, restart,
 * forcing phases, the Hermite sampler that turns integration steps into
 * audio frames, and the dispatch of the physics API to the models.  It
 * knows no model: everything model-specific goes through the interface of
 * model.h.  See ../../README.md ("How the engine works") for the design in
 * prose.
 *
 * Audio rate: the integrator takes steps of a simulated length h that does
 * not depend on the sample rate (a power-of-two fraction of H_MAX chosen from
 * the stiffness of the current settings and energy), and each audio frame
 * reads a cubic Hermite interpolant of the outputs over the current step
 * (value and time derivative at both ends: C1 in time, 4th-order accurate).
 */
#include "model.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Smallest step level: H_MAX 2^-J_MAX (about 1.8e-15 s). */
#define J_MAX        42
/* Coefficients of an angle's interpolant in u (qpoly): a septic Hermite,
 * from value, velocity, acceleration and jerk at both ends. */
#define QPOLY_COEFFS 8
/* Channels with a double-precision cubic (poly): PENDULA_CH_TIP_X on. */
#define N_POLY       (PENDULA_CH_TIP_Z + 1 - PENDULA_CH_TIP_X)
_Static_assert(PENDULA_CH_TIP_Y == PENDULA_CH_TIP_X + 1 &&
                   PENDULA_CH_ENERGY == PENDULA_CH_TIP_X + 2,
               "double-precision channels are consecutive");

/* Hysteresis before a step is allowed to grow again: at once when the
 * step rule allows GROW_MARGIN times the longer step, or when it has
 * allowed the longer step for GROW_HOLD steps in a row.  The margin alone
 * kept a setting whose step the settings' ceiling sets (a constant step
 * bound, within 1.5 of the level above it) at half its step for good after
 * a single shorter step: over bench_cap's 500 musical settings per model
 * the hold cut the work of double by 7 %, of chain by 6 % (settings at
 * the cap 3 -> 2) and of spherical by 15 % (13 -> 9), parallel and bead
 * by 1-2 %; holds of 8, 16 and 32 steps measured alike. */
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
#define MAX_WORK_PER_SECOND   72000000
/* A step whose energy change differs from the work its model reports
 * (pendula_predictor.work) by more than this fraction of the energy range
 * (or of the energy, for a motion spun beyond the range, whose own rounding
 * would otherwise exceed it) is taken again at half the length.  A smooth motion stays far below:
 * about 2e-9 at the peaks of the double pendulum's default run at 1/128 s,
 * 1e-8 for the roughest of 40 musical settings at their steps.  A motion
 * the step rules cannot see coming does not: a light bob between a heavy
 * one and the pivot snaps through the straight knee within a few steps,
 * and steps that span the snap jump by 1e-4 to 1e-2 (the energy drifted by
 * 2 % in 10 s before this check). */
#define PENDULA_ENERGY_DEFECT 1e-7
/* PENDULA_BURST_WORK (pendula_engine.h, where the tests' work bound reads
 * it): budget carried over beyond one frame's share (32 frames' share at
 * 48 kHz), and the credit a reset starts with (start_credit).
 * A light bob's knee snap needs a burst of short steps within a few frames
 * (the energy check takes the long ones again): with 6000 units 15 of
 * bench_cap's 500 musical double settings, all of them snapping, reached
 * the cap; with 48 000, 9 (and 10 chains instead of 13).  After
 * frames that left budget unused, a block may so spend up to this much
 * beyond its own share (about 0.25 ms on the 2-core VM); a setting that
 * uses its whole share never has the burst. */
/* A step level raised because a step failed (its solve, or the energy
 * check) is kept for this many good steps before it may relax by one
 * level.  Most failures are short events (a light bob's knee snap), after
 * which a long hold only spends budget on needlessly short steps: with
 * 256, 8 of bench_cap's 500 musical double settings, 6 chains and 33
 * spherical pendulums reached the work cap; with 32, 0, 4 and 23 (16: 0,
 * 4, 20).  A lasting stiffness pays one failed attempt per hold. */
#define FLOOR_HOLD            32
/* ... or sooner, after QUIET_HOLD steps in a row whose energy defect (see
 * PENDULA_ENERGY_DEFECT) was at most QUIET_DEFECT: a step twice as long
 * has a defect at most 2^(p+1) = 128 times larger for the schemes here
 * (order p <= 6), so it would still pass the check 32 times over.  A knee
 * snap's failures push the floor five to seven levels down, where the
 * defects are far below that, and holding each of those levels for 32
 * steps (each as dear as a long one) used up the budget's carry-over:
 * measured over bench_cap's 500 musical settings per model, spherical
 * pendulums at the cap 9 -> 3 (five of the six were capped in one burst
 * after a snap), work double -6 %, spherical -4 %, chain -1 % (at the cap
 * 2 -> 2), parallel and bead unchanged; a quiet threshold of 1/256 of the
 * check did as well, quiet runs of 8 or 16 steps did not (spherical 8,
 * 9).  The free motion of the 500 settings spreads its energy alike
 * (settings above 1e-6 of the range: spherical 35 -> 33, double 51 -> 52,
 * chain 17 -> 20; mean log10 unchanged; a single setting's worst moves by
 * up to ten times with any change of the steps, it is chaotic).  The
 * frames between steps through knee snaps (eight starts of the knee-snap
 * test's setting, 10 s each, energy of the interpolated frames against
 * the energy output): worst 2.5e-3 -> 9.1e-4 of the range, frames above
 * 1e-4 38 -> 84 of 3.84 million, with 437 000 -> 151 000 steps. */
#define QUIET_DEFECT          (PENDULA_ENERGY_DEFECT / 4096.0)
#define QUIET_HOLD            4
_Static_assert(QUIET_HOLD <= 255, "pendula_engine.quiet_run is a byte");

/* The registry: every model's interface, by id. */
#define PENDULA_X_MODEL_DECL(id, slug, name, desc) \
	extern const pendula_model_ops pendula_model_##slug;
PENDULA_MODELS(PENDULA_X_MODEL_DECL)
#undef PENDULA_X_MODEL_DECL

static const pendula_model_ops *const model_ops[PENDULA_N_MODELS] = {
#define PENDULA_X_MODEL_OPS(id, slug, name, desc) &pendula_model_##slug,
    PENDULA_MODELS(PENDULA_X_MODEL_OPS)
#undef PENDULA_X_MODEL_OPS
};

/* ------------------------------------------------------------------------ */
/* The physics API: dispatch to the model                                   */

void pendula_forcing_init(pendula_forcing *f, const pendula_params *p)
{
	const double dx = pendula_nonneg(p->pivot_x_amp), dy = pendula_nonneg(p->pivot_y_amp);
	const double fx = pendula_nonneg(p->pivot_x_freq), fy = pendula_nonneg(p->pivot_y_freq);
	f->amp_x = dx;
	f->amp_y = dy;
	f->omega_x = PENDULA_TWO_PI * fx;
	f->omega_y = PENDULA_TWO_PI * fy;
	f->accel_x = dx * f->omega_x * f->omega_x;
	f->accel_y = dy * f->omega_y * f->omega_y;
	const double dz = pendula_nonneg(p->pivot_z_amp), fz = pendula_nonneg(p->pivot_z_freq);
	f->amp_z = dz;
	f->omega_z = PENDULA_TWO_PI * fz;
	f->accel_z = dz * f->omega_z * f->omega_z;
	f->forced = f->accel_x > 0.0 || f->accel_y > 0.0 || f->accel_z > 0.0;
}

double pendula_settings_step(const pendula_system *sys, double omega_nat, double kappa_nat,
                             double damp)
{
	const pendula_forcing *f = &sys->force;
	double h = pendula_scheme_h_max(sys);
	if (omega_nat * h > kappa_nat)
		h = kappa_nat / omega_nat;
	if (damp * h > PENDULA_KAPPA_DAMP)
		h = PENDULA_KAPPA_DAMP / damp;
	if (f->amp_x > 0.0 && f->omega_x * h > PENDULA_KAPPA_FORCE)
		h = PENDULA_KAPPA_FORCE / f->omega_x;
	if (f->amp_y > 0.0 && f->omega_y * h > PENDULA_KAPPA_FORCE)
		h = PENDULA_KAPPA_FORCE / f->omega_y;
	if (f->amp_z > 0.0 && f->omega_z * h > PENDULA_KAPPA_FORCE)
		h = PENDULA_KAPPA_FORCE / f->omega_z;
	return h;
}

/* The velocity outputs of an angle model: omega{k} = theta-dot_k /
 * omega_ref_k, omega_ref_k = sqrt(2 D / R_kk) with R_kk the diagonal of the
 * mass matrix with every body hanging at rest (q = 0): the rate joint k
 * would turn at if the whole energy range D went into it alone.  A motion
 * at normalised energy 1 stays within about +-1 (README.md). */
static void angle_speed_refs(pendula_system *sys)
{
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		sys->speed_ref[k] = 0.0f;
		if (k >= sys->n || k >= sys->dof)
			continue;
		double q[PENDULA_MAX_DOF] = {0}, qdot[PENDULA_MAX_DOF] = {0}, p[PENDULA_MAX_DOF];
		qdot[k] = 1.0;
		sys->ops->momentum(sys, q, qdot, p);
		const double r = p[k] / (2.0 * sys->energy_range);
		sys->speed_ref[k] = r > 0.0 && isfinite(r) ? (float)sqrt(r) : 0.0f;
	}
}

void pendula_system_init(pendula_system *sys, const pendula_params *p)
{
	memset(sys, 0, sizeof(*sys));
	const int id = (int)p->model >= 0 && p->model < PENDULA_N_MODELS ? (int)p->model : 0;
	sys->ops = model_ops[id];
	sys->min_level = PENDULA_LEVEL_SUZUKI;
	sys->g = pendula_positive(p->gravity, 0.0);
	pendula_forcing_init(&sys->force, p);
	sys->ops->derive(sys, p);
	if (sys->ops->velocity_outputs == PENDULA_VEL_ANGLE)
		angle_speed_refs(sys);
}

void pendula_velocity(const pendula_system *sys, const double *q, const double *p, double *qdot)
{
	sys->ops->velocity(sys, q, p, qdot);
}

void pendula_momentum(const pendula_system *sys, const double *q, const double *qdot, double *p)
{
	sys->ops->momentum(sys, q, qdot, p);
}

void pendula_accel(const pendula_system *sys, const double *q, const double *qdot, double phase_x,
                   double phase_y, double *accel)
{
	sys->ops->accel(sys, q, qdot, phase_x, phase_y, accel);
}

double pendula_energy(const pendula_system *sys, const double *q, const double *qdot)
{
	return sys->ops->energy(sys, q, qdot);
}

double pendula_energy_normalised(const pendula_system *sys, double energy)
{
	return (energy - sys->energy_min) / sys->energy_range;
}

double pendula_power(const pendula_system *sys, const double *q, const double *qdot, double phase_x,
                     double phase_y)
{
	return sys->ops->power(sys, q, qdot, phase_x, phase_y);
}

/* amp sin(phase) (or cos), without the sine for an unforced axis at phase
 * 0 (the usual case: its phase never moves), where the product is +0. */
static inline double pivot_sin(double amp, double phase)
{
	return amp != 0.0 || phase != 0.0 ? amp * sin(phase) : 0.0;
}

void pendula_pivot(const pendula_system *sys, double phase_x, double phase_y, double *x, double *y)
{
	*x = pivot_sin(sys->force.amp_x, phase_x);
	*y = sys->force.amp_y != 0.0 || phase_y != 0.0 ? sys->force.amp_y * cos(phase_y) : 0.0;
}

double pendula_pivot_z(const pendula_system *sys, double phase_z)
{
	return pivot_sin(sys->force.amp_z, phase_z);
}

void pendula_pose_at(const pendula_system *sys, const double *q, double pivot_x, double pivot_y,
                     pendula_pose *pose)
{
	const pendula_vec3 pivot = {pivot_x, pivot_y, 0.0};
	pendula_pose_at3(sys, q, pivot, 0.0, pose);
}

void pendula_pose_at3(const pendula_system *sys, const double *q, pendula_vec3 pivot,
                      double wave_phase, pendula_pose *pose)
{
	if (sys->ops->pose3)
		sys->ops->pose3(sys, q, pivot, wave_phase, pose);
	else
		sys->ops->pose(sys, q, pivot.x, pivot.y, pose);
}

void pendula_frame_coords(const pendula_system *sys, const pendula_frame *f, double *q)
{
	memset(q, 0, sizeof(double) * PENDULA_MAX_DOF);
	if (sys->ops->coords) {
		sys->ops->coords(sys, f, q);
		return;
	}
	for (int k = 0; k < sys->n && k < PENDULA_MAX_BODIES; ++k)
		q[k] = f->theta[k];
}

static void start_predictor(const pendula_system *sys, const pendula_state *s,
                            pendula_predictor *pr)
{
	double qdot[PENDULA_MAX_DOF] = {0};
	sys->ops->velocity(sys, s->q, s->p, qdot);
	pendula_predictor_start(pr, qdot);
}

int pendula_step(const pendula_system *sys, pendula_state *s, double h)
{
	pendula_predictor pr;
	start_predictor(sys, s, &pr);
	return sys->ops->step(sys, s, h, &pr);
}

int pendula_step_base(const pendula_system *sys, pendula_state *s, double h)
{
	pendula_predictor pr;
	start_predictor(sys, s, &pr);
	return sys->ops->step_base(sys, s, h, &pr);
}

/* ------------------------------------------------------------------------ */
/* The audio-rate engine                                                    */

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
	 * nonzero: the others hold zeros, and next_step and fill_frame_at
	 * skip them (a model fills a few of the channels; see live_rows). */
	uint32_t live;
	uint32_t qlive;
	/* The step level clock_base was taken at (-1: none since the reset);
	 * an int here rather than the step's length as a double beside
	 * clock_base: it fills what would be padding. */
	int clock_level;
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
	/* Lowest level allowed since a solve failed, and good steps since. */
	int floor_level, floor_good;
	uint32_t idx;      /* (here: no padding, the engine stays about 4 kB) */
	uint32_t serial;   /* counts the changes of sys (pendula_engine_settings_serial) */
	double clock_base; /* st.t = clock_base + clock_steps * h (h of clock_level) */
	uint64_t clock_steps;
	double step_phase_x, step_phase_y, step_phase_z; /* forcing phases at the step start */
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

/* Step level for the current settings and energy, with hysteresis. */
static int choose_level(pendula_engine *e, double energy_norm, const double *qddot)
{
	double h_need =
	    e->sys.ops->step_bound_at
	        ? e->sys.ops->step_bound_at(&e->sys, &e->st, e->qdot, qddot,
	                                    qddot && e->sys.ops->measure_jerk ? e->inv_mass : NULL,
	                                    energy_norm)
	        : e->sys.ops->step_bound(&e->sys, energy_norm);
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

static void frame_advance_setup(pendula_engine *e)
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
static void measure_all(pendula_engine *e, double *val, double *der, double *jerk)
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

static void hermite(double *c, double y0, double d0, double y1, double d1, double h)
{
	c[0] = y0;
	c[1] = d0 * h;
	c[2] = 3.0 * (y1 - y0) - (2.0 * d0 + d1) * h;
	c[3] = 2.0 * (y0 - y1) + (d0 + d1) * h;
}

/* Quintic Hermite in u = (t - t0) / h from value, first and second time
 * derivatives at both ends. */
static void quintic(double *c, double y0, double v0, double a0, double y1, double v1, double a1,
                    double h)
{
	const double d0 = v0 * h, d1 = v1 * h, s0 = a0 * h * h, s1 = a1 * h * h;
	const double D = y1 - y0 - d0 - 0.5 * s0, E = d1 - d0 - s0, F = s1 - s0;
	c[0] = y0;
	c[1] = d0;
	c[2] = 0.5 * s0;
	c[3] = 10.0 * D - 4.0 * E + 0.5 * F;
	c[4] = -15.0 * D + 7.0 * E - F;
	c[5] = 6.0 * D - 3.0 * E + 0.5 * F;
}

/* Septic Hermite in u = (t - t0) / h from value and the first three time
 * derivatives at both ends (v, a, j): an angle's error is O(h^8), its
 * velocity's O(h^7). */
static void septic(double *c, const double *y, const double *v, const double *a, const double *j,
                   double h)
{
	const double h2 = h * h, h3 = h2 * h;
	const double d0 = v[0] * h, d1 = v[1] * h, s0 = a[0] * h2, s1 = a[1] * h2;
	const double t0 = j[0] * h3, t1 = j[1] * h3;
	const double A = y[1] - (y[0] + d0 + 0.5 * s0 + t0 / 6.0);
	const double B = d1 - (d0 + s0 + 0.5 * t0);
	const double C = s1 - (s0 + t0);
	const double D = t1 - t0;
	c[0] = y[0];
	c[1] = d0;
	c[2] = 0.5 * s0;
	c[3] = t0 / 6.0;
	c[4] = 35.0 * A - 15.0 * B + 2.5 * C - D / 6.0;
	c[5] = -84.0 * A + 39.0 * B - 7.0 * C + 0.5 * D;
	c[6] = 70.0 * A - 34.0 * B + 6.5 * C - 0.5 * D;
	c[7] = -20.0 * A + 10.0 * B - 2.0 * C + D / 6.0;
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

/* A coefficient in single precision, for run(): tiny ones are 0 (no
 * subnormal arithmetic in run()), huge ones stay finite (only a step spun
 * far beyond a turn has them). */
static inline float output_coef(double cs)
{
	return fabs(cs) < (double)PENDULA_OUTPUT_FLUSH ? 0.0f
	       : fabs(cs) < 1e30                       ? (float)cs
	       : cs > 0.0                              ? 1e30f
	                                               : -1e30f;
}

enum { WRAP_NONE, WRAP_ONCE, WRAP_ANY };

static void restart(pendula_engine *e, int64_t credit);
static void fill_frame(const pendula_engine *e, pendula_frame *f);
static void fill_frame_at(const pendula_engine *e, double u, pendula_frame *f);
static void fill_pose_fields(const pendula_engine *e, double u, pendula_frame *f);
static void fill_directions(const pendula_engine *e, double u, pendula_frame *f);

static void materialize_last(pendula_engine *e)
{
	if (e->last_lazy) {
		fill_frame_at(e, e->last_u, &e->last);
		e->last_lazy = 0;
	}
}

/* ------------------------------------------------------------------------ */
/* The chaos knob: a feedback force that holds the normalised energy       */
/*                                                                          */
/* README.md ("The chaos knob").  The force is a generalised force          */
/* along the motion, F = mu(t) R(q) q' (R the mass matrix, pivot frame):    */
/* a torque proportional to each body's momentum, never a rescaling of the  */
/* state.  Its power is F . q' = 2 mu T.  With q and t frozen its flow is   */
/* exact, q' <- exp(mu tau) q', and it enters each integration step by      */
/* Strang splitting: a half kick, the model's step, a half kick (the 3-D    */
/* models then put the velocities back on their constraints, adapt()).     */
/* mu is held over a step, chosen at its start so that                     */
/*     dE/dt = P_other + 2 mu T = rate D (target - E_norm)                  */
/* whatever the damping, torques or forcing do (P_other, the model's own    */
/* power), and clamped to |mu| <= FEEDBACK_MU_RATE rate + |P_other| / 2T    */
/* (and a tenth of the step's rate, so a kick never exceeds a few percent). */
/* At rest (T ~ 0) there is no motion to push along: a tiny seed force on   */
/* the first coordinate starts it when the target lies above the energy.    */
/* Depends only on the state at the step start: block-split independent.    */

#define FEEDBACK_MU_RATE 10.0
#define FEEDBACK_REST    1e-9 /* T / D below which the seed force acts */
#define FEEDBACK_SEED    1e-3 /* seed force in units of rate sqrt(2 D R_00) */

/* mu for the step that starts at the current state (0: the knob is off). */
static double feedback_mu(const pendula_engine *e, double energy_norm, double power_norm,
                          double *kinetic)
{
	const pendula_params *p = &e->pending; /* in force: apply_pending ran */
	*kinetic = 0.0;
	if (!(p->energy_target >= 0.0) || !(p->energy_rate > 0.0))
		return 0.0;
	const double rate = fmin(p->energy_rate, 1e3), d = e->sys.energy_range;
	double t = 0.0;
	for (int i = 0; i < e->sys.dof; ++i)
		t += 0.5 * e->qdot[i] * e->st.p[i];
	*kinetic = t;
	if (!(t > FEEDBACK_REST * d))
		return 0.0;
	const double want = rate * d * (fmin(p->energy_target, 1e3) - energy_norm);
	const double other = power_norm * d;
	double mu = (want - other) / (2.0 * t);
	double mu_max = FEEDBACK_MU_RATE * rate + fabs(other) / (2.0 * t);
	if (mu_max > 0.1 / e->h)
		mu_max = 0.1 / e->h;
	mu = mu > mu_max ? mu_max : mu < -mu_max ? -mu_max : mu;
	return isfinite(mu) ? mu : 0.0;
}

/* The feedback force over simulated time tau: q' <- exp(mu tau) q', plus the
 * seed force at rest.  Changes st.p and leaves the velocities in e->qdot. */
static void feedback_kick(pendula_engine *e, double mu, double tau)
{
	const pendula_params *p = &e->pending;
	const pendula_system *sys = &e->sys;
	double qdot[PENDULA_MAX_DOF] = {0};
	sys->ops->velocity(sys, e->st.q, e->st.p, qdot);
	double t = 0.0;
	for (int i = 0; i < sys->dof; ++i)
		t += 0.5 * qdot[i] * e->st.p[i];
	const int seed =
	    !(t > FEEDBACK_REST * sys->energy_range) &&
	    p->energy_target > pendula_energy_normalised(sys, pendula_energy(sys, e->st.q, qdot));
	if (seed) {
		double unit[PENDULA_MAX_DOF] = {0}, r[PENDULA_MAX_DOF] = {0};
		unit[0] = 1.0;
		sys->ops->momentum(sys, e->st.q, unit, r);
		const double r00 = r[0] > 0.0 ? r[0] : 0.0;
		e->st.p[0] += FEEDBACK_SEED * fmin(p->energy_rate, 1e3) *
		              sqrt(2.0 * sys->energy_range * r00) * tau;
		sys->ops->velocity(sys, e->st.q, e->st.p, qdot);
	} else if (mu == 0.0) {
		memcpy(e->qdot, qdot, sizeof(e->qdot));
		return;
	}
	const double grow = exp(mu * tau);
	for (int i = 0; i < sys->dof; ++i)
		qdot[i] *= grow;
	if (sys->ops->adapt)
		sys->ops->adapt(sys, sys->n, e->st.q, qdot, e->st.phase_w);
	sys->ops->momentum(sys, e->st.q, qdot, e->st.p);
	memcpy(e->qdot, qdot, sizeof(e->qdot));
}

/* Kinetic energy at the state (velocities e->qdot). */
static double kinetic_now(const pendula_engine *e)
{
	double t = 0.0;
	for (int i = 0; i < e->sys.dof; ++i)
		t += 0.5 * e->qdot[i] * e->st.p[i];
	return t;
}

/* The bits of x without its sign: 0 exactly when x == 0.0 (+0 or -0); a NaN
 * counts as nonzero, as in x != 0.0. */
static inline uint64_t magnitude_bits(double x)
{
	uint64_t u;
	memcpy(&u, &x, sizeof(u));
	return u << 1;
}

/* Bit ch set if any of the four values of interpolant row ch is nonzero:
 * integer ORs that the compiler vectorises, instead of four floating-point
 * comparisons per row (a quarter of the step's bookkeeping). */
static uint32_t nonzero_rows(const double *a, const double *b, const double *c, const double *d)
{
	uint64_t any[PENDULA_N_POLY_CHANNELS];
	for (int ch = 0; ch < PENDULA_N_POLY_CHANNELS; ++ch)
		any[ch] = magnitude_bits(a[ch]) | magnitude_bits(b[ch]) | magnitude_bits(c[ch]) |
		          magnitude_bits(d[ch]);
	uint32_t mask = 0;
	for (int ch = 0; ch < PENDULA_N_POLY_CHANNELS; ++ch)
		mask |= (uint32_t)(any[ch] != 0) << ch;
	return mask;
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
 * (measure_all): only the channels past n are cleared and a non-finite
 * value zeroed, as the difference's result is.  Other models: zeros (their
 * angle rows are unused). */
static void angle_jerk(const pendula_engine *e, const double *accel, double *jerk)
{
	const pendula_system *sys = &e->sys;
	if (sys->ops->measure_jerk && sys->ops->velocity_outputs == PENDULA_VEL_ANGLE) {
		/* measured with the state (measure_all) */
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

/* Takes the next integration step: the step that ends at st begins the
 * new one; the interpolant runs from the old end values to the new ones. */
static void next_step(pendula_engine *e)
{
	double start_val[PENDULA_N_CH_ALL], start_der[PENDULA_N_CH_ALL];
	materialize_last(e);
	e->events_settled = 0; /* a new interpolant */
	/* The new step starts where the last one ended (wrapped angles). */
	e->sys.ops->canonical(&e->sys, &e->st, e->end_val);
	memcpy(start_val, e->end_val, sizeof(start_val));
	memcpy(start_der, e->end_der, sizeof(start_der));
	double start_jerk[PENDULA_MAX_BODIES];
	memcpy(start_jerk, e->end_jerk, sizeof(start_jerk));

	const int had_pending = e->has_pending, n_before = e->sys.n;
	apply_pending(e);
	if (had_pending && e->sys.ops->fresh) {
		/* The model says where every channel starts after new settings. */
		memset(start_val, 0, sizeof(start_val));
		memset(start_der, 0, sizeof(start_der));
		e->sys.ops->fresh(&e->sys, &e->st, e->qdot, start_val, start_der);
	} else if (had_pending) {
		/* Angle models: the channels of bodies that appeared or vanished
		 * start afresh. */
		const int n = e->sys.n;
		for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
			start_val[PENDULA_CH_THETA + k] = k < n ? e->st.q[k] : 0.0;
			start_der[PENDULA_CH_THETA + k] = k < n ? e->qdot[k] : 0.0;
			start_val[PENDULA_CH_OMEGA + k] = k < n ? e->qdot[k] : 0.0;
			start_der[PENDULA_CH_OMEGA + k] = 0.0;
			start_jerk[k] = 0.0;
		}
		if (n != n_before) {
			/* Bodies came or went: the channels that depend on which
			 * bodies there are (the directions of those that came or
			 * went, the tip, the energy and its range) start from the
			 * state as the model measures it now; blended over the
			 * step from the old system's, a new body's direction was
			 * no unit vector for 10 ms and a one-link chain's tip was
			 * not its link's end.  (measure_all's inv_mass is the
			 * step rule's, of the end of the last step: kept.) */
			double val[PENDULA_N_CH_ALL], der[PENDULA_N_CH_ALL],
			    jerk[PENDULA_MAX_BODIES];
			float inv_mass[PENDULA_MAX_BODIES];
			memcpy(inv_mass, e->inv_mass, sizeof(inv_mass));
			measure_all(e, val, der, jerk);
			memcpy(e->inv_mass, inv_mass, sizeof(inv_mass));
			const int lo = n < n_before ? n : n_before,
			          hi = n < n_before ? n_before : n;
			for (int k = lo; k < hi && k < PENDULA_MAX_BODIES; ++k)
				for (int c = PENDULA_CH_X + k; c < PENDULA_CH_W;
				     c += PENDULA_MAX_BODIES) {
					start_val[c] = val[c];
					start_der[c] = der[c];
				}
			static const int whole[] = {PENDULA_CH_TIP_X, PENDULA_CH_TIP_Y,
			                            PENDULA_CH_TIP_Z, PENDULA_CH_ENERGY};
			for (size_t i = 0; i < sizeof(whole) / sizeof(whole[0]); ++i) {
				start_val[whole[i]] = val[whole[i]];
				start_der[whole[i]] = der[whole[i]];
			}
		}
	}

	double energy_now = start_val[PENDULA_CH_ENERGY];
	if (had_pending)
		energy_now =
		    pendula_energy_normalised(&e->sys, pendula_energy(&e->sys, e->st.q, e->qdot));
	/* An angle model's accelerations at the state: measured at the end of
	 * the last step (the same formula at the same state before the angles
	 * were wrapped), unless new settings came in. */
	const double *qddot = !had_pending && e->sys.ops->velocity_outputs == PENDULA_VEL_ANGLE
	                          ? start_der + PENDULA_CH_OMEGA
	                          : NULL;
	const int level = choose_level(e, energy_now, qddot);
	if (level != e->level) {
		e->level = level;
		e->h = PENDULA_H_MAX * ldexp(1.0, -level);
	}
	e->step_phase_x = e->st.phase_x;
	e->step_phase_y = e->st.phase_y;
	e->step_phase_z = e->st.phase_z;

	/* Simulated time as t_base + k h (k steps of the current size since
	 * t_base): one rounding instead of one per stage, so t stays exact
	 * enough to phase a 1 kHz forcing after hours (a sum of stage lengths
	 * drifts by about 1e-9 s per million stages). */
	/* A step whose solve fails (the dynamics outrun the step: stiff
	 * settings, a light body spun up by a torque) is taken again from the
	 * same state at half the length, and the smaller step is kept for a
	 * while (floor_level).  Each attempt costs budget. */
	double kinetic, energy_slope_end = 0.0;
	const double mu = feedback_mu(e, energy_now, start_der[PENDULA_CH_ENERGY], &kinetic);
	const int feedback = e->pending.energy_target >= 0.0 && e->pending.energy_rate > 0.0;
	double qdot0[PENDULA_MAX_DOF];
	if (feedback) {
		memcpy(qdot0, e->qdot, sizeof(qdot0));
		/* the energy interpolant's slope: the power of every force */
		start_der[PENDULA_CH_ENERGY] += 2.0 * mu * kinetic / e->sys.energy_range;
	}
	const pendula_state st0 = e->st;
	const pendula_predictor pred0 = e->pred;
	int finite, quiet = 0;
	uint64_t call_work = 0;
	for (;;) {
		if (e->level != e->clock_level) {
			e->clock_base = e->st.t;
			e->clock_steps = 0;
			e->clock_level = e->level;
		}
		e->pred.failed = 0;
		e->pred.work = NAN;
		quiet = 0;
		if (feedback)
			feedback_kick(e, mu, 0.5 * e->h);
		const int it = e->sys.ops->step(&e->sys, &e->st, e->h, &e->pred);
		e->stats.iterations += (uint64_t)it;
		const int64_t work = PENDULA_WORK_STEP + (int64_t)it * e->sys.work_iteration;
		e->credit -= work * e->credit_unit;
		call_work += (uint64_t)work;
		e->st.t = e->clock_base + (double)(++e->clock_steps) * e->h;
		if (feedback)
			feedback_kick(e, mu, 0.5 * e->h);
		/* A damped motion decays towards zero; keep it out of the
		 * subnormal range, where arithmetic is slow. */
		for (int k = 0; k < e->sys.dof; ++k) {
			e->st.q[k] = pendula_flush(e->st.q[k]);
			e->st.p[k] = pendula_flush(e->st.p[k]);
		}
		measure_all(e, e->end_val, e->end_der, e->end_jerk);
		finite = all_finite(e->end_val, e->end_der);
		/* The energy must add up: its change is the work the model says
		 * the non-conservative forces did (the feedback's kicks come on
		 * top: not checked then). */
		if (finite && !feedback && e->pred.work == e->pred.work) {
			const double defect = e->end_val[PENDULA_CH_ENERGY] - energy_now -
			                      e->pred.work / e->sys.energy_range;
			/* relative to the range, or to the energy itself once the
			 * motion is spun far beyond it (where the energy's own
			 * rounding would exceed the budget) */
			const double scale =
			    fmax(1.0, fmax(fabs(energy_now), fabs(e->end_val[PENDULA_CH_ENERGY])));
			if (!(fabs(defect) <= PENDULA_ENERGY_DEFECT * scale))
				e->pred.failed = 1;
			quiet = !e->pred.failed && fabs(defect) <= QUIET_DEFECT * scale;
		}
		if ((finite && !e->pred.failed) || e->level >= J_MAX)
			break; /* done, or no smaller step to try */
		e->stats.retries++;
		e->st = st0;
		e->pred = pred0;
		if (feedback)
			memcpy(e->qdot, qdot0, sizeof(qdot0));
		e->level++;
		e->h = PENDULA_H_MAX * ldexp(1.0, -e->level);
		e->floor_level = e->level;
		e->floor_good = 0;
		e->quiet_run = 0;
	}
	e->stats.steps++;
	e->stats.work += call_work;
	if (call_work > e->stats.max_call_work)
		e->stats.max_call_work = call_work;
	if (e->floor_level > 0) {
		e->quiet_run = quiet ? (unsigned char)(e->quiet_run + 1) : 0;
		if (++e->floor_good >= FLOOR_HOLD || e->quiet_run >= QUIET_HOLD) {
			e->floor_level--;
			e->floor_good = 0;
			e->quiet_run = 0;
		}
	}
	if (!finite) {
		/* Last resort (README.md): a state that is no longer finite
		 * restarts from the initial state. */
		e->stats.restarts++;
		if (!e->restarting) {
			restart(e, 0); /* (no more work this frame) */
			return;
		}
		/* Even the initial state fails (cannot happen with settings
		 * in range): hang at rest, outputs zero. */
		memset(&e->st, 0, sizeof(e->st));
		memset(e->qdot, 0, sizeof(e->qdot));
		memset(e->end_val, 0, sizeof(e->end_val));
		memset(e->end_der, 0, sizeof(e->end_der));
		memset(e->end_jerk, 0, sizeof(e->end_jerk));
		memset(start_val, 0, sizeof(start_val));
		memset(start_der, 0, sizeof(start_der));
		memset(start_jerk, 0, sizeof(start_jerk));
	}
	angle_jerk(e, e->end_der + PENDULA_CH_OMEGA, e->end_jerk);
	if (feedback) /* the feedback's power at the end, for the interpolant only */
		energy_slope_end += 2.0 * mu * kinetic_now(e) / e->sys.energy_range;
	_Static_assert(PENDULA_N_POLY_CHANNELS <= 32 && PENDULA_MAX_BODIES <= 32, "live masks");
	/* (most models leave most channels at 0: their cubic is 0, and a row
	 * that already holds zeros is left alone) */
	uint32_t nonzero = nonzero_rows(start_val, start_der, e->end_val, e->end_der);
	for (uint32_t rows = nonzero | e->live; rows;) {
		const int ch = __builtin_ctz(rows);
		const uint32_t bit = (uint32_t)1 << ch;
		rows &= rows - 1;
		double c[4] = {0.0, 0.0, 0.0, 0.0};
		if (nonzero & bit) {
			hermite(c, start_val[ch], start_der[ch], e->end_val[ch],
			        feedback && ch == PENDULA_CH_ENERGY
			            ? e->end_der[ch] + energy_slope_end
			            : e->end_der[ch],
			        e->h);
			e->live |= bit;
		} else {
			e->live &= ~bit; /* written as zeros below */
		}
		if (ch >= PENDULA_CH_TIP_X && ch - PENDULA_CH_TIP_X < N_POLY)
			memcpy(e->poly[ch - PENDULA_CH_TIP_X], c, sizeof(c));
		const double scale =
		    ch < PENDULA_CH_THETA + PENDULA_MAX_BODIES ? 1.0 / PENDULA_PI : 1.0;
		for (int i = 0; i < 4; ++i)
			e->fpoly[ch][i] = output_coef(c[i] * scale);
	}
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		const uint32_t bit = (uint32_t)1 << k;
		/* the angle row's values and slopes (in nonzero), the
		 * accelerations at both ends */
		if ((nonzero >> (PENDULA_CH_THETA + k) & 1u) ||
		    (magnitude_bits(start_der[PENDULA_CH_OMEGA + k]) |
		     magnitude_bits(e->end_der[PENDULA_CH_OMEGA + k])) != 0)
			e->qlive |= bit;
		else if (!(e->qlive & bit))
			continue; /* zeros give zeros (a septic of zeros is +0) */
		else
			e->qlive &= ~bit;
		const int th = PENDULA_CH_THETA + k, om = PENDULA_CH_OMEGA + k;
		septic(e->qpoly[k], (const double[2]){start_val[th], e->end_val[th]},
		       (const double[2]){start_der[th], e->end_der[th]},
		       (const double[2]){start_der[om], e->end_der[om]},
		       (const double[2]){start_jerk[k], e->end_jerk[k]}, e->h);
		double slope = 0.0;
		for (int i = 1; i < QPOLY_COEFFS; ++i)
			slope += i * fabs(e->qpoly[k][i]);
		e->qslope[k] = slope;
		if (e->sys.ops->velocity_outputs != PENDULA_VEL_ANGLE)
			continue;
		/* The angle output: a quintic (its slope, the velocity output, to
		 * 5th order in h), in place of the row's cubic. */
		double c[6];
		quintic(c, start_val[th], start_der[th], start_der[om], e->end_val[th],
		        e->end_der[th], e->end_der[om], e->h);
		uint32_t any = 0;
		for (int i = 0; i < 6; ++i) {
			const float f = output_coef(c[i] * (1.0 / PENDULA_PI));
			if (i < 4)
				e->fpoly[th][i] = f;
			else
				e->fhigh[k][i - 4] = f;
			any |= f != 0.0f;
		}
		if (any)
			e->live |= (uint32_t)1 << th;
	}
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		/* |p(u) - c0| <= |c1| + ... + |c5| on [0, 1]; the margin covers
		 * single-precision rounding.  The step starts wrapped, in
		 * [-1, 1). */
		if (!(e->live & (uint32_t)1 << (PENDULA_CH_THETA + k))) {
			e->wrap[k] = WRAP_NONE; /* a row of zeros */
			continue;
		}
		const float *q = e->fpoly[PENDULA_CH_THETA + k];
		const double reach = fabs(q[1]) + fabs(q[2]) + fabs(q[3]) + fabs(e->fhigh[k][0]) +
		                     fabs(e->fhigh[k][1]);
		e->wrap[k] = (unsigned char)(q[0] - reach > -1.0 + 1e-5 && q[0] + reach < 1.0 - 1e-5
		                                 ? WRAP_NONE
		                             : reach < 1.0 - 1e-5 ? WRAP_ONCE
		                                                  : WRAP_ANY);
	}
	frame_advance_setup(e);
}

/* The work credit a reset starts with: the carry-over a run earns in idle
 * frames (PENDULA_BURST_WORK), since a fresh start has spent nothing.  The
 * first steps are often the dearest (the step level settles from the longest
 * step down); with no credit a musical chain of bench_cap (a 1 cm link of
 * 12 g under 1.4 kg, time_scale 8.5) was capped at its first frame and
 * never again.  The same at every reset, so a reset still reproduces the
 * run that followed it; the last-resort restart of a state that blew up
 * starts with none. */
static int64_t start_credit(const pendula_engine *e)
{
	return (int64_t)PENDULA_BURST_WORK * e->credit_unit;
}

/* State = initial, t = 0, and the first step computed, paid from credit. */
static void restart(pendula_engine *e, int64_t credit)
{
	apply_pending(e);
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
	e->credit = credit;
	e->h = PENDULA_H_MAX;
	measure_all(e, e->end_val, e->end_der, e->end_jerk);
	angle_jerk(e, e->end_der + PENDULA_CH_OMEGA, e->end_jerk);
	e->level = choose_level(e, e->end_val[PENDULA_CH_ENERGY], NULL);
	e->h = PENDULA_H_MAX * ldexp(1.0, -e->level);
	e->u0 = 0.0;
	e->idx = 0;
	e->phase_request[0] = e->phase_request[1] = 0;
	e->event_region = 0;
	e->restarting = 1;
	next_step(e);
	e->restarting = 0;
	e->u0 = 0.0;
	e->idx = 0;
}

pendula_engine *pendula_engine_new(double sample_rate, const pendula_params *p)
{
	pendula_engine *e = calloc(1, sizeof(*e));
	if (!e)
		return NULL;
	e->sample_rate = sample_rate > 0.0 && isfinite(sample_rate) ? sample_rate : 48000.0;
	/* Budget in units of 1 / (work units per second x frames per second):
	 * a frame earns MAX_WORK_PER_SECOND, a work unit costs the sample
	 * rate. */
	const double rate = fmin(fmax(floor(e->sample_rate + 0.5), 1.0), 1e9);
	e->credit_unit = (int64_t)rate;
	e->pending = *p;
	e->has_pending = 1;
	pendula_system_init(&e->sys, p); /* so that the model is known */
	e->sys.n = 0;                    /* every body "appears" at the reset */
	e->sys.dof = 0;
	restart(e, start_credit(e));
	memset(&e->stats, 0, sizeof(e->stats));
	fill_frame(e, &e->last);
	return e;
}

unsigned long pendula_engine_size(void)
{
	return (unsigned long)sizeof(pendula_engine);
}

void pendula_engine_free(pendula_engine *e)
{
	free(e);
}

void pendula_engine_set_params(pendula_engine *e, const pendula_params *p)
{
	e->pending = *p;
	e->has_pending = 1;
	/* The time scale only sets how fast the frames read the motion: it acts
	 * at once (frame_advance_setup reads it from pending). */
	frame_advance_setup(e);
}

void pendula_engine_reset(pendula_engine *e)
{
	e->has_pending = 1; /* pending is always the latest settings */
	pendula_system fresh;
	pendula_system_init(&fresh, &e->pending);
	if (fresh.ops != e->sys.ops) { /* another model: every body appears */
		e->sys.n = 0;
		e->sys.dof = 0;
	}
	restart(e, start_credit(e));
	fill_frame(e, &e->last);
	e->last_lazy = 0;
}

void pendula_engine_set_phase(pendula_engine *e, int axis, double phase)
{
	if (axis < 0 || axis > 1 || !isfinite(phase))
		return;
	e->phase_request[axis] = 1;
	e->phase_value[axis] = phase;
}

const pendula_system *pendula_engine_system(const pendula_engine *e)
{
	return &e->sys;
}

void pendula_engine_state(const pendula_engine *e, pendula_state *s)
{
	*s = e->st;
}

/* Rebase the forcing phase so that it equals the request at the current
 * frame: the current step is left as it is, the next ones follow. */
static inline double frame_u(const pendula_engine *e)
{
	return e->u0 + (double)(int32_t)e->idx * e->du;
}

static void apply_phase_requests(pendula_engine *e)
{
	materialize_last(e);
	const double u = frame_u(e);
	const double tau_end = (1.0 - u) * e->h; /* from now to the step end */
	const pendula_forcing *f = &e->sys.force;
	if (e->phase_request[0]) {
		e->st.phase_x = pendula_wrap_phase(e->phase_value[0] + f->omega_x * tau_end);
		e->step_phase_x = pendula_wrap_phase(e->phase_value[0] - f->omega_x * u * e->h);
		e->phase_request[0] = 0;
	}
	if (e->phase_request[1]) {
		e->st.phase_y = pendula_wrap_phase(e->phase_value[1] + f->omega_y * tau_end);
		e->step_phase_y = pendula_wrap_phase(e->phase_value[1] - f->omega_y * u * e->h);
		e->phase_request[1] = 0;
	}
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

/* theta / pi wrapped to [-1, 1), as the angle outputs want it, from the
 * interpolant already in units of pi.  Within a step an angle usually moves
 * by far less than pi (the step size keeps h |w| small) and the step starts
 * wrapped, so one conditional correction suffices; the loop stays
 * branch-free and vectorisable. */
static inline float angle_out(float v)
{
	v = v < -1.0f ? v + 2.0f : v;
	v = v >= 1.0f ? v - 2.0f : v; /* README.md: a value that rounds to 1 is -1 */
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

/* The budget of m frames (the same whatever the blocks: credit only grows
 * between steps, and min() commutes with the sum). */
static inline void earn(pendula_engine *e, uint32_t m)
{
	const int64_t cap = MAX_WORK_PER_SECOND + (int64_t)PENDULA_BURST_WORK * e->credit_unit;
	const int64_t room = cap - e->credit;
	const int64_t gain = (int64_t)m * MAX_WORK_PER_SECOND;
	e->credit = gain < room ? e->credit + gain : cap;
}

/* Called when the current frame position has reached the end of the step:
 * takes the steps that bring it back inside one (at most the work cap). */
static void steps_for_frame(pendula_engine *e)
{
	double u = frame_u(e);
	int steps = 0;
	while (u >= 1.0) {
		if (e->credit <= 0) {
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
		u = rest / e->h;
		++steps;
	}
	if (steps > 0 || u != frame_u(e)) {
		e->u0 = u;
		e->idx = 0;
	}
}

/* While time stands (du 0: a time_scale of 0 through the engine API; the
 * plugin's is at least 0.01), every frame sits at u0: the frame count
 * within the step stays 0 and a call's frames go in passes of at most
 * this many, so that frame indices stay far below 2^31 (see below). */
#define STILL_FRAMES_PER_PASS 65536u

/* m frames of the current step done. */
static inline void frames_done(pendula_engine *e, uint32_t m)
{
	if (e->du > 0.0)
		e->idx += m;
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

/* ------------------------------------------------------------------------ */
/* Velocity outputs (PENDULA_CH_W + k), from the interpolants              */

/* d/du of a cubic, times scale: the quadratic's coefficients. */
static inline void cubic_slope(const float *c, double scale, float *d)
{
	d[0] = (float)(c[1] * scale);
	d[1] = (float)(2.0 * c[2] * scale);
	d[2] = (float)(3.0 * c[3] * scale);
}

/* The output whose quadratic in u is the slope of one interpolant
 * (PENDULA_VEL_POSITION): its coefficients, or 0 if it is not
 * (PENDULA_VEL_DIRECTION: made of two; PENDULA_VEL_ANGLE: write_velocity
 * takes the quartic slope of the angle's quintic). */
static int velocity_quadratic(const pendula_engine *e, int k, float *d)
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

static void frame_velocities(const pendula_engine *e, double u, pendula_frame *f)
{
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		float d[3];
		if (e->sys.ops->velocity_outputs == PENDULA_VEL_ANGLE) {
			f->w[k] = (float)(f->omega[k] * e->sys.speed_ref[k]);
		} else if (velocity_quadratic(e, k, d)) {
			f->w[k] = (float)(d[0] + u * (d[1] + u * (double)d[2]));
		} else {
			const float *x = e->fpoly[PENDULA_CH_X + k],
			            *y = e->fpoly[PENDULA_CH_Y + k];
			float dx[3], dy[3];
			cubic_slope(x, 1.0, dx);
			cubic_slope(y, 1.0, dy);
			const double xv = fpoly_eval(x, u), yv = fpoly_eval(y, u);
			const double xd = dx[0] + u * (dx[1] + u * (double)dx[2]);
			const double yd = dy[0] + u * (dy[1] + u * (double)dy[2]);
			f->w[k] = (float)((xv * yd - yv * xd) * e->sys.speed_ref[k] / e->h);
		}
	}
}

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

/* The rate of turn of direction (x, y): (x y' - y x') scale. */
static inline float turn_rate_at(const float *x, const float *y, const float *dx, const float *dy,
                                 float scale, float u)
{
	const float xv = cubic_at(x, u), yv = cubic_at(y, u);
	const float xd = quadratic_at(dx, u), yd = quadratic_at(dy, u);
	return (xv * yd - yv * xd) * scale;
}

/* Velocity output k of an angle model: the slope of the angle's quintic
 * (in units of pi), as a quartic q in u. */
static void angle_rate_quartic(const pendula_engine *e, int k, float *q)
{
	const float *c = e->fpoly[PENDULA_CH_THETA + k], *hi = e->fhigh[k];
	const double scale = PENDULA_PI * e->sys.speed_ref[k] / e->h;
	q[0] = (float)(c[1] * scale);
	q[1] = (float)(2.0 * c[2] * scale);
	q[2] = (float)(3.0 * c[3] * scale);
	q[3] = (float)(4.0 * hi[0] * scale);
	q[4] = (float)(5.0 * hi[1] * scale);
}

/* Velocity output k of a direction model: the slopes of its direction's
 * rows, and the scale of turn_rate_at. */
static float turn_rate_slopes(const pendula_engine *e, int k, float *dx, float *dy)
{
	cubic_slope(e->fpoly[PENDULA_CH_X + k], 1.0, dx);
	cubic_slope(e->fpoly[PENDULA_CH_Y + k], 1.0, dy);
	return (float)(e->sys.speed_ref[k] / e->h);
}

/* Frames [idx, idx + m) of velocity output k, clamped to [-1, 1]. */
PENDULA_OUTPUT_CLONES static void write_velocity(const pendula_engine *e, int k,
                                                 float *restrict out, float u0, float du,
                                                 int32_t idx, int32_t m)
{
	float d[5];
	if (e->sys.ops->velocity_outputs == PENDULA_VEL_ANGLE) {
		angle_rate_quartic(e, k, d);
		for (int32_t i = 0; i < m; ++i)
			out[i] = clamp_output(quartic_at(d, frame_u_float(u0, du, idx + i)), -1.0f,
			                      1.0f);
		return;
	}
	if (velocity_quadratic(e, k, d)) {
		for (int32_t i = 0; i < m; ++i)
			out[i] = clamp_output(quadratic_at(d, frame_u_float(u0, du, idx + i)),
			                      -1.0f, 1.0f);
		return;
	}
	const float *x = e->fpoly[PENDULA_CH_X + k], *y = e->fpoly[PENDULA_CH_Y + k];
	float dx[3], dy[3];
	const float scale = turn_rate_slopes(e, k, dx, dy);
	for (int32_t i = 0; i < m; ++i)
		out[i] = clamp_output(
		    turn_rate_at(x, y, dx, dy, scale, frame_u_float(u0, du, idx + i)), -1.0f, 1.0f);
}

/* ------------------------------------------------------------------------ */
/* Events (pendula_engine.h): each body's event angle is classified per     */
/* frame by its sign and by its half (upper: |angle| > pi / 2).  Between    */
/* two frames the angle moves far less than pi / 2, so a change of sign in  */
/* the upper half is a crossing of +-pi (a flip), in the lower half a       */
/* crossing of 0 (a swing).  Only the last frame's classes are kept (two    */
/* bits per body), so the result does not depend on how blocks split the    */
/* frames.                                                                  */

#define EVENT_VALID 0x8000u

static int event_bodies(const pendula_engine *e)
{
	if (e->sys.ops->velocity_outputs == PENDULA_VEL_POSITION)
		return 1;
	return e->sys.n < PENDULA_MAX_BODIES ? e->sys.n : PENDULA_MAX_BODIES;
}

/* Bit 0: the angle is >= 0; bit 1: it is in the upper half. */
static unsigned event_class(const pendula_engine *e, int k, double u)
{
	const int rule = e->sys.ops->velocity_outputs;
	if (rule == PENDULA_VEL_ANGLE) {
		const double th = pendula_wrap_angle(qpoly_value(e->qpoly[k], u));
		return (th >= 0.0 ? 1u : 0u) | (fabs(th) > 0.5 * PENDULA_PI ? 2u : 0u);
	}
	/* the front view: atan2(x, -y) has the sign of x, the upper half y > 0 */
	const double x = fpoly_eval(e->fpoly[PENDULA_CH_X + k], u);
	const double y = fpoly_eval(e->fpoly[PENDULA_CH_Y + k], u);
	/* (a motion without a top, the bead on its floor: swings only) */
	return (x >= 0.0 ? 1u : 0u) | (y > 0.0 && !e->sys.events_no_top ? 2u : 0u);
}

/* |velocity output k| at u (unclamped), for the event's speed. */
static double velocity_at(const pendula_engine *e, int k, double u)
{
	pendula_frame f;
	memset(&f, 0, sizeof(f));
	if (e->sys.ops->velocity_outputs == PENDULA_VEL_ANGLE) {
		f.omega[k] = qpoly_slope(e->qpoly[k], u) / e->h;
	}
	frame_velocities(e, u, &f);
	return fabs((double)f.w[k]);
}

/* Whether no body's class can change for u in [ua, ub] (within one step):
 * then the frames there all have the class of the first, and only the
 * first needs classifying.  Each event coordinate p(u) = sum c_i u^i moves
 * by at most (ub - ua) sum i |c_i| over it (|u| <= 1); if that, plus a
 * margin far above the rounding of the evaluation, stays short of every
 * class boundary (the angle: 0, +-pi/2, +-pi; the front view: x = 0,
 * y = 0), the class is fixed.  An exact shortcut: the events and the
 * classes kept are the same as frame by frame. */
static int events_fixed(const pendula_engine *e, double ua, double ub)
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
			const double near = th < to_half ? th : to_half;
			const double d = near < to_top ? near : to_top;
			if (!(d > span * slope + margin))
				return 0;
			continue;
		}
		for (int axis = 0; axis < 2; ++axis) {
			const float *c = e->fpoly[(axis ? PENDULA_CH_Y : PENDULA_CH_X) + k];
			const double slope = fabs((double)c[1]) + 2.0 * fabs((double)c[2]) +
			                     3.0 * fabs((double)c[3]);
			if (!(fabs(fpoly_eval(c, ua)) > span * slope + margin))
				return 0;
		}
	}
	return 1;
}

/* The events of the frame at u (frame index `frame` of this run() call):
 * reported to on_event when it is not NULL. */
static void detect_events(pendula_engine *e, double u, uint32_t frame, pendula_event_fn on_event,
                          void *user)
{
	const int n = event_bodies(e);
	unsigned now = EVENT_VALID;
	for (int k = 0; k < n; ++k) {
		const unsigned c = event_class(e, k, u);
		now |= c << (2 * k);
		if (!(e->event_region & EVENT_VALID) || !on_event)
			continue;
		const unsigned was = (e->event_region >> (2 * k)) & 3u;
		if (((was ^ c) & 1u) == 0 || ((was ^ c) & 2u))
			continue; /* same side, or a jump too large to tell */
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
static void detect_range(pendula_engine *e, uint32_t i0, uint32_t i1, uint32_t done,
                         pendula_event_fn on_event, void *user)
{
	const double ua = e->u0 + (double)(int32_t)(e->idx + i0) * e->du;
	const double ub = e->u0 + (double)(int32_t)(e->idx + i1) * e->du;
	if (events_fixed(e, ua, ub)) {
		detect_events(e, ua, done + i0, on_event, user);
		return;
	}
	if (i1 - i0 < EVENT_LEAF) {
		for (uint32_t i = i0; i <= i1; ++i)
			detect_events(e, e->u0 + (double)(int32_t)(e->idx + i) * e->du, done + i,
			              on_event, user);
		return;
	}
	const uint32_t mid = i0 + (i1 - i0) / 2; /* depth at most log2(frames per step) */
	detect_range(e, i0, mid, done, on_event, user);
	detect_range(e, mid + 1, i1, done, on_event, user);
}

static void fill_frame(const pendula_engine *e, pendula_frame *f)
{
	fill_frame_at(e, frame_u(e), f);
}

/* The fields of the frame at u that place the bodies (those
 * pendula_frame_coords reads: the angles, and the x / y / z rows of a model
 * that reads its coordinates from them), the pivot, the time and the
 * energy: what a picture of the frame needs. */
static void fill_pose_at(const pendula_engine *e, double u, pendula_frame *f)
{
	fill_pose_fields(e, u, f);
	if (e->sys.ops->coords)
		fill_directions(e, u, f);
}

/* The pivot at u of the current step (metres). */
static void pivot_at(const pendula_engine *e, double u, double *x, double *y, double *z)
{
	const double tau = u * e->h;
	pendula_pivot(&e->sys, e->step_phase_x + e->sys.force.omega_x * tau,
	              e->step_phase_y + e->sys.force.omega_y * tau, x, y);
	*z = pendula_pivot_z(&e->sys, e->step_phase_z + e->sys.force.omega_z * tau);
}

static void fill_pose_fields(const pendula_engine *e, double u, pendula_frame *f)
{
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k)
		/* a row of zeros evaluates to +0 */
		f->theta[k] = e->qlive & ((uint32_t)1 << k)
		                  ? pendula_wrap_angle(qpoly_value(e->qpoly[k], u))
		                  : 0.0;
	f->energy = poly_eval(e->poly[PENDULA_CH_ENERGY - PENDULA_CH_TIP_X], u);
	pivot_at(e, u, &f->pivot_x, &f->pivot_y, &f->pivot_z);
	f->t = e->st.t - (1.0 - u) * e->h;
	f->wave_phase =
	    e->sys.force.omega_w != 0.0
	        ? pendula_wrap_phase(e->st.phase_w - e->sys.force.omega_w * (1.0 - u) * e->h)
	        : e->st.phase_w;
}

/* The x / y / z rows of the frame at u. */
static void fill_directions(const pendula_engine *e, double u, pendula_frame *f)
{
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k) {
		f->x[k] = fpoly_live(e, PENDULA_CH_X + k, u);
		f->y[k] = fpoly_live(e, PENDULA_CH_Y + k, u);
		f->z[k] = fpoly_live(e, PENDULA_CH_Z + k, u);
	}
}

static void fill_frame_at(const pendula_engine *e, double u, pendula_frame *f)
{
	fill_pose_fields(e, u, f);
	fill_directions(e, u, f);
	const double inv_h = 1.0 / e->h;
	for (int k = 0; k < PENDULA_MAX_BODIES; ++k)
		f->omega[k] =
		    e->qlive & ((uint32_t)1 << k) ? qpoly_slope(e->qpoly[k], u) * inv_h : 0.0;
#define POLY(ch) e->poly[(ch)-PENDULA_CH_TIP_X]
	f->tip_x_norm = poly_eval(POLY(PENDULA_CH_TIP_X), u);
	f->tip_y_norm = poly_eval(POLY(PENDULA_CH_TIP_Y), u);
	f->tip_x = f->tip_x_norm * e->sys.tip_length;
	f->tip_y = f->tip_y_norm * e->sys.tip_length;
	f->tip_z_norm = poly_eval(POLY(PENDULA_CH_TIP_Z), u);
	f->tip_z = f->tip_z_norm * e->sys.tip_length;
#undef POLY
	frame_velocities(e, u, f);
}

double pendula_frame_channel(const pendula_frame *f, int ch)
{
	if (ch >= PENDULA_CH_THETA && ch < PENDULA_CH_THETA + PENDULA_MAX_BODIES)
		return (double)pendula_angle_output(f->theta[ch - PENDULA_CH_THETA]);
	if (ch >= PENDULA_CH_X && ch < PENDULA_CH_X + PENDULA_MAX_BODIES)
		return f->x[ch - PENDULA_CH_X];
	if (ch >= PENDULA_CH_Y && ch < PENDULA_CH_Y + PENDULA_MAX_BODIES)
		return f->y[ch - PENDULA_CH_Y];
	if (ch >= PENDULA_CH_Z && ch < PENDULA_CH_Z + PENDULA_MAX_BODIES)
		return f->z[ch - PENDULA_CH_Z];
	if (ch >= PENDULA_CH_W && ch < PENDULA_CH_W + PENDULA_MAX_BODIES) {
		const double w = f->w[ch - PENDULA_CH_W];
		return w < -1.0 ? -1.0 : w > 1.0 ? 1.0 : w;
	}
	switch (ch) {
	case PENDULA_CH_TIP_X:
		return f->tip_x_norm;
	case PENDULA_CH_TIP_Y:
		return f->tip_y_norm;
	case PENDULA_CH_TIP_Z:
		return f->tip_z_norm;
	case PENDULA_CH_ENERGY:
		return f->energy;
	default:
		return 0.0;
	}
}

void pendula_engine_tick(pendula_engine *e, pendula_frame *f)
{
	if (e->phase_request[0] || e->phase_request[1])
		apply_phase_requests(e);
	fill_frame(e, f);
	detect_events(e, frame_u(e), 0, NULL, NULL);
	e->last = *f;
	e->last_lazy = 0;
	frames_done(e, 1);
	e->stats.frames++;
	earn(e, 1);
	if (frame_u(e) >= 1.0)
		steps_for_frame(e);
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
                                                const float *restrict hi, int wrap, float u0,
                                                float du, int32_t idx, int32_t m)
{
	const float q[4] = {c[0], c[1], c[2], c[3]}, q45[2] = {hi[0], hi[1]};
	if (wrap == WRAP_ONCE) {
		for (int32_t i = 0; i < m; ++i)
			out[i] = angle_out(quintic_at(q, q45, frame_u_float(u0, du, idx + i)));
	} else if (wrap == WRAP_ANY) {
		for (int32_t i = 0; i < m; ++i)
			out[i] = angle_out_any(quintic_at(q, q45, frame_u_float(u0, du, idx + i)));
	} else {
		/* WRAP_NONE: next_step chose it because c0 -+ (|c1| + ... + |c5|)
		 * stays inside (-1 + 1e-5, 1 - 1e-5) (|u| <= 1), a margin far
		 * above the rounding of this evaluation: no value can leave
		 * (-1, 1), and a clamp (which cost as much as the quintic) would
		 * change nothing. */
		for (int32_t i = 0; i < m; ++i)
			out[i] = pendula_flush_output(
			    quintic_at(q, q45, frame_u_float(u0, du, idx + i)));
	}
}

/* Any other channel, clamped to its range [lo, hi] (a cubic through two
 * values in range can overshoot it). */
PENDULA_OUTPUT_CLONES static void write_plain(float *restrict out, const float *restrict c,
                                              float u0, float du, int32_t idx, int32_t m, float lo,
                                              float hi)
{
	const float q[4] = {c[0], c[1], c[2], c[3]};
	for (int32_t i = 0; i < m; ++i)
		out[i] = clamp_output(cubic_at(q, frame_u_float(u0, du, idx + i)), lo, hi);
}

/* The channels of an outputs struct that have a buffer, in the order they
 * are written: the velocity outputs, then the interpolated ones (outputs
 * may share a buffer: the last written wins). */
typedef struct {
	int n;
	unsigned char ch[PENDULA_MAX_BODIES + PENDULA_N_POLY_CHANNELS];
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
	list->n = n;
}

/* The range a channel without wrapping is clamped to (README.md): the
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
		if (ch >= PENDULA_CH_W) {
			const int k = ch - PENDULA_CH_W;
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
				                 e->fpoly[PENDULA_CH_Y + k], dx, dy, scale, u);
			}
			*buf = clamp_output(v, -1.0f, 1.0f);
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
	for (int i = 0; i < list->n; ++i) {
		const int ch = list->ch[i];
		float *buf = out->ch[ch] + done;
		if (ch >= PENDULA_CH_W) {
			write_velocity(e, ch - PENDULA_CH_W, buf, u0, du, idx, m);
			continue;
		}
		const int k = ch - PENDULA_CH_THETA;
		if (k >= 0 && k < PENDULA_MAX_BODIES)
			write_quintic(buf, e->fpoly[ch], e->fhigh[k], e->wrap[k], u0, du, idx, m);
		else
			write_plain(buf, e->fpoly[ch], u0, du, idx, m, plain_lo(ch), plain_hi(ch));
	}
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
	if (n_frames == 0)
		return;
	if (e->phase_request[0] || e->phase_request[1])
		apply_phase_requests(e);
	if (!on_event) {
		e->event_region = 0; /* not followed: start afresh when asked */
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
				if (events_fixed(e, ua, 1.0)) {
					detect_events(e, ua, done, on_event, user);
					e->events_settled = 1;
				} else {
					detect_range(e, 0, m - 1, done, on_event, user);
				}
			}
			write_span(e, out, &list, done, idx, mm);
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
			steps_for_frame(e);
	}
}

void pendula_engine_last(const pendula_engine *e, pendula_frame *f)
{
	if (e->last_lazy)
		fill_frame_at(e, e->last_u, f);
	else
		*f = e->last;
}

void pendula_engine_last_pose(const pendula_engine *e, pendula_frame *f)
{
	if (e->last_lazy) {
		fill_pose_at(e, e->last_u, f);
		return;
	}
	const pendula_frame *l = &e->last;
	memcpy(f->theta, l->theta, sizeof(f->theta));
	if (e->sys.ops->coords) {
		memcpy(f->x, l->x, sizeof(f->x));
		memcpy(f->y, l->y, sizeof(f->y));
		memcpy(f->z, l->z, sizeof(f->z));
	}
	f->energy = l->energy;
	f->pivot_x = l->pivot_x;
	f->pivot_y = l->pivot_y;
	f->pivot_z = l->pivot_z;
	f->t = l->t;
	f->wave_phase = l->wave_phase;
}

void pendula_engine_last_pivot(const pendula_engine *e, double *x, double *y, double *z)
{
	if (!e->last_lazy) {
		*x = e->last.pivot_x;
		*y = e->last.pivot_y;
		*z = e->last.pivot_z;
		return;
	}
	pivot_at(e, e->last_u, x, y, z);
}

double pendula_engine_lost_time(const pendula_engine *e)
{
	return e->stats.lost_time;
}

uint32_t pendula_engine_settings_serial(const pendula_engine *e)
{
	return e->serial;
}

void pendula_engine_stats(const pendula_engine *e, pendula_stats *st)
{
	*st = e->stats;
	st->step_size = e->h;
	st->max_work_per_frame = (double)MAX_WORK_PER_SECOND / (double)e->credit_unit;
}
