/*
 * tokens.h - @NAME@ tokens of the Verilog templates (gen/stc_*.v.in): a table
 * of names and literal values, and the substitution of one template line.
 * The emitters of templated modules (emit_ctrl.c, emit_tuner.c) fill a
 * table from stcgen_params and pass every template line through it.
 */
#ifndef STCGEN_TOKENS_H
#define STCGEN_TOKENS_H

#include "text.h"

enum {
    STCGEN_TOKEN_NAME_MAX = 32,   /* "@NAME@" with its terminator */
    STCGEN_TOKEN_VALUE_MAX = 640, /* the longest literal (the tuner's reset vector) */
    STCGEN_TOKENS_MAX = 96,
    STCGEN_TEMPLATE_LINE_MAX = 1024
};

typedef struct {
    char name[STCGEN_TOKEN_NAME_MAX]; /* "@NAME@" */
    char value[STCGEN_TOKEN_VALUE_MAX];
} stcgen_token;

typedef struct {
    unsigned count;
    stcgen_token entries[STCGEN_TOKENS_MAX];
} stcgen_tokens;

/* An empty table. */
void stcgen_tokens_init(stcgen_tokens *tokens);

/* Add @name@ with a printf-formatted value. The tables are fixed by the
 * emitters and smaller than STCGEN_TOKENS_MAX; an entry beyond it is
 * dropped. */
void stcgen_tokens_set(stcgen_tokens *tokens, const char *name, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* Write line with every token replaced by its value, then a newline. */
void stcgen_tokens_emit_line(stcgen_text *text, const stcgen_tokens *tokens, const char *line);

#endif
