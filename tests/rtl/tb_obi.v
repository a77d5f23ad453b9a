// tb_obi: a generated stc_cache (its monitor tuner's decisions off) behind the
// OBI adapter stc_cache_obi, its memory port and the adapter's uncached port
// on the AXI4 bridge stc_cache_axi, against the AXI4 subordinate memory and
// protocol checker of tb_axi_mem.vh (shared with tb_axi.v: every uncached
// word a single beat with the request's WSTRB and AxCACHE 0000, the cache's
// transfers as before, every response to the cache and the uncached port
// exactly once). A seeded random OBI manager (random request timing,
// pipelined requests, loads and stores with random byte enables) uses 16
// cached lines that fight over the cache's sets, the words just outside the
// uncached window, and 64 words of the uncached window at 0x20000
// (UNCACHED_BASE / UNCACHED_SIZE: 256 bytes, or 4 lines if more), whose
// last 4 words the memory answers SLVERR. Meanwhile a maintenance agent cleans (and sometimes invalidates)
// every line or one line at random times, so walk writebacks compete with
// uncached words for the bridge.
//
// OBI checker, every cycle: req, addr, we, be and wdata held until gnt;
// rvalid only for an outstanding granted transaction, never in its grant
// cycle, in grant order; every load's word against a flat shadow of the
// stores (cached and uncached alike), obi_err_o exactly for the error
// words and, with RO = 1 (READ_ONLY, an I-cache), for stores to the cached
// range (which must not reach the cache: the shadow keeps the old word).
// At the end: everything answered, a clean of every line, then memory
// against the shadow word by word; axi_err_o still 0 (uncached errors go to
// their requester only); enough traffic of every kind, including cached
// grants in consecutive cycles (hits one per cycle through the adapter).
// Prints "tb_obi: PASS"; +stop_at_first_fail ends the run at the first
// error. Defines: TB_NO_TUNER for an output without a tuner.
// TRAFFIC = 0 drops the minimum counts of each kind (for short runs: 512-byte
// lines simulate slowly).
`timescale 1ns / 1ps
`default_nettype none
module tb_obi;
  // From stc_geometry_gen.h (tests/obi-checks.sh passes them).
  parameter integer ADDR_BITS = 32, LINE_BYTES = 16, OFFSET_BITS = 4;
  parameter integer SEED = 1, OPS = 4000, RO = 0;
  parameter integer TRAFFIC = 1;                      // 0: no minimum of each kind (short runs)
  localparam integer BPL = LINE_BYTES / 4;            // beats per physical line
  localparam integer LNB = ADDR_BITS - OFFSET_BITS;   // physical line address bits
  // The uncached window: 256 bytes, or the largest logical line (4 lines) if
  // that is more, so that no cache line holds uncached words (a writeback
  // writes whole lines). The manager uses its first 64 words, of which the
  // last 4 answer SLVERR.
  localparam [ADDR_BITS-1:0] UNC_BASE = 'h2_0000;
  localparam integer UNC_BYTES = (4 * LINE_BYTES > 256) ? 4 * LINE_BYTES : 256;

  reg clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;
  integer cycle = 0;
  always @(posedge clk) cycle <= cycle + 1;

  integer errors = 0;

  // ------------------------------------------------ random numbers
  // xorshift32, the same sequence in every simulator.
  reg [31:0] rng = 32'h1234_5678 ^ SEED;
  function [31:0] xs;
    input [31:0] x;
    reg [31:0] y;
    begin
      y = x ^ (x << 13); y = y ^ (y >> 17); xs = y ^ (y << 5);
    end
  endfunction
  reg [31:0] trng = 32'h8765_4321 ^ (SEED * 7);      // the OBI manager's own
  reg [31:0] mrng = 32'h0bad_cafe ^ (SEED * 13);     // the maintenance agent's

  // ------------------------------------------------ nets
  // OBI manager.
  reg                  obi_req = 1'b0, obi_we = 1'b0;
  reg  [ADDR_BITS-1:0] obi_addr = {ADDR_BITS{1'b0}};
  reg  [3:0]           obi_be = 4'd0;
  reg  [31:0]          obi_wdata = 32'd0;
  wire                 obi_gnt, obi_rvalid, obi_err;
  wire [31:0]          obi_rdata;
  // Adapter <-> cache (the cache's names).
  wire                 cpu_req_valid, cpu_req_ready, cpu_req_we, cpu_rsp_valid, cpu_rsp_err;
  wire [ADDR_BITS-3:0] cpu_req_addr;
  wire [3:0]           cpu_req_be;
  wire [31:0]          cpu_req_wdata, cpu_rsp_rdata;
  // Adapter <-> bridge (the bridge's names).
  wire                 unc_req_valid, unc_req_ready, unc_req_we, unc_rsp_valid, unc_rsp_err;
  wire [ADDR_BITS-3:0] unc_req_addr;
  wire [3:0]           unc_req_be;
  wire [31:0]          unc_req_wdata, unc_rsp_rdata;
  // Cache control: the reset configuration kept, maintenance from the agent.
  wire                 cfg_valid = 1'b0, cfg_wp = 1'b0;
  wire [2:0]           cfg_banks_log = 3'd2, cfg_ways_log = 3'd2;
  wire [1:0]           cfg_sub_log = 2'd0;
  wire                 cfg_ready, cfg_done, cfg_err, cur_wp;
  wire [2:0]           cur_banks_log, cur_ways_log;
  wire [1:0]           cur_sub_log;
  reg                  mnt_valid = 1'b0, mnt_all = 1'b1;
  reg  [1:0]           mnt_op = 2'd1;
  reg  [ADDR_BITS-3:0] mnt_addr = {(ADDR_BITS-2){1'b0}};
  wire                 mnt_ready, mnt_done;
  wire [4:0]           cnt_sel = 5'd0;
  wire                 cnt_clear = 1'b0;
  wire [31:0]          cnt_value;
  reg                  tun_we = 1'b0;
  wire [2:0]           tun_addr = 3'd0;                // the monitor tuner's CTRL:
  wire [31:0]          tun_wdata = 32'd0;              // decisions off
  wire [31:0]          tun_rdata;
  wire                 tun_busy;
  wire [3:0]           pwr_en;
  // The AXI4 subordinate's outputs (tb_axi_mem.vh drives them).
  reg                  awready = 1'b0, wready = 1'b0, bvalid = 1'b0, arready = 1'b0;
  reg                  rvalid = 1'b0, rlast = 1'b0;
  reg  [1:0]           bresp = 2'd0, rresp = 2'd0;
  reg  [31:0]          rdata = 32'd0;
  wire                 axi_err_clear = 1'b0;

  stc_cache_obi #(
    .UNCACHED_BASE (UNC_BASE),
    .UNCACHED_SIZE (UNC_BYTES),
    .READ_ONLY     (RO)
  ) u_obi (
    .clk_i           (clk),
    .rst_ni          (rst_n),
    .obi_req_i       (obi_req),
    .obi_gnt_o       (obi_gnt),
    .obi_addr_i      (obi_addr),
    .obi_we_i        (obi_we),
    .obi_be_i        (obi_be),
    .obi_wdata_i     (obi_wdata),
    .obi_rvalid_o    (obi_rvalid),
    .obi_rdata_o     (obi_rdata),
    .obi_err_o       (obi_err),
    .cpu_req_valid_o (cpu_req_valid),
    .cpu_req_ready_i (cpu_req_ready),
    .cpu_req_we_o    (cpu_req_we),
    .cpu_req_addr_o  (cpu_req_addr),
    .cpu_req_be_o    (cpu_req_be),
    .cpu_req_wdata_o (cpu_req_wdata),
    .cpu_rsp_valid_i (cpu_rsp_valid),
    .cpu_rsp_err_i   (cpu_rsp_err),
    .cpu_rsp_rdata_i (cpu_rsp_rdata),
    .unc_req_valid_o (unc_req_valid),
    .unc_req_ready_i (unc_req_ready),
    .unc_req_we_o    (unc_req_we),
    .unc_req_addr_o  (unc_req_addr),
    .unc_req_be_o    (unc_req_be),
    .unc_req_wdata_o (unc_req_wdata),
    .unc_rsp_valid_i (unc_rsp_valid),
    .unc_rsp_rdata_i (unc_rsp_rdata),
    .unc_rsp_err_i   (unc_rsp_err)
  );

  // The cache and the bridge (the cache's READ_ONLY is RO).
  localparam [0:0] AXI_ID = 1'b1;                      // tb_axi_mem.vh expects 1
`include "tb_cache_axi.vh"

  // ------------------------------------------------ memory, AXI4 subordinate, checker
`include "tb_axi_mem.vh"

  // The flat shadow of every store the memory system must hold, over the
  // model's 64 Ki words.
  reg [31:0] shadow [0:65535];
  integer i;
  initial begin
    for (i = 0; i < 65536; i = i + 1) shadow[i] = pattern(i);
    err_lo = UNC_BASE / 4 + 60;
    err_hi = UNC_BASE / 4 + 63;
  end

  // ------------------------------------------------ OBI checker
  // At the falling edge (the cycle's values stable): the response of this
  // cycle first (it belongs to an earlier grant), then this cycle's grant
  // (taken at the next rising edge).
  localparam integer QN = 16;
  reg  [31:0] q_data [0:QN-1];   // a load's expected word
  reg         q_we [0:QN-1], q_err [0:QN-1];
  reg  [ADDR_BITS-1:0] q_addr [0:QN-1];
  integer     q_head = 0, q_tail = 0, q_count = 0;
  integer     n_grants = 0, n_rsp = 0, n_c_load = 0, n_c_store = 0, n_u_load = 0;
  integer     n_u_store = 0, n_err = 0, n_refused = 0, n_b2b = 0, n_mnt = 0;
  reg         p_req = 1'b0, p_gnt_c = 1'b0;
  reg  [ADDR_BITS+36:0] p_pay;
  reg  [31:0] m, cur;
  reg         is_unc, is_err, e_err;
  integer     w;
  task obad;
    input [511:0] what;
    begin
      $display("FAIL obi: %0s (cycle %0d)", what, cycle);
      errors = errors + 1;
      if (errors >= 20) begin
        $display("tb_obi: FAIL (%0d errors, stopped)", errors);
        $finish;
      end
    end
  endtask
  always @(negedge clk) if (rst_n) begin
    if (^{obi_gnt, obi_rvalid} === 1'bx) obad("gnt / rvalid unknown");
    // The manager's side of the protocol: held until granted.
    if (p_req && !obi_req) obad("req dropped before gnt");
    if (p_req && obi_req && {obi_addr, obi_we, obi_be, obi_wdata} !== p_pay)
      obad("addr / we / be / wdata changed before gnt");
    // The response.
    if (obi_rvalid) begin
      n_rsp = n_rsp + 1;
      if (q_count == 0) obad("rvalid without an outstanding granted transaction");
      else begin
        if (obi_err !== q_err[q_head]) begin
          $display("FAIL obi: response to %h (%0s): err %b, want %b (cycle %0d)", q_addr[q_head],
                   q_we[q_head] ? "store" : "load", obi_err, q_err[q_head], cycle);
          errors = errors + 1;
        end
        if (!q_we[q_head] && obi_rdata !== q_data[q_head]) begin
          $display("FAIL obi: load of %h: got %h, want %h (cycle %0d)", q_addr[q_head], obi_rdata,
                   q_data[q_head], cycle);
          errors = errors + 1;
        end
        if (obi_err) n_err = n_err + 1;
        q_head = (q_head + 1) % QN; q_count = q_count - 1;
      end
    end
    // The grant: what its response must be; a store's effect on the shadow.
    if (obi_req && obi_gnt) begin
      if (q_count == QN) obad("testbench queue full");
      w      = obi_addr[17:2];
      is_unc = obi_addr >= UNC_BASE && obi_addr < UNC_BASE + UNC_BYTES;
      is_err = is_unc && w >= err_lo && w <= err_hi;
      e_err  = is_err || (RO != 0 && obi_we && !is_unc);
      q_we[q_tail] = obi_we; q_err[q_tail] = e_err; q_addr[q_tail] = obi_addr;
      q_data[q_tail] = shadow[w];
      if (obi_we && !e_err) begin
        m = {{8{obi_be[3]}}, {8{obi_be[2]}}, {8{obi_be[1]}}, {8{obi_be[0]}}};
        shadow[w] = (shadow[w] & ~m) | (obi_wdata & m);
      end
      q_tail = (q_tail + 1) % QN; q_count = q_count + 1;
      n_grants = n_grants + 1;
      if (RO != 0 && obi_we && !is_unc) n_refused = n_refused + 1;
      else if (is_unc) begin if (obi_we) n_u_store = n_u_store + 1; else n_u_load = n_u_load + 1; end
      else begin if (obi_we) n_c_store = n_c_store + 1; else n_c_load = n_c_load + 1; end
      if (p_gnt_c && !is_unc && !(RO != 0 && obi_we)) n_b2b = n_b2b + 1;
    end
    p_gnt_c = obi_req && obi_gnt && !is_unc && !(RO != 0 && obi_we);
    p_req = obi_req && !obi_gnt;
    p_pay = {obi_addr, obi_we, obi_be, obi_wdata};
  end

  // ------------------------------------------------ the OBI manager
  // Drives at the rising edge; the handshake of the ending cycle is the one
  // the checker saw at the falling edge before it (hs).
  reg          hs = 1'b0, run = 1'b0;
  integer      issued = 0;
  always @(negedge clk) hs = obi_req && obi_gnt;
  reg  [31:0]  r, v;
  reg  [ADDR_BITS-1:0] a;
  integer      k;
  always @(posedge clk) if (rst_n) begin
    if (!obi_req || hs) begin
      trng = xs(trng); r = trng;
      trng = xs(trng); v = trng;
      // Idle at random (a run of back-to-back requests, or gaps).
      if (!run || issued >= OPS || r[3:0] < 4'd5) obi_req <= 1'b0;
      else begin
        k = r[11:8];
        if (r[7:6] == 2'd0) begin           // the uncached window
          a = UNC_BASE + {r[17:12], 2'b00};
        end else if (r[7:4] == 4'b0100) begin  // just outside it: cached
          a = r[12] ? UNC_BASE - 4 : UNC_BASE + UNC_BYTES;
        end else begin                      // 16 lines, 8 of them on one set
          a = (k % 8) * 32'h2000 + (k / 8) * 32'h40 + {r[21:18] % BPL, 2'b00};
        end
        obi_req   <= 1'b1;
        obi_addr  <= a | r[23:22];          // bits 1:0 are ignored
        obi_we    <= r[24];
        obi_be    <= r[28:25] == 4'd0 ? 4'hf : r[28:25];
        obi_wdata <= v;
        issued = issued + 1;
      end
    end
  end

  // ------------------------------------------------ maintenance agent
  // Now and then a clean (op 1) or clean + invalidate (op 3) of every line
  // or of one line: the cache's walk writebacks share the bridge with the
  // uncached words.
  reg [31:0] mr;
  integer    mwait = 300;
  always @(posedge clk) if (rst_n && run) begin
    if (mnt_valid && mnt_ready) mnt_valid <= 1'b0;
    else if (!mnt_valid) begin
      if (mwait > 0) mwait = mwait - 1;
      else begin
        mrng = xs(mrng); mr = mrng;
        mwait = 200 + mr[9:0];
        mnt_valid <= 1'b1;
        mnt_op    <= mr[10] ? 2'd3 : 2'd1;
        mnt_all   <= mr[11];
        mnt_addr  <= ((mr[15:12] % 8) * 32'h800) + (mr[15:12] / 8) * 32'h10;
        n_mnt = n_mnt + 1;
      end
    end
  end

  // ------------------------------------------------ watchdog
  integer last_progress = 0;
  // (A whole-cache walk with its writebacks, which an uncached word may
  // wait behind, takes well under 20000 cycles.)
  always @(posedge clk) if (obi_rvalid || q_count == 0) last_progress <= cycle;
  always @(posedge clk) if (rst_n && cycle - last_progress > 20000) begin
    $display("FAIL watchdog: no response for 20000 cycles with %0d outstanding (cycle %0d)", q_count, cycle);
    $display("tb_obi: FAIL (%0d errors)", errors + 1);
    $finish;
  end

  reg seen;
  initial begin
    repeat (3) @(negedge clk);
    rst_n = 1'b1;
    // The tuner's decisions off: the configuration stays the reset one.
    @(negedge clk); tun_we = 1'b1;
    @(negedge clk); tun_we = 1'b0;
    repeat (300) @(negedge clk);         // the row-state initialisation
    run = 1'b1;
    while (issued < OPS || obi_req || q_count != 0) @(negedge clk);
    run = 1'b0;
    while (mnt_valid) @(negedge clk);
    repeat (2000) @(negedge clk);        // an agent's walk in progress ends
    // Clean every line, then memory must equal the shadow.
    @(negedge clk); mnt_valid = 1'b1; mnt_op = 2'd1; mnt_all = 1'b1;
    while (!mnt_ready) @(negedge clk);
    seen = mnt_done;
    @(negedge clk); mnt_valid = 1'b0;
    while (!seen) begin seen = mnt_done; @(negedge clk); end
    repeat (4) @(negedge clk);
    for (i = 0; i < 65536; i = i + 1) begin
      if (mem[i] !== shadow[i]) begin
        if (errors < 20) $display("FAIL after the clean: memory word %0d %h, want %h", i, mem[i], shadow[i]);
        errors = errors + 1;
      end
    end
    if (axi_err) begin
      $display("FAIL axi_err_o set by an uncached error response");
      errors = errors + 1;
    end
    if (n_grants != n_rsp) begin
      $display("FAIL %0d grants, %0d responses", n_grants, n_rsp);
      errors = errors + 1;
    end
    if (TRAFFIC != 0 && (n_c_load < OPS / 10 || n_u_load < OPS / 20 || n_u_store < OPS / 20 || n_err == 0
        || n_b2b < OPS / 50 || n_mnt < 2 || n_unc == 0
        || (RO == 0 && n_c_store < OPS / 10) || (RO != 0 && (n_refused < OPS / 10 || n_c_store != 0)))) begin
      $display("FAIL too little traffic: cached %0d loads %0d stores, uncached %0d loads %0d stores, %0d refused, %0d errors, %0d back to back, %0d maintenance",
               n_c_load, n_c_store, n_u_load, n_u_store, n_refused, n_err, n_b2b, n_mnt);
      errors = errors + 1;
    end
    if (errors == 0)
      $display("tb_obi: PASS (RO %0d: cached %0d loads %0d stores, uncached %0d loads %0d stores, %0d refused, %0d err, %0d back to back, %0d maintenance, %0d cycles)",
               RO, n_c_load, n_c_store, n_u_load, n_u_store, n_refused, n_err, n_b2b, n_mnt, cycle);
    else
      $display("tb_obi: FAIL (%0d errors)", errors);
    $finish;
  end
endmodule
`default_nettype wire
