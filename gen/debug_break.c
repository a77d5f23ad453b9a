/* debug_break.c - the deliberate bugs of stcgen --debug-break (debug_break.h). */
#include "debug_break.h"

#include "params.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    const char *name;
    stcgen_break_module module;
    const char *what;
    const char *line;        /* the template line, exactly */
    const char *replacement; /* the broken line */
} debug_break;

static const debug_break breaks[] = {
    {"skip-writeback", STCGEN_BREAK_CTRL, "a miss drops its dirty victim line without writing it back",
     "  wire        needs_wb    = !present && valid_sub[miss_victim] && dirty_sub[miss_victim];",
     "  wire        needs_wb    = 1'b0;  // BROKEN: skip-writeback"},
    {"whole-line-always", STCGEN_BREAK_CTRL,
     "every miss takes its whole logical line unchecked, even where the row state shows a fragment",
     "        if (sub_q == 3'd0 && known_absent) begin",
     "        if (sub_q == 3'd0) begin  // BROKEN: whole-line-always"},
    {"tag-bit", STCGEN_BREAK_CTRL, "the tag compare ignores the most significant tag bit",
     "      assign tag_eq[gb]  = (tag_rdata_i[gb*@TB@ +: @TB@] == cur_tag);",
     "      assign tag_eq[gb]  = (tag_rdata_i[gb*@TB@ +: @TBM1@] == cur_tag[@TBM1@-1:0]);"
     "  // BROKEN: tag-bit"},
    {"lru-order", STCGEN_BREAK_CTRL, "the victim is the most recent candidate instead of the least",
     "      assign lru_oh[gb]  = cand[gb] && ((rec_r0_t[gb*@B@ +: @B@] | ~cand | self) == {@B@{1'b1}});",
     "      assign lru_oh[gb]  = cand[gb] && ((rec_r0[gb*@B@ +: @B@] | ~cand | self) == {@B@{1'b1}});"
     "  // BROKEN: lru-order"},
    {"no-invalidate", STCGEN_BREAK_CTRL,
     "the walk leaves clean lines of banks going off valid: stale after power-up",
     "          valid_wd = valid_walk & ~walk_drop;",
     "          valid_wd = valid_walk & ~(walk_drop & on_mask);  // BROKEN: no-invalidate"},
    {"init-short", STCGEN_BREAK_CTRL,
     "the reset-time row-state initialisation stops one group early (its rows keep garbage; "
     "with --protocol one row early: its snoop-array slots keep garbage)",
     "        if (init_q == {@INITB@{1'b1}}) begin",
     "        if (init_q == {@INITB@{1'b1}} - @INITB@'d1) begin  // BROKEN: init-short"},
    {"store-lane", STCGEN_BREAK_CTRL, "a store writes its bytes one word too high in the line",
     "  wire [@PM1@:0] store_mask = {@PPAD@req_be_q} << (req_word * 4);",
     "  wire [@PM1@:0] store_mask = {@PPAD@req_be_q} << (req_word * 4 + 4);  // BROKEN: store-lane"},
    {"store-clean", STCGEN_BREAK_CTRL, "a store hit does not mark the line dirty",
     "            dirty_wd[hit_idx]   = 1'b1;",
     "            dirty_wd[hit_idx]   = 1'b0;  // BROKEN: store-clean"},
    {"clear-late", STCGEN_BREAK_CTRL,
     "a counter clear loses to the increment of its cycle (the request's events survive it)",
     "          end else if (cnt_clear_i) begin",
     "          end else if (cnt_clear_i && inc[6*gc +: 6] == 6'd0) begin  // BROKEN: clear-late"},
    {"counter-carry", STCGEN_BREAK_CTRL,
     "the split counters' carry service writes the word back unchanged (each carry out of the low "
     "8 bits is lost)",
     "  wire [@CSWM1@:0] svc_next = svc_hi + @CSW@'d1;",
     "  wire [@CSWM1@:0] svc_next = svc_hi;  // BROKEN: counter-carry"},
    {"store-forward", STCGEN_BREAK_CTRL,
     "a load answered while the store buffer holds a store to its word reads the SRAM's stale word",
     "  wire         sb_fwd     = sb_valid_q && (sb_bank_q == hit_idx) && (sb_row_q == cur_row)",
     "  wire         sb_fwd     = 1'b0 && (sb_bank_q == hit_idx) && (sb_row_q == cur_row)"
     "  // BROKEN: store-forward"},
    {"maint-line-row", STCGEN_BREAK_CTRL,
     "a maintenance operation on one line takes every valid line of its row (no tag compare)",
     "                                ? (mnt_all_q || tag_eq[gb])",
     "                                ? (mnt_all_q || 1'b1)  // BROKEN: maint-line-row"},
    {"maint-clean-drops", STCGEN_BREAK_CTRL,
     "a clean invalidates the lines it takes (the next access to them misses)",
     "  wire        walk_drops  = (mnt_op_q == 2'd0) || mnt_op_q[1];",
     "  wire        walk_drops  = 1'b1;  // BROKEN: maint-clean-drops"},
    {"walk-move-dirty", STCGEN_BREAK_CTRL,
     "a line a reconfiguration's walk moves to another bank arrives clean (its stores lost)",
     "        mv_dirty               = mv_dirty | (mv_pick & {@B@{dirty_walk[mi]}});",
     "        mv_dirty               = mv_dirty;  // BROKEN: walk-move-dirty"},
    {"walk-move-order", STCGEN_BREAK_CTRL,
     "a walk's moves leave the row's recency order with the slots, not with the moved lines",
     "      mv_perm[mi*@B@ +: @B@] = mv_place;",
     "      mv_perm[mi*@B@ +: @B@] = @B@'d1 << mi;  // BROKEN: walk-move-order"},
    {"monitor-line", STCGEN_BREAK_CTRL,
     "the monitor tuner sees every access's address one bit to the right (wrong lines)",
     "  assign ev_addr_o   = req_addr_q;",
     "  assign ev_addr_o   = req_addr_q >> 1;  // BROKEN: monitor-line"},
    {"monitor-write", STCGEN_BREAK_CTRL,
     "the monitor tuner sees every access as a load (no dirty lines, no writebacks)",
     "  assign ev_write_o  = req_we_q;",
     "  assign ev_write_o  = 1'b0;  // BROKEN: monitor-write"},
    {"tuner-window", STCGEN_BREAK_TUNER,
     "the tuner's measurement window ends one access late",
     "  wire        win_end   = (acc_q >= win_len_q);",
     "  wire        win_end   = (acc_q > win_len_q);  // BROKEN: tuner-window"},
    {"tuner-radix", STCGEN_BREAK_TUNER,
     "the radix multiplier's step ends one digit early (each count's top digit is lost)",
     "@IF_RADIX@  wire        step_done = (mbit_q == @MBITW@'d@MBITLAST@);",
     "@IF_RADIX@  wire        step_done = (mbit_q == @MBITW@'d@MBITLAST@ - @MBITW@'d1);"
     "  // BROKEN: tuner-radix"},
    {"b2b-decide", STCGEN_BREAK_TOP,
     "the top accepts the next request in the decision's access (the change lands one request late)",
     "assign back_to_back = !tun_last_step;",
     "assign back_to_back = 1'b1;  // BROKEN: b2b-decide"},
    {"tuner-mux", STCGEN_BREAK_TOP,
     "while the tuner owns the configuration port, the banks field comes from software's pins",
     "assign ctrl_cfg_banks_log = tuner_sel ? tun_cfg_banks_log : cfg_banks_log_i;",
     "assign ctrl_cfg_banks_log = cfg_banks_log_i;  // BROKEN: tuner-mux"},
    {"tuner-steal", STCGEN_BREAK_TOP,
     "the tuner takes the configuration port while a change software started is in progress",
     "wire         tuner_sel = tun_busy && !sw_cfg_q;",
     "wire         tuner_sel = tun_busy;  // BROKEN: tuner-steal"},
    {"tuner-flag", STCGEN_BREAK_TOP,
     "software's request, taken by the controller while the tuner owns the port, marks a software "
     "change in progress (the tuner's done then goes to software)",
     "                        : (!tuner_sel && cfg_valid_i && ctrl_cfg_ready) ? 1'b1",
     "                        : (cfg_valid_i && ctrl_cfg_ready) ? 1'b1  // BROKEN: tuner-flag"},
    {"axi-wlast", STCGEN_BREAK_AXI, "the AXI4 bridge raises WLAST one beat early",
     "wlast_d  = (wcnt_q == 8'd0);  // the transaction's last beat",
     "wlast_d  = (wcnt_q == 8'd1);  // BROKEN: axi-wlast"},
    {"axi-valid-drop", STCGEN_BREAK_AXI,
     "the AXI4 bridge drops AWVALID / ARVALID after one cycle, ready or not",
     "if ((arvalid_q && m_axi_arready_i) || (awvalid_q && m_axi_awready_i)) begin",
     "if (arvalid_q || awvalid_q) begin  // BROKEN: axi-valid-drop"},
    {"obi-order", STCGEN_BREAK_OBI,
     "the OBI adapter grants a cached request while an uncached response is outstanding "
     "(responses out of order)",
     "wire         c_block = u_wait;  // a cached request waits for the uncached response",
     "wire         c_block = 1'b0;  // BROKEN: obi-order"},
    {"obi-gnt-early", STCGEN_BREAK_OBI,
     "the OBI adapter grants an uncached request before the AXI4 bridge takes it (lost while "
     "the bridge is busy)",
     "wire         u_gnt   = unc_req_valid_o && unc_req_ready_i;",
     "wire         u_gnt   = unc_req_valid_o;  // BROKEN: obi-gnt-early"},
    {STCGEN_BREAK_UPGRADE_SILENT, STCGEN_BREAK_CTRL,
     "a store that hits S or O writes without its BusUpgr (coherent controller)",
     "  wire        upgrade = (READ_ONLY == 0) && hit && (hit_bus == 3'd3);   // BusUpgr",
     "  wire        upgrade = 1'b0;  // BROKEN: upgrade-silent"},
    {STCGEN_BREAK_FILL_SHARED, STCGEN_BREAK_CTRL,
     "a read line takes S even when no cache shares it (coherent controller, MESI and MOESI)",
     "            excl_wd[victim_q]  = fill_excl;",
     "            excl_wd[victim_q]  = 1'b0;  // BROKEN: fill-shared"},
    {STCGEN_BREAK_NO_SUPPLY, STCGEN_BREAK_CTRL,
     "a cache that supplies a line (M or O snooped by a read) does not keep it: every beat "
     "but the first carries its line register's old words (coherent controller)",
     "      if (sup_cap_q) begin",
     "      if (1'b0) begin  // BROKEN: no-supply"},
    {STCGEN_BREAK_LOST_UPGRADE, STCGEN_BREAK_CTRL,
     "a store that hit S or O sends its BusUpgr even when another core's invalidation took "
     "its slot before the grant (two writers; coherent controller)",
     "  wire        upg_kept = upg_q && valid_q[victim_q];   // the upgrade's slot still held",
     "  wire        upg_kept = upg_q;  // BROKEN: lost-upgrade"},
    {"apb-refused-write", STCGEN_BREAK_APB,
     "the APB register block lets a refused write (PSLVERR) take effect",
     "wire         wr       = access && pwrite_i && !err_q;  // a write takes effect",
     "wire         wr       = access && pwrite_i;  // BROKEN: apb-refused-write"},
    {"apb-slverr-hold", STCGEN_BREAK_APB,
     "the APB register block keeps PSLVERR after the refused transfer's access cycle",
     "err_d = 1'b0;",
     "err_d = err_q;  // BROKEN: apb-slverr-hold"},
};
enum { BREAK_COUNT = sizeof breaks / sizeof breaks[0] };

static const debug_break *find(const char *name)
{
    for (size_t index = 0; name && index < BREAK_COUNT; index++) {
        if (strcmp(breaks[index].name, name) == 0) {
            return &breaks[index];
        }
    }
    return NULL;
}

int stcgen_debug_break_check(const char *name, char *err, size_t err_len)
{
    const debug_break *broken = find(name);
    if (!broken) {
        size_t used = (size_t)snprintf(err, err_len, "unknown (known:");
        for (size_t index = 0; index < BREAK_COUNT; index++) {
            if (used < err_len) {
                used += (size_t)snprintf(err + used, err_len - used, " %s", breaks[index].name);
            }
        }
        if (used < err_len) {
            snprintf(err + used, err_len - used, ")");
        }
        return -1;
    }
    const char *const *lines = broken->module == STCGEN_BREAK_CTRL    ? stcgen_ctrl_template_lines()
                               : broken->module == STCGEN_BREAK_TUNER ? stcgen_tuner_template_lines()
                               : broken->module == STCGEN_BREAK_AXI   ? stcgen_axi_break_lines()
                               : broken->module == STCGEN_BREAK_OBI   ? stcgen_obi_break_lines()
                               : broken->module == STCGEN_BREAK_APB   ? stcgen_apb_break_lines()
                                                                      : stcgen_top_mux_lines();
    unsigned found = 0;
    for (const char *const *line = lines; *line; line++) {
        found += strcmp(*line, broken->line) == 0;
    }
    for (const char *const *line = stcgen_top_gap_lines();
         broken->module == STCGEN_BREAK_TOP && *line; line++) {
        found += strcmp(*line, broken->line) == 0;
    }
    if (found != 1) {
        snprintf(err, err_len,
                 "its template line occurs %u times in gen/%s, not once "
                 "(update breaks[] in gen/debug_break.c)",
                 found,
                 broken->module == STCGEN_BREAK_CTRL    ? "stc_cache_ctrl.v.in"
                 : broken->module == STCGEN_BREAK_TUNER ? "stc_tuner.v.in"
                 : broken->module == STCGEN_BREAK_AXI   ? "emit_axi.c (axi_break_lines)"
                 : broken->module == STCGEN_BREAK_OBI   ? "emit_obi.c (obi_break_lines)"
                 : broken->module == STCGEN_BREAK_APB   ? "emit_apb.c (apb_break_lines)"
                                                        : "emit_top.c (top_mux_lines, top_gap_lines)");
        return -1;
    }
    return 0;
}

const char *stcgen_debug_break_what(const char *name, stcgen_break_module module)
{
    const debug_break *broken = find(name);
    return broken && broken->module == module ? broken->what : NULL;
}

const char *stcgen_debug_break_line(const char *name, stcgen_break_module module,
                                    const char *line)
{
    const debug_break *broken = find(name);
    if (broken && broken->module == module && strcmp(line, broken->line) == 0) {
        return broken->replacement;
    }
    return line;
}
