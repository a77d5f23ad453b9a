/*
 * emit_coh_snoop.c - stc_coh_snoop, one core's snoop port on the atomic bus
 * (docs/ARCHITECTURE.md 19.4): the duplicate snoop-tag array that 19.2
 * decided on, its lookup in a transaction's address phase, and the
 * protocol's snoop row for what it finds.
 *
 * The array holds, per bank and row, the state code and the cache's full
 * tag (the tag SRAM's word), a word per aligned group of 4 rows, so that
 * every line of a burst (1-4 lines of one aligned group) is looked up in
 * the item's address cycle; the controller writes it (wr_*), and a snoop
 * whose row changes a line's state writes its slot's new state itself, in
 * its own cycle, on the array's second write port (19.5). The lookup
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
    stcgen_text_line(text, "// the configuration the lines are placed by (stc_cache_ctrl's "
                     "snp_*_log_o)");
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
    stcgen_text_line(text, "// another core's item in its address cycle: lines of one aligned "
                     "group of 4");
    stcgen_text_line(text, "// physical lines, line p of the group (the line number's low 2 bits) "
                     "snooped");
    stcgen_text_line(text, "// as bus code snp_bus_i[3p +: 3] (BusRd 1, BusRdX 2, BusUpgr 3, "
                     "BusWB 4; 0: not)");
    stcgen_text_line(text, "input  wire              snp_valid_i,");
    stcgen_text_line(text, "input  wire [%u:0]       snp_line_i,       // a line of the group",
                     params->coh_line_bits - 1);
    stcgen_text_line(text, "input  wire [11:0]       snp_bus_i,");
    stcgen_text_line(text, "// per line p of the group: what this cache holds of it, and the "
                     "protocol's");
    stcgen_text_line(text, "// snoop row (all 0 for a line not snooped, but snp_known_o)");
    stcgen_text_line(text, "output wire [3:0]        snp_hit_o,        // a candidate slot holds "
                     "it (state not I)");
    stcgen_text_line(text, "output wire [%u:0]        snp_bank_o,       // that slot's bank, "
                     "%u bits a line", 4 * bank_idx - 1, bank_idx);
    stcgen_text_line(text, "output wire [3:0]        snp_multi_o,      // more than one slot "
                     "holds it (never legal)");
    stcgen_text_line(text, "output wire [%u:0]        snp_state_o,      // its state (I on a "
                     "miss), %u bits a line", 4 * sb - 1, sb);
    stcgen_text_line(text, "output wire [%u:0]        snp_next_o,       // the state after the "
                     "transaction", 4 * sb - 1);
    stcgen_text_line(text, "output wire [3:0]        snp_change_o,     // a hit whose state "
                     "changes");
    stcgen_text_line(text, "output wire [3:0]        snp_supplies_o,");
    stcgen_text_line(text, "output wire [3:0]        snp_flushes_o,");
    stcgen_text_line(text, "output wire [3:0]        snp_shared_o,     // raises the shared line");
    stcgen_text_line(text, "output wire [3:0]        snp_known_o       // not snooped, or a row "
                     "of the protocol (0: flag it)");
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
    stcgen_text_line(text, "// register file of %u words, each the rows of an aligned group of 4 "
                     "lines, read", g->rows / 4);
    stcgen_text_line(text, "// only by snoops, written by the controller (fills, state changes, "
                     "invalidations,");
    stcgen_text_line(text, "// the reset and reconfiguration walks) and by the snoops' own "
                     "changes. An item's");
    stcgen_text_line(text, "// lines (a burst's, 1-4 of one aligned group) are all looked up in "
                     "its address");
    stcgen_text_line(text, "// cycle, combinationally: per line its row, the candidates of the "
                     "configuration");
    stcgen_text_line(text, "// (powered banks whose low log2(groups) bits equal the tag's), a slot "
                     "whose tag");
    stcgen_text_line(text, "// matches and whose state is not I. A write of the same cycle to the "
                     "group is");
    stcgen_text_line(text, "// seen by the lookup (the controller's change comes first). A line "
                     "whose state");
    stcgen_text_line(text, "// changes has snp_next_o written into its slot in the same cycle (the "
                     "array's");
    stcgen_text_line(text, "// second write port, which wins a bit wr_* also writes); the "
                     "controller applies");
    stcgen_text_line(text, "// the same changes to its row state (snp_change_o).");
    emit_ports(text, params);
    stcgen_text_blank(text);
    stcgen_text_in(text);
    stcgen_text_line(text, "localparam integer SLOT_BITS = %u;  // state [%u:0], "
                     "tag [%u:%u]", eb, sb - 1, eb - 1, sb);
    stcgen_text_line(text, "localparam integer ROW_BITS  = %u;  // a row's slots, bank b at "
                     "[b*SLOT_BITS +: SLOT_BITS]", banks * eb);
    stcgen_text_line(text, "localparam integer SB        = %u;   // a state code", sb);
    stcgen_text_line(text, "localparam integer BI        = %u;   // a bank index", bank_idx);
    stcgen_text_blank(text);
    if (rb > 2) {
        stcgen_text_line(text, "wire [%u:0]  snp_group = snp_line_i[%u:2];  // the word read",
                         rb - 3, rb - 1);
        stcgen_text_line(text, "wire [%u:0]  wr_group  = wr_row_i[%u:2];", rb - 3, rb - 1);
    } else {
        stcgen_text_line(text, "wire        snp_group = 1'b0;  // one word: the only group");
        stcgen_text_line(text, "wire        wr_group  = 1'b0;");
    }
    stcgen_text_line(text, "wire [1:0]  wr_pos    = wr_row_i[1:0];");
    stcgen_text_line(text, "wire [1:0]  unused_line_pos = snp_line_i[1:0];  // snp_bus_i places "
                     "the lines");
    stcgen_text_line(text, "wire [%u:0] snp_tag   = snp_line_i[%u:%u];", tb - 1,
                     params->coh_line_bits - 1, rb);
    stcgen_text_line(text, "wire [4*ROW_BITS-1:0] group_word;  // row 4g+p at [p*ROW_BITS +: "
                     "ROW_BITS]");
    stcgen_text_blank(text);
    stcgen_text_line(text, "// The controller's write (every field of the banks written in its "
                     "row), and");
    stcgen_text_line(text, "// the snoops' own changes (their slots' state bits).");
    stcgen_text_line(text, "wire [4*ROW_BITS-1:0] wr_mask, wr_word, snp_mask, snp_word;");
    stcgen_text_line(text, "genvar wp, wb;");
    stcgen_text_line(text, "generate");
    stcgen_text_in(text);
    stcgen_text_line(text, "for (wp = 0; wp < 4; wp = wp + 1) begin : g_wr_line");
    stcgen_text_in(text);
    stcgen_text_line(text, "for (wb = 0; wb < %u; wb = wb + 1) begin : g_wr_bank", banks);
    stcgen_text_in(text);
    stcgen_text_line(text, "localparam integer AT = wp * ROW_BITS + wb * SLOT_BITS;");
    stcgen_text_line(text, "wire wr_here  = (wr_pos == wp) && wr_banks_i[wb];");
    stcgen_text_line(text, "wire snp_here = snp_change_o[wp] && (snp_bank_o[wp*BI +: BI] == wb);");
    stcgen_text_line(text, "assign wr_mask[AT +: SLOT_BITS]  = {{%u{wr_here && wr_set_tag_i}}, "
                     "{%u{wr_here}}};", tb, sb);
    stcgen_text_line(text, "assign wr_word[AT +: SLOT_BITS]  = {wr_tag_i, wr_state_i};");
    stcgen_text_line(text, "assign snp_mask[AT +: SLOT_BITS] = {{%u{1'b0}}, {%u{snp_here}}};", tb,
                     sb);
    stcgen_text_line(text, "assign snp_word[AT +: SLOT_BITS] = {{%u{1'b0}}, snp_next_o[wp*SB +: "
                     "SB]};", tb);
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_out(text);
    stcgen_text_line(text, "endgenerate");
    stcgen_text_blank(text);
    stcgen_text_line(text, "stc_regfile_2w #(.DEPTH(%u), .WIDTH(%u)) u_tags (", g->rows / 4,
                     4 * banks * eb);
    stcgen_text_in(text);
    stcgen_text_line(text, ".clk_i    (clk_i),");
    stcgen_text_line(text, ".raddr_i  (snp_group),");
    stcgen_text_line(text, ".rdata_o  (group_word),");
    stcgen_text_line(text, ".we_i     (wr_valid_i),");
    stcgen_text_line(text, ".waddr_i  (wr_group),");
    stcgen_text_line(text, ".wmask_i  (wr_mask),");
    stcgen_text_line(text, ".wdata_i  (wr_word),");
    stcgen_text_line(text, ".we2_i    (snp_change_o != 4'd0),");
    stcgen_text_line(text, ".waddr2_i (snp_group),");
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
    stcgen_text_line(text, "wire        fwd     = wr_valid_i && (wr_group == snp_group);");
    stcgen_text_line(text, "// The group's slots as the lookup sees them (the same cycle's write "
                     "laid over).");
    if (no_forward) {
        stcgen_text_line(text, "// BROKEN (coh-snoop-no-forward): the same cycle's write unseen");
        stcgen_text_line(text, "wire [4*ROW_BITS-1:0] seen = group_word;");
    } else {
        stcgen_text_line(text, "wire [4*ROW_BITS-1:0] seen = fwd ? ((group_word & ~wr_mask) | "
                         "(wr_word & wr_mask)) : group_word;");
    }
    stcgen_text_line(text, "wire [%u:0]  cand;  // the candidate banks of the tag", banks - 1);
    stcgen_text_line(text, "genvar cb;");
    stcgen_text_line(text, "generate");
    stcgen_text_in(text);
    stcgen_text_line(text, "for (cb = 0; cb < %u; cb = cb + 1) begin : g_cand", banks);
    if (all_banks) {
        stcgen_text_line(text, "  // BROKEN (coh-snoop-all-banks): every bank a candidate");
        stcgen_text_line(text, "  assign cand[cb] = 1'b1;");
    } else {
        stcgen_text_line(text, "  assign cand[cb] = on_mask[cb] && ((cb & gmask) == (tag_low & "
                         "gmask));");
    }
    stcgen_text_line(text, "end");
    stcgen_text_out(text);
    stcgen_text_line(text, "endgenerate");
    stcgen_text_blank(text);
    stcgen_text_line(text, "// Per line of the group: the matching slot (the lowest bank if "
                     "several:");
    stcgen_text_line(text, "// snp_multi_o says so) and the protocol's snoop row for its state.");
    stcgen_text_line(text, "genvar gp, gb;");
    stcgen_text_line(text, "generate");
    stcgen_text_in(text);
    stcgen_text_line(text, "for (gp = 0; gp < 4; gp = gp + 1) begin : g_line");
    stcgen_text_in(text);
    stcgen_text_line(text, "wire [2:0]  bus     = snp_bus_i[gp*3 +: 3];");
    stcgen_text_line(text, "wire        snooped = snp_valid_i && (bus != 3'd0);");
    stcgen_text_line(text, "wire [%u:0]  match;", banks - 1);
    stcgen_text_line(text, "wire [%u:0]  state_of;  // each bank's slot state", banks * sb - 1);
    stcgen_text_line(text, "for (gb = 0; gb < %u; gb = gb + 1) begin : g_bank", banks);
    stcgen_text_in(text);
    stcgen_text_line(text, "wire [SLOT_BITS-1:0] slot = seen[gp*ROW_BITS + gb*SLOT_BITS +: "
                     "SLOT_BITS];");
    stcgen_text_line(text, "assign match[gb] = cand[gb] && (slot[%u:0] != %u'd0) && "
                     "(slot[SLOT_BITS-1:%u] == snp_tag);", sb - 1, sb, sb);
    stcgen_text_line(text, "assign state_of[gb*SB +: SB] = slot[%u:0];", sb - 1);
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_line(text, "reg  [SB-1:0] found_state;");
    stcgen_text_line(text, "reg  [BI-1:0] found_bank;");
    stcgen_text_line(text, "integer       ob;");
    stcgen_text_line(text, "always @* begin");
    stcgen_text_in(text);
    stcgen_text_line(text, "found_state = {SB{1'b0}};");
    stcgen_text_line(text, "found_bank  = {BI{1'b0}};");
    stcgen_text_line(text, "for (ob = %u; ob >= 0; ob = ob - 1) begin", banks - 1);
    stcgen_text_line(text, "  if (match[ob]) begin");
    stcgen_text_line(text, "    found_state = state_of[ob*SB +: SB];");
    stcgen_text_line(text, "    found_bank  = ob[BI-1:0];");
    stcgen_text_line(text, "  end");
    stcgen_text_line(text, "end");
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_line(text, "wire          hit   = snooped && (match != %u'd0);", banks);
    stcgen_text_line(text, "wire [SB-1:0] state = hit ? found_state : {SB{1'b0}};");
    stcgen_text_line(text, "wire          row_known, row_supplies, row_flushes, row_shared, "
                     "row_impossible;");
    stcgen_text_line(text, "wire [SB-1:0] row_next;");
    stcgen_text_line(text, "stc_coh_snoop_table u_table (");
    stcgen_text_in(text);
    stcgen_text_line(text, ".state_i          (state),");
    stcgen_text_line(text, ".bus_i            (bus),");
    stcgen_text_line(text, ".known_o          (row_known),");
    stcgen_text_line(text, ".next_o           (row_next),");
    stcgen_text_line(text, ".supplies_o       (row_supplies),");
    stcgen_text_line(text, ".flushes_o        (row_flushes),");
    stcgen_text_line(text, ".asserts_shared_o (row_shared),");
    stcgen_text_line(text, ".impossible_o     (row_impossible)");
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
    stcgen_text_line(text, "// Nothing for a line not snooped; an impossible row is not a known "
                     "one.");
    stcgen_text_line(text, "assign snp_hit_o[gp]           = hit;");
    stcgen_text_line(text, "assign snp_bank_o[gp*BI +: BI] = hit ? found_bank : {BI{1'b0}};");
    stcgen_text_line(text, "assign snp_multi_o[gp]         = snooped && ((match & (match - "
                     "%u'd1)) != %u'd0);", banks, banks);
    stcgen_text_line(text, "assign snp_state_o[gp*SB +: SB] = state;");
    stcgen_text_line(text, "assign snp_next_o[gp*SB +: SB]  = snooped ? row_next : {SB{1'b0}};");
    stcgen_text_line(text, "assign snp_change_o[gp]        = hit && (row_next != state);");
    stcgen_text_line(text, "assign snp_supplies_o[gp]      = snooped && row_supplies;");
    stcgen_text_line(text, "assign snp_flushes_o[gp]       = snooped && row_flushes;");
    stcgen_text_line(text, "assign snp_shared_o[gp]        = snooped && row_shared;");
    stcgen_text_line(text, "assign snp_known_o[gp]         = !snooped || (row_known && "
                     "!row_impossible);");
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_out(text);
    stcgen_text_line(text, "endgenerate");
    stcgen_text_out(text);
    stcgen_text_blank(text);
    stcgen_text_line(text, "endmodule");
    stcgen_text_blank(text);
    stcgen_text_line(text, "`resetall");
}
