// stc_soc_console.v - the example SoC's console and exit device (APB4
// completer)
//
// Registers (byte offsets in its 4 KiB window; 32-bit, no wait states):
//   0x000 TX     WO  a write sends byte [7:0] to the console (tx_valid_o
//                    for one cycle with tx_data_o)
//   0x004 EXIT   WO  a write ends the simulation with code [7:0]
//                    (exit_valid_o for one cycle with exit_code_o)
//   0x008 CYCLES RO  cycles since reset (informational: it differs between
//                    the cached and the reference run, so programs print
//                    it only on '#' lines, which soc/run.sh does not compare)
// Reads of TX and EXIT return 0. Anything else, or a write with no byte
// enabled, is refused with PSLVERR. The testbench, not this block, prints
// the characters and stops the simulation, so the block stays synthesizable.
`timescale 1ns / 1ps
`default_nettype none
module stc_soc_console (
  input  wire        clk_i,
  input  wire        rst_ni,        // asynchronous reset, active low
  input  wire        psel_i,        // APB4 completer
  input  wire        penable_i,
  input  wire        pwrite_i,
  input  wire [11:0] paddr_i,
  input  wire [31:0] pwdata_i,
  input  wire [3:0]  pstrb_i,
  output wire        pready_o,      // always 1
  output wire [31:0] prdata_o,
  output wire        pslverr_o,
  output wire        tx_valid_o,
  output wire [7:0]  tx_data_o,
  output wire        exit_valid_o,
  output wire [7:0]  exit_code_o
);

  localparam [9:0] R_TX     = 10'd0;
  localparam [9:0] R_EXIT   = 10'd1;
  localparam [9:0] R_CYCLES = 10'd2;

  reg         tx_valid_q, exit_valid_q;
  reg  [7:0]  tx_data_q, exit_code_q;
  reg  [31:0] cycles_q;

  wire [9:0] word   = paddr_i[11:2];
  wire       access = psel_i && penable_i;
  wire       known  = (word == R_TX) || (word == R_EXIT) || (word == R_CYCLES);
  // Only TX and EXIT take writes, and a write must carry byte 0.
  wire       bad    = !known || (pwrite_i && (word == R_CYCLES || !pstrb_i[0]));

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tx_valid_q   <= 1'b0;
      tx_data_q    <= 8'd0;
      exit_valid_q <= 1'b0;
      exit_code_q  <= 8'd0;
      cycles_q     <= 32'd0;
    end else begin
      cycles_q     <= cycles_q + 32'd1;
      tx_valid_q   <= access && pwrite_i && !bad && (word == R_TX);
      exit_valid_q <= access && pwrite_i && !bad && (word == R_EXIT);
      if (access && pwrite_i && !bad && word == R_TX) tx_data_q <= pwdata_i[7:0];
      if (access && pwrite_i && !bad && word == R_EXIT) exit_code_q <= pwdata_i[7:0];
    end
  end

  assign pready_o     = 1'b1;
  assign pslverr_o    = access && bad;
  assign prdata_o     = (access && !pwrite_i && word == R_CYCLES) ? cycles_q : 32'd0;
  assign tx_valid_o   = tx_valid_q;
  assign tx_data_o    = tx_data_q;
  assign exit_valid_o = exit_valid_q;
  assign exit_code_o  = exit_code_q;

  // PADDR bits 1:0 and the upper PWDATA / PSTRB bits are not used.
  wire unused_ok = &{1'b0, paddr_i[1:0], pwdata_i[31:8], pstrb_i[3:1]};

endmodule
`default_nettype wire
