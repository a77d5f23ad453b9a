/*
 * emit_monitor_map.c - one set mapping of stc_monitor: its shadow-tag array
 * and the LRU stack update of stage 1 (docs/ARCHITECTURE.md section 17.3;
 * the model is ref/monitor.c's observe_mapping).
 *
 * Everything per entry is unrolled here from the mapping's constants, so
 * the Verilog has no loops and every slice is a literal.
 */
#include "emit_monitor.h"

#include <stdio.h>

/* Bit offset of entry e's dirty_from for subline p inside a row. */
static unsigned dirty_at(const stcgen_monitor_map *map, unsigned entry, unsigned subline)
{
    return entry * map->entry_bits + 1 + map->tag_bits + subline * map->dirty_bits;
}

/* {s{D'dW}}: every physical line clean in every cache of the mapping. A
 * stored dirty field is clean_upto = dirty_from - 1 (the model's
 * dirty_from, ref/monitor.c, is 1 .. W + 1): the most ways whose cache
 * holds the line clean, 0 .. W, so W + 1 values in D bits. */
static void clean_dirty(const stcgen_monitor_map *map, char *buf, size_t len)
{
    snprintf(buf, len, "{%u{%u'd%u}}", map->sublines, map->dirty_bits, map->ways);
}

/* The row address of the line in `line` (a physical line number): the
 * mapping's set index without the sample bits, which sit at bits
 * [2, 2 + K) of the physical line number (ARCHITECTURE.md 17.2). */
static void row_of(const stcgen_params *params, const stcgen_monitor_map *map, const char *line,
                   char *buf, size_t len)
{
    unsigned sample = params->monitor_sample_bits;
    unsigned low = map->sublines_log;              /* set bit 0 */
    unsigned top = map->sublines_log + map->set_bits; /* one above the set's top bit */
    unsigned gap_lo = 2, gap_hi = 2 + sample;       /* the sample bits */
    int used = 0;
    bool upper = top > gap_hi;
    bool lower = gap_lo > low;
    if (sample == 0) {
        snprintf(buf, len, "%s[%u:%u]", line, top - 1, low);
        return;
    }
    used += snprintf(buf + used, len - (size_t)used, "{");
    if (upper) {
        used += snprintf(buf + used, len - (size_t)used, "%s[%u:%u]", line, top - 1, gap_hi);
    }
    if (lower) {
        used += snprintf(buf + used, len - (size_t)used, "%s%s[%u:%u]", upper ? ", " : "", line,
                         gap_lo - 1, low);
    }
    snprintf(buf + used, len - (size_t)used, "}");
}

/* The mapping's stc_regfile: `width`-bit rows, read in stage 1 (flow-
 * through) and written whole at that cycle's end, so an event in the next
 * cycle reads the row this one wrote (ARCHITECTURE.md 17.3). */
static void emit_instance(stcgen_text *text, unsigned index, const stcgen_monitor_map *map,
                          unsigned width, const char *wdata, const char *rdata)
{
    stcgen_text_raw(text, "      stc_regfile #(\n");
    stcgen_text_raw(text, "        .DEPTH (%u),\n", map->rows);
    stcgen_text_raw(text, "        .WIDTH (%u),\n", width);
    stcgen_text_raw(text, "        .SEED  (32'd%u)\n", 0x4d00u + index);
    stcgen_text_raw(text, "      ) u_array (\n");
    stcgen_text_raw(text, "        .clk_i   (clk_i),\n");
    stcgen_text_raw(text, "        .raddr_i (m%u_addr),\n", index);
    stcgen_text_raw(text, "        .rdata_o (%s),\n", rdata);
    stcgen_text_raw(text, "        .we_i    (m%u_we),\n", index);
    stcgen_text_raw(text, "        .waddr_i (m%u_waddr),\n", index);
    stcgen_text_raw(text, "        .wmask_i ({%u{1'b1}}),\n", width);
    stcgen_text_raw(text, "        .wdata_i (%s)\n", wdata);
    stcgen_text_raw(text, "      );\n");
}

static void emit_array(stcgen_text *text, unsigned index, const stcgen_monitor_map *map)
{
    unsigned row_width = map->ways * map->entry_bits;
    unsigned ro_entry = 1 + map->tag_bits;
    unsigned ro_width = map->ways * ro_entry;
    char clean[64];
    clean_dirty(map, clean, sizeof clean);
    stcgen_text_raw(text, "  // The array: full entries for a D-cache; an I-cache stores no dirty\n");
    stcgen_text_raw(text, "  // state, its entries read back clean (clean_upto = W).\n");
    stcgen_text_raw(text, "  generate\n");
    stcgen_text_raw(text, "    if (READ_ONLY != 0) begin : g_m%u_ro\n", index);
    stcgen_text_raw(text, "      wire [%u:0] rdata_ro;\n", ro_width - 1);
    stcgen_text_raw(text, "      wire [%u:0] wdata_ro;\n", ro_width - 1);
    for (unsigned entry = 0; entry < map->ways; entry++) {
        stcgen_text_raw(text, "      assign wdata_ro[%u:%u] = m%u_wdata[%u:%u];\n",
                        entry * ro_entry + ro_entry - 1, entry * ro_entry, index,
                        entry * map->entry_bits + ro_entry - 1, entry * map->entry_bits);
        stcgen_text_raw(text, "      assign m%u_row[%u:%u] = {%s, rdata_ro[%u:%u]};\n", index,
                        entry * map->entry_bits + map->entry_bits - 1, entry * map->entry_bits,
                        clean, entry * ro_entry + ro_entry - 1, entry * ro_entry);
    }
    /* The dirty fields stage 1 computes are not stored (names matching
     * *unused* are exempt from Verilator's UNUSED warnings). */
    stcgen_text_raw(text, "      wire       unused_dirty = ^{");
    for (unsigned entry = map->ways; entry-- > 0;) {
        unsigned top = entry * map->entry_bits + map->entry_bits - 1;
        stcgen_text_raw(text, "m%u_wdata[%u:%u]%s", index, top, top - map->sublines * map->dirty_bits + 1,
                        entry ? ", " : "};\n");
    }
    emit_instance(text, index, map, ro_width, "wdata_ro", "rdata_ro");
    stcgen_text_raw(text, "    end else begin : g_m%u_rw\n", index);
    char wdata[32], rdata[32];
    snprintf(wdata, sizeof wdata, "m%u_wdata", index);
    snprintf(rdata, sizeof rdata, "m%u_row", index);
    emit_instance(text, index, map, row_width, wdata, rdata);
    stcgen_text_raw(text, "    end\n");
    stcgen_text_raw(text, "  endgenerate\n");
}

/* One more writeback of the 2^bucket-way cache. */
static void emit_wb_count(stcgen_text *text, unsigned index, unsigned bucket, const char *indent)
{
    stcgen_text_raw(text, "%sm%u_wb_inc[%u:%u] = m%u_wb_inc[%u:%u] + 3'd1;\n", indent, index,
                    3 * bucket + 2, 3 * bucket, index, 3 * bucket + 2, 3 * bucket);
}

/* Entry `moving` - 1 moves one deeper, out of the cache with `moving`
 * ways: its physical lines dirty there are that cache's writebacks (counted
 * when `moving` is a power of two, an associativity the tuner can choose),
 * and it holds them clean from then on. */
static void emit_age(stcgen_text *text, unsigned index, const stcgen_monitor_map *map,
                     const char *entry, unsigned evicting_ways)
{
    for (unsigned subline = 0; subline < map->sublines; subline++) {
        unsigned at = 1 + map->tag_bits + subline * map->dirty_bits;
        stcgen_text_raw(text, "        if (%s[%u:%u] < %u'd%u) begin\n", entry,
                        at + map->dirty_bits - 1, at, map->dirty_bits, evicting_ways);
        if (stc_is_power_of_two(evicting_ways)) {
            emit_wb_count(text, index, stc_log2(evicting_ways), "          ");
        }
        stcgen_text_raw(text, "          %s[%u:%u] = %u'd%u;\n", entry, at + map->dirty_bits - 1,
                        at, map->dirty_bits, evicting_ways);
        stcgen_text_raw(text, "        end\n");
    }
}

static void emit_update(stcgen_text *text, unsigned index, const stcgen_monitor_map *map)
{
    unsigned eb = map->entry_bits;
    unsigned d = map->dirty_bits;
    unsigned t = map->tag_bits;
    char clean[64];
    clean_dirty(map, clean, sizeof clean);
    stcgen_text_raw(text, "  // Stage 1: find the line in the stack (most recent first), count its\n");
    stcgen_text_raw(text, "  // depth bucket (a miss has no count: count 0 less the hits), move the\n");
    stcgen_text_raw(text, "  // entries above it one deeper\n");
    stcgen_text_raw(text, "  // (aging their dirty lines) and put it in front.\n");
    stcgen_text_raw(text, "  always @* begin : m%u_update\n", index);
    stcgen_text_raw(text, "    reg         hit;\n");
    stcgen_text_raw(text, "    reg [%u:0]   depth;\n", d - 1);
    stcgen_text_raw(text, "    reg [%u:0]  front;\n", eb - 1);
    if (map->ways > 1) {
        stcgen_text_raw(text, "    reg [%u:0]  moved;\n", eb - 1);
    }
    stcgen_text_raw(text, "    m%u_wdata   = m%u_row;\n", index, index);
    stcgen_text_raw(text, "    m%u_hit_inc  = %u'd0;\n", index, map->buckets);
    stcgen_text_raw(text, "    m%u_wb_inc   = %u'd0;\n", index, 3 * map->buckets);
    stcgen_text_raw(text, "    hit   = 1'b0;\n");
    stcgen_text_raw(text, "    depth = %u'd%u;\n", d, map->ways - 1);
    if (map->ways > 1) {
        stcgen_text_raw(text, "    moved = %u'd0;\n", eb);
    }
    for (unsigned entry = map->ways; entry-- > 0;) {
        stcgen_text_raw(text, "    if (m%u_row[%u] && m%u_row[%u:%u] == m%u_tag) begin\n", index,
                        entry * eb, index, entry * eb + t, entry * eb + 1, index);
        stcgen_text_raw(text, "      hit   = 1'b1;\n");
        stcgen_text_raw(text, "      depth = %u'd%u;\n", d, entry);
        stcgen_text_raw(text, "    end\n");
    }
    stcgen_text_raw(text, "    if (hit) begin\n");
    stcgen_text_raw(text, "      m%u_hit_inc[0] = (depth == %u'd0);\n", index, d);
    for (unsigned bucket = 1; bucket < map->buckets; bucket++) {
        stcgen_text_raw(text, "      m%u_hit_inc[%u] = (depth >= %u'd%u) && (depth < %u'd%u);\n",
                        index, bucket, d, 1u << (bucket - 1), d, 1u << bucket);
    }
    stcgen_text_raw(text, "      front = m%u_row[depth * %u +: %u];\n", index, eb, eb);
    stcgen_text_raw(text, "      // caches of depth ways or fewer missed and refilled it clean\n");
    for (unsigned subline = 0; subline < map->sublines; subline++) {
        unsigned at = dirty_at(map, 0, subline);
        stcgen_text_raw(text, "      if (front[%u:%u] < depth) front[%u:%u] = depth;\n", at + d - 1,
                        at, at + d - 1, at);
    }
    stcgen_text_raw(text, "    end else begin\n");
    stcgen_text_raw(text, "      // the deepest entry leaves every cache of the mapping\n");
    stcgen_text_raw(text, "      if (m%u_row[%u]) begin\n", index, (map->ways - 1) * eb);
    for (unsigned subline = 0; subline < map->sublines; subline++) {
        unsigned at = dirty_at(map, map->ways - 1, subline);
        stcgen_text_raw(text, "        if (m%u_row[%u:%u] < %u'd%u)\n", index, at + d - 1, at, d,
                        map->ways);
        emit_wb_count(text, index, stc_log2(map->ways), "          ");
    }
    stcgen_text_raw(text, "      end\n");
    stcgen_text_raw(text, "      front = {%s, %u'd0, 1'b0};\n", clean, t);
    stcgen_text_raw(text, "    end\n");
    for (unsigned entry = map->ways; entry-- > 1;) {
        stcgen_text_raw(text, "    if (depth >= %u'd%u) begin\n", d, entry);
        stcgen_text_raw(text, "      moved = m%u_row[%u:%u];\n", index, entry * eb - 1,
                        (entry - 1) * eb);
        stcgen_text_raw(text, "      if (moved[0]) begin\n");
        emit_age(text, index, map, "moved", entry);
        stcgen_text_raw(text, "      end\n");
        stcgen_text_raw(text, "      m%u_wdata[%u:%u] = moved;\n", index, entry * eb + eb - 1,
                        entry * eb);
        stcgen_text_raw(text, "    end\n");
    }
    for (unsigned subline = 0; subline < map->sublines; subline++) {
        unsigned at = dirty_at(map, 0, subline);
        if (map->sublines > 1) {
            stcgen_text_raw(text, "    if (s1_write_q && m%u_sub == %u'd%u) front[%u:%u] = %u'd0;\n",
                            index, map->sublines_log, subline, at + d - 1, at, d);
        } else {
            stcgen_text_raw(text, "    if (s1_write_q) front[%u:%u] = %u'd0;\n", at + d - 1, at, d);
        }
    }
    stcgen_text_raw(text, "    front[0] = 1'b1;\n");
    stcgen_text_raw(text, "    front[%u:1] = m%u_tag;\n", t, index);
    stcgen_text_raw(text, "    m%u_wdata[%u:0] = front;\n", index, eb - 1);
    stcgen_text_raw(text, "    if (!s1_array_q) m%u_wdata = %u'd0;  // the clear walk's empty row\n",
                    index, map->ways * eb);
    stcgen_text_raw(text, "  end\n");
}

void stcgen_emit_monitor_map(stcgen_text *text, const stcgen_params *params, unsigned index)
{
    const stcgen_monitor_map *map = &params->monitor_map[index];
    unsigned row_width = map->ways * map->entry_bits;
    char row[128];
    row_of(params, map, "s1_line_q", row, sizeof row);
    stcgen_text_blank(text);
    stcgen_text_raw(text,
                    "  // ---- Mapping %u: %u way%s, logical lines of %u physical line%s; %u "
                    "sets, %u watched rows\n",
                    index, map->ways, map->ways > 1 ? "s" : "", map->sublines,
                    map->sublines > 1 ? "s" : "", 1u << map->set_bits, map->rows);
    stcgen_text_raw(text,
                    "  // An entry (%u bits): [0] valid, [%u:1] tag, then per physical line "
                    "clean_upto (%u bits):\n",
                    map->entry_bits, map->tag_bits, map->dirty_bits);
    stcgen_text_raw(text, "  // the most ways whose cache holds it clean (%u: clean in all). "
                          "Entry 0 is the most recent.\n",
                    map->ways);
    stcgen_text_raw(text, "  wire [%u:0] m%u_row;      // the row stage 1 reads\n", row_width - 1,
                    index);
    stcgen_text_raw(text, "  reg  [%u:0] m%u_wdata;    // the row stage 1 writes back\n",
                    row_width - 1, index);
    stcgen_text_raw(text, "  reg  [%u:0]  m%u_hit_inc;\n", map->buckets - 1, index);
    stcgen_text_raw(text, "  reg  [%u:0]  m%u_wb_inc;     // 3 bits per bucket\n",
                    3 * map->buckets - 1, index);
    stcgen_text_raw(text, "  wire [%u:0]  m%u_tag = s1_line_q[%u:%u];\n", map->tag_bits - 1, index,
                    map->sublines_log + map->set_bits + map->tag_bits - 1,
                    map->sublines_log + map->set_bits);
    if (map->sublines > 1) {
        stcgen_text_raw(text, "  wire [%u:0]  m%u_sub = s1_line_q[%u:0];\n", map->sublines_log - 1,
                        index, map->sublines_log - 1);
    }
    stcgen_text_raw(text, "  wire [%u:0]  m%u_addr = %s;  // the event's row\n", map->row_bits - 1, index,
                    row);
    stcgen_text_raw(text, "  // Write port: stage 1 writes the event's row back, or the walk clears a\n");
    stcgen_text_raw(text, "  // row in its own cycle; never both (the walk ends before any event is\n");
    stcgen_text_raw(text, "  // watched, so no array event precedes a walk's).\n");
    if (map->rows < params->monitor_clear_rows) {
        stcgen_text_raw(text, "  wire        m%u_clear = walk && (clear_row < %u'd%u);\n", index,
                        stcgen_monitor_clear_width(params), map->rows);
    } else {
        stcgen_text_raw(text, "  wire        m%u_clear = walk;\n", index);
    }
    /* A depth-0 hit that leaves entry 0's dirty state as it was leaves the
     * whole row as it was (nothing moves): its write is skipped, which
     * saves the write energy the model charges only for changed rows
     * (ref/monitor.h stc_monitor_row_writes). Entry 0 equal implies that
     * hit: the row stage 1 writes has a valid entry 0 with this tag. */
    stcgen_text_raw(text, "  // Stage 1 writes the row back only if it changed: a row whose entry 0\n");
    stcgen_text_raw(text, "  // (valid, this tag, its dirty state) stays as read was a depth-0 hit.\n");
    stcgen_text_raw(text, "  wire        m%u_keep  = (m%u_wdata[%u:0] == m%u_row[%u:0]);\n", index, index,
                    map->entry_bits - 1, index, map->entry_bits - 1);
    stcgen_text_raw(text, "  wire        m%u_we    = m%u_clear || (s1_array_q && !m%u_keep);\n", index,
                    index, index);
    stcgen_text_raw(text,
                    "  wire [%u:0]  m%u_waddr = s1_array_q ? m%u_addr : clear_row[%u:0];\n",
                    map->row_bits - 1, index, index, map->row_bits - 1);
    emit_array(text, index, map);
    emit_update(text, index, map);
}
