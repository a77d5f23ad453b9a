/*
 * emit_coh_table.c - the coherence protocol's (state, event) tables as
 * combinational Verilog (docs/ARCHITECTURE.md 19.1): stc_coh_proc_table and
 * stc_coh_snoop_table for the atomic bus, stc_coh_sp_table for the
 * split-transaction bus.
 *
 * Every row comes from the table in stcgen_params (ref/coherence_protocol.c's,
 * or a copy broken by --debug-break coh-NAME), the same data the C models run
 * and stcmurphi turns into the Murphi model that Rumur checks, so the RTL, the
 * model and the proof cannot drift apart. A case item per row; a pair the
 * protocol does not have (a code beyond its states, an event code beyond the
 * events) answers known_o = 0 with the state unchanged and no action.
 */
#include "emit.h"

#include <stdbool.h>
#include <stdio.h>

/* Field widths of the codes (ARCHITECTURE.md 19.1): the C enums' values. */
enum {
    PROC_EVENT_BITS = 2, /* stc_coh_proc_event: Load 0, Store 1, Evict 2 */
    BUS_BITS = 3,        /* stc_coh_bus: none 0, BusRd 1, BusRdX 2, BusUpgr 3, BusWB 4 */
    SP_EVENT_BITS = 4,   /* stc_coh_sp_event: Load 0 .. Other-PutM 9 */
    SP_REQ_BITS = 3,     /* stc_coh_sp_req: none 0, GetS 1, GetM 2, PutM 3, PutE 4 */
    SP_OUTCOME_BITS = 2, /* act 0, stall 1, impossible 2 */
    SP_PERFORM_BITS = 2, /* none 0, load 1, store 2 */
    SP_SEND_BITS = 2     /* none 0, now 1, later 2 */
};

static const char *protocol_upper(const stcgen_params *params)
{
    static const char *const names[STC_COH_PROTOCOL_COUNT] = {"MSI", "MESI", "MOESI"};
    return names[params->coh_protocol];
}

static void module_start(stcgen_text *text, const stcgen_file *file,
                         const stcgen_params *params)
{
    stcgen_text_header(text, &stcgen_comment_slashes, file->name, file->title, params);
    stcgen_text_blank(text);
    stcgen_text_line(text, STCGEN_TIMESCALE);
    stcgen_text_line(text, "`default_nettype none");
    stcgen_text_blank(text);
}

static void module_end(stcgen_text *text)
{
    stcgen_text_line(text, "endmodule");
    stcgen_text_blank(text);
    stcgen_text_line(text, "`resetall");
}

/* "// State codes: 0 I, 1 S, 2 M." from the table's list. */
static void atomic_state_comment(stcgen_text *text, const stc_coh_table *table)
{
    char line[160];
    int used = snprintf(line, sizeof line, "// State codes:");
    for (unsigned index = 0; index < table->state_count && used < (int)sizeof line; index++) {
        used += snprintf(line + used, sizeof line - (size_t)used, " %u %s%s", index,
                         stc_coh_state_name(table->states[index]),
                         index + 1 < table->state_count ? "," : ".");
    }
    stcgen_text_line(text, "%s", line);
}

/* The split table's states, a few to a line. */
static void split_state_comment(stcgen_text *text, const stc_coh_sp_table *table)
{
    stcgen_text_line(text, "// State codes (stable states first):");
    char line[160];
    int used = 0;
    for (unsigned index = 0; index < table->state_count; index++) {
        if (used == 0) {
            used = snprintf(line, sizeof line, "//  ");
        }
        used += snprintf(line + used, sizeof line - (size_t)used, " %u %s%s", index,
                         stc_coh_sp_state_name(table->states[index]),
                         index + 1 < table->state_count ? "," : ".");
        if (used > 64 || index + 1 == table->state_count) {
            stcgen_text_line(text, "%s", line);
            used = 0;
        }
    }
}

static unsigned bool_bit(bool value)
{
    return value ? 1u : 0u;
}

/* One port of a table module; an output's value for a pair that is not a
 * row is `idle` (the state unchanged, nothing done). */
typedef struct {
    bool input;
    unsigned width;
    const char *name;
    const char *idle;
    const char *what;
} table_port;

static void emit_ports(stcgen_text *text, const char *module, const table_port *ports,
                       size_t count)
{
    stcgen_text_line(text, "module %s (", module);
    stcgen_text_in(text);
    for (size_t index = 0; index < count; index++) {
        const table_port *port = &ports[index];
        char range[16] = "";
        if (port->width > 1) {
            snprintf(range, sizeof range, "[%u:0]", port->width - 1);
        }
        char name[40];
        snprintf(name, sizeof name, "%s%s", port->name, index + 1 < count ? "," : "");
        stcgen_text_line(text, "%s %-5s %-17s // %s", port->input ? "input  wire" : "output reg ",
                         range, name, port->what);
    }
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
    stcgen_text_blank(text);
    stcgen_text_in(text);
    stcgen_text_line(text, "always @* begin");
    stcgen_text_in(text);
    for (size_t index = 0; index < count; index++) {
        const table_port *port = &ports[index];
        if (port->input) {
            continue;
        }
        if (port->idle) {
            stcgen_text_line(text, "%-16s = %s;", port->name, port->idle);
        } else {
            stcgen_text_line(text, "%-16s = %u'd0;", port->name, port->width);
        }
    }
}

/* The end of the case statement, the always block and the module. */
static void emit_case_end(stcgen_text *text, const stcgen_params *params)
{
    stcgen_text_line(text, "default: ;  // not a pair of %s: known_o = 0", protocol_upper(params));
    stcgen_text_out(text);
    stcgen_text_line(text, "endcase");
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_out(text);
    stcgen_text_blank(text);
    module_end(text);
}

void stcgen_emit_coh_proc_table(stcgen_text *text, const stcgen_file *file,
                                const stcgen_params *params)
{
    const stc_coh_table *table = &params->coh_table;
    const unsigned sb = params->coh_state_bits;
    const table_port ports[] = {
        {true, sb, "state_i", NULL, "the block's state in this cache"},
        {true, PROC_EVENT_BITS, "event_i", NULL, "the processor's event"},
        {false, 1, "known_o", NULL, "(state, event) is a row of the protocol"},
        {false, sb, "next_alone_o", "state_i", "next state if no other cache asserts shared"},
        {false, sb, "next_shared_o", "state_i", "next state if one does (differs on BusRd only)"},
        {false, BUS_BITS, "bus_o", NULL, "the transaction issued"},
        {false, 1, "hit_o", NULL, "the block was valid here"},
        {false, 1, "impossible_o", NULL, "the protocol excludes the pair"},
    };
    module_start(text, file, params);
    stcgen_text_line(text, "// stc_coh_proc_table: the processor rows of %s on the atomic bus",
                     protocol_upper(params));
    stcgen_text_line(text, "// (docs/COHERENCE.md 3.4; ARCHITECTURE.md 19.1): for a block in");
    stcgen_text_line(text, "// state_i, what this cache does when its own processor loads, stores");
    stcgen_text_line(text, "// or evicts it.");
    atomic_state_comment(text, table);
    stcgen_text_line(text, "// Events: 0 Load, 1 Store, 2 Evict. Bus: 0 none, 1 BusRd, 2 BusRdX,");
    stcgen_text_line(text, "// 3 BusUpgr, 4 BusWB.");
    emit_ports(text, "stc_coh_proc_table", ports, sizeof ports / sizeof ports[0]);
    stcgen_text_line(text, "case ({state_i, event_i})");
    stcgen_text_in(text);
    for (unsigned index = 0; index < table->proc_row_count; index++) {
        const stc_coh_proc_row *row = &table->proc_rows[index];
        unsigned key = (stc_coh_state_code(table, row->state) << PROC_EVENT_BITS) | row->event;
        stcgen_text_line(text, "%u'd%u: begin  // %s %s -> %s / %s, %s%s", sb + PROC_EVENT_BITS,
                         key, stc_coh_state_name(row->state),
                         stc_coh_proc_event_name(row->event), stc_coh_state_name(row->next_alone),
                         stc_coh_state_name(row->next_shared), stc_coh_bus_name(row->bus),
                         row->impossible ? ", impossible" : "");
        stcgen_text_in(text);
        stcgen_text_line(text, "known_o = 1'b1; next_alone_o = %u'd%u; next_shared_o = %u'd%u;",
                         sb, stc_coh_state_code(table, row->next_alone), sb,
                         stc_coh_state_code(table, row->next_shared));
        stcgen_text_line(text, "bus_o = %u'd%u; hit_o = 1'b%u; impossible_o = 1'b%u;", BUS_BITS,
                         (unsigned)row->bus, bool_bit(row->hit), bool_bit(row->impossible));
        stcgen_text_out(text);
        stcgen_text_line(text, "end");
    }
    emit_case_end(text, params);
}

void stcgen_emit_coh_snoop_table(stcgen_text *text, const stcgen_file *file,
                                 const stcgen_params *params)
{
    const stc_coh_table *table = &params->coh_table;
    const unsigned sb = params->coh_state_bits;
    const table_port ports[] = {
        {true, sb, "state_i", NULL, "this cache's state of the block"},
        {true, BUS_BITS, "bus_i", NULL, "the snooped transaction"},
        {false, 1, "known_o", NULL, "(state, transaction) is a row of the protocol"},
        {false, sb, "next_o", "state_i", "the state after it"},
        {false, 1, "supplies_o", NULL, "puts its copy on the bus for the requester"},
        {false, 1, "flushes_o", NULL, "writes its copy back to memory"},
        {false, 1, "asserts_shared_o", NULL, "raises the shared line"},
        {false, 1, "impossible_o", NULL, "the protocol excludes the pair"},
    };
    module_start(text, file, params);
    stcgen_text_line(text, "// stc_coh_snoop_table: the snoop rows of %s on the atomic bus",
                     protocol_upper(params));
    stcgen_text_line(text, "// (docs/COHERENCE.md 3.4; ARCHITECTURE.md 19.1): for a block in");
    stcgen_text_line(text, "// state_i, what this cache does when it observes another cache's");
    stcgen_text_line(text, "// transaction bus_i.");
    atomic_state_comment(text, table);
    stcgen_text_line(text, "// Bus: 1 BusRd, 2 BusRdX, 3 BusUpgr, 4 BusWB (0, none, is never");
    stcgen_text_line(text, "// snooped).");
    emit_ports(text, "stc_coh_snoop_table", ports, sizeof ports / sizeof ports[0]);
    stcgen_text_line(text, "case ({state_i, bus_i})");
    stcgen_text_in(text);
    for (unsigned index = 0; index < table->snoop_row_count; index++) {
        const stc_coh_snoop_row *row = &table->snoop_rows[index];
        unsigned key = (stc_coh_state_code(table, row->state) << BUS_BITS) | row->bus;
        stcgen_text_line(text, "%u'd%u: begin  // %s snoops %s -> %s%s%s%s%s", sb + BUS_BITS, key,
                         stc_coh_state_name(row->state), stc_coh_bus_name(row->bus),
                         stc_coh_state_name(row->next), row->supplies ? ", supplies" : "",
                         row->flushes ? ", flushes" : "",
                         row->asserts_shared ? ", asserts shared" : "",
                         row->impossible ? ", impossible" : "");
        stcgen_text_in(text);
        stcgen_text_line(text, "known_o = 1'b1; next_o = %u'd%u; supplies_o = 1'b%u;", sb,
                         stc_coh_state_code(table, row->next), bool_bit(row->supplies));
        stcgen_text_line(text, "flushes_o = 1'b%u; asserts_shared_o = 1'b%u; impossible_o = 1'b%u;",
                         bool_bit(row->flushes), bool_bit(row->asserts_shared),
                         bool_bit(row->impossible));
        stcgen_text_out(text);
        stcgen_text_line(text, "end");
    }
    emit_case_end(text, params);
}

static const char *const outcome_names[] = {"act", "stall", "impossible"};

void stcgen_emit_coh_sp_table(stcgen_text *text, const stcgen_file *file,
                              const stcgen_params *params)
{
    const stc_coh_sp_table *table = &params->coh_sp_table;
    const unsigned sb = params->coh_state_bits;
    const table_port ports[] = {
        {true, sb, "state_i", NULL, "the block's state in this cache"},
        {true, SP_EVENT_BITS, "event_i", NULL, "the event"},
        {false, 1, "known_o", NULL, "(state, event) is a row of the protocol"},
        {false, SP_OUTCOME_BITS, "outcome_o", NULL, "act, stall or impossible"},
        {false, sb, "next_o", "state_i", "the state after the row (shared line low)"},
        {false, sb, "next_shared_o", "state_i", "after Own-GetS with the shared line raised"},
        {false, SP_REQ_BITS, "issue_o", NULL, "the request put in the queue"},
        {false, SP_PERFORM_BITS, "perform_o", NULL, "the processor's load or store done now"},
        {false, SP_SEND_BITS, "to_requester_o", NULL, "the block sent to the other requester"},
        {false, SP_SEND_BITS, "to_memory_o", NULL, "the block sent to memory"},
        {false, 1, "asserts_shared_o", NULL, "Other-GetS: raises the shared line"},
    };
    module_start(text, file, params);
    stcgen_text_line(text, "// stc_coh_sp_table: %s on the split-transaction bus",
                     protocol_upper(params));
    stcgen_text_line(text, "// (docs/COHERENCE.md 8.2, 8.7; ARCHITECTURE.md 19.1): for a block in");
    stcgen_text_line(text, "// state_i, the row of event_i.");
    split_state_comment(text, table);
    stcgen_text_line(text, "// Events: 0 Load, 1 Store, 2 Evict, 3 Own-GetS, 4 Own-GetM,");
    stcgen_text_line(text, "// 5 Own-PutM, 6 Own-Data, 7 Other-GetS, 8 Other-GetM, 9 Other-PutM.");
    stcgen_text_line(text, "// Outcome: 0 act, 1 stall (a processor event waits), 2 impossible.");
    stcgen_text_line(text, "// Requests: 0 none, 1 GetS, 2 GetM, 3 PutM, 4 PutE. Perform: 0 none,");
    stcgen_text_line(text, "// 1 load, 2 store. Send: 0 none, 1 now, 2 later (promised, kept by");
    stcgen_text_line(text, "// the Own-Data row).");
    emit_ports(text, "stc_coh_sp_table", ports, sizeof ports / sizeof ports[0]);
    stcgen_text_line(text, "case ({state_i, event_i})");
    stcgen_text_in(text);
    for (unsigned index = 0; index < table->row_count; index++) {
        const stc_coh_sp_row *row = &table->rows[index];
        unsigned next = stc_coh_sp_state_code(table, row->next);
        unsigned next_shared = stc_coh_sp_state_code(table, row->next_shared);
        unsigned key = (stc_coh_sp_state_code(table, row->state) << SP_EVENT_BITS) | row->event;
        stcgen_text_line(text, "%u'd%u: begin  // %s %s: %s -> %s", sb + SP_EVENT_BITS, key,
                         stc_coh_sp_state_name(row->state), stc_coh_sp_event_name(row->event),
                         outcome_names[row->outcome], stc_coh_sp_state_name(row->next));
        stcgen_text_in(text);
        stcgen_text_line(text, "known_o = 1'b1; outcome_o = %u'd%u; next_o = %u'd%u;",
                         SP_OUTCOME_BITS, (unsigned)row->outcome, sb, next);
        stcgen_text_line(text, "next_shared_o = %u'd%u; issue_o = %u'd%u; perform_o = %u'd%u;", sb,
                         next_shared, SP_REQ_BITS, (unsigned)row->issue,
                         SP_PERFORM_BITS, (unsigned)row->perform);
        stcgen_text_line(text, "to_requester_o = %u'd%u; to_memory_o = %u'd%u; "
                         "asserts_shared_o = 1'b%u;", SP_SEND_BITS, (unsigned)row->to_requester,
                         SP_SEND_BITS, (unsigned)row->to_memory, bool_bit(row->asserts_shared));
        stcgen_text_out(text);
        stcgen_text_line(text, "end");
    }
    emit_case_end(text, params);
}
