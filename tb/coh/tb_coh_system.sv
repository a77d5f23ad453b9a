// tb_coh_system: the coherence lockstep's device under test (tb/coh/README.md):
// N coherent stc_cache D-caches (stcgen --protocol P --no-tuner), each behind
// its stc_coh_port, on one stc_coh_bus, and a memory with the bus's fixed
// latency. Per-core ports are unpacked arrays for the C++ shim. Not generated
// RTL: a test bench, SystemVerilog only for those arrays.
`timescale 1ns / 1ps
`default_nettype none

module tb_coh_system #(
  parameter integer N  = 2,   // cores
  parameter integer AW = 30,  // a word address
  parameter integer LB = 28,  // a physical line number
  parameter integer PW = 4,   // beats a line
  parameter integer BI = 2,   // a beat's index
  parameter integer CB = 32,  // a counter
  parameter integer B  = 4,   // banks
  parameter integer ML = 15,  // memory: 2^ML words, the low bits of the address
  parameter integer RB = 7,   // a row's index
  parameter integer EB = 23,  // a slot of the snoop port's array: state + tag
  parameter integer EXCL = 1  // the row state keeps excl bits (MESI, MOESI)
) (
  input  wire          clk_i,
  input  wire          rst_ni,
  input  wire          cpu_req_valid_i [N],
  output wire          cpu_req_ready_o [N],
  input  wire          cpu_req_we_i    [N],
  input  wire [AW-1:0] cpu_req_addr_i  [N],
  input  wire [3:0]    cpu_req_be_i    [N],
  input  wire [31:0]   cpu_req_wdata_i [N],
  output wire          cpu_rsp_valid_o [N],
  output wire [31:0]   cpu_rsp_rdata_o [N],
  input  wire          cfg_valid_i     [N],
  output wire          cfg_ready_o     [N],
  input  wire [2:0]    cfg_banks_log_i [N],
  input  wire [2:0]    cfg_ways_log_i  [N],
  input  wire [1:0]    cfg_sub_log_i   [N],
  input  wire          cfg_wp_i        [N],
  output wire          cfg_done_o      [N],
  output wire          cfg_err_o       [N],
  input  wire [4:0]    cnt_sel_i       [N],
  output wire [CB-1:0] cnt_value_o     [N],
  output wire [N-1:0]  grant_o,
  output wire          bus_busy_o,
  output wire          bus_err_o,
  output wire          snp_err_o,
  // Every core's snoop-port array, row dbg_row_i: bank b's slot (state in
  // the low bits, the tag above) in word b, up to 8 banks; what the harness
  // compares with the model's states and tags.
  input  wire [RB-1:0] dbg_row_i,
  output wire [255:0]  dbg_slots_o [N],
  // ... and the controller's row state of that row: valid, dirty, excl
  // bits (bank b at bit b of each; excl 0 without EXCL)
  output wire [3*B-1:0] dbg_rowstate_o [N]
);

  // ---------------------------------------------------------------- the bus
  wire [N-1:0]      req, rel, txn_valid, txn_last, txn_done, own_beat, sup_beat, snp_valid, sup_read;
  wire [N-1:0]      snp_supplies, snp_flushes, snp_shared, snp_err;
  wire [3*N-1:0]    txn_bus, txn_count;
  wire [LB*N-1:0]   txn_line;
  wire [2*N-1:0]    txn_rdx_idx;
  wire [32*N-1:0]   own_word;
  wire              line_done, line_shared, line_supplied, beat, beat_from_cache;
  wire [1:0]        line_idx;
  wire [LB-1:0]     snp_line, mem_line;
  wire [2:0]        snp_bus;
  wire              mem_rd, mem_rd_cont, mem_wr, mem_wbeat;
  wire [BI-1:0]     beat_idx;
  wire [31:0]       rdata, mem_rdata, mem_wdata;

  stc_coh_bus u_bus (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .req_i             (req),
    .grant_o           (grant_o),
    .txn_valid_i       (txn_valid),
    .txn_bus_i         (txn_bus),
    .txn_line_i        (txn_line),
    .txn_count_i       (txn_count),
    .txn_rdx_idx_i     (txn_rdx_idx),
    .txn_last_i        (txn_last),
    .txn_done_o        (txn_done),
    .rel_i             (rel),
    .line_done_o       (line_done),
    .line_idx_o        (line_idx),
    .line_shared_o     (line_shared),
    .line_supplied_o   (line_supplied),
    .snp_valid_o       (snp_valid),
    .snp_line_o        (snp_line),
    .snp_bus_o         (snp_bus),
    .snp_supplies_i    (snp_supplies),
    .snp_flushes_i     (snp_flushes),
    .snp_shared_i      (snp_shared),
    .sup_read_o        (sup_read),
    .beat_o            (beat),
    .beat_from_cache_o (beat_from_cache),
    .mem_rd_o          (mem_rd),
    .mem_rd_cont_o     (mem_rd_cont),
    .mem_wr_o          (mem_wr),
    .mem_wbeat_o       (mem_wbeat),
    .mem_line_o        (mem_line),
    .beat_idx_o        (beat_idx),
    .own_beat_o        (own_beat),
    .own_word_i        (own_word),
    .sup_beat_o        (sup_beat),
    .sup_word_i        ({(32*N){1'b0}}),
    .rdata_o           (rdata),
    .mem_rdata_i       (mem_rdata),
    .mem_wdata_o       (mem_wdata),
    .busy_o            (bus_busy_o),
    .err_o             (bus_err_o)
  );

  // ---------------------------------------------------------------- memory
  // The bus's memory: a line's reads start with mem_rd (its line), a
  // write's with mem_wr; the words move with the beats. Zero at reset, as
  // the model's memory.
  reg  [31:0]    mem [0:(1<<ML)-1];
  reg  [LB-1:0]  rd_line_q, wr_line_q;
  wire [LB-1:0]  rd_line = mem_rd ? mem_line : rd_line_q;
  wire [LB-1:0]  wr_line = mem_wr ? mem_line : wr_line_q;
  wire [ML-1:0]  rd_word = ML'({rd_line, beat_idx});
  wire [ML-1:0]  wr_word = ML'({wr_line, beat_idx});
  assign mem_rdata = (beat && !beat_from_cache) ? mem[rd_word] : 32'd0;
  integer mi;
  initial begin
    for (mi = 0; mi < (1 << ML); mi = mi + 1) mem[mi] = 32'd0;
  end
  always @(posedge clk_i) begin
    if (mem_rd) rd_line_q <= mem_line;
    if (mem_wr) wr_line_q <= mem_line;
    if (mem_wbeat) mem[wr_word] <= mem_wdata;
  end
  wire unused_mem = &{1'b0, mem_rd_cont, line_done, line_idx, line_supplied, sup_read, sup_beat};
  assign snp_err_o = |snp_err;

  // ---------------------------------------------------------------- cores
  genvar c;
  generate
    for (c = 0; c < N; c = c + 1) begin : g_core
      wire          m_req_valid, m_req_ready, m_req_we, m_wvalid, m_wready, m_bvalid, m_rvalid;
      wire [LB-1:0] m_req_line;
      wire [2:0]    m_req_lines;
      wire [31:0]   m_wdata, m_rdata;
      wire          bus_req, bus_own, bus_rel, m_upgr, m_rdx, m_last, shared;
      wire [1:0]    m_rdx_idx;
      wire [B-1:0]  pwr_en;
      wire          mnt_ready, mnt_done, rsp_err, cfg_wp;
      wire [2:0]    cfg_banks, cfg_ways;
      wire [1:0]    cfg_sub;
      // The bank power switches acknowledge at once (N = 0: the model's
      // wake_cycles 4, ARCHITECTURE.md 14.4).
      stc_cache #(
        .READ_ONLY (0)
      ) u_cache (
        .clk_i             (clk_i),
        .rst_ni            (rst_ni),
        .cpu_req_valid_i   (cpu_req_valid_i[c]),
        .cpu_req_ready_o   (cpu_req_ready_o[c]),
        .cpu_req_we_i      (cpu_req_we_i[c]),
        .cpu_req_addr_i    (cpu_req_addr_i[c]),
        .cpu_req_be_i      (cpu_req_be_i[c]),
        .cpu_req_wdata_i   (cpu_req_wdata_i[c]),
        .cpu_rsp_valid_o   (cpu_rsp_valid_o[c]),
        .cpu_rsp_err_o     (rsp_err),
        .cpu_rsp_rdata_o   (cpu_rsp_rdata_o[c]),
        .cfg_valid_i       (cfg_valid_i[c]),
        .cfg_ready_o       (cfg_ready_o[c]),
        .cfg_banks_log_i   (cfg_banks_log_i[c]),
        .cfg_ways_log_i    (cfg_ways_log_i[c]),
        .cfg_sub_log_i     (cfg_sub_log_i[c]),
        .cfg_wp_i          (cfg_wp_i[c]),
        .cfg_done_o        (cfg_done_o[c]),
        .cfg_err_o         (cfg_err_o[c]),
        .cfg_banks_log_o   (cfg_banks),
        .cfg_ways_log_o    (cfg_ways),
        .cfg_sub_log_o     (cfg_sub),
        .cfg_wp_o          (cfg_wp),
        .mnt_valid_i       (1'b0),
        .mnt_ready_o       (mnt_ready),
        .mnt_op_i          (2'd0),
        .mnt_all_i         (1'b0),
        .mnt_addr_i        ({AW{1'b0}}),
        .mnt_done_o        (mnt_done),
        .cnt_sel_i         (cnt_sel_i[c]),
        .cnt_clear_i       (1'b0),
        .cnt_value_o       (cnt_value_o[c]),
        .mem_req_valid_o   (m_req_valid),
        .mem_req_ready_i   (m_req_ready),
        .mem_req_we_o      (m_req_we),
        .mem_req_line_o    (m_req_line),
        .mem_req_lines_o   (m_req_lines),
        .mem_wvalid_o      (m_wvalid),
        .mem_wready_i      (m_wready),
        .mem_wdata_o       (m_wdata),
        .mem_bvalid_i      (m_bvalid),
        .mem_rvalid_i      (m_rvalid),
        .mem_rdata_i       (m_rdata),
        .bus_req_o         (bus_req),
        .bus_own_i         (bus_own),
        .bus_rel_o         (bus_rel),
        .mem_req_upgr_o    (m_upgr),
        .mem_req_rdx_o     (m_rdx),
        .mem_req_rdx_idx_o (m_rdx_idx),
        .mem_req_last_o    (m_last),
        .line_shared_i     (shared),
        .snp_valid_i       (snp_valid[c]),
        .snp_line_i        (snp_line),
        .snp_bus_i         (snp_bus),
        .snp_supplies_o    (snp_supplies[c]),
        .snp_flushes_o     (snp_flushes[c]),
        .snp_shared_o      (snp_shared[c]),
        .snp_err_o         (snp_err[c]),
        .pwr_en_o          (pwr_en),
        .pwr_ack_i         (pwr_en)
      );
      stc_coh_port u_port (
        .clk_i             (clk_i),
        .rst_ni            (rst_ni),
        .mem_req_valid_i   (m_req_valid),
        .mem_req_ready_o   (m_req_ready),
        .mem_req_we_i      (m_req_we),
        .mem_req_line_i    (m_req_line),
        .mem_req_lines_i   (m_req_lines),
        .mem_wvalid_i      (m_wvalid),
        .mem_wready_o      (m_wready),
        .mem_wdata_i       (m_wdata),
        .mem_bvalid_o      (m_bvalid),
        .mem_rvalid_o      (m_rvalid),
        .mem_rdata_o       (m_rdata),
        .bus_req_i         (bus_req),
        .bus_own_o         (bus_own),
        .bus_rel_i         (bus_rel),
        .mem_req_upgr_i    (m_upgr),
        .mem_req_rdx_i     (m_rdx),
        .mem_req_rdx_idx_i (m_rdx_idx),
        .mem_req_last_i    (m_last),
        .line_shared_o     (shared),
        .req_o             (req[c]),
        .grant_i           (grant_o[c]),
        .rel_o             (rel[c]),
        .txn_valid_o       (txn_valid[c]),
        .txn_bus_o         (txn_bus[3*c +: 3]),
        .txn_line_o        (txn_line[LB*c +: LB]),
        .txn_count_o       (txn_count[3*c +: 3]),
        .txn_rdx_idx_o     (txn_rdx_idx[2*c +: 2]),
        .txn_last_o        (txn_last[c]),
        .txn_done_i        (txn_done[c]),
        .line_shared_i     (line_shared),
        .beat_i            (beat),
        .rdata_i           (rdata),
        .own_beat_i        (own_beat[c]),
        .own_word_o        (own_word[32*c +: 32])
      );
      wire [B*EB-1:0] dbg_row = u_cache.u_snoop.u_tags.mem[dbg_row_i];
      // The controller's row-state word of the row's group of 4 (its layout:
      // stc_cache_ctrl's RSW, FOFF, XOFF for a D-cache).
      localparam integer RECB = (B > 1) ? B * (B - 1) / 2 : 1;
      localparam integer FOFF = B + RECB + B;
      localparam integer XOFF = FOFF + 2 * B;
      localparam integer RSW  = XOFF + (EXCL != 0 ? B : 0);
      wire [4*RSW-1:0] dbg_group = u_cache.u_ctrl.u_rowstate.mem[dbg_row_i >> 2];
      wire [RSW-1:0]   dbg_rs    = dbg_group[dbg_row_i[1:0] * RSW +: RSW];
      wire [B-1:0]     dbg_excl;
      if (EXCL != 0) begin : g_excl
        assign dbg_excl = dbg_rs[XOFF +: B];
      end else begin : g_no_excl
        assign dbg_excl = {B{1'b0}};
      end
      assign dbg_rowstate_o[c] = {dbg_excl, dbg_rs[B + RECB +: B], dbg_rs[0 +: B]};
      genvar b;
      for (b = 0; b < 8; b = b + 1) begin : g_dbg
        if (b < B) begin : g_bank
          assign dbg_slots_o[c][32*b +: 32] = {{(32-EB){1'b0}}, dbg_row[b*EB +: EB]};
        end else begin : g_none
          assign dbg_slots_o[c][32*b +: 32] = 32'd0;
        end
      end
    end
  endgenerate

endmodule

`resetall
