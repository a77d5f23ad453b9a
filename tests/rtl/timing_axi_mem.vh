// timing_axi_mem.vh: a small deterministic AXI4 subordinate memory for
// tests/rtl/tb_timing.v (the timing diagrams of docs/TIMING.md). Included
// at file level: it defines the module timing_axi_mem.
//
// 64 Ki words, word w initially pattern(w) (the pattern of the other
// testbenches); addresses wrap at 256 KiB. One transaction at a time, as
// stc_cache_axi issues them. Every output is a flop:
//   - AWREADY / ARREADY are 1 while no transaction of their kind is open
//     (AWREADY also waits for the previous write's B);
//   - WREADY is 1 once the AW has been taken, until the last beat;
//   - BVALID rises B_LAT cycles after the cycle of the last W beat's
//     handshake ends (B_LAT = 0: in the next cycle) and stays until BREADY;
//   - the first R beat comes R_LAT cycles after the AR handshake's next
//     cycle, then one beat per cycle while RREADY, RLAST on the last.
// Responses are always OKAY. Nothing random: the same run gives the same
// waveforms, which is what docs/timing/*.json are compared against.
`timescale 1ns / 1ps
`default_nettype none
module timing_axi_mem #(
  parameter integer ADDR_BITS = 32,
  parameter integer R_LAT     = 2,
  parameter integer B_LAT     = 1
) (
  input  wire                 clk_i,
  input  wire                 rst_ni,
  input  wire [ADDR_BITS-1:0] awaddr_i,
  input  wire [7:0]           awlen_i,
  input  wire                 awvalid_i,
  output reg                  awready_o,
  input  wire [31:0]          wdata_i,
  input  wire [3:0]           wstrb_i,
  input  wire                 wlast_i,
  input  wire                 wvalid_i,
  output reg                  wready_o,
  output reg                  bvalid_o,
  output wire [1:0]           bresp_o,
  input  wire                 bready_i,
  input  wire [ADDR_BITS-1:0] araddr_i,
  input  wire [7:0]           arlen_i,
  input  wire                 arvalid_i,
  output reg                  arready_o,
  output reg                  rvalid_o,
  output reg  [31:0]          rdata_o,
  output reg                  rlast_o,
  output wire [1:0]           rresp_o,
  input  wire                 rready_i
);
  assign bresp_o = 2'b00;
  assign rresp_o = 2'b00;

  reg [31:0] mem [0:65535];
  function [31:0] pattern;
    input [31:0] w;
    begin
      pattern = (w * 32'h9e3779b1) ^ 32'h5a5a0000;
    end
  endfunction
  integer i;
  initial for (i = 0; i < 65536; i = i + 1) mem[i] = pattern(i);

  // Open transactions (updated with blocking assignments at the edge,
  // from the handshakes of the cycle the edge ends).
  integer aw_open, w_word, w_left, b_pend, b_cnt;
  integer r_open, r_word, r_left, r_cnt;
  integer n_reads, n_writes;
  // Not looked at: WLAST (the beats are counted from AWLEN).
  wire unused_wlast = wlast_i;
  wire [31:0] wmask = {{8{wstrb_i[3]}}, {8{wstrb_i[2]}}, {8{wstrb_i[1]}}, {8{wstrb_i[0]}}};

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      aw_open = 0; w_word = 0; w_left = 0; b_pend = 0; b_cnt = 0;
      r_open = 0; r_word = 0; r_left = 0; r_cnt = 0;
      n_reads = 0; n_writes = 0;
      awready_o <= 1'b0; wready_o <= 1'b0; bvalid_o <= 1'b0;
      arready_o <= 1'b0; rvalid_o <= 1'b0; rdata_o <= 32'd0; rlast_o <= 1'b0;
    end else begin
      // Write address, data, response.
      if (awvalid_i && awready_o) begin
        aw_open = 1; w_word = awaddr_i[17:2]; w_left = awlen_i + 1; n_writes = n_writes + 1;
      end
      if (wvalid_i && wready_o) begin
        mem[w_word[15:0]] = (mem[w_word[15:0]] & ~wmask) | (wdata_i & wmask);
        w_word = w_word + 1; w_left = w_left - 1;
        if (w_left == 0) begin aw_open = 0; b_pend = 1; b_cnt = B_LAT; end
      end
      if (bvalid_o && bready_i) begin
        b_pend = 0; bvalid_o <= 1'b0;
      end else if (b_pend && !bvalid_o) begin
        if (b_cnt == 0) bvalid_o <= 1'b1; else b_cnt = b_cnt - 1;
      end
      awready_o <= !aw_open && !b_pend;
      wready_o  <= aw_open && w_left > 0;
      // Read address and data.
      if (arvalid_i && arready_o) begin
        r_open = 1; r_word = araddr_i[17:2]; r_left = arlen_i + 1; r_cnt = R_LAT; n_reads = n_reads + 1;
      end
      if (rvalid_o && rready_i) begin
        r_word = r_word + 1; r_left = r_left - 1;
        if (r_left == 0) r_open = 0;
      end
      if (rvalid_o && !rready_i) begin
        // held until taken
      end else if (r_open && r_left > 0) begin
        if (r_cnt > 0) begin
          r_cnt = r_cnt - 1; rvalid_o <= 1'b0; rlast_o <= 1'b0;
        end else begin
          rvalid_o <= 1'b1; rdata_o <= mem[r_word[15:0]]; rlast_o <= (r_left == 1);
        end
      end else begin
        rvalid_o <= 1'b0; rlast_o <= 1'b0;
      end
      arready_o <= !r_open;
    end
  end
endmodule
