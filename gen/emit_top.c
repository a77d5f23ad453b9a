/*
 * emit_top.c - stc_cache, the top (docs/ARCHITECTURE.md section 14.3): the
 * controller u_ctrl, per bank b the SRAMs u_bank<b>_tag and u_bank<b>_data
 * (the one table in params.c), and the power controller u_power.
 */
#include "emit.h"
#include "top_ports.h"

#include <stdio.h>

void stcgen_emit_top(stcgen_text *text, const stcgen_file *file, const stcgen_params *params)
{
    const stc_geometry *g = &params->geometry;
    const unsigned banks = g->banks;
    stcgen_top_port ports[STCGEN_MAX_TOP_PORTS];
    const size_t n_ports = stcgen_top_ports(params, ports, STCGEN_MAX_TOP_PORTS);
    char range[32];

    stcgen_text_header(text, &stcgen_comment_slashes, file->name, file->title, params);
    stcgen_text_blank(text);
    stcgen_text_line(text, "`default_nettype none");
    stcgen_text_blank(text);
    stcgen_text_line(text, "// stc_cache: one stc cache (ARCHITECTURE.md sections 3-10, 14.3, 15).");
    stcgen_text_line(text, "// READ_ONLY = 1 builds an I-cache (writes answered with an error).");
    stcgen_text_line(text, "// pwr_en_o / pwr_ack_i are the %u bank power switches (UPF SW_BANK<b>);", banks);
    stcgen_text_line(text, "// in plain RTL simulation tie pwr_ack_i to pwr_en_o (or delay it).");
    stcgen_text_line(text, "module %s #(", STCGEN_TOP_MODULE);
    stcgen_text_line(text, "  parameter integer READ_ONLY = 0");
    stcgen_text_line(text, ") (");
    stcgen_text_in(text);
    stcgen_text_line(text, "input  wire         clk_i,");
    stcgen_text_line(text, "input  wire         rst_ni,  // asynchronous reset, active low");
    for (size_t index = 0; index < n_ports; index++) {
        const stcgen_top_port *p = &ports[index];
        if (p->width > 1) {
            snprintf(range, sizeof range, "[%u:0]", p->width - 1);
        } else {
            range[0] = '\0';
        }
        stcgen_text_line(text, "%s wire %-7s %s,%s%s", p->input ? "input " : "output", range, p->name,
                         p->what[0] ? "  // " : "", p->what);
    }
    snprintf(range, sizeof range, "[%u:0]", banks - 1);
    stcgen_text_line(text, "output wire %-7s %s,  // bank power switch enables", range,
                     STCGEN_TOP_PWR_EN_PORT);
    stcgen_text_line(text, "input  wire %-7s %s  // bank power switch acknowledges", range,
                     STCGEN_TOP_PWR_ACK_PORT);
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
    stcgen_text_blank(text);
    stcgen_text_in(text);

    const unsigned tb = g->tag_bits, lb = params->line_bits;
    stcgen_text_line(text, "wire [%u:0] sram_addr;", g->row_bits - 1);
    stcgen_text_line(text, "wire %s tag_req;", range);
    stcgen_text_line(text, "wire %s tag_we;", range);
    stcgen_text_line(text, "wire [%u:0] tag_wdata;", tb - 1);
    stcgen_text_line(text, "wire [%u:0] tag_rdata;", banks * tb - 1);
    stcgen_text_line(text, "wire %s data_req;", range);
    stcgen_text_line(text, "wire %s data_we;", range);
    stcgen_text_line(text, "wire [%u:0] data_wmask;", g->line_bytes - 1);
    stcgen_text_line(text, "wire [%u:0] data_wdata;", lb - 1);
    stcgen_text_line(text, "wire [%u:0] data_rdata;", banks * lb - 1);
    stcgen_text_line(text, "wire %s pwr_on_req;", range);
    stcgen_text_line(text, "wire %s pwr_ready;", range);
    stcgen_text_line(text, "wire %s pwr_en;", range);
    stcgen_text_line(text, "wire %s unused_iso;     // isolation: the UPF's cells use it", range);
    stcgen_text_line(text, "wire         unused_busy;    // the controller waits on ready instead");
    stcgen_text_blank(text);

    stcgen_text_line(text, "stc_cache_ctrl #(");
    stcgen_text_line(text, "  .READ_ONLY (READ_ONLY)");
    stcgen_text_line(text, ") u_ctrl (");
    stcgen_text_in(text);
    stcgen_text_line(text, ".clk_i           (clk_i),");
    stcgen_text_line(text, ".rst_ni          (rst_ni),");
    for (size_t index = 0; index < n_ports; index++) {
        stcgen_text_line(text, ".%-15s (%s),", ports[index].name, ports[index].name);
    }
    static const char *const internal[] = {"sram_addr", "tag_req",    "tag_we",     "tag_wdata",
                                           "tag_rdata", "data_req",   "data_we",    "data_wmask",
                                           "data_wdata", "data_rdata"};
    for (size_t index = 0; index < sizeof internal / sizeof internal[0]; index++) {
        char port_name[32];
        snprintf(port_name, sizeof port_name, "%s_%s", internal[index],
                 index == 4 || index == 9 ? "i" : "o");
        stcgen_text_line(text, ".%-15s (%s),", port_name, internal[index]);
    }
    stcgen_text_line(text, ".%-15s (pwr_on_req),", "pwr_on_req_o");
    stcgen_text_line(text, ".%-15s (pwr_ready)", "pwr_ready_i");
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
    stcgen_text_blank(text);

    stcgen_text_line(text, "%s %s (", STCGEN_POWER_MODULE, STCGEN_POWER_INSTANCE);
    stcgen_text_line(text, "  .clk_i    (clk_i),");
    stcgen_text_line(text, "  .rst_ni   (rst_ni),");
    stcgen_text_line(text, "  .on_req_i (pwr_on_req),");
    stcgen_text_line(text, "  .ack_i    (%s),", STCGEN_TOP_PWR_ACK_PORT);
    stcgen_text_line(text, "  .pwr_en_o (pwr_en),");
    stcgen_text_line(text, "  .iso_o    (unused_iso),");
    stcgen_text_line(text, "  .ready_o  (pwr_ready),");
    stcgen_text_line(text, "  .busy_o   (unused_busy)");
    stcgen_text_line(text, ");");
    stcgen_text_line(text, "assign %s = pwr_en;", STCGEN_TOP_PWR_EN_PORT);
    stcgen_text_blank(text);

    for (unsigned bank = 0; bank < banks; bank++) {
        for (unsigned index = 0; index < params->bank_sram_count; index++) {
            const stcgen_sram_shape *shape = &params->bank_srams[index];
            const bool is_tag = index == 0;
            const char *role = shape->role;
            stcgen_text_line(text, "%s #(", STCGEN_SRAM_MODULE);
            stcgen_text_line(text, "  .DEPTH (%u),", shape->depth);
            stcgen_text_line(text, "  .WIDTH (%u),", shape->width);
            stcgen_text_line(text, "  .GRAN  (%u),", shape->gran);
            stcgen_text_line(text, "  .SEED  (32'd%u)", 2 * bank + (is_tag ? 0 : 1));
            stcgen_text_line(text, ") u_bank%u_%s (", bank, role);
            stcgen_text_line(text, "  .clk_i   (clk_i),");
            stcgen_text_line(text, "  .pwr_i   (pwr_en[%u]),", bank);
            stcgen_text_line(text, "  .req_i   (%s_req[%u]),", role, bank);
            stcgen_text_line(text, "  .we_i    (%s_we[%u]),", role, bank);
            stcgen_text_line(text, "  .addr_i  (sram_addr),");
            if (is_tag) {
                stcgen_text_line(text, "  .wmask_i (1'b1),");
            } else {
                stcgen_text_line(text, "  .wmask_i (data_wmask),");
            }
            stcgen_text_line(text, "  .wdata_i (%s_wdata),", role);
            stcgen_text_line(text, "  .rdata_o (%s_rdata[%u:%u])", role,
                             (bank + 1) * shape->width - 1, bank * shape->width);
            stcgen_text_line(text, ");");
        }
    }
    stcgen_text_out(text);
    stcgen_text_blank(text);
    stcgen_text_line(text, "endmodule");
    stcgen_text_blank(text);
    stcgen_text_line(text, "`resetall");
}
