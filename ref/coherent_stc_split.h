/*
 * coherent_stc_split.h - N coherent CONFIGURABLE caches on the
 * SPLIT-TRANSACTION bus: every core's D-cache is an stc_cache (cache.h) in
 * its own configuration, as in coherent_stc.h, kept coherent by the split
 * tables of coherence_protocol.h (stc_coh_sp_table) on the bus of
 * coherent_split.h (docs/COHERENCE.md section 12 is the definition; this
 * header is the API's manual).
 *
 * What is the split model's, unchanged (coherent_split.h; the code is
 * coherent_split.c's, driven through coherent_split_layer.h): requests
 * ordered by the bus, data on response channels and writebacks, memory's
 * bookkeeping, every row looked up in the table, the schedules (random,
 * serial) and seed, the checks (DATA, SWMR, IMPOSSIBLE, BUS, DEADLOCK), the
 * counters (stc_cs_counters) and miss classes told in the coherence order.
 *
 * What is coherent_stc.h's: the coherence unit is the PHYSICAL line
 * (geometry.line_bytes); a protocol state per physical-line slot beside
 * each cache; the cache's valid bit the truth for presence and its dirty
 * flag set exactly in M and O; a logical-line miss is n physical-line
 * transactions, the requested line by the processor row, the others
 * (siblings) by the Load row; lines fetched beside the requested one are
 * fills, not accesses.
 *
 * What is new (section 12):
 *   - processors are in order and BLOCKING, each cache has ONE outstanding
 *     request (a GetS or GetM, or without a writeback buffer a put);
 *   - a logical-line miss runs, one request at a time, each ordered (and
 *     a fetch answered) before the next is issued: first the VICTIMS (the
 *     rows of the logical line the victim bank would evict, found with
 *     stc_cache_miss_plan): each runs its Evict row, a put (M, O, E) is
 *     the outstanding request and the miss waits for its ordering (or,
 *     with a writeback buffer, the victim moves there), then the slot is
 *     dropped; then the missing physical lines: the siblings
 *     in ascending address order, the requested line LAST;
 *   - fetched lines wait in the core's FILL BUFFER (one entry per subline
 *     of the logical line), which the bus snoops like the cache: a GetM
 *     ordered for a line there takes it through the table's transient
 *     rows (IS^D to IS^D_I, S to I ...);
 *   - the processor's load or store performs when the requested line's
 *     row performs (its Own-Data, on the fill buffer's copy); the access
 *     completes, and the next reference may start, only when the logical
 *     line is INSTALLED: when every missing line is in the fill buffer with
 *     its transaction complete, one stc_cache_access fills the cache (its
 *     read bursts served from the fill buffer), then the lines the snoops
 *     took away are dropped (stc_cache_invalidate_slot);
 *   - the miss is re-planned at every step of it: a snoop that takes a
 *     present sibling, or frees a candidate (changing the victim bank),
 *     while the miss runs adds the transactions the cache's fill now
 *     needs;
 *   - an upgrade (a store to S or O: GetM) waits in its slot (SM^AD,
 *     OM^AD, still readable); if another GetM takes the copy (IM^AD) the
 *     slot is dropped and the request moves to the fill buffer: the access
 *     stays the hit it was counted and finishes as a miss of its logical
 *     line (its siblings fetched if absent, then installed).
 * Writeback buffer (config.wb_buffer > 0; coherent_split.h, COHERENCE.md
 * 10.11): a victim whose Evict row issues a put moves, with its state and
 * bytes, into the cache's writeback buffer (snooped; its puts ordered
 * oldest first) and the miss goes on at once; a victim that needs a put
 * while the buffer is full, and a line to fetch that waits in the buffer,
 * make the miss wait (a stall) until the buffer's oldest put is ordered.
 *
 * Reconfiguration is not modelled on this bus (section 12, still left).
 *
 * Under the SERIAL schedule every core's hits, misses, miss classes, GetS
 * (= BusRd), GetM (= BusRdX + BusUpgr) and puts less PutEs (= BusWB), and
 * the final memory after a flush, equal coherent_stc.h's fed the same
 * references (tests/test_coherent_stc_split.c).
 *
 * No global mutable state: everything lives in the stc_cspl_system.
 */
#ifndef STC_COHERENT_STC_SPLIT_H
#define STC_COHERENT_STC_SPLIT_H

#include "cache.h"
#include "coherent_split.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Deliberately broken variants, for tests that the checks catch them. */
enum {
    /* The bus does not snoop the fill buffer: a line fetched for a miss
     * keeps its state whatever is ordered for it before the install. */
    STC_CSPL_BREAK_FILL_NOT_SNOOPED = 1u << 0,
    /* A victim leaves without its Evict row: dropped silently, dirty or
     * owned, no put (memory keeps stale bytes and a stale owner). */
    STC_CSPL_BREAK_VICTIM_PUT_SKIPPED = 1u << 1,
};

typedef struct {
    unsigned cores;        /* 1 .. STC_COH_MAX_CORES */
    stc_geometry geometry; /* every cache's; must have passed stc_geometry_init */
    stc_config configs[STC_COH_MAX_CORES]; /* core c's configuration */
    stc_coh_protocol protocol;
    const stc_coh_sp_table *table; /* NULL: stc_coh_sp_table_of(protocol) */
    stc_cs_schedule schedule;
    uint64_t seed;
    uint32_t max_delay;      /* as stc_cs_config */
    uint32_t window;
    uint64_t watchdog_steps;
    /* Writeback buffer entries per cache, 0..STC_CS_MAX_WB_BUFFER (0, the
     * default: none; below, "Writeback buffer") */
    uint32_t wb_buffer;
    unsigned breaks;         /* 0, or STC_CSPL_BREAK_* bits (tests only) */
    stc_cs_done_fn *done;    /* may be NULL */
    void *done_context;
} stc_cspl_config;

/* One core's counters: the split bus's (per physical line; `stalls` also
 * counts block accesses that waited for a victim's put) and its cache's
 * own (cache.h; its `writebacks` stay 0: victims leave by their puts
 * before the fill, so the fill never writes back). */
typedef struct {
    stc_cs_counters coherence;
    stc_counters cache;
} stc_cspl_counters;

typedef struct stc_cspl_system stc_cspl_system;

/* A system in its reset state; NULL with a message in err for a bad
 * configuration (as stc_cs_create, a configuration illegal under the
 * geometry, a geometry whose logical line exceeds coherent_split.h's). */
stc_cspl_system *stc_cspl_create(const stc_cspl_config *config, char *err, size_t err_len);
void stc_cspl_destroy(stc_cspl_system *system);

/* As stc_cs_submit (size 1..line_bytes, the physical line). */
int stc_cspl_submit(stc_cspl_system *system, unsigned core, stc_coh_op op, uint64_t addr,
                    uint32_t size, uint64_t value, uint64_t tag);
/* Run until every submitted reference has performed and is installed. */
void stc_cspl_drain(stc_cspl_system *system);
/* After stc_cspl_drain: every valid line of every cache runs its Evict
 * row (M, O, E: a put, ordered, its data delivered; S: dropped), and the
 * caches end empty: memory must then equal the shadow. Counted like any
 * eviction (putm, pute, writebacks). */
void stc_cspl_flush(stc_cspl_system *system);

/* The split bus under the caches: its violations, steps, state_of,
 * memory and shadow reads (coherent_split.h), and, for hand-driven tests,
 * stc_cs_run. */
stc_cs_system *stc_cspl_bus(stc_cspl_system *system);
const stc_cs_system *stc_cspl_bus_of(const stc_cspl_system *system);
const stc_cache *stc_cspl_cache(const stc_cspl_system *system, unsigned core);

void stc_cspl_core_counters(const stc_cspl_system *system, unsigned core, stc_cspl_counters *out);
void stc_cspl_total(const stc_cspl_system *system, stc_cspl_counters *total);

/* Installs of logical lines (core's, or all cores' for core >= cores). */
uint64_t stc_cspl_installs(const stc_cspl_system *system, unsigned core);

/* The layer's invariants on every core: stc_cache_check; a slot is valid
 * exactly when its state is not I, holds the line its state is about and
 * the same bytes, and in a stable state is dirty exactly in M and O; the
 * fill buffer is empty when no miss runs. 0, or -1 with the first broken
 * one in err. */
int stc_cspl_check(const stc_cspl_system *system, char *err, size_t err_len);

#endif
