/*
 * emit_core.c - stc_cache.core, the FuseSoC (CAPI2) description of the
 * output folder. Its filesets come from the file table (files.c), so a
 * module added there is listed here without touching this emitter.
 */
#include "emit.h"

#include <stdio.h>

static void list_kind(stcgen_text *text, const stcgen_file *files, size_t count,
                      stcgen_file_kind kind, const stcgen_params *params)
{
    for (size_t index = 0; index < count; index++) {
        if (files[index].kind == kind && stcgen_file_wanted(&files[index], params)) {
            stcgen_text_line(text, "      - %s", files[index].name);
        }
    }
}

void stcgen_emit_core(stcgen_text *text, const stcgen_file *file, const stcgen_params *params)
{
    const stcgen_file *files = NULL;
    size_t count = stcgen_files(&files);
    const stc_geometry *geometry = &params->geometry;

    /* CAPI2 requires "CAPI=2:" as the very first line; the header follows. */
    stcgen_text_line(text, "CAPI=2:");
    stcgen_text_header(text, &stcgen_comment_hash, file->name, file->title, params);
    stcgen_text_blank(text);
    stcgen_text_line(text, "name: stc:cache:%s:0.1.0", params->name);
    stcgen_text_line(text,
                     "description: stc self-tuning configurable cache, %u banks of %u bytes, "
                     "%u-byte lines, %u-bit addresses",
                     geometry->banks, geometry->bank_bytes, geometry->line_bytes,
                     geometry->addr_bits);
    stcgen_text_blank(text);
    stcgen_text_line(text, "filesets:");
    stcgen_text_line(text, "  rtl:");
    stcgen_text_line(text, "    files:");
    list_kind(text, files, count, STCGEN_VERILOG, params);
    stcgen_text_line(text, "    file_type: verilogSource-2005");
    stcgen_text_line(text, "  power_intent:");
    stcgen_text_line(text, "    files:");
    list_kind(text, files, count, STCGEN_UPF, params);
    stcgen_text_line(text, "    file_type: UPF");
    stcgen_text_line(text, "  tb_headers:");
    stcgen_text_line(text, "    files:");
    for (size_t index = 0; index < count; index++) {
        if (files[index].kind == STCGEN_C_HEADER) {
            stcgen_text_line(text, "      - %s: {is_include_file: true}", files[index].name);
        }
    }
    stcgen_text_line(text, "    file_type: cSource");
    stcgen_text_blank(text);
    stcgen_text_line(text, "targets:");
    stcgen_text_line(text, "  default:");
    stcgen_text_line(text, "    filesets: [rtl]");
    stcgen_text_line(text, "  lint:");
    stcgen_text_line(text, "    default_tool: verilator");
    stcgen_text_line(text, "    filesets: [rtl]");
    stcgen_text_line(text, "    toplevel: %s", stcgen_lint_top());
    stcgen_text_line(text, "    tools:");
    stcgen_text_line(text, "      verilator:");
    stcgen_text_line(text, "        mode: lint-only");
    stcgen_text_line(text, "        verilator_options: [-Wall, --default-language, 1364-2005]");
}
