/* SPDX-License-Identifier: ISC */
/*
 * Pendula physics engine: one generic audio-rate engine and the models of
 * the registry (pendula_models.h), each in its own file behind one interface
 * (model.h).  The models come from the technical note "Mechanics of Chaos
 * Man" (Yamada, 3rd ed. 2004) and the notes it builds on.
 *
 * Plain C99, no LV2 header: the plugin glue, the tests, the benchmarks, the
 * render tool and the UI all use it.
 *
 * Conventions (docs/MODELS.md): x right, y up, z toward the viewer; angles from
 * the downward vertical, positive toward +x; gravity -g y.  Simulated time t
 * advances time_scale / sample_rate per audio frame; frame 0 after a reset
 * shows the initial state.
 */
#ifndef PENDULA_ENGINE_H
#define PENDULA_ENGINE_H

#include "pendula_models.h"
#include "pendula_pose.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PENDULA_MAX_BODIES 6  /* bodies (arms, links) with an angle */
#define PENDULA_MAX_DOF    12 /* coordinates of a state */

/* Physical settings, in SI units and radians.  Index k-1 is body/joint k.
 * A field means the same thing in every model that uses it (the port table,
 * contract/ports.h, says which port fills which field). */
typedef struct {
	pendula_model model;
	int n_bodies;                          /* bodies N (parallel), links N (chain); double: 2 */
	int shape;                             /* chain: pendula_link_shape of every link */
	double time_scale;                     /* simulated seconds per second of audio */
	double gravity;                        /* g, m/s^2 */
	double m[PENDULA_MAX_BODIES];          /* masses, kg */
	double l[PENDULA_MAX_BODIES];          /* rod lengths (hinge to hinge), m */
	double c[PENDULA_MAX_BODIES];          /* hinge -> centre of mass, m */
	double inertia[PENDULA_MAX_BODIES];    /* about the own centre of mass, kg m^2 */
	double b[PENDULA_MAX_BODIES];          /* parallel: |O1 O_k|, k >= 2 (b[0] unused) */
	double beta[PENDULA_MAX_BODIES];       /* parallel: angle G1 O1 O_k, rad (beta[0] unused) */
	double lambda[PENDULA_MAX_BODIES];     /* joint damping, N m s */
	double sigma[PENDULA_MAX_BODIES];      /* joint torque, N m */
	double pivot_x_amp, pivot_x_freq;      /* Delta_x (m), Omega_x / 2 pi (Hz) */
	double pivot_y_amp, pivot_y_freq;      /* Delta_y (m), Omega_y / 2 pi (Hz) */
	double theta_init[PENDULA_MAX_BODIES]; /* initial angles, rad */
	/* The 3-D models (spherical, bead) */
	double pivot_z_amp, pivot_z_freq;    /* Delta_z (m), Omega_z / 2 pi (Hz) */
	double phi_init[PENDULA_MAX_BODIES]; /* initial azimuths, from +x toward +z, rad */
	double spin_init;                    /* initial turn about the vertical, Hz */
	double axis[3];                      /* bead: ellipsoid semi-axes a, b, c (m) */
	int surface;                         /* bead: 0 ellipsoid, 1 wavy floor */
	double floor_curvature;              /* bead floor: d (1/m) in y = d x^2 + ... */
	double wave_amp, wave_freq;          /* bead floor: A (m), Omega / 2 pi (Hz) */
	double wave_number;                  /* bead floor: k (rad/m) */
	double floor_x_init;                 /* bead floor: initial x (m) */
	/* The chaos knob (docs/GUIDE.md): normalised energy the feedback force
	 * holds (< 0: off) and its rate (1/s of simulated time). */
	double energy_target, energy_rate;
	/* The drive signal (pendula_engine_set_drive): pivot acceleration per
	 * unit of signal in units of gravity, and its axis (0 x, 1 y, 2 z). */
	double drive_gain;
	int drive_axis;
} pendula_params;

/* What the links of a chain are (the `link_shape` port). */
typedef enum {
	PENDULA_SHAPE_BOBS = 0,   /* point masses on massless rods: c = l, I_G = 0 */
	PENDULA_SHAPE_RODS = 1,   /* uniform rods: c = l / 2, I_G = m l^2 / 12 */
	PENDULA_SHAPE_CUSTOM = 2, /* c{k} and inertia{k} as set */
} pendula_link_shape;

/* What the bead slides on (the `surface` port). */
typedef enum {
	PENDULA_SURFACE_KIND_ELLIPSOID = 0, /* x^2/a^2 + y^2/b^2 + z^2/c^2 = 1 about the pivot */
	PENDULA_SURFACE_KIND_FLOOR = 1,     /* y = d x^2 + A sin(Omega t) sin(k x), z = 0 */
} pendula_bead_surface;

/* ------------------------------------------------------------------------ */
/* The physics, for tests, tools and the UI (no state, no allocation).       */

/* Pivot forcing Gamma(t) = (Delta_x sin(Omega_x t), Delta_y cos(Omega_y t),
 * Delta_z sin(Omega_z t)), the same for every model (z: the 3-D models only;
 * the planar models have no z ports, so their amp_z is 0). */
typedef struct {
	double amp_x, amp_y;     /* Delta_x, Delta_y (m) */
	double omega_x, omega_y; /* rad/s */
	double accel_x, accel_y; /* Delta Omega^2 (m/s^2) */
	int forced;              /* any pivot acceleration at all */
	/* The drive signal's pivot acceleration over the current step (m/s^2,
	 * x y z; set by the engine before each step, engine/drive.c) and
	 * whether it is not zero: models subtract it from gravity as they do
	 * the forcing's (pendula_effective_gravity). */
	int driven;
	double amp_z, omega_z, accel_z;
	/* A model's own moving part, not the pivot: the bead's wavy floor,
	 * whose wave's phase (pendula_state.phase_w) advances at omega_w
	 * (rad/s; 0 for every other model). */
	double omega_w;
	double drive[3];
} pendula_forcing;

typedef struct pendula_model_ops pendula_model_ops;

/* Work units of a step attempt's bookkeeping (the engine's part; the work
 * cap, engine_internal.h). */
#define PENDULA_WORK_STEP          128
/* Work units of unused budget that carry over to later frames, and the
 * credit a new engine starts with (a reset keeps what is left, up to this:
 * step.c, engine_start_credit): the work since the engine was made is at
 * most pendula_stats.max_work_per_frame per frame, plus this, plus the last
 * step's. */
#define PENDULA_BURST_WORK         48000
/* Work units of the pace's carry-over (engine_internal.h, PACE_PER_FRAME):
 * a run() call of n frames spends at most (n + 1) x max_work_per_frame x
 * 3/2, plus this, plus one step (with its retries). */
#define PENDULA_PACE_WORK          24000
/* Work units of a restart's own part (the settings, the initial state and
 * its measurement; its first step is priced as any step): this plus
 * PENDULA_RESTART_ITERATIONS of the model's iterations (a six-link chain's
 * settings cost the most to derive); and of new settings taking effect at
 * a step (docs/NUMERICS.md, "Bounded work"). */
#define PENDULA_WORK_RESTART       512
#define PENDULA_RESTART_ITERATIONS 8
#define PENDULA_WORK_SETTINGS      128

/* Bytes a model may keep as constants derived from its settings. */
#define PENDULA_SYSTEM_BYTES 512

/* Constants derived from pendula_params: what every model has, then the
 * model's own part (opaque here, see the model's file). */
typedef struct {
	const pendula_model_ops *ops;
	int n;           /* bodies with an angle */
	signed char dof; /* coordinates of the state */
	/* The longest step of the model's scheme is the engine's longest
	 * (PENDULA_H_MAX) times 2^-min_level, set by the model's derive()
	 * (schemes/: 0 for Gauss-Legendre, 1 for Kahan and Li's composition, 2
	 * for Suzuki's). */
	unsigned char min_level;
	/* Events of the 3-D models: the motion has no top to flip over (only
	 * swings), e.g. the bead on its floor.  Set by the model's derive(). */
	unsigned char events_no_top;
	/* The work cap's price of one solver iteration (as the model's step()
	 * counts them), in work units: a double-pendulum iteration is 16, the
	 * bookkeeping of a step attempt PENDULA_WORK_STEP.  Set by the model's
	 * derive() from its size (docs/NUMERICS.md, "Bounded work"). */
	unsigned char work_iteration;
	double g;                        /* gravity, m/s^2 */
	double energy_min, energy_range; /* U_min, max(U_max - U_min, 1e-6 J) */
	double tip_length;               /* tip_x, tip_y = tip / tip_length (0: no tip) */
	/* Velocity outputs (PENDULA_CH_W + k) = velocity * speed_ref[k]: the
	 * inverse of a reference rate.  Angle models: omega_ref_k = sqrt(2 D /
	 * R_kk), D = energy_range, R_kk the diagonal of the mass matrix at
	 * rest (the rate joint k would turn at if all of the energy D went
	 * into it alone); filled by the engine unless the model does. */
	float speed_ref[PENDULA_MAX_BODIES];
	pendula_forcing force;
	union {
		double d[PENDULA_SYSTEM_BYTES / sizeof(double)];
		void *ptr;
	} model;
} pendula_system;

void pendula_system_init(pendula_system *sys, const pendula_params *p);

/* Instantaneous state: coordinates q (angles for the planar models,
 * unwrapped inside a step and wrapped between steps; positions relative to
 * the pivot for the 3-D models), canonical momenta p, forcing phases
 * Omega t (kept in [0, 2 pi)) and simulated time.  phase_z and phase_w come
 * after t so that initialisers {{q}, {p}, phase_x, phase_y, t} keep their
 * meaning; a model without z forcing leaves phase_z alone.  phase_w: the
 * phase of the bead floor's wave (pendula_forcing.omega_w), advanced with
 * the steps like the forcing's, so that it follows a change of the wave's
 * frequency without a jump and stays exact however long the run (the
 * floor's sin(Omega t) from the simulated time moved by Delta Omega t at a
 * change, and lost the step's precision to t's rounding after days). */
typedef struct {
	double q[PENDULA_MAX_DOF];
	double p[PENDULA_MAX_DOF];
	double phase_x, phase_y;
	double t;
	double phase_z;
	double phase_w;
} pendula_state;

void pendula_velocity(const pendula_system *sys, const double *q, const double *p, double *qdot);
void pendula_momentum(const pendula_system *sys, const double *q, const double *qdot, double *p);
/* Accelerations from the full equations (damping, torque, forcing).  These
 * and pendula_power() know the x and y forcing phases only: the 3-D models
 * take phase_z = 0 there, and the bead's moving floor its wave at t = 0
 * (the engine's own energy derivative uses the whole state). */
void pendula_accel(const pendula_system *sys, const double *q, const double *qdot, double phase_x,
                   double phase_y, double *accel);
/* E = T + U in the pivot frame, joules; and normalised per docs/MODELS.md. */
double pendula_energy(const pendula_system *sys, const double *q, const double *qdot);
double pendula_energy_normalised(const pendula_system *sys, double energy);
/* dE/dt = sum (sigma - lambda qdot) qdot + qdot^T Q(t). */
double pendula_power(const pendula_system *sys, const double *q, const double *qdot, double phase_x,
                     double phase_y);
/* Pivot position Gamma at the given phases. */
void pendula_pivot(const pendula_system *sys, double phase_x, double phase_y, double *x, double *y);
double pendula_pivot_z(const pendula_system *sys, double phase_z);
/* The model's geometry at coordinates q with the pivot at (pivot_x, pivot_y)
 * (z = 0, the bead floor's wave at phase 0). */
void pendula_pose_at(const pendula_system *sys, const double *q, double pivot_x, double pivot_y,
                     pendula_pose *pose);
/* The same with a 3-D pivot and the phase of the bead floor's wave
 * (pendula_frame.wave_phase: the floor is drawn as it is at that phase; NaN:
 * unknown, as in a frame rebuilt from the outputs, then at a phase where
 * the floor passes through the bead). */
void pendula_pose_at3(const pendula_system *sys, const double *q, pendula_vec3 pivot,
                      double wave_phase, pendula_pose *pose);

/* One step of the model's integrator over simulated time h (Gauss-Legendre
 * of order 6, or a symmetric composition: docs/NUMERICS.md, "Symplectic
 * integrator"; symplectic when there is no damping, torque or forcing).
 * Returns the work spent (solver iterations). */
int pendula_step(const pendula_system *sys, pendula_state *s, double h);
/* One step of the scheme the composition is made of (e.g. RATTLE); a
 * scheme that is no composition is its own base step. */
int pendula_step_base(const pendula_system *sys, pendula_state *s, double h);

/* ------------------------------------------------------------------------ */
/* The audio-rate engine.                                                    */

/* Output channels: what the engine interpolates per audio frame.  Every
 * signal output port of the port table names one.  A model fills the
 * channels it has; the others stay 0. */
enum {
	PENDULA_CH_THETA = 0, /* + k: angle of body k + 1 (rad; output wrapped / pi) */
	PENDULA_CH_TIP_X = PENDULA_MAX_BODIES, /* tip / tip_length */
	PENDULA_CH_TIP_Y,
	PENDULA_CH_ENERGY, /* normalised energy */
	PENDULA_CH_TIP_Z,  /* the 3-D models: tip z / tip_length */
	/* + k: x, y, z of the direction of arm or link k + 1 (a unit vector;
	 * in the plane (sin th, -cos th, 0)); the bead: its position relative
	 * to the surface's centre divided by the surface's scales (k = 0). */
	PENDULA_CH_X,
	PENDULA_CH_Y = PENDULA_CH_X + PENDULA_MAX_BODIES,
	PENDULA_CH_Z = PENDULA_CH_Y + PENDULA_MAX_BODIES,
	/* + k: the velocity outputs, normalised by pendula_system.speed_ref
	 * (docs/GUIDE.md, "Continuous outputs"): omega{k} of body k + 1 (the
	 * angle models: theta-dot; the spherical pendulum: the turn rate of
	 * link k + 1 about the viewing axis z, (u x u')_z); the bead: vx, vy,
	 * vz for k = 0, 1, 2.  They have no interpolant of their own: the
	 * engine writes them from the time derivative of the interpolants of
	 * the angle (or direction, or position) channels, so they are
	 * continuous and agree with them.  (Inside the engine the same
	 * indices carry the raw angular velocities, model.h.) */
	PENDULA_CH_W = PENDULA_CH_Z + PENDULA_MAX_BODIES,
	PENDULA_N_POLY_CHANNELS = PENDULA_CH_W, /* channels with an interpolant */
	/* The event pulses (flips, swings): written by the caller from the
	 * events the engine reports (pendula_engine_run_events); the engine
	 * leaves their buffers alone. */
	PENDULA_CH_FLIPS = PENDULA_CH_W + PENDULA_MAX_BODIES,
	PENDULA_CH_SWINGS,
	/* The energy level sqrt(E) / (1 + sqrt(E)) of the energy channel's
	 * value E, in [0, 1): what a meter or a normalised mapping can use
	 * (docs/GUIDE.md, "Continuous outputs"); written from the energy's
	 * interpolant (pendula_energy_level_of). */
	PENDULA_CH_ENERGY_LEVEL,
	/* + k: the velocity level of velocity output k,
	 * pendula_velocity_level_of of its value before the clamp, in
	 * [-1, 1]: what a host can use where the velocity output reads +-1
	 * for whole runs (docs/GUIDE.md, "Continuous outputs"); written from
	 * the same derivative as the velocity output. */
	PENDULA_CH_W_LEVEL,
	PENDULA_N_CHANNELS = PENDULA_CH_W_LEVEL + PENDULA_MAX_BODIES
};

/* Events from the motion (docs/GUIDE.md, "Events"): a flip is body k passing
 * over the top (its angle crossing +-pi), a swing passing through the
 * bottom (crossing 0); dir +1 in the positive direction (the angle
 * increasing), -1 else.  The angle: theta_k, interpolated per frame
 * (double precision, as pendula_engine_tick); the spherical pendulum: the
 * front-view angle atan2(x_k, -y_k) of link k's direction; the bead: the
 * front-view angle of its position relative to the ellipsoid's centre (on
 * the floor: swings only, at x = 0).  An event belongs to the first frame
 * at which the angle is past the crossing. */
enum { PENDULA_EVENT_FLIP = 0, PENDULA_EVENT_SWING = 1 };
typedef struct {
	uint32_t frame; /* within this pendula_engine_run call */
	int body;       /* 0-based */
	int kind;       /* PENDULA_EVENT_* */
	int dir;        /* +1 or -1 */
	double speed;   /* |velocity output| of the body at the frame (unclamped) */
	/* Where the motion stands at the event, in [0, 1] (events.c,
	 * position_at; docs/GUIDE.md, "Notes in a scale"). */
	double position;
} pendula_event;
typedef void (*pendula_event_fn)(void *user, const pendula_event *ev);

typedef struct pendula_engine pendula_engine;

/* Allocates once (a few kB).  NULL on failure. */
pendula_engine *pendula_engine_new(double sample_rate, const pendula_params *p);
void pendula_engine_free(pendula_engine *e);
/* Bytes allocated by pendula_engine_new (the whole state of an instance). */
unsigned long pendula_engine_size(void);

/* New settings; they act from the next integration step on, keeping theta
 * and omega continuous.  Real-time safe, bounded cost. */
void pendula_engine_set_params(pendula_engine *e, const pendula_params *p);
/* Restart from theta_init at rest, t = 0; the next frame shows that state. */
void pendula_engine_reset(pendula_engine *e);
/* Tempo sync: make the forcing phase of an axis (0 = x, 1 = y) equal to the
 * given value (rad) at the next frame. */
void pendula_engine_set_phase(pendula_engine *e, int axis, double phase);
/* Pluck: kick the motion at the next frame so that its energy rises by
 * energy_norm (normalised, the unit of the energy output; at most
 * PENDULA_PLUCK_MAX; 0 or less: nothing).  Where each model is struck:
 * docs/GUIDE.md, "Plucking it".  The next frame shows the kicked state;
 * position, simulated time and forcing phases go on.  Real-time safe: a
 * few energy evaluations and one integration step, paid from the work
 * budget. */
#define PENDULA_PLUCK_MAX 1000.0
void pendula_engine_pluck(pendula_engine *e, double energy_norm);

/* Per-frame outputs in plugin units (docs/MODELS.md), one buffer per channel;
 * any pointer may be NULL. */
typedef struct {
	float *ch[PENDULA_N_CHANNELS];
} pendula_outputs;

void pendula_engine_run(pendula_engine *e, uint32_t n_frames, const pendula_outputs *out);
/* The drive signal for the next run call (or tick): one sample per frame
 * of it, read from buf[0] on; NULL (also the state after every run call)
 * is silence.  Samples that are not finite count as 0.  Its effect is the
 * pivot acceleration drive_gain g per unit of signal along drive_axis
 * (pendula_params); each integration step holds the mean of the samples
 * of the frames since the step before began (docs/NUMERICS.md, "The drive
 * signal"). */
void pendula_engine_set_drive(pendula_engine *e, const float *buf);
/* The same, calling on_event for every event, in frame order (then body
 * order).  Events are followed only by this function (pendula_engine_run
 * forgets them; the first frame after it sets the reference), so the
 * events do not depend on how blocks split the frames as long as every
 * block goes through here. */
void pendula_engine_run_events(pendula_engine *e, uint32_t n_frames, const pendula_outputs *out,
                               pendula_event_fn on_event, void *user);
/* The same, and the value of the last of the n_frames frames into each
 * non-NULL last->ch[] (one float each; bit-equal to what a buffer in out
 * would hold there): for an output whose buffer is not written but whose
 * last value is wanted.  last may be NULL; the pulse channels are ignored. */
void pendula_engine_run_events_last(pendula_engine *e, uint32_t n_frames,
                                    const pendula_outputs *out, const pendula_outputs *last,
                                    pendula_event_fn on_event, void *user);

/* One frame in double precision (advances the engine exactly as one frame of
 * pendula_engine_run). */
typedef struct {
	double theta[PENDULA_MAX_BODIES]; /* wrapped to [-pi, pi) */
	double omega[PENDULA_MAX_BODIES];
	double tip_x, tip_y;               /* metres, relative to the pivot */
	double tip_x_norm, tip_y_norm;     /* the tip_x / tip_y outputs */
	double energy;                     /* normalised (the energy output) */
	double pivot_x, pivot_y;           /* Gamma(t), metres */
	double t;                          /* simulated time of this frame */
	double wave_phase;                 /* the bead floor's phase_w at this frame */
	double tip_z, tip_z_norm, pivot_z; /* the 3-D models */
	/* PENDULA_CH_X/Y/Z + k (directions; the bead's scaled position) */
	double x[PENDULA_MAX_BODIES], y[PENDULA_MAX_BODIES], z[PENDULA_MAX_BODIES];
	/* PENDULA_CH_W + k: the velocity outputs before clamping to [-1, 1] */
	float w[PENDULA_MAX_BODIES];
} pendula_frame;

void pendula_engine_tick(pendula_engine *e, pendula_frame *f);
/* A frame's value of output channel ch in output units (as
 * pendula_engine_run writes it, in double precision). */
double pendula_frame_channel(const pendula_frame *f, int ch);
/* The model's coordinates q (as pendula_pose_at wants them) at a frame. */
void pendula_frame_coords(const pendula_system *sys, const pendula_frame *f, double *q);
/* The last frame produced (for control outputs and UIs). */
void pendula_engine_last(const pendula_engine *e, pendula_frame *f);
/* The fields of the last frame that a picture needs, and only those: what
 * pendula_frame_coords reads (theta; x, y and z too for a model that reads
 * its coordinates from them), the pivot, t, wave_phase and the energy,
 * bit-equal to pendula_engine_last's (the other fields are left as they
 * are).  A fraction of the cost of pendula_engine_last. */
void pendula_engine_last_pose(const pendula_engine *e, pendula_frame *f);
/* The pivot at the last frame (metres), bit-equal to pendula_engine_last's. */
void pendula_engine_last_pivot(const pendula_engine *e, double *x, double *y, double *z);
/* Simulated seconds the work cap has dropped since the engine was made
 * (pendula_stats.lost_time, without copying the counters; the plugin's
 * time_ratio reads its change over a block). */
double pendula_engine_lost_time(const pendula_engine *e);
/* A number that changes whenever the settings in force
 * (pendula_engine_system) change: a copy of them is current while it
 * holds. */
uint32_t pendula_engine_settings_serial(const pendula_engine *e);
/* The settings in force and their derived constants (e.g. for drawing). */
const pendula_system *pendula_engine_system(const pendula_engine *e);
/* The state at the end of the current step (coordinates, momenta, phases,
 * simulated time; pendula_velocity gives the velocities), the step the next
 * frame falls in: a frame done, the engine takes the steps the next one
 * needs.  For benchmarks and tests that look at the motion itself. */
void pendula_engine_state(const pendula_engine *e, pendula_state *s);

/* The motion (motion.c): everything the engine needs to continue bit for
 * bit — state, the step in progress, simulated time, forcing phases, event
 * bookkeeping — and none of the settings, as pendula_motion_bytes() bytes
 * for this build on this machine.  Saving is a copy; loading takes the
 * settings to go on with (NULL: those last set; a setting that differs
 * from the saved motion's acts from the next step, as a change would
 * have) and keeps the statistics.
 * Both are real-time safe (no allocation, a bounded copy).  Load returns 0
 * and changes nothing if the bytes are another model's or not sane. */
unsigned long pendula_motion_bytes(void);
void pendula_engine_motion_save(const pendula_engine *e, void *buf);
int pendula_engine_motion_load(pendula_engine *e, const void *buf, const pendula_params *settings);
/* The model a saved motion belongs to. */
pendula_model pendula_motion_model(const void *buf);

/* Work counters since the engine was made (a reset does not clear them:
 * a caller compares two readings), for benchmarks and tests. */
typedef struct {
	uint64_t frames, steps, iterations, restarts, capped_frames;
	uint64_t retries;       /* steps taken again at half the length (a solve failed) */
	uint64_t work;          /* work units spent (each attempt: PENDULA_WORK_STEP + its
	                         * iterations x the model's work_iteration) */
	uint64_t max_call_work; /* the most one step took, its retries included */
	double lost_time;       /* simulated seconds the work cap dropped (time_ratio) */
	double step_size;       /* current step, simulated seconds */
	/* The work cap per frame at this sample rate, in work units
	 * (engine_internal.h: MAX_WORK_PER_SECOND / sample rate). */
	double max_work_per_frame;
} pendula_stats;
void pendula_engine_stats(const pendula_engine *e, pendula_stats *st);

#ifdef __cplusplus
}
#endif
#endif
