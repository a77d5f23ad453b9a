/*
 * coherent_split.c - the coherent system on a split-transaction bus (the
 * contract is coherent_split.h; docs/COHERENCE.md sections 8.1 and 10).
 *
 * Layout: frames [core][set][way] and their bytes, as coherent.c; every
 * block touched has an entry in the book (coherence_book.h, shared with
 * the atomic models: memory's bytes and the shadow's, and the miss
 * classes, told in the coherence order: COHERENCE.md 10.4) and, at the
 * same index here, memory's bookkeeping of 8.1 item 4;
 * per core the queue of submitted references, the one outstanding request,
 * the promised requester (`fwd`), the shadow snapshot taken at its own
 * request's ordering (`expect`) and its response channel; writebacks in
 * flight in one list. Every row is looked up once, at creation.
 *
 * The writeback buffer (config.wb_buffer entries per core, COHERENCE.md
 * 10.11) is frames too: `wb_buffer` slots per core after every cache's
 * frames, so that a buffered block keeps its state, tag, entry and bytes
 * in the same places and every row (a snoop's Other-X, its put's
 * Own-PutM) applies to it unchanged; no set indexes them, so the
 * processor's lookups (find_frame, choose_victim) never see them and the
 * bus's (find_copy) do. Per core the slots are a FIFO ring of the puts
 * not yet ordered.
 */
#include "coherent_split.h"

#include "coherence_book.h"
#include "coherent_common.h"
#include "coherent_split_layer.h"
#include "counter_fields.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ names */

#define COUNTER(name) STC_COUNTER_FIELD(stc_cs_counters, name)
static const stc_counter_field counter_list[STC_CS_COUNTER_COUNT] = {
    COUNTER(references),   COUNTER(loads),        COUNTER(stores),
    COUNTER(hits),         COUNTER(misses),       COUNTER(gets),
    COUNTER(getm),         COUNTER(upgrades),     COUNTER(putm),
    COUNTER(pute),         COUNTER(data_from_memory), COUNTER(data_from_memory_promised),
    COUNTER(data_from_cache), COUNTER(writebacks), COUNTER(promised_writebacks),
    COUNTER(stale_putm),   COUNTER(stalls),
    COUNTER(snoop_observations), COUNTER(transactions), COUNTER(latency_sum),
    COUNTER(latency_max),  COUNTER(miss_compulsory), COUNTER(miss_true_sharing),
    COUNTER(miss_false_sharing), COUNTER(miss_capacity), COUNTER(miss_conflict),
    COUNTER(miss_true_dubois), COUNTER(miss_false_dubois),
};
#undef COUNTER
_Static_assert(sizeof(stc_cs_counters) == STC_CS_COUNTER_COUNT * sizeof(uint64_t),
               "counter_list must name every counter");

const char *stc_cs_counter_name(unsigned index)
{
    return index < STC_CS_COUNTER_COUNT ? counter_list[index].name : "?";
}

uint64_t stc_cs_counter_value(const stc_cs_counters *counters, unsigned index)
{
    return index < STC_CS_COUNTER_COUNT ? stc_counter_field_get(counters, &counter_list[index]) : 0;
}

void stc_cs_priced_as_atomic(const stc_cs_counters *counters, stc_coh_counters *as_atomic)
{
    /* each split event in the atomic counter whose price it pays
     * (COHERENCE.md 10.9): a PutM is a BusWB's address phase, a GetM from
     * S or O a BusUpgr's */
    *as_atomic = (stc_coh_counters){
        .hits = counters->hits,
        .misses = counters->misses,
        .bus_rd = counters->gets,
        .bus_rdx = counters->getm - counters->upgrades,
        .upgrades = counters->upgrades,
        .bus_wb = counters->putm,
        .snoop_lookups = counters->snoop_observations,
        .mem_reads = counters->data_from_memory,
        .c2c_received = counters->data_from_cache,
        .mem_writebacks = counters->writebacks,
    };
}

void stc_cs_energy_of(const stc_coherence_energy *terms, const stc_cs_counters *counters,
                      stc_coh_energy *energy)
{
    /* The atomic bus's pricing (coherence_energy.h) */
    stc_coh_counters as_atomic;
    stc_cs_priced_as_atomic(counters, &as_atomic);
    stc_coh_energy_of(terms, &as_atomic, energy);
}

const char *stc_cs_violation_kind_name(stc_cs_violation_kind kind)
{
    static const char *const names[STC_CS_VIOL_KIND_COUNT] = {"data", "swmr", "impossible", "bus",
                                                               "deadlock"};
    return (unsigned)kind < STC_CS_VIOL_KIND_COUNT ? names[kind] : "?";
}

static const char *const schedule_names[STC_CS_SCHEDULE_COUNT] = {"random", "serial"};

const char *stc_cs_schedule_name(stc_cs_schedule schedule)
{
    return (unsigned)schedule < STC_CS_SCHEDULE_COUNT ? schedule_names[schedule] : "?";
}

int stc_cs_schedule_parse(const char *name, stc_cs_schedule *schedule, char *err, size_t err_len)
{
    for (unsigned s = 0; s < STC_CS_SCHEDULE_COUNT; s++) {
        if (!strcmp(name, schedule_names[s])) {
            *schedule = (stc_cs_schedule)s;
            return 0;
        }
    }
    snprintf(err, err_len, "'%s': must be random or serial", name);
    return -1;
}

/* ------------------------------------------------------------ helpers */

static void set_error(stc_cs_system *system, const char *fmt, ...) STC_PRINTF_LIKE(2, 3);
static void set_error(stc_cs_system *system, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(system->error, sizeof system->error, fmt, args);
    va_end(args);
}

static void violation(stc_cs_system *system, stc_cs_violation_kind kind, unsigned core,
                      uint64_t addr, uint64_t expected, uint64_t got, const char *fmt, ...)
    STC_PRINTF_LIKE(7, 8);
static void violation_v(stc_cs_system *system, stc_cs_violation_kind kind, unsigned core,
                        uint64_t addr, uint64_t expected, uint64_t got, const char *fmt,
                        va_list args) STC_PRINTF_LIKE(7, 0);
static void violation(stc_cs_system *system, stc_cs_violation_kind kind, unsigned core,
                      uint64_t addr, uint64_t expected, uint64_t got, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    violation_v(system, kind, core, addr, expected, got, fmt, args);
    va_end(args);
}

void stc_csl_violation(stc_cs_system *system, stc_cs_violation_kind kind, unsigned core,
                       uint64_t addr, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    violation_v(system, kind, core, addr, 0, 0, fmt, args);
    va_end(args);
}

static void violation_v(stc_cs_system *system, stc_cs_violation_kind kind, unsigned core,
                        uint64_t addr, uint64_t expected, uint64_t got, const char *fmt,
                        va_list args)
{
    if (system->violations < STC_COH_VIOLATIONS_KEPT) {
        stc_cs_violation *v = &system->kept[system->violations];
        *v = (stc_cs_violation){.kind = kind, .core = core, .step = system->steps,
                                .addr = addr, .expected = expected, .got = got};
        int used = snprintf(v->text, sizeof v->text, "%s: step %llu core %u: ",
                            stc_cs_violation_kind_name(kind), (unsigned long long)system->steps,
                            core);
        if (used > 0 && (size_t)used < sizeof v->text)
            vsnprintf(v->text + used, sizeof v->text - (size_t)used, fmt, args);
    }
    system->violations++;
    system->violations_of[kind]++;
}

static uint64_t rng_next(stc_cs_system *system)
{
    return stc_coh_splitmix_next(&system->rng);
}

/* When a message sent now may be delivered. */
static uint64_t ready_time(stc_cs_system *system)
{
    if (system->config.schedule != STC_CS_RANDOM)
        return system->now;
    return system->now + rng_next(system) % ((uint64_t)system->config.max_delay + 1);
}

static uint64_t block_addr(const stc_cs_system *system, uint32_t e)
{
    return system->entries[e].block << system->line_shift;
}

static uint8_t *memory_of(stc_cs_system *system, uint32_t e)
{
    return stc_coh_book_memory(&system->book, e);
}

static uint8_t *shadow_of(stc_cs_system *system, uint32_t e)
{
    return stc_coh_book_shadow(&system->book, e);
}

static void touch(stc_cs_system *system, uint32_t e)
{
    if (system->touched_count < 2)
        system->touched[system->touched_count++] = e;
}

/* ------------------------------------------------------------ blocks */

/* The block's entry (the book's, created with memory and shadow zero,
 * and memory's bookkeeping beside it: memory owns); -1 out of memory. */
static long find_block(stc_cs_system *system, uint64_t block)
{
    long e = stc_coh_book_entry(&system->book, block);
    if (e < 0 || (uint32_t)e < system->entry_count)
        return e;
    if (system->entry_count == system->entry_capacity) {
        uint32_t capacity = system->entry_capacity ? system->entry_capacity * 2 : 256;
        block_entry *entries = realloc(system->entries, (size_t)capacity * sizeof *entries);
        if (!entries)
            return -1;
        system->entries = entries;
        system->entry_capacity = capacity;
    }
    system->entries[system->entry_count++] = (block_entry){.block = block, .owner = NOBODY};
    return e;
}

/* ------------------------------------------------------------ frames */

static size_t frame_index(const stc_cs_system *system, unsigned core, uint64_t block, uint32_t way)
{
    uint32_t set = (uint32_t)(block & (system->sets - 1));
    return ((size_t)core * system->sets + set) * system->config.ways + way;
}

/* The frame of core's set-associative cache in use for block (any state
 * but I), or -1. */
static long find_set_frame(const stc_cs_system *system, unsigned core, uint64_t block)
{
    for (uint32_t w = 0; w < system->config.ways; w++) {
        size_t f = frame_index(system, core, block, w);
        if (system->frames[f].state != STC_COH_SP_I && system->frames[f].block == block)
            return (long)f;
    }
    return -1;
}

/* The frame of core in use for block: its cache's, or a layer's. */
static long find_frame(const stc_cs_system *system, unsigned core, uint64_t block)
{
    if (system->layer.find_frame)
        return system->layer.find_frame(system->layer.context, system, core, block);
    return find_set_frame(system, core, block);
}

/* Core's writeback buffer slot at ring position k. */
static size_t buffer_slot(const stc_cs_system *system, unsigned core, unsigned k)
{
    return system->wb_base + (size_t)core * system->config.wb_buffer + k;
}

/* Core's buffer slot holding block (its put not yet ordered), or -1. */
static long find_buffered(const stc_cs_system *system, unsigned core, uint64_t block)
{
    const core_state *cs = &system->core[core];
    for (unsigned k = 0; k < cs->wb_count; k++) {
        size_t f = buffer_slot(system, core, (cs->wb_head + k) % system->config.wb_buffer);
        if (system->frames[f].state != STC_COH_SP_I && system->frames[f].block == block)
            return (long)f;
    }
    return -1;
}

/* Where core holds block as the bus sees it (snoops, SWMR): its frame,
 * else its writeback buffer; -1 if neither. A block is never in both: an
 * access to a buffered block waits for its put (attempt_enabled). */
static long find_copy(const stc_cs_system *system, unsigned core, uint64_t block)
{
    long f = find_frame(system, core, block);
    return f >= 0 ? f : find_buffered(system, core, block);
}

static stc_coh_sp_state state_in(const stc_cs_system *system, long f)
{
    return f < 0 ? STC_COH_SP_I : (stc_coh_sp_state)system->frames[f].state;
}

static uint8_t *frame_data(stc_cs_system *system, size_t f)
{
    return system->data + f * system->line;
}

/* The frame a fill of block takes: the lowest-numbered free way, else the
 * least recent stable one; -1 if every way waits for something. */
static long choose_victim(const stc_cs_system *system, unsigned core, uint64_t block)
{
    long victim = -1;
    for (uint32_t w = 0; w < system->config.ways; w++) {
        size_t f = frame_index(system, core, block, w);
        stc_coh_sp_state state = (stc_coh_sp_state)system->frames[f].state;
        if (state == STC_COH_SP_I)
            return (long)f;
        if (stc_coh_sp_stable(state) &&
            (victim < 0 || system->frames[f].lru < system->frames[victim].lru))
            victim = (long)f;
    }
    return victim;
}

/* ------------------------------------------------------------ references */

static reference *head_of(stc_cs_system *system, unsigned core)
{
    core_state *cs = &system->core[core];
    return &cs->queue[cs->head];
}

static block_access current_access(stc_cs_system *system, unsigned core)
{
    const reference *ref = head_of(system, core);
    uint64_t at = ref->addr + system->core[core].done;
    block_access a = {.block = at >> system->line_shift,
                      .offset = (uint32_t)(at & (system->line - 1))};
    a.len = ref->size - system->core[core].done;
    if (a.len > system->line - a.offset)
        a.len = system->line - a.offset;
    return a;
}

/* The current block access has performed: the next one, or the reference
 * is done (counted, reported, popped). */
static void access_done(stc_cs_system *system, unsigned core)
{
    core_state *cs = &system->core[core];
    reference *ref = head_of(system, core);
    block_access a = current_access(system, core);
    cs->done += a.len;
    cs->counted = cs->hit = cs->booked = cs->stalled = false;
    system->last_progress = system->steps;
    if (cs->done < ref->size)
        return;
    stc_cs_counters *counters = &system->counters[core];
    counters->references++;
    if (ref->op == STC_COH_OP_STORE)
        counters->stores++;
    else
        counters->loads++;
    if (system->config.done)
        system->config.done(system->config.done_context, core, ref->tag,
                            ref->op == STC_COH_OP_LOAD ? stc_coh_bytes_le(cs->loaded, ref->size)
                                                       : 0);
    cs->head = (cs->head + 1) % MAX_WINDOW;
    cs->count--;
    cs->done = 0;
}

/* One of core's requests, issued at step issued, has completed. */
static void count_transaction(stc_cs_system *system, unsigned core, uint64_t issued)
{
    stc_cs_counters *counters = &system->counters[core];
    uint64_t latency = system->steps - issued;
    counters->transactions++;
    counters->latency_sum += latency;
    if (latency > counters->latency_max)
        counters->latency_max = latency;
}

static void request_done(stc_cs_system *system, unsigned core)
{
    core_state *cs = &system->core[core];
    count_transaction(system, core, cs->req_issued);
    cs->req = STC_COH_SP_REQ_NONE;
    cs->ordered = false;
    cs->fetch_only = false;
    system->last_progress = system->steps;
}

/* A row performed core's current block access in frame f: done now,
 * unless a layer finishes it later (its line not yet in its cache). */
static void finish_access(stc_cs_system *system, unsigned core, long f)
{
    if (!system->layer.performed || system->layer.performed(system->layer.context, system, core, f))
        access_done(system, core);
}

/* ------------------------------------------------------------ data */

/* A load of core performs: its bytes from the copy, which must be what the
 * reference (the shadow now for a hit, the snapshot at its GetS's ordering
 * for a miss) says. */
static void perform_load(stc_cs_system *system, unsigned core, uint32_t e, const uint8_t *copy,
                         const uint8_t *reference_block, stc_coh_sp_state state)
{
    block_access a = current_access(system, core);
    const uint8_t *got = copy + a.offset;
    const uint8_t *want = reference_block + a.offset;
    memcpy(system->core[core].loaded + system->core[core].done, got, a.len);
    if (memcmp(got, want, a.len) == 0)
        return;
    uint32_t i = 0;
    while (got[i] == want[i])
        i++;
    uint32_t shown = a.len - i < 8 ? a.len - i : 8;
    uint64_t addr = block_addr(system, e) + a.offset;
    violation(system, STC_CS_VIOL_DATA, core, addr + i, stc_coh_bytes_le(want + i, shown),
              stc_coh_bytes_le(got + i, shown),
              "load 0x%llx (%u bytes, in %s): expected 0x%llx got 0x%llx at 0x%llx",
              (unsigned long long)addr, a.len, stc_coh_sp_state_name(state),
              (unsigned long long)stc_coh_bytes_le(want + i, shown),
              (unsigned long long)stc_coh_bytes_le(got + i, shown),
              (unsigned long long)(addr + i));
}

/* The store's bytes at the current access's offset. */
static const uint8_t *store_bytes(stc_cs_system *system, unsigned core)
{
    return head_of(system, core)->bytes + system->core[core].done;
}

/* ------------------------------------------------------------ miss classes */

/* Whether a cache in state holds its block in the COHERENCE ORDER (the
 * order of the ordering points, COHERENCE.md 10.3), the order the book is
 * told things in, so that it classifies as the atomic bus would have with
 * the accesses in that order (COHERENCE.md 10.4): from the ordering of the
 * cache's own GetS/GetM (its data may still be on the way) until another
 * cache's GetM is ordered or its Evict row runs. */
static bool holds_in_order(stc_coh_sp_state state)
{
    switch (state) {
    case STC_COH_SP_S:
    case STC_COH_SP_E:
    case STC_COH_SP_O:
    case STC_COH_SP_M:
    case STC_COH_SP_SM_AD:   /* readable; its upgrade not ordered yet */
    case STC_COH_SP_OM_AD:
    case STC_COH_SP_IS_D:    /* its request ordered, the data on the way */
    case STC_COH_SP_IE_D:
    case STC_COH_SP_IM_D:
    case STC_COH_SP_SM_D:
    case STC_COH_SP_IM_D_S:  /* ... and a GetS since: it ends in S */
    case STC_COH_SP_SM_D_S:
    case STC_COH_SP_IE_D_S:
        return true;
    default:
        /* I; IS^AD, IM^AD (not ordered yet); the ^D_I and ^D_SI states
         * (another GetM ordered since: they perform once and end in I);
         * MI^A, OI^A (evicted: the processor gave the block up when its
         * Evict row ran); II^A */
        return false;
    }
}

/* Core's current block access (on entry e, core's copy in state) is told
 * to the book, once, at its ordering point, as the hit or miss its first
 * attempt counted; the classes are copied into the counters. */
static void book_access(stc_cs_system *system, unsigned core, uint32_t e, stc_coh_sp_state state)
{
    core_state *cs = &system->core[core];
    if (cs->booked)
        return;
    cs->booked = true;
    bool holds = holds_in_order(state);
    /* An upgrade whose S/O copy another GetM invalidated while its own
     * GetM waited (SM^AD, OM^AD to IM^AD): counted a hit at its attempt,
     * it fetches the block again, a fill the book counts in no class. */
    if (cs->hit && !holds)
        stc_coh_book_fetched(&system->book, core, e);
    block_access a = current_access(system, core);
    stc_coh_counters *book_counts = &system->book_counters[core];
    stc_coh_book_access(&system->book, book_counts, core, e, stc_coh_word_mask(a.offset, a.len),
                        cs->hit, holds);
    stc_cs_counters *counters = &system->counters[core];
    counters->miss_compulsory = book_counts->miss_compulsory;
    counters->miss_true_sharing = book_counts->miss_true_sharing;
    counters->miss_false_sharing = book_counts->miss_false_sharing;
    counters->miss_capacity = book_counts->miss_capacity;
    counters->miss_conflict = book_counts->miss_conflict;
    counters->miss_true_dubois = book_counts->miss_true_dubois;
    counters->miss_false_dubois = book_counts->miss_false_dubois;
}

/* Core's store of the current access takes its place in the coherence
 * order: the shadow, and the words are news to every other core. */
static void book_store(stc_cs_system *system, unsigned core, uint32_t e)
{
    block_access a = current_access(system, core);
    stc_coh_book_stored(&system->book, core, e, a.offset, a.len, store_bytes(system, core),
                        stc_coh_word_mask(a.offset, a.len));
}

static void send_response(stc_cs_system *system, unsigned to, int from, uint32_t e,
                          const uint8_t *data)
{
    response *r = &system->core[to].resp;
    if (r->full) {
        violation(system, STC_CS_VIOL_BUS, to, block_addr(system, e), 0, 0,
                  "a second data response for this cache (block 0x%llx)",
                  (unsigned long long)block_addr(system, e));
        return;
    }
    r->full = true;
    r->from = from;
    r->entry = e;
    r->ready = ready_time(system);
    memcpy(r->data, data, system->line);
}

static int send_writeback(stc_cs_system *system, unsigned from, uint32_t e, const uint8_t *data)
{
    block_entry *b = &system->entries[e];
    if (b->writeback_in_flight)
        violation(system, STC_CS_VIOL_BUS, from, block_addr(system, e), 0, 0,
                  "a second writeback of block 0x%llx in flight",
                  (unsigned long long)block_addr(system, e));
    if (system->writeback_count == system->writeback_capacity) {
        uint32_t capacity = system->writeback_capacity ? system->writeback_capacity * 2 : 16;
        writeback *grown = realloc(system->writebacks, capacity * sizeof *grown);
        if (!grown)
            return -1;
        system->writebacks = grown;
        system->writeback_capacity = capacity;
    }
    writeback *w = &system->writebacks[system->writeback_count++];
    w->entry = e;
    w->ready = ready_time(system);
    memcpy(w->data, data, system->line);
    b->writeback_in_flight = true;
    system->counters[from].writebacks++;
    return 0;
}

/* Memory answers a GetS or GetM while it owns the block: now if no
 * writeback is pending, else after those ordered before this request. */
static void memory_answers(stc_cs_system *system, unsigned requester, uint32_t e)
{
    block_entry *b = &system->entries[e];
    if (b->pending == 0) {
        send_response(system, requester, FROM_MEMORY, e, memory_of(system, e));
        return;
    }
    if (b->owed[requester] != 0)
        violation(system, STC_CS_VIOL_BUS, requester, block_addr(system, e), 0, 0,
                  "memory owes this cache a second miss");
    b->owed[requester] = b->pending;
}

/* ------------------------------------------------------------ rows */

/* What an ordering or a delivery hands to a row. */
typedef struct {
    int requester;           /* Other-X: the requesting core */
    bool *shared;            /* Other-GetS / Own-GetS: the wired-OR line */
    const uint8_t *received; /* Own-Data: the response's bytes */
} row_context;

static void impossible(stc_cs_system *system, unsigned core, uint32_t e, stc_coh_sp_state state,
                       stc_coh_sp_event event)
{
    violation(system, STC_CS_VIOL_IMPOSSIBLE, core, block_addr(system, e), 0, 0,
              "%s in %s (impossible row), block 0x%llx", stc_coh_sp_event_name(event),
              stc_coh_sp_state_name(state), (unsigned long long)block_addr(system, e));
}

/* The block's copy in frame f leaves with a row's send; NULL (a BUS
 * violation) if core has no frame for it. */
static const uint8_t *copy_to_send(stc_cs_system *system, unsigned core, long f, uint32_t e)
{
    if (f >= 0)
        return frame_data(system, (size_t)f);
    violation(system, STC_CS_VIOL_BUS, core, block_addr(system, e), 0, 0,
              "a row sends block 0x%llx, which this cache does not hold",
              (unsigned long long)block_addr(system, e));
    return NULL;
}

static void do_sends(stc_cs_system *system, unsigned core, long f, uint32_t e,
                     const stc_coh_sp_row *row, const row_context *ctx)
{
    core_state *cs = &system->core[core];
    bool other = row->event >= STC_COH_SP_OTHER_GETS;
    if (row->to_requester == STC_COH_SP_SEND_LATER)
        cs->fwd = ctx->requester;
    if (row->to_memory != STC_COH_SP_SEND_NONE && other) {
        /* a promise to memory: it counts the writeback and owns the block */
        bool later = row->to_memory == STC_COH_SP_SEND_LATER;
        system->entries[e].pending++;
        system->entries[e].owner = NOBODY;
        system->entries[e].owned_by_promise = later;
        system->counters[core].promised_writebacks += later;
    }
    if (row->to_requester == STC_COH_SP_SEND_NOW) {
        int to = other ? ctx->requester : cs->fwd;
        const uint8_t *copy = copy_to_send(system, core, f, e);
        if (to == NOBODY)
            violation(system, STC_CS_VIOL_BUS, core, block_addr(system, e), 0, 0,
                      "%s in %s sends data to a requester it never saved",
                      stc_coh_sp_event_name(row->event), stc_coh_sp_state_name(row->state));
        else if (copy)
            send_response(system, (unsigned)to, (int)core, e, copy);
        if (!other)
            cs->fwd = NOBODY;
    }
    if (row->to_memory == STC_COH_SP_SEND_NOW) {
        const uint8_t *copy = copy_to_send(system, core, f, e);
        if (copy && send_writeback(system, core, e, copy) != 0)
            set_error(system, "out of memory");
    }
    if (row->asserts_shared && ctx->shared)
        *ctx->shared = true;
}

/* The row's next state; the E grant of an Own-GetS with the line low makes
 * the requester memory's recorded owner (COHERENCE.md 8.7 decision 2). */
static stc_coh_sp_state next_state(stc_cs_system *system, unsigned core, uint32_t e,
                                   const stc_coh_sp_row *row, const row_context *ctx)
{
    if (row->event != STC_COH_SP_OWN_GETS || !system->shared_line)
        return row->next;
    if (ctx->shared && *ctx->shared)
        return row->next_shared;
    system->entries[e].owner = (int)core;
    return row->next;
}

/* Core applies its row for (frame f's state, event) on entry e's block.
 * Returns whether the row performed the core's load or store. */
static bool apply_row(stc_cs_system *system, unsigned core, long f, uint32_t e,
                      stc_coh_sp_event event, const row_context *ctx)
{
    stc_coh_sp_state state = state_in(system, f);
    const stc_coh_sp_row *row = system->row[state][event];
    if (!row || row->outcome == STC_COH_SP_IMPOSSIBLE) {
        impossible(system, core, e, state, event);
        return false;
    }
    if (row->outcome == STC_COH_SP_STALL)
        return false; /* the self-check allows it only for processor events */
    if (ctx->received && f >= 0)
        memcpy(frame_data(system, (size_t)f), ctx->received, system->line);
    bool performed = false;
    if (system->core[core].fetch_only && event < STC_COH_SP_OTHER_GETS) {
        /* a layer's fetch: no access of this processor's rides on it */
    } else if (row->perform == STC_COH_SP_DO_STORE && f >= 0) {
        block_access a = current_access(system, core);
        memcpy(frame_data(system, (size_t)f) + a.offset, store_bytes(system, core), a.len);
        performed = true;
    } else if (row->perform == STC_COH_SP_DO_LOAD && f >= 0) {
        perform_load(system, core, e, frame_data(system, (size_t)f), system->core[core].expect,
                     state);
        performed = true;
    }
    do_sends(system, core, f, e, row, ctx);
    stc_coh_sp_state next = next_state(system, core, e, row, ctx);
    if (f >= 0)
        system->frames[f].state = (uint8_t)next;
    else if (next != STC_COH_SP_I)
        violation(system, STC_CS_VIOL_IMPOSSIBLE, core, block_addr(system, e), 0, 0,
                  "%s in I takes an absent block to %s", stc_coh_sp_event_name(event),
                  stc_coh_sp_state_name(next));
    return performed;
}

/* ------------------------------------------------------------ events */

/* Core issues req from a block in state from: the request counters. */
static void count_request(stc_cs_system *system, unsigned core, stc_coh_sp_req req,
                          stc_coh_sp_state from)
{
    stc_cs_counters *counters = &system->counters[core];
    if (req == STC_COH_SP_GETS) {
        counters->gets++;
    } else if (req == STC_COH_SP_GETM) {
        counters->getm++;
        counters->upgrades += stc_coh_sp_permission(from) != STC_COH_I;
    } else {
        counters->putm++;
        counters->pute += req == STC_COH_SP_PUTE;
    }
}

/* Core's outstanding request: req for frame f, from a block in state from. */
static void issue(stc_cs_system *system, unsigned core, stc_coh_sp_req req, size_t f,
                  stc_coh_sp_state from)
{
    core_state *cs = &system->core[core];
    cs->req = req;
    cs->ordered = false;
    cs->req_frame = f;
    cs->req_issued = system->steps;
    count_request(system, core, req, from);
}

/* Victim frame v's block, its Evict row issuing put and taking it to
 * next, moves into a free slot of core's writeback buffer with its bytes;
 * the put is queued there. The caller has checked there is room. */
static void buffer_victim(stc_cs_system *system, unsigned core, size_t v, stc_coh_sp_req put,
                          stc_coh_sp_state next)
{
    core_state *cs = &system->core[core];
    unsigned k = (cs->wb_head + cs->wb_count) % system->config.wb_buffer;
    size_t slot = buffer_slot(system, core, k);
    system->frames[slot] = system->frames[v];
    system->frames[slot].state = (uint8_t)next;
    memcpy(frame_data(system, slot), frame_data(system, v), system->line);
    cs->wb[k] = (buffered_put){.put = put, .issued = system->steps};
    cs->wb_count++;
    count_request(system, core, put, (stc_coh_sp_state)system->frames[v].state);
}

static void count_stall(stc_cs_system *system, unsigned core)
{
    if (!system->core[core].stalled) {
        system->core[core].stalled = true;
        system->counters[core].stalls++;
    }
}

/* Whether an eviction from state may run now: not if its Evict row
 * issues a put and core's writeback buffer (there is one) is full; then
 * it waits, the frame untouched, until the oldest buffered put is
 * ordered. Without a buffer the put is the outstanding request, which
 * the attempt's enabling already requires to be none. */
static bool put_has_room(const stc_cs_system *system, unsigned core, stc_coh_sp_state state)
{
    const stc_coh_sp_row *row = system->row[state][STC_COH_SP_EVICT];
    bool puts = row && row->outcome == STC_COH_SP_ACT && row->issue != STC_COH_SP_REQ_NONE;
    return !puts || system->config.wb_buffer == 0 ||
           system->core[core].wb_count < system->config.wb_buffer;
}

/* Core's victim frame v (valid) runs its Evict row. Returns whether the
 * frame is free now; false while its PutM is outstanding (no buffer: the
 * access waits, header "EVICTION vs the pending request") or the
 * writeback buffer is full (the eviction waits, not run). */
static bool evict(stc_cs_system *system, unsigned core, size_t v)
{
    frame *victim = &system->frames[v];
    stc_coh_sp_state state = (stc_coh_sp_state)victim->state;
    const stc_coh_sp_row *row = system->row[state][STC_COH_SP_EVICT];
    touch(system, victim->entry);
    if ((row && row->outcome == STC_COH_SP_STALL) || !put_has_room(system, core, state)) {
        count_stall(system, core);
        return false;
    }
    bool freed = true;
    if (!row || row->outcome == STC_COH_SP_IMPOSSIBLE) {
        impossible(system, core, victim->entry, state, STC_COH_SP_EVICT);
    } else if (row->issue != STC_COH_SP_REQ_NONE && system->config.wb_buffer > 0) {
        /* the frame is free at once; the block answers snoops from the
         * buffer until its put is ordered */
        buffer_victim(system, core, v, row->issue, row->next);
    } else if (row->issue != STC_COH_SP_REQ_NONE) {
        issue(system, core, row->issue, v, state);
        victim->state = (uint8_t)row->next;
        count_stall(system, core);
        freed = false;
    }
    /* Even a broken silent row frees the frame, as on the atomic bus. */
    if (freed)
        victim->state = STC_COH_SP_I;
    /* the processor gives the copy up now, even if its data is still to
     * leave with a PutM: its lifetime ends here */
    if (holds_in_order(state) && !holds_in_order((stc_coh_sp_state)victim->state))
        stc_coh_book_evicted(&system->book, core, victim->entry);
    return freed;
}

/* The frame core's miss on block takes, tagged and its entry set; -1 while
 * a victim's PutM is outstanding or no way can be freed. */
static long allocate_frame(stc_cs_system *system, unsigned core, uint64_t block, uint32_t e)
{
    if (system->layer.allocate_frame)
        return system->layer.allocate_frame(system->layer.context, system, core, block, e);
    long v = choose_victim(system, core, block);
    if (v < 0) {
        count_stall(system, core);
        return -1;
    }
    if (system->frames[v].state != STC_COH_SP_I && !evict(system, core, (size_t)v))
        return -1;
    system->frames[v].block = block;
    system->frames[v].entry = e;
    return v;
}

/* Whether core's attempt is enabled: it has a reference, no outstanding
 * request, and its row does not stall. (A victim is always stable, and no
 * stable Evict row of MSI, MESI or MOESI stalls; an edited table whose
 * row did would leave the attempt doing nothing, for the watchdog.) With
 * a writeback buffer, also: the block is not in the buffer (the access
 * waits for its put to be ordered, then misses: COHERENCE.md 10.11), and
 * a miss whose victim's eviction needs a put finds room there. Either
 * wait is a stall, and needs no new row: the event that ends it, a
 * buffered put ordered, is always enabled meanwhile. */
static bool default_attempt_enabled(stc_cs_system *system, unsigned core)
{
    const core_state *cs = &system->core[core];
    if (cs->count == 0 || cs->req != STC_COH_SP_REQ_NONE)
        return false;
    block_access a = current_access(system, core);
    long f = find_frame(system, core, a.block);
    stc_coh_sp_event event = head_of(system, core)->op == STC_COH_OP_STORE ? STC_COH_SP_STORE
                                                                          : STC_COH_SP_LOAD;
    const stc_coh_sp_row *row = system->row[state_in(system, f)][event];
    if (row && row->outcome == STC_COH_SP_STALL) {
        count_stall(system, core);
        return false;
    }
    if (system->config.wb_buffer > 0 && f < 0) {
        long v = choose_victim(system, core, a.block);
        bool waits = find_buffered(system, core, a.block) >= 0 ||
                     (v >= 0 && system->frames[v].state != STC_COH_SP_I &&
                      !put_has_room(system, core, (stc_coh_sp_state)system->frames[v].state));
        if (waits) {
            count_stall(system, core);
            return false;
        }
    }
    return true;
}

static void default_attempt(stc_cs_system *system, unsigned core)
{
    core_state *cs = &system->core[core];
    block_access a = current_access(system, core);
    stc_coh_op op = head_of(system, core)->op;
    long f = find_frame(system, core, a.block);
    long found = f >= 0 ? (long)system->frames[f].entry : find_block(system, a.block);
    if (found < 0) {
        set_error(system, "out of memory");
        return;
    }
    uint32_t e = (uint32_t)found;
    touch(system, e);
    stc_coh_sp_state state = state_in(system, f);
    if (!cs->counted) {
        cs->counted = true;
        cs->hit = stc_coh_sp_permission(state) != STC_COH_I;
        if (cs->hit)
            system->counters[core].hits++;
        else
            system->counters[core].misses++;
    }
    stc_coh_sp_event event = op == STC_COH_OP_STORE ? STC_COH_SP_STORE : STC_COH_SP_LOAD;
    const stc_coh_sp_row *row = system->row[state][event];
    if (!row || row->outcome == STC_COH_SP_IMPOSSIBLE) {
        impossible(system, core, e, state, event);
        book_access(system, core, e, state); /* counted above: classified too */
        access_done(system, core); /* skipped, so the run goes on */
        return;
    }
    if (f < 0 && (f = allocate_frame(system, core, a.block, e)) < 0)
        return;
    system->frames[f].lru = ++system->clock;
    /* an access that performs now is ordered now; one that issues a GetS
     * or GetM is told to the book when that request is ordered */
    if (row->perform != STC_COH_SP_DO_NONE)
        book_access(system, core, e, state);
    bool performed = false;
    if (row->perform == STC_COH_SP_DO_STORE) {
        memcpy(frame_data(system, (size_t)f) + a.offset, store_bytes(system, core), a.len);
        book_store(system, core, e);
        performed = true;
    } else if (row->perform == STC_COH_SP_DO_LOAD) {
        perform_load(system, core, e, frame_data(system, (size_t)f), shadow_of(system, e), state);
        performed = true;
    }
    system->frames[f].state = (uint8_t)row->next;
    if (row->issue != STC_COH_SP_REQ_NONE)
        issue(system, core, row->issue, (size_t)f, state);
    if (performed)
        finish_access(system, core, f);
}

static bool attempt_enabled(stc_cs_system *system, unsigned core)
{
    if (system->layer.attempt_enabled)
        return system->layer.attempt_enabled(system->layer.context, system, core);
    return default_attempt_enabled(system, core);
}

static void attempt(stc_cs_system *system, unsigned core)
{
    if (system->layer.attempt)
        system->layer.attempt(system->layer.context, system, core);
    else
        default_attempt(system, core);
}

/* The bus orders core's request req for the block in frame (or buffer
 * slot) f: memory's part, every other cache's Other-X row, the
 * requester's Own-X row (COHERENCE.md 8.1 item 1). Returns whether the
 * Own-X row performed the core's access. */
static bool order_request(stc_cs_system *system, unsigned core, long f, stc_coh_sp_req req)
{
    core_state *cs = &system->core[core];
    uint32_t e = system->frames[f].entry;
    block_entry *b = &system->entries[e];
    touch(system, e);
    bool put = req == STC_COH_SP_PUTM || req == STC_COH_SP_PUTE;
    if (put) {
        if (b->owner == (int)core) {
            b->owner = NOBODY;
            b->owned_by_promise = false;
            /* the data follows a PutM; after a PutE memory's copy is
             * current (E was granted its data from memory, clean) */
            b->pending += req == STC_COH_SP_PUTM;
        } else {
            system->counters[core].stale_putm++;
        }
    } else {
        memcpy(cs->expect, shadow_of(system, e), system->line);
        /* the access's place in the coherence order: as on the atomic
         * bus, classified before its transaction invalidates anyone; a
         * layer's fetch is a fill, in no class (COHERENCE.md 11.1 item 8) */
        if (cs->fetch_only)
            stc_coh_book_fetched(&system->book, core, e);
        else
            book_access(system, core, e, state_in(system, f));
        if (b->owner == NOBODY) {
            system->counters[core].data_from_memory_promised += b->owned_by_promise;
            memory_answers(system, core, e);
        }
    }
    bool shared = false;
    row_context other = {.requester = (int)core, .shared = &shared};
    stc_coh_sp_event other_event = stc_coh_sp_ordered_event(req, false);
    for (unsigned o = 0; o < system->config.cores; o++) {
        if (o == core)
            continue;
        system->counters[o].snoop_observations++;
        long of = find_copy(system, o, b->block); /* its writeback buffer snooped too */
        stc_coh_sp_state before = state_in(system, of);
        apply_row(system, o, of, e, other_event, &other);
        if (holds_in_order(before) && !holds_in_order(state_in(system, of)))
            stc_coh_book_invalidated(&system->book, o, e);
    }
    if (req == STC_COH_SP_GETM && !cs->fetch_only && head_of(system, core)->op == STC_COH_OP_STORE) {
        /* the store's place in the coherence order (after the
         * invalidations, as on the atomic bus, so that its words are news
         * to the copies it invalidated) */
        book_store(system, core, e);
    }
    if (req == STC_COH_SP_GETM)
        b->owner = (int)core;
    row_context own = {.requester = NOBODY, .shared = &shared};
    stc_coh_sp_event own_event = stc_coh_sp_ordered_event(req, true);
    return apply_row(system, core, f, e, own_event, &own);
}

/* The bus orders core's outstanding request (a GetS or GetM; without a
 * writeback buffer also a put). */
static void order(stc_cs_system *system, unsigned core)
{
    core_state *cs = &system->core[core];
    stc_coh_sp_req req = cs->req;
    cs->ordered = true;
    bool performed = order_request(system, core, (long)cs->req_frame, req);
    if (req == STC_COH_SP_PUTM || req == STC_COH_SP_PUTE || performed)
        request_done(system, core);
    if (performed)
        finish_access(system, core, (long)cs->req_frame);
}

/* The bus orders the oldest put in core's writeback buffer: its Own-PutM
 * row (data to memory, or nothing if stale) leaves the slot I, and the
 * slot is free. */
static void order_buffered_put(stc_cs_system *system, unsigned core)
{
    core_state *cs = &system->core[core];
    size_t slot = buffer_slot(system, core, cs->wb_head);
    order_request(system, core, (long)slot, cs->wb[cs->wb_head].put);
    /* every Own-PutM row of the tables ends in I; a caller's edited row
     * that did not would keep a block no lookup could find again */
    system->frames[slot].state = STC_COH_SP_I;
    count_transaction(system, core, cs->wb[cs->wb_head].issued);
    cs->wb_head = (cs->wb_head + 1) % system->config.wb_buffer;
    cs->wb_count--;
    system->last_progress = system->steps;
}

/* Core's response arrives: a miss must receive the block as the shadow
 * held it at its request's ordering; then its Own-Data row. */
static void deliver_response(stc_cs_system *system, unsigned core)
{
    core_state *cs = &system->core[core];
    response *r = &cs->resp;
    uint32_t e = r->entry;
    r->full = false;
    touch(system, e);
    if (r->from == FROM_MEMORY)
        system->counters[core].data_from_memory++;
    else
        system->counters[core].data_from_cache++;
    bool awaited = cs->req != STC_COH_SP_REQ_NONE && cs->ordered &&
                   system->frames[cs->req_frame].entry == e &&
                   system->frames[cs->req_frame].state != STC_COH_SP_I;
    long f = awaited ? (long)cs->req_frame : find_frame(system, core, system->entries[e].block);
    if (awaited && memcmp(r->data, cs->expect, system->line) != 0) {
        uint32_t i = 0;
        while (r->data[i] == cs->expect[i])
            i++;
        uint32_t shown = system->line - i < 8 ? system->line - i : 8;
        violation(system, STC_CS_VIOL_DATA, core, block_addr(system, e) + i,
                  stc_coh_bytes_le(cs->expect + i, shown), stc_coh_bytes_le(r->data + i, shown),
                  "%s's data for block 0x%llx from %s: expected 0x%llx got 0x%llx at 0x%llx",
                  stc_coh_sp_req_name(cs->req), (unsigned long long)block_addr(system, e),
                  r->from == FROM_MEMORY ? "memory" : "a cache",
                  (unsigned long long)stc_coh_bytes_le(cs->expect + i, shown),
                  (unsigned long long)stc_coh_bytes_le(r->data + i, shown),
                  (unsigned long long)(block_addr(system, e) + i));
    }
    row_context ctx = {.requester = NOBODY, .received = r->data};
    bool performed = apply_row(system, core, f, e, STC_COH_SP_OWN_DATA, &ctx);
    if (awaited)
        request_done(system, core);
    if (performed && cs->count > 0)
        finish_access(system, core, f);
}

/* Memory receives writeback i; every cache it owed data whose count
 * reaches zero is answered. */
static void deliver_writeback(stc_cs_system *system, unsigned i)
{
    writeback w = system->writebacks[i];
    memmove(&system->writebacks[i], &system->writebacks[i + 1],
            (system->writeback_count - i - 1) * sizeof w);
    system->writeback_count--;
    block_entry *b = &system->entries[w.entry];
    touch(system, w.entry);
    b->writeback_in_flight = false;
    memcpy(memory_of(system, w.entry), w.data, system->line);
    if (b->pending == 0) {
        violation(system, STC_CS_VIOL_BUS, 0, block_addr(system, w.entry), 0, 0,
                  "memory: a writeback of block 0x%llx it was not promised",
                  (unsigned long long)block_addr(system, w.entry));
        return;
    }
    b->pending--;
    for (unsigned c = 0; c < system->config.cores; c++) {
        if (b->owed[c] > 0 && --b->owed[c] == 0)
            send_response(system, c, FROM_MEMORY, w.entry, memory_of(system, w.entry));
    }
}

/* ------------------------------------------------------------ checks */

static void check_swmr(stc_cs_system *system, uint32_t e)
{
    uint64_t block = system->entries[e].block;
    unsigned readable = 0, writers = 0, owners = 0, who = 0;
    for (unsigned c = 0; c < system->config.cores; c++) {
        stc_coh_state p = stc_coh_sp_permission(state_in(system, find_copy(system, c, block)));
        if (p == STC_COH_I)
            continue;
        readable++;
        writers += p == STC_COH_M || p == STC_COH_E;
        owners += p == STC_COH_O;
        who |= 1u << c;
    }
    const char *why = NULL;
    if (writers > 0 && readable > 1)
        why = "a writer (E, M) and another readable copy";
    else if (owners > 1)
        why = "more than one O";
    if (why)
        violation(system, STC_CS_VIOL_SWMR, system->acting, block << system->line_shift, 0, 0,
                  "block 0x%llx: %s (cores 0x%x readable, %u writers, %u owners)",
                  (unsigned long long)(block << system->line_shift), why, who, writers, owners);
}

static bool work_remains(const stc_cs_system *system)
{
    if (system->writeback_count > 0)
        return true;
    for (unsigned c = 0; c < system->config.cores; c++) {
        const core_state *cs = &system->core[c];
        if (cs->count > 0 || cs->req != STC_COH_SP_REQ_NONE || cs->resp.full || cs->wb_count > 0)
            return true;
    }
    return false;
}

static void deadlock(stc_cs_system *system, const char *why)
{
    unsigned waiting = 0;
    char list[120] = "";
    for (unsigned c = 0; c < system->config.cores; c++) {
        const core_state *cs = &system->core[c];
        if (cs->count == 0 && cs->req == STC_COH_SP_REQ_NONE && cs->wb_count == 0)
            continue;
        waiting |= 1u << c;
        size_t used = strlen(list);
        snprintf(list + used, sizeof list - used, " core %u %s %s", c,
                 cs->req != STC_COH_SP_REQ_NONE ? stc_coh_sp_req_name(cs->req) : "-",
                 cs->req != STC_COH_SP_REQ_NONE
                     ? stc_coh_sp_state_name((stc_coh_sp_state)system->frames[cs->req_frame].state)
                     : "");
        used = strlen(list);
        if (cs->wb_count > 0)
            snprintf(list + used, sizeof list - used, " +%u buffered puts", cs->wb_count);
    }
    violation(system, STC_CS_VIOL_DEADLOCK, 0, 0, 0, 0, "%s; waiting (0x%x):%s", why, waiting,
              list);
    system->stuck = true;
}

/* ------------------------------------------------------------ scheduler */

enum { MAX_EVENTS = 4 * STC_COH_MAX_CORES + 1 };

/* The enabled events; earliest: the first time a delayed message may be
 * delivered (UINT64_MAX if none waits). */
static unsigned enabled_events(stc_cs_system *system, sched_event *events, uint64_t *earliest)
{
    unsigned count = 0;
    *earliest = UINT64_MAX;
    for (unsigned c = 0; c < system->config.cores; c++) {
        core_state *cs = &system->core[c];
        if (attempt_enabled(system, c))
            events[count++] = (sched_event){STC_CS_EV_ATTEMPT, c};
        if (cs->req != STC_COH_SP_REQ_NONE && !cs->ordered)
            events[count++] = (sched_event){STC_CS_EV_ORDER, c};
        /* never without a buffer: the old runs' event lists, and so their
         * random choices, are unchanged */
        if (cs->wb_count > 0)
            events[count++] = (sched_event){STC_CS_EV_ORDER_PUT, c};
        if (cs->resp.full && cs->resp.ready <= system->now)
            events[count++] = (sched_event){STC_CS_EV_RESPONSE, c};
        else if (cs->resp.full && cs->resp.ready < *earliest)
            *earliest = cs->resp.ready;
    }
    /* One event stands for "memory receives a writeback": the oldest
     * ready one when serial, else one of the ready ones at random, so
     * writebacks of different blocks arrive in any order. */
    uint32_t ready = 0, pick = 0;
    for (uint32_t i = 0; i < system->writeback_count; i++) {
        if (system->writebacks[i].ready > system->now) {
            if (system->writebacks[i].ready < *earliest)
                *earliest = system->writebacks[i].ready;
        } else if (ready++ == 0 || (system->config.schedule == STC_CS_RANDOM &&
                                    rng_next(system) % ready == 0)) {
            pick = i; /* reservoir sampling: each ready one equally likely */
        }
    }
    if (ready > 0)
        events[count++] = (sched_event){STC_CS_EV_WRITEBACK, pick};
    return count;
}

/* SERIAL: messages first, then orderings (a buffered put before a GetS
 * or GetM, as the frame-held eviction orders its put before the miss's
 * request), then the oldest reference. */
static bool choose_serial(stc_cs_system *system, const sched_event *events, unsigned count,
                          sched_event *chosen)
{
    static const stc_cs_event priority[] = {STC_CS_EV_RESPONSE, STC_CS_EV_WRITEBACK,
                                            STC_CS_EV_ORDER_PUT, STC_CS_EV_ORDER};
    for (unsigned k = 0; k < sizeof priority / sizeof priority[0]; k++)
        for (unsigned i = 0; i < count; i++)
            if (events[i].kind == priority[k]) {
                *chosen = events[i];
                return true;
            }
    uint64_t oldest = UINT64_MAX;
    int core = -1;
    for (unsigned c = 0; c < system->config.cores; c++) {
        const core_state *cs = &system->core[c];
        if (cs->count > 0 && cs->queue[cs->head].seq < oldest) {
            oldest = cs->queue[cs->head].seq;
            core = (int)c;
        }
    }
    for (unsigned i = 0; i < count; i++)
        if (events[i].kind == STC_CS_EV_ATTEMPT && (int)events[i].index == core) {
            *chosen = events[i];
            return true;
        }
    return false;
}

static void run_event(stc_cs_system *system, sched_event chosen)
{
    switch (chosen.kind) {
    case STC_CS_EV_ATTEMPT:
        attempt(system, chosen.index);
        break;
    case STC_CS_EV_ORDER:
        order(system, chosen.index);
        break;
    case STC_CS_EV_RESPONSE:
        deliver_response(system, chosen.index);
        break;
    case STC_CS_EV_WRITEBACK:
        deliver_writeback(system, chosen.index);
        break;
    case STC_CS_EV_ORDER_PUT:
        order_buffered_put(system, chosen.index);
        break;
    }
}

/* The events run, one step each, with the SWMR check on what they
 * touched and the progress watchdog. */
static void step_with(stc_cs_system *system, sched_event chosen)
{
    system->touched_count = 0;
    system->acting = chosen.kind == STC_CS_EV_WRITEBACK ? 0 : chosen.index;
    system->steps++;
    system->now++;
    run_event(system, chosen);
    if (system->layer.after_event)
        system->layer.after_event(system->layer.context, system);
    for (unsigned i = 0; i < system->touched_count; i++)
        check_swmr(system, system->touched[i]);
    if (system->steps - system->last_progress > system->config.watchdog_steps)
        deadlock(system, "no block access completed within the watchdog's steps");
}

int stc_cs_run(stc_cs_system *system, stc_cs_event kind, unsigned core)
{
    if (system->stuck || (unsigned)kind > STC_CS_EV_ORDER_PUT ||
        (kind != STC_CS_EV_WRITEBACK && core >= system->config.cores))
        return -1;
    const core_state *cs = &system->core[core < system->config.cores ? core : 0];
    bool enabled = kind == STC_CS_EV_ATTEMPT    ? attempt_enabled(system, core)
                   : kind == STC_CS_EV_ORDER    ? cs->req != STC_COH_SP_REQ_NONE && !cs->ordered
                   : kind == STC_CS_EV_RESPONSE ? cs->resp.full
                   : kind == STC_CS_EV_ORDER_PUT ? cs->wb_count > 0
                                                : system->writeback_count > 0;
    if (!enabled)
        return -1;
    step_with(system, (sched_event){kind, kind == STC_CS_EV_WRITEBACK ? 0 : core});
    return 0;
}

int stc_cs_step(stc_cs_system *system)
{
    if (system->stuck || !work_remains(system))
        return 0;
    sched_event events[MAX_EVENTS];
    uint64_t earliest;
    unsigned count = enabled_events(system, events, &earliest);
    if (count == 0 && earliest != UINT64_MAX) {
        system->now = earliest; /* only delayed messages: time passes */
        count = enabled_events(system, events, &earliest);
    }
    sched_event chosen;
    bool have = count > 0;
    if (have && system->config.schedule == STC_CS_SERIAL)
        have = choose_serial(system, events, count, &chosen);
    else if (have)
        chosen = events[rng_next(system) % count];
    if (!have) {
        deadlock(system, "no event is enabled");
        return 0;
    }
    step_with(system, chosen);
    return 1;
}

void stc_cs_drain(stc_cs_system *system)
{
    while (stc_cs_step(system))
        ;
}

/* ------------------------------------------------------------ create */

static int check_config(const stc_cs_config *config, const stc_coh_sp_table **table,
                        char *message, size_t len)
{
    if (!config) {
        snprintf(message, len, "no configuration");
        return -1;
    }
    if (stc_coh_geometry_check(config->cores, config->size_bytes, config->ways,
                               config->line_bytes, message, len) != 0)
        return -1;
    if ((unsigned)config->schedule >= STC_CS_SCHEDULE_COUNT) {
        snprintf(message, len, "schedule %d: unknown", (int)config->schedule);
        return -1;
    }
    if (config->window > MAX_WINDOW) {
        snprintf(message, len, "window %u: must be 1..%d", config->window, MAX_WINDOW);
        return -1;
    }
    if (config->wb_buffer > STC_CS_MAX_WB_BUFFER) {
        snprintf(message, len, "wb_buffer %u: must be 0..%d", config->wb_buffer,
                 STC_CS_MAX_WB_BUFFER);
        return -1;
    }
    *table = config->table ? config->table : stc_coh_sp_table_of(config->protocol);
    if (!*table) {
        snprintf(message, len, "protocol %d: unknown", (int)config->protocol);
        return -1;
    }
    char check[200];
    if (stc_coh_sp_table_check(*table, check, sizeof check) != 0) {
        snprintf(message, len, "protocol table: %s", check);
        return -1;
    }
    return 0;
}

/* The rows by pair, and whether the protocol has a shared line. */
static void index_rows(stc_cs_system *system)
{
    for (unsigned s = 0; s < STC_COH_SP_STATE_COUNT; s++)
        for (unsigned ev = 0; ev < STC_COH_SP_EVENT_COUNT; ev++) {
            const stc_coh_sp_row *row =
                stc_coh_sp_lookup(&system->table, (stc_coh_sp_state)s, (stc_coh_sp_event)ev);
            system->row[s][ev] = row;
            if (row && (row->asserts_shared || row->next_shared != row->next))
                system->shared_line = true;
        }
}

/* A system with frame_count frames (the caches', then the writeback
 * buffers' or a layer's) and FA caches of fa_lines lines. */
static stc_cs_system *create_system(const stc_cs_config *config, const stc_cs_layer *layer,
                                    size_t frame_count, uint32_t fa_lines, char *err,
                                    size_t err_len)
{
    char message[256] = "";
    const stc_coh_sp_table *table = NULL;
    if (check_config(config, &table, message, sizeof message) != 0) {
        if (err && err_len)
            snprintf(err, err_len, "%s", message);
        return NULL;
    }
    stc_cs_system *system = calloc(1, sizeof *system);
    if (!system)
        goto out_of_memory;
    system->config = *config;
    system->config.table = NULL;
    system->config.protocol = table->protocol;
    if (!system->config.window)
        system->config.window = DEFAULT_WINDOW;
    if (!system->config.max_delay)
        system->config.max_delay = DEFAULT_MAX_DELAY;
    if (!system->config.watchdog_steps)
        system->config.watchdog_steps = DEFAULT_WATCHDOG;
    system->table = *table;
    if (layer)
        system->layer = *layer;
    index_rows(system);
    system->rng = config->seed;
    system->line = config->line_bytes;
    system->line_shift = stc_coh_log2(config->line_bytes);
    system->sets = config->size_bytes / (config->ways * config->line_bytes);
    system->wb_base = (size_t)config->cores * config->size_bytes / config->line_bytes;
    system->frames = calloc(frame_count, sizeof *system->frames);
    system->data = calloc(frame_count, config->line_bytes);
    if (!system->frames || !system->data)
        goto out_of_memory;
    for (unsigned c = 0; c < STC_COH_MAX_CORES; c++)
        system->core[c].fwd = NOBODY;
    if (stc_coh_book_init(&system->book, config->cores, config->line_bytes, fa_lines) != 0)
        goto out_of_memory;
    return system;

out_of_memory:
    stc_cs_destroy(system);
    if (err && err_len)
        snprintf(err, err_len, "out of memory");
    return NULL;
}

stc_cs_system *stc_cs_create(const stc_cs_config *config, char *err, size_t err_len)
{
    size_t frame_count = 0;
    uint32_t fa_lines = 0;
    if (config && config->line_bytes) {
        frame_count = (size_t)config->cores * config->size_bytes / config->line_bytes +
                      (size_t)config->cores * config->wb_buffer;
        /* the FA caches of the 3C split: as many lines as a cache */
        fa_lines = config->size_bytes / config->line_bytes;
    }
    return create_system(config, NULL, frame_count, fa_lines, err, err_len);
}

stc_cs_system *stc_csl_create(const stc_cs_config *config, const stc_cs_layer *layer,
                              size_t frame_count, uint32_t fa_lines, char *err, size_t err_len)
{
    /* the writeback buffers' slots follow the frames config's geometry
     * gives, which must hold the layer's */
    size_t geometry_frames = 0;
    if (config && config->line_bytes)
        geometry_frames = (size_t)config->cores * config->size_bytes / config->line_bytes;
    if (config && frame_count > geometry_frames) {
        if (err && err_len)
            snprintf(err, err_len, "%zu frames: the geometry gives %zu", frame_count,
                     geometry_frames);
        return NULL;
    }
    size_t wb_slots = config ? (size_t)config->cores * config->wb_buffer : 0;
    return create_system(config, layer, geometry_frames + wb_slots, fa_lines, err, err_len);
}

/* ------------------------------------------------------------ a layer's calls */

bool stc_csl_attempt_enabled(stc_cs_system *system, unsigned core)
{
    return default_attempt_enabled(system, core);
}

void stc_csl_attempt(stc_cs_system *system, unsigned core)
{
    default_attempt(system, core);
}

bool stc_csl_evict(stc_cs_system *system, unsigned core, size_t f)
{
    return evict(system, core, f);
}

void stc_csl_fetch(stc_cs_system *system, unsigned core, size_t f, uint64_t block, uint32_t entry)
{
    frame *fill = &system->frames[f];
    *fill = (frame){.block = block, .entry = entry, .state = STC_COH_SP_I,
                    .lru = ++system->clock};
    touch(system, entry);
    const stc_coh_sp_row *row = system->row[STC_COH_SP_I][STC_COH_SP_LOAD];
    if (!row || row->outcome != STC_COH_SP_ACT || row->issue == STC_COH_SP_REQ_NONE) {
        impossible(system, core, entry, STC_COH_SP_I, STC_COH_SP_LOAD);
        return;
    }
    issue(system, core, row->issue, f, STC_COH_SP_I);
    system->core[core].fetch_only = true;
    fill->state = (uint8_t)row->next;
}

void stc_csl_count_stall(stc_cs_system *system, unsigned core)
{
    count_stall(system, core);
}

bool stc_csl_buffered(const stc_cs_system *system, unsigned core, uint64_t block)
{
    return system->config.wb_buffer > 0 && find_buffered(system, core, block) >= 0;
}

bool stc_csl_evict_may_run(const stc_cs_system *system, unsigned core, size_t f)
{
    return put_has_room(system, core, (stc_coh_sp_state)system->frames[f].state);
}

void stc_csl_access_done(stc_cs_system *system, unsigned core)
{
    access_done(system, core);
}

block_access stc_csl_current_access(stc_cs_system *system, unsigned core)
{
    return current_access(system, core);
}

const reference *stc_csl_head(const stc_cs_system *system, unsigned core)
{
    const core_state *cs = &system->core[core];
    return &cs->queue[cs->head];
}

long stc_csl_find_block(stc_cs_system *system, uint64_t block)
{
    return find_block(system, block);
}

uint8_t *stc_csl_frame_data(stc_cs_system *system, size_t f)
{
    return frame_data(system, f);
}

/* The next entry of core's queue, counted in, once the window has room
 * (the run steps until it has); NULL if the run is stuck. */
static reference *queue_slot(stc_cs_system *system, unsigned core)
{
    core_state *cs = &system->core[core];
    while (cs->count == system->config.window && stc_cs_step(system))
        ;
    if (system->stuck)
        return NULL;
    reference *ref = &cs->queue[(cs->head + cs->count) % MAX_WINDOW];
    cs->count++;
    return ref;
}

/* A marker is a reference of size 0: no block access, only a place in
 * the core's order (and, for the serial schedule, in the submission
 * order) where the layer runs an operation of its own. */
int stc_csl_submit_marker(stc_cs_system *system, unsigned core, uint64_t tag)
{
    if (core >= system->config.cores) {
        set_error(system, "core %u: must be 0..%u", core, system->config.cores - 1);
        return -1;
    }
    reference *ref = queue_slot(system, core);
    if (ref)
        *ref = (reference){.op = STC_COH_OP_LOAD, .size = 0, .tag = tag, .seq = system->seq++};
    return 0;
}

bool stc_csl_head_is_marker(const stc_cs_system *system, unsigned core)
{
    const core_state *cs = &system->core[core];
    return cs->count > 0 && cs->queue[cs->head].size == 0;
}

/* The marker's operation is over: it leaves the queue uncounted (not a
 * reference: no references, loads, stores, no done callback). */
void stc_csl_marker_done(stc_cs_system *system, unsigned core)
{
    core_state *cs = &system->core[core];
    cs->counted = cs->hit = cs->booked = cs->stalled = false;
    cs->head = (cs->head + 1) % MAX_WINDOW;
    cs->count--;
    cs->done = 0;
    system->last_progress = system->steps;
}

void stc_cs_destroy(stc_cs_system *system)
{
    if (!system)
        return;
    free(system->frames);
    free(system->data);
    free(system->entries);
    free(system->writebacks);
    stc_coh_book_free(&system->book);
    free(system);
}

/* ------------------------------------------------------------ submit */

int stc_cs_submit(stc_cs_system *system, unsigned core, stc_coh_op op, uint64_t addr,
                  uint32_t size, uint64_t value, uint64_t tag)
{
    if (stc_coh_reference_check(system->config.cores, system->line, core, op, size,
                                system->error, sizeof system->error) != 0)
        return -1;
    reference *ref = queue_slot(system, core);
    if (!ref)
        return 0;
    *ref = (reference){.op = op, .addr = addr, .size = size, .tag = tag, .seq = system->seq++};
    for (uint32_t i = 0; i < size; i++)
        ref->bytes[i] = (uint8_t)(value >> (8 * (i % 8)));
    return 0;
}

/* ------------------------------------------------------------ queries */

const char *stc_cs_error(const stc_cs_system *system)
{
    return system->error;
}

const stc_cs_counters *stc_cs_core_counters(const stc_cs_system *system, unsigned core)
{
    return core < system->config.cores ? &system->counters[core] : NULL;
}

void stc_cs_total(const stc_cs_system *system, stc_cs_counters *total)
{
    memset(total, 0, sizeof *total);
    for (unsigned c = 0; c < system->config.cores; c++)
        stc_counter_fields_add(total, &system->counters[c], counter_list, STC_CS_COUNTER_COUNT);
    total->latency_max = 0; /* a maximum, not a sum */
    for (unsigned c = 0; c < system->config.cores; c++)
        if (system->counters[c].latency_max > total->latency_max)
            total->latency_max = system->counters[c].latency_max;
}

uint64_t stc_cs_steps(const stc_cs_system *system)
{
    return system->steps;
}

uint64_t stc_cs_violation_count(const stc_cs_system *system)
{
    return system->violations;
}

uint64_t stc_cs_violation_kind_count(const stc_cs_system *system, stc_cs_violation_kind kind)
{
    return (unsigned)kind < STC_CS_VIOL_KIND_COUNT ? system->violations_of[kind] : 0;
}

const stc_cs_violation *stc_cs_violation_at(const stc_cs_system *system, unsigned index)
{
    if (index >= STC_COH_VIOLATIONS_KEPT || index >= system->violations)
        return NULL;
    return &system->kept[index];
}

stc_coh_sp_state stc_cs_state_of(const stc_cs_system *system, unsigned core, uint64_t addr)
{
    if (core >= system->config.cores)
        return STC_COH_SP_I;
    return state_in(system, find_copy(system, core, addr >> system->line_shift));
}

uint64_t stc_cs_memory_read(const stc_cs_system *system, uint64_t addr, uint32_t size)
{
    return stc_coh_book_read(&system->book, false, addr, size);
}

uint64_t stc_cs_shadow_read(const stc_cs_system *system, uint64_t addr, uint32_t size)
{
    return stc_coh_book_read(&system->book, true, addr, size);
}

bool stc_cs_memory_current(const stc_cs_system *system, uint64_t addr)
{
    long e = stc_coh_book_lookup(&system->book, addr >> system->line_shift);
    return e < 0 || (system->entries[e].owner == NOBODY && system->entries[e].pending == 0);
}

const stc_cs_config *stc_cs_config_of(const stc_cs_system *system)
{
    return &system->config;
}
