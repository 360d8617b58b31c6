/* SPDX-License-Identifier: ISC */
/* pendula-render: WAV and CSV output, and how every output file is written
 * (see render.h). */
#define _XOPEN_SOURCE 700 /* mkstemp, fchmod, realpath, lstat */
#include "render.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Output files are written under a temporary name beside their final one
 * (NAME.XXXXXX in the same folder) and renamed over it only when the whole
 * render succeeded (outputs_commit): a run that fails, or is stopped,
 * never truncates or half-writes a file that was there, and removes its
 * temporaries (at exit, and on SIGINT, SIGTERM, SIGHUP). */
#define MAX_OUTPUTS 3
static char *g_tmp[MAX_OUTPUTS];   /* (NULL: none) */
static char *g_final[MAX_OUTPUTS]; /* where each goes */
static int g_n_outputs;

static void discard_temporaries(void)
{
	for (int i = 0; i < g_n_outputs; ++i)
		if (g_tmp[i])
			unlink(g_tmp[i]);
}

/* (the signals stay blocked while it runs, so a second one, such as
 * timeout's to the child and then to its process group, waits instead of
 * killing the process before the unlinks; raised again on the way out,
 * the signal then ends the process as it would have) */
static void on_signal(int sig)
{
	discard_temporaries(); /* (unlink is async-signal-safe) */
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The signals that stop a render (Ctrl-C, kill, a closed terminal). */
static void stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

void outputs_init(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa;
	atexit(discard_temporaries);
	/* (sigaction: signal() under _XOPEN_SOURCE resets the handler on
	 * entry and lets a second signal in) */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	stop_signals(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); ++i)
		sigaction(sigs[i], &sa, NULL);
}

/* A new temporary file for output `path` of option `opt`, registered;
 * its descriptor. */
static int temporary_for(const char *opt, const char *path)
{
	struct stat st;
	char *final = NULL;
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		final = realpath(path, NULL); /* a link: the file it points at */
	if (!final)
		final = xstrdup(path);
	if (stat(final, &st) == 0 && S_ISDIR(st.st_mode))
		die("%s: cannot write '%s': it is a folder", opt, path);
	if (g_n_outputs == MAX_OUTPUTS)
		die("%s: too many outputs", opt);
	const size_t n = strlen(final);
	char *tmp = xcalloc(n + 8, 1);
	memcpy(tmp, final, n);
	memcpy(tmp + n, ".XXXXXX", 8);
	/* The file is made and registered with the stop signals blocked, so
	 * that no signal finds it made but not yet known to on_signal. */
	sigset_t stop, old;
	stop_signals(&stop);
	sigprocmask(SIG_BLOCK, &stop, &old);
	const int fd = mkstemp(tmp);
	if (fd >= 0) {
		g_tmp[g_n_outputs] = tmp;
		g_final[g_n_outputs] = final;
		g_n_outputs++;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0)
		die("%s: cannot write '%s': %s", opt, path, strerror(errno));
	/* the permissions a new file gets (mkstemp makes it 0600) */
	const mode_t mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0)
		warn("%s: cannot set the permissions of '%s': %s", opt, path, strerror(errno));
	return fd;
}

/* The outputs are no longer registered (their files dealt with). */
static void forget_outputs(void)
{
	for (int i = 0; i < g_n_outputs; ++i) {
		free(g_tmp[i]);
		free(g_final[i]);
		g_tmp[i] = g_final[i] = NULL;
	}
	g_n_outputs = 0;
}

int outputs_commit(void)
{
	int err = 0;
	for (int i = 0; i < g_n_outputs; ++i)
		if (rename(g_tmp[i], g_final[i]) != 0) {
			fprintf(stderr, PROG ": cannot write '%s': %s\n", g_final[i],
			        strerror(errno));
			unlink(g_tmp[i]);
			err = 1;
		}
	forget_outputs();
	return err;
}

void outputs_discard(void)
{
	discard_temporaries();
	forget_outputs();
}

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
	/* ("-": libsndfile's stdout, which must be seekable for a WAV) */
	SNDFILE *snd = strcmp(o->wav, "-") == 0
	                   ? sf_open("-", SFM_WRITE, &info)
	                   : sf_open_fd(temporary_for("--wav", o->wav), SFM_WRITE, &info, SF_TRUE);
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
	/* Nine significant digits, and always enough decimals to tell frames
	 * apart (rate 48 kHz: 6; after 10 000 s nine digits alone would not). */
	const double t = (double)frame / (double)rate;
	const int int_digits = t < 1.0 ? 1 : (int)floor(log10(t)) + 1;
	const int decimals = (int)ceil(log10((double)rate)) + 1;
	const int digits = int_digits + decimals > 9 ? int_digits + decimals : 9;
	fprintf(csv, "%.*g", digits, t);
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
	f = fdopen(temporary_for(opt, path), "wb");
	if (!f)
		die("%s: cannot write '%s': %s", opt, path, strerror(errno));
	return f;
}
