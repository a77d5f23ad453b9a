/*
 * test_coherence_split.c - the split-transaction tables
 * (coherence_protocol.h, docs/COHERENCE.md section 8): every (state, event)
 * pair of every split protocol has exactly one row with a defined outcome,
 * hand-checked rows against the textbook's transient states, names and
 * parsing, the broken variants, and the self-check catching malformed
 * tables.
 *
 * Whether the protocol is correct is Rumur's job (tests/coherence-check.sh).
 */
#include "check.h"
#include "coherence_protocol.h"

#include <stdbool.h>
#include <string.h>

enum { ERR_LEN = 256 };

/* The row of a pair in the MSI split table (NULL reported). */
static const stc_coh_sp_row *msi_row(stc_coh_sp_state state, stc_coh_sp_event event)
{
    const stc_coh_sp_row *row = stc_coh_sp_lookup(stc_coh_sp_table_of(STC_COH_MSI), state, event);
    CHECK(row != NULL, "msi split: no row for %s %s", stc_coh_sp_state_name(state),
          stc_coh_sp_event_name(event));
    return row;
}

/* An acting row: next state, request, operation, data to requester and to
 * memory. */
static void expect_act(stc_coh_sp_state state, stc_coh_sp_event event, stc_coh_sp_state next,
                       stc_coh_sp_req issue, stc_coh_sp_perform perform,
                       stc_coh_sp_send to_requester, stc_coh_sp_send to_memory)
{
    const stc_coh_sp_row *row = msi_row(state, event);
    if (!row) {
        return;
    }
    const char *s = stc_coh_sp_state_name(state);
    const char *e = stc_coh_sp_event_name(event);
    CHECK(row->outcome == STC_COH_SP_ACT, "%s %s: outcome %d", s, e, row->outcome);
    CHECK(row->next == next, "%s %s: next %s", s, e, stc_coh_sp_state_name(row->next));
    CHECK(row->issue == issue, "%s %s: issues %s", s, e, stc_coh_sp_req_name(row->issue));
    CHECK(row->perform == perform, "%s %s: performs %d", s, e, row->perform);
    CHECK(row->to_requester == to_requester, "%s %s: to requester %d", s, e, row->to_requester);
    CHECK(row->to_memory == to_memory, "%s %s: to memory %d", s, e, row->to_memory);
}

static void expect_outcome(stc_coh_sp_state state, stc_coh_sp_event event,
                           stc_coh_sp_outcome outcome)
{
    const stc_coh_sp_row *row = msi_row(state, event);
    CHECK(row && row->outcome == outcome, "%s %s: expected outcome %d",
          stc_coh_sp_state_name(state), stc_coh_sp_event_name(event), outcome);
}

/* Every pair of every split protocol: exactly one row, an outcome in
 * range, the self-check passing; protocols without a split table yet say
 * so with NULL. */
static void test_every_pair_defined(void)
{
    char err[ERR_LEN];
    unsigned with_table = 0;
    for (unsigned p = 0; p < STC_COH_PROTOCOL_COUNT; p++) {
        const stc_coh_sp_table *table = stc_coh_sp_table_of((stc_coh_protocol)p);
        const char *where = stc_coh_protocol_name((stc_coh_protocol)p);
        if (!table) {
            CHECK(p != STC_COH_MSI, "msi has no split table");
            continue;
        }
        with_table++;
        CHECK(table->protocol == (stc_coh_protocol)p, "%s: table of another protocol", where);
        err[0] = '\0';
        CHECK(stc_coh_sp_table_check(table, err, sizeof err) == 0, "%s split self-check: %s",
              where, err);
        CHECK_EQ_U64(table->row_count, table->state_count * STC_COH_SP_EVENT_COUNT,
                     "%s split rows = states x events", where);
        unsigned outcomes[STC_COH_SP_OUTCOME_COUNT] = {0};
        for (unsigned index = 0; index < table->state_count; index++) {
            stc_coh_sp_state state = table->states[index];
            for (unsigned event = 0; event < STC_COH_SP_EVENT_COUNT; event++) {
                const stc_coh_sp_row *row =
                    stc_coh_sp_lookup(table, state, (stc_coh_sp_event)event);
                CHECK(row != NULL, "%s %s %s: no row", where, stc_coh_sp_state_name(state),
                      stc_coh_sp_event_name((stc_coh_sp_event)event));
                if (row) {
                    CHECK(row->outcome < STC_COH_SP_OUTCOME_COUNT, "%s %s %s: outcome %d",
                          where, stc_coh_sp_state_name(state),
                          stc_coh_sp_event_name((stc_coh_sp_event)event), row->outcome);
                    outcomes[row->outcome < STC_COH_SP_OUTCOME_COUNT ? row->outcome : 0]++;
                }
            }
            /* A stable state never stalls; a transient state stalls its
             * store (one request per cache, blocking). */
            const stc_coh_sp_row *store = stc_coh_sp_lookup(table, state, STC_COH_SP_STORE);
            if (store) {
                CHECK((store->outcome == STC_COH_SP_STALL) ==
                          (!stc_coh_sp_stable(state) && state != STC_COH_SP_MI_A),
                      "%s %s Store: stall iff transient (MI^A hits)", where,
                      stc_coh_sp_state_name(state));
            }
        }
        if (p == STC_COH_MSI) {
            /* docs/COHERENCE.md 8.2: 81 act, 42 stall, 57 impossible. */
            CHECK_EQ_U64(table->state_count, 18, "msi split states");
            CHECK_EQ_U64(outcomes[STC_COH_SP_ACT], 81, "msi split rows that act");
            CHECK_EQ_U64(outcomes[STC_COH_SP_STALL], 42, "msi split rows that stall");
            CHECK_EQ_U64(outcomes[STC_COH_SP_IMPOSSIBLE], 57, "msi split impossible rows");
        }
    }
    CHECK(with_table >= 1, "no split table at all");
    CHECK(stc_coh_sp_table_of((stc_coh_protocol)STC_COH_PROTOCOL_COUNT) == NULL,
          "a table for a protocol out of range");
}

/* The textbook's transient states (the seed's figure 5.8; the primer's
 * split-transaction MSI), row by row where they matter. */
static void test_msi_rows(void)
{
    const stc_coh_sp_send no = STC_COH_SP_SEND_NONE, now = STC_COH_SP_SEND_NOW,
                          later = STC_COH_SP_SEND_LATER;
    const stc_coh_sp_req none = STC_COH_SP_REQ_NONE;
    expect_act(STC_COH_SP_I, STC_COH_SP_LOAD, STC_COH_SP_IS_AD, STC_COH_SP_GETS,
               STC_COH_SP_DO_NONE, no, no);
    expect_act(STC_COH_SP_I, STC_COH_SP_STORE, STC_COH_SP_IM_AD, STC_COH_SP_GETM,
               STC_COH_SP_DO_NONE, no, no);
    expect_act(STC_COH_SP_S, STC_COH_SP_STORE, STC_COH_SP_SM_AD, STC_COH_SP_GETM,
               STC_COH_SP_DO_NONE, no, no);
    expect_act(STC_COH_SP_M, STC_COH_SP_EVICT, STC_COH_SP_MI_A, STC_COH_SP_PUTM,
               STC_COH_SP_DO_NONE, no, no);
    expect_act(STC_COH_SP_M, STC_COH_SP_OTHER_GETS, STC_COH_SP_S, none, STC_COH_SP_DO_NONE, now,
               now);
    expect_act(STC_COH_SP_M, STC_COH_SP_OTHER_GETM, STC_COH_SP_I, none, STC_COH_SP_DO_NONE, now,
               no);
    expect_act(STC_COH_SP_IS_AD, STC_COH_SP_OWN_GETS, STC_COH_SP_IS_D, none, STC_COH_SP_DO_NONE,
               no, no);
    expect_act(STC_COH_SP_IS_D, STC_COH_SP_OTHER_GETM, STC_COH_SP_IS_D_I, none,
               STC_COH_SP_DO_NONE, no, no);
    expect_act(STC_COH_SP_IS_D_I, STC_COH_SP_OWN_DATA, STC_COH_SP_I, none, STC_COH_SP_DO_LOAD,
               no, no);
    expect_act(STC_COH_SP_IM_D, STC_COH_SP_OTHER_GETS, STC_COH_SP_IM_D_S, none,
               STC_COH_SP_DO_NONE, later, later);
    expect_act(STC_COH_SP_IM_D, STC_COH_SP_OTHER_GETM, STC_COH_SP_IM_D_I, none,
               STC_COH_SP_DO_NONE, later, no);
    expect_act(STC_COH_SP_IM_D_S, STC_COH_SP_OTHER_GETM, STC_COH_SP_IM_D_SI, none,
               STC_COH_SP_DO_NONE, no, no);
    expect_act(STC_COH_SP_IM_D_SI, STC_COH_SP_OWN_DATA, STC_COH_SP_I, none, STC_COH_SP_DO_STORE,
               now, now);
    expect_act(STC_COH_SP_SM_AD, STC_COH_SP_OTHER_GETM, STC_COH_SP_IM_AD, none,
               STC_COH_SP_DO_NONE, no, no);
    expect_act(STC_COH_SP_SM_D_I, STC_COH_SP_OWN_DATA, STC_COH_SP_I, none, STC_COH_SP_DO_STORE,
               now, no);
    expect_act(STC_COH_SP_MI_A, STC_COH_SP_OWN_PUTM, STC_COH_SP_I, none, STC_COH_SP_DO_NONE, no,
               now);
    expect_act(STC_COH_SP_MI_A, STC_COH_SP_OTHER_GETS, STC_COH_SP_II_A, none,
               STC_COH_SP_DO_NONE, now, now);
    expect_act(STC_COH_SP_II_A, STC_COH_SP_OWN_PUTM, STC_COH_SP_I, none, STC_COH_SP_DO_NONE, no,
               no);
    expect_act(STC_COH_SP_MI_A, STC_COH_SP_STORE, STC_COH_SP_MI_A, none, STC_COH_SP_DO_STORE, no,
               no);
    expect_outcome(STC_COH_SP_IS_D, STC_COH_SP_LOAD, STC_COH_SP_STALL);
    expect_outcome(STC_COH_SP_SM_D, STC_COH_SP_LOAD, STC_COH_SP_STALL);
    expect_outcome(STC_COH_SP_IM_AD, STC_COH_SP_OWN_DATA, STC_COH_SP_IMPOSSIBLE);
    expect_outcome(STC_COH_SP_I, STC_COH_SP_OWN_GETS, STC_COH_SP_IMPOSSIBLE);
    /* Own data can come only to a state whose request was ordered. */
    const stc_coh_sp_table *table = stc_coh_sp_table_of(STC_COH_MSI);
    for (unsigned index = 0; index < table->state_count; index++) {
        stc_coh_sp_state state = table->states[index];
        const char *name = stc_coh_sp_state_name(state);
        bool waits_for_data = strstr(name, "^D") && !strstr(name, "^AD");
        CHECK((msi_row(state, STC_COH_SP_OWN_DATA)->outcome == STC_COH_SP_ACT) == waits_for_data,
              "%s Own-Data: acts iff the state waits for ordered data", name);
    }
}

static void test_names(void)
{
    char err[ERR_LEN];
    CHECK(!strcmp(stc_coh_sp_state_name(STC_COH_SP_IS_D_I), "IS^D_I"), "IS^D_I name");
    CHECK(!strcmp(stc_coh_sp_state_ident(STC_COH_SP_IM_D_SI), "IM_D_SI"), "IM_D_SI ident");
    CHECK(!strcmp(stc_coh_sp_state_name(STC_COH_SP_STATE_COUNT), "?"), "state out of range");
    CHECK(!strcmp(stc_coh_sp_event_name(STC_COH_SP_OWN_DATA), "Own-Data"), "Own-Data name");
    CHECK(!strcmp(stc_coh_sp_req_name(STC_COH_SP_PUTM), "PutM"), "PutM name");
    CHECK(!strcmp(stc_coh_bus_model_name(STC_COH_BUS_SPLIT), "split"), "split name");
    CHECK(stc_coh_sp_permission(STC_COH_SP_MI_A) == STC_COH_M, "MI^A may write");
    CHECK(stc_coh_sp_permission(STC_COH_SP_SM_D_SI) == STC_COH_S, "SM^D_SI may read");
    CHECK(stc_coh_sp_permission(STC_COH_SP_IM_D) == STC_COH_I, "IM^D holds nothing");
    CHECK(stc_coh_sp_stable(STC_COH_SP_S) && !stc_coh_sp_stable(STC_COH_SP_II_A), "stable");
    stc_coh_bus_model model = STC_COH_BUS_ATOMIC;
    CHECK(stc_coh_bus_model_parse("split", &model, err, sizeof err) == 0 &&
              model == STC_COH_BUS_SPLIT,
          "parse split");
    CHECK(stc_coh_bus_model_parse("Split", &model, err, sizeof err) != 0 &&
              strstr(err, "atomic or split"),
          "bad bus model: %s", err);
    for (unsigned which = 0; which < STC_COH_SP_BREAK_COUNT; which++) {
        stc_coh_sp_break parsed = STC_COH_SP_BREAK_COUNT;
        const char *name = stc_coh_sp_break_name((stc_coh_sp_break)which);
        CHECK(stc_coh_sp_break_parse(name, &parsed, err, sizeof err) == 0 &&
                  parsed == (stc_coh_sp_break)which,
              "parse %s", name);
        CHECK(strcmp(stc_coh_sp_break_what((stc_coh_sp_break)which), "?") != 0, "what %s", name);
    }
    stc_coh_sp_break parsed;
    CHECK(stc_coh_sp_break_parse("no-invalidate", &parsed, err, sizeof err) != 0 &&
              strstr(err, "no-writeback"),
          "an atomic break is not a split one: %s", err);
}

/* Each break edits exactly one row of a copy, which stays well formed. */
static void test_breaks(void)
{
    char err[ERR_LEN];
    const stc_coh_sp_table *original = stc_coh_sp_table_of(STC_COH_MSI);
    for (unsigned which = 0; which < STC_COH_SP_BREAK_COUNT; which++) {
        const char *name = stc_coh_sp_break_name((stc_coh_sp_break)which);
        stc_coh_sp_table copy = *original;
        CHECK(stc_coh_sp_table_apply_break(&copy, (stc_coh_sp_break)which, err, sizeof err) == 0,
              "%s: %s", name, err);
        unsigned changed = 0;
        for (unsigned index = 0; index < copy.row_count; index++) {
            changed += memcmp(&copy.rows[index], &original->rows[index], sizeof copy.rows[0]) != 0;
        }
        CHECK_EQ_U64(changed, 1, "%s: rows changed", name);
        CHECK(stc_coh_sp_table_check(&copy, err, sizeof err) == 0, "%s: %s", name, err);
    }
    stc_coh_sp_table copy = *original;
    stc_coh_sp_table_apply_break(&copy, STC_COH_SP_BREAK_NO_IS_D_I, err, sizeof err);
    CHECK(stc_coh_sp_lookup(&copy, STC_COH_SP_IS_D, STC_COH_SP_OTHER_GETM)->next ==
              STC_COH_SP_IS_D,
          "no-is-d-i: IS^D stays");
    CHECK(stc_coh_sp_lookup(original, STC_COH_SP_IS_D, STC_COH_SP_OTHER_GETM)->next ==
              STC_COH_SP_IS_D_I,
          "no-is-d-i changed the const table");
    CHECK(stc_coh_sp_table_apply_break(&copy, STC_COH_SP_BREAK_COUNT, err, sizeof err) != 0,
          "break out of range");
}

/* The self-check finds what a hand edit can get wrong. */
static void test_self_check_catches(void)
{
    static const struct {
        stc_coh_sp_state state;
        stc_coh_sp_event event;
        const char *expected;
    } edits[] = {
        {STC_COH_SP_IS_D, STC_COH_SP_OTHER_GETM, "only a processor event can stall"},
        {STC_COH_SP_IM_D, STC_COH_SP_OWN_DATA, "LATER"},
        {STC_COH_SP_I, STC_COH_SP_OTHER_GETS, "does not hold"},
        {STC_COH_SP_IS_AD, STC_COH_SP_LOAD, "stalled or impossible row has actions"},
        {STC_COH_SP_IS_D, STC_COH_SP_OWN_DATA, "data arrives for no operation"},
        {STC_COH_SP_S, STC_COH_SP_LOAD, "issues GetM"},
    };
    char err[ERR_LEN];
    for (unsigned index = 0; index < sizeof edits / sizeof edits[0]; index++) {
        stc_coh_sp_table table = *stc_coh_sp_table_of(STC_COH_MSI);
        stc_coh_sp_row *row =
            (stc_coh_sp_row *)stc_coh_sp_lookup(&table, edits[index].state, edits[index].event);
        switch (index) {
        case 0: row->outcome = STC_COH_SP_STALL; row->next = row->state; break;
        case 1: row->to_memory = STC_COH_SP_SEND_LATER; break;
        case 2: row->to_requester = STC_COH_SP_SEND_NOW; break;
        case 3: row->next = STC_COH_SP_IS_D; break;
        case 4: row->perform = STC_COH_SP_DO_NONE; break;
        default: row->issue = STC_COH_SP_GETM; row->next = STC_COH_SP_SM_AD; break;
        }
        err[0] = '\0';
        int status = stc_coh_sp_table_check(&table, err, sizeof err);
        const char *expected = index == 1 ? "promises data" : edits[index].expected;
        CHECK(status != 0 && strstr(err, expected), "edit %u: expected '%s', got '%s'", index,
              expected, err);
    }
    stc_coh_sp_table table = *stc_coh_sp_table_of(STC_COH_MSI);
    table.row_count--; /* drops II^A Other-PutM */
    CHECK(stc_coh_sp_table_check(&table, err, sizeof err) != 0 &&
              strstr(err, "II^A Other-PutM: 0 rows"),
          "missing row: %s", err);
    table = *stc_coh_sp_table_of(STC_COH_MSI);
    table.rows[1] = table.rows[0]; /* I Load twice, I Store never */
    CHECK(stc_coh_sp_table_check(&table, err, sizeof err) != 0 && strstr(err, "I Load: 2 rows"),
          "doubled row: %s", err);
}

int main(void)
{
    test_every_pair_defined();
    test_msi_rows();
    test_names();
    test_breaks();
    test_self_check_catches();
    return check_done("test_coherence_split");
}
