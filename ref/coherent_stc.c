/*
 * coherent_stc.c - N coherent configurable caches on an atomic bus (the
 * contract is coherent_stc.h; docs/COHERENCE.md section 11).
 *
 * The caches (cache.c) stay as they are; this layer wraps them:
 * - before an access it reads the line's state (the cache's lookup finds
 *   the slot, the layer's array holds its state) and the processor row;
 *   a hit's BusUpgr is issued before the cache is called;
 * - the cache's memory callbacks are the bus: a read burst of n physical
 *   lines is n block transactions (BusRd, or the processor row's for the
 *   requested line), a write burst is the Evict row of the line it writes
 *   back (M, O: a BusWB);
 * - after the cache returns, the slots of the logical line are reconciled:
 *   a slot whose state says valid but which the cache dropped or refilled
 *   lost a clean line (its Evict row runs now), and the lines the fill
 *   brought take the states their transactions gave;
 * - other cores' snoops act on their caches through the slot hooks
 *   (stc_cache_invalidate_slot, stc_cache_set_slot_dirty);
 * - with a snoop filter, the read burst is where every physical line
 *   enters a cache, so it is where the line's filter bit is cleared.
 * Blocks, memory, shadow, checks and miss classes are coherence_book.h's.
 */
#include "coherent_stc.h"

#include "coherence_book.h"
#include "counter_fields.h"
#include "timing.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    /* supply reads a core keeps: a miss reads at most STC_MAX_SUBLINES
     * lines, and a core's later reference drops the past ones */
    SUPPLY_READS_MAX = 4 * STC_MAX_SUBLINES,
    BURSTS_MAX = STC_MAX_SUBLINES /* read bursts of one miss */
};

/* A line some core supplies in the access in progress: which core, in
 * which read burst, and its window's first cycle (the supplier's read)
 * from the burst's address cycle. */
typedef struct {
    unsigned supplier;
    unsigned burst;
    uint64_t offset;
} pending_supply;

/* Why the cache is calling the memory: a miss's fill and evictions, or a
 * reconfiguration's walk. */
typedef enum { PHASE_ACCESS, PHASE_RECONFIG } cache_phase;

/* A line a fill brought, with the state its transaction gave. */
typedef struct {
    uint64_t block;
    uint32_t entry;
    stc_coh_state next;
} fetched_line;

typedef struct core_side {
    struct stc_cstc_system *system; /* the memory callbacks' way back */
    unsigned core;
    stc_cache *cache;
    uint8_t *state;  /* [row * banks + bank]: stc_coh_state of the slot's line */
    uint32_t *entry; /* [row * banks + bank]: the book entry that state is about */

    /* The access in progress (PHASE_ACCESS). */
    cache_phase phase;
    uint64_t request_block;               /* the physical line the access wants */
    const stc_coh_proc_row *request_row;  /* its processor row */
    fetched_line fetched[STC_MAX_SUBLINES];
    unsigned fetched_count;

    /* The cycles other cores' misses read a line this cache supplies from
     * its data array (ARCHITECTURE.md 19.5), ascending, from its clock on:
     * the array is the bus's then, so a load's second probe waits over
     * such a cycle. */
    uint64_t supply_reads[SUPPLY_READS_MAX];
    unsigned supply_read_count;

    /* What a memory of varying latency added to its walks: their BusWBs'
     * write windows less the fixed latency's the cache counted (0 without
     * a latency source); its reconfig_cycles counter includes it. */
    int64_t walk_latency_cycles;
} core_side;

struct stc_cstc_system {
    stc_cstc_config config;
    stc_coh_table table;
    stc_coh_row_index rows; /* table's rows by pair */
    stc_coh_row_uses uses;  /* how often each ran */
    uint32_t line; /* physical line bytes: the coherence unit */
    core_side sides[STC_COH_MAX_CORES];
    stc_coh_book book;
    stc_coh_counters counters[STC_COH_MAX_CORES];
    stc_sf *filters[STC_COH_MAX_CORES]; /* NULL: no snoop filter */

    /* Cycles (coherent_cycles.h, docs/COHERENCE.md 11.9): the clocks, and
     * the block access in progress: its bus cycles so far, the address
     * phases of its bursts and writebacks (each one of the controller
     * cycles the cache counted), and whether the last line of the current
     * read burst came from memory (a memory run pays T once). */
    stc_coh_clock time;
    uint64_t pending_bus;
    uint64_t pending_address_phases;
    bool burst_from_memory;
    /* ... its read bursts' bus cycles (address cycle and windows), the
     * lines supplied in them, and the cycles its load's second probe
     * waited for a supply's read */
    uint64_t burst_cycles[BURSTS_MAX];
    unsigned burst_count;
    pending_supply supplies[STC_MAX_SUBLINES];
    unsigned supply_count;
    uint64_t probe_wait;
    uint64_t probe_waits; /* the run's: cycles second probes waited */
    char error[256];
};

/* ------------------------------------------------------------ counters */

#define CACHE_COUNTER(name) {"cache_" #name, offsetof(stc_counters, name)}
static const stc_counter_field cache_counter_list[STC_CSTC_CACHE_COUNTER_COUNT] = {
    CACHE_COUNTER(requests),          CACHE_COUNTER(request_misses),
    CACHE_COUNTER(accesses),          CACHE_COUNTER(reads),
    CACHE_COUNTER(writes),            CACHE_COUNTER(misses),
    CACHE_COUNTER(read_misses),       CACHE_COUNTER(write_misses),
    CACHE_COUNTER(first_probe_hits),  CACHE_COUNTER(second_probe_hits),
    CACHE_COUNTER(fills),             CACHE_COUNTER(fill_bursts),
    CACHE_COUNTER(writebacks),        CACHE_COUNTER(cycles),
    CACHE_COUNTER(reconfigs),         CACHE_COUNTER(reconfig_cycles),
    CACHE_COUNTER(walk_writebacks),   CACHE_COUNTER(walk_invalidations),
    CACHE_COUNTER(walk_rows),         CACHE_COUNTER(banks_woken),
};
#undef CACHE_COUNTER
_Static_assert(sizeof(stc_counters) == STC_CSTC_CACHE_COUNTER_COUNT * sizeof(uint64_t),
               "cache_counter_list must name every counter");

const char *stc_cstc_cache_counter_name(unsigned index)
{
    return index < STC_CSTC_CACHE_COUNTER_COUNT ? cache_counter_list[index].name : "?";
}

uint64_t stc_cstc_cache_counter_value(const stc_counters *counters, unsigned index)
{
    return index < STC_CSTC_CACHE_COUNTER_COUNT
               ? stc_counter_field_get(counters, &cache_counter_list[index])
               : 0;
}

/* ------------------------------------------------------------ slots */

static const stc_geometry *geometry_of(const stc_cstc_system *system)
{
    return &system->config.geometry;
}

static uint64_t block_of(const stc_cstc_system *system, uint64_t addr)
{
    return (addr & geometry_of(system)->addr_mask) >> geometry_of(system)->offset_bits;
}

static uint64_t addr_of(const stc_cstc_system *system, uint64_t block)
{
    return block << geometry_of(system)->offset_bits;
}

static unsigned row_of(const stc_cstc_system *system, uint64_t block)
{
    return (unsigned)block & (geometry_of(system)->rows - 1);
}

static size_t slot_of(const stc_cstc_system *system, unsigned bank, unsigned row)
{
    return (size_t)row * geometry_of(system)->banks + bank;
}

/* The slot of core's cache holding block, or -1: the cache's lookup under
 * its current configuration (every valid line is among its candidates). */
static long find_slot(const stc_cstc_system *system, unsigned core, uint64_t block)
{
    int bank = stc_cache_lookup(system->sides[core].cache, addr_of(system, block));
    return bank < 0 ? -1 : (long)slot_of(system, (unsigned)bank, row_of(system, block));
}

/* The slot whose state is about block, whatever the cache holds there now
 * (during a walk the line may already be outside its candidates), or -1. */
static long find_recorded_slot(const stc_cstc_system *system, const core_side *side,
                               uint64_t block)
{
    unsigned row = row_of(system, block);
    for (unsigned bank = 0; bank < geometry_of(system)->banks; bank++) {
        size_t slot = slot_of(system, bank, row);
        if (side->state[slot] != STC_COH_I &&
            system->book.history[side->entry[slot]].block == block)
            return (long)slot;
    }
    return -1;
}

/* Slot takes state for entry; the cache's dirty flag follows (memory is
 * stale exactly in M and O). I drops the cache's line too. */
static void set_slot_state(stc_cstc_system *system, core_side *side, size_t slot, uint32_t entry,
                           stc_coh_state state)
{
    unsigned banks = geometry_of(system)->banks;
    unsigned bank = (unsigned)(slot % banks), row = (unsigned)(slot / banks);
    side->state[slot] = (uint8_t)state;
    side->entry[slot] = entry;
    if (state == STC_COH_I)
        stc_cache_invalidate_slot(side->cache, bank, row);
    else
        stc_cache_set_slot_dirty(side->cache, bank, row,
                                 state == STC_COH_M || state == STC_COH_O);
}

static const uint8_t *slot_bytes(const stc_cstc_system *system, const core_side *side, size_t slot)
{
    unsigned banks = geometry_of(system)->banks;
    stc_slot view;
    stc_cache_slot(side->cache, (unsigned)(slot % banks), (unsigned)(slot / banks), &view);
    return view.data;
}

/* ------------------------------------------------------------ the bus */

typedef struct {
    bool shared;   /* some snooper asserted the shared line */
    bool supplied; /* some snooper supplied */
    bool flushed;  /* some snooper flushed */
    unsigned supplier; /* which, if supplied */
} bus_result;

static void count_bus(stc_coh_counters *counters, stc_coh_bus bus)
{
    if (bus == STC_COH_BUS_RD)
        counters->bus_rd++;
    else if (bus == STC_COH_BUS_RDX)
        counters->bus_rdx++;
    else if (bus == STC_COH_BUS_UPGR)
        counters->upgrades++;
}

/* Snooper d's valid copy (slot) applies its row for requester's bus
 * transaction of entry: supplies into data, flushes to memory, asserts
 * the shared line, takes the next state. */
static void snoop_copy(stc_cstc_system *system, unsigned requester, unsigned d, size_t slot,
                       stc_coh_bus bus, uint32_t entry, uint8_t *data, bus_result *result)
{
    core_side *side = &system->sides[d];
    stc_coh_counters *req = &system->counters[requester];
    stc_coh_counters *snooper = &system->counters[d];
    uint64_t addr = addr_of(system, system->book.history[entry].block);
    stc_coh_state state = (stc_coh_state)side->state[slot];
    const stc_coh_snoop_row *row = system->rows.snoop[state][bus];
    if (!row || row->impossible) {
        stc_coh_book_violation(&system->book, STC_COH_VIOL_IMPOSSIBLE, requester, addr, 0, 0,
                               "block 0x%llx: core %u in %s snoops %s (impossible row)",
                               (unsigned long long)addr, d, stc_coh_state_name(state),
                               stc_coh_bus_name(bus));
        return;
    }
    const uint8_t *copy = slot_bytes(system, side, slot);
    if (row->supplies) {
        if (result->supplied)
            stc_coh_book_violation(&system->book, STC_COH_VIOL_SUPPLIERS, requester, addr, 0, 0,
                                   "block 0x%llx: core %u supplies %s too",
                                   (unsigned long long)addr, d, stc_coh_bus_name(bus));
        else if (data)
            memcpy(data, copy, system->line);
        if (!result->supplied)
            result->supplier = d;
        result->supplied = true;
        snooper->c2c_supplied++;
    }
    if (row->flushes) {
        memcpy(stc_coh_book_memory(&system->book, entry), copy, system->line);
        snooper->flushes++;
        snooper->mem_writebacks++;
        result->flushed = true;
    }
    if (row->asserts_shared)
        result->shared = true;
    if (row->next == STC_COH_I) {
        req->inv_sent++;
        snooper->inv_received++;
        stc_coh_book_invalidated(&system->book, d, entry);
        if (system->config.breaks & STC_CSTC_BREAK_SNOOP_KEEPS_SLOT) {
            side->state[slot] = STC_COH_I; /* the broken variant: the line stays */
            return;
        }
    }
    set_slot_state(system, side, slot, entry, row->next);
}

/* The safety check of the snoop filter (coherent_stc.h): d's filter
 * answered "absent" for a line d's cache holds (slot). */
static void filter_unsafe(const stc_cstc_system *system, unsigned d, unsigned requester,
                          stc_coh_bus bus, uint64_t block, size_t slot)
{
    stc_sf_abort_unsafe(&system->config.snoop_filter, system->book.reference, requester,
                        stc_coh_bus_name(bus), addr_of(system, block), d,
                        stc_coh_state_name((stc_coh_state)system->sides[d].state[slot]));
}

/* Broadcast requester's bus transaction for entry: every other cache
 * probes its tags and every valid copy applies its snoop row. data (a
 * BusRd/BusRdX's line, else NULL) receives the supplier's copy, else
 * memory before the transaction. BusWB: memory takes wb_data first. */
static bus_result broadcast(stc_cstc_system *system, unsigned requester, stc_coh_bus bus,
                            uint32_t entry, const uint8_t *wb_data, uint8_t *data)
{
    bus_result result = {false, false, false, 0};
    uint8_t *memory = stc_coh_book_memory(&system->book, entry);
    stc_coh_counters *req = &system->counters[requester];
    count_bus(req, bus);
    if (data)
        memcpy(data, memory, system->line);
    if (bus == STC_COH_BUS_WB) {
        memcpy(memory, wb_data, system->line);
        req->bus_wb++;
        req->mem_writebacks++;
    }
    uint64_t block = system->book.history[entry].block;
    for (unsigned d = 0; d < system->config.cores; d++) {
        if (d == requester)
            continue;
        stc_sf *filter = system->filters[d];
        long slot = find_slot(system, d, block);
        if (filter && stc_sf_snoop(filter, block)) {
            /* no probe; the model's own look at the tags is the check */
            if (slot >= 0)
                filter_unsafe(system, d, requester, bus, block, (size_t)slot);
            continue;
        }
        system->counters[d].snoop_lookups++;
        system->uses.snoop[slot >= 0 ? system->sides[d].state[slot] : STC_COH_I][bus]++;
        if (slot >= 0 && system->sides[d].state[slot] != STC_COH_I)
            snoop_copy(system, requester, d, (size_t)slot, bus, entry, data, &result);
        else if (filter)
            stc_sf_probe_missed(filter, block);
    }
    if (bus == STC_COH_BUS_RD || bus == STC_COH_BUS_RDX) {
        if (result.supplied)
            req->c2c_received++;
        else
            req->mem_reads++;
    }
    return result;
}

/* The processor row's transaction, if any (data: where a BusRd/BusRdX's
 * line goes; *result: what the snoopers did, all false without one).
 * Returns the next state: next_shared only if a snooper asserted the
 * shared line. */
static stc_coh_state issue_row(stc_cstc_system *system, unsigned core, const stc_coh_proc_row *row,
                               uint32_t entry, uint8_t *data, bus_result *result)
{
    if (row->bus == STC_COH_BUS_NONE) {
        *result = (bus_result){false, false, false, 0};
        if (data)
            memcpy(data, stc_coh_book_memory(&system->book, entry), system->line);
        return row->next_alone;
    }
    *result = broadcast(system, core, row->bus, entry, NULL, data);
    return result->shared ? row->next_shared : row->next_alone;
}

/* Core's copy of entry in slot (state) leaves the cache: its lifetime
 * ends and its Evict row runs; a BusWB carries data (the line's last
 * bytes) to memory, unless skip_writeback (the broken walk). */
static void evict_copy(stc_cstc_system *system, unsigned core, size_t slot, const uint8_t *data,
                       bool skip_writeback)
{
    core_side *side = &system->sides[core];
    uint32_t entry = side->entry[slot];
    stc_coh_state state = (stc_coh_state)side->state[slot];
    uint64_t addr = addr_of(system, system->book.history[entry].block);
    stc_coh_book_evicted(&system->book, core, entry);
    const stc_coh_proc_row *evict = system->rows.proc[state][STC_COH_EVICT];
    system->uses.proc[state][STC_COH_EVICT]++;
    side->state[slot] = STC_COH_I;
    if (!evict || evict->impossible)
        stc_coh_book_violation(&system->book, STC_COH_VIOL_IMPOSSIBLE, core, addr, 0, 0,
                               "Evict in %s (impossible row)", stc_coh_state_name(state));
    else if (evict->bus != STC_COH_BUS_NONE && !skip_writeback) {
        bus_result result = broadcast(system, core, evict->bus, entry,
                                      data ? data : stc_coh_book_memory(&system->book, entry),
                                      NULL);
        /* A writeback of the cache's own (a fill's victim, a walk's line):
         * its request is one of the cycles the cache's controller counted. */
        system->pending_bus += stc_coh_transaction_cycles(&system->time.timing, evict->bus,
                                                          result.supplied,
                                                          result.flushed && !result.supplied);
        system->pending_address_phases++;
    }
}

/* ------------------------------------------------ the cache's memory */

/* The cache writes a dirty line back (a fill's victim, or a walk's): the
 * Evict row of the line (M or O), now, in the cache's order. */
static void cache_write_burst(void *context, uint64_t addr, const uint8_t *data, unsigned bytes)
{
    core_side *side = context;
    stc_cstc_system *system = side->system;
    for (unsigned at = 0; at < bytes; at += system->line) {
        long slot = find_recorded_slot(system, side, block_of(system, addr + at));
        if (slot < 0)
            continue; /* a dirty line in state I: stc_cstc_check reports it */
        bool broken = side->phase == PHASE_RECONFIG &&
                      (system->config.breaks & STC_CSTC_BREAK_WALK_NO_WRITEBACK);
        evict_copy(system, side->core, (size_t)slot, data + at, broken);
    }
}

/* The cache fills a run of missing physical lines: one block transaction
 * each, ascending; the requested line by its processor row, the others by
 * the Load row. Their states are set once the cache has placed them. */
static void cache_read_burst(void *context, uint64_t addr, uint8_t *data, unsigned bytes)
{
    core_side *side = context;
    stc_cstc_system *system = side->system;
    const stc_coh_bus_timing *timing = &system->time.timing;
    /* One burst, one tenure: one address phase (the cache's request; the
     * later lines' addresses go out while earlier lines' beats move). */
    system->pending_bus += timing->address_cycles;
    system->pending_address_phases++;
    system->burst_from_memory = false;
    if (system->burst_count == BURSTS_MAX)
        abort(); /* more bursts than a logical line has lines */
    const unsigned burst = system->burst_count++;
    uint64_t *burst_cycles = &system->burst_cycles[burst];
    *burst_cycles = timing->address_cycles;
    for (unsigned at = 0; at < bytes; at += system->line) {
        uint64_t block = block_of(system, addr + at);
        long entry = stc_coh_book_entry(&system->book, block);
        if (entry < 0 || side->fetched_count == STC_MAX_SUBLINES)
            abort(); /* out of memory, or a cache filling more than a logical line */
        const stc_coh_proc_row *row = block == side->request_block
                                          ? side->request_row
                                          : system->rows.proc[STC_COH_I][STC_COH_LOAD];
        if (block != side->request_block)
            system->uses.proc[STC_COH_I][STC_COH_LOAD]++; /* the access counted its own */
        /* Every physical line enters the cache here (a requested line, a
         * sibling, a refetched subline): its filter bit goes first. */
        if (system->filters[side->core])
            stc_sf_fill(system->filters[side->core], block);
        bus_result result;
        stc_coh_state next = issue_row(system, side->core, row, (uint32_t)entry, data + at, &result);
        side->fetched[side->fetched_count++] = (fetched_line){block, (uint32_t)entry, next};
        /* Memory streams consecutive lines it answers as one burst (T
         * once, as the single-cache model prices a fill); a supplied line
         * breaks the run. */
        if (result.supplied && system->supply_count < STC_MAX_SUBLINES)
            system->supplies[system->supply_count++] =
                (pending_supply){result.supplier, burst, *burst_cycles};
        uint64_t window =
            stc_coh_line_data_cycles(timing, result.supplied, !system->burst_from_memory);
        if (result.flushed && !result.supplied)
            window += stc_coh_write_data_cycles(timing);
        system->pending_bus += window;
        *burst_cycles += window;
        system->burst_from_memory = !result.supplied;
    }
}

/* After the cache changed rows [first_row, first_row + rows): a slot whose
 * state is valid but whose line the cache dropped or replaced lost a
 * clean line (dirty ones left through cache_write_burst): its Evict row
 * runs now. */
static void reconcile_rows(stc_cstc_system *system, unsigned core, unsigned first_row,
                           unsigned rows)
{
    core_side *side = &system->sides[core];
    for (unsigned row = first_row; row < first_row + rows; row++) {
        for (unsigned bank = 0; bank < geometry_of(system)->banks; bank++) {
            size_t slot = slot_of(system, bank, row);
            if (side->state[slot] == STC_COH_I)
                continue;
            stc_slot view;
            stc_cache_slot(side->cache, bank, row, &view);
            uint64_t held = system->book.history[side->entry[slot]].block;
            if (!view.valid || view.line_addr != addr_of(system, held))
                evict_copy(system, core, slot, NULL, false);
        }
    }
}

/* The lines the fill brought take their states, and are SWMR-checked. */
static void place_fetched(stc_cstc_system *system, unsigned core);

/* ------------------------------------------------------------ access */

static void check_swmr(stc_cstc_system *system, unsigned requester, uint64_t block)
{
    stc_coh_state states[STC_COH_MAX_CORES];
    unsigned valid = 0;
    for (unsigned c = 0; c < system->config.cores; c++) {
        long slot = find_slot(system, c, block);
        if (slot >= 0 && system->sides[c].state[slot] != STC_COH_I)
            states[valid++] = (stc_coh_state)system->sides[c].state[slot];
    }
    stc_coh_book_check_swmr(&system->book, requester, addr_of(system, block), states, valid);
}

static void place_fetched(stc_cstc_system *system, unsigned core)
{
    core_side *side = &system->sides[core];
    for (unsigned i = 0; i < side->fetched_count; i++) {
        const fetched_line *line = &side->fetched[i];
        if (line->block != side->request_block)
            stc_coh_book_fetched(&system->book, core, line->entry);
        long slot = find_slot(system, core, line->block);
        if (slot >= 0)
            set_slot_state(system, side, (size_t)slot, line->entry, line->next);
        check_swmr(system, core, line->block);
    }
}

/* The cache's access itself (a hit, or a miss with its fill): the bytes
 * move, the slot it used is returned (-1 on a misuse). */
static long cache_access(stc_cstc_system *system, unsigned core, stc_coh_op op, uint64_t addr,
                         uint32_t len, const uint8_t *value_bytes, uint8_t *loaded,
                         stc_access_result *out)
{
    core_side *side = &system->sides[core];
    stc_access_result local;
    stc_access_result *result = out ? out : &local;
    int status = op == STC_COH_OP_STORE
                     ? stc_cache_access(side->cache, STC_OP_WRITE, addr, len, value_bytes, NULL,
                                        NULL, result)
                     : stc_cache_access(side->cache, STC_OP_READ, addr, len, NULL, NULL, loaded,
                                        result);
    if (status != 0)
        return -1;
    return (long)slot_of(system, result->bank, row_of(system, block_of(system, addr)));
}

/* A miss: the cache fills the logical line (its callbacks issue the
 * transactions), then its rows are reconciled and the fetched lines placed. */
static long serve_miss(stc_cstc_system *system, unsigned core, const stc_coh_proc_row *row,
                       uint64_t block, stc_coh_op op, uint64_t addr, uint32_t len,
                       const uint8_t *value_bytes, uint8_t *loaded, stc_access_result *result)
{
    core_side *side = &system->sides[core];
    side->phase = PHASE_ACCESS;
    side->request_block = block;
    side->request_row = row;
    side->fetched_count = 0;
    long slot = cache_access(system, core, op, addr, len, value_bytes, loaded, result);
    unsigned sublines = stc_cache_config(side->cache)->sublines;
    reconcile_rows(system, core, row_of(system, block) & ~(sublines - 1), sublines);
    place_fetched(system, core);
    side->fetched_count = 0;
    return slot;
}

/* ------------------------------------------------------------ supplies */

/* Whether core's data array is read by a supply in cycle. */
static bool supply_read_at(const core_side *side, uint64_t cycle)
{
    for (unsigned i = 0; i < side->supply_read_count; i++)
        if (side->supply_reads[i] == cycle)
            return true;
    return false;
}

/* Forget core's supply reads before cycle (its references start later). */
static void forget_supply_reads(core_side *side, uint64_t cycle)
{
    unsigned kept = 0;
    for (unsigned i = 0; i < side->supply_read_count; i++)
        if (side->supply_reads[i] >= cycle)
            side->supply_reads[kept++] = side->supply_reads[i];
    side->supply_read_count = kept;
}

static void add_supply_read(core_side *side, uint64_t cycle)
{
    forget_supply_reads(side, side->system->time.core[side->core].cycles);
    if (side->supply_read_count == SUPPLY_READS_MAX) {
        /* the oldest goes: a core idle this long starts later */
        memmove(side->supply_reads, side->supply_reads + 1,
                (SUPPLY_READS_MAX - 1) * sizeof side->supply_reads[0]);
        side->supply_read_count--;
    }
    side->supply_reads[side->supply_read_count++] = cycle;
}

/* A miss's tenure ends with its last read burst's last window, and each
 * burst starts in the cycle after the one before it ends (the controller
 * offers its next run then: ARCHITECTURE.md 19.5), so the bursts' address
 * cycles count back from the bus's free cycle: each supplied line's read
 * (its window's first cycle) goes to its supplier. In the count a core's
 * clock keeps (a reference starts in the cycle its request is accepted,
 * its first probe's compare is the next), the tenure's cycle k is cycle
 * k + 1: the read is there. */
static void record_supplies(stc_cstc_system *system)
{
    uint64_t start[BURSTS_MAX];
    uint64_t at = system->time.bus_free_at;
    for (unsigned b = system->burst_count; b-- > 0;) {
        at -= system->burst_cycles[b];
        start[b] = at;
    }
    for (unsigned i = 0; i < system->supply_count; i++) {
        const pending_supply *supply = &system->supplies[i];
        add_supply_read(&system->sides[supply->supplier],
                        start[supply->burst] + supply->offset + 1);
    }
}

/* Core's block access (or reconfiguration) is timed. The cache counted
 * cache_cycles, its probes first, against its fixed-latency memory: T +
 * P/W per writeback, T per read burst and P/W per line filled (cache.c).
 * Those are taken out and the bus's transactions, recorded by the
 * callbacks, take their place; each burst's and writeback's address phase
 * is one of the controller cycles the cache counted, so it is taken out
 * too (coherent_cycles.h). What is left after the probes is the
 * controller's own. A miss (fill_bursts > 0) holds the bus for all of
 * them but its last, the answer (ARCHITECTURE.md 19.5: it takes the bus
 * before it reads the rows it evicts from, and keeps it between its
 * transactions); anything else has its controller's cycles after the
 * bus. */
static void commit_cycles(stc_cstc_system *system, unsigned core, uint64_t cache_cycles,
                          uint64_t probes, uint64_t writebacks, uint64_t bursts, uint64_t fills)
{
    const stc_coh_bus_timing *timing = &system->time.timing;
    uint64_t assumed_memory = stc_coh_assumed_memory_cycles(timing, writebacks, bursts, fills);
    uint64_t controller = stc_coh_cycles_less(cache_cycles, probes + assumed_memory);
    uint64_t own = stc_coh_cycles_less(controller,
                                       system->pending_address_phases * timing->address_cycles);
    uint64_t held = bursts > 0 ? stc_coh_cycles_less(own, STC_MISS_ANSWER_CYCLES) : 0;
    stc_coh_access_cycles cycles = {
        .before = probes + system->probe_wait,
        .bus = system->pending_bus + held,
        .after = own - held,
    };
    stc_coh_clock_commit(&system->time, core, &cycles);
    if (bursts > 0 && system->supply_count > 0)
        record_supplies(system);
}

/* One access of core to bytes [offset, offset + len) of physical line
 * block; value_bytes is the store's data, loaded the load's result. */
static int block_access(stc_cstc_system *system, unsigned core, stc_coh_op op, uint64_t block,
                        uint32_t offset, uint32_t len, const uint8_t *value_bytes, uint8_t *loaded)
{
    core_side *side = &system->sides[core];
    long entry = stc_coh_book_entry(&system->book, block);
    if (entry < 0) {
        snprintf(system->error, sizeof system->error, "out of memory");
        return -1;
    }
    uint32_t e = (uint32_t)entry;
    uint64_t addr = addr_of(system, block) + offset;
    long slot = find_slot(system, core, block);
    stc_coh_state state = slot >= 0 ? (stc_coh_state)side->state[slot] : STC_COH_I;
    stc_coh_proc_event event = op == STC_COH_OP_STORE ? STC_COH_STORE : STC_COH_LOAD;
    const stc_coh_proc_row *row = system->rows.proc[state][event];
    system->uses.proc[state][event]++;
    if (!row || row->impossible) {
        stc_coh_book_violation(&system->book, STC_COH_VIOL_IMPOSSIBLE, core, addr, 0, 0,
                               "%s in %s (impossible row)", stc_coh_proc_event_name(event),
                               stc_coh_state_name(state));
        return 0;
    }
    uint64_t words = stc_coh_word_mask(offset, len);
    stc_coh_book_access(&system->book, &system->counters[core], core, e, words, row->hit,
                        state != STC_COH_I);
    if (!row->hit && state != STC_COH_I) {
        /* a table that misses on a valid copy: that copy is gone first */
        set_slot_state(system, side, (size_t)slot, e, STC_COH_I);
    }
    system->pending_bus = 0;
    system->pending_address_phases = 0;
    system->burst_count = 0;
    system->supply_count = 0;
    system->probe_wait = 0;
    stc_access_result access = {0};
    if (row->hit) {
        bus_result upgrade;
        stc_coh_state next = issue_row(system, core, row, e, NULL, &upgrade);
        if (row->bus != STC_COH_BUS_NONE) /* a BusUpgr: beyond what the cache counts */
            system->pending_bus += stc_coh_transaction_cycles(
                &system->time.timing, row->bus, upgrade.supplied,
                upgrade.flushed && !upgrade.supplied);
        slot = cache_access(system, core, op, addr, len, value_bytes, loaded, &access);
        if (slot >= 0)
            set_slot_state(system, side, (size_t)slot, e, next);
    } else {
        slot = serve_miss(system, core, row, block, op, addr, len, value_bytes, loaded, &access);
    }
    if (op == STC_COH_OP_LOAD && access.probes >= 2) {
        /* the second probe reads the data array one cycle in: it waits
         * while a supply reads it (ARCHITECTURE.md 19.5) */
        uint64_t at = system->time.core[core].cycles + 1;
        while (supply_read_at(side, at + system->probe_wait))
            system->probe_wait++;
        system->probe_waits += system->probe_wait;
    }
    commit_cycles(system, core, access.cycles, access.probes, access.writebacks, access.bursts,
                  access.fills);
    if (op == STC_COH_OP_STORE)
        stc_coh_book_stored(&system->book, core, e, offset, len, value_bytes, words);
    else
        stc_coh_book_check_load(&system->book, core, e, offset, len, loaded,
                                slot >= 0 ? (stc_coh_state)side->state[slot] : STC_COH_I);
    check_swmr(system, core, block);
    return 0;
}

static int check_core(stc_cstc_system *system, unsigned core)
{
    if (core < system->config.cores)
        return 0;
    snprintf(system->error, sizeof system->error, "core %u: the system has %u cores (0..%u)", core,
             system->config.cores, system->config.cores - 1);
    return -1;
}

int stc_cstc_access(stc_cstc_system *system, unsigned core, stc_coh_op op, uint64_t addr,
                    uint32_t size, uint64_t value, uint64_t *loaded)
{
    if (check_core(system, core) != 0)
        return -1;
    if (op != STC_COH_OP_LOAD && op != STC_COH_OP_STORE) {
        snprintf(system->error, sizeof system->error, "operation %d: not a load or a store",
                 (int)op);
        return -1;
    }
    if (size < 1 || size > system->line) {
        snprintf(system->error, sizeof system->error, "size %u: must be 1..%u (the physical line)",
                 size, system->line);
        return -1;
    }
    uint8_t bytes[STC_COH_MAX_LINE];
    uint8_t result[STC_COH_MAX_LINE];
    for (uint32_t i = 0; i < size; i++)
        bytes[i] = (uint8_t)(value >> (8 * (i % 8)));
    /* (a reference starts at the core's clock: its port took it then,
     * which the RTL does not in a supply's read cycle, ARCHITECTURE.md
     * 19.5; a driver that offers it then gives that cycle as idle time
     * first, as the lockstep does) */
    forget_supply_reads(&system->sides[core], system->time.core[core].cycles);
    stc_coh_counters *counters = &system->counters[core];
    counters->references++;
    if (op == STC_COH_OP_STORE)
        counters->stores++;
    else
        counters->loads++;
    addr &= geometry_of(system)->addr_mask;
    uint32_t done = 0;
    while (done < size) {
        uint64_t at = (addr + done) & geometry_of(system)->addr_mask;
        uint32_t offset = (uint32_t)(at & (system->line - 1));
        uint32_t len = size - done;
        if (len > system->line - offset)
            len = system->line - offset;
        if (block_access(system, core, op, block_of(system, at), offset, len, bytes + done,
                         result + done) != 0)
            return -1;
        done += len;
    }
    if (loaded)
        *loaded = op == STC_COH_OP_LOAD ? stc_coh_bytes_le(result, size) : 0;
    system->book.reference++;
    return 0;
}

int stc_cstc_idle(stc_cstc_system *system, unsigned core, uint64_t cycles)
{
    if (check_core(system, core) != 0)
        return -1;
    stc_coh_clock_idle(&system->time, core, cycles);
    return 0;
}

int stc_cstc_fetch(stc_cstc_system *system, unsigned core)
{
    if (check_core(system, core) != 0)
        return -1;
    system->counters[core].fetches++;
    return 0;
}

/* ------------------------------------------------------------ reconfigure */

static uint32_t physical_lines(const stc_geometry *geometry, const stc_config *config)
{
    return (uint32_t)(stc_config_size_bytes(geometry, config) / geometry->line_bytes);
}

int stc_cstc_reconfigure(stc_cstc_system *system, unsigned core, const stc_config *next,
                         stc_reconfig_result *result)
{
    if (check_core(system, core) != 0)
        return -1;
    const char *rule = stc_config_check(geometry_of(system), next);
    if (rule) {
        snprintf(system->error, sizeof system->error, "illegal configuration: %s", rule);
        return -1;
    }
    core_side *side = &system->sides[core];
    stc_reconfig_result local;
    if (!result)
        result = &local;
    system->pending_bus = 0;
    system->pending_address_phases = 0;
    system->burst_count = 0;
    system->supply_count = 0;
    system->probe_wait = 0;
    side->phase = PHASE_RECONFIG;
    stc_cache_reconfigure(side->cache, next, result);
    side->phase = PHASE_ACCESS;
    reconcile_rows(system, core, 0, geometry_of(system)->rows);
    /* The change takes the core's time. A walk holds the bus from its first
     * row to its last, its BusWBs inside (ARCHITECTURE.md 19.5: it reads its
     * rows' state under the bus, as a miss does): the wake-up before it, the
     * rest in the tenure. A change without a walk takes no bus. The
     * cache counted each BusWB's memory at the fixed latency; the bus's
     * write windows (the latency source's, if set) replace them. */
    if (result->walked_rows > 0) {
        uint64_t wake = (uint64_t)result->woken_banks * geometry_of(system)->wake_cycles;
        const stc_coh_bus_timing *timing = &system->time.timing;
        uint64_t assumed = stc_coh_assumed_memory_cycles(timing, result->writebacks, 0, 0);
        uint64_t windows = stc_coh_cycles_less(system->pending_bus,
                                               system->pending_address_phases *
                                                   timing->address_cycles);
        stc_coh_access_cycles cycles = {
            .before = wake,
            .bus = stc_coh_cycles_less(result->cycles, wake + assumed) + windows,
            .after = 0,
        };
        side->walk_latency_cycles += (int64_t)windows - (int64_t)assumed;
        stc_coh_clock_commit(&system->time, core, &cycles);
    } else {
        commit_cycles(system, core, result->cycles, 0, result->writebacks, 0, 0);
    }
    system->config.configs[core] = *next;
    stc_coh_book_resize_fa(&system->book, core, physical_lines(geometry_of(system), next));
    return 0;
}

void stc_cstc_drain(stc_cstc_system *system)
{
    const stc_geometry *geometry = geometry_of(system);
    for (unsigned c = 0; c < system->config.cores; c++) {
        core_side *side = &system->sides[c];
        for (size_t slot = 0; slot < (size_t)geometry->banks * geometry->rows; slot++) {
            if (side->state[slot] == STC_COH_I)
                continue;
            uint32_t entry = side->entry[slot];
            evict_copy(system, c, slot, slot_bytes(system, side, slot), false);
            set_slot_state(system, side, slot, entry, STC_COH_I);
        }
    }
}

/* ------------------------------------------------------------ create */

static const char *check_config(const stc_cstc_config *config, char *message, size_t len)
{
    if (config->cores < 1 || config->cores > STC_COH_MAX_CORES) {
        snprintf(message, len, "cores %u: must be 1..%d", config->cores, STC_COH_MAX_CORES);
        return message;
    }
    if (config->geometry.line_bytes < STC_COH_WORD_BYTES ||
        config->geometry.line_bytes > STC_COH_MAX_LINE) {
        snprintf(message, len, "physical line %u bytes: must be %d..%d",
                 config->geometry.line_bytes, STC_COH_WORD_BYTES, STC_COH_MAX_LINE);
        return message;
    }
    for (unsigned c = 0; c < config->cores; c++) {
        const char *rule = stc_config_check(&config->geometry, &config->configs[c]);
        if (rule) {
            snprintf(message, len, "core %u: illegal configuration: %s", c, rule);
            return message;
        }
    }
    if (!config->table && (unsigned)config->protocol >= STC_COH_PROTOCOL_COUNT) {
        snprintf(message, len, "protocol %d: unknown", (int)config->protocol);
        return message;
    }
    char check[200];
    const stc_coh_table *table = config->table ? config->table : stc_coh_table_of(config->protocol);
    if (stc_coh_table_check(table, check, sizeof check) != 0) {
        snprintf(message, len, "protocol table: %s", check);
        return message;
    }
    if (stc_sf_check(&config->snoop_filter, message, len) != 0)
        return message; /* the message names the filter */
    return NULL;
}

static int create_side(stc_cstc_system *system, unsigned core, char *err, size_t err_len)
{
    const stc_geometry *geometry = geometry_of(system);
    core_side *side = &system->sides[core];
    size_t slots = (size_t)geometry->banks * geometry->rows;
    side->system = system;
    side->core = core;
    stc_memory memory = {side, cache_read_burst, cache_write_burst};
    side->cache = stc_cache_create(geometry, STC_DCACHE, &system->config.configs[core], &memory,
                                   err, err_len);
    side->state = calloc(slots, sizeof *side->state);
    side->entry = calloc(slots, sizeof *side->entry);
    if (!side->cache || !side->state || !side->entry) {
        if (side->cache)
            snprintf(err, err_len, "out of memory");
        return -1;
    }
    if (system->config.snoop_filter.kind != STC_SF_NONE &&
        !(system->filters[core] = stc_sf_create(&system->config.snoop_filter))) {
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    return 0;
}

stc_cstc_system *stc_cstc_create(const stc_cstc_config *config, char *err, size_t err_len)
{
    char message[256];
    if (check_config(config, message, sizeof message)) {
        snprintf(err, err_len, "%s", message);
        return NULL;
    }
    stc_cstc_system *system = calloc(1, sizeof *system);
    if (!system) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    system->config = *config;
    system->table = config->table ? *config->table : *stc_coh_table_of(config->protocol);
    system->config.table = NULL;
    system->config.protocol = system->table.protocol;
    system->line = config->geometry.line_bytes;
    stc_coh_row_index_build(&system->rows, &system->table);
    stc_coh_bus_timing timing;
    stc_coh_bus_timing_init(&timing, config->geometry.line_bytes, config->geometry.mem_latency);
    stc_coh_clock_init(&system->time, config->cores, &timing);
    uint32_t most_lines = config->geometry.banks * config->geometry.rows;
    snprintf(err, err_len, "out of memory");
    if (stc_coh_book_init(&system->book, config->cores, system->line, most_lines) != 0) {
        stc_cstc_destroy(system);
        return NULL;
    }
    for (unsigned c = 0; c < config->cores; c++) {
        if (create_side(system, c, err, err_len) != 0) {
            stc_cstc_destroy(system);
            return NULL;
        }
        stc_coh_book_resize_fa(&system->book, c,
                               physical_lines(&config->geometry, &config->configs[c]));
    }
    return system;
}

void stc_cstc_destroy(stc_cstc_system *system)
{
    if (!system)
        return;
    for (unsigned c = 0; c < STC_COH_MAX_CORES; c++) {
        stc_cache_destroy(system->sides[c].cache);
        free(system->sides[c].state);
        free(system->sides[c].entry);
        stc_sf_destroy(system->filters[c]);
    }
    stc_coh_book_free(&system->book);
    free(system);
}

/* ------------------------------------------------------------ queries */

const char *stc_cstc_error(const stc_cstc_system *system)
{
    return system->error;
}

void stc_cstc_core_counters(const stc_cstc_system *system, unsigned core, stc_cstc_counters *out)
{
    memset(out, 0, sizeof *out);
    if (core >= system->config.cores)
        return;
    out->coherence = system->counters[core];
    out->cache = *stc_cache_counters(system->sides[core].cache);
    out->cache.reconfig_cycles =
        (uint64_t)((int64_t)out->cache.reconfig_cycles + system->sides[core].walk_latency_cycles);
}

void stc_cstc_total(const stc_cstc_system *system, stc_cstc_counters *total)
{
    memset(total, 0, sizeof *total);
    for (unsigned c = 0; c < system->config.cores; c++) {
        stc_cstc_counters core;
        stc_cstc_core_counters(system, c, &core);
        stc_counters_add(&total->cache, &core.cache);
        stc_coh_counters_add(&total->coherence, &core.coherence);
    }
}

const stc_sf_counters *stc_cstc_filter_counters(const stc_cstc_system *system, unsigned core)
{
    return core < system->config.cores && system->filters[core]
               ? stc_sf_counters_of(system->filters[core])
               : NULL;
}

void stc_cstc_filter_total(const stc_cstc_system *system, stc_sf_counters *total)
{
    memset(total, 0, sizeof *total);
    for (unsigned c = 0; c < system->config.cores; c++)
        if (system->filters[c])
            stc_sf_counters_add(total, stc_sf_counters_of(system->filters[c]));
}

uint64_t stc_cstc_violation_count(const stc_cstc_system *system)
{
    return system->book.violations;
}

uint64_t stc_cstc_violation_kind_count(const stc_cstc_system *system, stc_coh_violation_kind kind)
{
    return stc_coh_book_violation_kind_count(&system->book, kind);
}

const stc_coh_violation *stc_cstc_violation_at(const stc_cstc_system *system, unsigned index)
{
    return stc_coh_book_violation_at(&system->book, index);
}

bool stc_cstc_supply_read_at(const stc_cstc_system *system, unsigned core, uint64_t cycle)
{
    return core < system->config.cores && supply_read_at(&system->sides[core], cycle);
}

uint64_t stc_cstc_probe_waits(const stc_cstc_system *system)
{
    return system->probe_waits;
}

stc_coh_state stc_cstc_state_of(const stc_cstc_system *system, unsigned core, uint64_t addr)
{
    if (core >= system->config.cores)
        return STC_COH_I;
    long slot = find_slot(system, core, block_of(system, addr));
    return slot < 0 ? STC_COH_I : (stc_coh_state)system->sides[core].state[slot];
}

uint64_t stc_cstc_memory_read(const stc_cstc_system *system, uint64_t addr, uint32_t size)
{
    return stc_coh_book_read(&system->book, false, addr & geometry_of(system)->addr_mask, size);
}

uint64_t stc_cstc_shadow_read(const stc_cstc_system *system, uint64_t addr, uint32_t size)
{
    return stc_coh_book_read(&system->book, true, addr & geometry_of(system)->addr_mask, size);
}

const stc_cache *stc_cstc_cache(const stc_cstc_system *system, unsigned core)
{
    return core < system->config.cores ? system->sides[core].cache : NULL;
}

const stc_coh_core_cycles *stc_cstc_core_cycles_of(const stc_cstc_system *system, unsigned core)
{
    return core < system->config.cores ? &system->time.core[core] : NULL;
}

void stc_cstc_run_cycles_of(const stc_cstc_system *system, stc_coh_run_cycles *run)
{
    stc_coh_clock_run(&system->time, run);
}

void stc_cstc_set_memory_latency(stc_cstc_system *system, stc_coh_latency_fn latency,
                                 void *context)
{
    system->time.timing.latency = latency;
    system->time.timing.latency_context = context;
}

const stc_coh_bus_timing *stc_cstc_timing_of(const stc_cstc_system *system)
{
    return &system->time.timing;
}

const stc_cstc_config *stc_cstc_config_of(const stc_cstc_system *system)
{
    return &system->config;
}

/* One slot of core against the layer's invariants (stc_cstc_check). */
static int check_slot(const stc_cstc_system *system, unsigned core, unsigned bank, unsigned row,
                      char *err, size_t err_len)
{
    const core_side *side = &system->sides[core];
    size_t slot = slot_of(system, bank, row);
    stc_coh_state state = (stc_coh_state)side->state[slot];
    stc_slot view;
    stc_cache_slot(side->cache, bank, row, &view);
    const char *why = NULL;
    if (view.valid != (state != STC_COH_I))
        why = view.valid ? "valid line in state I" : "state without a valid line";
    else if (view.valid &&
             view.line_addr != addr_of(system, system->book.history[side->entry[slot]].block))
        why = "state about another line";
    else if (view.valid && view.dirty != (state == STC_COH_M || state == STC_COH_O))
        why = view.dirty ? "dirty line in a clean state" : "clean line in a dirty state";
    if (!why)
        return 0;
    snprintf(err, err_len, "core %u bank %u row %u (line 0x%llx, %s): %s", core, bank, row,
             (unsigned long long)view.line_addr, stc_coh_state_name(state), why);
    return -1;
}

int stc_cstc_check(const stc_cstc_system *system, char *err, size_t err_len)
{
    const stc_geometry *geometry = geometry_of(system);
    for (unsigned c = 0; c < system->config.cores; c++) {
        if (stc_cache_check(system->sides[c].cache, err, err_len) != 0)
            return -1;
        for (unsigned row = 0; row < geometry->rows; row++)
            for (unsigned bank = 0; bank < geometry->banks; bank++)
                if (check_slot(system, c, bank, row, err, err_len) != 0)
                    return -1;
    }
    return 0;
}

const stc_coh_row_uses *stc_cstc_row_uses_of(const stc_cstc_system *system)
{
    return &system->uses;
}
