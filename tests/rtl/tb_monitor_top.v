// tb_monitor_top.v - the monitor tuner's two generated halves wired as
// stc_cache will wire them: stc_monitor's count port driven by
// stc_monitor_tuner's select (docs/ARCHITECTURE.md sections 17-18), for the
// lockstep test (monitor_lockstep.c through tb_monitor.cpp). peek_i hands
// the count port to the harness for reads between clock edges (the unit
// samples cnt_i only at an edge, so a peek changes nothing).
`timescale 1ns / 1ps
`default_nettype none

module tb_monitor_top #(
  parameter integer READ_ONLY = 0
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        ev_valid_i,
  input  wire [63:0] ev_line_i,
  input  wire        ev_write_i,
  input  wire        peek_i,
  input  wire [15:0] peek_sel_i,
  output wire [15:0] cnt_o,
  output wire [15:0] watched_o,     // the monitor's count 0 port, as the unit sees it
  output wire [15:0] tuner_sel_o,
  input  wire [8:0]  cur_code_i,
  output wire        cfg_valid_o,
  input  wire        cfg_ready_i,
  output wire [8:0]  cfg_code_o,
  input  wire        cfg_done_i,
  input  wire        cfg_err_i,
  output wire        busy_o,
  input  wire        reg_we_i,
  input  wire [2:0]  reg_addr_i,
  input  wire [31:0] reg_wdata_i,
  output wire [31:0] reg_rdata_o,
  output wire [31:0] row_writes_o   // rows the monitor's stage 1 wrote (simulation counter)
);
  localparam integer LINE_BITS = `STC_LINE_BITS;
  localparam integer SEL_BITS = `STC_SEL_BITS;

  wire [SEL_BITS-1:0] tuner_sel;
  wire [SEL_BITS-1:0] cnt_sel = peek_i ? peek_sel_i[SEL_BITS-1:0] : tuner_sel;
  wire [63:0] unused_line = ev_line_i;
  wire [15:0] unused_peek = peek_sel_i;

  stc_monitor #(.READ_ONLY(READ_ONLY)) u_monitor (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .ev_valid_i (ev_valid_i),
    .ev_line_i  (ev_line_i[LINE_BITS-1:0]),
    .ev_write_i (ev_write_i),
    .cnt_sel_i  (cnt_sel),
    .cnt_o      (cnt_o),
    .watched_o  (watched_o)
  );

  stc_monitor_tuner #(.READ_ONLY(READ_ONLY)) u_tuner (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .ev_access_i     (ev_valid_i),
    .cnt_sel_o       (tuner_sel),
    .cnt_i           (cnt_o),
    .watched_i       (watched_o),
    .cur_banks_log_i (cur_code_i[2:0]),
    .cur_ways_log_i  (cur_code_i[5:3]),
    .cur_sub_log_i   (cur_code_i[7:6]),
    .cur_wp_i        (cur_code_i[8]),
    .cfg_valid_o     (cfg_valid_o),
    .cfg_ready_i     (cfg_ready_i),
    .cfg_banks_log_o (cfg_code_o[2:0]),
    .cfg_ways_log_o  (cfg_code_o[5:3]),
    .cfg_sub_log_o   (cfg_code_o[7:6]),
    .cfg_wp_o        (cfg_code_o[8]),
    .cfg_done_i      (cfg_done_i),
    .cfg_err_i       (cfg_err_i),
    .busy_o          (busy_o),
    .reg_we_i        (reg_we_i),
    .reg_addr_i      (reg_addr_i),
    .reg_wdata_i     (reg_wdata_i),
    .reg_rdata_o     (reg_rdata_o)
  );

  assign tuner_sel_o = {{(16 - SEL_BITS){1'b0}}, tuner_sel};
  assign row_writes_o = u_monitor.sim_row_writes_d;
endmodule

`default_nettype wire
