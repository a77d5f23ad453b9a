// tb_timing: directed scenarios for the timing diagrams of docs/TIMING.md.
// A generated stc_cache (default geometry, D-cache), its APB register block
// stc_cache_apb on the control ports, its AXI4 bridge stc_cache_axi on the
// memory port (tb_cache_axi.vh, shared with tb_axi.v and tb_obi.v), its OBI
// adapter stc_cache_obi on the CPU port, and the AXI4 memory of tb_axi.v
// and tb_obi.v (tb_axi_mem.vh) made deterministic. Each
// scenario starts at a fixed cycle (the testbench's `cycle`, which is n in
// the n-th clock period, counting rising edges from 1), so the windows of
// docs/timing/scenarios.txt stay put. Stimuli change 1 ns after a rising
// edge; the converter (scripts/vcd2wavedrom.js) samples each cycle at its
// end. Scenarios:
//   cycle  200  (a) CPU port: a load miss (fill burst), then back-to-back
//               hits: load, store, load of the stored word, load;
//   cycle  300  (c) configuration port: 8K_4W_16B -> 4K_2W_16B (walk of
//               banks 2..3, then they sleep), then back (wake, no walk);
//   cycle  600  setup: 8K_1W_32B (a walk), a store miss at X (dirty);
//   cycle  800  (b, f) memory port and AXI: a load at Y = X + 8 KiB evicts
//               X's dirty line: one writeback burst (AW/W/B), then a read
//               burst of 2 lines (AR/R);
//   cycle  900  (d) maintenance port: clean + invalidate of one dirty line;
//   cycle 1000  (e) APB: MAINT_ADDR and MAINT_CTRL writes (clean one dirty
//               line), STATUS polled until MNT_BUSY is 0, then a read of an
//               unmapped address (PSLVERR);
//   cycle 1100  (g) OBI (stc_cache_obi in front of the CPU port, the
//               bridge's uncached port behind it): three cached loads back
//               to back, an uncached load, a cached load.
// The testbench also checks what it can see (data, configurations, PSLVERR)
// and prints "tb_timing: PASS". VCD: +vcd=FILE (default tb_timing.vcd),
// the top level only.
`timescale 1ns / 1ps
`default_nettype none
module tb_timing;
  // The default geometry (32-bit addresses, 16-byte lines); a D-cache; the
  // bridge's AXI ID.
  localparam integer ADDR_BITS = 32, LNB = 28, RO = 0;
  localparam [0:0]   AXI_ID = 1'b0;
  localparam [11:0] REG_CONFIG = 12'h008, REG_STATUS = 12'h00c, REG_MAINT_ADDR = 12'h010,
                    REG_MAINT_CTRL = 12'h018, REG_TUNER = 12'h100, REG_UNMAPPED = 12'h040;

  reg clk = 1'b0, rst_n = 1'b0;
  always #5 clk = ~clk;
  integer cycle = 0;
  always @(posedge clk) cycle <= cycle + 1;
  integer errors = 0;

  // ------------------------------------------------ nets
  // CPU port: the testbench's own requests (t_cpu_*) or else the OBI
  // adapter's (o_cpu_*).
  reg         t_cpu_valid = 1'b0, t_cpu_we = 1'b0;
  reg  [29:0] t_cpu_addr = 30'd0;
  reg  [3:0]  t_cpu_be = 4'd0;
  reg  [31:0] t_cpu_wdata = 32'd0;
  wire        o_cpu_valid, o_cpu_we;
  wire [29:0] o_cpu_addr;
  wire [3:0]  o_cpu_be;
  wire [31:0] o_cpu_wdata;
  wire        cpu_req_valid = t_cpu_valid | o_cpu_valid;
  wire        cpu_req_we    = t_cpu_valid ? t_cpu_we : o_cpu_we;
  wire [29:0] cpu_req_addr  = t_cpu_valid ? t_cpu_addr : o_cpu_addr;
  wire [3:0]  cpu_req_be    = t_cpu_valid ? t_cpu_be : o_cpu_be;
  wire [31:0] cpu_req_wdata = t_cpu_valid ? t_cpu_wdata : o_cpu_wdata;
  wire        cpu_req_ready, cpu_rsp_valid, cpu_rsp_err;
  wire [31:0] cpu_rsp_rdata;
  // OBI (the requester is the testbench) and the uncached port.
  reg         obi_req = 1'b0, obi_we = 1'b0;
  reg  [31:0] obi_addr = 32'd0, obi_wdata = 32'd0;
  reg  [3:0]  obi_be = 4'd0;
  wire        obi_gnt, obi_rvalid, obi_err;
  wire [31:0] obi_rdata;
  wire        unc_req_valid, unc_req_ready, unc_req_we, unc_rsp_valid, unc_rsp_err;
  wire [29:0] unc_req_addr;
  wire [3:0]  unc_req_be;
  wire [31:0] unc_req_wdata, unc_rsp_rdata;
  // Configuration and maintenance ports: the testbench's own requests
  // (t_*) or else the APB block's (a_*).
  reg         t_cfg_valid = 1'b0, t_cfg_wp = 1'b0;
  reg  [2:0]  t_cfg_banks_log = 3'd0, t_cfg_ways_log = 3'd0;
  reg  [1:0]  t_cfg_sub_log = 2'd0;
  reg         t_mnt_valid = 1'b0, t_mnt_all = 1'b0;
  reg  [1:0]  t_mnt_op = 2'd0;
  reg  [29:0] t_mnt_addr = 30'd0;
  wire        a_cfg_valid, a_cfg_wp, a_mnt_valid, a_mnt_all;
  wire [2:0]  a_cfg_banks_log, a_cfg_ways_log;
  wire [1:0]  a_cfg_sub_log, a_mnt_op;
  wire [29:0] a_mnt_addr;
  wire        cfg_valid     = t_cfg_valid | a_cfg_valid;
  wire [2:0]  cfg_banks_log = t_cfg_valid ? t_cfg_banks_log : a_cfg_banks_log;
  wire [2:0]  cfg_ways_log  = t_cfg_valid ? t_cfg_ways_log : a_cfg_ways_log;
  wire [1:0]  cfg_sub_log   = t_cfg_valid ? t_cfg_sub_log : a_cfg_sub_log;
  wire        cfg_wp        = t_cfg_valid ? t_cfg_wp : a_cfg_wp;
  wire        mnt_valid     = t_mnt_valid | a_mnt_valid;
  wire [1:0]  mnt_op        = t_mnt_valid ? t_mnt_op : a_mnt_op;
  wire        mnt_all       = t_mnt_valid ? t_mnt_all : a_mnt_all;
  wire [29:0] mnt_addr      = t_mnt_valid ? t_mnt_addr : a_mnt_addr;
  wire        cfg_ready, cfg_done, cfg_err, cur_wp;
  wire [2:0]  cur_banks_log, cur_ways_log;
  wire [1:0]  cur_sub_log;
  wire        mnt_ready, mnt_done;
  wire [4:0]  cnt_sel;
  wire        cnt_clear;
  wire [31:0] cnt_value;
  wire        tun_we, tun_busy;
  wire [2:0]  tun_addr;
  wire [31:0] tun_wdata, tun_rdata;
  wire [3:0]  pwr_en;
  // APB.
  reg         psel = 1'b0, penable = 1'b0, pwrite = 1'b0;
  reg  [11:0] paddr = 12'd0;
  reg  [31:0] pwdata = 32'd0;
  reg  [3:0]  pstrb = 4'd0;
  wire        pready, pslverr;
  wire [31:0] prdata;
  wire        apb_read_access = psel & penable & ~pwrite;   // PRDATA is read here (diagrams)
  // AXI4: the memory's outputs (tb_axi_mem.vh drives them; the bridge's are
  // declared by tb_cache_axi.vh).
  reg         awready = 1'b0, wready = 1'b0, bvalid = 1'b0, arready = 1'b0;
  reg         rvalid = 1'b0, rlast = 1'b0;
  reg  [1:0]  bresp = 2'd0, rresp = 2'd0;
  reg  [31:0] rdata = 32'd0;
  wire        axi_err_clear = 1'b0;

  // ------------------------------------------------ the design
  // The cache and its bridge (the memory port between them).
`include "tb_cache_axi.vh"

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
    .cfg_valid_o     (a_cfg_valid),
    .cfg_ready_i     (cfg_ready),
    .cfg_banks_log_o (a_cfg_banks_log),
    .cfg_ways_log_o  (a_cfg_ways_log),
    .cfg_sub_log_o   (a_cfg_sub_log),
    .cfg_wp_o        (a_cfg_wp),
    .cfg_done_i      (cfg_done),
    .cfg_err_i       (cfg_err),
    .cfg_banks_log_i (cur_banks_log),
    .cfg_ways_log_i  (cur_ways_log),
    .cfg_sub_log_i   (cur_sub_log),
    .cfg_wp_i        (cur_wp),
    .mnt_valid_o     (a_mnt_valid),
    .mnt_ready_i     (mnt_ready),
    .mnt_op_o        (a_mnt_op),
    .mnt_all_o       (a_mnt_all),
    .mnt_addr_o      (a_mnt_addr),
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

  // Uncached: 64 KiB at 0x0002_0000.
  stc_cache_obi #(
    .UNCACHED_BASE (32'h0002_0000),
    .UNCACHED_SIZE (33'h0_0001_0000),
    .READ_ONLY     (0)
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
    .cpu_req_valid_o (o_cpu_valid),
    .cpu_req_ready_i (cpu_req_ready),
    .cpu_req_we_o    (o_cpu_we),
    .cpu_req_addr_o  (o_cpu_addr),
    .cpu_req_be_o    (o_cpu_be),
    .cpu_req_wdata_o (o_cpu_wdata),
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

  // The memory: word w holds pattern(w) at first; every READY at once, B
  // one cycle and the first R beat two cycles late, nothing random (the same
  // waveforms in every run). No protocol checker: tests/timing-check.sh
  // draws a broken bridge too.
  localparam integer MEM_B_LAT = 1, MEM_R_LAT = 2;
`define TB_AXI_MEM_FIXED
`define TB_AXI_MEM_NO_CHECKER
`include "tb_axi_mem.vh"

  // ------------------------------------------------ helpers
  task check_eq;
    input [255:0] what;
    input [31:0]  value, want;
    begin
      if (value !== want) begin
        $display("FAIL %0s: got %h, want %h (cycle %0d)", what, value, want, cycle);
        errors = errors + 1;
      end
    end
  endtask

  // Wait until cycle n has begun (1 ns after its rising edge).
  task at_cycle;
    input integer n;
    begin
      if (cycle >= n) begin
        $display("FAIL scenario overran: cycle %0d, wanted to start at %0d", cycle, n);
        errors = errors + 1;
      end
      // (after the edge's nonblocking updates: `cycle` is then n)
      while (cycle < n) begin @(posedge clk); #1; end
    end
  endtask

  // End of the current cycle: the next rising edge, then 1 ns.
  task next_cycle;
    begin
      @(posedge clk); #1;
    end
  endtask

  // Responses, in order: their data, for the checks.
  reg [31:0] rsp_data [0:15];
  integer    n_rsp = 0;
  always @(posedge clk) if (cpu_rsp_valid) begin
    rsp_data[n_rsp % 16] <= cpu_rsp_rdata;
    n_rsp <= n_rsp + 1;
  end

  // One CPU request, offered from now (1 ns after an edge) until accepted;
  // returns 1 ns after the accepting edge with valid down, so that the next
  // call offers the next request in the very next cycle (back to back).
  task cpu;
    input        we;
    input [31:0] byte_addr;
    input [3:0]  be;
    input [31:0] data;
    reg          taken;
    begin
      t_cpu_valid = 1'b1; t_cpu_we = we; t_cpu_addr = byte_addr[31:2];
      t_cpu_be = we ? be : 4'h0; t_cpu_wdata = we ? data : 32'd0;
      taken = 1'b0;
      while (!taken) begin
        @(negedge clk); taken = cpu_req_ready;
        next_cycle;
      end
      t_cpu_valid = 1'b0; t_cpu_we = 1'b0; t_cpu_addr = 30'd0;
      t_cpu_be = 4'h0; t_cpu_wdata = 32'd0;
    end
  endtask

  // Wait for the response to the last request (and return at a cycle start).
  task cpu_wait;
    input integer count;
    begin
      while (n_rsp < count) next_cycle;
    end
  endtask

  // A configuration change on the cache's port; returns 1 ns after the edge
  // ending the cycle of cfg_done_o.
  task cfg;
    input [2:0] banks_log, ways_log;
    input [1:0] sub_log;
    input       wp;
    reg         taken, done;
    begin
      t_cfg_valid = 1'b1; t_cfg_banks_log = banks_log; t_cfg_ways_log = ways_log;
      t_cfg_sub_log = sub_log; t_cfg_wp = wp;
      taken = 1'b0;
      while (!taken) begin
        @(negedge clk); taken = cfg_ready; done = cfg_done;
        next_cycle;
      end
      t_cfg_valid = 1'b0; t_cfg_banks_log = 3'd0; t_cfg_ways_log = 3'd0;
      t_cfg_sub_log = 2'd0; t_cfg_wp = 1'b0;
      while (!done) begin
        @(negedge clk); done = cfg_done;
        next_cycle;
      end
      if (cfg_err) begin
        $display("FAIL configuration %0d %0d %0d %0d refused", banks_log, ways_log, sub_log, wp);
        errors = errors + 1;
      end
    end
  endtask

  // A maintenance operation on the cache's port, likewise.
  task mnt;
    input [1:0]  op;
    input        all;
    input [31:0] byte_addr;
    reg          taken, done;
    begin
      t_mnt_valid = 1'b1; t_mnt_op = op; t_mnt_all = all; t_mnt_addr = byte_addr[31:2];
      taken = 1'b0;
      while (!taken) begin
        @(negedge clk); taken = mnt_ready; done = mnt_done;
        next_cycle;
      end
      t_mnt_valid = 1'b0; t_mnt_op = 2'd0; t_mnt_all = 1'b0; t_mnt_addr = 30'd0;
      while (!done) begin
        @(negedge clk); done = mnt_done;
        next_cycle;
      end
    end
  endtask

  // One APB transfer from now (1 ns after an edge): setup cycle, access
  // cycle (PREADY is always 1), returning 1 ns after the access's edge
  // with PSEL down, so that transfers can follow back to back.
  reg [31:0] apb_rdata;
  reg        apb_err;
  task apb;
    input        write;
    input [11:0] addr;
    input [31:0] data;
    begin
      psel = 1'b1; penable = 1'b0; pwrite = write; paddr = addr;
      pwdata = write ? data : 32'd0; pstrb = write ? 4'hf : 4'h0;
      next_cycle;
      penable = 1'b1;
      @(negedge clk);
      while (!pready) begin next_cycle; @(negedge clk); end
      apb_rdata = prdata; apb_err = pslverr;
      next_cycle;
      psel = 1'b0; penable = 1'b0; pwrite = 1'b0; paddr = 12'd0; pwdata = 32'd0; pstrb = 4'h0;
    end
  endtask

  // One OBI request from now (1 ns after an edge), held until granted;
  // returns 1 ns after the granting edge with req down, so that the next
  // call requests in the very next cycle. Responses are collected below.
  task obi;
    input        we;
    input [31:0] byte_addr;
    input [31:0] data;
    reg          granted;
    begin
      obi_req = 1'b1; obi_we = we; obi_addr = byte_addr; obi_be = 4'hf;
      obi_wdata = we ? data : 32'd0;
      granted = 1'b0;
      while (!granted) begin
        @(negedge clk); granted = obi_gnt;
        next_cycle;
      end
      obi_req = 1'b0; obi_we = 1'b0; obi_addr = 32'd0; obi_be = 4'h0; obi_wdata = 32'd0;
    end
  endtask
  reg [31:0] obi_data [0:15];
  integer    n_obi = 0, obi_base = 0;
  always @(posedge clk) if (obi_rvalid) begin
    obi_data[n_obi % 16] <= obi_rdata;
    n_obi <= n_obi + 1;
    if (obi_err) begin
      $display("FAIL (g): OBI error response (cycle %0d)", cycle);
      errors = errors + 1;
    end
  end

  // ------------------------------------------------ scenarios
  localparam [31:0] A = 32'h0000_1100;   // (a): line 0x110
  localparam [31:0] X = 32'h0000_4200;   // (b): a 32-byte logical line
  localparam [31:0] Y = X + 32'h2000;    //      same bank group and row as X in 8K_1W
  localparam [31:0] Z = 32'h0000_5310;   // (d)
  localparam [31:0] W = 32'h0000_5420;   // (e), (g)
  localparam [31:0] U = 32'h0002_0040;   // (g): in the OBI adapter's uncached range
  reg [8*512-1:0] vcd_file;             // up to 512 characters
  integer     polls;
  initial begin
    if (!$value$plusargs("vcd=%s", vcd_file)) vcd_file = "tb_timing.vcd";
    $dumpfile(vcd_file);
    $dumpvars(1, tb_timing);
    repeat (3) @(posedge clk);
    #1 rst_n = 1'b1;
    // The monitor tuner's decisions off (TUNER 0 = CTRL, bit 0): the
    // configuration is the testbench's.
    at_cycle(100);
    apb(1'b1, REG_TUNER, 32'd0);
    check_eq("reset configuration 8K_4W_16B",
             {cur_banks_log, cur_ways_log, cur_sub_log, cur_wp}, {3'd2, 3'd2, 2'd0, 1'b0});

    // (a) CPU port.
    at_cycle(200);
    cpu(1'b0, A + 4, 4'h0, 32'd0);                 // miss: fill of line 0x110
    cpu(1'b0, A + 8, 4'h0, 32'd0);                 // hit
    cpu(1'b1, A + 12, 4'hf, 32'hc0ffee00);         // store hit
    cpu(1'b0, A + 12, 4'h0, 32'd0);                // load hit of the stored word
    cpu(1'b0, A + 0, 4'h0, 32'd0);                 // hit
    cpu_wait(5);
    check_eq("(a) miss data", rsp_data[0], pattern((A + 4) >> 2));
    check_eq("(a) hit data", rsp_data[1], pattern((A + 8) >> 2));
    check_eq("(a) stored word", rsp_data[3], 32'hc0ffee00);
    check_eq("(a) last hit", rsp_data[4], pattern(A >> 2));

    // (c) configuration port: 8K_4W_16B -> 4K_2W_16B (k 4 -> 2, g = 1:
    // walk banks 2..3, sleep them), then back to 8K_4W_16B (wake).
    at_cycle(300);
    cfg(3'd1, 3'd1, 2'd0, 1'b0);
    check_eq("(c) 4K_2W_16B", {cur_banks_log, cur_ways_log, cur_sub_log, cur_wp},
             {3'd1, 3'd1, 2'd0, 1'b0});
    // The power controller switches banks 2..3 off after the walk (14.4:
    // isolation, then the enables fall); the change back waits until they
    // are off, so that the wake is the whole sequence.
    at_cycle(440);
    check_eq("(c) banks 2..3 off", pwr_en, 4'b0011);
    cfg(3'd2, 3'd2, 2'd0, 1'b0);
    check_eq("(c) 8K_4W_16B", {cur_banks_log, cur_ways_log, cur_sub_log, cur_wp},
             {3'd2, 3'd2, 2'd0, 1'b0});
    check_eq("(c) all banks on", pwr_en, 4'b1111);

    // Setup for (b): 8K_1W_32B (direct mapped, 2-line logical lines; a
    // walk), then a store miss at X makes X's first line dirty.
    at_cycle(600);
    cfg(3'd2, 3'd0, 2'd1, 1'b0);
    at_cycle(750);
    cpu(1'b1, X, 4'hf, 32'h1234_5678);
    cpu_wait(6);

    // (b, f) memory port and AXI: Y misses; its victim is X's logical line,
    // whose first line is dirty: writeback, then a 2-line read burst.
    at_cycle(800);
    cpu(1'b0, Y + 4, 4'h0, 32'd0);
    cpu_wait(7);
    check_eq("(b) Y data", rsp_data[6], pattern((Y + 4) >> 2));
    check_eq("(b) X written back", mem[X >> 2], 32'h1234_5678);

    // (d) maintenance port: Z made dirty beforehand, then clean +
    // invalidate of Z's line (scope line).
    at_cycle(870);
    cpu(1'b1, Z, 4'hf, 32'hd00d_f00d);
    cpu_wait(8);
    at_cycle(900);
    mnt(2'd3, 1'b0, Z);
    check_eq("(d) Z written back", mem[Z >> 2], 32'hd00d_f00d);

    // (e) APB: W made dirty beforehand; MAINT_ADDR = W, MAINT_CTRL = clean
    // (op 1, scope line), STATUS polled until MNT_BUSY (bit 4) is 0, then
    // a read of an unmapped address.
    at_cycle(970);
    cpu(1'b1, W, 4'hf, 32'hfeed_beef);
    cpu_wait(9);
    at_cycle(1000);
    apb(1'b1, REG_MAINT_ADDR, W);
    apb(1'b1, REG_MAINT_CTRL, 32'h0000_0001);
    check_eq("(e) MAINT_CTRL accepted", {31'd0, apb_err}, 32'd0);
    polls = 0;
    apb(1'b0, REG_STATUS, 32'd0);
    while (apb_rdata[4]) begin
      polls = polls + 1;
      apb(1'b0, REG_STATUS, 32'd0);
    end
    apb(1'b0, REG_UNMAPPED, 32'd0);
    check_eq("(e) PSLVERR on an unmapped address", {31'd0, apb_err}, 32'd1);
    check_eq("(e) W written back", mem[W >> 2], 32'hfeed_beef);
    if (polls == 0) begin
      $display("FAIL (e): STATUS showed no busy poll");
      errors = errors + 1;
    end

    // (g) OBI: three cached loads of W's line back to back (hits: the clean
    // of (e) kept it), an uncached load (one single-beat AXI read), then a
    // cached load, which waits for the uncached response (order).
    at_cycle(1100);
    obi_base = n_obi;                 // (obi_rvalid_o also shows the direct requests' responses)
    obi(1'b0, W, 32'd0);
    obi(1'b0, W + 4, 32'd0);
    obi(1'b0, W + 8, 32'd0);
    obi(1'b0, U, 32'd0);
    obi(1'b0, W + 12, 32'd0);
    while (n_obi < obi_base + 5) next_cycle;
    check_eq("(g) W", obi_data[obi_base % 16], 32'hfeed_beef);
    check_eq("(g) W + 4", obi_data[(obi_base + 1) % 16], pattern((W + 4) >> 2));
    check_eq("(g) W + 8", obi_data[(obi_base + 2) % 16], pattern((W + 8) >> 2));
    check_eq("(g) uncached", obi_data[(obi_base + 3) % 16], pattern(U >> 2));
    check_eq("(g) W + 12", obi_data[(obi_base + 4) % 16], pattern((W + 12) >> 2));

    at_cycle(1200);
    if (axi_err) begin
      $display("FAIL axi_err_o set");
      errors = errors + 1;
    end
    if (errors == 0) $display("tb_timing: PASS (%0d cycles)", cycle);
    else $display("tb_timing: FAIL (%0d errors)", errors);
    $finish;
  end

  // Watchdog.
  initial begin
    #30000;
    $display("tb_timing: FAIL (watchdog)");
    $finish;
  end
endmodule
`default_nettype wire
