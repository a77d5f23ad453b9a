/*
 * coherence_split_cli.h - `stcsim coherence --bus split`: the run and the
 * report on the split-transaction bus (coherent_split.h), called by
 * cli/coherence_cli.c once it has read the options (docs/COHERENCE.md 10).
 */
#ifndef STC_CLI_COHERENCE_SPLIT_CLI_H
#define STC_CLI_COHERENCE_SPLIT_CLI_H

#include "coherent.h"
#include "coherent_split.h"

#include <stdbool.h>

/* Run trace_path through the split system of config's cores, geometry and
 * protocol, scheduled by schedule and seed, each cache with a writeback
 * buffer of wb_buffer entries (0..STC_CS_MAX_WB_BUFFER; 0: none, the
 * frame-held eviction: docs/COHERENCE.md 10.11); print the report (json: as
 * JSON; the buffer is named only when there is one, so a run without it
 * prints what it always printed). Returns 0, 1 (bad trace), 2 (a bad
 * geometry or buffer: usage) or 3 (violations), as stcsim coherence. */
int stc_coh_split_run(const stc_coh_config *config, stc_cs_schedule schedule, uint64_t seed,
                      uint32_t wb_buffer, const char *trace_path, bool json);

/* The end of a split-bus report, shared by the stc caches' (--stc-config
 * with --bus split): the line "steps S, mean latency L steps" (total: the
 * cores' summed counters) and the violations, as text; the violations as
 * the JSON object's last member (",\n \"violations\": {...}}" and the
 * closing brace of the report). */
void stc_coh_split_print_steps_text(const stc_cs_system *system, const stc_cs_counters *total);
void stc_coh_split_print_violations_json(const stc_cs_system *system);

#endif
