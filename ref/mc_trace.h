/*
 * mc_trace.h - a streaming reader of multi-core memory-reference traces
 * (docs/COHERENCE.md section 9.4).
 *
 * One record per line: "CORE LABEL ADDRESS [SIZE]"
 *   CORE     decimal core number, 0 .. cores - 1 (cores given at open);
 *   LABEL    0 data read, 1 data write, 2 instruction fetch (as DineroIV);
 *   ADDRESS  hexadecimal, with or without 0x, at most 64 bits;
 *   SIZE     decimal bytes, 1..4096, default 4.
 * Fields are separated by spaces or tabs; blank lines and lines starting
 * with '#' are skipped; "\r\n" line ends and a last line without '\n' are
 * accepted; lines are at most 4096 characters.
 *
 * Input: a file or standard input ("-"), plain, gzip or zstd (recognised by
 * the magic bytes, decompressed in-process by ref/byte_source.h as for
 * ref/trace.h). Memory use is constant in the length of the trace.
 *
 * A malformed record stops the stream with "FILE:LINE: message" (bad core,
 * core >= cores, bad label, bad address, bad size, extra fields, line too
 * long); a corrupt or truncated compressed file with "FILE: corrupt zstd
 * data: ..." or "FILE: truncated gzip data ...". The reader never guesses
 * and never crashes on bad input.
 */
#ifndef STC_MC_TRACE_H
#define STC_MC_TRACE_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    STC_MC_READ = 0,
    STC_MC_WRITE = 1,
    STC_MC_FETCH = 2
} stc_mc_label;

typedef struct {
    uint64_t addr;
    uint32_t size;  /* bytes, 1..4096 */
    unsigned core;  /* < cores */
    stc_mc_label label;
} stc_mc_ref;

typedef struct stc_mc_trace stc_mc_trace;

/* Open PATH ("-" for stdin) for a system of cores cores (>= 1). NULL with a
 * message naming the file in err on failure. */
stc_mc_trace *stc_mc_trace_open(const char *path, unsigned cores, char *err, size_t err_len);

/* The next record: 1 and *ref filled, 0 at the end of the trace, -1 on an
 * error (stc_mc_trace_error); after an error every call returns -1. */
int stc_mc_trace_next(stc_mc_trace *trace, stc_mc_ref *ref);

/* "FILE:LINE: message" (or "FILE: message"), or "" if no error. */
const char *stc_mc_trace_error(const stc_mc_trace *trace);

/* The file's name as messages show it ("<stdin>" for "-"), and the number
 * of the line last read (the record just returned). */
const char *stc_mc_trace_name(const stc_mc_trace *trace);
uint64_t stc_mc_trace_line(const stc_mc_trace *trace);

/* Close and free the reader (NULL is ignored); closing before the end is
 * fine. */
void stc_mc_trace_close(stc_mc_trace *trace);

#endif
