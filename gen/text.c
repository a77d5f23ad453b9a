/* text.c - in-memory text with indentation, and the generated-file header. */
#include "text.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const stcgen_comment stcgen_comment_slashes = {NULL, "//", NULL};
const stcgen_comment stcgen_comment_hash = {NULL, "#", NULL};
const stcgen_comment stcgen_comment_c = {"/*", " *", " */"};

void stcgen_text_init(stcgen_text *text, unsigned step)
{
    memset(text, 0, sizeof *text);
    text->step = step;
}

void stcgen_text_free(stcgen_text *text)
{
    free(text->buf);
    memset(text, 0, sizeof *text);
}

static bool reserve(stcgen_text *text, size_t more)
{
    if (text->failed) {
        return false;
    }
    if (text->len + more + 1 <= text->cap) {
        return true;
    }
    size_t cap = text->cap ? text->cap : 4096;
    while (cap < text->len + more + 1) {
        cap *= 2;
    }
    char *buf = realloc(text->buf, cap);
    if (!buf) {
        text->failed = true;
        return false;
    }
    text->buf = buf;
    text->cap = cap;
    return true;
}

static void append_va(stcgen_text *text, const char *format, va_list args)
{
    va_list copy;
    va_copy(copy, args);
    int needed = vsnprintf(NULL, 0, format, copy);
    va_end(copy);
    if (needed < 0) {
        text->failed = true;
        return;
    }
    if (!reserve(text, (size_t)needed)) {
        return;
    }
    vsnprintf(text->buf + text->len, (size_t)needed + 1, format, args);
    text->len += (size_t)needed;
}

static void append(stcgen_text *text, const char *string)
{
    size_t len = strlen(string);
    if (!reserve(text, len)) {
        return;
    }
    memcpy(text->buf + text->len, string, len + 1);
    text->len += len;
}

void stcgen_text_raw(stcgen_text *text, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    append_va(text, format, args);
    va_end(args);
}

static void indent(stcgen_text *text)
{
    size_t spaces = (size_t)text->indent * text->step;
    if (!reserve(text, spaces)) {
        return;
    }
    memset(text->buf + text->len, ' ', spaces);
    text->len += spaces;
    text->buf[text->len] = '\0';
}

void stcgen_text_line(stcgen_text *text, const char *format, ...)
{
    size_t start = text->len;
    indent(text);
    size_t after_indent = text->len;
    va_list args;
    va_start(args, format);
    append_va(text, format, args);
    va_end(args);
    if (!text->failed && text->len == after_indent) {
        text->len = start; /* an empty line: no indentation either */
        text->buf[start] = '\0';
    }
    append(text, "\n");
}

void stcgen_text_blank(stcgen_text *text)
{
    append(text, "\n");
}

void stcgen_text_lines(stcgen_text *text, const char *const *lines)
{
    for (; *lines; lines++) {
        if ((*lines)[0] != '\0') {
            indent(text);
            append(text, *lines);
        }
        append(text, "\n");
    }
}

void stcgen_text_in(stcgen_text *text)
{
    text->indent++;
}

void stcgen_text_out(stcgen_text *text)
{
    if (text->indent > 0) {
        text->indent--;
    }
}

/* One comment line: the prefix, then a blank and the text unless the text is
 * empty (so no line ends in a blank). */
static void comment_line(stcgen_text *text, const stcgen_comment *comment, const char *format,
                         ...) __attribute__((format(printf, 3, 4)));

static void comment_line(stcgen_text *text, const stcgen_comment *comment, const char *format,
                         ...)
{
    append(text, comment->prefix);
    size_t before = text->len;
    append(text, " ");
    size_t after_blank = text->len;
    va_list args;
    va_start(args, format);
    append_va(text, format, args);
    va_end(args);
    if (!text->failed && text->len == after_blank) {
        text->len = before; /* nothing to say: no trailing blank */
        text->buf[before] = '\0';
    }
    append(text, "\n");
}

static void comment_values(stcgen_text *text, const stcgen_comment *comment,
                           const stcgen_value *values, size_t count, bool derived)
{
    for (size_t index = 0; index < count; index++) {
        if (values[index].derived == derived) {
            comment_line(text, comment, "  %-22s %-8" PRIu64 " %s", values[index].name,
                         values[index].value, values[index].what);
        }
    }
}

void stcgen_text_header(stcgen_text *text, const stcgen_comment *comment, const char *file_name,
                        const char *title, const stcgen_params *params)
{
    stcgen_value values[STCGEN_MAX_VALUES];
    size_t count = stcgen_params_values(params, values, STCGEN_MAX_VALUES);
    if (count > STCGEN_MAX_VALUES) {
        text->failed = true; /* a programming error: raise STCGEN_MAX_VALUES */
        return;
    }
    if (comment->open) {
        append(text, comment->open);
        append(text, "\n");
    }
    comment_line(text, comment, "%s - %s", file_name, title);
    comment_line(text, comment, "%s", "");
    comment_line(text, comment, "Generated by stcgen (gen/ in the stc repository): do not edit,");
    comment_line(text, comment, "regenerate. Command (less --out and --force, which choose where");
    comment_line(text, comment, "the files go, not what they hold):");
    comment_line(text, comment, "  %s", params->command ? params->command : "stcgen");
    comment_line(text, comment, "%s", "");
    comment_line(text, comment, "cache %s, reset configuration %s", params->name,
                 params->reset_config);
    if (params->debug_break) {
        comment_line(text, comment, "%s", "");
        comment_line(text, comment, "BROKEN on purpose (--debug-break %s): a test of the lockstep",
                     params->debug_break);
        comment_line(text, comment, "harness, which must catch it. Never use this output.");
    }
    if (params->coherence) {
        comment_line(text, comment, "coherence: %s on the %s bus (--protocol, --bus)",
                     stc_coh_protocol_name(params->coh_protocol),
                     stc_coh_bus_model_name(params->coh_bus));
    }
    if (params->coh_break) {
        comment_line(text, comment, "%s", "");
        comment_line(text, comment, "BROKEN on purpose (--debug-break %s): one coherence",
                     params->coh_break);
        comment_line(text, comment, "module is wrong (a table row, the arbiter, the snoop port or "
                     "the bus,");
        comment_line(text, comment, "as the name says); tests/coh-rtl-checks.sh must catch it.");
        comment_line(text, comment, "Never use this output.");
    }
    comment_line(text, comment, "%s", "");
    comment_line(text, comment, "parameters:");
    comment_values(text, comment, values, count, false);
    comment_line(text, comment, "derived (ref/geometry.c, gen/params.c):");
    comment_values(text, comment, values, count, true);
    if (comment->close) {
        append(text, comment->close);
        append(text, "\n");
    }
}
