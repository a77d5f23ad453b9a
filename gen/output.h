/*
 * output.h - putting a set of generated files on disk all at once.
 *
 * The files go into a fresh temporary folder beside the destination
 * (".NAME.tmp.XXXXXX" in the same parent folder) and that folder is renamed
 * to the destination at the end, so a failure at any point leaves no
 * output folder and no temporary folder behind. An existing destination is
 * replaced only when the caller allows it and only when it holds nothing
 * but files stcgen writes: it is renamed aside, the new folder renamed in,
 * and the old one removed.
 */
#ifndef STCGEN_OUTPUT_H
#define STCGEN_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    const char *name; /* plain file name */
    const char *data;
    size_t len;
} stcgen_output_file;

typedef enum {
    STCGEN_OUTPUT_OK = 0,
    STCGEN_OUTPUT_IO = 1,      /* a system call failed */
    STCGEN_OUTPUT_REFUSED = 2  /* destination exists (no --force) or is not ours */
} stcgen_output_status;

/* Write files into the folder dir. On failure err holds the message and
 * nothing was created. The environment variable STCGEN_TEST_FAIL_AFTER=N
 * makes the write fail after N files, to test exactly that. */
stcgen_output_status stcgen_output_write(const char *dir, bool replace,
                                         const stcgen_output_file *files, size_t count,
                                         char *err, size_t err_len);

#endif
