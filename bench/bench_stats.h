/* SPDX-License-Identifier: ISC */
/*
 * What the benchmarks share: the median of repeated timings, and the
 * calling thread's CPU time.  Header-only (static inline): each benchmark
 * is one program.
 */
#ifndef PENDULA_BENCH_STATS_H
#define PENDULA_BENCH_STATS_H

#include <stdlib.h>
#include <time.h>

static inline int bench_compare_doubles(const void *a, const void *b)
{
	const double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of x[0..n) (n >= 1), which it sorts in place. */
static inline double bench_median(double *x, int n)
{
	qsort(x, (size_t)n, sizeof(x[0]), bench_compare_doubles);
	return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

/* CPU time of the calling thread, in seconds. */
static inline double bench_thread_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
