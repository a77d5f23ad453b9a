/*
 * rng.h - the harness's seeded random stream (splitmix64).
 *
 * Every random choice of a run (stimuli, random memory timing, power-switch
 * acknowledge delays) is drawn from one stream, in a fixed order, so a run
 * is reproduced exactly by its seed and options.
 */
#ifndef STC_TB_RNG_H
#define STC_TB_RNG_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    uint64_t state;
} rng;

/* Start the stream of seed `seed` (--seed). */
void rng_seed(rng *random, uint64_t seed);
/* The next 64 random bits. */
uint64_t rng_next(rng *random);
/* Uniform in 0 .. n-1; 0 if n is 0. */
unsigned rng_below(rng *random, unsigned n);
/* True with probability percent / 100. */
bool rng_percent(rng *random, unsigned percent);

#endif
