// stc_soc_obi_demux.v - the D side's address decoder: one OBI 1.x
// manager to two subordinates, memory and peripherals
//
// A request whose address lies in the peripheral region (address &
// PERIPH_MASK == PERIPH_BASE) goes to port p, every other to port m (the
// D-cache's OBI adapter, or memory in the reference system). OBI answers
// in order, so a request to one port is held (no gnt) while a request to
// the other is still unanswered; up to 3 may be outstanding on one port.
// The core issues one at a time, so this never stalls it, but the block
// does not rely on that.
`timescale 1ns / 1ps
`default_nettype none
module stc_soc_obi_demux #(
  parameter [31:0] PERIPH_BASE = 32'h1000_0000,
  parameter [31:0] PERIPH_MASK = 32'hf000_0000
) (
  input  wire        clk_i,
  input  wire        rst_ni,        // asynchronous reset, active low
  // OBI subordinate (from the core)
  input  wire        s_req_i,
  output wire        s_gnt_o,
  input  wire [31:0] s_addr_i,
  input  wire        s_we_i,
  input  wire [3:0]  s_be_i,
  input  wire [31:0] s_wdata_i,
  output wire        s_rvalid_o,
  output wire [31:0] s_rdata_o,
  output wire        s_err_o,
  // OBI manager m: memory
  output wire        m_req_o,
  input  wire        m_gnt_i,
  output wire [31:0] m_addr_o,
  output wire        m_we_o,
  output wire [3:0]  m_be_o,
  output wire [31:0] m_wdata_o,
  input  wire        m_rvalid_i,
  input  wire [31:0] m_rdata_i,
  input  wire        m_err_i,
  // OBI manager p: peripherals
  output wire        p_req_o,
  input  wire        p_gnt_i,
  output wire [31:0] p_addr_o,
  output wire        p_we_o,
  output wire [3:0]  p_be_o,
  output wire [31:0] p_wdata_o,
  input  wire        p_rvalid_i,
  input  wire [31:0] p_rdata_i,
  input  wire        p_err_i
);

  reg  [1:0] pending_q, pending_d;   // requests granted, not yet answered
  reg        target_q, target_d;     // their port: 0 m, 1 p

  wire to_p    = ((s_addr_i & PERIPH_MASK) == PERIPH_BASE);
  // A new request may go out if nothing is pending elsewhere and the
  // counter has room.
  wire allowed = (pending_q == 2'd0) || (target_q == to_p && pending_q != 2'd3);
  wire gnt     = to_p ? p_gnt_i : m_gnt_i;
  wire rvalid  = target_q ? p_rvalid_i : m_rvalid_i;
  wire granted = s_req_i && allowed && gnt;

  always @(*) begin
    pending_d = pending_q;
    target_d  = target_q;
    if (granted) target_d = to_p;
    case ({granted, rvalid && pending_q != 2'd0})
      2'b10:   pending_d = pending_q + 2'd1;
      2'b01:   pending_d = pending_q - 2'd1;
      default: ;
    endcase
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pending_q <= 2'd0;
      target_q  <= 1'b0;
    end else begin
      pending_q <= pending_d;
      target_q  <= target_d;
    end
  end

  assign m_req_o    = s_req_i && allowed && !to_p;
  assign p_req_o    = s_req_i && allowed && to_p;
  assign m_addr_o   = s_addr_i;
  assign p_addr_o   = s_addr_i;
  assign m_we_o     = s_we_i;
  assign p_we_o     = s_we_i;
  assign m_be_o     = s_be_i;
  assign p_be_o     = s_be_i;
  assign m_wdata_o  = s_wdata_i;
  assign p_wdata_o  = s_wdata_i;
  assign s_gnt_o    = granted;
  assign s_rvalid_o = rvalid && pending_q != 2'd0;
  assign s_rdata_o  = target_q ? p_rdata_i : m_rdata_i;
  assign s_err_o    = target_q ? p_err_i : m_err_i;

endmodule
`default_nettype wire
