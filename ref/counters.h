/*
 * counters.h - the event counters of one cache (docs/ARCHITECTURE.md
 * section 9).
 *
 * The model counts in 64 bits, which never wraps on a real trace. The
 * hardware keeps narrower saturating counters; stc_counter_saturate gives
 * the value a counter of a given width shows.
 */
#ifndef STC_COUNTERS_H
#define STC_COUNTERS_H

#include <stdint.h>

typedef struct {
    /* CPU side. A request is one CPU reference of any size; it is split into
     * accesses, one per physical line it touches. */
    uint64_t requests;          /* CPU references */
    uint64_t request_misses;    /* references with at least one missing access */
    uint64_t accesses;          /* cache probes sequences, one per physical line touched */
    uint64_t reads;             /* accesses that read (READ and MODIFY) */
    uint64_t writes;            /* accesses that write (WRITE and MODIFY) */
    uint64_t misses;            /* accesses whose physical line was absent */
    uint64_t read_misses;       /* misses of READ and MODIFY accesses */
    uint64_t write_misses;      /* misses of WRITE accesses */
    uint64_t first_probe_hits;  /* way prediction on: hit in the predicted bank */
    uint64_t second_probe_hits; /* way prediction on: hit found by the second probe */

    /* Memory side. */
    uint64_t fills;             /* physical lines read from memory */
    uint64_t fill_bursts;       /* read bursts (runs of consecutive missing lines) */
    uint64_t writebacks;        /* dirty physical lines written back by evictions */

    /* Time. cycles includes everything below it. */
    uint64_t cycles;            /* all cycles: accesses and reconfigurations */
    uint64_t reconfigs;         /* configuration changes that changed something */
    uint64_t reconfig_cycles;   /* cycles spent waking banks, walking and writing back */
    uint64_t walk_writebacks;   /* dirty lines written back by walks and cleans */
    uint64_t walk_invalidations;/* valid lines dropped by walks */
    uint64_t walk_rows;         /* rows visited by walks (R per walk) */
    uint64_t banks_woken;       /* banks powered up by reconfigurations */
} stc_counters;

/* The value a saturating counter of `bits` bits (1..64) shows. */
static inline uint64_t stc_counter_saturate(uint64_t value, unsigned bits)
{
    uint64_t max = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    return value > max ? max : value;
}

/* The value a counter the hardware derives as total - other part shows
 * (reads = accesses - writes, read_misses = misses - write_misses;
 * docs/ARCHITECTURE.md 9): `value` exactly while the total's counter of
 * `bits` bits is below all ones, all ones from then on (still an upper
 * bound, like a saturated counter). */
static inline uint64_t stc_counter_derived(uint64_t total, uint64_t value, unsigned bits)
{
    uint64_t max = stc_counter_saturate(UINT64_MAX, bits);
    return stc_counter_saturate(total, bits) == max ? max : value;
}

/* Add every field of from into into (for totals over I and D). */
void stc_counters_add(stc_counters *into, const stc_counters *from);

/* The events counted between an earlier snapshot and now, field by field. */
stc_counters stc_counters_since(const stc_counters *now, const stc_counters *earlier);

#endif
