/*
 * emit_apb.c - stc_cache_apb.v, the APB register block of one stc_cache
 * (docs/INTEGRATION.md), from apb_regs.c's one table (emit_apb_map.c
 * writes the same table as stc_cache_regs.h and stc_cache_regs.md).
 *
 * The block's cache-side ports are stc_cache's control ports from
 * top_ports.c with the direction mirrored (cfg_valid_i -> cfg_valid_o), so
 * its widths are the cache's and the two connect by name.
 */
#include "apb_regs.h"
#include "debug_break.h"
#include "emit.h"
#include "top_ports.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

enum { EXPR_MAX = 96, SEGMENTS_MAX = STCGEN_APB_MAX_FIELDS };

/* The lines a deliberate bug may replace (debug_break.c, module
 * STCGEN_BREAK_APB), exactly as emitted. */
static const char *const apb_break_lines[] = {
    "wire         wr       = access && pwrite_i && !err_q;  // a write takes effect",
    "err_d = 1'b0;",
    NULL,
};

const char *const *stcgen_apb_break_lines(void)
{
    return apb_break_lines;
}

static void line_b(stcgen_text *text, const stcgen_params *params, const char *line)
{
    stcgen_text_line(text, "%s", stcgen_debug_break_line(params->debug_break, STCGEN_BREAK_APB, line));
}

/* Ports of stc_cache the block drives or reads: its control ports. */
static bool control_port(const stcgen_top_port *port)
{
    static const char *const prefixes[] = {"cfg_", "mnt_", "cnt_", "tun_"};
    for (size_t index = 0; index < sizeof prefixes / sizeof prefixes[0]; index++) {
        if (strncmp(port->name, prefixes[index], strlen(prefixes[index])) == 0) {
            return true;
        }
    }
    return false;
}

/* "[msb:lsb]", or "[lsb]" for one bit. */
static void slice(char *out, size_t len, unsigned lsb, unsigned width)
{
    if (width > 1) {
        snprintf(out, len, "[%u:%u]", lsb + width - 1, lsb);
    } else {
        snprintf(out, len, "[%u]", lsb);
    }
}

static void lower(char *out, size_t len, const char *name)
{
    size_t pos = 0;
    for (; name[pos] && pos + 1 < len; pos++) {
        out[pos] = (char)tolower((unsigned char)name[pos]);
    }
    out[pos] = '\0';
}

/* Bits to number count words: 2^bits >= count. */
static unsigned index_bits(unsigned count)
{
    unsigned bits = 0;
    while ((1u << bits) < count) {
        bits++;
    }
    return bits;
}

/* One piece of a 32-bit read value. */
typedef struct {
    unsigned lsb, width;
    char expr[EXPR_MAX];
} segment;

/* The 32-bit concatenation of segments (ascending, not overlapping), the
 * gaps zero: "{23'd0, cfg_wp_i, ...}". */
static void concat(char *out, size_t len, const segment *segs, size_t count)
{
    if (count == 1 && segs[0].lsb == 0 && segs[0].width == 32) {
        snprintf(out, len, "%s", segs[0].expr);
        return;
    }
    size_t used = 0;
    unsigned top = 32;
    used += (size_t)snprintf(out + used, len - used, "{");
    for (size_t index = count; index-- > 0;) {
        unsigned msb = segs[index].lsb + segs[index].width;
        if (top > msb) {
            used += (size_t)snprintf(out + used, used < len ? len - used : 0, "%u'd0, ", top - msb);
        }
        used += (size_t)snprintf(out + used, used < len ? len - used : 0, "%s%s",
                                 segs[index].expr, index > 0 ? ", " : "");
        top = segs[index].lsb;
    }
    if (top > 0) {
        used += (size_t)snprintf(out + used, used < len ? len - used : 0, ", %u'd0", top);
    }
    snprintf(out + (used < len ? used : len - 1), used < len ? len - used : 1, "}");
}

/* The expression a STATUS field reads, NULL if unknown. */
static const char *status_expr(const char *field)
{
    static const char *const table[][2] = {
        {"CFG_BUSY", "cfg_busy"}, {"CFG_WAIT", "cfg_valid_q"}, {"CFG_ERR", "cfg_err_q"},
        {"MNT_BUSY", "mnt_busy"}, {"MNT_WAIT", "mnt_valid_q"}, {"TUN_BUSY", "tun_busy_i"},
    };
    for (size_t index = 0; index < sizeof table / sizeof table[0]; index++) {
        if (strcmp(table[index][0], field) == 0) {
            return table[index][1];
        }
    }
    return NULL;
}

/* What a register reads, as a 32-bit Verilog expression; false if the
 * table holds a field this emitter does not know. */
static bool read_expr(char *out, size_t len, const stcgen_apb_reg *reg, const stcgen_apb_map *map)
{
    segment segs[SEGMENTS_MAX];
    size_t count = 0;
    if (!reg->readable) {
        snprintf(out, len, "32'd0");
        return true;
    }
    switch (reg->role) {
    case STCGEN_APB_ID:
    case STCGEN_APB_GEOMETRY:
        snprintf(out, len, "32'h%08" PRIx32, reg->reset);
        return true;
    case STCGEN_APB_TUNER:
        snprintf(out, len, "tun_rdata_i");
        return true;
    default:
        break;
    }
    for (size_t index = 0; index < reg->fields; index++) {
        const stcgen_apb_field *field = &reg->field[index];
        segment *seg = &segs[count++];
        char name[32];
        lower(name, sizeof name, field->name);
        seg->lsb = field->lsb;
        seg->width = field->width;
        switch (reg->role) {
        case STCGEN_APB_CONFIG:
            snprintf(seg->expr, sizeof seg->expr, "cfg_%s_i", name);
            break;
        case STCGEN_APB_MAINT_CTRL:
            snprintf(seg->expr, sizeof seg->expr, "mnt_%s_o", name);
            break;
        case STCGEN_APB_STATUS:
            if (!status_expr(field->name)) {
                return false;
            }
            snprintf(seg->expr, sizeof seg->expr, "%s", status_expr(field->name));
            break;
        case STCGEN_APB_MAINT_ADDR:
            snprintf(seg->expr, sizeof seg->expr, "maint_addr_q[%u:0]", field->width - 1);
            break;
        case STCGEN_APB_MAINT_ADDR_HI:
            snprintf(seg->expr, sizeof seg->expr, "maint_addr_q[%u:%u]", map->mnt_addr_bits - 1,
                     map->mnt_addr_bits - field->width);
            break;
        case STCGEN_APB_COUNTER_HI:
            snprintf(seg->expr, sizeof seg->expr, "cnt_hi_q");
            break;
        case STCGEN_APB_COUNTER:
            if (field->width == map->counter_bits) {
                snprintf(seg->expr, sizeof seg->expr, "cnt_value_i");
            } else {
                snprintf(seg->expr, sizeof seg->expr, "cnt_value_i[%u:0]", field->width - 1);
            }
            break;
        default:
            return false;
        }
    }
    concat(out, len, segs, count);
    return true;
}

/* The refusal condition of a write to reg (PSLVERR, nothing written). */
static const char *refusal(const stcgen_apb_reg *reg)
{
    if (!reg->writable) {
        return "pwrite_i";
    }
    switch (reg->role) {
    case STCGEN_APB_CONFIG:
        return "pwrite_i && ((pstrb_i != 4'hf) || cfg_busy)";
    case STCGEN_APB_MAINT_ADDR:
    case STCGEN_APB_MAINT_ADDR_HI:
    case STCGEN_APB_MAINT_CTRL:
        return "pwrite_i && ((pstrb_i != 4'hf) || mnt_busy)";
    default:
        return "pwrite_i && (pstrb_i != 4'hf)";
    }
}

void stcgen_emit_apb(stcgen_text *text, const stcgen_file *file, const stcgen_params *params)
{
    stcgen_apb_map map;
    stcgen_top_port ports[STCGEN_MAX_TOP_PORTS];
    const size_t n_ports = stcgen_top_ports(params, ports, STCGEN_MAX_TOP_PORTS);
    stcgen_text_header(text, &stcgen_comment_slashes, file->name, file->title, params);
    const char *what = stcgen_debug_break_what(params->debug_break, STCGEN_BREAK_APB);
    if (what) {
        stcgen_text_raw(text, "// BROKEN on purpose (--debug-break %s): %s.\n", params->debug_break,
                        what);
    }
    if (stcgen_apb_map_build(params, &map) != 0) {
        text->failed = true; /* a programming error: the table and the ports disagree */
        return;
    }
    const stcgen_apb_reg *config = stcgen_apb_find(&map, STCGEN_APB_CONFIG);
    const stcgen_apb_reg *ctrl = stcgen_apb_find(&map, STCGEN_APB_MAINT_CTRL);
    const stcgen_apb_reg *maddr = stcgen_apb_find(&map, STCGEN_APB_MAINT_ADDR);
    const stcgen_apb_reg *counter = stcgen_apb_find(&map, STCGEN_APB_COUNTER);
    const stcgen_apb_reg *tuner = stcgen_apb_find(&map, STCGEN_APB_TUNER);
    const stcgen_apb_reg *cnt_hi = stcgen_apb_find(&map, STCGEN_APB_COUNTER_HI);
    if (!config || !ctrl || !maddr || !counter || config->fields == 0 || ctrl->fields == 0 ||
        maddr->fields == 0 || index_bits(counter->count) > map.cnt_sel_bits) {
        text->failed = true;
        return;
    }
    const unsigned word_bits = STCGEN_APB_ADDR_BITS - 2;
    const unsigned reg_bits = index_bits((unsigned)map.count + 1);
    const stcgen_apb_field *cfg_last = &config->field[config->fields - 1];
    const unsigned cfg_bits = cfg_last->lsb + cfg_last->width;
    const stcgen_apb_field *ctrl_last = &ctrl->field[ctrl->fields - 1];
    const unsigned ctrl_bits = ctrl_last->lsb + ctrl_last->width;
    char r[32], s[32], expr[512];

    stcgen_text_blank(text);
    stcgen_text_line(text, STCGEN_TIMESCALE);
    stcgen_text_line(text, "`default_nettype none");
    stcgen_text_blank(text);
    static const char *const intro[] = {
        "// stc_cache_apb: an AMBA APB4 completer holding the registers software drives",
        "// one stc_cache with (docs/INTEGRATION.md, map: stc_cache_regs.md). PCLK is",
        "// clk_i, PRESETn rst_ni (the cache's). Its cache-side ports are stc_cache's",
        "// configuration, maintenance, counter and tuner ports with the direction",
        "// mirrored: connect them by name (cfg_valid_o to the cache's cfg_valid_i, ...).",
        "//",
        "// Transfers: no wait states (PREADY is always 1), every transfer takes its",
        "// setup and one access cycle. The setup phase's edge registers the decode",
        "// (reg_q), the refusal (err_q, which drives PSLVERR in the access cycle",
        "// only), the counter number (cnt_sel_o) and the tuner address (tun_addr_o);",
        "// PRDATA is a multiplexer of flops and the cache's read ports selected by",
        "// reg_q, so no APB input reaches an APB output combinationally. A write",
        "// takes effect at the edge ending its access cycle. Refused (PSLVERR,",
        "// nothing written): an unmapped address, a write to a read-only register, a",
        "// write without all four PSTRB bits, a CONFIG write while a change is",
        "// requested or in progress (STATUS.CFG_BUSY), a MAINT_* write while an",
        "// operation is (STATUS.MNT_BUSY). PADDR[1:0] are ignored.",
        "//",
        "// A CONFIG or MAINT_CTRL write raises cfg_valid_o / mnt_valid_o, held until",
        "// the cache accepts it (ready at an edge); the request is busy until",
        "// cfg_done_i / mnt_done_i (which may come in the accepting cycle);",
        "// software polls STATUS. CNT_CLEAR pulses cnt_clear_o for the cycle after",
        "// its access. Every cache-side output but tun_we_o and tun_wdata_o (the",
        "// tuner's register is written at the access's edge) comes from flops.",
        "//",
        "// Registers (byte offsets):",
        NULL,
    };
    stcgen_text_lines(text, intro);
    for (size_t index = 0; index < map.count; index++) {
        const stcgen_apb_reg *reg = &map.reg[index];
        if (reg->count > 1) {
            stcgen_text_line(text, "//   0x%03x-0x%03x %-13s %s %s", reg->offset,
                             reg->offset + 4 * reg->count - 4, reg->name, reg->access, reg->what);
        } else {
            stcgen_text_line(text, "//   0x%03x       %-13s %s %s", reg->offset, reg->name,
                             reg->access, reg->what);
        }
    }
    stcgen_text_line(text, "module stc_cache_apb (");
    stcgen_text_in(text);
    stcgen_declare_port(text, true, 1, "clk_i", false, "PCLK: the cache's clock");
    stcgen_declare_port(text, true, 1, "rst_ni", false,
                 "PRESETn: the cache's reset (asynchronous, active low)");
    stcgen_declare_port(text, true, 1, "psel_i", false, "APB4 completer");
    stcgen_declare_port(text, true, 1, "penable_i", false, "");
    stcgen_declare_port(text, true, 1, "pwrite_i", false, "");
    stcgen_declare_port(text, true, STCGEN_APB_ADDR_BITS, "paddr_i", false, "byte address");
    stcgen_declare_port(text, true, 32, "pwdata_i", false, "");
    stcgen_declare_port(text, true, 4, "pstrb_i", false, "a write needs all four");
    stcgen_declare_port(text, false, 1, "pready_o", false, "always 1");
    stcgen_declare_port(text, false, 32, "prdata_o", false, "");
    stcgen_declare_port(text, false, 1, "pslverr_o", false, "");
    size_t last = 0;
    for (size_t index = 0; index < n_ports; index++) {
        if (control_port(&ports[index])) {
            last = index;
        }
    }
    for (size_t index = 0; index < n_ports; index++) {
        const stcgen_top_port *port = &ports[index];
        if (!control_port(port)) {
            continue;
        }
        if (stcgen_declare_mirrored_port(text, port, index == last) != 0) {
            text->failed = true;
            return;
        }
    }
    stcgen_text_out(text);
    stcgen_text_line(text, ");");
    stcgen_text_blank(text);
    stcgen_text_in(text);

    stcgen_text_line(text, "// Register numbers: the decode's result (0: none, refused).");
    stcgen_text_line(text, "localparam [%u:0] R_NONE%*s = %u'd0;", reg_bits - 1, 9, "", reg_bits);
    for (size_t index = 0; index < map.count; index++) {
        stcgen_text_line(text, "localparam [%u:0] R_%-13s = %u'd%zu;", reg_bits - 1,
                         map.reg[index].name, reg_bits, index + 1);
    }
    stcgen_text_blank(text);
    stcgen_text_line(text, "wire         setup  = psel_i && !penable_i;  // APB setup phase");
    stcgen_text_line(text, "wire         access = psel_i && penable_i;   // access phase: it ends here");
    stcgen_text_line(text, "wire [%u:0]   word   = paddr_i[%u:2];", word_bits - 1,
                     STCGEN_APB_ADDR_BITS - 1);
    stcgen_text_line(text, "// Not decoded: the byte offset; PWDATA bits no register holds.");
    stcgen_text_line(text, "wire [33:0]  unused_apb = {paddr_i[1:0], pwdata_i};");
    stcgen_text_blank(text);

    /* Flops. */
    stcgen_port_range(r, sizeof r, reg_bits);
    stcgen_text_line(text, "reg  %-7s reg_q, reg_d;            // the register of the transfer", r);
    stcgen_text_line(text, "reg          err_q, err_d;            // it is refused: PSLVERR");
    stcgen_text_line(text, "reg          cfg_valid_q, cfg_valid_d;  // change offered to the cache");
    stcgen_text_line(text, "reg          cfg_wait_q, cfg_wait_d;    // accepted, cfg_done_i awaited");
    stcgen_text_line(text, "reg          cfg_err_q, cfg_err_d;      // the last change was illegal");
    stcgen_port_range(r, sizeof r, cfg_bits);
    stcgen_text_line(text, "reg  %-7s cfg_req_q, cfg_req_d;      // the change, packed as CONFIG", r);
    stcgen_text_line(text, "reg          mnt_valid_q, mnt_valid_d;  // operation offered to the cache");
    stcgen_text_line(text, "reg          mnt_wait_q, mnt_wait_d;    // accepted, mnt_done_i awaited");
    stcgen_port_range(r, sizeof r, ctrl_bits);
    stcgen_text_line(text, "reg  %-7s mnt_ctrl_q, mnt_ctrl_d;    // op and scope, packed as MAINT_CTRL",
                     r);
    stcgen_port_range(r, sizeof r, map.mnt_addr_bits);
    stcgen_text_line(text, "reg  %-7s maint_addr_q, maint_addr_d;  // word address", r);
    stcgen_port_range(r, sizeof r, map.cnt_sel_bits);
    stcgen_text_line(text, "reg  %-7s cnt_sel_q, cnt_sel_d;", r);
    stcgen_text_line(text, "reg          cnt_clear_q, cnt_clear_d;");
    if (cnt_hi) {
        stcgen_port_range(r, sizeof r, map.counter_bits - 32);
        stcgen_text_line(text, "reg  %-7s cnt_hi_q, cnt_hi_d;        // high bits of the counter read last",
                         r);
    }
    if (tuner) {
        stcgen_port_range(r, sizeof r, map.tun_addr_bits);
        stcgen_text_line(text, "reg  %-7s tun_addr_q, tun_addr_d;", r);
    }
    stcgen_text_blank(text);
    stcgen_text_line(text, "wire         cfg_busy = cfg_valid_q || cfg_wait_q;");
    stcgen_text_line(text, "wire         mnt_busy = mnt_valid_q || mnt_wait_q;");
    line_b(text, params, apb_break_lines[0]);
    stcgen_text_blank(text);

    /* Decode. */
    stcgen_port_range(r, sizeof r, reg_bits);
    stcgen_text_line(text, "// Decode of the setup phase's address, and its refusal.");
    stcgen_text_line(text, "reg  %-7s dec_reg;", r);
    stcgen_text_line(text, "reg          dec_err;");
    stcgen_text_line(text, "always @(*) begin");
    stcgen_text_in(text);
    stcgen_text_line(text, "dec_reg = R_NONE;");
    for (size_t index = 0; index < map.count; index++) {
        const stcgen_apb_reg *reg = &map.reg[index];
        const unsigned base = reg->offset / 4;
        const unsigned bits = index_bits(reg->count);
        if (bits == 0) {
            stcgen_text_line(text, "if (word == %u'h%03x) dec_reg = R_%s;", word_bits, base,
                             reg->name);
        } else if (reg->count == (1u << bits)) {
            stcgen_text_line(text, "if (word[%u:%u] == %u'h%x) dec_reg = R_%s;", word_bits - 1,
                             bits, word_bits - bits, base >> bits, reg->name);
        } else {
            slice(s, sizeof s, 0, bits);
            stcgen_text_line(text, "if (word[%u:%u] == %u'h%x && word%s < %u'd%u) dec_reg = R_%s;",
                             word_bits - 1, bits, word_bits - bits, base >> bits, s, bits,
                             reg->count, reg->name);
        }
        if ((base & ((1u << bits) - 1)) != 0) {
            text->failed = true; /* an array must be aligned to its size */
        }
    }
    stcgen_text_line(text, "case (dec_reg)");
    stcgen_text_in(text);
    for (size_t index = 0; index < map.count; index++) {
        stcgen_text_line(text, "R_%-13s: dec_err = %s;", map.reg[index].name,
                         refusal(&map.reg[index]));
    }
    stcgen_text_line(text, "default%*s: dec_err = 1'b1;  // unmapped", 8, "");
    stcgen_text_out(text);
    stcgen_text_line(text, "endcase");
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_blank(text);

    /* Next state. */
    stcgen_text_line(text, "always @(*) begin");
    stcgen_text_in(text);
    static const char *const defaults[] = {
        "reg_d        = reg_q;",
        "err_d        = err_q;",
        "cfg_valid_d  = cfg_valid_q;",
        "cfg_wait_d   = cfg_wait_q;",
        "cfg_err_d    = cfg_err_q;",
        "cfg_req_d    = cfg_req_q;",
        "mnt_valid_d  = mnt_valid_q;",
        "mnt_wait_d   = mnt_wait_q;",
        "mnt_ctrl_d   = mnt_ctrl_q;",
        "maint_addr_d = maint_addr_q;",
        "cnt_sel_d    = cnt_sel_q;",
        "cnt_clear_d  = 1'b0;  // a one-cycle pulse",
        NULL,
    };
    stcgen_text_lines(text, defaults);
    if (cnt_hi) {
        stcgen_text_line(text, "cnt_hi_d     = cnt_hi_q;");
    }
    if (tuner) {
        stcgen_text_line(text, "tun_addr_d   = tun_addr_q;");
    }
    stcgen_text_line(text, "if (setup) begin");
    stcgen_text_in(text);
    stcgen_text_line(text, "reg_d = dec_reg;");
    stcgen_text_line(text, "err_d = dec_err;");
    {
        const unsigned bits = index_bits(counter->count);
        slice(s, sizeof s, 0, bits);
        if (bits < map.cnt_sel_bits) {
            stcgen_text_line(text, "if (dec_reg == R_COUNTER) cnt_sel_d = {%u'd0, word%s};",
                             map.cnt_sel_bits - bits, s);
        } else {
            stcgen_text_line(text, "if (dec_reg == R_COUNTER) cnt_sel_d = word%s;", s);
        }
    }
    if (tuner) {
        slice(s, sizeof s, 0, map.tun_addr_bits);
        stcgen_text_line(text, "if (dec_reg == R_TUNER) tun_addr_d = word%s;", s);
    }
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_line(text, "if (access) begin  // the transfer ends: PSLVERR and PRDATA fall");
    stcgen_text_in(text);
    stcgen_text_line(text, "reg_d = R_NONE;");
    line_b(text, params, apb_break_lines[1]);
    if (cnt_hi) {
        stcgen_text_line(text, "if (!err_q && !pwrite_i && reg_q == R_COUNTER) cnt_hi_d = cnt_value_i[%u:32];",
                         map.counter_bits - 1);
    }
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_line(text, "// The cache takes a request at an edge with valid and ready; done may");
    stcgen_text_line(text, "// come in that cycle (a change or operation that needs no walk).");
    stcgen_text_line(text, "if (cfg_valid_q && cfg_ready_i) begin");
    stcgen_text_line(text, "  cfg_valid_d = 1'b0;");
    stcgen_text_line(text, "  cfg_wait_d  = !cfg_done_i;");
    stcgen_text_line(text, "  if (cfg_done_i) cfg_err_d = cfg_err_i;");
    stcgen_text_line(text, "end");
    stcgen_text_line(text, "if (cfg_wait_q && cfg_done_i) begin");
    stcgen_text_line(text, "  cfg_wait_d = 1'b0;");
    stcgen_text_line(text, "  cfg_err_d  = cfg_err_i;");
    stcgen_text_line(text, "end");
    stcgen_text_line(text, "if (mnt_valid_q && mnt_ready_i) begin");
    stcgen_text_line(text, "  mnt_valid_d = 1'b0;");
    stcgen_text_line(text, "  mnt_wait_d  = !mnt_done_i;");
    stcgen_text_line(text, "end");
    stcgen_text_line(text, "if (mnt_wait_q && mnt_done_i) mnt_wait_d = 1'b0;");
    stcgen_text_line(text, "// Writes (refused ones never get here; a CONFIG or MAINT_* write is");
    stcgen_text_line(text, "// refused while busy, so it never meets the handshake above).");
    stcgen_text_line(text, "if (wr) begin");
    stcgen_text_in(text);
    stcgen_text_line(text, "case (reg_q)");
    stcgen_text_in(text);
    slice(s, sizeof s, 0, cfg_bits);
    stcgen_text_line(text, "R_CONFIG: begin");
    stcgen_text_line(text, "  cfg_valid_d = 1'b1;");
    stcgen_text_line(text, "  cfg_req_d   = pwdata_i%s;", s);
    stcgen_text_line(text, "  cfg_err_d   = 1'b0;");
    stcgen_text_line(text, "end");
    {
        const stcgen_apb_field *field = &maddr->field[0];
        char lhs[32];
        slice(lhs, sizeof lhs, 0, field->width);
        slice(s, sizeof s, field->lsb, field->width);
        stcgen_text_line(text, "R_MAINT_ADDR: maint_addr_d%s = pwdata_i%s;", lhs, s);
    }
    const stcgen_apb_reg *maddr_hi = stcgen_apb_find(&map, STCGEN_APB_MAINT_ADDR_HI);
    if (maddr_hi && maddr_hi->fields > 0) {
        const stcgen_apb_field *field = &maddr_hi->field[0];
        char lhs[32];
        slice(lhs, sizeof lhs, map.mnt_addr_bits - field->width, field->width);
        slice(s, sizeof s, field->lsb, field->width);
        stcgen_text_line(text, "R_MAINT_ADDR_HI: maint_addr_d%s = pwdata_i%s;", lhs, s);
    }
    slice(s, sizeof s, 0, ctrl_bits);
    stcgen_text_line(text, "R_MAINT_CTRL: begin");
    stcgen_text_line(text, "  mnt_valid_d = 1'b1;");
    stcgen_text_line(text, "  mnt_ctrl_d  = pwdata_i%s;", s);
    stcgen_text_line(text, "end");
    stcgen_text_line(text, "R_CNT_CLEAR: cnt_clear_d = pwdata_i[0];");
    stcgen_text_line(text, "default: ;  // read-only, or the tuner's (tun_we_o)");
    stcgen_text_out(text);
    stcgen_text_line(text, "endcase");
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_blank(text);

    /* Flops with the one reset style. */
    stcgen_text_line(text, "always @(posedge clk_i or negedge rst_ni) begin");
    stcgen_text_in(text);
    stcgen_text_line(text, "if (!rst_ni) begin");
    stcgen_text_in(text);
    stcgen_text_line(text, "reg_q        <= R_NONE;");
    stcgen_text_line(text, "err_q        <= 1'b0;");
    stcgen_text_line(text, "cfg_valid_q  <= 1'b0;");
    stcgen_text_line(text, "cfg_wait_q   <= 1'b0;");
    stcgen_text_line(text, "cfg_err_q    <= 1'b0;");
    stcgen_text_line(text, "cfg_req_q    <= %u'h%" PRIx32 ";  // the reset configuration", cfg_bits,
                     config->reset);
    stcgen_text_line(text, "mnt_valid_q  <= 1'b0;");
    stcgen_text_line(text, "mnt_wait_q   <= 1'b0;");
    stcgen_text_line(text, "mnt_ctrl_q   <= %u'd0;", ctrl_bits);
    stcgen_text_line(text, "maint_addr_q <= %u'd0;", map.mnt_addr_bits);
    stcgen_text_line(text, "cnt_sel_q    <= %u'd0;", map.cnt_sel_bits);
    stcgen_text_line(text, "cnt_clear_q  <= 1'b0;");
    if (cnt_hi) {
        stcgen_text_line(text, "cnt_hi_q     <= %u'd0;", map.counter_bits - 32);
    }
    if (tuner) {
        stcgen_text_line(text, "tun_addr_q   <= %u'd0;", map.tun_addr_bits);
    }
    stcgen_text_out(text);
    stcgen_text_line(text, "end else begin");
    stcgen_text_in(text);
    static const char *const updates[] = {
        "reg_q        <= reg_d;",
        "err_q        <= err_d;",
        "cfg_valid_q  <= cfg_valid_d;",
        "cfg_wait_q   <= cfg_wait_d;",
        "cfg_err_q    <= cfg_err_d;",
        "cfg_req_q    <= cfg_req_d;",
        "mnt_valid_q  <= mnt_valid_d;",
        "mnt_wait_q   <= mnt_wait_d;",
        "mnt_ctrl_q   <= mnt_ctrl_d;",
        "maint_addr_q <= maint_addr_d;",
        "cnt_sel_q    <= cnt_sel_d;",
        "cnt_clear_q  <= cnt_clear_d;",
        NULL,
    };
    stcgen_text_lines(text, updates);
    if (cnt_hi) {
        stcgen_text_line(text, "cnt_hi_q     <= cnt_hi_d;");
    }
    if (tuner) {
        stcgen_text_line(text, "tun_addr_q   <= tun_addr_d;");
    }
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_blank(text);

    /* Read multiplexer. */
    stcgen_text_line(text, "// Read data: selected by reg_q (R_NONE outside an access: 0).");
    stcgen_text_line(text, "reg  [31:0]  rdata;");
    stcgen_text_line(text, "always @(*) begin");
    stcgen_text_in(text);
    stcgen_text_line(text, "case (reg_q)");
    stcgen_text_in(text);
    for (size_t index = 0; index < map.count; index++) {
        const stcgen_apb_reg *reg = &map.reg[index];
        if (!read_expr(expr, sizeof expr, reg, &map)) {
            text->failed = true;
            return;
        }
        stcgen_text_line(text, "R_%-13s: rdata = %s;", reg->name, expr);
    }
    stcgen_text_line(text, "default%*s: rdata = 32'd0;", 8, "");
    stcgen_text_out(text);
    stcgen_text_line(text, "endcase");
    stcgen_text_out(text);
    stcgen_text_line(text, "end");
    stcgen_text_blank(text);

    stcgen_text_line(text, "assign pready_o  = 1'b1;");
    stcgen_text_line(text, "assign prdata_o  = rdata;");
    stcgen_text_line(text, "assign pslverr_o = err_q;");
    stcgen_text_blank(text);
    stcgen_text_line(text, "assign cfg_valid_o = cfg_valid_q;");
    for (size_t index = 0; index < config->fields; index++) {
        char name[32];
        lower(name, sizeof name, config->field[index].name);
        slice(s, sizeof s, config->field[index].lsb, config->field[index].width);
        stcgen_text_line(text, "assign cfg_%s_o = cfg_req_q%s;", name, s);
    }
    stcgen_text_line(text, "assign mnt_valid_o = mnt_valid_q;");
    for (size_t index = 0; index < ctrl->fields; index++) {
        char name[32];
        lower(name, sizeof name, ctrl->field[index].name);
        slice(s, sizeof s, ctrl->field[index].lsb, ctrl->field[index].width);
        stcgen_text_line(text, "assign mnt_%s_o = mnt_ctrl_q%s;", name, s);
    }
    stcgen_text_line(text, "assign mnt_addr_o  = maint_addr_q;");
    stcgen_text_line(text, "assign cnt_sel_o   = cnt_sel_q;");
    stcgen_text_line(text, "assign cnt_clear_o = cnt_clear_q;");
    if (tuner) {
        stcgen_text_line(text, "assign tun_we_o    = wr && (reg_q == R_TUNER);");
        stcgen_text_line(text, "assign tun_addr_o  = tun_addr_q;");
        stcgen_text_line(text, "assign tun_wdata_o = pwdata_i;");
    }
    stcgen_text_out(text);
    stcgen_text_blank(text);
    stcgen_text_line(text, "endmodule");
    stcgen_text_blank(text);
    stcgen_text_line(text, "`resetall");
}
