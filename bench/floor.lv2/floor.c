/* SPDX-License-Identifier: ISC */
/*
 * The output floor (benchmark only, never installed): a plugin that does
 * the least a plugin with N signal outputs must do, writing a ramp to each
 * output it is given a buffer for.  bench_host.c connects N of its 32
 * outputs, each to a buffer of its own, and compares a Pendula plugin with
 * N outputs against it (docs/BENCHMARKS.md, "As a host wires it").
 */
#include <lv2/core/lv2.h>

#include <stdint.h>
#include <stdlib.h>

#define FLOOR_OUTPUTS 32
#define FLOOR_URI     "https://pendula.invalid/bench/floor"

typedef struct {
	float *out[FLOOR_OUTPUTS];
	uint32_t phase; /* frames into the ramp's period */
} floor_plugin;

static LV2_Handle instantiate(const LV2_Descriptor *d, double rate, const char *path,
                              const LV2_Feature *const *features)
{
	(void)d;
	(void)rate;
	(void)path;
	(void)features;
	return calloc(1, sizeof(floor_plugin));
}

static void connect_port(LV2_Handle h, uint32_t port, void *data)
{
	if (port < FLOOR_OUTPUTS)
		((floor_plugin *)h)->out[port] = (float *)data;
}

/* A ramp of period 4096 frames from -1 to 1, the same in every output. */
static void run(LV2_Handle h, uint32_t n)
{
	floor_plugin *f = (floor_plugin *)h;
	const float step = 2.0f / 4096.0f;
	const float start = (float)f->phase * step - 1.0f;
	for (int p = 0; p < FLOOR_OUTPUTS; ++p) {
		float *out = f->out[p];
		if (!out)
			continue;
		for (uint32_t i = 0; i < n; ++i)
			out[i] = start + (float)i * step;
	}
	f->phase = (f->phase + n) % 4096u;
}

static void cleanup(LV2_Handle h)
{
	free(h);
}

static const LV2_Descriptor descriptor = {FLOOR_URI, instantiate, connect_port, NULL,
                                          run,       NULL,        cleanup,      NULL};

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index)
{
	return index == 0 ? &descriptor : NULL;
}
