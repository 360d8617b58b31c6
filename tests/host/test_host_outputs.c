/* SPDX-License-Identifier: ISC */
/*
 * The outputs as a host wires them: signal outputs unconnected (NULL);
 * control outputs = the last frame of each signal, pivot in m, bodies
 * beyond N at 0; simulated time against time_scale.
 * Run by test_host.c for each plugin and rate (host_fixture.h).
 */
#include "host_fixture.h"

/* ---------------------------------------------------------------------- */
/* NULL outputs, control outputs                                           */

/* The control outputs with the signal outputs wired as `how`: 0 each its
 * own buffer, 1 unconnected (their values then come from the engine's
 * last-frame values, pendula_engine_run_events_last), 2 one buffer shared
 * by all (only the last in table order is written there).  The chaos knob
 * keeps the arms flipping, so the pulse outputs' mirrors see pulses. */
static void render_wired(int how, Rec *r, uint32_t len)
{
	/* blocks shorter than a pulse (1 ms): every pulse holds a block end */
	Blocking b = {37, 0, false, false};
	Host *h = host_new_ex(cur_variant, cur_rate, how == 1, how == 2);
	if (how == 2) {
		h->shared_signals = true;
		host_connect(h);
	}
	host_set(h, P_PIVOT_Y_AMP, 0.1f);
	host_set(h, P_PIVOT_Y_FREQ, 5.0f);
	host_set(h, P_ENERGY_TARGET, 1.5f);
	host_render(h, r, len, &b);
	host_free(h);
}

void test_null_outputs(void)
{
	const uint32_t len = seconds(opt.quick ? 0.5 : 3.0);
	Rec con = {0}, nul = {0}, shr = {0};
	render_wired(0, &con, len);
	render_wired(1, &nul, len);
	render_wired(2, &shr, len);

	CHECK(con.n_blocks == nul.n_blocks && con.n_blocks == shr.n_blocks, "block counts differ");
	const char *sym = NULL;
	CHECK(all_finite(&nul, &sym), "unconnected outputs: %s not finite", sym);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (!con.ctl[id])
			continue;
		size_t d = first_difference(con.ctl[id], nul.ctl[id], con.n_blocks);
		CHECK(d == con.n_blocks, "%s differs with unconnected signal outputs (block %zu)",
		      pendula_ports[id].symbol, d);
		/* (drive_level reports the drive input, which the shared buffer
		 * feeds with the outputs: it rightly differs there) */
		if (id == P_CTL_DRIVE_LEVEL)
			continue;
		d = first_difference(con.ctl[id], shr.ctl[id], con.n_blocks);
		CHECK(d == con.n_blocks, "%s differs with one shared signal buffer (block %zu)",
		      pendula_ports[id].symbol, d);
	}
	size_t lit = 0; /* blocks whose last frame lies in a pulse */
	for (size_t blk = 0; blk < con.n_blocks; ++blk)
		lit += con.ctl[P_CTL_FLIPS][blk] != 0.0f || con.ctl[P_CTL_SWINGS][blk] != 0.0f;
	printf("\n    %zu blocks, %zu end inside a pulse; control outputs equal for own, no and "
	       "one shared buffer",
	       con.n_blocks, lit);
	/* (the quick run, under valgrind, is too short to be sure of one) */
	CHECK(opt.quick || lit > 0, "no block ends inside a pulse: the pulse mirrors go untested");
	Host *h;

	/* control inputs unconnected: each reads its default, so the outputs
	 * are those of every control connected at its default */
	Rec at_default = {0}, no_controls = {0};
	h = host_new(cur_variant, cur_rate);
	host_render(h, &at_default, 4096, NULL);
	host_free(h);
	h = host_new(cur_variant, cur_rate);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (h->has[id] && pendula_ports[id].kind == PK_CONTROL_IN)
			lilv_instance_connect_port(
			    h->inst, (uint32_t)pendula_port_index(cur_variant, (pendula_port_id)id),
			    NULL);
	host_render(h, &no_controls, 4096, NULL);
	host_free(h);
	CHECK(same_signals(&at_default, &no_controls, 0, 0, at_default.n,
	                   "control inputs unconnected"),
	      "outputs with the control inputs unconnected differ from the defaults");

	/* atom ports unconnected too (connectionOptional) */
	h = host_new_ex(cur_variant, cur_rate, true, true);
	h->null_atoms = true;
	host_connect(h);
	Rec none = {0};
	host_render(h, &none, 4096, NULL);
	CHECK(all_finite(&none, &sym), "no ports connected: %s not finite", sym);
	host_free(h);

	rec_free(&con);
	rec_free(&nul);
	rec_free(&shr);
	rec_free(&at_default);
	rec_free(&no_controls);
	rec_free(&none);
}

void test_control_outputs(void)
{
	const uint32_t len = seconds(opt.quick ? 0.25 : 0.5);
	const double ax = 0.1, fx = 2.0, ts = 1.25;
	Host *h = host_new(cur_variant, cur_rate);
	host_set(h, P_PIVOT_X_AMP, (float)ax);
	host_set(h, P_PIVOT_X_FREQ, (float)fx);
	host_set(h, P_TIME_SCALE, (float)ts);
	const int count = count_port();
	if (count != P_NONE)
		host_set(h, (pendula_port_id)count, 2.0f);
	Rec r = {0};
	Blocking b = {0, 5150, true, false};
	host_render(h, &r, len, &b);

	/* every signal output and its control mirror (the port table's
	 * related column) */
	pendula_port_id sig[PENDULA_N_PORT_IDS], ctl[PENDULA_N_PORT_IDS];
	size_t n_sig = 0;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		if (h->has[id] && pendula_ports[id].kind == PK_SIGNAL_OUT &&
		    pendula_ports[id].related != P_NONE && h->has[pendula_ports[id].related]) {
			sig[n_sig] = (pendula_port_id)id;
			ctl[n_sig++] = (pendula_port_id)pendula_ports[id].related;
		}
	CHECK(n_sig >= 3, "only %zu signal outputs with a control mirror", n_sig);
	size_t mismatches = 0, pivot_bad = 0, checked = 0;
	double worst_pivot = 0.0;
	for (size_t blk = 0; blk < r.n_blocks; ++blk) {
		const size_t end = r.block_end[blk];
		if (end == 0 || (blk > 0 && r.block_end[blk - 1] == end))
			continue; /* no frame in this block */
		++checked;
		for (size_t s = 0; s < n_sig; ++s) {
			if (!r.sig[sig[s]])
				continue;
			if (memcmp(&r.sig[sig[s]][end - 1], &r.ctl[ctl[s]][blk], sizeof(float))) {
				if (mismatches++ < 5)
					printf("\n    block %zu: %s = %.9g, last %s = %.9g", blk,
					       pendula_ports[ctl[s]].symbol,
					       (double)r.ctl[ctl[s]][blk],
					       pendula_ports[sig[s]].symbol,
					       (double)r.sig[sig[s]][end - 1]);
			}
		}
		/* pivot x = ax sin(2 pi fx t), t = (end - 1) ts / rate */
		const double t = (double)(end - 1) * ts / cur_rate;
		const double want = ax * sin(2.0 * PI * fx * t);
		const double err = fabs(r.ctl[P_CTL_PIVOT_X][blk] - want);
		worst_pivot = fmax(worst_pivot, err);
		if (err > 1e-5)
			++pivot_bad;
		if (fabs(r.ctl[P_CTL_PIVOT_Y][blk]) > 1e-7)
			++pivot_bad;
		if (r.ctl[P_CTL_PIVOT_Z] && fabs(r.ctl[P_CTL_PIVOT_Z][blk]) > 1e-7)
			++pivot_bad;
	}
	printf("\n    %zu blocks checked, pivot_x_ctl max error %.2e m", checked, worst_pivot);
	CHECK(checked > 10, "only %zu blocks", checked);
	CHECK(mismatches == 0, "%zu control outputs differ from the last frame", mismatches);
	CHECK(pivot_bad == 0, "pivot_x_ctl/pivot_y_ctl wrong in %zu blocks (max error %.2e)",
	      pivot_bad, worst_pivot);
	/* The engine keeps up with these settings: time_ratio is exactly 1. */
	size_t slowed = 0;
	for (size_t blk = 0; blk < r.n_blocks; ++blk)
		slowed += r.ctl[P_CTL_TIME_RATIO][blk] != 1.0f;
	CHECK(slowed == 0, "time_ratio below 1 in %zu blocks of an easy setting", slowed);

	if (count != P_NONE && angle_output(0) != P_NONE) {
		/* N = 2: the angles of bodies 3.. are 0 (models with angle
		 * outputs; the 3-D ones check theirs in test_spatial) */
		float lo, hi;
		pendula_port_range(cur_variant, (pendula_port_id)count, &lo, &hi);
		const int n_max = (int)lrintf(hi);
		bool zero = true;
		for (int k = 2; k < n_max; ++k)
			for (size_t i = 0; i < r.n; ++i)
				zero = zero && r.sig[angle_output(k)][i] == 0.0f;
		CHECK(zero, "angles beyond 2 not 0 with %s = 2", pendula_ports[count].symbol);
		bool moving = false;
		for (size_t i = 0; i < r.n; ++i)
			moving = moving || r.sig[P_OUT_THETA2][i] != r.sig[P_OUT_THETA2][0];
		CHECK(moving, "theta2 does not move with %s = 2", pendula_ports[count].symbol);
		/* N grows to its maximum while running: the last body comes in,
		 * then goes away */
		const int last = angle_output(n_max - 1);
		host_set(h, (pendula_port_id)count, (float)n_max);
		Rec more = {0};
		host_render(h, &more, 2048, NULL);
		bool nonzero = false;
		for (size_t i = 64; i < more.n; ++i)
			nonzero = nonzero || more.sig[last][i] != 0.0f;
		CHECK(nonzero, "%s stays 0 after %s = %d", pendula_ports[last].symbol,
		      pendula_ports[count].symbol, n_max);
		host_set(h, (pendula_port_id)count, 1.0f);
		Rec fewer = {0};
		host_render(h, &fewer, 2048, NULL);
		zero = true;
		for (int k = 1; k < n_max; ++k)
			for (size_t i = 0; i < fewer.n; ++i)
				zero = zero && fewer.sig[angle_output(k)][i] == 0.0f;
		CHECK(zero, "angles 2.. not 0 right after %s = 1", pendula_ports[count].symbol);
		rec_free(&more);
		rec_free(&fewer);
	}
	rec_free(&r);
	host_free(h);
}

/* time_ratio against a clock read from the motion: a slow y forcing, whose
 * pivot position pivot_y_ctl = Ay cos(2 pi fy t) gives the simulated time t
 * at the end of each block, while a fast x forcing (200 Hz at time_scale
 * 100: 20 kHz of simulated forcing per second of audio, with a pivot moving
 * 0.1 mm) asks for more steps than the work cap allows.  The simulated time
 * the outputs show must be the sum over the blocks of time_ratio x
 * time_scale x block length, and below time_scale x audio time (the cap
 * really slowed the motion: the test means something). */
void test_time_ratio(void)
{
	const double ts = 100.0, ay = 1e-3, fy = 0.04;
	Host *h = host_new(cur_variant, cur_rate);
	host_set(h, P_TIME_SCALE, (float)ts);
	host_set(h, P_PIVOT_X_AMP, 1e-4f);
	host_set(h, P_PIVOT_X_FREQ, 200.0f);
	host_set(h, P_PIVOT_Y_AMP, (float)ay);
	host_set(h, P_PIVOT_Y_FREQ, (float)fy);
	Rec r = {0};
	Blocking b = {0, 4711, true, false};
	/* at most a quarter turn of the clock: 6.25 simulated s */
	host_render(h, &r, (uint32_t)(6.25 / ts * cur_rate), &b);
	double t_ratio = 0.0, worst = 0.0, slowest = 1.0;
	size_t prev = 0, out_of_range = 0;
	for (size_t blk = 0; blk < r.n_blocks; ++blk) {
		const size_t end = r.block_end[blk];
		const float ratio = r.ctl[P_CTL_TIME_RATIO][blk];
		out_of_range += !(ratio >= 0.0f && ratio <= 1.0f);
		t_ratio += (double)ratio * ts * (double)(end - prev) / cur_rate;
		prev = end;
		if (end == 0)
			continue;
		slowest = fmin(slowest, ratio);
		/* (the control outputs show the block's last frame: at most
		 * one frame's time_scale / rate before the block's end) */
		const double c = r.ctl[P_CTL_PIVOT_Y][blk] / ay;
		const double t_clock = acos(fmax(-1.0, fmin(1.0, c))) / (2.0 * PI * fy);
		if (t_ratio > 0.5) /* acos is well conditioned away from t = 0 */
			worst = fmax(worst, fabs(t_clock - t_ratio));
	}
	const double asked = ts * (double)r.n / cur_rate;
	printf("\n    simulated %.3f s of %.3f s asked, slowest block %.3f, worst error %.2e s",
	       t_ratio, asked, slowest, worst);
	CHECK(out_of_range == 0, "time_ratio outside [0, 1] in %zu blocks", out_of_range);
	CHECK(t_ratio < 0.9 * asked, "the work cap did not slow this setting (%.3f of %.3f s)",
	      t_ratio, asked);
	CHECK(worst < 1.2 * ts / cur_rate,
	      "time_ratio disagrees with the simulated clock by %.2e s", worst);
	rec_free(&r);
	host_free(h);
}
