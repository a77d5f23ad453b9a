/*
 * coherent_stc_split.c - stc caches on the split-transaction bus (the
 * contract is coherent_stc_split.h; docs/COHERENCE.md section 12).
 *
 * The bus is coherent_split.c's, driven as a cache layer
 * (coherent_split_layer.h). Its frames are ours: per core, one per slot of
 * the stc cache (row x banks + bank: the slot's protocol state, block,
 * book entry and a copy of its bytes, which stc_cspl_check compares with
 * the cache's), then one per subline of the fill buffer. The bus finds a
 * core's copy in the slot the cache's tags give, else in the fill buffer.
 */
#include "coherent_stc_split.h"

#include "coherent_split_layer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The logical-line miss core is working through, if any. */
typedef struct {
    bool active;
    uint64_t block;     /* the requested physical line */
    uint32_t fetched;   /* bit s: fill buffer entry s holds a fetched (or fetching) line */
    bool performed;     /* the processor's access performed on the fill buffer's copy */
} line_miss;

/* Core's reconfigurations queued behind their markers, oldest first
 * (one marker each in its reference stream, so at most MAX_WINDOW). */
typedef struct {
    stc_config next[MAX_WINDOW];
    unsigned head, count;
    bool waited; /* the one at the head has waited for a put */
    bool started;     /* ... has run its first step, at step `start` */
    uint64_t start;
} reconfig_queue;

/* What one cache's memory callbacks need: they serve an install. */
typedef struct {
    stc_cspl_system *system;
    unsigned core;
} memory_port;

struct stc_cspl_system {
    stc_cspl_config config;
    stc_cs_system *bus;
    stc_cache *cache[STC_COH_MAX_CORES];
    memory_port port[STC_COH_MAX_CORES];
    line_miss miss[STC_COH_MAX_CORES];
    uint64_t installs[STC_COH_MAX_CORES];
    reconfig_queue reconfig[STC_COH_MAX_CORES];
    stc_cspl_walk_counters walk[STC_COH_MAX_CORES];
    size_t slots;    /* rows x banks: slot frames per core */
    size_t per_core; /* frames per core: slots, then STC_MAX_SUBLINES fill entries */
    unsigned line_shift;
};

/* ------------------------------------------------------------ frames */

static unsigned row_of(const stc_cspl_system *system, uint64_t block)
{
    return (unsigned)(block & (system->config.geometry.rows - 1));
}

static unsigned subline_of(const stc_cspl_system *system, unsigned core, uint64_t block)
{
    return row_of(system, block) & (system->config.configs[core].sublines - 1);
}

static size_t slot_frame(const stc_cspl_system *system, unsigned core, unsigned bank, unsigned row)
{
    return core * system->per_core + (size_t)row * system->config.geometry.banks + bank;
}

static size_t fill_frame(const stc_cspl_system *system, unsigned core, unsigned sub)
{
    return core * system->per_core + system->slots + sub;
}

static bool is_slot_frame(const stc_cspl_system *system, unsigned core, long f)
{
    return f >= 0 && (size_t)f >= core * system->per_core &&
           (size_t)f < core * system->per_core + system->slots;
}

/* The slot frame of core's cache holding block (its tags say so), or -1. */
static long find_slot(const stc_cspl_system *system, unsigned core, uint64_t block)
{
    int bank = stc_cache_lookup(system->cache[core], block << system->line_shift);
    if (bank < 0)
        return -1;
    return (long)slot_frame(system, core, (unsigned)bank, row_of(system, block));
}

/* Core's copy of block as the bus and the processor see it: its slot
 * (the cache's tags), else its fill buffer, which is snooped like a slot
 * (COHERENCE.md 12.1 decision 6). */
static long layer_find_frame(void *context, const stc_cs_system *bus, unsigned core,
                             uint64_t block)
{
    const stc_cspl_system *system = context;
    long f = find_slot(system, core, block);
    if (f >= 0 && bus->frames[f].state != STC_COH_SP_I && bus->frames[f].block == block)
        return f;
    /* the broken variant: only the core's own events see its fill buffer */
    if (system->config.breaks & STC_CSPL_BREAK_FILL_NOT_SNOOPED && bus->acting != core)
        return -1;
    for (unsigned sub = 0; sub < STC_MAX_SUBLINES; sub++) {
        size_t g = fill_frame(system, core, sub);
        if (bus->frames[g].state != STC_COH_SP_I && bus->frames[g].block == block)
            return (long)g;
    }
    return -1;
}

/* The requested line's miss takes its fill buffer entry. */
static long layer_allocate_frame(void *context, stc_cs_system *bus, unsigned core, uint64_t block,
                                 uint32_t entry)
{
    stc_cspl_system *system = context;
    unsigned sub = subline_of(system, core, block);
    size_t g = fill_frame(system, core, sub);
    bus->frames[g] = (frame){.block = block, .entry = entry, .state = STC_COH_SP_I};
    system->miss[core].fetched |= 1u << sub;
    return (long)g;
}

/* ------------------------------------------------------------ the cache */

/* The cache slot of core's slot frame s (slot_frame's inverse). */
static void slot_of_frame(const stc_cspl_system *system, unsigned core, size_t s, unsigned *bank,
                          unsigned *row)
{
    size_t index = s - core * system->per_core;
    *bank = (unsigned)(index % system->config.geometry.banks);
    *row = (unsigned)(index / system->config.geometry.banks);
}

/* Core's slot frame s now holds a stable or evicted state: the cache's
 * slot agrees (dropped in I, dirty exactly in M and O). */
static void sync_slot(stc_cspl_system *system, unsigned core, size_t s)
{
    unsigned bank, row;
    slot_of_frame(system, core, s, &bank, &row);
    stc_coh_sp_state state = (stc_coh_sp_state)system->bus->frames[s].state;
    if (state == STC_COH_SP_I)
        stc_cache_invalidate_slot(system->cache[core], bank, row);
    else if (stc_coh_sp_stable(state))
        stc_cache_set_slot_dirty(system->cache[core], bank, row,
                                 state == STC_COH_SP_M || state == STC_COH_SP_O);
}

/* Whether a slot may hold state: a readable one (an upgrade's SM^AD too),
 * or an evicted block waiting for its put (MI^A, EI^A, OI^A: readable by
 * their first letter; II^A once it answered). */
static bool slot_may_hold(stc_coh_sp_state state)
{
    return stc_coh_sp_permission(state) != STC_COH_I || state == STC_COH_SP_II_A;
}

/* An upgrade's copy was taken (SM^AD or OM^AD to IM^AD): the slot drops
 * it and the request moves to the fill buffer, where the access finishes
 * as a miss of its logical line. */
static void move_to_fill_buffer(stc_cspl_system *system, unsigned core, size_t s)
{
    stc_cs_system *bus = system->bus;
    uint64_t block = bus->frames[s].block;
    unsigned sub = subline_of(system, core, block);
    size_t g = fill_frame(system, core, sub);
    bus->frames[g] = bus->frames[s];
    memcpy(stc_csl_frame_data(bus, g), stc_csl_frame_data(bus, s), bus->line);
    if (bus->core[core].req_frame == s)
        bus->core[core].req_frame = g;
    bus->frames[s].state = STC_COH_SP_I;
    sync_slot(system, core, s);
    system->miss[core] = (line_miss){.active = true, .block = block, .fetched = 1u << sub};
}

/* After every event: the slots of the blocks it touched follow their
 * states. */
static void layer_after_event(void *context, stc_cs_system *bus)
{
    stc_cspl_system *system = context;
    for (unsigned i = 0; i < bus->touched_count; i++) {
        uint64_t block = bus->entries[bus->touched[i]].block;
        for (unsigned c = 0; c < system->config.cores; c++) {
            long s = find_slot(system, c, block);
            if (s < 0 || bus->frames[s].block != block)
                continue;
            if (slot_may_hold((stc_coh_sp_state)bus->frames[s].state) ||
                bus->frames[s].state == STC_COH_SP_I)
                sync_slot(system, c, (size_t)s);
            else
                move_to_fill_buffer(system, c, (size_t)s);
        }
    }
}

/* The address and bytes of core's current block access. */
static uint64_t access_addr(stc_cspl_system *system, unsigned core, block_access *a)
{
    *a = stc_csl_current_access(system->bus, core);
    return (a->block << system->line_shift) + a->offset;
}

/* A row performed core's access in frame f. In a slot (a hit, or an
 * upgrade's data): the cache performs it too, and must agree. In the fill
 * buffer: the access is done when its logical line is installed. */
static bool layer_performed(void *context, stc_cs_system *bus, unsigned core, long f)
{
    stc_cspl_system *system = context;
    if (!is_slot_frame(system, core, f)) {
        system->miss[core].performed = true;
        return false;
    }
    block_access a;
    uint64_t addr = access_addr(system, core, &a);
    const uint8_t *copy = stc_csl_frame_data(bus, (size_t)f) + a.offset;
    bool store = stc_csl_head(bus, core)->op == STC_COH_OP_STORE;
    uint8_t read[STC_COH_MAX_LINE];
    stc_access_result result;
    stc_cache_access(system->cache[core], store ? STC_OP_WRITE : STC_OP_READ, addr, a.len,
                     store ? copy : NULL, NULL, read, &result);
    if (!result.hit || (!store && memcmp(read, copy, a.len) != 0))
        stc_csl_violation(bus, STC_CS_VIOL_DATA, core, addr,
                          "the cache's %s of 0x%llx disagrees with its copy (%s)",
                          store ? "store" : "load", (unsigned long long)addr,
                          result.hit ? "other bytes" : "a miss");
    return true;
}

/* ------------------------------------------------------------ a miss */

/* Install core's logical line: the cache's own miss, its read bursts
 * served from the fill buffer; then every filled slot takes its entry's
 * state (and is dropped if a snoop took it). */
static void install(stc_cspl_system *system, unsigned core, const stc_miss_plan *plan)
{
    stc_cs_system *bus = system->bus;
    block_access a;
    uint64_t addr = access_addr(system, core, &a);
    const reference *ref = stc_csl_head(bus, core);
    bool store = ref->op == STC_COH_OP_STORE;
    stc_access_result result;
    stc_cache_access(system->cache[core], store ? STC_OP_WRITE : STC_OP_READ, addr, a.len,
                     store ? ref->bytes + bus->core[core].done : NULL, NULL, NULL, &result);
    for (unsigned sub = 0; sub < plan->sublines; sub++) {
        if (!(plan->missing >> sub & 1))
            continue;
        size_t g = fill_frame(system, core, sub);
        size_t s = slot_frame(system, core, plan->bank, plan->first_row + sub);
        bus->frames[s] = bus->frames[g];
        memcpy(stc_csl_frame_data(bus, s), stc_csl_frame_data(bus, g), bus->line);
        bus->frames[g].state = STC_COH_SP_I;
        sync_slot(system, core, s);
    }
    system->miss[core] = (line_miss){0};
    system->installs[core]++;
    stc_csl_access_done(bus, core);
}

/* The next victim of the plan runs its Evict row. Returns true while the
 * miss must wait (a put is now the outstanding request). */
static bool evict_victims(stc_cspl_system *system, unsigned core, const stc_miss_plan *plan)
{
    stc_cs_system *bus = system->bus;
    for (unsigned sub = 0; sub < plan->sublines; sub++) {
        if (!(plan->missing >> sub & 1))
            continue;
        unsigned row = plan->first_row + sub;
        stc_slot slot;
        stc_cache_slot(system->cache[core], plan->bank, row, &slot);
        if (!slot.valid)
            continue;
        size_t v = slot_frame(system, core, plan->bank, row);
        if (system->config.breaks & STC_CSPL_BREAK_VICTIM_PUT_SKIPPED) {
            bus->frames[v].state = STC_COH_SP_I;
        } else if (!stc_csl_evict(bus, core, v)) {
            return true;
        }
        sync_slot(system, core, v);
    }
    return false;
}

/* Issue the next missing line's request: the siblings ascending, the
 * requested line last. Returns false when every line has been fetched. */
static bool fetch_next(stc_cspl_system *system, unsigned core, const stc_miss_plan *plan)
{
    stc_cs_system *bus = system->bus;
    line_miss *miss = &system->miss[core];
    unsigned requested = subline_of(system, core, miss->block);
    uint64_t first_block = miss->block - requested;
    for (unsigned sub = 0; sub < plan->sublines; sub++) {
        if (sub == requested || !(plan->missing >> sub & 1) || (miss->fetched >> sub & 1))
            continue;
        long e = stc_csl_find_block(bus, first_block + sub);
        if (e < 0) {
            snprintf(bus->error, sizeof bus->error, "out of memory");
            return true;
        }
        miss->fetched |= 1u << sub;
        stc_csl_fetch(bus, core, fill_frame(system, core, sub), first_block + sub, (uint32_t)e);
        return true;
    }
    if (miss->fetched >> requested & 1)
        return false;
    stc_csl_attempt(bus, core); /* the processor's row; allocates its entry */
    return true;
}

/* One step of core's logical-line miss, re-planned every time (a snoop
 * may have taken a present sibling or freed a candidate since). */
static void continue_miss(stc_cspl_system *system, unsigned core)
{
    stc_miss_plan plan;
    stc_cache_miss_plan(system->cache[core], system->miss[core].block << system->line_shift, &plan);
    if (evict_victims(system, core, &plan) || fetch_next(system, core, &plan))
        return;
    install(system, core, &plan);
}

/* Whether core's miss of block must wait before its next step (only with
 * a writeback buffer, COHERENCE.md 10.11): its next victim needs a put and
 * the buffer is full, or a line it must fetch waits there for its put. */
static bool miss_waits(stc_cspl_system *system, unsigned core, uint64_t block, uint32_t fetched)
{
    stc_cs_system *bus = system->bus;
    if (bus->config.wb_buffer == 0)
        return false;
    stc_miss_plan plan;
    stc_cache_miss_plan(system->cache[core], block << system->line_shift, &plan);
    uint64_t first_block = block - subline_of(system, core, block);
    for (unsigned sub = 0; sub < plan.sublines; sub++) {
        if (!(plan.missing >> sub & 1))
            continue;
        size_t v = slot_frame(system, core, plan.bank, plan.first_row + sub);
        if (bus->frames[v].state == STC_COH_SP_I)
            continue;
        if (!stc_csl_evict_may_run(bus, core, v))
            return true;
        break; /* the next victim may leave; the lines to fetch decide */
    }
    /* Checked even when victims remain: the same attempt goes on from its
     * victims to the fetches, and a line fetched while its own put waits
     * in the buffer would be answered by nobody (memory still sees the
     * core as its owner): a deadlock, seen on matmul before this check
     * ran behind a victim. */
    for (unsigned sub = 0; sub < plan.sublines; sub++)
        if ((plan.missing >> sub & 1) && !(fetched >> sub & 1) &&
            stc_csl_buffered(bus, core, first_block + sub))
            return true;
    return false;
}

static bool reconfig_waits(stc_cspl_system *system, unsigned core);
static void continue_reconfig(stc_cspl_system *system, unsigned core);

static bool layer_attempt_enabled(void *context, stc_cs_system *bus, unsigned core)
{
    stc_cspl_system *system = context;
    const line_miss *miss = &system->miss[core];
    if (bus->core[core].count == 0 || bus->core[core].req != STC_COH_SP_REQ_NONE)
        return false;
    if (stc_csl_head_is_marker(bus, core))
        return !reconfig_waits(system, core);
    uint64_t block = miss->block;
    if (!miss->active) {
        block = stc_csl_current_access(bus, core).block;
        if (layer_find_frame(system, bus, core, block) >= 0)
            return stc_csl_attempt_enabled(bus, core); /* a hit, or an upgrade */
    }
    if (!miss_waits(system, core, block, miss->active ? miss->fetched : 0))
        return true;
    stc_csl_count_stall(bus, core);
    return false;
}

static void layer_attempt(void *context, stc_cs_system *bus, unsigned core)
{
    stc_cspl_system *system = context;
    if (stc_csl_head_is_marker(bus, core)) {
        continue_reconfig(system, core);
        return;
    }
    if (!system->miss[core].active) {
        block_access a = stc_csl_current_access(bus, core);
        if (layer_find_frame(system, bus, core, a.block) >= 0) {
            stc_csl_attempt(bus, core); /* a hit, or an upgrade's GetM */
            return;
        }
        system->miss[core] = (line_miss){.active = true, .block = a.block};
    }
    continue_miss(system, core);
}

/* ------------------------------------------------------------ reconfigure */

/* The first valid slot frame of core's cache that the walk to next would
 * drop, in the walk's order (rows ascending, banks ascending), or -1. */
static long next_walk_victim(const stc_cspl_system *system, unsigned core,
                             const stc_config *next)
{
    const stc_geometry *geometry = &system->config.geometry;
    for (unsigned row = 0; row < geometry->rows; row++) {
        uint32_t drops = stc_cache_walk_drops(system->cache[core], next, row);
        if (drops)
            return (long)slot_frame(system, core, (unsigned)__builtin_ctz(drops), row);
    }
    return -1;
}

/* How many valid lines the walk to next would still drop (the broken
 * variant's "is this the last one"). */
static unsigned walk_drops_left(const stc_cspl_system *system, unsigned core,
                                const stc_config *next)
{
    unsigned left = 0;
    for (unsigned row = 0; row < system->config.geometry.rows; row++)
        left += (unsigned)__builtin_popcount(stc_cache_walk_drops(system->cache[core], next, row));
    return left;
}

/* Whether core's queued reconfiguration must wait before its next step:
 * a response still due (nothing may be outstanding when it starts), or,
 * with a writeback buffer, the next line it drops needs a put and the
 * buffer is full (a stall, as a miss's victim: 10.11). */
static bool reconfig_waits(stc_cspl_system *system, unsigned core)
{
    stc_cs_system *bus = system->bus;
    if (bus->core[core].resp.full)
        return true;
    reconfig_queue *queue = &system->reconfig[core];
    long v = next_walk_victim(system, core, &queue->next[queue->head]);
    if (v < 0 || stc_csl_evict_may_run(bus, core, (size_t)v))
        return false;
    stc_csl_count_stall(bus, core);
    queue->waited = true;
    return true;
}

/* The walk's lines are gone: the cache switches (wake, walk, sleep), its
 * walk finding nothing valid to drop; the 3C split's fully associative
 * cache takes the new size (as stc_cstc_reconfigure); the marker leaves. */
static void switch_config(stc_cspl_system *system, unsigned core)
{
    stc_cs_system *bus = system->bus;
    reconfig_queue *queue = &system->reconfig[core];
    const stc_config *next = &queue->next[queue->head];
    stc_reconfig_result result;
    stc_cache_reconfigure(system->cache[core], next, &result);
    if (result.writebacks || result.invalidations)
        stc_csl_violation(bus, STC_CS_VIOL_BUS, core, 0,
                          "core %u's walk dropped %u valid lines (%u dirty) that took no Evict row",
                          core, result.invalidations, result.writebacks);
    system->config.configs[core] = *next;
    stc_coh_book_resize_fa(&bus->book, core,
                           (uint32_t)(stc_config_size_bytes(&system->config.geometry, next) /
                                      system->config.geometry.line_bytes));
    system->walk[core].reconfigs++;
    system->walk[core].waited += queue->waited;
    system->walk[core].steps += bus->steps - queue->start;
    queue->waited = queue->started = false;
    queue->head = (queue->head + 1) % MAX_WINDOW;
    queue->count--;
    stc_csl_marker_done(bus, core);
}

/* The broken variant STC_CSPL_BREAK_SLEEP_BEFORE_PUT: the cache switches
 * while the put of the line in frame v is still to be ordered; the line's
 * bank goes off under it, so the data the put sends later is whatever the
 * slept slot holds (scrambled). */
static void sleep_before_put(stc_cspl_system *system, unsigned core, size_t v)
{
    unsigned bank, row;
    slot_of_frame(system, core, v, &bank, &row);
    stc_cache_invalidate_slot(system->cache[core], bank, row);
    switch_config(system, core);
    stc_slot slot;
    stc_cache_slot(system->cache[core], bank, row, &slot);
    memcpy(stc_csl_frame_data(system->bus, v), slot.data, system->bus->line);
}

/* One line the walk drops takes its Evict row (S silently; M, O, E by a
 * put). Returns true while the reconfiguration must wait: the put is the
 * outstanding request (no buffer) or the buffer is full. */
static bool walk_evict(stc_cspl_system *system, unsigned core, size_t v)
{
    stc_cs_system *bus = system->bus;
    stc_cspl_walk_counters *walk = &system->walk[core];
    const stc_cs_counters *counters = &bus->counters[core];
    uint64_t puts = counters->putm, putes = counters->pute;
    bool freed;
    if (system->config.breaks & STC_CSPL_BREAK_WALK_PUT_SKIPPED) {
        bus->frames[v].state = STC_COH_SP_I;
        freed = true;
    } else {
        freed = stc_csl_evict(bus, core, v);
    }
    walk->puts += counters->putm - puts;
    walk->putes += counters->pute - putes;
    walk->silent += freed && counters->putm == puts;
    if (freed) {
        sync_slot(system, core, v);
        return false;
    }
    system->reconfig[core].waited = true;
    return true;
}

/* One step of core's queued reconfiguration, started only with nothing
 * outstanding (no miss, no request): the lines its walk would drop
 * leave one at a time, each put ordered before the next line goes (or
 * moved into the writeback buffer), re-asked of the cache every step (a
 * snoop may have taken a line meanwhile); when none is left the cache
 * switches. Lines not yet walked stay where they are, snooped there. */
static void continue_reconfig(stc_cspl_system *system, unsigned core)
{
    reconfig_queue *queue = &system->reconfig[core];
    if (!queue->started) {
        queue->started = true;
        queue->start = system->bus->steps;
    }
    long v, freed = -1;
    while ((v = next_walk_victim(system, core, &queue->next[queue->head])) >= 0) {
        if (v == freed) {
            /* a line its Evict row freed is still in the cache: no
             * progress is possible (the watchdog ends the run) */
            stc_csl_violation(system->bus, STC_CS_VIOL_BUS, core, 0,
                              "core %u's walk: a dropped line is still valid in its slot", core);
            return;
        }
        if (!walk_evict(system, core, (size_t)v)) {
            freed = v;
            continue;
        }
        if (system->config.breaks & STC_CSPL_BREAK_SLEEP_BEFORE_PUT &&
            system->bus->core[core].req != STC_COH_SP_REQ_NONE &&
            walk_drops_left(system, core, &queue->next[queue->head]) == 1)
            sleep_before_put(system, core, (size_t)v);
        return;
    }
    switch_config(system, core);
}

/* ------------------------------------------------------------ memory */

/* An install's read burst: every line from the fill buffer. */
static void read_burst(void *context, uint64_t addr, uint8_t *data, unsigned bytes)
{
    memory_port *port = context;
    stc_cspl_system *system = port->system;
    stc_cs_system *bus = system->bus;
    for (unsigned at = 0; at < bytes; at += bus->line) {
        uint64_t block = (addr + at) >> system->line_shift;
        unsigned sub = subline_of(system, port->core, block);
        size_t g = fill_frame(system, port->core, sub);
        if ((system->miss[port->core].fetched >> sub & 1) && bus->frames[g].block == block) {
            memcpy(data + at, stc_csl_frame_data(bus, g), bus->line);
            continue;
        }
        memset(data + at, 0, bus->line);
        stc_csl_violation(bus, STC_CS_VIOL_BUS, port->core, block << system->line_shift,
                          "the cache reads 0x%llx, which its miss did not fetch",
                          (unsigned long long)(block << system->line_shift));
    }
}

/* Victims leave by their puts before the install: the cache never writes
 * one back itself. */
static void write_burst(void *context, uint64_t addr, const uint8_t *data, unsigned bytes)
{
    (void)data;
    (void)bytes;
    memory_port *port = context;
    stc_csl_violation(port->system->bus, STC_CS_VIOL_BUS, port->core, addr,
                      "the cache writes back 0x%llx: a victim that took no Evict row",
                      (unsigned long long)addr);
}

/* ------------------------------------------------------------ create */

static int check_config(const stc_cspl_config *config, char *err, size_t err_len)
{
    if (!config || config->cores < 1 || config->cores > STC_COH_MAX_CORES) {
        snprintf(err, err_len, "cores: must be 1..%d", STC_COH_MAX_CORES);
        return -1;
    }
    if (config->geometry.line_bytes > STC_COH_MAX_LINE) {
        snprintf(err, err_len, "line_bytes %u: at most %d", config->geometry.line_bytes,
                 STC_COH_MAX_LINE);
        return -1;
    }
    for (unsigned c = 0; c < config->cores; c++) {
        const char *why = stc_config_check(&config->geometry, &config->configs[c]);
        if (why) {
            snprintf(err, err_len, "core %u's configuration: %s", c, why);
            return -1;
        }
    }
    return 0;
}

/* The bus's configuration: one way of one physical line per frame of a
 * core (the geometry is only checked; the frames are ours). */
static stc_cs_config bus_config(const stc_cspl_config *config, size_t per_core)
{
    uint32_t lines = 1;
    while (lines < per_core)
        lines *= 2;
    return (stc_cs_config){
        .cores = config->cores,
        .size_bytes = lines * config->geometry.line_bytes,
        .ways = 1,
        .line_bytes = config->geometry.line_bytes,
        .protocol = config->protocol,
        .table = config->table,
        .schedule = config->schedule,
        .seed = config->seed,
        .max_delay = config->max_delay,
        .window = config->window,
        .watchdog_steps = config->watchdog_steps,
        .wb_buffer = config->wb_buffer,
        .done = config->done,
        .done_context = config->done_context,
    };
}

static int create_caches(stc_cspl_system *system, char *err, size_t err_len)
{
    const stc_cspl_config *config = &system->config;
    for (unsigned c = 0; c < config->cores; c++) {
        system->port[c] = (memory_port){.system = system, .core = c};
        stc_memory memory = {.context = &system->port[c], .read_burst = read_burst,
                             .write_burst = write_burst};
        system->cache[c] = stc_cache_create(&config->geometry, STC_DCACHE, &config->configs[c],
                                            &memory, err, err_len);
        if (!system->cache[c])
            return -1;
        /* the 3C split's FA cache: the core's physical lines */
        stc_coh_book_resize_fa(&system->bus->book, c,
                               (uint32_t)(stc_config_size_bytes(&config->geometry,
                                                                &config->configs[c]) /
                                          config->geometry.line_bytes));
    }
    return 0;
}

stc_cspl_system *stc_cspl_create(const stc_cspl_config *config, char *err, size_t err_len)
{
    if (check_config(config, err, err_len) != 0)
        return NULL;
    stc_cspl_system *system = calloc(1, sizeof *system);
    if (!system) {
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    system->config = *config;
    system->config.table = NULL;
    system->line_shift = config->geometry.offset_bits;
    system->slots = (size_t)config->geometry.rows * config->geometry.banks;
    system->per_core = system->slots + STC_MAX_SUBLINES;
    stc_cs_config bus = bus_config(config, system->per_core);
    stc_cs_layer layer = {
        .context = system,
        .find_frame = layer_find_frame,
        .allocate_frame = layer_allocate_frame,
        .attempt_enabled = layer_attempt_enabled,
        .attempt = layer_attempt,
        .performed = layer_performed,
        .after_event = layer_after_event,
    };
    system->bus = stc_csl_create(&bus, &layer, system->per_core * config->cores,
                                 (uint32_t)system->slots, err, err_len);
    if (!system->bus || create_caches(system, err, err_len) != 0) {
        stc_cspl_destroy(system);
        return NULL;
    }
    system->config.protocol = stc_cs_config_of(system->bus)->protocol;
    return system;
}

void stc_cspl_destroy(stc_cspl_system *system)
{
    if (!system)
        return;
    for (unsigned c = 0; c < STC_COH_MAX_CORES; c++)
        stc_cache_destroy(system->cache[c]);
    stc_cs_destroy(system->bus);
    free(system);
}

/* ------------------------------------------------------------ running */

int stc_cspl_submit(stc_cspl_system *system, unsigned core, stc_coh_op op, uint64_t addr,
                    uint32_t size, uint64_t value, uint64_t tag)
{
    return stc_cs_submit(system->bus, core, op, addr, size, value, tag);
}

void stc_cspl_drain(stc_cspl_system *system)
{
    stc_cs_drain(system->bus);
}

void stc_cspl_flush(stc_cspl_system *system)
{
    stc_cs_system *bus = system->bus;
    stc_cs_drain(bus);
    for (unsigned c = 0; c < system->config.cores; c++) {
        for (size_t index = 0; index < system->slots && !bus->stuck; index++) {
            size_t s = c * system->per_core + index;
            if (bus->frames[s].state == STC_COH_SP_I)
                continue;
            if (!stc_csl_evict_may_run(bus, c, s))
                stc_cs_drain(bus); /* the full writeback buffer's puts ordered */
            /* without a buffer a put is ordered, its data delivered,
             * before the next */
            if (!stc_csl_evict(bus, c, s))
                stc_cs_drain(bus);
            sync_slot(system, c, s);
        }
    }
    stc_cs_drain(bus); /* the buffered puts */
}

int stc_cspl_reconfigure(stc_cspl_system *system, unsigned core, const stc_config *next)
{
    stc_cs_system *bus = system->bus;
    const char *rule = core < system->config.cores
                           ? stc_config_check(&system->config.geometry, next)
                           : NULL;
    if (rule) {
        snprintf(bus->error, sizeof bus->error, "illegal configuration: %s", rule);
        return -1;
    }
    if (stc_csl_submit_marker(bus, core, 0) != 0)
        return -1;
    reconfig_queue *queue = &system->reconfig[core];
    if (!bus->stuck) {
        queue->next[(queue->head + queue->count) % MAX_WINDOW] = *next;
        queue->count++;
    }
    return 0;
}

/* ------------------------------------------------------------ queries */

stc_cs_system *stc_cspl_bus(stc_cspl_system *system)
{
    return system->bus;
}

const stc_cs_system *stc_cspl_bus_of(const stc_cspl_system *system)
{
    return system->bus;
}

const stc_cache *stc_cspl_cache(const stc_cspl_system *system, unsigned core)
{
    return core < system->config.cores ? system->cache[core] : NULL;
}

void stc_cspl_core_counters(const stc_cspl_system *system, unsigned core, stc_cspl_counters *out)
{
    out->coherence = *stc_cs_core_counters(system->bus, core);
    out->cache = *stc_cache_counters(system->cache[core]);
    out->walk = system->walk[core];
}

void stc_cspl_total(const stc_cspl_system *system, stc_cspl_counters *total)
{
    stc_cs_total(system->bus, &total->coherence);
    memset(&total->cache, 0, sizeof total->cache);
    memset(&total->walk, 0, sizeof total->walk);
    for (unsigned c = 0; c < system->config.cores; c++) {
        stc_counters_add(&total->cache, stc_cache_counters(system->cache[c]));
        const stc_cspl_walk_counters *walk = &system->walk[c];
        total->walk.reconfigs += walk->reconfigs;
        total->walk.puts += walk->puts;
        total->walk.putes += walk->putes;
        total->walk.silent += walk->silent;
        total->walk.waited += walk->waited;
        total->walk.steps += walk->steps;
    }
}

const stc_config *stc_cspl_config_of(const stc_cspl_system *system, unsigned core)
{
    return core < system->config.cores ? &system->config.configs[core] : NULL;
}

uint64_t stc_cspl_installs(const stc_cspl_system *system, unsigned core)
{
    if (core < system->config.cores)
        return system->installs[core];
    uint64_t sum = 0;
    for (unsigned c = 0; c < system->config.cores; c++)
        sum += system->installs[c];
    return sum;
}

/* Core's slot (bank, row) against its frame; 0 or -1 with err. */
static int check_slot(const stc_cspl_system *system, unsigned core, unsigned bank, unsigned row,
                      char *err, size_t err_len)
{
    stc_slot slot;
    stc_cache_slot(system->cache[core], bank, row, &slot);
    size_t s = slot_frame(system, core, bank, row);
    const frame *f = &system->bus->frames[s];
    stc_coh_sp_state state = (stc_coh_sp_state)f->state;
    const char *why = NULL;
    if (slot.valid != (state != STC_COH_SP_I))
        why = slot.valid ? "a valid line in state I" : "an invalid line in a state";
    else if (!slot.valid)
        return 0;
    else if (slot.line_addr >> system->line_shift != f->block)
        why = "a line whose state is about another block";
    else if (memcmp(slot.data, system->bus->data + s * system->bus->line, system->bus->line) != 0)
        why = "the cache's bytes differ from the layer's copy";
    else if (stc_coh_sp_stable(state) &&
             slot.dirty != (state == STC_COH_SP_M || state == STC_COH_SP_O))
        why = slot.dirty ? "dirty but not in M or O" : "clean in M or O";
    if (why)
        snprintf(err, err_len, "core %u bank %u row %u (0x%llx, %s): %s", core, bank, row,
                 (unsigned long long)slot.line_addr, stc_coh_sp_state_name(state), why);
    return why ? -1 : 0;
}

int stc_cspl_check(const stc_cspl_system *system, char *err, size_t err_len)
{
    const stc_geometry *geometry = &system->config.geometry;
    for (unsigned c = 0; c < system->config.cores; c++) {
        if (stc_cache_check(system->cache[c], err, err_len) != 0)
            return -1;
        for (unsigned row = 0; row < geometry->rows; row++)
            for (unsigned bank = 0; bank < geometry->banks; bank++)
                if (check_slot(system, c, bank, row, err, err_len) != 0)
                    return -1;
        for (unsigned sub = 0; sub < STC_MAX_SUBLINES && !system->miss[c].active; sub++) {
            if (system->bus->frames[fill_frame(system, c, sub)].state != STC_COH_SP_I) {
                snprintf(err, err_len, "core %u: fill buffer entry %u in use with no miss", c,
                         sub);
                return -1;
            }
        }
    }
    return 0;
}
