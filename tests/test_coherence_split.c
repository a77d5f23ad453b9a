/*
 * test_coherence_split.c - the split-transaction tables
 * (coherence_protocol.h, docs/COHERENCE.md section 8): every (state, event)
 * pair of every split protocol (MSI, MESI, MOESI) has exactly one row with a
 * defined outcome, hand-checked rows against the textbook's transient
 * states, the E grant, the shared line and MOESI's owner, names and
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

/* The protocol whose rows expect_act and expect_outcome check. */
static stc_coh_protocol under_test = STC_COH_MSI;

/* The row of a pair in the split table under test (NULL reported). */
static const stc_coh_sp_row *msi_row(stc_coh_sp_state state, stc_coh_sp_event event)
{
    const stc_coh_sp_row *row =
        stc_coh_sp_lookup(stc_coh_sp_table_of(under_test), state, event);
    CHECK(row != NULL, "%s split: no row for %s %s", stc_coh_protocol_name(under_test),
          stc_coh_sp_state_name(state), stc_coh_sp_event_name(event));
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
    CHECK(row->next_shared == row->next || event == STC_COH_SP_OWN_GETS,
          "%s %s: next_shared %s", s, e, stc_coh_sp_state_name(row->next_shared));
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
        /* docs/COHERENCE.md 8.2 and 8.7: states, rows that act, stall, are
         * impossible. */
        static const unsigned expected[STC_COH_PROTOCOL_COUNT][4] = {
            {18, 81, 42, 57}, {24, 108, 56, 76}, {27, 124, 60, 86}};
        CHECK_EQ_U64(table->state_count, expected[p][0], "%s split states", where);
        CHECK_EQ_U64(outcomes[STC_COH_SP_ACT], expected[p][1], "%s split rows that act", where);
        CHECK_EQ_U64(outcomes[STC_COH_SP_STALL], expected[p][2], "%s split rows that stall",
                     where);
        CHECK_EQ_U64(outcomes[STC_COH_SP_IMPOSSIBLE], expected[p][3],
                     "%s split impossible rows", where);
    }
    CHECK_EQ_U64(with_table, STC_COH_PROTOCOL_COUNT, "protocols with a split table");
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
    /* Own data can come only to a state whose request was ordered; MSI
     * has no shared line. */
    for (unsigned p = 0; p < STC_COH_PROTOCOL_COUNT; p++) {
        under_test = (stc_coh_protocol)p;
        const stc_coh_sp_table *table = stc_coh_sp_table_of(under_test);
        for (unsigned index = 0; index < table->state_count; index++) {
            stc_coh_sp_state state = table->states[index];
            const char *name = stc_coh_sp_state_name(state);
            bool waits_for_data = strstr(name, "^D") && !strstr(name, "^AD");
            CHECK((msi_row(state, STC_COH_SP_OWN_DATA)->outcome == STC_COH_SP_ACT) ==
                      waits_for_data,
                  "%s %s Own-Data: acts iff the state waits for ordered data",
                  stc_coh_protocol_name(under_test), name);
            CHECK(p != STC_COH_MSI || !msi_row(state, STC_COH_SP_OTHER_GETS)->asserts_shared,
                  "msi %s raises the shared line", name);
        }
    }
    under_test = STC_COH_MSI;
}

/* Which states raise the shared line on Other-GetS in MESI and MOESI:
 * those that hold or will hold a copy once the GetS is ordered, and the
 * owners (MI^A and EI^A too, which keep nothing: docs/COHERENCE.md 8.7). */
static void test_shared_line(void)
{
    static const stc_coh_sp_state raising[] = {
        STC_COH_SP_S,     STC_COH_SP_E,    STC_COH_SP_M,    STC_COH_SP_IS_D, STC_COH_SP_IM_D,
        STC_COH_SP_IM_D_S, STC_COH_SP_SM_AD, STC_COH_SP_SM_D, STC_COH_SP_SM_D_S, STC_COH_SP_MI_A,
        STC_COH_SP_EI_A,  STC_COH_SP_IE_D, STC_COH_SP_IE_D_S, STC_COH_SP_O,  STC_COH_SP_OM_AD,
        STC_COH_SP_OI_A};
    for (unsigned p = STC_COH_MESI; p <= STC_COH_MOESI; p++) {
        const stc_coh_sp_table *table = stc_coh_sp_table_of((stc_coh_protocol)p);
        unsigned raised = 0;
        for (unsigned index = 0; index < table->state_count; index++) {
            stc_coh_sp_state state = table->states[index];
            bool expected = false;
            for (unsigned r = 0; r < sizeof raising / sizeof raising[0]; r++) {
                expected |= raising[r] == state;
            }
            const stc_coh_sp_row *row = stc_coh_sp_lookup(table, state, STC_COH_SP_OTHER_GETS);
            CHECK(row && row->asserts_shared == expected, "%s %s Other-GetS: raises %d",
                  stc_coh_protocol_name((stc_coh_protocol)p), stc_coh_sp_state_name(state),
                  row ? row->asserts_shared : -1);
            raised += row && row->asserts_shared;
            /* Only the GetS's own ordering reads the line. */
            for (unsigned event = 0; event < STC_COH_SP_EVENT_COUNT; event++) {
                row = stc_coh_sp_lookup(table, state, (stc_coh_sp_event)event);
                CHECK(row && (row->next_shared != row->next) ==
                                 (state == STC_COH_SP_IS_AD && event == STC_COH_SP_OWN_GETS),
                      "%s %s %s: next_shared", stc_coh_protocol_name((stc_coh_protocol)p),
                      stc_coh_sp_state_name(state),
                      stc_coh_sp_event_name((stc_coh_sp_event)event));
            }
        }
        CHECK_EQ_U64(raised, p == STC_COH_MESI ? 13 : 16, "%s: states raising the line",
                     stc_coh_protocol_name((stc_coh_protocol)p));
    }
}

/* MESI's E: the grant at the GetS's ordering, the silent store, the PutE
 * eviction (EI^A: no store, no data to memory, stale after another's
 * request as MI^A), E answering like an owner, IE^D's promises. */
static void test_mesi_rows(void)
{
    const stc_coh_sp_send no = STC_COH_SP_SEND_NONE, now = STC_COH_SP_SEND_NOW,
                          later = STC_COH_SP_SEND_LATER;
    const stc_coh_sp_req none = STC_COH_SP_REQ_NONE;
    for (unsigned p = STC_COH_MESI; p <= STC_COH_MOESI; p++) {
        under_test = (stc_coh_protocol)p;
        const stc_coh_sp_row *grant = msi_row(STC_COH_SP_IS_AD, STC_COH_SP_OWN_GETS);
        CHECK(grant && grant->next == STC_COH_SP_IE_D && grant->next_shared == STC_COH_SP_IS_D,
              "%s: IS^AD Own-GetS takes IE^D, or IS^D if shared", stc_coh_protocol_name(p));
        expect_act(STC_COH_SP_E, STC_COH_SP_STORE, STC_COH_SP_M, none, STC_COH_SP_DO_STORE, no,
                   no);
        expect_act(STC_COH_SP_E, STC_COH_SP_EVICT, STC_COH_SP_EI_A, STC_COH_SP_PUTE,
                   STC_COH_SP_DO_NONE, no, no);
        expect_act(STC_COH_SP_EI_A, STC_COH_SP_LOAD, STC_COH_SP_EI_A, none, STC_COH_SP_DO_LOAD,
                   no, no);
        expect_outcome(STC_COH_SP_EI_A, STC_COH_SP_STORE, STC_COH_SP_STALL);
        expect_outcome(STC_COH_SP_EI_A, STC_COH_SP_EVICT, STC_COH_SP_STALL);
        expect_act(STC_COH_SP_EI_A, STC_COH_SP_OWN_PUTM, STC_COH_SP_I, none, STC_COH_SP_DO_NONE,
                   no, no);
        expect_act(STC_COH_SP_EI_A, STC_COH_SP_OTHER_GETS, STC_COH_SP_II_A, none,
                   STC_COH_SP_DO_NONE, now, now);
        expect_act(STC_COH_SP_EI_A, STC_COH_SP_OTHER_GETM, STC_COH_SP_II_A, none,
                   STC_COH_SP_DO_NONE, now, no);
        expect_outcome(STC_COH_SP_EI_A, STC_COH_SP_OWN_DATA, STC_COH_SP_IMPOSSIBLE);
        expect_act(STC_COH_SP_E, STC_COH_SP_OTHER_GETS, STC_COH_SP_S, none, STC_COH_SP_DO_NONE,
                   now, now);
        expect_act(STC_COH_SP_E, STC_COH_SP_OTHER_GETM, STC_COH_SP_I, none, STC_COH_SP_DO_NONE,
                   now, no);
        expect_act(STC_COH_SP_IE_D, STC_COH_SP_OWN_DATA, STC_COH_SP_E, none, STC_COH_SP_DO_LOAD,
                   no, no);
        expect_act(STC_COH_SP_IE_D, STC_COH_SP_OTHER_GETS, STC_COH_SP_IE_D_S, none,
                   STC_COH_SP_DO_NONE, later, later);
        expect_act(STC_COH_SP_IE_D, STC_COH_SP_OTHER_GETM, STC_COH_SP_IE_D_I, none,
                   STC_COH_SP_DO_NONE, later, no);
        expect_act(STC_COH_SP_IE_D_SI, STC_COH_SP_OWN_DATA, STC_COH_SP_I, none,
                   STC_COH_SP_DO_LOAD, now, now);
        expect_outcome(STC_COH_SP_IE_D, STC_COH_SP_LOAD, STC_COH_SP_STALL);
        expect_outcome(STC_COH_SP_E, STC_COH_SP_OWN_PUTM, STC_COH_SP_IMPOSSIBLE);
    }
    under_test = STC_COH_MESI;
    expect_act(STC_COH_SP_M, STC_COH_SP_OTHER_GETS, STC_COH_SP_S, STC_COH_SP_REQ_NONE,
               STC_COH_SP_DO_NONE, now, now);
    expect_act(STC_COH_SP_MI_A, STC_COH_SP_OTHER_GETS, STC_COH_SP_II_A, STC_COH_SP_REQ_NONE,
               STC_COH_SP_DO_NONE, now, now);
    CHECK(!stc_coh_sp_table_has_state(stc_coh_sp_table_of(STC_COH_MESI), STC_COH_SP_O),
          "mesi has no O");
    under_test = STC_COH_MSI;
}

/* MOESI's O: supplies and keeps ownership, upgrades without data, leaves
 * through OI^A still supplying. */
static void test_moesi_rows(void)
{
    const stc_coh_sp_send no = STC_COH_SP_SEND_NONE, now = STC_COH_SP_SEND_NOW;
    const stc_coh_sp_req none = STC_COH_SP_REQ_NONE;
    const stc_coh_sp_perform nop = STC_COH_SP_DO_NONE;
    under_test = STC_COH_MOESI;
    expect_act(STC_COH_SP_M, STC_COH_SP_OTHER_GETS, STC_COH_SP_O, none, nop, now, no);
    expect_act(STC_COH_SP_O, STC_COH_SP_OTHER_GETS, STC_COH_SP_O, none, nop, now, no);
    expect_act(STC_COH_SP_O, STC_COH_SP_OTHER_GETM, STC_COH_SP_I, none, nop, now, no);
    expect_act(STC_COH_SP_O, STC_COH_SP_STORE, STC_COH_SP_OM_AD, STC_COH_SP_GETM, nop, no, no);
    expect_act(STC_COH_SP_O, STC_COH_SP_EVICT, STC_COH_SP_OI_A, STC_COH_SP_PUTM, nop, no, no);
    expect_act(STC_COH_SP_OM_AD, STC_COH_SP_OWN_GETM, STC_COH_SP_M, none, STC_COH_SP_DO_STORE,
               no, no);
    expect_act(STC_COH_SP_OM_AD, STC_COH_SP_OTHER_GETS, STC_COH_SP_OM_AD, none, nop, now, no);
    expect_act(STC_COH_SP_OM_AD, STC_COH_SP_OTHER_GETM, STC_COH_SP_IM_AD, none, nop, now, no);
    expect_act(STC_COH_SP_OM_AD, STC_COH_SP_LOAD, STC_COH_SP_OM_AD, none, STC_COH_SP_DO_LOAD,
               no, no);
    expect_act(STC_COH_SP_MI_A, STC_COH_SP_OTHER_GETS, STC_COH_SP_OI_A, none, nop, now, no);
    expect_act(STC_COH_SP_OI_A, STC_COH_SP_OWN_PUTM, STC_COH_SP_I, none, nop, no, now);
    expect_act(STC_COH_SP_OI_A, STC_COH_SP_OTHER_GETS, STC_COH_SP_OI_A, none, nop, now, no);
    expect_act(STC_COH_SP_OI_A, STC_COH_SP_OTHER_GETM, STC_COH_SP_II_A, none, nop, now, no);
    expect_outcome(STC_COH_SP_OI_A, STC_COH_SP_STORE, STC_COH_SP_STALL);
    expect_outcome(STC_COH_SP_OM_AD, STC_COH_SP_STORE, STC_COH_SP_STALL);
    expect_outcome(STC_COH_SP_OM_AD, STC_COH_SP_OWN_DATA, STC_COH_SP_IMPOSSIBLE);
    /* Owner-to-be states still promise like MSI: one remembered requester. */
    expect_act(STC_COH_SP_IM_D, STC_COH_SP_OTHER_GETS, STC_COH_SP_IM_D_S, none, nop,
               STC_COH_SP_SEND_LATER, STC_COH_SP_SEND_LATER);
    under_test = STC_COH_MSI;
}

static void test_names(void)
{
    char err[ERR_LEN];
    CHECK(!strcmp(stc_coh_sp_state_name(STC_COH_SP_IS_D_I), "IS^D_I"), "IS^D_I name");
    CHECK(!strcmp(stc_coh_sp_state_ident(STC_COH_SP_IM_D_SI), "IM_D_SI"), "IM_D_SI ident");
    CHECK(!strcmp(stc_coh_sp_state_name(STC_COH_SP_STATE_COUNT), "?"), "state out of range");
    CHECK(!strcmp(stc_coh_sp_event_name(STC_COH_SP_OWN_DATA), "Own-Data"), "Own-Data name");
    CHECK(!strcmp(stc_coh_sp_req_name(STC_COH_SP_PUTM), "PutM"), "PutM name");
    CHECK(!strcmp(stc_coh_sp_req_name(STC_COH_SP_PUTE), "PutE") &&
              !strcmp(stc_coh_sp_state_name(STC_COH_SP_EI_A), "EI^A"),
          "PutE, EI^A names");
    /* A PutE is a put to every cache: ordered as PutM's events. */
    CHECK(stc_coh_sp_ordered_event(STC_COH_SP_PUTE, true) == STC_COH_SP_OWN_PUTM &&
              stc_coh_sp_ordered_event(STC_COH_SP_PUTE, false) == STC_COH_SP_OTHER_PUTM &&
              stc_coh_sp_ordered_event(STC_COH_SP_GETS, true) == STC_COH_SP_OWN_GETS &&
              stc_coh_sp_ordered_event(STC_COH_SP_GETM, false) == STC_COH_SP_OTHER_GETM &&
              stc_coh_sp_ordered_event(STC_COH_SP_REQ_NONE, true) == STC_COH_SP_EVENT_COUNT,
          "ordered events");
    CHECK(!strcmp(stc_coh_bus_model_name(STC_COH_BUS_SPLIT), "split"), "split name");
    CHECK(stc_coh_sp_permission(STC_COH_SP_MI_A) == STC_COH_M, "MI^A may write");
    CHECK(stc_coh_sp_permission(STC_COH_SP_SM_D_SI) == STC_COH_S, "SM^D_SI may read");
    CHECK(stc_coh_sp_permission(STC_COH_SP_IM_D) == STC_COH_I, "IM^D holds nothing");
    CHECK(stc_coh_sp_stable(STC_COH_SP_S) && !stc_coh_sp_stable(STC_COH_SP_II_A), "stable");
    CHECK(stc_coh_sp_stable(STC_COH_SP_E) && stc_coh_sp_stable(STC_COH_SP_O) &&
              !stc_coh_sp_stable(STC_COH_SP_IE_D_SI) && !stc_coh_sp_stable(STC_COH_SP_OM_AD),
          "stable E, O");
    CHECK(stc_coh_sp_permission(STC_COH_SP_E) == STC_COH_E, "E may write");
    CHECK(stc_coh_sp_permission(STC_COH_SP_OI_A) == STC_COH_O, "OI^A reads as the owner");
    CHECK(stc_coh_sp_permission(STC_COH_SP_OM_AD) == STC_COH_O, "OM^AD reads as the owner");
    CHECK(stc_coh_sp_permission(STC_COH_SP_IE_D) == STC_COH_I, "IE^D holds nothing");
    CHECK(!strcmp(stc_coh_sp_state_name(STC_COH_SP_IE_D_SI), "IE^D_SI") &&
              !strcmp(stc_coh_sp_state_ident(STC_COH_SP_OM_AD), "OM_AD") &&
              !strcmp(stc_coh_sp_state_name(STC_COH_SP_OI_A), "OI^A"),
          "MESI, MOESI state names");
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

static bool rows_equal(const stc_coh_sp_row *a, const stc_coh_sp_row *b)
{
    return a->state == b->state && a->event == b->event && a->outcome == b->outcome &&
           a->next == b->next && a->issue == b->issue && a->perform == b->perform &&
           a->to_requester == b->to_requester && a->to_memory == b->to_memory &&
           a->next_shared == b->next_shared && a->asserts_shared == b->asserts_shared;
}

/* Each break edits exactly one row of a copy, which stays well formed, in
 * every protocol it applies to; elsewhere it is refused. */
static void test_breaks(void)
{
    char err[ERR_LEN];
    /* Bit p: the break applies to protocol p (MSI 1, MESI 2, MOESI 4). */
    static const unsigned applies[STC_COH_SP_BREAK_COUNT] = {7, 7, 7, 6, 6, 4, 6};
    for (unsigned p = 0; p < STC_COH_PROTOCOL_COUNT; p++) {
        const stc_coh_sp_table *table = stc_coh_sp_table_of((stc_coh_protocol)p);
        for (unsigned which = 0; which < STC_COH_SP_BREAK_COUNT; which++) {
            const char *name = stc_coh_sp_break_name((stc_coh_sp_break)which);
            const char *where = stc_coh_protocol_name((stc_coh_protocol)p);
            stc_coh_sp_table copy = *table;
            err[0] = '\0';
            int status = stc_coh_sp_table_apply_break(&copy, (stc_coh_sp_break)which, err,
                                                      sizeof err);
            if (!(applies[which] >> p & 1)) {
                CHECK(status != 0 && strstr(err, "changes nothing"), "%s %s: applied (%s)",
                      where, name, err);
                continue;
            }
            CHECK(status == 0, "%s %s: %s", where, name, err);
            unsigned changed = 0;
            for (unsigned index = 0; index < copy.row_count; index++) {
                changed += !rows_equal(&copy.rows[index], &table->rows[index]);
            }
            CHECK_EQ_U64(changed, 1, "%s %s: rows changed", where, name);
            CHECK(stc_coh_sp_table_check(&copy, err, sizeof err) == 0, "%s %s: %s", where, name,
                  err);
        }
    }
    stc_coh_sp_table grant = *stc_coh_sp_table_of(STC_COH_MESI);
    stc_coh_sp_table_apply_break(&grant, STC_COH_SP_BREAK_NO_SHARED, err, sizeof err);
    CHECK(stc_coh_sp_lookup(&grant, STC_COH_SP_IS_AD, STC_COH_SP_OWN_GETS)->next_shared ==
              STC_COH_SP_IE_D,
          "no-shared: E even if shared");
    stc_coh_sp_table_apply_break(&grant, STC_COH_SP_BREAK_SILENT_E_EVICT, err, sizeof err);
    const stc_coh_sp_row *evict = stc_coh_sp_lookup(&grant, STC_COH_SP_E, STC_COH_SP_EVICT);
    CHECK(evict->next == STC_COH_SP_I && evict->issue == STC_COH_SP_REQ_NONE,
          "silent-e-evict: E to I, no PutE");
    stc_coh_sp_table_apply_break(&grant, STC_COH_SP_BREAK_STORE_AFTER_PUTE, err, sizeof err);
    const stc_coh_sp_row *lost = stc_coh_sp_lookup(&grant, STC_COH_SP_EI_A, STC_COH_SP_STORE);
    CHECK(lost->outcome == STC_COH_SP_ACT && lost->perform == STC_COH_SP_DO_STORE &&
              lost->next == STC_COH_SP_EI_A,
          "store-after-pute: EI^A performs the store");
    stc_coh_sp_table owner = *stc_coh_sp_table_of(STC_COH_MOESI);
    stc_coh_sp_table_apply_break(&owner, STC_COH_SP_BREAK_OWNER_NO_SUPPLY, err, sizeof err);
    CHECK(stc_coh_sp_lookup(&owner, STC_COH_SP_O, STC_COH_SP_OTHER_GETS)->to_requester ==
              STC_COH_SP_SEND_NONE,
          "owner-no-supply: O sends nothing");
    const stc_coh_sp_table *original = stc_coh_sp_table_of(STC_COH_MSI);
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

/* A copy of protocol p's split table in *table, and its row to edit. */
static stc_coh_sp_row *edit_copy(stc_coh_sp_table *table, stc_coh_protocol p,
                                 stc_coh_sp_state state, stc_coh_sp_event event)
{
    *table = *stc_coh_sp_table_of(p);
    return (stc_coh_sp_row *)stc_coh_sp_lookup(table, state, event);
}

/* The self-check refuses table with a message containing expected. */
static void expect_rejected(const stc_coh_sp_table *table, const char *expected)
{
    char err[ERR_LEN] = "";
    CHECK(stc_coh_sp_table_check(table, err, sizeof err) != 0 && strstr(err, expected),
          "expected '%s', got '%s'", expected, err);
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
        case 0:
            row->outcome = STC_COH_SP_STALL;
            row->next = row->next_shared = row->state;
            break;
        case 1: row->to_memory = STC_COH_SP_SEND_LATER; break;
        case 2: row->to_requester = STC_COH_SP_SEND_NOW; break;
        case 3: row->next = row->next_shared = STC_COH_SP_IS_D; break;
        case 4: row->perform = STC_COH_SP_DO_NONE; break;
        default:
            row->issue = STC_COH_SP_GETM;
            row->next = row->next_shared = STC_COH_SP_SM_AD;
            break;
        }
        err[0] = '\0';
        int status = stc_coh_sp_table_check(&table, err, sizeof err);
        const char *expected = index == 1 ? "promises data" : edits[index].expected;
        CHECK(status != 0 && strstr(err, expected), "edit %u: expected '%s', got '%s'", index,
              expected, err);
    }
    stc_coh_sp_table table = *stc_coh_sp_table_of(STC_COH_MSI);
    table.row_count--; /* drops the last row, MI^A Other-PutM */
    CHECK(stc_coh_sp_table_check(&table, err, sizeof err) != 0 &&
              strstr(err, "MI^A Other-PutM: 0 rows"),
          "missing row: %s", err);
    /* The shared line: read only at a GetS's ordering, raised only for one;
     * a store at the GetM's ordering only where the data is held. */
    edit_copy(&table, STC_COH_MESI, STC_COH_SP_IS_D, STC_COH_SP_OTHER_GETM)->next_shared =
        STC_COH_SP_S;
    expect_rejected(&table, "only Own-GetS depends on the shared line");
    edit_copy(&table, STC_COH_MESI, STC_COH_SP_S, STC_COH_SP_OTHER_GETM)->asserts_shared = true;
    expect_rejected(&table, "only Other-GetS raises the shared line");
    edit_copy(&table, STC_COH_MESI, STC_COH_SP_IM_AD, STC_COH_SP_OWN_GETM)->perform =
        STC_COH_SP_DO_STORE;
    expect_rejected(&table, "IM^AD Own-GetM: performs an operation it was not asked for");
    edit_copy(&table, STC_COH_MOESI, STC_COH_SP_I, STC_COH_SP_OWN_GETS)->next_shared =
        STC_COH_SP_S;
    expect_rejected(&table, "I Own-GetS: a stalled or impossible row has actions");
    /* PutE: only from E, and never followed by data to memory. */
    stc_coh_sp_row *evict = edit_copy(&table, STC_COH_MESI, STC_COH_SP_M, STC_COH_SP_EVICT);
    evict->issue = STC_COH_SP_PUTE;
    expect_rejected(&table, "M Evict: issues PutE");
    edit_copy(&table, STC_COH_MOESI, STC_COH_SP_EI_A, STC_COH_SP_OWN_PUTM)->to_memory =
        STC_COH_SP_SEND_NOW;
    expect_rejected(&table, "E Evict: memory takes no data after a PutE, but EI^A Own-PutM");
    table = *stc_coh_sp_table_of(STC_COH_MSI);
    table.rows[1] = table.rows[0]; /* I Load twice, I Store never */
    CHECK(stc_coh_sp_table_check(&table, err, sizeof err) != 0 && strstr(err, "I Load: 2 rows"),
          "doubled row: %s", err);
}

int main(void)
{
    test_every_pair_defined();
    test_msi_rows();
    test_shared_line();
    test_mesi_rows();
    test_moesi_rows();
    test_names();
    test_breaks();
    test_self_check_catches();
    return check_done("test_coherence_split");
}
