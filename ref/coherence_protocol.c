/*
 * coherence_protocol.c - the MSI, MESI and MOESI tables (atomic bus, stable
 * states), the split-transaction MSI, MESI and MOESI tables (transient
 * states), and the functions that read, check and break them.
 * docs/COHERENCE.md is the definition; its section 3.3 explains each
 * decision the rows below encode.
 */
#include "coherence_protocol.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Row builders, so each table reads as one line per (state, event) pair.
 * PROC(state, event, next with no sharer, next with a sharer, bus, hit);
 * SNOOP(state, snooped bus, next, supplies, flushes, asserts shared). */
#define PROC(state, event, next_alone, next_shared, bus, hit)                                  \
    {STC_COH_##state, STC_COH_##event, STC_COH_##next_alone, STC_COH_##next_shared,            \
     STC_COH_BUS_##bus, hit, false}
#define SNOOP(state, bus, next, supplies, flushes, asserts_shared)                             \
    {STC_COH_##state, STC_COH_BUS_##bus, STC_COH_##next, supplies, flushes, asserts_shared, false}
#define SNOOP_IMPOSSIBLE(state, bus)                                                           \
    {STC_COH_##state, STC_COH_BUS_##bus, STC_COH_##state, false, false, false, true}

enum { HIT = true, MISS = false, YES = true, NO = false };

/* MSI (H&P figures 5.6-5.7). MSI has no shared line: a read miss always
 * takes S. An M copy answering a miss writes back as it supplies (the
 * textbook's "write-back block; abort memory access"), so memory is up to
 * date whenever no cache is in M. */
static const stc_coh_table msi_table = {
    .protocol = STC_COH_MSI,
    .state_count = 3,
    .states = {STC_COH_I, STC_COH_S, STC_COH_M},
    .proc_row_count = 9,
    .proc_rows = {
        PROC(I, LOAD, S, S, RD, MISS),
        PROC(I, STORE, M, M, RDX, MISS),
        PROC(I, EVICT, I, I, NONE, MISS),      /* nothing to evict */
        PROC(S, LOAD, S, S, NONE, HIT),
        PROC(S, STORE, M, M, UPGR, HIT),       /* data is current: invalidate only */
        PROC(S, EVICT, I, I, NONE, HIT),       /* clean: silent */
        PROC(M, LOAD, M, M, NONE, HIT),
        PROC(M, STORE, M, M, NONE, HIT),
        PROC(M, EVICT, I, I, WB, HIT),
    },
    .snoop_row_count = 12,
    .snoop_rows = {
        /*     state bus   next supplies flushes shared */
        SNOOP(I, RD, I, NO, NO, NO),
        SNOOP(I, RDX, I, NO, NO, NO),
        SNOOP(I, UPGR, I, NO, NO, NO),
        SNOOP(I, WB, I, NO, NO, NO),
        SNOOP(S, RD, S, NO, NO, NO),           /* memory is current and supplies */
        SNOOP(S, RDX, I, NO, NO, NO),
        SNOOP(S, UPGR, I, NO, NO, NO),
        SNOOP_IMPOSSIBLE(S, WB),               /* only M writes back, and M has no sharers */
        SNOOP(M, RD, S, YES, YES, NO),
        SNOOP(M, RDX, I, YES, YES, NO),
        SNOOP_IMPOSSIBLE(M, UPGR),             /* an upgrader holds S: excluded by M */
        SNOOP_IMPOSSIBLE(M, WB),               /* a writer-back holds M: only one M */
    },
};

/* MESI: MSI plus E. A read miss takes E when no other cache asserts the
 * shared line. E is clean, so memory supplies a miss on an E block (the
 * seed: "if a block is clean in all local caches, read misses are served
 * by memory"); only M supplies, and writes back as it does. */
static const stc_coh_table mesi_table = {
    .protocol = STC_COH_MESI,
    .state_count = 4,
    .states = {STC_COH_I, STC_COH_S, STC_COH_E, STC_COH_M},
    .proc_row_count = 12,
    .proc_rows = {
        PROC(I, LOAD, E, S, RD, MISS),
        PROC(I, STORE, M, M, RDX, MISS),
        PROC(I, EVICT, I, I, NONE, MISS),
        PROC(S, LOAD, S, S, NONE, HIT),
        PROC(S, STORE, M, M, UPGR, HIT),
        PROC(S, EVICT, I, I, NONE, HIT),
        PROC(E, LOAD, E, E, NONE, HIT),
        PROC(E, STORE, M, M, NONE, HIT),       /* the point of E: no bus transaction */
        PROC(E, EVICT, I, I, NONE, HIT),       /* clean: silent */
        PROC(M, LOAD, M, M, NONE, HIT),
        PROC(M, STORE, M, M, NONE, HIT),
        PROC(M, EVICT, I, I, WB, HIT),
    },
    .snoop_row_count = 16,
    .snoop_rows = {
        /*     state bus   next supplies flushes shared */
        SNOOP(I, RD, I, NO, NO, NO),
        SNOOP(I, RDX, I, NO, NO, NO),
        SNOOP(I, UPGR, I, NO, NO, NO),
        SNOOP(I, WB, I, NO, NO, NO),
        SNOOP(S, RD, S, NO, NO, YES),
        SNOOP(S, RDX, I, NO, NO, NO),
        SNOOP(S, UPGR, I, NO, NO, NO),
        SNOOP_IMPOSSIBLE(S, WB),
        SNOOP(E, RD, S, NO, NO, YES),          /* clean: memory supplies */
        SNOOP(E, RDX, I, NO, NO, NO),
        SNOOP_IMPOSSIBLE(E, UPGR),             /* an upgrader holds S: excluded by E */
        SNOOP_IMPOSSIBLE(E, WB),
        SNOOP(M, RD, S, YES, YES, YES),
        SNOOP(M, RDX, I, YES, YES, NO),
        SNOOP_IMPOSSIBLE(M, UPGR),
        SNOOP_IMPOSSIBLE(M, WB),
    },
};

/* MOESI: MESI plus O. An M copy answering a read miss keeps the dirty data
 * as O and supplies it without writing back; O supplies every later miss
 * and writes back only when evicted. A write miss moves ownership to the
 * requester's M without a writeback either: memory is updated only by
 * BusWB. */
static const stc_coh_table moesi_table = {
    .protocol = STC_COH_MOESI,
    .state_count = 5,
    .states = {STC_COH_I, STC_COH_S, STC_COH_E, STC_COH_O, STC_COH_M},
    .proc_row_count = 15,
    .proc_rows = {
        PROC(I, LOAD, E, S, RD, MISS),
        PROC(I, STORE, M, M, RDX, MISS),
        PROC(I, EVICT, I, I, NONE, MISS),
        PROC(S, LOAD, S, S, NONE, HIT),
        PROC(S, STORE, M, M, UPGR, HIT),
        PROC(S, EVICT, I, I, NONE, HIT),
        PROC(E, LOAD, E, E, NONE, HIT),
        PROC(E, STORE, M, M, NONE, HIT),
        PROC(E, EVICT, I, I, NONE, HIT),
        PROC(O, LOAD, O, O, NONE, HIT),
        PROC(O, STORE, M, M, UPGR, HIT),       /* sharers may exist: invalidate them */
        PROC(O, EVICT, I, I, WB, HIT),         /* memory is stale: write back */
        PROC(M, LOAD, M, M, NONE, HIT),
        PROC(M, STORE, M, M, NONE, HIT),
        PROC(M, EVICT, I, I, WB, HIT),
    },
    .snoop_row_count = 20,
    .snoop_rows = {
        /*     state bus   next supplies flushes shared */
        SNOOP(I, RD, I, NO, NO, NO),
        SNOOP(I, RDX, I, NO, NO, NO),
        SNOOP(I, UPGR, I, NO, NO, NO),
        SNOOP(I, WB, I, NO, NO, NO),
        SNOOP(S, RD, S, NO, NO, YES),          /* the owner, if any, supplies; else memory */
        SNOOP(S, RDX, I, NO, NO, NO),
        SNOOP(S, UPGR, I, NO, NO, NO),
        SNOOP(S, WB, S, NO, NO, NO),           /* the O owner evicts; this copy stays */
        SNOOP(E, RD, S, NO, NO, YES),
        SNOOP(E, RDX, I, NO, NO, NO),
        SNOOP_IMPOSSIBLE(E, UPGR),
        SNOOP_IMPOSSIBLE(E, WB),
        SNOOP(O, RD, O, YES, NO, YES),
        SNOOP(O, RDX, I, YES, NO, NO),         /* ownership moves to the requester's M */
        SNOOP(O, UPGR, I, NO, NO, NO),         /* the upgrader's S copy is current */
        SNOOP_IMPOSSIBLE(O, WB),               /* only one owner */
        SNOOP(M, RD, O, YES, NO, YES),
        SNOOP(M, RDX, I, YES, NO, NO),
        SNOOP_IMPOSSIBLE(M, UPGR),
        SNOOP_IMPOSSIBLE(M, WB),
    },
};

static const stc_coh_table *const tables[STC_COH_PROTOCOL_COUNT] = {
    [STC_COH_MSI] = &msi_table,
    [STC_COH_MESI] = &mesi_table,
    [STC_COH_MOESI] = &moesi_table,
};

static const char *const protocol_names[STC_COH_PROTOCOL_COUNT] = {"msi", "mesi", "moesi"};
static const char *const state_names[STC_COH_STATE_COUNT] = {"I", "S", "E", "O", "M"};
static const char *const event_names[STC_COH_PROC_EVENT_COUNT] = {"Load", "Store", "Evict"};
static const char *const bus_names[STC_COH_BUS_COUNT] = {"none", "BusRd", "BusRdX", "BusUpgr",
                                                         "BusWB"};
static const char *const break_names[STC_COH_BREAK_COUNT] = {"no-invalidate", "no-supply",
                                                             "no-shared"};
static const char *const break_whats[STC_COH_BREAK_COUNT] = {
    "S snooping BusRdX stays S (a missing invalidation)",
    "M snooping BusRd neither supplies nor flushes (the requester reads stale memory)",
    "a BusRd requester takes E even when another cache asserts shared",
};

const stc_coh_table *stc_coh_table_of(stc_coh_protocol protocol)
{
    return (unsigned)protocol < STC_COH_PROTOCOL_COUNT ? tables[protocol] : NULL;
}

unsigned stc_coh_state_code(const stc_coh_table *table, stc_coh_state state)
{
    for (unsigned index = 0; index < table->state_count; index++) {
        if (table->states[index] == state) {
            return index;
        }
    }
    return 0;
}

bool stc_coh_table_has_state(const stc_coh_table *table, stc_coh_state state)
{
    for (unsigned index = 0; index < table->state_count; index++) {
        if (table->states[index] == state) {
            return true;
        }
    }
    return false;
}

const stc_coh_proc_row *stc_coh_proc_lookup(const stc_coh_table *table, stc_coh_state state,
                                            stc_coh_proc_event event)
{
    for (unsigned index = 0; index < table->proc_row_count; index++) {
        const stc_coh_proc_row *row = &table->proc_rows[index];
        if (row->state == state && row->event == event) {
            return row;
        }
    }
    return NULL;
}

const stc_coh_snoop_row *stc_coh_snoop_lookup(const stc_coh_table *table, stc_coh_state state,
                                              stc_coh_bus bus)
{
    for (unsigned index = 0; index < table->snoop_row_count; index++) {
        const stc_coh_snoop_row *row = &table->snoop_rows[index];
        if (row->state == state && row->bus == bus) {
            return row;
        }
    }
    return NULL;
}

/* The editable row of a pair in a copied table (NULL if absent). */
static stc_coh_proc_row *proc_row_to_edit(stc_coh_table *table, stc_coh_state state,
                                          stc_coh_proc_event event)
{
    return (stc_coh_proc_row *)stc_coh_proc_lookup(table, state, event);
}

static stc_coh_snoop_row *snoop_row_to_edit(stc_coh_table *table, stc_coh_state state,
                                            stc_coh_bus bus)
{
    return (stc_coh_snoop_row *)stc_coh_snoop_lookup(table, state, bus);
}

static int fail(char *err, size_t err_len, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(err, err_len, fmt, args);
    va_end(args);
    return -1;
}

/* The index of name in names[count], or -1. */
static int find_name(const char *name, const char *const *names, unsigned count)
{
    for (unsigned index = 0; index < count; index++) {
        if (!strcmp(name, names[index])) {
            return (int)index;
        }
    }
    return -1;
}

/* names[index], or "?" out of range. */
static const char *name_in(const char *const *names, unsigned count, unsigned index)
{
    return index < count ? names[index] : "?";
}

static bool state_in_range(stc_coh_state state)
{
    return (unsigned)state < STC_COH_STATE_COUNT;
}

/* The transactions a processor event may issue besides none: a load only
 * asks for a readable copy, a store for the only copy, an evict writes
 * back. */
static bool bus_fits_event(stc_coh_proc_event event, stc_coh_bus bus)
{
    switch (event) {
    case STC_COH_LOAD:
        return bus == STC_COH_BUS_NONE || bus == STC_COH_BUS_RD;
    case STC_COH_STORE:
        return bus == STC_COH_BUS_NONE || bus == STC_COH_BUS_RDX || bus == STC_COH_BUS_UPGR;
    case STC_COH_EVICT:
        return bus == STC_COH_BUS_NONE || bus == STC_COH_BUS_WB;
    default:
        return false;
    }
}

static int check_states(const stc_coh_table *table, char *err, size_t err_len)
{
    if (table->state_count == 0 || table->state_count > STC_COH_STATE_COUNT) {
        return fail(err, err_len, "%u states (expected 1..%d)", table->state_count,
                    STC_COH_STATE_COUNT);
    }
    for (unsigned index = 0; index < table->state_count; index++) {
        stc_coh_state state = table->states[index];
        if (!state_in_range(state)) {
            return fail(err, err_len, "state %u out of range", (unsigned)state);
        }
        for (unsigned other = 0; other < index; other++) {
            if (table->states[other] == state) {
                return fail(err, err_len, "state %s listed twice", state_names[state]);
            }
        }
    }
    if (!stc_coh_table_has_state(table, STC_COH_I)) {
        return fail(err, err_len, "no state I (every cache starts invalid)");
    }
    return 0;
}

static int check_proc_row(const stc_coh_table *table, const stc_coh_proc_row *row, char *err,
                          size_t err_len)
{
    if (!stc_coh_table_has_state(table, row->state) ||
        (unsigned)row->event >= STC_COH_PROC_EVENT_COUNT) {
        return fail(err, err_len, "a processor row names state %u, event %u outside the protocol",
                    (unsigned)row->state, (unsigned)row->event);
    }
    const char *state = state_names[row->state];
    const char *event = event_names[row->event];
    if (row->impossible) {
        if (row->next_alone != row->state || row->next_shared != row->state ||
            row->bus != STC_COH_BUS_NONE) {
            return fail(err, err_len, "%s %s: an impossible row has actions", state, event);
        }
        return 0;
    }
    if (!stc_coh_table_has_state(table, row->next_alone) ||
        !stc_coh_table_has_state(table, row->next_shared)) {
        return fail(err, err_len, "%s %s: next state outside the protocol", state, event);
    }
    if ((unsigned)row->bus >= STC_COH_BUS_COUNT || !bus_fits_event(row->event, row->bus)) {
        return fail(err, err_len, "%s %s: issues %s", state, event, stc_coh_bus_name(row->bus));
    }
    if ((row->bus == STC_COH_BUS_UPGR || row->bus == STC_COH_BUS_WB) && row->state == STC_COH_I) {
        return fail(err, err_len, "%s %s: %s needs a valid copy", state, event,
                    bus_names[row->bus]);
    }
    if (row->state == STC_COH_I && row->event != STC_COH_EVICT && row->bus != STC_COH_BUS_RD &&
        row->bus != STC_COH_BUS_RDX) {
        return fail(err, err_len, "%s %s: a miss must fetch the block (BusRd or BusRdX)", state,
                    event);
    }
    if (row->next_alone != row->next_shared && row->bus != STC_COH_BUS_RD) {
        return fail(err, err_len, "%s %s: the shared line only answers BusRd", state, event);
    }
    if (row->hit != (row->state != STC_COH_I)) {
        return fail(err, err_len, "%s %s: hit must say whether the block is valid", state, event);
    }
    return 0;
}

static int check_snoop_row(const stc_coh_table *table, const stc_coh_snoop_row *row, char *err,
                           size_t err_len)
{
    if (!stc_coh_table_has_state(table, row->state) || row->bus == STC_COH_BUS_NONE ||
        (unsigned)row->bus >= STC_COH_BUS_COUNT) {
        return fail(err, err_len, "a snoop row names state %u, transaction %u outside the protocol",
                    (unsigned)row->state, (unsigned)row->bus);
    }
    const char *state = state_names[row->state];
    const char *bus = bus_names[row->bus];
    bool acts = row->supplies || row->flushes || row->asserts_shared;
    if (row->impossible) {
        if (acts || row->next != row->state) {
            return fail(err, err_len, "%s snoops %s: an impossible row has actions", state, bus);
        }
        return 0;
    }
    if (!stc_coh_table_has_state(table, row->next)) {
        return fail(err, err_len, "%s snoops %s: next state outside the protocol", state, bus);
    }
    if (row->supplies && row->bus != STC_COH_BUS_RD && row->bus != STC_COH_BUS_RDX) {
        return fail(err, err_len, "%s snoops %s: only a miss takes data", state, bus);
    }
    if (row->asserts_shared && row->bus != STC_COH_BUS_RD) {
        return fail(err, err_len, "%s snoops %s: the shared line only answers BusRd", state, bus);
    }
    if (row->state == STC_COH_I && (acts || row->next != STC_COH_I)) {
        return fail(err, err_len, "I snoops %s: an invalid copy has nothing to give", bus);
    }
    return 0;
}

/* Every pair of the protocol's states has exactly one row. */
static int check_pairs(const stc_coh_table *table, char *err, size_t err_len)
{
    for (unsigned state_index = 0; state_index < table->state_count; state_index++) {
        stc_coh_state state = table->states[state_index];
        for (unsigned event = 0; event < STC_COH_PROC_EVENT_COUNT; event++) {
            unsigned rows = 0;
            for (unsigned index = 0; index < table->proc_row_count; index++) {
                rows += table->proc_rows[index].state == state &&
                        table->proc_rows[index].event == (stc_coh_proc_event)event;
            }
            if (rows != 1) {
                return fail(err, err_len, "%s %s: %u rows (expected 1)", state_names[state],
                            event_names[event], rows);
            }
        }
        for (unsigned bus = STC_COH_BUS_RD; bus < STC_COH_BUS_COUNT; bus++) {
            unsigned rows = 0;
            for (unsigned index = 0; index < table->snoop_row_count; index++) {
                rows += table->snoop_rows[index].state == state &&
                        table->snoop_rows[index].bus == (stc_coh_bus)bus;
            }
            if (rows != 1) {
                return fail(err, err_len, "%s snoops %s: %u rows (expected 1)", state_names[state],
                            bus_names[bus], rows);
            }
        }
    }
    return 0;
}

int stc_coh_table_check(const stc_coh_table *table, char *err, size_t err_len)
{
    if ((unsigned)table->protocol >= STC_COH_PROTOCOL_COUNT) {
        return fail(err, err_len, "protocol %u out of range", (unsigned)table->protocol);
    }
    if (table->proc_row_count > STC_COH_MAX_PROC_ROWS ||
        table->snoop_row_count > STC_COH_MAX_SNOOP_ROWS) {
        return fail(err, err_len, "more rows than room");
    }
    if (check_states(table, err, err_len) != 0) {
        return -1;
    }
    for (unsigned index = 0; index < table->proc_row_count; index++) {
        if (check_proc_row(table, &table->proc_rows[index], err, err_len) != 0) {
            return -1;
        }
    }
    for (unsigned index = 0; index < table->snoop_row_count; index++) {
        if (check_snoop_row(table, &table->snoop_rows[index], err, err_len) != 0) {
            return -1;
        }
    }
    return check_pairs(table, err, err_len);
}

int stc_coh_table_apply_break(stc_coh_table *table, stc_coh_break which, char *err,
                              size_t err_len)
{
    const char *protocol = stc_coh_protocol_name(table->protocol);
    switch (which) {
    case STC_COH_BREAK_NO_INVALIDATE: {
        stc_coh_snoop_row *row = snoop_row_to_edit(table, STC_COH_S, STC_COH_BUS_RDX);
        if (!row || row->next == STC_COH_S) {
            break;
        }
        row->next = STC_COH_S;
        return 0;
    }
    case STC_COH_BREAK_NO_SUPPLY: {
        stc_coh_snoop_row *row = snoop_row_to_edit(table, STC_COH_M, STC_COH_BUS_RD);
        if (!row || (!row->supplies && !row->flushes)) {
            break;
        }
        row->supplies = false;
        row->flushes = false;
        return 0;
    }
    case STC_COH_BREAK_NO_SHARED: {
        stc_coh_proc_row *row = proc_row_to_edit(table, STC_COH_I, STC_COH_LOAD);
        if (!row || row->next_shared == row->next_alone) {
            break;
        }
        row->next_shared = row->next_alone;
        return 0;
    }
    default:
        return fail(err, err_len, "break %u out of range", (unsigned)which);
    }
    return fail(err, err_len, "break %s changes nothing in %s", stc_coh_break_name(which),
                protocol);
}

const char *stc_coh_protocol_name(stc_coh_protocol protocol)
{
    return name_in(protocol_names, STC_COH_PROTOCOL_COUNT, (unsigned)protocol);
}

const char *stc_coh_state_name(stc_coh_state state)
{
    return name_in(state_names, STC_COH_STATE_COUNT, (unsigned)state);
}

const char *stc_coh_proc_event_name(stc_coh_proc_event event)
{
    return name_in(event_names, STC_COH_PROC_EVENT_COUNT, (unsigned)event);
}

const char *stc_coh_bus_name(stc_coh_bus bus)
{
    return name_in(bus_names, STC_COH_BUS_COUNT, (unsigned)bus);
}

const char *stc_coh_break_name(stc_coh_break which)
{
    return name_in(break_names, STC_COH_BREAK_COUNT, (unsigned)which);
}

const char *stc_coh_break_what(stc_coh_break which)
{
    return name_in(break_whats, STC_COH_BREAK_COUNT, (unsigned)which);
}

int stc_coh_protocol_parse(const char *name, stc_coh_protocol *protocol, char *err,
                           size_t err_len)
{
    int index = find_name(name, protocol_names, STC_COH_PROTOCOL_COUNT);
    if (index < 0) {
        return fail(err, err_len, "unknown protocol '%s': expected msi, mesi or moesi", name);
    }
    *protocol = (stc_coh_protocol)index;
    return 0;
}

int stc_coh_break_parse(const char *name, stc_coh_break *which, char *err, size_t err_len)
{
    int index = find_name(name, break_names, STC_COH_BREAK_COUNT);
    if (index < 0) {
        return fail(err, err_len,
                    "unknown break '%s': expected no-invalidate, no-supply or no-shared", name);
    }
    *which = (stc_coh_break)index;
    return 0;
}

/* ==== Split-transaction bus (docs/COHERENCE.md section 8) ==== */

/* ACTX(state, event, next, next if shared, request issued, performed, data
 * to requester, data to memory, raises the shared line); ACT is the usual
 * row (next_shared = next, the line left alone); STALL and NEVER
 * (impossible) rows have no actions. */
#define ACTX(state, event, next, next_shared, issue, perform, to_requester, to_memory, shared) \
    {STC_COH_SP_##state, STC_COH_SP_##event, STC_COH_SP_ACT, STC_COH_SP_##next,                \
     STC_COH_SP_##issue, STC_COH_SP_DO_##perform, STC_COH_SP_SEND_##to_requester,              \
     STC_COH_SP_SEND_##to_memory, STC_COH_SP_##next_shared, shared}
#define ACT(state, event, next, issue, perform, to_requester, to_memory)                       \
    ACTX(state, event, next, next, issue, perform, to_requester, to_memory, false)
/* Another cache's GetS is ordered: SH says whether this state raises the
 * shared line (MESI, MOESI: it holds or will hold a copy, or owns). */
#define SEES_GETS(SH, state, next, to_requester, to_memory)                                   \
    ACTX(state, OTHER_GETS, next, next, REQ_NONE, NONE, to_requester, to_memory, SH)
#define STALL(state, event)                                                                    \
    {STC_COH_SP_##state, STC_COH_SP_##event, STC_COH_SP_STALL, STC_COH_SP_##state,             \
     STC_COH_SP_REQ_NONE, STC_COH_SP_DO_NONE, STC_COH_SP_SEND_NONE, STC_COH_SP_SEND_NONE,      \
     STC_COH_SP_##state, false}
#define NEVER(state, event)                                                                    \
    {STC_COH_SP_##state, STC_COH_SP_##event, STC_COH_SP_IMPOSSIBLE, STC_COH_SP_##state,        \
     STC_COH_SP_REQ_NONE, STC_COH_SP_DO_NONE, STC_COH_SP_SEND_NONE, STC_COH_SP_SEND_NONE,      \
     STC_COH_SP_##state, false}
/* Nothing happens: the event does not concern this state. */
#define IGNORE(state, event) ACT(state, event, state, REQ_NONE, NONE, NONE, NONE)
/* A transient state waiting for its own request and/or data: the processor
 * waits, its own other requests and (before ordering) data cannot come. */
#define WAITING(state)                                                                         \
    STALL(state, LOAD), STALL(state, STORE), STALL(state, EVICT)
/* Neither a request of its own to be ordered nor data to come. */
#define NO_OWN(state)                                                                          \
    NEVER(state, OWN_GETS), NEVER(state, OWN_GETM), NEVER(state, OWN_PUTM), NEVER(state, OWN_DATA)
/* Waiting for data after its own GetS or GetM was ordered. */
#define DATA_ONLY(state) NEVER(state, OWN_GETS), NEVER(state, OWN_GETM), NEVER(state, OWN_PUTM)

/* The row groups every split protocol shares; SH is whether their Other-GetS
 * rows raise the shared line (NO in MSI, which has none). */

/* I, and the GetS path but its ordering: IS^AD Own-GetS is the protocol's
 * (MSI: always IS^D; MESI, MOESI: the E grant). */
#define ROWS_I_IS(SH, IS_AD_OWN_GETS)                                                          \
    ACT(I, LOAD, IS_AD, GETS, NONE, NONE, NONE),                                               \
    ACT(I, STORE, IM_AD, GETM, NONE, NONE, NONE),                                              \
    IGNORE(I, EVICT),                               /* nothing to evict */                     \
    NO_OWN(I), IGNORE(I, OTHER_GETS), IGNORE(I, OTHER_GETM), IGNORE(I, OTHER_PUTM),            \
                                                                                               \
    WAITING(IS_AD), IS_AD_OWN_GETS,                                                            \
    NEVER(IS_AD, OWN_GETM), NEVER(IS_AD, OWN_PUTM), NEVER(IS_AD, OWN_DATA),                    \
    IGNORE(IS_AD, OTHER_GETS), IGNORE(IS_AD, OTHER_GETM), IGNORE(IS_AD, OTHER_PUTM),           \
                                                                                               \
    WAITING(IS_D), DATA_ONLY(IS_D),                                                            \
    ACT(IS_D, OWN_DATA, S, REQ_NONE, LOAD, NONE, NONE),                                        \
    SEES_GETS(SH, IS_D, IS_D, NONE, NONE),                                                     \
    ACT(IS_D, OTHER_GETM, IS_D_I, REQ_NONE, NONE, NONE, NONE),                                 \
    IGNORE(IS_D, OTHER_PUTM),                                                                  \
                                                                                               \
    WAITING(IS_D_I), DATA_ONLY(IS_D_I),                                                        \
    ACT(IS_D_I, OWN_DATA, I, REQ_NONE, LOAD, NONE, NONE),  /* the load, once */                \
    IGNORE(IS_D_I, OTHER_GETS), IGNORE(IS_D_I, OTHER_GETM), IGNORE(IS_D_I, OTHER_PUTM)

/* XY^D and its successors XY^D_I, XY^D_S, XY^D_SI (X Y: IM M store, SM M
 * store, IE E load): the request ordered, the owner-to-be waits for its
 * data; another request seen meanwhile is promised (LATER: the requester,
 * and memory for a GetS, which then owns again), and the promise kept when
 * the data has come and the operation is done. */
#define ROWS_OWNER_TO_BE(SH, XY, Y, OP)                                                        \
    WAITING(XY##_D), DATA_ONLY(XY##_D),                                                        \
    ACT(XY##_D, OWN_DATA, Y, REQ_NONE, OP, NONE, NONE),                                        \
    SEES_GETS(SH, XY##_D, XY##_D_S, LATER, LATER),                                             \
    ACT(XY##_D, OTHER_GETM, XY##_D_I, REQ_NONE, NONE, LATER, NONE),                            \
    IGNORE(XY##_D, OTHER_PUTM),                                                                \
                                                                                               \
    WAITING(XY##_D_I), DATA_ONLY(XY##_D_I),                                                    \
    ACT(XY##_D_I, OWN_DATA, I, REQ_NONE, OP, NOW, NONE),                                       \
    IGNORE(XY##_D_I, OTHER_GETS), IGNORE(XY##_D_I, OTHER_GETM), IGNORE(XY##_D_I, OTHER_PUTM), \
                                                                                               \
    WAITING(XY##_D_S), DATA_ONLY(XY##_D_S),                                                    \
    ACT(XY##_D_S, OWN_DATA, S, REQ_NONE, OP, NOW, NOW),                                        \
    SEES_GETS(SH, XY##_D_S, XY##_D_S, NONE, NONE),  /* memory owns again and answers */        \
    ACT(XY##_D_S, OTHER_GETM, XY##_D_SI, REQ_NONE, NONE, NONE, NONE),                          \
    IGNORE(XY##_D_S, OTHER_PUTM),                                                              \
                                                                                               \
    WAITING(XY##_D_SI), DATA_ONLY(XY##_D_SI),                                                  \
    ACT(XY##_D_SI, OWN_DATA, I, REQ_NONE, OP, NOW, NOW),                                       \
    IGNORE(XY##_D_SI, OTHER_GETS), IGNORE(XY##_D_SI, OTHER_GETM),                              \
    IGNORE(XY##_D_SI, OTHER_PUTM)

/* S, the GetM paths IM^AD and SM^AD with their owner-to-be states, and
 * II^A: the same in every protocol but for the shared line. */
#define ROWS_S_GETM(SH)                                                                        \
    ACT(S, LOAD, S, REQ_NONE, LOAD, NONE, NONE),                                               \
    ACT(S, STORE, SM_AD, GETM, NONE, NONE, NONE),                                              \
    ACT(S, EVICT, I, REQ_NONE, NONE, NONE, NONE),   /* clean: silent */                        \
    NO_OWN(S),                                                                                 \
    SEES_GETS(SH, S, S, NONE, NONE),                /* memory (or an O owner) answers */       \
    ACT(S, OTHER_GETM, I, REQ_NONE, NONE, NONE, NONE),                                         \
    IGNORE(S, OTHER_PUTM),                          /* stale, or an O owner's */               \
                                                                                               \
    WAITING(IM_AD), NEVER(IM_AD, OWN_GETS),                                                    \
    ACT(IM_AD, OWN_GETM, IM_D, REQ_NONE, NONE, NONE, NONE),                                    \
    NEVER(IM_AD, OWN_PUTM), NEVER(IM_AD, OWN_DATA),                                            \
    IGNORE(IM_AD, OTHER_GETS), IGNORE(IM_AD, OTHER_GETM), IGNORE(IM_AD, OTHER_PUTM),           \
    ROWS_OWNER_TO_BE(SH, IM, M, STORE),                                                        \
                                                                                               \
    ACT(SM_AD, LOAD, SM_AD, REQ_NONE, LOAD, NONE, NONE),                                       \
    STALL(SM_AD, STORE), STALL(SM_AD, EVICT), NEVER(SM_AD, OWN_GETS),                          \
    ACT(SM_AD, OWN_GETM, SM_D, REQ_NONE, NONE, NONE, NONE),                                    \
    NEVER(SM_AD, OWN_PUTM), NEVER(SM_AD, OWN_DATA),                                            \
    SEES_GETS(SH, SM_AD, SM_AD, NONE, NONE),                                                   \
    ACT(SM_AD, OTHER_GETM, IM_AD, REQ_NONE, NONE, NONE, NONE),  /* the S copy is lost */       \
    IGNORE(SM_AD, OTHER_PUTM),                                                                 \
    ROWS_OWNER_TO_BE(SH, SM, M, STORE),                                                        \
                                                                                               \
    WAITING(II_A), NEVER(II_A, OWN_GETS), NEVER(II_A, OWN_GETM),                               \
    ACT(II_A, OWN_PUTM, I, REQ_NONE, NONE, NONE, NONE),  /* memory ignores a stale PutM */     \
    NEVER(II_A, OWN_DATA),                                                                     \
    IGNORE(II_A, OTHER_GETS), IGNORE(II_A, OTHER_GETM), IGNORE(II_A, OTHER_PUTM)

/* M and MI^A; M_OTHER_GETS and MI_A_OTHER_GETS are the protocol's (MSI and
 * MESI: the owner sends to the requester and memory, which owns again;
 * MOESI: to the requester only, keeping ownership as O, OI^A). */
#define ROWS_M(M_OTHER_GETS, MI_A_OTHER_GETS)                                                  \
    ACT(M, LOAD, M, REQ_NONE, LOAD, NONE, NONE),                                               \
    ACT(M, STORE, M, REQ_NONE, STORE, NONE, NONE),                                             \
    ACT(M, EVICT, MI_A, PUTM, NONE, NONE, NONE),    /* into the writeback buffer */            \
    NO_OWN(M), M_OTHER_GETS,                                                                   \
    ACT(M, OTHER_GETM, I, REQ_NONE, NONE, NOW, NONE),                                          \
    IGNORE(M, OTHER_PUTM),                          /* a stale PutM from II^A */               \
                                                                                               \
    ACT(MI_A, LOAD, MI_A, REQ_NONE, LOAD, NONE, NONE),                                         \
    ACT(MI_A, STORE, MI_A, REQ_NONE, STORE, NONE, NONE),                                       \
    STALL(MI_A, EVICT),                             /* already leaving */                      \
    NEVER(MI_A, OWN_GETS), NEVER(MI_A, OWN_GETM),                                              \
    ACT(MI_A, OWN_PUTM, I, REQ_NONE, NONE, NONE, NOW),                                         \
    NEVER(MI_A, OWN_DATA), MI_A_OTHER_GETS,                                                    \
    ACT(MI_A, OTHER_GETM, II_A, REQ_NONE, NONE, NOW, NONE),                                    \
    IGNORE(MI_A, OTHER_PUTM)                        /* a stale PutM from another II^A */

/* E, EI^A and the E grant's owner-to-be states (MESI, MOESI). E is an
 * owner to memory (it may become M without a request), so it answers like
 * M; it leaves by a PutE, which gives memory the ownership back without
 * the data memory already has (docs/COHERENCE.md 8.7 decision 3). EI^A is
 * MI^A without the store: a store there would be lost, since memory takes
 * no data after a PutE. A GetS or GetM ordered first takes the block away
 * as from E, and the PutE is then stale (II^A), as a PutM would be. */
#define ROWS_E                                                                                 \
    ACT(E, LOAD, E, REQ_NONE, LOAD, NONE, NONE),                                               \
    ACT(E, STORE, M, REQ_NONE, STORE, NONE, NONE),  /* silent: the point of E */               \
    ACT(E, EVICT, EI_A, PUTE, NONE, NONE, NONE),    /* not silent: memory counts E an owner */ \
    NO_OWN(E),                                                                                 \
    SEES_GETS(true, E, S, NOW, NOW),                                                           \
    ACT(E, OTHER_GETM, I, REQ_NONE, NONE, NOW, NONE),                                          \
    IGNORE(E, OTHER_PUTM),                                                                     \
                                                                                               \
    ACT(EI_A, LOAD, EI_A, REQ_NONE, LOAD, NONE, NONE),                                         \
    STALL(EI_A, STORE),                             /* no data follows a PutE */               \
    STALL(EI_A, EVICT),                             /* already leaving */                      \
    NEVER(EI_A, OWN_GETS), NEVER(EI_A, OWN_GETM),                                              \
    ACT(EI_A, OWN_PUTM, I, REQ_NONE, NONE, NONE, NONE),  /* memory's copy is current */        \
    NEVER(EI_A, OWN_DATA),                                                                     \
    SEES_GETS(true, EI_A, II_A, NOW, NOW),          /* as E; the PutE is then stale */         \
    ACT(EI_A, OTHER_GETM, II_A, REQ_NONE, NONE, NOW, NONE),                                    \
    IGNORE(EI_A, OTHER_PUTM),                                                                  \
    ROWS_OWNER_TO_BE(true, IE, E, LOAD)

/* The IS^AD Own-GetS row of MESI and MOESI: E unless the line is raised. */
#define E_GRANT ACTX(IS_AD, OWN_GETS, IE_D, IS_D, REQ_NONE, NONE, NONE, NONE, false)

#define MSI_SPLIT_STATES                                                                       \
    STC_COH_SP_IS_AD, STC_COH_SP_IS_D, STC_COH_SP_IS_D_I, STC_COH_SP_IM_AD, STC_COH_SP_IM_D,   \
        STC_COH_SP_IM_D_I, STC_COH_SP_IM_D_S, STC_COH_SP_IM_D_SI, STC_COH_SP_SM_AD,            \
        STC_COH_SP_SM_D, STC_COH_SP_SM_D_I, STC_COH_SP_SM_D_S, STC_COH_SP_SM_D_SI,             \
        STC_COH_SP_MI_A, STC_COH_SP_II_A
#define E_SPLIT_STATES                                                                         \
    STC_COH_SP_EI_A, STC_COH_SP_IE_D, STC_COH_SP_IE_D_I, STC_COH_SP_IE_D_S, STC_COH_SP_IE_D_SI

/* MSI on the split-transaction bus, 18 states (Sorin, Hill and Wood's
 * primer; the seed's figure 5.8). Decisions (docs/COHERENCE.md 8.2):
 * GetM also from S (SM^AD), since the S copy may be invalidated before the
 * GetM is ordered, and memory then answers with data anyway; an owner
 * answering Other-GetS sends the block to the requester and to memory (M
 * goes to S, memory owns the block again); a state waiting for data that
 * sees another request promises the data (LATER) and keeps the promise
 * when its data comes; processor events stall in transient states, except
 * in SM^AD (load hit: the S copy is valid until the GetM is ordered) and
 * MI^A (the writeback buffer still owns the block: load and store hit). */
static const stc_coh_sp_table msi_split_table = {
    .protocol = STC_COH_MSI,
    .state_count = 18,
    .states = {STC_COH_SP_I, STC_COH_SP_S, STC_COH_SP_M, MSI_SPLIT_STATES},
    .row_count = 180,
    .rows = {
        ROWS_I_IS(false, ACT(IS_AD, OWN_GETS, IS_D, REQ_NONE, NONE, NONE, NONE)),
        ROWS_S_GETM(false),
        ROWS_M(ACT(M, OTHER_GETS, S, REQ_NONE, NONE, NOW, NOW),
               ACT(MI_A, OTHER_GETS, II_A, REQ_NONE, NONE, NOW, NOW)),
    },
};

/* MESI, 24 states: MSI's, E, EI^A (E's PutE issued) and IE^D (.._I, _S,
 * _SI), the E grant waiting for its data (docs/COHERENCE.md 8.7). Every
 * state that holds or will hold a copy, or owns the block, raises the
 * shared line on Other-GetS; MI^A and EI^A too, although they keep
 * nothing, so that E is granted only while memory owns the block and its
 * data reaches the new owner after every writeback in flight (else two
 * writebacks could race; and a PutE may trust memory's copy). */
static const stc_coh_sp_table mesi_split_table = {
    .protocol = STC_COH_MESI,
    .state_count = 24,
    .states = {STC_COH_SP_I, STC_COH_SP_S, STC_COH_SP_E, STC_COH_SP_M, MSI_SPLIT_STATES,
               E_SPLIT_STATES},
    .row_count = 240,
    .rows = {
        ROWS_I_IS(true, E_GRANT),
        ROWS_S_GETM(true),
        ROWS_M(SEES_GETS(true, M, S, NOW, NOW), SEES_GETS(true, MI_A, II_A, NOW, NOW)),
        ROWS_E,
    },
};

/* MOESI, 27 states: MESI's, O, OM^AD (a GetM from O: it holds the data and
 * the ownership, so the GetM completes when ordered) and OI^A (an evicted O
 * still owns and supplies until its PutM is ordered). An owner holding the
 * data answers Other-GetS to the requester only and keeps ownership (M and
 * O to O, MI^A and OI^A to OI^A); an owner-to-be still waiting for its
 * data promises like MSI (it remembers one requester), and E, clean, goes
 * to S as in MESI. */
static const stc_coh_sp_table moesi_split_table = {
    .protocol = STC_COH_MOESI,
    .state_count = 27,
    .states = {STC_COH_SP_I, STC_COH_SP_S, STC_COH_SP_E, STC_COH_SP_O, STC_COH_SP_M,
               MSI_SPLIT_STATES, E_SPLIT_STATES, STC_COH_SP_OM_AD, STC_COH_SP_OI_A},
    .row_count = 270,
    .rows = {
        ROWS_I_IS(true, E_GRANT),
        ROWS_S_GETM(true),
        ROWS_M(SEES_GETS(true, M, O, NOW, NONE), SEES_GETS(true, MI_A, OI_A, NOW, NONE)),
        ROWS_E,

        ACT(O, LOAD, O, REQ_NONE, LOAD, NONE, NONE),
        ACT(O, STORE, OM_AD, GETM, NONE, NONE, NONE),
        ACT(O, EVICT, OI_A, PUTM, NONE, NONE, NONE),
        NO_OWN(O),
        SEES_GETS(true, O, O, NOW, NONE),               /* supplies, stays the owner */
        ACT(O, OTHER_GETM, I, REQ_NONE, NONE, NOW, NONE),
        IGNORE(O, OTHER_PUTM),

        ACT(OM_AD, LOAD, OM_AD, REQ_NONE, LOAD, NONE, NONE),
        STALL(OM_AD, STORE), STALL(OM_AD, EVICT), NEVER(OM_AD, OWN_GETS),
        ACT(OM_AD, OWN_GETM, M, REQ_NONE, STORE, NONE, NONE),  /* owner: no data needed */
        NEVER(OM_AD, OWN_PUTM), NEVER(OM_AD, OWN_DATA),
        SEES_GETS(true, OM_AD, OM_AD, NOW, NONE),
        ACT(OM_AD, OTHER_GETM, IM_AD, REQ_NONE, NONE, NOW, NONE),  /* loses copy and ownership */
        IGNORE(OM_AD, OTHER_PUTM),

        ACT(OI_A, LOAD, OI_A, REQ_NONE, LOAD, NONE, NONE),
        STALL(OI_A, STORE), STALL(OI_A, EVICT),         /* sharers exist: no silent store */
        NEVER(OI_A, OWN_GETS), NEVER(OI_A, OWN_GETM),
        ACT(OI_A, OWN_PUTM, I, REQ_NONE, NONE, NONE, NOW),
        NEVER(OI_A, OWN_DATA),
        SEES_GETS(true, OI_A, OI_A, NOW, NONE),
        ACT(OI_A, OTHER_GETM, II_A, REQ_NONE, NONE, NOW, NONE),
        IGNORE(OI_A, OTHER_PUTM),
    },
};

static const stc_coh_sp_table *const sp_tables[STC_COH_PROTOCOL_COUNT] = {
    [STC_COH_MSI] = &msi_split_table,
    [STC_COH_MESI] = &mesi_split_table,
    [STC_COH_MOESI] = &moesi_split_table,
};

static const char *const sp_state_names[STC_COH_SP_STATE_COUNT] = {
    "I", "S", "M", "IS^AD", "IS^D", "IS^D_I", "IM^AD", "IM^D", "IM^D_I", "IM^D_S", "IM^D_SI",
    "SM^AD", "SM^D", "SM^D_I", "SM^D_S", "SM^D_SI", "MI^A", "II^A", "E", "IE^D", "IE^D_I",
    "IE^D_S", "IE^D_SI", "O", "OM^AD", "OI^A", "EI^A"};
static const char *const sp_state_idents[STC_COH_SP_STATE_COUNT] = {
    "I", "S", "M", "IS_AD", "IS_D", "IS_D_I", "IM_AD", "IM_D", "IM_D_I", "IM_D_S", "IM_D_SI",
    "SM_AD", "SM_D", "SM_D_I", "SM_D_S", "SM_D_SI", "MI_A", "II_A", "E", "IE_D", "IE_D_I",
    "IE_D_S", "IE_D_SI", "O", "OM_AD", "OI_A", "EI_A"};
static const char *const sp_event_names[STC_COH_SP_EVENT_COUNT] = {
    "Load", "Store", "Evict", "Own-GetS", "Own-GetM", "Own-PutM", "Own-Data",
    "Other-GetS", "Other-GetM", "Other-PutM"};
static const char *const sp_req_names[STC_COH_SP_REQ_COUNT] = {"none", "GetS", "GetM", "PutM",
                                                                "PutE"};
static const char *const bus_model_names[STC_COH_BUS_MODEL_COUNT] = {"atomic", "split"};
static const char *const sp_break_names[STC_COH_SP_BREAK_COUNT] = {
    "no-transient-invalidate", "no-is-d-i", "no-writeback", "no-shared", "silent-e-evict",
    "owner-no-supply", "store-after-pute"};
static const char *const sp_break_whats[STC_COH_SP_BREAK_COUNT] = {
    "SM^AD seeing Other-GetM stays SM^AD (a missing invalidation in a transient state)",
    "IS^D seeing Other-GetM stays IS^D (the IS^D -> IS^D_I transition dropped)",
    "MI^A's own PutM goes to I without the data (a dropped writeback)",
    "IS^AD's Own-GetS takes IE^D even when the shared line is raised (E beside a copy)",
    "E is evicted silently, to I without a PutM, while memory counts it the owner",
    "O seeing Other-GetS does not send the data (an owner that does not supply)",
    "EI^A performs a store although its PutE tells memory no data follows (a lost store)",
};

const stc_coh_sp_table *stc_coh_sp_table_of(stc_coh_protocol protocol)
{
    return (unsigned)protocol < STC_COH_PROTOCOL_COUNT ? sp_tables[protocol] : NULL;
}

unsigned stc_coh_sp_state_code(const stc_coh_sp_table *table, stc_coh_sp_state state)
{
    for (unsigned index = 0; index < table->state_count; index++) {
        if (table->states[index] == state) {
            return index;
        }
    }
    return 0;
}

bool stc_coh_sp_table_has_state(const stc_coh_sp_table *table, stc_coh_sp_state state)
{
    for (unsigned index = 0; index < table->state_count; index++) {
        if (table->states[index] == state) {
            return true;
        }
    }
    return false;
}

const stc_coh_sp_row *stc_coh_sp_lookup(const stc_coh_sp_table *table, stc_coh_sp_state state,
                                        stc_coh_sp_event event)
{
    for (unsigned index = 0; index < table->row_count; index++) {
        const stc_coh_sp_row *row = &table->rows[index];
        if (row->state == state && row->event == event) {
            return row;
        }
    }
    return NULL;
}

stc_coh_state stc_coh_sp_permission(stc_coh_sp_state state)
{
    switch (stc_coh_sp_state_name(state)[0]) {
    case 'M': return STC_COH_M;
    case 'E': return STC_COH_E;
    case 'O': return STC_COH_O;
    case 'S': return STC_COH_S;
    default: return STC_COH_I;
    }
}

bool stc_coh_sp_stable(stc_coh_sp_state state)
{
    return (unsigned)state < STC_COH_SP_STATE_COUNT && !strchr(sp_state_names[state], '^');
}

static bool sp_processor_event(stc_coh_sp_event event)
{
    return event == STC_COH_SP_LOAD || event == STC_COH_SP_STORE || event == STC_COH_SP_EVICT;
}

/* Whether processor event may issue req from state: Load a GetS, Store a
 * GetM, Evict a PutM, or from E a PutE (E's data is memory's). */
static bool sp_event_issues(stc_coh_sp_event event, stc_coh_sp_state state, stc_coh_sp_req req)
{
    return event == STC_COH_SP_LOAD    ? req == STC_COH_SP_GETS
           : event == STC_COH_SP_STORE ? req == STC_COH_SP_GETM
           : req == STC_COH_SP_PUTE    ? stc_coh_sp_permission(state) == STC_COH_E
                                       : req == STC_COH_SP_PUTM;
}

stc_coh_sp_event stc_coh_sp_ordered_event(stc_coh_sp_req req, bool own)
{
    static const stc_coh_sp_event own_events[STC_COH_SP_REQ_COUNT] = {
        STC_COH_SP_EVENT_COUNT, STC_COH_SP_OWN_GETS, STC_COH_SP_OWN_GETM, STC_COH_SP_OWN_PUTM,
        STC_COH_SP_OWN_PUTM};
    static const stc_coh_sp_event other_events[STC_COH_SP_REQ_COUNT] = {
        STC_COH_SP_EVENT_COUNT, STC_COH_SP_OTHER_GETS, STC_COH_SP_OTHER_GETM,
        STC_COH_SP_OTHER_PUTM, STC_COH_SP_OTHER_PUTM};
    if ((unsigned)req >= STC_COH_SP_REQ_COUNT) {
        return STC_COH_SP_EVENT_COUNT;
    }
    return own ? own_events[req] : other_events[req];
}

static int sp_check_sends(const stc_coh_sp_row *row, const char *where, char *err,
                          size_t err_len)
{
    stc_coh_sp_event event = row->event;
    bool data_event = event == STC_COH_SP_OWN_DATA;
    bool other_data = event == STC_COH_SP_OTHER_GETS || event == STC_COH_SP_OTHER_GETM;
    if (row->to_requester != STC_COH_SP_SEND_NONE && !data_event && !other_data) {
        return fail(err, err_len, "%s: only Other-GetS/GetM and Own-Data send to a requester",
                    where);
    }
    if (row->to_memory != STC_COH_SP_SEND_NONE && !data_event &&
        event != STC_COH_SP_OTHER_GETS && event != STC_COH_SP_OWN_PUTM) {
        return fail(err, err_len, "%s: only Other-GetS, Own-PutM and Own-Data write back", where);
    }
    bool later = row->to_requester == STC_COH_SP_SEND_LATER ||
                 row->to_memory == STC_COH_SP_SEND_LATER;
    bool now = row->to_requester == STC_COH_SP_SEND_NOW || row->to_memory == STC_COH_SP_SEND_NOW;
    if (later && event != STC_COH_SP_OTHER_GETS && event != STC_COH_SP_OTHER_GETM) {
        return fail(err, err_len, "%s: only an Other-X row promises data", where);
    }
    if (now && !data_event && stc_coh_sp_permission(row->state) == STC_COH_I) {
        return fail(err, err_len, "%s: sends data it does not hold", where);
    }
    return 0;
}

static int sp_check_row(const stc_coh_sp_table *table, const stc_coh_sp_row *row, char *err,
                        size_t err_len)
{
    if (!stc_coh_sp_table_has_state(table, row->state) ||
        (unsigned)row->event >= STC_COH_SP_EVENT_COUNT) {
        return fail(err, err_len, "a row names state %u, event %u outside the protocol",
                    (unsigned)row->state, (unsigned)row->event);
    }
    char where[64];
    snprintf(where, sizeof where, "%s %s", sp_state_names[row->state],
             sp_event_names[row->event]);
    bool acts = row->next != row->state || row->issue != STC_COH_SP_REQ_NONE ||
                row->perform != STC_COH_SP_DO_NONE || row->to_requester != STC_COH_SP_SEND_NONE ||
                row->to_memory != STC_COH_SP_SEND_NONE || row->next_shared != row->next ||
                row->asserts_shared;
    if (row->outcome != STC_COH_SP_ACT) {
        if (row->outcome >= STC_COH_SP_OUTCOME_COUNT || acts) {
            return fail(err, err_len, "%s: a stalled or impossible row has actions", where);
        }
        if (row->outcome == STC_COH_SP_STALL && !sp_processor_event(row->event)) {
            return fail(err, err_len, "%s: only a processor event can stall", where);
        }
        return 0;
    }
    if (!stc_coh_sp_table_has_state(table, row->next)) {
        return fail(err, err_len, "%s: next state outside the protocol", where);
    }
    if (row->issue != STC_COH_SP_REQ_NONE &&
        (!sp_processor_event(row->event) ||
         !sp_event_issues(row->event, row->state, row->issue) || !stc_coh_sp_stable(row->state) ||
         row->next == row->state)) {
        return fail(err, err_len, "%s: issues %s", where, stc_coh_sp_req_name(row->issue));
    }
    const stc_coh_sp_row *put = row->issue == STC_COH_SP_PUTE
                                    ? stc_coh_sp_lookup(table, row->next, STC_COH_SP_OWN_PUTM)
                                    : NULL;
    if (put && put->to_memory != STC_COH_SP_SEND_NONE) {
        return fail(err, err_len, "%s: memory takes no data after a PutE, but %s %s sends it",
                    where, sp_state_names[put->state], sp_event_names[put->event]);
    }
    /* A store completes at its GetM's ordering only where the data is
     * already held (an owner upgrading: MOESI's OM^AD). */
    bool upgrade = row->event == STC_COH_SP_OWN_GETM &&
                   stc_coh_sp_permission(row->state) != STC_COH_I;
    if ((row->perform == STC_COH_SP_DO_LOAD && row->event != STC_COH_SP_LOAD &&
         row->event != STC_COH_SP_OWN_DATA) ||
        (row->perform == STC_COH_SP_DO_STORE && row->event != STC_COH_SP_STORE &&
         row->event != STC_COH_SP_OWN_DATA && !upgrade) ||
        (unsigned)row->perform > STC_COH_SP_DO_STORE) {
        return fail(err, err_len, "%s: performs an operation it was not asked for", where);
    }
    if (row->next_shared != row->next &&
        (row->event != STC_COH_SP_OWN_GETS || !stc_coh_sp_table_has_state(table, row->next_shared))) {
        return fail(err, err_len, "%s: only Own-GetS depends on the shared line", where);
    }
    if (row->asserts_shared && row->event != STC_COH_SP_OTHER_GETS) {
        return fail(err, err_len, "%s: only Other-GetS raises the shared line", where);
    }
    if (row->event == STC_COH_SP_OWN_DATA && row->perform == STC_COH_SP_DO_NONE) {
        return fail(err, err_len, "%s: data arrives for no operation", where);
    }
    return sp_check_sends(row, where, err, err_len);
}

int stc_coh_sp_table_check(const stc_coh_sp_table *table, char *err, size_t err_len)
{
    if ((unsigned)table->protocol >= STC_COH_PROTOCOL_COUNT) {
        return fail(err, err_len, "protocol %u out of range", (unsigned)table->protocol);
    }
    if (table->state_count == 0 || table->state_count > STC_COH_SP_STATE_COUNT ||
        table->row_count > STC_COH_SP_MAX_ROWS) {
        return fail(err, err_len, "%u states, %u rows: more than room", table->state_count,
                    table->row_count);
    }
    for (unsigned index = 0; index < table->state_count; index++) {
        if ((unsigned)table->states[index] >= STC_COH_SP_STATE_COUNT) {
            return fail(err, err_len, "state %u out of range", (unsigned)table->states[index]);
        }
        for (unsigned other = 0; other < index; other++) {
            if (table->states[other] == table->states[index]) {
                return fail(err, err_len, "state %s listed twice",
                            sp_state_names[table->states[index]]);
            }
        }
    }
    if (!stc_coh_sp_table_has_state(table, STC_COH_SP_I)) {
        return fail(err, err_len, "no state I (every cache starts invalid)");
    }
    for (unsigned index = 0; index < table->row_count; index++) {
        if (sp_check_row(table, &table->rows[index], err, err_len) != 0) {
            return -1;
        }
    }
    for (unsigned state_index = 0; state_index < table->state_count; state_index++) {
        stc_coh_sp_state state = table->states[state_index];
        for (unsigned event = 0; event < STC_COH_SP_EVENT_COUNT; event++) {
            unsigned rows = 0;
            for (unsigned index = 0; index < table->row_count; index++) {
                rows += table->rows[index].state == state &&
                        table->rows[index].event == (stc_coh_sp_event)event;
            }
            if (rows != 1) {
                return fail(err, err_len, "%s %s: %u rows (expected 1)", sp_state_names[state],
                            sp_event_names[event], rows);
            }
        }
    }
    return 0;
}

static bool sp_rows_equal(const stc_coh_sp_row *a, const stc_coh_sp_row *b)
{
    return a->state == b->state && a->event == b->event && a->outcome == b->outcome &&
           a->next == b->next && a->issue == b->issue && a->perform == b->perform &&
           a->to_requester == b->to_requester && a->to_memory == b->to_memory &&
           a->next_shared == b->next_shared && a->asserts_shared == b->asserts_shared;
}

int stc_coh_sp_table_apply_break(stc_coh_sp_table *table, stc_coh_sp_break which, char *err,
                                 size_t err_len)
{
    static const struct {
        stc_coh_sp_state state;
        stc_coh_sp_event event;
    } edited[STC_COH_SP_BREAK_COUNT] = {
        {STC_COH_SP_SM_AD, STC_COH_SP_OTHER_GETM},
        {STC_COH_SP_IS_D, STC_COH_SP_OTHER_GETM},
        {STC_COH_SP_MI_A, STC_COH_SP_OWN_PUTM},
        {STC_COH_SP_IS_AD, STC_COH_SP_OWN_GETS},
        {STC_COH_SP_E, STC_COH_SP_EVICT},
        {STC_COH_SP_O, STC_COH_SP_OTHER_GETS},
        {STC_COH_SP_EI_A, STC_COH_SP_STORE},
    };
    if ((unsigned)which >= STC_COH_SP_BREAK_COUNT) {
        return fail(err, err_len, "break %u out of range", (unsigned)which);
    }
    stc_coh_sp_row *row =
        (stc_coh_sp_row *)stc_coh_sp_lookup(table, edited[which].state, edited[which].event);
    stc_coh_sp_row before = row ? *row : (stc_coh_sp_row){.outcome = STC_COH_SP_IMPOSSIBLE};
    if (row && which == STC_COH_SP_BREAK_STORE_AFTER_PUTE && row->outcome == STC_COH_SP_STALL) {
        row->outcome = STC_COH_SP_ACT;
        row->perform = STC_COH_SP_DO_STORE;
    } else if (row && row->outcome == STC_COH_SP_ACT) {
        switch (which) {
        case STC_COH_SP_BREAK_NO_WRITEBACK: row->to_memory = STC_COH_SP_SEND_NONE; break;
        case STC_COH_SP_BREAK_NO_SHARED: row->next_shared = row->next; break;
        case STC_COH_SP_BREAK_SILENT_E_EVICT:
            row->issue = STC_COH_SP_REQ_NONE;
            row->next = row->next_shared = STC_COH_SP_I;
            break;
        case STC_COH_SP_BREAK_OWNER_NO_SUPPLY: row->to_requester = STC_COH_SP_SEND_NONE; break;
        default: row->next = row->next_shared = row->state; break;
        }
    }
    if (!row || sp_rows_equal(row, &before)) {
        return fail(err, err_len, "break %s changes nothing in %s", sp_break_names[which],
                    stc_coh_protocol_name(table->protocol));
    }
    return 0;
}

const char *stc_coh_sp_state_name(stc_coh_sp_state state)
{
    return name_in(sp_state_names, STC_COH_SP_STATE_COUNT, (unsigned)state);
}

const char *stc_coh_sp_state_ident(stc_coh_sp_state state)
{
    return name_in(sp_state_idents, STC_COH_SP_STATE_COUNT, (unsigned)state);
}

const char *stc_coh_sp_event_name(stc_coh_sp_event event)
{
    return name_in(sp_event_names, STC_COH_SP_EVENT_COUNT, (unsigned)event);
}

const char *stc_coh_sp_req_name(stc_coh_sp_req req)
{
    return name_in(sp_req_names, STC_COH_SP_REQ_COUNT, (unsigned)req);
}

const char *stc_coh_bus_model_name(stc_coh_bus_model model)
{
    return name_in(bus_model_names, STC_COH_BUS_MODEL_COUNT, (unsigned)model);
}

const char *stc_coh_sp_break_name(stc_coh_sp_break which)
{
    return name_in(sp_break_names, STC_COH_SP_BREAK_COUNT, (unsigned)which);
}

const char *stc_coh_sp_break_what(stc_coh_sp_break which)
{
    return name_in(sp_break_whats, STC_COH_SP_BREAK_COUNT, (unsigned)which);
}

int stc_coh_bus_model_parse(const char *name, stc_coh_bus_model *model, char *err,
                            size_t err_len)
{
    int index = find_name(name, bus_model_names, STC_COH_BUS_MODEL_COUNT);
    if (index < 0) {
        return fail(err, err_len, "unknown bus model '%s': expected atomic or split", name);
    }
    *model = (stc_coh_bus_model)index;
    return 0;
}

int stc_coh_sp_break_parse(const char *name, stc_coh_sp_break *which, char *err, size_t err_len)
{
    int index = find_name(name, sp_break_names, STC_COH_SP_BREAK_COUNT);
    if (index < 0) {
        return fail(err, err_len,
                    "unknown split break '%s': expected no-transient-invalidate, no-is-d-i, "
                    "no-writeback, no-shared, silent-e-evict, owner-no-supply or "
                    "store-after-pute",
                    name);
    }
    *which = (stc_coh_sp_break)index;
    return 0;
}
