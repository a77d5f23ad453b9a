/*
 * mc_trace.c - multi-core trace reader (the contract is mc_trace.h).
 *
 * Input is read in chunks into one buffer and split at '\n'. Compressed
 * input is handed to a gzip/zstd child as ref/trace.c does (see its header
 * for the reasons): for a regular file the child reads the file itself from
 * its start; for a pipe a second child, the feeder, writes the bytes already
 * sniffed and copies the rest. When the decompressed stream ends the child
 * is reaped and a failure is an error (a corrupt or truncated file).
 */
#include "mc_trace.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__GNUC__)
#define PRINTF_LIKE(fmt_index, args_index) __attribute__((format(printf, fmt_index, args_index)))
#else
#define PRINTF_LIKE(fmt_index, args_index)
#endif

enum {
    CHUNK = 1 << 16,
    MAX_LINE = 4096,
    MAX_SIZE = 4096,
    SNIFF = 4,
    SHOWN = 40
};

struct stc_mc_trace {
    char *name;
    unsigned cores;
    int fd;
    bool fd_owned;
    pid_t child;  /* decompressor, 0 if none */
    pid_t feeder; /* 0 if none */
    const char *decompressor;
    char *buffer; /* MAX_LINE + 2 + CHUNK */
    size_t pos, end;
    bool eof;
    uint64_t line;
    bool failed;
    char error[512];
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

static ssize_t read_retrying(int fd, void *into, size_t len)
{
    ssize_t got;
    do
        got = read(fd, into, len);
    while (got < 0 && errno == EINTR);
    return got;
}

static int write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t written = write(fd, data, len);
        if (written < 0 && errno == EINTR)
            continue;
        if (written < 0)
            return -1;
        data += written;
        len -= (size_t)written;
    }
    return 0;
}

static void reap(pid_t *pid, bool kill_first, int *status)
{
    int ignored;
    if (*pid <= 0)
        return;
    if (kill_first)
        kill(*pid, SIGKILL);
    while (waitpid(*pid, status ? status : &ignored, 0) < 0 && errno == EINTR) {
    }
    *pid = 0;
}

/* Replace trace->fd by a decompressor's stdout; the first trace->end bytes
 * of the input are already in the buffer. */
static int start_decompressor(stc_mc_trace *trace, const char *program)
{
    int input = trace->fd;
    int feed[2] = {-1, -1}, out[2] = {-1, -1};
    struct stat st;
    trace->decompressor = program;
    if (!(fstat(trace->fd, &st) == 0 && S_ISREG(st.st_mode) && lseek(trace->fd, 0, SEEK_SET) == 0)) {
        if (pipe(feed) != 0)
            goto fail_system;
        trace->feeder = fork();
        if (trace->feeder < 0) {
            trace->feeder = 0;
            goto fail_system;
        }
        if (trace->feeder == 0) {
            close(feed[0]);
            if (write_all(feed[1], trace->buffer, trace->end) != 0)
                _exit(1);
            for (;;) {
                ssize_t got = read_retrying(trace->fd, trace->buffer, CHUNK);
                if (got == 0)
                    _exit(0);
                if (got < 0 || write_all(feed[1], trace->buffer, (size_t)got) != 0)
                    _exit(1);
            }
        }
        close(feed[1]);
        feed[1] = -1;
        input = feed[0];
    }
    if (pipe(out) != 0)
        goto fail_system;
    trace->child = fork();
    if (trace->child < 0) {
        trace->child = 0;
        goto fail_system;
    }
    if (trace->child == 0) {
        char *const argv[] = {(char *)program, strcmp(program, "zstd") == 0 ? "-dcq" : "-dc", NULL};
        close(out[0]);
        if (dup2(input, STDIN_FILENO) >= 0 && dup2(out[1], STDOUT_FILENO) >= 0)
            execvp(program, argv);
        _exit(127); /* reported as "gzip failed (exit status 127)" at the end */
    }
    close(out[1]);
    fcntl(out[0], F_SETFD, FD_CLOEXEC); /* no later child keeps the stream open */
    if (feed[0] >= 0)
        close(feed[0]);
    if (trace->fd_owned)
        close(trace->fd);
    trace->fd = out[0];
    trace->fd_owned = true;
    trace->end = 0;
    return 0;

fail_system:
    fail(trace, "%s: cannot start %s: %s", trace->name, program, strerror(errno));
    for (int i = 0; i < 2; i++) {
        if (feed[i] >= 0)
            close(feed[i]);
        if (out[i] >= 0)
            close(out[i]);
    }
    reap(&trace->feeder, true, NULL);
    return -1;
}

static int finish_decompression(stc_mc_trace *trace)
{
    int status = 0;
    if (trace->child <= 0)
        return 0;
    reap(&trace->child, false, &status);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        reap(&trace->feeder, true, NULL);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
            fail(trace, "%s: %s failed (exit status 127: is %s installed?)", trace->name,
                 trace->decompressor, trace->decompressor);
        else
            fail(trace, "%s: %s failed (%s %d): corrupt or truncated compressed input?",
                 trace->name, trace->decompressor, WIFEXITED(status) ? "exit status" : "signal",
                 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        return -1;
    }
    reap(&trace->feeder, false, NULL);
    return 0;
}

void stc_mc_trace_close(stc_mc_trace *trace)
{
    if (!trace)
        return;
    if (trace->child > 0)
        kill(trace->child, SIGKILL);
    if (trace->feeder > 0)
        kill(trace->feeder, SIGKILL);
    if (trace->fd_owned)
        close(trace->fd);
    reap(&trace->child, true, NULL);
    reap(&trace->feeder, true, NULL);
    free(trace->buffer);
    free(trace->name);
    free(trace);
}

stc_mc_trace *stc_mc_trace_open(const char *path, unsigned cores, char *err, size_t err_len)
{
    bool from_stdin = strcmp(path, "-") == 0;
    const char *name = from_stdin ? "<stdin>" : path;
    stc_mc_trace *trace = calloc(1, sizeof *trace);
    if (!trace || !(trace->name = strdup(name)) ||
        !(trace->buffer = malloc((size_t)MAX_LINE + 2 + CHUNK))) {
        if (err && err_len)
            snprintf(err, err_len, "%s: out of memory", name);
        if (trace)
            free(trace->name);
        free(trace);
        return NULL;
    }
    trace->cores = cores;
    trace->fd = STDIN_FILENO;
    if (!from_stdin) {
        trace->fd = open(path, O_RDONLY | O_CLOEXEC);
        if (trace->fd < 0) {
            if (err && err_len)
                snprintf(err, err_len, "%s: %s", name, strerror(errno));
            trace->fd = STDIN_FILENO;
            stc_mc_trace_close(trace);
            return NULL;
        }
        trace->fd_owned = true;
    }
    while (trace->end < SNIFF && !trace->eof) {
        ssize_t got = read_retrying(trace->fd, trace->buffer + trace->end, CHUNK);
        if (got < 0) {
            if (err && err_len)
                snprintf(err, err_len, "%s: %s", name, strerror(errno));
            stc_mc_trace_close(trace);
            return NULL;
        }
        if (got == 0)
            trace->eof = true;
        trace->end += (size_t)got;
    }
    const unsigned char *magic = (const unsigned char *)trace->buffer;
    const char *program = NULL;
    if (trace->end >= 2 && magic[0] == 0x1f && magic[1] == 0x8b)
        program = "gzip";
    else if (trace->end >= 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f &&
             magic[3] == 0xfd)
        program = "zstd";
    if (program && start_decompressor(trace, program) != 0) {
        if (err && err_len)
            snprintf(err, err_len, "%s", trace->error);
        stc_mc_trace_close(trace);
        return NULL;
    }
    if (program)
        trace->eof = false;
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
        ssize_t got = read_retrying(trace->fd, trace->buffer + trace->end, CHUNK);
        if (got < 0) {
            fail(trace, "%s: %s", trace->name, strerror(errno));
            return -1;
        }
        if (got == 0) {
            trace->eof = true;
            if (finish_decompression(trace) != 0)
                return -1;
        }
        trace->end += (size_t)got;
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

int stc_mc_trace_next(stc_mc_trace *trace, stc_mc_ref *ref)
{
    char shown[SHOWN * 4 + 8];
    if (trace->failed)
        return -1;
    for (;;) {
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
