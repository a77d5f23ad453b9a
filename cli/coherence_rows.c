/* coherence_rows.c - the row coverage of an atomic coherent run. */
#include "coherence_rows.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

/* One pair of the table, processor (bus 0 unused) or snoop. */
typedef struct {
    bool snoop;
    stc_coh_state state;
    unsigned event; /* stc_coh_proc_event, or stc_coh_bus for a snoop pair */
} pair;

/* Calls visit for every pair in the table's order: its states, and for
 * each the processor events, then the snooped transactions. is_row: the
 * table has the pair; impossible: the row says it cannot happen. */
typedef void pair_visitor(void *context, pair at, bool is_row, bool impossible, uint64_t uses);

static void visit_pairs(const stc_coh_table *table, const stc_coh_row_uses *uses,
                        pair_visitor *visit, void *context)
{
    for (unsigned s = 0; s < table->state_count; s++) {
        stc_coh_state state = table->states[s];
        for (unsigned e = 0; e < STC_COH_PROC_EVENT_COUNT; e++) {
            const stc_coh_proc_row *row = stc_coh_proc_lookup(table, state, (stc_coh_proc_event)e);
            visit(context, (pair){false, state, e}, row != NULL, row && row->impossible,
                  uses->proc[state][e]);
        }
    }
    for (unsigned s = 0; s < table->state_count; s++) {
        stc_coh_state state = table->states[s];
        for (unsigned b = STC_COH_BUS_NONE + 1; b < STC_COH_BUS_COUNT; b++) {
            const stc_coh_snoop_row *row = stc_coh_snoop_lookup(table, state, (stc_coh_bus)b);
            visit(context, (pair){true, state, b}, row != NULL, row && row->impossible,
                  uses->snoop[state][b]);
        }
    }
}

/* Coverage counts the rows that can happen: an impossible row that ran is
 * a violation the run reports, not coverage. */
typedef struct {
    unsigned rows, ran, impossible;
} tally;

static void count_pair(void *context, pair at, bool is_row, bool impossible, uint64_t uses)
{
    (void)at;
    tally *sum = context;
    sum->rows += is_row && !impossible;
    sum->ran += is_row && !impossible && uses > 0;
    sum->impossible += is_row && impossible;
}

static const char *event_name(pair at)
{
    return at.snoop ? stc_coh_bus_name((stc_coh_bus)at.event)
                    : stc_coh_proc_event_name((stc_coh_proc_event)at.event);
}

static void print_text_pair(void *context, pair at, bool is_row, bool impossible, uint64_t uses)
{
    bool not_rows = *(bool *)context;
    if (not_rows == is_row || (!is_row && uses == 0))
        return;
    printf("  %-2s %-7s %-7s %13" PRIu64 "%s\n", stc_coh_state_name(at.state),
           at.snoop ? "snoops" : "", event_name(at), uses,
           !is_row ? "  (no row of the table)" : impossible ? "  (impossible)" : "");
}

void stc_coh_rows_print_text(const stc_coh_table *table, const stc_coh_row_uses *uses)
{
    tally sum = {0, 0, 0};
    visit_pairs(table, uses, count_pair, &sum);
    printf("rows: %u of the table's %u possible rows ran (and %u impossible ones are listed)\n",
           sum.ran, sum.rows, sum.impossible);
    bool not_rows = false;
    visit_pairs(table, uses, print_text_pair, &not_rows);
    not_rows = true;
    visit_pairs(table, uses, print_text_pair, &not_rows);
}

typedef struct {
    bool snoop_part, not_rows;
    unsigned printed;
} json_pass;

static void print_json_pair(void *context, pair at, bool is_row, bool impossible, uint64_t uses)
{
    json_pass *pass = context;
    if (pass->not_rows ? (is_row || uses == 0) : (!is_row || at.snoop != pass->snoop_part))
        return;
    printf("%s{\"state\": \"%s\", \"%s\": \"%s\", \"uses\": %" PRIu64, pass->printed++ ? ", " : "",
           stc_coh_state_name(at.state), at.snoop ? "bus" : "event", event_name(at), uses);
    if (!pass->not_rows)
        printf(", \"impossible\": %s", impossible ? "true" : "false");
    printf("}");
}

void stc_coh_rows_print_json(const stc_coh_table *table, const stc_coh_row_uses *uses)
{
    tally sum = {0, 0, 0};
    visit_pairs(table, uses, count_pair, &sum);
    printf("{\"ran\": %u, \"of\": %u, \"proc\": [", sum.ran, sum.rows);
    json_pass pass = {false, false, 0};
    visit_pairs(table, uses, print_json_pair, &pass);
    printf("], \"snoop\": [");
    pass = (json_pass){true, false, 0};
    visit_pairs(table, uses, print_json_pair, &pass);
    printf("], \"not_rows\": [");
    pass = (json_pass){false, true, 0};
    visit_pairs(table, uses, print_json_pair, &pass);
    printf("]}");
}
