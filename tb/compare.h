/*
 * compare.h - the comparisons between the model and the RTL after an
 * operation. Each reports the first difference through mismatch() (which
 * does not return); `when` says after what, for the report.
 */
#ifndef STC_TB_COMPARE_H
#define STC_TB_COMPARE_H

#include <stdint.h>

typedef struct harness harness;

/* The operation's memory transactions, in order: direction, line, length
 * and every beat's data; then both logs are emptied. */
void compare_transactions(harness *h, const char *when);
/* All counters (except cycles and reconfig_cycles with random memory), and
 * the tuner's event strobe counts against their counters. Reads the RTL's
 * counters unless the operation just did (h->counts_fresh). */
void compare_counters(harness *h, const char *when);
/* Every counter through the RTL's read port (cnt_sel_i / cnt_value_o, the
 * derived ones included, and one number past the last, which reads 0)
 * against the model, between requests. */
void compare_counter_port(harness *h, const char *when);
/* Valid and dirty bits of every bank in rows first .. first+count-1, and
 * the tag and line of the valid slots of the banks in `slots` (bit b =
 * bank b). */
void compare_rows(harness *h, unsigned first, unsigned count, uint32_t slots, const char *when);
/* The configuration outputs against the model's configuration. */
void compare_config(harness *h, const char *when);
/* Checkpoint: the model's and the RTL's memory images against the shadow,
 * byte for byte. */
void compare_images(harness *h);

#endif
