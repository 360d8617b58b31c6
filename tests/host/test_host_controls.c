/* SPDX-License-Identifier: ISC */
/*
 * The host's blocks and controls: bit-identical outputs for fixed and
 * random block sizes (0-frame blocks too), direct buffers, late
 * connection; NaN, +-inf, +-1e30 on every control; freeze; whole-number
 * controls; bodies changed while running; reset.
 * Run by test_host.c for each plugin and rate (host_fixture.h).
 */
#include "host_fixture.h"

/* ---------------------------------------------------------------------- */
/* block sizes                                                             */

/* A scenario with control changes (smoothed and not) and a reset at fixed
 * frames; blocks never straddle those frames. */
static void render_scenario(Host *h, Rec *r, Blocking *b)
{
	const uint32_t f1 = 12345, f2 = 30011, f3 = 30500, total = opt.quick ? 32000 : 40000;
	host_render(h, r, f1, b);
	host_set(h, P_GRAVITY, 20.0f);
	host_set(h, P_M2, 2.0f);
	host_set(h, P_LAMBDA1, 0.1f);
	host_set(h, P_SIGMA2, 0.3f);
	host_set(h, P_PIVOT_X_AMP, 0.05f);
	host_set(h, P_PIVOT_X_FREQ, 3.0f);
	if (count_port() != P_NONE)
		host_set(h, (pendula_port_id)count_port(), 4.0f);
	host_set(h, P_SURFACE, 1.0f); /* the bead moves to the floor */
	host_set(h, P_PIVOT_Z_AMP, 0.05f);
	host_set(h, P_PIVOT_Z_FREQ, 2.0f);
	host_set(h, P_THETA1_INIT, 10.0f);
	host_render(h, r, f2 - f1, b);
	host_set(h, P_RESET, 1.0f);
	host_set(h, P_TIME_SCALE, 1.5f);
	host_render(h, r, f3 - f2, b);
	host_set(h, P_RESET, 0.0f);
	host_render(h, r, total - f3, b);
}

void test_block_sizes(void)
{
	Host *h = host_new(cur_variant, cur_rate);
	Rec ref = {0};
	Blocking whole = {MAX_BLOCK, 1, false, false};
	render_scenario(h, &ref, &whole);
	host_free(h);

	const struct {
		const char *label;
		Blocking b;
		bool late;
	} runs[] = {
	    {"1 frame", {1, 1, false, false}, false},
	    {"32 frames", {32, 1, false, false}, false},
	    {"33 frames", {33, 1, false, false}, false},
	    {"1000 frames", {1000, 1, false, false}, false},
	    {"random", {0, 12345, false, false}, false},
	    {"random with 0-frame blocks", {0, 777, true, false}, false},
	    {"random, 0-frame blocks, buffers moved per block", {0, 4242, true, true}, false},
	    {"random, connected after activate()", {0, 99, true, false}, true},
	};
	const size_t n_runs = opt.quick ? 3 : sizeof runs / sizeof runs[0];
	for (size_t i = 0; i < n_runs; ++i) {
		const size_t k = opt.quick ? (i == 0 ? 2 : i == 1 ? 5 : 6) : i;
		Host *hb = host_new_ex(cur_variant, cur_rate, false, runs[k].late);
		Rec r = {0};
		Blocking b = runs[k].b;
		render_scenario(hb, &r, &b);
		CHECK(r.n == ref.n, "%s: %zu frames", runs[k].label, r.n);
		CHECK(same_signals(&ref, &r, 0, 0, r.n < ref.n ? r.n : ref.n, runs[k].label),
		      "%s: outputs differ from one-block processing", runs[k].label);
		const char *bad = NULL;
		CHECK(all_finite(&r, &bad), "%s: %s not finite", runs[k].label, bad);
		rec_free(&r);
		host_free(hb);
	}
	/* The scenario did something: the control changes altered the motion. */
	Host *hq = host_new(cur_variant, cur_rate);
	Rec quiet = {0};
	host_render(hq, &quiet, (uint32_t)ref.n, NULL);
	const pendula_port_id motion = motion_output();
	size_t d = first_difference(ref.sig[motion], quiet.sig[motion], ref.n);
	/* not before the change, and within 10 ms (a chunk plus an engine step) */
	const size_t soon = 12345 + 32 + (size_t)(0.010 * cur_rate);
	CHECK(d >= 12345 && d < soon, "control changes at frame 12345: first difference at %zu", d);
	rec_free(&quiet);
	host_free(hq);
	rec_free(&ref);
}

/* ---------------------------------------------------------------------- */
/* bad input                                                               */

static void render_bad(Host *h, Rec *r, pendula_port_id id, float value)
{
	const uint32_t a = opt.quick ? 128 : 512, b = opt.quick ? 256 : 2048;
	Blocking blocks = {opt.quick ? 64 : 256, 1, false, false};
	host_set(h, id, value);
	host_render(h, r, a, &blocks);
	host_set(h, id, pendula_port_default(h->v, id));
	host_render(h, r, a, &blocks);
	host_set(h, id, value);
	host_render(h, r, b - 2 * a, &blocks);
}

void test_bad_input(void)
{
	const float bad[] = {NAN, INFINITY, -INFINITY, 1e30f, -1e30f};
	const size_t n_bad = sizeof bad / sizeof bad[0];
	size_t n_ports_checked = 0;

	/* One instance, re-activated for every run. */
	Host *h = host_new(cur_variant, cur_rate);
	Rec ref_default = {0};
	render_bad(h, &ref_default, P_TIME_SCALE, pendula_port_default(cur_variant, P_TIME_SCALE));

	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (pendula_port_index(cur_variant, (pendula_port_id)id) < 0 ||
		    pendula_ports[id].kind != PK_CONTROL_IN)
			continue;
		const pendula_port_info *info = &pendula_ports[id];
		Rec ref_min = {0}, ref_max = {0};
		host_restart(h);
		render_bad(h, &ref_min, (pendula_port_id)id, info->min);
		host_restart(h);
		render_bad(h, &ref_max, (pendula_port_id)id, info->max);
		const char *sym = NULL;
		CHECK(all_finite(&ref_min, &sym), "%s = min: %s not finite", info->symbol, sym);
		CHECK(all_finite(&ref_max, &sym), "%s = max: %s not finite", info->symbol, sym);

		for (size_t j = 0; j < n_bad; ++j) {
			Rec r = {0};
			host_restart(h);
			render_bad(h, &r, (pendula_port_id)id, bad[j]);
			const Rec *want = isnan(bad[j]) ? &ref_default
			                  : bad[j] > 0  ? &ref_max
			                                : &ref_min;
			char what[128];
			snprintf(what, sizeof what, "%s = %g", info->symbol, (double)bad[j]);
			CHECK(all_finite(&r, &sym), "%s: %s not finite", what, sym);
			CHECK(same_signals(want, &r, 0, 0, r.n, what),
			      "%s: outputs differ from those of the %s", what,
			      isnan(bad[j]) ? "default" : "clamped value");
			rec_free(&r);
		}
		rec_free(&ref_min);
		rec_free(&ref_max);
		++n_ports_checked;
	}
	CHECK(n_ports_checked > 20, "only %zu control ports", n_ports_checked);
	rec_free(&ref_default);
	host_free(h);
}

/* ---------------------------------------------------------------------- */
/* reset                                                                   */

/* freeze: the outputs hold the last frame's values while it is on, and on
 * release the motion resumes where it stopped: the render frozen for N
 * frames equals the unfrozen one N frames later, bit for bit, whatever the
 * blocks. */
void test_freeze(void)
{
	const uint32_t before = seconds(opt.quick ? 0.1 : 0.3) + 13, frozen = 5003;
	const uint32_t after = seconds(opt.quick ? 0.1 : 0.5);
	Host *h = host_new(cur_variant, cur_rate);
	Rec ref = {0}, rec = {0};
	Blocking b37 = {37, 1, false, false};
	host_render(h, &ref, before + after, &b37);
	host_restart(h);
	Blocking random = {0, 4242, true, false};
	host_render(h, &rec, before, &random);
	host_set(h, P_FREEZE, 1.0f);
	h->control[P_CTL_TIME_RATIO] = NAN; /* (what a host may leave there) */
	host_render(h, &rec, frozen, &random);
	const float ratio_frozen = h->control[P_CTL_TIME_RATIO];
	host_set(h, P_FREEZE, 0.0f);
	host_render(h, &rec, after, &random);
	CHECK(same_signals(&ref, &rec, 0, 0, before, "before the freeze"),
	      "the frames before the freeze differ");
	bool held = true;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (!rec.sig[id])
			continue;
		for (uint32_t i = 0; i < frozen; ++i)
			held &= !memcmp(&rec.sig[id][before + i], &rec.sig[id][before - 1],
			                sizeof(float));
	}
	CHECK(held, "an output moved while frozen");
	CHECK(!has_port(P_CTL_TIME_RATIO) || ratio_frozen == 1.0f,
	      "time_ratio %g while frozen (1: time stands by request)", (double)ratio_frozen);
	CHECK(same_signals(&ref, &rec, before, before + frozen, after, "after the freeze"),
	      "the motion did not resume where it stopped");
	rec_free(&ref);
	rec_free(&rec);
	host_free(h);
}

/* A whole-number control just below a half (the largest float below
 * k + 0.5) is k, as rounding says: in float, 0.49999997 + 0.5 is 1, so a
 * floorf(v + 0.5f) took the bead to its floor and a chain to a link more. */
void test_whole_numbers(void)
{
	pendula_port_id id = P_SURFACE;
	float k = 0.0f;
	if (has_port(P_N_LINKS))
		id = P_N_LINKS, k = 2.0f;
	else if (has_port(P_N_BODIES))
		id = P_N_BODIES, k = 2.0f;
	if (!has_port(id)) {
		printf("\n    no whole-number setting of the motion here");
		return;
	}
	const uint32_t len = seconds(0.2);
	Rec a = {0}, b = {0};
	Host *h = host_new(cur_variant, cur_rate);
	host_set(h, id, k);
	host_render(h, &a, len, NULL);
	host_restart(h);
	const float below = nextafterf(k + 0.5f, 0.0f);
	host_set(h, id, below);
	host_render(h, &b, len, NULL);
	printf("\n    %s = %.9g runs as %s = %g", pendula_ports[id].symbol, (double)below,
	       pendula_ports[id].symbol, (double)k);
	CHECK(same_signals(&a, &b, 0, 0, len, "just below a half"), "%s = %.9g does not run as %g",
	      pendula_ports[id].symbol, (double)below, (double)k);
	rec_free(&a);
	rec_free(&b);
	host_free(h);
}

/* Bodies that come or go while running: at every frame each body's
 * outputs tell one story.  Either the body is there (its direction a unit
 * vector; x = sin theta, y = -cos theta where it has an angle) or it is
 * not (angle, direction and rate all 0, docs/MODELS.md).  The glue used to
 * silence the angle of a body taken away at once, while its direction and
 * rate went on until the change took effect at the end of the engine's
 * step (up to 10 ms): 0 for the angle beside a direction of length 1. */
void test_bodies_change(void)
{
	const int count = count_port();
	if (count == P_NONE || output_of_channel(PENDULA_CH_X) == P_NONE) {
		printf("\n    no number of bodies to change here");
		return;
	}
	float lo, hi;
	pendula_port_range(cur_variant, (pendula_port_id)count, &lo, &hi);
	const int most = (int)lrintf(hi);
	Host *h = host_new(cur_variant, cur_rate);
	Rec r = {0};
	Blocking small = {64, 1, false, false};
	host_set(h, (pendula_port_id)count, (float)most);
	host_render(h, &r, seconds(0.1), &small);
	host_set(h, (pendula_port_id)count, 1.0f); /* bodies go */
	host_render(h, &r, seconds(0.1), &small);
	host_set(h, (pendula_port_id)count, (float)most); /* and come back */
	host_render(h, &r, seconds(0.1), &small);
	long live = 0, silent = 0, torn = 0;
	size_t first_torn = 0;
	int torn_body = 0;
	for (int k = 0; k < most; ++k) {
		const int th = angle_output(k), wo = output_of_channel(PENDULA_CH_W + k);
		const int dir[3] = {output_of_channel(PENDULA_CH_X + k),
		                    output_of_channel(PENDULA_CH_Y + k),
		                    output_of_channel(PENDULA_CH_Z + k)};
		CHECK(dir[0] != P_NONE && dir[1] != P_NONE && wo != P_NONE,
		      "body %d has no direction or rate output", k + 1);
		if (dir[0] == P_NONE || dir[1] == P_NONE || wo == P_NONE)
			continue;
		for (size_t i = 0; i < r.n; ++i) {
			double u[3] = {0.0, 0.0, 0.0}, len2 = 0.0;
			bool zero = r.sig[wo][i] == 0.0f && (th == P_NONE || r.sig[th][i] == 0.0f);
			for (int c = 0; c < 3; ++c)
				if (dir[c] != P_NONE) {
					u[c] = r.sig[dir[c]][i];
					len2 += u[c] * u[c];
					zero = zero && u[c] == 0.0;
				}
			bool there = fabs(len2 - 1.0) < 1e-3;
			if (th != P_NONE) {
				const double a = PI * r.sig[th][i];
				there = there && fabs(u[0] - sin(a)) < 1e-3 &&
				        fabs(u[1] + cos(a)) < 1e-3;
			}
			if (zero)
				++silent;
			else if (there)
				++live;
			else if (torn++ == 0)
				first_torn = i, torn_body = k + 1;
		}
	}
	printf("\n    %s %d -> 1 -> %d: %ld body-frames there, %ld absent, %ld torn",
	       pendula_ports[count].symbol, most, most, live, silent, torn);
	CHECK(torn == 0, "%ld body-frames whose outputs disagree (first: body %d at frame %zu)",
	      torn, torn_body, first_torn);
	CHECK(silent > 0 && live > 0, "bodies were not both there and absent");
	rec_free(&r);
	host_free(h);
}

void test_reset(void)
{
	const uint32_t len = seconds(opt.quick ? 0.2 : 1.0);
	Host *h = host_new(cur_variant, cur_rate);
	Rec first = {0}, after = {0};
	host_render(h, &first, len, NULL);
	host_render(h, NULL, seconds(0.3) + 7, NULL);

	/* rising edge, then held high across many random blocks: one restart */
	host_set(h, P_RESET, 1.0f);
	Blocking random = {0, 31337, true, false};
	host_render(h, &after, len, &random);
	CHECK(same_signals(&first, &after, 0, 0, len, "reset"),
	      "the second after a reset differs from the second after activate()");

	/* falling, then rising again (with a mid-chunk offset): a second restart */
	host_set(h, P_RESET, 0.0f);
	host_render(h, NULL, 1001, NULL);
	host_set(h, P_RESET, 0.75f);
	Rec again = {0};
	host_render(h, &again, len / 2, NULL);
	CHECK(same_signals(&first, &again, 0, 0, len / 2, "second reset"),
	      "a second rising edge does not restart");
	host_free(h);

	/* Reset while a smoother is still moving: the restart uses the new
	 * settings at once, as a fresh instance would. */
	h = host_new(cur_variant, cur_rate);
	host_render(h, NULL, 5000, NULL);
	host_set(h, P_GRAVITY, 30.0f);
	host_set(h, P_SIGMA1, 0.5f);
	host_render(h, NULL, 100, NULL);
	host_set(h, P_RESET, 1.0f);
	Rec ramp = {0}, fresh = {0};
	host_render(h, &ramp, len / 2, NULL);
	host_free(h);
	h = host_new(cur_variant, cur_rate);
	host_set(h, P_GRAVITY, 30.0f);
	host_set(h, P_SIGMA1, 0.5f);
	host_render(h, &fresh, len / 2, NULL);
	CHECK(same_signals(&fresh, &ramp, 0, 0, len / 2, "reset during smoothing"),
	      "a reset during a parameter ramp differs from a fresh start");
	host_free(h);

	/* deactivate() + activate(): t = 0 again, the same run */
	h = host_new(cur_variant, cur_rate);
	host_set(h, P_GRAVITY, 50.0f);
	host_render(h, NULL, 3000, NULL);
	host_set(h, P_GRAVITY, pendula_port_default(cur_variant, P_GRAVITY));
	lilv_instance_deactivate(h->inst);
	lilv_instance_activate(h->inst);
	Rec reactivated = {0};
	host_render(h, &reactivated, len, &random);
	CHECK(same_signals(&first, &reactivated, 0, 0, len, "re-activated"),
	      "the run after a second activate() differs from the first");
	rec_free(&reactivated);
	host_free(h);

	/* Held high from the first block: that block restarts (previous = 0),
	 * which is the activate() state anyway. */
	h = host_new(cur_variant, cur_rate);
	host_set(h, P_RESET, 1.0f);
	Rec held = {0};
	host_render(h, &held, len, &random);
	CHECK(same_signals(&first, &held, 0, 0, len, "reset held from the start"),
	      "reset high from the first block changes the run");
	host_free(h);

	rec_free(&first);
	rec_free(&after);
	rec_free(&again);
	rec_free(&ramp);
	rec_free(&fresh);
	rec_free(&held);
}
