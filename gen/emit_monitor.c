/*
 * emit_monitor.c - stc_monitor, the tuner's miss monitor: sampled shadow
 * tags of every set mapping with counts by stack depth
 * (docs/ARCHITECTURE.md section 17; the model is ref/monitor.c with the
 * clear walk, the lockstep test tests/rtl/monitor_lockstep.c).
 *
 * This file writes the module's frame: ports, stage 0 (sampling,
 * rotation, the clear walk, repeats), the counts with their common
 * halving, and the count read port; emit_monitor_map.c writes each
 * mapping's array and stack update.
 */
#include "emit_monitor.h"

#include <stdio.h>

unsigned stcgen_monitor_clear_width(const stcgen_params *params)
{
    return params->monitor_clear_bits;
}

static void emit_ports(stcgen_text *text, const stcgen_params *params)
{
    unsigned lw = params->monitor_line_bits;
    unsigned sel = params->monitor_sel_bits;
    stcgen_text_raw(text, "module stc_monitor #(\n");
    stcgen_text_raw(text, "  parameter integer READ_ONLY = 0  // 1: an I-cache's (no dirty state, "
                          "no writebacks)\n");
    stcgen_text_raw(text, ") (\n");
    stcgen_text_raw(text, "  input  wire        clk_i,\n");
    stcgen_text_raw(text, "  input  wire        rst_ni,      // asynchronous reset, active low\n");
    stcgen_text_raw(text, "  input  wire        ev_valid_i,  // an access completed this cycle\n");
    stcgen_text_raw(text, "  input  wire [%u:0] ev_line_i,   // its physical line number "
                          "(byte address >> %u)\n",
                    lw - 1, params->geometry.offset_bits);
    stcgen_text_raw(text, "  input  wire        ev_write_i,  // it stored\n");
    stcgen_text_raw(text, "  input  wire [%u:0]  cnt_sel_i,   // count read port: which count\n",
                    sel - 1);
    stcgen_text_raw(text, "  output wire [15:0] cnt_o,       // its value (0 beyond the last)\n");
    stcgen_text_raw(text, "  output wire [15:0] watched_o    // count 0 (watched accesses), as cnt_o "
                          "would show it\n");
    stcgen_text_raw(text, ");\n");
}

static void emit_counts_list(stcgen_text *text, const stcgen_params *params)
{
    stcgen_text_raw(text, "// Counts (cnt_sel_i), %u bits each (read as 16), all halved together when "
                          "one would reach 2^%u:\n", params->monitor_count_bits,
                    params->monitor_count_bits);
    stcgen_text_raw(text, "//    0 watched accesses (every mapping's accesses)\n");
    for (size_t index = 0; index < params->monitor_maps; index++) {
        const stcgen_monitor_map *map = &params->monitor_map[index];
        unsigned base = map->count_base;
        stcgen_text_raw(text, "//   %2u..%2u mapping %zu (%u-way, %u-line): hits at depth",
                        base, base + 2 * map->buckets - 1, index, map->ways, map->sublines);
        for (unsigned bucket = 0; bucket < map->buckets; bucket++) {
            unsigned lo = bucket ? 1u << (bucket - 1) : 0, hi = bucket ? (1u << bucket) - 1 : 0;
            if (lo == hi) {
                stcgen_text_raw(text, " %u", lo);
            } else {
                stcgen_text_raw(text, " %u-%u", lo, hi);
            }
        }
        stcgen_text_raw(text, "; writebacks of");
        for (unsigned bucket = 0; bucket < map->buckets; bucket++) {
            stcgen_text_raw(text, " %u", 1u << bucket);
        }
        stcgen_text_raw(text, " way%s\n", map->buckets > 1 ? "s" : "");
    }
}

/* Simulation only: the rows stage 1 wrote back, which the lockstep test
 * compares with the model's stc_monitor_row_writes (ARCHITECTURE.md
 * 17.6): the write skipping the model charges no energy for is checked in
 * the RTL, not assumed. */
static void emit_sim_row_writes(stcgen_text *text, const stcgen_params *params)
{
    stcgen_text_raw(text, "\n`ifndef SYNTHESIS\n");
    stcgen_text_raw(text, "  // Simulation only: rows stage 1 wrote back (the arrays' write strobes),\n");
    stcgen_text_raw(text, "  // this cycle's included as in cnt_o; the lockstep test reads it.\n");
    stcgen_text_raw(text, "  reg  [31:0] sim_row_writes_q;\n");
    stcgen_text_raw(text, "  wire [31:0] sim_row_writes_d = sim_row_writes_q + (!s1_array_q ? 32'd0 :");
    for (unsigned index = 0; index < params->monitor_maps; index++) {
        stcgen_text_raw(text, "\n                                  %s{31'd0, m%u_we}",
                        index ? "+ " : "  ", index);
    }
    stcgen_text_raw(text, ");\n");
    stcgen_text_raw(text, "  initial sim_row_writes_q = 32'd0;\n");
    stcgen_text_raw(text, "  always @(posedge clk_i) sim_row_writes_q <= sim_row_writes_d;\n");
    stcgen_text_raw(text, "`endif\n");
}

static void emit_stage0(stcgen_text *text, const stcgen_params *params)
{
    unsigned lw = params->monitor_line_bits;
    unsigned sample = params->monitor_sample_bits;
    unsigned cw = stcgen_monitor_clear_width(params);
    unsigned sw = params->monitor_since_bits;
    bool rotates = params->monitor_rotate != 0 && sample != 0;
    stcgen_text_raw(text, "\n  // ---- Stage 0: the event's cycle\n");
    stcgen_text_raw(text, "  reg  [%u:0] since_q, since_d;   // observed accesses in this group\n",
                    sw - 1);
    stcgen_text_raw(text, "  reg  [%u:0] group_q, group_d;   // the sample bits' watched value\n",
                    sample ? sample - 1 : 0);
    stcgen_text_raw(text, "  reg  [%u:0] clear_q, clear_d;   // blind accesses the walk has left\n",
                    cw - 1);
    stcgen_text_raw(text, "  reg        have_last_q, have_last_d;\n");
    stcgen_text_raw(text, "  reg        last_dirty_q, last_dirty_d;\n");
    stcgen_text_raw(text, "  reg  [%u:0] last_line_q, last_line_d;\n", lw - 1);
    stcgen_text_raw(text, "  reg        s1_array_q;            // stage 1 updates the arrays\n");
    stcgen_text_raw(text, "  reg        s1_count_q;            // stage 1 counts a repeat\n");
    stcgen_text_raw(text, "  reg        s1_write_q;\n");
    stcgen_text_raw(text, "  reg  [%u:0] s1_line_q;\n", lw - 1);
    stcgen_text_raw(text, "\n");
    if (rotates) {
        stcgen_text_raw(text, "  wire [%u:0] since_inc = since_q + %u'd1;\n", sw - 1, sw);
        stcgen_text_raw(text, "  wire        rotate    = ev_valid_i && (since_inc > %u'd%u);\n", sw,
                        params->monitor_rotate);
        stcgen_text_raw(text, "  // group' = 5 group + 3 mod 2^%u: every group once per cycle\n",
                        sample);
        if (sample >= 3) {
            stcgen_text_raw(text,
                            "  wire [%u:0] group_now = rotate ? group_q + {group_q[%u:0], 2'b00} + "
                            "%u'd3 : group_q;\n",
                            sample - 1, sample - 3, sample);
        } else { /* 4 x group is 0 mod 2^sample */
            stcgen_text_raw(text, "  wire [%u:0] group_now = rotate ? group_q + %u'd%u : group_q;\n",
                            sample - 1, sample, 3u & ((1u << sample) - 1));
        }
    } else {
        stcgen_text_raw(text, "  wire        rotate    = 1'b0;  // a fixed group\n");
        stcgen_text_raw(text, "  wire [%u:0] group_now = group_q;\n", sample ? sample - 1 : 0);
    }
    stcgen_text_raw(text, "  // The walk runs once, after reset: when the group moves, the next\n");
    stcgen_text_raw(text, "  // group inherits the rows as they are (section 17.2).\n");
    stcgen_text_raw(text, "  wire        walk      = ev_valid_i && (clear_q != %u'd0);\n", cw);
    stcgen_text_raw(text, "  wire [%u:0] clear_row = %u'd%u - clear_q;  // the row the walk "
                          "empties\n",
                    cw - 1, cw, params->monitor_clear_rows);
    if (sample) {
        stcgen_text_raw(text,
                        "  wire        watched   = ev_valid_i && !walk && (ev_line_i[%u:2] == "
                        "group_now);\n",
                        1 + sample);
    } else {
        stcgen_text_raw(text, "  wire        watched   = ev_valid_i && !walk;\n");
    }
    stcgen_text_raw(text, "  wire        have_last = have_last_q && !rotate;\n");
    stcgen_text_raw(text, "  wire        repeated  = have_last && (ev_line_i == last_line_q);\n");
    stcgen_text_raw(text, "  // A repeat is at depth 0 of every stack: counted without the arrays,\n");
    stcgen_text_raw(text, "  // unless it is the first store to the line (its dirty state changes).\n");
    stcgen_text_raw(text,
                    "  wire        array_rd  = watched && (!repeated || (ev_write_i && "
                    "!last_dirty_q));\n");
    stcgen_text_raw(text, "\n  always @* begin\n");
    stcgen_text_raw(text, "    since_d      = since_q;\n");
    stcgen_text_raw(text, "    group_d      = group_now;\n");
    stcgen_text_raw(text, "    clear_d      = clear_q;\n");
    stcgen_text_raw(text, "    have_last_d  = have_last;\n");
    stcgen_text_raw(text, "    last_dirty_d = last_dirty_q;\n");
    stcgen_text_raw(text, "    last_line_d  = last_line_q;\n");
    if (rotates) {
        stcgen_text_raw(text, "    if (ev_valid_i) since_d = rotate ? %u'd1 : since_inc;\n", sw);
    }
    stcgen_text_raw(text, "    if (walk) clear_d = clear_q - %u'd1;\n", cw);
    stcgen_text_raw(text, "    if (watched) begin\n");
    stcgen_text_raw(text, "      have_last_d  = 1'b1;\n");
    stcgen_text_raw(text, "      last_line_d  = ev_line_i;\n");
    stcgen_text_raw(text, "      last_dirty_d = (repeated && last_dirty_q) || ev_write_i;\n");
    stcgen_text_raw(text, "    end\n");
    stcgen_text_raw(text, "  end\n");
}

static void emit_counts(stcgen_text *text, const stcgen_params *params)
{
    unsigned counts = params->monitor_counts;
    unsigned sel = params->monitor_sel_bits;
    unsigned cb = params->monitor_count_bits;
    stcgen_text_raw(text, "\n  // ---- The counts: stage 1's increments, all halved together when "
                          "one would reach 2^%u\n", cb);
    stcgen_text_raw(text, "  localparam integer CB = %u;  // bits per count\n", cb);
    stcgen_text_raw(text, "  reg  [%u:0] cnt_q, cnt_d;   // CB bits per count\n", cb * counts - 1);
    stcgen_text_raw(text, "  wire [%u:0] cnt_inc;        // 3 bits per count\n", 3 * counts - 1);
    stcgen_text_raw(text, "  assign cnt_inc[2:0] = {2'b00, s1_array_q | s1_count_q};\n");
    for (size_t index = 0; index < params->monitor_maps; index++) {
        const stcgen_monitor_map *map = &params->monitor_map[index];
        unsigned base = map->count_base;
        for (unsigned bucket = 0; bucket < map->buckets; bucket++) {
            unsigned at = 3 * (base + bucket);
            stcgen_text_raw(text, "  assign cnt_inc[%u:%u] = {2'b00, (s1_array_q & m%zu_hit_inc[%u])%s};\n",
                            at + 2, at, index, bucket, bucket == 0 ? " | s1_count_q" : "");
        }
        for (unsigned bucket = 0; bucket < map->buckets; bucket++) {
            unsigned at = 3 * (base + map->buckets + bucket);
            stcgen_text_raw(text,
                            "  assign cnt_inc[%u:%u] = (READ_ONLY == 0 && s1_array_q) ? "
                            "m%zu_wb_inc[%u:%u] : 3'd0;\n",
                            at + 2, at, index, 3 * bucket + 2, 3 * bucket);
        }
    }
    /* An I-cache's writeback counts stay 0: held at 0 here, so that
     * synthesis removes their flops (the count port reads the next value). */
    stcgen_text_raw(text, "\n  // the writeback counts (always 0 in an I-cache)\n");
    stcgen_text_raw(text, "  localparam [%u:0] WB_COUNTS = %u'b", counts - 1, counts);
    for (unsigned index = counts; index-- > 0;) {
        bool writeback = false;
        for (size_t map_index = 0; map_index < params->monitor_maps; map_index++) {
            const stcgen_monitor_map *map = &params->monitor_map[map_index];
            unsigned first = map->count_base + map->buckets;
            writeback = writeback || (index >= first && index < first + map->buckets);
        }
        stcgen_text_raw(text, "%c", writeback ? '1' : '0');
    }
    stcgen_text_raw(text, ";\n");
    stcgen_text_raw(text, "\n  always @* begin : counts_next\n");
    stcgen_text_raw(text, "    reg [CB:0] sum;\n");
    stcgen_text_raw(text, "    reg        halve;\n");
    stcgen_text_raw(text, "    integer    index;\n");
    stcgen_text_raw(text, "    halve = 1'b0;\n");
    stcgen_text_raw(text, "    for (index = 0; index < %u; index = index + 1) begin\n", counts);
    stcgen_text_raw(text, "      sum = {1'b0, cnt_q[CB * index +: CB]} + {%u'd0, cnt_inc[3 * index +: 3]};\n",
                    cb - 2);
    stcgen_text_raw(text, "      halve = halve | sum[CB];\n");
    stcgen_text_raw(text, "    end\n");
    stcgen_text_raw(text, "    for (index = 0; index < %u; index = index + 1) begin\n", counts);
    stcgen_text_raw(text, "      sum = {1'b0, cnt_q[CB * index +: CB]} + {%u'd0, cnt_inc[3 * index +: 3]};\n",
                    cb - 2);
    stcgen_text_raw(text, "      cnt_d[CB * index +: CB] = (READ_ONLY != 0 && WB_COUNTS[index]) ? %u'd0\n"
                          "                              : halve ? sum[CB:1] : sum[CB-1:0];\n", cb);
    stcgen_text_raw(text, "    end\n");
    stcgen_text_raw(text, "  end\n");
    stcgen_text_raw(text, "\n  // Read with stage 1's increments: the counts after every earlier event,\n"
                          "  // also one in the cycle before.\n");
    /* A case over constant slices: a variable select scaled by CB = 14 made
     * Yosys build a shifter (+2.6 kGE), and a 16-bit-field vector rebuilt
     * on every evaluation cost Verilator instructions. */
    stcgen_text_raw(text, "  reg  [15:0] cnt_read;\n");
    stcgen_text_raw(text, "  always @* begin : counts_read\n");
    stcgen_text_raw(text, "    case (cnt_sel_i)\n");
    for (unsigned index = 0; index < counts; index++) {
        if (cb < 16) {
            stcgen_text_raw(text, "      %u'd%u: cnt_read = {%u'd0, cnt_d[%u:%u]};\n", sel, index,
                            16 - cb, cb * index + cb - 1, cb * index);
        } else {
            stcgen_text_raw(text, "      %u'd%u: cnt_read = cnt_d[%u:%u];\n", sel, index,
                            cb * index + cb - 1, cb * index);
        }
    }
    stcgen_text_raw(text, "      default: cnt_read = 16'd0;\n");
    stcgen_text_raw(text, "    endcase\n");
    stcgen_text_raw(text, "  end\n");
    stcgen_text_raw(text, "  assign cnt_o = cnt_read;\n");
    if (cb < 16) {
        stcgen_text_raw(text, "  assign watched_o = {%u'd0, cnt_d[%u:0]};\n", 16 - cb, cb - 1);
    } else {
        stcgen_text_raw(text, "  assign watched_o = cnt_d[15:0];\n");
    }
}

static void emit_flops(stcgen_text *text, const stcgen_params *params)
{
    unsigned cw = stcgen_monitor_clear_width(params);
    unsigned sample = params->monitor_sample_bits;
    stcgen_text_raw(text, "\n  always @(posedge clk_i or negedge rst_ni) begin\n");
    stcgen_text_raw(text, "    if (!rst_ni) begin\n");
    stcgen_text_raw(text, "      since_q      <= %u'd0;\n", params->monitor_since_bits);
    stcgen_text_raw(text, "      group_q      <= %u'd0;\n", sample ? sample : 1);
    stcgen_text_raw(text, "      clear_q      <= %u'd%u;  // the arrays are not reset: walk first\n",
                    cw, params->monitor_clear_rows);
    stcgen_text_raw(text, "      have_last_q  <= 1'b0;\n");
    stcgen_text_raw(text, "      last_dirty_q <= 1'b0;\n");
    stcgen_text_raw(text, "      last_line_q  <= %u'd0;\n", params->monitor_line_bits);
    stcgen_text_raw(text, "      s1_array_q   <= 1'b0;\n");
    stcgen_text_raw(text, "      s1_count_q   <= 1'b0;\n");
    stcgen_text_raw(text, "      s1_write_q   <= 1'b0;\n");
    stcgen_text_raw(text, "      s1_line_q    <= %u'd0;\n", params->monitor_line_bits);
    stcgen_text_raw(text, "      cnt_q        <= %u'd0;\n",
                    params->monitor_count_bits * params->monitor_counts);
    stcgen_text_raw(text, "    end else begin\n");
    stcgen_text_raw(text, "      since_q      <= since_d;\n");
    stcgen_text_raw(text, "      group_q      <= group_d;\n");
    stcgen_text_raw(text, "      clear_q      <= clear_d;\n");
    stcgen_text_raw(text, "      have_last_q  <= have_last_d;\n");
    stcgen_text_raw(text, "      last_dirty_q <= last_dirty_d;\n");
    stcgen_text_raw(text, "      last_line_q  <= last_line_d;\n");
    stcgen_text_raw(text, "      s1_array_q   <= array_rd;\n");
    stcgen_text_raw(text, "      s1_count_q   <= watched && !array_rd;\n");
    stcgen_text_raw(text, "      s1_write_q   <= ev_valid_i && ev_write_i;\n");
    stcgen_text_raw(text, "      s1_line_q    <= ev_valid_i ? ev_line_i : s1_line_q;\n");
    stcgen_text_raw(text, "      cnt_q        <= cnt_d;\n");
    stcgen_text_raw(text, "    end\n");
    stcgen_text_raw(text, "  end\n");
}

void stcgen_emit_monitor(stcgen_text *text, const stcgen_file *file, const stcgen_params *params)
{
    stcgen_text_header(text, &stcgen_comment_slashes, file->name, file->title, params);
    stcgen_text_blank(text);
    stcgen_text_raw(text, STCGEN_TIMESCALE "\n`default_nettype none\n\n");
    stcgen_text_raw(text, "// stc_monitor: LRU stacks of shadow tags for each of the %zu set "
                          "mappings of the\n",
                    params->monitor_maps);
    stcgen_text_raw(text, "// configurations, for 1/%u of the sets at a time (the group of "
                          "physical line\n",
                    1u << params->monitor_sample_bits);
    stcgen_text_raw(text, "// number bits [%u:2]",
                    params->monitor_sample_bits ? 1 + params->monitor_sample_bits : 2);
    if (params->monitor_rotate && params->monitor_sample_bits) {
        stcgen_text_raw(text, ", moving every %u observed accesses,\n// the next group inheriting the rows",
                        params->monitor_rotate);
    }
    stcgen_text_raw(text, "), %u-bit tags.\n", params->monitor_tag_bits);
    stcgen_text_raw(text, "// Two stages: an access's cycle samples it (or the clear walk empties a "
                          "row of\n");
    stcgen_text_raw(text, "// every array), the next cycle reads its row of every array (register "
                          "files, read\n");
    stcgen_text_raw(text, "// in the cycle they are addressed), updates the stacks, writes the changed "
                          "rows\n");
    stcgen_text_raw(text, "// and counts. An event may come every cycle: the next one's stage 1 reads "
                          "the rows\n");
    stcgen_text_raw(text, "// this one wrote.\n");
    emit_counts_list(text, params);
    emit_ports(text, params);
    emit_stage0(text, params);
    for (unsigned index = 0; index < params->monitor_maps; index++) {
        stcgen_emit_monitor_map(text, params, index);
    }
    emit_counts(text, params);
    emit_flops(text, params);
    emit_sim_row_writes(text, params);
    stcgen_text_raw(text, "\nendmodule\n\n`resetall\n");
}
