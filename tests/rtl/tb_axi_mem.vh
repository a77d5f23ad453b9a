// tb_axi_mem.vh: the AXI4 side of tests/rtl/tb_axi.v, tb_obi.v and
// tb_timing.v, included inside their module after the bridge stc_cache_axi
// is instantiated (tb_cache_axi.vh): an AXI4 subordinate memory with seeded
// random AWREADY / WREADY / ARREADY and random BVALID / RVALID delays, and
// an AXI4 protocol checker on every cycle. The including module declares
// clk, rst_n, rng and xs(), the bridge's AXI nets (awid .. rready; the
// model's outputs awready, wready, bvalid, bresp, arready, rvalid, rlast,
// rresp, rdata as regs, 0 at first); for the checker also cycle, errors,
// the parameters ADDR_BITS, OFFSET_BITS and BPL, the bridge's cache-side
// nets (mem_req_valid, mem_req_ready, mem_req_we, mem_req_line,
// mem_req_lines, mem_rvalid, mem_bvalid) and its uncached port's
// (unc_req_valid, unc_req_ready, unc_req_we, unc_req_addr, unc_req_be,
// unc_req_wdata, unc_rsp_valid, unc_rsp_rdata, unc_rsp_err; tied to 0 where
// unused).
//
// Defines: TB_AXI_MEM_FIXED: nothing random (no rng, no xs() needed), the
// same waveforms in every run, as the timing diagrams of docs/TIMING.md
// need: AWREADY / ARREADY 1 while no transaction of their kind is open
// (AWREADY also waits for the previous write's B), WREADY 1 from the AW
// until the last beat, BVALID MEM_B_LAT cycles after the cycle of the last
// W beat (0: in the next cycle), the first R beat MEM_R_LAT cycles after
// the AR handshake's next cycle, then one a cycle while RREADY (the
// includer declares the localparams MEM_B_LAT and MEM_R_LAT).
// TB_AXI_MEM_NO_CHECKER: the model alone (tb_timing.v draws a broken bridge
// too: tests/timing-check.sh).
//
// Memory: mem[w] (64 Ki words, byte addresses wrap at 256 KiB) starts as
// pattern(w); a write takes the bytes WSTRB selects. Words err_lo ..
// err_hi (none by default) answer every transaction at their address
// SLVERR and are not written; inject_slverr answers the next read burst
// SLVERR; bad_rlast raises RLAST a beat early in the 11th read burst.
//
// The checker: VALID held until READY and the payload stable on all five
// channels; each AW / AR what the bridge was asked for (a cache transfer:
// AxADDR and AxLEN of the cache's request, cut at 256 beats, AxCACHE
// 4'b0010; an uncached word: its address, AxLEN 0, AxCACHE 4'b0000),
// AxSIZE 2, AxBURST INCR, AxLOCK 0, AxPROT 0, AxID 1, no burst across
// 4 KiB; WSTRB all ones for the cache, the requested byte enables (and
// data) for an uncached store; beats = LEN + 1 with LAST exactly on the
// last; one transaction outstanding, never a read and a write at once; B
// only after the last W; the cache given exactly its burst's read beats and
// one mem_bvalid per write, the uncached port exactly one response (its
// data and error) a cycle after its R or B, nothing else.
  reg [31:0] mem [0:65535];
  function [31:0] pattern;
    input [31:0] w;
    begin
      pattern = (w * 32'h9e3779b1) ^ 32'h5a5a0000;
    end
  endfunction
  integer m_i;
  initial for (m_i = 0; m_i < 65536; m_i = m_i + 1) mem[m_i] = pattern(m_i);

  // ------------------------------------------------ AXI4 subordinate model
  // Decides at each rising edge from the values before it (the bridge's
  // flops), drives its outputs with nonblocking assignments.
  reg         bad_rlast = 1'b0, inject_slverr = 1'b0;
  integer     err_lo = -1, err_hi = -1;
  integer     aw_open = 0, w_word = 0, w_left = 0, b_pend = 0, b_wait = 0;
  integer     r_open = 0, r_word = 0, r_left = 0, r_wait = 0, reads_done = 0;
  reg         r_bad, aw_err = 1'b0, r_err = 1'b0;
  // This edge's choices: each READY, the next RVALID, the waits for B and
  // for the first R beat.
  reg         go_aw, go_w, go_ar, go_r;
  integer     wait_b, wait_r;
`ifndef TB_AXI_MEM_FIXED
  reg  [31:0] s_rnd;
`endif
  always @(posedge clk) if (rst_n) begin
`ifdef TB_AXI_MEM_FIXED
    go_aw = 1'b1; go_w = 1'b1; go_ar = 1'b1; go_r = 1'b1;
    wait_b = MEM_B_LAT; wait_r = MEM_R_LAT;
`else
    rng = xs(rng); s_rnd = rng;
    go_aw = s_rnd[9:8] == 2'd0; go_w = s_rnd[10]; go_ar = s_rnd[12:11] == 2'd0;
    go_r = s_rnd[13] || s_rnd[14];
    wait_b = s_rnd[3:0] % 6; wait_r = s_rnd[7:4] % 8;
`endif
    // Handshakes of the ending cycle.
    if (awvalid && awready) begin
      aw_open = 1; w_word = awaddr[17:2]; w_left = awlen + 1;
      aw_err = w_word >= err_lo && w_word <= err_hi;
    end
    if (wvalid && wready) begin
      if (!aw_err) begin
        if (wstrb[0]) mem[w_word[15:0]][7:0]   = wdata[7:0];
        if (wstrb[1]) mem[w_word[15:0]][15:8]  = wdata[15:8];
        if (wstrb[2]) mem[w_word[15:0]][23:16] = wdata[23:16];
        if (wstrb[3]) mem[w_word[15:0]][31:24] = wdata[31:24];
      end
      w_word = w_word + 1; w_left = w_left - 1;
      if (w_left == 0) begin aw_open = 0; b_pend = 1; b_wait = wait_b; end
    end
    if (bvalid && bready) b_pend = 0;
    if (arvalid && arready) begin
      r_open = 1; r_word = araddr[17:2]; r_left = arlen + 1; r_wait = wait_r;
      r_bad = bad_rlast && reads_done == 10 && arlen != 0;
      r_err = r_word >= err_lo && r_word <= err_hi;
    end
    if (rvalid && rready) begin
      r_word = r_word + 1; r_left = r_left - 1;
      if (r_left == 0) begin r_open = 0; reads_done = reads_done + 1; inject_slverr <= 1'b0; end
    end
    // Outputs of the next cycle: ready as chosen, valid after the wait and
    // held until taken.
    awready <= !aw_open && !b_pend && go_aw;
    wready  <= aw_open && w_left > 0 && !(wvalid && wready && w_left == 0) && go_w;
    if (b_pend && !(bvalid && !bready)) begin
      if (b_wait == 0) begin bvalid <= 1'b1; bresp <= aw_err ? 2'd2 : 2'd0; end else b_wait = b_wait - 1;
    end else if (!b_pend) bvalid <= 1'b0;
    arready <= !r_open && go_ar;
    if (r_open && r_left > 0 && !(rvalid && !rready)) begin
      if (r_wait > 0) begin
        r_wait = r_wait - 1; rvalid <= 1'b0;
      end else if (go_r) begin
        rvalid <= 1'b1; rdata <= mem[r_word[15:0]];
        rlast  <= (r_left == 1) || (r_bad && r_left == 2);
        rresp  <= (inject_slverr || r_err) ? 2'd2 : 2'd0;
      end else rvalid <= 1'b0;
    end else if (!(rvalid && !rready)) rvalid <= 1'b0;
  end

`ifndef TB_AXI_MEM_NO_CHECKER
  // ------------------------------------------------ AXI4 protocol checker
  // Sampled at the falling edge (every signal of the cycle stable): what
  // the rising edge after it will see.
  reg          p_aw, p_w, p_b, p_ar, p_r;                 // VALID && !READY last cycle
  reg  [63:0]  p_awp, p_arp;
  reg  [36:0]  p_wp;
  reg  [2:0]   p_bp;
  reg  [35:0]  p_rp;
  integer      aw_out = 0, ar_out = 0, w_beats = 0, r_beats = 0, w_done = 0;
  // The open transfer: its beats not yet asked for by an AW / AR (more than
  // 256 beats: several transactions of at most 256), the next transaction's
  // address, the current transaction's LEN; an uncached word's byte enables
  // and data.
  integer      open = 0, exp_left = 0, cur_len = 0, want_len;
  integer      exp_we = 0, exp_unc = 0, n_reads = 0, n_writes = 0, n_multi = 0, n_unc = 0;
  integer      cache_beats = 0, exp_cache_beats = 0;
  reg  [ADDR_BITS-1:0] exp_addr;
  reg  [3:0]   exp_be;
  reg  [31:0]  exp_wdata, u_data_due;
  reg  [7:0]   ar_len_q;
  reg          b_due = 1'b0, u_due = 1'b0, u_err_due = 1'b0;
  // +stop_at_first_fail (the runs that must fail, tests/lib/port-checks.sh):
  // the run ends at the cycle after its first error, the checker's or the
  // including testbench's, instead of running on.
  reg stop_at_first_fail = 1'b0;
  initial stop_at_first_fail = $test$plusargs("stop_at_first_fail");
  always @(posedge clk)
    if (stop_at_first_fail && errors != 0) begin
      $display("%m: FAIL (%0d errors, stopped at the first: +stop_at_first_fail)", errors);
      $finish;
    end
  task bad;
    input [511:0] what;
    begin
      $display("FAIL axi protocol: %0s (cycle %0d)", what, cycle);
      errors = errors + 1;
      if (errors >= 20) begin
        $display("FAIL: %0d errors, stopped", errors);
        $finish;
      end
    end
  endtask
  wire [63:0] awp = {awid, awaddr[31:0], awlen, awsize, awburst, awlock, awcache, awprot, 13'd0};
  wire [63:0] arp = {arid, araddr[31:0], arlen, arsize, arburst, arlock, arcache, arprot, 13'd0};
  always @(negedge clk) if (rst_n) begin
    // Held and stable.
    if (p_aw && !awvalid) bad("AWVALID dropped before AWREADY");
    if (p_aw && awvalid && awp !== p_awp) bad("AW payload changed while waiting");
    if (p_w && !wvalid) bad("WVALID dropped before WREADY");
    if (p_w && wvalid && {wdata, wstrb, wlast} !== p_wp) bad("W payload changed while waiting");
    if (p_b && !bvalid) bad("BVALID dropped before BREADY");
    if (p_b && bvalid && {bresp, 1'b1} !== p_bp) bad("B payload changed while waiting");
    if (p_ar && !arvalid) bad("ARVALID dropped before ARREADY");
    if (p_ar && arvalid && arp !== p_arp) bad("AR payload changed while waiting");
    if (p_r && !rvalid) bad("RVALID dropped before RREADY");
    if (p_r && rvalid && {rdata, rresp, rlast, 1'b1} !== p_rp) bad("R payload changed while waiting");
    // Responses toward the cache and the uncached port: exactly those due
    // (a cycle after the B or the last R).
    if (mem_bvalid !== b_due) bad("mem_bvalid not exactly once, a cycle after a cache write's B");
    if (unc_rsp_valid !== u_due) bad("unc_rsp_valid not exactly once, a cycle after the word's R or B");
    if (u_due && unc_rsp_err !== u_err_due) bad("unc_rsp_err not the response's");
    if (u_due && !exp_we && unc_rsp_rdata !== u_data_due)
      bad("unc_rsp_rdata not the R beat's data");
    b_due = 1'b0; u_due = 1'b0;
    // The bridge's requests: what it must ask for.
    if (mem_rvalid) cache_beats = cache_beats + 1;
    if ((mem_req_valid && mem_req_ready) || (unc_req_valid && unc_req_ready)) begin
      if (open) bad("a request to the bridge while a transfer is open");
      if (mem_req_valid && mem_req_ready && unc_req_valid && unc_req_ready)
        bad("the cache and the uncached port taken together");
      if (cache_beats != exp_cache_beats) bad("read beats to the cache differ from the burst");
      open     = 1;
      cache_beats = 0;
      if (mem_req_valid && mem_req_ready) begin
        exp_unc  = 0;
        exp_we   = mem_req_we;
        exp_addr = {mem_req_line, {OFFSET_BITS{1'b0}}};
        exp_left = mem_req_we ? BPL : mem_req_lines * BPL;
        exp_cache_beats = mem_req_we ? 0 : mem_req_lines * BPL;
      end else begin
        exp_unc  = 1;
        exp_we   = unc_req_we;
        exp_addr = {unc_req_addr, 2'b00};
        exp_left = 1;
        exp_be   = unc_req_be;
        exp_wdata = unc_req_wdata;
        exp_cache_beats = 0;
        n_unc = n_unc + 1;
      end
    end
    want_len = (exp_left > 256 ? 256 : exp_left) - 1;
    // Address handshakes.
    if (awvalid && awready) begin
      if (aw_out != 0 || ar_out != 0) bad("AW while a transaction is outstanding");
      if (!exp_we || !open || exp_left == 0) bad("AW without a write request");
      if (awaddr !== exp_addr || awlen !== want_len) bad("AWADDR / AWLEN not the request's");
      if (awsize !== 3'd2 || awburst !== 2'b01 || awlock !== 1'b0 || awprot !== 3'b000
          || awid !== 1'b1) bad("AW constants");
      if (awcache !== (exp_unc ? 4'b0000 : 4'b0010)) bad("AWCACHE not 0010 (cache) / 0000 (uncached)");
      if ({1'b0, awaddr[11:0]} + ((awlen + 1) * 4) > 4096) bad("AW burst crosses 4 KiB");
      aw_out = 1; n_writes = n_writes + 1; w_beats = 0; w_done = 0; cur_len = awlen;
      exp_left = exp_left - (awlen + 1); exp_addr = exp_addr + (awlen + 1) * 4;
    end
    if (arvalid && arready) begin
      if (aw_out != 0 || ar_out != 0) bad("AR while a transaction is outstanding");
      if (exp_we || !open || exp_left == 0) bad("AR without a read request");
      if (araddr !== exp_addr || arlen !== want_len) bad("ARADDR / ARLEN not the request's");
      if (arsize !== 3'd2 || arburst !== 2'b01 || arlock !== 1'b0 || arprot !== 3'b000
          || arid !== 1'b1) bad("AR constants");
      if (arcache !== (exp_unc ? 4'b0000 : 4'b0010)) bad("ARCACHE not 0010 (cache) / 0000 (uncached)");
      if ({1'b0, araddr[11:0]} + ((arlen + 1) * 4) > 4096) bad("AR burst crosses 4 KiB");
      ar_out = 1; r_beats = 0; ar_len_q = arlen; n_reads = n_reads + 1;
      exp_left = exp_left - (arlen + 1); exp_addr = exp_addr + (arlen + 1) * 4;
      if (arlen > BPL - 1) n_multi = n_multi + 1;
    end
    // Beats.
    if (wvalid && wready) begin
      if (!exp_unc && wstrb !== 4'hf) bad("WSTRB not all ones");
      if (exp_unc && (wstrb !== exp_be || wdata !== exp_wdata)) bad("uncached W not the request's WSTRB / WDATA");
      if (w_done) bad("a W beat after WLAST");
      if (!aw_out) bad("a W beat without an AW");
      if (wlast !== (w_beats == cur_len)) bad("WLAST not exactly on the last beat");
      if (wlast) w_done = 1;
      w_beats = w_beats + 1;
    end
    if (bvalid && bready) begin
      if (!aw_out) bad("B without an AW");
      if (!w_done) bad("B before the last W beat");
      aw_out = 0;
      if (exp_left == 0) begin
        open = 0;
        if (exp_unc) begin u_due = 1'b1; u_err_due = bresp[1]; end else b_due = 1'b1;
      end
    end
    if (rvalid && rready) begin
      if (!ar_out) bad("an R beat without an AR");
      if (rlast !== (r_beats == ar_len_q)) bad("RLAST not exactly on the last beat");
      r_beats = r_beats + 1;
      if (r_beats == ar_len_q + 1) begin
        ar_out = 0;
        if (exp_left == 0) begin
          open = 0;
          if (exp_unc) begin u_due = 1'b1; u_err_due = rresp[1]; u_data_due = rdata; end
        end
      end
    end
    p_aw = awvalid && !awready; p_awp = awp;
    p_w  = wvalid && !wready;   p_wp  = {wdata, wstrb, wlast};
    p_b  = bvalid && !bready;   p_bp  = {bresp, 1'b1};
    p_ar = arvalid && !arready; p_arp = arp;
    p_r  = rvalid && !rready;   p_rp  = {rdata, rresp, rlast, 1'b1};
  end
`endif
