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
 * Reconfiguration (stc_cspl_reconfigure; COHERENCE.md 12.6): an operation
 * queued in the core's reference stream. It starts when it is the core's
 * oldest, so no miss or request of the core is outstanding; other cores go
 * on meanwhile. It asks the cache which valid lines its walk would drop
 * (stc_cache_walk_drops) and evicts them in the walk's order (rows, then
 * banks ascending), each by its Evict row: S dropped silently; M, O, E by
 * a put that is the core's outstanding request (the next line waits for
 * its ordering; the line answers snoops from its slot in MI^A, EI^A, OI^A
 * until then), or moves into the writeback buffer. Lines not yet walked
 * stay in their slots under the old configuration, snooped there. When no
 * line is left to drop the cache switches in one step
 * (stc_cache_reconfigure: wake, walk, sleep; its walk drops nothing valid,
 * a BUS violation otherwise), the 3C split's fully associative cache takes
 * the new size, and the core's next reference may start.
 *
 * Under the SERIAL schedule every core's hits, misses, miss classes, GetS
 * (= BusRd), GetM (= BusRdX + BusUpgr) and puts less PutEs (= BusWB), and
 * the final memory after a flush, equal coherent_stc.h's fed the same
 * references and reconfigurations (stc_cstc_reconfigure at the same
 * points; tests/test_coherent_stc_split.c).
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
    /* A reconfiguration's walk drops its lines without their Evict rows
     * (dirty or owned, no put). */
    STC_CSPL_BREAK_WALK_PUT_SKIPPED = 1u << 2,
    /* A reconfiguration switches the cache (the bank sleeps) as soon as
     * its walk's last put is issued, before the bus orders it: the put
     * then sends what the slept slot holds (without a writeback buffer). */
    STC_CSPL_BREAK_SLEEP_BEFORE_PUT = 1u << 3,
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
    uint64_t reconfigs; /* reconfigurations done (the cache switched) */
    uint64_t puts;      /* puts the walks issued (PutM and PutE, as putm counts) */
    uint64_t putes;     /* ... of them PutEs */
    uint64_t silent;    /* lines the walks dropped without a put (S, or I's break) */
    uint64_t waited;    /* reconfigurations that waited for a put's ordering or
                           for room in the writeback buffer (also in stalls) */
    uint64_t steps;     /* scheduler steps from each one's first step to its
                           switch (0 for one done in a single step) */
} stc_cspl_walk_counters;

typedef struct {
    stc_cs_counters coherence;
    stc_counters cache;
    stc_cspl_walk_counters walk; /* reconfigurations (below, "Reconfiguration") */
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

/* Queue a reconfiguration of core to next in its reference stream, after
 * the references submitted before (it waits for the window as a
 * reference does; below, "Reconfiguration"). -1 with stc_cs_error for a
 * bad core or an illegal configuration (nothing queued). */
int stc_cspl_reconfigure(stc_cspl_system *system, unsigned core, const stc_config *next);
/* Core's configuration now (the last reconfiguration done), or NULL. */
const stc_config *stc_cspl_config_of(const stc_cspl_system *system, unsigned core);

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
