// tb_sram.v - behavioural check of the generated stc_sram (simulation model)
// against docs/ARCHITECTURE.md section 14.2.
//
// Run by tests/rtl-checks.sh with Icarus Verilog for each SRAM shape of a
// geometry (tag: whole-word writes; data: byte writes):
//   iverilog -g2005 -Ptb_sram.DEPTH=128 -Ptb_sram.WIDTH=128 -Ptb_sram.GRAN=8 \
//            tb_sram.v stc_sram.v
// Prints "tb_sram: PASS ..." with a signature of the garbage read after a
// power-off (the same under Icarus and Verilator: the model is deterministic)
// or one "FAIL" line per violation.
//
// Checked: contents are garbage (never X) before the first write; a read
// shows its word from the cycle after the request and holds it through idle
// cycles and writes; masked writes change only their groups; while the
// supply is off reads return garbage (never the stored word, never X) and
// writes are ignored; after the supply returns every word is lost, reads of
// a lost word are stable, a masked write to it keeps the garbage in the
// other groups; a second power-off leaves different garbage.
`timescale 1ns / 1ps
`default_nettype none

module tb_sram;
  parameter integer DEPTH = 16;
  parameter integer WIDTH = 64;
  parameter integer GRAN  = 8;
  localparam integer AW = $clog2(DEPTH);
  localparam integer MB = WIDTH / GRAN;

  reg              clk = 1'b0;
  reg              pwr = 1'b1;
  reg              req = 1'b0;
  reg              we = 1'b0;
  reg  [AW-1:0]    addr = {AW{1'b0}};
  reg  [MB-1:0]    wmask = {MB{1'b0}};
  reg  [WIDTH-1:0] wdata = {WIDTH{1'b0}};
  wire [WIDTH-1:0] rdata;

  always #5 clk = ~clk;

  stc_sram #(
    .DEPTH (DEPTH),
    .WIDTH (WIDTH),
    .GRAN  (GRAN),
    .SEED  (32'h0000_5eed)
  ) u_dut (
    .clk_i   (clk),
    .pwr_i   (pwr),
    .req_i   (req),
    .we_i    (we),
    .addr_i  (addr),
    .wmask_i (wmask),
    .wdata_i (wdata),
    .rdata_o (rdata)
  );

  integer errors = 0;
  integer checks = 0;
  integer i;
  integer j;
  integer same;
  reg [WIDTH-1:0] value;
  reg [WIDTH-1:0] held;
  reg [WIDTH-1:0] lost1 [0:DEPTH-1];
  reg [WIDTH-1:0] expected;
  reg [MB-1:0]    mask;
  reg [31:0]      signature = 32'd0;  // of the garbage: same in every simulator

  // A distinct, addr-dependent test pattern (never all zeros).
  function [WIDTH-1:0] pattern;
    input integer a;
    input integer salt;
    integer bit_i;
    begin
      for (bit_i = 0; bit_i < WIDTH; bit_i = bit_i + 1) begin
        pattern[bit_i] = ((a * 7 + salt * 13 + bit_i * 5 + (bit_i / 3)) % 3) == 0;
      end
      pattern[0] = 1'b1;
    end
  endfunction

  task check;
    input [8*80-1:0] what;
    input            ok;
    begin
      checks = checks + 1;
      if (!ok) begin
        errors = errors + 1;
        $display("tb_sram: FAIL %0dx%0d/%0d at %0t: %0s", DEPTH, WIDTH, GRAN, $time, what);
      end
    end
  endtask

  // One access: inputs set after a rising edge, sampled at the next one.
  task access;
    input            write;
    input [AW-1:0]   a;
    input [MB-1:0]   mask;
    input [WIDTH-1:0] data;
    begin
      req = 1'b1;
      we = write;
      addr = a;
      wmask = mask;
      wdata = data;
      @(posedge clk);
      #1;
      req = 1'b0;
      we = 1'b0;
    end
  endtask

  task read;
    input  [AW-1:0]    a;
    output [WIDTH-1:0] data;
    begin
      held = rdata;
      req = 1'b1;
      we = 1'b0;
      addr = a;
      #2;
      check("rdata changes only at the clock edge", rdata === held);
      @(posedge clk);
      #1;
      req = 1'b0;
      data = rdata;
      check("rdata is never X", ^rdata !== 1'bx);
    end
  endtask

  initial begin
    @(posedge clk);
    #1;

    // Garbage before the first write.
    read(0, value);
    check("initial contents not all zero", value !== {WIDTH{1'b0}});

    // Whole-word writes, then reads one cycle later.
    for (i = 0; i < DEPTH; i = i + 1) access(1'b1, i, {MB{1'b1}}, pattern(i, 0));
    for (i = 0; i < DEPTH; i = i + 1) begin
      read(i, value);
      check("read returns the written word", value === pattern(i, 0));
    end

    // rdata holds through idle cycles and writes.
    read(1 % DEPTH, value);
    held = value;
    @(posedge clk);
    #1;
    access(1'b1, 2 % DEPTH, {MB{1'b1}}, pattern(2 % DEPTH, 0));
    check("rdata holds through idle and write cycles", rdata === held);

    // Masked write: only the selected groups change.
    if (MB > 1) begin
      expected = pattern(3 % DEPTH, 0);
      for (j = 0; j < MB; j = j + 2) begin
        expected[j*GRAN +: GRAN] = pattern(3, 1) >> (j * GRAN);
      end
      for (j = 0; j < MB; j = j + 1) mask[j] = (j % 2) == 0;
      access(1'b1, 3 % DEPTH, mask, pattern(3, 1));
      read(3 % DEPTH, value);
      check("masked write changes only its groups", value === expected);
      access(1'b1, 3 % DEPTH, {MB{1'b1}}, pattern(3 % DEPTH, 0));
    end
    access(1'b1, 4 % DEPTH, {MB{1'b0}}, pattern(4, 1));
    read(4 % DEPTH, value);
    check("a write with an empty mask changes nothing", value === pattern(4 % DEPTH, 0));

    // Supply off: reads return garbage, writes are ignored.
    pwr = 1'b0;
    @(posedge clk);
    #1;
    for (i = 0; i < DEPTH; i = i + 1) begin
      read(i, value);
      check("a read while off does not return the stored word", value !== pattern(i, 0));
    end
    access(1'b1, 5 % DEPTH, {MB{1'b1}}, pattern(5, 1));

    // Supply back: every word lost; lost words read stable garbage.
    pwr = 1'b1;
    @(posedge clk);
    #1;
    for (i = 0; i < DEPTH; i = i + 1) begin
      read(i, value);
      check("contents lost across a power-off", value !== pattern(i, 0));
      if (i == 5 % DEPTH) check("a write while off is ignored", value !== pattern(5, 1));
      lost1[i] = value;
      for (j = 0; j < WIDTH; j = j + 1) signature = {signature[30:0], signature[31] ^ value[j]};
      read(i, value);
      check("a lost word reads the same twice", value === lost1[i]);
    end

    // A masked write to a lost word keeps the garbage elsewhere.
    if (MB > 1) begin
      expected = lost1[6 % DEPTH];
      expected[GRAN-1:0] = pattern(6, 2);
      mask = {MB{1'b0}};
      mask[0] = 1'b1;
      access(1'b1, 6 % DEPTH, mask, pattern(6, 2));
      read(6 % DEPTH, value);
      check("masked write into a lost word", value === expected);
    end else begin
      access(1'b1, 6 % DEPTH, 1'b1, pattern(6, 2));
      read(6 % DEPTH, value);
      check("write after power-on", value === pattern(6, 2));
    end

    // A second power-off leaves different garbage.
    pwr = 1'b0;
    @(posedge clk);
    #1;
    pwr = 1'b1;
    @(posedge clk);
    #1;
    same = 0;
    for (i = 0; i < DEPTH; i = i + 1) begin
      read(i, value);
      if (value === lost1[i]) same = same + 1;
    end
    check("second power-off leaves new garbage", same <= DEPTH / 8);

    if (errors == 0) begin
      $display("tb_sram: PASS %0dx%0d/%0d (%0d checks), garbage signature %h", DEPTH, WIDTH,
               GRAN, checks, signature);
    end else begin
      $display("tb_sram: FAIL %0dx%0d/%0d: %0d of %0d checks failed", DEPTH, WIDTH, GRAN, errors,
               checks);
    end
    $finish;
  end
endmodule

`resetall
