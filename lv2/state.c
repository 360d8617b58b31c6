/* SPDX-License-Identifier: ISC */
/* The saved state's format: see state.h. */
#include "state.h"

#include <stdlib.h>
#include <string.h>

static const char magic[8] = {'P', 'E', 'N', 'D', 'U', 'L', 'A', 0};

typedef struct {
	char magic[8];
	uint32_t version;
	uint32_t model;
	uint32_t engine_bytes, glue_bytes;
	uint32_t memory_valid;
	uint32_t glide_len, glide_done;
	uint32_t reserved;
	uint64_t checksum; /* of everything after the header */
} blob_header;

/* FNV-1a, 64 bits: enough to tell a damaged blob from a good one (not a
 * defence against a forged one; the engine's load checks its indices). */
static uint64_t checksum(const uint8_t *p, size_t n)
{
	uint64_t h = 14695981039346656037ull;
	for (size_t i = 0; i < n; ++i) {
		h ^= p[i];
		h *= 1099511628211ull;
	}
	return h;
}

/* The bytes after the header: engine, glue, the valid memories in slot
 * order, the glide's old motion. */
static size_t body_bytes(size_t motion, uint32_t glue, uint8_t valid)
{
	size_t n = motion + glue + motion;
	for (int k = 0; k < PENDULA_MEMORY_SLOTS; ++k)
		if (valid & (1u << k))
			n += motion;
	return n;
}

void *pendula_state_pack(pendula_model model, const pendula_state_parts *parts, uint32_t *size)
{
	const size_t motion = pendula_motion_bytes();
	const size_t body = body_bytes(motion, parts->glue_bytes, parts->memory_valid);
	uint8_t *blob = malloc(sizeof(blob_header) + body);
	if (!blob)
		return NULL;
	blob_header h;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, magic, sizeof(magic));
	h.version = PENDULA_STATE_VERSION;
	h.model = (uint32_t)model;
	h.engine_bytes = (uint32_t)motion;
	h.glue_bytes = parts->glue_bytes;
	h.memory_valid = parts->memory_valid;
	h.glide_len = parts->glide_len;
	h.glide_done = parts->glide_done;
	uint8_t *p = blob + sizeof(h);
	memcpy(p, parts->engine, motion);
	p += motion;
	memcpy(p, parts->glue, parts->glue_bytes);
	p += parts->glue_bytes;
	for (int k = 0; k < PENDULA_MEMORY_SLOTS; ++k)
		if (parts->memory_valid & (1u << k)) {
			memcpy(p, parts->memory[k], motion);
			p += motion;
		}
	memcpy(p, parts->glide, motion);
	h.checksum = checksum(blob + sizeof(h), body);
	memcpy(blob, &h, sizeof(h));
	*size = (uint32_t)(sizeof(h) + body);
	return blob;
}

const char *pendula_state_unpack(const void *blob, uint32_t size, pendula_model model,
                                 uint32_t glue_bytes, pendula_state_parts *parts)
{
	const size_t motion = pendula_motion_bytes();
	blob_header h;
	if (!blob || size < sizeof(h))
		return "the saved state is shorter than its header";
	memcpy(&h, blob, sizeof(h));
	if (memcmp(h.magic, magic, sizeof(magic)) != 0)
		return "the saved state is not Pendula's";
	if (h.version != PENDULA_STATE_VERSION)
		return "the saved state has another format version";
	if (h.model != (uint32_t)model)
		return "the saved state is another model's";
	if (h.engine_bytes != motion || h.glue_bytes != glue_bytes || h.memory_valid > 0xffu)
		return "the saved state was made by another build of Pendula";
	const size_t body = body_bytes(motion, glue_bytes, (uint8_t)h.memory_valid);
	if ((size_t)size != sizeof(h) + body)
		return "the saved state has the wrong size (truncated?)";
	const uint8_t *p = (const uint8_t *)blob + sizeof(h);
	if (checksum(p, body) != h.checksum)
		return "the saved state is damaged (checksum)";
	memset(parts, 0, sizeof(*parts));
	parts->engine = p;
	p += motion;
	parts->glue = p;
	parts->glue_bytes = glue_bytes;
	p += glue_bytes;
	parts->memory_valid = (uint8_t)h.memory_valid;
	for (int k = 0; k < PENDULA_MEMORY_SLOTS; ++k)
		if (h.memory_valid & (1u << k)) {
			parts->memory[k] = p;
			p += motion;
		}
	parts->glide = p;
	parts->glide_len = h.glide_len;
	parts->glide_done = h.glide_done;
	return NULL;
}
