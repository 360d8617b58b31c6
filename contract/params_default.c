/* SPDX-License-Identifier: ISC */
/*
 * The engine's defaults: the port table's (contract/ports.h), so the plugin,
 * the tests and the tools start from the same settings.
 */
#include "ports.h"

#include <string.h>

void pendula_params_default(pendula_params *p, pendula_model model)
{
	memset(p, 0, sizeof(*p));
	p->model = model;
	/* Only the model's own ports, and the fixed settings PENDULA_MODEL_DEFAULTS
	 * gives it for ports it lacks: ports of other models may fill the same
	 * field (n_bodies is both n_bodies and n_links). */
	const unsigned mask = 1u << model;
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id) {
		if ((pendula_ports[id].models & mask) ||
		    pendula_model_port_override(model, (pendula_port_id)id))
			pendula_param_set(p, (pendula_port_id)id,
			                  pendula_model_port_default(model, (pendula_port_id)id));
	}
}
