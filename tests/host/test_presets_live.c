/* SPDX-License-Identifier: ISC */
/*
 * The claims of the presets for playing live (docs/GUIDE.md): memories.
 */
#include "presets.h"

#include <math.h>

/* Memory lanes: a moment stored after 2 s, recalled 3 s later by the note
 * of memory 1 (mem_note 60) in the middle of a block; after the glide the
 * outputs replay what followed the store, frame for frame, though the
 * chaotic motion had long gone elsewhere. */
void check_memory_lanes(void)
{
	DawHost *h = load_activated(PENDULA_VARIANT_DOUBLE, "memory-lanes");
	if (!h)
		return;
	const double rate = h->rate;
	const uint32_t block = 256, glide = (uint32_t)lround(0.030 * rate);
	const uint32_t replay = (uint32_t)(1.0 * rate);
	const pendula_port_id ids[3] = {P_OUT_THETA1, P_OUT_TIP_X, P_OUT_ENERGY};
	CHECK(h->control[P_MEM_NOTE] == 60.0f && h->control[P_MEM_GLIDE] == 30.0f,
	      "the preset does not set mem_note 60 and mem_glide 30");
	for (uint32_t f = 0; f < 2.0 * rate; f += block)
		daw_run(h, block);
	/* store: one block with the trigger up */
	daw_set(h, P_MEM_SLOT, 1.0f);
	daw_set(h, P_MEM_STORE, 1.0f);
	h->recording = true;
	daw_run(h, block);
	daw_set(h, P_MEM_STORE, 0.0f);
	for (uint32_t f = block; f < replay; f += block)
		daw_run(h, block);
	h->recording = false;
	float *want[3];
	for (int k = 0; k < 3; ++k) {
		want[k] = (float *)lv2th_calloc(replay, sizeof(float));
		memcpy(want[k], h->rec[ids[k]], replay * sizeof(float));
	}
	for (uint32_t f = 0; f < 3.0 * rate; f += block)
		daw_run(h, block);
	/* the note of memory 1, 100 frames into a block */
	const uint8_t on[3] = {0x90, 60, 100};
	daw_in_midi(h, 100, on, 3);
	h->rec_n = 0;
	h->recording = true;
	for (uint32_t f = 0; f < replay + block; f += block)
		daw_run(h, block);
	h->recording = false;
	double before = 0.0;
	long mismatch = -1;
	for (int k = 0; k < 3; ++k) {
		const float *got = h->rec[ids[k]] + 100;
		before = fmax(before, fabs((double)h->rec[ids[k]][99] - want[k][0]));
		for (uint32_t i = glide; i < replay && mismatch < 0; ++i)
			if (memcmp(&got[i], &want[k][i], sizeof(float)) != 0)
				mismatch = (long)i;
		free(want[k]);
	}
	printf("\n    memory-lanes: before the recall the outputs were %.3f from the stored "
	       "moment; after the %u-frame glide they replay it exactly%s",
	       before, glide, mismatch < 0 ? "" : " (NOT)");
	CHECK(mismatch < 0, "the recalled motion differs from the stored one at frame %ld",
	      mismatch);
	CHECK(before > 0.01, "the motion had not moved away from the stored moment");
	daw_host_free(h);
}
