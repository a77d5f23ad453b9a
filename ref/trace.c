/*
 * trace.c - streaming din / lackey trace reader (the contract is trace.h).
 *
 * How it is put together, and why:
 *
 * - Input is read in READ_CHUNK blocks into one buffer. Only whole lines (up
 *   to the last '\n' in the buffer) are handed to the parsers, so a parser
 *   never checks bounds: every line ends in '\n', which no field accepts, so
 *   every scanning loop stops there at the latest. The unterminated tail of
 *   a block is moved to the front before the next read; a last line without
 *   '\n' gets one appended. Memory use is the one buffer, whatever the trace
 *   length.
 *
 * - A plain regular file skips the copy: it is mapped, and the parsers are
 *   handed its text in place (`text` points into the mapping), all of it
 *   but the last lines, which go through the buffer like any input so the
 *   end of the file needs no special case. The copy would be about a
 *   tenth of the parsing time.
 *
 * - Addresses are read eight characters at a time (hex_field.h), which
 *   reads up to 16 bytes from where a field starts: the buffer keeps a
 *   margin after its data, and the mapping's in-place part stops where 16
 *   bytes of the file are left after its last line.
 *
 * - There is one tight loop per format. It only *detects* that a line is
 *   wrong and hands it to explain_bad_line(), a slow validator that walks
 *   the line again field by field to say exactly what is wrong. That keeps
 *   the hot loops small; tests/test_trace.c pins every message so the two
 *   cannot drift apart unnoticed.
 *
 * - The bytes come from a stc_byte_source (byte_source.h), which reads plain
 *   input straight into the buffer and decompresses gzip and zstd in-process,
 *   so this file never sees the compression. A corrupt or truncated
 *   compressed input is an error of the read that reaches the damage, which
 *   comes before the torn last line could be misreported as a syntax error;
 *   stc_trace_close reports it again, so a caller that only checks close
 *   still learns that the trace was cut short.
 */
#include "trace.h"

#include "byte_source.h"
#include "hex_field.h"
#include "mapped_file.h"

#include <inttypes.h>
#include <limits.h>
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
    READ_CHUNK = 1 << 20,
    MAX_LINE = 4096,     /* characters, not counting the "\n" or "\r\n" */
    MAX_REF_SIZE = 4096, /* bytes in one reference */
    TOKEN_SHOWN = 40,    /* characters of an offending token quoted in a message */
    ERROR_LEN = 4096 + 512
};

/* A tail of up to MAX_LINE + 1 bytes (a full line and a '\r' whose '\n' has
 * not arrived yet) may sit in front of a chunk, and one byte after the data
 * is kept for the '\n' appended to an unterminated last line. */
#define BUFFER_CAPACITY ((size_t)MAX_LINE + 1 + READ_CHUNK + 1)
/* After the data: stc_hex_field reads 16 bytes wherever a field starts, so
 * up to 15 past the '\n' that ends the last whole line. Allocated zeroed,
 * they only ever hold bytes already read, and the '\n' ends the field
 * before them, so they never change a result. */
#define BUFFER_MARGIN ((size_t)STC_HEX_FIELD_READ)

struct stc_trace {
    stc_byte_source *source;
    const char *name; /* the path, or "<stdin>", as it appears in messages */
    stc_trace_format format;
    bool source_failed; /* the error is the input's, not a line's: close repeats it */

    unsigned char *buffer; /* owned: the text read, for input that is not mapped */
    stc_mapped_file mapped; /* a plain regular file: its text in place */
    size_t mapped_used;     /* bytes of the mapping handed out so far */
    const unsigned char *text; /* what the parsers read: buffer, or the mapping */
    size_t parse_pos;   /* in text: start of the first line not yet consumed */
    size_t parse_limit; /* in text: just after the last '\n' handed out */
    size_t data_end;    /* end of the bytes read so far */
    bool input_ended;   /* the source has returned 0 */

    uint64_t lines; /* lines consumed so far */
    bool failed;
    char error[ERROR_LEN];
};

static const char DIN_LABELS_HELP[] = "(0 read, 1 write, 2 fetch)";

/* din label 0, 1, 2 -> kind. */
static const uint8_t din_label_kind[3] = {STC_REF_LOAD, STC_REF_STORE, STC_REF_IFETCH};

/* Zero means "not a hexadecimal digit", so only the digits need listing. */
static const uint8_t hex_digit_plus_one[256] = {
    ['0'] = 1,   ['1'] = 2,   ['2'] = 3,   ['3'] = 4,   ['4'] = 5,   ['5'] = 6,
    ['6'] = 7,   ['7'] = 8,   ['8'] = 9,   ['9'] = 10,  ['a'] = 11,  ['b'] = 12,
    ['c'] = 13,  ['d'] = 14,  ['e'] = 15,  ['f'] = 16,  ['A'] = 11,  ['B'] = 12,
    ['C'] = 13,  ['D'] = 14,  ['E'] = 15,  ['F'] = 16,
};

/* Same trick for lackey's record letters -> kind + 1. */
static const uint8_t lackey_kind_plus_one[256] = {
    ['I'] = STC_REF_IFETCH + 1,
    ['L'] = STC_REF_LOAD + 1,
    ['S'] = STC_REF_STORE + 1,
    ['M'] = STC_REF_MODIFY + 1,
};

/* For hex strings over 16 digits, which are fine if the excess is leading
 * zeros (the shifted-out bits were then all zero). */
static bool fits_64_bits(const unsigned char *digits, const unsigned char *end)
{
    while (end - digits > 16 && *digits == '0')
        digits++;
    return end - digits <= 16;
}

/* An address of 16 digits or more (stc_hex_field stops at 16): returns the
 * end of its digits, or NULL if it does not fit 64 bits. */
static const unsigned char *read_long_hex(const unsigned char *digits, uint64_t *address)
{
    const unsigned char *p = digits;
    unsigned digit;
    *address = 0;
    while ((digit = hex_digit_plus_one[*p]) != 0) {
        *address = *address << 4 | (digit - 1);
        p++;
    }
    return p - digits > 16 && !fits_64_bits(digits, p) ? NULL : p;
}

static inline bool is_blank(unsigned char c)
{
    return c == ' ' || c == '\t';
}

static inline bool is_digit(unsigned char c)
{
    return (unsigned)c - '0' <= 9;
}

/* ------------------------------------------------------------------ errors */

static void set_error(stc_trace *trace, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void set_error(stc_trace *trace, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(trace->error, sizeof trace->error, fmt, args);
    va_end(args);
    trace->failed = true;
}

/* The error is about the line after the last one consumed. */
static void fail_line(stc_trace *trace, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void fail_line(stc_trace *trace, const char *fmt, ...)
{
    char message[512];
    va_list args;
    va_start(args, fmt);
    vsnprintf(message, sizeof message, fmt, args);
    va_end(args);
    set_error(trace, "%s:%" PRIu64 ": %s", trace->name, trace->lines + 1, message);
}

static void copy_message(char *out, size_t out_len, const char *message)
{
    if (out && out_len)
        snprintf(out, out_len, "%s", message);
}

/* Quote-ready form of untrusted text: at most TOKEN_SHOWN characters, the
 * unprintable ones escaped so a message stays one readable line. */
static const char *show_text(char *out, size_t out_len, const unsigned char *text, size_t text_len)
{
    size_t used = 0;
    for (size_t i = 0; i < text_len && i < TOKEN_SHOWN && used + 5 < out_len; i++) {
        unsigned char c = text[i];
        if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\')
            out[used++] = (char)c;
        else
            used += (size_t)snprintf(out + used, out_len - used, "\\x%02x", c);
    }
    if (text_len > TOKEN_SHOWN && used + 4 < out_len) {
        memcpy(out + used, "...", 3);
        used += 3;
    }
    out[used] = '\0';
    return out;
}

/* ------------------------------------------------ explaining a bad line */

/* A line being explained: [at, end) is what is left of its content. */
typedef struct {
    const unsigned char *at;
    const unsigned char *end;
} line_cursor;

typedef struct {
    const unsigned char *text;
    size_t len;
} token;

static void skip_blanks(line_cursor *cursor)
{
    while (cursor->at < cursor->end && is_blank(*cursor->at))
        cursor->at++;
}

/* The next field: up to a blank, the end of the line, or (for lackey's
 * "ADDR,SIZE") a comma. */
static token take_token(line_cursor *cursor, bool comma_ends)
{
    token field = {cursor->at, 0};
    while (cursor->at < cursor->end && !is_blank(*cursor->at) && !(comma_ends && *cursor->at == ','))
        cursor->at++;
    field.len = (size_t)(cursor->at - field.text);
    return field;
}

/* Returns false (with the error set) if the address field is not valid. */
static bool check_address(stc_trace *trace, token field, bool prefix_allowed)
{
    char shown[TOKEN_SHOWN * 4 + 8];
    const unsigned char *digits = field.text;
    size_t digit_count = field.len;
    if (field.len == 0) {
        fail_line(trace, "missing address");
        return false;
    }
    if (prefix_allowed && digit_count >= 2 && digits[0] == '0' && (digits[1] | 0x20) == 'x') {
        digits += 2;
        digit_count -= 2;
    }
    bool all_hex = digit_count > 0;
    for (size_t i = 0; i < digit_count; i++)
        all_hex = all_hex && hex_digit_plus_one[digits[i]] != 0;
    if (!all_hex) {
        fail_line(trace, "bad hexadecimal address '%s'", show_text(shown, sizeof shown, field.text, field.len));
        return false;
    }
    while (digit_count > 1 && digits[0] == '0') {
        digits++;
        digit_count--;
    }
    if (digit_count > 16) {
        fail_line(trace, "address does not fit in 64 bits");
        return false;
    }
    return true;
}

static bool check_size(stc_trace *trace, token field)
{
    char shown[TOKEN_SHOWN * 4 + 8];
    unsigned long size = 0;
    for (size_t i = 0; i < field.len; i++) {
        if (!is_digit(field.text[i])) {
            fail_line(trace, "bad size '%s'", show_text(shown, sizeof shown, field.text, field.len));
            return false;
        }
        if (size <= MAX_REF_SIZE)
            size = size * 10 + (field.text[i] - '0');
    }
    if (size == 0) {
        fail_line(trace, "size 0 is not allowed");
        return false;
    }
    if (size > MAX_REF_SIZE) {
        fail_line(trace, "size must be at most %d", MAX_REF_SIZE);
        return false;
    }
    return true;
}

static bool check_nothing_left(stc_trace *trace, line_cursor *cursor)
{
    char shown[TOKEN_SHOWN * 4 + 8];
    skip_blanks(cursor);
    if (cursor->at == cursor->end)
        return true;
    fail_line(trace, "unexpected text after the record: '%s'",
              show_text(shown, sizeof shown, cursor->at, (size_t)(cursor->end - cursor->at)));
    return false;
}

static bool explain_din(stc_trace *trace, line_cursor *cursor)
{
    char shown[TOKEN_SHOWN * 4 + 8];
    skip_blanks(cursor);
    token label = take_token(cursor, false);
    bool numeric = label.len > 0;
    for (size_t i = 0; i < label.len; i++)
        numeric = numeric && is_digit(label.text[i]);
    show_text(shown, sizeof shown, label.text, label.len);
    if (!numeric) {
        fail_line(trace, "unknown din label '%s' %s", shown, DIN_LABELS_HELP);
        return false;
    }
    if (label.len == 1 && label.text[0] == '3') {
        fail_line(trace, "din label 3 (DineroIV escape) is not supported %s", DIN_LABELS_HELP);
        return false;
    }
    if (label.len == 1 && label.text[0] == '4') {
        fail_line(trace, "din label 4 (DineroIV cache flush) is not supported %s", DIN_LABELS_HELP);
        return false;
    }
    if (label.len != 1 || label.text[0] > '2') {
        fail_line(trace, "unknown din label %s %s", shown, DIN_LABELS_HELP);
        return false;
    }
    skip_blanks(cursor);
    if (!check_address(trace, take_token(cursor, false), true))
        return false;
    skip_blanks(cursor);
    if (cursor->at < cursor->end && !check_size(trace, take_token(cursor, false)))
        return false;
    return check_nothing_left(trace, cursor);
}

static bool explain_lackey(stc_trace *trace, line_cursor *cursor)
{
    char shown[TOKEN_SHOWN * 4 + 8];
    skip_blanks(cursor);
    token kind = take_token(cursor, false);
    if (kind.len != 1 || !memchr("ILSM", kind.text[0], 4)) {
        fail_line(trace, "unknown lackey record '%s' (expected I, L, S or M)",
                  show_text(shown, sizeof shown, kind.text, kind.len));
        return false;
    }
    skip_blanks(cursor);
    if (!check_address(trace, take_token(cursor, true), false))
        return false;
    if (cursor->at == cursor->end) {
        fail_line(trace, "missing ',SIZE' after the address");
        return false;
    }
    if (*cursor->at != ',') {
        fail_line(trace, "expected ',' right after the address, found '%s'",
                  show_text(shown, sizeof shown, cursor->at, (size_t)(cursor->end - cursor->at)));
        return false;
    }
    cursor->at++;
    token size = take_token(cursor, false);
    if (size.len == 0) {
        fail_line(trace, "missing size after ','");
        return false;
    }
    if (!check_size(trace, size))
        return false;
    return check_nothing_left(trace, cursor);
}

/* Sets the error for a line the fast path rejected. The line is whole: it
 * ends in '\n' before parse_limit. */
static void explain_bad_line(stc_trace *trace, const unsigned char *line, stc_trace_format format)
{
    const unsigned char *newline = memchr(line, '\n', (size_t)(trace->text + trace->parse_limit - line));
    const unsigned char *end = newline;
    if (end > line && end[-1] == '\r')
        end--;
    if (memchr(line, '\0', (size_t)(newline - line))) {
        fail_line(trace, "NUL byte in the input (not a text trace?)");
        return;
    }
    if (end - line > MAX_LINE) {
        fail_line(trace, "line longer than %d characters", MAX_LINE);
        return;
    }
    line_cursor cursor = {line, end};
    bool explained = false;
    if (format == STC_TRACE_DIN) {
        explained = !explain_din(trace, &cursor);
    } else if (format == STC_TRACE_LACKEY) {
        explained = !explain_lackey(trace, &cursor);
    } else {
        char shown[TOKEN_SHOWN * 4 + 8];
        skip_blanks(&cursor);
        fail_line(trace,
                  "cannot tell the trace format from '%s' (expected din \"LABEL ADDRESS [SIZE]\" "
                  "or lackey \"I|L|S|M ADDRESS,SIZE\")",
                  show_text(shown, sizeof shown, cursor.at, (size_t)(end - cursor.at)));
        explained = true;
    }
    if (!explained) /* the fast path and the validator disagree: a bug here */
        fail_line(trace, "malformed %s record", stc_trace_format_name(format));
}

/* ---------------------------------------------------------------- buffer */

/* The next bytes of input into buf: from the byte source, or copied from
 * the mapping once its in-place part is used up. As stc_byte_source_read. */
static long read_input(stc_trace *trace, unsigned char *buf, size_t len)
{
    if (!trace->mapped.bytes)
        return stc_byte_source_read(trace->source, buf, len);
    size_t left = trace->mapped.size - trace->mapped_used;
    if (len > left)
        len = left;
    memcpy(buf, trace->mapped.bytes + trace->mapped_used, len);
    trace->mapped_used += len;
    return (long)len;
}

/* A mapped file's text is parsed in place, all of it but the end: every
 * whole line that leaves STC_HEX_FIELD_READ bytes after it inside the
 * mapping (stc_hex_field reads that far). Returns 1 when that handed out
 * lines, 0 when the file is too short for it (it is then read as the rest
 * is: copied through the buffer). */
static int hand_out_mapping(stc_trace *trace)
{
    const unsigned char *bytes = trace->mapped.bytes;
    size_t end = trace->mapped.size > STC_HEX_FIELD_READ ? trace->mapped.size - STC_HEX_FIELD_READ : 0;
    while (end > 0 && bytes[end - 1] != '\n')
        end--;
    if (end == 0)
        return 0;
    trace->text = bytes;
    trace->parse_pos = 0;
    trace->parse_limit = end;
    trace->data_end = end;
    trace->mapped_used = end;
    return 1;
}

/* Makes at least one whole line available in [parse_pos, parse_limit).
 * Returns 1, 0 at the end of the input, -1 on error. Only called when
 * parse_pos == parse_limit. */
static int refill(stc_trace *trace)
{
    unsigned char *buffer = trace->buffer;
    if (trace->mapped.bytes && trace->mapped_used == 0 && hand_out_mapping(trace))
        return 1;
    /* After the mapping's in-place part the buffer takes over; that part
     * ended with a whole line, so no tail comes along. */
    size_t tail = trace->text == buffer ? trace->data_end - trace->parse_pos : 0;
    trace->text = buffer;
    if (tail)
        memmove(buffer, buffer + trace->parse_pos, tail);
    trace->parse_pos = 0;
    trace->parse_limit = 0;
    trace->data_end = tail;

    size_t searched = 0; /* bytes of the tail known to hold no '\n' */
    for (;;) {
        size_t after_newline = trace->data_end;
        while (after_newline > searched && buffer[after_newline - 1] != '\n')
            after_newline--;
        if (after_newline > searched) {
            trace->parse_limit = after_newline;
            return 1;
        }
        searched = trace->data_end;
        if (trace->data_end > (size_t)MAX_LINE + 1) {
            fail_line(trace, "line longer than %d characters", MAX_LINE);
            return -1;
        }
        if (!trace->input_ended) {
            long got = read_input(trace, buffer + trace->data_end, READ_CHUNK);
            if (got < 0) {
                set_error(trace, "%s", stc_byte_source_error(trace->source));
                trace->source_failed = true;
                return -1;
            }
            if (got > 0) {
                trace->data_end += (size_t)got;
                continue;
            }
            trace->input_ended = true;
        }
        if (trace->data_end == 0)
            return 0;
        buffer[trace->data_end++] = '\n';
        trace->parse_limit = trace->data_end;
        return 1;
    }
}

/* If the line is one to skip (blank, '#' comment, and valgrind's "==" when
 * they may occur), returns where the next line starts, else NULL. first is
 * the line's first non-blank character. */
static const unsigned char *skip_ignored_line(const unsigned char *line, const unsigned char *first,
                                              bool valgrind_messages)
{
    const unsigned char *at = first;
    if (*at == '#' || (valgrind_messages && at[0] == '=' && at[1] == '=')) {
        while (*at != '\n') {
            if (*at == '\0')
                return NULL;
            at++;
        }
    } else if (*at == '\r' && at[1] == '\n') {
        at++;
    } else if (*at != '\n') {
        return NULL;
    }
    const unsigned char *end = at > line && at[-1] == '\r' ? at - 1 : at;
    return end - line > MAX_LINE ? NULL : at + 1;
}

/* --------------------------------------------------------------- parsing */

/* Decides the format from the first record without consuming it. Returns
 * 1 when decided, 0 at the end of an input with no records, -1 on error. */
static int detect_format(stc_trace *trace)
{
    for (;;) {
        if (trace->parse_pos == trace->parse_limit) {
            int more = refill(trace);
            if (more <= 0)
                return more;
        }
        const unsigned char *line = trace->text + trace->parse_pos;
        const unsigned char *first = line;
        while (is_blank(*first))
            first++;
        if (memchr("ILSM", *first, 4) && is_blank(first[1])) {
            trace->format = STC_TRACE_LACKEY;
            return 1;
        }
        if (is_digit(*first)) {
            trace->format = STC_TRACE_DIN;
            return 1;
        }
        const unsigned char *next = skip_ignored_line(line, first, true);
        if (!next) {
            explain_bad_line(trace, line, STC_TRACE_AUTO);
            return -1;
        }
        trace->parse_pos = (size_t)(next - trace->text);
        trace->lines++;
    }
}

/*
 * The two hot loops. They keep the position and line count in locals and
 * write them back before anything that looks at the trace (refill, errors).
 * Sizes saturate just above MAX_REF_SIZE so a long digit string cannot
 * overflow; an address is checked for a 17th significant digit only after
 * its loop, as a per-digit test would cost more than the whole check.
 */

static size_t read_din(stc_trace *trace, stc_ref *refs, size_t max)
{
    const unsigned char *p = trace->text + trace->parse_pos;
    const unsigned char *limit = trace->text + trace->parse_limit;
    const unsigned char *line = p;
    uint64_t lines = trace->lines;
    size_t count = 0;

    while (count < max) {
        if (p == limit) {
            trace->parse_pos = (size_t)(p - trace->text);
            trace->lines = lines;
            if (refill(trace) <= 0)
                return count;
            p = trace->text + trace->parse_pos;
            limit = trace->text + trace->parse_limit;
        }
        line = p;
        while (is_blank(*p))
            p++;
        unsigned label = (unsigned)*p - '0';
        if (label > 2 || !is_blank(p[1])) {
            p = skip_ignored_line(line, p, false);
            if (!p)
                goto bad_line;
            lines++;
            continue;
        }
        p += 2;
        while (is_blank(*p))
            p++;
        if (p[0] == '0' && (p[1] | 0x20) == 'x')
            p += 2;
        const unsigned char *digits = p;
        uint64_t address;
        unsigned digit;
        p += stc_hex_field(p, &address);
        if (p - digits == STC_HEX_FIELD_READ) {
            p = read_long_hex(digits, &address);
            if (!p)
                goto bad_line;
        }
        if (p == digits)
            goto bad_line;
        unsigned size = 4;
        if (is_blank(*p)) {
            do
                p++;
            while (is_blank(*p));
            if (is_digit(*p)) {
                size = (unsigned)*p - '0';
                while ((digit = (unsigned)*++p - '0') <= 9) {
                    if (size <= MAX_REF_SIZE)
                        size = size * 10 + digit;
                }
                if (size == 0 || size > MAX_REF_SIZE)
                    goto bad_line;
                while (is_blank(*p))
                    p++;
            }
        }
        const unsigned char *content_end = p;
        if (*p == '\r')
            p++;
        if (*p != '\n' || content_end - line > MAX_LINE)
            goto bad_line;
        p++;
        lines++;
        refs[count].addr = address;
        refs[count].size = size;
        refs[count].kind = din_label_kind[label];
        count++;
    }
    trace->parse_pos = (size_t)(p - trace->text);
    trace->lines = lines;
    return count;

bad_line:
    trace->parse_pos = (size_t)(line - trace->text);
    trace->lines = lines;
    explain_bad_line(trace, line, STC_TRACE_DIN);
    return count;
}

static size_t read_lackey(stc_trace *trace, stc_ref *refs, size_t max)
{
    const unsigned char *p = trace->text + trace->parse_pos;
    const unsigned char *limit = trace->text + trace->parse_limit;
    const unsigned char *line = p;
    uint64_t lines = trace->lines;
    size_t count = 0;

    while (count < max) {
        if (p == limit) {
            trace->parse_pos = (size_t)(p - trace->text);
            trace->lines = lines;
            if (refill(trace) <= 0)
                return count;
            p = trace->text + trace->parse_pos;
            limit = trace->text + trace->parse_limit;
        }
        line = p;
        while (is_blank(*p))
            p++;
        unsigned kind_code = lackey_kind_plus_one[*p];
        if (kind_code == 0) {
            p = skip_ignored_line(line, p, true);
            if (!p)
                goto bad_line;
            lines++;
            continue;
        }
        if (!is_blank(p[1]))
            goto bad_line;
        p += 2;
        while (is_blank(*p))
            p++;
        const unsigned char *digits = p;
        uint64_t address;
        unsigned digit;
        p += stc_hex_field(p, &address);
        if (p - digits == STC_HEX_FIELD_READ) {
            p = read_long_hex(digits, &address);
            if (!p)
                goto bad_line;
        }
        if (p == digits || *p != ',')
            goto bad_line;
        p++;
        unsigned size = (unsigned)*p - '0';
        if (size > 9)
            goto bad_line;
        while ((digit = (unsigned)*++p - '0') <= 9) {
            if (size <= MAX_REF_SIZE)
                size = size * 10 + digit;
        }
        if (size == 0 || size > MAX_REF_SIZE)
            goto bad_line;
        while (is_blank(*p))
            p++;
        const unsigned char *content_end = p;
        if (*p == '\r')
            p++;
        if (*p != '\n' || content_end - line > MAX_LINE)
            goto bad_line;
        p++;
        lines++;
        refs[count].addr = address;
        refs[count].size = size;
        refs[count].kind = (uint8_t)(kind_code - 1);
        count++;
    }
    trace->parse_pos = (size_t)(p - trace->text);
    trace->lines = lines;
    return count;

bad_line:
    trace->parse_pos = (size_t)(line - trace->text);
    trace->lines = lines;
    explain_bad_line(trace, line, STC_TRACE_LACKEY);
    return count;
}

/* ------------------------------------------------------------ public API */

stc_trace *stc_trace_open(const char *path, stc_trace_format format, char *err, size_t err_len)
{
    copy_message(err, err_len, "");
    if (format != STC_TRACE_AUTO && format != STC_TRACE_DIN && format != STC_TRACE_LACKEY) {
        if (err && err_len)
            snprintf(err, err_len, "%s: invalid trace format %d", strcmp(path, "-") == 0 ? "<stdin>" : path,
                     (int)format);
        return NULL;
    }
    stc_byte_source *source = stc_byte_source_open(path, err, err_len);
    if (!source)
        return NULL;
    stc_trace *trace = calloc(1, sizeof *trace);
    if (!trace || !(trace->buffer = calloc(1, BUFFER_CAPACITY + BUFFER_MARGIN))) {
        if (err && err_len)
            snprintf(err, err_len, "%s: out of memory", stc_byte_source_name(source));
        free(trace);
        stc_byte_source_close(source);
        return NULL;
    }
    trace->source = source;
    trace->name = stc_byte_source_name(source);
    trace->format = format;
    trace->text = trace->buffer;
    /* Plain text from a regular file is parsed where it lies (mapped_file.h);
     * anything else, or a file that cannot be mapped, is read. */
    if (strcmp(path, "-") != 0 && stc_byte_source_kind_of(source) == STC_BYTE_SOURCE_PLAIN)
        stc_mapped_file_open(path, &trace->mapped);
    return trace;
}

long stc_trace_read(stc_trace *trace, stc_ref *refs, size_t max)
{
    if (trace->failed)
        return -1;
    if (max > LONG_MAX)
        max = LONG_MAX;
    if (trace->format == STC_TRACE_AUTO) {
        int detected = detect_format(trace);
        if (detected <= 0)
            return detected;
    }
    size_t count = trace->format == STC_TRACE_DIN ? read_din(trace, refs, max) : read_lackey(trace, refs, max);
    /* Records before a bad line are delivered first; the error comes on the
     * next call, so what a caller sees does not depend on its batch size. */
    if (count == 0 && trace->failed)
        return -1;
    return (long)count;
}

const char *stc_trace_error(const stc_trace *trace)
{
    return trace->failed ? trace->error : "";
}

stc_trace_format stc_trace_format_of(const stc_trace *trace)
{
    return trace->format;
}

void stc_trace_short_name(const char *path, char *buf, size_t buf_len)
{
    const char *slash = strrchr(path, '/');
    snprintf(buf, buf_len, "%s", slash ? slash + 1 : path);
    /* The compression's suffix first, then the format's. */
    static const char *const suffixes[] = {".zst", ".gz", ".lackey", ".din", ".trace", ".txt"};
    for (size_t index = 0; index < sizeof suffixes / sizeof suffixes[0]; index++) {
        size_t len = strlen(buf), suffix = strlen(suffixes[index]);
        if (len > suffix && !strcmp(buf + len - suffix, suffixes[index])) {
            buf[len - suffix] = '\0';
        }
    }
}

uint64_t stc_trace_lines(const stc_trace *trace)
{
    return trace->lines;
}

int stc_trace_close(stc_trace *trace, char *err, size_t err_len)
{
    copy_message(err, err_len, "");
    if (!trace)
        return 0;
    int result = 0;
    if (trace->source_failed) {
        copy_message(err, err_len, trace->error);
        result = -1;
    }
    stc_byte_source_close(trace->source);
    stc_mapped_file_close(&trace->mapped);
    free(trace->buffer);
    free(trace);
    return result;
}

const char *stc_trace_format_name(stc_trace_format format)
{
    switch (format) {
    case STC_TRACE_AUTO:
        return "auto";
    case STC_TRACE_DIN:
        return "din";
    case STC_TRACE_LACKEY:
        return "lackey";
    }
    return "unknown";
}

int stc_trace_format_parse(const char *name, stc_trace_format *format)
{
    static const stc_trace_format all[] = {STC_TRACE_AUTO, STC_TRACE_DIN, STC_TRACE_LACKEY};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (name && strcmp(name, stc_trace_format_name(all[i])) == 0) {
            *format = all[i];
            return 0;
        }
    }
    return -1;
}
