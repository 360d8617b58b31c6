/* SPDX-License-Identifier: ISC */
/*
 * Edge cases through lilv: settings inside the declared ranges that used to
 * break the output contract (issue 13), a generated grid of extremes,
 * hostile control values every block (in range, then also NaN, infinite,
 * huge and subnormal), in pseudo-random blocks that include 0-frame ones,
 * and each model's own corners found in the port table (every torque at
 * its maximum on the lightest bodies, decay to rest from a tumble).  For
 * every run:
 *
 *   contract   every signal output and every control output is finite, not
 *              subnormal, inside its declared range (angles strictly below 1)
 *   alive      where a torque or the start says the pendulum must move, an
 *              angle, direction or position output still changes in the
 *              second half of the run (a restart loop or a frozen state
 *              does not)
 *   rest       where damping brings it to rest, every continuous output
 *              is still over the last tenth of the run
 *   ftz        the same run with FTZ and DAZ set (x86 MXCSR) gives the same
 *              bits as without
 *
 * and, with the structural controls (links, bodies, link shape, surface)
 * changed every block (issue 38), every output value finite.
 *
 * --rest-events checks, on the cases that come to rest, that no event
 * pulse fires once everything is still.
 *
 * The random numbers are the test's own (xorshift), so every run is the
 * same on every machine.
 *
 * usage: test_edge BUNDLE_DIR [--plugin NAME] [--rest-events]
 */
#include "cunit_main.h"
#include "lv2_test_host.h"
#include "ports.h"

#include <CUnit/Basic.h>
#include <lilv/lilv.h>
#include <lv2/atom/atom.h>

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE__) || defined(__x86_64__)
#include <xmmintrin.h>
#define HAVE_MXCSR 1
#endif

#define RATE      48000.0
#define MAX_BLOCK 1500u
#define ATOM_CAP  16384u

static const char *bundle;
static int only_variant = -1;
static bool rest_events; /* --rest-events: only test_rest_events */
static LilvWorld *world;
static const LilvPlugin *plugins[PENDULA_N_VARIANTS];
static pendula_variant cur;

/* ---------------------------------------------------------------------- */
/* The test's own random numbers                                          */

static uint32_t xorshift(uint32_t *s)
{
	uint32_t x = *s;
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

static double uniform(uint32_t *s)
{
	return (xorshift(s) >> 8) * (1.0 / 16777216.0);
}

/* A value inside the declared range of a control (log-uniform on
 * logarithmic ports), now and then exactly a bound. */
static float random_control(pendula_port_id id, uint32_t *s)
{
	const pendula_port_info *info = &pendula_ports[id];
	const uint32_t pick = xorshift(s) % 8;
	if (pick == 0)
		return info->min;
	if (pick == 1)
		return info->max;
	const double u = uniform(s);
	double v = (info->flags & PF_LOG) && info->min > 0
	               ? info->min * pow((double)info->max / info->min, u)
	               : info->min + ((double)info->max - info->min) * u;
	if (info->flags & (PF_INTEGER | PF_ENUM | PF_TOGGLED))
		v = floor(v + 0.5);
	return (float)v;
}

/* A value a host should not send but may: NaN, an infinity, a huge or a
 * subnormal number, or else (one time in three) a value in range. */
static float hostile_control(pendula_port_id id, uint32_t *s)
{
	switch (xorshift(s) % 9) {
	case 0:
		return NAN;
	case 1:
		return INFINITY;
	case 2:
		return -INFINITY;
	case 3:
		return 1e30f;
	case 4:
		return -1e30f;
	case 5:
		return 1e-40f;
	case 6:
		return -1e-40f;
	default:
		return random_control(id, s);
	}
}

/* ---------------------------------------------------------------------- */
/* One run                                                                 */

typedef struct {
	size_t n, cap;
	float *sig[PENDULA_N_PORT_IDS];
	size_t n_blocks, cap_blocks;
	float *ctl[PENDULA_N_PORT_IDS];
} recording;

static void rec_free(recording *r)
{
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		free(r->sig[id]);
		free(r->ctl[id]);
	}
	memset(r, 0, sizeof(*r));
}

typedef struct run_spec run_spec;
struct run_spec {
	const char *set;       /* "symbol=value ..." */
	uint32_t hostile_seed; /* != 0: random control values every block */
	double seconds;
	uint32_t block_seed;
	bool non_finite; /* the hostile values also NaN, infinite, huge, subnormal */
	/* != 0: every block this long; else random lengths up to max_block
	 * (1 .. max_block), or with 0-frame ones up to MAX_BLOCK if 0 */
	uint32_t block, max_block;
	/* != NULL: called before block number b with the controls */
	void (*each_block)(const run_spec *spec, float *control, size_t b, uint32_t *s);
	uint32_t each_seed;
};

static bool has_port(pendula_variant v, const char *symbol)
{
	return test_port_by_symbol(v, symbol) >= 0;
}

/* True if every symbol of set exists in v. */
static bool applies(pendula_variant v, const char *set)
{
	char buf[4096], sym[64];
	snprintf(buf, sizeof buf, "%s", set);
	for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
		if (sscanf(tok, "%63[^=]=", sym) != 1 || !has_port(v, sym))
			return false;
	return true;
}

static void apply_set(pendula_variant v, const char *set, float *control)
{
	char buf[4096], sym[64];
	snprintf(buf, sizeof buf, "%s", set);
	for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
		float value;
		if (sscanf(tok, "%63[^=]=%g", sym, &value) == 2 && has_port(v, sym))
			control[test_port_by_symbol(v, sym)] = value;
	}
}

static void run(pendula_variant v, const run_spec *spec, bool ftz, recording *r)
{
#ifdef HAVE_MXCSR
	const unsigned csr = _mm_getcsr();
	_mm_setcsr(ftz ? (csr | 0x8040u) : (csr & ~0x8040u));
#else
	(void)ftz;
#endif
	static float control[PENDULA_N_PORT_IDS];
	static float sig_buf[PENDULA_N_PORT_IDS][MAX_BLOCK];
	static uint64_t atom_in[ATOM_CAP / 8], atom_out[ATOM_CAP / 8];
	float *signal[PENDULA_N_PORT_IDS];
	test_control_defaults(v, control);
	apply_set(v, spec->set, control);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		signal[id] = sig_buf[id];
	LilvInstance *inst = lv2th_instantiate("test_edge", plugins[v], v, RATE, lv2th_features);
	lv2th_connect(inst, v, control, signal, atom_in, atom_out);
	lilv_instance_activate(inst);
	memset(r, 0, sizeof(*r));
	const size_t frames = (size_t)(spec->seconds * RATE);
	r->cap = frames;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (pendula_port_index(v, (pendula_port_id)id) >= 0 &&
		    pendula_ports[id].kind == PK_SIGNAL_OUT)
			r->sig[id] = lv2th_calloc(frames, sizeof(float));
	uint32_t bs = spec->block_seed ? spec->block_seed : 1, hs = spec->hostile_seed;
	uint32_t es = spec->each_seed ? spec->each_seed : 1;
	while (r->n < frames) {
		uint32_t n = spec->block              ? spec->block
		             : spec->max_block        ? 1 + xorshift(&bs) % spec->max_block
		             : xorshift(&bs) % 7 == 0 ? 0
		                                      : 1 + xorshift(&bs) % MAX_BLOCK;
		if (n > frames - r->n)
			n = (uint32_t)(frames - r->n);
		if (hs)
			for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
				if (pendula_port_index(v, (pendula_port_id)id) >= 0 &&
				    pendula_ports[id].kind == PK_CONTROL_IN &&
				    (id != P_RESET || spec->non_finite))
					control[id] =
					    spec->non_finite
					        ? hostile_control((pendula_port_id)id, &hs)
					        : random_control((pendula_port_id)id, &hs);
		if (spec->each_block)
			spec->each_block(spec, control, r->n_blocks, &es);
		lv2th_prepare_atoms(atom_in, atom_out, ATOM_CAP - sizeof(LV2_Atom));
		lilv_instance_run(inst, n);
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
			if (r->sig[id])
				memcpy(r->sig[id] + r->n, sig_buf[id], n * sizeof(float));
		r->n += n;
		if (r->n_blocks == r->cap_blocks) {
			r->cap_blocks = r->cap_blocks ? 2 * r->cap_blocks : 1024;
			for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
				if (pendula_port_index(v, (pendula_port_id)id) >= 0 &&
				    pendula_ports[id].kind == PK_CONTROL_OUT)
					r->ctl[id] = lv2th_realloc(r->ctl[id],
					                           r->cap_blocks * sizeof(float));
		}
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
			if (r->ctl[id])
				r->ctl[id][r->n_blocks] = control[id];
		r->n_blocks++;
	}
	lilv_instance_deactivate(inst);
	lilv_instance_free(inst);
#ifdef HAVE_MXCSR
	_mm_setcsr(csr);
#endif
}

/* ---------------------------------------------------------------------- */
/* Checks                                                                  */

/* A value an output port may take: finite, not subnormal, in its declared
 * range (an angle strictly below the maximum). */
static bool value_ok(pendula_port_id id, float x)
{
	const pendula_port_info *info = &pendula_ports[id];
	if (!isfinite(x) || fpclassify(x) == FP_SUBNORMAL || x < info->min || x > info->max)
		return false;
	const bool angle = (info->kind == PK_SIGNAL_OUT && info->channel >= PENDULA_CH_THETA &&
	                    info->channel < PENDULA_CH_THETA + PENDULA_MAX_BODIES) ||
	                   (info->kind == PK_CONTROL_OUT && info->related == P_NONE &&
	                    !strncmp(info->symbol, "theta", 5));
	return !(angle && x >= info->max);
}

/* The contract over a recording; returns the number of bad values and
 * describes the first. */
static size_t contract_violations(const recording *r, char *first, size_t size)
{
	size_t bad = 0;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		const float *x = r->sig[id] ? r->sig[id] : r->ctl[id];
		const size_t n = r->sig[id] ? r->n : r->ctl[id] ? r->n_blocks : 0;
		for (size_t i = 0; i < n; ++i)
			if (!value_ok((pendula_port_id)id, x[i]) && bad++ == 0)
				snprintf(first, size, "%s = %g at %s %zu", pendula_ports[id].symbol,
				         (double)x[i], r->sig[id] ? "frame" : "block", i);
	}
	return bad;
}

/* An output that shows where the pendulum is: an angle, a direction or a
 * position (the 3-D models have no angle output). */
static bool is_motion(pendula_port_id id)
{
	const int ch = pendula_ports[id].channel;
	return (ch >= PENDULA_CH_THETA && ch < PENDULA_CH_THETA + PENDULA_MAX_BODIES) ||
	       (ch >= PENDULA_CH_X && ch < PENDULA_CH_Z + PENDULA_MAX_BODIES);
}

/* Some motion output still changes in the second half of the run (the
 * fastest body sets the step, so a body spun up by a torque may slow
 * simulated time down until the others hardly move: it moves itself). */
static bool still_moving(const recording *r)
{
	bool any_motion = false;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		const float *x = r->sig[id];
		if (!x || !is_motion((pendula_port_id)id))
			continue;
		any_motion = true;
		for (size_t i = r->n / 2 + 1; i < r->n; ++i)
			if (memcmp(&x[i], &x[r->n / 2], sizeof(float)))
				return true;
	}
	return !any_motion;
}

/* Whether a signal output is an event pulse (flips, swings), which says
 * when something happened rather than where the pendulum is. */
static bool is_pulse(pendula_port_id id)
{
	return pendula_ports[id].channel == PENDULA_CH_FLIPS ||
	       pendula_ports[id].channel == PENDULA_CH_SWINGS;
}

/* The widest swing of any continuous signal output over the last tenth of
 * the run (0 once everything is at rest); names the output in `which`. */
static double final_swing(const recording *r, const char **which)
{
	double widest = 0.0;
	*which = "none";
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		const float *x = r->sig[id];
		if (!x || is_pulse((pendula_port_id)id))
			continue;
		float lo = x[r->n - 1], hi = lo;
		for (size_t i = r->n - r->n / 10; i < r->n; ++i) {
			lo = fminf(lo, x[i]);
			hi = fmaxf(hi, x[i]);
		}
		if (!strcmp(*which, "none") || (double)hi - lo > widest) {
			widest = (double)hi - lo;
			*which = pendula_ports[id].symbol;
		}
	}
	return widest;
}

/* The smallest magnitude other than 0 of any continuous output: how close
 * a decay came to the subnormals before the outputs were flushed. */
static double smallest_nonzero(const recording *r)
{
	double least = INFINITY;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		const float *x = r->sig[id];
		if (!x || is_pulse((pendula_port_id)id))
			continue;
		for (size_t i = 0; i < r->n; ++i)
			if (x[i] != 0.0f && fabsf(x[i]) < least)
				least = fabsf(x[i]);
	}
	return least;
}

/* The event pulses that begin in the last tenth of the run. */
static size_t final_pulses(const recording *r)
{
	size_t pulses = 0;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		const float *x = r->sig[id];
		if (!x || !is_pulse((pendula_port_id)id))
			continue;
		for (size_t i = r->n - r->n / 10; i < r->n; ++i)
			pulses += x[i] != 0.0f && x[i] != x[i - 1];
	}
	return pulses;
}

static bool same_bits(const recording *a, const recording *b)
{
	if (a->n != b->n || a->n_blocks != b->n_blocks)
		return false;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (a->sig[id] && memcmp(a->sig[id], b->sig[id], a->n * sizeof(float)))
			return false;
		if (a->ctl[id] && memcmp(a->ctl[id], b->ctl[id], a->n_blocks * sizeof(float)))
			return false;
	}
	return true;
}

/* What a case expects of the motion besides the contract. */
typedef enum {
	EXPECT_ANY,    /* nothing */
	EXPECT_MOVING, /* still moving in the second half */
	EXPECT_REST,   /* every signal output still over the last tenth */
} expectation;

/* How still "at rest" is: a swing of the outputs (full scale 1) that no
 * listener hears and no CC shows (7-bit steps are 1/64). */
#define REST_SWING 1e-4

/* Runs a case with FTZ/DAZ off and on and checks the contract, the
 * expectation and that FTZ/DAZ change nothing. */
static void check_case(const char *what, const run_spec *spec, expectation expect)
{
	recording plain, ftz;
	run(cur, spec, false, &plain);
	char first[200] = "";
	const size_t bad = contract_violations(&plain, first, sizeof first);
	const bool moving = still_moving(&plain);
	const char *widest = "";
	const double swing = final_swing(&plain, &widest);
	printf("\n    %-46s %s", what, bad ? "CONTRACT BROKEN" : "contract ok");
	if (expect == EXPECT_MOVING)
		printf(moving ? ", moving" : ", FROZEN");
	const size_t pulses = final_pulses(&plain);
	if (expect == EXPECT_REST)
		printf(", last tenth: swings %.2g (%s), %zu event pulses; least |output| %.2g",
		       swing, widest, pulses, smallest_nonzero(&plain));
	CHECK(bad == 0, "%s: %zu output values break the contract, first %s (%s)", what, bad, first,
	      spec->set);
	if (expect == EXPECT_MOVING)
		CHECK(moving, "%s: every motion output frozen over the second half of the run (%s)",
		      what, spec->set);
	if (expect == EXPECT_REST)
		CHECK(swing <= REST_SWING,
		      "%s: not at rest, %s swings by %.3g over the last tenth of the run (%s)",
		      what, widest, swing, spec->set);
#ifdef HAVE_MXCSR
	run(cur, spec, true, &ftz);
	const bool same = same_bits(&plain, &ftz);
	CHECK(same, "%s: FTZ/DAZ on changes the output bits", what);
	rec_free(&ftz);
#endif
	rec_free(&plain);
}

/* ---------------------------------------------------------------------- */
/* The cases                                                               */

typedef struct {
	const char *what;
	const char *set;
	bool must_move;
	double seconds; /* 0: half a second */
} named_case;

static const named_case named[] = {
    /* issue 13: +-9.6e26 angles and NaN energy within 10 s */
    {"forced 1 kHz, heavy arm on a light one",
     "gravity=100 m1=0.01 m2=100 lambda2=100 sigma1=100 sigma2=-100 pivot_y_amp=0.246516 "
     "pivot_y_freq=1000 theta2_init=-180 l1=1 l2=1",
     true, 0.0},
    /* a restart loop: every output exactly 0 */
    {"tiny double, torques -100", "m1=0.01 m2=0.01 l1=0.01 l2=0.01 sigma1=-100 sigma2=-100", true,
     0.0},
    /* negative energy, subnormals inside run() */
    {"strong damping, time scale 100", "time_scale=100 lambda1=100 lambda2=100", false, 4.0},
    /* tip_y = -1.000001 */
    {"m = l = 0.1, torques +-10 from rest",
     "m1=0.1 m2=0.1 l1=0.1 l2=0.1 sigma1=10 sigma2=-10 theta1_init=0 theta2_init=0", true, 0.0},
    /* a subnormal tip_y at frame 1 */
    {"theta2_init = 180 under theta1_init = 0", "theta1_init=0 theta2_init=180", false, 0.0},
    /* theta1 down to -58: the angle stopped wrapping */
    {"free rotor, torque -100", "n_bodies=1 c1=0 inertia1=1e-6 sigma1=-100", true, 0.0},
    /* denormal controls passed straight to the outputs */
    {"denormal initial angles and pivot",
     "theta1_init=1e-40 theta2_init=-1e-40 pivot_x_amp=1e-40 pivot_y_amp=1e-40 "
     "pivot_x_freq=1e-40 pivot_y_freq=1e-40",
     false, 0.0},
    /* light arms, torques, forced hard, at audio rate */
    {"light bodies, torques, forced, time scale 100",
     "time_scale=100 m1=0.01 m2=0.01 sigma1=100 sigma2=-100 pivot_x_amp=10 pivot_x_freq=1000", true,
     0.0},
};

/* Whether variant v has an angle output.  The named cases are issue 13's,
 * written for the angle models; they apply wherever their ports exist, but
 * "must move" only holds where a torque turns an angle: on the spherical,
 * sigma is a swirl about the vertical, which cannot move a pendulum hanging
 * straight down. */
static bool has_angle_output(pendula_variant v)
{
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		const int ch = pendula_ports[id].channel;
		if (pendula_port_index(v, (pendula_port_id)id) >= 0 &&
		    pendula_ports[id].kind == PK_SIGNAL_OUT && ch >= PENDULA_CH_THETA &&
		    ch < PENDULA_CH_THETA + PENDULA_MAX_BODIES)
			return true;
	}
	return false;
}

static void test_named(void)
{
	int ran = 0;
	const bool angles = has_angle_output(cur);
	for (size_t c = 0; c < sizeof named / sizeof named[0]; ++c) {
		if (!applies(cur, named[c].set))
			continue;
		run_spec spec = {.set = named[c].set,
		                 .seconds = named[c].seconds > 0 ? named[c].seconds : 0.5,
		                 .block_seed = 11u + (uint32_t)c};
		check_case(named[c].what, &spec,
		           named[c].must_move && angles ? EXPECT_MOVING : EXPECT_ANY);
		++ran;
	}
	printf("\n    %d cases apply to %s", ran, pendula_variant_names[cur]);
}

/* Every physical control at its minimum or its maximum (chosen by the
 * bits of a random number), the initial angles anywhere: a torque of
 * +-100 N m on joint 1 keeps it moving (visibly so in a fraction of a
 * second when time runs 100 times faster; at 0.01 a heavy damped body may
 * move less than a float's resolution). */
static void test_grid(void)
{
	const int corners = pendula_variant_is_cv(cur) ? 8 : 16;
	uint32_t s = 20260u + (uint32_t)cur;
	for (int c = 0; c < corners; ++c) {
		char set[2048] = "";
		size_t len = 0;
		bool fast = false;
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
			const pendula_port_info *info = &pendula_ports[id];
			if (pendula_port_index(cur, (pendula_port_id)id) < 0 ||
			    info->kind != PK_CONTROL_IN || info->param == PP_NONE)
				continue;
			const float v = (info->flags & PF_INITIAL)
			                    ? random_control((pendula_port_id)id, &s)
			                : xorshift(&s) & 16 ? info->max
			                                    : info->min;
			len += (size_t)snprintf(set + len, sizeof set - len, "%s%s=%.9g",
			                        len ? " " : "", info->symbol, (double)v);
			if (id == P_TIME_SCALE)
				fast = v > 1.0f;
		}
		char what[64];
		snprintf(what, sizeof what, "corner %d", c);
		run_spec spec = {.set = set, .seconds = 0.4, .block_seed = 100u + (uint32_t)c};
		check_case(what, &spec,
		           fast && has_port(cur, "sigma1") ? EXPECT_MOVING : EXPECT_ANY);
	}
}

/* Random control values inside the ranges every block (no reset). */
static void test_hostile(void)
{
	for (uint32_t seed = 1; seed <= 3; ++seed) {
		char what[64];
		snprintf(what, sizeof what, "hostile controls, seed %u", seed);
		run_spec spec = {.set = "",
		                 .hostile_seed = 7919u * seed,
		                 .seconds = 0.5,
		                 .block_seed = 31u * seed};
		check_case(what, &spec, EXPECT_ANY);
	}
}

/* NaN, infinities, huge and subnormal values on every control input
 * (reset too) every block, mixed with values in range: the outputs keep
 * the contract, and FTZ/DAZ change nothing (a subnormal control counts as
 * 0 either way). */
static void test_non_finite(void)
{
	for (uint32_t seed = 1; seed <= 2; ++seed) {
		char what[64];
		snprintf(what, sizeof what, "non-finite controls, seed %u", seed);
		run_spec spec = {.set = "",
		                 .hostile_seed = 104729u * seed,
		                 .seconds = 0.5,
		                 .block_seed = 17u * seed,
		                 .non_finite = true};
		check_case(what, &spec, EXPECT_ANY);
	}
}

/* ---------------------------------------------------------------------- */
/* Structural controls every block (issue 38)                             */

/* The controls that change which bodies there are or what they are. */
static const pendula_port_id structural[] = {P_N_BODIES, P_N_LINKS, P_LINK_SHAPE, P_SURFACE};

static bool has_id(pendula_variant v, pendula_port_id id)
{
	return pendula_port_index(v, id) >= 0;
}

/* The number of output values (every signal frame, every control output
 * at the end of every block) that are not finite; describes the first. */
static size_t nonfinite_outputs(const recording *r, char *first, size_t size)
{
	size_t bad = 0;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		const float *x = r->sig[id] ? r->sig[id] : r->ctl[id];
		const size_t n = r->sig[id] ? r->n : r->ctl[id] ? r->n_blocks : 0;
		for (size_t i = 0; i < n; ++i)
			if (!isfinite(x[i]) && bad++ == 0)
				snprintf(first, size, "%s = %g at %s %zu", pendula_ports[id].symbol,
				         (double)x[i], r->sig[id] ? "frame" : "block", i);
	}
	return bad;
}

static void check_finite(const char *what, const run_spec *spec)
{
	recording r;
	run(cur, spec, false, &r);
	char first[200] = "";
	const size_t bad = nonfinite_outputs(&r, first, sizeof first);
	printf("\n    %-46s %s", what, bad ? "NOT FINITE" : "finite");
	CHECK(bad == 0, "%s: %zu output values not finite, first %s (%s)", what, bad, first,
	      spec->set);
	rec_free(&r);
}

static void links_cycle(const run_spec *spec, float *control, size_t b, uint32_t *s)
{
	(void)spec;
	(void)s;
	control[P_N_LINKS] = (float)(1 + b % 6);
}

static void shapes_cycle(const run_spec *spec, float *control, size_t b, uint32_t *s)
{
	(void)spec;
	(void)s;
	control[P_LINK_SHAPE] = (float)(b % 3);
}

/* Every structural control of the model to another value in its range. */
static void structure_random(const run_spec *spec, float *control, size_t b, uint32_t *s)
{
	(void)spec;
	(void)b;
	for (size_t i = 0; i < sizeof structural / sizeof structural[0]; ++i) {
		const pendula_port_id id = structural[i];
		if (!has_id(cur, id))
			continue;
		const int lo = (int)pendula_ports[id].min, span = (int)pendula_ports[id].max - lo;
		const int now = (int)control[id] - lo;
		control[id] =
		    (float)(lo + (now + 1 + (int)(xorshift(s) % (uint32_t)span)) % (span + 1));
	}
}

/* Issue 38: the velocity outputs of a chain were NaN for a frame now and
 * then when its links changed every 64-frame block with custom links, or its
 * link shape at six links. */
static void test_structure_reported(void)
{
	if (!has_id(cur, P_LINK_SHAPE)) {
		printf("\n    no link shape in %s", pendula_variant_names[cur]);
		return;
	}
	const run_spec links = {.set = "link_shape=2 time_scale=20",
	                        .seconds = 10.0,
	                        .block = 64,
	                        .each_block = links_cycle};
	check_finite("custom links, n_links 1..6 every 64 frames", &links);
	const run_spec shapes = {
	    .set = "n_links=6 time_scale=20 m2=0.01 m6=100 pivot_x_amp=0.1 pivot_x_freq=3 "
	           "pivot_y_amp=0.1 pivot_y_freq=5",
	    .seconds = 10.0,
	    .block = 64,
	    .each_block = shapes_cycle};
	check_finite("six links, link_shape 0..2 every 64 frames", &shapes);
}

/* Every model: its structural controls changed every block of 1 .. 512
 * frames, every other control at a random value in its range. */
static void test_structure_random(void)
{
	for (uint32_t seed = 1; seed <= 4; ++seed) {
		uint32_t s = 4099u * seed + (uint32_t)cur;
		char set[4096] = "";
		size_t len = 0;
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
			if (!has_id(cur, (pendula_port_id)id) ||
			    pendula_ports[id].kind != PK_CONTROL_IN || id == P_RESET ||
			    id == P_FREEZE)
				continue;
			const float v = random_control((pendula_port_id)id, &s);
			len +=
			    (size_t)snprintf(set + len, sizeof set - len, "%s%s=%.9g",
			                     len ? " " : "", pendula_ports[id].symbol, (double)v);
		}
		char what[64];
		snprintf(what, sizeof what, "structure every block, seed %u", seed);
		const run_spec spec = {.set = set,
		                       .seconds = 3.0,
		                       .block_seed = 53u * seed,
		                       .max_block = 512,
		                       .each_block = structure_random,
		                       .each_seed = 977u * seed};
		check_finite(what, &spec);
	}
}

/* ---------------------------------------------------------------------- */
/* Each model's own corners                                                */

/* What a setting control is, by the pendula_params field it fills: the
 * corners below find each model's masses, torques, dampings and initial
 * angles in the port table, so every model takes part with the ports it
 * has and no symbol is named here. */
typedef enum {
	ROLE_OTHER,
	ROLE_COUNT,   /* bodies, links */
	ROLE_MASS,    /* masses, inertias */
	ROLE_SIZE,    /* rod lengths, centres of mass */
	ROLE_DAMPING, /* joint damping, the bead's drag */
	ROLE_TORQUE,  /* joint torques (the spherical's: a swirl; the bead has none) */
	ROLE_ANGLE,   /* initial angles and azimuths */
	ROLE_SPIN,    /* initial spin about the vertical */
} port_role;

#define FILLS(info, member)             \
	((info)->param >= PP(member) && \
	 (info)->param < PP(member) + (int)sizeof(((pendula_params *)0)->member))

static port_role role_of(pendula_port_id id)
{
	const pendula_port_info *info = &pendula_ports[id];
	if (info->kind != PK_CONTROL_IN || info->param == PP_NONE)
		return ROLE_OTHER;
	if (FILLS(info, n_bodies))
		return ROLE_COUNT;
	if (FILLS(info, m) || FILLS(info, inertia))
		return ROLE_MASS;
	if (FILLS(info, l) || FILLS(info, c))
		return ROLE_SIZE;
	if (FILLS(info, lambda))
		return ROLE_DAMPING;
	if (FILLS(info, sigma))
		return ROLE_TORQUE;
	if (FILLS(info, theta_init) || FILLS(info, phi_init))
		return ROLE_ANGLE;
	if (FILLS(info, spin_init))
		return ROLE_SPIN;
	return ROLE_OTHER;
}

/* A corner: how each role is set.  `how` -1 the minimum, +1 the maximum,
 * 0 the default, 2 maximum and minimum in turn along the bodies (in port
 * order); a fraction f >= 0 instead puts the value f of the way into the
 * range (from the top for every other body with how 2). */
typedef struct {
	const char *what;
	double time_scale;
	int count, mass, size, torque; /* how */
	double damping;                /* the fraction of the range; < 0: the default */
	bool tumble;                   /* initial angles 10 degrees from the top, in turn
	                                  each side, spin at max */
	double seconds;
	expectation expect;
} corner;

static const corner corners[] = {
    {"light bodies, every torque at +max", 1, 1, -1, 0, 1, -1, false, 0.5, EXPECT_MOVING},
    {"light bodies, every torque at -max, fast", 100, 1, -1, 0, -1, -1, false, 0.5, EXPECT_MOVING},
    {"light short bodies, torques +-max, fast", 100, 1, -1, -1, 2, -1, false, 0.5, EXPECT_MOVING},
    {"light short bodies, every torque at +max", 1, 1, -1, -1, 1, -1, false, 0.5, EXPECT_MOVING},
    {"light bodies, heavy damping, fast", 100, 1, -1, 0, 0, 1, true, 0.5, EXPECT_ANY},
    {"heavy damping from a tumble, fast", 100, 1, 0, 0, 0, 0.1, true, 4.0, EXPECT_REST},
    {"light damping from a tumble, fast", 100, 1, 0, 0, 0, 0.01, true, 4.0, EXPECT_REST},
};

/* Appends "symbol=value" of every control of variant v in role r. */
static size_t corner_role(pendula_variant v, port_role r, int how, double fraction, char *set,
                          size_t len, size_t size, int *found)
{
	int k = 0;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (pendula_port_index(v, (pendula_port_id)id) < 0 ||
		    role_of((pendula_port_id)id) != r)
			continue;
		float lo, hi;
		pendula_port_range(v, (pendula_port_id)id, &lo, &hi);
		const int pick = how == 2 ? (k % 2 ? -1 : 1) : how;
		double value = pick < 0 ? lo : hi;
		if (fraction >= 0.0)
			value = pick < 0 ? hi - fraction * ((double)hi - lo)
			                 : lo + fraction * ((double)hi - lo);
		len += (size_t)snprintf(set + len, size - len, "%s%s=%.9g", len ? " " : "",
		                        pendula_ports[id].symbol, value);
		++k;
	}
	*found = k;
	return len;
}

/* The controls of corner c for variant v in set; says in `ports` how many
 * masses, torques and dampings the model has. */
static void corner_set(pendula_variant v, const corner *c, char *set, size_t size, char *ports,
                       size_t ports_size)
{
	int masses = 0, torques = 0, dampings = 0, n = 0;
	size_t len = (size_t)snprintf(set, size, "time_scale=%g", c->time_scale);
	len = corner_role(v, ROLE_COUNT, c->count, -1.0, set, len, size, &n);
	if (c->mass)
		len = corner_role(v, ROLE_MASS, c->mass, -1.0, set, len, size, &masses);
	if (c->size)
		len = corner_role(v, ROLE_SIZE, c->size, -1.0, set, len, size, &n);
	if (c->torque)
		len = corner_role(v, ROLE_TORQUE, c->torque, -1.0, set, len, size, &torques);
	if (c->damping >= 0.0)
		len = corner_role(v, ROLE_DAMPING, 1, c->damping, set, len, size, &dampings);
	if (c->tumble) {
		/* 10 degrees of the 360 from either end of the range */
		len = corner_role(v, ROLE_ANGLE, 2, 1.0 / 36.0, set, len, size, &n);
		len = corner_role(v, ROLE_SPIN, 1, -1.0, set, len, size, &n);
	}
	snprintf(ports, ports_size, "%d masses/inertias, %d torques%s, %d dampings", masses,
	         torques, c->torque && !torques ? " (none: no torque)" : "", dampings);
}

static void test_corners(void)
{
	for (size_t i = 0; i < sizeof corners / sizeof corners[0]; ++i) {
		char set[2048], ports[128];
		corner_set(cur, &corners[i], set, sizeof set, ports, sizeof ports);
		printf("\n    [%s]", ports);
		run_spec spec = {
		    .set = set, .seconds = corners[i].seconds, .block_seed = 701u + (uint32_t)i};
		check_case(corners[i].what, &spec, corners[i].expect);
	}
}

/* --rest-events: once every continuous output is at rest, no event pulse
 * (flips, swings) either: a pendulum at rest passes through nothing (its
 * angles at rest are round-off around 0, whose sign changes must not be
 * taken for swings: engine/events.c, EVENT_DEADBAND).  Its own test, so
 * that a failure names it. */
static void test_rest_events(void)
{
	for (size_t i = 0; i < sizeof corners / sizeof corners[0]; ++i) {
		if (corners[i].expect != EXPECT_REST)
			continue;
		char set[2048], ports[128];
		corner_set(cur, &corners[i], set, sizeof set, ports, sizeof ports);
		run_spec spec = {
		    .set = set, .seconds = corners[i].seconds, .block_seed = 701u + (uint32_t)i};
		recording r;
		run(cur, &spec, false, &r);
		const char *widest = "";
		const double swing = final_swing(&r, &widest);
		const size_t pulses = final_pulses(&r);
		printf("\n    %-46s last tenth: swings %.2g (%s), %zu event pulses",
		       corners[i].what, swing, widest, pulses);
		if (swing <= REST_SWING && pulses)
			printf("\n      (%s)", set);
		CHECK(swing > REST_SWING || pulses == 0,
		      "%s: at rest (swing %.2g), yet %zu event pulses in the last tenth",
		      corners[i].what, swing, pulses);
		rec_free(&r);
	}
}

/* ---------------------------------------------------------------------- */

static int suite_init(void)
{
	return 0;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; ++i) {
		if (!strcmp(argv[i], "--plugin") && i + 1 < argc) {
			const char *name = argv[++i];
			only_variant = -2;
			for (int v = 0; v < PENDULA_N_VARIANTS; ++v)
				if (!strcmp(name, pendula_variant_names[v]))
					only_variant = v;
		} else if (!strcmp(argv[i], "--rest-events")) {
			rest_events = true;
		} else if (!bundle) {
			bundle = argv[i];
		}
	}
	if (!bundle || only_variant == -2) {
		fprintf(stderr, "usage: test_edge BUNDLE_DIR [--plugin NAME] [--rest-events]\n");
		return 2;
	}
	if (!lv2th_world_load("test_edge", bundle, &world, plugins)) {
		lv2th_free_uris();
		return 1;
	}
	/* cur is global: one variant per process (the first without --plugin) */
	cur = (pendula_variant)(only_variant >= 0 ? only_variant : 0);
	static CU_TestInfo tests[] = {
	    {"named edge cases", test_named},
	    {"grid of extremes", test_grid},
	    {"hostile controls every block", test_hostile},
	    {"structure every block: issue 38", test_structure_reported},
	    {"structure every block: random", test_structure_random},
	    {"non-finite controls every block", test_non_finite},
	    {"each model's corners", test_corners},
	    CU_TEST_INFO_NULL,
	};
	static CU_TestInfo rest_tests[] = {
	    {"no events at rest", test_rest_events},
	    CU_TEST_INFO_NULL,
	};
	CU_SuiteInfo suites[] = {
	    {pendula_variant_names[cur], suite_init, NULL, NULL, NULL,
	     rest_events ? rest_tests : tests},
	    CU_SUITE_INFO_NULL,
	};
	const int status = test_cunit_main("test_edge", suites);
	lilv_world_free(world);
	lv2th_free_uris();
	return status;
}
