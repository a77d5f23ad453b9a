/*
 * tb_common.h - what the Verilog testbench writers of tools/ share
 * (stccohtb, stcsnooptb, stcbustb): their seeded random numbers, code
 * widths, the -g geometry, and the testbench's verdict lines.
 */
#ifndef STC_TOOLS_TB_COMMON_H
#define STC_TOOLS_TB_COMMON_H

#include "geometry.h"

#include <stdint.h>

/* xorshift64*: the same traffic every run for the same seed. */
uint64_t tb_next_random(uint64_t *state);
unsigned tb_below(uint64_t *seed, unsigned bound); /* 0 .. bound - 1 */

/* ceil(log2(values)): the bits of a code for values values (0 for 1). */
unsigned tb_bits_for(unsigned values);

/* The geometry of -g LIST (NULL: the default), initialised. Returns 0, or
 * -1 after "PROGRAM: -g LIST: why" on stderr. */
int tb_geometry(const char *program, const char *list, stc_geometry *geometry);

/* The initial block's verdict: "PASS N checks" or "FAIL M of N checks"
 * (the testbench counts in integers checks and errors), then $finish. */
void tb_print_verdict(void);

#endif
