// tb_power_ctrl.v - behavioural check of the generated stc_power_ctrl
// against docs/ARCHITECTURE.md section 14.4, cycle by cycle.
//
// Run by tests/rtl-checks.sh with Icarus Verilog for every tested geometry
// and several acknowledge delays:
//   iverilog -g2005 -Ptb_power_ctrl.B=4 -Ptb_power_ctrl.ACK_DELAY=3 \
//            -Ptb_power_ctrl.WAKE_OVERHEAD=4 tb_power_ctrl.v stc_power_ctrl.v
// The switch model raises (drops) ack_i ACK_DELAY cycles after pwr_en_o
// rises (falls); 0 means the acknowledge follows the enable at once. Prints
// "tb_power_ctrl: PASS ..." or one "FAIL" line per violation.
//
// Checked every cycle: a bank is never switched off without isolation; a
// ready bank is switched on and not isolated; isolation is released only
// with the acknowledge high; at most one bank is between switch-on and
// ready (staggered wake-up). Checked by scenario: reset state, the power-down
// sequence and its timing, a staggered wake-up of every other bank with
// T_wake = ACK_DELAY + WAKE_OVERHEAD cycles per bank, lowest bank first, a
// request withdrawn mid-sequence, a wake request arriving while another bank
// wakes, and an asynchronous reset in the middle of a wake-up.
`timescale 1ns / 1ps
`default_nettype none

module tb_power_ctrl;
  parameter integer B             = 4;
  parameter integer ACK_DELAY     = 0;
  parameter integer WAKE_OVERHEAD = 4;
  localparam integer T_WAKE = ACK_DELAY + WAKE_OVERHEAD;
  localparam [B-1:0] ALL    = {B{1'b1}};
  localparam [B-1:0] BANK0  = 1;              // only bank 0
  localparam [B-1:0] OTHERS = ALL & ~BANK0;   // every bank but 0

  reg          clk = 1'b0;
  reg          rst_n = 1'b1;
  reg  [B-1:0] on_req = {B{1'b1}};
  wire [B-1:0] ack;
  wire [B-1:0] pwr_en;
  wire [B-1:0] iso;
  wire [B-1:0] ready;
  wire         busy;

  always #5 clk = ~clk;

  stc_power_ctrl u_dut (
    .clk_i    (clk),
    .rst_ni   (rst_n),
    .on_req_i (on_req),
    .ack_i    (ack),
    .pwr_en_o (pwr_en),
    .iso_o    (iso),
    .ready_o  (ready),
    .busy_o   (busy)
  );

  // The power switch: the acknowledge is the enable, ACK_DELAY cycles late.
  generate
    if (ACK_DELAY == 0) begin : g_ack_now
      assign ack = pwr_en;
    end else begin : g_ack_late
      reg [B-1:0] pipe [0:ACK_DELAY-1];
      integer     i;
      initial begin
        for (i = 0; i < ACK_DELAY; i = i + 1) pipe[i] = {B{1'b1}};
      end
      always @(posedge clk) begin
        pipe[0] <= pwr_en;
        for (i = 1; i < ACK_DELAY; i = i + 1) pipe[i] <= pipe[i-1];
      end
      assign ack = pipe[ACK_DELAY-1];
    end
  endgenerate

  // Cycle n is the time between rising edges n and n+1.
  integer cyc = 0;
  always @(posedge clk) cyc <= cyc + 1;

  integer errors = 0;
  integer checks = 0;
  integer b;
  integer k;
  integer waking_count;
  reg     monitor_on = 1'b0;
  reg [B-1:0] prev_pwr_en;
  reg [B-1:0] prev_ready;
  reg [B-1:0] prev_iso;
  reg [B-1:0] waking;            // pwr_en rose, ready not yet
  integer t_pwr_rise  [0:B-1];
  integer t_pwr_fall  [0:B-1];
  integer t_ready_rise[0:B-1];
  integer t_ready_fall[0:B-1];
  integer t_iso_rise  [0:B-1];
  integer t_iso_fall  [0:B-1];
  integer t_busy_fall;

  task fail;
    input [8*96-1:0] what;
    input integer    bank;
    begin
      errors = errors + 1;
      $display("tb_power_ctrl: FAIL B=%0d ACK_DELAY=%0d cycle %0d bank %0d: %0s", B, ACK_DELAY,
               cyc, bank, what);
    end
  endtask

  task expect_eq;
    input [8*96-1:0] what;
    input integer    bank;
    input integer    got;
    input integer    want;
    begin
      checks = checks + 1;
      if (got != want) begin
        errors = errors + 1;
        $display("tb_power_ctrl: FAIL B=%0d ACK_DELAY=%0d bank %0d: %0s: got %0d, want %0d", B,
                 ACK_DELAY, bank, what, got, want);
      end
    end
  endtask

  // Sample in the middle of each cycle: invariants and edge times.
  always @(negedge clk) begin
    if (monitor_on) begin
      waking_count = 0;
      for (b = 0; b < B; b = b + 1) begin
        checks = checks + 1;
        if (!pwr_en[b] && !iso[b]) fail("switched off without isolation", b);
        if (ready[b] && (!pwr_en[b] || iso[b])) fail("ready but off or isolated", b);
        if (!iso[b] && !ack[b]) fail("isolation released without the acknowledge", b);
        if (pwr_en[b] && !prev_pwr_en[b]) begin
          t_pwr_rise[b] = cyc;
          waking[b] = 1'b1;
        end
        if (!pwr_en[b] && prev_pwr_en[b]) t_pwr_fall[b] = cyc;
        if (ready[b] && !prev_ready[b]) begin
          t_ready_rise[b] = cyc;
          waking[b] = 1'b0;
        end
        if (!ready[b] && prev_ready[b]) t_ready_fall[b] = cyc;
        if (iso[b] && !prev_iso[b]) t_iso_rise[b] = cyc;
        if (!iso[b] && prev_iso[b]) t_iso_fall[b] = cyc;
        if (waking[b]) waking_count = waking_count + 1;
      end
      if (waking_count > 1) fail("more than one bank waking at once", -1);
    end
    prev_pwr_en = pwr_en;
    prev_ready = ready;
    prev_iso = iso;
    if (!busy && t_busy_fall < 0) t_busy_fall = cyc;
  end

  // Advance to just after rising edge n + cycles (inputs change there).
  task step;
    input integer cycles;
    begin
      repeat (cycles) @(posedge clk);
      #1;
    end
  endtask

  task wait_idle;
    begin
      step(1);
      t_busy_fall = -1;
      while (busy) step(1);
      step(1);
    end
  endtask

  integer c0;
  integer order;

  initial begin
    waking = {B{1'b0}};
    prev_pwr_en = {B{1'b1}};
    prev_ready = {B{1'b1}};
    prev_iso = {B{1'b0}};
    t_busy_fall = 0;

    // Reset (a real falling edge, so every simulator applies it at once):
    // every bank on, isolation released, ready, not busy.
    #1;
    rst_n = 1'b0;
    #1;
    expect_eq("pwr_en in reset", -1, pwr_en, {B{1'b1}});
    expect_eq("iso in reset", -1, iso, {B{1'b0}});
    expect_eq("ready in reset", -1, ready, {B{1'b1}});
    expect_eq("busy in reset", -1, busy, 0);
    step(3);
    rst_n = 1'b1;
    monitor_on = 1'b1;
    step(4);
    expect_eq("pwr_en after reset", -1, pwr_en, {B{1'b1}});
    expect_eq("ready after reset", -1, ready, {B{1'b1}});
    expect_eq("busy after reset", -1, busy, 0);

    // (With one bank there is no other bank to switch.)
    if (B >= 2) begin
      // Power-down of banks 1..B-1: isolate (ready drops) one cycle after the
      // request, switch off the cycle after, done when the acknowledge has
      // fallen and passed the synchroniser.
      for (b = 0; b < B; b = b + 1) begin
        t_iso_rise[b] = -1;
        t_pwr_fall[b] = -1;
        t_ready_fall[b] = -1;
      end
      c0 = cyc;
      on_req = BANK0;
      step(1);
      t_busy_fall = -1;
      expect_eq("busy the cycle after an off request", -1, busy, 1);
      while (busy) step(1);
      step(1);
      for (b = 1; b < B; b = b + 1) begin
        expect_eq("off: iso rises (cycles after request)", b, t_iso_rise[b] - c0, 1);
        expect_eq("off: ready falls (cycles after request)", b, t_ready_fall[b] - c0, 1);
        expect_eq("off: pwr_en falls (cycles after request)", b, t_pwr_fall[b] - c0, 2);
      end
      expect_eq("off: busy falls (cycles after request)", -1, t_busy_fall - c0,
                ACK_DELAY + WAKE_OVERHEAD + 1);
      expect_eq("off: bank 0 untouched (pwr_en)", 0, pwr_en[0], 1);
      expect_eq("off: bank 0 untouched (ready)", 0, ready[0], 1);
      expect_eq("off: iso of the off banks", -1, iso, OTHERS);
      expect_eq("off: pwr_en of the off banks", -1, pwr_en, BANK0);
      step(3);

      // Staggered wake-up of banks 1..B-1, requested together: ascending,
      // bank k+1 switched on T_WAKE cycles after bank k, each ready T_WAKE
      // cycles after its turn began.
      for (b = 0; b < B; b = b + 1) begin
        t_pwr_rise[b] = -1;
        t_ready_rise[b] = -1;
        t_iso_fall[b] = -1;
      end
      c0 = cyc;
      on_req = {B{1'b1}};
      step(1);
      t_busy_fall = -1;
      expect_eq("busy the cycle after an on request", -1, busy, 1);
      while (busy) step(1);
      step(1);
      for (b = 1; b < B; b = b + 1) begin
        order = b - 1;
        expect_eq("wake: pwr_en rises (cycles after request)", b, t_pwr_rise[b] - c0,
                  order * T_WAKE + 1);
        expect_eq("wake: ready rises (cycles after request)", b, t_ready_rise[b] - c0,
                  (order + 1) * T_WAKE);
        expect_eq("wake: iso falls with ready", b, t_iso_fall[b], t_ready_rise[b]);
      end
      expect_eq("wake: busy falls with the last ready", -1, t_busy_fall, t_ready_rise[B-1]);
      expect_eq("wake: all ready", -1, ready, {B{1'b1}});
      step(2);
    end

    // A request withdrawn for one cycle: the power-down completes (the
    // switch really goes off, for T_WAKE cycles), then the bank wakes.
    k = B - 1;
    t_pwr_fall[k] = -1;
    t_pwr_rise[k] = -1;
    t_ready_rise[k] = -1;
    c0 = cyc;
    on_req[k] = 1'b0;
    step(1);
    on_req[k] = 1'b1;
    wait_idle;
    expect_eq("glitch: pwr_en falls", k, t_pwr_fall[k] - c0, 2);
    expect_eq("glitch: off for T_WAKE cycles", k, t_pwr_rise[k] - t_pwr_fall[k], T_WAKE);
    expect_eq("glitch: ready T_WAKE cycles after its turn", k, t_ready_rise[k] - t_pwr_rise[k],
              T_WAKE - 1);
    expect_eq("glitch: ready again", k, ready[k], 1);

    // A wake request arriving while another bank wakes waits its turn, even
    // if its index is lower.
    if (B >= 3) begin
      on_req = BANK0;
      wait_idle;
      for (b = 0; b < B; b = b + 1) begin
        t_pwr_rise[b] = -1;
        t_ready_rise[b] = -1;
      end
      c0 = cyc;
      on_req[2] = 1'b1;
      step(1);
      on_req[1] = 1'b1;
      wait_idle;
      expect_eq("late: bank 2 first", 2, t_pwr_rise[2] - c0, 1);
      expect_eq("late: bank 2 ready", 2, t_ready_rise[2] - c0, T_WAKE);
      expect_eq("late: bank 1 after bank 2", 1, t_pwr_rise[1] - c0, T_WAKE + 1);
      expect_eq("late: bank 1 ready", 1, t_ready_rise[1] - c0, 2 * T_WAKE);
      on_req = {B{1'b1}};
      wait_idle;
    end

    // Asynchronous reset in the middle of a wake-up: every bank on at once
    // (before any clock edge), as after power-on.
    on_req = BANK0;
    wait_idle;
    on_req = {B{1'b1}};
    step(2);
    monitor_on = 1'b0;
    #2;
    rst_n = 1'b0;
    #1;
    expect_eq("async reset: pwr_en", -1, pwr_en, {B{1'b1}});
    expect_eq("async reset: iso", -1, iso, {B{1'b0}});
    expect_eq("async reset: ready", -1, ready, {B{1'b1}});
    step(2);
    rst_n = 1'b1;
    step(ACK_DELAY + 4);
    expect_eq("after reset: busy", -1, busy, 0);

    if (errors == 0) begin
      $display("tb_power_ctrl: PASS B=%0d ACK_DELAY=%0d T_WAKE=%0d (%0d checks)", B, ACK_DELAY,
               T_WAKE, checks);
    end else begin
      $display("tb_power_ctrl: FAIL B=%0d ACK_DELAY=%0d: %0d of %0d checks failed", B, ACK_DELAY,
               errors, checks);
    end
    $finish;
  end
endmodule

`resetall
