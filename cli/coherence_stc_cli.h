/*
 * coherence_stc_cli.h - `stcsim coherence --stc-config LIST`: the
 * multi-core trace through N coherent configurable stc caches
 * (ref/coherent_stc.h, docs/COHERENCE.md section 11). cli/coherence_cli.c
 * reads the command line and hands such a run over here.
 */
#ifndef STC_CLI_COHERENCE_STC_H
#define STC_CLI_COHERENCE_STC_H

#include "coherence_protocol.h"

#include <stdbool.h>

typedef struct {
    const char *program;      /* what messages begin with ("stcsim coherence") */
    unsigned cores;
    stc_coh_protocol protocol;
    const char *stc_configs;  /* --stc-config: configuration names, one, or one per core */
    const char *geometry;     /* -g/--geometry's assignments, or NULL for the default */
    const char *trace_path;
    bool json;
} stc_coh_stc_request;

/* Build the system, run the trace, print. Returns the exit status of
 * `stcsim coherence`: 0, 1 (trace), 2 (a bad --stc-config or --geometry,
 * after a message naming the option), 3 (violations found). */
int stc_coh_stc_run(const stc_coh_stc_request *request);

#endif
