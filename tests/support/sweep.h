/* SPDX-License-Identifier: ISC */
/*
 * Random settings inside the declared ranges, for the tests and benchmarks
 * that sweep "every model x N settings": every combination of values
 * inside the declared ranges must run stably.  A setting starts at its
 * model's defaults; then every setting control of the model (a control
 * input of contract/ports.h that fills a pendula_params field), in the port
 * table's order, is drawn over its declared range, log-uniform on
 * logarithmic ports and uniform otherwise, whole-number ports rounded, and
 * set through pendula_param_set as a host's value would be.
 *
 * The numbers come from the caller (sweep_source): a test_rng of its own,
 * or libc rand() where a test has always drawn its settings that way, so
 * that each sweep draws the very settings it drew before this helper.  A
 * rule (sweep_rule) may leave a control at its default without drawing it,
 * or draw it and set it to 0 (say, damping off in half the cases).
 *
 *   sweep_spec spec = {.models = 1u << PENDULA_MODEL_SPHERICAL |
 *                                1u << PENDULA_MODEL_BEAD,
 *                      .settings = 200, .source = {sweep_rand_uniform, NULL}};
 *   for (sweep_iter s = sweep_start(&spec); sweep_next(&s);)
 *           run s.p, the setting s.index of model s.model
 *
 * Header-only (static inline), like test_rng.h, so that bench/ can use it.
 */
#ifndef PENDULA_SWEEP_H
#define PENDULA_SWEEP_H

#include "pendula_engine.h"
#include "ports.h"
#include "test_rng.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

/* Where the draws come from: uniform(ctx) is a number in [0, 1]. */
typedef struct {
	double (*uniform)(void *ctx);
	void *ctx;
} sweep_source;

/* The source of a test_rng (ctx: the test_rng), in [0, 1). */
static inline double sweep_rng_uniform(void *rng)
{
	return test_rng_uniform((test_rng *)rng);
}

/* libc rand() / RAND_MAX (ctx unused; srand() seeds it), in [0, 1]: its
 * sequence differs between libcs, so a new sweep takes a test_rng. */
static inline double sweep_rand_uniform(void *unused)
{
	(void)unused;
	return rand() / (double)RAND_MAX;
}

/* The value of port id at u in [0, 1]: log-uniform over the declared range
 * of a logarithmic port, uniform otherwise.  (The quotient and difference of
 * the bounds are taken in float, as the sweeps have always done.) */
static inline double sweep_port_value(pendula_port_id id, double u)
{
	const pendula_port_info *info = &pendula_ports[id];
	if ((info->flags & PF_LOG) && info->min > 0)
		return info->min * pow(info->max / info->min, u);
	return info->min + (info->max - info->min) * u;
}

/* The same with the bounds' quotient and difference taken in double, as
 * bench_cap has always drawn its settings (sweep_spec.bounds_in_double). */
static inline double sweep_port_value_double(pendula_port_id id, double u)
{
	const pendula_port_info *info = &pendula_ports[id];
	const double lo = info->min, hi = info->max;
	if ((info->flags & PF_LOG) && lo > 0)
		return lo * pow(hi / lo, u);
	return lo + (hi - lo) * u;
}

/* Whether port id is a setting control of model: a control input that
 * fills a pendula_params field. */
static inline bool sweep_is_setting(pendula_model model, pendula_port_id id)
{
	const pendula_port_info *info = &pendula_ports[id];
	return (info->models & (1u << model)) && info->kind == PK_CONTROL_IN &&
	       info->param != PP_NONE;
}

/* What a sweep does with one setting control of setting number `index`. */
typedef enum {
	SWEEP_DRAW, /* draw it */
	SWEEP_KEEP, /* leave it at its default, drawing nothing */
	SWEEP_ZERO, /* draw it (the draws that follow stay the same), then set it to 0 */
} sweep_choice;
typedef sweep_choice (*sweep_rule)(pendula_port_id id, int index);

typedef struct {
	unsigned models;       /* the models swept, taken in turn: bits 1u << model */
	int settings;          /* how many settings in all */
	sweep_source source;   /* the draws */
	sweep_rule rule;       /* NULL: every setting control drawn */
	bool as_float;         /* each value rounded to a float, as a host sends it */
	bool bounds_in_double; /* sweep_port_value_double, not sweep_port_value */
} sweep_spec;

/* Setting number `index` of model: its defaults, then each setting control
 * as spec says. */
static inline void sweep_draw(const sweep_spec *spec, pendula_model model, int index,
                              pendula_params *p)
{
	pendula_params_default(p, model);
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if (!sweep_is_setting(model, (pendula_port_id)id))
			continue;
		const sweep_choice choice =
		    spec->rule ? spec->rule((pendula_port_id)id, index) : SWEEP_DRAW;
		if (choice == SWEEP_KEEP)
			continue;
		const double u = spec->source.uniform(spec->source.ctx);
		double v = spec->bounds_in_double ? sweep_port_value_double((pendula_port_id)id, u)
		                                  : sweep_port_value((pendula_port_id)id, u);
		if (pendula_ports[id].flags & PF_INTEGER)
			v = floor(v + 0.5);
		if (spec->as_float)
			v = (double)(float)v;
		pendula_param_set(p, (pendula_port_id)id, choice == SWEEP_ZERO ? 0.0 : v);
	}
}

/* A sweep under way: setting number `index` (of model `model`) in p. */
typedef struct {
	const sweep_spec *spec;
	int index;
	pendula_model model;
	pendula_params p;
} sweep_iter;

static inline sweep_iter sweep_start(const sweep_spec *spec)
{
	sweep_iter s = {spec, -1, (pendula_model)0, {0}};
	return s;
}

/* Draws the next setting into s->p; false once spec->settings are drawn.
 * Setting i is of the (i mod k)-th of the k models swept, in the
 * registry's order. */
static inline bool sweep_next(sweep_iter *s)
{
	int k = 0, models[PENDULA_N_MODELS];
	for (int m = 0; m < PENDULA_N_MODELS; ++m)
		if (s->spec->models & (1u << m))
			models[k++] = m;
	if (k == 0 || ++s->index >= s->spec->settings)
		return false;
	s->model = (pendula_model)models[s->index % k];
	sweep_draw(s->spec, s->model, s->index, &s->p);
	return true;
}

#endif
