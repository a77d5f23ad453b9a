/*
 * coherent_stc.h - N coherent CONFIGURABLE caches: every core's D-cache is
 * an stc_cache (cache.h) in its own configuration, kept coherent on the
 * ATOMIC snooping bus of coherent.h by the protocol tables of
 * coherence_protocol.h (docs/COHERENCE.md section 11 is the definition;
 * this header is the API's manual).
 *
 * The coherence unit is the PHYSICAL line (geometry.line_bytes), not the
 * logical line: cores may run different configurations, so their logical
 * lines differ, while every core's physical line is the same. So:
 *   - every physical-line slot of every cache has a protocol state, kept
 *     here beside the cache (the cache's slot validity is the truth for
 *     presence: a valid slot has a state other than I, an invalid one I);
 *   - a miss fetches the missing physical lines of the logical line (the
 *     cache's own fill, ARCHITECTURE.md section 6): each one is a block
 *     transaction on the bus, in ascending address order, the requested
 *     line by the processor row of the access (a store miss: BusRdX), the
 *     others by the Load row (BusRd), each snooped and answered on its own;
 *   - the victim lines a fill evicts take their Evict row first (M, O:
 *     written back by a BusWB; S, E: dropped), in the cache's order;
 *   - a store to one physical line invalidates only that physical line in
 *     other caches: false sharing is per physical line.
 * The cache's dirty flag mirrors "memory is stale": set exactly in M and O.
 * A snoop row that leaves a copy valid sets the flag from its next state
 * (a flush or a demotion of M to S clears it); one that invalidates drops
 * the slot (stc_cache_invalidate_slot).
 *
 * A reference (stc_cstc_access) covers [addr, addr + size), size 1 ..
 * line_bytes (the physical line); one that straddles two physical lines
 * is two block accesses in ascending order, each one stc_cache_access.
 * Addresses are taken modulo 2^geometry.addr_bits, as the cache takes them.
 *
 * Reconfiguration of one core (stc_cstc_reconfigure) runs the cache's own
 * change (wake, walk, sleep, ARCHITECTURE.md section 7): a line the walk
 * drops takes its Evict row (M, O: the walk's writeback is a BusWB on the
 * bus; S, E: dropped silently). Other cores' caches are untouched.
 *
 * Data, checks, counters and miss classes are coherent.h's, per physical
 * line (coherence_book.h holds them for both models): a load must return
 * the shadow's bytes (DATA), every touched physical line is SWMR-checked
 * after each access (the accessed line and every line the access
 * fetched), two suppliers and impossible rows are violations. The 3C
 * split's fully associative cache has as many physical lines as the
 * core's configuration (resized when the core is reconfigured). Lines a
 * fill brings besides the requested one are not accesses: they count in
 * bus_rd (and the cache's fills), not in hits, misses or the classes.
 *
 * With every core in a configuration whose logical line is the physical
 * line, the system behaves exactly as coherent.h's with size banks_on x
 * bank_bytes, ways, line_bytes: the same counters and memory
 * (tests/test_coherent_stc.c checks it on random traffic).
 *
 * Snoop filter (optional; snoop_filter.h, docs/COHERENCE.md 11.10)
 * ------------
 * config.snoop_filter of kind STC_SF_EXCLUDE gives every cache coherent.h's
 * exclude filter, its block the PHYSICAL line (the coherence unit, the
 * same in every core whatever its configuration):
 *   - a snoop the filter answers "absent" skips the tag probe (it is not a
 *     snoop_lookup; it counts in the filter's snoops_filtered);
 *   - a probe that finds no valid copy records the physical line absent;
 *   - every physical line a fill brings clears its bit before its
 *     transaction: the requested line and every sibling of a logical-line
 *     fill, refetches of sublines a snoop invalidated included (every line
 *     enters the cache through the cache's read burst, and only there);
 *   - a reconfiguration leaves the filter as it is: its walk only keeps
 *     lines where they are or drops them, and woken banks come up empty,
 *     so no line becomes present and every bit stays true.
 * Nothing else changes: every other counter, state, byte and cycle is the
 * same as without the filter (a snoop's tag probe takes no cycles,
 * 11.9). SAFETY is checked at every filtered snoop: the model looks the
 * line up in the cache's tags (uncounted) and, if the cache holds it,
 * prints what happened on stderr and aborts (stc_sf_abort_unsafe).
 */
#ifndef STC_COHERENT_STC_H
#define STC_COHERENT_STC_H

#include "cache.h"
#include "coherent.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Deliberately broken variants, for tests that the checks catch them. */
enum {
    /* A line a reconfiguration walk writes back leaves without its BusWB:
     * memory keeps its stale bytes. */
    STC_CSTC_BREAK_WALK_NO_WRITEBACK = 1u << 0,
    /* A snoop row that invalidates takes the state to I but leaves the
     * cache's slot valid. */
    STC_CSTC_BREAK_SNOOP_KEEPS_SLOT = 1u << 1,
};

typedef struct {
    unsigned cores;          /* 1 .. STC_COH_MAX_CORES */
    stc_geometry geometry;   /* every cache's; must have passed stc_geometry_init */
    stc_config configs[STC_COH_MAX_CORES]; /* core c's starting configuration */
    stc_coh_protocol protocol;
    const stc_coh_table *table; /* NULL: stc_coh_table_of(protocol); else copied, checked */
    unsigned breaks;            /* 0, or STC_CSTC_BREAK_* bits (tests only) */
    /* All zero (kind STC_SF_NONE): no filter, every cache probes every
     * snoop. Else every cache gets one of these (above). */
    stc_sf_config snoop_filter;
} stc_cstc_config;

/* One core's counters: the coherence counters of coherent.h (per physical
 * line) and its cache's own (cache.h; requests and request_misses stay 0:
 * the layer drives the cache one physical line at a time). */
typedef struct {
    stc_coh_counters coherence;
    stc_counters cache;
} stc_cstc_counters;

typedef struct stc_cstc_system stc_cstc_system;

/* A system in its reset state (every cache empty, memory zero). NULL with a
 * message in err for a bad configuration or a table failing its check. */
stc_cstc_system *stc_cstc_create(const stc_cstc_config *config, char *err, size_t err_len);
void stc_cstc_destroy(stc_cstc_system *system);

/* One reference of core, as stc_coh_access (store value, loaded, errors). */
int stc_cstc_access(stc_cstc_system *system, unsigned core, stc_coh_op op, uint64_t addr,
                    uint32_t size, uint64_t value, uint64_t *loaded);
int stc_cstc_fetch(stc_cstc_system *system, unsigned core);
/* Core's clock moves by cycles before its next reference (coherent_cycles.h
 * stc_coh_clock_idle): time its processor spends elsewhere. Returns -1 with
 * stc_cstc_error for a bad core. */
int stc_cstc_idle(stc_cstc_system *system, unsigned core, uint64_t cycles);

/* Reconfigure core's cache to next (result may be NULL). Returns -1 with
 * stc_cstc_error for a bad core or an illegal configuration; nothing
 * changes then. */
int stc_cstc_reconfigure(stc_cstc_system *system, unsigned core, const stc_config *next,
                         stc_reconfig_result *result);

/* Every valid line of every cache takes its Evict row (M, O: BusWB), and
 * the caches end empty: afterwards memory must equal the shadow. Counted
 * like any eviction (bus_wb), not in the caches' counters. */
void stc_cstc_drain(stc_cstc_system *system);

const char *stc_cstc_error(const stc_cstc_system *system);

/* Core's counters (core < cores), or the sum over all cores. */
void stc_cstc_core_counters(const stc_cstc_system *system, unsigned core, stc_cstc_counters *out);
void stc_cstc_total(const stc_cstc_system *system, stc_cstc_counters *total);

/* The snoop filter counters of core's cache, or NULL if the system has no
 * filter (or core >= cores); and their sum over all cores (zero without a
 * filter). */
const stc_sf_counters *stc_cstc_filter_counters(const stc_cstc_system *system, unsigned core);
void stc_cstc_filter_total(const stc_cstc_system *system, stc_sf_counters *total);

/* The cache's counters as a list, for printing: names "cache_" + the
 * stc_counters member ("cache_fills", "cache_walk_writebacks"). */
enum { STC_CSTC_CACHE_COUNTER_COUNT = 20 };
const char *stc_cstc_cache_counter_name(unsigned index);
uint64_t stc_cstc_cache_counter_value(const stc_counters *counters, unsigned index);

/* Violations, as coherent.h's. */
uint64_t stc_cstc_violation_count(const stc_cstc_system *system);
uint64_t stc_cstc_violation_kind_count(const stc_cstc_system *system, stc_coh_violation_kind kind);
const stc_coh_violation *stc_cstc_violation_at(const stc_cstc_system *system, unsigned index);

/* Inspection, for tests. */
stc_coh_state stc_cstc_state_of(const stc_cstc_system *system, unsigned core, uint64_t addr);
uint64_t stc_cstc_memory_read(const stc_cstc_system *system, uint64_t addr, uint32_t size);
uint64_t stc_cstc_shadow_read(const stc_cstc_system *system, uint64_t addr, uint32_t size);
const stc_cache *stc_cstc_cache(const stc_cstc_system *system, unsigned core);
const stc_cstc_config *stc_cstc_config_of(const stc_cstc_system *system);
/* Whether another core's miss reads a line core supplies from its data
 * array in cycle (its clock's time base; ARCHITECTURE.md 19.5: the read
 * takes the array for that cycle, so a load's second probe waits over it,
 * which the load's cycles count; and the RTL accepts no reference of core
 * in it: a caller offering one then must give that cycle as idle time,
 * stc_cstc_idle, for the reference starts at core's clock). Known from
 * the miss's run until core's next reference starts after it. */
bool stc_cstc_supply_read_at(const stc_cstc_system *system, unsigned core, uint64_t cycle);
/* The run's cycles loads' second probes waited for supplies' reads (all
 * cores). */
uint64_t stc_cstc_probe_waits(const stc_cstc_system *system);

/* Cycles (coherent_cycles.h; docs/COHERENCE.md 11.9): every core's clock
 * (NULL for core >= cores), the run's, and the bus's timing (T the
 * geometry's mem_latency, P/W its beats per physical line). A block
 * access costs its cache's own cycles (stc_cache_access: probes, way
 * prediction's second one included, and the controller's) with the bus
 * in place of the cache's fixed-latency memory; a miss is one tenure
 * holding all its controller's cycles but the answer: one address phase
 * per burst, T once per run of lines memory answers, 1 + P/W per line
 * another cache supplies. A reconfiguration costs the cache's
 * reconfiguration cycles; one with a walk holds the bus for all of them
 * but the wake-up, its BusWBs inside. The drain is not timed. With one core and no BusUpgr
 * (MESI, MOESI), a core's cycles are its cache's cache_cycles. */
const stc_coh_core_cycles *stc_cstc_core_cycles_of(const stc_cstc_system *system, unsigned core);
void stc_cstc_run_cycles_of(const stc_cstc_system *system, stc_coh_run_cycles *run);
const stc_coh_bus_timing *stc_cstc_timing_of(const stc_cstc_system *system);
/* A memory of varying latency from now on (NULL: the geometry's
 * mem_latency again): each wait for memory (a run of lines it answers, a
 * BusWB, a flush no cache supplied) takes latency(context)'s next value, in
 * bus order, in place of T; the RTL lockstep gives its memory the same
 * sequence (ARCHITECTURE.md 19.6). The drain takes values too. The clocks
 * and a core's reconfig_cycles counter (its walks' BusWBs) follow the
 * latencies; the cache's other cycle counts stay its own, against the
 * fixed T (COHERENCE.md 11.9). */
void stc_cstc_set_memory_latency(stc_cstc_system *system, stc_coh_latency_fn latency,
                                 void *context);
/* How often each row of the table ran so far (coherence_protocol.h). */
const stc_coh_row_uses *stc_cstc_row_uses_of(const stc_cstc_system *system);

/* The layer's own invariants on every core: stc_cache_check, a slot is
 * valid exactly when its state is not I, holds the line its state is
 * about, and is dirty exactly in M and O. Returns 0, or -1 with the first
 * broken one in err. */
int stc_cstc_check(const stc_cstc_system *system, char *err, size_t err_len);

#endif
