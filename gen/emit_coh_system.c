/*
 * emit_coh_system.c - stc_coherent_system, the coherent N-core top
 * (docs/ARCHITECTURE.md 19.8): N coherent D-caches (stc_cache with its
 * snoop port), each behind its stc_coh_port, on one stc_coh_bus, with the
 * bus's memory port as the system's.
 *
 * Every per-core port of stc_cache (the top-port table, top_ports.c) is a
 * port of the system N times as wide, core c's bits at [c*W +: W]
 * (Verilog-2005 has no arrays of ports); the caches' memory ports, their
 * bus handshakes and snoop ports are wired inside.
 */
#include "emit.h"
#include "top_ports.h"

#include <stdio.h>
#include <string.h>

/* A per-core port of stc_cache the system passes out (N times as wide):
 * not a memory-port or coherence wire, which stay inside. */
static bool passed_out(const stcgen_top_port *port)
{
    return !port->coherence && strncmp(port->name, "mem_", 4) != 0;
}

static void emit_ports(stcgen_text *text, const stcgen_params *params,
                       const stcgen_top_port *ports, size_t n_ports)
{
    const stc_geometry *g = &params->geometry;
    const unsigned cores = params->coh_cores;
    char what[160];
    stcgen_text_line(text, "module stc_coherent_system (");
    stcgen_text_in(text);
    stcgen_text_line(text, "input  wire         clk_i,");
    stcgen_text_line(text, "input  wire         rst_ni,  // asynchronous reset, active low");
    stcgen_text_line(text, "// Each core's stc_cache ports, core c at [c*W +: W] (W: the "
                     "cache's width)");
    for (size_t index = 0; index < n_ports; index++) {
        const stcgen_top_port *p = &ports[index];
        if (!passed_out(p)) {
            continue;
        }
        snprintf(what, sizeof what, "%s%s%u x %u", p->what, p->what[0] ? "; " : "", cores,
                 p->width);
        stcgen_declare_port(text, p->input, p->width * cores, p->name, false, what);
    }
    snprintf(what, sizeof what, "bank power switch enables; %u x %u", cores, g->banks);
    stcgen_declare_port(text, false, g->banks * cores, STCGEN_TOP_PWR_EN_PORT, false, what);
    snprintf(what, sizeof what, "... their acknowledges; %u x %u", cores, g->banks);
    stcgen_declare_port(text, true, g->banks * cores, STCGEN_TOP_PWR_ACK_PORT, false, what);
    stcgen_text_line(text, "// The bus's memory (ARCHITECTURE.md 19.6: any latency, a "
                     "handshake; a run's lines");
    stcgen_text_line(text, "// streamed): one word a beat");
    stcgen_declare_port(text, false, 1, "mem_rd_o", false, "read line mem_line_o ...");
    stcgen_declare_port(text, false, 1, "mem_rd_cont_o", false,
                        "... streamed after the previous one");
    stcgen_declare_port(text, true, 1, "mem_rready_i", false,
                        "a run's first beat comes next cycle (>= 1 after mem_rd_o)");
    stcgen_declare_port(text, false, 1, "mem_wr_o", false, "a write of mem_line_o starts ...");
    stcgen_declare_port(text, false, 1, "mem_wr_posted_o", false,
                        "... with a supply's beats: no mem_wdone_i");
    stcgen_declare_port(text, true, 1, "mem_wdone_i", false,
                        "the write ends this cycle (after its beats)");
    stcgen_declare_port(text, false, params->coh_line_bits, "mem_line_o", false,
                        "physical line number");
    stcgen_declare_port(text, false, 1, "mem_rbeat_o", false,
                        "memory's read beat: mem_rdata_i this cycle");
    stcgen_declare_port(text, false, 1, "mem_wbeat_o", false,
                        "memory's write beat: mem_wdata_o this cycle");
    stcgen_declare_port(text, false, g->offset_bits > 2 ? g->offset_bits - 2 : 1,
                        "mem_beat_idx_o", false, "the beat's word in the line");
    stcgen_declare_port(text, true, 32, "mem_rdata_i", false, "");
    stcgen_declare_port(text, false, 32, "mem_wdata_o", false, "");
    stcgen_text_line(text, "// The bus");
    stcgen_declare_port(text, false, cores, "grant_o", false, "a tenure starts for core c");
    stcgen_declare_port(text, false, 1, "bus_busy_o", false, "a tenure is in progress");
    stcgen_declare_port(text, false, 1, "bus_err_o", false, "sticky: two caches supplied a line");
    stcgen_declare_port(text, false, cores, "snp_err_o", true,
                        "core c's snoop port met a snoop it cannot take");
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
}

/* The bus: the cores' items, snoops and words, the memory port. */
static void emit_bus(stcgen_text *text, const stcgen_params *params)
{
    const unsigned cores = params->coh_cores;
    const unsigned lb = params->coh_line_bits;
    stcgen_text_line(text, "wire [%u:0]   req, rel, txn_valid, txn_last, txn_done, own_beat, "
                     "sup_beat, sup_read;", cores - 1);
    stcgen_text_line(text, "wire [%u:0]   snp_valid;", cores - 1);
    stcgen_text_line(text, "wire [%u:0]  snp_supplies, snp_flushes, snp_shared;  // 4 a core: "
                     "per line of the group", 4 * cores - 1);
    stcgen_text_line(text, "wire [%u:0]   txn_bus, txn_count;", 3 * cores - 1);
    stcgen_text_line(text, "wire [%u:0]  txn_line;", lb * cores - 1);
    stcgen_text_line(text, "wire [%u:0]   txn_rdx_pos;", 2 * cores - 1);
    stcgen_text_line(text, "wire [%u:0]   txn_snoop;", 4 * cores - 1);
    stcgen_text_line(text, "wire [%u:0]  own_word;", 32 * cores - 1);
    stcgen_text_line(text, "wire         line_done, line_shared, line_supplied, beat, "
                     "beat_from_cache;");
    stcgen_text_line(text, "wire [1:0]   line_idx;");
    stcgen_text_line(text, "wire [%u:0]  snp_line;", lb - 1);
    stcgen_text_line(text, "wire [11:0]  snp_bus;");
    stcgen_text_line(text, "wire [31:0]  rdata;");
    stcgen_text_blank(text);
    static const char *const wiring[][2] = {
        {"req_i", "req"},
        {"grant_o", "grant_o"},
        {"txn_valid_i", "txn_valid"},
        {"txn_bus_i", "txn_bus"},
        {"txn_line_i", "txn_line"},
        {"txn_count_i", "txn_count"},
        {"txn_rdx_pos_i", "txn_rdx_pos"},
        {"txn_snoop_i", "txn_snoop"},
        {"txn_last_i", "txn_last"},
        {"txn_done_o", "txn_done"},
        {"rel_i", "rel"},
        {"line_done_o", "line_done"},
        {"line_idx_o", "line_idx"},
        {"line_shared_o", "line_shared"},
        {"line_supplied_o", "line_supplied"},
        {"snp_valid_o", "snp_valid"},
        {"snp_line_o", "snp_line"},
        {"snp_bus_o", "snp_bus"},
        {"snp_supplies_i", "snp_supplies"},
        {"snp_flushes_i", "snp_flushes"},
        {"snp_shared_i", "snp_shared"},
        {"sup_read_o", "sup_read"},
        {"beat_o", "beat"},
        {"beat_from_cache_o", "beat_from_cache"},
        {"mem_rd_o", "mem_rd_o"},
        {"mem_rd_cont_o", "mem_rd_cont_o"},
        {"mem_wr_o", "mem_wr_o"},
        {"mem_wr_posted_o", "mem_wr_posted_o"},
        {"mem_rready_i", "mem_rready_i"},
        {"mem_wdone_i", "mem_wdone_i"},
        {"mem_wbeat_o", "mem_wbeat_o"},
        {"mem_line_o", "mem_line_o"},
        {"beat_idx_o", "mem_beat_idx_o"},
        {"own_beat_o", "own_beat"},
        {"own_word_i", "own_word"},
        {"sup_beat_o", "sup_beat"},
        {"sup_word_i", "sup_word"},
        {"rdata_o", "rdata"},
        {"mem_rdata_i", "mem_rdata_i"},
        {"mem_wdata_o", "mem_wdata_o"},
        {"busy_o", "bus_busy_o"},
        {"err_o", "bus_err_o"},
    };
    const size_t count = sizeof wiring / sizeof wiring[0];
    stcgen_text_line(text, "wire [%u:0]  sup_word;   // core c's at [32*c +: 32]: its supplied "
                     "line's word", 32 * cores - 1);
    stcgen_text_line(text, "stc_coh_bus u_bus (");
    stcgen_text_in(text);
    stcgen_text_line(text, ".clk_i             (clk_i),");
    stcgen_text_line(text, ".rst_ni            (rst_ni),");
    for (size_t index = 0; index < count; index++) {
        stcgen_text_line(text, ".%-17s (%s)%s", wiring[index][0], wiring[index][1],
                         index + 1 < count ? "," : "");
    }
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
    stcgen_text_line(text, "assign mem_rbeat_o = beat && !beat_from_cache;");
    stcgen_text_line(text, "// (a supplier drives its word whenever the bus reads it: "
                     "sup_beat selects)");
    stcgen_text_line(text, "wire unused_bus = &{1'b0, line_done, line_idx, line_supplied, "
                     "sup_beat};");
    stcgen_text_blank(text);
}

/* Core c: its cache, the cache's port to the bus. */
static void emit_core(stcgen_text *text, const stcgen_params *params,
                      const stcgen_top_port *ports, size_t n_ports)
{
    const stc_geometry *g = &params->geometry;
    const unsigned lb = params->coh_line_bits;
    stcgen_text_line(text, "genvar c;");
    stcgen_text_line(text, "generate");
    stcgen_text_in(text);
    stcgen_text_line(text, "for (c = 0; c < %u; c = c + 1) begin : g_core", params->coh_cores);
    stcgen_text_in(text);
    stcgen_text_line(text, "wire          m_req_valid, m_req_ready, m_req_we, m_wvalid, "
                     "m_wready, m_bvalid, m_rvalid;");
    stcgen_text_line(text, "wire [%u:0]  m_req_line;", lb - 1);
    stcgen_text_line(text, "wire [2:0]    m_req_lines;");
    stcgen_text_line(text, "wire [31:0]   m_wdata, m_rdata;");
    stcgen_text_line(text, "wire          bus_req, bus_own, bus_rel, m_upgr, m_rdx, m_last, "
                     "shared;");
    stcgen_text_line(text, "wire [1:0]    m_rdx_pos;");
    stcgen_text_line(text, "wire [3:0]    m_snoop;");
    stcgen_text_line(text, "stc_cache #(");
    stcgen_text_line(text, "  .READ_ONLY (0)");
    stcgen_text_line(text, ") u_cache (");
    stcgen_text_in(text);
    stcgen_text_line(text, ".%-17s (clk_i),", "clk_i");
    stcgen_text_line(text, ".%-17s (rst_ni),", "rst_ni");
    static const char *const inside[][2] = {
        {"mem_req_valid_o", "m_req_valid"}, {"mem_req_ready_i", "m_req_ready"},
        {"mem_req_we_o", "m_req_we"},       {"mem_req_line_o", "m_req_line"},
        {"mem_req_lines_o", "m_req_lines"}, {"mem_wvalid_o", "m_wvalid"},
        {"mem_wready_i", "m_wready"},       {"mem_wdata_o", "m_wdata"},
        {"mem_bvalid_i", "m_bvalid"},       {"mem_rvalid_i", "m_rvalid"},
        {"mem_rdata_i", "m_rdata"},         {"bus_req_o", "bus_req"},
        {"bus_own_i", "bus_own"},           {"bus_rel_o", "bus_rel"},
        {"mem_req_upgr_o", "m_upgr"},       {"mem_req_rdx_o", "m_rdx"},
        {"mem_req_rdx_pos_o", "m_rdx_pos"}, {"mem_req_last_o", "m_last"},
        {"mem_req_snoop_o", "m_snoop"},
        {"line_shared_i", "shared"},        {"snp_valid_i", "snp_valid[c]"},
        {"snp_line_i", "snp_line"},         {"snp_bus_i", "snp_bus"},
        {"snp_supplies_o", "snp_supplies[c*4 +: 4]"}, {"snp_flushes_o", "snp_flushes[c*4 +: 4]"},
        {"snp_shared_o", "snp_shared[c*4 +: 4]"},  {"snp_err_o", "snp_err_o[c]"},
        {"sup_read_i", "sup_read[c]"},
        {"sup_word_idx_i", "mem_beat_idx_o"},
        {"sup_word_o", "sup_word[32*c +: 32]"},
    };
    for (size_t index = 0; index < n_ports; index++) {
        const stcgen_top_port *p = &ports[index];
        char signal[64] = "";
        for (size_t k = 0; k < sizeof inside / sizeof inside[0]; k++) {
            if (strcmp(inside[k][0], p->name) == 0) {
                snprintf(signal, sizeof signal, "%s", inside[k][1]);
            }
        }
        if (strcmp(p->name, "sup_row_i") == 0) {
            /* the line the bus reads: its row is the line number's low bits */
            snprintf(signal, sizeof signal, "mem_line_o[%u:0]", g->row_bits - 1);
        }
        if (!signal[0]) {
            if (p->width > 1) {
                snprintf(signal, sizeof signal, "%s[c*%u +: %u]", p->name, p->width, p->width);
            } else {
                snprintf(signal, sizeof signal, "%s[c]", p->name);
            }
        }
        stcgen_text_line(text, ".%-17s (%s),", p->name, signal);
    }
    stcgen_text_line(text, ".%-17s (%s[c*%u +: %u]),", STCGEN_TOP_PWR_EN_PORT,
                     STCGEN_TOP_PWR_EN_PORT, g->banks, g->banks);
    stcgen_text_line(text, ".%-17s (%s[c*%u +: %u])", STCGEN_TOP_PWR_ACK_PORT,
                     STCGEN_TOP_PWR_ACK_PORT, g->banks, g->banks);
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
    static const char *const port_wiring[][2] = {
        {"mem_req_valid_i", "m_req_valid"},
        {"mem_req_ready_o", "m_req_ready"},
        {"mem_req_we_i", "m_req_we"},
        {"mem_req_line_i", "m_req_line"},
        {"mem_req_lines_i", "m_req_lines"},
        {"mem_wvalid_i", "m_wvalid"},
        {"mem_wready_o", "m_wready"},
        {"mem_wdata_i", "m_wdata"},
        {"mem_bvalid_o", "m_bvalid"},
        {"mem_rvalid_o", "m_rvalid"},
        {"mem_rdata_o", "m_rdata"},
        {"bus_req_i", "bus_req"},
        {"bus_own_o", "bus_own"},
        {"bus_rel_i", "bus_rel"},
        {"mem_req_upgr_i", "m_upgr"},
        {"mem_req_rdx_i", "m_rdx"},
        {"mem_req_rdx_pos_i", "m_rdx_pos"},
        {"mem_req_snoop_i", "m_snoop"},
        {"mem_req_last_i", "m_last"},
        {"line_shared_o", "shared"},
        {"req_o", "req[c]"},
        {"grant_i", "grant_o[c]"},
        {"rel_o", "rel[c]"},
        {"txn_valid_o", "txn_valid[c]"},
        {"txn_bus_o", "txn_bus[3*c +: 3]"},
        {"txn_line_o", "txn_line[LB*c +: LB]"},
        {"txn_count_o", "txn_count[3*c +: 3]"},
        {"txn_rdx_pos_o", "txn_rdx_pos[2*c +: 2]"},
        {"txn_snoop_o", "txn_snoop[4*c +: 4]"},
        {"txn_last_o", "txn_last[c]"},
        {"txn_done_i", "txn_done[c]"},
        {"line_shared_i", "line_shared"},
        {"beat_i", "beat"},
        {"rdata_i", "rdata"},
        {"own_beat_i", "own_beat[c]"},
        {"own_word_o", "own_word[32*c +: 32]"},
    };
    const size_t count = sizeof port_wiring / sizeof port_wiring[0];
    stcgen_text_line(text, "stc_coh_port u_port (");
    stcgen_text_in(text);
    stcgen_text_line(text, ".%-17s (clk_i),", "clk_i");
    stcgen_text_line(text, ".%-17s (rst_ni),", "rst_ni");
    for (size_t index = 0; index < count; index++) {
        stcgen_text_line(text, ".%-17s (%s)%s", port_wiring[index][0], port_wiring[index][1],
                         index + 1 < count ? "," : "");
    }
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_out(text);
    stcgen_text_line(text, "endgenerate");
}

void stcgen_emit_coh_system(stcgen_text *text, const stcgen_file *file,
                            const stcgen_params *params)
{
    stcgen_top_port ports[STCGEN_MAX_TOP_PORTS];
    const size_t n_ports = stcgen_top_ports(params, ports, STCGEN_MAX_TOP_PORTS);
    stcgen_text_header(text, &stcgen_comment_slashes, file->name, file->title, params);
    stcgen_text_blank(text);
    stcgen_text_line(text, STCGEN_TIMESCALE);
    stcgen_text_line(text, "`default_nettype none");
    stcgen_text_blank(text);
    stcgen_text_line(text, "// stc_coherent_system: %u coherent stc caches on one snooping bus "
                     "(ARCHITECTURE.md 19.8).", params->coh_cores);
    stcgen_text_line(text, "// Core c: its stc_cache (a D-cache with its snoop port) behind its "
                     "stc_coh_port;");
    stcgen_text_line(text, "// one stc_coh_bus (arbiter, tenures, snoops, data windows) with the "
                     "memory port.");
    stcgen_text_line(text, "// A cache supplies a line (M or O snooped by a read) from its "
                     "line register (19.5).");
    emit_ports(text, params, ports, n_ports);
    stcgen_text_blank(text);
    stcgen_text_in(text);
    stcgen_text_line(text, "localparam integer LB = %u;  // a physical line number",
                     params->coh_line_bits);
    stcgen_text_blank(text);
    emit_bus(text, params);
    emit_core(text, params, ports, n_ports);
    stcgen_text_out(text);
    stcgen_text_blank(text);
    stcgen_text_line(text, "endmodule");
    stcgen_text_blank(text);
    stcgen_text_line(text, "`resetall");
}
