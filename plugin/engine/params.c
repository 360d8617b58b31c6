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
	for (int id = 0; id < PENDULA_N_PORT_IDS; ++id)
		pendula_param_set(p, (pendula_port_id)id,
		                  pendula_model_port_default(model, (pendula_port_id)id));
}
