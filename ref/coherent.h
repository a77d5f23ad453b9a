/*
 * coherent.h - a coherent multi-core system on an ATOMIC snooping bus,
 * driven by the protocol tables of coherence_protocol.h (docs/COHERENCE.md
 * section 9 is the definition; this header is the API's manual).
 *
 * The system
 * ----------
 * N cores (1..STC_COH_MAX_CORES), each with a private write-back,
 * write-allocate, write-invalidate D-cache. Every cache has the same
 * geometry: size_bytes, ways, line_bytes (set-associative, true LRU; the
 * victim is the lowest-numbered invalid way, else the least recently used,
 * as ARCHITECTURE.md section 5). A line is a coherence block. One shared
 * atomic bus in call order: each access completes, with its bus transaction
 * and every snoop, before the next starts. One memory.
 *
 * The protocol is a table (MSI, MESI, MOESI, or a caller's edited copy).
 * The simulator looks rows up and does what they say; it has no
 * per-protocol code:
 *   1. the requesting cache's state for the block (I if absent) and the
 *      processor row (state, Load|Store): hit or miss, bus transaction,
 *      next states;
 *   2. on a miss the frame's victim (if valid) first takes its Evict row;
 *      if that row issues BusWB the victim's data goes to memory and the
 *      BusWB is broadcast like any transaction;
 *   3. the transaction (if any) is broadcast: every other cache probes its
 *      tags (one snoop lookup each; with a snoop filter, only the caches
 *      whose filter does not know the block absent, see below), and every
 *      one holding a valid copy
 *      applies its snoop row: supplies (cache-to-cache), flushes (memory :=
 *      its copy), asserts the shared line, next state;
 *   4. BusRd / BusRdX bring data: from the supplier, else from memory as it
 *      was before the transaction (COHERENCE.md section 2.4);
 *   5. the requester takes next_shared if a snooper asserted the shared
 *      line, else next_alone; then the load reads / the store writes.
 *
 * Data and checks
 * ---------------
 * Every cache line and memory hold real bytes (memory starts all zero), and
 * a shadow memory holds the last store to every byte in bus order. A load
 * must return the shadow's bytes; a mismatch is recorded as a DATA
 * violation (core, address, expected, got). After every access the touched
 * block is checked for single-writer / multiple-reader (SWMR): at most one
 * M, an M or E copy excludes every other valid copy, at most one O.
 * Two suppliers for one transaction, and an impossible row reached, are
 * violations too. Violations are recorded and counted, never aborted on;
 * the run goes on.
 *
 * Stores carry a 64-bit value: byte i of the store is byte (i mod 8) of the
 * value, little-endian. A caller that wants the data check to mean
 * something gives every store a different value (stcsim coherence uses a
 * hash of a running counter).
 *
 * References and accesses
 * -----------------------
 * A reference (stc_coh_access) covers [addr, addr + size), size 1 ..
 * line_bytes; it may straddle two blocks, and is then two block accesses in
 * ascending order. `references`, `loads`, `stores` count references;
 * `hits` and `misses` count block accesses (hits + misses >= references).
 * Addresses are full 64-bit. Memory use grows with the number of distinct
 * blocks touched (memory, shadow and per-block bookkeeping are kept for each).
 *
 * Miss classes (per core, per missing block access; exactly one each, so
 * misses = compulsory + true_sharing + false_sharing + capacity + conflict):
 *   compulsory     the first access of this core to the block;
 *   coherence      this core's last copy of the block was invalidated by a
 *                  snoop (and not re-fetched since); split, word-granular
 *                  (4-byte words), at the time of the miss:
 *       true_sharing  some word this access touches was written by another
 *                     core since this core's copy was invalidated (the
 *                     invalidating store included): with one-word blocks
 *                     the miss would still have happened;
 *       false_sharing no word it touches was: the miss is an artefact of
 *                     the block being larger than a word;
 *   replacement    otherwise (the copy was evicted); split (3C) by a fully
 *                  associative true-LRU cache of the same number of lines
 *                  run per core on the same accesses (its copies are
 *                  dropped by the same invalidations):
 *       conflict      that cache would have hit;
 *       capacity      it would have missed too.
 * A store to a valid S (or O) copy is a hit that issues BusUpgr: counted
 * in `hits` and `upgrades`, not a miss.
 *
 * The coherence misses are split a second time, after Dubois, Skeppstedt,
 * Ricciulli, Ramamurthy and Stenstrom (ISCA 1993), over the LIFETIME the
 * miss starts instead of at the miss (miss_true_dubois + miss_false_dubois
 * = miss_true_sharing + miss_false_sharing, per core, at any time):
 *   lifetime       of core c's copy of a block: from the miss that fetches
 *                  it to its invalidation or eviction (or the end of the run);
 *   new words      those written by other cores since c's last essential
 *                  miss: its last compulsory miss, or the miss of its last
 *                  lifetime (of any class) that touched a new word. A
 *                  lifetime that touches none leaves its new words new;
 *       true_dubois   (essential) the lifetime the coherence miss starts
 *                     touches a new word, by a load or a store, the missing
 *                     access included;
 *       false_dubois  (useless) it touches none.
 * Every at-miss true_sharing miss is true_dubois (miss_true_dubois >=
 * miss_true_sharing); a false_sharing miss whose lifetime later touches a
 * new word, or whose touched word was written before an earlier useless
 * lifetime, is true_dubois. The counters are final whenever read: a
 * coherence miss counts as false_dubois until its lifetime touches a new
 * word, so a lifetime still open is classified by the accesses it has had
 * (as if the run ended there); no closing call is needed.
 *
 * Snoop filter (optional; snoop_filter.h, docs/COHERENCE.md 9.8)
 * ------------
 * config.snoop_filter of kind STC_SF_EXCLUDE gives every cache an exclude
 * filter: a snoop the filter answers "absent" skips the tag probe (it is
 * not a snoop_lookup, it counts in the filter's snoops_filtered); a probe
 * that misses is recorded in the filter; a fill clears its block there.
 * Nothing else changes: every other counter, state and byte is the same as
 * without the filter. SAFETY is checked at every filtered snoop against
 * the cache's tags: a filtered snoop of a block the cache holds is a bug of
 * the filter, and the model prints what happened on stderr and aborts.
 *
 * No global mutable state: everything lives in the stc_coh_system.
 */
#ifndef STC_COHERENT_H
#define STC_COHERENT_H

#include "coherence_protocol.h"
#include "coherent_cycles.h"
#include "snoop_filter.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    STC_COH_MAX_CORES = 8,
    STC_COH_MAX_LINE = 256, /* bytes: 64 words of 4 bytes (a 64-bit mask) */
    STC_COH_WORD_BYTES = 4,
    STC_COH_VIOLATIONS_KEPT = 16 /* the first ones are kept with their text */
};

typedef struct {
    unsigned cores;        /* 1 .. STC_COH_MAX_CORES */
    uint32_t size_bytes;   /* per cache; size / (ways * line) sets, a power of two */
    uint32_t ways;         /* >= 1 */
    uint32_t line_bytes;   /* power of two, 4 .. STC_COH_MAX_LINE */
    stc_coh_protocol protocol;
    /* NULL: stc_coh_table_of(protocol). Else the caller's table (e.g. an
     * edited copy, stc_coh_table_apply_break), copied at creation; it must
     * pass stc_coh_table_check. */
    const stc_coh_table *table;
    /* All zero (kind STC_SF_NONE): no filter, every cache probes every
     * snoop. Else every cache gets one of these (snoop_filter.h). */
    stc_sf_config snoop_filter;
} stc_coh_config;

/* Per-core counters. "Issued" counts belong to the requester, "received"
 * or snoop counts to the snooper. */
typedef struct {
    uint64_t references;     /* loads + stores (stc_coh_access calls) */
    uint64_t loads;
    uint64_t stores;
    uint64_t fetches;        /* instruction fetches: counted only (stc_coh_fetch) */
    uint64_t hits;           /* block accesses whose processor row says hit */
    uint64_t misses;         /* block accesses whose processor row says miss */
    uint64_t upgrades;       /* BusUpgr issued */
    uint64_t bus_rd;         /* BusRd issued */
    uint64_t bus_rdx;        /* BusRdX issued */
    uint64_t bus_wb;         /* BusWB issued (eviction of a copy whose Evict row says so) */
    uint64_t inv_sent;       /* other cores' valid copies this core's transactions invalidated */
    uint64_t inv_received;   /* this core's valid copies invalidated by a snoop */
    uint64_t c2c_supplied;   /* snoop rows that supplied data from this core */
    uint64_t c2c_received;   /* BusRd/BusRdX of this core answered by another cache */
    uint64_t mem_reads;      /* BusRd/BusRdX of this core answered by memory */
    uint64_t flushes;        /* snoop rows that wrote this core's copy to memory */
    uint64_t mem_writebacks; /* writes of this core's data to memory: bus_wb + flushes */
    uint64_t snoop_lookups;  /* tag probes for other cores' transactions (every one) */
    uint64_t miss_compulsory;
    uint64_t miss_true_sharing;
    uint64_t miss_false_sharing;
    uint64_t miss_capacity;
    uint64_t miss_conflict;
    uint64_t miss_true_dubois;  /* coherence misses split over their lifetime (above) */
    uint64_t miss_false_dubois;
} stc_coh_counters;

/* The counters as a list, for printing: names are the field names above. */
enum { STC_COH_COUNTER_COUNT = 25 };
const char *stc_coh_counter_name(unsigned index);
uint64_t stc_coh_counter_value(const stc_coh_counters *counters, unsigned index);
/* sum += part, counter by counter (the models' totals). */
void stc_coh_counters_add(stc_coh_counters *sum, const stc_coh_counters *part);

typedef enum {
    STC_COH_VIOL_DATA,       /* a load returned other bytes than the last store's */
    STC_COH_VIOL_SWMR,       /* two writers, or a writer and a reader, of one block */
    STC_COH_VIOL_SUPPLIERS,  /* more than one cache supplied one transaction */
    STC_COH_VIOL_IMPOSSIBLE, /* a row marked impossible was reached */
    STC_COH_VIOL_KIND_COUNT
} stc_coh_violation_kind;

typedef struct {
    stc_coh_violation_kind kind;
    unsigned core;       /* the requesting core */
    uint64_t reference;  /* 0-based index of the reference (stc_coh_access call) */
    uint64_t addr;       /* DATA: the first differing byte; others: the block's first byte */
    uint64_t expected;   /* DATA: up to 8 bytes from addr, little-endian, per the shadow */
    uint64_t got;        /* DATA: the same bytes as the load returned them */
    char text[200];      /* one line, e.g. "data: core 1 load 0x40 reference 7: expected 0x.. got 0x.." */
} stc_coh_violation;

typedef enum { STC_COH_OP_LOAD, STC_COH_OP_STORE } stc_coh_op;

typedef struct stc_coh_system stc_coh_system;

/* A system in its reset state (every cache empty, memory zero). NULL with a
 * message in err for a bad configuration or a table failing its check. */
stc_coh_system *stc_coh_create(const stc_coh_config *config, char *err, size_t err_len);
void stc_coh_destroy(stc_coh_system *system);

/* One reference of core: a load or store of size bytes at addr (store:
 * value, see above). loaded (may be NULL) receives the first min(size, 8)
 * bytes the load returned, little-endian. Returns 0 (violations are
 * recorded, not returned), or -1 with stc_coh_error for a bad argument
 * (core >= cores, size 0 or above the line, bad op); nothing changes then. */
int stc_coh_access(stc_coh_system *system, unsigned core, stc_coh_op op, uint64_t addr,
                   uint32_t size, uint64_t value, uint64_t *loaded);

/* Count an instruction fetch of core (fetches do not enter the D-caches). */
int stc_coh_fetch(stc_coh_system *system, unsigned core);

/* The message of the last -1. */
const char *stc_coh_error(const stc_coh_system *system);

/* The counters of core after the references done so far, every one final
 * (the Dubois pair included: see above). */
const stc_coh_counters *stc_coh_core_counters(const stc_coh_system *system, unsigned core);
/* The sum over all cores. */
void stc_coh_total(const stc_coh_system *system, stc_coh_counters *total);

/* The snoop filter counters of core's cache, or NULL if the system has no
 * filter (or core >= cores); and their sum over all cores (zero without a
 * filter). */
const stc_sf_counters *stc_coh_filter_counters(const stc_coh_system *system, unsigned core);
void stc_coh_filter_total(const stc_coh_system *system, stc_sf_counters *total);

/* Violations: how many (all, or of one kind), and the first
 * STC_COH_VIOLATIONS_KEPT in order (index < min(count, KEPT), else NULL). */
uint64_t stc_coh_violation_count(const stc_coh_system *system);
uint64_t stc_coh_violation_kind_count(const stc_coh_system *system, stc_coh_violation_kind kind);
const stc_coh_violation *stc_coh_violation_at(const stc_coh_system *system, unsigned index);
const char *stc_coh_violation_kind_name(stc_coh_violation_kind kind); /* "data" "swmr" "suppliers" "impossible" */

/* Inspection, for tests: the state of addr's block in core's cache (I if
 * absent), and up to 8 bytes at addr (little-endian; size 1..8, within one
 * block) as memory holds them and as the shadow (last store) does. */
stc_coh_state stc_coh_state_of(const stc_coh_system *system, unsigned core, uint64_t addr);
uint64_t stc_coh_memory_read(const stc_coh_system *system, uint64_t addr, uint32_t size);
uint64_t stc_coh_shadow_read(const stc_coh_system *system, uint64_t addr, uint32_t size);

/* Cycles (coherent_cycles.h; docs/COHERENCE.md 9.10): every core's clock
 * after the references done so far (NULL for core >= cores), the run's
 * (the latest clock, the bus's busy cycles), and the bus's timing: T the
 * default geometry's memory latency, P/W = line_bytes / 4. A hit costs 1
 * cycle, a miss the single-cache model's cycles with the bus in place of
 * its fixed-latency memory. Fetches take no cycles (no I-cache is
 * modelled). */
const stc_coh_core_cycles *stc_coh_core_cycles_of(const stc_coh_system *system, unsigned core);
void stc_coh_run_cycles_of(const stc_coh_system *system, stc_coh_run_cycles *run);
const stc_coh_bus_timing *stc_coh_timing_of(const stc_coh_system *system);
/* How often each row of the table ran so far (coherence_protocol.h). */
const stc_coh_row_uses *stc_coh_row_uses_of(const stc_coh_system *system);

const stc_coh_config *stc_coh_config_of(const stc_coh_system *system);

#endif
