/*
 * mapped_file.h - a regular file's bytes mapped into memory, read-only.
 *
 * The trace reader parses plain text files in place rather than copying
 * them into a buffer with read(2): on a trace of ~100 MB the copy alone
 * is about a tenth of the parsing time. Mapping is an optimisation only:
 * when it is not possible (standard input, a pipe, an empty file, a
 * system without mmap) the caller reads as before. As with any mapping, a
 * file truncated by another process while mapped ends the process
 * (SIGBUS); traces are not written while they are read.
 */
#ifndef STC_MAPPED_FILE_H
#define STC_MAPPED_FILE_H

#include <stddef.h>

typedef struct {
    const unsigned char *bytes; /* NULL when not mapped */
    size_t size;
} stc_mapped_file;

/* Map the regular file at path. Returns 0 with the mapping in *file, or -1
 * (nothing to release) when it cannot be mapped, for whatever reason: the
 * caller then reads the file instead, and reports that path's errors. */
int stc_mapped_file_open(const char *path, stc_mapped_file *file);

/* Release a mapping; a file that was not mapped is ignored. */
void stc_mapped_file_close(stc_mapped_file *file);

#endif
