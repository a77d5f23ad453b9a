/*
 * stimuli.h - the operations a run is made of (tb/README.md, "Stimuli"):
 * seeded random traffic with reconfigurations, checkpoints and counter
 * clears, or the requests of a trace.
 */
#ifndef STC_TB_STIMULI_H
#define STC_TB_STIMULI_H

#include <stdint.h>

typedef struct harness harness;

enum { REGIONS = 8, REGION_BYTES = 1 << 16 };

/* Where random traffic goes. */
typedef struct {
    /* 8 regions of 64 KiB: address 0, the top of the address space,
     * aliases of others that differ in one tag bit, random ones */
    uint64_t regions[REGIONS];
    uint64_t *hot;       /* the hot set: --hot word addresses in the regions */
    uint64_t last_addr;  /* the previous request's address (locality) */
    uint64_t flush_base; /* a region the traffic never touches (checkpoints) */
} stimuli;

/* Choose the regions, the flush region and the hot set (random draws:
 * called once, after reset, before any other stimulus). */
void stimuli_init(harness *h);
/* The next random request's word address. */
uint64_t next_address(harness *h);
/* A random reconfiguration: 4% an illegal one, 4% the same configuration,
 * else a uniformly random legal one. */
void random_reconfig(harness *h);
/* --requests random requests with reconfigurations, checkpoints and
 * counter clears at the chosen rates. */
void run_random(harness *h);
/* --requests requests from the trace --trace (exits 2 if unreadable). */
void run_trace(harness *h);

#endif
