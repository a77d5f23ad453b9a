/*
 * emit_axi.c - stc_cache_axi.v, the bridge from one stc_cache's memory port
 * to an AXI4 manager (docs/INTEGRATION.md 3).
 *
 * The bridge's cache-side ports are stc_cache's memory ports from
 * top_ports.c with the direction mirrored (mem_req_valid_o ->
 * mem_req_valid_i), so its widths are the cache's and the two connect by
 * name. The lines --debug-break may replace (debug_break.c, module
 * STCGEN_BREAK_AXI) are in axi_break_lines, emitted through
 * stcgen_debug_break_line. Its uncached single-word port (unc_*, toward the
 * OBI adapter stc_cache_obi, emit_obi.c) comes from top_ports.c's
 * stcgen_unc_ports, which the adapter declares mirrored.
 */
#include "debug_break.h"
#include "emit.h"
#include "top_ports.h"

#include <stdio.h>
#include <string.h>

enum { AXI_MAX_BEATS = 256 /* an AXI4 INCR burst: AxLEN is 8 bits */ };

/* The lines a deliberate bug may replace, exactly as emitted (at the
 * indentation of the next-state block). */
static const char *const axi_break_lines[] = {
    "wlast_d  = (wcnt_q == 8'd0);  // the transaction's last beat",
    "if ((arvalid_q && m_axi_arready_i) || (awvalid_q && m_axi_awready_i)) begin",
    NULL,
};

const char *const *stcgen_axi_break_lines(void)
{
    return axi_break_lines;
}

static void line_b(stcgen_text *text, const stcgen_params *params, const char *line)
{
    stcgen_text_line(text, "%s", stcgen_debug_break_line(params->debug_break, STCGEN_BREAK_AXI, line));
}

static unsigned log2u(unsigned value)
{
    unsigned bits = 0;
    while ((1u << bits) < value) {
        bits++;
    }
    return bits;
}

/* A chunk of at most 256 beats from `from` (tw bits) beats: len_d and left_d. */
static void chunk_from(stcgen_text *text, const char *from, unsigned tw)
{
    stcgen_text_line(text, "if (%s > %u'd%u) begin", from, tw, AXI_MAX_BEATS);
    stcgen_text_line(text, "  len_d  = 8'd%u;", AXI_MAX_BEATS - 1);
    stcgen_text_line(text, "  left_d = %s - %u'd%u;", from, tw, AXI_MAX_BEATS);
    stcgen_text_line(text, "end else begin");
    stcgen_text_line(text, "  len_d  = %s[7:0] - 8'd1;  // 256 beats: 0 - 1 = 255", from);
    stcgen_text_line(text, "  left_d = %u'd0;", tw);
    stcgen_text_line(text, "end");
}

void stcgen_emit_axi(stcgen_text *text, const stcgen_file *file, const stcgen_params *params)
{
    const stc_geometry *g = &params->geometry;
    stcgen_top_port ports[STCGEN_MAX_TOP_PORTS];
    const size_t n_ports = stcgen_top_ports(params, ports, STCGEN_MAX_TOP_PORTS);
    const unsigned a = g->addr_bits;
    const unsigned bpl = g->beats_per_line;       /* 32-bit beats per physical line */
    const unsigned bpl_log = log2u(bpl);
    const unsigned ob = g->offset_bits;
    /* The longest transfer: a read of 4 physical lines. More than 256 beats
     * (lines over 256 bytes) is cut into chunks of 256 beats (1 KiB). */
    const bool chunks = 4 * bpl > AXI_MAX_BEATS;
    const unsigned tw = log2u(4 * bpl) + 1; /* beats of a transfer, 1 .. 4 bpl */
    char r[32];

    stcgen_text_header(text, &stcgen_comment_slashes, file->name, file->title, params);
    stcgen_text_blank(text);
    const char *what = stcgen_debug_break_what(params->debug_break, STCGEN_BREAK_AXI);
    if (what) {
        stcgen_text_raw(text, "// BROKEN on purpose (--debug-break %s): %s.\n", params->debug_break,
                        what);
    }
    stcgen_text_line(text, STCGEN_TIMESCALE);
    stcgen_text_line(text, "`default_nettype none");
    stcgen_text_blank(text);
    static const char *const intro[] = {
        "// stc_cache_axi: the memory port of one stc_cache (ARCHITECTURE.md 15.2) as an",
        "// AMBA AXI4 manager (docs/INTEGRATION.md 3). Clock and reset are the cache's.",
        "// Its cache-side ports are stc_cache's memory ports with the direction",
        "// mirrored: connect them by name (mem_req_valid_i to the cache's",
        "// mem_req_valid_o, ...).",
        "//",
        "// One transaction at a time (the cache issues one at a time): a read of n",
        "// physical lines is one AR, INCR, 4-byte beats (AxSIZE 2), ARLEN = n*P/4 - 1,",
        "// at the first line's byte address; a write (always one line) one AW and",
        "// P/4 W beats, WSTRB all ones, WLAST on the last. Transfers longer than 256",
        "// beats (lines over 256 bytes only) are cut into 256-beat transactions,",
        "// issued one after the other. No transaction crosses a 4 KiB boundary: a",
        "// transfer lies inside its logical line (at most 4 physical lines, aligned",
        "// to its size, ARCHITECTURE.md 6), so inside an aligned block of at most",
        "// 4P bytes; with P <= 1024 that block is at most 4 KiB, with larger lines",
        "// every transaction is 1 KiB aligned to 1 KiB.",
        "//",
        "// Every AXI output is a flop or a constant, so no AXI input reaches an AXI",
        "// output combinationally. The request is registered into AR or AW (the",
        "// cache's request is taken when mem_req_ready_o, a flop, is 1). Write beats",
        "// pass a one-beat register (WVALID, WDATA, WLAST), loaded when it is empty or",
        "// WREADY empties it: mem_wready_o is the one combinational path (WREADY to",
        "// the cache). Read beats and the write response are registered on their way",
        "// to the cache (one cycle). RREADY is 1 while a read is open, BREADY while a",
        "// write waits for its response.",
        "//",
        "// Errors: the cache's memory port has no error path. A response other than",
        "// OKAY (RRESP/BRESP bit 1: SLVERR, DECERR) or an RLAST on the wrong beat",
        "// delivers the beats as they came and sets the sticky axi_err_o, with the",
        "// failing transaction's address and direction (the first error's, until",
        "// axi_err_clear_i); software or an interrupt controller reads them.",
        "//",
        "// AxCACHE = 4'b0010 (normal, non-cacheable, non-bufferable: the write",
        "// response comes from the final destination, so a clean (ARCHITECTURE.md",
        "// 7.1) that completes has reached memory); AxPROT = AXI_PROT (default",
        "// 3'b000: unprivileged, secure, data; an I-cache's bridge may set bit 2);",
        "// AxLOCK 0 (no exclusive access); AxID the constant AXI_ID.",
        "//",
        "// The uncached port (unc_*, from stc_cache_obi; ARCHITECTURE.md 14.9): one",
        "// word per request, a single-beat transaction (AxLEN 0, AxSIZE 2, WSTRB =",
        "// unc_req_be_i, WLAST 1) with AxCACHE = 4'b0000 (device, non-bufferable: a",
        "// device register sees exactly that access, and a store's response comes",
        "// from the device). It shares the one-at-a-time rule with the cache's",
        "// transfers, the cache first: unc_req_ready_o is 1 when no transaction is",
        "// open and the cache asks for none (a walk's writeback may start while an",
        "// uncached access waits). The response (unc_rsp_valid_o, one cycle, with",
        "// the word of a load) comes a cycle after the R or B handshake;",
        "// unc_rsp_err_o is 1 when RRESP/BRESP was not OKAY. Such an error goes to",
        "// the requester only: axi_err_o is for the cache's transfers, which have no",
        "// error path of their own. Unused: tie unc_req_valid_i to 0.",
        NULL,
    };
    stcgen_text_lines(text, intro);
    stcgen_text_line(text, "module stc_cache_axi #(");
    stcgen_text_line(text, "  parameter integer               AXI_ID_BITS = 1,");
    stcgen_text_line(text, "  parameter [AXI_ID_BITS-1:0]     AXI_ID      = {AXI_ID_BITS{1'b0}},");
    stcgen_text_line(text, "  parameter [2:0]                 AXI_PROT    = 3'b000");
    stcgen_text_line(text, ") (");
    stcgen_text_in(text);
    stcgen_declare_port(text, true, 1, "clk_i", false, "the cache's clock (ACLK)");
    stcgen_declare_port(text, true, 1, "rst_ni", false,
                 "the cache's reset (ARESETn; asynchronous, active low)");
    for (size_t index = 0; index < n_ports; index++) {
        const stcgen_top_port *port = &ports[index];
        if (strncmp(port->name, "mem_", 4) != 0 || port->coherence) {
            continue; /* (a coherent cache's items go to the bus, not here) */
        }
        if (stcgen_declare_mirrored_port(text, port, false) != 0) {
            text->failed = true;
            return;
        }
    }
    stcgen_top_port unc[STCGEN_MAX_TOP_PORTS];
    const size_t n_unc = stcgen_unc_ports(params, unc, STCGEN_MAX_TOP_PORTS);
    for (size_t index = 0; index < n_unc; index++) {
        stcgen_declare_port(text, unc[index].input, unc[index].width, unc[index].name, false,
                            unc[index].what);
    }
    stcgen_text_line(text, "output wire [AXI_ID_BITS-1:0] m_axi_awid_o,  // AXI4 manager: write address");
    stcgen_declare_port(text, false, a, "m_axi_awaddr_o", false, "byte address");
    stcgen_declare_port(text, false, 8, "m_axi_awlen_o", false, "beats - 1");
    stcgen_declare_port(text, false, 3, "m_axi_awsize_o", false, "2: 4-byte beats");
    stcgen_declare_port(text, false, 2, "m_axi_awburst_o", false, "1: INCR");
    stcgen_declare_port(text, false, 1, "m_axi_awlock_o", false, "0");
    stcgen_declare_port(text, false, 4, "m_axi_awcache_o", false, "4'b0010, uncached 4'b0000");
    stcgen_declare_port(text, false, 3, "m_axi_awprot_o", false, "AXI_PROT");
    stcgen_declare_port(text, false, 1, "m_axi_awvalid_o", false, "");
    stcgen_declare_port(text, true, 1, "m_axi_awready_i", false, "");
    stcgen_declare_port(text, false, 32, "m_axi_wdata_o", false, "write data");
    stcgen_declare_port(text, false, 4, "m_axi_wstrb_o", false, "all ones, uncached unc_req_be_i");
    stcgen_declare_port(text, false, 1, "m_axi_wlast_o", false, "");
    stcgen_declare_port(text, false, 1, "m_axi_wvalid_o", false, "");
    stcgen_declare_port(text, true, 1, "m_axi_wready_i", false, "");
    stcgen_text_line(text, "input  wire [AXI_ID_BITS-1:0] m_axi_bid_i,  // write response (ID unused)");
    stcgen_declare_port(text, true, 2, "m_axi_bresp_i", false, "");
    stcgen_declare_port(text, true, 1, "m_axi_bvalid_i", false, "");
    stcgen_declare_port(text, false, 1, "m_axi_bready_o", false, "");
    stcgen_text_line(text, "output wire [AXI_ID_BITS-1:0] m_axi_arid_o,  // read address");
    stcgen_declare_port(text, false, a, "m_axi_araddr_o", false, "byte address");
    stcgen_declare_port(text, false, 8, "m_axi_arlen_o", false, "beats - 1");
    stcgen_declare_port(text, false, 3, "m_axi_arsize_o", false, "2: 4-byte beats");
    stcgen_declare_port(text, false, 2, "m_axi_arburst_o", false, "1: INCR");
    stcgen_declare_port(text, false, 1, "m_axi_arlock_o", false, "0");
    stcgen_declare_port(text, false, 4, "m_axi_arcache_o", false, "4'b0010, uncached 4'b0000");
    stcgen_declare_port(text, false, 3, "m_axi_arprot_o", false, "AXI_PROT");
    stcgen_declare_port(text, false, 1, "m_axi_arvalid_o", false, "");
    stcgen_declare_port(text, true, 1, "m_axi_arready_i", false, "");
    stcgen_text_line(text, "input  wire [AXI_ID_BITS-1:0] m_axi_rid_i,  // read data (ID unused)");
    stcgen_declare_port(text, true, 32, "m_axi_rdata_i", false, "");
    stcgen_declare_port(text, true, 2, "m_axi_rresp_i", false, "");
    stcgen_declare_port(text, true, 1, "m_axi_rlast_i", false, "");
    stcgen_declare_port(text, true, 1, "m_axi_rvalid_i", false, "");
    stcgen_declare_port(text, false, 1, "m_axi_rready_o", false, "");
    stcgen_declare_port(text, false, 1, "axi_err_o", false, "sticky: a response was not OKAY");
    stcgen_declare_port(text, false, 1, "axi_err_write_o", false, "the first error's direction (1: write)");
    stcgen_declare_port(text, false, a, "axi_err_addr_o", false,
                 "the first error's transaction address");
    stcgen_declare_port(text, true, 1, "axi_err_clear_i", true, "clears axi_err_o");
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
    stcgen_text_blank(text);
    stcgen_text_in(text);

    stcgen_text_line(text, "// Not used: the response IDs (one ID), RRESP/BRESP bit 0 (EXOKAY is never");
    stcgen_text_line(text, "// asked for: no exclusive access).");
    stcgen_text_line(text, "wire [2*AXI_ID_BITS+1:0] unused_axi = {m_axi_bid_i, m_axi_rid_i,"
                           " m_axi_bresp_i[0], m_axi_rresp_i[0]};");
    stcgen_text_blank(text);
    stcgen_text_line(text, "reg          busy_q, busy_d;        // a transaction is open");
    stcgen_text_line(text, "reg          unc_q, unc_d;          // it is the uncached port's");
    stcgen_text_line(text, "reg  [3:0]   axcache_q, axcache_d;  // AWCACHE / ARCACHE");
    stcgen_port_range(r, sizeof r, a);
    stcgen_text_line(text, "reg  %-7s axaddr_q, axaddr_d;    // AWADDR / ARADDR", r);
    stcgen_text_line(text, "reg  [7:0]   len_q, len_d;          // AWLEN / ARLEN");
    stcgen_text_line(text, "reg          arvalid_q, arvalid_d;");
    stcgen_text_line(text, "reg          awvalid_q, awvalid_d;");
    stcgen_text_line(text, "reg          rready_q, rready_d;");
    stcgen_text_line(text, "reg          bready_q, bready_d;");
    stcgen_text_line(text, "reg  [7:0]   rcnt_q, rcnt_d;        // read beats left in the transaction - 1");
    stcgen_text_line(text, "reg  [7:0]   wcnt_q, wcnt_d;        // write beats left to take - 1");
    stcgen_text_line(text, "reg          wopen_q, wopen_d;      // the transaction takes write beats");
    stcgen_text_line(text, "reg          wvalid_q, wvalid_d;    // the W register");
    stcgen_text_line(text, "reg  [31:0]  wdata_q, wdata_d;");
    stcgen_text_line(text, "reg          wlast_q, wlast_d;");
    stcgen_text_line(text, "reg  [3:0]   wstrb_q, wstrb_d;");
    stcgen_text_line(text, "reg          rvalid_q, rvalid_d;    // a read beat to the cache");
    stcgen_text_line(text, "reg  [31:0]  rdata_q, rdata_d;");
    stcgen_text_line(text, "reg          bvalid_q, bvalid_d;    // the write is complete");
    stcgen_text_line(text, "reg          urvalid_q, urvalid_d;  // the uncached response");
    stcgen_text_line(text, "reg          uerr_q, uerr_d;");
    stcgen_text_line(text, "reg          err_q, err_d;");
    stcgen_text_line(text, "reg          err_we_q, err_we_d;");
    stcgen_text_line(text, "reg  %-7s err_addr_q, err_addr_d;", r);
    if (chunks) {
        stcgen_port_range(r, sizeof r, tw);
        stcgen_text_line(text, "reg  %-7s left_q, left_d;        // beats of later transactions", r);
    }
    stcgen_text_blank(text);
    if (chunks) {
        stcgen_port_range(r, sizeof r, tw);
        stcgen_text_line(text, "// The request's beats: n lines of %u beats, a write one line.", bpl);
        stcgen_text_line(text,
                         "wire %-7s req_beats = mem_req_we_i ? %u'd%u : ({%u'd0, mem_req_lines_i} << %u);",
                         r, tw, bpl, tw - 3, bpl_log);
    } else {
        stcgen_text_line(text, "// The request's AxLEN: n lines of %u beats, a write one line (8 bits:", bpl);
        stcgen_text_line(text, "// 256 beats wrap to 0, minus 1 is 255).");
        stcgen_text_line(text,
                         "wire [7:0]   req_len = mem_req_we_i ? 8'd%u : (({5'd0, mem_req_lines_i} << %u) - 8'd1);",
                         bpl - 1, bpl_log);
    }
    stcgen_text_line(text, "wire         rbeat   = m_axi_rvalid_i && rready_q;");
    stcgen_text_line(text, "wire         bresp   = m_axi_bvalid_i && bready_q;");
    stcgen_text_line(text, "wire         wtake   = mem_wvalid_i && mem_wready_o;  // a beat from the cache");
    stcgen_text_line(text, "wire         rerr    = rbeat && (m_axi_rresp_i[1] || (m_axi_rlast_i != (rcnt_q == 8'd0)));");
    stcgen_text_line(text, "wire         berr    = bresp && m_axi_bresp_i[1];");
    if (chunks) {
        stcgen_port_range(r, sizeof r, a);
        stcgen_text_line(text, "// The next transaction's address: this one's plus its bytes.");
        stcgen_text_line(text, "wire %-7s next_addr = axaddr_q + {%u'd0, {1'b0, len_q} + 9'd1, 2'b00};", r,
                         a - 11);
    }
    stcgen_text_blank(text);

    stcgen_text_line(text, "always @(*) begin");
    stcgen_text_in(text);
    static const char *const defaults[] = {
        "busy_d     = busy_q;",
        "unc_d      = unc_q;",
        "axcache_d  = axcache_q;",
        "axaddr_d   = axaddr_q;",
        "len_d      = len_q;",
        "arvalid_d  = arvalid_q;",
        "awvalid_d  = awvalid_q;",
        "rready_d   = rready_q;",
        "bready_d   = bready_q;",
        "rcnt_d     = rcnt_q;",
        "wcnt_d     = wcnt_q;",
        "wopen_d    = wopen_q;",
        "wvalid_d   = wvalid_q;",
        "wdata_d    = wdata_q;",
        "wlast_d    = wlast_q;",
        "wstrb_d    = wstrb_q;",
        "rvalid_d   = 1'b0;  // one-cycle pulses",
        "rdata_d    = rdata_q;",
        "bvalid_d   = 1'b0;",
        "urvalid_d  = 1'b0;",
        "uerr_d     = 1'b0;",
        "err_d      = err_q;",
        "err_we_d   = err_we_q;",
        "err_addr_d = err_addr_q;",
        NULL,
    };
    stcgen_text_lines(text, defaults);
    if (chunks) {
        stcgen_text_line(text, "left_d     = left_q;");
    }
    stcgen_text_line(text, "// The cache's request: AR or AW (its first transaction).");
    stcgen_text_line(text, "if (mem_req_valid_i && !busy_q) begin");
    stcgen_text_in(text);
    stcgen_text_line(text, "busy_d    = 1'b1;");
    stcgen_text_line(text, "unc_d     = 1'b0;");
    stcgen_text_line(text, "axcache_d = 4'b0010;");
    stcgen_text_line(text, "axaddr_d  = {mem_req_line_i, %u'd0};", ob);
    if (chunks) {
        chunk_from(text, "req_beats", tw);
    } else {
        stcgen_text_line(text, "len_d     = req_len;");
    }
    stcgen_text_line(text, "arvalid_d = !mem_req_we_i;");
    stcgen_text_line(text, "awvalid_d = mem_req_we_i;");
    stcgen_text_line(text, "rready_d  = !mem_req_we_i;");
    stcgen_text_line(text, "bready_d  = mem_req_we_i;");
    stcgen_text_line(text, "wopen_d   = mem_req_we_i;");
    stcgen_text_line(text, "rcnt_d    = len_d;");
    stcgen_text_line(text, "wcnt_d    = len_d;");
    stcgen_text_out(text);
    stcgen_text_line(text, "end else if (unc_req_valid_i && !busy_q) begin  // the cache first");
    stcgen_text_in(text);
    stcgen_text_line(text, "busy_d    = 1'b1;");
    stcgen_text_line(text, "unc_d     = 1'b1;");
    stcgen_text_line(text, "axcache_d = 4'b0000;  // device non-bufferable");
    stcgen_text_line(text, "axaddr_d  = {unc_req_addr_i, 2'd0};");
    stcgen_text_line(text, "len_d     = 8'd0;     // one beat");
    if (chunks) {
        stcgen_text_line(text, "left_d    = %u'd0;", tw);
    }
    stcgen_text_line(text, "arvalid_d = !unc_req_we_i;");
    stcgen_text_line(text, "awvalid_d = unc_req_we_i;");
    stcgen_text_line(text, "rready_d  = !unc_req_we_i;");
    stcgen_text_line(text, "bready_d  = unc_req_we_i;");
    stcgen_text_line(text, "rcnt_d    = 8'd0;");
    stcgen_text_line(text, "// The store's one beat goes straight into the W register (empty when");
    stcgen_text_line(text, "// no transaction is open: a write's B comes after its last W).");
    stcgen_text_line(text, "if (unc_req_we_i) begin");
    stcgen_text_line(text, "  wvalid_d = 1'b1;");
    stcgen_text_line(text, "  wdata_d  = unc_req_wdata_i;");
    stcgen_text_line(text, "  wstrb_d  = unc_req_be_i;");
    stcgen_text_line(text, "  wlast_d  = 1'b1;");
    stcgen_text_line(text, "end");
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_line(text, "// Address handshakes.");
    line_b(text, params, "if ((arvalid_q && m_axi_arready_i) || (awvalid_q && m_axi_awready_i)) begin");
    stcgen_text_line(text, "  arvalid_d = 1'b0;");
    stcgen_text_line(text, "  awvalid_d = 1'b0;");
    stcgen_text_line(text, "end");
    stcgen_text_line(text, "// Write beats: the W register empties on WREADY, fills from the cache.");
    stcgen_text_line(text, "if (wvalid_q && m_axi_wready_i) wvalid_d = 1'b0;");
    stcgen_text_line(text, "if (wtake) begin");
    stcgen_text_in(text);
    stcgen_text_line(text, "wvalid_d = 1'b1;");
    stcgen_text_line(text, "wdata_d  = mem_wdata_i;");
    stcgen_text_line(text, "wstrb_d  = 4'hf;");
    line_b(text, params, "wlast_d  = (wcnt_q == 8'd0);  // the transaction's last beat");
    stcgen_text_line(text, "wcnt_d   = wcnt_q - 8'd1;");
    stcgen_text_line(text, "if (wcnt_q == 8'd0) wopen_d = 1'b0;");
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_line(text, "// Read beats, to the cache a cycle later; errors noted, never dropped.");
    stcgen_text_line(text, "if (rbeat) begin");
    stcgen_text_in(text);
    stcgen_text_line(text, "rvalid_d  = !unc_q;  // a beat to the cache, or the uncached word");
    stcgen_text_line(text, "urvalid_d = unc_q;");
    stcgen_text_line(text, "uerr_d    = rerr;");
    stcgen_text_line(text, "rdata_d   = m_axi_rdata_i;");
    stcgen_text_line(text, "rcnt_d    = rcnt_q - 8'd1;");
    stcgen_text_line(text, "if (rcnt_q == 8'd0) begin");
    stcgen_text_in(text);
    if (chunks) {
        stcgen_text_line(text, "if (left_q == %u'd0) begin", tw);
        stcgen_text_line(text, "  rready_d = 1'b0;");
        stcgen_text_line(text, "  busy_d   = 1'b0;");
        stcgen_text_line(text, "end else begin  // the next 256-beat transaction");
        stcgen_text_in(text);
        stcgen_text_line(text, "axaddr_d  = next_addr;");
        chunk_from(text, "left_q", tw);
        stcgen_text_line(text, "arvalid_d = 1'b1;");
        stcgen_text_line(text, "rcnt_d    = len_d;");
        stcgen_text_out(text);
        stcgen_text_line(text, "end");
    } else {
        stcgen_text_line(text, "rready_d = 1'b0;");
        stcgen_text_line(text, "busy_d   = 1'b0;");
    }
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_line(text, "// The write response: to the cache after the last transaction's.");
    stcgen_text_line(text, "if (bresp) begin");
    stcgen_text_in(text);
    if (chunks) {
        stcgen_text_line(text, "if (left_q == %u'd0) begin", tw);
        stcgen_text_line(text, "  bready_d  = 1'b0;");
        stcgen_text_line(text, "  bvalid_d  = !unc_q;");
        stcgen_text_line(text, "  urvalid_d = unc_q;");
        stcgen_text_line(text, "  uerr_d    = berr;");
        stcgen_text_line(text, "  busy_d    = 1'b0;");
        stcgen_text_line(text, "end else begin  // the next 256-beat transaction");
        stcgen_text_in(text);
        stcgen_text_line(text, "axaddr_d  = next_addr;");
        chunk_from(text, "left_q", tw);
        stcgen_text_line(text, "awvalid_d = 1'b1;");
        stcgen_text_line(text, "wopen_d   = 1'b1;");
        stcgen_text_line(text, "wcnt_d    = len_d;");
        stcgen_text_out(text);
        stcgen_text_line(text, "end");
    } else {
        stcgen_text_line(text, "bready_d  = 1'b0;");
        stcgen_text_line(text, "bvalid_d  = !unc_q;");
        stcgen_text_line(text, "urvalid_d = unc_q;");
        stcgen_text_line(text, "uerr_d    = berr;");
        stcgen_text_line(text, "busy_d    = 1'b0;");
    }
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_line(text, "// The first error of a cache transfer is kept (the uncached port's go to");
    stcgen_text_line(text, "// its requester on unc_rsp_err_o).");
    stcgen_text_line(text, "if ((rerr || berr) && !unc_q && !err_q) begin");
    stcgen_text_line(text, "  err_d      = 1'b1;");
    stcgen_text_line(text, "  err_we_d   = berr;");
    stcgen_text_line(text, "  err_addr_d = axaddr_q;");
    stcgen_text_line(text, "end");
    stcgen_text_line(text, "if (axi_err_clear_i) err_d = 1'b0;");
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_blank(text);

    stcgen_text_line(text, "always @(posedge clk_i or negedge rst_ni) begin");
    stcgen_text_in(text);
    stcgen_text_line(text, "if (!rst_ni) begin");
    stcgen_text_in(text);
    const char *resets[] = {"busy_q",    "unc_q",  "arvalid_q", "awvalid_q", "rready_q",
                            "bready_q",  "wopen_q", "wvalid_q", "wlast_q",   "rvalid_q",
                            "bvalid_q",  "urvalid_q", "uerr_q", "err_q",     "err_we_q"};
    for (size_t index = 0; index < sizeof resets / sizeof resets[0]; index++) {
        stcgen_text_line(text, "%-10s <= 1'b0;", resets[index]);
    }
    stcgen_text_line(text, "%-10s <= %u'd0;", "axaddr_q", a);
    stcgen_text_line(text, "%-10s <= %u'd0;", "err_addr_q", a);
    stcgen_text_line(text, "%-10s <= 8'd0;", "len_q");
    stcgen_text_line(text, "%-10s <= 4'd0;", "axcache_q");
    stcgen_text_line(text, "%-10s <= 4'd0;", "wstrb_q");
    stcgen_text_line(text, "%-10s <= 8'd0;", "rcnt_q");
    stcgen_text_line(text, "%-10s <= 8'd0;", "wcnt_q");
    stcgen_text_line(text, "%-10s <= 32'd0;", "wdata_q");
    stcgen_text_line(text, "%-10s <= 32'd0;", "rdata_q");
    if (chunks) {
        stcgen_text_line(text, "%-10s <= %u'd0;", "left_q", tw);
    }
    stcgen_text_out(text);
    stcgen_text_line(text, "end else begin");
    stcgen_text_in(text);
    const char *flops[] = {"busy",   "unc",    "axcache", "axaddr", "len",     "arvalid",
                           "awvalid", "rready", "bready", "rcnt",  "wcnt",    "wopen",
                           "wvalid", "wdata",  "wlast",  "wstrb",  "rvalid",  "rdata",
                           "bvalid", "urvalid", "uerr",  "err",    "err_we",  "err_addr"};
    for (size_t index = 0; index < sizeof flops / sizeof flops[0]; index++) {
        char q[32];
        snprintf(q, sizeof q, "%s_q", flops[index]);
        stcgen_text_line(text, "%-10s <= %s_d;", q, flops[index]);
    }
    if (chunks) {
        stcgen_text_line(text, "%-10s <= left_d;", "left_q");
    }
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_blank(text);

    static const char *const assigns[] = {
        "assign mem_req_ready_o = !busy_q;",
        "assign mem_wready_o    = wopen_q && (!wvalid_q || m_axi_wready_i);",
        "assign mem_bvalid_o    = bvalid_q;",
        "assign mem_rvalid_o    = rvalid_q;",
        "assign mem_rdata_o     = rdata_q;",
        "assign unc_req_ready_o = !busy_q && !mem_req_valid_i;  // the cache first",
        "assign unc_rsp_valid_o = urvalid_q;",
        "assign unc_rsp_rdata_o = rdata_q;",
        "assign unc_rsp_err_o   = uerr_q;",
        "",
        "assign m_axi_awid_o    = AXI_ID;",
        "assign m_axi_awaddr_o  = axaddr_q;",
        "assign m_axi_awlen_o   = len_q;",
        "assign m_axi_awsize_o  = 3'd2;",
        "assign m_axi_awburst_o = 2'b01;",
        "assign m_axi_awlock_o  = 1'b0;",
        "assign m_axi_awcache_o = axcache_q;",
        "assign m_axi_awprot_o  = AXI_PROT;",
        "assign m_axi_awvalid_o = awvalid_q;",
        "assign m_axi_wdata_o   = wdata_q;",
        "assign m_axi_wstrb_o   = wstrb_q;",
        "assign m_axi_wlast_o   = wlast_q;",
        "assign m_axi_wvalid_o  = wvalid_q;",
        "assign m_axi_bready_o  = bready_q;",
        "assign m_axi_arid_o    = AXI_ID;",
        "assign m_axi_araddr_o  = axaddr_q;",
        "assign m_axi_arlen_o   = len_q;",
        "assign m_axi_arsize_o  = 3'd2;",
        "assign m_axi_arburst_o = 2'b01;",
        "assign m_axi_arlock_o  = 1'b0;",
        "assign m_axi_arcache_o = axcache_q;",
        "assign m_axi_arprot_o  = AXI_PROT;",
        "assign m_axi_arvalid_o = arvalid_q;",
        "assign m_axi_rready_o  = rready_q;",
        "",
        "assign axi_err_o       = err_q;",
        "assign axi_err_write_o = err_we_q;",
        "assign axi_err_addr_o  = err_addr_q;",
        NULL,
    };
    stcgen_text_lines(text, assigns);
    stcgen_text_out(text);
    stcgen_text_blank(text);
    stcgen_text_line(text, "endmodule");
    stcgen_text_blank(text);
    stcgen_text_line(text, "`resetall");
}
