/*
 * files.h - the one list of files stcgen writes.
 *
 * Everything that needs the file list (the writer, the FuseSoC core's
 * filesets, the lint target's top) reads this table, so adding a module is
 * one emitter and one row (gen/README.md says how).
 */
#ifndef STCGEN_FILES_H
#define STCGEN_FILES_H

#include "params.h"
#include "text.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    STCGEN_VERILOG,  /* one synthesizable Verilog-2005 module, named like the file */
    STCGEN_C_HEADER, /* for the testbench */
    STCGEN_UPF,      /* IEEE 1801 power intent */
    STCGEN_CORE,     /* FuseSoC CAPI2 core description */
    STCGEN_DOC       /* Markdown for the reader; in no fileset of the core */
} stcgen_file_kind;

/* Which coherence output a file belongs to (ARCHITECTURE.md 19.1). */
typedef enum {
    STCGEN_COH_ALWAYS, /* not a coherence file: written whatever --protocol says */
    STCGEN_COH_ATOMIC, /* with --protocol on the atomic bus */
    STCGEN_COH_SPLIT,  /* with --protocol --bus split */
    STCGEN_COH_ANY     /* with --protocol, either bus */
} stcgen_coh_part;

typedef struct stcgen_file {
    const char *name;   /* file name inside the output folder */
    stcgen_file_kind kind;
    const char *module; /* STCGEN_VERILOG: the module in the file, else NULL */
    const char *title;  /* what the file is, for its header */
    bool tuner_only;    /* written only when the tuner is built */
    bool monitor_only;  /* written only with --monitor */
    stcgen_coh_part coherence;
    /* Write the whole file, header first. */
    void (*emit)(stcgen_text *text, const struct stcgen_file *file, const stcgen_params *params);
} stcgen_file;

/* The files in output order: Verilog leaves first (dependency order, as the
 * core's fileset lists them), then the others. */
size_t stcgen_files(const stcgen_file **files);

/* Is the file part of this output (a tuner file only with the tuner)? */
bool stcgen_file_wanted(const stcgen_file *file, const stcgen_params *params);

/* The module Verilator's lint target elaborates from the top: the
 * highest module written so far (the cache top, once it exists). */
const char *stcgen_lint_top(void);

/* Is name one of the files of the table? (--force replaces only folders
 * holding nothing else.) */
bool stcgen_is_output_name(const char *name);

#endif
