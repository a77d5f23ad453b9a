/*
 * stc_byte_source.c - plain, gzip or zstd bytes through one read call (the
 * contract is byte_source.h).
 *
 * Why it is built this way:
 *
 * - Decompression runs in-process, into the caller's buffer: no child
 *   process, no pipe, no extra copy of the text. The compressed bytes pass
 *   through one input buffer of IN_CHUNK bytes.
 *
 * - Plain input is read straight into the caller's buffer, so it costs what
 *   read(2) costs. Only the few bytes read to tell the kind are copied.
 *
 * - The kind is told from the first SNIFF_BYTES bytes, read at open, so an
 *   unreadable file (a directory, say) fails at open, where the caller
 *   expects file errors, and so stdin works as well as a file: nothing is
 *   ever read twice or sought back.
 *
 * - "inside" records whether the decoder is within a member or frame. An
 *   input that ends while it is set is truncated. That is the one check
 *   neither library makes for us, as both are happy to wait for more.
 *
 * - Errors are sticky. Bytes decoded before the error are delivered first
 *   and the -1 comes on the next call, so the caller parses (and can report
 *   a bad line in) all the text that exists before it hears of the damage.
 */
#include "byte_source.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>
#include <zstd.h>

#if defined(__GNUC__)
#define PRINTF_LIKE(fmt_index, args_index) __attribute__((format(printf, fmt_index, args_index)))
#else
#define PRINTF_LIKE(fmt_index, args_index)
#endif

enum {
    SNIFF_BYTES = 4,    /* the longest magic number (zstd's) */
    IN_CHUNK = 1 << 18, /* compressed bytes per read(2); >= ZSTD_DStreamInSize() */
    ERROR_LEN = 4096 + 256
};

/* The most one call hands out: fits zlib's uInt, a long and a ssize_t. */
#define MAX_READ ((size_t)1 << 30)

struct stc_byte_source {
    char *name; /* as messages show it */
    int fd;
    bool fd_owned; /* false for stdin, which belongs to the process */
    stc_byte_source_kind kind;

    /* plain: the sniffed bytes not yet handed out */
    unsigned char head[SNIFF_BYTES];
    size_t head_pos, head_len;

    /* compressed: [in_pos, in_end) of in is read but not yet decoded */
    unsigned char *in;
    size_t in_pos, in_end;
    bool inside;  /* within a gzip member or zstd frame */
    bool padding; /* gzip: within zeros after the last member */
    z_stream gzip;
    bool gzip_ready; /* inflateInit2 succeeded, so inflateEnd is due */
    ZSTD_DCtx *zstd;

    bool input_ended; /* read(2) has returned 0 */
    bool ended;       /* the content has ended: every read returns 0 */
    bool failed;      /* every read returns -1 */
    bool failure_due; /* failed, but bytes decoded before it are handed out first */
    char error[ERROR_LEN];
};

static void fail(stc_byte_source *source, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void fail(stc_byte_source *source, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(source->error, sizeof source->error, fmt, args);
    va_end(args);
    source->failure_due = true;
}

static ssize_t read_retrying(int fd, void *into, size_t len)
{
    ssize_t got;
    do
        got = read(fd, into, len);
    while (got < 0 && errno == EINTR);
    return got;
}

/* Tops up the input buffer once it is empty. Returns 0, or -1 on a read
 * error. At the end of the input it leaves the buffer empty. */
static int fill_input(stc_byte_source *source)
{
    if (source->in_pos < source->in_end || source->input_ended)
        return 0;
    ssize_t got = read_retrying(source->fd, source->in, IN_CHUNK);
    if (got < 0) {
        fail(source, "%s: %s", source->name, strerror(errno));
        return -1;
    }
    source->in_pos = 0;
    source->in_end = (size_t)got;
    source->input_ended = got == 0;
    return 0;
}

static bool input_exhausted(const stc_byte_source *source)
{
    return source->in_pos == source->in_end && source->input_ended;
}

static void fail_truncated(stc_byte_source *source)
{
    fail(source, "%s: truncated %s data (the input ends inside a %s)", source->name,
         stc_byte_source_kind_name(source->kind), source->kind == STC_BYTE_SOURCE_GZIP ? "member" : "frame");
}

/* Each decoder below stops at the first of: the caller's buffer is full,
 * more input would have to be waited for while some output is ready, the
 * content ended, or an error. */

static size_t read_plain(stc_byte_source *source, unsigned char *buf, size_t len)
{
    if (source->head_pos < source->head_len) {
        size_t count = source->head_len - source->head_pos;
        if (count > len)
            count = len;
        memcpy(buf, source->head + source->head_pos, count);
        source->head_pos += count;
        return count;
    }
    if (source->input_ended) {
        source->ended = true;
        return 0;
    }
    ssize_t got = read_retrying(source->fd, buf, len);
    if (got < 0) {
        fail(source, "%s: %s", source->name, strerror(errno));
        return 0;
    }
    if (got == 0)
        source->input_ended = source->ended = true;
    return (size_t)got;
}

static size_t read_gzip(stc_byte_source *source, unsigned char *buf, size_t len)
{
    z_stream *stream = &source->gzip;
    stream->next_out = buf;
    stream->avail_out = (uInt)len;
    for (;;) {
        size_t produced = len - stream->avail_out;
        if (source->in_pos == source->in_end && !source->input_ended) {
            if (produced > 0 || fill_input(source) != 0)
                return produced;
            continue;
        }
        if (stream->avail_out == 0)
            return produced;
        if (!source->inside) {
            if (input_exhausted(source)) {
                source->ended = true;
                return produced;
            }
            if (source->in[source->in_pos] == 0 || source->padding) {
                /* zeros after the last member, as tar pads: gzip -d ignores them */
                source->padding = true;
                while (source->in_pos < source->in_end && source->in[source->in_pos] == 0)
                    source->in_pos++;
                if (source->in_pos < source->in_end) {
                    fail(source, "%s: corrupt gzip data: garbage after the zero padding", source->name);
                    return produced;
                }
                continue;
            }
            /* more input after a member: the next member (gzip -d reads
             * them all), or garbage that inflate will reject */
            inflateReset(stream);
            source->inside = true;
        }
        stream->next_in = source->in + source->in_pos;
        stream->avail_in = (uInt)(source->in_end - source->in_pos);
        int status = inflate(stream, Z_NO_FLUSH);
        source->in_pos = source->in_end - stream->avail_in;
        if (status == Z_STREAM_END) {
            source->inside = false;
        } else if (status == Z_BUF_ERROR && input_exhausted(source)) {
            fail_truncated(source);
            return len - stream->avail_out;
        } else if (status != Z_OK && status != Z_BUF_ERROR) {
            if (status == Z_MEM_ERROR)
                fail(source, "%s: out of memory decompressing gzip data", source->name);
            else
                fail(source, "%s: corrupt gzip data: %s", source->name,
                     stream->msg ? stream->msg : status == Z_NEED_DICT ? "needs a dictionary" : "inflate failed");
            return len - stream->avail_out;
        }
    }
}

static size_t read_zstd(stc_byte_source *source, unsigned char *buf, size_t len)
{
    ZSTD_outBuffer out = {buf, len, 0};
    for (;;) {
        if (source->in_pos == source->in_end && !source->input_ended) {
            if (out.pos > 0 || fill_input(source) != 0)
                return out.pos;
            continue;
        }
        if (out.pos == out.size)
            return out.pos;
        size_t out_before = out.pos;
        ZSTD_inBuffer in = {source->in, source->in_end, source->in_pos};
        /* Past the end of a frame this starts the next one (zstd -d reads
         * them all) or rejects what follows as an unknown frame. */
        size_t hint = ZSTD_decompressStream(source->zstd, &out, &in);
        bool progress = in.pos != source->in_pos || out.pos != out_before;
        source->in_pos = in.pos;
        if (ZSTD_isError(hint)) {
            fail(source, "%s: corrupt zstd data: %s", source->name, ZSTD_getErrorName(hint));
            return out.pos;
        }
        /* 0 means a frame is complete and all its output flushed. A call
         * that did nothing says nothing: after a frame it returns the size
         * of the next frame's header, as though one had begun. */
        if (progress)
            source->inside = hint != 0;
        if (!progress && input_exhausted(source)) {
            if (source->inside)
                fail_truncated(source);
            else
                source->ended = true;
            return out.pos;
        }
    }
}

long stc_byte_source_read(stc_byte_source *source, void *buf, size_t len)
{
    if (source->failed)
        return -1;
    if (source->ended || len == 0)
        return 0;
    if (len > MAX_READ)
        len = MAX_READ;
    size_t got;
    switch (source->kind) {
    case STC_BYTE_SOURCE_GZIP:
        got = read_gzip(source, buf, len);
        break;
    case STC_BYTE_SOURCE_ZSTD:
        got = read_zstd(source, buf, len);
        break;
    default:
        got = read_plain(source, buf, len);
        break;
    }
    if (got > 0)
        return (long)got;
    if (source->failure_due) {
        source->failed = true;
        return -1;
    }
    return 0;
}

const char *stc_byte_source_error(const stc_byte_source *source)
{
    return source->failed ? source->error : "";
}

const char *stc_byte_source_name(const stc_byte_source *source)
{
    return source->name;
}

stc_byte_source_kind stc_byte_source_kind_of(const stc_byte_source *source)
{
    return source->kind;
}

const char *stc_byte_source_kind_name(stc_byte_source_kind kind)
{
    switch (kind) {
    case STC_BYTE_SOURCE_PLAIN:
        return "plain";
    case STC_BYTE_SOURCE_GZIP:
        return "gzip";
    case STC_BYTE_SOURCE_ZSTD:
        return "zstd";
    }
    return "unknown";
}

void stc_byte_source_close(stc_byte_source *source)
{
    if (!source)
        return;
    if (source->gzip_ready)
        inflateEnd(&source->gzip);
    ZSTD_freeDCtx(source->zstd); /* accepts NULL */
    if (source->fd_owned)
        close(source->fd);
    free(source->in);
    free(source->name);
    free(source);
}

/* Sets up the decoder for source->kind, moving the sniffed bytes into the
 * input buffer. Returns 0, or -1 with the error set. */
static int start_decoder(stc_byte_source *source)
{
    source->in = malloc(IN_CHUNK);
    if (!source->in) {
        fail(source, "%s: out of memory", source->name);
        return -1;
    }
    memcpy(source->in, source->head, source->head_len);
    source->in_end = source->head_len;
    source->head_len = 0;
    if (source->kind == STC_BYTE_SOURCE_GZIP) {
        /* 16 + MAX_WBITS: a gzip wrapper (header, CRC-32, length), any window */
        int status = inflateInit2(&source->gzip, 16 + MAX_WBITS);
        if (status != Z_OK) {
            fail(source, "%s: cannot start the gzip decoder: %s", source->name,
                 source->gzip.msg ? source->gzip.msg : zError(status));
            return -1;
        }
        source->gzip_ready = true;
    } else {
        source->zstd = ZSTD_createDCtx();
        if (!source->zstd) {
            fail(source, "%s: out of memory", source->name);
            return -1;
        }
    }
    return 0;
}

stc_byte_source *stc_byte_source_open(const char *path, char *err, size_t err_len)
{
    bool from_stdin = strcmp(path, "-") == 0;
    const char *name = from_stdin ? "<stdin>" : path;
    if (err && err_len)
        err[0] = '\0';
    stc_byte_source *source = calloc(1, sizeof *source);
    if (!source || !(source->name = strdup(name))) {
        if (err && err_len)
            snprintf(err, err_len, "%s: out of memory", name);
        free(source);
        return NULL;
    }
    source->fd = STDIN_FILENO;
    if (!from_stdin) {
        source->fd = open(path, O_RDONLY | O_CLOEXEC);
        if (source->fd < 0) {
            fail(source, "%s: %s", name, strerror(errno));
            goto failed;
        }
        source->fd_owned = true;
    }

    while (source->head_len < SNIFF_BYTES && !source->input_ended) {
        ssize_t got = read_retrying(source->fd, source->head + source->head_len, SNIFF_BYTES - source->head_len);
        if (got < 0) {
            fail(source, "%s: %s", name, strerror(errno));
            goto failed;
        }
        source->head_len += (size_t)got;
        source->input_ended = got == 0;
    }
    const unsigned char *magic = source->head;
    if (source->head_len >= 2 && magic[0] == 0x1f && magic[1] == 0x8b)
        source->kind = STC_BYTE_SOURCE_GZIP;
    else if (source->head_len >= 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f && magic[3] == 0xfd)
        source->kind = STC_BYTE_SOURCE_ZSTD;
    if (source->kind != STC_BYTE_SOURCE_PLAIN && start_decoder(source) != 0)
        goto failed;
    return source;

failed:
    if (err && err_len)
        snprintf(err, err_len, "%s", source->error);
    stc_byte_source_close(source);
    return NULL;
}
