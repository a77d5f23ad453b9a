/*
 * emit_coh_arbiter.c - stc_coh_arbiter, the coherent bus's round-robin
 * arbiter (docs/ARCHITECTURE.md 19.3): of the cores requesting the bus when
 * it can start a tenure, the first after the last owner, cyclically.
 *
 * The priority chains are unrolled per last owner (N x N lines for N <= 8
 * cores), so the module reads as the rule and lints clean, with no modulo
 * arithmetic on indices.
 */
#include "emit.h"

#include <stdio.h>
#include <string.h>

/* "8'b00000100": the one-hot grant of core. */
static void one_hot(char *out, size_t len, unsigned cores, unsigned core)
{
    int used = snprintf(out, len, "%u'b", cores);
    for (unsigned bit = cores; bit-- > 0 && used + 1 < (int)len;) {
        out[used++] = bit == core ? '1' : '0';
    }
    out[used] = '\0';
}

void stcgen_emit_coh_arbiter(stcgen_text *text, const stcgen_file *file,
                             const stcgen_params *params)
{
    const unsigned cores = params->coh_cores;
    const unsigned ib = params->coh_core_bits;
    const bool fixed =
        params->coh_break && strcmp(params->coh_break, STCGEN_COH_BREAK_ARBITER) == 0;
    stcgen_text_header(text, &stcgen_comment_slashes, file->name, file->title, params);
    stcgen_text_blank(text);
    stcgen_text_line(text, STCGEN_TIMESCALE);
    stcgen_text_line(text, "`default_nettype none");
    stcgen_text_blank(text);
    stcgen_text_line(text, "// stc_coh_arbiter: the bus of %u cores (ARCHITECTURE.md 19.3).", cores);
    stcgen_text_line(text, "// When free_i says the bus can start a tenure, the first requesting");
    stcgen_text_line(text, "// core after the last owner, cyclically, gets it (grant_o one-hot,");
    stcgen_text_line(text, "// grant_idx_o its index); the owner is remembered. After reset the");
    stcgen_text_line(text, "// last owner is core %u, so core 0 goes first. A core that keeps", cores - 1);
    stcgen_text_line(text, "// requesting waits for at most %u tenures of others.", cores - 1);
    stcgen_text_line(text, "module stc_coh_arbiter (");
    stcgen_text_in(text);
    stcgen_text_line(text, "input  wire         clk_i,");
    stcgen_text_line(text, "input  wire         rst_ni,       // asynchronous reset, active low");
    stcgen_text_line(text, "input  wire [%u:0]   req_i,        // core c wants the bus", cores - 1);
    stcgen_text_line(text, "input  wire         free_i,       // a tenure can start this cycle");
    stcgen_text_line(text, "output reg  [%u:0]   grant_o,      // one-hot: the new tenure's owner",
                     cores - 1);
    stcgen_text_line(text, "output reg  [%u:0]   grant_idx_o   // its index (none: the last owner's)",
                     ib - 1);
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
    stcgen_text_blank(text);
    stcgen_text_in(text);
    stcgen_text_line(text, "reg  [%u:0] last_q;  // the last owner", ib - 1);
    stcgen_text_blank(text);
    stcgen_text_line(text, "always @* begin");
    stcgen_text_in(text);
    stcgen_text_line(text, "grant_o     = %u'd0;", cores);
    stcgen_text_line(text, "grant_idx_o = last_q;");
    stcgen_text_line(text, "if (free_i) begin");
    stcgen_text_in(text);
    stcgen_text_line(text, "case (last_q)");
    stcgen_text_in(text);
    for (unsigned last = 0; last < cores; last++) {
        stcgen_text_line(text, "%u'd%u: begin", ib, last);
        stcgen_text_in(text);
        for (unsigned step = 1; step <= cores; step++) {
            unsigned core = (last + step) % cores;
            if (fixed) {
                core = step - 1; /* BROKEN: coh-arb-fixed: lowest index first, always */
            }
            char hot[16];
            one_hot(hot, sizeof hot, cores, core);
            stcgen_text_line(text,
                             "%sif (req_i[%u]) begin grant_o = %s; grant_idx_o = %u'd%u; end",
                             step == 1 ? "" : "else ", core, hot, ib, core);
        }
        stcgen_text_out(text);
        stcgen_text_line(text, "end");
    }
    stcgen_text_line(text, "default: ;  // a value past the last core: never held");
    stcgen_text_out(text);
    stcgen_text_line(text, "endcase");
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_blank(text);
    stcgen_text_line(text, "always @(posedge clk_i or negedge rst_ni) begin");
    stcgen_text_in(text);
    stcgen_text_line(text, "if (!rst_ni) begin");
    stcgen_text_line(text, "  last_q <= %u'd%u;", ib, cores - 1);
    stcgen_text_line(text, "end else if (grant_o != %u'd0) begin", cores);
    stcgen_text_line(text, "  last_q <= grant_idx_o;");
    stcgen_text_line(text, "end");
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_out(text);
    stcgen_text_blank(text);
    stcgen_text_line(text, "endmodule");
    stcgen_text_blank(text);
    stcgen_text_line(text, "`resetall");
}
