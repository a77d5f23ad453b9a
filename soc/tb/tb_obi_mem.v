// tb_obi_mem.v - behavioural two-port OBI memory for the reference run
// (the example SoC's testbench, not synthesizable)
//
// The core's I and D ports straight to one word array: gnt while no
// response is owed, the response LAT + 1 cycles after the grant (the
// grant's edge registers the request, LAT edges later rvalid rises).
// A store writes at its grant (its byte enables); a load reads there.
// Loaded from +image=FILE like tb_axi_mem, with its alias (address bit 29
// ignored). Outside the array: err.
`timescale 1ns / 1ps
`default_nettype none
module tb_obi_mem #(
  parameter integer WORDS = 65536,
  parameter integer LAT   = 1,
  parameter [31:0]  ALIAS_MASK = 32'hdfff_ffff  // as tb_axi_mem: 0x2000_0000 aliases 0
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  input  wire        i_req_i,
  output wire        i_gnt_o,
  input  wire [31:0] i_addr_i,
  output reg         i_rvalid_o,
  output reg  [31:0] i_rdata_o,
  output reg         i_err_o,
  input  wire        d_req_i,
  output wire        d_gnt_o,
  input  wire [31:0] d_addr_i,
  input  wire        d_we_i,
  input  wire [3:0]  d_be_i,
  input  wire [31:0] d_wdata_i,
  output reg         d_rvalid_o,
  output reg  [31:0] d_rdata_o,
  output reg         d_err_o
);

  reg [31:0] mem [0:WORDS-1];
  reg [1023:0] image;
  integer k;
  initial begin
    for (k = 0; k < WORDS; k = k + 1) mem[k] = 32'd0;
    if ($value$plusargs("image=%s", image)) $readmemh(image, mem);
    else $display("tb_obi_mem: no +image=FILE: memory is all zeros");
  end

  wire [31:0] i_a = i_addr_i & ALIAS_MASK;
  wire [31:0] d_a = d_addr_i & ALIAS_MASK;

  integer i_wait, d_wait;
  reg     i_busy, d_busy;
  reg [31:0] i_data, d_data;
  reg        i_bad, d_bad;

  assign i_gnt_o = !i_busy;
  assign d_gnt_o = !d_busy;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      i_busy <= 1'b0; i_rvalid_o <= 1'b0; i_wait <= 0; i_data <= 32'd0; i_bad <= 1'b0;
      i_rdata_o <= 32'd0; i_err_o <= 1'b0;
    end else begin
      i_rvalid_o <= 1'b0;
      if (!i_busy && i_req_i) begin
        i_busy <= 1'b1; i_wait <= LAT - 1;
        i_bad  <= !(i_a[31:2] < WORDS);
        i_data <= (i_a[31:2] < WORDS) ? mem[i_a[31:2]] : 32'd0;
      end else if (i_busy) begin
        if (i_wait == 0) begin
          i_rvalid_o <= 1'b1; i_rdata_o <= i_data; i_err_o <= i_bad; i_busy <= 1'b0;
        end else i_wait <= i_wait - 1;
      end
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      d_busy <= 1'b0; d_rvalid_o <= 1'b0; d_wait <= 0; d_data <= 32'd0; d_bad <= 1'b0;
      d_rdata_o <= 32'd0; d_err_o <= 1'b0;
    end else begin
      d_rvalid_o <= 1'b0;
      if (!d_busy && d_req_i) begin
        d_busy <= 1'b1; d_wait <= LAT - 1;
        d_bad  <= !(d_a[31:2] < WORDS);
        d_data <= (d_a[31:2] < WORDS) ? mem[d_a[31:2]] : 32'd0;
        if (d_we_i && d_a[31:2] < WORDS) begin
          if (d_be_i[0]) mem[d_a[31:2]][7:0]   <= d_wdata_i[7:0];
          if (d_be_i[1]) mem[d_a[31:2]][15:8]  <= d_wdata_i[15:8];
          if (d_be_i[2]) mem[d_a[31:2]][23:16] <= d_wdata_i[23:16];
          if (d_be_i[3]) mem[d_a[31:2]][31:24] <= d_wdata_i[31:24];
        end
      end else if (d_busy) begin
        if (d_wait == 0) begin
          d_rvalid_o <= 1'b1; d_rdata_o <= d_data; d_err_o <= d_bad; d_busy <= 1'b0;
        end else d_wait <= d_wait - 1;
      end
    end
  end

endmodule
`default_nettype wire
