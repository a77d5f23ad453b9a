/*
 * variant.h - the geometry and build variant this harness is compiled for.
 *
 * The harness is built once per generated geometry (tb/lockstep.mk): the
 * geometry comes from the generator's C header stc_geometry_gen.h of that
 * build, and the variant flags below from the compiler's -D options.
 */
#ifndef STC_TB_VARIANT_H
#define STC_TB_VARIANT_H

#include "cache.h"
#include "dut.h"
#include "stc_geometry_gen.h"

enum {
    PAGE_BITS = 12,              /* memory images are made of pages of 2^12 bytes */
    PAGE_BYTES = 1 << PAGE_BITS,
    LINE_BYTES = STC_GEN_LINE_BYTES,
    BEATS = STC_GEN_BEATS_PER_LINE, /* memory beats (words) per physical line */
    BANKS = STC_GEN_BANKS,
    ROWS = STC_GEN_ROWS,
    MAX_BURST_WORDS = STC_MAX_SUBLINES * STC_GEN_BEATS_PER_LINE,
    HISTORY = 16,                /* operations kept for the mismatch report */
    TIMEOUT_CYCLES = 200000,     /* a request unanswered this long is a mismatch */
    NCOUNTERS = DUT_COUNTERS
};

/* LOCKSTEP_ICACHE=1: the top built with READ_ONLY = 1 (an I-cache) and the
 * model as an I-cache: stores must be answered with cpu_rsp_err_o in one
 * cycle and change nothing (section 15). */
#ifndef LOCKSTEP_ICACHE
#define LOCKSTEP_ICACHE 0
#endif

/* LOCKSTEP_FIXED=1: the top generated with stcgen --fixed CONFIG (the
 * non-configurable baseline, ARCHITECTURE.md 14.1): it starts in
 * STC_GEN_RESET_CONFIG and must refuse every configuration request in the
 * accepting cycle; the model stays in that configuration. */
#ifndef LOCKSTEP_FIXED
#define LOCKSTEP_FIXED 0
#endif

/* LOCKSTEP_SIM_SRAM=1: the SRAMs are Verilated with their own simulation
 * model (no SYNTHESIS), which loses a bank's contents by itself: the
 * harness does not scramble them. */
#ifndef LOCKSTEP_SIM_SRAM
#define LOCKSTEP_SIM_SRAM 0
#endif

/* LOCKSTEP_PAIR_SIDE=1 or 2: the top is stc_cache_pair and the harness
 * drives its I side (1, with LOCKSTEP_ICACHE=1: no store ports, so no
 * stores; a trace gives its instruction fetches) or its D side (2: a trace
 * gives its loads, stores and modifies); the other side is held idle and
 * must stay so. 0: the top stc_cache. */
#ifndef LOCKSTEP_PAIR_SIDE
#define LOCKSTEP_PAIR_SIDE 0
#endif

/* The generated geometry (stc_geometry_default with the header's banks,
 * bank bytes, line bytes and address bits; memory latency and wake time
 * left at their defaults), not yet through stc_geometry_init. */
static inline stc_geometry generated_geometry(void)
{
    stc_geometry geometry;
    stc_geometry_default(&geometry);
    geometry.banks = STC_GEN_BANKS;
    geometry.bank_bytes = STC_GEN_BANK_BYTES;
    geometry.line_bytes = STC_GEN_LINE_BYTES;
    geometry.addr_bits = STC_GEN_ADDR_BITS;
    return geometry;
}

#if STC_GEN_ADDR_BITS > 36
#error "the lockstep harness keeps a page table of the whole address space: addr_bits <= 36"
#endif

#endif
