/* SPDX-License-Identifier: ISC */
/*
 * The engine's defaults: the port table's (plugin/ports.h), so the plugin,
 * the tests and the tools start from the same settings.
 */
#include "../ports.h"

#include <string.h>

void pendula_params_default(pendula_params *p, pendula_model model)
{
	memset(p, 0, sizeof(*p));
	p->model = model;
	/* The ports the model lacks first, then its own: a setting two ports
	 * fill (n_bodies from n_bodies or n_links) takes the model's own. */
	const unsigned mask = 1u << model;
	for (int pass = 0; pass < 2; ++pass)
		for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
			if (!!(pendula_ports[id].models & mask) == pass)
				pendula_param_set(p, (pendula_port_id)id,
				                  pendula_model_port_default(model, (pendula_port_id)id));
}
