/*
 * sweep.h - drive many configurations from one pass over a trace.
 *
 * Most references fall in the same physical line as the previous reference
 * of their cache (sequential instruction fetch, neighbouring data). Such a
 * reference is a hit in the most recent bank in EVERY configuration, since
 * the physical line size is fixed by the geometry, so it can be recognised
 * once per batch and merely counted in each configuration. The filter also
 * splits the batch into instruction and data streams, because the two caches
 * are independent and a cache working through its own stream runs with far
 * fewer mispredicted branches. Exact: stc_sweep_run gives bit-identical
 * counters to stc_system_run (tests/test_sweep.c).
 *
 * Only for systems without a reconfiguration schedule (a reconfiguration
 * forgets the previous line, and the schedule counts interleaved references).
 */
#ifndef STC_SWEEP_H
#define STC_SWEEP_H

#include "cache.h"
#include "geometry.h"
#include "system.h"
#include "trace.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    unsigned offset_bits;
    unsigned line_bytes;
    uint64_t addr_mask;
    /* Per stream (0 = instructions, 1 = data): the physical line of the last
     * piece of the previous reference, and whether that line is known to be
     * dirty (a write or modify to it since the stream moved onto it). */
    bool last_valid[2];
    uint64_t last_line[2];
    bool last_dirty[2];
} stc_repeat_filter;

/* One filtered batch: the references each configuration must simulate, per
 * stream in trace order, and the tallies of those it may only count. */
typedef struct {
    stc_ref *ifetch;
    size_t ifetch_count;
    stc_ref *data;
    size_t data_count;
    stc_repeat_counts repeats[2];
} stc_filtered_batch;

void stc_repeat_filter_init(stc_repeat_filter *filter, const stc_geometry *geometry);

/* Filter count references. batch->ifetch and batch->data must each have room
 * for count references. */
void stc_repeat_filter_run(stc_repeat_filter *filter, const stc_ref *refs, size_t count,
                           stc_filtered_batch *batch);

/* Feed a filtered batch to a system without a schedule. */
void stc_sweep_run(stc_system *system, const stc_filtered_batch *batch);

#endif
