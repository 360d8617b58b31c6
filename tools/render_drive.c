/* SPDX-License-Identifier: ISC */
/* pendula-render: a signal for the drive input (see render.h): a WAV file's
 * first channel, looped, or a built-in kick drum. */
#include "render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void drive_open(Drive *d, const Options *o)
{
	memset(d, 0, sizeof(*d));
	d->kick_bpm = o->drive_kick;
	d->rate = o->rate;
	if (!o->drive_wav && !(o->drive_kick > 0.0))
		return;
	d->buf = xcalloc((size_t)o->block, sizeof(float));
	if (!o->drive_wav)
		return;
	SF_INFO info;
	memset(&info, 0, sizeof(info));
	d->snd = sf_open(o->drive_wav, SFM_READ, &info);
	if (!d->snd)
		die("--drive-wav: cannot read '%s': %s", o->drive_wav, sf_strerror(NULL));
	if (info.frames <= 0 || info.channels <= 0)
		die("--drive-wav: '%s' holds no audio", o->drive_wav);
	if (info.samplerate != o->rate && !o->quiet)
		warn("--drive-wav: '%s' is at %d Hz, read as %ld Hz frames (not resampled)",
		     o->drive_wav, info.samplerate, o->rate);
	d->channels = info.channels;
	d->frames = xcalloc((size_t)o->block * (size_t)info.channels, sizeof(float));
}

/* A kick at bpm: a sine gliding from 150 Hz to 50 Hz in about 30 ms, decaying
 * with 0.15 s, peak 1 (the one tests/host/test_presets_knob.c drives the
 * "Kick-shaken" preset with). */
static float kick_at(double bpm, double t)
{
	const double tau = fmod(t, 60.0 / bpm);
	const double phase =
	    2.0 * 3.14159265358979323846 * (50.0 * tau + 3.0 * (1.0 - exp(-tau / 0.03)));
	return (float)(sin(phase) * exp(-tau / 0.15));
}

float *drive_block(Drive *d, uint32_t n)
{
	if (!d->buf)
		return NULL;
	if (!d->snd) {
		for (uint32_t i = 0; i < n; ++i)
			d->buf[i] = kick_at(d->kick_bpm, (double)(d->pos + i) / (double)d->rate);
		d->pos += n;
		return d->buf;
	}
	for (uint32_t got = 0; got < n;) {
		const sf_count_t r = sf_readf_float(d->snd, d->frames, (sf_count_t)(n - got));
		if (r <= 0) { /* the end: loop */
			if (sf_seek(d->snd, 0, SEEK_SET) < 0)
				die("--drive-wav: cannot loop the file");
			continue;
		}
		for (sf_count_t i = 0; i < r; ++i)
			d->buf[got + (uint32_t)i] = d->frames[(size_t)i * (size_t)d->channels];
		got += (uint32_t)r;
	}
	return d->buf;
}

void drive_close(Drive *d)
{
	if (d->snd)
		sf_close(d->snd);
	free(d->frames);
	free(d->buf);
	memset(d, 0, sizeof(*d));
}
