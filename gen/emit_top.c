/*
 * emit_top.c - stc_cache, the top (docs/ARCHITECTURE.md section 14.3): the
 * controller u_ctrl, per bank b the SRAMs u_bank<b>_tag and u_bank<b>_data
 * (the one table in params.c), the power controller u_power and, when
 * built, the tuner u_tuner (the seed's stc_tuner, section 16, or the
 * monitor tuner's decision unit with its monitor u_monitor, 17-18) with the
 * configuration multiplexer (16.5).
 */
#include "debug_break.h"
#include "emit.h"
#include "top_ports.h"

#include <stdio.h>
#include <string.h>

/* With the tuner, the controller's configuration request and handshake go
 * through the top's multiplexer (section 16.5): the top's port of that
 * name connects to the wire ctrl_<name without _i/_o>. */
static const char *const muxed_cfg[] = {"cfg_valid_i", "cfg_banks_log_i", "cfg_ways_log_i",
                                        "cfg_sub_log_i", "cfg_wp_i", "cfg_ready_o",
                                        "cfg_done_o", "cfg_err_o"};

static bool is_muxed(const stcgen_params *params, const char *name)
{
    for (size_t index = 0; params->tuner && index < sizeof muxed_cfg / sizeof muxed_cfg[0];
         index++) {
        if (strcmp(muxed_cfg[index], name) == 0) {
            return true;
        }
    }
    return false;
}

/* The configuration multiplexer: the tuner owns the controller's
 * configuration port while it is busy, unless a change software started is
 * still in progress (sw_cfg_q), so every done goes to whoever made the
 * request. The lines --debug-break may replace (debug_break.c), so kept
 * as a table; NULL-terminated. */
static const char *const top_mux_lines[] = {
    "reg          sw_cfg_q;        // a software change is in progress",
    "wire         tuner_sel = tun_busy && !sw_cfg_q;",
    "assign ctrl_cfg_valid     = tuner_sel ? tun_cfg_valid : cfg_valid_i;",
    "assign ctrl_cfg_banks_log = tuner_sel ? tun_cfg_banks_log : cfg_banks_log_i;",
    "assign ctrl_cfg_ways_log  = tuner_sel ? tun_cfg_ways_log : cfg_ways_log_i;",
    "assign ctrl_cfg_sub_log   = tuner_sel ? tun_cfg_sub_log : cfg_sub_log_i;",
    "assign ctrl_cfg_wp        = tuner_sel ? tun_cfg_wp : cfg_wp_i;",
    "assign cfg_ready_o        = !tuner_sel && ctrl_cfg_ready;",
    "assign cfg_done_o         = !tuner_sel && ctrl_cfg_done;",
    "assign cfg_err_o          = !tuner_sel && ctrl_cfg_err;",
    "// set when software's change is accepted and not done at once; cleared by done",
    "wire         sw_cfg_d = ctrl_cfg_done ? 1'b0",
    "                        : (!tuner_sel && cfg_valid_i && ctrl_cfg_ready) ? 1'b1",
    "                        : sw_cfg_q;",
    "always @(posedge clk_i or negedge rst_ni) begin",
    "  if (!rst_ni) begin",
    "    sw_cfg_q <= 1'b0;",
    "  end else begin",
    "    sw_cfg_q <= sw_cfg_d;",
    "  end",
    "end",
    "assign tun_busy_o = tun_busy;",
    NULL,
};

const char *const *stcgen_top_mux_lines(void)
{
    return top_mux_lines;
}

/* With the monitor tuner: when a hit's response cycle may accept the next
 * request (section 15.3). */
static const char *const top_gap_lines[] = {
    "// A hit's response cycle accepts the next request (15.3) unless this",
    "// access is the decision's (its change lands before the next request:",
    "// 18.3). The monitor takes an access every cycle (17.3).",
    "assign back_to_back = !tun_last_step;",
    NULL,
};

const char *const *stcgen_top_gap_lines(void)
{
    return top_gap_lines;
}

/* The configuration multiplexer of section 16.5, for either tuner. */
static void emit_cfg_mux(stcgen_text *text, const stcgen_params *params)
{
    stcgen_text_line(text, "// Configuration port: the tuner's while it changes it (section 16.5).");
    const char *what = stcgen_debug_break_what(params->debug_break, STCGEN_BREAK_TOP);
    if (what) {
        stcgen_text_raw(text, "// BROKEN on purpose (--debug-break %s): %s.\n", params->debug_break,
                        what);
    }
    for (const char *const *line = top_mux_lines; *line; line++) {
        stcgen_text_line(text, "%s", stcgen_debug_break_line(params->debug_break, STCGEN_BREAK_TOP, *line));
    }
    stcgen_text_blank(text);
}

/* The tuner's side of the configuration port and its register port, the
 * same for both tuners (16.1, 18.1). */
static void emit_tuner_cfg_ports(stcgen_text *text)
{
    stcgen_text_line(text, "  .cfg_valid_o     (tun_cfg_valid),");
    stcgen_text_line(text, "  .cfg_ready_i     (tuner_sel && ctrl_cfg_ready),");
    stcgen_text_line(text, "  .cfg_banks_log_o (tun_cfg_banks_log),");
    stcgen_text_line(text, "  .cfg_ways_log_o  (tun_cfg_ways_log),");
    stcgen_text_line(text, "  .cfg_sub_log_o   (tun_cfg_sub_log),");
    stcgen_text_line(text, "  .cfg_wp_o        (tun_cfg_wp),");
    stcgen_text_line(text, "  .cfg_done_i      (tuner_sel && ctrl_cfg_done),");
    stcgen_text_line(text, "  .cfg_err_i       (tuner_sel && ctrl_cfg_err),");
    stcgen_text_line(text, "  .busy_o          (tun_busy),");
    stcgen_text_line(text, "  .reg_we_i        (tun_we_i),");
    stcgen_text_line(text, "  .reg_addr_i      (tun_addr_i),");
    stcgen_text_line(text, "  .reg_wdata_i     (tun_wdata_i),");
    stcgen_text_line(text, "  .reg_rdata_o     (tun_rdata_o)");
    stcgen_text_line(text, ");");
    stcgen_text_blank(text);
}

/* The seed tuner (section 16) on the controller's event strobes. */
static void emit_seed_tuner(stcgen_text *text)
{
    stcgen_text_line(text, "stc_tuner u_tuner (");
    stcgen_text_line(text, "  .clk_i           (clk_i),");
    stcgen_text_line(text, "  .rst_ni          (rst_ni),");
    stcgen_text_line(text, "  .ev_access_i     (ev_access),");
    stcgen_text_line(text, "  .ev_miss_i       (ev_miss),");
    stcgen_text_line(text, "  .ev_fph_i        (ev_fph),");
    stcgen_text_line(text, "  .ev_cycle_i      (ev_cycle),");
    emit_tuner_cfg_ports(text);
}

/* The monitor tuner (sections 17-18): the monitor sees every access's
 * physical line (the controller's word address without the word-in-line
 * bits) and store bit in its response cycle; the decision unit steps on
 * the same strobe and reads the monitor's counts through its select. */
static void emit_monitor_tuner(stcgen_text *text, const stcgen_params *params)
{
    const stc_geometry *g = &params->geometry;
    const unsigned word_addr_bits = g->addr_bits - 2, line_low = g->offset_bits - 2;
    stcgen_text_line(text, "// The monitor tuner (sections 17-18): shadow tags and counts, decision unit.");
    stcgen_text_line(text, "wire [%u:0]  mon_line = ev_addr[%u:%u];  // the access's physical line",
                     params->monitor_line_bits - 1, word_addr_bits - 1, line_low);
    if (line_low > 0) {
        stcgen_text_line(text, "wire [%u:0]  unused_ev_word = ev_addr[%u:0];", line_low - 1,
                         line_low - 1);
    }
    stcgen_text_line(text, "wire [%u:0]  mon_cnt_sel;", params->monitor_sel_bits - 1);
    stcgen_text_line(text, "wire [15:0]  mon_cnt;");
    stcgen_text_line(text, "wire [15:0]  mon_watched;");
    stcgen_text_line(text, "wire         tun_last_step;");
    for (const char *const *line = top_gap_lines; *line; line++) {
        stcgen_text_line(text, "%s",
                         stcgen_debug_break_line(params->debug_break, STCGEN_BREAK_TOP, *line));
    }
    stcgen_text_blank(text);
    stcgen_text_line(text, "stc_monitor #(");
    stcgen_text_line(text, "  .READ_ONLY (READ_ONLY)");
    stcgen_text_line(text, ") u_monitor (");
    stcgen_text_line(text, "  .clk_i      (clk_i),");
    stcgen_text_line(text, "  .rst_ni     (rst_ni),");
    stcgen_text_line(text, "  .ev_valid_i (ev_access),");
    stcgen_text_line(text, "  .ev_line_i  (mon_line),");
    stcgen_text_line(text, "  .ev_write_i (ev_write),");
    stcgen_text_line(text, "  .cnt_sel_i  (mon_cnt_sel),");
    stcgen_text_line(text, "  .cnt_o      (mon_cnt),");
    stcgen_text_line(text, "  .watched_o  (mon_watched)");
    stcgen_text_line(text, ");");
    stcgen_text_blank(text);
    stcgen_text_line(text, "stc_monitor_tuner #(");
    stcgen_text_line(text, "  .READ_ONLY (READ_ONLY)");
    stcgen_text_line(text, ") u_tuner (");
    stcgen_text_line(text, "  .clk_i           (clk_i),");
    stcgen_text_line(text, "  .rst_ni          (rst_ni),");
    stcgen_text_line(text, "  .ev_access_i     (ev_access),");
    stcgen_text_line(text, "  .cnt_sel_o       (mon_cnt_sel),");
    stcgen_text_line(text, "  .cnt_i           (mon_cnt),");
    stcgen_text_line(text, "  .watched_i       (mon_watched),");
    stcgen_text_line(text, "  .cur_banks_log_i (cfg_banks_log_o),");
    stcgen_text_line(text, "  .cur_ways_log_i  (cfg_ways_log_o),");
    stcgen_text_line(text, "  .cur_sub_log_i   (cfg_sub_log_o),");
    stcgen_text_line(text, "  .cur_wp_i        (cfg_wp_o),");
    stcgen_text_line(text, "  .last_step_o     (tun_last_step),");
    emit_tuner_cfg_ports(text);
}

/* The coherent D-cache's snoop port (ARCHITECTURE.md 19.4): its duplicate
 * tag array, written by the controller's dup_* (every change of a slot's
 * state, 19.5), looked up by the bus's snoops in their address phase. */
static void emit_snoop_port(stcgen_text *text, const stcgen_params *params)
{
    const unsigned sb = params->coh_state_bits;
    stcgen_text_line(text, "stc_coh_snoop u_snoop (");
    stcgen_text_in(text);
    stcgen_text_line(text, ".clk_i           (clk_i),");
    stcgen_text_line(text, ".cfg_banks_log_i (snp_banks_log),");
    stcgen_text_line(text, ".cfg_ways_log_i  (snp_ways_log),");
    stcgen_text_line(text, ".wr_valid_i      (dup_we),");
    stcgen_text_line(text, ".wr_row_i        (dup_row),");
    stcgen_text_line(text, ".wr_banks_i      (dup_banks),");
    stcgen_text_line(text, ".wr_state_i      (dup_state),");
    stcgen_text_line(text, ".wr_set_tag_i    (dup_set_tag),");
    stcgen_text_line(text, ".wr_tag_i        (dup_tag),");
    stcgen_text_line(text, ".snp_valid_i     (snp_valid_i),");
    stcgen_text_line(text, ".snp_line_i      (snp_line_i),");
    stcgen_text_line(text, ".snp_bus_i       (snp_bus_i),");
    stcgen_text_line(text, ".snp_hit_o       (snp_hit),");
    stcgen_text_line(text, ".snp_bank_o      (snp_bank),");
    stcgen_text_line(text, ".snp_multi_o     (snp_multi),");
    stcgen_text_line(text, ".snp_state_o     (snp_state),");
    stcgen_text_line(text, ".snp_next_o      (snp_next),");
    stcgen_text_line(text, ".snp_change_o    (snp_change),");
    stcgen_text_line(text, ".snp_supplies_o  (snp_supplies_o),");
    stcgen_text_line(text, ".snp_flushes_o   (snp_flushes_o),");
    stcgen_text_line(text, ".snp_shared_o    (snp_shared_o),");
    stcgen_text_line(text, ".snp_known_o     (snp_known)");
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
    stcgen_text_line(text, "assign snp_err_o = (snp_multi != 4'd0) || (snp_known != 4'hf);");
    stcgen_text_line(text, "// Not built yet (19.5): supplying data.");
    stcgen_text_line(text, "wire [%u:0] unused_snoop = {snp_hit, snp_state};", 4 * sb + 3);
    stcgen_text_blank(text);
}

void stcgen_emit_top(stcgen_text *text, const stcgen_file *file, const stcgen_params *params)
{
    const stc_geometry *g = &params->geometry;
    const unsigned banks = g->banks;
    const bool coherent = params->coherence && params->coh_bus == STC_COH_BUS_ATOMIC;
    stcgen_top_port ports[STCGEN_MAX_TOP_PORTS];
    const size_t n_ports = stcgen_top_ports(params, ports, STCGEN_MAX_TOP_PORTS);
    char range[32];

    stcgen_text_header(text, &stcgen_comment_slashes, file->name, file->title, params);
    stcgen_text_blank(text);
    stcgen_text_line(text, STCGEN_TIMESCALE);
    stcgen_text_line(text, "`default_nettype none");
    stcgen_text_blank(text);
    stcgen_text_line(text, "// stc_cache: one stc cache (ARCHITECTURE.md sections 3-10, 14.3, 15).");
    stcgen_text_line(text, "// READ_ONLY = 1 builds an I-cache (writes answered with an error, no");
    stcgen_text_line(text, "// dirty bits).");
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
    stcgen_text_line(text, "wire [%u:0] tag_addr;", g->row_bits - 1);
    stcgen_text_line(text, "wire [%u:0] data_addr;", g->row_bits - 1);
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
    /* The event strobes each tuner uses; the others are left unused. */
    const bool seed = stcgen_seed_tuner(params), monitor = stcgen_monitor_tuner(params);
    const char *ev_prefix = params->tuner ? "" : "unused_";
    const char *seed_prefix = seed ? "" : "unused_";
    const char *monitor_prefix = monitor ? "" : "unused_";
    stcgen_text_line(text, "wire         %sev_access;      // event strobes%s", ev_prefix,
                     params->tuner ? " for the tuner" : " (no tuner built)");
    stcgen_text_line(text, "wire         %sev_miss;", seed_prefix);
    stcgen_text_line(text, "wire         %sev_fph;", seed_prefix);
    stcgen_text_line(text, "wire         %sev_cycle;", seed_prefix);
    stcgen_text_line(text, "wire [%u:0] %sev_addr;   // the access's word address and store bit",
                     g->addr_bits - 3, monitor_prefix);
    stcgen_text_line(text, "wire         %sev_write;", monitor_prefix);
    if (params->tuner) {
        stcgen_text_line(text, "wire         ctrl_cfg_valid;  // the controller's configuration request");
        stcgen_text_line(text, "wire [2:0]   ctrl_cfg_banks_log;");
        stcgen_text_line(text, "wire [2:0]   ctrl_cfg_ways_log;");
        stcgen_text_line(text, "wire [1:0]   ctrl_cfg_sub_log;");
        stcgen_text_line(text, "wire         ctrl_cfg_wp;");
        stcgen_text_line(text, "wire         ctrl_cfg_ready;");
        stcgen_text_line(text, "wire         ctrl_cfg_done;");
        stcgen_text_line(text, "wire         ctrl_cfg_err;");
        stcgen_text_line(text, "wire         tun_cfg_valid;   // the tuner's request");
        stcgen_text_line(text, "wire [2:0]   tun_cfg_banks_log;");
        stcgen_text_line(text, "wire [2:0]   tun_cfg_ways_log;");
        stcgen_text_line(text, "wire [1:0]   tun_cfg_sub_log;");
        stcgen_text_line(text, "wire         tun_cfg_wp;");
        stcgen_text_line(text, "wire         tun_busy;");
    }
    stcgen_text_line(text, "wire         back_to_back;   // a hit's response cycle may accept the next request");
    if (!monitor) {
        stcgen_text_line(text, "assign back_to_back = 1'b1;  // the tuner, if any, takes an access every cycle");
    }
    stcgen_text_blank(text);
    if (params->tuner) {
        emit_cfg_mux(text, params);
        if (monitor) {
            emit_monitor_tuner(text, params);
        } else {
            emit_seed_tuner(text);
        }
    }

    if (coherent) {
        stcgen_text_line(text, "wire         dup_we;         // the controller's writes of the "
                         "snoop port's array");
        stcgen_text_line(text, "wire [%u:0]   dup_row;", g->row_bits - 1);
        stcgen_text_line(text, "wire %-7s dup_banks;", range);
        stcgen_text_line(text, "wire [%u:0]   dup_state;", params->coh_state_bits - 1);
        stcgen_text_line(text, "wire         dup_set_tag;");
        stcgen_text_line(text, "wire [%u:0] dup_tag;", g->tag_bits - 1);
        stcgen_text_line(text, "wire [3:0]   snp_hit, snp_multi, snp_change, snp_known;  // the "
                         "snoop port's answers,");
        stcgen_text_line(text, "wire [%u:0]   snp_bank;                                   // per "
                         "line of the group", 4 * (g->bank_bits ? g->bank_bits : 1) - 1);
        stcgen_text_line(text, "wire [%u:0]  snp_state, snp_next;", 4 * params->coh_state_bits - 1);
        stcgen_text_line(text, "wire [2:0]   snp_banks_log, snp_ways_log;  // the lines' placement "
                         "(the controller's)");
        stcgen_text_blank(text);
    }
    stcgen_text_line(text, "stc_cache_ctrl #(");
    stcgen_text_line(text, "  .READ_ONLY (READ_ONLY)");
    stcgen_text_line(text, ") u_ctrl (");
    stcgen_text_in(text);
    stcgen_text_line(text, ".clk_i           (clk_i),");
    stcgen_text_line(text, ".rst_ni          (rst_ni),");
    for (size_t index = 0; index < n_ports; index++) {
        const char *name = ports[index].name;
        if (ports[index].tuner || ports[index].snoop) {
            continue;
        }
        if (is_muxed(params, name)) {
            stcgen_text_line(text, ".%-15s (ctrl_%.*s),", name, (int)strlen(name) - 2, name);
        } else {
            stcgen_text_line(text, ".%-15s (%s),", name, name);
        }
    }
    stcgen_text_line(text, ".%-15s (%sev_access),", "ev_access_o", ev_prefix);
    stcgen_text_line(text, ".%-15s (%sev_miss),", "ev_miss_o", seed_prefix);
    stcgen_text_line(text, ".%-15s (%sev_fph),", "ev_fph_o", seed_prefix);
    stcgen_text_line(text, ".%-15s (%sev_cycle),", "ev_cycle_o", seed_prefix);
    stcgen_text_line(text, ".%-15s (%sev_addr),", "ev_addr_o", monitor_prefix);
    stcgen_text_line(text, ".%-15s (%sev_write),", "ev_write_o", monitor_prefix);
    stcgen_text_line(text, ".%-15s (back_to_back),", "back_to_back_i");
    static const char *const internal[] = {"tag_addr",  "tag_req",    "tag_we",     "tag_wdata",
                                           "tag_rdata", "data_addr",  "data_req",   "data_we",
                                           "data_wmask", "data_wdata", "data_rdata"};
    for (size_t index = 0; index < sizeof internal / sizeof internal[0]; index++) {
        char port_name[32];
        snprintf(port_name, sizeof port_name, "%s_%s", internal[index],
                 strstr(internal[index], "rdata") ? "i" : "o");
        stcgen_text_line(text, ".%-15s (%s),", port_name, internal[index]);
    }
    if (coherent) {
        static const char *const dup[] = {"dup_we", "dup_row", "dup_banks", "dup_state",
                                          "dup_set_tag", "dup_tag"};
        for (size_t index = 0; index < sizeof dup / sizeof dup[0]; index++) {
            char port_name[32];
            snprintf(port_name, sizeof port_name, "%s_o", dup[index]);
            stcgen_text_line(text, ".%-15s (%s),", port_name, dup[index]);
        }
        stcgen_text_line(text, ".%-15s (snp_banks_log),", "snp_banks_log_o");
        stcgen_text_line(text, ".%-15s (snp_ways_log),", "snp_ways_log_o");
        stcgen_text_line(text, ".%-15s (snp_change),", "snp_change_i");
        stcgen_text_line(text, ".%-15s (snp_line_i[%u:0]),", "snp_row_i", g->row_bits - 1);
        stcgen_text_line(text, ".%-15s (snp_bank),", "snp_bank_i");
        stcgen_text_line(text, ".%-15s (snp_next),", "snp_next_i");
        stcgen_text_line(text, ".%-15s (snp_supplies_o),", "snp_supplies_i");
    }
    stcgen_text_line(text, ".%-15s (pwr_on_req),", "pwr_on_req_o");
    stcgen_text_line(text, ".%-15s (pwr_ready)", "pwr_ready_i");
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
    stcgen_text_blank(text);
    if (coherent) {
        emit_snoop_port(text, params);
    }

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
            stcgen_text_line(text, "  .addr_i  (%s_addr),", role);
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
