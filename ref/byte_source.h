/*
 * byte_source.h - the bytes of a file or of standard input, decompressed
 * in-process when they are gzip or zstd.
 *
 * The trace readers (ref/trace.c, ref/mc_trace.c) read text through this
 * and never see the compression. The kind is recognised from the first
 * bytes, not from the file name:
 *
 *   gzip   1f 8b          one or more members, as `gzip -d` accepts them
 *                         (a concatenation such as `cat a.gz b.gz` reads as
 *                         the concatenated text; zero bytes after the last
 *                         member are ignored); decoded with zlib.
 *   zstd   28 b5 2f fd    one or more frames (skippable frames are
 *                         skipped), as `zstd -d` accepts them; decoded with
 *                         libzstd's streaming decoder.
 *   plain  anything else, including input shorter than a magic number:
 *                         passed through unchanged.
 *
 * Compressed data is checked as `gzip -d` / `zstd -d` would check it
 * (checksums included, and anything else after the data is an error), and
 * the input must end exactly at the end of a member or frame: a damaged
 * input is an error, never silently shortened text. Memory use does not
 * grow with the length of the input: one input buffer and the decoder's
 * state (for zstd, the frame's window: at most 128 MiB, libzstd's default
 * limit; 8 MiB or less for `zstd -19` and below).
 *
 * Errors are messages that start with the file's name as given to
 * stc_byte_source_open ("<stdin>" for "-"), for example
 *   "trace.zst: corrupt zstd data: Restored data doesn't match checksum"
 *   "trace.gz: truncated gzip data (the input ends inside a member)"
 *   "trace.txt: Is a directory"
 *
 * A stc_byte_source is used by one thread at a time; separate sources are
 * independent (there is no global state).
 */
#ifndef STC_BYTE_SOURCE_H
#define STC_BYTE_SOURCE_H

#include <stddef.h>

typedef struct stc_byte_source stc_byte_source;

typedef enum {
    STC_BYTE_SOURCE_PLAIN = 0,
    STC_BYTE_SOURCE_GZIP = 1,
    STC_BYTE_SOURCE_ZSTD = 2
} stc_byte_source_kind;

/* Open PATH, or standard input for "-", and read its first bytes to tell
 * the kind. Returns the source, to be released with stc_byte_source_close, or
 * NULL with a message naming the file in err (truncated to err_len; err may
 * be NULL) if the file cannot be opened or read, or memory runs out.
 * Standard input is read but never closed. */
stc_byte_source *stc_byte_source_open(const char *path, char *err, size_t err_len);

/* Put up to len bytes of the (decompressed) content into buf. Returns the
 * number of bytes stored, at least 1 unless len is 0; 0 once the content
 * has ended (and again on every later call); -1 on an error
 * (stc_byte_source_error says which), and -1 again on every later call. Like
 * read(2) it may return fewer than len bytes before the end, and it only
 * blocks when it has no byte to give. Bytes returned before an error are
 * correct content: for a truncated or corrupt stream they are the text
 * decoded before the damage, the -1 comes when the damage is reached. */
long stc_byte_source_read(stc_byte_source *source, void *buf, size_t len);

/* The message for the error that made stc_byte_source_read return -1, or "" if
 * there was none. Owned by the source, valid until stc_byte_source_close. */
const char *stc_byte_source_error(const stc_byte_source *source);

/* The file's name as messages show it: the path given to stc_byte_source_open,
 * or "<stdin>". Owned by the source, valid until stc_byte_source_close. */
const char *stc_byte_source_name(const stc_byte_source *source);

/* How the content is stored in the file. */
stc_byte_source_kind stc_byte_source_kind_of(const stc_byte_source *source);

/* "plain", "gzip" or "zstd". */
const char *stc_byte_source_kind_name(stc_byte_source_kind kind);

/* Release the source and close its file (not standard input). Closing
 * before the end is fine: nothing is left behind. NULL is ignored. */
void stc_byte_source_close(stc_byte_source *source);

#endif
