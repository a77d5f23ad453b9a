// tb_coh_system: the coherence lockstep's device under test (tb/coh/README.md):
// the generated stc_coherent_system (stcgen --protocol P --cores N --no-tuner:
// N coherent stc_cache D-caches, each behind its stc_coh_port, on one
// stc_coh_bus) and a memory whose handshake the harness drives (its latency,
// fixed or drawn per wait, is the harness's choice). Per-core ports are
// unpacked arrays for the C++ shim. Not generated RTL: a test bench,
// SystemVerilog only for those arrays.
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
  parameter integer EXCL = 1, // the row state keeps excl bits (MESI, MOESI)
  parameter integer TW = 16   // words of dbg_tuner_o
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
  // each core's maintenance port, used for the drain at a run's end:
  // clean + invalidate every line (ARCHITECTURE.md 7.1)
  input  wire [N-1:0]  drain_valid_i,
  output wire [N-1:0]  drain_ready_o,
  output wire [N-1:0]  drain_done_o,
  input  wire [4:0]    cnt_sel_i       [N],
  output wire [CB-1:0] cnt_value_o     [N],
  output wire [N-1:0]  grant_o,
  // the core whose reference's ordering point is this cycle: the address
  // cycle of its item that reads or upgrades (a burst, a BusUpgr), where
  // the bus snoops its lines (ARCHITECTURE.md 19.6); not a BusWB's
  output wire [N-1:0]  order_o,
  // the cores whose data array a supply reads this cycle (the bus's
  // sup_read: ARCHITECTURE.md 19.5)
  output wire [N-1:0]  sup_read_o,
  output wire          bus_busy_o,
  output wire          bus_err_o,
  // the memory's handshake (ARCHITECTURE.md 19.6), timed by the harness:
  // a wait starts with a run's first read (mem_rd_start_o) or a write that
  // is not posted (mem_wr_wait_o); it ends with mem_rready_i (the run's
  // first beat next cycle) or mem_wdone_i (the write's last cycle)
  output wire          mem_rd_start_o,
  output wire          mem_wr_wait_o,
  input  wire          mem_rready_i,
  input  wire          mem_wdone_i,
  output wire          snp_err_o,
  // Every core's snoop-port array, row dbg_row_i: bank b's slot (state in
  // the low bits, the tag above) in word b, up to 8 banks; what the harness
  // compares with the model's states and tags.
  input  wire [RB-1:0] dbg_row_i,
  output wire [255:0]  dbg_slots_o [N],
  // ... and the controller's row state of that row: valid, dirty, excl
  // bits (bank b at bit b of each; excl 0 without EXCL)
  output wire [3*B-1:0] dbg_rowstate_o [N],
  // the memory's word dbg_mem_word_i (compared with the model's after the drain)
  input  wire [ML-1:0] dbg_mem_word_i,
  output wire [31:0]   dbg_mem_o,
  // Built with TB_COH_TUNER (the system's caches with their monitor
  // tuners): each core's decision unit as the harness compares it, word
  // by word (coh_dut.h, coh_dut_tuner_view); zero without it.
  output wire [32*TW-1:0] dbg_tuner_o [N]
);

  // ---------------------------------------------------------------- the system
  // The generated N-core top (ARCHITECTURE.md 19.8); this bench only packs
  // the per-core arrays into its vectors and adds the memory.
  wire [N-1:0]      req_valid, req_ready, req_we, rsp_valid, rsp_err;
  wire [N*AW-1:0]   req_addr;
  wire [N*4-1:0]    req_be;
  wire [N*32-1:0]   req_wdata, rsp_rdata;
  wire [N-1:0]      cfg_valid, cfg_ready, cfg_wp, cfg_done, cfg_err, cfg_wp_now;
  wire [N*3-1:0]    cfg_banks, cfg_ways, cfg_banks_now, cfg_ways_now;
  wire [N*2-1:0]    cfg_sub, cfg_sub_now;
  wire [N*5-1:0]    cnt_sel;
  wire [N*CB-1:0]   cnt_value;
  wire [N*B-1:0]    pwr_en;
  wire [N-1:0]      snp_err;
  wire              mem_rd, mem_rd_cont, mem_wr, mem_wr_posted, mem_rbeat, mem_wbeat;
  wire [LB-1:0]     mem_line;
  wire [BI-1:0]     beat_idx;
  wire [31:0]       mem_rdata, mem_wdata;
  genvar c;
  generate
    for (c = 0; c < N; c = c + 1) begin : g_pack
      assign req_valid[c]           = cpu_req_valid_i[c];
      assign req_we[c]              = cpu_req_we_i[c];
      assign req_addr[c*AW +: AW]   = cpu_req_addr_i[c];
      assign req_be[c*4 +: 4]       = cpu_req_be_i[c];
      assign req_wdata[c*32 +: 32]  = cpu_req_wdata_i[c];
      assign cpu_req_ready_o[c]     = req_ready[c];
      assign cpu_rsp_valid_o[c]     = rsp_valid[c];
      assign cpu_rsp_rdata_o[c]     = rsp_rdata[c*32 +: 32];
      assign cfg_valid[c]           = cfg_valid_i[c];
      assign cfg_banks[c*3 +: 3]    = cfg_banks_log_i[c];
      assign cfg_ways[c*3 +: 3]     = cfg_ways_log_i[c];
      assign cfg_sub[c*2 +: 2]      = cfg_sub_log_i[c];
      assign cfg_wp[c]              = cfg_wp_i[c];
      assign cfg_ready_o[c]         = cfg_ready[c];
      assign cfg_done_o[c]          = cfg_done[c];
      assign cfg_err_o[c]           = cfg_err[c];
      assign cnt_sel[c*5 +: 5]      = cnt_sel_i[c];
      assign cnt_value_o[c]         = cnt_value[c*CB +: CB];
    end
  endgenerate
  assign snp_err_o = |snp_err;
  wire [N*32-1:0]   tun_rdata;
  wire [N-1:0]      tun_busy;
`ifndef TB_COH_TUNER
  assign tun_rdata = {(N*32){1'b0}};
  assign tun_busy  = {N{1'b0}};
`endif
  wire unused = &{1'b0, rsp_err, cfg_banks_now, cfg_ways_now, cfg_sub_now, cfg_wp_now, tun_rdata,
                  tun_busy};
  assign mem_rd_start_o = mem_rd && !mem_rd_cont;
  assign mem_wr_wait_o  = mem_wr && !mem_wr_posted;

  // The bank power switches acknowledge at once (N = 0: the model's
  // wake_cycles 4, ARCHITECTURE.md 14.4).
  stc_coherent_system u_system (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .cpu_req_valid_i (req_valid),
    .cpu_req_ready_o (req_ready),
    .cpu_req_we_i    (req_we),
    .cpu_req_addr_i  (req_addr),
    .cpu_req_be_i    (req_be),
    .cpu_req_wdata_i (req_wdata),
    .cpu_rsp_valid_o (rsp_valid),
    .cpu_rsp_err_o   (rsp_err),
    .cpu_rsp_rdata_o (rsp_rdata),
    .cfg_valid_i     (cfg_valid),
    .cfg_ready_o     (cfg_ready),
    .cfg_banks_log_i (cfg_banks),
    .cfg_ways_log_i  (cfg_ways),
    .cfg_sub_log_i   (cfg_sub),
    .cfg_wp_i        (cfg_wp),
    .cfg_done_o      (cfg_done),
    .cfg_err_o       (cfg_err),
    .cfg_banks_log_o (cfg_banks_now),
    .cfg_ways_log_o  (cfg_ways_now),
    .cfg_sub_log_o   (cfg_sub_now),
    .cfg_wp_o        (cfg_wp_now),
    .mnt_valid_i     (drain_valid_i),
    .mnt_ready_o     (drain_ready_o),
    .mnt_op_i        ({N{2'd3}}),
    .mnt_all_i       ({N{1'b1}}),
    .mnt_addr_i      ({(N*AW){1'b0}}),
    .mnt_done_o      (drain_done_o),
    .cnt_sel_i       (cnt_sel),
    .cnt_clear_i     ({N{1'b0}}),
    .cnt_value_o     (cnt_value),
    .pwr_en_o        (pwr_en),
    .pwr_ack_i       (pwr_en),
    .mem_rd_o        (mem_rd),
    .mem_rd_cont_o   (mem_rd_cont),
    .mem_wr_o        (mem_wr),
    .mem_wr_posted_o (mem_wr_posted),
    .mem_rready_i    (mem_rready_i),
    .mem_wdone_i     (mem_wdone_i),
    .mem_line_o      (mem_line),
    .mem_rbeat_o     (mem_rbeat),
    .mem_wbeat_o     (mem_wbeat),
    .mem_beat_idx_o  (beat_idx),
    .mem_rdata_i     (mem_rdata),
    .mem_wdata_o     (mem_wdata),
`ifdef TB_COH_TUNER
    .tun_we_i        ({N{1'b0}}),
    .tun_addr_i      ({(N*3){1'b0}}),
    .tun_wdata_i     ({(N*32){1'b0}}),
    .tun_rdata_o     (tun_rdata),
    .tun_busy_o      (tun_busy),
`endif
    .grant_o         (grant_o),
    .bus_busy_o      (bus_busy_o),
    .bus_err_o       (bus_err_o),
    .snp_err_o       (snp_err)
  );

  // The ordering item: the bus's snoop (to every core but the owner) with
  // a line's code BusRd, BusRdX or BusUpgr (1-3), from the system's own
  // snoop wires.
  wire [N-1:0] snooped = u_system.snp_valid;
  wire [11:0]  snoop_codes = u_system.snp_bus;
  wire         reads = (snoop_codes[2:0] != 3'd0 && snoop_codes[2:0] < 3'd4)
                    || (snoop_codes[5:3] != 3'd0 && snoop_codes[5:3] < 3'd4)
                    || (snoop_codes[8:6] != 3'd0 && snoop_codes[8:6] < 3'd4)
                    || (snoop_codes[11:9] != 3'd0 && snoop_codes[11:9] < 3'd4);
  assign order_o = (snooped != {N{1'b0}} && reads) ? ~snooped : {N{1'b0}};
  assign sup_read_o = u_system.sup_read;

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
  assign mem_rdata = mem_rbeat ? mem[rd_word] : 32'd0;
  integer mi;
  initial begin
    for (mi = 0; mi < (1 << ML); mi = mi + 1) mem[mi] = 32'd0;
  end
  assign dbg_mem_o = mem[dbg_mem_word_i];
  always @(posedge clk_i) begin
    if (mem_rd) rd_line_q <= mem_line;
    if (mem_wr) wr_line_q <= mem_line;
    if (mem_wbeat) mem[wr_word] <= mem_wdata;
  end

  // ---------------------------------------------------------------- the checks' view
  // Every core's snoop-port array and the controller's row state, row
  // dbg_row_i, through the hierarchy (nothing of the RTL changes for it).
  generate
    for (c = 0; c < N; c = c + 1) begin : g_dbg_core
      // (the snoop array's word holds the rows of a group of 4, row 4g + p at p*B*EB)
      wire [4*B*EB-1:0] dbg_snoop_group = u_system.g_core[c].u_cache.u_snoop.u_tags.mem[dbg_row_i >> 2];
      wire [B*EB-1:0]   dbg_row = dbg_snoop_group[dbg_row_i[1:0] * B * EB +: B * EB];
      genvar b;
      for (b = 0; b < 8; b = b + 1) begin : g_dbg
        if (b < B) begin : g_bank
          assign dbg_slots_o[c][32*b +: 32] = {{(32-EB){1'b0}}, dbg_row[b*EB +: EB]};
        end else begin : g_none
          assign dbg_slots_o[c][32*b +: 32] = 32'd0;
        end
      end
      // The controller's row-state word of the row's group of 4 (its layout:
      // stc_cache_ctrl's RSW, FOFF, XOFF for a D-cache).
      localparam integer RECB = (B > 1) ? B * (B - 1) / 2 : 1;
      localparam integer FOFF = B + RECB + B;
      localparam integer XOFF = FOFF + 2 * B;
      localparam integer RSW  = XOFF + (EXCL != 0 ? B : 0);
      wire [4*RSW-1:0] dbg_group = u_system.g_core[c].u_cache.u_ctrl.u_rowstate.mem[dbg_row_i >> 2];
      wire [RSW-1:0]   dbg_rs    = dbg_group[dbg_row_i[1:0] * RSW +: RSW];
      wire [B-1:0]     dbg_excl;
      if (EXCL != 0) begin : g_excl
        assign dbg_excl = dbg_rs[XOFF +: B];
      end else begin : g_no_excl
        assign dbg_excl = {B{1'b0}};
      end
      assign dbg_rowstate_o[c] = {dbg_excl, dbg_rs[B + RECB +: B], dbg_rs[0 +: B]};
    end
  endgenerate

  // Each core's monitor tuner (ARCHITECTURE.md 18): the handshake and event
  // inputs of its decision unit and every flop the C model has, one per
  // word (zero-extended), in coh_dut_tuner_view's order.
  generate
    for (c = 0; c < N; c = c + 1) begin : g_dbg_tuner
      wire [32*TW-1:0] view;
`ifdef TB_COH_TUNER
      assign view[32*0 +: 32]  = {28'd0, u_system.g_core[c].u_cache.u_tuner.ev_access_i,
                                  u_system.g_core[c].u_cache.u_tuner.cfg_err_i,
                                  u_system.g_core[c].u_cache.u_tuner.cfg_done_i,
                                  u_system.g_core[c].u_cache.u_tuner.cfg_ready_i};
      assign view[32*1 +: 32]  = 32'(u_system.g_core[c].u_cache.u_tuner.enable_q);
      assign view[32*2 +: 32]  = 32'(u_system.g_core[c].u_cache.u_tuner.win_q);
      assign view[32*3 +: 32]  = 32'(u_system.g_core[c].u_cache.u_tuner.deciding_q);
      assign view[32*4 +: 32]  = 32'(u_system.g_core[c].u_cache.u_tuner.step_q);
      assign view[32*5 +: 32]  = 32'(u_system.g_core[c].u_cache.u_tuner.watched_q);
      assign view[32*6 +: 32]  = 32'(u_system.g_core[c].u_cache.u_tuner.operand_q);
      assign view[32*7 +: 32]  = 32'(u_system.g_core[c].u_cache.u_tuner.energy_q);
      assign view[32*8 +: 32]  = 32'(u_system.g_core[c].u_cache.u_tuner.lowest_q);
      assign view[32*9 +: 32]  = 32'(u_system.g_core[c].u_cache.u_tuner.lowest_code_q);
      assign view[32*10 +: 32] = 32'(u_system.g_core[c].u_cache.u_tuner.current_q);
      assign view[32*11 +: 32] = 32'(u_system.g_core[c].u_cache.u_tuner.pending_q);
      assign view[32*12 +: 32] = 32'(u_system.g_core[c].u_cache.u_tuner.sent_q);
      assign view[32*13 +: 32] = 32'(u_system.g_core[c].u_cache.u_tuner.target_q);
      assign view[32*14 +: 32] = 32'(u_system.g_core[c].u_cache.u_tuner.decisions_q);
      assign view[32*15 +: 32] = 32'(u_system.g_core[c].u_cache.u_tuner.changes_q);
`else
      assign view = {(32*TW){1'b0}};
`endif
      assign dbg_tuner_o[c] = view;
    end
  endgenerate

endmodule

`resetall
