/*
 * emit_obi.c - stc_cache_obi.v, an OBI 1.x subordinate in front of one
 * stc_cache's CPU port, with an uncached address range sent as single
 * words to the AXI4 bridge (ARCHITECTURE.md 14.10, docs/INTEGRATION.md 4).
 *
 * Its cache-side ports are stc_cache's CPU ports from top_ports.c with the
 * direction mirrored (cpu_req_valid_i -> cpu_req_valid_o), its uncached
 * ports the bridge's (stcgen_unc_ports) mirrored, so every width comes from
 * those tables and the three modules connect by name. The lines
 * --debug-break may replace (debug_break.c, module STCGEN_BREAK_OBI) are in
 * obi_break_lines, emitted through stcgen_debug_break_line.
 */
#include "debug_break.h"
#include "emit.h"
#include "top_ports.h"

#include <string.h>

/* The lines a deliberate bug may replace, exactly as emitted (at the
 * module body's indentation). */
static const char *const obi_break_lines[] = {
    "wire         c_block = u_wait;  // a cached request waits for the uncached response",
    "wire         u_gnt   = unc_req_valid_o && unc_req_ready_i;",
    NULL,
};

const char *const *stcgen_obi_break_lines(void)
{
    return obi_break_lines;
}

static void line_b(stcgen_text *text, const stcgen_params *params, const char *line)
{
    stcgen_text_line(text, "%s", stcgen_debug_break_line(params->debug_break, STCGEN_BREAK_OBI, line));
}

void stcgen_emit_obi(stcgen_text *text, const stcgen_file *file, const stcgen_params *params)
{
    const unsigned a = params->geometry.addr_bits;
    stcgen_top_port ports[STCGEN_MAX_TOP_PORTS];
    const size_t n_ports = stcgen_top_ports(params, ports, STCGEN_MAX_TOP_PORTS);
    stcgen_top_port unc[STCGEN_MAX_TOP_PORTS];
    const size_t n_unc = stcgen_unc_ports(params, unc, STCGEN_MAX_TOP_PORTS);
    char r[32];

    stcgen_text_header(text, &stcgen_comment_slashes, file->name, file->title, params);
    stcgen_text_blank(text);
    const char *what = stcgen_debug_break_what(params->debug_break, STCGEN_BREAK_OBI);
    if (what) {
        stcgen_text_raw(text, "// BROKEN on purpose (--debug-break %s): %s.\n", params->debug_break,
                        what);
    }
    stcgen_text_line(text, STCGEN_TIMESCALE);
    stcgen_text_line(text, "`default_nettype none");
    stcgen_text_blank(text);
    static const char *const intro[] = {
        "// stc_cache_obi: an OBI 1.x subordinate (no rready: the manager always takes",
        "// rvalid, as Ibex and CV32E40P do) in front of one stc_cache's CPU port",
        "// (ARCHITECTURE.md 14.10, docs/INTEGRATION.md 4). Clock and reset are the",
        "// cache's. Its cache-side ports are stc_cache's CPU ports with the direction",
        "// mirrored, its uncached ports stc_cache_axi's unc_* mirrored: connect both",
        "// by name.",
        "//",
        "// An address is uncached when UNCACHED_SIZE != 0 and (addr & ~(SIZE-1)) ==",
        "// UNCACHED_BASE (SIZE a power of two, BASE aligned to it; SIZE 0: no",
        "// uncached range). SIZE must also be at least the largest logical line (4",
        NULL,
    };
    static const char *const intro_b[] = {
        "// words: the cache fills and writes back whole lines, and a line with",
        "// uncached words would bring stale copies in and write them over the",
        "// device's. Cached requests pass combinationally (obi_gnt_o is the",
        "// cache's ready), so hits still go one per cycle; uncached ones go as",
        "// single words to the AXI4 bridge. READ_ONLY = 1 (an I-cache): a store to",
        "// the cached range is granted and answered with obi_err_o = 1 in the next",
        "// cycle and never reaches the cache; uncached stores still go out.",
        "//",
        "// Order: responses come back in request order because a request of one",
        "// kind (cached, uncached, refused store) is granted only when no response of",
        "// another kind is outstanding past this cycle (a response in this cycle",
        "// frees the way: its successor's comes at the earliest in the next). The",
        "// cache and the bridge each answer their own requests in order. Every",
        "// response comes at the earliest in the cycle after its grant (OBI).",
        NULL,
    };
    stcgen_text_lines(text, intro);
    stcgen_text_line(text, "// physical lines: %u bytes here), so that no cache line holds uncached",
                     4 * params->geometry.line_bytes);
    stcgen_text_lines(text, intro_b);
    stcgen_text_line(text, "module stc_cache_obi #(");
    stcgen_port_range(r, sizeof r, a);
    stcgen_text_line(text, "  parameter %-8s UNCACHED_BASE = %u'd0,  // byte address, aligned to the size", r, a);
    stcgen_port_range(r, sizeof r, a + 1);
    stcgen_text_line(text, "  parameter %-8s UNCACHED_SIZE = %u'd0,  // bytes, a power of two; 0: none", r,
                     a + 1);
    stcgen_text_line(text, "  parameter integer  READ_ONLY     = 0       // 1: an I-cache (cached stores refused)");
    stcgen_text_line(text, ") (");
    stcgen_text_in(text);
    stcgen_declare_port(text, true, 1, "clk_i", false, "the cache's clock");
    stcgen_declare_port(text, true, 1, "rst_ni", false, "the cache's reset (asynchronous, active low)");
    stcgen_declare_port(text, true, 1, "obi_req_i", false, "OBI subordinate");
    stcgen_declare_port(text, false, 1, "obi_gnt_o", false, "");
    stcgen_declare_port(text, true, a, "obi_addr_i", false, "byte address; bits 1:0 ignored");
    stcgen_declare_port(text, true, 1, "obi_we_i", false, "");
    stcgen_declare_port(text, true, 4, "obi_be_i", false, "");
    stcgen_declare_port(text, true, 32, "obi_wdata_i", false, "");
    stcgen_declare_port(text, false, 1, "obi_rvalid_o", false, "");
    stcgen_declare_port(text, false, 32, "obi_rdata_o", false, "");
    stcgen_declare_port(text, false, 1, "obi_err_o", false, "");
    for (size_t index = 0; index < n_ports; index++) {
        if (strncmp(ports[index].name, "cpu_", 4) != 0) {
            continue;
        }
        if (stcgen_declare_mirrored_port(text, &ports[index], false) != 0) {
            text->failed = true;
            return;
        }
    }
    for (size_t index = 0; index < n_unc; index++) {
        if (stcgen_declare_mirrored_port(text, &unc[index], index + 1 == n_unc) != 0) {
            text->failed = true;
            return;
        }
    }
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
    stcgen_text_blank(text);
    stcgen_text_in(text);

    stcgen_port_range(r, sizeof r, a);
    stcgen_text_line(text, "// The range's offset bits (SIZE 2^%u, the whole space, gives all ones).", a);
    stcgen_text_line(text, "localparam %-7s UNC_MASK = UNCACHED_SIZE[%u:0] - %u'd1;", r, a - 1, a);
    stcgen_text_blank(text);
    stcgen_text_line(text, "wire [1:0]   unused_addr = obi_addr_i[1:0];  // word accesses: be_i says the bytes");
    stcgen_text_blank(text);
    stcgen_text_line(text, "reg          c_out_q, c_out_d;  // a cached request is waiting for its response");
    stcgen_text_line(text, "reg          u_out_q, u_out_d;  // an uncached one is");
    stcgen_text_line(text, "reg          e_rsp_q, e_rsp_d;  // a refused store is answered in this cycle");
    stcgen_text_blank(text);
    stcgen_text_line(text, "wire         is_unc  = (UNCACHED_SIZE != %u'd0) && ((obi_addr_i & ~UNC_MASK) == UNCACHED_BASE);",
                     a + 1);
    stcgen_text_line(text, "wire         is_ro   = (READ_ONLY != 0) && obi_we_i && !is_unc;  // refused");
    stcgen_text_line(text, "// A response outstanding that does not come in this cycle.");
    stcgen_text_line(text, "wire         c_wait  = c_out_q && !cpu_rsp_valid_i;");
    stcgen_text_line(text, "wire         u_wait  = u_out_q && !unc_rsp_valid_i;");
    stcgen_text_line(text, "// The cache answers its own requests in order (it accepts the next in a");
    stcgen_text_line(text, "// hit's response cycle), and so does the bridge; only a change of kind waits.");
    line_b(text, params, "wire         c_block = u_wait;  // a cached request waits for the uncached response");
    stcgen_text_line(text, "wire         u_block = c_wait || u_wait;  // the bridge takes one word at a time");
    stcgen_text_line(text, "wire         e_block = c_wait || u_wait;");
    stcgen_text_blank(text);
    stcgen_text_line(text, "assign cpu_req_valid_o = obi_req_i && !is_unc && !is_ro && !c_block;");
    stcgen_text_line(text, "assign cpu_req_we_o    = obi_we_i;");
    stcgen_text_line(text, "assign cpu_req_addr_o  = obi_addr_i[%u:2];", a - 1);
    stcgen_text_line(text, "assign cpu_req_be_o    = obi_be_i;");
    stcgen_text_line(text, "assign cpu_req_wdata_o = obi_wdata_i;");
    stcgen_text_line(text, "assign unc_req_valid_o = obi_req_i && is_unc && !u_block;");
    stcgen_text_line(text, "assign unc_req_we_o    = obi_we_i;");
    stcgen_text_line(text, "assign unc_req_addr_o  = obi_addr_i[%u:2];", a - 1);
    stcgen_text_line(text, "assign unc_req_be_o    = obi_be_i;");
    stcgen_text_line(text, "assign unc_req_wdata_o = obi_wdata_i;");
    stcgen_text_blank(text);
    stcgen_text_line(text, "wire         c_gnt   = cpu_req_valid_o && cpu_req_ready_i;");
    line_b(text, params, "wire         u_gnt   = unc_req_valid_o && unc_req_ready_i;");
    stcgen_text_line(text, "wire         e_gnt   = obi_req_i && is_ro && !e_block;");
    stcgen_text_line(text, "assign obi_gnt_o = c_gnt || u_gnt || e_gnt;");
    stcgen_text_blank(text);
    stcgen_text_line(text, "// At most one of the three responses per cycle (the grant rules above).");
    stcgen_text_line(text, "assign obi_rvalid_o = cpu_rsp_valid_i || unc_rsp_valid_i || e_rsp_q;");
    stcgen_text_line(text, "assign obi_rdata_o  = unc_rsp_valid_i ? unc_rsp_rdata_i : cpu_rsp_rdata_i;");
    stcgen_text_line(text, "assign obi_err_o    = (cpu_rsp_valid_i && cpu_rsp_err_i) || (unc_rsp_valid_i && unc_rsp_err_i)");
    stcgen_text_line(text, "                      || e_rsp_q;");
    stcgen_text_blank(text);
    stcgen_text_line(text, "always @(*) begin");
    stcgen_text_line(text, "  c_out_d = c_gnt || c_wait;  // granted now, or still waiting");
    stcgen_text_line(text, "  u_out_d = u_gnt || u_wait;");
    stcgen_text_line(text, "  e_rsp_d = e_gnt;");
    stcgen_text_line(text, "end");
    stcgen_text_blank(text);
    stcgen_text_line(text, "always @(posedge clk_i or negedge rst_ni) begin");
    stcgen_text_line(text, "  if (!rst_ni) begin");
    stcgen_text_line(text, "    c_out_q <= 1'b0;");
    stcgen_text_line(text, "    u_out_q <= 1'b0;");
    stcgen_text_line(text, "    e_rsp_q <= 1'b0;");
    stcgen_text_line(text, "  end else begin");
    stcgen_text_line(text, "    c_out_q <= c_out_d;");
    stcgen_text_line(text, "    u_out_q <= u_out_d;");
    stcgen_text_line(text, "    e_rsp_q <= e_rsp_d;");
    stcgen_text_line(text, "  end");
    stcgen_text_line(text, "end");
    stcgen_text_blank(text);
    stcgen_text_raw(text, "`ifndef SYNTHESIS\n");
    stcgen_text_line(text, "// The range's rule, checked once (a wrong range would decode silently).");
    stcgen_text_line(text, "initial begin");
    stcgen_text_line(text, "  if (UNCACHED_SIZE != %u'd0", a + 1);
    stcgen_text_line(text, "      && ((UNCACHED_SIZE & (UNCACHED_SIZE - %u'd1)) != %u'd0 || (UNCACHED_BASE & UNC_MASK) != %u'd0",
                     a + 1, a + 1, a);
    stcgen_text_line(text, "          || UNCACHED_SIZE < %u'd%u))", a + 1, 4 * params->geometry.line_bytes);
    stcgen_text_line(text, "    $display(\"stc_cache_obi %%m: ERROR: UNCACHED_SIZE is not a power of two of at least %u "
                           "bytes or UNCACHED_BASE is not aligned to it\");",
                     4 * params->geometry.line_bytes);
    stcgen_text_line(text, "end");
    stcgen_text_raw(text, "`endif\n");
    stcgen_text_out(text);
    stcgen_text_blank(text);
    stcgen_text_line(text, "endmodule");
    stcgen_text_blank(text);
    stcgen_text_line(text, "`resetall");
}
