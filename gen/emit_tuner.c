/*
 * emit_tuner.c - stc_tuner, the hardware tuner (docs/ARCHITECTURE.md
 * section 16; cycle model ref/tuner_hw.c).
 *
 * The module is the template gen/stc_tuner.v.in (C strings in
 * build/gen/tuner_template.inc, made by gen/mkinc.sh). Three kinds of
 * marks are filled from stcgen_params:
 * - @NAME@ tokens inside a line: a literal (widths, register indices,
 *   the coefficients' reset vector);
 * - a line starting with @IF_SERIAL@, @IF_ARRAY@, @IF_RADIX@ (radix 4 or
 *   16), @IF_REGS@, @IF_CONST@, @IF_FULL@, @IF_LEAN@, @IF_TRIG@ or
 *   @IF_NOTRIG@ (one or several): kept (without the marks) only for that
 *   multiplier, coefficient, register-block or trigger option;
 * - a line holding only @@NAME@@: replaced by generated lines (the
 *   coefficient table and the multiplexers over it).
 */
#include "debug_break.h"
#include "emit.h"
#include "tokens.h"

#include <stdio.h>
#include <string.h>

static const char *const tuner_template[] = {
#include "tuner_template.inc"
    NULL,
};

/* {16'dC(N-1), ..., 16'dC0}: the coefficient vector, register 0 lowest. */
static void reset_vector(const stcgen_params *params, char *buf, size_t len)
{
    size_t used = (size_t)snprintf(buf, len, "{");
    for (size_t index = params->tuner_coefs; index-- > 0 && used < len;) {
        used += (size_t)snprintf(buf + used, len - used, "16'd%u%s",
                                 params->tuner_coef_reset[index], index ? ", " : "}");
    }
}

static void make_tokens(const stcgen_params *params, stcgen_tokens *tokens)
{
    const stc_geometry *g = &params->geometry;
    stcgen_tokens_init(tokens);
    stcgen_tokens_set(tokens, "LOGB", "%u", g->bank_bits);
    stcgen_tokens_set(tokens, "COEFBITSM1", "%zu", 16 * params->tuner_coefs - 1);
    stcgen_tokens_set(tokens, "MISS_BASE", "%zu", stc_tuner_coef_miss(g, 0));
    stcgen_tokens_set(tokens, "STATIC_BASE", "%zu", stc_tuner_coef_static(g, 0));
    stcgen_tokens_set(tokens, "STALL_IDX", "%zu", g->banks > 1 ? stc_tuner_coef_stall(g) : (size_t)63);
    stcgen_tokens_set(tokens, "WP_BUILT", "%s", params->way_prediction ? "1'b1" : "1'b0");
    bool radix = params->tuner_mult >= STC_TUNER_MULT_RADIX4;
    stcgen_tokens_set(tokens, "BUILD_WORD", "%zu",
        params->tuner_coefs | (params->tuner_mult == STC_TUNER_MULT_SERIAL ? 1u : 0u) << 8 |
            (params->tuner_const_coefs ? 1u : 0u) << 9 | (params->way_prediction ? 1u : 0u) << 10 |
            (radix ? params->tuner_mult : 0u) << 12 | (params->tuner_lean_regs ? 1u : 0u) << 15 |
            (params->tuner_no_triggers ? 1u : 0u) << 16);
    stcgen_tokens_set(tokens, "LEAN_NOTE", "%s",
                      params->tuner_lean_regs
                          ? "; lean (--tuner-regs lean): only STATUS [3:0], CONFIG [8:0],"
                            " TUNED [15:0] of 4-11; COEF, ENERGY, BEST, COMPUTE, COUNT_A/B read 0"
                          : "");
    static const char *const mult_what[4] = {
        "array: one cycle per step", "serial: shift-and-add, 16 cycles per step",
        "radix 4: 2 bits a cycle, 8 cycles per step",
        "radix 16: 4 bits a cycle, 4 cycles per step"};
    stcgen_tokens_set(tokens, "MULT_WHAT", "%s", mult_what[params->tuner_mult & 3]);
    stcgen_tokens_set(tokens, "BUILD_RADIX_NOTE", "%s",
                      radix || params->tuner_lean_regs || params->tuner_no_triggers
                          ? " [13:12] radix multiplier (2 radix 4, 3 radix 16) [15] lean"
                          : "");
    /* RETUNE and its window count: 16 bits, 8 in the lean register block */
    unsigned retune_bits = params->tuner_lean_regs ? STC_TUNER_LEAN_RETUNE_BITS : 16;
    stcgen_tokens_set(tokens, "RTW", "%u", retune_bits);
    stcgen_tokens_set(tokens, "RTW1", "%u", retune_bits + 1);
    stcgen_tokens_set(tokens, "RTM1", "%u", retune_bits - 1);
    stcgen_tokens_set(tokens, "RTPAD", "%u", 32 - retune_bits);
    stcgen_tokens_set(tokens, "RTMAX", "%x", (1u << retune_bits) - 1);
    if (radix) {
        /* the radix multiplier: digit bits r, 16 / r cycles a step */
        unsigned r = stc_tuner_hw_digit_bits(params->tuner_mult);
        unsigned steps = 16 / r, mbit_bits = r == 2 ? 3 : 2;
        stcgen_tokens_set(tokens, "RADIX", "%u", 1u << r);
        stcgen_tokens_set(tokens, "DIGITBITS", "%u", r);
        stcgen_tokens_set(tokens, "DIGITM1", "%u", r - 1);
        stcgen_tokens_set(tokens, "DIGITZEROS", "%s", r == 2 ? "1'b0" : "2'b00");
        stcgen_tokens_set(tokens, "STEPCYCLES", "%u", steps);
        stcgen_tokens_set(tokens, "PPM1", "%u", 16 + r - 1);
        stcgen_tokens_set(tokens, "PPPAD", "%u", 16 - r);
        stcgen_tokens_set(tokens, "MBITW", "%u", mbit_bits);
        stcgen_tokens_set(tokens, "MBITM1", "%u", mbit_bits - 1);
        stcgen_tokens_set(tokens, "MBITLAST", "%u", steps - 1);
    }
    stcgen_tokens_set(tokens, "COEF_WHAT", "%s",
        params->tuner_const_coefs ? "constants" : "registers, loadable by software");
    stcgen_tokens_set(tokens, "COEF_ACCESS", "%s",
        params->tuner_const_coefs ? "read only: constants" : "read/write");
    stcgen_tokens_set(tokens, "UNIT", "%.10g", params->tuner_nj_per_unit);
    char vector[STCGEN_TOKEN_VALUE_MAX];
    reset_vector(params, vector, sizeof vector);
    stcgen_tokens_set(tokens, "COEF_RESET", "%s", vector);
}

/* The generated blocks. */
static void emit_block(stcgen_text *text, const stcgen_params *params, const char *name)
{
    const stc_geometry *g = &params->geometry;
    char coef_name[32];
    if (strcmp(name, "COEF_NAMES") == 0) {
        for (size_t index = 0; index < params->tuner_coefs; index++) {
            stc_tuner_coef_name(g, index, coef_name, sizeof coef_name);
            stcgen_text_raw(text, "//   %2zu %-12s reset %u\n", index, coef_name,
                            params->tuner_coef_reset[index]);
        }
    } else if (strcmp(name, "COEF_AT") == 0) {
        for (size_t index = 0; index < params->tuner_coefs; index++) {
            stcgen_text_raw(text, "        6'd%zu: coef_at = vec[%zu:%zu];\n", index,
                            16 * index + 15, 16 * index);
        }
    } else if (strcmp(name, "HIT_BASE") == 0) {
        for (unsigned s = 0; s <= g->bank_bits; s++) {
            stcgen_text_raw(text, "        3'd%u: hit_base = 6'd%zu;\n", s, stc_tuner_coef_hit(s, 0));
        }
    } else if (strcmp(name, "COEF_WRITE") == 0) {
        if (params->tuner_const_coefs) {
            return; /* constants: writes are ignored */
        }
        for (size_t index = 0; index < params->tuner_coefs; index++) {
            stcgen_text_raw(text, "        6'd%zu: coef_d[%zu:%zu] = reg_wdata_i[15:0];\n",
                            STC_TREG_COEF + index, 16 * index + 15, 16 * index);
        }
    }
}

/* Is the option a mark names built? */
static bool mark_built(const stcgen_params *params, int which)
{
    switch (which) {
    case 0:
        return params->tuner_mult == STC_TUNER_MULT_SERIAL;
    case 1:
        return params->tuner_mult == STC_TUNER_MULT_ARRAY;
    case 2:
        return !params->tuner_const_coefs;
    case 3:
        return params->tuner_const_coefs;
    case 4:
        return params->tuner_mult >= STC_TUNER_MULT_RADIX4;
    case 5:
        return !params->tuner_lean_regs;
    case 6:
        return params->tuner_lean_regs;
    case 7:
        return !params->tuner_no_triggers;
    default:
        return params->tuner_no_triggers;
    }
}

/* Is a line marked for an option that is not built? Strips the marks; a
 * line may carry several (each must hold). */
static bool keep_line(const stcgen_params *params, const char **line)
{
    static const struct {
        const char *mark;
        int which; /* as mark_built */
    } marks[] = {{"@IF_SERIAL@", 0}, {"@IF_ARRAY@", 1}, {"@IF_REGS@", 2},  {"@IF_CONST@", 3},
                 {"@IF_RADIX@", 4},  {"@IF_FULL@", 5},  {"@IF_LEAN@", 6},  {"@IF_TRIG@", 7},
                 {"@IF_NOTRIG@", 8}};
    bool keep = true;
    for (bool found = true; found;) {
        found = false;
        for (size_t index = 0; index < sizeof marks / sizeof marks[0]; index++) {
            size_t len = strlen(marks[index].mark);
            if (strncmp(*line, marks[index].mark, len) == 0) {
                *line += len;
                keep = keep && mark_built(params, marks[index].which);
                found = true;
                break;
            }
        }
    }
    return keep;
}

const char *const *stcgen_tuner_template_lines(void)
{
    return tuner_template;
}

void stcgen_emit_tuner(stcgen_text *text, const stcgen_file *file, const stcgen_params *params)
{
    stcgen_tokens tokens;
    make_tokens(params, &tokens);
    stcgen_text_header(text, &stcgen_comment_slashes, file->name, file->title, params);
    stcgen_text_blank(text);
    const char *what = stcgen_debug_break_what(params->debug_break, STCGEN_BREAK_TUNER);
    if (what) {
        stcgen_text_raw(text, "// BROKEN on purpose (--debug-break %s): %s.\n", params->debug_break,
                        what);
    }
    for (const char *const *cursor = tuner_template; *cursor; cursor++) {
        const char *line = *cursor;
        size_t len = strlen(line);
        if (len > 4 && strncmp(line, "@@", 2) == 0 && strcmp(line + len - 2, "@@") == 0) {
            char name[STCGEN_TOKEN_NAME_MAX];
            snprintf(name, sizeof name, "%.*s", (int)(len - 4), line + 2);
            emit_block(text, params, name);
            continue;
        }
        /* a break's line is the template's, option mark included */
        line = stcgen_debug_break_line(params->debug_break, STCGEN_BREAK_TUNER, line);
        if (keep_line(params, &line)) {
            stcgen_tokens_emit_line(text, &tokens, line);
        }
    }
}
