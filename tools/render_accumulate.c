/* SPDX-License-Identifier: ISC */
/* pendula-render: per-output statistics and the PNG envelopes (see render.h). */
#include "render.h"

#include <math.h>
#include <stdlib.h>

Track *tracks_new(uint32_t n, uint32_t n_cols)
{
	Track *tracks = xcalloc(n, sizeof(*tracks));
	for (uint32_t s = 0; s < n; ++s) {
		tracks[s].min = INFINITY;
		tracks[s].max = -INFINITY;
		if (n_cols) {
			tracks[s].env_min = xcalloc(n_cols, sizeof(float));
			tracks[s].env_max = xcalloc(n_cols, sizeof(float));
			tracks[s].env_set = xcalloc(n_cols, 1);
		}
	}
	return tracks;
}

void track_add(Track *t, float v, uint32_t col)
{
	if (!isfinite(v)) {
		++t->nonfinite;
		return;
	}
	if (v < t->min)
		t->min = v;
	if (v > t->max)
		t->max = v;
	t->sum += v;
	t->last = v;
	if (!t->env_set)
		return;
	if (!t->env_set[col]) {
		t->env_min[col] = t->env_max[col] = v;
		t->env_set[col] = 1;
	} else if (v < t->env_min[col]) {
		t->env_min[col] = v;
	} else if (v > t->env_max[col]) {
		t->env_max[col] = v;
	}
}

void tracks_print(FILE *f, const Host *h, const Track *tracks, uint64_t total)
{
	fprintf(f, "%-12s %12s %12s %12s %12s\n", "output", "min", "max", "mean", "final");
	for (uint32_t s = 0; s < h->n_signals; ++s) {
		const Track *t = &tracks[s];
		uint64_t finite = total - t->nonfinite;
		fprintf(f, "%-12s %12.6g %12.6g %12.6g %12.6g\n", h->signals[s]->symbol, t->min,
		        t->max, finite ? t->sum / (double)finite : 0.0, t->last);
	}
}

void tracks_free(Track *tracks, uint32_t n)
{
	for (uint32_t s = 0; s < n; ++s) {
		free(tracks[s].env_min);
		free(tracks[s].env_max);
		free(tracks[s].env_set);
	}
	free(tracks);
}
