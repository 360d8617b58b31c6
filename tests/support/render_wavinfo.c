/* SPDX-License-Identifier: ISC */
/*
 * render_wavinfo: what tests/scripts/test_render.sh needs to know about a WAV file
 * written by pendula-render (there is no soxi on the test machine).
 *
 *   render_wavinfo FILE           prints "CHANNELS RATE FRAMES FORMAT"
 *   render_wavinfo FILE FRAME     then a second line: the samples of that
 *                                 frame, comma-separated, as "%.9g"
 *
 * FORMAT is "wav-float" for a WAV of 32-bit floats, else "other-0xHEX".
 */
#include <sndfile.h>

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	SF_INFO info = {0};
	SNDFILE *f;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: render_wavinfo FILE [FRAME]\n");
		return 2;
	}
	f = sf_open(argv[1], SFM_READ, &info);
	if (!f) {
		fprintf(stderr, "render_wavinfo: %s: %s\n", argv[1], sf_strerror(NULL));
		return 1;
	}
	if (info.format == (SF_FORMAT_WAV | SF_FORMAT_FLOAT))
		printf("%d %d %lld wav-float\n", info.channels, info.samplerate,
		       (long long)info.frames);
	else
		printf("%d %d %lld other-0x%x\n", info.channels, info.samplerate,
		       (long long)info.frames, (unsigned)info.format);

	if (argc == 3) {
		char *end = NULL;
		long long frame = strtoll(argv[2], &end, 10);
		float *buf = calloc((size_t)info.channels, sizeof(float));
		if (!buf || *end || frame < 0 || frame >= info.frames ||
		    sf_seek(f, frame, SEEK_SET) != frame || sf_readf_float(f, buf, 1) != 1) {
			fprintf(stderr, "render_wavinfo: cannot read frame '%s'\n", argv[2]);
			free(buf);
			sf_close(f);
			return 1;
		}
		for (int c = 0; c < info.channels; ++c)
			printf("%s%.9g", c ? "," : "", (double)buf[c]);
		printf("\n");
		free(buf);
	}
	sf_close(f);
	return 0;
}
