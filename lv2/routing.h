/* SPDX-License-Identifier: ISC */
/*
 * Output routing of one plugin instance: the variant's signal outputs (from
 * the port table: engine channel, body, control-output mirror, CC port and
 * mapping), where the engine writes each of them in a span of frames, the
 * scratch they go through when they must, their last values, and the
 * control outputs that mirror them.
 *
 * Why a part of its own: the engine writes straight into the host's buffers
 * whenever it can (no copy), and what "can" means depends on the wiring (a
 * buffer shared by several outputs, an unconnected output whose values the
 * CC encoder still needs, a mirror that wants only the last frame).  The
 * plan is made once per change of wiring, CC settings or block size, so a
 * span walks short lists only.  The CC encoder reads the engine's own values
 * either way, so its messages do not depend on the wiring.
 */
#ifndef PENDULA_LV2_ROUTING_H
#define PENDULA_LV2_ROUTING_H

#include "chunk.h"
#include "midi_cc.h"
#include "pendula_engine.h"
#include "ports.h"

#include <stdbool.h>
#include <stdint.h>

/* Signal outputs a plugin may have: the CC encoder has a slot for each. */
#define PENDULA_MAX_SIGNALS PENDULA_MAX_SIGNAL_OUTPUTS
_Static_assert(PENDULA_CC_MAX_OUTPUTS == PENDULA_MAX_SIGNALS,
               "the CC encoder has one slot per signal output of the largest plugin");

typedef struct {
	/* Signal outputs of this variant, in table order: port id, engine
	 * channel, control-output mirror, CC port (or P_NONE), CC mapping. */
	int n_signals;
	pendula_port_id signal[PENDULA_MAX_SIGNALS];
	int signal_ch[PENDULA_MAX_SIGNALS];
	/* the body a signal belongs to (theta3, omega3, x3, y3, z3: 3), or 0
	 * (pendula_symbol_body): 0 while that body is not there */
	int signal_body[PENDULA_MAX_SIGNALS];
	int signal_mirror[PENDULA_MAX_SIGNALS];
	int signal_cc[PENDULA_MAX_SIGNALS];
	pendula_cc_map signal_map[PENDULA_MAX_SIGNALS];
	/* The bodies the engine was last given: the outputs of the others are
	 * 0 (docs/MODELS.md, "Conventions"). */
	int bodies;

	/* Where the engine writes each signal (see pendula_routing_route):
	 * straight into the host's buffer when it is connected and no other
	 * signal output overlaps it (of several outputs sharing one buffer,
	 * the last in table order: the value the buffer ends up with); into
	 * scratch when the CC encoder needs the values of an output that is
	 * unconnected or shadowed; nowhere otherwise, except the value of the
	 * block's last frame for a control output mirror (route_last: the
	 * engine writes that one value to last_value).
	 * If outputs overlap partially (never seen in a host), every output goes
	 * through scratch and is copied, chunk by chunk, in table order. */
	float *route_host[PENDULA_MAX_SIGNALS];  /* direct target, or NULL */
	bool route_scratch[PENDULA_MAX_SIGNALS]; /* CC reads this signal from scratch */
	bool route_last[PENDULA_MAX_SIGNALS];    /* its last value comes from last_value */
	bool route_copy; /* partial overlap (or the drive input in an output): scratch and copy all
	                  */
	bool route_any_scratch; /* route_copy or some route_scratch */
	bool route_events;      /* the outputs need the engine's events */
	bool cc_live;           /* CC encoder runs: midi_out connected, a cc on */
	/* The route holds until a buffer changes, the CC settings change or
	 * the block size does. */
	bool route_stale;
	uint32_t routed_block; /* the block size it was made for */
	/* The direct route (not route_copy) as short lists, so that a span
	 * walks only the signals concerned (plan_build; for the bodies when it
	 * was built, plan_bodies): the signals the engine writes (into the
	 * host's buffer at the span's offset, or into scratch), those whose
	 * last value is wanted (route_last), and those of absent bodies
	 * (zeros). */
	int plan_n_write, plan_n_last, plan_n_silent, plan_bodies;
	unsigned char plan_write[PENDULA_MAX_SIGNALS], plan_last[PENDULA_MAX_SIGNALS],
	    plan_silent[PENDULA_MAX_SIGNALS];
	/* The control output mirrors that are connected: signal and buffer
	 * (rebuilt after a connect_port: mirrors_stale). */
	int n_mirrors;
	unsigned char mirror_signal[PENDULA_MAX_SIGNALS];
	float *mirror_buf[PENDULA_MAX_SIGNALS];
	bool mirrors_stale;
	/* Scratch: one slice of the pool per signal that needs it (route_copy:
	 * every signal; else those with route_scratch), each scratch_frames
	 * long (at least PENDULA_CHUNK): the fewer signals need scratch, the
	 * longer the spans the engine runs at once.  The pool holds a chunk
	 * per signal of the variant (pendula_routing_pool_floats), in memory
	 * the instance provides. */
	float *scratch_pool;
	float *chunk_signal[PENDULA_MAX_SIGNALS];
	uint32_t scratch_frames;
	/* Latest value of each signal output (for the control outputs). */
	float signal_last[PENDULA_MAX_SIGNALS];
	float
	    last_value[PENDULA_MAX_SIGNALS]; /* route_last: the engine's value at the block's end */
	/* What a span hands the engine: every entry NULL between spans (the
	 * instance is zeroed), pendula_routing_span_begin sets a span's
	 * entries and pendula_routing_span_end clears them (cheaper than
	 * clearing the whole struct for every span). */
	pendula_outputs span_out, span_last;
} pendula_routing;

/* The floats of scratch a variant's routing needs. */
uint32_t pendula_routing_pool_floats(pendula_variant variant);
/* At instantiate() (r zeroed): the variant's signal outputs from the port
 * table, the scratch pool (pendula_routing_pool_floats of them, zeroed,
 * alive as long as r); no route yet. */
void pendula_routing_init(pendula_routing *r, pendula_variant variant, float *pool);
/* A port buffer changed (connect_port): route again, find the mirrors again. */
void pendula_routing_ports_changed(pendula_routing *r);
/* The CC settings changed: route again. */
void pendula_routing_cc_changed(pendula_routing *r);
/* signal_last from the engine's last frame (before any frame was run). */
void pendula_routing_last_from_engine(pendula_routing *r, const pendula_engine *engine);

/* Where each signal goes this block (port: the buffers by global port id;
 * cc_any: some output is sent as CC); redone only when the buffers, the
 * block size or the CC settings change.  When the CC output comes alive
 * the encoder sends every value again. */
void pendula_routing_route(pendula_routing *r, void *const *port, pendula_cc *cc, bool cc_any,
                           uint32_t n_samples);

/* A span of frames from `offset` of the block: the outputs the engine
 * writes them to, and in *last_out those whose value at the block's last frame is
 * wanted (NULL if none; last: this span ends the block). */
pendula_outputs *pendula_routing_span_begin(pendula_routing *r, uint32_t offset, bool last,
                                            const pendula_outputs **last_out);
/* After the engine ran the span: the outputs of absent bodies are zeros,
 * scratch is copied to the host's buffers (route_copy), and at the block's
 * last frame every signal_last is taken; held[kind] is the value the flips
 * (0) and swings (1) outputs hold at that frame. */
void pendula_routing_span_end(pendula_routing *r, void *const *port, uint32_t offset, uint32_t n,
                              bool last, const float held[2]);
/* The engine's values of each signal for frames [offset, offset + n) of the
 * span just run, for the CC encoder (NULL: not kept). */
void pendula_routing_values(const pendula_routing *r, uint32_t offset,
                            const float *signals[PENDULA_MAX_SIGNALS]);

/* Control outputs: the last frame's values (bit-equal to the last sample of
 * each signal output), and the pivot position in metres. */
void pendula_routing_write_controls(pendula_routing *r, void *const *port,
                                    const pendula_engine *engine);

#endif
