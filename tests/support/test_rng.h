/* SPDX-License-Identifier: ISC */
/*
 * The tests' own pseudo-random numbers: splitmix64 (G. Steele, D. Lea,
 * C. Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014;
 * constants as in S. Vigna's public-domain splitmix64.c).  The state is a
 * 64-bit counter stepped by a fixed odd constant (a Weyl sequence, period
 * 2^64 for every seed, 0 included); each output is the counter through a
 * bijective mixing function.
 *
 * Unlike libc rand(), the sequence of a seed is the same on every platform,
 * libc and compiler, and nothing else in the process draws from it, so a
 * test that prints a failing case can be re-run and gives the same case.
 * Changing this generator changes what every test draws: re-check those
 * tests when you do.
 *
 * Header-only (static inline); no global state: each test keeps its own
 * test_rng.
 */
#ifndef PENDULA_TEST_RNG_H
#define PENDULA_TEST_RNG_H

#include <stdint.h>

typedef struct {
	uint64_t state;
} test_rng;

static inline test_rng test_rng_seeded(uint64_t seed)
{
	test_rng rng = {seed};
	return rng;
}

/* The next 64 random bits. */
static inline uint64_t test_rng_next(test_rng *rng)
{
	uint64_t z = (rng->state += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* Uniform in [0, 1): the top 53 bits, so every value is a multiple of
 * 2^-53 and exact in a double. */
static inline double test_rng_uniform(test_rng *rng)
{
	return (double)(test_rng_next(rng) >> 11) * 0x1.0p-53;
}

/* Uniform in [lo, hi). */
static inline double test_rng_range(test_rng *rng, double lo, double hi)
{
	return lo + (hi - lo) * test_rng_uniform(rng);
}

/* Uniform integer in [0, n), n > 0 (the bias of the modulo is below
 * n / 2^64, far below anything a test could see). */
static inline uint32_t test_rng_below(test_rng *rng, uint32_t n)
{
	return (uint32_t)(test_rng_next(rng) % n);
}

#endif
