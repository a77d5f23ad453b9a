/*
 * emit_ctrl.c - stc_cache_ctrl, the cache controller and datapath
 * (docs/ARCHITECTURE.md sections 3-10, cycles in section 15).
 *
 * The module is the template gen/stc_cache_ctrl.v.in (kept as C strings in
 * build/gen/ctrl_template.inc, made by gen/mkinc.sh in the Makefile) with @NAME@ tokens, each
 * replaced by a literal computed here from stcgen_params: every width is
 * baked in, the template holds no geometry of its own.
 */
#include "emit.h"
#include "tokens.h"

#include <stdio.h>
#include <string.h>

static const char *const ctrl_template[] = {
#include "ctrl_template.inc"
    NULL,
};

/* "{N}'d0, " zero padding of pad bits, or nothing. */
static void set_pad(stcgen_tokens *tokens, const char *name, unsigned pad)
{
    if (pad) {
        stcgen_tokens_set(tokens, name, "%u'd0, ", pad);
    } else {
        stcgen_tokens_set(tokens, name, "%s", "");
    }
}

static void make_tokens(stcgen_tokens *tokens, const stcgen_params *params)
{
    const stc_geometry *g = &params->geometry;
    const unsigned b = g->banks, rb = g->row_bits, tb = g->tag_bits, a = g->addr_bits;
    const unsigned ob = g->offset_bits, lb = params->line_bits, p = g->line_bytes;
    const unsigned bb = g->bank_bits ? g->bank_bits : 1;
    const unsigned wib = ob > 2 ? ob - 2 : 1;
    const unsigned cb = params->counter_bits;
    const unsigned rows = g->rows;
    const unsigned taglow = tb < 32 ? tb : 32;
    stcgen_tokens_init(tokens);
    stcgen_tokens_set(tokens, "B", "%u", b);
    stcgen_tokens_set(tokens, "BM1", "%u", b - 1);
    stcgen_tokens_set(tokens, "BB", "%u", bb);
    stcgen_tokens_set(tokens, "BBM1", "%u", bb - 1);
    stcgen_tokens_set(tokens, "LOGB", "%u", g->bank_bits);
    stcgen_tokens_set(tokens, "BB2M1", "%u", b * b - 1);
    stcgen_tokens_set(tokens, "R", "%u", rows);
    stcgen_tokens_set(tokens, "RM1", "%u", rows - 1);
    /* The per-row arrays are reset by two nested loops of RRST (at most 64)
     * iterations: Verilator unrolls a loop of non-blocking array writes, which
     * it must, only up to 64 iterations (--unroll-count), so rows up to 4096
     * need no option. */
    stcgen_tokens_set(tokens, "RRST", "%u", rows < 64 ? rows : 64u);
    stcgen_tokens_set(tokens, "RB", "%u", rb);
    stcgen_tokens_set(tokens, "RBM1", "%u", rb - 1);
    stcgen_tokens_set(tokens, "TB", "%u", tb);
    stcgen_tokens_set(tokens, "TBM1", "%u", tb - 1);
    stcgen_tokens_set(tokens, "BTBM1", "%u", b * tb - 1);
    stcgen_tokens_set(tokens, "AW", "%u", a - 2);
    stcgen_tokens_set(tokens, "AWM1", "%u", a - 3);
    stcgen_tokens_set(tokens, "OB", "%u", ob);
    stcgen_tokens_set(tokens, "LNB", "%u", a - ob);
    stcgen_tokens_set(tokens, "LNBM1", "%u", a - ob - 1);
    stcgen_tokens_set(tokens, "LB", "%u", lb);
    stcgen_tokens_set(tokens, "LBM1", "%u", lb - 1);
    stcgen_tokens_set(tokens, "BLBM1", "%u", b * lb - 1);
    stcgen_tokens_set(tokens, "P", "%u", p);
    stcgen_tokens_set(tokens, "PM1", "%u", p - 1);
    stcgen_tokens_set(tokens, "BPL", "%u", g->beats_per_line);
    stcgen_tokens_set(tokens, "WIB", "%u", wib);
    stcgen_tokens_set(tokens, "WIBM1", "%u", wib - 1);
    stcgen_tokens_set(tokens, "LASTBEAT", "%u'd%u", wib, g->beats_per_line - 1);
    stcgen_tokens_set(tokens, "CB", "%u", cb);
    stcgen_tokens_set(tokens, "CBM1", "%u", cb - 1);
    stcgen_tokens_set(tokens, "ROWHI", "%u", g->bank_shift - 3);
    stcgen_tokens_set(tokens, "ROWLO", "%u", ob - 2);
    stcgen_tokens_set(tokens, "TAGLO", "%u", g->bank_shift - 2);
    stcgen_tokens_set(tokens, "TAGLOWHI", "%u", taglow - 1);
    stcgen_tokens_set(tokens, "TAGLOWW", "%u", taglow);
    set_pad(tokens, "TAGPAD", 32 - taglow);
    set_pad(tokens, "PPAD", p - 4);
    set_pad(tokens, "CPAD", cb + 1 - 6);
    set_pad(tokens, "SUBPAD", rb - 2);
    stcgen_tokens_set(tokens, "NOWP", "%s", params->way_prediction ? "1'b0" : "1'b1");
    if (ob > 2) {
        stcgen_tokens_set(tokens, "REQ_WORD", "cur_addr[%u:0]", ob - 3);
    } else {
        stcgen_tokens_set(tokens, "REQ_WORD", "%s", "1'b0");
    }
    /* Reset recency: bank i more recent than bank j iff i < j; bit i*B+j. */
    char reset[STCGEN_TOKEN_VALUE_MAX];
    int used = snprintf(reset, sizeof reset, "%u'b", b * b);
    for (unsigned bit = b * b; bit-- > 0;) {
        unsigned i = bit / b, j = bit % b;
        reset[used++] = i < j ? '1' : '0';
        if (bit % b == 0 && bit) {
            reset[used++] = '_';
        }
    }
    reset[used] = '\0';
    stcgen_tokens_set(tokens, "REC_RESET", "%s", reset);
    const stc_config *start = &params->reset;
    stcgen_tokens_set(tokens, "RESET_KLOG", "%u", stc_log2(start->banks_on));
    stcgen_tokens_set(tokens, "RESET_ALOG", "%u", stc_log2(start->ways));
    stcgen_tokens_set(tokens, "RESET_LLOG", "%u", stc_log2(start->sublines));
    stcgen_tokens_set(tokens, "RESET_WP", "%u", start->way_predict ? 1u : 0u);
    stcgen_tokens_set(tokens, "FIXED", "%s", params->fixed ? "1'b1" : "1'b0");
}

/* Deliberate bugs for `stcgen --debug-break NAME` (never on by default):
 * each replaces one template line, found by exact match, with a wrong one.
 * The lockstep harness (tb/) must catch every one of them. If the template
 * line changes, the option fails with a message rather than break nothing. */
typedef struct {
    const char *name;
    const char *what;
    const char *line;        /* the template line, exactly */
    const char *replacement; /* the broken line */
} ctrl_break;

static const ctrl_break ctrl_breaks[] = {
    {"skip-writeback", "a miss drops its dirty victim line without writing it back",
     "        if (!present && valid_sub[victim_q] && dirty_sub[victim_q]) begin",
     "        if (1'b0) begin  // BROKEN: skip-writeback"},
    {"tag-bit", "the tag compare ignores the most significant tag bit",
     "      assign tag_eq[gb]  = (tag_rdata_i[gb*@TB@ +: @TB@] == cur_tag);",
     "      assign tag_eq[gb]  = (tag_rdata_i[gb*@TB@ +: @TBM1@] == cur_tag[@TBM1@-1:0]);"
     "  // BROKEN: tag-bit"},
    {"lru-order", "the victim is the most recent candidate instead of the least",
     "      assign lru_oh[gb]  = cand[gb] && ((rec_r0_t[gb*@B@ +: @B@] | ~cand | self) == {@B@{1'b1}});",
     "      assign lru_oh[gb]  = cand[gb] && ((rec_r0[gb*@B@ +: @B@] | ~cand | self) == {@B@{1'b1}});"
     "  // BROKEN: lru-order"},
    {"no-invalidate", "the walk leaves clean lines of banks going off valid: stale after power-up",
     "          valid_wd = valid_walk & ~walk_drop;",
     "          valid_wd = valid_walk & ~(walk_drop & on_mask);  // BROKEN: no-invalidate"},
    {"store-lane", "a store writes its bytes one word too high in the line",
     "  wire [@PM1@:0] store_mask = {@PPAD@req_be_q} << (req_word * 4);",
     "  wire [@PM1@:0] store_mask = {@PPAD@req_be_q} << (req_word * 4 + 4);  // BROKEN: store-lane"},
    {"store-clean", "a store hit does not mark the line dirty",
     "            dirty_wd[hit_idx]   = 1'b1;",
     "            dirty_wd[hit_idx]   = 1'b0;  // BROKEN: store-clean"},
};

static const ctrl_break *find_break(const char *name)
{
    for (size_t index = 0; name && index < sizeof ctrl_breaks / sizeof ctrl_breaks[0]; index++) {
        if (strcmp(ctrl_breaks[index].name, name) == 0) {
            return &ctrl_breaks[index];
        }
    }
    return NULL;
}

int stcgen_ctrl_break_check(const char *name, char *err, size_t err_len)
{
    const ctrl_break *broken = find_break(name);
    if (!broken) {
        size_t used = (size_t)snprintf(err, err_len, "unknown (known:");
        for (size_t index = 0; index < sizeof ctrl_breaks / sizeof ctrl_breaks[0]; index++) {
            if (used < err_len) {
                used += (size_t)snprintf(err + used, err_len - used, " %s", ctrl_breaks[index].name);
            }
        }
        if (used < err_len) {
            snprintf(err + used, err_len - used, ")");
        }
        return -1;
    }
    unsigned found = 0;
    for (const char *const *line = ctrl_template; *line; line++) {
        found += strcmp(*line, broken->line) == 0;
    }
    if (found != 1) {
        snprintf(err, err_len,
                 "its template line occurs %u times in gen/stc_cache_ctrl.v.in, not once "
                 "(update ctrl_breaks in gen/emit_ctrl.c)",
                 found);
        return -1;
    }
    return 0;
}

void stcgen_emit_ctrl(stcgen_text *text, const stcgen_file *file, const stcgen_params *params)
{
    stcgen_tokens tokens;
    make_tokens(&tokens, params);
    stcgen_text_header(text, &stcgen_comment_slashes, file->name, file->title, params);
    stcgen_text_blank(text);
    const ctrl_break *broken = find_break(params->debug_break);
    if (broken) {
        stcgen_text_raw(text, "// BROKEN on purpose (--debug-break %s): %s.\n", broken->name,
                        broken->what);
    }
    for (const char *const *line = ctrl_template; *line; line++) {
        stcgen_tokens_emit_line(text, &tokens,
                   broken && strcmp(*line, broken->line) == 0 ? broken->replacement : *line);
    }
}
