/*
 * coherence_stc_cli.h - `stcsim coherence --stc-config LIST`: the
 * multi-core trace through N coherent configurable stc caches
 * (ref/coherent_stc.h, docs/COHERENCE.md section 11), with each core's
 * energy priced by its configuration (ref/coherence_energy.h,
 * docs/ENERGY.md 3.9.1); and `stcsim coherence --stc-tune START`: every
 * core's configuration chosen by oracle coordinate descent on the
 * system's energy (ref/coherent_tune.h, docs/COHERENCE.md 11.8).
 * cli/coherence_cli.c reads the command line and hands such a run over
 * here.
 */
#ifndef STC_CLI_COHERENCE_STC_H
#define STC_CLI_COHERENCE_STC_H

#include "coherence_energy.h"
#include "coherence_protocol.h"
#include "coherent_cycles.h"
#include "coherent_split.h"

#include <stdbool.h>

/* --stc-config's value that runs every legal configuration, the same on
 * every core, each a whole run of the trace (docs/COHERENCE.md 11.4). */
#define STC_COH_STC_ALL "all"

typedef struct {
    const char *program;      /* what messages begin with ("stcsim coherence") */
    unsigned cores;
    stc_coh_protocol protocol;
    const char *stc_configs;  /* --stc-config: configuration names, one, or one per core,
                                 or STC_COH_STC_ALL */
    const char *stc_tune;     /* --stc-tune: the descent's start, names as --stc-config;
                                 exactly one of stc_configs and stc_tune is set */
    const char *geometry;     /* -g/--geometry's assignments, or NULL for the default */
    stc_sf_config snoop_filter; /* --snoop-filter: every cache's (COHERENCE.md 11.10); with
                                   --stc-config only (kind STC_SF_NONE with --stc-tune) */
    const char *trace_path;
    bool json;
    bool rows;                /* --rows: the table's row coverage (one atomic run only) */
    /* --bus split (with --stc-config only): the split-transaction bus of
     * ref/coherent_stc_split.h, scheduled by schedule and seed
     * (docs/COHERENCE.md section 12) */
    bool split;
    stc_cs_schedule schedule;
    uint64_t seed;
    uint32_t wb_buffer; /* --wb-buffer: entries per cache on the split bus (0: none) */
} stc_coh_stc_request;

/* Build the system, run the trace (with --stc-tune: tune, then run the
 * start, the single-cache choices and the tuned assignment; with
 * --stc-config all: every legal configuration on every core, one run each,
 * and the cheapest by the system's energy), print.
 * With split, the trace through the stc caches on the split-transaction
 * bus instead (the split bus's counters, the caches' own, each core's
 * energy priced by its configuration without leakage: that bus has no
 * cycles). Returns the exit status of `stcsim coherence`: 0, 1 (trace), 2 (a bad
 * --stc-config, --stc-tune or --geometry, after a message naming the
 * option), 3 (violations found). */
int stc_coh_stc_run(const stc_coh_stc_request *request);

/* An energy breakdown as one JSON object {"access": .., "snoop": ..,
 * "memory_read": .., "c2c": .., "memory_write": .., "bus": ..,
 * ["filter": .., if with_filter] "total": ..} (%.6g), as every
 * `stcsim coherence` run prints it. */
void stc_coh_print_energy_json(const stc_coh_energy *energy, bool with_filter);

/* The same object with leakage and the processor's stall: ..., "total":
 * .., "static": .., "total_with_static": .., "stall": ..,
 * "total_with_stall": ..} (the atomic runs, which have cycles). The stc
 * atomic runs (--stc-config, --stc-tune) add, after these, the split by
 * where the energy is spent (docs/ENERGY.md 3.9.3): "cache_lines", "cache",
 * "offchip", "bus_data", "probe_stall". */
void stc_coh_print_energy_static_json(const stc_coh_energy *energy, bool with_filter);

/* The cycles of an atomic run (docs/COHERENCE.md 9.10) as text rows after
 * the counters, names padded to name_width: cycles, stall_cycles,
 * bus_cycles, waited_cycles per core, the total column the run's (cycles:
 * the latest core's; the others summed), then a line "bus: busy B
 * of C cycles (U %), ..." with the timing. */
void stc_coh_print_cycles_text(int name_width, const stc_coh_core_cycles *per_core,
                               unsigned cores, const stc_coh_run_cycles *run,
                               const stc_coh_bus_timing *timing);

/* The same as a JSON member (",\n \"cycles\": {...}"): "timing", "per_core"
 * [{"cycles", "stall_cycles", "bus_cycles", "waited_cycles"}], "total"
 * {"cycles", "stall_cycles", "bus_busy_cycles", "bus_utilisation",
 * "waited_cycles"}. */
void stc_coh_print_cycles_json(const stc_coh_core_cycles *per_core, unsigned cores,
                               const stc_coh_run_cycles *run, const stc_coh_bus_timing *timing);

#endif
