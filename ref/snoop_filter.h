/*
 * snoop_filter.h - an exclude snoop filter per cache, after JETTY's
 * exclude-JETTY (Moshovos, Memik, Falsafi, Choudhary, HPCA 2001), for the
 * coherent models on the atomic bus (coherent.h, docs/COHERENCE.md 9.8 is
 * the definition; coherent_stc.h, 11.10, where a block is the physical
 * line and every physical line a fill brings counts as a fill).
 *
 * The filter
 * ----------
 * A small set-associative table beside one cache, of `sets` x `ways`
 * entries. An entry covers a group of `blocks` consecutive blocks (a power
 * of two, aligned): a tag (the group number) and one bit per block of the
 * group, set when that block is KNOWN ABSENT from this cache; an entry
 * with no bit set is free. The set is the group number mod sets;
 * replacement is true LRU (the least recently used entry of the set, after
 * the lowest-numbered free one).
 *
 * When it is read and written (the whole contract):
 *   - every snoop of this cache (another core's transaction, BusWB
 *     included) first reads the filter (stc_sf_snoop): if the block's
 *     entry is there with the block's bit set, the snoop is FILTERED: the
 *     cache's tags are not probed (the entry becomes most recent: a write
 *     of the LRU bits, when ways > 1); else the tags are probed;
 *   - a probe that finds no valid copy records the block as absent
 *     (stc_sf_probe_missed): its bit is set in its group's entry, which is
 *     allocated (replacing the set's LRU entry) if there is none; a write;
 *   - every fill of this cache (a frame takes a block, on a miss) reads
 *     the filter (stc_sf_fill) and, if the block's bit is set, clears it
 *     (a write): from then on a snoop of the block probes the tags.
 * Evictions and invalidations need nothing: a block that leaves the cache
 * becomes absent, and an absent block without a bit merely gets probed.
 *
 * Safety: a bit is set only when the tags were just probed and held no
 * valid copy, and the only way a block enters the cache is a fill, which
 * clears its bit first. So a block whose bit is set is absent, and a
 * filtered snoop would have found no valid copy: every table's I rows do
 * nothing, so skipping it changes nothing. The coherent model checks this
 * at every filtered snoop against its own tag lookup and aborts if it
 * fails (stc_sf_abort_unsafe); `broken` below makes a filter that fails it, for the
 * test that shows the check fires.
 *
 * The counters belong to one cache (one core); snoop_lookups in
 * stc_coh_counters stays the tag probes actually made, so with a filter
 * snoop_lookups + snoops_filtered = the snoops of the unfiltered system.
 */
#ifndef STC_SNOOP_FILTER_H
#define STC_SNOOP_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { STC_SF_NONE = 0, STC_SF_EXCLUDE } stc_sf_kind;

/* For tests only: a deliberately broken filter. */
typedef enum {
    STC_SF_SOUND = 0,
    STC_SF_BREAK_KEEP_ON_FILL /* a fill does not clear the block's bit: unsafe */
} stc_sf_break;

enum {
    /* the default (COHERENCE.md 9.8: on the 4-thread kernels it removes as
     * many would-miss snoops as 32x4 and costs a fifth of its energy) */
    STC_SF_DEFAULT_SETS = 16,
    STC_SF_DEFAULT_WAYS = 1,
    STC_SF_DEFAULT_BLOCKS = 2,
    STC_SF_MAX_SETS = 4096,
    STC_SF_MAX_WAYS = 16,
    STC_SF_MAX_BLOCKS = 8
};

/* All zero: no filter. */
typedef struct {
    stc_sf_kind kind;
    uint32_t sets;   /* a power of two, 1..STC_SF_MAX_SETS */
    uint32_t ways;   /* 1..STC_SF_MAX_WAYS */
    uint32_t blocks; /* blocks per entry, a power of two, 1..STC_SF_MAX_BLOCKS */
    stc_sf_break broken;
} stc_sf_config;

typedef struct {
    uint64_t snoops_filtered; /* snoops answered "absent": no tag probe */
    uint64_t snoop_misses;    /* tag probes that found no valid copy (each recorded) */
    uint64_t filter_lookups;  /* reads of a filter set: one per snoop, one per fill */
    uint64_t filter_writes;   /* writes: an absent block recorded, a filled block's bit
                                 cleared, the LRU bits of a filtered snoop (ways > 1) */
} stc_sf_counters;

/* The counters as a list, for printing: names are the field names above. */
enum { STC_SF_COUNTER_COUNT = 4 };
const char *stc_sf_counter_name(unsigned index);
uint64_t stc_sf_counter_value(const stc_sf_counters *counters, unsigned index);
void stc_sf_counters_add(stc_sf_counters *sum, const stc_sf_counters *part);

/* "none", "exclude" (the defaults above) or "exclude:SETSxWAYS[:BLOCKS]"
 * (BLOCKS 1 if not given), e.g. "exclude:16x2:4". Returns 0, or -1 with a message naming the bad
 * part. */
int stc_sf_parse(const char *text, stc_sf_config *config, char *err, size_t err_len);
/* 0 if config is none or a valid filter, else -1 with a message. */
int stc_sf_check(const stc_sf_config *config, char *err, size_t err_len);
/* e.g. "exclude 32x4, 1 block per entry"; "none". */
void stc_sf_describe(const stc_sf_config *config, char *text, size_t len);

/* The bits of one row (a set) of the filter's array for blocks of
 * line_bytes and addr_bits-bit addresses: per way a tag and `blocks` bits,
 * and the set's LRU state (ways x log2(ways) bits); tag_bits is one way's
 * tag. */
void stc_sf_row_bits(const stc_sf_config *config, unsigned line_bytes, unsigned addr_bits,
                     unsigned *row_bits, unsigned *tag_bits, unsigned *lru_bits);

typedef struct stc_sf stc_sf;

/* An empty filter (every snoop probes), or NULL (bad config, no memory). */
stc_sf *stc_sf_create(const stc_sf_config *config);
void stc_sf_destroy(stc_sf *filter);

/* A snoop of block: true if the filter knows it absent (skip the probe). */
bool stc_sf_snoop(stc_sf *filter, uint64_t block);
/* The probe of a snoop found no valid copy of block. */
void stc_sf_probe_missed(stc_sf *filter, uint64_t block);
/* The cache takes block into a frame. */
void stc_sf_fill(stc_sf *filter, uint64_t block);

const stc_sf_counters *stc_sf_counters_of(const stc_sf *filter);

/* The safety check failed (a model found, with its own uncounted look at
 * the tags, that core's cache holds the block its filter just answered
 * "absent" for): prints on stderr "stc coherent: snoop filter unsafe
 * (FILTER): reference R, core REQUESTER's BUS of block 0xADDR filtered out
 * at core CORE, which holds it in STATE" and aborts. A filter that does
 * this loses invalidations and supplies, so nothing after it would mean
 * anything. Both coherent models on the atomic bus call it (coherent.h,
 * coherent_stc.h); names are passed as text so that this file needs
 * neither model. */
_Noreturn void stc_sf_abort_unsafe(const stc_sf_config *config, uint64_t reference,
                                   unsigned requester, const char *bus_name, uint64_t block_addr,
                                   unsigned core, const char *state_name);

#endif
