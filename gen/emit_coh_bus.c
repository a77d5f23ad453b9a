/*
 * emit_coh_bus.c - stc_coh_bus, the atomic snooping bus (docs/ARCHITECTURE.md
 * 19.6): one tenure at a time, granted by stc_coh_arbiter; each of the
 * owner's transactions timed as the atomic model times it (COHERENCE.md
 * 9.10, 11.9), its lines snooped by every other core, the data's source (a
 * supplier, else memory) and the memory's reads and writes announced cycle
 * by cycle, and the words routed: the owner's beats from the supplier or
 * memory, memory's write beats from the owner or a flushing snooper.
 */
#include "emit.h"

#include <stdio.h>
#include <string.h>

/* The lines the bus's breaks replace: the next line's window length; the
 * read's wait for the memory's handshake. */
#define R_WAIT_LINE "wire          w_rwait = active_q && !w_write && !k_sup && k_prev_sup && (cnt_q == ONE_CW + PW_CW);"
#define N_LEN_LINE "wire [CW-1:0] n_len  = n_sup ? (ONE_CW + PW_CW) : (k_sup ? MR_CW : PW_CW);"

/* The Verilog lines of the body that take no parameter but the widths
 * named in localparams. */
static const char *const body_lines[] = {
    "// ---------------------------------------------------------------- arbitration",
    "wire [NB-1:0] grant_idx;",
    "stc_coh_arbiter u_arbiter (",
    "  .clk_i       (clk_i),",
    "  .rst_ni      (rst_ni),",
    "  .req_i       (req_i),",
    "  .free_i      (!busy_q),",
    "  .grant_o     (grant_o),",
    "  .grant_idx_o (grant_idx)",
    ");",
    "",
    "// The owner: the granted core in a tenure's first cycle, else the held one.",
    "wire [NB-1:0] owner  = busy_q ? owner_q : grant_idx;",
    "wire [N-1:0]  others = ~(ONE_N << owner);",
    "// A tenure starts at its grant; an item (one transaction, or one burst)",
    "// starts in the first cycle of the tenure with no item running in which",
    "// the owner offers one: the grant's own cycle if the owner offers its first",
    "// item with its request, else a later one (the owner may hold the bus",
    "// between items, and before its first: a controller that must read its",
    "// state under the bus's protection, ARCHITECTURE.md 19.5).",
    "wire          granted = !busy_q && (grant_o != {N{1'b0}});",
    "wire          start  = (busy_q ? !active_q : granted) && txn_valid_i[owner];",
    "wire [2:0]    t_bus   = txn_bus_i[owner*3 +: 3];",
    "wire [LB-1:0] t_line  = txn_line_i[owner*LB +: LB];",
    "wire [2:0]    t_count = txn_count_i[owner*3 +: 3];",
    "wire [1:0]    t_rdx_pos = txn_rdx_pos_i[owner*2 +: 2];",
    "wire [3:0]    t_reads = txn_snoop_i[owner*4 +: 4];",
    "wire          t_burst = (t_bus == BUS_RD) || (t_bus == BUS_RDX);",
    "",
    "// ---------------------------------------------------------------- snoops",
    "// Lines are snooped by the other cores in an item's first cycle, per line",
    "// of the item's aligned group of 4 (position p = line number mod 4; line",
    "// k of the item at t_line mod 4 + k): a WB's or an Upgr's line; for a",
    "// burst, every line its tenure reads (txn_snoop_i: a miss's later runs",
    "// with its first, so that the whole miss is ordered at one address",
    "// cycle), the store's line (txn_rdx_pos_i) of a BusRdX burst as BusRdX,",
    "// every other one as BusRd. A burst whose lines the tenure's earlier",
    "// burst snooped (same group) is not snooped again: its answers are the",
    "// ones kept since.",
    "wire [1:0]    t_pos  = t_line[1:0];",
    "wire [LB-3:0] t_grp  = t_line[LB-1:2];",
    "wire [3:0]    t_own;   // the item's lines",
    "wire          covered = t_burst && busy_q && (kept_grp_q == t_grp) && ((t_own & ~kept_q) == 4'd0);",
    "wire          fresh   = start && !covered;",
    "wire [3:0]    t_snoop = t_burst ? (t_own | t_reads) : t_own;",
    "wire [11:0]   snoop_bus;",
    "// The answers per line of the group, of the other cores (the owner's own",
    "// port is ignored); the lowest-numbered supplier and flusher (whose line",
    "// memory takes when no cache supplies).",
    "wire [3:0]    r_sup, r_two, r_shared, r_flush;",
    "wire [4*NB-1:0] r_supidx, r_flushidx;",
    "genvar        gp, gc;",
    "generate",
    "  for (gp = 0; gp < 4; gp = gp + 1) begin : g_line",
    "    localparam [1:0] P = gp;",
    "    // which line of the item is at position P (from 5 up: one before its first)",
    "    wire [2:0]    k_at_p = {1'b0, P} - {1'b0, t_pos};",
    "    assign t_own[gp] = t_burst ? (k_at_p < t_count) : (k_at_p == 3'd0);",
    "    wire          snooped = fresh && t_snoop[gp];",
    "    assign snoop_bus[gp*3 +: 3] = !snooped ? 3'd0",
    "                                : !t_burst ? t_bus",
    "                                : (t_bus == BUS_RDX && t_rdx_pos == P) ? BUS_RDX : BUS_RD;",
    "    wire [N-1:0]  suppliers, flushers, sharers;",
    "    for (gc = 0; gc < N; gc = gc + 1) begin : g_core",
    "      assign suppliers[gc] = others[gc] && snp_supplies_i[gc*4 + gp];",
    "      assign flushers[gc]  = others[gc] && snp_flushes_i[gc*4 + gp];",
    "      assign sharers[gc]   = others[gc] && snp_shared_i[gc*4 + gp];",
    "    end",
    "    assign r_sup[gp]    = snooped && (suppliers != {N{1'b0}});",
    "    assign r_two[gp]    = snooped && ((suppliers & (suppliers - ONE_N)) != {N{1'b0}});",
    "    assign r_shared[gp] = snooped && (sharers != {N{1'b0}});",
    "    assign r_flush[gp]  = snooped && (flushers != {N{1'b0}});",
    "    reg  [NB-1:0] supidx, flushidx;",
    "    integer       sb;",
    "    always @* begin",
    "      supidx   = {NB{1'b0}};",
    "      flushidx = {NB{1'b0}};",
    "      for (sb = N - 1; sb >= 0; sb = sb - 1) begin",
    "        if (suppliers[sb]) supidx = sb[NB-1:0];",
    "        if (flushers[sb]) flushidx = sb[NB-1:0];",
    "      end",
    "    end",
    "    assign r_supidx[gp*NB +: NB]   = supidx;",
    "    assign r_flushidx[gp*NB +: NB] = flushidx;",
    "  end",
    "endgenerate",
    "// the answers the starting item's first line uses: this cycle's, or kept",
    "wire          s_sup   = fresh ? r_sup[t_pos] : sup_q[t_pos];",
    "assign snp_valid_o = fresh ? others : {N{1'b0}};",
    "assign snp_line_o  = fresh ? t_line : {LB{1'b0}};",
    "assign snp_bus_o   = snoop_bus;",
    "",
    "// ---------------------------------------------------------------- windows",
    "// Windows (COHERENCE.md 9.10), cnt_q counting down to 1: a line from a",
    "// cache 1 + P/W cycles (the supplier's read, then the beats); from memory",
    "// as the first of a run, mem_rd_o, then a wait at P/W + 1 until",
    "// mem_rready_i says the first beat comes next cycle, then P/W beats (T +",
    "// P/W cycles for a memory of latency T); after a memory line of the same",
    "// burst P/W (memory streams the run); a write to memory (BusWB, a flush",
    "// no cache supplied) its P/W beats from mem_wr_o on, then a wait at 1",
    "// until mem_wdone_i (T + P/W cycles for latency T).",
    "// (the answers are kept per line of the group: line k at position kp)",
    "wire [1:0]    k      = data_idx_q;",
    "wire [1:0]    kp     = base_q[1:0] + k;",
    "wire          k_sup  = sup_q[kp];",
    "wire          k_prev_sup = (k == 2'd0) || sup_q[kp - 2'd1];",
    "wire [CW-1:0] w_line = k_sup ? (ONE_CW + PW_CW) : (k_prev_sup ? MR_CW : PW_CW);",
    "wire          w_first = active_q && (cnt_q == (win_q == WIN_DATA ? w_line : WR_CW));",
    "wire          w_write = win_q != WIN_DATA;",
    "// waiting for memory: a run's first beat (next cycle once mem_rready_i), a write's end",
    R_WAIT_LINE,
    "wire          w_wwait = active_q && w_write && (cnt_q == ONE_CW);",
    "wire          w_hold  = (w_rwait && !mem_rready_i) || (w_wwait && !mem_wdone_i);",
    "wire          w_last  = active_q && (cnt_q == ONE_CW) && !w_hold;",
    "wire          w_beat  = active_q && (cnt_q <= PW_CW);   // a data window's beats",
    "wire          w_wbeat = active_q && (cnt_q > ONE_CW);   // a write window's",
    "wire [LB-1:0] w_line_no = base_q + {{(LB-2){1'b0}}, k};",
    "// the next data line's first window, from the answers kept at the snoop",
    "wire [1:0]    n_k    = k + 2'd1;",
    "wire          n_sup  = sup_q[kp + 2'd1];",
    N_LEN_LINE,
    "wire          more   = burst_q && (({1'b0, k} + 3'd1) < count_q);  // (n_k wraps after 3)",
    "",
    "// The item's end: its last window's last cycle, or its first cycle for an",
    "// Upgr that no flush follows.",
    "wire          upg_now = start && !t_burst && (t_bus != BUS_WB) && !(r_flush[t_pos] && !r_sup[t_pos]);",
    "wire          end_win = w_last && !(win_q != WIN_FLUSH && fns_q[kp]) && !more;",
    "wire          item_done = upg_now || end_win;",
    "wire          last_now  = start ? txn_last_i[owner] : last_q;",
    "wire          released  = busy_q && !active_q && !start && rel_i[owner];",
    "",
    "always @* begin",
    "  busy_d     = busy_q;",
    "  owner_d    = owner_q;",
    "  active_d   = active_q;",
    "  bus_d      = bus_q;",
    "  burst_d    = burst_q;",
    "  base_d     = base_q;",
    "  count_d    = count_q;",
    "  last_d     = last_q;",
    "  kept_d     = kept_q;",
    "  kept_grp_d = kept_grp_q;",
    "  sup_d      = sup_q;",
    "  supidx_d   = supidx_q;",
    "  flushidx_d = flushidx_q;",
    "  shared_d   = shared_q;",
    "  flush_d    = flush_q;",
    "  fns_d      = fns_q;",
    "  data_idx_d = data_idx_q;",
    "  cnt_d      = (active_q && !w_hold) ? cnt_q - ONE_CW : cnt_q;",
    "  win_d      = win_q;",
    "  err_d      = err_q || (r_two != 4'd0);",
    "  if (granted) begin",
    "    busy_d     = 1'b1;",
    "    owner_d    = owner;",
    "    kept_d     = 4'd0;",
    "  end",
    "  if (start) begin",
    "    active_d   = !upg_now;",
    "    bus_d      = t_bus;",
    "    burst_d    = t_burst;",
    "    base_d     = t_line;",
    "    count_d    = t_burst ? t_count : 3'd1;",
    "    last_d     = txn_last_i[owner];",
    "    data_idx_d = 2'd0;",
    "    if (fresh) begin",
    "      kept_d     = t_burst ? t_snoop : 4'd0;",
    "      kept_grp_d = t_grp;",
    "      sup_d      = r_sup;",
    "      shared_d   = r_shared;",
    "      flush_d    = r_flush;",
    "      fns_d      = r_flush & ~r_sup;",
    "      supidx_d   = r_supidx;",
    "      flushidx_d = r_flushidx;",
    "    end",
    "    if (t_burst) begin",
    "      win_d = WIN_DATA;",
    "      cnt_d = s_sup ? (ONE_CW + PW_CW) : MR_CW;",
    "    end else if (t_bus == BUS_WB) begin",
    "      win_d = WIN_WB;",
    "      cnt_d = WR_CW;",
    "    end else begin",
    "      win_d = WIN_FLUSH;",
    "      cnt_d = WR_CW;",
    "    end",
    "  end else if (w_last) begin",
    "    if (win_q != WIN_FLUSH && fns_q[kp]) begin",
    "      win_d = WIN_FLUSH;            // the flushed line no cache supplied",
    "      cnt_d = WR_CW;",
    "    end else if (more) begin",
    "      win_d      = WIN_DATA;",
    "      data_idx_d = n_k;",
    "      cnt_d      = n_len;",
    "    end",
    "  end",
    "  if (item_done) begin",
    "    active_d = 1'b0;",
    "    if (last_now) busy_d = 1'b0;",
    "  end",
    "  // The owner may also end its tenure in a cycle no item of it runs or",
    "  // starts (a reconfiguration's walk, which holds the bus for all of it).",
    "  if (released) busy_d = 1'b0;",
    "end",
    "",
    "always @(posedge clk_i or negedge rst_ni) begin",
    "  if (!rst_ni) begin",
    "    busy_q     <= 1'b0;",
    "    owner_q    <= {NB{1'b0}};",
    "    active_q   <= 1'b0;",
    "    bus_q      <= 3'd0;",
    "    burst_q    <= 1'b0;",
    "    base_q     <= {LB{1'b0}};",
    "    count_q    <= 3'd0;",
    "    last_q     <= 1'b0;",
    "    kept_q     <= 4'd0;",
    "    kept_grp_q <= {(LB-2){1'b0}};",
    "    sup_q      <= 4'd0;",
    "    supidx_q   <= {(4*NB){1'b0}};",
    "    flushidx_q <= {(4*NB){1'b0}};",
    "    shared_q   <= 4'd0;",
    "    flush_q    <= 4'd0;",
    "    fns_q      <= 4'd0;",
    "    data_idx_q <= 2'd0;",
    "    cnt_q      <= {CW{1'b0}};",
    "    win_q      <= WIN_DATA;",
    "    err_q      <= 1'b0;",
    "  end else begin",
    "    busy_q     <= busy_d;",
    "    owner_q    <= owner_d;",
    "    active_q   <= active_d;",
    "    bus_q      <= bus_d;",
    "    burst_q    <= burst_d;",
    "    base_q     <= base_d;",
    "    count_q    <= count_d;",
    "    last_q     <= last_d;",
    "    kept_q     <= kept_d;",
    "    kept_grp_q <= kept_grp_d;",
    "    sup_q      <= sup_d;",
    "    supidx_q   <= supidx_d;",
    "    flushidx_q <= flushidx_d;",
    "    shared_q   <= shared_d;",
    "    flush_q    <= flush_d;",
    "    fns_q      <= fns_d;",
    "    data_idx_q <= data_idx_d;",
    "    cnt_q      <= cnt_d;",
    "    win_q      <= win_d;",
    "    err_q      <= err_d;",
    "  end",
    "end",
    "",
    "// ---------------------------------------------------------------- outputs",
    "wire data_win  = active_q && (win_q == WIN_DATA);",
    "wire write_win = active_q && (win_q != WIN_DATA);",
    "assign txn_done_o      = item_done ? (ONE_N << owner) : {N{1'b0}};",
    "assign line_done_o     = data_win && w_last;",
    "assign line_idx_o      = line_done_o ? k : 2'd0;",
    "assign line_shared_o   = line_done_o && shared_q[kp];",
    "assign line_supplied_o = line_done_o && k_sup;",
    "assign beat_o          = data_win && w_beat;",
    "assign beat_from_cache_o = data_win && w_beat && k_sup;",
    "assign sup_read_o      = (data_win && k_sup && w_first) ? (ONE_N << supidx_q[kp*NB +: NB])",
    "                                                      : {N{1'b0}};",
    "assign mem_rd_o        = data_win && !k_sup && w_first;",
    "assign mem_rd_cont_o   = data_win && !k_sup && w_first && !k_prev_sup;",
    "// (a supplied line that flushes starts memory's write in its read cycle:",
    "// its words follow with the beats)",
    "assign mem_wr_o        = (write_win || (data_win && k_sup && flush_q[kp])) && w_first;",
    "assign mem_wr_posted_o = data_win && k_sup && flush_q[kp] && w_first;  // no mem_wdone_i",
    "assign mem_wbeat_o     = (write_win && w_wbeat) || (data_win && w_beat && k_sup && flush_q[kp]);",
    "assign mem_line_o      = (mem_rd_o || mem_wr_o || sup_read_o != {N{1'b0}}) ? w_line_no",
    "                                                                        : {LB{1'b0}};",
    "",
    "// ---------------------------------------------------------------- data",
    "// The beat moving (0 .. P/W - 1): a data window's last P/W cycles, a write",
    "// window's first P/W.",
    "wire [BI-1:0] beat_from = write_win ? WR_CW[BI-1:0] : PW_CW[BI-1:0];",
    "wire [BI-1:0] beat_no  = beat_from - cnt_q[BI-1:0];  // (P/W + 1 or P/W) - cnt, mod 2^BI",
    "assign beat_idx_o = (beat_o || mem_wbeat_o) ? beat_no : {BI{1'b0}};",
    "// Who drives a line's words: the owner its BusWB's; the supplier a supplied",
    "// line's; the flusher the line memory takes when none supplies.",
    "wire [NB-1:0] src_idx  = (win_q == WIN_DATA) ? supidx_q[kp*NB +: NB] : flushidx_q[kp*NB +: NB];",
    "wire          own_beat = write_win && (win_q == WIN_WB) && w_wbeat;",
    "wire          snp_beat = (data_win && k_sup && w_beat) || (write_win && (win_q == WIN_FLUSH) && w_wbeat);",
    "assign own_beat_o = own_beat ? (ONE_N << owner_q) : {N{1'b0}};",
    "assign sup_beat_o = snp_beat ? (ONE_N << src_idx) : {N{1'b0}};",
    "wire [W-1:0]  own_word = own_word_i[owner_q*W +: W];",
    "wire [W-1:0]  src_word = sup_word_i[src_idx*W +: W];",
    "assign rdata_o     = !beat_o ? {W{1'b0}} : (k_sup ? src_word : mem_rdata_i);",
    "assign mem_wdata_o = !mem_wbeat_o ? {W{1'b0}} : (own_beat ? own_word : src_word);",
    "assign busy_o          = busy_q;",
    "assign err_o           = err_q;",
};

void stcgen_emit_coh_bus(stcgen_text *text, const stcgen_file *file, const stcgen_params *params)
{
    const stc_geometry *g = &params->geometry;
    const unsigned cores = params->coh_cores;
    const unsigned nb = params->coh_core_bits;
    const unsigned lb = params->coh_line_bits;
    const unsigned w = params->word_bits;
    unsigned bi = 0; /* bits of a beat index, at least 1 */
    while ((1u << bi) < g->beats_per_line) {
        bi++;
    }
    bi = bi ? bi : 1;
    stcgen_text_header(text, &stcgen_comment_slashes, file->name, file->title, params);
    stcgen_text_blank(text);
    stcgen_text_line(text, STCGEN_TIMESCALE);
    stcgen_text_line(text, "`default_nettype none");
    stcgen_text_blank(text);
    stcgen_text_line(text, "// stc_coh_bus: the atomic snooping bus of %u cores (ARCHITECTURE.md "
                     "19.6).", cores);
    stcgen_text_line(text, "// One tenure at a time (stc_coh_arbiter's round robin). The owner "
                     "offers items");
    stcgen_text_line(text, "// one at a time: a BusWB, a BusUpgr, or a burst of 1-%d consecutive "
                     "physical lines", STC_MAX_SUBLINES);
    stcgen_text_line(text, "// (BusRd, or BusRdX for the store's line txn_rdx_pos_i and BusRd for "
                     "the others).");
    stcgen_text_line(text, "// Every line is snooped by the other cores, a miss's lines all with "
                     "its first burst;");
    stcgen_text_line(text, "// a line's data comes from the one that");
    stcgen_text_line(text, "// supplies, else from memory. Cycles as the atomic model's "
                     "(COHERENCE.md 9.10,");
    stcgen_text_line(text, "// 11.9), P/W = %u beats a line, T the memory's latency: 1 address "
                     "cycle per item;", g->beats_per_line);
    stcgen_text_line(text, "// a line from a cache 1 + P/W, from memory T + P/W (P/W after a "
                     "memory line of");
    stcgen_text_line(text, "// the same burst); a BusWB's write T + P/W; a flush no cache "
                     "supplied T + P/W more.");
    stcgen_text_line(text, "// The memory answers with a handshake (ARCHITECTURE.md 19.6): "
                     "mem_rready_i one cycle");
    stcgen_text_line(text, "// before a run's first beat, after which the run's lines stream "
                     "a beat a cycle;");
    stcgen_text_line(text, "// mem_wdone_i in a write's last cycle, after its beats (a write "
                     "with mem_wr_posted_o");
    stcgen_text_line(text, "// takes none). Words move a beat a cycle: to the owner from the "
                     "supplier or memory,");
    stcgen_text_line(text, "// to memory from the owner's BusWB or a flushing snooper.");
    stcgen_text_line(text, "module stc_coh_bus (");
    stcgen_text_in(text);
    stcgen_text_line(text, "input  wire               clk_i,");
    stcgen_text_line(text, "input  wire               rst_ni,          // asynchronous, active low");
    stcgen_text_line(text, "input  wire [%u:0]         req_i,           // core c wants a tenure "
                     "(held until granted)", cores - 1);
    stcgen_text_line(text, "output wire [%u:0]         grant_o,         // its first cycle "
                     "(one-hot)", cores - 1);
    stcgen_text_line(text, "// each core's next item (only the owner's is read)");
    stcgen_text_line(text, "input  wire [%u:0]         txn_valid_i,", cores - 1);
    stcgen_text_line(text, "input  wire [%u:0]         txn_bus_i,       // 3 bits a core: BusRd 1, "
                     "BusRdX 2, BusUpgr 3, BusWB 4", 3 * cores - 1);
    stcgen_text_line(text, "input  wire [%u:0]       txn_line_i,      // the (first) physical "
                     "line number", lb * cores - 1);
    stcgen_text_line(text, "input  wire [%u:0]         txn_count_i,     // 3 bits a core: lines of "
                     "a burst, 1 .. %d", 3 * cores - 1, STC_MAX_SUBLINES);
    stcgen_text_line(text, "input  wire [%u:0]         txn_rdx_pos_i,   // 2 bits a core: a "
                     "BusRdX burst's store line (mod 4)", 2 * cores - 1);
    stcgen_text_line(text, "input  wire [%u:0]         txn_snoop_i,     // 4 bits a core: the "
                     "lines (mod 4) of the", 4 * cores - 1);
    stcgen_text_line(text, "                                           //   group the tenure's "
                     "bursts read");
    stcgen_text_line(text, "input  wire [%u:0]         txn_last_i,      // the tenure ends with "
                     "this item", cores - 1);
    stcgen_text_line(text, "output wire [%u:0]         txn_done_o,      // the owner's item ends "
                     "this cycle", cores - 1);
    stcgen_text_line(text, "input  wire [%u:0]         rel_i,           // the owner ends its "
                     "tenure (no item running)", cores - 1);
    stcgen_text_line(text, "output wire               line_done_o,     // a burst line's data "
                     "ends this cycle:");
    stcgen_text_line(text, "output wire [1:0]         line_idx_o,      //   which line of the "
                     "burst,");
    stcgen_text_line(text, "output wire               line_shared_o,   //   the shared line at "
                     "its snoop,");
    stcgen_text_line(text, "output wire               line_supplied_o, //   a cache supplied it");
    stcgen_text_line(text, "// snoops (to each core's stc_coh_snoop) and their answers");
    stcgen_text_line(text, "output wire [%u:0]         snp_valid_o,     // every core but the "
                     "owner", cores - 1);
    stcgen_text_line(text, "output wire [%u:0]        snp_line_o,      // the item's (first) line",
                     lb - 1);
    stcgen_text_line(text, "output wire [11:0]        snp_bus_o,       // per line p of its group: "
                     "3 bits, 0 not snooped");
    stcgen_text_line(text, "// per core 4 bits, one per line of the group (core c's at [4c +: 4])");
    stcgen_text_line(text, "input  wire [%u:0]         snp_supplies_i,", 4 * cores - 1);
    stcgen_text_line(text, "input  wire [%u:0]         snp_flushes_i,", 4 * cores - 1);
    stcgen_text_line(text, "input  wire [%u:0]         snp_shared_i,", 4 * cores - 1);
    stcgen_text_line(text, "// data movement, cycle by cycle");
    stcgen_text_line(text, "output wire [%u:0]         sup_read_o,      // the supplier reads line "
                     "mem_line_o now", cores - 1);
    stcgen_text_line(text, "output wire               beat_o,          // a beat reaches the "
                     "owner");
    stcgen_text_line(text, "output wire               beat_from_cache_o,");
    stcgen_text_line(text, "output wire               mem_rd_o,        // memory: read line "
                     "mem_line_o,");
    stcgen_text_line(text, "output wire               mem_rd_cont_o,   //   streamed after the "
                     "previous line");
    stcgen_text_line(text, "output wire               mem_wr_o,        // memory: a write of "
                     "mem_line_o starts,");
    stcgen_text_line(text, "output wire               mem_wr_posted_o, //   taken with a "
                     "supply's beats: no mem_wdone_i");
    stcgen_text_line(text, "input  wire               mem_rready_i,    // memory: the read "
                     "run's first beat is next cycle");
    stcgen_text_line(text, "input  wire               mem_wdone_i,     // memory: the write "
                     "ends this cycle");
    stcgen_text_line(text, "output wire               mem_wbeat_o,     // memory takes a beat");
    stcgen_text_line(text, "output wire [%u:0]        mem_line_o,", lb - 1);
    stcgen_text_line(text, "// the words: beat beat_idx_o of the line moving");
    stcgen_text_line(text, "output wire [%u:0]         beat_idx_o,", bi - 1);
    stcgen_text_line(text, "output wire [%u:0]         own_beat_o,      // the owner drives its "
                     "BusWB's word", cores - 1);
    stcgen_text_line(text, "input  wire [%u:0]       own_word_i,", w * cores - 1);
    stcgen_text_line(text, "output wire [%u:0]         sup_beat_o,      // this snooper drives "
                     "its line's word", cores - 1);
    stcgen_text_line(text, "input  wire [%u:0]       sup_word_i,      //   (a supply, or a "
                     "flush none supplied)", w * cores - 1);
    stcgen_text_line(text, "output wire [%u:0]        rdata_o,         // the owner's beat",
                     w - 1);
    stcgen_text_line(text, "input  wire [%u:0]        mem_rdata_i,     // memory's read beat",
                     w - 1);
    stcgen_text_line(text, "output wire [%u:0]        mem_wdata_o,     // memory's write beat",
                     w - 1);
    stcgen_text_line(text, "output wire               busy_o,          // a tenure is in progress");
    stcgen_text_line(text, "output wire               err_o            // sticky: two caches "
                     "supplied one line");
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
    stcgen_text_blank(text);
    stcgen_text_in(text);
    stcgen_text_line(text, "localparam integer N  = %u;  // cores", cores);
    stcgen_text_line(text, "localparam integer NB = %u;  // a core's index", nb);
    stcgen_text_line(text, "localparam integer LB = %u; // a physical line number", lb);
    stcgen_text_line(text, "localparam integer PW = %u;  // beats a line", g->beats_per_line);
    stcgen_text_line(text, "localparam integer BI = %u;  // a beat's index", bi);
    stcgen_text_line(text, "localparam integer W  = %u; // a word, a beat", w);
    const bool fixed_latency =
        params->coh_break && strcmp(params->coh_break, STCGEN_COH_BREAK_BUS_FIXED_LATENCY) == 0;
    if (fixed_latency) {
        stcgen_text_line(text, "// BROKEN (coh-bus-fixed-latency): a read's first beat %u "
                         "cycles after mem_rd_o,", g->mem_latency);
        stcgen_text_line(text, "// whatever mem_rready_i says");
        stcgen_text_line(text, "localparam integer CW = $clog2(PW + %u);  // window counter",
                         g->mem_latency + 3);
    } else {
        stcgen_text_line(text, "localparam integer CW = $clog2(PW + 3);  // window counter");
    }
    stcgen_text_line(text, "localparam [CW-1:0] ONE_CW = 1;");
    stcgen_text_line(text, "localparam [CW-1:0] PW_CW  = PW[CW-1:0];");
    if (fixed_latency) {
        stcgen_text_line(text, "localparam [CW-1:0] MR_CW  = PW_CW + %u;", g->mem_latency);
    } else {
        stcgen_text_line(text, "localparam [CW-1:0] MR_CW  = PW_CW + 2;  // a memory read's "
                         "start: mem_rd_o, then the wait");
    }
    stcgen_text_line(text, "localparam [CW-1:0] WR_CW  = PW_CW + 1;  // a write's start: its "
                     "beats, then the wait");
    stcgen_text_line(text, "localparam [N-1:0]  ONE_N  = 1;");
    stcgen_text_line(text, "localparam [2:0] BUS_RD = 3'd1, BUS_RDX = 3'd2, BUS_WB = 3'd4;");
    stcgen_text_line(text, "localparam [1:0] WIN_DATA = 2'd0, WIN_WB = 2'd1, WIN_FLUSH = 2'd2;");
    stcgen_text_blank(text);
    stcgen_text_line(text, "reg            busy_q, busy_d;          // a tenure");
    stcgen_text_line(text, "reg  [NB-1:0]  owner_q, owner_d;");
    stcgen_text_line(text, "reg            active_q, active_d;      // an item past its first "
                     "cycle");
    stcgen_text_line(text, "reg  [2:0]     bus_q, bus_d;            // the item");
    stcgen_text_line(text, "reg            burst_q, burst_d;");
    stcgen_text_line(text, "reg  [LB-1:0]  base_q, base_d;");
    stcgen_text_line(text, "reg  [2:0]     count_q, count_d;");
    stcgen_text_line(text, "reg            last_q, last_d;");
    stcgen_text_line(text, "reg  [3:0]     kept_q, kept_d;          // the tenure's burst snooped "
                     "these lines");
    stcgen_text_line(text, "reg  [LB-3:0]  kept_grp_q, kept_grp_d;  //   of this group");
    stcgen_text_line(text, "// per line of the group, the answers kept from its snoop");
    stcgen_text_line(text, "reg  [3:0]     sup_q, sup_d;            // a cache supplies");
    stcgen_text_line(text, "reg  [4*NB-1:0] supidx_q, supidx_d;     //   which one");
    stcgen_text_line(text, "reg  [4*NB-1:0] flushidx_q, flushidx_d; //   which flushes");
    stcgen_text_line(text, "reg  [3:0]     shared_q, shared_d;      //   the shared line");
    stcgen_text_line(text, "reg  [3:0]     flush_q, flush_d;        //   a cache flushes");
    stcgen_text_line(text, "reg  [3:0]     fns_q, fns_d;            //   ... and none supplies");
    stcgen_text_line(text, "reg  [1:0]     data_idx_q, data_idx_d;  // the line whose window runs");
    stcgen_text_line(text, "reg  [CW-1:0]  cnt_q, cnt_d;            // cycles left in the window");
    stcgen_text_line(text, "reg  [1:0]     win_q, win_d;");
    stcgen_text_line(text, "reg            err_q, err_d;");
    stcgen_text_blank(text);
    const bool latency_again =
        params->coh_break && strcmp(params->coh_break, STCGEN_COH_BREAK_BUS_LATENCY) == 0;
    for (size_t i = 0; i < sizeof body_lines / sizeof body_lines[0]; i++) {
        const char *line = body_lines[i];
        if (latency_again && strcmp(line, N_LEN_LINE) == 0) {
            stcgen_text_line(text, "// BROKEN (coh-bus-latency-again): no burst streaming");
            line = "wire [CW-1:0] n_len  = n_sup ? (ONE_CW + PW_CW) : MR_CW;";
        }
        if (fixed_latency && strcmp(line, R_WAIT_LINE) == 0) {
            line = "wire          w_rwait = 1'b0;  // BROKEN: no wait for mem_rready_i";
        }
        if (line[0] == '\0') {
            stcgen_text_blank(text);
        } else {
            stcgen_text_line(text, "%s", line);
        }
    }
    stcgen_text_out(text);
    stcgen_text_blank(text);
    stcgen_text_line(text, "endmodule");
    stcgen_text_blank(text);
    stcgen_text_line(text, "`resetall");
}
