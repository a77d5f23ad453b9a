/*
 * stccohtb - write a self-checking Verilog testbench for the coherence
 * protocol's table modules that `stcgen --protocol P [--bus B]` writes
 * (docs/ARCHITECTURE.md 19.1), with every expected answer taken from the C
 * model's lookups (stc_coh_proc_lookup, stc_coh_snoop_lookup,
 * stc_coh_sp_lookup) of the protocol's own table.
 *
 * The testbench drives every input code the modules' ports can carry (state
 * codes beyond the protocol's states and event codes beyond its events
 * included: they must answer known_o = 0, state unchanged, no action) and
 * compares every output. The generator walks the table's row list to write
 * case items; this program asks the lookup functions per pair, so a row
 * emitted under the wrong key, a wrong field or a missing row shows. It
 * prints "PASS N checks" or "FAIL M of N checks" after at most ten
 * mismatches named by state and event (tests/coh-rtl-checks.sh reads it).
 */
#include "coherence_protocol.h"
#include "tb_common.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
    ERR_LEN = 256,
    PROC_EVENT_BITS = 2, /* the port widths of ARCHITECTURE.md 19.1 */
    BUS_BITS = 3,
    SP_EVENT_BITS = 4
};

static const char usage_text[] =
    "usage: stccohtb --protocol msi|mesi|moesi [--bus atomic|split]\n"
    "       stccohtb --arbiter N\n"
    "Write on stdout a Verilog testbench (module tb_coh_tables) checking the\n"
    "table modules of `stcgen --protocol P --bus B` against the C model's table,\n"
    "every input code (docs/ARCHITECTURE.md 19.1); or, with --arbiter, one\n"
    "(module tb_coh_arbiter) checking stc_coh_arbiter of `stcgen --cores N`\n"
    "against a round-robin reference on seeded traffic, cycle by cycle, and its\n"
    "fairness bound (19.3). The testbench prints PASS or FAIL.\n";

/* A compare task NAME: drives the state and the second input (the reg
 * named input, an event or bus code), waits, compares the concatenated
 * outputs with the expected ones, names the pair on a mismatch. */
static void write_check_task(const char *name, unsigned sb, const char *input, unsigned input_bits,
                             unsigned out_bits, const char *outputs)
{
    printf("  task %s(input [%u:0] s, input [%u:0] e, input [%u:0] expected,\n", name, sb - 1,
           input_bits - 1, out_bits - 1);
    printf("            input [8*24-1:0] pair);\n");
    printf("    begin\n");
    printf("      state = s;\n");
    printf("      %s = e;\n", input);
    printf("      #1;\n");
    printf("      checks = checks + 1;\n");
    printf("      if (%s !== expected) begin\n", outputs);
    printf("        errors = errors + 1;\n");
    printf("        if (errors <= 10) begin\n");
    printf("          $display(\"MISMATCH %%0s (state %%0d, %s %%0d): rtl %%b expected "
           "%%b\",\n", input);
    printf("                   pair, s, e, %s, expected);\n", outputs);
    printf("        end\n");
    printf("      end\n");
    printf("    end\n");
    printf("  endtask\n\n");
}

static void write_end(void)
{
    tb_print_verdict();
    printf("  end\n");
    printf("endmodule\n");
}

static void write_atomic(const stc_coh_table *table)
{
    const unsigned sb = tb_bits_for(table->state_count);
    /* proc outputs: known, next_alone, next_shared, bus, hit, impossible */
    const unsigned proc_bits = 1 + sb + sb + BUS_BITS + 1 + 1;
    /* snoop outputs: known, next, supplies, flushes, asserts_shared, impossible */
    const unsigned snoop_bits = 1 + sb + 4;
    printf("  reg  [%u:0] state;\n  reg  [%u:0] event_code;\n  reg  [%u:0] bus;\n", sb - 1,
           PROC_EVENT_BITS - 1, BUS_BITS - 1);
    printf("  wire p_known, p_hit, p_impossible;\n  wire [%u:0] p_next_alone, p_next_shared;\n",
           sb - 1);
    printf("  wire [%u:0] p_bus;\n", BUS_BITS - 1);
    printf("  wire s_known, s_supplies, s_flushes, s_shared, s_impossible;\n");
    printf("  wire [%u:0] s_next;\n", sb - 1);
    printf("  integer checks = 0;\n  integer errors = 0;\n\n");
    printf("  stc_coh_proc_table u_proc (.state_i(state), .event_i(event_code),\n"
           "    .known_o(p_known),\n"
           "    .next_alone_o(p_next_alone), .next_shared_o(p_next_shared), .bus_o(p_bus),\n"
           "    .hit_o(p_hit), .impossible_o(p_impossible));\n");
    printf("  stc_coh_snoop_table u_snoop (.state_i(state), .bus_i(bus), .known_o(s_known),\n"
           "    .next_o(s_next), .supplies_o(s_supplies), .flushes_o(s_flushes),\n"
           "    .asserts_shared_o(s_shared), .impossible_o(s_impossible));\n\n");
    write_check_task("check_proc", sb, "event_code", PROC_EVENT_BITS, proc_bits,
                     "{p_known, p_next_alone, p_next_shared, p_bus, p_hit, p_impossible}");
    write_check_task("check_snoop", sb, "bus", BUS_BITS, snoop_bits,
                     "{s_known, s_next, s_supplies, s_flushes, s_shared, s_impossible}");
    printf("  initial begin\n    bus = %u'd0;\n", BUS_BITS);
    for (unsigned code = 0; code < (1u << sb); code++) {
        bool in_protocol = code < table->state_count;
        for (unsigned event = 0; event < (1u << PROC_EVENT_BITS); event++) {
            const stc_coh_proc_row *row =
                in_protocol && event < STC_COH_PROC_EVENT_COUNT
                    ? stc_coh_proc_lookup(table, table->states[code], (stc_coh_proc_event)event)
                    : NULL;
            char pair[32];
            snprintf(pair, sizeof pair, "%s %s",
                     in_protocol ? stc_coh_state_name(table->states[code]) : "?",
                     event < STC_COH_PROC_EVENT_COUNT ? stc_coh_proc_event_name(event) : "?");
            if (row) {
                printf("    check_proc(%u'd%u, %u'd%u, {1'b1, %u'd%u, %u'd%u, %u'd%u, 1'b%d, "
                       "1'b%d}, \"%s\");\n", sb, code, PROC_EVENT_BITS, event, sb,
                       stc_coh_state_code(table, row->next_alone), sb,
                       stc_coh_state_code(table, row->next_shared), BUS_BITS, (unsigned)row->bus,
                       row->hit, row->impossible, pair);
            } else {
                printf("    check_proc(%u'd%u, %u'd%u, {1'b0, %u'd%u, %u'd%u, %u'd0, 1'b0, 1'b0}, "
                       "\"%s\");\n", sb, code, PROC_EVENT_BITS, event, sb, code, sb, code,
                       BUS_BITS, pair);
            }
        }
        for (unsigned bus = 0; bus < (1u << BUS_BITS); bus++) {
            const stc_coh_snoop_row *row =
                in_protocol && bus > STC_COH_BUS_NONE && bus < STC_COH_BUS_COUNT
                    ? stc_coh_snoop_lookup(table, table->states[code], (stc_coh_bus)bus)
                    : NULL;
            char pair[32];
            snprintf(pair, sizeof pair, "%s snoops %s",
                     in_protocol ? stc_coh_state_name(table->states[code]) : "?",
                     bus < STC_COH_BUS_COUNT ? stc_coh_bus_name(bus) : "?");
            if (row) {
                printf("    check_snoop(%u'd%u, %u'd%u, {1'b1, %u'd%u, 1'b%d, 1'b%d, 1'b%d, "
                       "1'b%d}, \"%s\");\n", sb, code, BUS_BITS, bus, sb,
                       stc_coh_state_code(table, row->next), row->supplies, row->flushes,
                       row->asserts_shared, row->impossible, pair);
            } else {
                printf("    check_snoop(%u'd%u, %u'd%u, {1'b0, %u'd%u, 4'b0000}, \"%s\");\n", sb,
                       code, BUS_BITS, bus, sb, code, pair);
            }
        }
    }
    write_end();
}

static void write_split(const stc_coh_sp_table *table)
{
    const unsigned sb = tb_bits_for(table->state_count);
    /* known, outcome 2, next, next_shared, issue 3, perform 2, to_requester 2,
     * to_memory 2, asserts_shared */
    const unsigned out_bits = 1 + 2 + sb + sb + 3 + 2 + 2 + 2 + 1;
    printf("  reg  [%u:0] state;\n  reg  [%u:0] event_code;\n", sb - 1, SP_EVENT_BITS - 1);
    printf("  wire known, shared;\n  wire [1:0] outcome, perform, to_requester, to_memory;\n");
    printf("  wire [%u:0] next, next_shared;\n  wire [2:0] issue;\n", sb - 1);
    printf("  integer checks = 0;\n  integer errors = 0;\n\n");
    printf("  stc_coh_sp_table u_table (.state_i(state), .event_i(event_code), .known_o(known),\n"
           "    .outcome_o(outcome), .next_o(next), .next_shared_o(next_shared), "
           ".issue_o(issue),\n"
           "    .perform_o(perform), .to_requester_o(to_requester), .to_memory_o(to_memory),\n"
           "    .asserts_shared_o(shared));\n\n");
    write_check_task("check", sb, "event_code", SP_EVENT_BITS, out_bits,
                     "{known, outcome, next, next_shared, issue, perform, to_requester, "
                     "to_memory, shared}");
    printf("  initial begin\n");
    for (unsigned code = 0; code < (1u << sb); code++) {
        bool in_protocol = code < table->state_count;
        for (unsigned event = 0; event < (1u << SP_EVENT_BITS); event++) {
            const stc_coh_sp_row *row =
                in_protocol && event < STC_COH_SP_EVENT_COUNT
                    ? stc_coh_sp_lookup(table, table->states[code], (stc_coh_sp_event)event)
                    : NULL;
            char pair[48];
            snprintf(pair, sizeof pair, "%s %s",
                     in_protocol ? stc_coh_sp_state_name(table->states[code]) : "?",
                     event < STC_COH_SP_EVENT_COUNT ? stc_coh_sp_event_name(event) : "?");
            if (row) {
                printf("    check(%u'd%u, %u'd%u, {1'b1, 2'd%u, %u'd%u, %u'd%u, 3'd%u, 2'd%u, "
                       "2'd%u, 2'd%u, 1'b%d}, \"%s\");\n", sb, code, SP_EVENT_BITS, event,
                       (unsigned)row->outcome, sb, stc_coh_sp_state_code(table, row->next), sb,
                       stc_coh_sp_state_code(table, row->next_shared), (unsigned)row->issue,
                       (unsigned)row->perform, (unsigned)row->to_requester,
                       (unsigned)row->to_memory, row->asserts_shared, pair);
            } else {
                printf("    check(%u'd%u, %u'd%u, {1'b0, 2'd0, %u'd%u, %u'd%u, 3'd0, 2'd0, 2'd0, "
                       "2'd0, 1'b0}, \"%s\");\n", sb, code, SP_EVENT_BITS, event, sb, code, sb,
                       code, pair);
            }
        }
    }
    write_end();
}

/* ---- the arbiter (ARCHITECTURE.md 19.3) ---- */

enum { ARBITER_CYCLES = 4000 };

/* The rule of 19.3: the first requester after last, cyclically; -1 if none. */
static int round_robin(unsigned cores, unsigned last, unsigned req)
{
    for (unsigned step = 1; step <= cores; step++) {
        unsigned core = (last + step) % cores;
        if (req >> core & 1u) {
            return (int)core;
        }
    }
    return -1;
}

/* Traffic as cores make it: a core that asks keeps asking until granted,
 * then pauses a few cycles; the bus is free about one cycle in three (a
 * tenure lasts a few cycles). Each cycle: drive req and free, compare the
 * grant with the rule's, clock. The testbench also counts, per core, the
 * tenures granted to others while it waited, which must stay below cores. */
static void write_arbiter(unsigned cores)
{
    unsigned ib = tb_bits_for(cores);
    printf("  reg         clk = 1'b0;\n  reg         rst_n = 1'b0;\n");
    printf("  reg  [%u:0] req;\n  reg         free;\n", cores - 1);
    printf("  wire [%u:0] grant;\n  wire [%u:0] grant_idx;\n", cores - 1, ib - 1);
    printf("  integer checks = 0;\n  integer errors = 0;\n  integer waited [0:%u];\n"
           "  integer worst = 0;\n  integer core;\n\n", cores - 1);
    printf("  stc_coh_arbiter u_arbiter (.clk_i(clk), .rst_ni(rst_n), .req_i(req), "
           ".free_i(free),\n    .grant_o(grant), .grant_idx_o(grant_idx));\n\n");
    printf("  task step(input [%u:0] r, input f, input [%u:0] expected_grant,\n"
           "            input [%u:0] expected_idx, input integer cycle);\n", cores - 1, cores - 1,
           ib - 1);
    printf("    begin\n      req = r;\n      free = f;\n      #1;\n      checks = checks + 1;\n");
    printf("      if (grant !== expected_grant || (grant != 0 && grant_idx !== expected_idx)) "
           "begin\n");
    printf("        errors = errors + 1;\n        if (errors <= 10)\n");
    printf("          $display(\"MISMATCH cycle %%0d: req %%b free %%b: grant %%b (%%0d), "
           "expected %%b (%%0d)\",\n");
    printf("                   cycle, r, f, grant, grant_idx, expected_grant, expected_idx);\n");
    printf("      end\n");
    printf("      for (core = 0; core < %u; core = core + 1) begin\n", cores);
    printf("        if (grant[core]) waited[core] = 0;\n");
    printf("        else if (r[core] && grant != 0) waited[core] = waited[core] + 1;\n");
    printf("        if (waited[core] > worst) worst = waited[core];\n");
    printf("      end\n");
    printf("      clk = 1'b1;\n      #1;\n      clk = 1'b0;\n    end\n  endtask\n\n");
    printf("  initial begin\n");
    printf("    for (core = 0; core < %u; core = core + 1) waited[core] = 0;\n", cores);
    printf("    req = %u'd0;\n    free = 1'b0;\n    #1;\n    rst_n = 1'b1;\n    #1;\n", cores);
    uint64_t seed = 0x9e3779b97f4a7c15ull ^ cores;
    unsigned last = cores - 1;
    unsigned req = 0;
    unsigned pause[8] = {0};
    for (unsigned cycle = 0; cycle < ARBITER_CYCLES; cycle++) {
        for (unsigned core = 0; core < cores; core++) {
            if (!(req >> core & 1u)) {
                if (pause[core]) {
                    pause[core]--;
                } else if (tb_next_random(&seed) % 3 == 0) {
                    req |= 1u << core;
                }
            }
        }
        bool free = tb_next_random(&seed) % 3 == 0;
        int grant = free ? round_robin(cores, last, req) : -1;
        printf("    step(%u'b", cores);
        for (unsigned bit = cores; bit-- > 0;) {
            putchar(req >> bit & 1u ? '1' : '0');
        }
        printf(", 1'b%d, %u'd%u, %u'd%u, %u);\n", free, cores,
               grant < 0 ? 0u : 1u << grant, ib, grant < 0 ? last : (unsigned)grant, cycle);
        if (grant >= 0) {
            last = (unsigned)grant;
            req &= ~(1u << grant);
            pause[grant] = (unsigned)(tb_next_random(&seed) % 4);
        }
    }
    printf("    if (worst >= %u) begin\n", cores);
    printf("      errors = errors + 1;\n");
    printf("      $display(\"UNFAIR: a core waited %%0d tenures of others (at most %u)\", "
           "worst);\n", cores - 1);
    printf("    end\n");
    write_end();
}

int main(int argc, char **argv)
{
    bool have_protocol = false;
    unsigned arbiter_cores = 0;
    stc_coh_protocol protocol = STC_COH_MSI;
    stc_coh_bus_model bus = STC_COH_BUS_ATOMIC;
    char err[ERR_LEN];
    for (int index = 1; index < argc; index++) {
        const char *arg = argv[index];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            fputs(usage_text, stdout);
            return 0;
        }
        bool is_protocol = strcmp(arg, "--protocol") == 0;
        bool is_arbiter = strcmp(arg, "--arbiter") == 0;
        if ((!is_protocol && !is_arbiter && strcmp(arg, "--bus") != 0) || index + 1 >= argc) {
            fprintf(stderr, "stccohtb: %s: %s\n%s", arg,
                    index + 1 >= argc ? "needs a value or is unknown" : "unknown option",
                    usage_text);
            return 2;
        }
        const char *value = argv[++index];
        if (is_arbiter) {
            char *end = NULL;
            unsigned long parsed = strtoul(value, &end, 10);
            if (!*value || *end || parsed < 2 || parsed > 8) {
                fprintf(stderr, "stccohtb: --arbiter %s: must be from 2 to 8\n", value);
                return 2;
            }
            arbiter_cores = (unsigned)parsed;
            continue;
        }
        int status = is_protocol ? stc_coh_protocol_parse(value, &protocol, err, sizeof err)
                                 : stc_coh_bus_model_parse(value, &bus, err, sizeof err);
        if (status != 0) {
            fprintf(stderr, "stccohtb: %s %s: %s\n", arg, value, err);
            return 2;
        }
        have_protocol = have_protocol || is_protocol;
    }
    if (arbiter_cores) {
        printf("// tb_coh_arbiter: %u cores; written by tools/stccohtb.c from its round-robin\n"
               "// reference (docs/ARCHITECTURE.md 19.3). Prints PASS or FAIL.\n",
               arbiter_cores);
        printf("`timescale 1ns / 1ps\n`default_nettype none\n\nmodule tb_coh_arbiter;\n");
        write_arbiter(arbiter_cores);
        printf("\n`resetall\n");
        return ferror(stdout) ? 1 : 0;
    }
    if (!have_protocol) {
        fprintf(stderr, "stccohtb: --protocol is required\n%s", usage_text);
        return 2;
    }
    printf("// tb_coh_tables: %s, %s bus; written by tools/stccohtb.c from the C model's\n"
           "// table (docs/ARCHITECTURE.md 19.1). Every input code; prints PASS or FAIL.\n",
           stc_coh_protocol_name(protocol), stc_coh_bus_model_name(bus));
    printf("`timescale 1ns / 1ps\n`default_nettype none\n\nmodule tb_coh_tables;\n");
    if (bus == STC_COH_BUS_SPLIT) {
        write_split(stc_coh_sp_table_of(protocol));
    } else {
        write_atomic(stc_coh_table_of(protocol));
    }
    printf("\n`resetall\n");
    return ferror(stdout) ? 1 : 0;
}
