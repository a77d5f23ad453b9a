// tb_soc_ref.v - testbench top of the reference run: stc_soc_ref (the
// core without caches) on the two-port OBI memory tb_obi_mem. Its ports
// are tb_soc's, so one C++ main (soc/tb/tb_main.cpp) drives both; it
// writes no trace (there is no cache) and its axi_err_o is 0.
`timescale 1ns / 1ps
`default_nettype none
module tb_soc_ref #(
  parameter integer LAT = 1
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        fetch_en_i,
  output wire        halted_o,
  output wire [3:0]  halt_cause_o,
  output wire [31:0] halt_pc_o,
  output wire [31:0] instret_o,
  output wire        tx_valid_o,
  output wire [7:0]  tx_data_o,
  output wire        exit_valid_o,
  output wire [7:0]  exit_code_o,
  input  wire        dbg_req_i,
  output wire        dbg_gnt_o,
  input  wire [31:0] dbg_addr_i,
  input  wire        dbg_we_i,
  input  wire [3:0]  dbg_be_i,
  input  wire [31:0] dbg_wdata_i,
  output wire        dbg_rvalid_o,
  output wire [31:0] dbg_rdata_o,
  output wire        dbg_err_o,
  output wire        axi_err_o
);

  wire        mi_req, mi_gnt, mi_rvalid, mi_err;
  wire [31:0] mi_addr, mi_rdata;
  wire        md_req, md_gnt, md_we, md_rvalid, md_err;
  wire [31:0] md_addr, md_wdata, md_rdata;
  wire [3:0]  md_be;

  stc_soc_ref u_soc (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .fetch_en_i   (fetch_en_i),
    .halted_o     (halted_o),
    .halt_cause_o (halt_cause_o),
    .halt_pc_o    (halt_pc_o),
    .instret_o    (instret_o),
    .tx_valid_o   (tx_valid_o),
    .tx_data_o    (tx_data_o),
    .exit_valid_o (exit_valid_o),
    .exit_code_o  (exit_code_o),
    .dbg_req_i    (dbg_req_i),
    .dbg_gnt_o    (dbg_gnt_o),
    .dbg_addr_i   (dbg_addr_i),
    .dbg_we_i     (dbg_we_i),
    .dbg_be_i     (dbg_be_i),
    .dbg_wdata_i  (dbg_wdata_i),
    .dbg_rvalid_o (dbg_rvalid_o),
    .dbg_rdata_o  (dbg_rdata_o),
    .dbg_err_o    (dbg_err_o),
    .mi_req_o     (mi_req),
    .mi_gnt_i     (mi_gnt),
    .mi_addr_o    (mi_addr),
    .mi_rvalid_i  (mi_rvalid),
    .mi_rdata_i   (mi_rdata),
    .mi_err_i     (mi_err),
    .md_req_o     (md_req),
    .md_gnt_i     (md_gnt),
    .md_addr_o    (md_addr),
    .md_we_o      (md_we),
    .md_be_o      (md_be),
    .md_wdata_o   (md_wdata),
    .md_rvalid_i  (md_rvalid),
    .md_rdata_i   (md_rdata),
    .md_err_i     (md_err)
  );

  tb_obi_mem #(.LAT (LAT)) u_mem (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .i_req_i    (mi_req),
    .i_gnt_o    (mi_gnt),
    .i_addr_i   (mi_addr),
    .i_rvalid_o (mi_rvalid),
    .i_rdata_o  (mi_rdata),
    .i_err_o    (mi_err),
    .d_req_i    (md_req),
    .d_gnt_o    (md_gnt),
    .d_addr_i   (md_addr),
    .d_we_i     (md_we),
    .d_be_i     (md_be),
    .d_wdata_i  (md_wdata),
    .d_rvalid_o (md_rvalid),
    .d_rdata_o  (md_rdata),
    .d_err_o    (md_err)
  );

  assign axi_err_o = 1'b0;

endmodule
`default_nettype wire
