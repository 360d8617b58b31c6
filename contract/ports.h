/* SPDX-License-Identifier: ISC */
/*
 * The one port table of Pendula.  The LV2 glue, the TTL generator
 * (ttl/ttl_gen.c), the UI, the tests, the scripts and the README port tables
 * all read it, so code and description cannot drift.  Plain C, no LV2
 * header.
 *
 * The plugins: two per model of the registry (engine/pendula_models.h),
 * <slug> with audio signal outputs and <slug>-cv with CV outputs.  Every port
 * of every plugin has one global id (enum pendula_port_id); a plugin's port
 * index is the position of the port among the rows whose model set includes
 * that plugin's model (pendula_port_index()).
 *
 * Port symbols are a public contract (README.md): once released they never
 * change meaning, and a symbol means the same thing in every model that has
 * it.  Port indices of released plugins stay put: a row that an existing
 * model has goes to the END of the table; a row only new models have may go
 * anywhere (it shifts no existing plugin's indices).
 */
#ifndef PENDULA_PORTS_H
#define PENDULA_PORTS_H

#include "pendula_engine.h"
#include "pmath.h"
#include "units.h"

#include <stddef.h>
#include <stdint.h>

#define PENDULA_URI_BASE "https://pendula.invalid/plugins/pendula#"
#define PENDULA_UI_URI   PENDULA_URI_BASE "ui"

/* Plugins: variant = 2 model + cv. */
typedef int pendula_variant;
#define PENDULA_N_VARIANTS (2 * PENDULA_N_MODELS)
enum {
#define PENDULA_X_VARIANT_ENUM(id, slug, name, desc) \
	PENDULA_VARIANT_##id = 2 * PENDULA_MODEL_##id, PENDULA_VARIANT_##id##_CV,
	PENDULA_MODELS(PENDULA_X_VARIANT_ENUM)
#undef PENDULA_X_VARIANT_ENUM
};

/* Model sets */
#define PM(id)         (1u << PENDULA_MODEL_##id)
#define PM_ALL         ((1u << PENDULA_N_MODELS) - 1u)
#define PM_EXCEPT(set) (PM_ALL & ~(set))
/* The Cartesian 3-D models: no angle outputs (README.md). */
#define PM_3D          (PM(SPHERICAL) | PM(BEAD))

typedef enum {
	PK_CONTROL_IN,
	PK_CONTROL_OUT,
	PK_SIGNAL_OUT, /* lv2:AudioPort in the audio variants, lv2:CVPort (optional) in -cv */
	PK_ATOM_IN,    /* time:Position and MIDI */
	PK_ATOM_OUT    /* MIDI */
} pendula_port_kind;

/* Port property flags */
#define PF_INTEGER   1u
#define PF_TOGGLED   2u
#define PF_TRIGGER   4u
#define PF_LOG       8u
#define PF_ENUM      16u  /* lv2:enumeration, one scale point per value (pendula_enum_label()) */
#define PF_SMOOTH    32u  /* a continuous physical setting: the glue smooths it */
#define PF_INITIAL   64u  /* an initial condition: a change restarts the motion */
#define PF_CC_ENERGY 128u /* signal output sent as CC over [0, energy_max] (else [-1, 1]) */
#define PF_UI        256u /* a slider of the plugin UI (in table order, label = name) */
#define PF_UI_FIRST  512u /* with PF_UI: at the top of the UI's sliders (the chaos knob) */

/* Where a control input goes in pendula_params, and how it is converted. */
#define PP(member) ((int)offsetof(pendula_params, member))
#define PP_NONE    (-1)
typedef enum {
	PC_NONE, /* not a physical setting */
	PC_REAL, /* a double, as it is */
	PC_DEG,  /* a double, degrees to radians */
	PC_INT,  /* an int */
} pendula_param_conv;

#define P_NONE (-1)

/*
 * X(id, symbol, name, kind, models, min, max, default, unit, flags,
 *   param, conv, related, channel, doc)
 * param, conv: where a control input goes in pendula_params.
 * related: a signal output's control-output mirror; a cc_* input's signal.
 * channel: a signal output's engine channel (pendula_engine.h).
 * default: the value for every model unless PENDULA_MODEL_DEFAULTS says else.
 * Order = port index order (see above).
 */
// clang-format off
#define PENDULA_PORTS(X) \
	X(P_TIME_SCALE, "time_scale", "Time scale", PK_CONTROL_IN, PM_ALL, 0.01, 100, 1, PU_COEF, PF_LOG | PF_SMOOTH | PF_UI, PP(time_scale), PC_REAL, P_NONE, -1, "Simulated seconds per second of audio") \
	X(P_GRAVITY, "gravity", "Gravity", PK_CONTROL_IN, PM_ALL, 0.1, 100, 9.81, PU_MS2, PF_SMOOTH, PP(gravity), PC_REAL, P_NONE, -1, "Gravitational acceleration g") \
	X(P_N_BODIES, "n_bodies", "Bodies", PK_CONTROL_IN, PM(PARALLEL), 1, 4, 3, PU_NONE, PF_INTEGER, PP(n_bodies), PC_INT, P_NONE, -1, "Number of bodies N (body 1 and N-1 arms)") \
	X(P_N_LINKS, "n_links", "Links", PK_CONTROL_IN, PM(CHAIN) | PM(SPHERICAL), 1, 6, 3, PU_NONE, PF_INTEGER, PP(n_bodies), PC_INT, P_NONE, -1, "Number of links N, each hanging from the end of the one before") \
	X(P_LINK_SHAPE, "link_shape", "Link shape", PK_CONTROL_IN, PM(CHAIN), 0, 2, 1, PU_NONE, PF_INTEGER | PF_ENUM, PP(shape), PC_INT, P_NONE, -1, "What the links are") \
	X(P_M1, "m1", "Mass 1", PK_CONTROL_IN, PM_ALL, 0.01, 100, 1, PU_KG, PF_LOG | PF_SMOOTH, PP(m[0]), PC_REAL, P_NONE, -1, "Mass of bob/body 1") \
	X(P_M2, "m2", "Mass 2", PK_CONTROL_IN, PM_EXCEPT(PM(BEAD)), 0.01, 100, 1, PU_KG, PF_LOG | PF_SMOOTH, PP(m[1]), PC_REAL, P_NONE, -1, "Mass of bob/body 2") \
	X(P_M3, "m3", "Mass 3", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), 0.01, 100, 0.25, PU_KG, PF_LOG | PF_SMOOTH, PP(m[2]), PC_REAL, P_NONE, -1, "Mass of body 3") \
	X(P_M4, "m4", "Mass 4", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), 0.01, 100, 0.25, PU_KG, PF_LOG | PF_SMOOTH, PP(m[3]), PC_REAL, P_NONE, -1, "Mass of body 4") \
	X(P_M5, "m5", "Mass 5", PK_CONTROL_IN, PM(CHAIN), 0.01, 100, 1, PU_KG, PF_LOG | PF_SMOOTH, PP(m[4]), PC_REAL, P_NONE, -1, "Mass of body 5") \
	X(P_M6, "m6", "Mass 6", PK_CONTROL_IN, PM(CHAIN), 0.01, 100, 1, PU_KG, PF_LOG | PF_SMOOTH, PP(m[5]), PC_REAL, P_NONE, -1, "Mass of body 6") \
	X(P_L1, "l1", "Length 1", PK_CONTROL_IN, PM(DOUBLE) | PM(CHAIN) | PM(SPHERICAL), 0.01, 10, 1, PU_M, PF_LOG | PF_SMOOTH, PP(l[0]), PC_REAL, P_NONE, -1, "Rod length 1") \
	X(P_L2, "l2", "Length 2", PK_CONTROL_IN, PM(DOUBLE) | PM(CHAIN) | PM(SPHERICAL), 0.01, 10, 1, PU_M, PF_LOG | PF_SMOOTH, PP(l[1]), PC_REAL, P_NONE, -1, "Rod length 2") \
	X(P_L3, "l3", "Length 3", PK_CONTROL_IN, PM(CHAIN) | PM(SPHERICAL), 0.01, 10, 1, PU_M, PF_LOG | PF_SMOOTH, PP(l[2]), PC_REAL, P_NONE, -1, "Rod length 3") \
	X(P_L4, "l4", "Length 4", PK_CONTROL_IN, PM(CHAIN) | PM(SPHERICAL), 0.01, 10, 1, PU_M, PF_LOG | PF_SMOOTH, PP(l[3]), PC_REAL, P_NONE, -1, "Rod length 4") \
	X(P_L5, "l5", "Length 5", PK_CONTROL_IN, PM(CHAIN), 0.01, 10, 1, PU_M, PF_LOG | PF_SMOOTH, PP(l[4]), PC_REAL, P_NONE, -1, "Rod length 5") \
	X(P_L6, "l6", "Length 6", PK_CONTROL_IN, PM(CHAIN), 0.01, 10, 1, PU_M, PF_LOG | PF_SMOOTH, PP(l[5]), PC_REAL, P_NONE, -1, "Rod length 6") \
	X(P_C1, "c1", "Centre of mass 1", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN), 0, 10, 0.2, PU_M, PF_SMOOTH, PP(c[0]), PC_REAL, P_NONE, -1, "Pivot to centre of mass of body 1") \
	X(P_C2, "c2", "Centre of mass 2", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN), 0, 10, 0.25, PU_M, PF_SMOOTH, PP(c[1]), PC_REAL, P_NONE, -1, "Hinge to centre of mass of body 2") \
	X(P_C3, "c3", "Centre of mass 3", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN), 0, 10, 0.25, PU_M, PF_SMOOTH, PP(c[2]), PC_REAL, P_NONE, -1, "Hinge to centre of mass of body 3") \
	X(P_C4, "c4", "Centre of mass 4", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN), 0, 10, 0.25, PU_M, PF_SMOOTH, PP(c[3]), PC_REAL, P_NONE, -1, "Hinge to centre of mass of body 4") \
	X(P_C5, "c5", "Centre of mass 5", PK_CONTROL_IN, PM(CHAIN), 0, 10, 0.25, PU_M, PF_SMOOTH, PP(c[4]), PC_REAL, P_NONE, -1, "Hinge to centre of mass of body 5") \
	X(P_C6, "c6", "Centre of mass 6", PK_CONTROL_IN, PM(CHAIN), 0, 10, 0.25, PU_M, PF_SMOOTH, PP(c[5]), PC_REAL, P_NONE, -1, "Hinge to centre of mass of body 6") \
	X(P_INERTIA1, "inertia1", "Inertia 1", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN), 1e-6, 100, 0.02, PU_KGM2, PF_LOG | PF_SMOOTH, PP(inertia[0]), PC_REAL, P_NONE, -1, "Moment of inertia of body 1 about its centre of mass") \
	X(P_INERTIA2, "inertia2", "Inertia 2", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN), 1e-6, 100, 0.005, PU_KGM2, PF_LOG | PF_SMOOTH, PP(inertia[1]), PC_REAL, P_NONE, -1, "Moment of inertia of body 2 about its centre of mass") \
	X(P_INERTIA3, "inertia3", "Inertia 3", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN), 1e-6, 100, 0.005, PU_KGM2, PF_LOG | PF_SMOOTH, PP(inertia[2]), PC_REAL, P_NONE, -1, "Moment of inertia of body 3 about its centre of mass") \
	X(P_INERTIA4, "inertia4", "Inertia 4", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN), 1e-6, 100, 0.005, PU_KGM2, PF_LOG | PF_SMOOTH, PP(inertia[3]), PC_REAL, P_NONE, -1, "Moment of inertia of body 4 about its centre of mass") \
	X(P_INERTIA5, "inertia5", "Inertia 5", PK_CONTROL_IN, PM(CHAIN), 1e-6, 100, 0.005, PU_KGM2, PF_LOG | PF_SMOOTH, PP(inertia[4]), PC_REAL, P_NONE, -1, "Moment of inertia of body 5 about its centre of mass") \
	X(P_INERTIA6, "inertia6", "Inertia 6", PK_CONTROL_IN, PM(CHAIN), 1e-6, 100, 0.005, PU_KGM2, PF_LOG | PF_SMOOTH, PP(inertia[5]), PC_REAL, P_NONE, -1, "Moment of inertia of body 6 about its centre of mass") \
	X(P_B2, "b2", "Hinge distance 2", PK_CONTROL_IN, PM(PARALLEL), 0, 10, 0.3, PU_M, PF_SMOOTH, PP(b[1]), PC_REAL, P_NONE, -1, "Distance from the pivot to the hinge of body 2 on body 1") \
	X(P_B3, "b3", "Hinge distance 3", PK_CONTROL_IN, PM(PARALLEL), 0, 10, 0.3, PU_M, PF_SMOOTH, PP(b[2]), PC_REAL, P_NONE, -1, "Distance from the pivot to the hinge of body 3 on body 1") \
	X(P_B4, "b4", "Hinge distance 4", PK_CONTROL_IN, PM(PARALLEL), 0, 10, 0.3, PU_M, PF_SMOOTH, PP(b[3]), PC_REAL, P_NONE, -1, "Distance from the pivot to the hinge of body 4 on body 1") \
	X(P_BETA2, "beta2", "Hinge angle 2", PK_CONTROL_IN, PM(PARALLEL), -180, 180, 120, PU_DEGREE, PF_SMOOTH, PP(beta[1]), PC_DEG, P_NONE, -1, "Angle G1-O1-O2 of the hinge of body 2") \
	X(P_BETA3, "beta3", "Hinge angle 3", PK_CONTROL_IN, PM(PARALLEL), -180, 180, -120, PU_DEGREE, PF_SMOOTH, PP(beta[2]), PC_DEG, P_NONE, -1, "Angle G1-O1-O3 of the hinge of body 3") \
	X(P_BETA4, "beta4", "Hinge angle 4", PK_CONTROL_IN, PM(PARALLEL), -180, 180, 180, PU_DEGREE, PF_SMOOTH, PP(beta[3]), PC_DEG, P_NONE, -1, "Angle G1-O1-O4 of the hinge of body 4") \
	X(P_LAMBDA1, "lambda1", "Damping 1", PK_CONTROL_IN, PM_ALL, 0, 100, 0, PU_NMS, PF_SMOOTH | PF_UI, PP(lambda[0]), PC_REAL, P_NONE, -1, "Viscous damping of joint 1 (bead: drag, N s/m)") \
	X(P_LAMBDA2, "lambda2", "Damping 2", PK_CONTROL_IN, PM_EXCEPT(PM(BEAD)), 0, 100, 0, PU_NMS, PF_SMOOTH, PP(lambda[1]), PC_REAL, P_NONE, -1, "Viscous damping of joint 2") \
	X(P_LAMBDA3, "lambda3", "Damping 3", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), 0, 100, 0, PU_NMS, PF_SMOOTH, PP(lambda[2]), PC_REAL, P_NONE, -1, "Viscous damping of joint 3") \
	X(P_LAMBDA4, "lambda4", "Damping 4", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), 0, 100, 0, PU_NMS, PF_SMOOTH, PP(lambda[3]), PC_REAL, P_NONE, -1, "Viscous damping of joint 4") \
	X(P_LAMBDA5, "lambda5", "Damping 5", PK_CONTROL_IN, PM(CHAIN), 0, 100, 0, PU_NMS, PF_SMOOTH, PP(lambda[4]), PC_REAL, P_NONE, -1, "Viscous damping of joint 5") \
	X(P_LAMBDA6, "lambda6", "Damping 6", PK_CONTROL_IN, PM(CHAIN), 0, 100, 0, PU_NMS, PF_SMOOTH, PP(lambda[5]), PC_REAL, P_NONE, -1, "Viscous damping of joint 6") \
	X(P_SIGMA1, "sigma1", "Torque 1", PK_CONTROL_IN, PM_EXCEPT(PM(BEAD)), -100, 100, 0, PU_NM, PF_SMOOTH | PF_UI, PP(sigma[0]), PC_REAL, P_NONE, -1, "Constant torque on joint 1") \
	X(P_SIGMA2, "sigma2", "Torque 2", PK_CONTROL_IN, PM_EXCEPT(PM(BEAD)), -100, 100, 0, PU_NM, PF_SMOOTH, PP(sigma[1]), PC_REAL, P_NONE, -1, "Constant torque on joint 2") \
	X(P_SIGMA3, "sigma3", "Torque 3", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -100, 100, 0, PU_NM, PF_SMOOTH, PP(sigma[2]), PC_REAL, P_NONE, -1, "Constant torque on joint 3") \
	X(P_SIGMA4, "sigma4", "Torque 4", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -100, 100, 0, PU_NM, PF_SMOOTH, PP(sigma[3]), PC_REAL, P_NONE, -1, "Constant torque on joint 4") \
	X(P_SIGMA5, "sigma5", "Torque 5", PK_CONTROL_IN, PM(CHAIN), -100, 100, 0, PU_NM, PF_SMOOTH, PP(sigma[4]), PC_REAL, P_NONE, -1, "Constant torque on joint 5") \
	X(P_SIGMA6, "sigma6", "Torque 6", PK_CONTROL_IN, PM(CHAIN), -100, 100, 0, PU_NM, PF_SMOOTH, PP(sigma[5]), PC_REAL, P_NONE, -1, "Constant torque on joint 6") \
	X(P_PIVOT_X_AMP, "pivot_x_amp", "Pivot X amplitude", PK_CONTROL_IN, PM_ALL, 0, 10, 0, PU_M, PF_SMOOTH | PF_UI, PP(pivot_x_amp), PC_REAL, P_NONE, -1, "Horizontal forcing amplitude Delta_x") \
	X(P_PIVOT_X_FREQ, "pivot_x_freq", "Pivot X frequency", PK_CONTROL_IN, PM_ALL, 0, 1000, 0, PU_HZ, PF_SMOOTH | PF_UI, PP(pivot_x_freq), PC_REAL, P_NONE, -1, "Horizontal forcing frequency Omega_x / 2 pi") \
	X(P_PIVOT_Y_AMP, "pivot_y_amp", "Pivot Y amplitude", PK_CONTROL_IN, PM_ALL, 0, 10, 0, PU_M, PF_SMOOTH | PF_UI, PP(pivot_y_amp), PC_REAL, P_NONE, -1, "Vertical forcing amplitude Delta_y") \
	X(P_PIVOT_Y_FREQ, "pivot_y_freq", "Pivot Y frequency", PK_CONTROL_IN, PM_ALL, 0, 1000, 0, PU_HZ, PF_SMOOTH | PF_UI, PP(pivot_y_freq), PC_REAL, P_NONE, -1, "Vertical forcing frequency Omega_y / 2 pi") \
	X(P_PIVOT_Z_AMP, "pivot_z_amp", "Pivot Z amplitude", PK_CONTROL_IN, PM_3D, 0, 10, 0, PU_M, PF_SMOOTH, PP(pivot_z_amp), PC_REAL, P_NONE, -1, "Forcing amplitude Delta_z toward the viewer") \
	X(P_PIVOT_Z_FREQ, "pivot_z_freq", "Pivot Z frequency", PK_CONTROL_IN, PM_3D, 0, 1000, 0, PU_HZ, PF_SMOOTH, PP(pivot_z_freq), PC_REAL, P_NONE, -1, "Forcing frequency Omega_z / 2 pi toward the viewer") \
	X(P_THETA1_INIT, "theta1_init", "Initial angle 1", PK_CONTROL_IN, PM_ALL, -180, 180, 120, PU_DEGREE, PF_INITIAL, PP(theta_init[0]), PC_DEG, P_NONE, -1, "Angle of body 1 after a reset (bead: from the lowest point)") \
	X(P_THETA2_INIT, "theta2_init", "Initial angle 2", PK_CONTROL_IN, PM_EXCEPT(PM(BEAD)), -180, 180, -60, PU_DEGREE, PF_INITIAL, PP(theta_init[1]), PC_DEG, P_NONE, -1, "Angle of body 2 after a reset") \
	X(P_THETA3_INIT, "theta3_init", "Initial angle 3", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -180, 180, -90, PU_DEGREE, PF_INITIAL, PP(theta_init[2]), PC_DEG, P_NONE, -1, "Angle of body 3 after a reset") \
	X(P_THETA4_INIT, "theta4_init", "Initial angle 4", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -180, 180, 150, PU_DEGREE, PF_INITIAL, PP(theta_init[3]), PC_DEG, P_NONE, -1, "Angle of body 4 after a reset") \
	X(P_THETA5_INIT, "theta5_init", "Initial angle 5", PK_CONTROL_IN, PM(CHAIN), -180, 180, 60, PU_DEGREE, PF_INITIAL, PP(theta_init[4]), PC_DEG, P_NONE, -1, "Angle of body 5 after a reset") \
	X(P_THETA6_INIT, "theta6_init", "Initial angle 6", PK_CONTROL_IN, PM(CHAIN), -180, 180, -30, PU_DEGREE, PF_INITIAL, PP(theta_init[5]), PC_DEG, P_NONE, -1, "Angle of body 6 after a reset") \
	X(P_PHI1_INIT, "phi1_init", "Initial azimuth 1", PK_CONTROL_IN, PM_3D, -180, 180, 0, PU_DEGREE, PF_INITIAL, PP(phi_init[0]), PC_DEG, P_NONE, -1, "Azimuth of body 1 after a reset, from +x toward +z") \
	X(P_PHI2_INIT, "phi2_init", "Initial azimuth 2", PK_CONTROL_IN, PM(SPHERICAL), -180, 180, 90, PU_DEGREE, PF_INITIAL, PP(phi_init[1]), PC_DEG, P_NONE, -1, "Azimuth of body 2 after a reset, from +x toward +z") \
	X(P_PHI3_INIT, "phi3_init", "Initial azimuth 3", PK_CONTROL_IN, PM(SPHERICAL), -180, 180, -45, PU_DEGREE, PF_INITIAL, PP(phi_init[2]), PC_DEG, P_NONE, -1, "Azimuth of body 3 after a reset, from +x toward +z") \
	X(P_PHI4_INIT, "phi4_init", "Initial azimuth 4", PK_CONTROL_IN, PM(SPHERICAL), -180, 180, 135, PU_DEGREE, PF_INITIAL, PP(phi_init[3]), PC_DEG, P_NONE, -1, "Azimuth of body 4 after a reset, from +x toward +z") \
	X(P_SPIN_INIT, "spin_init", "Initial spin", PK_CONTROL_IN, PM_3D, -10, 10, 0, PU_HZ, PF_INITIAL, PP(spin_init), PC_REAL, P_NONE, -1, "Turn about the vertical after a reset (0 = at rest)") \
	X(P_FLOOR_X_INIT, "floor_x_init", "Initial floor position", PK_CONTROL_IN, PM(BEAD), -10, 10, 0.8, PU_M, PF_INITIAL, PP(floor_x_init), PC_REAL, P_NONE, -1, "x of the bead on the floor after a reset") \
	X(P_SURFACE, "surface", "Surface", PK_CONTROL_IN, PM(BEAD), 0, 1, 0, PU_NONE, PF_INTEGER | PF_ENUM, PP(surface), PC_INT, P_NONE, -1, "What the bead slides on") \
	X(P_AXIS_X, "axis_x", "Axis X", PK_CONTROL_IN, PM(BEAD), 0.01, 10, 1, PU_M, PF_LOG | PF_SMOOTH, PP(axis[0]), PC_REAL, P_NONE, -1, "Ellipsoid semi-axis a along x; the floor's half-width") \
	X(P_AXIS_Y, "axis_y", "Axis Y", PK_CONTROL_IN, PM(BEAD), 0.01, 10, 3, PU_M, PF_LOG | PF_SMOOTH, PP(axis[1]), PC_REAL, P_NONE, -1, "Ellipsoid semi-axis b along the vertical") \
	X(P_AXIS_Z, "axis_z", "Axis Z", PK_CONTROL_IN, PM(BEAD), 0.01, 10, 2, PU_M, PF_LOG | PF_SMOOTH, PP(axis[2]), PC_REAL, P_NONE, -1, "Ellipsoid semi-axis c along z") \
	X(P_FLOOR_CURVATURE, "floor_curvature", "Floor curvature", PK_CONTROL_IN, PM(BEAD), 0.01, 10, 0.5, PU_PER_M, PF_LOG | PF_SMOOTH, PP(floor_curvature), PC_REAL, P_NONE, -1, "d in the floor y = d x^2 + A sin(Omega t) sin(k x)") \
	X(P_WAVE_AMP, "wave_amp", "Wave amplitude", PK_CONTROL_IN, PM(BEAD), 0, 1, 0.05, PU_M, PF_SMOOTH, PP(wave_amp), PC_REAL, P_NONE, -1, "A: amplitude of the floor's wave") \
	X(P_WAVE_FREQ, "wave_freq", "Wave frequency", PK_CONTROL_IN, PM(BEAD), 0, 100, 1, PU_HZ, PF_SMOOTH, PP(wave_freq), PC_REAL, P_NONE, -1, "Omega / 2 pi: frequency of the floor's wave") \
	X(P_WAVE_NUMBER, "wave_number", "Wave number", PK_CONTROL_IN, PM(BEAD), 0, 100, 6, PU_RAD_PER_M, PF_SMOOTH, PP(wave_number), PC_REAL, P_NONE, -1, "k: wave number of the floor's wave") \
	X(P_RESET, "reset", "Reset", PK_CONTROL_IN, PM_ALL, 0, 1, 0, PU_NONE, PF_TOGGLED | PF_TRIGGER, PP_NONE, PC_NONE, P_NONE, -1, "A rising edge restarts from the initial state") \
	X(P_OUT_THETA1, "theta1", "Angle 1", PK_SIGNAL_OUT, PM_EXCEPT(PM_3D), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_THETA1, PENDULA_CH_THETA + 0, "Wrapped angle of body 1 divided by pi") \
	X(P_OUT_THETA2, "theta2", "Angle 2", PK_SIGNAL_OUT, PM_EXCEPT(PM_3D), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_THETA2, PENDULA_CH_THETA + 1, "Wrapped angle of body 2 divided by pi") \
	X(P_OUT_THETA3, "theta3", "Angle 3", PK_SIGNAL_OUT, PM(PARALLEL) | PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_THETA3, PENDULA_CH_THETA + 2, "Wrapped angle of body 3 divided by pi (0 beyond N)") \
	X(P_OUT_THETA4, "theta4", "Angle 4", PK_SIGNAL_OUT, PM(PARALLEL) | PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_THETA4, PENDULA_CH_THETA + 3, "Wrapped angle of body 4 divided by pi (0 beyond N)") \
	X(P_OUT_THETA5, "theta5", "Angle 5", PK_SIGNAL_OUT, PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_THETA5, PENDULA_CH_THETA + 4, "Wrapped angle of body 5 divided by pi (0 beyond N)") \
	X(P_OUT_THETA6, "theta6", "Angle 6", PK_SIGNAL_OUT, PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_THETA6, PENDULA_CH_THETA + 5, "Wrapped angle of body 6 divided by pi (0 beyond N)") \
	X(P_OUT_TIP_X, "tip_x", "Tip X", PK_SIGNAL_OUT, PM(DOUBLE) | PM(CHAIN) | PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_TIP_X, PENDULA_CH_TIP_X, "Horizontal position of the last bob relative to the pivot, divided by the total length") \
	X(P_OUT_TIP_Y, "tip_y", "Tip Y", PK_SIGNAL_OUT, PM(DOUBLE) | PM(CHAIN) | PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_TIP_Y, PENDULA_CH_TIP_Y, "Vertical position of the last bob relative to the pivot, divided by the total length") \
	X(P_OUT_TIP_Z, "tip_z", "Tip Z", PK_SIGNAL_OUT, PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_TIP_Z, PENDULA_CH_TIP_Z, "Position of the last bob toward the viewer, divided by the total length") \
	X(P_OUT_X1, "x1", "Direction X", PK_SIGNAL_OUT, PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_X1, PENDULA_CH_X, "x of the direction of link 1 (a unit vector)") \
	X(P_OUT_Y1, "y1", "Direction Y", PK_SIGNAL_OUT, PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_Y1, PENDULA_CH_Y, "y of the direction of link 1 (a unit vector)") \
	X(P_OUT_Z1, "z1", "Direction Z", PK_SIGNAL_OUT, PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_Z1, PENDULA_CH_Z, "z of the direction of link 1 (a unit vector)") \
	X(P_OUT_X, "x", "Position X", PK_SIGNAL_OUT, PM(BEAD), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_X, PENDULA_CH_X, "x of the bead relative to the centre, divided by axis_x") \
	X(P_OUT_Y, "y", "Position Y", PK_SIGNAL_OUT, PM(BEAD), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_Y, PENDULA_CH_Y, "y of the bead relative to the centre, divided by axis_y (floor: by d axis_x^2)") \
	X(P_OUT_Z, "z", "Position Z", PK_SIGNAL_OUT, PM(BEAD), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_Z, PENDULA_CH_Z, "z of the bead relative to the centre, divided by axis_z (floor: 0)") \
	X(P_OUT_ENERGY, "energy", "Energy", PK_SIGNAL_OUT, PM_ALL, 0, PENDULA_ENERGY_OUTPUT_MAX, 0, PU_NONE, PF_CC_ENERGY, PP_NONE, PC_NONE, P_CTL_ENERGY, PENDULA_CH_ENERGY, "Normalised energy: 0 at rest, 1 reaches the top (clamped to 0..1000)") \
	X(P_CTL_THETA1, "theta1_ctl", "Angle 1 (control)", PK_CONTROL_OUT, PM_EXCEPT(PM_3D), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of theta1") \
	X(P_CTL_THETA2, "theta2_ctl", "Angle 2 (control)", PK_CONTROL_OUT, PM_EXCEPT(PM_3D), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of theta2") \
	X(P_CTL_THETA3, "theta3_ctl", "Angle 3 (control)", PK_CONTROL_OUT, PM(PARALLEL) | PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of theta3") \
	X(P_CTL_THETA4, "theta4_ctl", "Angle 4 (control)", PK_CONTROL_OUT, PM(PARALLEL) | PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of theta4") \
	X(P_CTL_THETA5, "theta5_ctl", "Angle 5 (control)", PK_CONTROL_OUT, PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of theta5") \
	X(P_CTL_THETA6, "theta6_ctl", "Angle 6 (control)", PK_CONTROL_OUT, PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of theta6") \
	X(P_CTL_TIP_X, "tip_x_ctl", "Tip X (control)", PK_CONTROL_OUT, PM(DOUBLE) | PM(CHAIN) | PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of tip_x") \
	X(P_CTL_TIP_Y, "tip_y_ctl", "Tip Y (control)", PK_CONTROL_OUT, PM(DOUBLE) | PM(CHAIN) | PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of tip_y") \
	X(P_CTL_TIP_Z, "tip_z_ctl", "Tip Z (control)", PK_CONTROL_OUT, PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of tip_z") \
	X(P_CTL_X1, "x1_ctl", "Direction X (control)", PK_CONTROL_OUT, PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of x1") \
	X(P_CTL_Y1, "y1_ctl", "Direction Y (control)", PK_CONTROL_OUT, PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of y1") \
	X(P_CTL_Z1, "z1_ctl", "Direction Z (control)", PK_CONTROL_OUT, PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of z1") \
	X(P_CTL_X, "x_ctl", "Position X (control)", PK_CONTROL_OUT, PM(BEAD), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of x") \
	X(P_CTL_Y, "y_ctl", "Position Y (control)", PK_CONTROL_OUT, PM(BEAD), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of y") \
	X(P_CTL_Z, "z_ctl", "Position Z (control)", PK_CONTROL_OUT, PM(BEAD), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of z") \
	X(P_CTL_ENERGY, "energy_ctl", "Energy (control)", PK_CONTROL_OUT, PM_ALL, 0, PENDULA_ENERGY_OUTPUT_MAX, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of energy") \
	X(P_CTL_PIVOT_X, "pivot_x_ctl", "Pivot X (control)", PK_CONTROL_OUT, PM_ALL, -10, 10, 0, PU_M, 0, PP_NONE, PC_NONE, P_NONE, -1, "Current pivot position x (m), for UIs") \
	X(P_CTL_PIVOT_Y, "pivot_y_ctl", "Pivot Y (control)", PK_CONTROL_OUT, PM_ALL, -10, 10, 0, PU_M, 0, PP_NONE, PC_NONE, P_NONE, -1, "Current pivot position y (m), for UIs") \
	X(P_CTL_PIVOT_Z, "pivot_z_ctl", "Pivot Z (control)", PK_CONTROL_OUT, PM_3D, -10, 10, 0, PU_M, 0, PP_NONE, PC_NONE, P_NONE, -1, "Current pivot position z (m), for UIs") \
	X(P_CONTROL, "control", "Control", PK_ATOM_IN, PM_ALL, 0, 0, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "time:Position from the host and MIDI (passed through)") \
	X(P_MIDI_OUT, "midi_out", "MIDI out", PK_ATOM_OUT, PM_ALL, 0, 0, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Incoming MIDI plus control changes from the outputs") \
	X(P_MIDI_CHANNEL, "midi_channel", "MIDI channel", PK_CONTROL_IN, PM_ALL, 1, 16, 1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_NONE, -1, "Channel of the control changes") \
	X(P_ENERGY_MAX, "energy_max", "Energy CC range", PK_CONTROL_IN, PM_ALL, 0.01, 10, 1, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Energy mapped to the top of the CC range") \
	X(P_CC_THETA1, "cc_theta1", "CC for angle 1", PK_CONTROL_IN, PM_EXCEPT(PM_3D), -1, 127, 1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_THETA1, -1, "Controller number theta1 is sent on (-1 = off)") \
	X(P_CC_THETA2, "cc_theta2", "CC for angle 2", PK_CONTROL_IN, PM_EXCEPT(PM_3D), -1, 127, 2, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_THETA2, -1, "Controller number theta2 is sent on (-1 = off)") \
	X(P_CC_THETA3, "cc_theta3", "CC for angle 3", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_THETA3, -1, "Controller number theta3 is sent on (-1 = off)") \
	X(P_CC_THETA4, "cc_theta4", "CC for angle 4", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_THETA4, -1, "Controller number theta4 is sent on (-1 = off)") \
	X(P_CC_THETA5, "cc_theta5", "CC for angle 5", PK_CONTROL_IN, PM(CHAIN), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_THETA5, -1, "Controller number theta5 is sent on (-1 = off)") \
	X(P_CC_THETA6, "cc_theta6", "CC for angle 6", PK_CONTROL_IN, PM(CHAIN), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_THETA6, -1, "Controller number theta6 is sent on (-1 = off)") \
	X(P_CC_TIP_X, "cc_tip_x", "CC for tip X", PK_CONTROL_IN, PM(DOUBLE) | PM(CHAIN) | PM(SPHERICAL), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_TIP_X, -1, "Controller number tip_x is sent on (-1 = off)") \
	X(P_CC_TIP_Y, "cc_tip_y", "CC for tip Y", PK_CONTROL_IN, PM(DOUBLE) | PM(CHAIN) | PM(SPHERICAL), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_TIP_Y, -1, "Controller number tip_y is sent on (-1 = off)") \
	X(P_CC_TIP_Z, "cc_tip_z", "CC for tip Z", PK_CONTROL_IN, PM(SPHERICAL), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_TIP_Z, -1, "Controller number tip_z is sent on (-1 = off)") \
	X(P_CC_X1, "cc_x1", "CC for direction X", PK_CONTROL_IN, PM(SPHERICAL), -1, 127, 1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_X1, -1, "Controller number x1 is sent on (-1 = off)") \
	X(P_CC_Y1, "cc_y1", "CC for direction Y", PK_CONTROL_IN, PM(SPHERICAL), -1, 127, 2, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_Y1, -1, "Controller number y1 is sent on (-1 = off)") \
	X(P_CC_Z1, "cc_z1", "CC for direction Z", PK_CONTROL_IN, PM(SPHERICAL), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_Z1, -1, "Controller number z1 is sent on (-1 = off)") \
	X(P_CC_X, "cc_x", "CC for position X", PK_CONTROL_IN, PM(BEAD), -1, 127, 1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_X, -1, "Controller number x is sent on (-1 = off)") \
	X(P_CC_Y, "cc_y", "CC for position Y", PK_CONTROL_IN, PM(BEAD), -1, 127, 2, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_Y, -1, "Controller number y is sent on (-1 = off)") \
	X(P_CC_Z, "cc_z", "CC for position Z", PK_CONTROL_IN, PM(BEAD), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_Z, -1, "Controller number z is sent on (-1 = off)") \
	X(P_CC_ENERGY, "cc_energy", "CC for energy", PK_CONTROL_IN, PM_ALL, -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_ENERGY, -1, "Controller number energy is sent on (-1 = off)") \
	X(P_CC_14BIT, "cc_14bit", "14-bit CC", PK_CONTROL_IN, PM_ALL, 0, 1, 0, PU_NONE, PF_TOGGLED, PP_NONE, PC_NONE, P_NONE, -1, "Send MSB on cc and LSB on cc+32") \
	X(P_PIVOT_X_SYNC, "pivot_x_sync", "Pivot X tempo sync", PK_CONTROL_IN, PM_ALL, 0, 21, 0, PU_NONE, PF_INTEGER | PF_ENUM, PP_NONE, PC_NONE, P_NONE, -1, "Lock the X forcing to a note value of the host tempo (0 = free)") \
	X(P_PIVOT_Y_SYNC, "pivot_y_sync", "Pivot Y tempo sync", PK_CONTROL_IN, PM_ALL, 0, 21, 0, PU_NONE, PF_INTEGER | PF_ENUM, PP_NONE, PC_NONE, P_NONE, -1, "Lock the Y forcing to a note value of the host tempo (0 = free)") \
	X(P_RESET_ON_START, "reset_on_start", "Reset on transport start", PK_CONTROL_IN, PM_ALL, 0, 1, 1, PU_NONE, PF_TOGGLED, PP_NONE, PC_NONE, P_NONE, -1, "Restart when the host transport starts rolling") \
	X(P_CTL_TIME_RATIO, "time_ratio", "Time ratio", PK_CONTROL_OUT, PM_ALL, 0, 1, 1, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Simulated time over time_scale x audio time in the last block: 1 while the engine keeps up, below 1 when its work cap slowed the motion") \
	X(P_ENERGY_TARGET, "energy_target", "Chaos (energy target)", PK_CONTROL_IN, PM_ALL, -1, 4, -1, PU_NONE, PF_UI | PF_UI_FIRST, PP(energy_target), PC_REAL, P_NONE, -1, "Normalised energy a feedback force holds (0 = at rest, 1 = reaches the top; below 0 = off)") \
	X(P_ENERGY_RATE, "energy_rate", "Chaos rate", PK_CONTROL_IN, PM_ALL, 0.01, 10, 0.5, PU_HZ, PF_LOG, PP(energy_rate), PC_REAL, P_NONE, -1, "Rate (1/s of simulated time) at which the energy approaches its target") \
	X(P_FREEZE, "freeze", "Freeze", PK_CONTROL_IN, PM_ALL, 0, 1, 0, PU_NONE, PF_TOGGLED | PF_UI | PF_UI_FIRST, PP_NONE, PC_NONE, P_NONE, -1, "Hold the motion and the outputs; release resumes where it stopped") \
	X(P_OUT_OMEGA1, "omega1", "Angular velocity 1", PK_SIGNAL_OUT, PM_EXCEPT(PM(BEAD)), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_OMEGA1, PENDULA_CH_W + 0, "Angular velocity of body 1 divided by its reference rate, clamped to -1..1 (0 beyond N)") \
	X(P_OUT_OMEGA2, "omega2", "Angular velocity 2", PK_SIGNAL_OUT, PM_EXCEPT(PM(BEAD)), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_OMEGA2, PENDULA_CH_W + 1, "Angular velocity of body 2 divided by its reference rate, clamped to -1..1 (0 beyond N)") \
	X(P_OUT_OMEGA3, "omega3", "Angular velocity 3", PK_SIGNAL_OUT, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_OMEGA3, PENDULA_CH_W + 2, "Angular velocity of body 3 divided by its reference rate, clamped to -1..1 (0 beyond N)") \
	X(P_OUT_OMEGA4, "omega4", "Angular velocity 4", PK_SIGNAL_OUT, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_OMEGA4, PENDULA_CH_W + 3, "Angular velocity of body 4 divided by its reference rate, clamped to -1..1 (0 beyond N)") \
	X(P_OUT_OMEGA5, "omega5", "Angular velocity 5", PK_SIGNAL_OUT, PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_OMEGA5, PENDULA_CH_W + 4, "Angular velocity of body 5 divided by its reference rate, clamped to -1..1 (0 beyond N)") \
	X(P_OUT_OMEGA6, "omega6", "Angular velocity 6", PK_SIGNAL_OUT, PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_OMEGA6, PENDULA_CH_W + 5, "Angular velocity of body 6 divided by its reference rate, clamped to -1..1 (0 beyond N)") \
	X(P_OUT_X1P, "x1", "Direction X", PK_SIGNAL_OUT, PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_X1P, PENDULA_CH_X + 0, "x of the direction of arm or link 1: sin theta1 in the plane (0 beyond N)") \
	X(P_OUT_Y1P, "y1", "Direction Y", PK_SIGNAL_OUT, PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_Y1P, PENDULA_CH_Y + 0, "y of the direction of arm or link 1: -cos theta1 in the plane (0 beyond N)") \
	X(P_OUT_X2, "x2", "Direction X 2", PK_SIGNAL_OUT, PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_X2, PENDULA_CH_X + 1, "x of the direction of arm or link 2: sin theta2 in the plane (0 beyond N)") \
	X(P_OUT_Y2, "y2", "Direction Y 2", PK_SIGNAL_OUT, PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_Y2, PENDULA_CH_Y + 1, "y of the direction of arm or link 2: -cos theta2 in the plane (0 beyond N)") \
	X(P_OUT_Z2, "z2", "Direction Z 2", PK_SIGNAL_OUT, PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_Z2, PENDULA_CH_Z + 1, "z of the direction of link 2 (a unit vector; 0 beyond N)") \
	X(P_OUT_X3, "x3", "Direction X 3", PK_SIGNAL_OUT, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_X3, PENDULA_CH_X + 2, "x of the direction of arm or link 3: sin theta3 in the plane (0 beyond N)") \
	X(P_OUT_Y3, "y3", "Direction Y 3", PK_SIGNAL_OUT, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_Y3, PENDULA_CH_Y + 2, "y of the direction of arm or link 3: -cos theta3 in the plane (0 beyond N)") \
	X(P_OUT_Z3, "z3", "Direction Z 3", PK_SIGNAL_OUT, PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_Z3, PENDULA_CH_Z + 2, "z of the direction of link 3 (a unit vector; 0 beyond N)") \
	X(P_OUT_X4, "x4", "Direction X 4", PK_SIGNAL_OUT, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_X4, PENDULA_CH_X + 3, "x of the direction of arm or link 4: sin theta4 in the plane (0 beyond N)") \
	X(P_OUT_Y4, "y4", "Direction Y 4", PK_SIGNAL_OUT, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_Y4, PENDULA_CH_Y + 3, "y of the direction of arm or link 4: -cos theta4 in the plane (0 beyond N)") \
	X(P_OUT_Z4, "z4", "Direction Z 4", PK_SIGNAL_OUT, PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_Z4, PENDULA_CH_Z + 3, "z of the direction of link 4 (a unit vector; 0 beyond N)") \
	X(P_OUT_X5, "x5", "Direction X 5", PK_SIGNAL_OUT, PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_X5, PENDULA_CH_X + 4, "x of the direction of arm or link 5: sin theta5 in the plane (0 beyond N)") \
	X(P_OUT_Y5, "y5", "Direction Y 5", PK_SIGNAL_OUT, PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_Y5, PENDULA_CH_Y + 4, "y of the direction of arm or link 5: -cos theta5 in the plane (0 beyond N)") \
	X(P_OUT_X6, "x6", "Direction X 6", PK_SIGNAL_OUT, PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_X6, PENDULA_CH_X + 5, "x of the direction of arm or link 6: sin theta6 in the plane (0 beyond N)") \
	X(P_OUT_Y6, "y6", "Direction Y 6", PK_SIGNAL_OUT, PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_Y6, PENDULA_CH_Y + 5, "y of the direction of arm or link 6: -cos theta6 in the plane (0 beyond N)") \
	X(P_OUT_VX, "vx", "Velocity X", PK_SIGNAL_OUT, PM(BEAD), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_VX, PENDULA_CH_W + 0, "Velocity x of the bead divided by sqrt(2 D / m), clamped to -1..1") \
	X(P_OUT_VY, "vy", "Velocity Y", PK_SIGNAL_OUT, PM(BEAD), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_VY, PENDULA_CH_W + 1, "Velocity y of the bead divided by sqrt(2 D / m), clamped to -1..1") \
	X(P_OUT_VZ, "vz", "Velocity Z", PK_SIGNAL_OUT, PM(BEAD), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_VZ, PENDULA_CH_W + 2, "Velocity z of the bead divided by sqrt(2 D / m), clamped to -1..1") \
	X(P_CTL_OMEGA1, "omega1_ctl", "Angular velocity 1 (control)", PK_CONTROL_OUT, PM_EXCEPT(PM(BEAD)), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of omega1") \
	X(P_CTL_OMEGA2, "omega2_ctl", "Angular velocity 2 (control)", PK_CONTROL_OUT, PM_EXCEPT(PM(BEAD)), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of omega2") \
	X(P_CTL_OMEGA3, "omega3_ctl", "Angular velocity 3 (control)", PK_CONTROL_OUT, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of omega3") \
	X(P_CTL_OMEGA4, "omega4_ctl", "Angular velocity 4 (control)", PK_CONTROL_OUT, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of omega4") \
	X(P_CTL_OMEGA5, "omega5_ctl", "Angular velocity 5 (control)", PK_CONTROL_OUT, PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of omega5") \
	X(P_CTL_OMEGA6, "omega6_ctl", "Angular velocity 6 (control)", PK_CONTROL_OUT, PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of omega6") \
	X(P_CTL_X1P, "x1_ctl", "Direction X (control)", PK_CONTROL_OUT, PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of x1") \
	X(P_CTL_Y1P, "y1_ctl", "Direction Y (control)", PK_CONTROL_OUT, PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of y1") \
	X(P_CTL_X2, "x2_ctl", "Direction X 2 (control)", PK_CONTROL_OUT, PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of x2") \
	X(P_CTL_Y2, "y2_ctl", "Direction Y 2 (control)", PK_CONTROL_OUT, PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of y2") \
	X(P_CTL_Z2, "z2_ctl", "Direction Z 2 (control)", PK_CONTROL_OUT, PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of z2") \
	X(P_CTL_X3, "x3_ctl", "Direction X 3 (control)", PK_CONTROL_OUT, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of x3") \
	X(P_CTL_Y3, "y3_ctl", "Direction Y 3 (control)", PK_CONTROL_OUT, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of y3") \
	X(P_CTL_Z3, "z3_ctl", "Direction Z 3 (control)", PK_CONTROL_OUT, PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of z3") \
	X(P_CTL_X4, "x4_ctl", "Direction X 4 (control)", PK_CONTROL_OUT, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of x4") \
	X(P_CTL_Y4, "y4_ctl", "Direction Y 4 (control)", PK_CONTROL_OUT, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of y4") \
	X(P_CTL_Z4, "z4_ctl", "Direction Z 4 (control)", PK_CONTROL_OUT, PM(SPHERICAL), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of z4") \
	X(P_CTL_X5, "x5_ctl", "Direction X 5 (control)", PK_CONTROL_OUT, PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of x5") \
	X(P_CTL_Y5, "y5_ctl", "Direction Y 5 (control)", PK_CONTROL_OUT, PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of y5") \
	X(P_CTL_X6, "x6_ctl", "Direction X 6 (control)", PK_CONTROL_OUT, PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of x6") \
	X(P_CTL_Y6, "y6_ctl", "Direction Y 6 (control)", PK_CONTROL_OUT, PM(CHAIN), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of y6") \
	X(P_CTL_VX, "vx_ctl", "Velocity X (control)", PK_CONTROL_OUT, PM(BEAD), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of vx") \
	X(P_CTL_VY, "vy_ctl", "Velocity Y (control)", PK_CONTROL_OUT, PM(BEAD), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of vy") \
	X(P_CTL_VZ, "vz_ctl", "Velocity Z (control)", PK_CONTROL_OUT, PM(BEAD), -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of vz") \
	X(P_CC_OMEGA1, "cc_omega1", "CC for angular velocity 1", PK_CONTROL_IN, PM_EXCEPT(PM(BEAD)), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_OMEGA1, -1, "Controller number omega1 is sent on (-1 = off)") \
	X(P_CC_OMEGA2, "cc_omega2", "CC for angular velocity 2", PK_CONTROL_IN, PM_EXCEPT(PM(BEAD)), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_OMEGA2, -1, "Controller number omega2 is sent on (-1 = off)") \
	X(P_CC_OMEGA3, "cc_omega3", "CC for angular velocity 3", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_OMEGA3, -1, "Controller number omega3 is sent on (-1 = off)") \
	X(P_CC_OMEGA4, "cc_omega4", "CC for angular velocity 4", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_OMEGA4, -1, "Controller number omega4 is sent on (-1 = off)") \
	X(P_CC_OMEGA5, "cc_omega5", "CC for angular velocity 5", PK_CONTROL_IN, PM(CHAIN), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_OMEGA5, -1, "Controller number omega5 is sent on (-1 = off)") \
	X(P_CC_OMEGA6, "cc_omega6", "CC for angular velocity 6", PK_CONTROL_IN, PM(CHAIN), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_OMEGA6, -1, "Controller number omega6 is sent on (-1 = off)") \
	X(P_CC_X1P, "cc_x1", "CC for direction X", PK_CONTROL_IN, PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_X1P, -1, "Controller number x1 is sent on (-1 = off)") \
	X(P_CC_Y1P, "cc_y1", "CC for direction Y", PK_CONTROL_IN, PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_Y1P, -1, "Controller number y1 is sent on (-1 = off)") \
	X(P_CC_X2, "cc_x2", "CC for direction X 2", PK_CONTROL_IN, PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_X2, -1, "Controller number x2 is sent on (-1 = off)") \
	X(P_CC_Y2, "cc_y2", "CC for direction Y 2", PK_CONTROL_IN, PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_Y2, -1, "Controller number y2 is sent on (-1 = off)") \
	X(P_CC_Z2, "cc_z2", "CC for direction Z 2", PK_CONTROL_IN, PM(SPHERICAL), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_Z2, -1, "Controller number z2 is sent on (-1 = off)") \
	X(P_CC_X3, "cc_x3", "CC for direction X 3", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_X3, -1, "Controller number x3 is sent on (-1 = off)") \
	X(P_CC_Y3, "cc_y3", "CC for direction Y 3", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_Y3, -1, "Controller number y3 is sent on (-1 = off)") \
	X(P_CC_Z3, "cc_z3", "CC for direction Z 3", PK_CONTROL_IN, PM(SPHERICAL), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_Z3, -1, "Controller number z3 is sent on (-1 = off)") \
	X(P_CC_X4, "cc_x4", "CC for direction X 4", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_X4, -1, "Controller number x4 is sent on (-1 = off)") \
	X(P_CC_Y4, "cc_y4", "CC for direction Y 4", PK_CONTROL_IN, PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_Y4, -1, "Controller number y4 is sent on (-1 = off)") \
	X(P_CC_Z4, "cc_z4", "CC for direction Z 4", PK_CONTROL_IN, PM(SPHERICAL), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_Z4, -1, "Controller number z4 is sent on (-1 = off)") \
	X(P_CC_X5, "cc_x5", "CC for direction X 5", PK_CONTROL_IN, PM(CHAIN), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_X5, -1, "Controller number x5 is sent on (-1 = off)") \
	X(P_CC_Y5, "cc_y5", "CC for direction Y 5", PK_CONTROL_IN, PM(CHAIN), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_Y5, -1, "Controller number y5 is sent on (-1 = off)") \
	X(P_CC_X6, "cc_x6", "CC for direction X 6", PK_CONTROL_IN, PM(CHAIN), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_X6, -1, "Controller number x6 is sent on (-1 = off)") \
	X(P_CC_Y6, "cc_y6", "CC for direction Y 6", PK_CONTROL_IN, PM(CHAIN), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_Y6, -1, "Controller number y6 is sent on (-1 = off)") \
	X(P_CC_VX, "cc_vx", "CC for velocity X", PK_CONTROL_IN, PM(BEAD), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_VX, -1, "Controller number vx is sent on (-1 = off)") \
	X(P_CC_VY, "cc_vy", "CC for velocity Y", PK_CONTROL_IN, PM(BEAD), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_VY, -1, "Controller number vy is sent on (-1 = off)") \
	X(P_CC_VZ, "cc_vz", "CC for velocity Z", PK_CONTROL_IN, PM(BEAD), -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_VZ, -1, "Controller number vz is sent on (-1 = off)") \
	X(P_OUT_FLIPS, "flips", "Flips", PK_SIGNAL_OUT, PM_ALL, -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_FLIPS, PENDULA_CH_FLIPS, "Pulse of 1 ms when an arm passes over the top: +1 in the positive direction, -1 in the negative") \
	X(P_OUT_SWINGS, "swings", "Swings", PK_SIGNAL_OUT, PM_ALL, -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_CTL_SWINGS, PENDULA_CH_SWINGS, "Pulse of 1 ms when an arm passes through the bottom: +1 in the positive direction, -1 in the negative") \
	X(P_CTL_FLIPS, "flips_ctl", "Flips (control)", PK_CONTROL_OUT, PM_ALL, -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of flips") \
	X(P_CTL_SWINGS, "swings_ctl", "Swings (control)", PK_CONTROL_OUT, PM_ALL, -1, 1, 0, PU_NONE, 0, PP_NONE, PC_NONE, P_NONE, -1, "Block-rate copy of swings") \
	X(P_CC_FLIPS, "cc_flips", "CC for flips", PK_CONTROL_IN, PM_ALL, -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_FLIPS, -1, "Controller number flips is sent on (-1 = off)") \
	X(P_CC_SWINGS, "cc_swings", "CC for swings", PK_CONTROL_IN, PM_ALL, -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_OUT_SWINGS, -1, "Controller number swings is sent on (-1 = off)") \
	X(P_NOTE_FLIP, "note_flip", "Flip note", PK_CONTROL_IN, PM_ALL, -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_NONE, -1, "MIDI note played when body 1 flips; body k plays this + k - 1 (-1 = off)") \
	X(P_NOTE_SWING, "note_swing", "Swing note", PK_CONTROL_IN, PM_ALL, -1, 127, -1, PU_NONE, PF_INTEGER, PP_NONE, PC_NONE, P_NONE, -1, "MIDI note played when body 1 swings through the bottom; body k plays this + k - 1 (-1 = off)") \
	X(P_NOTE_LENGTH, "note_length", "Note length", PK_CONTROL_IN, PM_ALL, 1, 5000, 100, PU_MS, PF_LOG, PP_NONE, PC_NONE, P_NONE, -1, "Milliseconds from a note-on to its note-off")
// clang-format on

typedef enum {
#define PENDULA_X_ENUM(id, ...) id,
	PENDULA_PORTS(PENDULA_X_ENUM)
#undef PENDULA_X_ENUM
	    PENDULA_N_PORT_IDS
} pendula_port_id;

/* Per-model defaults that differ from the table's default column:
 * X(model, port id, value).  A row may name a port the model lacks: its
 * value is then the model's fixed setting (e.g. the double pendulum's two
 * bodies). */
// clang-format off
#define PENDULA_MODEL_DEFAULTS(X) \
	X(DOUBLE, P_N_BODIES, 2) \
	X(PARALLEL, P_M2, 0.25) \
	X(PARALLEL, P_THETA1_INIT, 30) \
	X(PARALLEL, P_THETA2_INIT, 100) \
	X(CHAIN, P_M3, 1) \
	X(CHAIN, P_M4, 1) \
	X(SPHERICAL, P_N_LINKS, 2) \
	X(BEAD, P_PHI1_INIT, 45)
// clang-format on

/* Per-model ranges narrower than the table's: X(model, port id, min, max)
 * (the spherical pendulum has at most four links, the chain six). */
// clang-format off
#define PENDULA_MODEL_RANGES(X) \
	X(SPHERICAL, P_N_LINKS, 1, 4)
// clang-format on

typedef struct {
	const char *symbol;
	const char *name;
	pendula_port_kind kind;
	unsigned models;
	float min, max;
	double def; /* exact: the engine's default settings come from it */
	pendula_unit unit;
	unsigned flags;
	int param; /* offset in pendula_params, or PP_NONE */
	pendula_param_conv conv;
	int related; /* port id or P_NONE */
	int channel; /* engine channel or -1 */
	const char *doc;
} pendula_port_info;

static const pendula_port_info pendula_ports[PENDULA_N_PORT_IDS] = {
#define PENDULA_X_INFO(id, sym, nm, kd, md, mn, mx, df, un, fl, par, cv, rel, ch, dc) \
	{sym, nm, kd, md, (float)(mn), (float)(mx), (double)(df), un, fl, par, cv, rel, ch, dc},
    PENDULA_PORTS(PENDULA_X_INFO)
#undef PENDULA_X_INFO
};

/* The models of the registry, for the generators and the glue. */
typedef struct {
	const char *slug; /* URI suffix of the audio plugin */
	const char *name;
	const char *description;
} pendula_model_info;

static const pendula_model_info pendula_model_infos[PENDULA_N_MODELS] = {
#define PENDULA_X_MODEL_INFO(id, slug, name, desc) {#slug, name, desc},
    PENDULA_MODELS(PENDULA_X_MODEL_INFO)
#undef PENDULA_X_MODEL_INFO
};

/* Plugin URIs and short names (the URI suffix), by variant. */
static const char *const pendula_variant_uris[PENDULA_N_VARIANTS] = {
#define PENDULA_X_VARIANT_URI(id, slug, name, desc) \
	PENDULA_URI_BASE #slug, PENDULA_URI_BASE #slug "-cv",
    PENDULA_MODELS(PENDULA_X_VARIANT_URI)
#undef PENDULA_X_VARIANT_URI
};
static const char *const pendula_variant_names[PENDULA_N_VARIANTS] = {
#define PENDULA_X_VARIANT_NAME(id, slug, name, desc) #slug, #slug "-cv",
    PENDULA_MODELS(PENDULA_X_VARIANT_NAME)
#undef PENDULA_X_VARIANT_NAME
};

/* Tempo-sync note values for pivot_x_sync / pivot_y_sync (index 0 = free). */
typedef struct {
	const char *label;
	double beats; /* length of one forcing period in quarter notes */
} pendula_sync_note;

static const pendula_sync_note pendula_sync_notes[] = {
    {"Free (Hz)", 0.0}, {"1/32", 0.125},        {"1/16 triplet", 1.0 / 6.0},
    {"1/16", 0.25},     {"1/16 dotted", 0.375}, {"1/8 triplet", 1.0 / 3.0},
    {"1/8", 0.5},       {"1/8 dotted", 0.75},   {"1/4 triplet", 2.0 / 3.0},
    {"1/4", 1.0},       {"1/4 dotted", 1.5},    {"1/2 triplet", 4.0 / 3.0},
    {"1/2", 2.0},       {"1/2 dotted", 3.0},    {"1/1 triplet", 8.0 / 3.0},
    {"1 bar", 4.0},     {"1 bar dotted", 6.0},  {"2 bars", 8.0},
    {"3 bars", 12.0},   {"4 bars", 16.0},       {"6 bars", 24.0},
    {"8 bars", 32.0},
};
#define PENDULA_N_SYNC_NOTES (sizeof(pendula_sync_notes) / sizeof(pendula_sync_notes[0]))

/* link_shape (pendula_link_shape, pendula_engine.h). */
static const char *const pendula_link_shape_labels[] = {
    [PENDULA_SHAPE_BOBS] = "Bobs on rods",
    [PENDULA_SHAPE_RODS] = "Uniform rods",
    [PENDULA_SHAPE_CUSTOM] = "Custom (c, inertia)",
};

/* surface (pendula_bead_surface, pendula_engine.h). */
static const char *const pendula_surface_labels[] = {
    [PENDULA_SURFACE_KIND_ELLIPSOID] = "Ellipsoid",
    [PENDULA_SURFACE_KIND_FLOOR] = "Wavy floor",
};

/* The scale points of a PF_ENUM port: the label of each integer value from
 * its minimum to its maximum (NULL for any other value or port).  The TTL
 * generator and the tests read them from here. */
static inline const char *pendula_enum_label(pendula_port_id id, long value)
{
	const size_t n_shapes =
	    sizeof(pendula_link_shape_labels) / sizeof(pendula_link_shape_labels[0]);
	const size_t n_surfaces =
	    sizeof(pendula_surface_labels) / sizeof(pendula_surface_labels[0]);
	if (value < 0)
		return NULL;
	switch (id) {
	case P_PIVOT_X_SYNC:
	case P_PIVOT_Y_SYNC:
		return (size_t)value < PENDULA_N_SYNC_NOTES ? pendula_sync_notes[value].label
		                                            : NULL;
	case P_LINK_SHAPE:
		return (size_t)value < n_shapes ? pendula_link_shape_labels[value] : NULL;
	case P_SURFACE:
		return (size_t)value < n_surfaces ? pendula_surface_labels[value] : NULL;
	default:
		return NULL;
	}
}

static inline pendula_model pendula_variant_model(pendula_variant v)
{
	return (pendula_model)(v / 2);
}

static inline int pendula_variant_is_cv(pendula_variant v)
{
	return v % 2;
}

static inline unsigned pendula_variant_model_mask(pendula_variant v)
{
	return 1u << pendula_variant_model(v);
}

/* The model's own default of a port (PENDULA_MODEL_DEFAULTS), or NULL. */
static inline const double *pendula_model_port_override(pendula_model model, pendula_port_id id)
{
	static const struct {
		pendula_model model;
		pendula_port_id id;
		double value;
	} overrides[] = {
#define PENDULA_X_DEFAULT(model, id, value) {PENDULA_MODEL_##model, id, (double)(value)},
	    PENDULA_MODEL_DEFAULTS(PENDULA_X_DEFAULT)
#undef PENDULA_X_DEFAULT
	};
	for (size_t i = 0; i < sizeof(overrides) / sizeof(overrides[0]); ++i)
		if (overrides[i].model == model && overrides[i].id == id)
			return &overrides[i].value;
	return NULL;
}

/* Default value of a port in a model (the LV2 default is this as a float). */
static inline double pendula_model_port_default(pendula_model model, pendula_port_id id)
{
	const double *value = pendula_model_port_override(model, id);
	return value ? *value : pendula_ports[id].def;
}

static inline float pendula_port_default(pendula_variant v, pendula_port_id id)
{
	return (float)pendula_model_port_default(pendula_variant_model(v), id);
}

/* The range of a port in a model (the LV2 minimum and maximum). */
static inline void pendula_model_port_range(pendula_model model, pendula_port_id id, float *min,
                                            float *max)
{
	static const struct {
		pendula_model model;
		pendula_port_id id;
		float min, max;
	} ranges[] = {
#define PENDULA_X_RANGE(model, id, lo, hi) {PENDULA_MODEL_##model, id, (float)(lo), (float)(hi)},
	    PENDULA_MODEL_RANGES(PENDULA_X_RANGE)
#undef PENDULA_X_RANGE
	};
	*min = pendula_ports[id].min;
	*max = pendula_ports[id].max;
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); ++i)
		if (ranges[i].model == model && ranges[i].id == id) {
			*min = ranges[i].min;
			*max = ranges[i].max;
		}
}

static inline void pendula_port_range(pendula_variant v, pendula_port_id id, float *min, float *max)
{
	pendula_model_port_range(pendula_variant_model(v), id, min, max);
}

/* Port index of a global id in a variant, or -1 if the variant lacks it. */
static inline int pendula_port_index(pendula_variant v, pendula_port_id id)
{
	unsigned mask = pendula_variant_model_mask(v);
	int index = 0;
	if (!(pendula_ports[id].models & mask))
		return -1;
	for (int i = 0; i < (int)id; ++i)
		if (pendula_ports[i].models & mask)
			++index;
	return index;
}

/* Global id of a variant's port index, or -1 if out of range. */
static inline int pendula_port_id_at(pendula_variant v, uint32_t index)
{
	unsigned mask = pendula_variant_model_mask(v);
	uint32_t seen = 0;
	for (int i = 0; i < PENDULA_N_PORT_IDS; ++i)
		if (pendula_ports[i].models & mask) {
			if (seen == index)
				return i;
			++seen;
		}
	return -1;
}

static inline uint32_t pendula_port_count(pendula_variant v)
{
	unsigned mask = pendula_variant_model_mask(v);
	uint32_t n = 0;
	for (int i = 0; i < PENDULA_N_PORT_IDS; ++i)
		if (pendula_ports[i].models & mask)
			++n;
	return n;
}

/*
 * Port groups (LV2 port-groups, pg:group): the sections a generic host UI
 * shows.  A port's group is derived from its kind and symbol, not from a
 * column of the table, so a new row gets a group without touching the
 * others: the symbol conventions below (cc_*, pivot_*, *_init, energy_*,
 * note_*, a trailing body number, ...) already say what a port is about.
 * The spec wants a group to hold only inputs (pg:InputGroup) or only
 * outputs (pg:OutputGroup), and group symbols share the namespace of port
 * symbols, hence the "_group" suffix (a test checks both).
 */
typedef enum {
	PENDULA_GROUP_PHYSICS, /* time, gravity, bodies, freeze: the whole system */
	PENDULA_GROUP_BODY,    /* + k - 1: the settings of body (arm, link) k */
	PENDULA_GROUP_SURFACE = PENDULA_GROUP_BODY + PENDULA_MAX_BODIES, /* the bead's surface */
	PENDULA_GROUP_FORCING,  /* pivot and floor drive, tempo sync */
	PENDULA_GROUP_ENERGY,   /* energy control */
	PENDULA_GROUP_EVENTS,   /* events from the motion: notes */
	PENDULA_GROUP_INITIAL,  /* initial state and reset */
	PENDULA_GROUP_MIDI,     /* MIDI and time input, CC settings */
	PENDULA_GROUP_OUTPUTS,  /* signal outputs (audio or CV) */
	PENDULA_GROUP_READOUTS, /* control outputs: block-rate copies, pivot position */
	PENDULA_GROUP_MIDI_OUT, /* the MIDI output */
	PENDULA_N_GROUPS
} pendula_group;

typedef struct {
	const char *symbol; /* lv2:symbol (and in the URI) */
	const char *name;   /* lv2:name, rdfs:label */
	int output;         /* pg:OutputGroup (else pg:InputGroup) */
} pendula_group_info;

/* In the order of pendula_group. */
// clang-format off
static const pendula_group_info pendula_groups[] = {
	{"physics_group", "Physics", 0},
	{"body1_group", "Body 1", 0},
	{"body2_group", "Body 2", 0},
	{"body3_group", "Body 3", 0},
	{"body4_group", "Body 4", 0},
	{"body5_group", "Body 5", 0},
	{"body6_group", "Body 6", 0},
	{"surface_group", "Surface", 0},
	{"forcing_group", "Forcing", 0},
	{"energy_group", "Energy", 0},
	{"events_group", "Events", 0},
	{"initial_group", "Initial state", 0},
	{"midi_group", "MIDI", 0},
	{"outputs_group", "Outputs", 1},
	{"readouts_group", "Readouts", 1},
	{"midi_out_group", "MIDI output", 1},
};
// clang-format on
_Static_assert(sizeof pendula_groups / sizeof pendula_groups[0] == PENDULA_N_GROUPS &&
                   PENDULA_MAX_BODIES == 6,
               "one entry per group, one Body group per body");

/* A group's URI: PENDULA_URI_BASE "<NN>_<symbol>", NN its place in
 * pendula_group, so that hosts that sort the groups by URI (jalv) show them
 * in this order.  printf format, arguments (int group, const char *symbol). */
#define PENDULA_GROUP_URI_FORMAT PENDULA_URI_BASE "%02d_%s"

static inline int pendula_symbol_starts(const char *symbol, const char *prefix)
{
	while (*prefix)
		if (*symbol++ != *prefix++)
			return 0;
	return 1;
}

static inline int pendula_symbol_ends(const char *symbol, const char *suffix)
{
	size_t n = 0, m = 0;
	while (symbol[n])
		++n;
	while (suffix[m])
		++m;
	if (m > n)
		return 0;
	for (size_t i = 0; i < m; ++i)
		if (symbol[n - m + i] != suffix[i])
			return 0;
	return 1;
}

/* The body a symbol names by its trailing digit, 1 to PENDULA_MAX_BODIES
 * (m3, lambda3, theta3, omega3, x3: body 3), or 0 (tip_x, vx, energy, ...). */
static inline int pendula_symbol_body(const char *symbol)
{
	size_t n = 0;
	while (symbol[n])
		++n;
	if (n >= 2 && symbol[n - 1] >= '1' && symbol[n - 1] < '1' + PENDULA_MAX_BODIES &&
	    !(symbol[n - 2] >= '0' && symbol[n - 2] <= '9'))
		return symbol[n - 1] - '0';
	return 0;
}

/* The group of a port of this kind and symbol (any symbol: the tests also
 * ask about symbols no row has yet). */
static inline pendula_group pendula_group_of(pendula_port_kind kind, const char *symbol)
{
	switch (kind) {
	case PK_ATOM_IN:
		return PENDULA_GROUP_MIDI;
	case PK_ATOM_OUT:
		return PENDULA_GROUP_MIDI_OUT;
	case PK_SIGNAL_OUT:
		return PENDULA_GROUP_OUTPUTS;
	case PK_CONTROL_OUT:
		return PENDULA_GROUP_READOUTS;
	case PK_CONTROL_IN:
		break;
	}
	/* energy_max scales the energy CC: a MIDI setting, not an energy control */
	if (pendula_symbol_starts(symbol, "cc_") || pendula_symbol_starts(symbol, "midi_") ||
	    pendula_symbol_starts(symbol, "energy_max"))
		return PENDULA_GROUP_MIDI;
	if (pendula_symbol_ends(symbol, "_init") || pendula_symbol_starts(symbol, "reset"))
		return PENDULA_GROUP_INITIAL;
	if (pendula_symbol_starts(symbol, "pivot_") || pendula_symbol_starts(symbol, "wave_"))
		return PENDULA_GROUP_FORCING;
	if (pendula_symbol_starts(symbol, "energy_"))
		return PENDULA_GROUP_ENERGY;
	if (pendula_symbol_starts(symbol, "note_") || pendula_symbol_starts(symbol, "flip") ||
	    pendula_symbol_starts(symbol, "swing") || pendula_symbol_starts(symbol, "event"))
		return PENDULA_GROUP_EVENTS;
	if (pendula_symbol_starts(symbol, "surface") || pendula_symbol_starts(symbol, "axis_") ||
	    pendula_symbol_starts(symbol, "floor_"))
		return PENDULA_GROUP_SURFACE;
	/* m3, lambda3, sigma3, beta3, ...: body 3 (a single trailing digit) */
	const int body = pendula_symbol_body(symbol);
	if (body > 0)
		return (pendula_group)(PENDULA_GROUP_BODY + (body - 1));
	return PENDULA_GROUP_PHYSICS;
}

static inline pendula_group pendula_port_group(pendula_port_id id)
{
	return pendula_group_of(pendula_ports[id].kind, pendula_ports[id].symbol);
}

/* The value a whole-number control port takes (README.md's bad-input rule):
 * a switch (lv2:toggled) is on from 0.5, an integer or enumeration the
 * nearest whole number, halves up.  The sum is taken in double: in float,
 * 0.49999997 + 0.5 is 1. */
static inline float pendula_whole_value(float v, int toggled)
{
	if (toggled)
		return v >= 0.5f ? 1.0f : 0.0f;
	return (float)floor((double)v + 0.5);
}

/* Stores a control value (in port units) into the settings it belongs to. */
static inline void pendula_param_set(pendula_params *p, pendula_port_id id, double value)
{
	const pendula_port_info *info = &pendula_ports[id];
	if (info->param < 0)
		return;
	char *field = (char *)p + info->param;
	switch (info->conv) {
	case PC_REAL:
		*(double *)(void *)field = value;
		break;
	case PC_DEG:
		*(double *)(void *)field = value * (PENDULA_PI / 180.0);
		break;
	case PC_INT:
		*(int *)(void *)field = (int)value;
		break;
	case PC_NONE:
		break;
	}
}

/* Fills p with the model's defaults: the port table's (params_default.c). */
void pendula_params_default(pendula_params *p, pendula_model model);

#endif
