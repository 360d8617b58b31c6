/* SPDX-License-Identifier: ISC */
/*
 * wav_diff: what tests/scripts/test_presets_lv2file.sh needs from WAV files.
 *
 *   wav_diff A.wav B.wav        prints "CHANNELS FRAMES MAXDIFF": the largest
 *                               absolute difference between the two, sample
 *                               by sample; exit 1 if their channel or frame
 *                               counts differ (or a file cannot be read)
 *   wav_diff --silence FILE FRAMES RATE
 *                               writes FRAMES frames of one-channel 32-bit
 *                               float silence at RATE Hz
 */
#include <sndfile.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int silence(const char *path, long frames, int rate)
{
	SF_INFO info;
	memset(&info, 0, sizeof info);
	info.channels = 1;
	info.samplerate = rate;
	info.format = SF_FORMAT_WAV | SF_FORMAT_FLOAT;
	SNDFILE *f = sf_open(path, SFM_WRITE, &info);
	if (!f) {
		fprintf(stderr, "wav_diff: %s: %s\n", path, sf_strerror(NULL));
		return 1;
	}
	float zero[1024] = {0};
	for (long done = 0; done < frames;) {
		const long n = frames - done < 1024 ? frames - done : 1024;
		if (sf_writef_float(f, zero, n) != n) {
			fprintf(stderr, "wav_diff: %s: write failed\n", path);
			sf_close(f);
			return 1;
		}
		done += n;
	}
	sf_close(f);
	return 0;
}

static float *read_all(const char *path, SF_INFO *info)
{
	memset(info, 0, sizeof *info);
	SNDFILE *f = sf_open(path, SFM_READ, info);
	if (!f) {
		fprintf(stderr, "wav_diff: %s: %s\n", path, sf_strerror(NULL));
		return NULL;
	}
	const size_t n = (size_t)info->frames * (size_t)info->channels;
	float *buf = (float *)calloc(n ? n : 1, sizeof(float));
	if (!buf || sf_readf_float(f, buf, info->frames) != info->frames) {
		fprintf(stderr, "wav_diff: %s: cannot read\n", path);
		free(buf);
		sf_close(f);
		return NULL;
	}
	sf_close(f);
	return buf;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "--silence"))
		return silence(argv[2], atol(argv[3]), atoi(argv[4]));
	if (argc != 3) {
		fprintf(stderr,
		        "usage: wav_diff A.wav B.wav | wav_diff --silence FILE FRAMES RATE\n");
		return 2;
	}
	SF_INFO ia, ib;
	float *a = read_all(argv[1], &ia);
	float *b = read_all(argv[2], &ib);
	if (!a || !b) {
		free(a);
		free(b);
		return 1;
	}
	if (ia.channels != ib.channels || ia.frames != ib.frames) {
		printf("%d %lld / %d %lld shapes differ\n", ia.channels, (long long)ia.frames,
		       ib.channels, (long long)ib.frames);
		free(a);
		free(b);
		return 1;
	}
	double worst = 0.0;
	const size_t n = (size_t)ia.frames * (size_t)ia.channels;
	for (size_t i = 0; i < n; ++i) {
		const double d = fabs((double)a[i] - (double)b[i]);
		if (!(d <= worst))
			worst = d; /* NaN counts as the worst */
	}
	printf("%d %lld %.9g\n", ia.channels, (long long)ia.frames, worst);
	free(a);
	free(b);
	return 0;
}
