/*
 * emit_ctrl.c - stc_cache_ctrl, the cache controller and datapath
 * (docs/ARCHITECTURE.md sections 3-10, cycles in section 15).
 *
 * The module is the template gen/stc_cache_ctrl.v.in (kept as C strings in
 * build/gen/ctrl_template.inc, made by gen/mkinc.sh in the Makefile) with @NAME@ tokens, each
 * replaced by a literal computed here from stcgen_params: every width is
 * baked in, the template holds no geometry of its own.
 *
 * With --protocol on the atomic bus a D-cache controller takes part in
 * coherence (ARCHITECTURE.md 19.5). The template marks those lines:
 * between "//@if NAME" and "//@endif" (an "//@else" between them) lines
 * are written only when NAME holds, and between "//@nest NAME" and
 * "//@endnest" they move two columns right when it does (a block the
 * coherent build wraps in an if). NAME is COH (coherence), EXCL (its
 * MESI and MOESI excl bits) or MOVES (the walk moves lines, section 7). Without --protocol the output is the
 * controller it always was, byte for byte.
 */
#include "debug_break.h"
#include "emit.h"
#include "tokens.h"

#include <stdbool.h>
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

/* Whether the controller takes part in coherence, and keeps excl bits. */
static bool coherent(const stcgen_params *params)
{
    return params->coherence && params->coh_bus == STC_COH_BUS_ATOMIC;
}

static bool has_excl(const stcgen_params *params)
{
    return coherent(params) && params->coh_protocol != STC_COH_MSI;
}

/* The coherence tokens: the state code of a valid slot from its dirty and
 * excl bits (hit_dirty, hit_excl), the code of I, and whether the code
 * fill_next is E or M, all from the protocol's own table. */
static void make_coherence_tokens(stcgen_tokens *tokens, const stcgen_params *params)
{
    const unsigned sb = params->coh_state_bits;
    const stc_coh_table *table = &params->coh_table;
    stcgen_tokens_set(tokens, "SBM1", "%u", sb - 1);
    stcgen_tokens_set(tokens, "SBN", "%u", sb);
    stcgen_tokens_set(tokens, "SB4M1", "%u", 4 * sb - 1);
    stcgen_tokens_set(tokens, "SBX2", "%u", 2 * sb + 2); /* 3 flags and two codes */
    stcgen_tokens_set(tokens, "COH_CODE_I", "%u'd%u", sb, stc_coh_state_code(table, STC_COH_I));
    const unsigned s = stc_coh_state_code(table, STC_COH_S);
    const unsigned m = stc_coh_state_code(table, STC_COH_M);
    stcgen_tokens_set(tokens, "COH_CODE_S", "%u'd%u", sb, s);
    stcgen_tokens_set(tokens, "COH_CODE_M", "%u'd%u", sb, m);
    if (params->coh_protocol != STC_COH_MSI)
        stcgen_tokens_set(tokens, "COH_CODE_E", "%u'd%u", sb,
                          stc_coh_state_code(table, STC_COH_E));
    /* a snooped line's new state snp_next_p (its field of snp_next_i): valid, dirty (M, O), excl (E, M) */
    stcgen_tokens_set(tokens, "COH_NEXT_VALID", "snp_next_p != %u'd%u", sb,
                      stc_coh_state_code(table, STC_COH_I));
    if (params->coh_protocol == STC_COH_MOESI)
        stcgen_tokens_set(tokens, "COH_NEXT_DIRTY", "(snp_next_p == %u'd%u) || (snp_next_p == %u'd%u)",
                          sb, m, sb, stc_coh_state_code(table, STC_COH_O));
    else
        stcgen_tokens_set(tokens, "COH_NEXT_DIRTY", "snp_next_p == %u'd%u", sb, m);
    if (params->coh_protocol != STC_COH_MSI)
        stcgen_tokens_set(tokens, "COH_NEXT_EXCL", "(snp_next_p == %u'd%u) || (snp_next_p == %u'd%u)",
                          sb, stc_coh_state_code(table, STC_COH_E), sb, m);
    switch (params->coh_protocol) {
    case STC_COH_MSI:
        stcgen_tokens_set(tokens, "COH_HIT_CODE", "hit_dirty ? %u'd%u : %u'd%u", sb, m, sb, s);
        stcgen_tokens_set(tokens, "COH_FILL_EXCL", "%s", "1'b0");
        break;
    case STC_COH_MESI: {
        const unsigned e = stc_coh_state_code(table, STC_COH_E);
        stcgen_tokens_set(tokens, "COH_HIT_CODE", "hit_dirty ? %u'd%u : (hit_excl ? %u'd%u : %u'd%u)",
                          sb, m, sb, e, sb, s);
        stcgen_tokens_set(tokens, "COH_FILL_EXCL", "(fill_next == %u'd%u) || (fill_next == %u'd%u)",
                          sb, e, sb, m);
        break;
    }
    default: {
        const unsigned e = stc_coh_state_code(table, STC_COH_E);
        const unsigned o = stc_coh_state_code(table, STC_COH_O);
        stcgen_tokens_set(tokens, "COH_HIT_CODE",
                          "hit_dirty ? (hit_excl ? %u'd%u : %u'd%u) : (hit_excl ? %u'd%u : %u'd%u)",
                          sb, m, sb, o, sb, e, sb, s);
        stcgen_tokens_set(tokens, "COH_FILL_EXCL", "(fill_next == %u'd%u) || (fill_next == %u'd%u)",
                          sb, e, sb, m);
        break;
    }
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
    const unsigned taglow = tb < 32 ? tb : 32;
    stcgen_tokens_init(tokens);
    stcgen_tokens_set(tokens, "B", "%u", b);
    stcgen_tokens_set(tokens, "BM1", "%u", b - 1);
    stcgen_tokens_set(tokens, "BB", "%u", bb);
    stcgen_tokens_set(tokens, "BBM1", "%u", bb - 1);
    stcgen_tokens_set(tokens, "BB4M1", "%u", 4 * bb - 1);
    stcgen_tokens_set(tokens, "BBB", "%u", b * bb);
    stcgen_tokens_set(tokens, "BBBM1", "%u", b * bb - 1);
    stcgen_tokens_set(tokens, "LOGB", "%u", g->bank_bits);
    stcgen_tokens_set(tokens, "BB2", "%u", b * b);
    stcgen_tokens_set(tokens, "BB2M1", "%u", b * b - 1);
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
    stcgen_tokens_set(tokens, "CBM2", "%u", cb - 2);
    stcgen_tokens_set(tokens, "CHW", "%u", cb - 6); /* a counter's bits above its low 6 */
    /* a split counter's bits above its low 8, in the counter register file */
    stcgen_tokens_set(tokens, "CSW", "%u", cb - 8);
    stcgen_tokens_set(tokens, "CSWM1", "%u", cb - 9);
    stcgen_tokens_set(tokens, "ROWHI", "%u", g->bank_shift - 3);
    stcgen_tokens_set(tokens, "ROWLO", "%u", ob - 2);
    stcgen_tokens_set(tokens, "TAGLO", "%u", g->bank_shift - 2);
    stcgen_tokens_set(tokens, "TAGLOWHI", "%u", taglow - 1);
    stcgen_tokens_set(tokens, "TAGLOWW", "%u", taglow);
    set_pad(tokens, "TAGPAD", 32 - taglow);
    set_pad(tokens, "PPAD", p - 4);
    set_pad(tokens, "SUBPAD", rb - 2);
    stcgen_tokens_set(tokens, "NOWP", "%s", params->way_prediction ? "1'b0" : "1'b1");
    if (ob > 2) {
        stcgen_tokens_set(tokens, "REQ_WORD", "cur_addr[%u:0]", ob - 3);
    } else {
        stcgen_tokens_set(tokens, "REQ_WORD", "%s", "1'b0");
    }
    /* Recency: one bit per pair of banks (i < j: 1 = i more recent), at
     * least one bit so that a one-bank cache still has a declared array. The
     * reset order, bank i more recent than bank j iff i < j, sets every pair. */
    const unsigned pairs = b * (b - 1) / 2;
    const unsigned rec_bits = pairs ? pairs : 1u;
    stcgen_tokens_set(tokens, "RECB", "%u", rec_bits);
    stcgen_tokens_set(tokens, "RECBM1", "%u", rec_bits - 1);
    stcgen_tokens_set(tokens, "REC_RESET", "{%u{1'b1}}", rec_bits);
    /* The row-state register file: a word per aligned group of 4 rows (the
     * rows a logical line can span), at least 2 words (its legal depth);
     * its width (valid, recency, a D-cache's dirty bits) follows READ_ONLY
     * inside the template. */
    const unsigned group_bits = rb > 3 ? rb - 2 : 1u;
    stcgen_tokens_set(tokens, "GRPB", "%u", group_bits);
    stcgen_tokens_set(tokens, "GRPBM1", "%u", group_bits - 1);
    stcgen_tokens_set(tokens, "GROUPS", "%u", 1u << group_bits);
    /* S_INIT writes every row-state word, one a cycle; a coherent
     * controller also every row of the snoop port's array (19.5), so it
     * counts rows and writes each word four times. */
    if (coherent(params)) {
        stcgen_tokens_set(tokens, "INITB", "%u", rb);
        stcgen_tokens_set(tokens, "INITBM1", "%u", rb - 1);
        stcgen_tokens_set(tokens, "INIT_WHAT", "%s", "row");
        stcgen_tokens_set(tokens, "INIT_CYCLES", "%u", 1u << rb);
        if (rb > 2)
            stcgen_tokens_set(tokens, "INIT_GROUP", "init_q[%u:2]", rb - 1);
        else
            stcgen_tokens_set(tokens, "INIT_GROUP", "%s", "1'b0");
    } else {
        stcgen_tokens_set(tokens, "INITB", "%u", group_bits);
        stcgen_tokens_set(tokens, "INITBM1", "%u", group_bits - 1);
        stcgen_tokens_set(tokens, "INIT_WHAT", "%s", "group");
        stcgen_tokens_set(tokens, "INIT_CYCLES", "%u", 1u << group_bits);
        stcgen_tokens_set(tokens, "INIT_GROUP", "%s", "init_q");
    }
    if (rb > 2) {
        stcgen_tokens_set(tokens, "GRP_SNP", "snp_row_i[%u:2]", rb - 1);
        stcgen_tokens_set(tokens, "GRP_PD", "pd_row[%u:2]", rb - 1);
        stcgen_tokens_set(tokens, "GRP_WIDTHM1", "%u", rb - 3);
        stcgen_tokens_set(tokens, "GRP_CUR", "cur_row[%u:2]", rb - 1);
        stcgen_tokens_set(tokens, "GRP_WALK", "walk_row_q[%u:2]", rb - 1);
        stcgen_tokens_set(tokens, "GRP_ACC", "acc_row[%u:2]", rb - 1);
    } else {
        stcgen_tokens_set(tokens, "GRP_SNP", "%s", "1'b0");
        stcgen_tokens_set(tokens, "GRP_PD", "%s", "1'b0");
        stcgen_tokens_set(tokens, "GRP_WIDTHM1", "%u", 0u);
        stcgen_tokens_set(tokens, "GRP_CUR", "%s", "1'b0");
        stcgen_tokens_set(tokens, "GRP_WALK", "%s", "1'b0");
        stcgen_tokens_set(tokens, "GRP_ACC", "%s", "1'b0");
    }
    stcgen_tokens_set(tokens, "RSSEED", "%u", STCGEN_ROWSTATE_SEED);
    stcgen_tokens_set(tokens, "CNTSEED", "%u", STCGEN_COUNTER_SEED);
    stcgen_tokens_set(tokens, "CNTSEED2", "%u", STCGEN_COUNTER_SEED + 1u);
    const stc_config *start = &params->reset;
    stcgen_tokens_set(tokens, "RESET_KLOG", "%u", stc_log2(start->banks_on));
    stcgen_tokens_set(tokens, "RESET_ALOG", "%u", stc_log2(start->ways));
    stcgen_tokens_set(tokens, "RESET_LLOG", "%u", stc_log2(start->sublines));
    stcgen_tokens_set(tokens, "RESET_WP", "%u", start->way_predict ? 1u : 0u);
    stcgen_tokens_set(tokens, "FIXED", "%s", params->fixed ? "1'b1" : "1'b0");
    /* a store's slot: the hit's, or (coherent) an upgraded store's */
    stcgen_tokens_set(tokens, "ST_BANK", "%s", coherent(params) ? "st_bank" : "hit_idx");
    if (coherent(params)) {
        make_coherence_tokens(tokens, params);
    }
}

/* The template's markers (above); //@if blocks nest. */
enum { MAX_IF_DEPTH = 4 };
typedef struct {
    bool coh, excl, moves;       /* the conditions' values */
    unsigned depth;              /* open //@if blocks */
    bool taken[MAX_IF_DEPTH];    /* each one's condition */
    bool in_else[MAX_IF_DEPTH];  /* past its //@else */
    bool nest;                   /* the current lines move right */
} template_filter;

static bool condition(const template_filter *filter, const char *name)
{
    if (strcmp(name, "MOVES") == 0) {
        return filter->moves;
    }
    return strcmp(name, "EXCL") == 0 ? filter->excl : filter->coh;
}

/* Whether the current lines are written: every open block's branch holds. */
static bool writing(const template_filter *filter)
{
    for (unsigned level = 0; level < filter->depth; level++) {
        if (filter->taken[level] == filter->in_else[level]) {
            return false;
        }
    }
    return true;
}

/* Whether line is a marker (consumed), updating the filter. The template
 * is the project's own, so a malformed nesting is a programming error:
 * stcgen's template test (tests/rtl-checks.sh) sees its output. */
static bool marker(template_filter *filter, const char *line)
{
    while (*line == ' ') {
        line++;
    }
    if (strncmp(line, "//@", 3) != 0) {
        return false;
    }
    line += 3;
    if (strncmp(line, "if ", 3) == 0 && filter->depth < MAX_IF_DEPTH) {
        filter->taken[filter->depth] = condition(filter, line + 3);
        filter->in_else[filter->depth] = false;
        filter->depth++;
    } else if (strcmp(line, "else") == 0 && filter->depth > 0) {
        filter->in_else[filter->depth - 1] = true;
    } else if (strcmp(line, "endif") == 0 && filter->depth > 0) {
        filter->depth--;
    } else if (strncmp(line, "nest ", 5) == 0) {
        filter->nest = condition(filter, line + 5);
    } else if (strcmp(line, "endnest") == 0) {
        filter->nest = false;
    }
    return true;
}

const char *const *stcgen_ctrl_template_lines(void)
{
    return ctrl_template;
}

void stcgen_emit_ctrl(stcgen_text *text, const stcgen_file *file, const stcgen_params *params)
{
    stcgen_tokens tokens;
    make_tokens(&tokens, params);
    stcgen_text_header(text, &stcgen_comment_slashes, file->name, file->title, params);
    stcgen_text_blank(text);
    const char *what = stcgen_debug_break_what(params->debug_break, STCGEN_BREAK_CTRL);
    if (what) {
        stcgen_text_raw(text, "// BROKEN on purpose (--debug-break %s): %s.\n", params->debug_break,
                        what);
    }
    template_filter filter = {
        .coh = coherent(params), .excl = has_excl(params), .moves = params->walk_moves};
    for (const char *const *line = ctrl_template; *line; line++) {
        if (marker(&filter, *line) || !writing(&filter)) {
            continue;
        }
        const char *body = stcgen_debug_break_line(params->debug_break, STCGEN_BREAK_CTRL, *line);
        if (filter.nest && body[0] != '\0') {
            char moved[STCGEN_TEMPLATE_LINE_MAX];
            snprintf(moved, sizeof moved, "  %s", body);
            stcgen_tokens_emit_line(text, &tokens, moved);
        } else {
            stcgen_tokens_emit_line(text, &tokens, body);
        }
    }
}
