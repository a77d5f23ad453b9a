/*
 * emit_coh_snoop.c - stc_coh_snoop, one core's snoop port on the atomic bus
 * (docs/ARCHITECTURE.md 19.4): the duplicate snoop-tag array that 19.2
 * decided on, its lookup in a transaction's address phase, and the
 * protocol's snoop row for what it finds.
 *
 * The array holds, per bank and row, the state code and the cache's full
 * tag (the tag SRAM's word); the controller writes it (wr_*), and a snoop
 * whose row changes the state writes its slot's new state itself, in its
 * own cycle, on the array's second write port (19.5). The lookup
 * follows the controller's candidate rule (section 3): powered banks whose
 * low log2(groups) bits equal the tag's.
 */
#include "emit.h"

#include <stdio.h>
#include <string.h>

static bool break_is(const stcgen_params *params, const char *name)
{
    return params->coh_break && strcmp(params->coh_break, name) == 0;
}

static unsigned at_least_one(unsigned bits)
{
    return bits ? bits : 1;
}

static void emit_ports(stcgen_text *text, const stcgen_params *params)
{
    const stc_geometry *g = &params->geometry;
    const unsigned sb = params->coh_state_bits;
    const unsigned bank_idx = at_least_one(g->bank_bits);
    stcgen_text_line(text, "module stc_coh_snoop (");
    stcgen_text_in(text);
    stcgen_text_line(text, "input  wire              clk_i,");
    stcgen_text_line(text, "// the configuration in use (stc_cache_ctrl's cfg_*_o)");
    stcgen_text_line(text, "input  wire [2:0]        cfg_banks_log_i,");
    stcgen_text_line(text, "input  wire [2:0]        cfg_ways_log_i,");
    stcgen_text_line(text, "// the controller's write of its copy: the slots of row wr_row_i in");
    stcgen_text_line(text, "// wr_banks_i take wr_state_i, and wr_tag_i too if wr_set_tag_i");
    stcgen_text_line(text, "input  wire              wr_valid_i,");
    stcgen_text_line(text, "input  wire [%u:0]        wr_row_i,", g->row_bits - 1);
    stcgen_text_line(text, "input  wire [%u:0]        wr_banks_i,", g->banks - 1);
    stcgen_text_line(text, "input  wire [%u:0]        wr_state_i,", sb - 1);
    stcgen_text_line(text, "input  wire              wr_set_tag_i,");
    stcgen_text_line(text, "input  wire [%u:0]       wr_tag_i,", g->tag_bits - 1);
    stcgen_text_line(text, "// another core's transaction in its address phase");
    stcgen_text_line(text, "input  wire              snp_valid_i,");
    stcgen_text_line(text, "input  wire [%u:0]       snp_line_i,       // physical line number",
                     params->coh_line_bits - 1);
    stcgen_text_line(text, "input  wire [2:0]        snp_bus_i,        // BusRd 1, BusRdX 2, "
                     "BusUpgr 3, BusWB 4");
    stcgen_text_line(text, "// what this cache holds of the line, and the protocol's snoop row");
    stcgen_text_line(text, "output wire              snp_hit_o,        // a candidate slot holds "
                     "it (state not I)");
    stcgen_text_line(text, "output wire [%u:0]        snp_bank_o,       // that slot's bank",
                     bank_idx - 1);
    stcgen_text_line(text, "output wire              snp_multi_o,      // more than one slot "
                     "holds it (never legal)");
    stcgen_text_line(text, "output wire [%u:0]        snp_state_o,      // its state (I on a "
                     "miss)", sb - 1);
    stcgen_text_line(text, "output wire [%u:0]        snp_next_o,       // the state after the "
                     "transaction", sb - 1);
    stcgen_text_line(text, "output wire              snp_change_o,     // a hit whose state "
                     "changes");
    stcgen_text_line(text, "output wire              snp_supplies_o,");
    stcgen_text_line(text, "output wire              snp_flushes_o,");
    stcgen_text_line(text, "output wire              snp_shared_o,     // raises the shared line");
    stcgen_text_line(text, "output wire              snp_known_o       // a row of the protocol "
                     "(0: flag it)");
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
}

void stcgen_emit_coh_snoop(stcgen_text *text, const stcgen_file *file,
                           const stcgen_params *params)
{
    const stc_geometry *g = &params->geometry;
    const unsigned banks = g->banks;
    const unsigned sb = params->coh_state_bits;
    const unsigned tb = g->tag_bits;
    const unsigned eb = params->coh_entry_bits;
    const unsigned rb = g->row_bits;
    const unsigned bank_idx = at_least_one(g->bank_bits);
    const bool no_forward = break_is(params, STCGEN_COH_BREAK_SNOOP_NO_FORWARD);
    const bool all_banks = break_is(params, STCGEN_COH_BREAK_SNOOP_ALL_BANKS);

    stcgen_text_header(text, &stcgen_comment_slashes, file->name, file->title, params);
    stcgen_text_blank(text);
    stcgen_text_line(text, STCGEN_TIMESCALE);
    stcgen_text_line(text, "`default_nettype none");
    stcgen_text_blank(text);
    stcgen_text_line(text, "// stc_coh_snoop: one core's snoop port on the atomic bus "
                     "(ARCHITECTURE.md 19.4).");
    stcgen_text_line(text, "// A duplicate of the cache's tags with the coherence state of every "
                     "slot,");
    stcgen_text_line(text, "// %u rows x %u banks x (%u state + %u tag bits) = %u bits in an "
                     "always-on", g->rows, banks, sb, tb, g->rows * banks * eb);
    stcgen_text_line(text, "// register file, read only by snoops, written only by the "
                     "controller");
    stcgen_text_line(text, "// (fills, state changes, invalidations, the reset and "
                     "reconfiguration");
    stcgen_text_line(text, "// walks). A snoop is looked up in its address phase, "
                     "combinationally: the");
    stcgen_text_line(text, "// row of every bank, the candidates of the configuration in use "
                     "(powered");
    stcgen_text_line(text, "// banks whose low log2(groups) bits equal the tag's), a slot "
                     "whose tag");
    stcgen_text_line(text, "// matches and whose state is not I. A write of the same cycle "
                     "to the looked-up");
    stcgen_text_line(text, "// row is seen by the lookup (the controller's change comes first). "
                     "A snoop");
    stcgen_text_line(text, "// that changes the state writes snp_next_o into its slot in its "
                     "own cycle (the");
    stcgen_text_line(text, "// array's second write port, which wins a bit wr_* also writes); "
                     "the");
    stcgen_text_line(text, "// controller applies the same change to its row state "
                     "(snp_change_o).");
    emit_ports(text, params);
    stcgen_text_blank(text);
    stcgen_text_in(text);
    stcgen_text_line(text, "localparam integer SLOT_BITS = %u;  // state [%u:0], "
                     "tag [%u:%u]", eb, sb - 1, eb - 1, sb);
    stcgen_text_blank(text);
    stcgen_text_line(text, "wire [%u:0]  snp_row = snp_line_i[%u:0];", rb - 1, rb - 1);
    stcgen_text_line(text, "wire [%u:0] snp_tag = snp_line_i[%u:%u];", tb - 1,
                     params->coh_line_bits - 1, rb);
    stcgen_text_line(text, "wire [%u:0] row_word;  // row snp_row of every bank", banks * eb - 1);
    stcgen_text_blank(text);
    stcgen_text_line(text, "// The controller's write: every field of the banks written.");
    stcgen_text_line(text, "wire [%u:0] wr_mask;", banks * eb - 1);
    stcgen_text_line(text, "wire [%u:0] wr_word;", banks * eb - 1);
    stcgen_text_line(text, "genvar wb;");
    stcgen_text_line(text, "generate");
    stcgen_text_in(text);
    stcgen_text_line(text, "for (wb = 0; wb < %u; wb = wb + 1) begin : g_wr", banks);
    stcgen_text_line(text, "  assign wr_mask[wb*SLOT_BITS +: SLOT_BITS] = {{%u{wr_banks_i[wb] && wr_set_tag_i}}, "
                     "{%u{wr_banks_i[wb]}}};", tb, sb);
    stcgen_text_line(text, "  assign wr_word[wb*SLOT_BITS +: SLOT_BITS] = {wr_tag_i, wr_state_i};");
    stcgen_text_line(text, "end");
    stcgen_text_out(text);
    stcgen_text_line(text, "endgenerate");
    stcgen_text_blank(text);
    stcgen_text_line(text, "// The snoop's own change: its slot's state bits.");
    stcgen_text_line(text, "wire [%u:0] snp_mask;", banks * eb - 1);
    stcgen_text_line(text, "wire [%u:0] snp_word;", banks * eb - 1);
    stcgen_text_line(text, "generate");
    stcgen_text_in(text);
    stcgen_text_line(text, "for (wb = 0; wb < %u; wb = wb + 1) begin : g_snp_wr", banks);
    stcgen_text_line(text, "  assign snp_mask[wb*SLOT_BITS +: SLOT_BITS] = {{%u{1'b0}}, "
                     "{%u{snp_bank_o == wb}}};", tb, sb);
    stcgen_text_line(text, "  assign snp_word[wb*SLOT_BITS +: SLOT_BITS] = {{%u{1'b0}}, "
                     "snp_next_o};", tb);
    stcgen_text_line(text, "end");
    stcgen_text_out(text);
    stcgen_text_line(text, "endgenerate");
    stcgen_text_blank(text);
    stcgen_text_line(text, "stc_regfile_2w #(.DEPTH(%u), .WIDTH(%u)) u_tags (", g->rows,
                     banks * eb);
    stcgen_text_in(text);
    stcgen_text_line(text, ".clk_i   (clk_i),");
    stcgen_text_line(text, ".raddr_i (snp_row),");
    stcgen_text_line(text, ".rdata_o (row_word),");
    stcgen_text_line(text, ".we_i    (wr_valid_i),");
    stcgen_text_line(text, ".waddr_i (wr_row_i),");
    stcgen_text_line(text, ".wmask_i (wr_mask),");
    stcgen_text_line(text, ".wdata_i (wr_word),");
    stcgen_text_line(text, ".we2_i    (snp_change_o),");
    stcgen_text_line(text, ".waddr2_i (snp_row),");
    stcgen_text_line(text, ".wmask2_i (snp_mask),");
    stcgen_text_line(text, ".wdata2_i (snp_word)");
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
    stcgen_text_blank(text);
    stcgen_text_line(text, "// The configuration: banks 0 .. 2^banks_log - 1 powered, groups = "
                     "banks / ways.");
    stcgen_text_line(text, "wire [6:0]  kcount  = 7'd1 << cfg_banks_log_i;");
    stcgen_text_line(text, "wire [%u:0]  on_mask = ~({%u{1'b1}} << kcount);", banks - 1, banks);
    stcgen_text_line(text, "wire [2:0]  glog    = cfg_banks_log_i - cfg_ways_log_i;");
    stcgen_text_line(text, "wire [31:0] gmask   = ~(32'hffffffff << glog);");
    if (tb < 32) {
        stcgen_text_line(text, "wire [31:0] tag_low = {%u'd0, snp_tag};", 32 - tb);
    } else {
        stcgen_text_line(text, "wire [31:0] tag_low = snp_tag[31:0];");
    }
    stcgen_text_line(text, "wire        fwd     = wr_valid_i && (wr_row_i == snp_row);");
    stcgen_text_blank(text);
    stcgen_text_line(text, "// Per bank: the slot as the lookup sees it, and whether it holds the "
                     "line.");
    stcgen_text_line(text, "wire [%u:0]  match;", banks - 1);
    stcgen_text_line(text, "wire [%u:0]  state_of;  // each bank's slot state", banks * sb - 1);
    stcgen_text_line(text, "genvar gb;");
    stcgen_text_line(text, "generate");
    stcgen_text_in(text);
    stcgen_text_line(text, "for (gb = 0; gb < %u; gb = gb + 1) begin : g_bank", banks);
    stcgen_text_in(text);
    stcgen_text_line(text, "wire [SLOT_BITS-1:0] stored = row_word[gb*SLOT_BITS +: SLOT_BITS];");
    stcgen_text_line(text, "wire [SLOT_BITS-1:0] wmask  = wr_mask[gb*SLOT_BITS +: SLOT_BITS];");
    if (no_forward) {
        stcgen_text_line(text, "// BROKEN (coh-snoop-no-forward): the same cycle's write unseen");
        stcgen_text_line(text, "wire [SLOT_BITS-1:0] slot   = stored;");
    } else {
        stcgen_text_line(text, "wire [SLOT_BITS-1:0] slot   = fwd ? ((stored & ~wmask) | "
                         "(wr_word[gb*SLOT_BITS +: SLOT_BITS] & wmask))");
        stcgen_text_line(text, "                                    : stored;");
    }
    if (all_banks) {
        stcgen_text_line(text, "// BROKEN (coh-snoop-all-banks): every bank a candidate");
        stcgen_text_line(text, "wire                 cand   = 1'b1;");
    } else {
        stcgen_text_line(text, "wire                 cand   = on_mask[gb] && ((gb & gmask) == (tag_low & "
                         "gmask));");
    }
    stcgen_text_line(text, "assign match[gb] = cand && (slot[%u:0] != %u'd0) && (slot[SLOT_BITS-1:%u] "
                     "== snp_tag);", sb - 1, sb, sb);
    stcgen_text_line(text, "assign state_of[gb*%u +: %u] = slot[%u:0];", sb, sb, sb - 1);
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_out(text);
    stcgen_text_line(text, "endgenerate");
    stcgen_text_blank(text);
    stcgen_text_line(text, "// The matching slot (the lowest bank if several: snp_multi_o says so).");
    stcgen_text_line(text, "reg  [%u:0] found_state;", sb - 1);
    stcgen_text_line(text, "reg  [%u:0] found_bank;", bank_idx - 1);
    stcgen_text_line(text, "integer    ob;");
    stcgen_text_line(text, "always @* begin");
    stcgen_text_in(text);
    stcgen_text_line(text, "found_state = %u'd0;", sb);
    stcgen_text_line(text, "found_bank  = %u'd0;", bank_idx);
    stcgen_text_line(text, "for (ob = %u; ob >= 0; ob = ob - 1) begin", banks - 1);
    stcgen_text_line(text, "  if (match[ob]) begin");
    stcgen_text_line(text, "    found_state = state_of[ob*%u +: %u];", sb, sb);
    stcgen_text_line(text, "    found_bank  = ob[%u:0];", bank_idx - 1);
    stcgen_text_line(text, "  end");
    stcgen_text_line(text, "end");
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_blank(text);
    stcgen_text_line(text, "assign snp_hit_o   = snp_valid_i && (match != %u'd0);", banks);
    stcgen_text_line(text, "assign snp_bank_o  = snp_hit_o ? found_bank : %u'd0;", bank_idx);
    stcgen_text_line(text, "assign snp_multi_o = snp_valid_i && ((match & (match - %u'd1)) != "
                     "%u'd0);", banks, banks);
    stcgen_text_line(text, "assign snp_state_o = snp_hit_o ? found_state : %u'd0;", sb);
    stcgen_text_blank(text);
    stcgen_text_line(text, "wire       row_known, row_supplies, row_flushes, row_shared, "
                     "row_impossible;");
    stcgen_text_line(text, "wire [%u:0] row_next;", sb - 1);
    stcgen_text_line(text, "stc_coh_snoop_table u_table (");
    stcgen_text_in(text);
    stcgen_text_line(text, ".state_i          (snp_state_o),");
    stcgen_text_line(text, ".bus_i            (snp_bus_i),");
    stcgen_text_line(text, ".known_o          (row_known),");
    stcgen_text_line(text, ".next_o           (row_next),");
    stcgen_text_line(text, ".supplies_o       (row_supplies),");
    stcgen_text_line(text, ".flushes_o        (row_flushes),");
    stcgen_text_line(text, ".asserts_shared_o (row_shared),");
    stcgen_text_line(text, ".impossible_o     (row_impossible)");
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
    stcgen_text_blank(text);
    stcgen_text_line(text, "// Nothing without a snoop; an impossible row is not a known one.");
    stcgen_text_line(text, "assign snp_known_o    = snp_valid_i && row_known && !row_impossible;");
    stcgen_text_line(text, "assign snp_next_o     = snp_valid_i ? row_next : %u'd0;", sb);
    stcgen_text_line(text, "assign snp_change_o   = snp_hit_o && (row_next != snp_state_o);");
    stcgen_text_line(text, "assign snp_supplies_o = snp_valid_i && row_supplies;");
    stcgen_text_line(text, "assign snp_flushes_o  = snp_valid_i && row_flushes;");
    stcgen_text_line(text, "assign snp_shared_o   = snp_valid_i && row_shared;");
    stcgen_text_out(text);
    stcgen_text_blank(text);
    stcgen_text_line(text, "endmodule");
    stcgen_text_blank(text);
    stcgen_text_line(text, "`resetall");
}
