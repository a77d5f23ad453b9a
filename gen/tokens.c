/* tokens.c - @NAME@ tokens of the Verilog templates. */
#include "tokens.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void stcgen_tokens_init(stcgen_tokens *tokens)
{
    tokens->count = 0;
}

void stcgen_tokens_set(stcgen_tokens *tokens, const char *name, const char *format, ...)
{
    if (tokens->count >= STCGEN_TOKENS_MAX) {
        return;
    }
    stcgen_token *token = &tokens->entries[tokens->count++];
    snprintf(token->name, sizeof token->name, "@%s@", name);
    va_list args;
    va_start(args, format);
    vsnprintf(token->value, sizeof token->value, format, args);
    va_end(args);
}

static const stcgen_token *token_at(const stcgen_tokens *tokens, const char *cursor)
{
    if (*cursor != '@') {
        return NULL;
    }
    for (unsigned index = 0; index < tokens->count; index++) {
        const stcgen_token *token = &tokens->entries[index];
        if (strncmp(cursor, token->name, strlen(token->name)) == 0) {
            return token;
        }
    }
    return NULL;
}

void stcgen_tokens_emit_line(stcgen_text *text, const stcgen_tokens *tokens, const char *line)
{
    char out[STCGEN_TEMPLATE_LINE_MAX];
    size_t len = 0;
    while (*line && len + 1 < sizeof out) {
        const stcgen_token *hit = token_at(tokens, line);
        if (hit) {
            size_t value_len = strlen(hit->value);
            if (len + value_len + 1 < sizeof out) {
                memcpy(out + len, hit->value, value_len);
                len += value_len;
            }
            line += strlen(hit->name);
        } else {
            out[len++] = *line++;
        }
    }
    out[len] = '\0';
    stcgen_text_raw(text, "%s\n", out);
}
