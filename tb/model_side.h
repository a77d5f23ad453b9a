/*
 * model_side.h - the C reference model's side of the lockstep: its memory
 * (the stc_memory callbacks, recording every transaction) and its counters
 * as the RTL numbers them.
 */
#ifndef STC_TB_MODEL_SIDE_H
#define STC_TB_MODEL_SIDE_H

#include "variant.h"

#include <stdint.h>

typedef struct harness harness;

/* The model's stc_memory callbacks; context is the harness. A burst reads
 * from (or writes into) h->model_mem and is appended to h->model_log. */
void model_read_burst(void *context, uint64_t addr, uint8_t *data, unsigned bytes);
void model_write_burst(void *context, uint64_t addr, const uint8_t *data, unsigned bytes);

/* The model's counters in the RTL's numbering (dut_counters), saturated to
 * the generated counter width. */
void expected_counters(harness *h, uint64_t out[NCOUNTERS]);

#endif
