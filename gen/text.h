/*
 * text.h - building one generated file in memory: lines with indentation and
 * the header comment every generated file starts with.
 *
 * Files are built completely in memory before anything touches the disk, so
 * a generation error can never leave half a file behind. Allocation failure
 * is remembered (failed) and reported once when the text is used.
 */
#ifndef STCGEN_TEXT_H
#define STCGEN_TEXT_H

#include "params.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *buf;
    size_t len;
    size_t cap;
    unsigned indent; /* current indentation level */
    unsigned step;   /* spaces per level */
    bool failed;     /* out of memory: the text is incomplete */
} stcgen_text;

/* How a file type writes comments. */
typedef struct {
    const char *open;   /* line before the header, or NULL */
    const char *prefix; /* start of each comment line, without trailing space */
    const char *close;  /* line after the header, or NULL */
} stcgen_comment;

extern const stcgen_comment stcgen_comment_slashes; /* "//" Verilog */
extern const stcgen_comment stcgen_comment_hash;    /* "#" UPF, YAML */
extern const stcgen_comment stcgen_comment_c;       /* C block comment */

void stcgen_text_init(stcgen_text *text, unsigned step);
void stcgen_text_free(stcgen_text *text);

/* Append formatted text as is (no indentation, no newline). */
void stcgen_text_raw(stcgen_text *text, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* Append one line: indentation, the formatted text, a newline. A line whose
 * text is empty gets no indentation (so no line ends in blanks); an empty
 * literal format is better written stcgen_text_blank. */
void stcgen_text_line(stcgen_text *text, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/* Append an empty line. */
void stcgen_text_blank(stcgen_text *text);

/* Append each string of a NULL-terminated array as one line, at the current
 * indentation ("" gives an empty line). */
void stcgen_text_lines(stcgen_text *text, const char *const *lines);

void stcgen_text_in(stcgen_text *text);  /* one level deeper */
void stcgen_text_out(stcgen_text *text); /* one level back */

/* The header of every generated file: what it is, that it is generated,
 * the command that made it, the parameters and the derived values. Nothing
 * that varies between runs or machines (no date, host or path). */
void stcgen_text_header(stcgen_text *text, const stcgen_comment *comment, const char *file_name,
                        const char *title, const stcgen_params *params);

#endif
