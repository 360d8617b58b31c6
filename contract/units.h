/* SPDX-License-Identifier: ISC */
/*
 * The units of the port table (contract/ports.h), with every text a unit is
 * written as: the TTL generator (ttl/ttl_gen.c) writes units:unit from it
 * and the unit column of docs/PORTS.md, the plugin UI the text after a
 * slider's value.  Plain C, no LV2 header.
 */
#ifndef PENDULA_UNITS_H
#define PENDULA_UNITS_H

#include <stddef.h>

/* Units: a units: URI suffix, or one of the custom units the generator
 * defines.  Every control and signal port has one (lv2lint's note on a port
 * without units:unit, docs/DEVELOPMENT.md "lv2lint"): a pure number takes
 * units:coef, a count, choice or switch a custom unit that says what it is. */
typedef enum {
	PU_NONE,
	PU_COEF,      /* units:coef */
	PU_MS2,       /* custom: m/s^2 */
	PU_KG,        /* custom: kg */
	PU_M,         /* units:m */
	PU_KGM2,      /* custom: kg m^2 */
	PU_NMS,       /* custom: N m s */
	PU_NM,        /* custom: N m */
	PU_HZ,        /* units:hz */
	PU_DEGREE,    /* units:degree */
	PU_PER_M,     /* custom: 1/m */
	PU_RAD_PER_M, /* custom: rad/m */
	PU_MS,        /* units:ms */
	PU_G,         /* custom: multiples of the set gravity */
	PU_HALF_TURN, /* custom: pi radians (an angle divided by pi) */
	PU_NORM,      /* units:coef, a normalised quantity (docs/MODELS.md says of what) */
	PU_NOTE,      /* units:midiNote */
	PU_SEMITONE,  /* units:semitone12TET */
	PU_CC,        /* custom: a MIDI controller number */
	PU_CHANNEL,   /* custom: a MIDI channel */
	PU_BODIES,    /* custom: a number of bodies */
	PU_LINKS,     /* custom: a number of links */
	PU_SLOT,      /* custom: a memory slot */
	PU_CHOICE,    /* custom: one of an enumeration's scale points */
	PU_SWITCH,    /* custom: a switch or trigger, 0 off, 1 on */
	PU_VOLT,      /* mod:volts, MOD's unit of a CV port */
	PENDULA_N_UNITS
} pendula_unit;

typedef struct {
	const char *uri;     /* units: suffix, a prefixed name, or NULL for a custom unit */
	const char *label;   /* a custom unit's rdfs:label (NULL for the others) */
	const char *symbol;  /* units:symbol and units:render of a custom unit;
	                        the unit column of docs/PORTS.md */
	const char *ui_text; /* what the plugin UI writes after a slider's value */
} pendula_unit_info;

/* In the order of pendula_unit (UTF-8). */
// clang-format off
static const pendula_unit_info pendula_units[] = {
	[PU_NONE] =      {NULL, NULL, "", ""},
	[PU_COEF] =      {"coef", NULL, "×", "x"},
	[PU_MS2] =       {NULL, "metre per second squared", "m/s²", "m/s²"},
	[PU_KG] =        {NULL, "kilogram", "kg", "kg"},
	[PU_M] =         {"m", NULL, "m", "m"},
	[PU_KGM2] =      {NULL, "kilogram square metre", "kg·m²", "kg m²"},
	[PU_NMS] =       {NULL, "newton metre second", "N·m·s", "N m s"},
	[PU_NM] =        {NULL, "newton metre", "N·m", "N m"},
	[PU_HZ] =        {"hz", NULL, "Hz", "Hz"},
	[PU_DEGREE] =    {"degree", NULL, "°", "°"},
	[PU_PER_M] =     {NULL, "per metre", "1/m", "1/m"},
	[PU_RAD_PER_M] = {NULL, "radian per metre", "rad/m", "rad/m"},
	[PU_MS] =        {"ms", NULL, "ms", "ms"},
	[PU_G] =         {NULL, "times gravity", "g", "g"},
	[PU_HALF_TURN] = {NULL, "half turn", "π rad", "π rad"},
	[PU_NORM] =      {"coef", NULL, "×", ""},
	[PU_NOTE] =      {"midiNote", NULL, "note", ""},
	[PU_SEMITONE] =  {"semitone12TET", NULL, "semitones", ""},
	[PU_CC] =        {NULL, "MIDI controller number", "CC", ""},
	[PU_CHANNEL] =   {NULL, "MIDI channel", "ch", ""},
	[PU_BODIES] =    {NULL, "body", "bodies", ""},
	[PU_LINKS] =     {NULL, "link", "links", ""},
	[PU_SLOT] =      {NULL, "memory slot", "slot", ""},
	[PU_CHOICE] =    {NULL, "choice", "", ""},
	[PU_SWITCH] =    {NULL, "switch", "", ""},
	[PU_VOLT] =      {"mod:volts", NULL, "V", "V"},
};
// clang-format on
_Static_assert(sizeof pendula_units / sizeof pendula_units[0] == PENDULA_N_UNITS,
               "one entry per unit");

#endif
