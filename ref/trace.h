/*
 * trace.h - streaming readers for memory-reference traces.
 *
 * Two text formats are understood:
 *
 *   din     DineroIV's classic input: one record per line, "LABEL ADDRESS"
 *           with an optional third field SIZE (decimal bytes, default 4).
 *           LABEL 0 = data read, 1 = data write, 2 = instruction fetch.
 *           ADDRESS is hexadecimal, with or without a 0x prefix.
 *
 *   lackey  valgrind --tool=lackey --trace-mem=yes output: "I  ADDR,SIZE",
 *           " L ADDR,SIZE", " S ADDR,SIZE", " M ADDR,SIZE" (ADDR hex, SIZE
 *           decimal). Lines starting with "==" (valgrind's own messages) are
 *           skipped.
 *
 * Blank lines and lines starting with '#' are skipped in both formats.
 * Fields are separated by spaces or tabs; "\r\n" line ends and a last line
 * without '\n' are accepted. SIZE is 1..4096; lines are at most 4096
 * characters.
 * Input may be a file or standard input ("-"), plain, gzip or zstd
 * compressed (detected from the magic bytes, decompressed in-process by
 * ref/byte_source.h). Memory use is constant in the length of the trace: a
 * plain regular file is mapped (ref/mapped_file.h) and parsed in place, its
 * pages the kernel's page cache rather than the reader's memory; anything
 * else goes through one buffer.
 *
 * A malformed record stops the stream with an error "FILE:LINE: message";
 * the reader never guesses.
 */
#ifndef STC_TRACE_H
#define STC_TRACE_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    STC_REF_IFETCH = 0, /* instruction fetch: I-cache read */
    STC_REF_LOAD = 1,   /* data read */
    STC_REF_STORE = 2,  /* data write */
    STC_REF_MODIFY = 3  /* data read then write of the same bytes (lackey M) */
} stc_ref_kind;

typedef struct {
    uint64_t addr; /* full address as written in the trace */
    uint32_t size; /* bytes, >= 1 */
    uint8_t kind;  /* stc_ref_kind */
} stc_ref;

typedef enum {
    STC_TRACE_AUTO = 0, /* decide from the first record */
    STC_TRACE_DIN = 1,
    STC_TRACE_LACKEY = 2
} stc_trace_format;

typedef struct stc_trace stc_trace;

/* Open PATH ("-" for stdin). Returns NULL and writes a message naming the
 * file into err on failure. */
stc_trace *stc_trace_open(const char *path, stc_trace_format format, char *err, size_t err_len);

/* Read up to max references into refs. Returns the number read, 0 at the
 * end of the trace, -1 on error (see stc_trace_error). The references before
 * a malformed line are returned first, the -1 comes on the next call, and
 * every call after an error returns -1 again. Corrupt or truncated
 * compressed input is an error here once the text before the damage has
 * been returned: "FILE: corrupt zstd data: ..." or "FILE: truncated gzip
 * data ...". */
long stc_trace_read(stc_trace *trace, stc_ref *refs, size_t max);

/* "FILE:LINE: message" for the last error, or "" if none. */
const char *stc_trace_error(const stc_trace *trace);

/* The format in use (after auto-detection: STC_TRACE_AUTO until the first
 * record has been read). */
stc_trace_format stc_trace_format_of(const stc_trace *trace);

/* A trace's name for tables: the file name without its folder and without
 * the suffixes .zst, .gz, .lackey, .din, .trace, .txt, e.g.
 * "build/traces/djpeg.i386.lackey.zst" -> "djpeg.i386". */
void stc_trace_short_name(const char *path, char *buf, size_t buf_len);

/* Number of input lines consumed so far. */
uint64_t stc_trace_lines(const stc_trace *trace);

/* Close and free the reader. Returns 0, or -1 with the message in err if
 * reading the input failed (corrupt or truncated compressed input, a read
 * error), so a caller that only checks close still learns the trace was cut
 * short; a malformed line is not repeated here. Closing before the end of
 * the trace is not an error, and the unread rest is not checked. */
int stc_trace_close(stc_trace *trace, char *err, size_t err_len);

/* "din" or "lackey" (or "auto"). */
const char *stc_trace_format_name(stc_trace_format format);

/* Parse "din", "lackey" or "auto"; returns -1 if unknown. */
int stc_trace_format_parse(const char *name, stc_trace_format *format);

#endif
