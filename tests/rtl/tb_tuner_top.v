// tb_tuner_top: the seed tuner inside the generated top stc_cache
// (stcgen --tuner seed, default geometry, ARCHITECTURE.md 16.5): a search started through the register
// port runs on a real CPU stream, every candidate goes through the
// controller's configuration port (the controller's reconfigs counter
// equals the changes seen on cfg_*_o), software's configuration port is
// held off while the tuner is busy, the chosen configuration is the one in
// force at the end, the window counters count the controller's accesses,
// software's port works again afterwards, and a software change in
// progress when the tuner starts keeps the port until it is done.
`timescale 1ns / 1ps
`default_nettype none
module tb_tuner_top;
  `define TB_SEED_TUNER  // the top of stcgen --tuner seed (6-bit register addresses)
  `include "tb_harness.vh"

  localparam [5:0] A_CTRL = 6'd0, A_WINDOW = 6'd1, A_STATUS = 6'd4, A_CONFIG = 6'd5,
                   A_COUNT_A = 6'd9;

  task treg_write;
    input [5:0]  addr;
    input [31:0] data;
    begin
      @(negedge clk);
      tun_we = 1'b1; tun_addr = addr; tun_wdata = data;
      @(negedge clk);
      tun_we = 1'b0;
    end
  endtask

  reg [31:0] value;
  task treg_read;
    input [5:0] addr;
    begin
      tun_addr = addr; #1;
      value = tun_rdata;
    end
  endtask

  // Every change of the controller's configuration, and whether software's
  // port was ever ready while the tuner was busy.
  reg  [8:0] last_cfg;
  integer    changes = 0;
  reg        sw_ready_while_busy = 1'b0;
  always @(posedge clk) begin
    if (rst_n) begin
      if ({cur_wp, cur_l, cur_a, cur_k} !== last_cfg) changes = changes + 1;
      if (tun_busy && cfg_ready) sw_ready_while_busy = 1'b1;
    end
    last_cfg = {cur_wp, cur_l, cur_a, cur_k};
  end

  integer n, a0, b0;
  initial begin
    repeat (3) @(negedge clk);
    rst_n = 1'b1;
    treg_write(A_WINDOW, 32'd64);
    treg_write(A_CTRL, 32'd1);
    check_eq("busy after start", {31'd0, tun_busy}, 32'd1);
    // Software asks for a change while the tuner searches: not accepted.
    @(negedge clk); cfg_valid = 1'b1; cfg_k = 3'd2; cfg_a = 3'd2; cfg_l = 2'd0; cfg_wp = 1'b0;
    repeat (5) @(negedge clk);
    check_eq("sw change held while tuner busy", {31'd0, cfg_done}, 32'd0);
    cfg_valid = 1'b0;
    // A 3 KB loop of loads until the search is over.
    n = 0;
    while (tun_busy && n < 20000) begin
      access(1'b0, (n % 192) * 16, 4'h0, 32'd0);
      check_eq("load data", got, pattern((n % 192) * 4));
      n = n + 1;
    end
    check_eq("search ended", {31'd0, tun_busy}, 32'd0);
    check_eq("sw port never ready while busy",
             {31'd0, sw_ready_while_busy}, 32'd0);
    treg_read(A_STATUS);
    check_eq("status: done", {31'd0, value[1]}, 32'd1);
    if (value[23:16] < 8'd3 || value[23:16] > 8'd8) begin
      $display("FAIL examined %0d", value[23:16]); errors = errors + 1;
    end
    $display("tb_tuner_top: search examined %0d configurations in %0d accesses",
             value[23:16], n);
    if (n < value[23:16] * 64) begin        // each window is 64 accesses long
      $display("FAIL %0d accesses cannot hold %0d windows of 64", n, value[23:16]);
      errors = errors + 1;
    end
    treg_read(A_CONFIG);
    check_eq("chosen configuration is in force", {23'd0, value[8:0]},
             {23'd0, cur_wp, cur_l, cur_a, cur_k});
    counter(5'd14, changes);            // every change went through the controller
    // The window counters count the controller's accesses.
    treg_write(A_WINDOW, 32'd1000);
    treg_read(A_COUNT_A); a0 = value[15:0]; b0 = value[31:16];
    for (n = 0; n < 10; n = n + 1) access(1'b0, 32'h8000 + n * 64, 4'h0, 32'd0);  // misses
    @(negedge clk);                     // the last access's strobe is counted at this edge
    treg_read(A_COUNT_A);
    check_eq("window counts 10 accesses", value[15:0] - a0, 32'd10);
    check_eq("... and 10 misses", value[31:16] - b0, 32'd10);
    // Software's port works again.
    @(negedge clk); cfg_valid = 1'b1; cfg_k = 3'd2; cfg_a = 3'd2; cfg_l = 2'd0; cfg_wp = 1'b0;
    n = 0;
    while (!cfg_done && n < 1000) begin @(negedge clk); n = n + 1; end
    cfg_valid = 1'b0;
    check_eq("software change done", {31'd0, cfg_done}, 32'd1);
    @(negedge clk);
    check_eq("software change applied", {23'd0, cur_wp, cur_l, cur_a, cur_k}, {23'd0, 9'h012});
    // A software change in progress keeps the port when the tuner starts:
    // 8K_4W_16B -> 2K_1W_16B walks 128 rows; its done goes to software.
    @(negedge clk); cfg_valid = 1'b1; cfg_k = 3'd0; cfg_a = 3'd0; cfg_l = 2'd0; cfg_wp = 1'b0;
    @(negedge clk);
    check_eq("sw change accepted", {31'd0, cfg_ready}, 32'd0);
    treg_write(A_CTRL, 32'd1);
    check_eq("tuner busy during sw change", {31'd0, tun_busy}, 32'd1);
    n = 0;
    while (!cfg_done && n < 1000) begin @(negedge clk); n = n + 1; end
    check_eq("sw change done to sw", {31'd0, cfg_done}, 32'd1);
    cfg_valid = 1'b0;
    @(negedge clk);
    check_eq("software's change applied", {23'd0, cur_wp, cur_l, cur_a, cur_k}, 32'd0);
    n = 0;
    while (tun_busy && n < 20000) begin
      access(1'b0, (n % 192) * 16, 4'h0, 32'd0);
      n = n + 1;
    end
    treg_read(A_STATUS);
    check_eq("second search done", {30'd0, value[1], tun_busy}, 32'd2);
    if (errors == 0) $display("tb_tuner_top: PASS");
    else $display("tb_tuner_top: FAIL (%0d errors)", errors);
    $finish;
  end
endmodule
`default_nettype wire
