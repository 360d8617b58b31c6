/* SPDX-License-Identifier: ISC */
/*
 * Notes in a scale (docs/GUIDE.md, "Notes in a scale") through a lilv test
 * host (tests/support/daw_host.h), for every model, the chaos knob keeping
 * the pendulum tumbling:
 *
 *   in_scale     every scale at every root, over ranges wide, narrow,
 *                reversed (low > high) and without a note of the scale:
 *                every note-on is a note of the scale (the tables below,
 *                written from the scales' definitions, not from the
 *                plugin's) inside the range; a range without a scale note
 *                plays nothing; the pitches vary (at least five of them)
 *   balanced     a long run in random blocks (0 frames too) with random
 *                changes of the scale, root, range, grid, note length and
 *                channel, notes switched on and off, tempo and transport
 *                changes, freezes, resets and deactivate / activate: every
 *                note-off has its note-on before it, no note-on comes for
 *                a note that sounds, nothing is left sounding after a
 *                freeze, also when the host's buffer has room for only
 *                four events a block; run() allocates nothing (malloc,
 *                calloc, realloc and free counted while it runs)
 *   grid         with the transport rolling at 120, 97.3 and 175 bpm, each
 *                grid 1/4 .. 1/32: the note-ons are those of the same run
 *                without grid, each moved to the first frame on or after
 *                the next grid line (computed here in long double from the
 *                tempo), the same pitches and velocities (one note, the
 *                loudest, for a pitch played twice before a line); never
 *                more than one grid step late; the same MIDI in fixed and
 *                random blocks; without transport the notes play at once
 *
 * usage: test_scale BUNDLE_DIR
 */
#include "cunit_main.h"
#include "daw_host.h"

#define RATE 48000.0

/* ---------------------------------------------------------------------- */
/* Allocation while run() runs (the executable's allocator is the one the  */
/* plugin calls: the program exports its symbols, meson.build)             */

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);

static volatile int in_run;
static volatile long allocs_in_run;

void *malloc(size_t n)
{
	allocs_in_run += in_run;
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
	allocs_in_run += in_run;
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
	allocs_in_run += in_run;
	return __libc_realloc(p, n);
}

void free(void *p)
{
	allocs_in_run += in_run && p;
	__libc_free(p);
}

/* One block, its MIDI recorded, counting allocations inside run(). */
static void run_block(DawHost *h, uint32_t n)
{
	if (h->in_open) {
		lv2_atom_forge_pop(&h->forge, &h->seq_frame);
		h->in_open = false;
		lv2th_prepare_atoms(NULL, h->atom_out, h->out_capacity);
	} else {
		lv2th_prepare_atoms(h->atom_in, h->atom_out, h->out_capacity);
	}
	in_run = 1;
	lilv_instance_run(h->inst, n);
	in_run = 0;
	daw_record_midi(h, n);
	h->frames += n;
}

/* ---------------------------------------------------------------------- */
/* The scales, from their definitions: semitones above the root           */

static const int degrees[8][13] = {
    {-1},                                       /* fixed pitches */
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, -1}, /* chromatic */
    {0, 2, 4, 5, 7, 9, 11, -1},                 /* major: W W H W W W H */
    {0, 2, 3, 5, 7, 8, 10, -1},                 /* natural minor: W H W W H W W */
    {0, 2, 4, 7, 9, -1},                        /* major pentatonic */
    {0, 3, 5, 7, 10, -1},                       /* minor pentatonic */
    {0, 2, 4, 6, 8, 10, -1},                    /* whole tone */
    {0, 2, 3, 5, 7, 9, 10, -1},                 /* dorian: W H W W W H W */
};

static bool in_scale(int scale, int root, int note)
{
	const int pc = ((note - root) % 12 + 12) % 12;
	for (int i = 0; degrees[scale][i] >= 0; ++i)
		if (degrees[scale][i] == pc)
			return true;
	return false;
}

/* ---------------------------------------------------------------------- */
/* Hosts and notes                                                         */

/* An activated instance of model m's audio plugin, the chaos knob at 1.2
 * and time_scale 4 (many events), flip and swing notes on. */
static DawHost *notes_host(int m)
{
	DawHost *h = daw_host_new((pendula_variant)(2 * m), RATE, false);
	daw_set(h, P_ENERGY_TARGET, 1.2f);
	daw_set(h, P_ENERGY_RATE, 2.0f);
	daw_set(h, P_TIME_SCALE, 4.0f);
	daw_set(h, P_NOTE_FLIP, 60.0f);
	daw_set(h, P_NOTE_SWING, 60.0f);
	daw_set(h, P_NOTE_LENGTH, 30.0f);
	daw_activate(h);
	h->record_midi = true;
	return h;
}

/* The notes of a MIDI log as a receiver plays them. */
typedef struct {
	long ons, orphans, retriggers, stuck, bad_velocity;
} tally;

static tally tally_notes(const DawHost *h)
{
	tally t = {0, 0, 0, 0, 0};
	static bool sounding[16][128];
	memset(sounding, 0, sizeof sounding);
	for (size_t i = 0; i < h->n_midi; ++i) {
		const daw_midi *m = &h->midi[i];
		const int status = m->bytes[0] & 0xf0, ch = m->bytes[0] & 15, note = m->bytes[1];
		if (m->size != 3 || (status != 0x90 && status != 0x80))
			continue;
		if (status == 0x80) {
			t.orphans += !sounding[ch][note];
			sounding[ch][note] = false;
		} else {
			t.ons++;
			t.retriggers += sounding[ch][note];
			t.bad_velocity += m->bytes[2] < 1 || m->bytes[2] > 127;
			sounding[ch][note] = true;
		}
	}
	for (int ch = 0; ch < 16; ++ch)
		for (int note = 0; note < 128; ++note)
			t.stuck += sounding[ch][note];
	return t;
}

static const char *const model_names[PENDULA_N_MODELS] = {"double", "parallel", "chain",
                                                          "spherical", "bead"};

/* ---------------------------------------------------------------------- */
/* in_scale                                                                */

static void scale_model(int m)
{
	static const int ranges[][2] = {{48, 72}, {36, 84}, {60, 67}, {72, 48},
	                                {0, 127}, {61, 61}, {66, 66}};
	const int n_ranges = (int)(sizeof ranges / sizeof ranges[0]);
	const uint32_t block = 256, blocks = 60; /* 0.32 s per setting */
	DawHost *h = notes_host(m);
	long outside = 0, notes = 0, empty_played = 0, combos_played = 0, combos_full = 0;
	bool pitch_seen[128] = {false};
	int combo = 0;
	for (int scale = 1; scale <= 7; ++scale)
		for (int root = 0; root < 12; ++root, ++combo) {
			const int *r = ranges[combo % n_ranges];
			daw_set(h, P_NOTE_SCALE, (float)scale);
			daw_set(h, P_NOTE_ROOT, (float)root);
			daw_set(h, P_NOTE_LOW, (float)r[0]);
			daw_set(h, P_NOTE_HIGH, (float)r[1]);
			const int lo = r[0] < r[1] ? r[0] : r[1], hi = r[0] < r[1] ? r[1] : r[0];
			bool any = false;
			for (int note = lo; note <= hi; ++note)
				any |= in_scale(scale, root, note);
			const size_t first = h->n_midi;
			for (uint32_t b = 0; b < blocks; ++b)
				run_block(h, block);
			long ons = 0;
			for (size_t i = first; i < h->n_midi; ++i) {
				const daw_midi *e = &h->midi[i];
				if (e->size != 3 || (e->bytes[0] & 0xf0) != 0x90)
					continue;
				const int note = e->bytes[1];
				++ons;
				pitch_seen[note] = true;
				if (!in_scale(scale, root, note) || note < lo || note > hi) {
					if (outside < 5)
						printf("\n    FAILED: %s: note %d outside scale %d "
						       "root %d range %d..%d",
						       model_names[m], note, scale, root, r[0],
						       r[1]);
					++outside;
				}
			}
			notes += ons;
			empty_played += !any && ons > 0;
			combos_full += any;
			combos_played += any && ons > 0;
		}
	daw_set(h, P_FREEZE, 1.0f);
	run_block(h, block);
	const tally t = tally_notes(h);
	int pitches = 0;
	for (int i = 0; i < 128; ++i)
		pitches += pitch_seen[i];
	printf("\n    %s: %ld notes, %d pitches; %ld of %ld settings with scale notes in range "
	       "played",
	       model_names[m], notes, pitches, combos_played, combos_full);
	CHECK(outside == 0, "%s: %ld notes outside their scale or range", model_names[m], outside);
	CHECK(empty_played == 0, "%s: %ld ranges without a scale note played", model_names[m],
	      empty_played);
	CHECK(notes > 100 && pitches >= 5, "%s: %ld notes, %d pitches", model_names[m], notes,
	      pitches);
	CHECK(combos_played * 2 > combos_full, "%s: only %ld of %ld settings played",
	      model_names[m], combos_played, combos_full);
	CHECK(t.orphans == 0 && t.retriggers == 0 && t.stuck == 0 && t.bad_velocity == 0,
	      "%s: %ld orphan note-offs, %ld note-ons while sounding, %ld stuck, %ld bad "
	      "velocities",
	      model_names[m], t.orphans, t.retriggers, t.stuck, t.bad_velocity);
	daw_host_free(h);
}

static void test_in_scale(void)
{
	for (int m = 0; m < PENDULA_N_MODELS; ++m)
		scale_model(m);
}

/* ---------------------------------------------------------------------- */
/* balanced                                                                */

static void balanced_model(int m, uint32_t seed, uint32_t room)
{
	const int64_t len = (int64_t)(40.0 * RATE);
	DawHost *h = notes_host(m);
	if (room) /* a host buffer with room for `room` events a block */
		h->out_capacity = (uint32_t)(sizeof(LV2_Atom_Sequence) + room * 24);
	daw_in_position(h, 0, 0, 0, 4, 4, 120, 1);
	allocs_in_run = 0;
	long changes = 0, cycles = 0;
	while (h->frames < len) {
		const uint32_t r = daw_rand(&seed);
		uint32_t n = r % 7 == 0 ? 0 : 1 + (daw_rand(&seed) >> 8) % 1500;
		const uint32_t what = daw_rand(&seed) % 40, v = daw_rand(&seed);
		h->control[P_RESET] = 0.0f;
		changes += what < 14;
		switch (what) {
		case 0:
			daw_set(h, P_NOTE_SCALE, (float)(v % 8));
			break;
		case 1:
			daw_set(h, P_NOTE_ROOT, (float)(v % 12));
			break;
		case 2:
			daw_set(h, P_NOTE_LOW, (float)(v % 128));
			break;
		case 3:
			daw_set(h, P_NOTE_HIGH, (float)(v % 128));
			break;
		case 4:
			daw_set(h, P_NOTE_GRID, (float)(v % 5));
			break;
		case 5:
			daw_set(h, P_NOTE_LENGTH, (float)(1 + v % 2000));
			break;
		case 6:
			daw_set(h, P_NOTE_FLIP, v % 3 ? (float)(v % 100) : -1.0f);
			break;
		case 7:
			daw_set(h, P_NOTE_SWING, v % 3 ? (float)(v % 100) : -1.0f);
			break;
		case 8:
			daw_set(h, P_MIDI_CHANNEL, (float)(1 + v % 16));
			break;
		case 9:
			daw_set(h, P_FREEZE, v % 3 ? 0.0f : 1.0f);
			break;
		case 10:
			daw_set(h, P_RESET, 1.0f);
			break;
		case 11:
			daw_in_position(h, n ? v % n : 0, (double)(v % 50), 0, 4, 4,
			                40.0 + (double)(v % 200), v % 4 ? 1.0 : 0.0);
			break;
		case 12:
			daw_set(h, P_TIME_SCALE, (float)(1 + v % 8));
			break;
		case 13:
			if (v % 4 == 0) { /* the host stops and starts the plugin */
				lilv_instance_deactivate(h->inst);
				lilv_instance_activate(h->inst);
				++cycles;
			}
			break;
		default:
			break;
		}
		if (h->frames + n > len)
			n = (uint32_t)(len - h->frames);
		run_block(h, n);
	}
	daw_set(h, P_FREEZE, 1.0f);
	run_block(h, 64);
	const tally t = tally_notes(h);
	printf("\n    %s, room for %u events: %ld note-ons, %ld control changes, %ld "
	       "deactivations; orphans %ld, note-ons while sounding %ld, stuck %ld; %ld "
	       "allocations in run()",
	       model_names[m], room, t.ons, changes, cycles, t.orphans, t.retriggers, t.stuck,
	       allocs_in_run);
	/* (a small buffer drops notes: what counts there is the balance) */
	CHECK(t.ons > (room ? 5 : 50), "%s: only %ld notes", model_names[m], t.ons);
	CHECK(t.orphans == 0 && t.retriggers == 0 && t.stuck == 0,
	      "%s: %ld orphan note-offs, %ld note-ons while sounding, %ld stuck", model_names[m],
	      t.orphans, t.retriggers, t.stuck);
	CHECK(h->n_out_unordered == 0 && h->n_out_bad == 0, "%s: %zu events out of order",
	      model_names[m], h->n_out_unordered);
	CHECK(allocs_in_run == 0, "%s: run() allocated %ld times", model_names[m], allocs_in_run);
	daw_host_free(h);
}

static void test_balanced(void)
{
	/* the count sees what a shared library allocates (lilv's, the
	 * plugin's at instantiate()) */
	allocs_in_run = 0;
	in_run = 1;
	LilvInstance *inst = lilv_plugin_instantiate(daw_plugins[0], RATE, lv2th_features);
	in_run = 0;
	CHECK(inst && allocs_in_run > 0, "the allocation count does not reach the plugin");
	if (inst)
		lilv_instance_free(inst);
	for (int m = 0; m < PENDULA_N_MODELS; ++m) {
		balanced_model(m, 12345u + 777u * (uint32_t)m, 0);
		balanced_model(m, 999u + 31u * (uint32_t)m, 4); /* note-offs owed */
	}
}

/* ---------------------------------------------------------------------- */
/* grid                                                                    */

#define GRID_LEN ((int64_t)(20.0 * RATE))

typedef struct {
	int64_t frame;
	int note, vel;
} note_on;

static int cmp_on(const void *a, const void *b)
{
	const note_on *x = a, *y = b;
	if (x->frame != y->frame)
		return x->frame < y->frame ? -1 : 1;
	if (x->note != y->note)
		return x->note - y->note;
	return x->vel - y->vel;
}

/* The note-ons of a run of 20 s of the double pendulum in C minor
 * pentatonic, transport rolling from frame 0 at bpm (or no transport),
 * grid g, blocks of `block` frames (0: random). */
static size_t grid_run(double bpm, int g, uint32_t block, note_on *out, size_t cap)
{
	DawHost *h = notes_host(0);
	daw_set(h, P_NOTE_SCALE, 5.0f);
	daw_set(h, P_NOTE_LOW, 48.0f);
	daw_set(h, P_NOTE_HIGH, 72.0f);
	daw_set(h, P_NOTE_GRID, (float)g);
	if (bpm > 0.0)
		daw_in_position(h, 0, 0, 0, 4, 4, bpm, 1);
	uint32_t seed = 99;
	while (h->frames < GRID_LEN) {
		uint32_t n = block ? block : 1 + daw_rand(&seed) % 1500;
		if (h->frames + n > GRID_LEN)
			n = (uint32_t)(GRID_LEN - h->frames);
		run_block(h, n);
	}
	size_t k = 0;
	for (size_t i = 0; i < h->n_midi && k < cap; ++i) {
		const daw_midi *e = &h->midi[i];
		if (e->size == 3 && (e->bytes[0] & 0xf0) == 0x90)
			out[k++] = (note_on){e->frame, e->bytes[1], e->bytes[2]};
	}
	daw_host_free(h);
	return k;
}

/* Where the note of an event at frame e starts on grid g at bpm (4/4,
 * song position 0 at frame 0): the first frame on or after the next line
 * (the event's own frame if it is on one), a millionth of a frame being
 * "on" (the plugin's tolerance for the rounding of the song position). */
static int64_t on_grid(int64_t e, double bpm, int g)
{
	const long double per_frame = (long double)bpm / (60.0L * RATE); /* quarters */
	const long double step = 1.0L / (long double)(1 << (g - 1));
	const long double tol = 1e-6L * per_frame;
	const long double q = (long double)e * per_frame;
	const long double k = floorl((q + tol) / step);
	if (fabsl(q - k * step) <= tol)
		return e;
	const long double line = (k + 1.0L) * step - tol;
	int64_t f = (int64_t)ceill(line / per_frame) - 2;
	while ((long double)f * per_frame < line)
		++f;
	return f;
}

static void test_grid(void)
{
	enum { CAP = 20000 };
	note_on *free_ons = calloc(CAP, sizeof(note_on)), *want = calloc(CAP, sizeof(note_on)),
	        *got = calloc(CAP, sizeof(note_on)), *got2 = calloc(CAP, sizeof(note_on));
	bool *waited = calloc(CAP, sizeof(bool));
	static const float tempos[] = {120.0f, 97.3f, 175.0f};
	for (size_t t = 0; t < sizeof tempos / sizeof tempos[0]; ++t) {
		const double bpm = tempos[t]; /* as the host sends it: a float */
		const size_t n_free = grid_run(bpm, 0, 256, free_ons, CAP);
		for (int g = 1; g <= 4; ++g) {
			/* the expected notes: each event's at its line; events of one
			 * pitch waiting for the same line make one, the loudest */
			size_t n_want = 0;
			int64_t late = 0;
			for (size_t i = 0; i < n_free; ++i) {
				const int64_t f = on_grid(free_ons[i].frame, bpm, g);
				if (f >= GRID_LEN)
					continue; /* after the run's end */
				const bool waits = f > free_ons[i].frame;
				size_t j = n_want;
				for (size_t k = 0; waits && k < n_want && j == n_want; ++k)
					if (waited[k] && want[k].frame == f &&
					    want[k].note == free_ons[i].note)
						j = k;
				if (j < n_want) {
					if (free_ons[i].vel > want[j].vel)
						want[j].vel = free_ons[i].vel;
					continue;
				}
				waited[n_want] = waits;
				want[n_want++] = (note_on){f, free_ons[i].note, free_ons[i].vel};
				if (f - free_ons[i].frame > late)
					late = f - free_ons[i].frame;
			}
			qsort(want, n_want, sizeof(note_on), cmp_on);
			const size_t n_got = grid_run(bpm, g, 0, got, CAP);
			qsort(got, n_got, sizeof(note_on), cmp_on);
			size_t same = 0;
			while (same < n_got && same < n_want && !cmp_on(&got[same], &want[same]))
				++same;
			const double step_frames = 60.0 * RATE / bpm / (double)(1 << (g - 1));
			printf("\n    %.1f bpm, grid 1/%d: %zu events, %zu notes (%zu expected), "
			       "latest %lld frames of a step of %.1f",
			       bpm, 2 << g, n_free, n_got, n_want, (long long)late, step_frames);
			CHECK(n_free > 50, "only %zu events", n_free);
			CHECK(
			    same == n_got && same == n_want,
			    "%.1f bpm grid %d: note %zu of %zu differs (frame %lld note %d vel %d, "
			    "expected frame %lld note %d vel %d)",
			    bpm, g, same, n_got, same < n_got ? (long long)got[same].frame : -1LL,
			    same < n_got ? got[same].note : -1, same < n_got ? got[same].vel : -1,
			    same < n_want ? (long long)want[same].frame : -1LL,
			    same < n_want ? want[same].note : -1,
			    same < n_want ? want[same].vel : -1);
			CHECK((double)late <= step_frames + 1.0, "a note %lld frames late",
			      (long long)late);
			if (g == 3) { /* other blocks: the same MIDI */
				const size_t n2 = grid_run(bpm, g, 256, got2, CAP);
				qsort(got2, n2, sizeof(note_on), cmp_on);
				CHECK(n2 == n_got && !memcmp(got, got2, n2 * sizeof(note_on)),
				      "%.1f bpm: the notes differ with the blocks", bpm);
			}
		}
	}
	/* no transport: the grid is not followed, the notes play at once */
	const size_t n_free = grid_run(0.0, 0, 256, free_ons, CAP);
	const size_t n_got = grid_run(0.0, 2, 256, got, CAP);
	CHECK(n_free > 50 && n_free == n_got && !memcmp(free_ons, got, n_got * sizeof(note_on)),
	      "without transport the grid moved notes (%zu vs %zu)", n_free, n_got);
	free(free_ons);
	free(want);
	free(got);
	free(got2);
	free(waited);
}

static CU_TestInfo scale_tests[] = {
    {"in_scale", test_in_scale},
    {"balanced", test_balanced},
    {"grid", test_grid},
    CU_TEST_INFO_NULL,
};

static CU_SuiteInfo suites[] = {
    {"scale", NULL, NULL, NULL, NULL, scale_tests},
    CU_SUITE_INFO_NULL,
};

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_scale BUNDLE_DIR\n");
		return 2;
	}
	daw_map_urids();
	if (!daw_world_load(argv[1])) {
		daw_world_free();
		return 1;
	}
	const int status = test_cunit_main("test_scale", suites);
	daw_world_free();
	return status;
}
