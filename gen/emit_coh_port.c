/*
 * emit_coh_port.c - stc_coh_port, one core's joint between its coherent
 * stc_cache and the atomic bus stc_coh_bus (docs/ARCHITECTURE.md 19.7): the
 * cache's memory-port requests become the bus's items, the bus's grant,
 * beats and item ends become the memory port's handshake. The cache keeps
 * its memory port's timing exactly: the bus takes an item in the cycle it
 * is offered once the core owns the bus, a write window's beats come first
 * (19.6), a read's beats come as memory's would.
 */
#include "emit.h"

#include <stdio.h>

/* The body: widths only through localparams. */
static const char *const body_lines[] = {
    "// The tenure: from the grant (the core asked with bus_req_i) to the end",
    "// of the item offered as its last, or to the cycle the cache ends it",
    "// (bus_rel_i: a walk's last row). An item runs from the cycle the bus",
    "// takes it to its txn_done_i (a lone BusUpgr: both in one cycle).",
    "reg  own_q;     // the core holds the bus (after its grant's cycle)",
    "reg  item_q;    // an item of the core's runs",
    "reg  write_q;   // ... and it is a BusWB",
    "reg  last_q;    // ... and it ends the tenure",
    "wire own   = grant_i || own_q;",
    "wire start = own && !item_q && mem_req_valid_i;",
    "wire last  = start ? mem_req_last_i : last_q;",
    "",
    "always @(posedge clk_i or negedge rst_ni) begin",
    "  if (!rst_ni) begin",
    "    own_q   <= 1'b0;",
    "    item_q  <= 1'b0;",
    "    write_q <= 1'b0;",
    "    last_q  <= 1'b0;",
    "  end else begin",
    "    if (start) begin",
    "      item_q  <= 1'b1;",
    "      write_q <= mem_req_we_i && !mem_req_upgr_i;",
    "      last_q  <= mem_req_last_i;",
    "    end",
    "    if (txn_done_i) begin",
    "      item_q <= 1'b0;",
    "    end",
    "    own_q <= own && !(txn_done_i && last) && !bus_rel_i;",
    "  end",
    "end",
    "",
    "// The bus: the request until granted, the item offered (the bus reads it",
    "// only from its owner: in the grant's cycle, or between items).",
    "assign req_o         = bus_req_i && !own_q;",
    "assign rel_o         = bus_rel_i;",
    "assign txn_valid_o   = mem_req_valid_i;",
    "assign txn_bus_o     = mem_req_upgr_i ? BUS_UPGR : mem_req_we_i ? BUS_WB",
    "                     : mem_req_rdx_i ? BUS_RDX : BUS_RD;",
    "assign txn_line_o    = mem_req_line_i;",
    "assign txn_count_o   = (mem_req_upgr_i || mem_req_we_i) ? 3'd1 : mem_req_lines_i;",
    "assign txn_rdx_pos_o = mem_req_rdx_pos_i;",
    "assign txn_snoop_o   = mem_req_snoop_i;",
    "assign txn_last_o    = mem_req_last_i;",
    "assign own_word_o    = mem_wdata_i;",
    "",
    "// The cache's memory port: taken when the bus takes the item; a write's",
    "// beats when the bus asks the owner for them, its end with the item's; a",
    "// read's beats (only the owner's reads run while it holds the bus).",
    "assign bus_own_o       = own;",
    "assign mem_req_ready_o = own && !item_q;",
    "assign mem_wready_o    = own_beat_i;",
    "assign mem_bvalid_o    = txn_done_i && item_q && write_q;",
    "assign mem_rvalid_o    = beat_i && item_q && !write_q;",
    "assign mem_rdata_o     = rdata_i;",
    "assign line_shared_o   = line_shared_i;",
    "wire   unused_wvalid   = mem_wvalid_i;  // (the bus paces the beats: own_beat_i)",
};

void stcgen_emit_coh_port(stcgen_text *text, const stcgen_file *file, const stcgen_params *params)
{
    const unsigned lb = params->coh_line_bits;
    const unsigned w = params->word_bits;
    stcgen_text_header(text, &stcgen_comment_slashes, file->name, file->title, params);
    stcgen_text_blank(text);
    stcgen_text_line(text, STCGEN_TIMESCALE);
    stcgen_text_line(text, "`default_nettype none");
    stcgen_text_blank(text);
    stcgen_text_line(text, "// stc_coh_port: one core's joint between its coherent stc_cache");
    stcgen_text_line(text, "// (--protocol: its memory port, bus_req_o / bus_own_i and the items'");
    stcgen_text_line(text, "// kinds) and its slice of stc_coh_bus (ARCHITECTURE.md 19.7). The");
    stcgen_text_line(text, "// cache's requests are the bus's items: a write a BusWB, a read burst");
    stcgen_text_line(text, "// BusRd (BusRdX for a store's miss), an upgrade a BusUpgr; the");
    stcgen_text_line(text, "// cache sees its memory port's handshake with the bus's timing.");
    stcgen_text_line(text, "module stc_coh_port (");
    stcgen_text_in(text);
    stcgen_text_line(text, "input  wire        clk_i,");
    stcgen_text_line(text, "input  wire        rst_ni,             // asynchronous, active low");
    stcgen_text_line(text, "// the cache (stc_cache's memory port and coherence ports, mirrored)");
    stcgen_text_line(text, "input  wire        mem_req_valid_i,");
    stcgen_text_line(text, "output wire        mem_req_ready_o,");
    stcgen_text_line(text, "input  wire        mem_req_we_i,");
    stcgen_text_line(text, "input  wire [%u:0] mem_req_line_i,", lb - 1);
    stcgen_text_line(text, "input  wire [2:0]  mem_req_lines_i,");
    stcgen_text_line(text, "input  wire        mem_wvalid_i,");
    stcgen_text_line(text, "output wire        mem_wready_o,");
    stcgen_text_line(text, "input  wire [%u:0] mem_wdata_i,", w - 1);
    stcgen_text_line(text, "output wire        mem_bvalid_o,");
    stcgen_text_line(text, "output wire        mem_rvalid_o,");
    stcgen_text_line(text, "output wire [%u:0] mem_rdata_o,", w - 1);
    stcgen_text_line(text, "input  wire        bus_req_i,");
    stcgen_text_line(text, "output wire        bus_own_o,");
    stcgen_text_line(text, "input  wire        bus_rel_i,");
    stcgen_text_line(text, "input  wire        mem_req_upgr_i,");
    stcgen_text_line(text, "input  wire        mem_req_rdx_i,");
    stcgen_text_line(text, "input  wire [1:0]  mem_req_rdx_pos_i,");
    stcgen_text_line(text, "input  wire [3:0]  mem_req_snoop_i,");
    stcgen_text_line(text, "input  wire        mem_req_last_i,");
    stcgen_text_line(text, "output wire        line_shared_o,");
    stcgen_text_line(text, "// the bus (this core's bits of stc_coh_bus's ports)");
    stcgen_text_line(text, "output wire        req_o,");
    stcgen_text_line(text, "input  wire        grant_i,");
    stcgen_text_line(text, "output wire        rel_o,");
    stcgen_text_line(text, "output wire        txn_valid_o,");
    stcgen_text_line(text, "output wire [2:0]  txn_bus_o,");
    stcgen_text_line(text, "output wire [%u:0] txn_line_o,", lb - 1);
    stcgen_text_line(text, "output wire [2:0]  txn_count_o,");
    stcgen_text_line(text, "output wire [1:0]  txn_rdx_pos_o,");
    stcgen_text_line(text, "output wire [3:0]  txn_snoop_o,");
    stcgen_text_line(text, "output wire        txn_last_o,");
    stcgen_text_line(text, "input  wire        txn_done_i,");
    stcgen_text_line(text, "input  wire        line_shared_i,");
    stcgen_text_line(text, "input  wire        beat_i,");
    stcgen_text_line(text, "input  wire [%u:0] rdata_i,", w - 1);
    stcgen_text_line(text, "input  wire        own_beat_i,");
    stcgen_text_line(text, "output wire [%u:0] own_word_o", w - 1);
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
    stcgen_text_blank(text);
    stcgen_text_in(text);
    stcgen_text_line(text, "localparam [2:0] BUS_RD = 3'd1, BUS_RDX = 3'd2, BUS_UPGR = 3'd3, "
                     "BUS_WB = 3'd4;");
    stcgen_text_blank(text);
    for (size_t i = 0; i < sizeof body_lines / sizeof body_lines[0]; i++) {
        if (body_lines[i][0] == '\0') {
            stcgen_text_blank(text);
        } else {
            stcgen_text_line(text, "%s", body_lines[i]);
        }
    }
    stcgen_text_out(text);
    stcgen_text_blank(text);
    stcgen_text_line(text, "endmodule");
    stcgen_text_blank(text);
    stcgen_text_line(text, "`resetall");
}
