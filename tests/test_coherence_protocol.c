/*
 * test_coherence_protocol.c - the MSI, MESI and MOESI tables
 * (coherence_protocol.h, docs/COHERENCE.md section 3): every pair has a
 * row, hand-checked rows of each protocol against the textbook, names and
 * parsing, the deliberately broken tables, and the self-check catching
 * malformed tables.
 *
 * Whether a protocol is correct is Rumur's job (tests/coherence-check.sh);
 * here the rows are compared with expectations written out by hand.
 */
#include "check.h"
#include "coherence_protocol.h"

#include <stdbool.h>
#include <string.h>

enum { ERR_LEN = 256 };

static const stc_coh_protocol all_protocols[] = {STC_COH_MSI, STC_COH_MESI, STC_COH_MOESI};

/* Expected processor row: next states, bus, hit. */
static void expect_proc(stc_coh_protocol protocol, stc_coh_state state, stc_coh_proc_event event,
                        stc_coh_state next_alone, stc_coh_state next_shared, stc_coh_bus bus,
                        bool hit)
{
    const stc_coh_proc_row *row = stc_coh_proc_lookup(stc_coh_table_of(protocol), state, event);
    const char *where = stc_coh_protocol_name(protocol);
    CHECK(row != NULL, "%s: no row for %s %s", where, stc_coh_state_name(state),
          stc_coh_proc_event_name(event));
    if (!row) {
        return;
    }
    CHECK(!row->impossible, "%s %s %s: impossible", where, stc_coh_state_name(state),
          stc_coh_proc_event_name(event));
    CHECK(row->next_alone == next_alone, "%s %s %s: next (alone) %s", where,
          stc_coh_state_name(state), stc_coh_proc_event_name(event),
          stc_coh_state_name(row->next_alone));
    CHECK(row->next_shared == next_shared, "%s %s %s: next (shared) %s", where,
          stc_coh_state_name(state), stc_coh_proc_event_name(event),
          stc_coh_state_name(row->next_shared));
    CHECK(row->bus == bus, "%s %s %s: bus %s", where, stc_coh_state_name(state),
          stc_coh_proc_event_name(event), stc_coh_bus_name(row->bus));
    CHECK(row->hit == hit, "%s %s %s: hit %d", where, stc_coh_state_name(state),
          stc_coh_proc_event_name(event), row->hit);
}

/* Expected snoop row: next, supplies, flushes, asserts shared. */
static void expect_snoop(stc_coh_protocol protocol, stc_coh_state state, stc_coh_bus bus,
                         stc_coh_state next, bool supplies, bool flushes, bool shared)
{
    const stc_coh_snoop_row *row = stc_coh_snoop_lookup(stc_coh_table_of(protocol), state, bus);
    const char *where = stc_coh_protocol_name(protocol);
    const char *state_name = stc_coh_state_name(state);
    const char *bus_name = stc_coh_bus_name(bus);
    CHECK(row != NULL, "%s: no row for %s snoops %s", where, state_name, bus_name);
    if (!row) {
        return;
    }
    CHECK(!row->impossible, "%s %s snoops %s: impossible", where, state_name, bus_name);
    CHECK(row->next == next, "%s %s snoops %s: next %s", where, state_name, bus_name,
          stc_coh_state_name(row->next));
    CHECK(row->supplies == supplies, "%s %s snoops %s: supplies %d", where, state_name, bus_name,
          row->supplies);
    CHECK(row->flushes == flushes, "%s %s snoops %s: flushes %d", where, state_name, bus_name,
          row->flushes);
    CHECK(row->asserts_shared == shared, "%s %s snoops %s: shared %d", where, state_name,
          bus_name, row->asserts_shared);
}

static void expect_snoop_impossible(stc_coh_protocol protocol, stc_coh_state state,
                                    stc_coh_bus bus)
{
    const stc_coh_snoop_row *row = stc_coh_snoop_lookup(stc_coh_table_of(protocol), state, bus);
    CHECK(row && row->impossible, "%s %s snoops %s: expected impossible",
          stc_coh_protocol_name(protocol), stc_coh_state_name(state), stc_coh_bus_name(bus));
}

/* Every (state, event) pair of each protocol has a row, the self-check
 * agrees, and states outside the protocol have none. */
static void test_every_pair_defined(void)
{
    static const char *const expected_states[] = {"ISM", "ISEM", "ISEOM"};
    char err[ERR_LEN];
    for (unsigned index = 0; index < 3; index++) {
        stc_coh_protocol protocol = all_protocols[index];
        const stc_coh_table *table = stc_coh_table_of(protocol);
        const char *where = stc_coh_protocol_name(protocol);
        CHECK(table != NULL && table->protocol == protocol, "%s: table", where);
        if (!table) {
            continue;
        }
        err[0] = '\0';
        CHECK(stc_coh_table_check(table, err, sizeof err) == 0, "%s self-check: %s", where, err);
        char states[STC_COH_STATE_COUNT + 1] = "";
        for (unsigned state = 0; state < table->state_count; state++) {
            strcat(states, stc_coh_state_name(table->states[state]));
        }
        CHECK(!strcmp(states, expected_states[index]), "%s: states %s", where, states);
        for (unsigned state = 0; state < STC_COH_STATE_COUNT; state++) {
            bool in_protocol = stc_coh_table_has_state(table, (stc_coh_state)state);
            for (unsigned event = 0; event < STC_COH_PROC_EVENT_COUNT; event++) {
                bool found = stc_coh_proc_lookup(table, (stc_coh_state)state,
                                                 (stc_coh_proc_event)event) != NULL;
                CHECK(found == in_protocol, "%s %s %s: row %s", where,
                      stc_coh_state_name((stc_coh_state)state),
                      stc_coh_proc_event_name((stc_coh_proc_event)event),
                      found ? "present" : "missing");
            }
            for (unsigned bus = STC_COH_BUS_RD; bus < STC_COH_BUS_COUNT; bus++) {
                bool found = stc_coh_snoop_lookup(table, (stc_coh_state)state,
                                                  (stc_coh_bus)bus) != NULL;
                CHECK(found == in_protocol, "%s %s snoops %s: row %s", where,
                      stc_coh_state_name((stc_coh_state)state), stc_coh_bus_name((stc_coh_bus)bus),
                      found ? "present" : "missing");
            }
        }
        /* Rows = states x events: nothing extra hides in the lists. */
        CHECK_EQ_U64(table->proc_row_count, table->state_count * STC_COH_PROC_EVENT_COUNT,
                     "%s processor rows", where);
        CHECK_EQ_U64(table->snoop_row_count, table->state_count * (STC_COH_BUS_COUNT - 1),
                     "%s snoop rows", where);
    }
}

/* H&P figures 5.6-5.7: MSI on a write-back, write-invalidate bus. */
static void test_msi_rows(void)
{
    stc_coh_protocol p = STC_COH_MSI;
    expect_proc(p, STC_COH_I, STC_COH_LOAD, STC_COH_S, STC_COH_S, STC_COH_BUS_RD, false);
    expect_proc(p, STC_COH_I, STC_COH_STORE, STC_COH_M, STC_COH_M, STC_COH_BUS_RDX, false);
    expect_proc(p, STC_COH_S, STC_COH_LOAD, STC_COH_S, STC_COH_S, STC_COH_BUS_NONE, true);
    expect_proc(p, STC_COH_S, STC_COH_STORE, STC_COH_M, STC_COH_M, STC_COH_BUS_UPGR, true);
    expect_proc(p, STC_COH_S, STC_COH_EVICT, STC_COH_I, STC_COH_I, STC_COH_BUS_NONE, true);
    expect_proc(p, STC_COH_M, STC_COH_STORE, STC_COH_M, STC_COH_M, STC_COH_BUS_NONE, true);
    expect_proc(p, STC_COH_M, STC_COH_EVICT, STC_COH_I, STC_COH_I, STC_COH_BUS_WB, true);
    /* "write-back block; abort memory access": M supplies and flushes. */
    expect_snoop(p, STC_COH_M, STC_COH_BUS_RD, STC_COH_S, true, true, false);
    expect_snoop(p, STC_COH_M, STC_COH_BUS_RDX, STC_COH_I, true, true, false);
    expect_snoop(p, STC_COH_S, STC_COH_BUS_RD, STC_COH_S, false, false, false);
    expect_snoop(p, STC_COH_S, STC_COH_BUS_RDX, STC_COH_I, false, false, false);
    expect_snoop(p, STC_COH_S, STC_COH_BUS_UPGR, STC_COH_I, false, false, false);
    expect_snoop(p, STC_COH_I, STC_COH_BUS_WB, STC_COH_I, false, false, false);
    expect_snoop_impossible(p, STC_COH_M, STC_COH_BUS_UPGR);
    expect_snoop_impossible(p, STC_COH_M, STC_COH_BUS_WB);
    expect_snoop_impossible(p, STC_COH_S, STC_COH_BUS_WB);
}

static void test_mesi_rows(void)
{
    stc_coh_protocol p = STC_COH_MESI;
    /* A read miss with no sharer takes E, with one S. */
    expect_proc(p, STC_COH_I, STC_COH_LOAD, STC_COH_E, STC_COH_S, STC_COH_BUS_RD, false);
    /* E is written silently. */
    expect_proc(p, STC_COH_E, STC_COH_STORE, STC_COH_M, STC_COH_M, STC_COH_BUS_NONE, true);
    expect_proc(p, STC_COH_E, STC_COH_EVICT, STC_COH_I, STC_COH_I, STC_COH_BUS_NONE, true);
    expect_proc(p, STC_COH_S, STC_COH_STORE, STC_COH_M, STC_COH_M, STC_COH_BUS_UPGR, true);
    /* E is clean: memory supplies, E only says "shared". */
    expect_snoop(p, STC_COH_E, STC_COH_BUS_RD, STC_COH_S, false, false, true);
    expect_snoop(p, STC_COH_E, STC_COH_BUS_RDX, STC_COH_I, false, false, false);
    expect_snoop(p, STC_COH_S, STC_COH_BUS_RD, STC_COH_S, false, false, true);
    expect_snoop(p, STC_COH_M, STC_COH_BUS_RD, STC_COH_S, true, true, true);
    expect_snoop_impossible(p, STC_COH_E, STC_COH_BUS_UPGR);
    expect_snoop_impossible(p, STC_COH_E, STC_COH_BUS_WB);
}

static void test_moesi_rows(void)
{
    stc_coh_protocol p = STC_COH_MOESI;
    expect_proc(p, STC_COH_I, STC_COH_LOAD, STC_COH_E, STC_COH_S, STC_COH_BUS_RD, false);
    expect_proc(p, STC_COH_O, STC_COH_LOAD, STC_COH_O, STC_COH_O, STC_COH_BUS_NONE, true);
    expect_proc(p, STC_COH_O, STC_COH_STORE, STC_COH_M, STC_COH_M, STC_COH_BUS_UPGR, true);
    expect_proc(p, STC_COH_O, STC_COH_EVICT, STC_COH_I, STC_COH_I, STC_COH_BUS_WB, true);
    /* M shares its dirty data without writing back: M -> O. */
    expect_snoop(p, STC_COH_M, STC_COH_BUS_RD, STC_COH_O, true, false, true);
    expect_snoop(p, STC_COH_M, STC_COH_BUS_RDX, STC_COH_I, true, false, false);
    expect_snoop(p, STC_COH_O, STC_COH_BUS_RD, STC_COH_O, true, false, true);
    expect_snoop(p, STC_COH_O, STC_COH_BUS_RDX, STC_COH_I, true, false, false);
    expect_snoop(p, STC_COH_O, STC_COH_BUS_UPGR, STC_COH_I, false, false, false);
    /* The owner's writeback leaves the sharers' copies alone. */
    expect_snoop(p, STC_COH_S, STC_COH_BUS_WB, STC_COH_S, false, false, false);
    expect_snoop_impossible(p, STC_COH_O, STC_COH_BUS_WB);
    expect_snoop_impossible(p, STC_COH_M, STC_COH_BUS_UPGR);
}

static void test_names(void)
{
    char err[ERR_LEN];
    static const char *const protocol_names[] = {"msi", "mesi", "moesi"};
    for (unsigned index = 0; index < 3; index++) {
        stc_coh_protocol parsed = STC_COH_PROTOCOL_COUNT;
        CHECK(!strcmp(stc_coh_protocol_name(all_protocols[index]), protocol_names[index]),
              "name of protocol %u", index);
        CHECK(stc_coh_protocol_parse(protocol_names[index], &parsed, err, sizeof err) == 0 &&
                  parsed == all_protocols[index],
              "parse %s", protocol_names[index]);
    }
    static const char *const bad_names[] = {"mosi", "MSI", "", "msi ", "moesif"};
    for (unsigned index = 0; index < sizeof bad_names / sizeof bad_names[0]; index++) {
        stc_coh_protocol parsed = STC_COH_MSI;
        err[0] = '\0';
        CHECK(stc_coh_protocol_parse(bad_names[index], &parsed, err, sizeof err) != 0,
              "'%s' accepted", bad_names[index]);
        CHECK(strstr(err, "expected msi, mesi or moesi") != NULL, "message for '%s': %s",
              bad_names[index], err);
    }
    for (unsigned which = 0; which < STC_COH_BREAK_COUNT; which++) {
        stc_coh_break parsed = STC_COH_BREAK_COUNT;
        const char *name = stc_coh_break_name((stc_coh_break)which);
        CHECK(stc_coh_break_parse(name, &parsed, err, sizeof err) == 0 && parsed == which,
              "break %s round trip", name);
    }
    CHECK(stc_coh_break_parse("no-flush", &(stc_coh_break){0}, err, sizeof err) != 0,
          "unknown break accepted");
    CHECK(!strcmp(stc_coh_state_name(STC_COH_O), "O"), "state name O");
    CHECK(!strcmp(stc_coh_proc_event_name(STC_COH_EVICT), "Evict"), "event name Evict");
    CHECK(!strcmp(stc_coh_bus_name(STC_COH_BUS_UPGR), "BusUpgr"), "bus name BusUpgr");
    CHECK(!strcmp(stc_coh_bus_name(STC_COH_BUS_WB), "BusWB"), "bus name BusWB");
    CHECK(!strcmp(stc_coh_state_name(STC_COH_STATE_COUNT), "?"), "state out of range");
    CHECK(stc_coh_table_of(STC_COH_PROTOCOL_COUNT) == NULL, "table out of range");
}

/* Each break edits exactly its row of a copy, leaves the const table alone,
 * and still passes the self-check: only the model check can see it. */
static void test_breaks(void)
{
    char err[ERR_LEN];
    for (unsigned index = 0; index < 3; index++) {
        stc_coh_protocol protocol = all_protocols[index];
        const stc_coh_table *original = stc_coh_table_of(protocol);
        const char *where = stc_coh_protocol_name(protocol);

        stc_coh_table copy = *original;
        CHECK(stc_coh_table_apply_break(&copy, STC_COH_BREAK_NO_INVALIDATE, err, sizeof err) == 0,
              "%s no-invalidate: %s", where, err);
        CHECK(stc_coh_snoop_lookup(&copy, STC_COH_S, STC_COH_BUS_RDX)->next == STC_COH_S,
              "%s no-invalidate: S snooping BusRdX stays S", where);
        CHECK(stc_coh_snoop_lookup(original, STC_COH_S, STC_COH_BUS_RDX)->next == STC_COH_I,
              "%s no-invalidate changed the const table", where);
        CHECK(stc_coh_snoop_lookup(&copy, STC_COH_S, STC_COH_BUS_UPGR)->next == STC_COH_I,
              "%s no-invalidate: only the BusRdX row changes", where);
        CHECK(stc_coh_table_check(&copy, err, sizeof err) == 0, "%s no-invalidate: %s", where,
              err);

        copy = *original;
        CHECK(stc_coh_table_apply_break(&copy, STC_COH_BREAK_NO_SUPPLY, err, sizeof err) == 0,
              "%s no-supply: %s", where, err);
        const stc_coh_snoop_row *owner = stc_coh_snoop_lookup(&copy, STC_COH_M, STC_COH_BUS_RD);
        CHECK(!owner->supplies && !owner->flushes, "%s no-supply: M snooping BusRd is silent",
              where);
        CHECK(stc_coh_table_check(&copy, err, sizeof err) == 0, "%s no-supply: %s", where, err);

        copy = *original;
        int status = stc_coh_table_apply_break(&copy, STC_COH_BREAK_NO_SHARED, err, sizeof err);
        if (protocol == STC_COH_MSI) {
            CHECK(status != 0 && strstr(err, "changes nothing in msi"),
                  "msi no-shared should be refused: %s", err);
        } else {
            CHECK(status == 0, "%s no-shared: %s", where, err);
            const stc_coh_proc_row *miss = stc_coh_proc_lookup(&copy, STC_COH_I, STC_COH_LOAD);
            CHECK(miss->next_shared == STC_COH_E, "%s no-shared: a shared miss takes E", where);
            CHECK(stc_coh_table_check(&copy, err, sizeof err) == 0, "%s no-shared: %s", where,
                  err);
        }
    }
}

/* The self-check finds a missing row, a doubled row, a next state outside
 * the protocol and an impossible row that acts. */
static void test_self_check_catches(void)
{
    char err[ERR_LEN];
    stc_coh_table table = *stc_coh_table_of(STC_COH_MSI);
    table.snoop_row_count--; /* drops the last row, M snooping BusWB */
    CHECK(stc_coh_table_check(&table, err, sizeof err) != 0 &&
              strstr(err, "M snoops BusWB: 0 rows"),
          "missing row: %s", err);

    table = *stc_coh_table_of(STC_COH_MSI);
    table.proc_rows[1] = table.proc_rows[0]; /* I Load twice, I Store never */
    CHECK(stc_coh_table_check(&table, err, sizeof err) != 0 && strstr(err, "I Load: 2 rows"),
          "doubled row: %s", err);

    table = *stc_coh_table_of(STC_COH_MSI);
    table.proc_rows[0].next_alone = STC_COH_E; /* MSI has no E */
    CHECK(stc_coh_table_check(&table, err, sizeof err) != 0 && strstr(err, "outside"),
          "next state outside the protocol: %s", err);

    table = *stc_coh_table_of(STC_COH_MESI);
    stc_coh_snoop_row *row =
        (stc_coh_snoop_row *)stc_coh_snoop_lookup(&table, STC_COH_M, STC_COH_BUS_UPGR);
    row->flushes = true;
    CHECK(stc_coh_table_check(&table, err, sizeof err) != 0 && strstr(err, "impossible"),
          "impossible row with actions: %s", err);

    table = *stc_coh_table_of(STC_COH_MSI);
    stc_coh_proc_row *miss = (stc_coh_proc_row *)stc_coh_proc_lookup(&table, STC_COH_I,
                                                                     STC_COH_LOAD);
    miss->bus = STC_COH_BUS_NONE;
    CHECK(stc_coh_table_check(&table, err, sizeof err) != 0 && strstr(err, "fetch"),
          "a miss without a fetch: %s", err);
}

int main(void)
{
    test_every_pair_defined();
    test_msi_rows();
    test_mesi_rows();
    test_moesi_rows();
    test_names();
    test_breaks();
    test_self_check_catches();
    return check_done("test_coherence_protocol");
}
