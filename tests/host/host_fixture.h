/* SPDX-License-Identifier: ISC */
/*
 * What the files of test_host share: the includes, the options, the
 * current suite's plugin and rate, the host instance, its recordings, its
 * runs (host_fixture.c), and the tests, which test_host.c runs for each
 * plugin and rate.
 */
#ifndef PENDULA_TEST_HOST_FIXTURE_H
#define PENDULA_TEST_HOST_FIXTURE_H

#include "lv2_test_host.h"
#include "ports.h"

#include <CUnit/Basic.h>
#include <lilv/lilv.h>
#include <lv2/atom/atom.h>
#include <lv2/atom/forge.h>
#include <lv2/atom/util.h>
#include <lv2/core/lv2.h>
#include <lv2/midi/midi.h>
#include <lv2/port-props/port-props.h>
#include <lv2/resize-port/resize-port.h>
#include <lv2/time/time.h>
#include <lv2/units/units.h>
#include <lv2/urid/urid.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI            3.14159265358979323846
#define MAX_BLOCK     4096u
#define ATOM_CAPACITY 16384u

typedef struct {
	const char *bundle;
	int variant; /* -1: all */
	double rate; /* 0: all */
	bool quick;
	bool ttl_only; /* the TTL against the port table, no run */
} host_options;
extern host_options opt;

/* Current suite's plugin and sample rate. */
extern pendula_variant cur_variant;
extern double cur_rate;

extern LilvWorld *world;
extern const LilvPlugin *plugins[PENDULA_N_VARIANTS];
extern LV2_URID urid_sequence, urid_midi;

/* ---------------------------------------------------------------------- */
/* A host instance, its recordings and runs (host_fixture.c, where each    */
/* has its comment)                                                        */

typedef struct {
	pendula_variant v;
	double rate;
	LilvInstance *inst;
	/* control inputs and outputs, by global id */
	float control[PENDULA_N_PORT_IDS];
	/* signal output buffers, by global id */
	float *buf[PENDULA_N_PORT_IDS];
	bool has[PENDULA_N_PORT_IDS];
	bool null_signals;   /* leave the signal outputs unconnected */
	bool shared_signals; /* connect every signal output to one buffer */
	float *shared;
	bool null_atoms;       /* leave the atom ports unconnected */
	bool keep_input;       /* the test filled atom_in itself */
	uint32_t out_capacity; /* atom.size given to the MIDI output; 0: all of atom_out */
	uint64_t atom_in[ATOM_CAPACITY / 8];
	uint64_t atom_out[ATOM_CAPACITY / 8];
} Host;

typedef struct {
	size_t n, cap;                  /* frames */
	float *sig[PENDULA_N_PORT_IDS]; /* signal outputs */
	size_t n_blocks, cap_blocks;
	size_t *block_end;              /* frames recorded after each block */
	float *ctl[PENDULA_N_PORT_IDS]; /* control outputs after each block */
} Rec;

/* Block sizes: fixed, or pseudo-random (with 0-frame blocks when zeros). */
typedef struct {
	uint32_t fixed; /* 0: random */
	uint32_t state;
	bool zeros;
	bool direct; /* connect the outputs straight into the recording */
} Blocking;

extern const pendula_port_id theta_init_port[6];
extern const pendula_port_id length_port[6];

void host_prepare_atoms(Host *h);
void host_connect(Host *h);
Host *host_new_ex(pendula_variant v, double rate, bool null_signals, bool late);
Host *host_new(pendula_variant v, double rate);
void host_free(Host *h);
void host_restart(Host *h);
void host_set(Host *h, pendula_port_id id, float value);
void rec_reserve(Rec *r, pendula_variant v, size_t frames);
void rec_free(Rec *r);
uint32_t next_block(Blocking *b, uint32_t left);
void host_render(Host *h, Rec *rec, uint32_t frames, Blocking *b);
size_t first_difference(const float *a, const float *b, size_t n);
bool same_signals(const Rec *a, const Rec *b, size_t from_a, size_t from_b, size_t n,
                  const char *what);
bool all_finite(const Rec *r, const char **bad_symbol);
bool has_port(pendula_port_id id);
int count_port(void);
int default_count(void);
int output_of_channel(int ch);
int angle_output(int k);
int field_offset(size_t array, int k);
int port_of_field(int offset);
int chain_defaults(double *m, double *l, double *c, double *ig);
pendula_port_id motion_output(void);
double control_or_default(const Host *h, pendula_port_id id);
void initial_direction(const Host *h, int k, double *u);
int body_count(const Host *h);
uint32_t seconds(double s);

/* test_host_ports.c */
void test_ports(void);
void test_mod_cv(void);

/* test_host_physics.c */
void test_first_frame(void);
void test_small_oscillation(void);
void test_energy_conserved(void);
void test_energy_is_physical(void);
void test_energy_damped(void);

/* test_host_controls.c */
void test_block_sizes(void);
void test_bad_input(void);
void test_freeze(void);
void test_whole_numbers(void);
void test_bodies_change(void);
void test_reset(void);

/* test_host_outputs.c */
void test_null_outputs(void);
void test_control_outputs(void);
void test_time_ratio(void);

/* test_host_midi.c */
void test_midi_through(void);
void test_midi_wiring(void);
void test_events(void);
void test_notes_channel_change(void);
void test_notes_small_output(void);

/* test_host_pluck.c */
void test_pluck_energy(void);
void test_pluck_not(void);
void test_pluck_blocks(void);
void test_pluck_hard(void);

#endif
