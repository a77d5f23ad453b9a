/*
 * emit_header.c - stc_geometry_gen.h, the geometry as C macros for
 * testbenches: every parameter and derived value of the file headers, one
 * #define each, from the same table (stcgen_params_values).
 */
#include "emit.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>

void stcgen_emit_header(stcgen_text *text, const stcgen_file *file, const stcgen_params *params)
{
    stcgen_value values[STCGEN_MAX_VALUES];
    size_t count = stcgen_params_values(params, values, STCGEN_MAX_VALUES);
    if (count > STCGEN_MAX_VALUES) {
        count = STCGEN_MAX_VALUES; /* the header has already flagged the text */
    }

    stcgen_text_header(text, &stcgen_comment_c, file->name, file->title, params);
    stcgen_text_line(text, "#ifndef STC_GEOMETRY_GEN_H");
    stcgen_text_line(text, "#define STC_GEOMETRY_GEN_H");
    stcgen_text_blank(text);
    stcgen_text_line(text, "#define STC_GEN_NAME \"%s\"", params->name);
    stcgen_text_line(text, "#define STC_GEN_RESET_CONFIG \"%s\"", params->reset_config);
    stcgen_text_blank(text);
    for (size_t index = 0; index < count; index++) {
        char upper[STCGEN_VALUE_NAME_MAX];
        size_t pos = 0;
        for (; values[index].name[pos] && pos + 1 < sizeof upper; pos++) {
            upper[pos] = (char)toupper((unsigned char)values[index].name[pos]);
        }
        upper[pos] = '\0';
        if (index > 0 && values[index].derived && !values[index - 1].derived) {
            stcgen_text_blank(text);
        }
        char number[32];
        snprintf(number, sizeof number, "%" PRIu64 "u", values[index].value);
        stcgen_text_line(text, "#define STC_GEN_%-22s %-8s /* %s */", upper, number,
                         values[index].what);
    }
    stcgen_text_blank(text);
    stcgen_text_line(text,
                     "/* Address mask: addr_bits ones (ARCHITECTURE.md section 12). */");
    stcgen_text_line(text, "#define STC_GEN_ADDR_MASK 0x%" PRIx64 "ull",
                     params->geometry.addr_mask);
    stcgen_text_blank(text);
    stcgen_text_line(text,
                     "/* The model's wake_cycles for a switch whose acknowledge rises N cycles");
    stcgen_text_line(text,
                     " * after its enable (ARCHITECTURE.md section 14.4). */");
    stcgen_text_line(text, "#define STC_GEN_WAKE_CYCLES(ack_delay) "
                           "((ack_delay) + STC_GEN_WAKE_OVERHEAD)");
    stcgen_text_blank(text);
    stcgen_text_line(text, "#endif");
}
