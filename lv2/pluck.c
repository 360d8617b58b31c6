/* SPDX-License-Identifier: ISC */
/* Which MIDI messages pluck, and with what energy (pluck.h). */
#include "pluck.h"

#include "ports.h"

double pendula_pluck_energy(const float *control, const uint8_t *msg, uint32_t size)
{
	const double energy = control[P_PLUCK_ENERGY];
	if (!(energy > 0.0) || size < 3 || (msg[0] & 0xF0) != 0x90)
		return 0.0;
	const int note = msg[1] & 0x7F, velocity = msg[2] & 0x7F;
	if (velocity == 0) /* a note-off */
		return 0.0;
	const int mem = (int)control[P_MEM_NOTE];
	if (mem >= 0 && note >= mem && note < mem + PENDULA_MEM_NOTES)
		return 0.0; /* recalls a memory instead */
	return energy * (double)velocity / 127.0;
}
