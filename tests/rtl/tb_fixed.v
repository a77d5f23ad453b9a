// tb_fixed: the non-configurable baseline `stcgen --fixed 8K_4W_32B`
// (ARCHITECTURE.md 14.1), default geometry: it starts and stays in
// 8K_4W_32B, refuses every configuration request (done and error in the
// same cycle, the configuration unchanged, nothing counted), and caches
// 32-byte logical lines like the configurable cache in that configuration.
// Prints "tb_fixed: PASS".
`timescale 1ns / 1ps
`default_nettype none
module tb_fixed;
  `define TB_NO_TUNER  // a --fixed baseline has no tuner (and no tun_* ports)
  `include "tb_harness.vh"

  localparam [31:0] A = 32'h0000_1104;  // logical line 0x1100..0x111f, rows 0x10, 0x11

  task refuse;                          // offer a configuration, expect a refusal
    input [2:0] k, a;
    input [1:0] l;
    input       wp;
    begin
      @(negedge clk);
      cfg_valid = 1'b1; cfg_k = k; cfg_a = a; cfg_l = l; cfg_wp = wp;
      #1;
      check_eq("cfg ready", cfg_ready, 1);
      check_eq("cfg done at once", cfg_done, 1);
      check_eq("cfg refused", cfg_err, 1);
      @(negedge clk); cfg_valid = 1'b0;
      check_eq("k unchanged", cur_k, 2);
      check_eq("a unchanged", cur_a, 2);
      check_eq("L unchanged", cur_l, 1);
      check_eq("wp unchanged", cur_wp, 0);
    end
  endtask

  initial begin
    reset_and_init;

    // 1. The reset configuration is the fixed one: 8K_4W_32B.
    check_eq("reset k", cur_k, 2);
    check_eq("reset a", cur_a, 2);
    check_eq("reset L", cur_l, 1);
    check_eq("reset wp", cur_wp, 0);

    // 2. Every request is refused: a smaller size, another line size, way
    //    prediction, and the fixed configuration itself.
    refuse(3'd0, 3'd0, 2'd0, 1'b0);
    refuse(3'd2, 3'd2, 2'd0, 1'b0);
    refuse(3'd2, 3'd2, 2'd1, 1'b1);
    refuse(3'd2, 3'd2, 2'd1, 1'b0);
    counter(5'd14, 0);                  // reconfigs
    check_eq("all banks stay on", pwr_en, 4'hf);

    // 3. A read miss fetches the 32-byte logical line in one 2-line burst:
    //    section 10: 1 + 20 + 2 x 4 + 2 (the line known absent: the cycle
    //    after the probe requests it whole, and the answer) = 31.
    access(1'b0, A, 4'h0, 32'h0);
    check_eq("miss data", got, pattern(A >> 2));
    check_eq("miss burst line", last_read_line, 28'h110);
    check_eq("miss burst lines", last_read_lines, 2);
    check_eq("miss latency", latency, 31);
    // 4. The other physical line of the logical line hits: 1 cycle.
    access(1'b0, A + 32'h10, 4'h0, 32'h0);
    check_eq("subline hit data", got, pattern((A + 32'h10) >> 2));
    check_eq("subline hit latency", latency, 1);
    check_eq("one burst in all", n_reads, 1);
    counter(5'd5, 1);                   // misses
    counter(5'd10, 2);                  // fills

    if (errors == 0) $display("tb_fixed: PASS");
    else $display("tb_fixed: FAIL (%0d errors)", errors);
    $finish;
  end
endmodule
`resetall
