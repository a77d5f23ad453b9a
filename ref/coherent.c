/*
 * coherent.c - the coherent system on an atomic bus (the contract is
 * coherent.h; docs/COHERENCE.md section 9).
 *
 * Layout:
 * - caches: one array of frames for all cores, [core][set][way], and one
 *   byte array of their data in the same order;
 * - blocks: the book (coherence_book.h, shared with coherent_stc.c) holds
 *   every block ever touched as an entry: memory's bytes, the shadow's,
 *   the miss-class history and the fully associative caches of the 3C
 *   split; beside it, per entry, which cores hold a copy in which frame.
 *
 * Speed (docs/COHERENCE.md 9.7): every access used to search the tags of
 * every cache twice (the snoops, then the SWMR check) and hash the block
 * once or twice. Now a valid frame names its block's entry, and the entry
 * names, per core, the frame holding a valid copy (a bit mask and an
 * index), kept in step wherever a frame's state or block changes. A hit
 * finds its entry through its frame without the hash; snoops and the SWMR
 * check visit only the cores holding a copy; a victim's entry is its
 * frame's. The protocol rows are looked up once, at creation, into arrays
 * indexed by state and event. The tags stay the truth: find_frame still
 * serves the requester, the inspection calls and the snoop filter's
 * safety check.
 */
#include "coherent.h"

#include "coherence_book.h"
#include "counter_fields.h"
#include "timing.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define PRINTF_LIKE(fmt_index, args_index) __attribute__((format(printf, fmt_index, args_index)))
#else
#define PRINTF_LIKE(fmt_index, args_index)
#endif

typedef struct {
    uint64_t block; /* block number (addr / line_bytes) */
    uint64_t lru;   /* stamp of the last access; larger = more recent */
    uint32_t entry; /* the block's entry, if state is not I */
    uint8_t state;  /* stc_coh_state; I = the frame is free */
} frame;

/* Per book entry: which cores hold a valid copy, and where. */
typedef struct {
    uint8_t held; /* bit c: core c's frame[c] holds a valid copy (its state is not I) */
    uint32_t frame[STC_COH_MAX_CORES]; /* meaningful only where held */
} block_copies;

struct stc_coh_system {
    stc_coh_config config;
    stc_coh_table table;
    stc_coh_row_index rows; /* table's rows by pair */
    stc_coh_row_uses uses;  /* how often each ran */
    uint32_t sets, line, line_shift;
    frame *frames;
    uint8_t *data;

    stc_coh_book book;     /* blocks, memory, shadow, miss classes, violations */
    block_copies *copies;  /* [book entry] */
    uint32_t copies_capacity;

    stc_sf *filters[STC_COH_MAX_CORES]; /* NULL: no snoop filter */

    uint64_t clock;
    stc_coh_counters counters[STC_COH_MAX_CORES];

    /* Cycles (coherent_cycles.h, docs/COHERENCE.md 9.10): the clocks, and
     * the block access in progress: its bus cycles so far, how many
     * transactions and BusWBs it issued. */
    stc_coh_clock time;
    stc_coh_access_cycles pending;
    unsigned pending_transactions, pending_writebacks;
    char error[256];
};

_Static_assert((int)STC_COH_CLOCK_MAX_CORES == (int)STC_COH_MAX_CORES, "one clock per core");

/* ------------------------------------------------------------ counters */

#define COUNTER(name) STC_COUNTER_FIELD(stc_coh_counters, name)
static const stc_counter_field counter_list[STC_COH_COUNTER_COUNT] = {
    COUNTER(references),      COUNTER(loads),          COUNTER(stores),
    COUNTER(fetches),         COUNTER(hits),           COUNTER(misses),
    COUNTER(upgrades),        COUNTER(bus_rd),         COUNTER(bus_rdx),
    COUNTER(bus_wb),          COUNTER(inv_sent),       COUNTER(inv_received),
    COUNTER(c2c_supplied),    COUNTER(c2c_received),   COUNTER(mem_reads),
    COUNTER(flushes),         COUNTER(mem_writebacks), COUNTER(snoop_lookups),
    COUNTER(miss_compulsory), COUNTER(miss_true_sharing), COUNTER(miss_false_sharing),
    COUNTER(miss_capacity),   COUNTER(miss_conflict),  COUNTER(miss_true_dubois),
    COUNTER(miss_false_dubois),
};
#undef COUNTER
_Static_assert(sizeof(stc_coh_counters) == STC_COH_COUNTER_COUNT * sizeof(uint64_t),
               "counter_list must name every counter");

const char *stc_coh_counter_name(unsigned index)
{
    return index < STC_COH_COUNTER_COUNT ? counter_list[index].name : "?";
}

uint64_t stc_coh_counter_value(const stc_coh_counters *counters, unsigned index)
{
    return index < STC_COH_COUNTER_COUNT ? stc_counter_field_get(counters, &counter_list[index]) : 0;
}

const char *stc_coh_violation_kind_name(stc_coh_violation_kind kind)
{
    static const char *const names[STC_COH_VIOL_KIND_COUNT] = {"data", "swmr", "suppliers",
                                                                "impossible"};
    return (unsigned)kind < STC_COH_VIOL_KIND_COUNT ? names[kind] : "?";
}

/* ------------------------------------------------------------ helpers */

static bool is_power_of_two(uint64_t x)
{
    return x && !(x & (x - 1));
}

static uint32_t log2_u32(uint32_t x)
{
    uint32_t bits = 0;
    while ((1u << bits) < x)
        bits++;
    return bits;
}

static void set_error(stc_coh_system *system, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void set_error(stc_coh_system *system, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(system->error, sizeof system->error, fmt, args);
    va_end(args);
}

/* ------------------------------------------------------------ blocks */

/* The book entry of block (created if new), its copies record grown in
 * step; -1 out of memory. */
static long find_block(stc_coh_system *system, uint64_t block)
{
    long e = stc_coh_book_entry(&system->book, block);
    if (e < 0 || system->copies_capacity >= system->book.entry_capacity)
        return e;
    uint32_t capacity = system->book.entry_capacity;
    block_copies *copies = realloc(system->copies, (size_t)capacity * sizeof *copies);
    if (!copies)
        return -1;
    memset(copies + system->copies_capacity, 0,
           (size_t)(capacity - system->copies_capacity) * sizeof *copies);
    system->copies = copies;
    system->copies_capacity = capacity;
    return e;
}

/* ------------------------------------------------------------ create */

stc_coh_system *stc_coh_create(const stc_coh_config *config, char *err, size_t err_len)
{
    char message[256] = "";
    const stc_coh_table *table = NULL;
    if (!config) {
        snprintf(message, sizeof message, "no configuration");
    } else if (config->cores < 1 || config->cores > STC_COH_MAX_CORES) {
        snprintf(message, sizeof message, "cores %u: must be 1..%d", config->cores,
                 STC_COH_MAX_CORES);
    } else if (!is_power_of_two(config->line_bytes) || config->line_bytes < STC_COH_WORD_BYTES ||
               config->line_bytes > STC_COH_MAX_LINE) {
        snprintf(message, sizeof message, "line %u bytes: must be a power of two, %d..%d",
                 config->line_bytes, STC_COH_WORD_BYTES, STC_COH_MAX_LINE);
    } else if (config->ways < 1 || config->ways > 1024) {
        snprintf(message, sizeof message, "ways %u: must be 1..1024", config->ways);
    } else if (config->size_bytes > (1u << 30) ||
               config->size_bytes % ((uint64_t)config->ways * config->line_bytes) != 0 ||
               !is_power_of_two(config->size_bytes / ((uint64_t)config->ways * config->line_bytes))) {
        snprintf(message, sizeof message,
                 "size %u bytes: must be ways x line x a power of two (sets), at most 1 GiB",
                 config->size_bytes);
    } else if (stc_sf_check(&config->snoop_filter, message, sizeof message) != 0) {
        /* the message names the filter */
    } else if (!config->table && (unsigned)config->protocol >= STC_COH_PROTOCOL_COUNT) {
        snprintf(message, sizeof message, "protocol %d: unknown", (int)config->protocol);
    } else {
        table = config->table ? config->table : stc_coh_table_of(config->protocol);
        char check[200];
        if (stc_coh_table_check(table, check, sizeof check) != 0) {
            snprintf(message, sizeof message, "protocol table: %s", check);
            table = NULL;
        }
    }
    if (!table) {
        if (err && err_len)
            snprintf(err, err_len, "%s", message);
        return NULL;
    }

    stc_coh_system *system = calloc(1, sizeof *system);
    if (!system)
        goto out_of_memory;
    system->config = *config;
    system->table = *table;
    system->config.table = NULL;
    system->config.protocol = table->protocol;
    stc_coh_row_index_build(&system->rows, &system->table);
    stc_coh_bus_timing timing;
    stc_coh_bus_timing_init(&timing, config->line_bytes, stc_coh_default_mem_latency());
    stc_coh_clock_init(&system->time, config->cores, &timing);
    system->line = config->line_bytes;
    system->line_shift = log2_u32(config->line_bytes);
    system->sets = config->size_bytes / (config->ways * config->line_bytes);
    size_t frame_count = (size_t)config->cores * config->size_bytes / config->line_bytes;
    system->frames = calloc(frame_count, sizeof *system->frames);
    system->data = calloc(frame_count, config->line_bytes);
    if (!system->frames || !system->data)
        goto out_of_memory;
    if (stc_coh_book_init(&system->book, config->cores, config->line_bytes,
                          config->size_bytes / config->line_bytes) != 0)
        goto out_of_memory;
    for (unsigned c = 0; c < config->cores; c++) {
        if (config->snoop_filter.kind != STC_SF_NONE &&
            !(system->filters[c] = stc_sf_create(&config->snoop_filter)))
            goto out_of_memory;
    }
    return system;

out_of_memory:
    stc_coh_destroy(system);
    if (err && err_len)
        snprintf(err, err_len, "out of memory");
    return NULL;
}

void stc_coh_destroy(stc_coh_system *system)
{
    if (!system)
        return;
    for (unsigned c = 0; c < STC_COH_MAX_CORES; c++)
        stc_sf_destroy(system->filters[c]);
    stc_coh_book_free(&system->book);
    free(system->frames);
    free(system->data);
    free(system->copies);
    free(system);
}

/* ------------------------------------------------------------ the bus */

static size_t frame_index(const stc_coh_system *system, unsigned core, uint64_t block, uint32_t way)
{
    uint32_t set = (uint32_t)(block & (system->sets - 1));
    return ((size_t)core * system->sets + set) * system->config.ways + way;
}

/* The frame of core holding a valid copy of block, or -1. */
static long find_frame(const stc_coh_system *system, unsigned core, uint64_t block)
{
    for (uint32_t w = 0; w < system->config.ways; w++) {
        size_t f = frame_index(system, core, block, w);
        if (system->frames[f].state != STC_COH_I && system->frames[f].block == block)
            return (long)f;
    }
    return -1;
}

static uint8_t *frame_data(stc_coh_system *system, size_t f)
{
    return system->data + f * system->line;
}

/* Frame f of core (holding entry e's block) takes state: the one place a
 * state is written, so the entry's record of its copies stays true. */
static void set_state(stc_coh_system *system, unsigned core, size_t f, uint32_t e,
                      stc_coh_state state)
{
    block_copies *entry = &system->copies[e];
    uint8_t bit = (uint8_t)(1u << core);
    system->frames[f].state = (uint8_t)state;
    system->frames[f].entry = e;
    if (state == STC_COH_I) {
        entry->held &= (uint8_t)~bit;
    } else {
        entry->held |= bit;
        entry->frame[core] = (uint32_t)f;
    }
}

typedef struct {
    bool shared;       /* some snooper asserted the shared line */
    bool supplied;     /* some snooper supplied */
    bool flushed;      /* some snooper flushed */
} bus_result;

/* The safety check of the snoop filter (snoop_filter.h): core's filter
 * answered "absent" for a block core's cache holds (frame f). */
static void filter_unsafe(const stc_coh_system *system, unsigned core, unsigned requester,
                          stc_coh_bus bus, uint64_t block, long f)
{
    stc_sf_abort_unsafe(&system->config.snoop_filter, system->book.reference, requester,
                        stc_coh_bus_name(bus), block << system->line_shift, core,
                        stc_coh_state_name((stc_coh_state)system->frames[f].state));
}

/* Broadcast bus transaction of requester for block (entry e): every other
 * cache probes its tags, every valid copy applies its snoop row. data (a
 * BusRd/BusRdX requester's frame, else NULL) receives the supplier's copy,
 * else memory before the transaction. BusWB: memory takes wb_data first.
 * The requester's frame is no snooper's, so data may be written early. */
static void broadcast(stc_coh_system *system, unsigned requester, stc_coh_bus bus, uint32_t e,
                      const uint8_t *wb_data, uint8_t *data, bus_result *result)
{
    uint8_t *memory = stc_coh_book_memory(&system->book, e);
    uint64_t block = system->book.history[e].block;
    stc_coh_counters *req = &system->counters[requester];
    result->shared = false;
    result->supplied = false;
    result->flushed = false;
    if (data)
        memcpy(data, memory, system->line);
    if (bus == STC_COH_BUS_WB) {
        memcpy(memory, wb_data, system->line);
        req->bus_wb++;
        req->mem_writebacks++;
    }
    for (unsigned d = 0; d < system->config.cores; d++) {
        if (d == requester)
            continue;
        stc_coh_counters *snooper = &system->counters[d];
        stc_sf *filter = system->filters[d];
        if (filter && stc_sf_snoop(filter, block)) {
            /* no probe; the model's own look at the tags is the check */
            long held = find_frame(system, d, block);
            if (held >= 0)
                filter_unsafe(system, d, requester, bus, block, held);
            continue;
        }
        snooper->snoop_lookups++;
        if (!(system->copies[e].held & (1u << d))) {
            system->uses.snoop[STC_COH_I][bus]++;
            if (filter)
                stc_sf_probe_missed(filter, block);
            continue; /* I: every table's I rows do nothing */
        }
        size_t f = system->copies[e].frame[d];
        stc_coh_state state = (stc_coh_state)system->frames[f].state;
        const stc_coh_snoop_row *row = system->rows.snoop[state][bus];
        system->uses.snoop[state][bus]++;
        if (!row || row->impossible) {
            stc_coh_book_violation(&system->book, STC_COH_VIOL_IMPOSSIBLE, requester, block << system->line_shift, 0, 0,
                      "block 0x%llx: core %u in %s snoops %s (impossible row)",
                      (unsigned long long)(block << system->line_shift), d,
                      stc_coh_state_name(state), stc_coh_bus_name(bus));
            continue;
        }
        uint8_t *copy = frame_data(system, f);
        if (row->supplies) {
            if (result->supplied)
                stc_coh_book_violation(&system->book, STC_COH_VIOL_SUPPLIERS, requester, block << system->line_shift,
                          0, 0, "block 0x%llx: core %u supplies %s too",
                          (unsigned long long)(block << system->line_shift), d,
                          stc_coh_bus_name(bus));
            else if (data)
                memcpy(data, copy, system->line);
            result->supplied = true;
            snooper->c2c_supplied++;
        }
        if (row->flushes) {
            memcpy(memory, copy, system->line);
            snooper->flushes++;
            snooper->mem_writebacks++;
            result->flushed = true;
        }
        if (row->asserts_shared)
            result->shared = true;
        if (row->next == STC_COH_I) {
            req->inv_sent++;
            snooper->inv_received++;
            stc_coh_book_invalidated(&system->book, d, e);
        }
        set_state(system, d, f, e, row->next);
    }
    if (bus == STC_COH_BUS_RD || bus == STC_COH_BUS_RDX) {
        if (result->supplied)
            req->c2c_received++;
        else
            req->mem_reads++;
    }
    /* Its time on the bus, part of the block access in progress. */
    system->pending.bus += stc_coh_transaction_cycles(&system->time.timing, bus, result->supplied,
                                                      result->flushed && !result->supplied);
    system->pending_transactions++;
    if (bus == STC_COH_BUS_WB)
        system->pending_writebacks++;
}

static void count_bus(stc_coh_counters *counters, stc_coh_bus bus)
{
    if (bus == STC_COH_BUS_RD)
        counters->bus_rd++;
    else if (bus == STC_COH_BUS_RDX)
        counters->bus_rdx++;
    else if (bus == STC_COH_BUS_UPGR)
        counters->upgrades++;
}

static void check_swmr(stc_coh_system *system, unsigned requester, uint32_t e)
{
    const block_copies *entry = &system->copies[e];
    stc_coh_state states[STC_COH_MAX_CORES];
    unsigned valid = 0;
    for (unsigned c = 0; c < system->config.cores; c++)
        if (entry->held & (1u << c))
            states[valid++] = (stc_coh_state)system->frames[entry->frame[c]].state;
    stc_coh_book_check_swmr(&system->book, requester,
                            system->book.history[e].block << system->line_shift, states, valid);
}

/* The frame of block's set in core's cache that a fill takes: the
 * lowest-numbered free way, else the least recent (coherent.h). */
static size_t choose_victim(const stc_coh_system *system, unsigned core, uint64_t block)
{
    size_t victim = frame_index(system, core, block, 0);
    for (uint32_t w = 0; w < system->config.ways; w++) {
        size_t candidate = frame_index(system, core, block, w);
        if (system->frames[candidate].state == STC_COH_I)
            return candidate;
        if (system->frames[candidate].lru < system->frames[victim].lru)
            victim = candidate;
    }
    return victim;
}

/* Core's valid copy in frame victim leaves the cache: its lifetime ends,
 * its Evict row runs (a BusWB carries its data to memory) and the frame
 * is freed. */
static void evict_frame(stc_coh_system *system, unsigned core, size_t victim)
{
    frame *v = &system->frames[victim];
    uint32_t victim_entry = v->entry;
    stc_coh_book_evicted(&system->book, core, victim_entry);
    stc_coh_state victim_state = (stc_coh_state)v->state;
    const stc_coh_proc_row *evict = system->rows.proc[victim_state][STC_COH_EVICT];
    system->uses.proc[victim_state][STC_COH_EVICT]++;
    if (!evict || evict->impossible) {
        stc_coh_book_violation(&system->book, STC_COH_VIOL_IMPOSSIBLE, core, v->block << system->line_shift, 0, 0,
                  "Evict in %s (impossible row)", stc_coh_state_name(victim_state));
    } else if (evict->bus != STC_COH_BUS_NONE) {
        bus_result wb;
        count_bus(&system->counters[core], evict->bus);
        broadcast(system, core, evict->bus, victim_entry, frame_data(system, victim), NULL, &wb);
    }
    /* Even a broken Evict row frees the frame for the new block:
     * whatever the row's next state, the victim's copy is gone. */
    set_state(system, core, victim, victim_entry, STC_COH_I);
}

/* A frame of core for block, which core does not hold: the victim,
 * evicted first if valid, tagged with block. Its state stays I until the
 * request's next state is known. */
static size_t allocate_frame(stc_coh_system *system, unsigned core, uint64_t block)
{
    size_t victim = choose_victim(system, core, block);
    if (system->frames[victim].state != STC_COH_I)
        evict_frame(system, core, victim);
    system->frames[victim].block = block;
    if (system->filters[core])
        stc_sf_fill(system->filters[core], block);
    return victim;
}

/* The processor row's bus transaction for entry e, if it has one (a BusRd
 * or BusRdX brings the data into frame f). Returns the requester's next
 * state: next_shared only if a snooper asserted the shared line. */
static stc_coh_state issue_request(stc_coh_system *system, unsigned core,
                                   const stc_coh_proc_row *row, uint32_t e, size_t f)
{
    stc_coh_state next = row->next_alone;
    if (row->bus != STC_COH_BUS_NONE) {
        bus_result result;
        count_bus(&system->counters[core], row->bus);
        bool fetches = row->bus == STC_COH_BUS_RD || row->bus == STC_COH_BUS_RDX;
        broadcast(system, core, row->bus, e, NULL, fetches ? frame_data(system, f) : NULL,
                  &result);
        if (result.shared)
            next = row->next_shared;
    }
    return next;
}

/* A store of core writes its copy (frame f) and the shadow; the words it
 * writes are news to every other core, for both miss classifications. */
static void store_bytes(stc_coh_system *system, unsigned core, uint32_t e, size_t f,
                        uint32_t offset, uint32_t len, const uint8_t *value_bytes, uint64_t words)
{
    memcpy(frame_data(system, f) + offset, value_bytes, len);
    stc_coh_book_stored(&system->book, core, e, offset, len, value_bytes, words);
}

/* A load of core reads its copy (frame f, now in state) into loaded; the
 * bytes must be the shadow's (the last store's), else a DATA violation
 * names the first byte that differs. */
static void load_bytes(stc_coh_system *system, unsigned core, uint32_t e, size_t f,
                       uint32_t offset, uint32_t len, stc_coh_state state, uint8_t *loaded)
{
    const uint8_t *copy = frame_data(system, f) + offset;
    memcpy(loaded, copy, len);
    stc_coh_book_check_load(&system->book, core, e, offset, len, copy, state);
}

/* One access of core to bytes [offset, offset + len) of block; value_bytes
 * is the store's data (already positioned), loaded the load's result. */
static int block_access(stc_coh_system *system, unsigned core, stc_coh_op op, uint64_t block,
                        uint32_t offset, uint32_t len, const uint8_t *value_bytes, uint8_t *loaded)
{
    stc_coh_counters *counters = &system->counters[core];
    long f = find_frame(system, core, block);
    /* a valid frame names its entry; only a block not held needs the hash */
    long found = f >= 0 ? (long)system->frames[f].entry : find_block(system, block);
    if (found < 0) {
        set_error(system, "out of memory");
        return -1;
    }
    uint32_t e = (uint32_t)found;
    stc_coh_state state = f >= 0 ? (stc_coh_state)system->frames[f].state : STC_COH_I;
    stc_coh_proc_event event = op == STC_COH_OP_STORE ? STC_COH_STORE : STC_COH_LOAD;
    const stc_coh_proc_row *row = system->rows.proc[state][event];
    system->uses.proc[state][event]++;
    if (!row || row->impossible) {
        stc_coh_book_violation(&system->book, STC_COH_VIOL_IMPOSSIBLE, core, (block << system->line_shift) + offset,
                  0, 0, "%s in %s (impossible row)", stc_coh_proc_event_name(event),
                  stc_coh_state_name(state));
        return 0;
    }
    uint64_t words = stc_coh_word_mask(offset, len);
    stc_coh_book_access(&system->book, counters, core, e, words, row->hit, f >= 0);

    /* The single-cache model's cycles (timing.h): one probe; a miss adds
     * the controller's 2 + 2 per writeback, one of which per transaction
     * is its address phase on the bus (coherent_cycles.h). */
    system->pending = (stc_coh_access_cycles){.before = 1};
    system->pending_transactions = 0;
    system->pending_writebacks = 0;
    size_t held = f >= 0 ? (size_t)f : allocate_frame(system, core, block);
    stc_coh_state next = issue_request(system, core, row, e, held);
    system->frames[held].block = block;
    set_state(system, core, held, e, next);
    system->frames[held].lru = ++system->clock;

    if (op == STC_COH_OP_STORE)
        store_bytes(system, core, e, held, offset, len, value_bytes, words);
    else
        load_bytes(system, core, e, held, offset, len, next, loaded);
    check_swmr(system, core, e);
    if (!row->hit) {
        /* The controller's own cycles but the answer are inside the
         * miss's tenure, as an stc cache's (coherent_stc.c, ARCHITECTURE.md
         * 19.5): it holds the bus from its first check to its last beat. */
        uint64_t own = stc_coh_cycles_less(
            stc_whole_line_miss_controller_cycles(system->pending_writebacks),
            (uint64_t)system->pending_transactions * system->time.timing.address_cycles);
        uint64_t in_tenure = stc_coh_cycles_less(own, STC_MISS_ANSWER_CYCLES);
        system->pending.bus += in_tenure;
        system->pending.after = own - in_tenure;
    }
    stc_coh_clock_commit(&system->time, core, &system->pending);
    return 0;
}

int stc_coh_access(stc_coh_system *system, unsigned core, stc_coh_op op, uint64_t addr,
                   uint32_t size, uint64_t value, uint64_t *loaded)
{
    if (core >= system->config.cores) {
        set_error(system, "core %u: the system has %u cores (0..%u)", core, system->config.cores,
                  system->config.cores - 1);
        return -1;
    }
    if (op != STC_COH_OP_LOAD && op != STC_COH_OP_STORE) {
        set_error(system, "operation %d: not a load or a store", (int)op);
        return -1;
    }
    if (size < 1 || size > system->line) {
        set_error(system, "size %u: must be 1..%u (the line)", size, system->line);
        return -1;
    }
    uint8_t bytes[STC_COH_MAX_LINE];
    uint8_t result[STC_COH_MAX_LINE];
    for (uint32_t i = 0; i < size; i++)
        bytes[i] = (uint8_t)(value >> (8 * (i % 8)));
    stc_coh_counters *counters = &system->counters[core];
    counters->references++;
    if (op == STC_COH_OP_STORE)
        counters->stores++;
    else
        counters->loads++;
    uint32_t done = 0;
    while (done < size) {
        uint64_t at = addr + done;
        uint32_t offset = (uint32_t)(at & (system->line - 1));
        uint32_t len = size - done;
        if (len > system->line - offset)
            len = system->line - offset;
        if (block_access(system, core, op, at >> system->line_shift, offset, len, bytes + done,
                         result + done) != 0)
            return -1;
        done += len;
    }
    if (loaded)
        *loaded = op == STC_COH_OP_LOAD ? stc_coh_bytes_le(result, size) : 0;
    system->book.reference++;
    return 0;
}

int stc_coh_fetch(stc_coh_system *system, unsigned core)
{
    if (core >= system->config.cores) {
        set_error(system, "core %u: the system has %u cores (0..%u)", core, system->config.cores,
                  system->config.cores - 1);
        return -1;
    }
    system->counters[core].fetches++;
    return 0;
}

/* ------------------------------------------------------------ queries */

const char *stc_coh_error(const stc_coh_system *system)
{
    return system->error;
}

const stc_coh_counters *stc_coh_core_counters(const stc_coh_system *system, unsigned core)
{
    return core < system->config.cores ? &system->counters[core] : NULL;
}

void stc_coh_counters_add(stc_coh_counters *sum, const stc_coh_counters *part)
{
    stc_counter_fields_add(sum, part, counter_list, STC_COH_COUNTER_COUNT);
}

void stc_coh_total(const stc_coh_system *system, stc_coh_counters *total)
{
    memset(total, 0, sizeof *total);
    for (unsigned c = 0; c < system->config.cores; c++)
        stc_coh_counters_add(total, &system->counters[c]);
}

const stc_sf_counters *stc_coh_filter_counters(const stc_coh_system *system, unsigned core)
{
    return core < system->config.cores && system->filters[core]
               ? stc_sf_counters_of(system->filters[core])
               : NULL;
}

void stc_coh_filter_total(const stc_coh_system *system, stc_sf_counters *total)
{
    memset(total, 0, sizeof *total);
    for (unsigned c = 0; c < system->config.cores; c++)
        if (system->filters[c])
            stc_sf_counters_add(total, stc_sf_counters_of(system->filters[c]));
}

uint64_t stc_coh_violation_count(const stc_coh_system *system)
{
    return system->book.violations;
}

uint64_t stc_coh_violation_kind_count(const stc_coh_system *system, stc_coh_violation_kind kind)
{
    return stc_coh_book_violation_kind_count(&system->book, kind);
}

const stc_coh_violation *stc_coh_violation_at(const stc_coh_system *system, unsigned index)
{
    return stc_coh_book_violation_at(&system->book, index);
}

stc_coh_state stc_coh_state_of(const stc_coh_system *system, unsigned core, uint64_t addr)
{
    if (core >= system->config.cores)
        return STC_COH_I;
    long f = find_frame(system, core, addr >> system->line_shift);
    return f < 0 ? STC_COH_I : (stc_coh_state)system->frames[f].state;
}

uint64_t stc_coh_memory_read(const stc_coh_system *system, uint64_t addr, uint32_t size)
{
    return stc_coh_book_read(&system->book, false, addr, size);
}

uint64_t stc_coh_shadow_read(const stc_coh_system *system, uint64_t addr, uint32_t size)
{
    return stc_coh_book_read(&system->book, true, addr, size);
}

const stc_coh_core_cycles *stc_coh_core_cycles_of(const stc_coh_system *system, unsigned core)
{
    return core < system->config.cores ? &system->time.core[core] : NULL;
}

void stc_coh_run_cycles_of(const stc_coh_system *system, stc_coh_run_cycles *run)
{
    stc_coh_clock_run(&system->time, run);
}

const stc_coh_bus_timing *stc_coh_timing_of(const stc_coh_system *system)
{
    return &system->time.timing;
}

const stc_coh_config *stc_coh_config_of(const stc_coh_system *system)
{
    return &system->config;
}
const stc_coh_row_uses *stc_coh_row_uses_of(const stc_coh_system *system)
{
    return &system->uses;
}
