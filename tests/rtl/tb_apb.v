// tb_apb: the APB register block stc_cache_apb driving a generated stc_cache
// (default geometry, D-cache), checked through APB only: the ID and GEOMETRY
// registers against the generator's geometry (parameters the script reads
// from stc_geometry_gen.h), configuration changes polled through STATUS,
// an illegal one, a clean of every line and an invalidation of one line,
// the counters after a hand-counted request sequence, their clear, the
// tuner's registers, and every refusal (unmapped, read-only, partial
// PSTRB, busy). An APB protocol checker watches every cycle. The CPU and
// memory sides are driven directly. Prints "tb_apb: PASS".
`timescale 1ns / 1ps
`default_nettype none
module tb_apb;
  // From stc_geometry_gen.h (tests/apb-checks.sh passes them).
  parameter integer BANKS = 4, BANK_BYTES = 2048, LINE_BYTES = 16, ADDR_BITS = 32;
  parameter integer COUNTER_BITS = 32, WAY_PREDICTION = 1, TUNER = 1, TUNER_MONITOR = 1;
  parameter integer WALK_MOVES = 1;
  parameter integer ROWS = 128;

  // Byte offsets (stc_cache_regs.md).
  localparam [11:0] ID = 12'h000, GEOMETRY = 12'h004, CONFIG = 12'h008, STATUS = 12'h00c,
                    MAINT_ADDR = 12'h010, MAINT_CTRL = 12'h018, CNT_CLEAR = 12'h01c,
                    COUNTER = 12'h080, TUNER_REG = 12'h100;
  localparam integer T_MEM = 20, BPL = 4;

  reg clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;
  integer cycle = 0;
  always @(posedge clk) cycle <= cycle + 1;

  // APB requester side.
  reg         psel = 1'b0, penable = 1'b0, pwrite = 1'b0;
  reg  [11:0] paddr = 12'd0;
  reg  [31:0] pwdata = 32'd0;
  reg  [3:0]  pstrb = 4'd0;
  wire        pready, pslverr;
  wire [31:0] prdata;

  // CPU side.
  reg         req_valid = 1'b0, req_we = 1'b0;
  reg  [29:0] req_addr = 30'd0;
  reg  [3:0]  req_be = 4'd0;
  reg  [31:0] req_wdata = 32'd0;
  wire        req_ready, rsp_valid, rsp_err;
  wire [31:0] rsp_rdata;

  // Between the block and the cache: named like the cache's ports.
  wire        cfg_valid, cfg_ready, cfg_wp, cfg_done, cfg_err, cur_wp;
  wire [2:0]  cfg_banks_log, cfg_ways_log, cur_banks_log, cur_ways_log;
  wire [1:0]  cfg_sub_log, cur_sub_log;
  wire        mnt_valid, mnt_ready, mnt_all, mnt_done;
  wire [1:0]  mnt_op;
  wire [29:0] mnt_addr;
  wire [4:0]  cnt_sel;
  wire        cnt_clear;
  wire [31:0] cnt_value;
  wire        tun_we, tun_busy;
  wire [2:0]  tun_addr;
  wire [31:0] tun_wdata, tun_rdata;

  // Memory side.
  wire        mreq_valid, mreq_we, mwvalid;
  wire [27:0] mreq_line;
  wire [2:0]  mreq_lines;
  wire [31:0] mwdata, mrdata;
  reg         mreq_ready, mwready, mbvalid, mrvalid;
  wire [3:0]  pwr_en;

  stc_cache_apb u_apb (
    .clk_i           (clk),
    .rst_ni          (rst_n),
    .psel_i          (psel),
    .penable_i       (penable),
    .pwrite_i        (pwrite),
    .paddr_i         (paddr),
    .pwdata_i        (pwdata),
    .pstrb_i         (pstrb),
    .pready_o        (pready),
    .prdata_o        (prdata),
    .pslverr_o       (pslverr),
    .cfg_valid_o     (cfg_valid),
    .cfg_ready_i     (cfg_ready),
    .cfg_banks_log_o (cfg_banks_log),
    .cfg_ways_log_o  (cfg_ways_log),
    .cfg_sub_log_o   (cfg_sub_log),
    .cfg_wp_o        (cfg_wp),
    .cfg_done_i      (cfg_done),
    .cfg_err_i       (cfg_err),
    .cfg_banks_log_i (cur_banks_log),
    .cfg_ways_log_i  (cur_ways_log),
    .cfg_sub_log_i   (cur_sub_log),
    .cfg_wp_i        (cur_wp),
    .mnt_valid_o     (mnt_valid),
    .mnt_ready_i     (mnt_ready),
    .mnt_op_o        (mnt_op),
    .mnt_all_o       (mnt_all),
    .mnt_addr_o      (mnt_addr),
    .mnt_done_i      (mnt_done),
    .cnt_sel_o       (cnt_sel),
    .cnt_clear_o     (cnt_clear),
    .cnt_value_i     (cnt_value),
    .tun_we_o        (tun_we),
    .tun_addr_o      (tun_addr),
    .tun_wdata_o     (tun_wdata),
    .tun_rdata_i     (tun_rdata),
    .tun_busy_i      (tun_busy)
  );

  stc_cache dut (
    .clk_i           (clk),
    .rst_ni          (rst_n),
    .cpu_req_valid_i (req_valid),
    .cpu_req_ready_o (req_ready),
    .cpu_req_we_i    (req_we),
    .cpu_req_addr_i  (req_addr),
    .cpu_req_be_i    (req_be),
    .cpu_req_wdata_i (req_wdata),
    .cpu_rsp_valid_o (rsp_valid),
    .cpu_rsp_err_o   (rsp_err),
    .cpu_rsp_rdata_o (rsp_rdata),
    .cfg_valid_i     (cfg_valid),
    .cfg_ready_o     (cfg_ready),
    .cfg_banks_log_i (cfg_banks_log),
    .cfg_ways_log_i  (cfg_ways_log),
    .cfg_sub_log_i   (cfg_sub_log),
    .cfg_wp_i        (cfg_wp),
    .cfg_done_o      (cfg_done),
    .cfg_err_o       (cfg_err),
    .cfg_banks_log_o (cur_banks_log),
    .cfg_ways_log_o  (cur_ways_log),
    .cfg_sub_log_o   (cur_sub_log),
    .cfg_wp_o        (cur_wp),
    .mnt_valid_i     (mnt_valid),
    .mnt_ready_o     (mnt_ready),
    .mnt_op_i        (mnt_op),
    .mnt_all_i       (mnt_all),
    .mnt_addr_i      (mnt_addr),
    .mnt_done_o      (mnt_done),
    .cnt_sel_i       (cnt_sel),
    .cnt_clear_i     (cnt_clear),
    .cnt_value_o     (cnt_value),
    .mem_req_valid_o (mreq_valid),
    .mem_req_ready_i (mreq_ready),
    .mem_req_we_o    (mreq_we),
    .mem_req_line_o  (mreq_line),
    .mem_req_lines_o (mreq_lines),
    .mem_wvalid_o    (mwvalid),
    .mem_wready_i    (mwready),
    .mem_wdata_o     (mwdata),
    .mem_bvalid_i    (mbvalid),
    .mem_rvalid_i    (mrvalid),
    .mem_rdata_i     (mrdata),
    .tun_we_i        (tun_we),
    .tun_addr_i      (tun_addr),
    .tun_wdata_i     (tun_wdata),
    .tun_rdata_o     (tun_rdata),
    .tun_busy_o      (tun_busy),
    .pwr_en_o        (pwr_en),
    .pwr_ack_i       (pwr_en)
  );

  integer errors = 0;
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

  // ------------------------------------------------ fixed-latency memory
  // 64 Ki words, word w initially pattern(w); a read burst's beats start
  // T_MEM + 1 cycles after its request, a write burst's acknowledge T_MEM
  // cycles after its last beat (as tests/rtl/tb_harness.vh).
  reg [31:0] mem [0:65535];
  function [31:0] pattern;
    input [31:0] w;
    begin
      pattern = (w * 32'h9e3779b1) ^ 32'h5a5a0000;
    end
  endfunction
  integer i;
  initial for (i = 0; i < 65536; i = i + 1) mem[i] = pattern(i);
  integer m_state = 0, m_count = 0, m_beats = 0, m_word = 0;
  integer n_reads = 0, n_writes = 0;
  assign mrdata = mem[m_word[15:0]];
  always @(*) begin
    mreq_ready = (m_state == 0);
    mwready    = (m_state == 3);
    mbvalid    = (m_state == 4) && (m_count == 0);
    mrvalid    = (m_state == 2);
  end
  always @(posedge clk) begin
    case (m_state)
      0: if (mreq_valid) begin
        m_word = mreq_line * BPL;
        if (mreq_we) begin
          n_writes = n_writes + 1; m_beats = BPL; m_state = 3;
        end else begin
          n_reads = n_reads + 1; m_beats = mreq_lines * BPL; m_count = T_MEM - 1; m_state = 1;
        end
      end
      1: if (m_count == 0) m_state = 2; else m_count = m_count - 1;
      2: begin
        m_word = m_word + 1; m_beats = m_beats - 1;
        if (m_beats == 0) m_state = 0;
      end
      3: if (mwvalid) begin
        mem[m_word[15:0]] = mwdata;
        m_word = m_word + 1; m_beats = m_beats - 1;
        if (m_beats == 0) begin m_count = T_MEM - 1; m_state = 4; end
      end
      4: if (m_count == 0) m_state = 0; else m_count = m_count - 1;
      default: m_state = 0;
    endcase
  end

  // ------------------------------------------------ CPU requests
  reg [31:0] got;
  task access;
    input        we;
    input [31:0] byte_addr;
    input [31:0] wdata;
    begin
      @(negedge clk);
      req_valid = 1'b1; req_we = we; req_addr = byte_addr[31:2]; req_be = 4'hf;
      req_wdata = wdata;
      while (!req_ready) @(negedge clk);
      @(posedge clk);
      @(negedge clk); req_valid = 1'b0;
      while (!rsp_valid) @(negedge clk);
      got = rsp_rdata;
    end
  endtask

  // ------------------------------------------------ APB protocol checker
  // Sampled at the falling edge, when every signal of the cycle is stable.
  reg         prev_setup = 1'b0, prev_wait = 1'b0;
  reg  [11:0] prev_addr;
  reg  [31:0] prev_wdata;
  reg  [3:0]  prev_strb;
  reg         prev_write;
  integer     transfers = 0, refusals = 0, waits = 0;
  always @(negedge clk) if (rst_n) begin
    if (penable && !psel) begin
      $display("FAIL apb protocol: PENABLE without PSEL (cycle %0d)", cycle);
      errors = errors + 1;
    end
    if (psel && penable && !prev_setup && !prev_wait) begin
      $display("FAIL apb protocol: access phase without a setup phase (cycle %0d)", cycle);
      errors = errors + 1;
    end
    if ((prev_setup || prev_wait) && !(psel && penable)) begin
      $display("FAIL apb protocol: setup or wait not followed by an access (cycle %0d)", cycle);
      errors = errors + 1;
    end
    if ((prev_setup || prev_wait) && (paddr !== prev_addr || pwrite !== prev_write
        || (pwrite && (pwdata !== prev_wdata || pstrb !== prev_strb)))) begin
      $display("FAIL apb protocol: payload changed inside a transfer (cycle %0d)", cycle);
      errors = errors + 1;
    end
    if (pslverr && !(psel && penable && pready)) begin
      $display("FAIL apb protocol: PSLVERR outside the access phase (cycle %0d)", cycle);
      errors = errors + 1;
    end
    if (psel && penable && pready) begin
      transfers = transfers + 1;
      if (pslverr) refusals = refusals + 1;
    end
    if (psel && penable && !pready) waits = waits + 1;
    prev_setup = psel && !penable;
    prev_wait  = psel && penable && !pready;
    prev_addr  = paddr; prev_write = pwrite; prev_wdata = pwdata; prev_strb = pstrb;
  end

  // ------------------------------------------------ APB requester
  reg [31:0] rdata;
  reg        rerr;
  task apb;
    input        write;
    input [11:0] addr;
    input [31:0] wdata;
    input [3:0]  strb;
    begin
      @(posedge clk); #1;
      psel = 1'b1; penable = 1'b0; pwrite = write; paddr = addr;
      pwdata = write ? wdata : 32'hdead_beef; pstrb = write ? strb : 4'h0;
      @(posedge clk); #1;
      penable = 1'b1;
      @(negedge clk);
      while (!pready) begin @(posedge clk); @(negedge clk); end
      rdata = prdata; rerr = pslverr;
      @(posedge clk); #1;
      psel = 1'b0; penable = 1'b0; pwrite = 1'b0; paddr = 12'hfff;
    end
  endtask

  task rd;                           // a read that must succeed
    input [11:0] addr;
    begin
      apb(1'b0, addr, 32'd0, 4'h0);
      if (rerr) begin
        $display("FAIL read %h refused", addr);
        errors = errors + 1;
      end
    end
  endtask

  task wr;                           // a whole-word write that must succeed
    input [11:0] addr;
    input [31:0] data;
    begin
      apb(1'b1, addr, data, 4'hf);
      if (rerr) begin
        $display("FAIL write %h refused", addr);
        errors = errors + 1;
      end
    end
  endtask

  task refused;                      // a transfer that must be refused
    input [255:0] what;
    input        write;
    input [11:0] addr;
    input [31:0] data;
    input [3:0]  strb;
    begin
      apb(write, addr, data, strb);
      check_eq(what, {31'd0, rerr}, 1);
    end
  endtask

  integer polls, busy_seen;
  task wait_status;                  // poll STATUS until (STATUS & mask) == 0
    input [31:0] mask;
    begin
      polls = 0; busy_seen = 0;
      rd(STATUS);
      while ((rdata & mask) != 0 && polls < 5000) begin
        busy_seen = 1; polls = polls + 1;
        rd(STATUS);
      end
      if (polls >= 5000) begin
        $display("FAIL STATUS %h never cleared %h", rdata, mask);
        errors = errors + 1;
      end
    end
  endtask

  reg [31:0] expect_cnt [0:19];
  integer n;
  task check_counters;
    input [255:0] what;
    begin
      for (n = 0; n < 20; n = n + 1) begin
        rd(COUNTER + 4 * n);
        if (rdata !== expect_cnt[n]) begin
          $display("FAIL %0s: counter %0d reads %0d, want %0d", what, n, rdata, expect_cnt[n]);
          errors = errors + 1;
        end
      end
    end
  endtask
  task expect_zero;
    begin
      for (n = 0; n < 20; n = n + 1) expect_cnt[n] = 32'd0;
    end
  endtask

  localparam [31:0] A = 32'h0000_1104;  // row 0x10 (tb_cache.v's A)
  localparam [31:0] X = 32'h0000_2340;  // row 0x34, nothing else there
  localparam [31:0] CFG_RESET = 32'h12; // 8K_4W_16B: k = 4, a = 4
  reg [31:0] want_id, want_geometry;

  initial begin
    repeat (3) @(posedge clk);
    #1 rst_n = 1'b1;
    // The cache initialises its row state (32 edges); APB works meanwhile.
    rd(STATUS);
    check_eq("STATUS after reset", rdata, 32'd0);
    @(negedge clk);
    while (!req_ready) @(negedge clk);

    // 1. Identification against the generator's geometry.
    want_id = (32'h57ca << 16) | (32'd1 << 8) | (WALK_MOVES << 4) | (WAY_PREDICTION << 2)
            | (TUNER == 0 ? 0 : TUNER_MONITOR ? 1 : 2);
    want_geometry = $clog2(BANKS) | ($clog2(BANK_BYTES) << 5) | ($clog2(LINE_BYTES) << 10)
                  | (ADDR_BITS << 15) | (COUNTER_BITS << 22);
    rd(ID);
    check_eq("ID", rdata, want_id);
    rd(GEOMETRY);
    check_eq("GEOMETRY", rdata, want_geometry);
    rd(CONFIG);
    check_eq("CONFIG after reset", rdata, CFG_RESET);

    // 2. The tuner's registers through tun_*: decisions enabled at reset
    //    (ARCHITECTURE.md 18.4 CTRL), then off for the rest of the test.
    if (TUNER != 0 && TUNER_MONITOR != 0) begin
      rd(TUNER_REG);
      check_eq("tuner CTRL after reset", rdata, 1);
      wr(TUNER_REG, 32'd0);
      rd(TUNER_REG);
      check_eq("tuner CTRL written", rdata, 0);
      rd(TUNER_REG + 12'h1c);      // address 7: unmapped by the tuner, reads 0
      check_eq("tuner register 7", rdata, 0);
    end

    // 3. Counters after three requests: load A (miss, one fill), load A+4
    //    (hit), store A (hit). Cleared first.
    wr(CNT_CLEAR, 32'd1);
    access(1'b0, A, 32'd0);
    check_eq("load A", got, pattern(A >> 2));
    access(1'b0, A + 4, 32'd0);
    access(1'b1, A, 32'h1234_5678);
    expect_zero;
    expect_cnt[0] = 3;  // requests
    expect_cnt[1] = 1;  // request_misses
    expect_cnt[2] = 3;  // accesses
    expect_cnt[3] = 2;  // reads
    expect_cnt[4] = 1;  // writes
    expect_cnt[5] = 1;  // misses
    expect_cnt[6] = 1;  // read_misses
    expect_cnt[10] = 1; // fills
    expect_cnt[11] = 1; // fill_bursts
    // cycles (section 10): the miss 1 + (T_MEM + 4) + 1 + 1, each hit 1
    expect_cnt[13] = T_MEM + 7 + 2;
    check_counters("after 3 requests");
    wr(CNT_CLEAR, 32'd1);
    expect_zero;                 // an idle cache counts no cycles
    check_counters("after the clear");

    // 4. A change that walks: 8K_4W_16B -> 2K_1W_16B (walk of all 4 banks,
    //    129 cycles). Polled; a second CONFIG write meanwhile is refused.
    wr(CONFIG, 32'h000);
    rd(STATUS);
    check_eq("STATUS.CFG_BUSY after the write", rdata & 1, 1);
    refused("CONFIG write while busy", 1'b1, CONFIG, 32'h012, 4'hf);
    wait_status(32'h3);
    check_eq("change was polled", busy_seen, 1);
    check_eq("STATUS after the change", rdata, 0);
    rd(CONFIG);
    check_eq("CONFIG read back", rdata, 32'h000);
    check_eq("banks off", {28'd0, pwr_en}, 4'b0001);
    expect_zero;
    expect_cnt[13] = 129;    // cycles: the walk's
    expect_cnt[14] = 1;      // reconfigs
    expect_cnt[15] = 129;    // reconfig_cycles: walk of R rows + 1
    expect_cnt[16] = ROWS;   // walk_rows
    // A's line (bank 0: the first invalid candidate) stays: bank 0 stays on
    // and is a candidate of every line under 1 way; banks 1..3 hold nothing.
    check_counters("after the walk");

    // 5. An illegal change (a = 2 > k = 1): refused by the cache, STATUS.CFG_ERR.
    wr(CONFIG, 32'h008);
    wait_status(32'h3);
    check_eq("STATUS.CFG_ERR", rdata, 32'h4);
    rd(CONFIG);
    check_eq("CONFIG unchanged", rdata, 32'h000);
    // Back to the reset configuration: wakes banks 1..3, no walk; clears CFG_ERR.
    wr(CONFIG, CFG_RESET);
    wait_status(32'h3);
    check_eq("STATUS after the way back", rdata, 0);
    rd(CONFIG);
    check_eq("CONFIG back", rdata, CFG_RESET);
    check_eq("banks on", {28'd0, pwr_en}, 4'b1111);

    // 6. Maintenance. A is dirty (the store in 3). Clean every line: one
    //    writeback, R rows; a MAINT_CTRL write meanwhile is refused.
    wr(CNT_CLEAR, 32'd1);
    wr(MAINT_CTRL, 32'h5);         // op 1 clean, ALL
    refused("MAINT_CTRL write while busy", 1'b1, MAINT_CTRL, 32'h5, 4'hf);
    refused("MAINT_ADDR write while busy", 1'b1, MAINT_ADDR, X, 4'hf);
    wait_status(32'h30);
    check_eq("clean was polled", busy_seen, 1);
    rd(MAINT_CTRL);
    check_eq("MAINT_CTRL read back", rdata, 32'h5);
    check_eq("clean wrote A back", mem[A >> 2], 32'h1234_5678);
    check_eq("clean: one write burst", n_writes, 1);
    //    Invalidate the line of X after a store to it: the store is lost.
    access(1'b1, X, 32'hcafe_f00d);
    wr(MAINT_ADDR, X);
    rd(MAINT_ADDR);
    check_eq("MAINT_ADDR read back", rdata, X);
    wr(MAINT_CTRL, 32'h2);         // op 2 invalidate, the line of MAINT_ADDR
    wait_status(32'h30);
    access(1'b0, X, 32'd0);
    check_eq("invalidated store lost", got, pattern(X >> 2));
    check_eq("no write burst for the invalidation", n_writes, 1);
    //    Counted: clean R rows, 1 walk writeback; store X (write miss, fill);
    //    invalidate 1 row, 1 line dropped; load X (read miss, fill).
    expect_zero;
    expect_cnt[0] = 2; expect_cnt[1] = 2; expect_cnt[2] = 2; expect_cnt[3] = 1;
    expect_cnt[4] = 1; expect_cnt[5] = 2; expect_cnt[6] = 1; expect_cnt[7] = 1;
    expect_cnt[10] = 2; expect_cnt[11] = 2;
    expect_cnt[16] = ROWS + 1;  // walk_rows
    expect_cnt[18] = 1;  // walk_writebacks
    expect_cnt[19] = 1;  // walk_invalidations
    // reconfig_cycles (7.1: rows + V (T_mem + P/W) + 1 + 2V, a write burst
    // taking T_MEM + BPL cycles here): (R + 24 + 1 + 2) + (1 + 0 + 1 + 0)
    expect_cnt[15] = ROWS + T_MEM + BPL + 5;
    // cycles: those and two misses of T_MEM + 7 each (section 10)
    expect_cnt[13] = expect_cnt[15] + 2 * (T_MEM + 7);
    check_counters("after the maintenance");

    // 7. Refusals: unmapped, read-only, partial PSTRB; none changes anything.
    refused("unmapped 0x020", 1'b0, 12'h020, 32'd0, 4'h0);
    refused("unmapped 0x014 (no MAINT_ADDR_HI)", 1'b0, 12'h014, 32'd0, 4'h0);
    refused("counter 20", 1'b0, COUNTER + 4 * 20, 32'd0, 4'h0);
    refused("unmapped 0x800", 1'b0, 12'h800, 32'd0, 4'h0);
    refused("unmapped 0xffc", 1'b1, 12'hffc, 32'd0, 4'hf);
    refused("write to ID", 1'b1, ID, 32'd0, 4'hf);
    refused("write to a counter", 1'b1, COUNTER, 32'd0, 4'hf);
    refused("partial PSTRB on CONFIG", 1'b1, CONFIG, 32'h000, 4'h1);
    rd(CONFIG);
    check_eq("CONFIG after refusals", rdata, CFG_RESET);
    rd(STATUS);
    check_eq("STATUS after refusals", rdata, 0);
    rd(ID);
    check_eq("ID after refusals", rdata, want_id);

    check_eq("APB refusals seen by the checker", refusals, 11);
    check_eq("no wait states", waits, 0);
    if (errors == 0) $display("tb_apb: PASS (%0d transfers)", transfers);
    else $display("tb_apb: FAIL (%0d errors)", errors);
    $finish;
  end

  initial begin
    #5000000;
    $display("FAIL tb_apb: timeout");
    $finish;
  end
endmodule
`resetall
