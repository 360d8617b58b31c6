/* SPDX-License-Identifier: ISC */
/*
 * Pendula physics engine: the double pendulum and the parallel multiple rigid
 * pendulum ("Chaos Man") of the technical note "Mechanics of Chaos Man"
 * (Yamada, 3rd ed. 2004), sections 1 and 3.
 *
 * Plain C99, no LV2 header: the plugin glue, the tests, the benchmarks, the
 * render tool and the UI preview all use it.
 *
 * Conventions (README.md): angles from the downward vertical, positive toward
 * +x; y up; gravity -g y.  Simulated time t advances time_scale / sample_rate
 * per audio frame; frame 0 after a reset shows the initial state.
 *
 * Both models run on one engine: the double pendulum is the parallel model
 * with N = 2 point masses (I_O1 = m1 l1^2, c1 = b2 = l1, beta2 = 0, c2 = l2,
 * I_G2 = 0).
 */
#ifndef PENDULA_ENGINE_H
#define PENDULA_ENGINE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PENDULA_MAX_BODIES 4

typedef enum {
	PENDULA_MODEL_DOUBLE = 0,   /* point masses m1, m2 on rods l1, l2 */
	PENDULA_MODEL_PARALLEL = 1  /* body 1 on the pivot, bodies 2..N on body 1 */
} pendula_model;

/* Physical settings, in SI units and radians.  Index k-1 is body/joint k. */
typedef struct {
	pendula_model model;
	int n_bodies;        /* parallel: 1..PENDULA_MAX_BODIES; double: forced to 2 */
	double time_scale;   /* simulated seconds per second of audio */
	double gravity;      /* g, m/s^2 */
	double m[PENDULA_MAX_BODIES];       /* masses, kg */
	double l[2];                        /* double: rod lengths, m */
	double c[PENDULA_MAX_BODIES];       /* parallel: hinge -> centre of mass, m */
	double inertia[PENDULA_MAX_BODIES]; /* parallel: about own centre of mass, kg m^2 */
	double b[PENDULA_MAX_BODIES];       /* parallel: |O1 O_k|, k >= 2 (b[0] unused) */
	double beta[PENDULA_MAX_BODIES];    /* parallel: angle G1 O1 O_k, rad (beta[0] unused) */
	double lambda[PENDULA_MAX_BODIES];  /* joint damping, N m s */
	double sigma[PENDULA_MAX_BODIES];   /* joint torque, N m */
	double pivot_x_amp, pivot_x_freq;   /* Delta_x (m), Omega_x / 2 pi (Hz) */
	double pivot_y_amp, pivot_y_freq;   /* Delta_y (m), Omega_y / 2 pi (Hz) */
	double theta_init[PENDULA_MAX_BODIES]; /* initial angles, rad */
} pendula_params;

/* Fills p with the documented defaults of the given model (README.md). */
void pendula_params_default(pendula_params *p, pendula_model model);

/* ------------------------------------------------------------------------ */
/* The physics, for tests, tools and the UI (no state, no allocation).       */

/* Constants derived from pendula_params in the unified (parallel) form. */
typedef struct {
	int n;                              /* number of bodies */
	double g;
	double i_o1;                        /* I_O1 = inertia1 + m1 c1^2 */
	double r11;                         /* I_O1 + sum_k m_k b_k^2 */
	double j[PENDULA_MAX_BODIES];       /* k >= 1: I_Gk + m_k c_k^2 */
	double a[PENDULA_MAX_BODIES];       /* k >= 1: m_k b_k c_k */
	double cos_beta[PENDULA_MAX_BODIES], sin_beta[PENDULA_MAX_BODIES];
	double lever[PENDULA_MAX_BODIES];   /* gravity moment: |Z| for body 1, m_k c_k */
	double lever_cos[PENDULA_MAX_BODIES], lever_sin[PENDULA_MAX_BODIES]; /* e^{i gamma} */
	double lambda[PENDULA_MAX_BODIES], sigma[PENDULA_MAX_BODIES];
	double force_x_amp, force_y_amp;    /* Delta Omega^2 */
	double omega_x, omega_y;            /* rad/s */
	double energy_min, energy_range;    /* U_min, max(U_max - U_min, 1e-6) */
	double pivot_x_amp, pivot_y_amp;    /* Delta_x, Delta_y */
	int forced;                         /* any pivot forcing at all */
	double tip_b, tip_c;                /* double: l1, l2 */
	double tip_scale;                   /* 1 / (l1 + l2) for the double pendulum */
	int has_tip;
	double h_params;                    /* largest step these settings allow, s */
	double inv_r_diag_max[PENDULA_MAX_BODIES]; /* bound on diag(R^-1) over all angles */
} pendula_system;

void pendula_system_init(pendula_system *sys, const pendula_params *p);

/* Instantaneous state: angles (unwrapped inside a step, wrapped between),
 * momenta p = R(theta) omega, forcing phases Omega t (kept in [0, 2 pi)). */
typedef struct {
	double theta[PENDULA_MAX_BODIES];
	double p[PENDULA_MAX_BODIES];
	double phase_x, phase_y;
	double t;
} pendula_state;

void pendula_mass_matrix(const pendula_system *sys, const double *theta,
                         double r[PENDULA_MAX_BODIES][PENDULA_MAX_BODIES]);
void pendula_velocity(const pendula_system *sys, const double *theta,
                      const double *p, double *omega);
void pendula_momentum(const pendula_system *sys, const double *theta,
                      const double *omega, double *p);
/* Angular accelerations from the full equations (damping, torque, forcing). */
void pendula_accel(const pendula_system *sys, const double *theta,
                   const double *omega, double phase_x, double phase_y,
                   double *accel);
/* E = T + U in the pivot frame, joules; and normalised per README.md. */
double pendula_energy(const pendula_system *sys, const double *theta,
                      const double *omega);
double pendula_energy_normalised(const pendula_system *sys, double energy);
/* dE/dt = sum (sigma - lambda omega) omega + omega^T Q(t). */
double pendula_power(const pendula_system *sys, const double *theta,
                     const double *omega, double phase_x, double phase_y);
/* Pivot position Gamma and acceleration at the given phases. */
void pendula_pivot(const pendula_system *sys, double phase_x, double phase_y,
                   double *x, double *y);

/* One step of the integrator over simulated time h (4th-order symmetric
 * composition of the implicit midpoint rule, symplectic in (theta, p) when
 * lambda = sigma = 0 and there is no forcing).  Returns the number of
 * fixed-point iterations spent. */
int pendula_step(const pendula_system *sys, pendula_state *s, double h);
/* One implicit midpoint step alone (the building block). */
int pendula_step_midpoint(const pendula_system *sys, pendula_state *s, double h);

/* ------------------------------------------------------------------------ */
/* The audio-rate engine.                                                    */

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

/* Per-frame outputs in plugin units (README.md).  Any pointer may be NULL. */
typedef struct {
	float *theta[PENDULA_MAX_BODIES]; /* wrapped angle / pi, in [-1, 1) */
	float *tip_x, *tip_y;             /* double only: tip / (l1 + l2) */
	float *energy;                    /* normalised energy */
} pendula_outputs;

void pendula_engine_run(pendula_engine *e, uint32_t n_frames,
                        const pendula_outputs *out);

/* One frame in double precision (advances the engine exactly as one frame of
 * pendula_engine_run). */
typedef struct {
	double theta[PENDULA_MAX_BODIES];  /* wrapped to [-pi, pi) */
	double omega[PENDULA_MAX_BODIES];
	double tip_x, tip_y;               /* metres, relative to the pivot */
	double tip_x_norm, tip_y_norm;     /* double: divided by l1 + l2 (the tip_x/tip_y outputs) */
	double energy;                     /* normalised (the energy output) */
	double pivot_x, pivot_y;           /* Gamma(t), metres */
	double t;                          /* simulated time of this frame */
} pendula_frame;

void pendula_engine_tick(pendula_engine *e, pendula_frame *f);
/* The last frame produced (for control outputs and UIs). */
void pendula_engine_last(const pendula_engine *e, pendula_frame *f);

/* Work counters since the last reset, for benchmarks and tests. */
typedef struct {
	uint64_t frames, steps, iterations, restarts, capped_frames;
	double step_size;     /* current step, simulated seconds */
	int max_steps_per_frame; /* the work cap at this sample rate */
} pendula_stats;
void pendula_engine_stats(const pendula_engine *e, pendula_stats *st);

#ifdef __cplusplus
}
#endif
#endif
