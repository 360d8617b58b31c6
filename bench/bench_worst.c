/* SPDX-License-Identifier: ISC */
/*
 * Worst-case cost of the engine per second of audio: adversarial settings
 * inside the declared ranges (stiff, forced at 1 kHz, light bodies spun up
 * by torques, every control at its minimum or maximum) at 44.1 to 384 kHz.
 * The engine's work cap is a budget of work units (solver iterations priced
 * per model) per second of audio, so the cost per second should not grow
 * with the sample rate.
 *
 * Prints, per rate and case, the mean ns per frame over the second second
 * of audio (after the motion has had one second to become as stiff as it
 * gets), the worst 64-frame block (the plugin's chunk) in ns per frame, and
 * the load in cores (ns per second of audio / 1e9); then the worst case per
 * rate:
 *   bench worst rate=R ns_per_frame=X worst_block_ns_per_frame=Y cores=Z
 * Never a test: nothing here asserts time.
 */
#define _POSIX_C_SOURCE 200809L
#include "ports.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BLOCK 64

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

typedef struct {
	const char *name;
	pendula_model model;
	const char *set; /* symbol=value ..., "min" / "max": every physical control */
} bench_case;

static const bench_case cases[] = {
    {"double forced 1 kHz, heavy arm 2", PENDULA_MODEL_DOUBLE,
     "gravity=100 m1=0.01 m2=100 lambda2=100 sigma1=100 sigma2=-100 pivot_y_amp=0.246516 "
     "pivot_y_freq=1000 theta2_init=-180"},
    {"double tiny, torques -100", PENDULA_MODEL_DOUBLE,
     "m1=0.01 m2=0.01 l1=0.01 l2=0.01 sigma1=-100 sigma2=-100"},
    {"double tiny, torques, time scale 100", PENDULA_MODEL_DOUBLE,
     "time_scale=100 m1=0.01 m2=0.01 l1=0.01 l2=0.01 sigma1=100 sigma2=100"},
    {"double forced 10 m at 1 kHz, time scale 100", PENDULA_MODEL_DOUBLE,
     "time_scale=100 pivot_y_amp=10 pivot_y_freq=1000 pivot_x_amp=10 pivot_x_freq=1000"},
    {"double every control at max", PENDULA_MODEL_DOUBLE, "max"},
    {"double every control at min", PENDULA_MODEL_DOUBLE, "min"},
    {"parallel free rotor, torque -100", PENDULA_MODEL_PARALLEL,
     "n_bodies=1 c1=0 inertia1=1e-6 sigma1=-100"},
    {"parallel 4 light bodies, torques, forced", PENDULA_MODEL_PARALLEL,
     "n_bodies=4 time_scale=100 m1=0.01 m2=0.01 m3=0.01 m4=0.01 inertia1=1e-6 inertia2=1e-6 "
     "inertia3=1e-6 inertia4=1e-6 sigma1=100 sigma2=-100 sigma3=100 sigma4=-100 "
     "pivot_x_amp=10 pivot_x_freq=1000"},
    {"parallel every control at max", PENDULA_MODEL_PARALLEL, "max"},
    {"parallel every control at min", PENDULA_MODEL_PARALLEL, "min"},
};
#define N_CASES (sizeof cases / sizeof cases[0])

static void params_of(const bench_case *c, pendula_params *p)
{
	const pendula_variant v = 2 * (int)c->model;
	pendula_params_default(p, c->model);
	char buf[512];
	snprintf(buf, sizeof buf, "%s", c->set);
	for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
		const int all = !strcmp(tok, "min") ? 1 : !strcmp(tok, "max") ? 2 : 0;
		char sym[64];
		double value = 0.0;
		if (!all && sscanf(tok, "%63[^=]=%lf", sym, &value) != 2)
			continue;
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
			const pendula_port_info *info = &pendula_ports[id];
			if (pendula_port_index(v, (pendula_port_id)id) < 0 ||
			    info->kind != PK_CONTROL_IN || info->param == PP_NONE)
				continue;
			if (all && !(info->flags & PF_INITIAL))
				pendula_param_set(p, (pendula_port_id)id,
				                  all == 1 ? info->min : info->max);
			else if (!all && !strcmp(info->symbol, sym))
				pendula_param_set(p, (pendula_port_id)id, value);
		}
	}
}

static volatile float sink;

int main(int argc, char **argv)
{
	const int quick = argc > 1 && !strcmp(argv[1], "--quick");
	const double rates[] = {44100, 48000, 96000, 192000, 384000};
	static float buf[PENDULA_N_CHANNELS][BLOCK];
	pendula_outputs o;
	for (int c = 0; c < PENDULA_N_CHANNELS; ++c)
		o.ch[c] = buf[c];
	printf("# Pendula engine, worst case per second of audio: %zu adversarial settings in the\n"
	       "# declared ranges, every channel written, blocks of %d frames; timed over the\n"
	       "# second %s of audio.  Work cap: work units per second of audio.\n",
	       N_CASES, BLOCK, quick ? "tenth of a second" : "second");
	for (size_t r = 0; r < sizeof rates / sizeof rates[0]; ++r) {
		const double rate = rates[r];
		const long warm = (long)(quick ? 0.1 * rate : rate), timed = warm;
		double worst_mean = 0.0, worst_block = 0.0;
		const char *worst_name = "";
		for (size_t c = 0; c < N_CASES; ++c) {
			pendula_params p;
			params_of(&cases[c], &p);
			pendula_engine *e = pendula_engine_new(rate, &p);
			for (long done = 0; done < warm; done += BLOCK)
				pendula_engine_run(e, BLOCK, &o);
			double total = 0.0, block = 0.0;
			for (long done = 0; done < timed; done += BLOCK) {
				const double t0 = now();
				pendula_engine_run(e, BLOCK, &o);
				const double dt = now() - t0;
				total += dt;
				block = fmax(block, dt);
			}
			sink = buf[0][BLOCK - 1];
			pendula_stats st;
			pendula_engine_stats(e, &st);
			pendula_engine_free(e);
			const double mean = total * 1e9 / (double)timed;
			const double block_ns = block * 1e9 / BLOCK;
			printf(
			    "rate=%.0f case=\"%s\" ns_per_frame=%.1f worst_block_ns_per_frame=%.1f "
			    "cores=%.3f steps_per_s=%.0f restarts=%llu\n",
			    rate, cases[c].name, mean, block_ns, mean * rate * 1e-9,
			    (double)st.steps / ((double)st.frames / rate),
			    (unsigned long long)st.restarts);
			if (mean > worst_mean) {
				worst_mean = mean;
				worst_name = cases[c].name;
			}
			worst_block = fmax(worst_block, block_ns);
		}
		printf("bench worst rate=%.0f ns_per_frame=%.1f worst_block_ns_per_frame=%.1f "
		       "cores=%.3f (%s)\n",
		       rate, worst_mean, worst_block, worst_mean * rate * 1e-9, worst_name);
		fflush(stdout);
	}
	return 0;
}
