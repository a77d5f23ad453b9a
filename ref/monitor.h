/*
 * monitor.h - the tuner's miss monitor: sampled shadow tags that give the
 * counters of every configuration from the same accesses
 * (docs/TUNING.md section 8).
 *
 * Why: a tuner that tries candidates one after another measures each in a
 * different part of the program, and real programs drift between windows
 * by more than the configurations differ (TUNING.md 6). The monitor
 * watches one stream and estimates all configurations at once.
 *
 * How: a configuration's misses depend on its set mapping (g = banks_on /
 * ways set groups of R / s rows each, with logical lines of s physical
 * lines) and on its ways. For each (g, s) the geometry allows, the
 * monitor keeps LRU stacks of B / g logical-line tags for a sample of the
 * sets and counts hits by depth: under LRU an a-way cache of that mapping
 * hits exactly the accesses found at depth < a (the stack property), and
 * way prediction's first probe hits exactly those at depth 0. Dirtiness is
 * kept per physical line and per depth, so the writebacks of every a come
 * out too. Since associativities are powers of two, hits are counted by
 * depth bucket (depth 0, 1, 2-3, 4-7, ...): log2(ways) + 1 hit counts a
 * mapping, plus log2(ways) + 1 writeback counts; all mappings share one
 * count of watched accesses (the estimate's accesses). A mapping's misses
 * need no count of their own: every watched access is a hit at some depth
 * or a miss, so an a-way cache misses the watched accesses less the hits
 * at depths below a (ARCHITECTURE.md 17.2).
 *
 * Sampling: an access is watched if address bits [lo, lo + sample_bits)
 * are zero, with lo = log2(line_bytes * 4) (the widest logical line).
 * Those bits lie inside the set index of every mapping, so each watched
 * set sees all of its lines and its stack is exact; 1 / 2^sample_bits of
 * the sets of every mapping are watched. sample_bits is at most
 * log2(bank_bytes) - lo.
 *
 * Rotation (hardware-sized monitors): a monitor that stores only the
 * watched sets must watch a fixed sample, and a fixed sample is biased on
 * programs whose hot data sits at aligned addresses (TUNING.md 8: bsearch).
 * With rotate_every > 0 the watched group (the value those sample bits
 * must have) moves every rotate_every observed accesses through all
 * 2^sample_bits groups (group' = 5 group + 3 mod 2^sample_bits, a full
 * cycle). Counts accumulate across groups.
 *
 * Inheritance (the default): when the group moves, the stacks stay. The
 * storage has one row per watched set without the sample bits, so the new
 * group's set on a row starts with the entries the old group's set on that
 * row left: its neighbour's lines, compared on the same tag bits. Why:
 * emptied stacks make the first accesses of every group cold misses in
 * every mapping, and a mapping with longer lines has fewer distinct lines
 * to miss, so empty stacks bias every estimate toward long lines
 * (docs/TUNING.md 6: djpeg's I-cache); a neighbour's lines are usually the
 * same program objects one set over, close to the warm state the real
 * cache has. With empty_on_rotate every stack is emptied instead (and the
 * clear walk runs again): each epoch is then exactly a fresh cache's
 * (tests/test_monitor.c), at the price of that bias.
 *
 * Repeats: consecutive watched accesses to one physical line (most of an
 * I-cache's fetches) are depth-0 hits in every stack; hardware counts them
 * without touching the arrays (stc_monitor_array_accesses).
 *
 * Partial tags: with tag_bits > 0 an entry matches on tag_bits bits of the
 * logical line number above the set index only (aliases count as hits),
 * as a shadow array of that many tag bits would.
 *
 * Bounded counts: with counter_bits > 0 every count is halved when one
 * reaches 2^counter_bits, as saturating hardware counters would have to.
 *
 * Clear walk (hardware): SRAM arrays are not reset and cannot be emptied
 * at once, so after creation (and after every rotation that empties the
 * stacks) the next R observed
 * accesses (R: the rows of the largest array) are not watched; in the
 * cycle of the i-th of them the hardware writes row i of every array
 * empty (docs/ARCHITECTURE.md section 17).
 */
#ifndef STC_MONITOR_H
#define STC_MONITOR_H

#include "config.h"
#include "counters.h"
#include "geometry.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct stc_monitor stc_monitor;

/* The shape hardware can afford (docs/TUNING.md 8.1): the defaults of
 * `stcsim tune --search monitor` and of the generated monitor. */
enum {
    STC_MONITOR_DEFAULT_SAMPLE_BITS = 2,    /* a quarter of the sets */
    /* 20480 and 6 (were 16384 and 8) with the decision's margin 7: the
     * 19 real traces' worst loss 9.6 -> 6.4 % (TUNING.md 8.1, 2026-12-07) */
    STC_MONITOR_DEFAULT_ROTATE = 20480,     /* observed accesses per group */
    STC_MONITOR_DEFAULT_TAG_BITS = 6,
    /* 14, not the tuner's 16: halving 4 times as often forgets the start-up
     * code sooner, and 92 fewer flops (TUNING.md 8.1, measured 2026-12-07). */
    STC_MONITOR_DEFAULT_COUNTER_BITS = 14
};

/* Largest sample_bits the geometry allows: the set-index bits every
 * mapping shares (0 if there are none: then every access is watched). */
unsigned stc_monitor_max_sample_bits(const stc_geometry *geometry);

/* What the monitor watches and stores. */
typedef struct {
    unsigned sample_bits;  /* 1 / 2^sample_bits of the sets watched at a time */
    uint64_t rotate_every; /* observed accesses between moves of the watched
                              group; 0: the group of zero bits, always
                              (nothing moves when sample_bits is 0) */
    unsigned tag_bits;     /* bits of a stored tag; 0: whole line numbers */
    bool read_only;        /* an I-cache's: stores no dirty state (writes are
                              refused by the cache before they get here) */
    unsigned counter_bits; /* width of every count; when one reaches
                              2^counter_bits all are halved (0: unbounded) */
    bool clear_walk;       /* the hardware's clear walk (above) */
    bool empty_on_rotate;  /* empty the stacks when the group moves instead of
                              letting the next group inherit them (above) */
} stc_monitor_shape;

/* A monitor with empty stacks. Returns NULL with a message if sample_bits
 * is above stc_monitor_max_sample_bits, tag_bits above 32 or counter_bits
 * outside 0 or 2..32. */
stc_monitor *stc_monitor_create(const stc_geometry *geometry, const stc_monitor_shape *shape,
                                char *err, size_t err_len);
void stc_monitor_destroy(stc_monitor *monitor);

/* One access to the physical line holding addr (a request split at
 * physical-line boundaries is one call per piece); write: it stores. */
void stc_monitor_observe(stc_monitor *monitor, uint64_t addr, bool write);

/* The storage a hardware monitor of this shape holds: one array per set
 * mapping, a row per watched set with its `ways` entries (valid, tag,
 * per physical line the dirty_from value: the smallest associativity whose
 * cache holds it dirty, 1..ways+1). A row is read, compared and written
 * back on every watched access. */
typedef struct {
    unsigned rows;         /* watched sets */
    unsigned row_bits;     /* ways x (1 + tag bits + sublines x dirty_from bits) */
    unsigned compare_bits; /* ways x tag bits */
} stc_monitor_array;

/* Fill up to max arrays; returns how many the monitor has (at most
 * STC_MONITOR_MAX_ARRAYS). */
enum { STC_MONITOR_MAX_ARRAYS = STC_LINE_SIZES * 6 }; /* 6: group counts 1..STC_MAX_BANKS */
size_t stc_monitor_arrays(const stc_monitor *monitor, stc_monitor_array *arrays, size_t max);

/* Watched accesses since creation, and those of them that read and wrote
 * the arrays: an access to the physical line the previous watched access
 * touched is at depth 0 of every stack, so it only counts (a store
 * writes the arrays once, to mark the line dirty, unless a store to that
 * line already did). */
uint64_t stc_monitor_lookups(const stc_monitor *monitor);
uint64_t stc_monitor_array_accesses(const stc_monitor *monitor);
/* Of those, the ones that wrote array `array` (stc_monitor_arrays' order)
 * back: a depth-0 hit that leaves the line's dirty state as it was leaves
 * the row unchanged, and the hardware skips its write (ARCHITECTURE.md
 * 17.3). 0 for an index beyond the arrays. */
uint64_t stc_monitor_row_writes(const stc_monitor *monitor, size_t array);

/* Observed accesses the clear walk leaves unwatched after creation and
 * after each rotation: the rows of the largest array (0 without the walk). */
unsigned stc_monitor_clear_rows(const stc_monitor *monitor);

/* Every count in the hardware's order (docs/ARCHITECTURE.md section 17,
 * stc_monitor's cnt_sel_i): watched accesses, then per mapping (sublines
 * 1, 2, 4 outer, set groups 1 .. banks inner) its hits by depth bucket
 * (log2 ways + 1 of them) and its writebacks by associativity bucket
 * (log2 ways + 1). Fills up to max; returns how many there are. */
size_t stc_monitor_counts(const stc_monitor *monitor, uint64_t *counts, size_t max);

/* Where one configuration's counts sit in stc_monitor_counts' order: what
 * the hardware decision reads (docs/ARCHITECTURE.md section 18). */
enum { STC_MONITOR_MAX_HIT_TERMS = 6 }; /* the hit buckets of up to 32 ways */
typedef struct {
    /* The configuration's misses are count 0 (watched accesses) less these
     * counts: its mapping's hit buckets at depths below its ways,
     * shallowest first. */
    unsigned hit_terms;
    unsigned hits[STC_MONITOR_MAX_HIT_TERMS];
    unsigned first_probe_hits; /* the mapping's depth-0 bucket */
    unsigned writebacks;       /* the mapping's writebacks of an a-way cache */
} stc_monitor_count_map;

/* Fill *map for config (legal for the geometry). Returns -1 if the monitor
 * has no mapping for it. Count 0 is always the watched accesses. */
int stc_monitor_count_map_of(const stc_monitor *monitor, const stc_config *config,
                             stc_monitor_count_map *map);

/* Watched accesses since creation or the last decay. */
uint64_t stc_monitor_watched(const stc_monitor *monitor);

/* What config would have counted on the watched accesses, as the cache
 * model counts them in steady state: accesses, misses, first_probe_hits
 * (way prediction), writebacks, fills and bursts (one burst of the whole
 * logical line per miss), and cycles (probes, miss and writeback memory
 * and controller cycles). config must be legal for the geometry. */
void stc_monitor_estimate(const stc_monitor *monitor, const stc_config *config,
                          stc_counters *estimate);

/* Halve every count (shift right by `shift`), keeping the stacks: the
 * estimate then weighs recent accesses more. shift 0 does nothing. */
void stc_monitor_decay(stc_monitor *monitor, unsigned shift);

#endif
