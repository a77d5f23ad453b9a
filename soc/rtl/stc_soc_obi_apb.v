// stc_soc_obi_apb.v - OBI 1.x subordinate to AMBA APB4 requester, with a
// second (debug) OBI port
//
// The example SoC's peripherals (the two stc_cache_apb register blocks and
// the console) are APB4 completers; the core reaches them through the
// D side's peripheral region. One transfer at a time, which APB needs
// anyway: a request is granted only in S_IDLE, its address phase latched,
// then one APB setup cycle, access cycles until PREADY, and the OBI
// response (rvalid, rdata, err = PSLVERR) in the cycle after the access
// completes, so no APB input reaches an OBI output combinationally.
//
// The debug port (dbg_*) is the testbench's: it reads the caches' counters
// after the core has stopped, and writes the tuners' CTRL before it starts.
// The core's port wins when both ask in the same cycle; the response goes
// back to the port that asked.
//
// PSTRB is the OBI byte enables for a write and 0 for a read (APB4 wants
// no strobes on a read). PPROT is 0 (data, secure, unprivileged).
`timescale 1ns / 1ps
`default_nettype none
module stc_soc_obi_apb (
  input  wire        clk_i,
  input  wire        rst_ni,        // asynchronous reset, active low
  // OBI subordinate: the core's D side (peripheral region)
  input  wire        obi_req_i,
  output wire        obi_gnt_o,
  input  wire [31:0] obi_addr_i,
  input  wire        obi_we_i,
  input  wire [3:0]  obi_be_i,
  input  wire [31:0] obi_wdata_i,
  output wire        obi_rvalid_o,
  output wire [31:0] obi_rdata_o,
  output wire        obi_err_o,
  // OBI subordinate: debug (testbench)
  input  wire        dbg_req_i,
  output wire        dbg_gnt_o,
  input  wire [31:0] dbg_addr_i,
  input  wire        dbg_we_i,
  input  wire [3:0]  dbg_be_i,
  input  wire [31:0] dbg_wdata_i,
  output wire        dbg_rvalid_o,
  output wire [31:0] dbg_rdata_o,
  output wire        dbg_err_o,
  // APB4 requester
  output wire        psel_o,
  output wire        penable_o,
  output wire        pwrite_o,
  output wire [31:0] paddr_o,
  output wire [31:0] pwdata_o,
  output wire [3:0]  pstrb_o,
  output wire [2:0]  pprot_o,
  input  wire        pready_i,
  input  wire [31:0] prdata_i,
  input  wire        pslverr_i
);

  localparam [1:0] S_IDLE   = 2'd0;
  localparam [1:0] S_SETUP  = 2'd1;
  localparam [1:0] S_ACCESS = 2'd2;
  localparam [1:0] S_RESP   = 2'd3;

  reg  [1:0]  state_q, state_d;
  reg         owner_q, owner_d;     // 0: core, 1: debug
  reg  [31:0] addr_q, addr_d;
  reg         we_q, we_d;
  reg  [3:0]  be_q, be_d;
  reg  [31:0] wdata_q, wdata_d;
  reg  [31:0] rdata_q, rdata_d;
  reg         err_q, err_d;

  wire take_core = (state_q == S_IDLE) && obi_req_i;
  wire take_dbg  = (state_q == S_IDLE) && !obi_req_i && dbg_req_i;

  always @(*) begin
    state_d = state_q;
    owner_d = owner_q;
    addr_d  = addr_q;
    we_d    = we_q;
    be_d    = be_q;
    wdata_d = wdata_q;
    rdata_d = rdata_q;
    err_d   = err_q;
    case (state_q)
      S_IDLE: begin
        if (take_core) begin
          owner_d = 1'b0;
          addr_d  = obi_addr_i;
          we_d    = obi_we_i;
          be_d    = obi_be_i;
          wdata_d = obi_wdata_i;
          state_d = S_SETUP;
        end else if (take_dbg) begin
          owner_d = 1'b1;
          addr_d  = dbg_addr_i;
          we_d    = dbg_we_i;
          be_d    = dbg_be_i;
          wdata_d = dbg_wdata_i;
          state_d = S_SETUP;
        end
      end
      S_SETUP: state_d = S_ACCESS;
      S_ACCESS: if (pready_i) begin
        rdata_d = prdata_i;
        err_d   = pslverr_i;
        state_d = S_RESP;
      end
      default: state_d = S_IDLE;  // S_RESP: the response is on the OBI port
    endcase
  end

  always @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= S_IDLE;
      owner_q <= 1'b0;
      addr_q  <= 32'd0;
      we_q    <= 1'b0;
      be_q    <= 4'b0000;
      wdata_q <= 32'd0;
      rdata_q <= 32'd0;
      err_q   <= 1'b0;
    end else begin
      state_q <= state_d;
      owner_q <= owner_d;
      addr_q  <= addr_d;
      we_q    <= we_d;
      be_q    <= be_d;
      wdata_q <= wdata_d;
      rdata_q <= rdata_d;
      err_q   <= err_d;
    end
  end

  assign obi_gnt_o    = take_core;
  assign dbg_gnt_o    = take_dbg;
  assign obi_rvalid_o = (state_q == S_RESP) && !owner_q;
  assign dbg_rvalid_o = (state_q == S_RESP) && owner_q;
  assign obi_rdata_o  = rdata_q;
  assign dbg_rdata_o  = rdata_q;
  assign obi_err_o    = err_q;
  assign dbg_err_o    = err_q;

  assign psel_o    = (state_q == S_SETUP) || (state_q == S_ACCESS);
  assign penable_o = (state_q == S_ACCESS);
  assign pwrite_o  = we_q;
  assign paddr_o   = addr_q;
  assign pwdata_o  = wdata_q;
  assign pstrb_o   = we_q ? be_q : 4'b0000;
  assign pprot_o   = 3'b000;

endmodule
`default_nettype wire
