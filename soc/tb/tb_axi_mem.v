// tb_axi_mem.v - behavioural AXI4 memory with two subordinate ports (the
// example SoC's testbench, not synthesizable)
//
// One word array shared by an I port (AR and R only) and a D port (all
// five channels): what the D-cache writes back, the I-cache reads. Each
// port serves one transaction at a time per direction (the bridges issue
// one at a time): ARREADY / AWREADY while idle; a read's first beat LAT
// cycles after its AR handshake, then one beat a cycle (RVALID held until
// RREADY), RLAST on the last; a write takes its W beats once it has the
// address (WREADY after AW: allowed, a subordinate may wait for the
// address), applies WSTRB, and answers B LAT cycles after WLAST. INCR
// bursts of 4-byte beats only. Address bit 29 is ignored (ALIAS_MASK), so
// 0x2000_0000 up is the same memory (the SoC's uncached window). An address
// outside the array is answered SLVERR (read data 0, write ignored).
//
// The program image is loaded from +image=FILE ($readmemh, one 32-bit word
// a line from address 0).
`timescale 1ns / 1ps
`default_nettype none
module tb_axi_mem #(
  parameter integer WORDS = 65536,   // 256 KiB
  parameter integer LAT   = 10,
  // Address bits ignored: bit 29 makes 0x2000_0000 an alias of 0 (the
  // D-cache adapter's uncached window, stc_soc.v).
  parameter [31:0]  ALIAS_MASK = 32'hdfff_ffff
) (
  input  wire        clk_i,
  input  wire        rst_ni,
  // I port
  input  wire [31:0] i_araddr_i,
  input  wire [7:0]  i_arlen_i,
  input  wire        i_arvalid_i,
  output reg         i_arready_o,
  output reg  [31:0] i_rdata_o,
  output reg  [1:0]  i_rresp_o,
  output reg         i_rlast_o,
  output reg         i_rvalid_o,
  input  wire        i_rready_i,
  // D port
  input  wire [31:0] d_awaddr_i,
  input  wire [7:0]  d_awlen_i,
  input  wire        d_awvalid_i,
  output reg         d_awready_o,
  input  wire [31:0] d_wdata_i,
  input  wire [3:0]  d_wstrb_i,
  input  wire        d_wlast_i,
  input  wire        d_wvalid_i,
  output reg         d_wready_o,
  output reg  [1:0]  d_bresp_o,
  output reg         d_bvalid_o,
  input  wire        d_bready_i,
  input  wire [31:0] d_araddr_i,
  input  wire [7:0]  d_arlen_i,
  input  wire        d_arvalid_i,
  output reg         d_arready_o,
  output reg  [31:0] d_rdata_o,
  output reg  [1:0]  d_rresp_o,
  output reg         d_rlast_o,
  output reg         d_rvalid_o,
  input  wire        d_rready_i
);

  reg [31:0] mem [0:WORDS-1];
  reg [1023:0] image;
  integer k;
  initial begin
    for (k = 0; k < WORDS; k = k + 1) mem[k] = 32'd0;
    if ($value$plusargs("image=%s", image)) $readmemh(image, mem);
    else $display("tb_axi_mem: no +image=FILE: memory is all zeros");
  end

  function in_range;
    input [31:0] byte_addr;
    begin
      in_range = (byte_addr[31:2] < WORDS);
    end
  endfunction

  // ------------------------------------------------ read ports (same code twice)
  localparam [1:0] R_IDLE = 2'd0, R_WAIT = 2'd1, R_BEAT = 2'd2;

  reg [1:0]  ir_state, dr_state;
  reg [31:0] ir_addr, dr_addr;
  reg [7:0]  ir_left, dr_left;
  integer    ir_wait, dr_wait;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ir_state <= R_IDLE; i_arready_o <= 1'b1; i_rvalid_o <= 1'b0; i_rlast_o <= 1'b0;
      i_rdata_o <= 32'd0; i_rresp_o <= 2'd0; ir_addr <= 32'd0; ir_left <= 8'd0; ir_wait <= 0;
    end else begin
      case (ir_state)
        R_IDLE: if (i_arvalid_i) begin
          i_arready_o <= 1'b0;
          ir_addr <= i_araddr_i & ALIAS_MASK; ir_left <= i_arlen_i; ir_wait <= LAT - 1;
          ir_state <= R_WAIT;
        end
        R_WAIT: if (ir_wait == 0) begin
          i_rvalid_o <= 1'b1;
          i_rdata_o  <= in_range(ir_addr) ? mem[ir_addr[31:2]] : 32'd0;
          i_rresp_o  <= in_range(ir_addr) ? 2'b00 : 2'b10;
          i_rlast_o  <= (ir_left == 8'd0);
          ir_state   <= R_BEAT;
        end else ir_wait <= ir_wait - 1;
        default: if (i_rready_i) begin
          if (ir_left == 8'd0) begin
            i_rvalid_o <= 1'b0; i_rlast_o <= 1'b0; i_arready_o <= 1'b1; ir_state <= R_IDLE;
          end else begin
            i_rdata_o <= in_range(ir_addr + 32'd4) ? mem[ir_addr[31:2] + 30'd1] : 32'd0;
            i_rresp_o <= in_range(ir_addr + 32'd4) ? 2'b00 : 2'b10;
            i_rlast_o <= (ir_left == 8'd1);
            ir_addr   <= ir_addr + 32'd4;
            ir_left   <= ir_left - 8'd1;
          end
        end
      endcase
    end
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dr_state <= R_IDLE; d_arready_o <= 1'b1; d_rvalid_o <= 1'b0; d_rlast_o <= 1'b0;
      d_rdata_o <= 32'd0; d_rresp_o <= 2'd0; dr_addr <= 32'd0; dr_left <= 8'd0; dr_wait <= 0;
    end else begin
      case (dr_state)
        R_IDLE: if (d_arvalid_i) begin
          d_arready_o <= 1'b0;
          dr_addr <= d_araddr_i & ALIAS_MASK; dr_left <= d_arlen_i; dr_wait <= LAT - 1;
          dr_state <= R_WAIT;
        end
        R_WAIT: if (dr_wait == 0) begin
          d_rvalid_o <= 1'b1;
          d_rdata_o  <= in_range(dr_addr) ? mem[dr_addr[31:2]] : 32'd0;
          d_rresp_o  <= in_range(dr_addr) ? 2'b00 : 2'b10;
          d_rlast_o  <= (dr_left == 8'd0);
          dr_state   <= R_BEAT;
        end else dr_wait <= dr_wait - 1;
        default: if (d_rready_i) begin
          if (dr_left == 8'd0) begin
            d_rvalid_o <= 1'b0; d_rlast_o <= 1'b0; d_arready_o <= 1'b1; dr_state <= R_IDLE;
          end else begin
            d_rdata_o <= in_range(dr_addr + 32'd4) ? mem[dr_addr[31:2] + 30'd1] : 32'd0;
            d_rresp_o <= in_range(dr_addr + 32'd4) ? 2'b00 : 2'b10;
            d_rlast_o <= (dr_left == 8'd1);
            dr_addr   <= dr_addr + 32'd4;
            dr_left   <= dr_left - 8'd1;
          end
        end
      endcase
    end
  end

  // ------------------------------------------------ write port (D)
  localparam [1:0] W_IDLE = 2'd0, W_DATA = 2'd1, W_WAIT = 2'd2, W_RESP = 2'd3;
  reg [1:0]  w_state;
  reg [31:0] w_addr;
  reg        w_bad;
  integer    w_wait;

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w_state <= W_IDLE; d_awready_o <= 1'b1; d_wready_o <= 1'b0; d_bvalid_o <= 1'b0;
      d_bresp_o <= 2'd0; w_addr <= 32'd0; w_bad <= 1'b0; w_wait <= 0;
    end else begin
      case (w_state)
        W_IDLE: if (d_awvalid_i) begin
          d_awready_o <= 1'b0; d_wready_o <= 1'b1;
          w_addr <= d_awaddr_i & ALIAS_MASK; w_bad <= 1'b0;
          w_state <= W_DATA;
        end
        W_DATA: if (d_wvalid_i) begin
          if (in_range(w_addr)) begin
            if (d_wstrb_i[0]) mem[w_addr[31:2]][7:0]   <= d_wdata_i[7:0];
            if (d_wstrb_i[1]) mem[w_addr[31:2]][15:8]  <= d_wdata_i[15:8];
            if (d_wstrb_i[2]) mem[w_addr[31:2]][23:16] <= d_wdata_i[23:16];
            if (d_wstrb_i[3]) mem[w_addr[31:2]][31:24] <= d_wdata_i[31:24];
          end else w_bad <= 1'b1;
          w_addr <= w_addr + 32'd4;
          if (d_wlast_i) begin
            d_wready_o <= 1'b0; w_wait <= LAT - 1; w_state <= W_WAIT;
          end
        end
        W_WAIT: if (w_wait == 0) begin
          d_bvalid_o <= 1'b1; d_bresp_o <= w_bad ? 2'b10 : 2'b00; w_state <= W_RESP;
        end else w_wait <= w_wait - 1;
        default: if (d_bready_i) begin
          d_bvalid_o <= 1'b0; d_awready_o <= 1'b1; w_state <= W_IDLE;
        end
      endcase
    end
  end

  // AWLEN is not needed: WLAST ends the burst.
  wire unused_ok = &{1'b0, d_awlen_i};

endmodule
`default_nettype wire
