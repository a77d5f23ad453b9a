/*
 * mc_trace.c - multi-core trace reader (the contract is mc_trace.h).
 *
 * Input comes from a stc_byte_source (byte_source.h), which decompresses gzip
 * and zstd in-process, and is read in chunks into one buffer split at '\n'.
 * A corrupt or truncated compressed file is the source's error, reported
 * once the lines before the damage have been read.
 *
 * Two parsers read a line. The reader was a third of `stcsim coherence`'s
 * time (docs/COHERENCE.md 9.7), so the usual record, "CORE LABEL HEX
 * [SIZE]" with values in range, is taken by fast_record in one pass over
 * its bytes, with no search for the line's end first. Anything it is not
 * sure of (comments, blank lines, a line the buffer cuts, unusual but valid
 * spellings such as leading zeros past 16 digits, and every error) it
 * leaves untouched for the general parser, which alone decides what is
 * valid and words every message; fast_record only accepts a subset of what
 * the general parser accepts, with the same values.
 */
#include "mc_trace.h"

#include "byte_source.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define PRINTF_LIKE(fmt_index, args_index) __attribute__((format(printf, fmt_index, args_index)))
#else
#define PRINTF_LIKE(fmt_index, args_index)
#endif

enum {
    CHUNK = 1 << 16,
    MAX_LINE = 4096,
    MAX_SIZE = 4096,
    SHOWN = 40,
    ERROR_LEN = 4096 + 512 /* room for a long file name */
};

struct stc_mc_trace {
    stc_byte_source *source;
    const char *name; /* the source's, as messages show it */
    unsigned cores;
    /* MAX_LINE + 2 + CHUNK + 1: buffer[end] is always '\n', a sentinel that
     * stops fast_record's scans without a bound check per byte */
    char *buffer;
    size_t pos, end;
    bool eof;
    uint64_t line;
    bool failed;
    char error[ERROR_LEN];
};

static void fail(stc_mc_trace *trace, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void fail(stc_mc_trace *trace, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(trace->error, sizeof trace->error, fmt, args);
    va_end(args);
    trace->failed = true;
}

void stc_mc_trace_close(stc_mc_trace *trace)
{
    if (!trace)
        return;
    stc_byte_source_close(trace->source);
    free(trace->buffer);
    free(trace);
}

stc_mc_trace *stc_mc_trace_open(const char *path, unsigned cores, char *err, size_t err_len)
{
    stc_byte_source *source = stc_byte_source_open(path, err, err_len);
    if (!source)
        return NULL;
    stc_mc_trace *trace = calloc(1, sizeof *trace);
    if (!trace || !(trace->buffer = malloc((size_t)MAX_LINE + 2 + CHUNK + 1))) {
        if (err && err_len)
            snprintf(err, err_len, "%s: out of memory", stc_byte_source_name(source));
        free(trace);
        stc_byte_source_close(source);
        return NULL;
    }
    trace->source = source;
    trace->name = stc_byte_source_name(source);
    trace->cores = cores;
    trace->buffer[0] = '\n';
    return trace;
}

/* The next line in [*line, *line + *len) without its "\n": 1, 0 at the
 * end, -1 on error. */
static int next_line(stc_mc_trace *trace, char **line, size_t *len)
{
    for (;;) {
        char *start = trace->buffer + trace->pos;
        char *newline = memchr(start, '\n', trace->end - trace->pos);
        if (newline && (size_t)(newline - start) <= MAX_LINE + 1) {
            *line = start;
            *len = (size_t)(newline - start);
            trace->pos += *len + 1;
            trace->line++;
            return 1;
        }
        if (newline || trace->end - trace->pos > MAX_LINE + 1) {
            fail(trace, "%s:%" PRIu64 ": line longer than %d characters", trace->name,
                 trace->line + 1, MAX_LINE);
            return -1;
        }
        if (trace->eof) {
            if (trace->pos == trace->end)
                return 0;
            *line = start;
            *len = trace->end - trace->pos;
            trace->pos = trace->end;
            trace->line++;
            return 1;
        }
        memmove(trace->buffer, start, trace->end - trace->pos);
        trace->end -= trace->pos;
        trace->pos = 0;
        long got = stc_byte_source_read(trace->source, trace->buffer + trace->end, CHUNK);
        if (got < 0) {
            fail(trace, "%s", stc_byte_source_error(trace->source));
            return -1;
        }
        trace->eof = got == 0;
        trace->end += (size_t)got;
        trace->buffer[trace->end] = '\n';
    }
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* The next field of [*at, end): its start and length (0 at the end). */
static size_t take_field(const char **at, const char *end, const char **field)
{
    while (*at < end && is_blank(**at))
        (*at)++;
    *field = *at;
    while (*at < end && !is_blank(**at))
        (*at)++;
    return (size_t)(*at - *field);
}

/* A field fit for a message: at most SHOWN printable characters. */
static const char *show(char *out, size_t out_len, const char *text, size_t len)
{
    size_t used = 0;
    for (size_t i = 0; i < len && i < SHOWN && used + 5 < out_len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\')
            out[used++] = (char)c;
        else
            used += (size_t)snprintf(out + used, out_len - used, "\\x%02x", c);
    }
    if (len > SHOWN && used + 4 < out_len) {
        memcpy(out + used, "...", 3);
        used += 3;
    }
    out[used] = '\0';
    return out;
}

/* Decimal, no sign, value <= max. */
static bool parse_decimal(const char *text, size_t len, uint64_t max, uint64_t *value)
{
    uint64_t v = 0;
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++) {
        if (text[i] < '0' || text[i] > '9')
            return false;
        v = v * 10 + (uint64_t)(text[i] - '0');
        if (v > max)
            return false;
    }
    *value = v;
    return true;
}

static bool parse_hex(const char *text, size_t len, uint64_t *value)
{
    if (len > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        text += 2;
        len -= 2;
    }
    if (len == 0)
        return false;
    uint64_t v = 0;
    size_t significant = 0;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        unsigned digit;
        if (c >= '0' && c <= '9')
            digit = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            digit = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            digit = (unsigned)(c - 'A' + 10);
        else
            return false;
        if (significant || digit)
            significant++;
        if (significant > 16)
            return false;
        v = v << 4 | digit;
    }
    *value = v;
    return true;
}

/* A hexadecimal digit's value plus one, 0 for any other byte: a table,
 * since the address's digits are most of the bytes fast_record reads. */
static const unsigned char hex_plus_one[256] = {
    ['0'] = 1,   ['1'] = 2,   ['2'] = 3,   ['3'] = 4,   ['4'] = 5,   ['5'] = 6,
    ['6'] = 7,   ['7'] = 8,   ['8'] = 9,   ['9'] = 10,  ['a'] = 11,  ['b'] = 12,
    ['c'] = 13,  ['d'] = 14,  ['e'] = 15,  ['f'] = 16,  ['A'] = 11,  ['B'] = 12,
    ['C'] = 13,  ['D'] = 14,  ['E'] = 15,  ['F'] = 16,
};

/* The common record at trace->pos, read in one pass: 1, *ref filled and
 * the line consumed; 0 with nothing changed if the line is anything else,
 * for the general parser (see the top of the file). The digit limits (9 for
 * the core, 16 for the address, 4 for the size) keep every value in range
 * without overflow checks; longer valid spellings go the general way. */
static int fast_record(stc_mc_trace *trace, stc_mc_ref *ref)
{
    const unsigned char *start = (const unsigned char *)trace->buffer + trace->pos;
    const unsigned char *p = start;
    while (is_blank((char)*p))
        p++;
    unsigned digit = (unsigned)(*p - '0');
    if (digit > 9)
        return 0;
    uint32_t core = 0;
    unsigned digits = 0;
    do {
        if (++digits > 9)
            return 0;
        core = core * 10 + digit;
        digit = (unsigned)(*++p - '0');
    } while (digit <= 9);
    if (core >= trace->cores || !is_blank((char)*p))
        return 0;
    do
        p++;
    while (is_blank((char)*p));
    unsigned label = (unsigned)(*p - '0');
    if (label > STC_MC_FETCH || !is_blank((char)*++p))
        return 0;
    do
        p++;
    while (is_blank((char)*p));
    if (p[0] == '0' && (p[1] | 0x20) == 'x') {
        if (!hex_plus_one[p[2]])
            return 0;
        p += 2;
    }
    uint64_t addr = 0;
    digits = 0;
    for (unsigned h; (h = hex_plus_one[*p]) != 0; p++) {
        if (++digits > 16)
            return 0;
        addr = addr << 4 | (h - 1);
    }
    if (digits == 0)
        return 0;
    uint32_t size = 4;
    if (is_blank((char)*p)) {
        do
            p++;
        while (is_blank((char)*p));
        digit = (unsigned)(*p - '0');
        if (digit <= 9) {
            size = 0;
            digits = 0;
            do {
                if (++digits > 4)
                    return 0;
                size = size * 10 + digit;
                digit = (unsigned)(*++p - '0');
            } while (digit <= 9);
            if (size == 0 || size > MAX_SIZE)
                return 0;
            while (is_blank((char)*p))
                p++;
        }
    }
    if (*p == '\r')
        p++;
    /* the sentinel at end is no line end: the line may go on past it */
    if (*p != '\n' || p >= (const unsigned char *)trace->buffer + trace->end ||
        (size_t)(p - start) > MAX_LINE + 1)
        return 0;
    trace->pos += (size_t)(p - start) + 1;
    trace->line++;
    ref->core = core;
    ref->label = (stc_mc_label)label;
    ref->addr = addr;
    ref->size = size;
    return 1;
}

int stc_mc_trace_next(stc_mc_trace *trace, stc_mc_ref *ref)
{
    char shown[SHOWN * 4 + 8];
    if (trace->failed)
        return -1;
    for (;;) {
        if (fast_record(trace, ref))
            return 1;
        char *line;
        size_t len;
        int got = next_line(trace, &line, &len);
        if (got <= 0)
            return got;
        if (len > 0 && line[len - 1] == '\r')
            len--;
        const char *at = line, *end = line + len, *field;
        size_t field_len = take_field(&at, end, &field);
        if (field_len == 0 || field[0] == '#')
            continue;
        uint64_t core;
        if (!parse_decimal(field, field_len, UINT32_MAX, &core)) {
            fail(trace, "%s:%" PRIu64 ": bad core '%s' (a decimal number from 0)", trace->name,
                 trace->line, show(shown, sizeof shown, field, field_len));
            return -1;
        }
        if (core >= trace->cores) {
            fail(trace, "%s:%" PRIu64 ": core %" PRIu64 " out of range: the system has %u cores (0..%u)",
                 trace->name, trace->line, core, trace->cores, trace->cores - 1);
            return -1;
        }
        field_len = take_field(&at, end, &field);
        uint64_t label;
        if (field_len == 0) {
            fail(trace, "%s:%" PRIu64 ": missing label (0 read, 1 write, 2 fetch)", trace->name,
                 trace->line);
            return -1;
        }
        if (!parse_decimal(field, field_len, 2, &label) || field_len != 1) {
            fail(trace, "%s:%" PRIu64 ": bad label '%s' (0 read, 1 write, 2 fetch)", trace->name,
                 trace->line, show(shown, sizeof shown, field, field_len));
            return -1;
        }
        field_len = take_field(&at, end, &field);
        uint64_t addr;
        if (field_len == 0) {
            fail(trace, "%s:%" PRIu64 ": missing address", trace->name, trace->line);
            return -1;
        }
        if (!parse_hex(field, field_len, &addr)) {
            fail(trace, "%s:%" PRIu64 ": bad address '%s' (hexadecimal, at most 64 bits)",
                 trace->name, trace->line, show(shown, sizeof shown, field, field_len));
            return -1;
        }
        uint64_t size = 4;
        field_len = take_field(&at, end, &field);
        if (field_len > 0 && (!parse_decimal(field, field_len, MAX_SIZE, &size) || size == 0)) {
            fail(trace, "%s:%" PRIu64 ": bad size '%s' (decimal bytes, 1..%d)", trace->name,
                 trace->line, show(shown, sizeof shown, field, field_len), MAX_SIZE);
            return -1;
        }
        field_len = take_field(&at, end, &field);
        if (field_len > 0) {
            fail(trace, "%s:%" PRIu64 ": unexpected '%s' after the size", trace->name, trace->line,
                 show(shown, sizeof shown, field, field_len));
            return -1;
        }
        ref->core = (unsigned)core;
        ref->label = (stc_mc_label)label;
        ref->addr = addr;
        ref->size = (uint32_t)size;
        return 1;
    }
}

const char *stc_mc_trace_error(const stc_mc_trace *trace)
{
    return trace->failed ? trace->error : "";
}

const char *stc_mc_trace_name(const stc_mc_trace *trace)
{
    return trace->name;
}

uint64_t stc_mc_trace_line(const stc_mc_trace *trace)
{
    return trace->line;
}
