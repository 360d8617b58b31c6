/* SPDX-License-Identifier: ISC */
/* pendula-render: WAV and CSV output (see render.h). */
#include "render.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

SNDFILE *wav_open(const Options *o, const Host *h)
{
	SF_INFO info;
	const uint64_t total = (uint64_t)llround(o->seconds * (double)o->rate);
	const double bytes = (double)total * h->n_signals * 4.0;
	if (h->n_signals == 0)
		die("--wav: %s has no audio or CV outputs", h->uri);
	memset(&info, 0, sizeof(info));
	info.samplerate = (int)o->rate;
	info.channels = (int)h->n_signals;
	/* Plain WAV up to 4 GiB, RF64 beyond. */
	info.format =
	    (bytes < 4294967295.0 - 65536.0 ? SF_FORMAT_WAV : SF_FORMAT_RF64) | SF_FORMAT_FLOAT;
	SNDFILE *snd = sf_open(o->wav, SFM_WRITE, &info);
	if (!snd)
		die("--wav: cannot write '%s': %s", o->wav, sf_strerror(NULL));
	/* The PEAK chunk holds a time stamp: leave it out, so that the same
	 * command writes the same bytes. */
	sf_command(snd, SFC_SET_ADD_PEAK_CHUNK, NULL, SF_FALSE);
	sf_set_string(snd, SF_STR_SOFTWARE, PROG);
	sf_set_string(snd, SF_STR_TITLE, h->uri);
	return snd;
}

FILE *csv_open(const Options *o, const Host *h)
{
	FILE *csv = open_output("--csv", o->csv);
	fputs("time", csv);
	for (uint32_t s = 0; s < h->n_signals; ++s)
		fprintf(csv, ",%s", h->signals[s]->symbol);
	fputc('\n', csv);
	return csv;
}

void csv_write(FILE *csv, uint64_t frame, long rate, const float *values, uint32_t n)
{
	fprintf(csv, "%.9g", (double)frame / (double)rate);
	for (uint32_t s = 0; s < n; ++s)
		fprintf(csv, ",%.9g", (double)values[s]);
	fputc('\n', csv);
}

int close_output(FILE *f, int err)
{
	if (f != stdout)
		err |= fclose(f);
	else
		err |= fflush(f);
	return err;
}

FILE *open_output(const char *opt, const char *path)
{
	FILE *f;
	if (strcmp(path, "-") == 0)
		return stdout;
	f = fopen(path, "wb");
	if (!f)
		die("%s: cannot write '%s': %s", opt, path, strerror(errno));
	return f;
}
