/* SPDX-License-Identifier: ISC */
/* Memories: see memory.h. */
#include "memory.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool pendula_memory_init(pendula_memory *m, double sample_rate, const pendula_params *p)
{
	memset(m, 0, sizeof(*m));
	m->motion_bytes = pendula_motion_bytes();
	uint8_t *pool = calloc(PENDULA_MEMORY_SLOTS + 1, m->motion_bytes);
	m->old = pendula_engine_new(sample_rate, p);
	if (!pool || !m->old) {
		free(pool);
		pendula_engine_free(m->old);
		m->old = NULL;
		return false;
	}
	for (int k = 0; k < PENDULA_MEMORY_SLOTS; ++k)
		m->slot[k] = pool + (size_t)k * m->motion_bytes;
	m->scratch = pool + (size_t)PENDULA_MEMORY_SLOTS * m->motion_bytes;
	return true;
}

void pendula_memory_free(pendula_memory *m)
{
	free(m->slot[0]);
	pendula_engine_free(m->old);
	memset(m, 0, sizeof(*m));
}

void pendula_memory_store(pendula_memory *m, const pendula_engine *e, int k)
{
	if (k < 0 || k >= PENDULA_MEMORY_SLOTS || !m->slot[0])
		return;
	pendula_engine_motion_save(e, m->slot[k]);
	m->valid |= (uint8_t)(1u << k);
}

bool pendula_memory_recall(pendula_memory *m, pendula_engine *e, int k, uint32_t glide_frames,
                           const pendula_params *p)
{
	if (k < 0 || k >= PENDULA_MEMORY_SLOTS || !(m->valid & (1u << k)))
		return false;
	m->glide_len = m->glide_done = 0;
	if (glide_frames > 0) {
		/* the old motion goes on in the second engine, under the same
		 * settings, for the glide's length */
		pendula_engine_motion_save(e, m->scratch);
		if (pendula_engine_motion_load(m->old, m->scratch, p))
			m->glide_len = glide_frames;
	}
	return pendula_engine_motion_load(e, m->slot[k], NULL) != 0;
}

/* The weight of the recalled motion at frame i of the glide: a raised
 * cosine, so the fade starts and ends with zero slope. */
static inline float glide_weight(uint32_t i, uint32_t len)
{
	return (float)(0.5 - 0.5 * cos(3.14159265358979323846 * (double)i / (double)len));
}

/* Whether buffer ch of out is the first channel with its pointer. */
static bool first_with_buffer(const pendula_outputs *out, int ch)
{
	for (int c = 0; c < ch; ++c)
		if (out->ch[c] == out->ch[ch])
			return false;
	return true;
}

void pendula_memory_glide(pendula_memory *m, const pendula_outputs *out, uint32_t n)
{
	for (uint32_t pos = 0; pos < n && pendula_memory_gliding(m);) {
		uint32_t len = n - pos;
		if (len > PENDULA_CHUNK)
			len = PENDULA_CHUNK;
		if (len > m->glide_len - m->glide_done)
			len = m->glide_len - m->glide_done;
		pendula_outputs old;
		for (int ch = 0; ch < PENDULA_N_CHANNELS; ++ch) {
			const bool fade = out->ch[ch] && ch != PENDULA_CH_FLIPS &&
			                  ch != PENDULA_CH_SWINGS && first_with_buffer(out, ch);
			old.ch[ch] = fade ? m->old_out[ch] : NULL;
		}
		pendula_engine_run(m->old, len, &old);
		for (int ch = 0; ch < PENDULA_N_CHANNELS; ++ch) {
			if (!old.ch[ch])
				continue;
			float *y = out->ch[ch] + pos;
			const float *x = old.ch[ch];
			for (uint32_t i = 0; i < len; ++i) {
				const float w = glide_weight(m->glide_done + i + 1, m->glide_len);
				y[i] = x[i] + w * (y[i] - x[i]);
			}
		}
		m->glide_done += len;
		pos += len;
	}
}

void pendula_memory_glide_save(const pendula_memory *m, void *motion, uint32_t *len, uint32_t *done)
{
	pendula_engine_motion_save(m->old, motion);
	*len = m->glide_len;
	*done = m->glide_done;
}

void pendula_memory_glide_load(pendula_memory *m, const void *motion, uint32_t len, uint32_t done,
                               const pendula_params *p)
{
	m->glide_len = m->glide_done = 0;
	if (done < len && pendula_engine_motion_load(m->old, motion, p)) {
		m->glide_len = len;
		m->glide_done = done;
	}
}
