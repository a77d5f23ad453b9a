/*
 * coherence_rows.h - `stcsim coherence --rows`: how often each (state,
 * event) pair of the protocol's table ran in an atomic run (the model's
 * stc_coh_row_uses, coherence_protocol.h), the coverage a protocol tester
 * or the lockstep harness reports (docs/COHERENCE.md 9.5).
 */
#ifndef STC_CLI_COHERENCE_ROWS_H
#define STC_CLI_COHERENCE_ROWS_H

#include "coherence_protocol.h"

/* Text: a line "rows: R of the table's N possible rows ran ...", then one
 * line per row of the table (processor rows, then snoop rows) with its
 * count, impossible rows marked (they count in neither R nor N); then any
 * pair that is no row of the table but ran (the run's violations name
 * them). */
void stc_coh_rows_print_text(const stc_coh_table *table, const stc_coh_row_uses *uses);

/* The same as one JSON object: {"ran": R, "of": N, "proc": [{"state",
 * "event", "uses", "impossible"}...], "snoop": [{"state", "bus", "uses",
 * "impossible"}...], "not_rows": [...]} (no newline). */
void stc_coh_rows_print_json(const stc_coh_table *table, const stc_coh_row_uses *uses);

#endif
