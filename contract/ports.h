/* SPDX-License-Identifier: ISC */
/*
 * The one port table of Pendula.  The LV2 glue, the TTL generator
 * (ttl/ttl_gen.c), the UI, the tests, the scripts and the port reference docs/PORTS.md
 * all read it, so code and description cannot drift.  Plain C, no LV2
 * header.  This file holds what a row is made of and what follows from the
 * rows; the rows themselves are in port_table.h, the units in units.h.
 *
 * The plugins: four per model of the registry (engine/pendula_models.h),
 * <slug> with audio signal outputs, <slug>-cv with CV outputs, <slug>-midi
 * with no signal port (control and MIDI ports only) and <slug>-mod whose
 * signal outputs are MOD's CV ports in volts.  Every port
 * of every plugin has one global id (enum pendula_port_id); a plugin's port
 * index is the position of the port among the rows whose model set includes
 * that plugin's model (pendula_port_index()).
 *
 * Port symbols are a public contract (docs/PORTS.md): once released they never
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

/* The plugins' lv2:minorVersion and lv2:microVersion (the major version is
 * in the URIs).  LV2's rule, which MOD and lv2lint follow: an odd minor or
 * micro version is a development version, minor 0 an experimental one
 * (MOD lists it so); hosts keep the higher of two copies of a plugin.
 * Even numbers: the port table is a stable contract (docs/PORTS.md), and
 * 2.0 is the first version that says so.  A release that changes the
 * plugins raises them (docs/DEVELOPMENT.md, "Plugin version"). */
#define PENDULA_LV2_MINOR_VERSION 2
#define PENDULA_LV2_MICRO_VERSION 0

/* Plugins: four per model.  The audio and -cv plugins are numbered
 * 2 model + cv, the order they were released in (lv2_descriptor() indices
 * and the manifest keep it); the -midi plugins follow, 2 N + model, then
 * the -mod plugins, 3 N + model.  A -midi plugin has the model's control
 * and atom ports but no signal port (docs/HOSTS.md, "Ardour": a DAW places
 * it as a MIDI effect, so nothing of it reaches the master bus).  A -mod
 * plugin has the same, an audio drive input, and each signal output only
 * as its MOD CV twin in volts (docs/HOSTS.md, "MOD"). */
typedef int pendula_variant;
typedef enum {
	PENDULA_KIND_AUDIO,
	PENDULA_KIND_CV,
	PENDULA_KIND_MIDI,
	PENDULA_KIND_MOD
} pendula_variant_kind;
#define PENDULA_N_SIGNAL_VARIANTS (2 * PENDULA_N_MODELS) /* the audio and -cv plugins */
#define PENDULA_N_VARIANTS        (4 * PENDULA_N_MODELS)
enum {
#define PENDULA_X_VARIANT_ENUM(id, slug, name, desc) \
	PENDULA_VARIANT_##id = 2 * PENDULA_MODEL_##id, PENDULA_VARIANT_##id##_CV,
	PENDULA_MODELS(PENDULA_X_VARIANT_ENUM)
#undef PENDULA_X_VARIANT_ENUM
};
enum {
#define PENDULA_X_VARIANT_MIDI_ENUM(id, slug, name, desc) \
	PENDULA_VARIANT_##id##_MIDI = PENDULA_N_SIGNAL_VARIANTS + PENDULA_MODEL_##id,
	PENDULA_MODELS(PENDULA_X_VARIANT_MIDI_ENUM)
#undef PENDULA_X_VARIANT_MIDI_ENUM
};
enum {
#define PENDULA_X_VARIANT_MOD_ENUM(id, slug, name, desc) \
	PENDULA_VARIANT_##id##_MOD = 3 * PENDULA_N_MODELS + PENDULA_MODEL_##id,
	PENDULA_MODELS(PENDULA_X_VARIANT_MOD_ENUM)
#undef PENDULA_X_VARIANT_MOD_ENUM
};

/* The most CV ports one plugin has in each direction, and audio ports:
 * Carla's rack and internal patchbay skip a plugin with more, silently
 * (docs/HOSTS.md, "Carla").  A test checks every plugin against them. */
#define PENDULA_MAX_CV_PORTS    32
#define PENDULA_MAX_AUDIO_PORTS 64

/* Model sets */
#define PM(id)         (1u << PENDULA_MODEL_##id)
#define PM_ALL         ((1u << PENDULA_N_MODELS) - 1u)
#define PM_EXCEPT(set) (PM_ALL & ~(set))
/* The Cartesian 3-D models: no angle outputs (docs/MODELS.md). */
#define PM_3D          (PM(SPHERICAL) | PM(BEAD))

typedef enum {
	PK_CONTROL_IN,
	PK_CONTROL_OUT,
	PK_SIGNAL_OUT, /* lv2:AudioPort in the audio variants, lv2:CVPort (optional) in -cv */
	PK_SIGNAL_IN,  /* lv2:AudioPort in the audio variants, lv2:CVPort (optional) in -cv */
	PK_ATOM_IN,    /* time:Position and MIDI */
	PK_ATOM_OUT,   /* MIDI */
	/* -mod only: a signal output (.related) in volts on one of MOD's CV
	 * ranges, an lv2:CVPort and mod:CVPort, optional (docs/HOSTS.md,
	 * "MOD") */
	PK_MOD_CV_OUT
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
 * Port groups (LV2 port-groups, pg:group): the sections a generic host UI
 * shows.  Each row of the table names its group (.group), so a port's group
 * is said where the port is, not guessed from how its symbol is spelled.
 * The spec wants a group to hold only inputs (pg:InputGroup) or only
 * outputs (pg:OutputGroup), and group symbols share the namespace of port
 * symbols, hence the "_group" suffix (ttl_gen and a test check both).
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
	PENDULA_GROUP_PLAY,     /* memories, pluck, drive: what a player does live */
	PENDULA_GROUP_DRIVE,    /* the drive signal input */
	PENDULA_N_GROUPS
} pendula_group;

/* The rows' short names of the groups. */
#define PG_PHYSICS  PENDULA_GROUP_PHYSICS
#define PG_BODY(k)  ((pendula_group)(PENDULA_GROUP_BODY + (k)-1)) /* body k, 1-based */
#define PG_SURFACE  PENDULA_GROUP_SURFACE
#define PG_FORCING  PENDULA_GROUP_FORCING
#define PG_ENERGY   PENDULA_GROUP_ENERGY
#define PG_EVENTS   PENDULA_GROUP_EVENTS
#define PG_INITIAL  PENDULA_GROUP_INITIAL
#define PG_MIDI     PENDULA_GROUP_MIDI
#define PG_OUTPUTS  PENDULA_GROUP_OUTPUTS
#define PG_READOUTS PENDULA_GROUP_READOUTS
#define PG_MIDI_OUT PENDULA_GROUP_MIDI_OUT
#define PG_PLAY     PENDULA_GROUP_PLAY
#define PG_DRIVE    PENDULA_GROUP_DRIVE

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
	{"play_group", "Play", 0},
	{"drive_group", "Drive input", 0},
};
// clang-format on
_Static_assert(sizeof pendula_groups / sizeof pendula_groups[0] == PENDULA_N_GROUPS &&
                   PENDULA_MAX_BODIES == 6,
               "one entry per group, one Body group per body");

/* A group's URI: PENDULA_URI_BASE "<NN>_<symbol>", NN its place in
 * pendula_group, so that hosts that sort the groups by URI (jalv) show them
 * in this order.  printf format, arguments (int group, const char *symbol). */
#define PENDULA_GROUP_URI_FORMAT PENDULA_URI_BASE "%02d_%s"

/* A row of the port table (port_table.h).  A row names the fields it sets;
 * the others are zero, or "none" for param, conv, related and channel. */
typedef struct {
	const char *symbol;
	const char *name;
	pendula_port_kind kind;
	unsigned models;
	pendula_group group; /* pg:group */
	float min, max;
	double def; /* exact: the engine's default settings come from it */
	pendula_unit unit;
	unsigned flags;
	int param; /* offset in pendula_params, or PP_NONE */
	pendula_param_conv conv;
	int related;     /* port id or P_NONE */
	int channel;     /* engine channel or -1 */
	unsigned not_cv; /* models whose -cv and -mod plugins lack the row (port_table.h) */
	const char *doc;
} pendula_port_info;

#include "port_table.h"

typedef enum {
#define PENDULA_X_ENUM(id, ...) id,
	PENDULA_PORTS(PENDULA_X_ENUM)
#undef PENDULA_X_ENUM
	    PENDULA_N_PORT_IDS
} pendula_port_id;

/* Per-model defaults that differ from a row's .def:
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
	X(SPHERICAL, P_N_LINKS, 1, 4) \
	X(DOUBLE, P_DRIVE_AXIS, 0, 1) \
	X(PARALLEL, P_DRIVE_AXIS, 0, 1) \
	X(CHAIN, P_DRIVE_AXIS, 0, 1)
// clang-format on

/* The rows override the "none" start values of PENDULA_X_INFO; C takes the
 * last initialiser of a field (C11 6.7.9), and the warning about it (part
 * of -Wextra) is silenced here only. */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
#endif
static const pendula_port_info pendula_ports[PENDULA_N_PORT_IDS] = {
#define PENDULA_X_INFO(id, ...) \
	[id] = {.param = PP_NONE, .conv = PC_NONE, .related = P_NONE, .channel = -1, __VA_ARGS__},
    PENDULA_PORTS(PENDULA_X_INFO)
#undef PENDULA_X_INFO
};
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

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
#define PENDULA_X_VARIANT_MIDI_URI(id, slug, name, desc) PENDULA_URI_BASE #slug "-midi",
        PENDULA_MODELS(PENDULA_X_VARIANT_MIDI_URI)
#undef PENDULA_X_VARIANT_MIDI_URI
#define PENDULA_X_VARIANT_MOD_URI(id, slug, name, desc) PENDULA_URI_BASE #slug "-mod",
            PENDULA_MODELS(PENDULA_X_VARIANT_MOD_URI)
#undef PENDULA_X_VARIANT_MOD_URI
};
static const char *const pendula_variant_names[PENDULA_N_VARIANTS] = {
#define PENDULA_X_VARIANT_NAME(id, slug, name, desc) #slug, #slug "-cv",
    PENDULA_MODELS(PENDULA_X_VARIANT_NAME)
#undef PENDULA_X_VARIANT_NAME
#define PENDULA_X_VARIANT_MIDI_NAME(id, slug, name, desc) #slug "-midi",
        PENDULA_MODELS(PENDULA_X_VARIANT_MIDI_NAME)
#undef PENDULA_X_VARIANT_MIDI_NAME
#define PENDULA_X_VARIANT_MOD_NAME(id, slug, name, desc) #slug "-mod",
            PENDULA_MODELS(PENDULA_X_VARIANT_MOD_NAME)
#undef PENDULA_X_VARIANT_MOD_NAME
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

/* drive_axis: the direction the drive signal shakes the pivot in (depth:
 * the 3-D models only, PENDULA_MODEL_RANGES). */
static const char *const pendula_drive_axis_labels[] = {"Horizontal", "Vertical", "Depth"};

/* note_scale: 0 keeps note_flip / note_swing's fixed pitches. */
static const char *const pendula_note_scale_labels[] = {
    "Fixed pitches",    "Chromatic",        "Major",      "Natural minor",
    "Major pentatonic", "Minor pentatonic", "Whole tone", "Dorian",
};

/* note_root. */
static const char *const pendula_note_root_labels[] = {
    "C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B",
};

/* note_grid: the grid in fractions of a whole note (1/4 = a quarter note). */
static const char *const pendula_note_grid_labels[] = {"Off", "1/4", "1/8", "1/16", "1/32"};

#define PENDULA_N_LABELS(a) (sizeof(a) / sizeof((a)[0]))

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
	case P_DRIVE_AXIS:
		return (size_t)value < PENDULA_N_LABELS(pendula_drive_axis_labels)
		           ? pendula_drive_axis_labels[value]
		           : NULL;
	case P_NOTE_SCALE:
		return (size_t)value < PENDULA_N_LABELS(pendula_note_scale_labels)
		           ? pendula_note_scale_labels[value]
		           : NULL;
	case P_NOTE_ROOT:
		return (size_t)value < PENDULA_N_LABELS(pendula_note_root_labels)
		           ? pendula_note_root_labels[value]
		           : NULL;
	case P_NOTE_GRID:
		return (size_t)value < PENDULA_N_LABELS(pendula_note_grid_labels)
		           ? pendula_note_grid_labels[value]
		           : NULL;
	default:
		return NULL;
	}
}

static inline pendula_model pendula_variant_model(pendula_variant v)
{
	return (pendula_model)(v < PENDULA_N_SIGNAL_VARIANTS
	                           ? v / 2
	                           : (v - PENDULA_N_SIGNAL_VARIANTS) % PENDULA_N_MODELS);
}

static inline pendula_variant_kind pendula_variant_kind_of(pendula_variant v)
{
	return v >= 3 * PENDULA_N_MODELS        ? PENDULA_KIND_MOD
	       : v >= PENDULA_N_SIGNAL_VARIANTS ? PENDULA_KIND_MIDI
	       : v % 2                          ? PENDULA_KIND_CV
	                                        : PENDULA_KIND_AUDIO;
}

static inline int pendula_variant_is_cv(pendula_variant v)
{
	return pendula_variant_kind_of(v) == PENDULA_KIND_CV;
}

static inline int pendula_variant_is_midi(pendula_variant v)
{
	return pendula_variant_kind_of(v) == PENDULA_KIND_MIDI;
}

static inline int pendula_variant_is_mod(pendula_variant v)
{
	return pendula_variant_kind_of(v) == PENDULA_KIND_MOD;
}

/* The plugin of a model and kind. */
static inline pendula_variant pendula_variant_of(pendula_model model, pendula_variant_kind kind)
{
	switch (kind) {
	case PENDULA_KIND_MIDI:
		return PENDULA_N_SIGNAL_VARIANTS + (int)model;
	case PENDULA_KIND_MOD:
		return 3 * PENDULA_N_MODELS + (int)model;
	default:
		return 2 * (int)model + (kind == PENDULA_KIND_CV);
	}
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

/* Whether a variant has a port: its model has the row; the plain signal
 * outputs only in the audio and -cv variants, the MOD CV outputs only in
 * -mod, the drive input in all but -midi; and the -cv and -mod variants
 * leave out the rows whose .not_cv names the model (PENDULA_MAX_CV_PORTS).
 * The -midi plugins keep drive_gain and drive_axis (they do nothing there,
 * docs/PORTS.md): every plugin of a model then has the same control
 * inputs, and a preset applies to all. */
static inline int pendula_port_in_variant(pendula_variant v, int id)
{
	const pendula_port_info *p = &pendula_ports[id];
	const pendula_variant_kind k = pendula_variant_kind_of(v);
	const unsigned mask = pendula_variant_model_mask(v);
	if (!(p->models & mask))
		return 0;
	if ((p->not_cv & mask) && (k == PENDULA_KIND_CV || k == PENDULA_KIND_MOD))
		return 0;
	switch (p->kind) {
	case PK_SIGNAL_OUT:
		return k == PENDULA_KIND_AUDIO || k == PENDULA_KIND_CV;
	case PK_SIGNAL_IN:
		return k != PENDULA_KIND_MIDI;
	case PK_MOD_CV_OUT:
		return k == PENDULA_KIND_MOD;
	default:
		return 1;
	}
}

/* Port index of a global id in a variant, or -1 if the variant lacks it. */
static inline int pendula_port_index(pendula_variant v, pendula_port_id id)
{
	int index = 0;
	if (!pendula_port_in_variant(v, (int)id))
		return -1;
	for (int i = 0; i < (int)id; ++i)
		if (pendula_port_in_variant(v, i))
			++index;
	return index;
}

/* Global id of a variant's port index, or -1 if out of range. */
static inline int pendula_port_id_at(pendula_variant v, uint32_t index)
{
	uint32_t seen = 0;
	for (int i = 0; i < PENDULA_N_PORT_IDS; ++i)
		if (pendula_port_in_variant(v, i)) {
			if (seen == index)
				return i;
			++seen;
		}
	return -1;
}

static inline uint32_t pendula_port_count(pendula_variant v)
{
	uint32_t n = 0;
	for (int i = 0; i < PENDULA_N_PORT_IDS; ++i)
		if (pendula_port_in_variant(v, i))
			++n;
	return n;
}

/* The most signal outputs one plugin has (the chain's 36), the size of the
 * glue's per-signal arrays (lv2/routing.h, the CC encoder): ttl_gen counts
 * them in the table and stops the build unless the largest plugin has
 * exactly this many (pendula_max_signal_outputs). */
#define PENDULA_MAX_SIGNAL_OUTPUTS 36

static inline int pendula_max_signal_outputs(void)
{
	int most = 0;
	for (int v = 0; v < PENDULA_N_VARIANTS; ++v) {
		int n = 0;
		for (int i = 0; i < PENDULA_N_PORT_IDS; ++i)
			n += pendula_ports[i].kind == PK_SIGNAL_OUT &&
			     pendula_port_in_variant((pendula_variant)v, i);
		most = n > most ? n : most;
	}
	return most;
}

/* The body a symbol names by its trailing digit, 1 to PENDULA_MAX_BODIES
 * (m3, lambda3, theta3, omega3, x3: body 3), or by the digit before a
 * "_level" suffix (omega3_level: body 3), or 0 (tip_x, vx, energy,
 * energy_level, ...). */
static inline int pendula_symbol_body(const char *symbol)
{
	static const char suffix[] = "_level";
	const size_t ns = sizeof suffix - 1;
	size_t n = 0;
	while (symbol[n])
		++n;
	if (n > ns) {
		size_t i = 0;
		while (i < ns && symbol[n - ns + i] == suffix[i])
			++i;
		n -= i == ns ? ns : 0;
	}
	if (n >= 2 && symbol[n - 1] >= '1' && symbol[n - 1] < '1' + PENDULA_MAX_BODIES &&
	    !(symbol[n - 2] >= '0' && symbol[n - 2] <= '9'))
		return symbol[n - 1] - '0';
	return 0;
}

static inline pendula_group pendula_port_group(pendula_port_id id)
{
	return pendula_ports[id].group;
}

/* The group of the row of this kind and symbol (the tests ask by symbol), or
 * PENDULA_N_GROUPS if no row has them. */
static inline pendula_group pendula_group_of(pendula_port_kind kind, const char *symbol)
{
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		const char *a = pendula_ports[id].symbol, *b = symbol;
		while (*a && *a == *b) {
			++a;
			++b;
		}
		if (*a == *b && pendula_ports[id].kind == kind)
			return pendula_ports[id].group;
	}
	return PENDULA_N_GROUPS;
}

/* The value a whole-number control port takes (docs/MODELS.md's bad-input rule):
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
