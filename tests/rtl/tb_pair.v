// tb_pair: smoke test of stc_cache_pair (ARCHITECTURE.md 14.3), default
// geometry: the I-cache fetches through its own memory port, the D-cache
// stores and loads through the other, and neither sees the other's traffic
// (no coherence between them: the I-cache keeps memory's old word after the
// D-cache stored to the same address). Prints "tb_pair: PASS".
`timescale 1ns / 1ps
`default_nettype none
module tb_pair;
  reg clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;
  integer errors = 0;

  // A memory per port: requests taken when idle, read beats LAT cycles
  // later, write beats taken at once then acknowledged. Word w holds
  // pattern(w) until written.
  localparam integer LAT = 3;
  function [31:0] pattern;
    input [31:0] w;
    begin
      pattern = w ^ 32'hC0DE0000;
    end
  endfunction

  reg         i_valid = 1'b0;
  reg  [29:0] i_addr = 30'd0;
  wire        i_ready, i_rsp_valid;
  wire [31:0] i_rdata;
  wire        i_mreq_valid;
  wire [27:0] i_mreq_line;
  wire [2:0]  i_mreq_lines;
  reg         i_mrvalid = 1'b0;
  reg  [31:0] i_mrdata = 32'd0;
  wire [3:0]  i_pwr;
  wire [31:0] i_cnt;

  reg         d_valid = 1'b0, d_we = 1'b0;
  reg  [29:0] d_addr = 30'd0;
  reg  [31:0] d_wdata = 32'd0;
  wire        d_ready, d_rsp_valid, d_rsp_err;
  wire [31:0] d_rdata;
  wire        d_mreq_valid, d_mreq_we, d_mwvalid;
  wire [27:0] d_mreq_line;
  wire [2:0]  d_mreq_lines;
  wire [31:0] d_mwdata;
  reg         d_mrvalid = 1'b0, d_mbvalid = 1'b0;
  reg  [31:0] d_mrdata = 32'd0;
  wire [3:0]  d_pwr;
  wire [31:0] d_cnt;

  stc_cache_pair dut (
    .clk_i(clk), .rst_ni(rst_n),
    .i_cpu_req_valid_i(i_valid), .i_cpu_req_ready_o(i_ready), .i_cpu_req_addr_i(i_addr),
    .i_cpu_rsp_valid_o(i_rsp_valid), .i_cpu_rsp_rdata_o(i_rdata),
    .i_cfg_valid_i(1'b0), .i_cfg_ready_o(), .i_cfg_banks_log_i(3'd0), .i_cfg_ways_log_i(3'd0),
    .i_cfg_sub_log_i(2'd0), .i_cfg_wp_i(1'b0), .i_cfg_done_o(), .i_cfg_err_o(),
    .i_cfg_banks_log_o(), .i_cfg_ways_log_o(), .i_cfg_sub_log_o(), .i_cfg_wp_o(),
    .i_mnt_valid_i(1'b0), .i_mnt_ready_o(), .i_mnt_op_i(2'd0), .i_mnt_all_i(1'b0),
    .i_mnt_addr_i(30'd0), .i_mnt_done_o(),
    .i_cnt_sel_i(5'd2), .i_cnt_clear_i(1'b0), .i_cnt_value_o(i_cnt),
    .i_tun_we_i(1'b0), .i_tun_addr_i(3'd0), .i_tun_wdata_i(32'd0), .i_tun_rdata_o(),
    .i_tun_busy_o(),
    .i_mem_req_valid_o(i_mreq_valid), .i_mem_req_ready_i(1'b1), .i_mem_req_line_o(i_mreq_line),
    .i_mem_req_lines_o(i_mreq_lines), .i_mem_rvalid_i(i_mrvalid), .i_mem_rdata_i(i_mrdata),
    .i_pwr_en_o(i_pwr), .i_pwr_ack_i(i_pwr),
    .d_cpu_req_valid_i(d_valid), .d_cpu_req_ready_o(d_ready), .d_cpu_req_we_i(d_we),
    .d_cpu_req_addr_i(d_addr), .d_cpu_req_be_i(4'hf), .d_cpu_req_wdata_i(d_wdata),
    .d_cpu_rsp_valid_o(d_rsp_valid), .d_cpu_rsp_err_o(d_rsp_err), .d_cpu_rsp_rdata_o(d_rdata),
    .d_cfg_valid_i(1'b0), .d_cfg_ready_o(), .d_cfg_banks_log_i(3'd0), .d_cfg_ways_log_i(3'd0),
    .d_cfg_sub_log_i(2'd0), .d_cfg_wp_i(1'b0), .d_cfg_done_o(), .d_cfg_err_o(),
    .d_cfg_banks_log_o(), .d_cfg_ways_log_o(), .d_cfg_sub_log_o(), .d_cfg_wp_o(),
    .d_mnt_valid_i(1'b0), .d_mnt_ready_o(), .d_mnt_op_i(2'd0), .d_mnt_all_i(1'b0),
    .d_mnt_addr_i(30'd0), .d_mnt_done_o(),
    .d_cnt_sel_i(5'd2), .d_cnt_clear_i(1'b0), .d_cnt_value_o(d_cnt),
    .d_tun_we_i(1'b0), .d_tun_addr_i(3'd0), .d_tun_wdata_i(32'd0), .d_tun_rdata_o(),
    .d_tun_busy_o(),
    .d_mem_req_valid_o(d_mreq_valid), .d_mem_req_ready_i(1'b1), .d_mem_req_we_o(d_mreq_we),
    .d_mem_req_line_o(d_mreq_line), .d_mem_req_lines_o(d_mreq_lines),
    .d_mem_wvalid_o(d_mwvalid), .d_mem_wready_i(1'b1), .d_mem_wdata_o(d_mwdata),
    .d_mem_bvalid_i(d_mbvalid), .d_mem_rvalid_i(d_mrvalid), .d_mem_rdata_i(d_mrdata),
    .d_pwr_en_o(d_pwr), .d_pwr_ack_i(d_pwr)
  );

  // Each port's read requests are answered after LAT cycles; the harness
  // never overlaps them (one request at a time per cache), so a request is
  // served to completion before the next is looked at.
  integer i_reads = 0, d_reads = 0, d_writes = 0;
  task automatic serve_read;
    input        icache;
    input [27:0] line;
    input [2:0]  lines;
    integer beat;
    begin
      repeat (LAT) @(negedge clk);
      for (beat = 0; beat < lines * 4; beat = beat + 1) begin
        if (icache) begin i_mrvalid = 1'b1; i_mrdata = pattern(line * 4 + beat); end
        else begin d_mrvalid = 1'b1; d_mrdata = pattern(line * 4 + beat); end
        @(negedge clk);
      end
      i_mrvalid = 1'b0; d_mrvalid = 1'b0;
    end
  endtask
  always @(posedge clk)
    if (i_mreq_valid) begin
      i_reads = i_reads + 1;
      serve_read(1'b1, i_mreq_line, i_mreq_lines);
    end
  always @(posedge clk)
    if (d_mreq_valid && !d_mreq_we) begin
      d_reads = d_reads + 1;
      serve_read(1'b0, d_mreq_line, d_mreq_lines);
    end else if (d_mreq_valid) begin
      d_writes = d_writes + 1;
    end

  task check_eq;
    input [255:0] what;
    input [31:0]  value, want;
    begin
      if (value !== want) begin
        $display("FAIL %0s: got %h, want %h", what, value, want);
        errors = errors + 1;
      end
    end
  endtask

  task fetch;                           // I-cache read of a byte address
    input [31:0] byte_addr;
    begin
      @(negedge clk); i_valid = 1'b1; i_addr = byte_addr[31:2];
      while (!i_ready) @(negedge clk);
      @(negedge clk); i_valid = 1'b0;
      while (!i_rsp_valid) @(negedge clk);
    end
  endtask
  task daccess;                         // D-cache load or store
    input        we;
    input [31:0] byte_addr, wdata;
    begin
      @(negedge clk); d_valid = 1'b1; d_we = we; d_addr = byte_addr[31:2]; d_wdata = wdata;
      while (!d_ready) @(negedge clk);
      @(negedge clk); d_valid = 1'b0;
      while (!d_rsp_valid) @(negedge clk);
    end
  endtask

  initial begin                         // a lost request must not hang the test
    #100000;
    $display("tb_pair: FAIL (timeout)");
    $finish;
  end

  localparam [31:0] X = 32'h0000_2468;
  initial begin
    repeat (3) @(posedge clk);
    #1 rst_n = 1'b1;
    repeat (2) @(posedge clk);
    fetch(X);
    check_eq("fetch data", i_rdata, pattern(X >> 2));
    check_eq("fetch used the I port", i_reads, 1);
    check_eq("fetch left the D port alone", d_reads + d_writes, 0);
    daccess(1'b1, X, 32'h1234_5678);
    check_eq("store no error", d_rsp_err, 0);
    check_eq("store miss read on the D port", d_reads, 1);
    daccess(1'b0, X, 32'h0);
    check_eq("load sees the store", d_rdata, 32'h1234_5678);
    fetch(X);
    check_eq("I-cache keeps memory's word (no coherence)", i_rdata, pattern(X >> 2));
    check_eq("second fetch hit", i_reads, 1);
    @(negedge clk);                     // counters count at the response's edge
    check_eq("I accesses", i_cnt, 2);
    check_eq("D accesses", d_cnt, 2);
    check_eq("no write-back yet", d_writes, 0);
    if (errors == 0) $display("tb_pair: PASS");
    else $display("tb_pair: FAIL (%0d errors)", errors);
    $finish;
  end
endmodule
`resetall
