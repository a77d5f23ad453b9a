// tb_soc.v - testbench top of the example SoC with caches (Verilator;
// soc/tb/tb_main.cpp drives the clock, the reset and the debug port)
//
// stc_soc and its AXI4 memory (tb_axi_mem, LAT cycles to the first beat).
// Trace: every request a cache's CPU port accepts (valid && ready at a
// rising edge) is written in lackey format to +trace_i=FILE (I-cache:
// "I  addr,4") and +trace_d=FILE (D-cache: " L addr,4" for a load, the
// whole word the cache reads; " S addr,size" for a store, the bytes its
// byte enables select). These are exactly the requests the caches count,
// so stcsim replaying them in the configuration the caches ran in must
// count what their counters count. Where a file starts, and which part
// of it the counters cover: below.
`timescale 1ns / 1ps
`default_nettype none
module tb_soc #(
  parameter integer LAT = 10
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

  wire [1:0]  i_arid, d_awid, d_arid, i_arburst, d_awburst, d_arburst;
  wire [31:0] i_araddr, d_awaddr, d_araddr, i_rdata, d_wdata, d_rdata;
  wire [7:0]  i_arlen, d_awlen, d_arlen;
  wire [2:0]  i_arsize, d_awsize, d_arsize;
  wire        i_arvalid, i_arready, i_rlast, i_rvalid, i_rready;
  wire        d_awvalid, d_awready, d_wlast, d_wvalid, d_wready, d_bvalid, d_bready;
  wire        d_arvalid, d_arready, d_rlast, d_rvalid, d_rready;
  wire [1:0]  i_rresp, d_bresp, d_rresp;
  wire [3:0]  d_wstrb;

  stc_soc u_soc (
    .clk_i             (clk_i),
    .rst_ni            (rst_ni),
    .fetch_en_i        (fetch_en_i),
    .halted_o          (halted_o),
    .halt_cause_o      (halt_cause_o),
    .halt_pc_o         (halt_pc_o),
    .instret_o         (instret_o),
    .tx_valid_o        (tx_valid_o),
    .tx_data_o         (tx_data_o),
    .exit_valid_o      (exit_valid_o),
    .exit_code_o       (exit_code_o),
    .dbg_req_i         (dbg_req_i),
    .dbg_gnt_o         (dbg_gnt_o),
    .dbg_addr_i        (dbg_addr_i),
    .dbg_we_i          (dbg_we_i),
    .dbg_be_i          (dbg_be_i),
    .dbg_wdata_i       (dbg_wdata_i),
    .dbg_rvalid_o      (dbg_rvalid_o),
    .dbg_rdata_o       (dbg_rdata_o),
    .dbg_err_o         (dbg_err_o),
    .m_axi_i_arid_o    (i_arid),
    .m_axi_i_araddr_o  (i_araddr),
    .m_axi_i_arlen_o   (i_arlen),
    .m_axi_i_arsize_o  (i_arsize),
    .m_axi_i_arburst_o (i_arburst),
    .m_axi_i_arvalid_o (i_arvalid),
    .m_axi_i_arready_i (i_arready),
    .m_axi_i_rdata_i   (i_rdata),
    .m_axi_i_rresp_i   (i_rresp),
    .m_axi_i_rlast_i   (i_rlast),
    .m_axi_i_rvalid_i  (i_rvalid),
    .m_axi_i_rready_o  (i_rready),
    .m_axi_d_awid_o    (d_awid),
    .m_axi_d_awaddr_o  (d_awaddr),
    .m_axi_d_awlen_o   (d_awlen),
    .m_axi_d_awsize_o  (d_awsize),
    .m_axi_d_awburst_o (d_awburst),
    .m_axi_d_awvalid_o (d_awvalid),
    .m_axi_d_awready_i (d_awready),
    .m_axi_d_wdata_o   (d_wdata),
    .m_axi_d_wstrb_o   (d_wstrb),
    .m_axi_d_wlast_o   (d_wlast),
    .m_axi_d_wvalid_o  (d_wvalid),
    .m_axi_d_wready_i  (d_wready),
    .m_axi_d_bresp_i   (d_bresp),
    .m_axi_d_bvalid_i  (d_bvalid),
    .m_axi_d_bready_o  (d_bready),
    .m_axi_d_arid_o    (d_arid),
    .m_axi_d_araddr_o  (d_araddr),
    .m_axi_d_arlen_o   (d_arlen),
    .m_axi_d_arsize_o  (d_arsize),
    .m_axi_d_arburst_o (d_arburst),
    .m_axi_d_arvalid_o (d_arvalid),
    .m_axi_d_arready_i (d_arready),
    .m_axi_d_rdata_i   (d_rdata),
    .m_axi_d_rresp_i   (d_rresp),
    .m_axi_d_rlast_i   (d_rlast),
    .m_axi_d_rvalid_i  (d_rvalid),
    .m_axi_d_rready_o  (d_rready),
    .axi_err_o         (axi_err_o)
  );

  tb_axi_mem #(.LAT (LAT)) u_mem (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .i_araddr_i  (i_araddr),
    .i_arlen_i   (i_arlen),
    .i_arvalid_i (i_arvalid),
    .i_arready_o (i_arready),
    .i_rdata_o   (i_rdata),
    .i_rresp_o   (i_rresp),
    .i_rlast_o   (i_rlast),
    .i_rvalid_o  (i_rvalid),
    .i_rready_i  (i_rready),
    .d_awaddr_i  (d_awaddr),
    .d_awlen_i   (d_awlen),
    .d_awvalid_i (d_awvalid),
    .d_awready_o (d_awready),
    .d_wdata_i   (d_wdata),
    .d_wstrb_i   (d_wstrb),
    .d_wlast_i   (d_wlast),
    .d_wvalid_i  (d_wvalid),
    .d_wready_o  (d_wready),
    .d_bresp_o   (d_bresp),
    .d_bvalid_o  (d_bvalid),
    .d_bready_i  (d_bready),
    .d_araddr_i  (d_araddr),
    .d_arlen_i   (d_arlen),
    .d_arvalid_i (d_arvalid),
    .d_arready_o (d_arready),
    .d_rdata_o   (d_rdata),
    .d_rresp_o   (d_rresp),
    .d_rlast_o   (d_rlast),
    .d_rvalid_o  (d_rvalid),
    .d_rready_i  (d_rready)
  );

  // Bursts are INCR of 4-byte beats; the model does not look at the rest.
  wire unused_ok = &{1'b0, i_arid, d_awid, d_arid, i_arburst, d_awburst, d_arburst,
                     i_arsize, d_awsize, d_arsize};

  // ------------------------------------------------ the trace
  // Per cache: the file holds the requests since the cache was last empty
  // (reset, or the end of a maintenance invalidation of every line: op 2
  // or 3 with ALL), because stcsim starts from an empty cache; the mark
  // file (+mark_i / +mark_d) gets the number of those requests made before
  // the counters were last cleared (0 if they never were). soc/run.sh
  // replays the whole file and its first `mark` lines and compares the
  // difference with the counters: the requests after the clear, counted
  // in the state the ones before it left. A request accepted in the
  // clear's cycle is counted (ARCHITECTURE.md 15.2), so it is after the
  // mark. Emptying a cache after its counters were cleared leaves no
  // trace that matches them: the mark is then -1 and run.sh fails.
  integer    fd_i = 0, fd_d = 0;
  integer    lines_i = 0, lines_d = 0, mark_i = 0, mark_d = 0;
  reg        cleared_i = 1'b0, cleared_d = 1'b0;
  reg        inv_all_i = 1'b0, inv_all_d = 1'b0;   // the operation in progress empties the cache
  reg [1023:0] name_i, name_d, name_mark_i, name_mark_d;
  reg        have_mark_i = 1'b0, have_mark_d = 1'b0;
  integer    fd_m;
  initial begin
    if ($value$plusargs("trace_i=%s", name_i)) fd_i = $fopen(name_i, "w");
    if ($value$plusargs("trace_d=%s", name_d)) fd_d = $fopen(name_d, "w");
    have_mark_i = $value$plusargs("mark_i=%s", name_mark_i);
    have_mark_d = $value$plusargs("mark_d=%s", name_mark_d);
  end

  // A store's first byte and size from its byte enables (contiguous: SB,
  // SH, SW on aligned addresses).
  function [1:0] be_first;
    input [3:0] be;
    begin
      be_first = be[0] ? 2'd0 : be[1] ? 2'd1 : be[2] ? 2'd2 : 2'd3;
    end
  endfunction
  function [2:0] be_size;
    input [3:0] be;
    begin
      be_size = {2'b00, be[0]} + {2'b00, be[1]} + {2'b00, be[2]} + {2'b00, be[3]};
    end
  endfunction

  always @(posedge clk_i) begin
    if (fd_i != 0) begin
      if (u_soc.i_mnt_valid && u_soc.i_mnt_ready)
        inv_all_i <= u_soc.i_mnt_op[1] && u_soc.i_mnt_all;
      // mnt_done of an operation other than 0 comes after its acceptance.
      if (u_soc.i_mnt_done && inv_all_i && !(u_soc.i_mnt_valid && u_soc.i_mnt_ready)) begin
        $fclose(fd_i);
        fd_i = $fopen(name_i, "w");
        lines_i = 0;
        mark_i = cleared_i ? -1 : 0;
      end
      if (u_soc.i_cnt_clear) begin
        cleared_i = 1'b1;
        mark_i = lines_i;
      end
      if (u_soc.ic_req_valid && u_soc.ic_req_ready) begin
        $fwrite(fd_i, "I  %08x,4\n", {u_soc.ic_req_addr, 2'b00});
        lines_i = lines_i + 1;
      end
    end
    if (fd_d != 0) begin
      if (u_soc.d_mnt_valid && u_soc.d_mnt_ready)
        inv_all_d <= u_soc.d_mnt_op[1] && u_soc.d_mnt_all;
      if (u_soc.d_mnt_done && inv_all_d && !(u_soc.d_mnt_valid && u_soc.d_mnt_ready)) begin
        $fclose(fd_d);
        fd_d = $fopen(name_d, "w");
        lines_d = 0;
        mark_d = cleared_d ? -1 : 0;
      end
      if (u_soc.d_cnt_clear) begin
        cleared_d = 1'b1;
        mark_d = lines_d;
      end
      if (u_soc.dc_req_valid && u_soc.dc_req_ready) begin
        if (u_soc.dc_req_we)
          $fwrite(fd_d, " S %08x,%0d\n", {u_soc.dc_req_addr, be_first(u_soc.dc_req_be)},
                  be_size(u_soc.dc_req_be));
        else
          $fwrite(fd_d, " L %08x,4\n", {u_soc.dc_req_addr, 2'b00});
        lines_d = lines_d + 1;
      end
    end
  end

  final begin
    if (fd_i != 0) $fclose(fd_i);
    if (fd_d != 0) $fclose(fd_d);
    if (have_mark_i) begin
      fd_m = $fopen(name_mark_i, "w");
      $fwrite(fd_m, "%0d\n", mark_i);
      $fclose(fd_m);
    end
    if (have_mark_d) begin
      fd_m = $fopen(name_mark_d, "w");
      $fwrite(fd_m, "%0d\n", mark_d);
      $fclose(fd_m);
    end
  end

endmodule
`default_nettype wire
