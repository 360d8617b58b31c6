/* SPDX-License-Identifier: ISC */
/*
 * Pendula in a DAW, through a lilv test host (tests/support/daw_host.h): the control
 * atom port gets time:Position and MIDI at chosen frames, blocks have
 * pseudo-random sizes, and the outputs are checked:
 *
 *   tempo_phase     pivot_x_sync = 1/4, pivot_y_sync = 1 bar, time_scale 2:
 *                   after every block, pivot_x_ctl = Dx sin(2 pi frac(q)) and
 *                   pivot_y_ctl = Dy cos(2 pi frac(q / 4)), q the song position
 *                   in quarters, across a start mid-block, a tempo change, a
 *                   relocation, a stop and a restart at another bar; 6/8 too
 *   tempo_blocks    the same song with other block sizes: bit-identical
 *   tempo_free      sync on but no tempo from the host: pivot_x_freq applies
 *   cc_match        every output on its CC: the MIDI output equals, event for
 *                   event, what the SPEC mapping and the rules (on change,
 *                   <= 1 per output per ms) give from the signal outputs at
 *                   their frames; 7-bit and 14-bit; the same with the CV
 *                   outputs unconnected
 *   midi_through    incoming notes and other MIDI come out unchanged, in
 *                   order, at their frames, merged in time order with the CCs;
 *                   time:Position is not passed on; a small output buffer
 *                   keeps all incoming MIDI and stays a valid sequence
 *   reset_on_start  two transport starts (different times, block sizes,
 *                   states) give bit-identical signals and identical MIDI
 *                   from the start frame on, frame 0 shows the initial state;
 *                   with reset_on_start off they differ
 *
 * usage: test_daw BUNDLE_DIR
 */
#include "cunit_main.h"
#include "daw_host.h"

#define RATE        48000.0
#define CC_INTERVAL 48 /* frames in 1 ms at 48 kHz */

/* ---------------------------------------------------------------------- */
/* A song: events at absolute frames                                        */

enum { EV_POSITION, EV_MIDI };

typedef struct {
	int64_t frame;
	int kind;
	double bar, beat, bpb, unit, bpm, speed;
	uint8_t midi[3];
	uint32_t size;
} song_ev;

/* Renders until `end`, queuing the events of each block at their offsets;
 * block 0: random sizes from *seed.  Calls after(h, user) after each block. */
static void render_song(DawHost *h, const song_ev *evs, size_t n_evs, int64_t end, uint32_t block,
                        uint32_t *seed, void (*after)(DawHost *, void *), void *user)
{
	size_t next = 0;
	while (next < n_evs && evs[next].frame < h->frames)
		++next;
	while (h->frames < end) {
		uint32_t n = block ? block : 1 + daw_rand(seed) % 1500;
		if (n > DAW_MAX_BLOCK)
			n = DAW_MAX_BLOCK;
		if (h->frames + n > end)
			n = (uint32_t)(end - h->frames);
		while (next < n_evs && evs[next].frame < h->frames + n) {
			const song_ev *e = &evs[next++];
			const int64_t at = e->frame - h->frames;
			if (e->kind == EV_POSITION)
				daw_in_position(h, at, e->bar, e->beat, e->bpb, e->unit, e->bpm,
				                e->speed);
			else
				daw_in_midi(h, at, e->midi, e->size);
		}
		daw_run(h, n);
		if (after)
			after(h, user);
	}
}

static song_ev position(int64_t frame, double bar, double beat, double bpb, double unit, double bpm,
                        double speed)
{
	song_ev e;
	memset(&e, 0, sizeof e);
	e.frame = frame;
	e.kind = EV_POSITION;
	e.bar = bar;
	e.beat = beat;
	e.bpb = bpb;
	e.unit = unit;
	e.bpm = bpm;
	e.speed = speed;
	return e;
}

static song_ev midi3(int64_t frame, uint8_t a, uint8_t b, uint8_t c, uint32_t size)
{
	song_ev e;
	memset(&e, 0, sizeof e);
	e.frame = frame;
	e.kind = EV_MIDI;
	e.midi[0] = a;
	e.midi[1] = b;
	e.midi[2] = c;
	e.size = size;
	return e;
}

/* The song position (quarter notes) at frame f, from the last position event
 * at or before f: what a correct tempo follower must know.  Returns false if
 * the transport is not rolling (or nothing is known). */
static bool song_quarters(const song_ev *evs, size_t n, int64_t f, double *q)
{
	const song_ev *last = NULL;
	for (size_t i = 0; i < n; ++i)
		if (evs[i].kind == EV_POSITION && evs[i].frame <= f)
			last = &evs[i];
	if (!last || !(last->speed > 0.0))
		return false;
	const double beats = last->bar * last->bpb + last->beat +
	                     (double)(f - last->frame) * last->speed * last->bpm / 60.0 / RATE;
	*q = beats * 4.0 / last->unit;
	return true;
}

static double frac(double x)
{
	return x - floor(x);
}

/* ---------------------------------------------------------------------- */
/* Tempo sync                                                              */

#define SYNC_QUARTER 9  /* pendula_sync_notes: "1/4" */
#define SYNC_BAR     15 /* "1 bar" */

typedef struct {
	const song_ev *evs;
	size_t n_evs;
	double period_x, period_y, amp_x, amp_y;
	double worst_x, worst_y;
	size_t checked, stopped_blocks;
	double stopped_min, stopped_max;
} phase_check;

static void after_block_phase(DawHost *h, void *user)
{
	phase_check *c = (phase_check *)user;
	const float px = h->control[P_CTL_PIVOT_X], py = h->control[P_CTL_PIVOT_Y];
	double q;
	if (!song_quarters(c->evs, c->n_evs, h->frames - 1, &q)) {
		c->stopped_blocks++;
		if (px < c->stopped_min)
			c->stopped_min = px;
		if (px > c->stopped_max)
			c->stopped_max = px;
		return;
	}
	const double want_x = c->amp_x * sin(2.0 * DAW_PI * frac(q / c->period_x));
	const double want_y = c->amp_y * cos(2.0 * DAW_PI * frac(q / c->period_y));
	if (fabs(px - want_x) > c->worst_x)
		c->worst_x = fabs(px - want_x);
	if (fabs(py - want_y) > c->worst_y)
		c->worst_y = fabs(py - want_y);
	c->checked++;
}

/* A song of 45 s at 48 kHz: start at 1.0 s + 321 frames (mid-block) at
 * 120 bpm, 4/4; at 10 s a tempo change to 90 bpm (the host sends the position
 * it is at); at 20 s a relocation to bar 33 beat 2.5; at 30 s stop; at 35 s
 * start at bar 4 in 6/8 at 150 (eighths).  Positions are only sent on change. */
static size_t make_song(song_ev *evs)
{
	size_t n = 0;
	const int64_t f0 = 48000 + 321, f1 = 480000, f2 = 960000, f3 = 1440000, f4 = 1680000;
	evs[n++] = position(0, 0, 0, 4, 4, 120, 0); /* stopped, tempo known */
	evs[n++] = position(f0, 0, 0, 4, 4, 120, 1);
	double beats = (double)(f1 - f0) * 120.0 / 60.0 / RATE;
	evs[n++] = position(f1, floor(beats / 4), beats - 4 * floor(beats / 4), 4, 4, 90, 1);
	evs[n++] = position(f2, 33, 2.5, 4, 4, 90, 1);
	beats = 33 * 4 + 2.5 + (double)(f3 - f2) * 90.0 / 60.0 / RATE;
	evs[n++] = position(f3, floor(beats / 4), beats - 4 * floor(beats / 4), 4, 4, 90, 0);
	evs[n++] = position(f4, 4, 0, 6, 8, 150, 1);
	return n;
}

static DawHost *sync_host(pendula_variant v, bool reset_on_start)
{
	DawHost *h = daw_host_new(v, RATE, false);
	daw_set(h, P_TIME_SCALE, 2.0f); /* simulated Hz = audio Hz / 2 */
	daw_set(h, P_PIVOT_X_AMP, 0.1f);
	daw_set(h, P_PIVOT_Y_AMP, 0.05f);
	daw_set(h, P_PIVOT_X_FREQ, 3.0f); /* free value: must be overridden */
	daw_set(h, P_PIVOT_Y_FREQ, 5.0f);
	daw_set(h, P_PIVOT_X_SYNC, SYNC_QUARTER);
	daw_set(h, P_PIVOT_Y_SYNC, SYNC_BAR);
	daw_set(h, P_RESET_ON_START, reset_on_start ? 1.0f : 0.0f);
	daw_activate(h);
	return h;
}

static void test_tempo_phase(void)
{
	song_ev evs[16];
	const size_t n_evs = make_song(evs);
	for (int v = 0; v < PENDULA_N_SIGNAL_VARIANTS; v += 2)
		for (int ros = 0; ros < 2; ++ros) {
			DawHost *h = sync_host((pendula_variant)v, ros);
			phase_check c;
			memset(&c, 0, sizeof c);
			c.evs = evs;
			c.n_evs = n_evs;
			c.period_x = pendula_sync_notes[SYNC_QUARTER].beats;
			c.period_y = pendula_sync_notes[SYNC_BAR].beats;
			c.amp_x = 0.1;
			c.amp_y = 0.05;
			c.stopped_min = 1e9;
			c.stopped_max = -1e9;
			uint32_t seed = 1234567u + (uint32_t)v;
			render_song(h, evs, n_evs, (int64_t)(45 * RATE), 0, &seed,
			            after_block_phase, &c);
			printf("\n    %s, reset_on_start %d: %zu rolling blocks, pivot error x "
			       "%.2g m, "
			       "y %.2g m; stopped: %zu blocks, pivot_x %.3f..%.3f",
			       pendula_variant_names[v], ros, c.checked, c.worst_x, c.worst_y,
			       c.stopped_blocks, c.stopped_min, c.stopped_max);
			CHECK(c.checked > 1000, "only %zu blocks checked", c.checked);
			CHECK(c.worst_x < 2e-4 && c.worst_y < 1e-4,
			      "forcing phase off the song position: %.3g m (x), %.3g m (y)",
			      c.worst_x, c.worst_y);
			/* stopped: the forcing keeps going at the nominal tempo */
			CHECK(c.stopped_max - c.stopped_min > 0.15,
			      "forcing froze while the transport was stopped (%.3f..%.3f)",
			      c.stopped_min, c.stopped_max);
			daw_host_free(h);
		}
}

/* Whether two recordings of the same song are the same, frame for frame
 * and MIDI event for MIDI event (first: the first frame that differs). */
static void compare_recordings(const DawHost *a, const DawHost *b, bool *same_out,
                               size_t *first_out, bool *same_midi_out)
{
	bool same = a->rec_n == b->rec_n;
	size_t first = a->rec_n;
	for (int id = 0; same && id < PENDULA_N_PORT_IDS; ++id)
		if (a->rec[id])
			for (size_t f = 0; f < a->rec_n; ++f)
				if (memcmp(&a->rec[id][f], &b->rec[id][f], sizeof(float))) {
					same = false;
					first = f;
					break;
				}
	bool same_midi = a->n_midi == b->n_midi;
	for (size_t i = 0; same_midi && i < a->n_midi; ++i)
		same_midi = a->midi[i].frame == b->midi[i].frame &&
		            !memcmp(a->midi[i].bytes, b->midi[i].bytes, 4);
	*same_out = same;
	*first_out = first;
	*same_midi_out = same_midi;
}

static void test_tempo_blocks(void)
{
	song_ev evs[16];
	const size_t n_evs = make_song(evs);
	DawHost *a = sync_host(PENDULA_VARIANT_DOUBLE, true);
	DawHost *b = sync_host(PENDULA_VARIANT_DOUBLE, true);
	a->recording = b->recording = true;
	a->record_midi = b->record_midi = true;
	uint32_t seed = 42;
	render_song(a, evs, n_evs, (int64_t)(40 * RATE), 512, NULL, NULL, NULL);
	render_song(b, evs, n_evs, (int64_t)(40 * RATE), 0, &seed, NULL, NULL);
	bool same, same_midi;
	size_t first;
	compare_recordings(a, b, &same, &first, &same_midi);
	printf("\n    %zu frames, %zu MIDI events", a->rec_n, a->n_midi);
	CHECK(same, "outputs depend on the block sizes (first difference at frame %zu)", first);
	CHECK(same_midi, "MIDI output depends on the block sizes (%zu vs %zu events)", a->n_midi,
	      b->n_midi);
	daw_host_free(a);
	daw_host_free(b);
}

/* The same with the plugin frozen over the song's start (a time:Position
 * in the middle of a 512-frame block, elsewhere in the random blocks): the
 * tempo follower takes each Position at its own frame while frozen too,
 * so the sync after the release does not depend on the blocks.  (It took
 * them at the frozen block's first frame: the song position then stood
 * that many frames ahead until the next Position, 14 s later.) */
static void test_tempo_frozen(void)
{
	song_ev evs[16];
	const size_t n_evs = make_song(evs);
	DawHost *h[2] = {sync_host(PENDULA_VARIANT_DOUBLE, false),
	                 sync_host(PENDULA_VARIANT_DOUBLE, false)};
	uint32_t seed = 4242;
	for (int k = 0; k < 2; ++k) {
		h[k]->recording = h[k]->record_midi = true;
		/* frozen from 80 blocks of 512 to 120 (the start: 48 321) */
		render_song(h[k], evs, n_evs, 80 * 512, k ? 0 : 512, &seed, NULL, NULL);
		daw_set(h[k], P_FREEZE, 1.0f);
		render_song(h[k], evs, n_evs, 120 * 512, k ? 0 : 512, &seed, NULL, NULL);
		daw_set(h[k], P_FREEZE, 0.0f);
		render_song(h[k], evs, n_evs, (int64_t)(8 * RATE), k ? 0 : 512, &seed, NULL, NULL);
	}
	bool same, same_midi;
	size_t first;
	compare_recordings(h[0], h[1], &same, &first, &same_midi);
	printf("\n    %zu frames, frozen over the start", h[0]->rec_n);
	CHECK(same,
	      "after a freeze over a Position, the outputs depend on the blocks (first "
	      "difference at frame %zu)",
	      first);
	CHECK(same_midi, "after a freeze over a Position, the MIDI depends on the blocks");
	daw_host_free(h[0]);
	daw_host_free(h[1]);
}

static void test_tempo_free(void)
{
	/* sync selected, but the host sends no tempo: pivot_x_freq (2 Hz
	 * simulated, time_scale 1) drives the pivot */
	DawHost *h = daw_host_new(PENDULA_VARIANT_DOUBLE, RATE, false);
	daw_set(h, P_PIVOT_X_AMP, 0.1f);
	daw_set(h, P_PIVOT_X_FREQ, 2.0f);
	daw_set(h, P_PIVOT_X_SYNC, SYNC_QUARTER);
	daw_activate(h);
	double worst = 0.0;
	for (int b = 0; b < 200; ++b) {
		daw_run(h, 480);
		const double t = (double)(h->frames - 1) / RATE;
		const double want = 0.1 * sin(2.0 * DAW_PI * 2.0 * t);
		if (fabs(h->control[P_CTL_PIVOT_X] - want) > worst)
			worst = fabs(h->control[P_CTL_PIVOT_X] - want);
	}
	printf("\n    no tempo: pivot_x follows pivot_x_freq to %.2g m", worst);
	CHECK(worst < 1e-4, "without a tempo the free frequency is not used (%.3g m)", worst);
	daw_host_free(h);
}

/* ---------------------------------------------------------------------- */
/* MIDI CC out                                                             */

typedef struct {
	pendula_port_id signal;
	int cc;
	int kind; /* 0 angle, 1 tip, 2 energy */
} cc_route;

/* The SPEC mapping, written out again: u in [0, 1], floor(u N) clamped. */
static int ref_code(int kind, double x, double energy_max, bool bits14)
{
	const double u = kind == 2 ? x / energy_max : (x + 1.0) / 2.0;
	const int steps = bits14 ? 16384 : 128;
	double c = floor(u * steps);
	if (c < 0)
		c = 0;
	if (c > steps - 1)
		c = steps - 1;
	return (int)c;
}

/* The expected MIDI from the recorded signals: per frame, per output in
 * port order, send when the code changed and 1 ms has passed since the last
 * send (the first frame after activation sends everything). */
static size_t expected_cc(const DawHost *h, const cc_route *routes, int n_routes, int channel,
                          bool bits14, double energy_max, daw_midi *out, size_t cap)
{
	int last_code[8];
	int64_t last_frame[8];
	for (int r = 0; r < n_routes; ++r) {
		last_code[r] = -1;
		last_frame[r] = -1000000;
	}
	size_t n = 0;
	for (size_t f = 0; f < h->rec_n; ++f)
		for (int r = 0; r < n_routes; ++r) {
			const bool pair = bits14 && routes[r].cc < 32;
			const int code =
			    ref_code(routes[r].kind, h->rec[routes[r].signal][f], energy_max, pair);
			if (code == last_code[r] || (int64_t)f - last_frame[r] < CC_INTERVAL)
				continue;
			last_code[r] = code;
			last_frame[r] = (int64_t)f;
			const uint8_t status = (uint8_t)(0xB0 | (channel - 1));
			if (n + 2 > cap)
				return n;
			daw_midi m = {(int64_t)f, 3, {status, (uint8_t)routes[r].cc, 0, 0}};
			if (pair) {
				m.bytes[2] = (uint8_t)(code >> 7);
				out[n++] = m;
				m.bytes[1] = (uint8_t)(routes[r].cc + 32);
				m.bytes[2] = (uint8_t)(code & 127);
				out[n++] = m;
			} else {
				m.bytes[2] = (uint8_t)code;
				out[n++] = m;
			}
		}
	return n;
}

static void cc_case(bool bits14, bool fast)
{
	const cc_route routes[] = {
	    {P_OUT_THETA1, 1, 0},       {P_OUT_THETA2, 2, 0},  {P_OUT_TIP_X, 3, 1},
	    {P_OUT_TIP_Y, 4, 1},        {P_OUT_ENERGY, 70, 2}, /* 70: no LSB partner, 7-bit */
	    {P_OUT_OMEGA1_LEVEL, 5, 1},                        /* [-1, 1] as the tip */
	};
	const int n_routes = 6, channel = 3;
	const double energy_max = fast ? 0.8 : 0.05; /* fast: clipped (energy 0.95) */
	DawHost *hosts[2];
	for (int k = 0; k < 2; ++k) {
		/* k = 1: the CV variant with its signal outputs unconnected; its
		 * MIDI must be the same */
		DawHost *h = daw_host_new(k ? PENDULA_VARIANT_DOUBLE_CV : PENDULA_VARIANT_DOUBLE,
		                          RATE, k == 1);
		if (fast) { /* the audio-rate oscillator: values change every frame */
			daw_set(h, P_TIME_SCALE, 100.0f);
			daw_set(h, P_L1, 0.25f);
			daw_set(h, P_L2, 0.25f);
			daw_set(h, P_THETA1_INIT, 150.0f);
			daw_set(h, P_THETA2_INIT, 170.0f);
		} else {
			daw_set(h, P_THETA1_INIT, 20.0f);
			daw_set(h, P_THETA2_INIT, 28.28f);
		}
		daw_set(h, P_MIDI_CHANNEL, (float)channel);
		daw_set(h, P_CC_14BIT, bits14 ? 1.0f : 0.0f);
		daw_set(h, P_ENERGY_MAX, (float)energy_max);
		for (int r = 0; r < n_routes; ++r)
			daw_set(h,
			        routes[r].signal == P_OUT_THETA1   ? P_CC_THETA1
			        : routes[r].signal == P_OUT_THETA2 ? P_CC_THETA2
			        : routes[r].signal == P_OUT_TIP_X  ? P_CC_TIP_X
			        : routes[r].signal == P_OUT_TIP_Y  ? P_CC_TIP_Y
			        : routes[r].signal == P_OUT_ENERGY ? P_CC_ENERGY
			                                           : P_CC_OMEGA1_LEVEL,
			        (float)routes[r].cc);
		h->recording = true;
		h->record_midi = true;
		daw_activate(h);
		uint32_t seed = 777;
		daw_render(h, (int64_t)(2 * RATE), 0, &seed);
		hosts[k] = h;
	}
	DawHost *h = hosts[0];
	const size_t cap = 4 * (size_t)(2 * RATE / CC_INTERVAL + 2) * 6;
	daw_midi *want = (daw_midi *)lv2th_calloc(cap, sizeof(daw_midi));
	const size_t n_want =
	    expected_cc(h, routes, n_routes, channel, bits14, energy_max, want, cap);
	size_t match = 0;
	while (match < n_want && match < h->n_midi && want[match].frame == h->midi[match].frame &&
	       want[match].size == h->midi[match].size &&
	       !memcmp(want[match].bytes, h->midi[match].bytes, 3))
		++match;
	/* flood: updates (messages, pairs counted once) per output per 1 ms */
	int64_t last[128];
	for (int i = 0; i < 128; ++i)
		last[i] = -1000000;
	int64_t min_gap = 1000000;
	size_t per_cc[128] = {0};
	for (size_t i = 0; i < h->n_midi; ++i) {
		const int cc = h->midi[i].bytes[1];
		if (bits14 && cc >= 32 && cc < 64)
			continue; /* LSB of a pair */
		if (h->midi[i].frame - last[cc] < min_gap)
			min_gap = h->midi[i].frame - last[cc];
		last[cc] = h->midi[i].frame;
		per_cc[cc]++;
	}
	bool same_cv = hosts[1]->n_midi == h->n_midi;
	for (size_t i = 0; same_cv && i < h->n_midi; ++i)
		same_cv = hosts[1]->midi[i].frame == h->midi[i].frame &&
		          !memcmp(hosts[1]->midi[i].bytes, h->midi[i].bytes, 4);
	printf("\n    %s, %s: %zu events (expected %zu, first %zu match); per output in 2 s: "
	       "%zu %zu %zu %zu %zu %zu; smallest gap %lld frames",
	       bits14 ? "14-bit" : "7-bit", fast ? "audio-rate motion" : "slow sway", h->n_midi,
	       n_want, match, per_cc[1], per_cc[2], per_cc[3], per_cc[4], per_cc[70], per_cc[5],
	       (long long)min_gap);
	if (match < n_want && match < h->n_midi)
		printf("\n    first mismatch: frame %lld %02x %02x %02x, expected frame %lld "
		       "%02x %02x %02x",
		       (long long)h->midi[match].frame, h->midi[match].bytes[0],
		       h->midi[match].bytes[1], h->midi[match].bytes[2],
		       (long long)want[match].frame, want[match].bytes[0], want[match].bytes[1],
		       want[match].bytes[2]);
	CHECK(h->n_out_bad == 0 && h->n_out_unordered == 0 && h->n_out_nonmidi == 0,
	      "bad output: %zu not sequences, %zu out of order, %zu non-MIDI", h->n_out_bad,
	      h->n_out_unordered, h->n_out_nonmidi);
	CHECK(match == n_want && h->n_midi == n_want,
	      "MIDI output differs from the signals' CCs at event %zu (%zu vs %zu events)", match,
	      h->n_midi, n_want);
	CHECK(min_gap >= CC_INTERVAL, "an output sent twice within %lld frames (< 1 ms)",
	      (long long)min_gap);
	CHECK(n_want > 10, "too few messages (%zu) for the test to mean anything", n_want);
	if (fast) /* values change all the time: the rate limit is what holds them */
		CHECK(per_cc[1] > 1800, "fast theta1 sent %zu times in 2 s (limit 2000)",
		      per_cc[1]);
	else if (!bits14) /* slow sway: 7-bit codes change far less than 1 per ms */
		CHECK(per_cc[1] < 200, "slow theta1 sent %zu times in 2 s", per_cc[1]);
	CHECK(same_cv, "CV variant with unconnected outputs sends other MIDI (%zu vs %zu)",
	      hosts[1]->n_midi, h->n_midi);
	free(want);
	daw_host_free(hosts[0]);
	daw_host_free(hosts[1]);
}

static void test_cc_match(void)
{
	cc_case(false, true);
	cc_case(true, true);
	cc_case(false, false);
	cc_case(true, false);
}

/* ---------------------------------------------------------------------- */
/* MIDI through                                                            */

static void test_midi_through(void)
{
	song_ev evs[64];
	size_t n = 0;
	/* notes and other messages, several at one frame, some on channel 1
	 * where the CCs go too; a time:Position in between */
	evs[n++] = midi3(0, 0x90, 60, 100, 3);
	evs[n++] = midi3(0, 0x90, 64, 90, 3);
	evs[n++] = midi3(17, 0xB0, 1, 5, 3); /* a CC 1 from outside, passed as it is */
	evs[n++] = midi3(100, 0xC3, 7, 0, 2);
	evs[n++] = position(333, 0, 0, 4, 4, 120, 1);
	evs[n++] = midi3(333, 0x80, 60, 0, 3);
	evs[n++] = midi3(1023, 0xE0, 0, 64, 3);
	evs[n++] = midi3(1024, 0x80, 64, 0, 3);
	for (int i = 0; i < 40; ++i)
		evs[n++] = midi3(2000 + 97 * i, (uint8_t)(0x90 | (i % 16)), (uint8_t)(30 + i),
		                 (uint8_t)(1 + i), 3);
	evs[n++] = midi3(9000, 0xF8, 0, 0, 1); /* clock */
	const size_t n_in = n;

	for (int pass = 0; pass < 2; ++pass) {
		DawHost *h = daw_host_new(PENDULA_VARIANT_PARALLEL, RATE, false);
		daw_set(h, P_TIME_SCALE, 20.0f); /* busy CCs */
		h->record_midi = true;
		if (pass == 1) /* room for the header and 12 events only */
			h->out_capacity = (uint32_t)(sizeof(LV2_Atom_Sequence) + 12 * 24);
		daw_activate(h);
		uint32_t seed = 99;
		render_song(h, evs, n_in, 12000, pass ? 1024 : 0, &seed, NULL, NULL);
		size_t matched = 0, cc_out = 0, position_like = 0;
		for (size_t i = 0; i < h->n_midi; ++i) {
			const daw_midi *m = &h->midi[i];
			/* next expected input MIDI event */
			size_t seen = 0, want = n_in;
			for (size_t j = 0; j < n_in; ++j)
				if (evs[j].kind == EV_MIDI && seen++ == matched) {
					want = j;
					break;
				}
			if (want < n_in && m->frame == evs[want].frame &&
			    m->size == evs[want].size &&
			    !memcmp(m->bytes, evs[want].midi, evs[want].size))
				++matched;
			else if ((m->bytes[0] & 0xF0) == 0xB0 && m->size == 3)
				++cc_out;
			else
				++position_like;
		}
		size_t n_midi_in = 0;
		for (size_t j = 0; j < n_in; ++j)
			n_midi_in += evs[j].kind == EV_MIDI;
		printf("\n    %s: %zu of %zu input MIDI events out unchanged and in order, "
		       "%zu CCs merged, %zu others",
		       pass ? "small output buffer" : "random blocks", matched, n_midi_in, cc_out,
		       position_like);
		CHECK(matched == n_midi_in, "only %zu of %zu input events came out in order",
		      matched, n_midi_in);
		CHECK(position_like == 0, "%zu unexpected events on the MIDI output",
		      position_like);
		CHECK(h->n_out_bad == 0 && h->n_out_unordered == 0 && h->n_out_nonmidi == 0,
		      "bad output: %zu not sequences, %zu out of time order, %zu non-MIDI",
		      h->n_out_bad, h->n_out_unordered, h->n_out_nonmidi);
		CHECK(cc_out > (pass ? 5u : 100u), "the CCs were not merged (%zu)", cc_out);
		daw_host_free(h);
	}
}

/* ---------------------------------------------------------------------- */
/* Reset on transport start                                                */

typedef struct {
	int64_t start; /* absolute frame of the take's start */
} take;

/* A take of one host: its signals and MIDI from a start frame on. */
typedef struct {
	float *sig[PENDULA_N_PORT_IDS];
	daw_midi *midi;
	size_t n_midi;
} take_copy;

static void take_save(const DawHost *h, int64_t start, int64_t len, take_copy *c)
{
	memset(c, 0, sizeof(*c));
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (h->rec[id]) {
			c->sig[id] = (float *)lv2th_calloc((size_t)len, sizeof(float));
			memcpy(c->sig[id], h->rec[id] + start, (size_t)len * sizeof(float));
		}
	c->midi = (daw_midi *)lv2th_calloc(h->n_midi, sizeof(daw_midi));
	for (size_t i = 0; i < h->n_midi; ++i)
		if (h->midi[i].frame >= start && h->midi[i].frame < start + len) {
			c->midi[c->n_midi] = h->midi[i];
			c->midi[c->n_midi].frame -= start;
			c->n_midi++;
		}
}

static void take_free(take_copy *c)
{
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		free(c->sig[id]);
	free(c->midi);
}

/* Bit-identical signals and identical MIDI; returns the first differing
 * frame (or len) through *at. */
static bool take_same(const take_copy *a, const take_copy *b, int64_t len, int64_t *at)
{
	bool same = a->n_midi == b->n_midi;
	*at = len;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (!a->sig[id] || !b->sig[id])
			continue;
		for (int64_t f = 0; f < len; ++f)
			if (memcmp(&a->sig[id][f], &b->sig[id][f], sizeof(float))) {
				same = false;
				if (f < *at)
					*at = f;
				break;
			}
	}
	for (size_t i = 0; same && i < a->n_midi; ++i)
		same = a->midi[i].frame == b->midi[i].frame &&
		       !memcmp(a->midi[i].bytes, b->midi[i].bytes, 4);
	return same;
}

static DawHost *bounce_host(bool reset_on_start)
{
	DawHost *h = daw_host_new(PENDULA_VARIANT_PARALLEL, RATE, false);
	daw_set(h, P_RESET_ON_START, reset_on_start ? 1.0f : 0.0f);
	daw_set(h, P_PIVOT_X_AMP, 0.05f);
	daw_set(h, P_PIVOT_X_SYNC, 6); /* 1/8 note, locked to the song */
	daw_set(h, P_CC_ENERGY, 7);
	daw_set(h, P_CC_14BIT, 1);
	h->recording = true;
	h->record_midi = true;
	daw_activate(h);
	return h;
}

static void test_reset_on_start(void)
{
	const int64_t len = (int64_t)(4 * RATE);
	take_copy first_take;
	memset(&first_take, 0, sizeof first_take);
	bool have_first = false;
	for (int ros = 1; ros >= 0; --ros) {
		DawHost *h = bounce_host(ros);
		/* take 1: stopped for 3.1 s, start mid-block; take 2: stop, wait,
		 * start at another offset, with other block sizes */
		song_ev evs[8];
		size_t n = 0;
		take t[2];
		t[0].start = (int64_t)(3.1 * RATE) + 123;
		t[1].start = t[0].start + len + (int64_t)(3.77 * RATE) + 7;
		evs[n++] = position(0, 0, 0, 4, 4, 120, 0);
		evs[n++] = position(t[0].start, 0, 0, 4, 4, 120, 1);
		evs[n++] = position(t[0].start + len + 1000, 2, 0, 4, 4, 120, 0);
		evs[n++] = position(t[1].start, 0, 0, 4, 4, 120, 1);
		uint32_t seed = 5;
		render_song(h, evs, n, t[0].start + len, 256, NULL, NULL, NULL);
		render_song(h, evs, n, t[1].start + len, 0, &seed, NULL, NULL);

		take_copy c0, c1;
		take_save(h, t[0].start, len, &c0);
		take_save(h, t[1].start, len, &c1);
		int64_t at = len;
		const bool same = take_same(&c0, &c1, len, &at);
		const double init =
		    pendula_port_default(PENDULA_VARIANT_PARALLEL, P_THETA1_INIT) / 180.0;
		printf("\n    reset_on_start %d: two takes %s (first difference at frame %lld), "
		       "%zu / %zu MIDI events; theta1 at the starts %.6f %.6f (initial %.6f)",
		       ros, same ? "identical" : "differ", (long long)at, c0.n_midi, c1.n_midi,
		       c0.sig[P_OUT_THETA1][0], c1.sig[P_OUT_THETA1][0], init);
		if (ros) {
			CHECK(same,
			      "two starts gave different output (frame %lld, MIDI %zu vs %zu)",
			      (long long)at, c0.n_midi, c1.n_midi);
			CHECK(fabs(c0.sig[P_OUT_THETA1][0] - init) < 1e-6 &&
			          fabs(c1.sig[P_OUT_THETA1][0] - init) < 1e-6,
			      "the start frame does not show the initial state");
			CHECK(c0.n_midi > 10, "too few MIDI events (%zu) to compare", c0.n_midi);
			first_take = c0;
			have_first = true;
		} else {
			CHECK(!same, "without reset_on_start the takes are identical: the test "
			             "cannot tell");
			take_free(&c0);
		}
		take_free(&c1);
		daw_host_free(h);
	}

	/* A fresh instance, bounced from another point of its life with block
	 * size 64: the same take again. */
	if (have_first) {
		DawHost *h = bounce_host(true);
		const int64_t start = (int64_t)(1.234 * RATE);
		song_ev evs[2] = {position(0, 0, 0, 4, 4, 120, 0),
		                  position(start, 0, 0, 4, 4, 120, 1)};
		render_song(h, evs, 2, start + len, 64, NULL, NULL, NULL);
		take_copy c;
		take_save(h, start, len, &c);
		int64_t at = len;
		const bool same = take_same(&first_take, &c, len, &at);
		printf("; fresh instance: %s", same ? "identical" : "differs");
		CHECK(same, "a fresh instance bounced differently (frame %lld)", (long long)at);
		take_free(&c);
		daw_host_free(h);
		take_free(&first_take);
	}
}

static CU_TestInfo daw_tests[] = {
    {"tempo_phase", test_tempo_phase},
    {"tempo_blocks", test_tempo_blocks},
    {"tempo_frozen", test_tempo_frozen},
    {"tempo_free", test_tempo_free},
    {"cc_match", test_cc_match},
    {"midi_through", test_midi_through},
    {"reset_on_start", test_reset_on_start},
    CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
    {"daw", NULL, NULL, NULL, NULL, daw_tests},
    CU_SUITE_INFO_NULL,
};

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_daw BUNDLE_DIR\n");
		return 2;
	}
	daw_map_urids();
	if (!daw_world_load(argv[1])) {
		daw_world_free();
		return 1;
	}
	const int status = test_cunit_main("test_daw", suites);
	daw_world_free();
	return status;
}
