/*
 * stack.h - every configuration of a geometry in one pass, by LRU stack
 * simulation (steady state only: no reconfiguration).
 *
 * Why it is exact (docs/ARCHITECTURE.md section 11): with no reconfiguration
 * since the cache was empty, configuration (k, a, L, wp) behaves like a
 * textbook cache of k x bank_bytes, a ways, logical line L, true LRU, empty
 * ways filled first, write-back, write-allocate. Its set index is the
 * logical line's row group addr[S-1:log2 L] together with sel = tag mod g,
 * g = k/a. For a fixed (g, L) the configurations a = 1, 2, 4, ... (k = g*a
 * <= banks) therefore share one set mapping and differ only in how many
 * entries of each set's LRU stack they hold (the inclusion property of
 * LRU): ONE stack of depth banks/g per set serves all of them. An access
 * found at stack depth d hits in every a > d and misses in every a <= d.
 * With way prediction the predicted bank is the most recent candidate, so a
 * hit at depth 0 is a first-probe hit and a hit at depth >= 1 a second-probe
 * hit; everything else is as without way prediction.
 *
 * Default geometry (4 banks): per line size, g = 1 serves 2K_1W, 4K_2W,
 * 8K_4W (and their _P variants), g = 2 serves 4K_1W, 8K_2W, g = 4 serves
 * 8K_1W: 9 stacks per cache stand in for 27 configurations.
 *
 * Write-backs are the one thing the stack does not give for free: dirty
 * state is per physical line and per cache, so each stack entry keeps one
 * dirty mask (one bit per subline) per associativity level. A line leaving
 * the a-way cache (pushed from depth a-1 to depth a, or off the stack)
 * writes back that level's dirty sublines; it re-enters clean.
 *
 * Input is the output of the repeat filter (sweep.h), exactly as for
 * stc_sweep_run: references that repeat the previous physical line of their
 * stream are depth-0 hits in every configuration and are only counted.
 *
 * Counters are bit-identical to those of an stc_cache pair (I and D) of each
 * configuration fed the same references (tests/test_stack.c).
 */
#ifndef STC_STACK_H
#define STC_STACK_H

#include "cache.h"
#include "config.h"
#include "counters.h"
#include "geometry.h"
#include "sweep.h"

#include <stddef.h>

typedef struct stc_stack_sweep stc_stack_sweep;

/* Simulate every legal configuration of geometry (the set stc_config_enumerate
 * lists), I-cache and D-cache, all starting empty. The geometry must have
 * passed stc_geometry_init. Returns NULL with a message in err when out of
 * memory. */
stc_stack_sweep *stc_stack_sweep_create(const stc_geometry *geometry, char *err, size_t err_len);

void stc_stack_sweep_destroy(stc_stack_sweep *sweep);

/* Feed one filtered batch (stc_repeat_filter_run's output): its kept
 * instruction references go to the I-caches, its kept data references to
 * the D-caches, its repeat tallies are counted as depth-0 hits. Batches must
 * come from one filter, in trace order. References of size 0 are ignored, as
 * stc_cache_request rejects them. */
void stc_stack_sweep_run(stc_stack_sweep *sweep, const stc_filtered_batch *batch);

/* One cache's half of stc_stack_sweep_run: the batch's instruction
 * references and tallies (STC_ICACHE) or its data ones (STC_DCACHE); the
 * other half of the batch is not looked at. The two halves touch disjoint
 * state, so two threads may feed one sweep side by side, one cache each
 * (stcsim does, ref/ref_pipeline.h); each cache's batches in trace order. */
void stc_stack_sweep_run_cache(stc_stack_sweep *sweep, stc_cache_kind kind,
                               const stc_filtered_batch *batch);

/* The counters of configuration `config` for the I-cache (STC_ICACHE) or the
 * D-cache (STC_DCACHE), as an stc_cache of that configuration would show
 * them after the same references (reconfiguration fields 0). Returns 0, or
 * -1 with *out zeroed if config is illegal for the geometry. */
int stc_stack_sweep_counters(const stc_stack_sweep *sweep, const stc_config *config,
                             stc_cache_kind kind, stc_counters *out);

#endif
