/*
 * coherence_protocol.c - the MSI, MESI and MOESI tables (atomic bus, stable
 * states) and the functions that read, check and break them.
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
    return (unsigned)protocol < STC_COH_PROTOCOL_COUNT ? protocol_names[protocol] : "?";
}

const char *stc_coh_state_name(stc_coh_state state)
{
    return state_in_range(state) ? state_names[state] : "?";
}

const char *stc_coh_proc_event_name(stc_coh_proc_event event)
{
    return (unsigned)event < STC_COH_PROC_EVENT_COUNT ? event_names[event] : "?";
}

const char *stc_coh_bus_name(stc_coh_bus bus)
{
    return (unsigned)bus < STC_COH_BUS_COUNT ? bus_names[bus] : "?";
}

const char *stc_coh_break_name(stc_coh_break which)
{
    return (unsigned)which < STC_COH_BREAK_COUNT ? break_names[which] : "?";
}

const char *stc_coh_break_what(stc_coh_break which)
{
    return (unsigned)which < STC_COH_BREAK_COUNT ? break_whats[which] : "?";
}

int stc_coh_protocol_parse(const char *name, stc_coh_protocol *protocol, char *err,
                           size_t err_len)
{
    for (unsigned index = 0; index < STC_COH_PROTOCOL_COUNT; index++) {
        if (!strcmp(name, protocol_names[index])) {
            *protocol = (stc_coh_protocol)index;
            return 0;
        }
    }
    return fail(err, err_len, "unknown protocol '%s': expected msi, mesi or moesi", name);
}

int stc_coh_break_parse(const char *name, stc_coh_break *which, char *err, size_t err_len)
{
    for (unsigned index = 0; index < STC_COH_BREAK_COUNT; index++) {
        if (!strcmp(name, break_names[index])) {
            *which = (stc_coh_break)index;
            return 0;
        }
    }
    return fail(err, err_len, "unknown break '%s': expected no-invalidate, no-supply or no-shared",
                name);
}
