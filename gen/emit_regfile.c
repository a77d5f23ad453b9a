/*
 * emit_regfile.c - stc_regfile, the always-on register-file wrapper behind
 * the controller's per-row state (docs/ARCHITECTURE.md section 14.2), and
 * stc_regfile_2w, the same with a second write port, behind a coherent
 * cache's row state and snoop-tag array (19.5: a snoop's change written in
 * its own cycle beside the controller's write).
 *
 * Like stc_sram, one module serves every shape through its parameters, so
 * the body is the same for every geometry: a register-file (latch-array)
 * macro replaces it by rewriting this one file behind the same ports. Only
 * the header differs between outputs.
 */
#include "emit.h"

static const char *const regfile_head[] = {
    STCGEN_TIMESCALE,
    "`default_nettype none",
    "",
    "// stc_regfile: DEPTH words of WIDTH bits, always on, one flow-through read",
    "// port and one write port with a write mask per bit.",
    "//",
    "// rdata_o is word raddr_i in the same cycle (combinational, as a latch",
    "// array's read). At the rising edge of clk_i with we_i = 1, each set bit i",
    "// of wmask_i writes bit i of wdata_i into word waddr_i; a read of the word",
    "// being written shows the old value until that edge.",
    "//",
    "// No reset: the contents are undefined until written. Simulation (no",
    "// SYNTHESIS define) starts every word as a deterministic hash of its",
    "// address and SEED instead of X, so a user that reads a word before",
    "// writing it gets wrong values that Icarus and Verilator agree on.",
    "// Synthesis sees a plain array (blackboxed by synth/ and counted as bits).",
    "module stc_regfile #(",
    "  parameter integer DEPTH = 32,      // words, a power of two >= 2",
    "  parameter integer WIDTH = 32,      // bits per word",
    "  parameter [31:0]  SEED  = 32'd0    // simulation only: initial pattern",
    ") (",
    "  input  wire                     clk_i,",
    "  input  wire [$clog2(DEPTH)-1:0] raddr_i,",
    "  output wire [WIDTH-1:0]         rdata_o,",
    "  input  wire                     we_i,",
    "  input  wire [$clog2(DEPTH)-1:0] waddr_i,",
    "  input  wire [WIDTH-1:0]         wmask_i,  // bits to write",
    "  input  wire [WIDTH-1:0]         wdata_i",
    ");",
    "",
    "  // Parameter legality, checked at elaboration: an illegal value",
    "  // instantiates a module that does not exist, named after the rule.",
    "  generate",
    "    if (DEPTH < 2 || (DEPTH & (DEPTH - 1)) != 0) begin : g_check_depth",
    "      stc_regfile_DEPTH_must_be_a_power_of_two_of_at_least_2 u_error ();",
    "    end",
    "    if (WIDTH < 1) begin : g_check_width",
    "      stc_regfile_WIDTH_must_be_positive u_error ();",
    "    end",
    "  endgenerate",
    "",
    NULL,
};

/* The array and its simulation-only initial contents: the same in both
 * wrappers. */
static const char *const regfile_array[] = {
    "  reg [WIDTH-1:0] mem [0:DEPTH-1];",
    "",
    "`ifdef SYNTHESIS",
    "  wire [31:0] unused_seed = SEED;",
    "`else",
    "  integer word_i, bit_i;",
    "  reg [31:0] x;",
    "  initial begin",
    "    for (word_i = 0; word_i < DEPTH; word_i = word_i + 1) begin",
    "      for (bit_i = 0; bit_i < WIDTH; bit_i = bit_i + 1) begin",
    "        if (bit_i % 32 == 0) begin",
    "          x = SEED ^ (word_i * 32'h85ebca6b) ^ (bit_i * 32'hc2b2ae35) ^ 32'h9e3779b9;",
    "          x = x ^ (x >> 16);",
    "          x = x * 32'h7feb352d;",
    "          x = x ^ (x >> 15);",
    "          x = x * 32'h846ca68b;",
    "          x = x ^ (x >> 16);",
    "        end",
    "        mem[word_i][bit_i] = x[bit_i % 32];",
    "      end",
    "    end",
    "  end",
    "`endif",
    "",
    NULL,
};

static const char *const regfile_tail[] = {
    "  // The merged word: a whole-word write, which every tool handles, with",
    "  // the unmasked bits taken from the word itself.",
    "  wire [WIDTH-1:0] merged = (mem[waddr_i] & ~wmask_i) | (wdata_i & wmask_i);",
    "",
    "  always @(posedge clk_i) begin",
    "    if (we_i) begin",
    "      mem[waddr_i] <= merged;",
    "    end",
    "  end",
    "",
    "  assign rdata_o = mem[raddr_i];",
    "",
    "endmodule",
    "",
    "`resetall",
    NULL,
};

static const char *const regfile_2w_head[] = {
    STCGEN_TIMESCALE,
    "`default_nettype none",
    "",
    "// stc_regfile_2w: DEPTH words of WIDTH bits, always on, one flow-through",
    "// read port and two write ports with a write mask per bit each.",
    "//",
    "// As stc_regfile (rdata_o is word raddr_i in the same cycle; a read of a",
    "// word being written shows the old value until the edge), with a second",
    "// write port (we2_i, waddr2_i, wmask2_i, wdata2_i). At a rising edge each",
    "// port writes its masked bits; when both write one word, both ports' bits",
    "// go in and a bit both write takes the second port's (ARCHITECTURE.md",
    "// 19.5: a snoop's change wins over the controller's of the same cycle).",
    "//",
    "// No reset; simulation starts every word as stc_regfile's hash of its",
    "// address and SEED. Synthesis sees a plain array (blackboxed by synth/).",
    "module stc_regfile_2w #(",
    "  parameter integer DEPTH = 32,      // words, a power of two >= 2",
    "  parameter integer WIDTH = 32,      // bits per word",
    "  parameter [31:0]  SEED  = 32'd0    // simulation only: initial pattern",
    ") (",
    "  input  wire                     clk_i,",
    "  input  wire [$clog2(DEPTH)-1:0] raddr_i,",
    "  output wire [WIDTH-1:0]         rdata_o,",
    "  input  wire                     we_i,",
    "  input  wire [$clog2(DEPTH)-1:0] waddr_i,",
    "  input  wire [WIDTH-1:0]         wmask_i,  // bits to write",
    "  input  wire [WIDTH-1:0]         wdata_i,",
    "  input  wire                     we2_i,    // the second port: wins a bit both write",
    "  input  wire [$clog2(DEPTH)-1:0] waddr2_i,",
    "  input  wire [WIDTH-1:0]         wmask2_i,",
    "  input  wire [WIDTH-1:0]         wdata2_i",
    ");",
    "",
    "  generate",
    "    if (DEPTH < 2 || (DEPTH & (DEPTH - 1)) != 0) begin : g_check_depth",
    "      stc_regfile_2w_DEPTH_must_be_a_power_of_two_of_at_least_2 u_error ();",
    "    end",
    "    if (WIDTH < 1) begin : g_check_width",
    "      stc_regfile_2w_WIDTH_must_be_positive u_error ();",
    "    end",
    "  endgenerate",
    "",
    NULL,
};

static const char *const regfile_2w_tail[] = {
    "  // Whole-word writes, the unmasked bits taken from the word itself; one",
    "  // word written by both ports is written once, with both ports' bits.",
    "  wire             same   = we_i && we2_i && (waddr_i == waddr2_i);",
    "  wire [WIDTH-1:0] first  = (mem[waddr_i] & ~wmask_i) | (wdata_i & wmask_i);",
    "  wire [WIDTH-1:0] both   = (first & ~wmask2_i) | (wdata2_i & wmask2_i);",
    "  wire [WIDTH-1:0] second = (mem[waddr2_i] & ~wmask2_i) | (wdata2_i & wmask2_i);",
    "",
    "  always @(posedge clk_i) begin",
    "    if (we_i) begin",
    "      mem[waddr_i] <= same ? both : first;",
    "    end",
    "    if (we2_i && !same) begin",
    "      mem[waddr2_i] <= second;",
    "    end",
    "  end",
    "",
    "  assign rdata_o = mem[raddr_i];",
    "",
    "endmodule",
    "",
    "`resetall",
    NULL,
};

void stcgen_emit_regfile_2w(stcgen_text *text, const stcgen_file *file,
                            const stcgen_params *params)
{
    stcgen_text_header(text, &stcgen_comment_slashes, file->name, file->title, params);
    stcgen_text_blank(text);
    stcgen_text_lines(text, regfile_2w_head);
    stcgen_text_lines(text, regfile_array);
    stcgen_text_lines(text, regfile_2w_tail);
}

void stcgen_emit_regfile(stcgen_text *text, const stcgen_file *file, const stcgen_params *params)
{
    stcgen_text_header(text, &stcgen_comment_slashes, file->name, file->title, params);
    stcgen_text_blank(text);
    stcgen_text_lines(text, regfile_head);
    stcgen_text_lines(text, regfile_array);
    stcgen_text_lines(text, regfile_tail);
}
