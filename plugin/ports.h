/* SPDX-License-Identifier: ISC */
/*
 * The one port table of Pendula.  The LV2 glue, the TTL generator
 * (ttl/ttl_gen.c), the UI, the tests and the README port table all read it,
 * so code and description cannot drift.  Plain C, no LV2 header.
 *
 * Every port of every variant has one global id (enum pendula_port_id); a
 * variant's port index is the position of the port among the entries whose
 * model mask includes that variant's model (see pendula_port_index()).
 *
 * Port symbols are a public contract (README.md): once released they never
 * change meaning.  New ports go to the END of the table (so the indices of
 * released ports stay put).
 */
#ifndef PENDULA_PORTS_H
#define PENDULA_PORTS_H

#include <stddef.h>
#include <stdint.h>

#define PENDULA_URI_BASE "https://pendula.invalid/plugins/pendula#"
#define PENDULA_URI_DOUBLE PENDULA_URI_BASE "double"
#define PENDULA_URI_DOUBLE_CV PENDULA_URI_BASE "double-cv"
#define PENDULA_URI_PARALLEL PENDULA_URI_BASE "parallel"
#define PENDULA_URI_PARALLEL_CV PENDULA_URI_BASE "parallel-cv"
#define PENDULA_UI_URI PENDULA_URI_BASE "ui"

typedef enum {
	PENDULA_VARIANT_DOUBLE = 0,
	PENDULA_VARIANT_DOUBLE_CV,
	PENDULA_VARIANT_PARALLEL,
	PENDULA_VARIANT_PARALLEL_CV,
	PENDULA_N_VARIANTS
} pendula_variant;

/* Model masks */
#define PM_D 1u /* double, double-cv */
#define PM_P 2u /* parallel, parallel-cv */
#define PM_A 3u /* all */

typedef enum {
	PK_CONTROL_IN,
	PK_CONTROL_OUT,
	PK_SIGNAL_OUT, /* lv2:AudioPort in the audio variants, lv2:CVPort (optional) in -cv */
	PK_ATOM_IN,    /* time:Position and MIDI */
	PK_ATOM_OUT    /* MIDI */
} pendula_port_kind;

/* Port property flags */
#define PF_INTEGER 1u
#define PF_TOGGLED 2u
#define PF_TRIGGER 4u
#define PF_LOG 8u
#define PF_ENUM 16u     /* lv2:enumeration with scale points (sync note values) */
#define PF_EXPERT 32u   /* pprops:expensive... not used; reserved */
#define PF_NOTONGUI 64u /* pprops:notOnGUI */

/* Units: a units: URI suffix, or one of the custom units the generator defines */
typedef enum {
	PU_NONE,
	PU_COEF,    /* units:coef */
	PU_MS2,     /* custom: m/s^2 */
	PU_KG,      /* custom: kg */
	PU_M,       /* units:m */
	PU_KGM2,    /* custom: kg m^2 */
	PU_NMS,     /* custom: N m s */
	PU_NM,      /* custom: N m */
	PU_HZ,      /* units:hz */
	PU_DEGREE,  /* units:degree */
	PU_MIDINOTE /* not used */
} pendula_unit;

/*
 * X(id, symbol, name, kind, models, min, max, default, default in the parallel
 *   variants, unit, flags, doc)
 * Order = port index order.  Append only.
 */
#define PENDULA_PORTS(X) \
	X(P_TIME_SCALE, "time_scale", "Time scale", PK_CONTROL_IN, PM_A, 0.01, 100, 1, 1, PU_COEF, PF_LOG, "Simulated seconds per second of audio") \
	X(P_GRAVITY, "gravity", "Gravity", PK_CONTROL_IN, PM_A, 0.1, 100, 9.81, 9.81, PU_MS2, 0, "Gravitational acceleration g") \
	X(P_N_BODIES, "n_bodies", "Bodies", PK_CONTROL_IN, PM_P, 1, 4, 3, 3, PU_NONE, PF_INTEGER, "Number of bodies N (body 1 and N-1 arms)") \
	X(P_M1, "m1", "Mass 1", PK_CONTROL_IN, PM_A, 0.01, 100, 1, 1, PU_KG, PF_LOG, "Mass of bob/body 1") \
	X(P_M2, "m2", "Mass 2", PK_CONTROL_IN, PM_A, 0.01, 100, 1, 0.25, PU_KG, PF_LOG, "Mass of bob/body 2") \
	X(P_M3, "m3", "Mass 3", PK_CONTROL_IN, PM_P, 0.01, 100, 0.25, 0.25, PU_KG, PF_LOG, "Mass of body 3") \
	X(P_M4, "m4", "Mass 4", PK_CONTROL_IN, PM_P, 0.01, 100, 0.25, 0.25, PU_KG, PF_LOG, "Mass of body 4") \
	X(P_L1, "l1", "Length 1", PK_CONTROL_IN, PM_D, 0.01, 10, 1, 1, PU_M, PF_LOG, "Rod length 1") \
	X(P_L2, "l2", "Length 2", PK_CONTROL_IN, PM_D, 0.01, 10, 1, 1, PU_M, PF_LOG, "Rod length 2") \
	X(P_C1, "c1", "Centre of mass 1", PK_CONTROL_IN, PM_P, 0, 10, 0.2, 0.2, PU_M, 0, "Pivot to centre of mass of body 1") \
	X(P_C2, "c2", "Centre of mass 2", PK_CONTROL_IN, PM_P, 0, 10, 0.25, 0.25, PU_M, 0, "Hinge to centre of mass of body 2") \
	X(P_C3, "c3", "Centre of mass 3", PK_CONTROL_IN, PM_P, 0, 10, 0.25, 0.25, PU_M, 0, "Hinge to centre of mass of body 3") \
	X(P_C4, "c4", "Centre of mass 4", PK_CONTROL_IN, PM_P, 0, 10, 0.25, 0.25, PU_M, 0, "Hinge to centre of mass of body 4") \
	X(P_INERTIA1, "inertia1", "Inertia 1", PK_CONTROL_IN, PM_P, 1e-6, 100, 0.02, 0.02, PU_KGM2, PF_LOG, "Moment of inertia of body 1 about its centre of mass") \
	X(P_INERTIA2, "inertia2", "Inertia 2", PK_CONTROL_IN, PM_P, 1e-6, 100, 0.005, 0.005, PU_KGM2, PF_LOG, "Moment of inertia of body 2 about its centre of mass") \
	X(P_INERTIA3, "inertia3", "Inertia 3", PK_CONTROL_IN, PM_P, 1e-6, 100, 0.005, 0.005, PU_KGM2, PF_LOG, "Moment of inertia of body 3 about its centre of mass") \
	X(P_INERTIA4, "inertia4", "Inertia 4", PK_CONTROL_IN, PM_P, 1e-6, 100, 0.005, 0.005, PU_KGM2, PF_LOG, "Moment of inertia of body 4 about its centre of mass") \
	X(P_B2, "b2", "Hinge distance 2", PK_CONTROL_IN, PM_P, 0, 10, 0.3, 0.3, PU_M, 0, "Distance from the pivot to the hinge of body 2 on body 1") \
	X(P_B3, "b3", "Hinge distance 3", PK_CONTROL_IN, PM_P, 0, 10, 0.3, 0.3, PU_M, 0, "Distance from the pivot to the hinge of body 3 on body 1") \
	X(P_B4, "b4", "Hinge distance 4", PK_CONTROL_IN, PM_P, 0, 10, 0.3, 0.3, PU_M, 0, "Distance from the pivot to the hinge of body 4 on body 1") \
	X(P_BETA2, "beta2", "Hinge angle 2", PK_CONTROL_IN, PM_P, -180, 180, 120, 120, PU_DEGREE, 0, "Angle G1-O1-O2 of the hinge of body 2") \
	X(P_BETA3, "beta3", "Hinge angle 3", PK_CONTROL_IN, PM_P, -180, 180, -120, -120, PU_DEGREE, 0, "Angle G1-O1-O3 of the hinge of body 3") \
	X(P_BETA4, "beta4", "Hinge angle 4", PK_CONTROL_IN, PM_P, -180, 180, 180, 180, PU_DEGREE, 0, "Angle G1-O1-O4 of the hinge of body 4") \
	X(P_LAMBDA1, "lambda1", "Damping 1", PK_CONTROL_IN, PM_A, 0, 100, 0, 0, PU_NMS, 0, "Viscous damping of joint 1") \
	X(P_LAMBDA2, "lambda2", "Damping 2", PK_CONTROL_IN, PM_A, 0, 100, 0, 0, PU_NMS, 0, "Viscous damping of joint 2") \
	X(P_LAMBDA3, "lambda3", "Damping 3", PK_CONTROL_IN, PM_P, 0, 100, 0, 0, PU_NMS, 0, "Viscous damping of joint 3") \
	X(P_LAMBDA4, "lambda4", "Damping 4", PK_CONTROL_IN, PM_P, 0, 100, 0, 0, PU_NMS, 0, "Viscous damping of joint 4") \
	X(P_SIGMA1, "sigma1", "Torque 1", PK_CONTROL_IN, PM_A, -100, 100, 0, 0, PU_NM, 0, "Constant torque on joint 1") \
	X(P_SIGMA2, "sigma2", "Torque 2", PK_CONTROL_IN, PM_A, -100, 100, 0, 0, PU_NM, 0, "Constant torque on joint 2") \
	X(P_SIGMA3, "sigma3", "Torque 3", PK_CONTROL_IN, PM_P, -100, 100, 0, 0, PU_NM, 0, "Constant torque on joint 3") \
	X(P_SIGMA4, "sigma4", "Torque 4", PK_CONTROL_IN, PM_P, -100, 100, 0, 0, PU_NM, 0, "Constant torque on joint 4") \
	X(P_PIVOT_X_AMP, "pivot_x_amp", "Pivot X amplitude", PK_CONTROL_IN, PM_A, 0, 10, 0, 0, PU_M, 0, "Horizontal forcing amplitude Delta_x") \
	X(P_PIVOT_X_FREQ, "pivot_x_freq", "Pivot X frequency", PK_CONTROL_IN, PM_A, 0, 1000, 0, 0, PU_HZ, 0, "Horizontal forcing frequency Omega_x / 2 pi") \
	X(P_PIVOT_Y_AMP, "pivot_y_amp", "Pivot Y amplitude", PK_CONTROL_IN, PM_A, 0, 10, 0, 0, PU_M, 0, "Vertical forcing amplitude Delta_y") \
	X(P_PIVOT_Y_FREQ, "pivot_y_freq", "Pivot Y frequency", PK_CONTROL_IN, PM_A, 0, 1000, 0, 0, PU_HZ, 0, "Vertical forcing frequency Omega_y / 2 pi") \
	X(P_THETA1_INIT, "theta1_init", "Initial angle 1", PK_CONTROL_IN, PM_A, -180, 180, 120, 30, PU_DEGREE, 0, "Angle of body 1 after a reset") \
	X(P_THETA2_INIT, "theta2_init", "Initial angle 2", PK_CONTROL_IN, PM_A, -180, 180, -60, 100, PU_DEGREE, 0, "Angle of body 2 after a reset") \
	X(P_THETA3_INIT, "theta3_init", "Initial angle 3", PK_CONTROL_IN, PM_P, -180, 180, -90, -90, PU_DEGREE, 0, "Angle of body 3 after a reset") \
	X(P_THETA4_INIT, "theta4_init", "Initial angle 4", PK_CONTROL_IN, PM_P, -180, 180, 150, 150, PU_DEGREE, 0, "Angle of body 4 after a reset") \
	X(P_RESET, "reset", "Reset", PK_CONTROL_IN, PM_A, 0, 1, 0, 0, PU_NONE, PF_TOGGLED | PF_TRIGGER, "A rising edge restarts from the initial state") \
	X(P_OUT_THETA1, "theta1", "Angle 1", PK_SIGNAL_OUT, PM_A, -1, 1, 0, 0, PU_NONE, 0, "Wrapped angle of body 1 divided by pi") \
	X(P_OUT_THETA2, "theta2", "Angle 2", PK_SIGNAL_OUT, PM_A, -1, 1, 0, 0, PU_NONE, 0, "Wrapped angle of body 2 divided by pi") \
	X(P_OUT_THETA3, "theta3", "Angle 3", PK_SIGNAL_OUT, PM_P, -1, 1, 0, 0, PU_NONE, 0, "Wrapped angle of body 3 divided by pi (0 beyond N)") \
	X(P_OUT_THETA4, "theta4", "Angle 4", PK_SIGNAL_OUT, PM_P, -1, 1, 0, 0, PU_NONE, 0, "Wrapped angle of body 4 divided by pi (0 beyond N)") \
	X(P_OUT_TIP_X, "tip_x", "Tip X", PK_SIGNAL_OUT, PM_D, -1, 1, 0, 0, PU_NONE, 0, "Horizontal position of bob 2 divided by l1 + l2") \
	X(P_OUT_TIP_Y, "tip_y", "Tip Y", PK_SIGNAL_OUT, PM_D, -1, 1, 0, 0, PU_NONE, 0, "Vertical position of bob 2 divided by l1 + l2") \
	X(P_OUT_ENERGY, "energy", "Energy", PK_SIGNAL_OUT, PM_A, 0, 1, 0, 0, PU_NONE, 0, "Normalised energy: 0 at rest, 1 reaches the top") \
	X(P_CTL_THETA1, "theta1_ctl", "Angle 1 (control)", PK_CONTROL_OUT, PM_A, -1, 1, 0, 0, PU_NONE, 0, "Block-rate copy of theta1") \
	X(P_CTL_THETA2, "theta2_ctl", "Angle 2 (control)", PK_CONTROL_OUT, PM_A, -1, 1, 0, 0, PU_NONE, 0, "Block-rate copy of theta2") \
	X(P_CTL_THETA3, "theta3_ctl", "Angle 3 (control)", PK_CONTROL_OUT, PM_P, -1, 1, 0, 0, PU_NONE, 0, "Block-rate copy of theta3") \
	X(P_CTL_THETA4, "theta4_ctl", "Angle 4 (control)", PK_CONTROL_OUT, PM_P, -1, 1, 0, 0, PU_NONE, 0, "Block-rate copy of theta4") \
	X(P_CTL_TIP_X, "tip_x_ctl", "Tip X (control)", PK_CONTROL_OUT, PM_D, -1, 1, 0, 0, PU_NONE, 0, "Block-rate copy of tip_x") \
	X(P_CTL_TIP_Y, "tip_y_ctl", "Tip Y (control)", PK_CONTROL_OUT, PM_D, -1, 1, 0, 0, PU_NONE, 0, "Block-rate copy of tip_y") \
	X(P_CTL_ENERGY, "energy_ctl", "Energy (control)", PK_CONTROL_OUT, PM_A, 0, 10, 0, 0, PU_NONE, 0, "Block-rate copy of energy") \
	X(P_CTL_PIVOT_X, "pivot_x_ctl", "Pivot X (control)", PK_CONTROL_OUT, PM_A, -10, 10, 0, 0, PU_M, 0, "Current pivot position x (m), for UIs") \
	X(P_CTL_PIVOT_Y, "pivot_y_ctl", "Pivot Y (control)", PK_CONTROL_OUT, PM_A, -10, 10, 0, 0, PU_M, 0, "Current pivot position y (m), for UIs") \
	X(P_CONTROL, "control", "Control", PK_ATOM_IN, PM_A, 0, 0, 0, 0, PU_NONE, 0, "time:Position from the host and MIDI (passed through)") \
	X(P_MIDI_OUT, "midi_out", "MIDI out", PK_ATOM_OUT, PM_A, 0, 0, 0, 0, PU_NONE, 0, "Incoming MIDI plus control changes from the outputs") \
	X(P_MIDI_CHANNEL, "midi_channel", "MIDI channel", PK_CONTROL_IN, PM_A, 1, 16, 1, 1, PU_NONE, PF_INTEGER, "Channel of the control changes") \
	X(P_ENERGY_MAX, "energy_max", "Energy CC range", PK_CONTROL_IN, PM_A, 0.01, 10, 1, 1, PU_NONE, 0, "Energy mapped to the top of the CC range") \
	X(P_CC_THETA1, "cc_theta1", "CC for angle 1", PK_CONTROL_IN, PM_A, -1, 127, 1, 1, PU_NONE, PF_INTEGER, "Controller number theta1 is sent on (-1 = off)") \
	X(P_CC_THETA2, "cc_theta2", "CC for angle 2", PK_CONTROL_IN, PM_A, -1, 127, 2, 2, PU_NONE, PF_INTEGER, "Controller number theta2 is sent on (-1 = off)") \
	X(P_CC_THETA3, "cc_theta3", "CC for angle 3", PK_CONTROL_IN, PM_P, -1, 127, -1, -1, PU_NONE, PF_INTEGER, "Controller number theta3 is sent on (-1 = off)") \
	X(P_CC_THETA4, "cc_theta4", "CC for angle 4", PK_CONTROL_IN, PM_P, -1, 127, -1, -1, PU_NONE, PF_INTEGER, "Controller number theta4 is sent on (-1 = off)") \
	X(P_CC_TIP_X, "cc_tip_x", "CC for tip X", PK_CONTROL_IN, PM_D, -1, 127, -1, -1, PU_NONE, PF_INTEGER, "Controller number tip_x is sent on (-1 = off)") \
	X(P_CC_TIP_Y, "cc_tip_y", "CC for tip Y", PK_CONTROL_IN, PM_D, -1, 127, -1, -1, PU_NONE, PF_INTEGER, "Controller number tip_y is sent on (-1 = off)") \
	X(P_CC_ENERGY, "cc_energy", "CC for energy", PK_CONTROL_IN, PM_A, -1, 127, -1, -1, PU_NONE, PF_INTEGER, "Controller number energy is sent on (-1 = off)") \
	X(P_CC_14BIT, "cc_14bit", "14-bit CC", PK_CONTROL_IN, PM_A, 0, 1, 0, 0, PU_NONE, PF_TOGGLED, "Send MSB on cc and LSB on cc+32") \
	X(P_PIVOT_X_SYNC, "pivot_x_sync", "Pivot X tempo sync", PK_CONTROL_IN, PM_A, 0, 21, 0, 0, PU_NONE, PF_INTEGER | PF_ENUM, "Lock the X forcing to a note value of the host tempo (0 = free)") \
	X(P_PIVOT_Y_SYNC, "pivot_y_sync", "Pivot Y tempo sync", PK_CONTROL_IN, PM_A, 0, 21, 0, 0, PU_NONE, PF_INTEGER | PF_ENUM, "Lock the Y forcing to a note value of the host tempo (0 = free)") \
	X(P_RESET_ON_START, "reset_on_start", "Reset on transport start", PK_CONTROL_IN, PM_A, 0, 1, 1, 1, PU_NONE, PF_TOGGLED, "Restart when the host transport starts rolling")

typedef enum {
#define PENDULA_X_ENUM(id, ...) id,
	PENDULA_PORTS(PENDULA_X_ENUM)
#undef PENDULA_X_ENUM
	PENDULA_N_PORT_IDS
} pendula_port_id;

typedef struct {
	const char *symbol;
	const char *name;
	pendula_port_kind kind;
	unsigned models;
	float min, max, def, def_parallel;
	pendula_unit unit;
	unsigned flags;
	const char *doc;
} pendula_port_info;

static const pendula_port_info pendula_ports[PENDULA_N_PORT_IDS] = {
#define PENDULA_X_INFO(id, sym, nm, kd, md, mn, mx, df, dfp, un, fl, dc) \
	{sym, nm, kd, md, (float)(mn), (float)(mx), (float)(df), (float)(dfp), un, fl, dc},
	PENDULA_PORTS(PENDULA_X_INFO)
#undef PENDULA_X_INFO
};

/* Tempo-sync note values for pivot_x_sync / pivot_y_sync (index 0 = free). */
typedef struct {
	const char *label;
	double beats; /* length of one forcing period in quarter notes */
} pendula_sync_note;

static const pendula_sync_note pendula_sync_notes[] = {
	{"Free (Hz)", 0.0},     {"1/32", 0.125},       {"1/16 triplet", 1.0 / 6.0},
	{"1/16", 0.25},         {"1/16 dotted", 0.375}, {"1/8 triplet", 1.0 / 3.0},
	{"1/8", 0.5},           {"1/8 dotted", 0.75},   {"1/4 triplet", 2.0 / 3.0},
	{"1/4", 1.0},           {"1/4 dotted", 1.5},    {"1/2 triplet", 4.0 / 3.0},
	{"1/2", 2.0},           {"1/2 dotted", 3.0},    {"1/1 triplet", 8.0 / 3.0},
	{"1 bar", 4.0},         {"1 bar dotted", 6.0},  {"2 bars", 8.0},
	{"3 bars", 12.0},       {"4 bars", 16.0},       {"6 bars", 24.0},
	{"8 bars", 32.0},
};
#define PENDULA_N_SYNC_NOTES (sizeof(pendula_sync_notes) / sizeof(pendula_sync_notes[0]))

static inline unsigned pendula_variant_model_mask(pendula_variant v)
{
	return (v == PENDULA_VARIANT_DOUBLE || v == PENDULA_VARIANT_DOUBLE_CV) ? PM_D : PM_P;
}

static inline int pendula_variant_is_cv(pendula_variant v)
{
	return v == PENDULA_VARIANT_DOUBLE_CV || v == PENDULA_VARIANT_PARALLEL_CV;
}

/* Default value of a port in a variant. */
static inline float pendula_port_default(pendula_variant v, pendula_port_id id)
{
	return pendula_variant_model_mask(v) == PM_P ? pendula_ports[id].def_parallel
	                                             : pendula_ports[id].def;
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

#endif
