/* SPDX-License-Identifier: ISC */
/*
 * The rows of the port table: one X(id, .field = value, ...) per port, the
 * fields those of pendula_port_info (ports.h, which includes this file and
 * defines every name used here).  A field a row does not name is zero, or
 * "none" for param, conv, related and channel.
 *   .min, .max  the LV2 range (per-model ranges: PENDULA_MODEL_RANGES)
 *   .def        the default for every model unless PENDULA_MODEL_DEFAULTS
 *               says else (control inputs name it, also when it is 0)
 *   .param, .conv  where a control input goes in pendula_params
 *   .related    a signal output's control-output mirror; a cc_* input's signal;
 *               a MOD CV output's signal
 *   .channel    a signal output's engine channel (pendula_engine.h)
 *   .group      the pg:group (PG_*, ports.h)
 *   .not_cv     models whose plugins with CV ports (-cv, -mod) leave the row
 *               out, to stay within 32 CV ports (ports.h, PENDULA_MAX_CV_PORTS)
 * Order = port index order (see ports.h: a row that an existing model has
 * goes to the END).
 */
#ifndef PENDULA_PORT_TABLE_H
#define PENDULA_PORT_TABLE_H

#include "port_table_live.h"

// clang-format off
#define PENDULA_PORTS(X) \
	X(P_TIME_SCALE, .symbol = "time_scale", .name = "Time scale", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_PHYSICS, \
	  .min = 0.01, .max = 100, .def = 1, .unit = PU_COEF, .flags = PF_LOG | PF_SMOOTH | PF_UI, .param = PP(time_scale), .conv = PC_REAL, \
	  .doc = "Simulated seconds per second of audio") \
	X(P_GRAVITY, .symbol = "gravity", .name = "Gravity", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_PHYSICS, \
	  .min = 0.1, .max = 100, .def = 9.81, .unit = PU_MS2, .flags = PF_SMOOTH, .param = PP(gravity), .conv = PC_REAL, \
	  .doc = "Gravitational acceleration g") \
	X(P_N_BODIES, .symbol = "n_bodies", .name = "Bodies", .kind = PK_CONTROL_IN, .models = PM(PARALLEL), .group = PG_PHYSICS, \
	  .min = 1, .max = 4, .def = 3, .unit = PU_BODIES, .flags = PF_INTEGER, .param = PP(n_bodies), .conv = PC_INT, \
	  .doc = "Number of bodies N (body 1 and N-1 arms)") \
	X(P_N_LINKS, .symbol = "n_links", .name = "Links", .kind = PK_CONTROL_IN, .models = PM(CHAIN) | PM(SPHERICAL), .group = PG_PHYSICS, \
	  .min = 1, .max = 6, .def = 3, .unit = PU_LINKS, .flags = PF_INTEGER, .param = PP(n_bodies), .conv = PC_INT, \
	  .doc = "Number of links N, each hanging from the end of the one before") \
	X(P_LINK_SHAPE, .symbol = "link_shape", .name = "Link shape", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_PHYSICS, \
	  .min = 0, .max = 2, .def = 1, .unit = PU_CHOICE, .flags = PF_INTEGER | PF_ENUM, .param = PP(shape), .conv = PC_INT, \
	  .doc = "What the links are") \
	X(P_M1, .symbol = "m1", .name = "Mass 1", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_BODY(1), \
	  .min = 0.01, .max = 100, .def = 1, .unit = PU_KG, .flags = PF_LOG | PF_SMOOTH, .param = PP(m[0]), .conv = PC_REAL, \
	  .doc = "Mass of bob/body 1") \
	X(P_M2, .symbol = "m2", .name = "Mass 2", .kind = PK_CONTROL_IN, .models = PM_EXCEPT(PM(BEAD)), .group = PG_BODY(2), \
	  .min = 0.01, .max = 100, .def = 1, .unit = PU_KG, .flags = PF_LOG | PF_SMOOTH, .param = PP(m[1]), .conv = PC_REAL, \
	  .doc = "Mass of bob/body 2") \
	X(P_M3, .symbol = "m3", .name = "Mass 3", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_BODY(3), \
	  .min = 0.01, .max = 100, .def = 0.25, .unit = PU_KG, .flags = PF_LOG | PF_SMOOTH, .param = PP(m[2]), .conv = PC_REAL, \
	  .doc = "Mass of body 3") \
	X(P_M4, .symbol = "m4", .name = "Mass 4", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_BODY(4), \
	  .min = 0.01, .max = 100, .def = 0.25, .unit = PU_KG, .flags = PF_LOG | PF_SMOOTH, .param = PP(m[3]), .conv = PC_REAL, \
	  .doc = "Mass of body 4") \
	X(P_M5, .symbol = "m5", .name = "Mass 5", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_BODY(5), \
	  .min = 0.01, .max = 100, .def = 1, .unit = PU_KG, .flags = PF_LOG | PF_SMOOTH, .param = PP(m[4]), .conv = PC_REAL, \
	  .doc = "Mass of body 5") \
	X(P_M6, .symbol = "m6", .name = "Mass 6", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_BODY(6), \
	  .min = 0.01, .max = 100, .def = 1, .unit = PU_KG, .flags = PF_LOG | PF_SMOOTH, .param = PP(m[5]), .conv = PC_REAL, \
	  .doc = "Mass of body 6") \
	X(P_L1, .symbol = "l1", .name = "Length 1", .kind = PK_CONTROL_IN, .models = PM(DOUBLE) | PM(CHAIN) | PM(SPHERICAL), .group = PG_BODY(1), \
	  .min = 0.01, .max = 10, .def = 1, .unit = PU_M, .flags = PF_LOG | PF_SMOOTH, .param = PP(l[0]), .conv = PC_REAL, \
	  .doc = "Rod length 1") \
	X(P_L2, .symbol = "l2", .name = "Length 2", .kind = PK_CONTROL_IN, .models = PM(DOUBLE) | PM(CHAIN) | PM(SPHERICAL), .group = PG_BODY(2), \
	  .min = 0.01, .max = 10, .def = 1, .unit = PU_M, .flags = PF_LOG | PF_SMOOTH, .param = PP(l[1]), .conv = PC_REAL, \
	  .doc = "Rod length 2") \
	X(P_L3, .symbol = "l3", .name = "Length 3", .kind = PK_CONTROL_IN, .models = PM(CHAIN) | PM(SPHERICAL), .group = PG_BODY(3), \
	  .min = 0.01, .max = 10, .def = 1, .unit = PU_M, .flags = PF_LOG | PF_SMOOTH, .param = PP(l[2]), .conv = PC_REAL, \
	  .doc = "Rod length 3") \
	X(P_L4, .symbol = "l4", .name = "Length 4", .kind = PK_CONTROL_IN, .models = PM(CHAIN) | PM(SPHERICAL), .group = PG_BODY(4), \
	  .min = 0.01, .max = 10, .def = 1, .unit = PU_M, .flags = PF_LOG | PF_SMOOTH, .param = PP(l[3]), .conv = PC_REAL, \
	  .doc = "Rod length 4") \
	X(P_L5, .symbol = "l5", .name = "Length 5", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_BODY(5), \
	  .min = 0.01, .max = 10, .def = 1, .unit = PU_M, .flags = PF_LOG | PF_SMOOTH, .param = PP(l[4]), .conv = PC_REAL, \
	  .doc = "Rod length 5") \
	X(P_L6, .symbol = "l6", .name = "Length 6", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_BODY(6), \
	  .min = 0.01, .max = 10, .def = 1, .unit = PU_M, .flags = PF_LOG | PF_SMOOTH, .param = PP(l[5]), .conv = PC_REAL, \
	  .doc = "Rod length 6") \
	X(P_C1, .symbol = "c1", .name = "Centre of mass 1", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN), .group = PG_BODY(1), \
	  .min = 0, .max = 10, .def = 0.2, .unit = PU_M, .flags = PF_SMOOTH, .param = PP(c[0]), .conv = PC_REAL, \
	  .doc = "Pivot to centre of mass of body 1") \
	X(P_C2, .symbol = "c2", .name = "Centre of mass 2", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN), .group = PG_BODY(2), \
	  .min = 0, .max = 10, .def = 0.25, .unit = PU_M, .flags = PF_SMOOTH, .param = PP(c[1]), .conv = PC_REAL, \
	  .doc = "Hinge to centre of mass of body 2") \
	X(P_C3, .symbol = "c3", .name = "Centre of mass 3", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN), .group = PG_BODY(3), \
	  .min = 0, .max = 10, .def = 0.25, .unit = PU_M, .flags = PF_SMOOTH, .param = PP(c[2]), .conv = PC_REAL, \
	  .doc = "Hinge to centre of mass of body 3") \
	X(P_C4, .symbol = "c4", .name = "Centre of mass 4", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN), .group = PG_BODY(4), \
	  .min = 0, .max = 10, .def = 0.25, .unit = PU_M, .flags = PF_SMOOTH, .param = PP(c[3]), .conv = PC_REAL, \
	  .doc = "Hinge to centre of mass of body 4") \
	X(P_C5, .symbol = "c5", .name = "Centre of mass 5", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_BODY(5), \
	  .min = 0, .max = 10, .def = 0.25, .unit = PU_M, .flags = PF_SMOOTH, .param = PP(c[4]), .conv = PC_REAL, \
	  .doc = "Hinge to centre of mass of body 5") \
	X(P_C6, .symbol = "c6", .name = "Centre of mass 6", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_BODY(6), \
	  .min = 0, .max = 10, .def = 0.25, .unit = PU_M, .flags = PF_SMOOTH, .param = PP(c[5]), .conv = PC_REAL, \
	  .doc = "Hinge to centre of mass of body 6") \
	X(P_INERTIA1, .symbol = "inertia1", .name = "Inertia 1", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN), .group = PG_BODY(1), \
	  .min = 1e-6, .max = 100, .def = 0.02, .unit = PU_KGM2, .flags = PF_LOG | PF_SMOOTH, .param = PP(inertia[0]), .conv = PC_REAL, \
	  .doc = "Moment of inertia of body 1 about its centre of mass") \
	X(P_INERTIA2, .symbol = "inertia2", .name = "Inertia 2", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN), .group = PG_BODY(2), \
	  .min = 1e-6, .max = 100, .def = 0.005, .unit = PU_KGM2, .flags = PF_LOG | PF_SMOOTH, .param = PP(inertia[1]), .conv = PC_REAL, \
	  .doc = "Moment of inertia of body 2 about its centre of mass") \
	X(P_INERTIA3, .symbol = "inertia3", .name = "Inertia 3", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN), .group = PG_BODY(3), \
	  .min = 1e-6, .max = 100, .def = 0.005, .unit = PU_KGM2, .flags = PF_LOG | PF_SMOOTH, .param = PP(inertia[2]), .conv = PC_REAL, \
	  .doc = "Moment of inertia of body 3 about its centre of mass") \
	X(P_INERTIA4, .symbol = "inertia4", .name = "Inertia 4", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN), .group = PG_BODY(4), \
	  .min = 1e-6, .max = 100, .def = 0.005, .unit = PU_KGM2, .flags = PF_LOG | PF_SMOOTH, .param = PP(inertia[3]), .conv = PC_REAL, \
	  .doc = "Moment of inertia of body 4 about its centre of mass") \
	X(P_INERTIA5, .symbol = "inertia5", .name = "Inertia 5", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_BODY(5), \
	  .min = 1e-6, .max = 100, .def = 0.005, .unit = PU_KGM2, .flags = PF_LOG | PF_SMOOTH, .param = PP(inertia[4]), .conv = PC_REAL, \
	  .doc = "Moment of inertia of body 5 about its centre of mass") \
	X(P_INERTIA6, .symbol = "inertia6", .name = "Inertia 6", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_BODY(6), \
	  .min = 1e-6, .max = 100, .def = 0.005, .unit = PU_KGM2, .flags = PF_LOG | PF_SMOOTH, .param = PP(inertia[5]), .conv = PC_REAL, \
	  .doc = "Moment of inertia of body 6 about its centre of mass") \
	X(P_B2, .symbol = "b2", .name = "Hinge distance 2", .kind = PK_CONTROL_IN, .models = PM(PARALLEL), .group = PG_BODY(2), \
	  .min = 0, .max = 10, .def = 0.3, .unit = PU_M, .flags = PF_SMOOTH, .param = PP(b[1]), .conv = PC_REAL, \
	  .doc = "Distance from the pivot to the hinge of body 2 on body 1") \
	X(P_B3, .symbol = "b3", .name = "Hinge distance 3", .kind = PK_CONTROL_IN, .models = PM(PARALLEL), .group = PG_BODY(3), \
	  .min = 0, .max = 10, .def = 0.3, .unit = PU_M, .flags = PF_SMOOTH, .param = PP(b[2]), .conv = PC_REAL, \
	  .doc = "Distance from the pivot to the hinge of body 3 on body 1") \
	X(P_B4, .symbol = "b4", .name = "Hinge distance 4", .kind = PK_CONTROL_IN, .models = PM(PARALLEL), .group = PG_BODY(4), \
	  .min = 0, .max = 10, .def = 0.3, .unit = PU_M, .flags = PF_SMOOTH, .param = PP(b[3]), .conv = PC_REAL, \
	  .doc = "Distance from the pivot to the hinge of body 4 on body 1") \
	X(P_BETA2, .symbol = "beta2", .name = "Hinge angle 2", .kind = PK_CONTROL_IN, .models = PM(PARALLEL), .group = PG_BODY(2), \
	  .min = -180, .max = 180, .def = 120, .unit = PU_DEGREE, .flags = PF_SMOOTH, .param = PP(beta[1]), .conv = PC_DEG, \
	  .doc = "Angle G1-O1-O2 of the hinge of body 2") \
	X(P_BETA3, .symbol = "beta3", .name = "Hinge angle 3", .kind = PK_CONTROL_IN, .models = PM(PARALLEL), .group = PG_BODY(3), \
	  .min = -180, .max = 180, .def = -120, .unit = PU_DEGREE, .flags = PF_SMOOTH, .param = PP(beta[2]), .conv = PC_DEG, \
	  .doc = "Angle G1-O1-O3 of the hinge of body 3") \
	X(P_BETA4, .symbol = "beta4", .name = "Hinge angle 4", .kind = PK_CONTROL_IN, .models = PM(PARALLEL), .group = PG_BODY(4), \
	  .min = -180, .max = 180, .def = 180, .unit = PU_DEGREE, .flags = PF_SMOOTH, .param = PP(beta[3]), .conv = PC_DEG, \
	  .doc = "Angle G1-O1-O4 of the hinge of body 4") \
	X(P_LAMBDA1, .symbol = "lambda1", .name = "Damping 1", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_BODY(1), \
	  .min = 0, .max = 100, .def = 0, .unit = PU_NMS, .flags = PF_SMOOTH | PF_UI, .param = PP(lambda[0]), .conv = PC_REAL, \
	  .doc = "Viscous damping of joint 1 (bead: drag, N s/m)") \
	X(P_LAMBDA2, .symbol = "lambda2", .name = "Damping 2", .kind = PK_CONTROL_IN, .models = PM_EXCEPT(PM(BEAD)), .group = PG_BODY(2), \
	  .min = 0, .max = 100, .def = 0, .unit = PU_NMS, .flags = PF_SMOOTH, .param = PP(lambda[1]), .conv = PC_REAL, \
	  .doc = "Viscous damping of joint 2") \
	X(P_LAMBDA3, .symbol = "lambda3", .name = "Damping 3", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_BODY(3), \
	  .min = 0, .max = 100, .def = 0, .unit = PU_NMS, .flags = PF_SMOOTH, .param = PP(lambda[2]), .conv = PC_REAL, \
	  .doc = "Viscous damping of joint 3") \
	X(P_LAMBDA4, .symbol = "lambda4", .name = "Damping 4", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_BODY(4), \
	  .min = 0, .max = 100, .def = 0, .unit = PU_NMS, .flags = PF_SMOOTH, .param = PP(lambda[3]), .conv = PC_REAL, \
	  .doc = "Viscous damping of joint 4") \
	X(P_LAMBDA5, .symbol = "lambda5", .name = "Damping 5", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_BODY(5), \
	  .min = 0, .max = 100, .def = 0, .unit = PU_NMS, .flags = PF_SMOOTH, .param = PP(lambda[4]), .conv = PC_REAL, \
	  .doc = "Viscous damping of joint 5") \
	X(P_LAMBDA6, .symbol = "lambda6", .name = "Damping 6", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_BODY(6), \
	  .min = 0, .max = 100, .def = 0, .unit = PU_NMS, .flags = PF_SMOOTH, .param = PP(lambda[5]), .conv = PC_REAL, \
	  .doc = "Viscous damping of joint 6") \
	X(P_SIGMA1, .symbol = "sigma1", .name = "Torque 1", .kind = PK_CONTROL_IN, .models = PM_EXCEPT(PM(BEAD)), .group = PG_BODY(1), \
	  .min = -100, .max = 100, .def = 0, .unit = PU_NM, .flags = PF_SMOOTH | PF_UI, .param = PP(sigma[0]), .conv = PC_REAL, \
	  .doc = "Constant torque on joint 1") \
	X(P_SIGMA2, .symbol = "sigma2", .name = "Torque 2", .kind = PK_CONTROL_IN, .models = PM_EXCEPT(PM(BEAD)), .group = PG_BODY(2), \
	  .min = -100, .max = 100, .def = 0, .unit = PU_NM, .flags = PF_SMOOTH, .param = PP(sigma[1]), .conv = PC_REAL, \
	  .doc = "Constant torque on joint 2") \
	X(P_SIGMA3, .symbol = "sigma3", .name = "Torque 3", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_BODY(3), \
	  .min = -100, .max = 100, .def = 0, .unit = PU_NM, .flags = PF_SMOOTH, .param = PP(sigma[2]), .conv = PC_REAL, \
	  .doc = "Constant torque on joint 3") \
	X(P_SIGMA4, .symbol = "sigma4", .name = "Torque 4", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_BODY(4), \
	  .min = -100, .max = 100, .def = 0, .unit = PU_NM, .flags = PF_SMOOTH, .param = PP(sigma[3]), .conv = PC_REAL, \
	  .doc = "Constant torque on joint 4") \
	X(P_SIGMA5, .symbol = "sigma5", .name = "Torque 5", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_BODY(5), \
	  .min = -100, .max = 100, .def = 0, .unit = PU_NM, .flags = PF_SMOOTH, .param = PP(sigma[4]), .conv = PC_REAL, \
	  .doc = "Constant torque on joint 5") \
	X(P_SIGMA6, .symbol = "sigma6", .name = "Torque 6", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_BODY(6), \
	  .min = -100, .max = 100, .def = 0, .unit = PU_NM, .flags = PF_SMOOTH, .param = PP(sigma[5]), .conv = PC_REAL, \
	  .doc = "Constant torque on joint 6") \
	X(P_PIVOT_X_AMP, .symbol = "pivot_x_amp", .name = "Pivot X amplitude", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_FORCING, \
	  .min = 0, .max = 10, .def = 0, .unit = PU_M, .flags = PF_SMOOTH | PF_UI, .param = PP(pivot_x_amp), .conv = PC_REAL, \
	  .doc = "Horizontal forcing amplitude Delta_x") \
	X(P_PIVOT_X_FREQ, .symbol = "pivot_x_freq", .name = "Pivot X frequency", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_FORCING, \
	  .min = 0, .max = 1000, .def = 0, .unit = PU_HZ, .flags = PF_SMOOTH | PF_UI, .param = PP(pivot_x_freq), .conv = PC_REAL, \
	  .doc = "Horizontal forcing frequency Omega_x / 2 pi") \
	X(P_PIVOT_Y_AMP, .symbol = "pivot_y_amp", .name = "Pivot Y amplitude", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_FORCING, \
	  .min = 0, .max = 10, .def = 0, .unit = PU_M, .flags = PF_SMOOTH | PF_UI, .param = PP(pivot_y_amp), .conv = PC_REAL, \
	  .doc = "Vertical forcing amplitude Delta_y") \
	X(P_PIVOT_Y_FREQ, .symbol = "pivot_y_freq", .name = "Pivot Y frequency", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_FORCING, \
	  .min = 0, .max = 1000, .def = 0, .unit = PU_HZ, .flags = PF_SMOOTH | PF_UI, .param = PP(pivot_y_freq), .conv = PC_REAL, \
	  .doc = "Vertical forcing frequency Omega_y / 2 pi") \
	X(P_PIVOT_Z_AMP, .symbol = "pivot_z_amp", .name = "Pivot Z amplitude", .kind = PK_CONTROL_IN, .models = PM_3D, .group = PG_FORCING, \
	  .min = 0, .max = 10, .def = 0, .unit = PU_M, .flags = PF_SMOOTH | PF_UI, .param = PP(pivot_z_amp), .conv = PC_REAL, \
	  .doc = "Forcing amplitude Delta_z toward the viewer") \
	X(P_PIVOT_Z_FREQ, .symbol = "pivot_z_freq", .name = "Pivot Z frequency", .kind = PK_CONTROL_IN, .models = PM_3D, .group = PG_FORCING, \
	  .min = 0, .max = 1000, .def = 0, .unit = PU_HZ, .flags = PF_SMOOTH | PF_UI, .param = PP(pivot_z_freq), .conv = PC_REAL, \
	  .doc = "Forcing frequency Omega_z / 2 pi toward the viewer") \
	X(P_THETA1_INIT, .symbol = "theta1_init", .name = "Initial angle 1", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_INITIAL, \
	  .min = -180, .max = 180, .def = 120, .unit = PU_DEGREE, .flags = PF_INITIAL, .param = PP(theta_init[0]), .conv = PC_DEG, \
	  .doc = "Angle of body 1 after a reset (bead: from the lowest point)") \
	X(P_THETA2_INIT, .symbol = "theta2_init", .name = "Initial angle 2", .kind = PK_CONTROL_IN, .models = PM_EXCEPT(PM(BEAD)), .group = PG_INITIAL, \
	  .min = -180, .max = 180, .def = -60, .unit = PU_DEGREE, .flags = PF_INITIAL, .param = PP(theta_init[1]), .conv = PC_DEG, \
	  .doc = "Angle of body 2 after a reset") \
	X(P_THETA3_INIT, .symbol = "theta3_init", .name = "Initial angle 3", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_INITIAL, \
	  .min = -180, .max = 180, .def = -90, .unit = PU_DEGREE, .flags = PF_INITIAL, .param = PP(theta_init[2]), .conv = PC_DEG, \
	  .doc = "Angle of body 3 after a reset") \
	X(P_THETA4_INIT, .symbol = "theta4_init", .name = "Initial angle 4", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_INITIAL, \
	  .min = -180, .max = 180, .def = 150, .unit = PU_DEGREE, .flags = PF_INITIAL, .param = PP(theta_init[3]), .conv = PC_DEG, \
	  .doc = "Angle of body 4 after a reset") \
	X(P_THETA5_INIT, .symbol = "theta5_init", .name = "Initial angle 5", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_INITIAL, \
	  .min = -180, .max = 180, .def = 60, .unit = PU_DEGREE, .flags = PF_INITIAL, .param = PP(theta_init[4]), .conv = PC_DEG, \
	  .doc = "Angle of body 5 after a reset") \
	X(P_THETA6_INIT, .symbol = "theta6_init", .name = "Initial angle 6", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_INITIAL, \
	  .min = -180, .max = 180, .def = -30, .unit = PU_DEGREE, .flags = PF_INITIAL, .param = PP(theta_init[5]), .conv = PC_DEG, \
	  .doc = "Angle of body 6 after a reset") \
	X(P_PHI1_INIT, .symbol = "phi1_init", .name = "Initial azimuth 1", .kind = PK_CONTROL_IN, .models = PM_3D, .group = PG_INITIAL, \
	  .min = -180, .max = 180, .def = 0, .unit = PU_DEGREE, .flags = PF_INITIAL, .param = PP(phi_init[0]), .conv = PC_DEG, \
	  .doc = "Azimuth of body 1 after a reset, from +x toward +z") \
	X(P_PHI2_INIT, .symbol = "phi2_init", .name = "Initial azimuth 2", .kind = PK_CONTROL_IN, .models = PM(SPHERICAL), .group = PG_INITIAL, \
	  .min = -180, .max = 180, .def = 90, .unit = PU_DEGREE, .flags = PF_INITIAL, .param = PP(phi_init[1]), .conv = PC_DEG, \
	  .doc = "Azimuth of body 2 after a reset, from +x toward +z") \
	X(P_PHI3_INIT, .symbol = "phi3_init", .name = "Initial azimuth 3", .kind = PK_CONTROL_IN, .models = PM(SPHERICAL), .group = PG_INITIAL, \
	  .min = -180, .max = 180, .def = -45, .unit = PU_DEGREE, .flags = PF_INITIAL, .param = PP(phi_init[2]), .conv = PC_DEG, \
	  .doc = "Azimuth of body 3 after a reset, from +x toward +z") \
	X(P_PHI4_INIT, .symbol = "phi4_init", .name = "Initial azimuth 4", .kind = PK_CONTROL_IN, .models = PM(SPHERICAL), .group = PG_INITIAL, \
	  .min = -180, .max = 180, .def = 135, .unit = PU_DEGREE, .flags = PF_INITIAL, .param = PP(phi_init[3]), .conv = PC_DEG, \
	  .doc = "Azimuth of body 4 after a reset, from +x toward +z") \
	X(P_SPIN_INIT, .symbol = "spin_init", .name = "Initial spin", .kind = PK_CONTROL_IN, .models = PM_3D, .group = PG_INITIAL, \
	  .min = -10, .max = 10, .def = 0, .unit = PU_HZ, .flags = PF_INITIAL, .param = PP(spin_init), .conv = PC_REAL, \
	  .doc = "Turn about the vertical after a reset (0 = at rest)") \
	X(P_FLOOR_X_INIT, .symbol = "floor_x_init", .name = "Initial floor position", .kind = PK_CONTROL_IN, .models = PM(BEAD), .group = PG_INITIAL, \
	  .min = -10, .max = 10, .def = 0.8, .unit = PU_M, .flags = PF_INITIAL, .param = PP(floor_x_init), .conv = PC_REAL, \
	  .doc = "x of the bead on the floor after a reset") \
	X(P_SURFACE, .symbol = "surface", .name = "Surface", .kind = PK_CONTROL_IN, .models = PM(BEAD), .group = PG_SURFACE, \
	  .min = 0, .max = 1, .def = 0, .unit = PU_CHOICE, .flags = PF_INTEGER | PF_ENUM, .param = PP(surface), .conv = PC_INT, \
	  .doc = "What the bead slides on") \
	X(P_AXIS_X, .symbol = "axis_x", .name = "Axis X", .kind = PK_CONTROL_IN, .models = PM(BEAD), .group = PG_SURFACE, \
	  .min = 0.01, .max = 10, .def = 1, .unit = PU_M, .flags = PF_LOG | PF_SMOOTH, .param = PP(axis[0]), .conv = PC_REAL, \
	  .doc = "Ellipsoid semi-axis a along x; the floor's half-width") \
	X(P_AXIS_Y, .symbol = "axis_y", .name = "Axis Y", .kind = PK_CONTROL_IN, .models = PM(BEAD), .group = PG_SURFACE, \
	  .min = 0.01, .max = 10, .def = 3, .unit = PU_M, .flags = PF_LOG | PF_SMOOTH, .param = PP(axis[1]), .conv = PC_REAL, \
	  .doc = "Ellipsoid semi-axis b along the vertical") \
	X(P_AXIS_Z, .symbol = "axis_z", .name = "Axis Z", .kind = PK_CONTROL_IN, .models = PM(BEAD), .group = PG_SURFACE, \
	  .min = 0.01, .max = 10, .def = 2, .unit = PU_M, .flags = PF_LOG | PF_SMOOTH, .param = PP(axis[2]), .conv = PC_REAL, \
	  .doc = "Ellipsoid semi-axis c along z") \
	X(P_FLOOR_CURVATURE, .symbol = "floor_curvature", .name = "Floor curvature", .kind = PK_CONTROL_IN, .models = PM(BEAD), .group = PG_SURFACE, \
	  .min = 0.01, .max = 10, .def = 0.5, .unit = PU_PER_M, .flags = PF_LOG | PF_SMOOTH, .param = PP(floor_curvature), .conv = PC_REAL, \
	  .doc = "d in the floor y = d x^2 + A sin(Omega t) sin(k x)") \
	X(P_WAVE_AMP, .symbol = "wave_amp", .name = "Wave amplitude", .kind = PK_CONTROL_IN, .models = PM(BEAD), .group = PG_FORCING, \
	  .min = 0, .max = 1, .def = 0.05, .unit = PU_M, .flags = PF_SMOOTH, .param = PP(wave_amp), .conv = PC_REAL, \
	  .doc = "A: amplitude of the floor's wave") \
	X(P_WAVE_FREQ, .symbol = "wave_freq", .name = "Wave frequency", .kind = PK_CONTROL_IN, .models = PM(BEAD), .group = PG_FORCING, \
	  .min = 0, .max = 100, .def = 1, .unit = PU_HZ, .flags = PF_SMOOTH, .param = PP(wave_freq), .conv = PC_REAL, \
	  .doc = "Omega / 2 pi: frequency of the floor's wave") \
	X(P_WAVE_NUMBER, .symbol = "wave_number", .name = "Wave number", .kind = PK_CONTROL_IN, .models = PM(BEAD), .group = PG_FORCING, \
	  .min = 0, .max = 100, .def = 6, .unit = PU_RAD_PER_M, .flags = PF_SMOOTH, .param = PP(wave_number), .conv = PC_REAL, \
	  .doc = "k: wave number of the floor's wave") \
	X(P_RESET, .symbol = "reset", .name = "Reset", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_INITIAL, \
	  .min = 0, .max = 1, .def = 0, .unit = PU_SWITCH, .flags = PF_TOGGLED | PF_TRIGGER, \
	  .doc = "A rising edge restarts from the initial state") \
	X(P_OUT_THETA1, .symbol = "theta1", .name = "Angle 1", .kind = PK_SIGNAL_OUT, .models = PM_EXCEPT(PM_3D), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_HALF_TURN, .related = P_CTL_THETA1, .channel = PENDULA_CH_THETA + 0, \
	  .doc = "Wrapped angle of body 1 divided by pi") \
	X(P_OUT_THETA2, .symbol = "theta2", .name = "Angle 2", .kind = PK_SIGNAL_OUT, .models = PM_EXCEPT(PM_3D), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_HALF_TURN, .related = P_CTL_THETA2, .channel = PENDULA_CH_THETA + 1, \
	  .doc = "Wrapped angle of body 2 divided by pi") \
	X(P_OUT_THETA3, .symbol = "theta3", .name = "Angle 3", .kind = PK_SIGNAL_OUT, .models = PM(PARALLEL) | PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_HALF_TURN, .related = P_CTL_THETA3, .channel = PENDULA_CH_THETA + 2, \
	  .doc = "Wrapped angle of body 3 divided by pi (0 beyond N)") \
	X(P_OUT_THETA4, .symbol = "theta4", .name = "Angle 4", .kind = PK_SIGNAL_OUT, .models = PM(PARALLEL) | PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_HALF_TURN, .related = P_CTL_THETA4, .channel = PENDULA_CH_THETA + 3, \
	  .doc = "Wrapped angle of body 4 divided by pi (0 beyond N)") \
	X(P_OUT_THETA5, .symbol = "theta5", .name = "Angle 5", .kind = PK_SIGNAL_OUT, .models = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_HALF_TURN, .related = P_CTL_THETA5, .channel = PENDULA_CH_THETA + 4, \
	  .doc = "Wrapped angle of body 5 divided by pi (0 beyond N)") \
	X(P_OUT_THETA6, .symbol = "theta6", .name = "Angle 6", .kind = PK_SIGNAL_OUT, .models = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_HALF_TURN, .related = P_CTL_THETA6, .channel = PENDULA_CH_THETA + 5, \
	  .doc = "Wrapped angle of body 6 divided by pi (0 beyond N)") \
	X(P_OUT_TIP_X, .symbol = "tip_x", .name = "Tip X", .kind = PK_SIGNAL_OUT, .models = PM(DOUBLE) | PM(CHAIN) | PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_TIP_X, .channel = PENDULA_CH_TIP_X, \
	  .doc = "Horizontal position of the last bob relative to the pivot, divided by the total length") \
	X(P_OUT_TIP_Y, .symbol = "tip_y", .name = "Tip Y", .kind = PK_SIGNAL_OUT, .models = PM(DOUBLE) | PM(CHAIN) | PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_TIP_Y, .channel = PENDULA_CH_TIP_Y, \
	  .doc = "Vertical position of the last bob relative to the pivot, divided by the total length") \
	X(P_OUT_TIP_Z, .symbol = "tip_z", .name = "Tip Z", .kind = PK_SIGNAL_OUT, .models = PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_TIP_Z, .channel = PENDULA_CH_TIP_Z, \
	  .doc = "Position of the last bob toward the viewer, divided by the total length") \
	X(P_OUT_X1, .symbol = "x1", .name = "Direction X 1", .kind = PK_SIGNAL_OUT, .models = PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_X1, .channel = PENDULA_CH_X, \
	  .doc = "x of the direction of link 1 (a unit vector)") \
	X(P_OUT_Y1, .symbol = "y1", .name = "Direction Y 1", .kind = PK_SIGNAL_OUT, .models = PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_Y1, .channel = PENDULA_CH_Y, \
	  .doc = "y of the direction of link 1 (a unit vector)") \
	X(P_OUT_Z1, .symbol = "z1", .name = "Direction Z 1", .kind = PK_SIGNAL_OUT, .models = PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_Z1, .channel = PENDULA_CH_Z, \
	  .doc = "z of the direction of link 1 (a unit vector)") \
	X(P_OUT_X, .symbol = "x", .name = "Position X", .kind = PK_SIGNAL_OUT, .models = PM(BEAD), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_X, .channel = PENDULA_CH_X, \
	  .doc = "x of the bead relative to the centre, divided by axis_x") \
	X(P_OUT_Y, .symbol = "y", .name = "Position Y", .kind = PK_SIGNAL_OUT, .models = PM(BEAD), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_Y, .channel = PENDULA_CH_Y, \
	  .doc = "y of the bead relative to the centre, divided by axis_y (floor: by d axis_x^2)") \
	X(P_OUT_Z, .symbol = "z", .name = "Position Z", .kind = PK_SIGNAL_OUT, .models = PM(BEAD), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_Z, .channel = PENDULA_CH_Z, \
	  .doc = "z of the bead relative to the centre, divided by axis_z (floor: 0)") \
	X(P_OUT_ENERGY, .symbol = "energy", .name = "Energy", .kind = PK_SIGNAL_OUT, .models = PM_ALL, .group = PG_OUTPUTS, \
	  .min = 0, .max = PENDULA_ENERGY_OUTPUT_MAX, .unit = PU_NORM, .flags = PF_CC_ENERGY, .related = P_CTL_ENERGY, .channel = PENDULA_CH_ENERGY, \
	  .doc = "Normalised energy: 0 at rest, 1 reaches the top (clamped to 0..1000)") \
	X(P_CTL_THETA1, .symbol = "theta1_ctl", .name = "Angle 1 (control)", .kind = PK_CONTROL_OUT, .models = PM_EXCEPT(PM_3D), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_HALF_TURN, \
	  .doc = "Block-rate copy of theta1") \
	X(P_CTL_THETA2, .symbol = "theta2_ctl", .name = "Angle 2 (control)", .kind = PK_CONTROL_OUT, .models = PM_EXCEPT(PM_3D), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_HALF_TURN, \
	  .doc = "Block-rate copy of theta2") \
	X(P_CTL_THETA3, .symbol = "theta3_ctl", .name = "Angle 3 (control)", .kind = PK_CONTROL_OUT, .models = PM(PARALLEL) | PM(CHAIN), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_HALF_TURN, \
	  .doc = "Block-rate copy of theta3") \
	X(P_CTL_THETA4, .symbol = "theta4_ctl", .name = "Angle 4 (control)", .kind = PK_CONTROL_OUT, .models = PM(PARALLEL) | PM(CHAIN), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_HALF_TURN, \
	  .doc = "Block-rate copy of theta4") \
	X(P_CTL_THETA5, .symbol = "theta5_ctl", .name = "Angle 5 (control)", .kind = PK_CONTROL_OUT, .models = PM(CHAIN), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_HALF_TURN, \
	  .doc = "Block-rate copy of theta5") \
	X(P_CTL_THETA6, .symbol = "theta6_ctl", .name = "Angle 6 (control)", .kind = PK_CONTROL_OUT, .models = PM(CHAIN), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_HALF_TURN, \
	  .doc = "Block-rate copy of theta6") \
	X(P_CTL_TIP_X, .symbol = "tip_x_ctl", .name = "Tip X (control)", .kind = PK_CONTROL_OUT, .models = PM(DOUBLE) | PM(CHAIN) | PM(SPHERICAL), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of tip_x") \
	X(P_CTL_TIP_Y, .symbol = "tip_y_ctl", .name = "Tip Y (control)", .kind = PK_CONTROL_OUT, .models = PM(DOUBLE) | PM(CHAIN) | PM(SPHERICAL), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of tip_y") \
	X(P_CTL_TIP_Z, .symbol = "tip_z_ctl", .name = "Tip Z (control)", .kind = PK_CONTROL_OUT, .models = PM(SPHERICAL), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of tip_z") \
	X(P_CTL_X1, .symbol = "x1_ctl", .name = "Direction X 1 (control)", .kind = PK_CONTROL_OUT, .models = PM(SPHERICAL), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of x1") \
	X(P_CTL_Y1, .symbol = "y1_ctl", .name = "Direction Y 1 (control)", .kind = PK_CONTROL_OUT, .models = PM(SPHERICAL), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of y1") \
	X(P_CTL_Z1, .symbol = "z1_ctl", .name = "Direction Z 1 (control)", .kind = PK_CONTROL_OUT, .models = PM(SPHERICAL), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of z1") \
	X(P_CTL_X, .symbol = "x_ctl", .name = "Position X (control)", .kind = PK_CONTROL_OUT, .models = PM(BEAD), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of x") \
	X(P_CTL_Y, .symbol = "y_ctl", .name = "Position Y (control)", .kind = PK_CONTROL_OUT, .models = PM(BEAD), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of y") \
	X(P_CTL_Z, .symbol = "z_ctl", .name = "Position Z (control)", .kind = PK_CONTROL_OUT, .models = PM(BEAD), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of z") \
	X(P_CTL_ENERGY, .symbol = "energy_ctl", .name = "Energy (control)", .kind = PK_CONTROL_OUT, .models = PM_ALL, .group = PG_READOUTS, \
	  .min = 0, .max = PENDULA_ENERGY_OUTPUT_MAX, .unit = PU_NORM, \
	  .doc = "Block-rate copy of energy") \
	X(P_CTL_PIVOT_X, .symbol = "pivot_x_ctl", .name = "Pivot X (control)", .kind = PK_CONTROL_OUT, .models = PM_ALL, .group = PG_READOUTS, \
	  .min = -10, .max = 10, .unit = PU_M, \
	  .doc = "Current pivot position x (m), for UIs") \
	X(P_CTL_PIVOT_Y, .symbol = "pivot_y_ctl", .name = "Pivot Y (control)", .kind = PK_CONTROL_OUT, .models = PM_ALL, .group = PG_READOUTS, \
	  .min = -10, .max = 10, .unit = PU_M, \
	  .doc = "Current pivot position y (m), for UIs") \
	X(P_CTL_PIVOT_Z, .symbol = "pivot_z_ctl", .name = "Pivot Z (control)", .kind = PK_CONTROL_OUT, .models = PM_3D, .group = PG_READOUTS, \
	  .min = -10, .max = 10, .unit = PU_M, \
	  .doc = "Current pivot position z (m), for UIs") \
	X(P_CONTROL, .symbol = "control", .name = "Control", .kind = PK_ATOM_IN, .models = PM_ALL, .group = PG_MIDI, \
	  .doc = "time:Position from the host and MIDI (passed through)") \
	X(P_MIDI_OUT, .symbol = "midi_out", .name = "MIDI out", .kind = PK_ATOM_OUT, .models = PM_ALL, .group = PG_MIDI_OUT, \
	  .doc = "Incoming MIDI plus control changes from the outputs") \
	X(P_MIDI_CHANNEL, .symbol = "midi_channel", .name = "MIDI channel", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_MIDI, \
	  .min = 1, .max = 16, .def = 1, .unit = PU_CHANNEL, .flags = PF_INTEGER, \
	  .doc = "Channel of the control changes") \
	X(P_ENERGY_MAX, .symbol = "energy_max", .name = "Energy CC range", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_MIDI, \
	  .min = 0.01, .max = 10, .def = 1, .unit = PU_NORM, \
	  .doc = "Energy mapped to the top of the CC range") \
	X(P_CC_THETA1, .symbol = "cc_theta1", .name = "CC for angle 1", .kind = PK_CONTROL_IN, .models = PM_EXCEPT(PM_3D), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = 1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_THETA1, \
	  .doc = "Controller number theta1 is sent on (-1 = off)") \
	X(P_CC_THETA2, .symbol = "cc_theta2", .name = "CC for angle 2", .kind = PK_CONTROL_IN, .models = PM_EXCEPT(PM_3D), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = 2, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_THETA2, \
	  .doc = "Controller number theta2 is sent on (-1 = off)") \
	X(P_CC_THETA3, .symbol = "cc_theta3", .name = "CC for angle 3", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_THETA3, \
	  .doc = "Controller number theta3 is sent on (-1 = off)") \
	X(P_CC_THETA4, .symbol = "cc_theta4", .name = "CC for angle 4", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_THETA4, \
	  .doc = "Controller number theta4 is sent on (-1 = off)") \
	X(P_CC_THETA5, .symbol = "cc_theta5", .name = "CC for angle 5", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_THETA5, \
	  .doc = "Controller number theta5 is sent on (-1 = off)") \
	X(P_CC_THETA6, .symbol = "cc_theta6", .name = "CC for angle 6", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_THETA6, \
	  .doc = "Controller number theta6 is sent on (-1 = off)") \
	X(P_CC_TIP_X, .symbol = "cc_tip_x", .name = "CC for tip X", .kind = PK_CONTROL_IN, .models = PM(DOUBLE) | PM(CHAIN) | PM(SPHERICAL), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_TIP_X, \
	  .doc = "Controller number tip_x is sent on (-1 = off)") \
	X(P_CC_TIP_Y, .symbol = "cc_tip_y", .name = "CC for tip Y", .kind = PK_CONTROL_IN, .models = PM(DOUBLE) | PM(CHAIN) | PM(SPHERICAL), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_TIP_Y, \
	  .doc = "Controller number tip_y is sent on (-1 = off)") \
	X(P_CC_TIP_Z, .symbol = "cc_tip_z", .name = "CC for tip Z", .kind = PK_CONTROL_IN, .models = PM(SPHERICAL), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_TIP_Z, \
	  .doc = "Controller number tip_z is sent on (-1 = off)") \
	X(P_CC_X1, .symbol = "cc_x1", .name = "CC for direction X 1", .kind = PK_CONTROL_IN, .models = PM(SPHERICAL), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = 1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_X1, \
	  .doc = "Controller number x1 is sent on (-1 = off)") \
	X(P_CC_Y1, .symbol = "cc_y1", .name = "CC for direction Y 1", .kind = PK_CONTROL_IN, .models = PM(SPHERICAL), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = 2, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_Y1, \
	  .doc = "Controller number y1 is sent on (-1 = off)") \
	X(P_CC_Z1, .symbol = "cc_z1", .name = "CC for direction Z 1", .kind = PK_CONTROL_IN, .models = PM(SPHERICAL), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_Z1, \
	  .doc = "Controller number z1 is sent on (-1 = off)") \
	X(P_CC_X, .symbol = "cc_x", .name = "CC for position X", .kind = PK_CONTROL_IN, .models = PM(BEAD), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = 1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_X, \
	  .doc = "Controller number x is sent on (-1 = off)") \
	X(P_CC_Y, .symbol = "cc_y", .name = "CC for position Y", .kind = PK_CONTROL_IN, .models = PM(BEAD), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = 2, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_Y, \
	  .doc = "Controller number y is sent on (-1 = off)") \
	X(P_CC_Z, .symbol = "cc_z", .name = "CC for position Z", .kind = PK_CONTROL_IN, .models = PM(BEAD), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_Z, \
	  .doc = "Controller number z is sent on (-1 = off)") \
	X(P_CC_ENERGY, .symbol = "cc_energy", .name = "CC for energy", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_ENERGY, \
	  .doc = "Controller number energy is sent on (-1 = off)") \
	X(P_CC_14BIT, .symbol = "cc_14bit", .name = "14-bit CC", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_MIDI, \
	  .min = 0, .max = 1, .def = 0, .unit = PU_SWITCH, .flags = PF_TOGGLED, \
	  .doc = "Send MSB on cc and LSB on cc+32") \
	X(P_PIVOT_X_SYNC, .symbol = "pivot_x_sync", .name = "Pivot X tempo sync", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_FORCING, \
	  .min = 0, .max = 21, .def = 0, .unit = PU_CHOICE, .flags = PF_INTEGER | PF_ENUM, \
	  .doc = "Lock the X forcing to a note value of the host tempo (0 = free)") \
	X(P_PIVOT_Y_SYNC, .symbol = "pivot_y_sync", .name = "Pivot Y tempo sync", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_FORCING, \
	  .min = 0, .max = 21, .def = 0, .unit = PU_CHOICE, .flags = PF_INTEGER | PF_ENUM, \
	  .doc = "Lock the Y forcing to a note value of the host tempo (0 = free)") \
	X(P_RESET_ON_START, .symbol = "reset_on_start", .name = "Reset on transport start", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_INITIAL, \
	  .min = 0, .max = 1, .def = 1, .unit = PU_SWITCH, .flags = PF_TOGGLED, \
	  .doc = "Restart when the host transport starts rolling") \
	X(P_CTL_TIME_RATIO, .symbol = "time_ratio", .name = "Time ratio", .kind = PK_CONTROL_OUT, .models = PM_ALL, .group = PG_READOUTS, \
	  .min = 0, .max = 1, .def = 1, .unit = PU_NORM, \
	  .doc = "Simulated time over time_scale x audio time in the last block: 1 while the engine keeps up, below 1 when its work cap slowed the motion") \
	X(P_ENERGY_TARGET, .symbol = "energy_target", .name = "Chaos (energy target)", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_ENERGY, \
	  .min = -1, .max = 4, .def = -1, .unit = PU_NORM, .flags = PF_UI | PF_UI_FIRST, .param = PP(energy_target), .conv = PC_REAL, \
	  .doc = "Normalised energy a feedback force holds (0 = at rest, 1 = reaches the top; below 0 = off)") \
	X(P_ENERGY_RATE, .symbol = "energy_rate", .name = "Chaos rate", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_ENERGY, \
	  .min = 0.01, .max = 10, .def = 0.5, .unit = PU_HZ, .flags = PF_LOG, .param = PP(energy_rate), .conv = PC_REAL, \
	  .doc = "Rate (1/s of simulated time) at which the energy approaches its target") \
	X(P_FREEZE, .symbol = "freeze", .name = "Freeze", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_PHYSICS, \
	  .min = 0, .max = 1, .def = 0, .unit = PU_SWITCH, .flags = PF_TOGGLED | PF_UI | PF_UI_FIRST, \
	  .doc = "Hold the motion and the outputs; release resumes where it stopped") \
	X(P_OUT_OMEGA1, .symbol = "omega1", .name = "Angular velocity 1", .kind = PK_SIGNAL_OUT, .models = PM_EXCEPT(PM(BEAD)), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_OMEGA1, .channel = PENDULA_CH_W + 0, \
	  .doc = "Angular velocity of body 1 divided by its reference rate, clamped to -1..1 (0 beyond N)") \
	X(P_OUT_OMEGA2, .symbol = "omega2", .name = "Angular velocity 2", .kind = PK_SIGNAL_OUT, .models = PM_EXCEPT(PM(BEAD)), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_OMEGA2, .channel = PENDULA_CH_W + 1, \
	  .doc = "Angular velocity of body 2 divided by its reference rate, clamped to -1..1 (0 beyond N)") \
	X(P_OUT_OMEGA3, .symbol = "omega3", .name = "Angular velocity 3", .kind = PK_SIGNAL_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_OMEGA3, .channel = PENDULA_CH_W + 2, \
	  .doc = "Angular velocity of body 3 divided by its reference rate, clamped to -1..1 (0 beyond N)") \
	X(P_OUT_OMEGA4, .symbol = "omega4", .name = "Angular velocity 4", .kind = PK_SIGNAL_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_OMEGA4, .channel = PENDULA_CH_W + 3, \
	  .doc = "Angular velocity of body 4 divided by its reference rate, clamped to -1..1 (0 beyond N)") \
	X(P_OUT_OMEGA5, .symbol = "omega5", .name = "Angular velocity 5", .kind = PK_SIGNAL_OUT, .models = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_OMEGA5, .channel = PENDULA_CH_W + 4, \
	  .doc = "Angular velocity of body 5 divided by its reference rate, clamped to -1..1 (0 beyond N)") \
	X(P_OUT_OMEGA6, .symbol = "omega6", .name = "Angular velocity 6", .kind = PK_SIGNAL_OUT, .models = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_OMEGA6, .channel = PENDULA_CH_W + 5, \
	  .doc = "Angular velocity of body 6 divided by its reference rate, clamped to -1..1 (0 beyond N)") \
	X(P_OUT_X1P, .symbol = "x1", .name = "Direction X 1", .kind = PK_SIGNAL_OUT, .models = PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_X1P, .channel = PENDULA_CH_X + 0, \
	  .doc = "x of the direction of arm or link 1: sin theta1 in the plane (0 beyond N)") \
	X(P_OUT_Y1P, .symbol = "y1", .name = "Direction Y 1", .kind = PK_SIGNAL_OUT, .models = PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_Y1P, .channel = PENDULA_CH_Y + 0, \
	  .doc = "y of the direction of arm or link 1: -cos theta1 in the plane (0 beyond N)") \
	X(P_OUT_X2, .symbol = "x2", .name = "Direction X 2", .kind = PK_SIGNAL_OUT, .models = PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_X2, .channel = PENDULA_CH_X + 1, \
	  .doc = "x of the direction of arm or link 2: sin theta2 in the plane (0 beyond N)") \
	X(P_OUT_Y2, .symbol = "y2", .name = "Direction Y 2", .kind = PK_SIGNAL_OUT, .models = PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_Y2, .channel = PENDULA_CH_Y + 1, \
	  .doc = "y of the direction of arm or link 2: -cos theta2 in the plane (0 beyond N)") \
	X(P_OUT_Z2, .symbol = "z2", .name = "Direction Z 2", .kind = PK_SIGNAL_OUT, .models = PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_Z2, .channel = PENDULA_CH_Z + 1, \
	  .doc = "z of the direction of link 2 (a unit vector; 0 beyond N)") \
	X(P_OUT_X3, .symbol = "x3", .name = "Direction X 3", .kind = PK_SIGNAL_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_X3, .channel = PENDULA_CH_X + 2, \
	  .doc = "x of the direction of arm or link 3: sin theta3 in the plane (0 beyond N)") \
	X(P_OUT_Y3, .symbol = "y3", .name = "Direction Y 3", .kind = PK_SIGNAL_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_Y3, .channel = PENDULA_CH_Y + 2, \
	  .doc = "y of the direction of arm or link 3: -cos theta3 in the plane (0 beyond N)") \
	X(P_OUT_Z3, .symbol = "z3", .name = "Direction Z 3", .kind = PK_SIGNAL_OUT, .models = PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_Z3, .channel = PENDULA_CH_Z + 2, \
	  .doc = "z of the direction of link 3 (a unit vector; 0 beyond N)") \
	X(P_OUT_X4, .symbol = "x4", .name = "Direction X 4", .kind = PK_SIGNAL_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_X4, .channel = PENDULA_CH_X + 3, \
	  .doc = "x of the direction of arm or link 4: sin theta4 in the plane (0 beyond N)") \
	X(P_OUT_Y4, .symbol = "y4", .name = "Direction Y 4", .kind = PK_SIGNAL_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_Y4, .channel = PENDULA_CH_Y + 3, \
	  .doc = "y of the direction of arm or link 4: -cos theta4 in the plane (0 beyond N)") \
	X(P_OUT_Z4, .symbol = "z4", .name = "Direction Z 4", .kind = PK_SIGNAL_OUT, .models = PM(SPHERICAL), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_Z4, .channel = PENDULA_CH_Z + 3, \
	  .doc = "z of the direction of link 4 (a unit vector; 0 beyond N)") \
	X(P_OUT_X5, .symbol = "x5", .name = "Direction X 5", .kind = PK_SIGNAL_OUT, .models = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_X5, .channel = PENDULA_CH_X + 4, \
	  .doc = "x of the direction of arm or link 5: sin theta5 in the plane (0 beyond N)") \
	X(P_OUT_Y5, .symbol = "y5", .name = "Direction Y 5", .kind = PK_SIGNAL_OUT, .models = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_Y5, .channel = PENDULA_CH_Y + 4, \
	  .doc = "y of the direction of arm or link 5: -cos theta5 in the plane (0 beyond N)") \
	X(P_OUT_X6, .symbol = "x6", .name = "Direction X 6", .kind = PK_SIGNAL_OUT, .models = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_X6, .channel = PENDULA_CH_X + 5, \
	  .doc = "x of the direction of arm or link 6: sin theta6 in the plane (0 beyond N)") \
	X(P_OUT_Y6, .symbol = "y6", .name = "Direction Y 6", .kind = PK_SIGNAL_OUT, .models = PM(CHAIN), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_Y6, .channel = PENDULA_CH_Y + 5, \
	  .doc = "y of the direction of arm or link 6: -cos theta6 in the plane (0 beyond N)") \
	X(P_OUT_VX, .symbol = "vx", .name = "Velocity X", .kind = PK_SIGNAL_OUT, .models = PM(BEAD), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_VX, .channel = PENDULA_CH_W + 0, \
	  .doc = "Velocity x of the bead divided by sqrt(2 D / m), clamped to -1..1") \
	X(P_OUT_VY, .symbol = "vy", .name = "Velocity Y", .kind = PK_SIGNAL_OUT, .models = PM(BEAD), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_VY, .channel = PENDULA_CH_W + 1, \
	  .doc = "Velocity y of the bead divided by sqrt(2 D / m), clamped to -1..1") \
	X(P_OUT_VZ, .symbol = "vz", .name = "Velocity Z", .kind = PK_SIGNAL_OUT, .models = PM(BEAD), .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_VZ, .channel = PENDULA_CH_W + 2, \
	  .doc = "Velocity z of the bead divided by sqrt(2 D / m), clamped to -1..1") \
	X(P_CTL_OMEGA1, .symbol = "omega1_ctl", .name = "Angular velocity 1 (control)", .kind = PK_CONTROL_OUT, .models = PM_EXCEPT(PM(BEAD)), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of omega1") \
	X(P_CTL_OMEGA2, .symbol = "omega2_ctl", .name = "Angular velocity 2 (control)", .kind = PK_CONTROL_OUT, .models = PM_EXCEPT(PM(BEAD)), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of omega2") \
	X(P_CTL_OMEGA3, .symbol = "omega3_ctl", .name = "Angular velocity 3 (control)", .kind = PK_CONTROL_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of omega3") \
	X(P_CTL_OMEGA4, .symbol = "omega4_ctl", .name = "Angular velocity 4 (control)", .kind = PK_CONTROL_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of omega4") \
	X(P_CTL_OMEGA5, .symbol = "omega5_ctl", .name = "Angular velocity 5 (control)", .kind = PK_CONTROL_OUT, .models = PM(CHAIN), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of omega5") \
	X(P_CTL_OMEGA6, .symbol = "omega6_ctl", .name = "Angular velocity 6 (control)", .kind = PK_CONTROL_OUT, .models = PM(CHAIN), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of omega6") \
	X(P_CTL_X1P, .symbol = "x1_ctl", .name = "Direction X 1 (control)", .kind = PK_CONTROL_OUT, .models = PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of x1") \
	X(P_CTL_Y1P, .symbol = "y1_ctl", .name = "Direction Y 1 (control)", .kind = PK_CONTROL_OUT, .models = PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of y1") \
	X(P_CTL_X2, .symbol = "x2_ctl", .name = "Direction X 2 (control)", .kind = PK_CONTROL_OUT, .models = PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of x2") \
	X(P_CTL_Y2, .symbol = "y2_ctl", .name = "Direction Y 2 (control)", .kind = PK_CONTROL_OUT, .models = PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of y2") \
	X(P_CTL_Z2, .symbol = "z2_ctl", .name = "Direction Z 2 (control)", .kind = PK_CONTROL_OUT, .models = PM(SPHERICAL), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of z2") \
	X(P_CTL_X3, .symbol = "x3_ctl", .name = "Direction X 3 (control)", .kind = PK_CONTROL_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of x3") \
	X(P_CTL_Y3, .symbol = "y3_ctl", .name = "Direction Y 3 (control)", .kind = PK_CONTROL_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of y3") \
	X(P_CTL_Z3, .symbol = "z3_ctl", .name = "Direction Z 3 (control)", .kind = PK_CONTROL_OUT, .models = PM(SPHERICAL), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of z3") \
	X(P_CTL_X4, .symbol = "x4_ctl", .name = "Direction X 4 (control)", .kind = PK_CONTROL_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of x4") \
	X(P_CTL_Y4, .symbol = "y4_ctl", .name = "Direction Y 4 (control)", .kind = PK_CONTROL_OUT, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of y4") \
	X(P_CTL_Z4, .symbol = "z4_ctl", .name = "Direction Z 4 (control)", .kind = PK_CONTROL_OUT, .models = PM(SPHERICAL), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of z4") \
	X(P_CTL_X5, .symbol = "x5_ctl", .name = "Direction X 5 (control)", .kind = PK_CONTROL_OUT, .models = PM(CHAIN), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of x5") \
	X(P_CTL_Y5, .symbol = "y5_ctl", .name = "Direction Y 5 (control)", .kind = PK_CONTROL_OUT, .models = PM(CHAIN), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of y5") \
	X(P_CTL_X6, .symbol = "x6_ctl", .name = "Direction X 6 (control)", .kind = PK_CONTROL_OUT, .models = PM(CHAIN), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of x6") \
	X(P_CTL_Y6, .symbol = "y6_ctl", .name = "Direction Y 6 (control)", .kind = PK_CONTROL_OUT, .models = PM(CHAIN), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of y6") \
	X(P_CTL_VX, .symbol = "vx_ctl", .name = "Velocity X (control)", .kind = PK_CONTROL_OUT, .models = PM(BEAD), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of vx") \
	X(P_CTL_VY, .symbol = "vy_ctl", .name = "Velocity Y (control)", .kind = PK_CONTROL_OUT, .models = PM(BEAD), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of vy") \
	X(P_CTL_VZ, .symbol = "vz_ctl", .name = "Velocity Z (control)", .kind = PK_CONTROL_OUT, .models = PM(BEAD), .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of vz") \
	X(P_CC_OMEGA1, .symbol = "cc_omega1", .name = "CC for angular velocity 1", .kind = PK_CONTROL_IN, .models = PM_EXCEPT(PM(BEAD)), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_OMEGA1, \
	  .doc = "Controller number omega1 is sent on (-1 = off)") \
	X(P_CC_OMEGA2, .symbol = "cc_omega2", .name = "CC for angular velocity 2", .kind = PK_CONTROL_IN, .models = PM_EXCEPT(PM(BEAD)), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_OMEGA2, \
	  .doc = "Controller number omega2 is sent on (-1 = off)") \
	X(P_CC_OMEGA3, .symbol = "cc_omega3", .name = "CC for angular velocity 3", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_OMEGA3, \
	  .doc = "Controller number omega3 is sent on (-1 = off)") \
	X(P_CC_OMEGA4, .symbol = "cc_omega4", .name = "CC for angular velocity 4", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_OMEGA4, \
	  .doc = "Controller number omega4 is sent on (-1 = off)") \
	X(P_CC_OMEGA5, .symbol = "cc_omega5", .name = "CC for angular velocity 5", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_OMEGA5, \
	  .doc = "Controller number omega5 is sent on (-1 = off)") \
	X(P_CC_OMEGA6, .symbol = "cc_omega6", .name = "CC for angular velocity 6", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_OMEGA6, \
	  .doc = "Controller number omega6 is sent on (-1 = off)") \
	X(P_CC_X1P, .symbol = "cc_x1", .name = "CC for direction X 1", .kind = PK_CONTROL_IN, .models = PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_X1P, \
	  .doc = "Controller number x1 is sent on (-1 = off)") \
	X(P_CC_Y1P, .symbol = "cc_y1", .name = "CC for direction Y 1", .kind = PK_CONTROL_IN, .models = PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_Y1P, \
	  .doc = "Controller number y1 is sent on (-1 = off)") \
	X(P_CC_X2, .symbol = "cc_x2", .name = "CC for direction X 2", .kind = PK_CONTROL_IN, .models = PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_X2, \
	  .doc = "Controller number x2 is sent on (-1 = off)") \
	X(P_CC_Y2, .symbol = "cc_y2", .name = "CC for direction Y 2", .kind = PK_CONTROL_IN, .models = PM(DOUBLE) | PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_Y2, \
	  .doc = "Controller number y2 is sent on (-1 = off)") \
	X(P_CC_Z2, .symbol = "cc_z2", .name = "CC for direction Z 2", .kind = PK_CONTROL_IN, .models = PM(SPHERICAL), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_Z2, \
	  .doc = "Controller number z2 is sent on (-1 = off)") \
	X(P_CC_X3, .symbol = "cc_x3", .name = "CC for direction X 3", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_X3, \
	  .doc = "Controller number x3 is sent on (-1 = off)") \
	X(P_CC_Y3, .symbol = "cc_y3", .name = "CC for direction Y 3", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_Y3, \
	  .doc = "Controller number y3 is sent on (-1 = off)") \
	X(P_CC_Z3, .symbol = "cc_z3", .name = "CC for direction Z 3", .kind = PK_CONTROL_IN, .models = PM(SPHERICAL), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_Z3, \
	  .doc = "Controller number z3 is sent on (-1 = off)") \
	X(P_CC_X4, .symbol = "cc_x4", .name = "CC for direction X 4", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_X4, \
	  .doc = "Controller number x4 is sent on (-1 = off)") \
	X(P_CC_Y4, .symbol = "cc_y4", .name = "CC for direction Y 4", .kind = PK_CONTROL_IN, .models = PM(PARALLEL) | PM(CHAIN) | PM(SPHERICAL), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_Y4, \
	  .doc = "Controller number y4 is sent on (-1 = off)") \
	X(P_CC_Z4, .symbol = "cc_z4", .name = "CC for direction Z 4", .kind = PK_CONTROL_IN, .models = PM(SPHERICAL), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_Z4, \
	  .doc = "Controller number z4 is sent on (-1 = off)") \
	X(P_CC_X5, .symbol = "cc_x5", .name = "CC for direction X 5", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_X5, \
	  .doc = "Controller number x5 is sent on (-1 = off)") \
	X(P_CC_Y5, .symbol = "cc_y5", .name = "CC for direction Y 5", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_Y5, \
	  .doc = "Controller number y5 is sent on (-1 = off)") \
	X(P_CC_X6, .symbol = "cc_x6", .name = "CC for direction X 6", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_X6, \
	  .doc = "Controller number x6 is sent on (-1 = off)") \
	X(P_CC_Y6, .symbol = "cc_y6", .name = "CC for direction Y 6", .kind = PK_CONTROL_IN, .models = PM(CHAIN), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_Y6, \
	  .doc = "Controller number y6 is sent on (-1 = off)") \
	X(P_CC_VX, .symbol = "cc_vx", .name = "CC for velocity X", .kind = PK_CONTROL_IN, .models = PM(BEAD), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_VX, \
	  .doc = "Controller number vx is sent on (-1 = off)") \
	X(P_CC_VY, .symbol = "cc_vy", .name = "CC for velocity Y", .kind = PK_CONTROL_IN, .models = PM(BEAD), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_VY, \
	  .doc = "Controller number vy is sent on (-1 = off)") \
	X(P_CC_VZ, .symbol = "cc_vz", .name = "CC for velocity Z", .kind = PK_CONTROL_IN, .models = PM(BEAD), .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_VZ, \
	  .doc = "Controller number vz is sent on (-1 = off)") \
	X(P_OUT_FLIPS, .symbol = "flips", .name = "Flips", .kind = PK_SIGNAL_OUT, .models = PM_ALL, .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_FLIPS, .channel = PENDULA_CH_FLIPS, \
	  .doc = "Pulse of 1 ms when an arm passes over the top: +1 in the positive direction, -1 in the negative") \
	X(P_OUT_SWINGS, .symbol = "swings", .name = "Swings", .kind = PK_SIGNAL_OUT, .models = PM_ALL, .group = PG_OUTPUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, .related = P_CTL_SWINGS, .channel = PENDULA_CH_SWINGS, \
	  .doc = "Pulse of 1 ms when an arm passes through the bottom: +1 in the positive direction, -1 in the negative") \
	X(P_CTL_FLIPS, .symbol = "flips_ctl", .name = "Flips (control)", .kind = PK_CONTROL_OUT, .models = PM_ALL, .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of flips") \
	X(P_CTL_SWINGS, .symbol = "swings_ctl", .name = "Swings (control)", .kind = PK_CONTROL_OUT, .models = PM_ALL, .group = PG_READOUTS, \
	  .min = -1, .max = 1, .unit = PU_NORM, \
	  .doc = "Block-rate copy of swings") \
	X(P_CC_FLIPS, .symbol = "cc_flips", .name = "CC for flips", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_FLIPS, \
	  .doc = "Controller number flips is sent on (-1 = off)") \
	X(P_CC_SWINGS, .symbol = "cc_swings", .name = "CC for swings", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_MIDI, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_CC, .flags = PF_INTEGER, .related = P_OUT_SWINGS, \
	  .doc = "Controller number swings is sent on (-1 = off)") \
	X(P_NOTE_FLIP, .symbol = "note_flip", .name = "Flip note", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_EVENTS, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_NOTE, .flags = PF_INTEGER, \
	  .doc = "MIDI note played when body 1 flips; body k plays this + k - 1 (-1 = off)") \
	X(P_NOTE_SWING, .symbol = "note_swing", .name = "Swing note", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_EVENTS, \
	  .min = -1, .max = 127, .def = -1, .unit = PU_NOTE, .flags = PF_INTEGER, \
	  .doc = "MIDI note played when body 1 swings through the bottom; body k plays this + k - 1 (-1 = off)") \
	X(P_NOTE_LENGTH, .symbol = "note_length", .name = "Note length", .kind = PK_CONTROL_IN, .models = PM_ALL, .group = PG_EVENTS, \
	  .min = 1, .max = 5000, .def = 100, .unit = PU_MS, .flags = PF_LOG, \
	  .doc = "Milliseconds from a note-on to its note-off") \
	PENDULA_PORTS_LIVE(X)
// clang-format on

#endif
