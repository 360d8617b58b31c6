/* SPDX-License-Identifier: ISC */
/*
 * The model registry: every model of Pendula, once.  The engine finds each
 * model's interface through it (pendula_model_<slug>, defined in the model's
 * own file engine/models/model_<slug>.c); the port table (contract/ports.h)
 * says which ports each model has; the TTL generator makes two plugins of
 * each model (<slug> with audio outputs, <slug>-cv with CV outputs).
 *
 * X(ID, slug, plugin name, description)
 * Order = registry id = the order of the plugins in the bundle.  Append only.
 */
#ifndef PENDULA_MODELS_H
#define PENDULA_MODELS_H

#define PENDULA_MODELS(X)                                                                          \
	X(DOUBLE, double, "Double Pendulum",                                                       \
	  "A double pendulum (two point masses on rods) run at audio rate; its angles, tip "       \
	  "position and energy come out as audio-rate modulation signals and as MIDI control "     \
	  "changes.")                                                                              \
	X(PARALLEL, parallel, "Chaos Man",                                                         \
	  "The parallel multiple rigid pendulum (\"Chaos Man\"): up to four rigid bodies, bodies " \
	  "2..N hinged on body 1; angles and energy come out as audio-rate modulation signals "    \
	  "and as MIDI control changes.")                                                          \
	X(CHAIN, chain, "Chain Pendulum",                                                          \
	  "A series multiple pendulum: up to six links hanging one from the next, each a bob on "  \
	  "a rod, a uniform rod or a rigid body of your own; angles, tip position and energy "     \
	  "come out as audio-rate modulation signals and as MIDI control changes.")                \
	X(SPHERICAL, spherical, "Spherical Pendulum",                                              \
	  "A 3-D pendulum of one to four point masses on rods, free to swing in every direction; " \
	  "its tip position, the direction of its first rod and its energy come out as "           \
	  "audio-rate modulation signals and as MIDI control changes.")                            \
	X(BEAD, bead, "Bead on a Surface",                                                         \
	  "A bead sliding on a shaken ellipsoid or on a moving wavy floor; its position and "      \
	  "energy come out as audio-rate modulation signals and as MIDI control changes.")

typedef enum {
#define PENDULA_X_MODEL_ENUM(id, slug, name, desc) PENDULA_MODEL_##id,
	PENDULA_MODELS(PENDULA_X_MODEL_ENUM)
#undef PENDULA_X_MODEL_ENUM
	    PENDULA_N_MODELS
} pendula_model;

#endif
