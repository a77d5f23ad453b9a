/*
 * emit_apb_map.c - the register map of stc_cache_apb for software and for
 * people: stc_cache_regs.h (C macros) and stc_cache_regs.md (tables), from
 * apb_regs.c's one table, the one emit_apb.c decodes in Verilog.
 */
#include "apb_regs.h"
#include "emit.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>

/* Markdown has no line comment: the header is an HTML comment, its lines
 * prefixed like a C block comment's (so the checks find the command). */
static const stcgen_comment comment_html = {"<!--", " *", "-->"};

/* ---- stc_cache_regs.h ---- */

static void c_define(stcgen_text *text, const char *name, const char *value, const char *what)
{
    if (what && what[0]) {
        stcgen_text_line(text, "#define %-40s %-12s /* %s */", name, value, what);
    } else {
        stcgen_text_line(text, "#define %-40s %s", name, value);
    }
}

void stcgen_emit_apb_header(stcgen_text *text, const stcgen_file *file,
                            const stcgen_params *params)
{
    stcgen_apb_map map;
    stcgen_text_header(text, &stcgen_comment_c, file->name, file->title, params);
    if (stcgen_apb_map_build(params, &map) != 0) {
        text->failed = true;
        return;
    }
    char name[96], value[STCGEN_NAME_MAX + 64];
    static const char *const intro[] = {
        "#ifndef STC_CACHE_REGS_H",
        "#define STC_CACHE_REGS_H",
        "",
        "/*",
        " * The registers of stc_cache_apb (docs/INTEGRATION.md; the same map as",
        " * stc_cache_regs.md): byte offsets from the block's base address, 32-bit",
        " * registers, whole-word accesses only (a write with a partial PSTRB is",
        " * refused). Per register STC_REG_<REG> (its offset), STC_REG_<REG>_RESET",
        " * (the value read after reset) and per field STC_REG_<REG>_<FIELD>_SHIFT,",
        " * _MASK (in place) and _RESET (the field's value after reset; for ID and",
        " * GEOMETRY the constants of this output). Arrays: STC_REG_<REG>(n) and",
        " * STC_REG_<REG>_COUNT.",
        " */",
        "#include <stdint.h>",
        "",
        "/* One register of the block at base. */",
        "#define STC_CACHE_REG(base, offset) (*(volatile uint32_t *)((uintptr_t)(base) + (offset)))",
        "/* A field's value in a register value, and a value placed in a field. */",
        "#define STC_FIELD_GET(value, FIELD) (((uint32_t)(value) & FIELD##_MASK) >> FIELD##_SHIFT)",
        "#define STC_FIELD_PREP(FIELD, value) (((uint32_t)(value) << FIELD##_SHIFT) & FIELD##_MASK)",
        "",
        NULL,
    };
    stcgen_text_lines(text, intro);
    snprintf(value, sizeof value, "\"%s\"", params->name);
    c_define(text, "STC_CACHE_REGS_NAME", value, "the output these registers are for");
    snprintf(value, sizeof value, "0x%04xu", STCGEN_APB_MAGIC);
    c_define(text, "STC_CACHE_REGS_MAGIC", value, "ID.MAGIC");
    snprintf(value, sizeof value, "%uu", STCGEN_APB_VERSION);
    c_define(text, "STC_CACHE_REGS_VERSION", value, "ID.VERSION");
    snprintf(value, sizeof value, "0x%xu", 1u << STCGEN_APB_ADDR_BITS);
    c_define(text, "STC_CACHE_REGS_SIZE", value, "bytes of the window PADDR decodes");

    for (size_t index = 0; index < map.count; index++) {
        const stcgen_apb_reg *reg = &map.reg[index];
        stcgen_text_blank(text);
        stcgen_text_line(text, "/* %s (%s): %s */", reg->name, reg->access, reg->what);
        if (reg->count > 1) {
            snprintf(name, sizeof name, "STC_REG_%s(n)", reg->name);
            snprintf(value, sizeof value, "(0x%03xu + 4u * (uint32_t)(n))", reg->offset);
            c_define(text, name, value, NULL);
            snprintf(name, sizeof name, "STC_REG_%s_COUNT", reg->name);
            snprintf(value, sizeof value, "%uu", reg->count);
            c_define(text, name, value, NULL);
        } else {
            snprintf(name, sizeof name, "STC_REG_%s", reg->name);
            snprintf(value, sizeof value, "0x%03xu", reg->offset);
            c_define(text, name, value, NULL);
        }
        if (reg->role != STCGEN_APB_TUNER) {
            snprintf(name, sizeof name, "STC_REG_%s_RESET", reg->name);
            snprintf(value, sizeof value, "0x%08" PRIx32 "u", reg->reset);
            c_define(text, name, value, NULL);
        }
        for (size_t f = 0; f < reg->fields; f++) {
            const stcgen_apb_field *field = &reg->field[f];
            const uint32_t mask =
                (uint32_t)((field->width >= 32 ? 0xffffffffu : ((1u << field->width) - 1u))
                           << field->lsb);
            snprintf(name, sizeof name, "STC_REG_%s_%s_SHIFT", reg->name, field->name);
            snprintf(value, sizeof value, "%uu", field->lsb);
            c_define(text, name, value, field->what);
            snprintf(name, sizeof name, "STC_REG_%s_%s_MASK", reg->name, field->name);
            snprintf(value, sizeof value, "0x%08" PRIx32 "u", mask);
            c_define(text, name, value, NULL);
            snprintf(name, sizeof name, "STC_REG_%s_%s_RESET", reg->name, field->name);
            snprintf(value, sizeof value, "%" PRIu32 "u", field->reset);
            c_define(text, name, value, NULL);
        }
        if (reg->role == STCGEN_APB_COUNTER) {
            stcgen_text_line(text, "/* Counter numbers n (ARCHITECTURE.md 9 and 15.2). */");
            for (unsigned n = 0; n < STCGEN_APB_COUNTERS; n++) {
                char upper[48];
                size_t pos = 0;
                for (const char *c = stcgen_apb_counter_names[n]; *c && pos + 1 < sizeof upper;
                     c++) {
                    upper[pos++] = (char)toupper((unsigned char)*c);
                }
                upper[pos] = '\0';
                snprintf(name, sizeof name, "STC_CNT_%s", upper);
                snprintf(value, sizeof value, "%uu", n);
                c_define(text, name, value, NULL);
            }
        }
        if (reg->role == STCGEN_APB_MAINT_CTRL) {
            c_define(text, "STC_MAINT_OP_NONE", "0u", NULL);
            c_define(text, "STC_MAINT_OP_CLEAN", "1u", NULL);
            c_define(text, "STC_MAINT_OP_INVALIDATE", "2u", NULL);
            c_define(text, "STC_MAINT_OP_CLEAN_INVALIDATE", "3u", NULL);
        }
    }
    stcgen_text_blank(text);
    stcgen_text_line(text, "#endif");
}

/* ---- stc_cache_regs.md ---- */

void stcgen_emit_apb_markdown(stcgen_text *text, const stcgen_file *file,
                              const stcgen_params *params)
{
    stcgen_apb_map map;
    stcgen_text_header(text, &comment_html, file->name, file->title, params);
    if (stcgen_apb_map_build(params, &map) != 0) {
        text->failed = true;
        return;
    }
    stcgen_text_blank(text);
    stcgen_text_line(text, "# stc_cache_apb registers (%s)", params->name);
    stcgen_text_blank(text);
    static const char *const intro[] = {
        "The registers of the APB register block `stc_cache_apb` (docs/INTEGRATION.md),",
        "generated with `stc_cache_apb.v` and `stc_cache_regs.h` from one table. Byte",
        "offsets from the block's base; 32-bit registers; PADDR is 12 bits (bits 1:0",
        "ignored). No wait states: every transfer is a setup and one access cycle.",
        "PSLVERR (nothing written) for an unmapped address, a write to a read-only",
        "register, a write whose PSTRB is not 4'b1111, a CONFIG write while",
        "STATUS.CFG_BUSY, a MAINT_ADDR(_HI) or MAINT_CTRL write while STATUS.MNT_BUSY.",
        "Unlisted bits read 0 and are ignored by writes.",
        "",
        NULL,
    };
    stcgen_text_lines(text, intro);
    stcgen_text_line(text, "| offset | register | access | reset | description |");
    stcgen_text_line(text, "|---|---|---|---|---|");
    for (size_t index = 0; index < map.count; index++) {
        const stcgen_apb_reg *reg = &map.reg[index];
        char offset[32], reset[32];
        if (reg->count > 1) {
            snprintf(offset, sizeof offset, "0x%03x + 4n, n < %u", reg->offset, reg->count);
        } else {
            snprintf(offset, sizeof offset, "0x%03x", reg->offset);
        }
        if (reg->role == STCGEN_APB_TUNER) {
            snprintf(reset, sizeof reset, "the tuner's");
        } else {
            snprintf(reset, sizeof reset, "0x%08" PRIx32, reg->reset);
        }
        stcgen_text_line(text, "| %s | %s | %s | %s | %s |", offset, reg->name, reg->access,
                         reset, reg->what);
    }
    for (size_t index = 0; index < map.count; index++) {
        const stcgen_apb_reg *reg = &map.reg[index];
        if (reg->fields == 0) {
            continue;
        }
        stcgen_text_blank(text);
        stcgen_text_line(text, "## %s (0x%03x)", reg->name, reg->offset);
        stcgen_text_blank(text);
        stcgen_text_line(text, "| bits | field | reset | description |");
        stcgen_text_line(text, "|---|---|---|---|");
        for (size_t f = 0; f < reg->fields; f++) {
            const stcgen_apb_field *field = &reg->field[f];
            char bits[32];
            if (field->width > 1) {
                snprintf(bits, sizeof bits, "%u:%u", field->lsb + field->width - 1, field->lsb);
            } else {
                snprintf(bits, sizeof bits, "%u", field->lsb);
            }
            char reset[16];
            /* Large constants (the magic) read better in hex. */
            snprintf(reset, sizeof reset, field->reset > 255 ? "0x%" PRIx32 : "%" PRIu32,
                     field->reset);
            stcgen_text_line(text, "| %s | %s | %s | %s |", bits, field->name, reset,
                             field->what);
        }
        if (reg->role == STCGEN_APB_COUNTER) {
            stcgen_text_blank(text);
            stcgen_text_line(text, "| n | counter |");
            stcgen_text_line(text, "|---|---|");
            for (unsigned n = 0; n < STCGEN_APB_COUNTERS; n++) {
                stcgen_text_line(text, "| %u | %s |", n, stcgen_apb_counter_names[n]);
            }
        }
    }
}
