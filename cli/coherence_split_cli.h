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
 * protocol, scheduled by schedule and seed; print the report (json: as
 * JSON). Returns 0, 1 (bad trace), 2 (a bad geometry: usage) or 3
 * (violations), as stcsim coherence. */
int stc_coh_split_run(const stc_coh_config *config, stc_cs_schedule schedule, uint64_t seed,
                      const char *trace_path, bool json);

#endif
